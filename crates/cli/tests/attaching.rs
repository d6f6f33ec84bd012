//! Attaching to a browser at `--cdp-url` that is not what it should be: nothing answering, a
//! malformed address, an unusable authority file, a version reply that never ends, Ctrl+C
//! while waiting, and a WebSocket frame no one could hold. Each failed before its fix.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{command, statewright, text};

/// A loopback endpoint that accepts connections and never answers.
fn silent_endpoint() -> (std::net::TcpListener, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    (listener, url)
}

#[test]
fn a_cdp_endpoint_that_never_answers_fails_in_bounded_time_and_a_malformed_one_is_exit_2() {
    let runs = tempfile::tempdir().unwrap();
    let (_listener, url) = silent_endpoint();
    let began = Instant::now();
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", &url], runs.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("did not answer as a DevTools endpoint"), "{}", text(&out.stderr));
    assert!(began.elapsed() < Duration::from_secs(60), "bounded: {:?}", began.elapsed());

    for (bad, why) in [
        ("127.0.0.1:9222", "expected http://HOST:PORT"),
        ("ftp://127.0.0.1:9222", "the scheme must be"),
        ("http://127.0.0.1:notaport", "`notaport` is not a port number"),
        ("ws://[::1", "`[::1` is not a bracketed IPv6 address"),
        ("ws://[::1]junk:9222/devtools", "is not a bracketed IPv6 address"),
        ("ws://bad host:9222", "`bad host` is not a host name"),
    ] {
        let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", bad], runs.path());
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("not a DevTools endpoint URL"), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains(why), "{bad}: {}", text(&out.stderr));
    }
}

#[test]
fn an_unusable_authority_file_for_an_attached_browser_is_exit_2() {
    let runs = tempfile::tempdir().unwrap();
    let empty = runs.path().join("empty.pem");
    std::fs::write(&empty, "no certificate here\n").unwrap();
    for (file, why) in [(runs.path().join("missing.pem"), "not usable"), (empty, "holds no PEM certificate")] {
        let out = command(
            &["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", "wss://127.0.0.1:1/x"],
            runs.path(),
        )
        .env("STATEWRIGHT_CDP_CA_CERT", &file)
        .output()
        .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("STATEWRIGHT_CDP_CA_CERT") && text(&out.stderr).contains(why),
            "{}",
            text(&out.stderr)
        );
    }
}

/// A loopback endpoint whose `/json/version` reply never ends.
fn endless_endpoint() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let mut stream = &stream;
                let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{\"Browser\": \"");
                let chunk = vec![b'x'; 64 * 1024];
                while stream.write_all(&chunk).is_ok() {}
            });
        }
    });
    url
}

#[test]
fn a_cdp_endpoint_whose_version_reply_never_ends_is_cut_off() {
    let runs = tempfile::tempdir().unwrap();
    let url = endless_endpoint();
    let began = Instant::now();
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", &url], runs.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("/json/version reply is larger than"), "{stderr}");
    assert!(began.elapsed() < Duration::from_secs(30), "not the attach budget: {:?}", began.elapsed());
}

#[test]
fn ctrl_c_while_attaching_exits_130() {
    let runs = tempfile::tempdir().unwrap();
    let (listener, url) = silent_endpoint();
    let child = command(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", &url], runs.path())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Signalled once it is attaching (its connection has come), not after a guess at how
    // long start-up takes: on a loaded machine 1.5 s was before the handler was in place.
    listener.set_nonblocking(true).unwrap();
    let began = Instant::now();
    let _connection = loop {
        match listener.accept() {
            Ok((stream, _)) => break stream,
            Err(_) if began.elapsed() < Duration::from_secs(60) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("the run never connected: {e}"),
        }
    };
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
}

/// A loopback endpoint that answers as DevTools does (the version, the WebSocket handshake),
/// then sends one frame header declaring 2^62 bytes.
fn absurd_frame_endpoint() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let (mut line, mut key) = (String::new(), None);
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    let lower = line.to_ascii_lowercase();
                    if let Some(value) = lower.strip_prefix("sec-websocket-key:") {
                        key = Some(line[line.len() - value.len()..].trim().to_owned());
                    }
                    line.clear();
                }
                let mut stream = &stream;
                let _ = match key {
                    None => {
                        let body = format!(r#"{{"webSocketDebuggerUrl": "ws://{address}/devtools/browser/x"}}"#);
                        write!(stream, "HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n{body}", body.len())
                    }
                    Some(key) => {
                        let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
                        let head = format!(
                            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                             Sec-WebSocket-Accept: {accept}\r\n\r\n"
                        );
                        let frame = [&[0x81u8, 127][..], &(1u64 << 62).to_be_bytes()].concat();
                        stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&frame))
                    }
                };
                std::thread::sleep(Duration::from_secs(30));
            });
        }
    });
    format!("http://{address}")
}

#[test]
fn an_endpoint_that_sends_an_absurd_frame_fails_the_run_saying_why_once() {
    let runs = tempfile::tempdir().unwrap();
    let url = absurd_frame_endpoint();
    let out = statewright(&["run", "workflows/demo-shop.json", "--demo-site", "--cdp-url", &url], runs.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("it sent a message of 4611686018427387904 bytes, more than the 256 MiB taken"), "{stderr}");
    // chromiumoxide's own line for the broken connection says nothing more, as an ERROR.
    assert!(!stderr.contains("WS Connection error"), "{stderr}");
}
