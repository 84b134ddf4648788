//! A small HTTP/1.1 server over `std::net`: one request per connection, parsed by `httparse`, with
//! hard bounds on everything a client controls (head size, header count, body size, time to send,
//! number of connections), and Server-Sent Event streams.
//!
//! Why not a server crate: the page needs a handful of routes and one event stream, and the bars
//! (bounded heads and bodies, read timeouts, a connection cap) are a few lines here, while a full
//! server means an async stack. The parsing itself, where hand-written code goes wrong, is done by
//! `httparse`.

use crossbeam::channel::{Receiver, RecvTimeoutError};
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Largest request head (request line and headers).
pub const MAX_HEAD: usize = 16 * 1024;
/// Most headers in a request.
pub const MAX_HEADERS: usize = 32;
/// Largest request body (an SGF of a long game is a few KiB).
pub const MAX_BODY: usize = 1 << 20;
/// Most connections served at once; more are answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 64;
/// Time a client has to send its whole request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// A comment line is sent on idle event streams this often, so that a vanished reader is
/// noticed and its thread ends.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// A request, read in full.
#[derive(Clone, Debug)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query (after `?`), possibly empty.
    pub query: String,
    /// Header names (lower case) and values.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The value of header `name` (lower case), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What a handler answers.
pub enum Response {
    /// A whole answer.
    Full {
        /// Status code.
        status: u16,
        /// `Content-Type`.
        content_type: &'static str,
        /// Extra headers.
        headers: Vec<(&'static str, String)>,
        /// The body.
        body: Vec<u8>,
    },
    /// An event stream: each received item is written as is (whole `event:`/`data:` blocks),
    /// until the sender goes away or the client does.
    Events(Receiver<Arc<str>>),
}

impl Response {
    /// A response with a body and no extra headers.
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response::Full {
            status,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// A plain-text error.
    pub fn error(status: u16, text: &str) -> Response {
        Response::new(status, "text/plain; charset=utf-8", format!("{text}\n"))
    }
}

/// Handles one request.
pub type Handler = dyn Fn(Request) -> Response + Send + Sync;

/// A running server; dropping it stops accepting connections.
pub struct Server {
    addr: SocketAddr,
    closing: Arc<AtomicBool>,
}

impl Server {
    /// Serves `handler` on `listener` from a background thread.
    pub fn start(listener: TcpListener, handler: Arc<Handler>) -> io::Result<Server> {
        let addr = listener.local_addr()?;
        let closing = Arc::new(AtomicBool::new(false));
        let flag = closing.clone();
        std::thread::Builder::new()
            .name("gui-accept".into())
            .spawn(move || accept_loop(listener, handler, &flag))?;
        Ok(Server { addr, closing })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.closing.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
    }
}

/// Counts a live connection while it exists.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn accept_loop(listener: TcpListener, handler: Arc<Handler>, closing: &AtomicBool) {
    let live = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        if closing.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else {
            // Out of file descriptors and the like: back off rather than spin.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        if live.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _slot = Slot(live.clone());
            let mut stream = stream;
            let _ = write_full(
                &mut stream,
                503,
                "text/plain",
                &[],
                b"too many connections\n",
            );
            continue;
        }
        let slot = Slot(live.clone());
        let handler = handler.clone();
        let spawned = std::thread::Builder::new()
            .name("gui-conn".into())
            .spawn(move || {
                let _slot = slot;
                serve_connection(stream, &*handler);
            });
        if spawned.is_err() {
            log::warn!("gui: cannot start a connection thread");
        }
    }
}

/// Serves one request on `stream`; every failure just closes the connection.
fn serve_connection(mut stream: TcpStream, handler: &Handler) {
    let _ = stream.set_nodelay(true);
    let request = match read_request(&mut stream) {
        Ok(r) => r,
        Err(Refusal::Status(status, text)) => {
            let _ = write_full(&mut stream, status, "text/plain", &[], text.as_bytes());
            linger(&mut stream);
            return;
        }
        Err(Refusal::Gone) => return,
    };
    let response = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(request)))
        .unwrap_or_else(|_| Response::error(500, "internal error"));
    match response {
        Response::Full {
            status,
            content_type,
            headers,
            body,
        } => {
            let _ = write_full(&mut stream, status, content_type, &headers, &body);
            linger(&mut stream);
        }
        Response::Events(events) => stream_events(stream, &events),
    }
}

/// Why a request was not read.
enum Refusal {
    /// Answer with this status and text.
    Status(u16, String),
    /// The client went away or timed out: nothing to answer.
    Gone,
}

fn read_request(stream: &mut TcpStream) -> Result<Request, Refusal> {
    let deadline = Instant::now() + REQUEST_TIMEOUT;
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    let (head_len, mut request) = loop {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut headers);
        match parsed.parse(&buf) {
            Ok(httparse::Status::Complete(n)) => break (n, convert(&parsed)?),
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => {
                return Err(Refusal::Status(431, "too many headers".into()))
            }
            Err(e) => return Err(Refusal::Status(400, format!("malformed request: {e}"))),
        }
        if buf.len() >= MAX_HEAD {
            return Err(Refusal::Status(431, "request head too large".into()));
        }
        let n = read_some(stream, &mut chunk, deadline)?;
        buf.extend_from_slice(&chunk[..n]);
    };
    if request
        .header("transfer-encoding")
        .is_some_and(|v| !v.eq_ignore_ascii_case("identity"))
    {
        return Err(Refusal::Status(
            411,
            "send bodies with a Content-Length".into(),
        ));
    }
    let length = match request.header("content-length") {
        None => 0,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .map_err(|_| Refusal::Status(400, "bad Content-Length".into()))?,
    };
    if length > MAX_BODY {
        return Err(Refusal::Status(
            413,
            format!("request body too large (at most {MAX_BODY} bytes)"),
        ));
    }
    let mut body = buf[head_len..].to_vec();
    body.truncate(length);
    while body.len() < length {
        let want = (length - body.len()).min(chunk.len());
        let n = read_some(stream, &mut chunk[..want], deadline)?;
        body.extend_from_slice(&chunk[..n]);
    }
    request.body = body;
    Ok(request)
}

/// Reads at least one byte before `deadline`.
fn read_some(
    stream: &mut TcpStream,
    chunk: &mut [u8],
    deadline: Instant,
) -> Result<usize, Refusal> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(Refusal::Status(408, "request timed out".into()));
    }
    stream
        .set_read_timeout(Some(left))
        .map_err(|_| Refusal::Gone)?;
    match stream.read(chunk) {
        Ok(0) => Err(Refusal::Gone),
        Ok(n) => Ok(n),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            Err(Refusal::Status(408, "request timed out".into()))
        }
        Err(_) => Err(Refusal::Gone),
    }
}

fn convert(parsed: &httparse::Request<'_, '_>) -> Result<Request, Refusal> {
    let target = parsed.path.unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::with_capacity(parsed.headers.len());
    for h in parsed.headers.iter() {
        let value = std::str::from_utf8(h.value)
            .map_err(|_| Refusal::Status(400, format!("header {} is not UTF-8", h.name)))?;
        headers.push((h.name.to_ascii_lowercase(), value.to_string()));
    }
    Ok(Request {
        method: parsed.method.unwrap_or("").to_string(),
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body: Vec::new(),
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

fn write_full(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    headers: &[(&'static str, String)],
    body: &[u8],
) -> io::Result<()> {
    let _ = stream.set_write_timeout(Some(REQUEST_TIMEOUT));
    let mut head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n",
        reason(status),
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body);
    stream.write_all(&out)?;
    stream.flush()
}

/// Closes gracefully: a close with unread input would reset the connection, and the client
/// might lose the answer (say a 413 sent before the body it refused).
fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let mut sink = [0u8; 4096];
    let mut total = 0;
    while total < 4 * MAX_BODY {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n,
        }
    }
}

fn stream_events(mut stream: TcpStream, events: &Receiver<Arc<str>>) {
    let _ = stream.set_write_timeout(Some(REQUEST_TIMEOUT));
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    loop {
        let item = match events.recv_timeout(KEEPALIVE) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => Arc::from(": keepalive\n\n"),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if stream.write_all(item.as_bytes()).is_err() || stream.flush().is_err() {
            return;
        }
    }
}
