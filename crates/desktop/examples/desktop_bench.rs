//! Desktop driver figures: screen capture + PNG encode per frame, and input round trip
//! (a key press until an xterm shows it). Run at full-HD under a private display:
//!
//!   WITH_DISPLAY_SIZE=1920x1080 scripts/with-display \
//!     cargo run --release -p statewright-desktop --example desktop_bench

use std::time::{Duration, Instant};

use statewright_desktop::{CaptureTarget, Desktop, LaunchSpec, WindowQuery, X11Desktop, encode_png};

const FRAMES: usize = 20;

fn median_ms(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let d = X11Desktop::connect().await?;
    let screen = d.screen();
    println!("display {} at {}x{}", d.display(), screen.width, screen.height);

    // Capture and encode, separately and together (the driver's screenshot call).
    let monitor = xcap::Monitor::all()?.into_iter().next().ok_or("no monitor")?;
    let (mut capture, mut encode, mut total, mut size) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for i in 0..FRAMES + 3 {
        let t = Instant::now();
        let img = monitor.capture_image()?;
        let captured = t.elapsed();
        let png = encode_png(&img)?;
        let encoded = t.elapsed() - captured;
        let t2 = Instant::now();
        let shot = d.screenshot(&CaptureTarget::Screen).await?;
        if i >= 3 {
            capture.push(captured);
            encode.push(encoded);
            total.push(t2.elapsed());
            size = png.len().max(shot.png.len());
        }
    }
    println!(
        "screen {}x{}: capture {:.1} ms, PNG encode {:.1} ms, driver screenshot (capture+encode) {:.1} ms per frame (median of {FRAMES}); PNG {} KB",
        screen.width,
        screen.height,
        median_ms(capture),
        median_ms(encode),
        median_ms(total),
        size / 1024
    );

    // Input round trip: type one character into a focused xterm, then poll its pixels
    // (raw captures, no encoding) until they change.
    let dir = std::env::temp_dir().join(format!("sw-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut spec = LaunchSpec::new("xterm")
        .args(["-T", "Statewright bench", "-geometry", "80x24+0+0", "-fn", "fixed", "-e", "sh"])
        .kill_on_drop(true);
    spec.cwd = Some(dir.clone());
    d.launch(&spec).await?;
    let w = d.wait_for_window(&WindowQuery::title_exact("Statewright bench"), Duration::from_secs(10)).await?;
    d.focus(&WindowQuery::id(w.id)).await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let g = w.geometry;
    let grab = || monitor.capture_region(g.x as u32, g.y as u32, g.width, g.height);
    let mut latencies = Vec::new();
    for i in 0..FRAMES + 3 {
        let before = grab()?;
        let t = Instant::now();
        d.type_text(if i % 2 == 0 { "x" } else { "y" }).await?;
        let sent = t.elapsed();
        loop {
            if grab()? != before {
                break;
            }
            if t.elapsed() > Duration::from_secs(2) {
                return Err("the typed key never showed up".into());
            }
        }
        if i >= 3 {
            latencies.push(t.elapsed());
        }
        if i == 3 {
            println!("(one key press took {:.2} ms to send)", sent.as_secs_f64() * 1000.0);
        }
    }
    println!("input round trip (key press until xterm shows it): {:.1} ms (median of {FRAMES})", median_ms(latencies));
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
