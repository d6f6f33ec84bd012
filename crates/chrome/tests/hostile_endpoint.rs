//! Attaching to a DevTools endpoint that misbehaves at the WebSocket level: its frames are
//! read through a guard, so one that declares an absurd length fails the attach or the run,
//! saying why, instead of aborting the process on an allocation of that length.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use statewright_chrome::{ChromeDriver, ChromeError, LaunchOptions};
use statewright_engine::RunStatus;

/// A text frame's header whose 64-bit length is 2^62: chromiumoxide reserved that much and
/// aborted.
const ABSURD: &[u8] = &[0x81, 127, 0x40, 0, 0, 0, 0, 0, 0, 0];

/// A WebSocket endpoint that completes the handshake, reports the `Host` it was asked for,
/// and then sends `bytes` and nothing more.
fn endpoint(bytes: &'static [u8]) -> (String, mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}/devtools/browser/x", listener.local_addr().unwrap());
    let (host_tx, host_rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            let host_tx = host_tx.clone();
            std::thread::spawn(move || {
                // The error type is tungstenite's, for a callback that may refuse the request.
                #[allow(clippy::result_large_err)]
                let heard = |request: &tungstenite::handshake::server::Request, response| {
                    let host = request.headers().get("host").and_then(|h| h.to_str().ok()).unwrap_or_default();
                    let _ = host_tx.send(host.to_owned());
                    Ok(response)
                };
                let Ok(mut socket) = tungstenite::accept_hdr(stream, heard) else { return };
                let _ = socket.get_mut().write_all(bytes);
                std::thread::sleep(Duration::from_secs(60));
            });
        }
    });
    (url, host_rx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_declaring_an_absurd_length_fails_the_attach_and_says_why() {
    let (url, hosts) = endpoint(ABSURD);
    let began = Instant::now();
    let options = LaunchOptions { cdp_url: Some(url.clone()), ..LaunchOptions::default() };
    let Err(failed) = ChromeDriver::start(&options).await else { panic!("attached to {url}") };
    let ChromeError::Connect(why) = &failed else { panic!("{failed}") };
    assert!(why.contains("it sent a message of 4611686018427387904 bytes, more than the 256 MiB taken"), "{why}");
    assert!(began.elapsed() < Duration::from_secs(10), "at once, not at a timeout: {:?}", began.elapsed());
    // The guard asked for the endpoint as it is named, not for its own loopback port.
    let authority = url.trim_start_matches("ws://").split('/').next().unwrap();
    assert_eq!(hosts.recv_timeout(Duration::from_secs(1)).unwrap(), authority);
}

/// A relay to `ws` (a real Chromium's DevTools WebSocket) that passes the browser's frames on
/// until one names `trigger`, and then sends [`ABSURD`] instead.
fn poisoned(ws: &str, trigger: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let (address, path) = ws.trim_start_matches("ws://").split_once('/').unwrap();
    let url = format!("ws://{}/{path}", listener.local_addr().unwrap());
    let address = address.to_owned();
    // Each connection on its own: the run first tries that the port answers.
    std::thread::spawn(move || {
        for client in listener.incoming().map_while(Result::ok) {
            let address = address.clone();
            std::thread::spawn(move || relay_until(client, &address, trigger));
        }
    });
    url
}

/// Relays one connection to the browser at `address`, poisoning it at `trigger`.
fn relay_until(client: TcpStream, address: &str, trigger: &str) -> std::io::Result<()> {
    let browser = TcpStream::connect(address)?;
    let (mut requests, mut to_browser) = (client.try_clone()?, browser.try_clone()?);
    std::thread::spawn(move || std::io::copy(&mut requests, &mut to_browser));
    let (mut from, mut to) = (BufReader::new(browser), client);
    let mut line = String::new();
    while from.read_line(&mut line).is_ok_and(|n| n > 2) {
        to.write_all(line.as_bytes())?;
        line.clear();
    }
    to.write_all(b"\r\n")?;
    loop {
        // The browser's frames are not masked, and a reply is one frame.
        let mut header = [0u8; 10];
        from.read_exact(&mut header[..2])?;
        let size = match header[1] & 0x7f {
            126 => 4,
            127 => 10,
            _ => 2,
        };
        from.read_exact(&mut header[2..size])?;
        let length = match size {
            4 => u64::from(u16::from_be_bytes([header[2], header[3]])),
            10 => u64::from_be_bytes(header[2..10].try_into().unwrap()),
            _ => u64::from(header[1] & 0x7f),
        };
        let mut payload = vec![0; length as usize];
        from.read_exact(&mut payload)?;
        if String::from_utf8_lossy(&payload).contains(trigger) {
            to.write_all(ABSURD)?;
            std::thread::sleep(Duration::from_secs(60));
            return Ok(());
        }
        to.write_all(&header[..size])?;
        to.write_all(&payload)?;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_declaring_an_absurd_length_mid_run_fails_the_run_and_says_why() {
    let chromium = common::Chromium::start();
    // The browser names the fixture page first when the run, under way, goes there.
    let url = poisoned(&chromium.ws, "playground.html");
    let began = Instant::now();
    let finished = common::run_attached(&url, common::click_once()).await;
    assert_eq!(finished.report.status, RunStatus::Failed, "{}", finished.report.message);
    let failure = format!("{} {:?}", finished.report.message, finished.report.failure);
    assert!(failure.contains("the connection was closed: it sent a message of 4611686018427387904 bytes"), "{failure}");
    assert!(began.elapsed() < Duration::from_secs(20), "at once, not at timeouts: {:?}", began.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_of_the_page_after_the_connection_was_closed_says_why() {
    use statewright_engine::{Capture, Driver};
    let chromium = common::Chromium::start();
    let site = statewright_demo::SiteServer::start(statewright_demo::Site::Dir(common::fixtures()), 0).await.unwrap();
    let options =
        LaunchOptions { cdp_url: Some(poisoned(&chromium.ws, "playground.html")), ..LaunchOptions::default() };
    let mut driver = ChromeDriver::start(&options).await.expect("attached");
    let open = statewright_workflow::Action::NavigateTo { url: format!("{}/playground.html", site.url()) };
    // The navigation may or may not come back before the browser names the page.
    let _ = driver.perform(&open, Duration::from_secs(5)).await;
    let Err(failed) = driver.observe(Capture::WithScreenshot).await else {
        panic!("recorded a page without a browser")
    };
    assert!(
        failed.to_string().contains("the connection was closed: it sent a message of 4611686018427387904"),
        "{failed}"
    );
}
