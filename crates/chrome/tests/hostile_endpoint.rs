//! Attaching to a DevTools endpoint that misbehaves at the WebSocket level: its frames are
//! read through a guard, so one that declares an absurd length fails the attach, saying
//! why, instead of aborting the process on an allocation of that length.

use std::io::Write;
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use statewright_chrome::{ChromeDriver, ChromeError, LaunchOptions};

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
    // A text frame whose 64-bit length is 2^62: chromiumoxide reserved that much and aborted.
    const HEADER: &[u8] = &[0x81, 127, 0x40, 0, 0, 0, 0, 0, 0, 0];
    let (url, hosts) = endpoint(HEADER);
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
