//! `birdcage web`'s connections: hyper's HTTP/1.1 server on a one-thread tokio runtime, with
//! every read bounded in size and time, so that no client can take the server's memory or
//! its attention from the others.
//!
//! - the request line: at most [`REQUEST_LINE_MAX`] bytes (414), read here before hyper
//!   sees the connection (hyper would answer an endless line with 431);
//! - the whole head at most [`HEAD_MAX`] bytes and [`HEADERS_MAX`] fields (hyper: 431);
//! - a client that sends no complete head within [`HEAD_TIMEOUT`] is dropped, and no
//!   connection lives longer than [`CONNECTION_TIMEOUT`];
//! - at most [`CONNECTIONS_MAX`] connections at once; one response each (no keep-alive);
//! - the `Host` header must name the address served (`127.0.0.1:PORT` or `localhost:PORT`),
//!   so that a page on another name resolved to 127.0.0.1 (DNS rebinding) reads nothing;
//! - GET and HEAD only (405 with `Allow`); files as [`super::site`] opens them.

use std::convert::Infallible;
use std::io::Cursor;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::site::Site;

/// The longest request line read (method, target, version).
pub const REQUEST_LINE_MAX: usize = 8 * 1024;
/// The longest head (request line and header fields), hyper's read buffer.
pub const HEAD_MAX: usize = 16 * 1024;
/// The most header fields in a request.
pub const HEADERS_MAX: usize = 64;
/// How long a client has to send its whole head, from the moment it connects.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest a connection lives (a client that reads its response slowly).
pub const CONNECTION_TIMEOUT: Duration = Duration::from_secs(60);
/// The most connections served at once; more are closed as they come.
pub const CONNECTIONS_MAX: usize = 4096;
/// After a response, how long the rest of what a client sends is read and dropped, so that
/// closing does not reset the connection before the client has read the response.
const LINGER: Duration = Duration::from_secs(1);

/// What every connection needs.
#[derive(Debug)]
struct Shared {
    site: Site,
    /// The `Host` values this server answers to.
    hosts: Vec<String>,
    open: AtomicUsize,
}

/// Serves `site` on `listener` until the process ends.
pub fn serve(listener: std::net::TcpListener, site: Site) -> std::io::Result<()> {
    raise_open_files();
    let port = listener.local_addr()?.port();
    let mut hosts = vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    if port == 80 {
        hosts.extend(["127.0.0.1".to_string(), "localhost".to_string()]);
    }
    let shared = Arc::new(Shared {
        site,
        hosts,
        open: AtomicUsize::new(0),
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(4)
        .build()?;
    runtime.block_on(async move {
        listener.set_nonblocking(true)?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of descriptors, say: the clients that time out give them back.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            };
            if shared.open.fetch_add(1, Ordering::Relaxed) >= CONNECTIONS_MAX {
                shared.open.fetch_sub(1, Ordering::Relaxed);
                continue;
            }
            let shared = Arc::clone(&shared);
            tokio::spawn(async move {
                let _ = tokio::time::timeout(CONNECTION_TIMEOUT, connection(stream, &shared)).await;
                shared.open.fetch_sub(1, Ordering::Relaxed);
            });
        }
    })
}

/// Many clients need many descriptors: the soft limit raised to the hard one.
fn raise_open_files() {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current != limit.maximum {
            limit.current = limit.maximum;
            let _ = setrlimit(Resource::Nofile, limit);
        }
    }
}

/// How reading the request line ended.
enum Line {
    Complete,
    TooLong,
    Closed,
}

/// Reads into `buf` until it holds a whole line, within [`REQUEST_LINE_MAX`].
async fn read_line(stream: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<Line> {
    let mut chunk = [0u8; 2048];
    loop {
        if let Some(end) = buf.iter().position(|&b| b == b'\n') {
            return Ok(if end < REQUEST_LINE_MAX {
                Line::Complete
            } else {
                Line::TooLong
            });
        }
        if buf.len() >= REQUEST_LINE_MAX {
            return Ok(Line::TooLong);
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(Line::Closed);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// One connection: the request line, then hyper for the rest of the head and the response.
async fn connection(mut stream: TcpStream, shared: &Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    let start = tokio::time::Instant::now();
    let mut first = Vec::with_capacity(512);
    match tokio::time::timeout(HEAD_TIMEOUT, read_line(&mut stream, &mut first)).await {
        Ok(Ok(Line::Complete)) => {}
        Ok(Ok(Line::TooLong)) => {
            let body = format!("the request line is longer than {REQUEST_LINE_MAX} bytes\n");
            let response = format!(
                "HTTP/1.1 414 URI Too Long\r\ncontent-type: text/plain; charset=utf-8\r\n\
                 content-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = tokio::time::timeout(LINGER, stream.write_all(response.as_bytes())).await;
            linger(&mut stream).await;
            return;
        }
        // Silent, gone, or broken: nothing to answer.
        _ => return,
    }
    let rest = HEAD_TIMEOUT.saturating_sub(start.elapsed());
    {
        let (mut read, mut write) = stream.split();
        let io = tokio::io::join(Cursor::new(first).chain(&mut read), &mut write);
        let service = hyper::service::service_fn(|request| {
            let shared = Arc::clone(shared);
            async move { Ok::<_, Infallible>(respond(&shared, request).await) }
        });
        let _ = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(rest.max(Duration::from_millis(1)))
            .max_buf_size(HEAD_MAX)
            .max_headers(HEADERS_MAX)
            .keep_alive(false)
            .serve_connection(TokioIo::new(io), service)
            .await;
    }
    linger(&mut stream).await;
}

/// Closes our side, then reads and drops what the client still sends for a moment, so
/// that the response is not lost to a reset.
async fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown().await;
    let mut sink = [0u8; 4096];
    let _ = tokio::time::timeout(LINGER, async {
        let mut total = 0usize;
        while let Ok(n) = stream.read(&mut sink).await {
            total += n;
            if n == 0 || total > (1 << 20) {
                break;
            }
        }
    })
    .await;
}

/// A short text response.
fn text(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// The `Host` the request names (its absolute URI's authority, else its header).
fn host(request: &Request<Incoming>) -> Option<String> {
    match request.uri().authority() {
        Some(authority) => Some(authority.as_str().to_string()),
        None => request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_string),
    }
}

async fn respond(shared: &Shared, request: Request<Incoming>) -> Response<Full<Bytes>> {
    match host(&request) {
        None => {
            return text(
                StatusCode::BAD_REQUEST,
                "a request needs a Host header\n".to_string(),
            );
        }
        Some(h) if !shared.hosts.iter().any(|ok| ok.eq_ignore_ascii_case(&h)) => {
            return text(
                StatusCode::MISDIRECTED_REQUEST,
                format!("this server answers only to http://{}/\n", shared.hosts[0]),
            );
        }
        Some(_) => {}
    }
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        let mut response = text(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET and HEAD\n".to_string(),
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let path = request.uri().path().to_string();
    let site = shared.site.clone();
    match tokio::task::spawn_blocking(move || site.read(&path)).await {
        Ok(Ok((file, bytes))) => {
            let mut response = Response::new(Full::new(Bytes::from(bytes)));
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(&file)),
            );
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            headers.insert(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            );
            response
        }
        _ => text(StatusCode::NOT_FOUND, "not found\n".to_string()),
    }
}

fn content_type(file: &std::path::Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_files_get_their_types() {
        assert_eq!(
            content_type(std::path::Path::new("x_bg.wasm")),
            "application/wasm"
        );
        assert_eq!(
            content_type(std::path::Path::new("index.html")),
            "text/html; charset=utf-8"
        );
    }
}
