//! A guard on the WebSocket of an attached browser. chromiumoxide reads its frames with no
//! size limit and reserves up front whatever length a frame's header declares, so one header
//! from an endpoint declaring 2^62 bytes aborted the whole process ("memory allocation of
//! 4611686018427391871 bytes failed"), leaving its run unfinished. The browser's bytes are
//! relayed here on loopback and the connection is closed, saying why, at the first message
//! over [`MAX_MESSAGE_BYTES`]; the run then fails as with any browser that went away.
//!
//! A `wss://` endpoint (a hosted browser) is reached the same way, the TLS done here
//! (tls.rs). A Chromium Statewright launches itself is not guarded: it is not a stranger.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use crate::refusal::Refusal;

/// The largest message taken from an endpoint, as Puppeteer and Playwright take (their
/// WebSocket's `maxPayload`): a full-page screenshot is far below it.
pub(crate) const MAX_MESSAGE_BYTES: u64 = 256 << 20;

/// The longest handshake head read, either way (Chromium's are about 200 bytes).
const MAX_HEAD_BYTES: usize = 64 << 10;

/// How long the loopback port waits for chromiumoxide, which connects as soon as it is told.
const ACCEPT_BUDGET: Duration = Duration::from_secs(15);

/// Why the guard closed the connection, once it has.
#[derive(Clone, Default)]
pub(crate) struct Cut(Arc<OnceLock<String>>);

impl Cut {
    /// What went wrong for want of the browser (`what`), or, once the guard closed the
    /// connection, why it did: the failure that follows (a channel closed) says nothing.
    pub(crate) fn explain(&self, what: String) -> String {
        self.0.get().map_or(what, |why| format!("the connection was closed: {why}"))
    }
}

/// A connection to the endpoint: TCP, or TLS over it.
trait Upstream: AsyncRead + AsyncWrite + Unpin + Send {}

impl<T: AsyncRead + AsyncWrite + Unpin + Send> Upstream for T {}

/// Connects to `ws_url` (`ws://` or `wss://host:port/path`) and gives the loopback URL to
/// connect to instead, which relays to it. Any other URL is given back as it is, for
/// chromiumoxide to refuse.
pub(crate) async fn guard(ws_url: &str) -> Result<(String, Cut), Refusal> {
    let cut = Cut::default();
    let (tls, rest) = match (ws_url.strip_prefix("ws://"), ws_url.strip_prefix("wss://")) {
        (Some(rest), _) => (false, rest),
        (None, Some(rest)) => (true, rest),
        (None, None) => return Ok((ws_url.to_owned(), cut)),
    };
    let (authority, path) = rest.find(['/', '?', '#']).map_or((rest, "/"), |at| rest.split_at(at));
    // A credential before `@` is not sent (as chromiumoxide did not send it).
    let authority = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let address = crate::endpoint_address(ws_url).map_err(|e| e.to_string())?;
    let tcp = TcpStream::connect(&address).await.map_err(|e| format!("cannot connect to {address}: {e}"))?;
    // A frame's header and its payload go out in two writes: under Nagle's algorithm the
    // payload would wait for the header's acknowledgement (up to 40 ms, delayed).
    let _ = tcp.set_nodelay(true);
    let upstream: Box<dyn Upstream> = match tls {
        true => Box::new(crate::tls::connect(tcp, crate::address::host_of(&address)).await?),
        false => Box::new(tcp),
    };
    let listener = TcpListener::bind(("127.0.0.1", 0)).await.map_err(|e| format!("no loopback port: {e}"))?;
    let local = listener.local_addr().map_err(|e| format!("no loopback port: {e}"))?;
    let authority = authority.to_owned();
    let cutting = cut.clone();
    tokio::spawn(async move {
        let Ok(Ok((client, _))) = tokio::time::timeout(ACCEPT_BUDGET, listener.accept()).await else { return };
        drop(listener);
        let _ = client.set_nodelay(true);
        let (from_client, to_client) = client.into_split();
        let (from_browser, to_browser) = tokio::io::split(upstream);
        tokio::select! {
            _ = requests(from_client, to_browser, &authority) => {}
            _ = messages(from_browser, to_client, &cutting) => {}
        }
    });
    Ok((format!("ws://{local}{path}"), cut))
}

/// chromiumoxide's handshake, sent on with the endpoint's own host (a hosted browser behind
/// a proxy is told apart by it), then its frames as they are.
async fn requests(
    from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    authority: &str,
) -> Result<(), String> {
    let mut from = BufReader::new(from);
    let head = read_head(&mut from).await?;
    let head = String::from_utf8_lossy(&head);
    let mut sent = String::with_capacity(head.len());
    for line in head.split_inclusive("\r\n") {
        match line.get(..5) {
            Some(name) if name.eq_ignore_ascii_case("host:") => sent.push_str(&format!("Host: {authority}\r\n")),
            _ => sent.push_str(line),
        }
    }
    to.write_all(sent.as_bytes()).await.map_err(|e| e.to_string())?;
    tokio::io::copy_buf(&mut from, &mut to).await.map_err(|e| e.to_string())?;
    Ok(())
}

/// The endpoint's handshake answer, then its frames, each checked before it is passed on.
/// A refusal is told to `cut` before the connection closes, so that whatever fails for want
/// of the browser can say why; a connection that merely ends is the browser going away.
async fn messages(from: impl AsyncRead + Unpin, mut to: impl AsyncWrite + Unpin, cut: &Cut) {
    match relay_messages(from, &mut to).await {
        Ok(()) => {}
        Err(Ended::Broken(e)) => tracing::debug!("the browser's connection ended: {e}"),
        Err(Ended::Refused(why)) => {
            tracing::warn!("the browser's connection was closed: {why}");
            let _ = cut.0.set(why);
        }
    }
}

enum Ended {
    /// The endpoint sent what is not taken.
    Refused(String),
    Broken(std::io::Error),
}

impl From<std::io::Error> for Ended {
    fn from(e: std::io::Error) -> Self {
        Self::Broken(e)
    }
}

async fn relay_messages(from: impl AsyncRead + Unpin, to: &mut (impl AsyncWrite + Unpin)) -> Result<(), Ended> {
    let mut from = BufReader::new(from);
    let head = read_head(&mut from).await.map_err(Ended::Refused)?;
    to.write_all(&head).await?;
    let mut message = Message::default();
    loop {
        let mut header = [0u8; 14];
        match from.read_exact(&mut header[..2]).await {
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
            read => read?,
        };
        let size = header_size(header[1]);
        from.read_exact(&mut header[2..size]).await?;
        let length = message.admit(&header[..size]).map_err(Ended::Refused)?;
        to.write_all(&header[..size]).await?;
        let copied = tokio::io::copy_buf(&mut (&mut from).take(length), to).await?;
        if copied < length {
            return Err(Ended::Broken(std::io::ErrorKind::UnexpectedEof.into()));
        }
    }
}

/// An HTTP head, up to and with its blank line.
async fn read_head(from: &mut (impl AsyncBufReadExt + Unpin)) -> Result<Vec<u8>, String> {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let read = (&mut *from).take(MAX_HEAD_BYTES as u64).read_until(b'\n', &mut head).await;
        match read.map_err(|e| e.to_string())? {
            0 => return Err("it closed the connection during the handshake".into()),
            _ if head.len() > MAX_HEAD_BYTES => {
                return Err(format!("its handshake is longer than {} KiB", MAX_HEAD_BYTES >> 10));
            }
            _ => {}
        }
    }
    Ok(head)
}

/// A frame header's size from its second byte: the length's extra bytes and the mask key.
fn header_size(second: u8) -> usize {
    let extra = match second & 0x7f {
        126 => 2,
        127 => 8,
        _ => 0,
    };
    2 + extra + if second & 0x80 != 0 { 4 } else { 0 }
}

/// The size of the message being received, which may come in several frames.
#[derive(Default)]
struct Message {
    received: u64,
}

impl Message {
    /// The payload length of the frame with `header`, or why it is refused: with the frames
    /// of its message before it, it is over [`MAX_MESSAGE_BYTES`].
    fn admit(&mut self, header: &[u8]) -> Result<u64, String> {
        let length = match header[1] & 0x7f {
            126 => u64::from(u16::from_be_bytes([header[2], header[3]])),
            127 => u64::from_be_bytes(header[2..10].try_into().expect("eight bytes")),
            short => u64::from(short),
        };
        let opcode = header[0] & 0x0f;
        // Control frames (close, ping, pong) come between a message's frames, apart from it.
        if opcode >= 8 {
            return match length {
                0..=125 => Ok(length),
                _ => Err(format!("it sent a control frame of {length} bytes (at most 125 are allowed)")),
            };
        }
        let received = if opcode == 0 { self.received.saturating_add(length) } else { length };
        if received > MAX_MESSAGE_BYTES {
            return Err(format!(
                "it sent a message of {received} bytes, more than the {} MiB taken",
                MAX_MESSAGE_BYTES >> 20
            ));
        }
        let last = header[0] & 0x80 != 0;
        self.received = if last { 0 } else { received };
        Ok(length)
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_MESSAGE_BYTES, Message, header_size};

    fn header(first: u8, length: u64) -> Vec<u8> {
        match length {
            0..=125 => vec![first, length as u8],
            126..=0xffff => [vec![first, 126], (length as u16).to_be_bytes().to_vec()].concat(),
            _ => [vec![first, 127], length.to_be_bytes().to_vec()].concat(),
        }
    }

    #[test]
    fn a_message_is_measured_across_its_frames_and_refused_over_the_limit() {
        let mut message = Message::default();
        assert_eq!(message.admit(&header(0x81, 5)), Ok(5), "a whole text message");
        assert_eq!(message.admit(&header(0x81, 300)), Ok(300), "a 16-bit length");
        assert_eq!(message.admit(&header(0x82, MAX_MESSAGE_BYTES)), Ok(MAX_MESSAGE_BYTES), "at the limit");
        let refused = message.admit(&header(0x81, 1 << 62)).unwrap_err();
        assert!(refused.contains("256 MiB"), "{refused}");

        // A message in frames of 100 MiB: the third goes over, though each is under.
        let mut message = Message::default();
        let part = 100 << 20;
        assert_eq!(message.admit(&header(0x01, part)), Ok(part));
        assert_eq!(message.admit(&header(0x89, 4)), Ok(4), "a ping between a message's frames");
        assert_eq!(message.admit(&header(0x00, part)), Ok(part));
        assert!(message.admit(&header(0x80, part)).is_err());
        // A finished message starts the count again.
        let mut message = Message::default();
        assert_eq!(message.admit(&header(0x01, part)), Ok(part));
        assert_eq!(message.admit(&header(0x80, part)), Ok(part));
        assert_eq!(message.admit(&header(0x81, part)), Ok(part));
        assert!(message.admit(&header(0x88, 126)).is_err(), "a control frame is short");
    }

    #[test]
    fn a_header_is_sized_by_its_length_and_mask() {
        assert_eq!(header_size(5), 2);
        assert_eq!(header_size(126), 4);
        assert_eq!(header_size(127), 10);
        assert_eq!(header_size(0x80 | 127), 14);
    }
}
