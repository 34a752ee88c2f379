//! `birdcage web`: serves the web app (`cargo xtask web` builds it into `target/site`) on
//! 127.0.0.1, for a person with a checkout. A tiny static server: GET of the folder's files,
//! nothing else.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;

/// Serve the web app on 127.0.0.1 (build it first with `cargo xtask web`).
#[derive(Args, Debug)]
pub struct Cmd {
    /// The port; 0 picks a free one (the line printed at the start names it).
    #[arg(long, value_name = "P", default_value_t = 8080, allow_negative_numbers = true,
          value_parser = crate::args::whole::<u16>(0, u16::MAX.into()))]
    port: u16,
    /// The folder to serve; default the checkout's `target/site`.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Where `cargo xtask web` writes the app in this checkout.
fn default_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(target) => PathBuf::from(target).join("site"),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/site"),
    }
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let dir = self.dir.clone().unwrap_or_else(default_dir);
        if !dir.join("index.html").is_file() {
            bail!(
                "no web app in {}: build it with `cargo xtask web`",
                dir.display()
            );
        }
        let server = tiny_http::Server::http(("127.0.0.1", self.port))
            .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{}: {e}", self.port))?;
        let port = server.server_addr().to_ip().map_or(self.port, |a| a.port());
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "Serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)",
            dir.display()
        )?;
        out.flush()?;
        drop(out);
        for request in server.incoming_requests() {
            let response = respond(&dir, request.method(), request.url());
            // A client that went away is no reason to stop serving.
            let _ = request.respond(response);
        }
        Ok(String::new())
    }
}

/// The response to one request: the file, 404, or 405 for anything but GET and HEAD.
fn respond(
    dir: &Path,
    method: &tiny_http::Method,
    url: &str,
) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    use tiny_http::{Header, Method, Response};
    if !matches!(method, Method::Get | Method::Head) {
        return Response::from_string("only GET\n").with_status_code(405);
    }
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let Some(file) = file_for(dir, path) else {
        return Response::from_string("not found\n").with_status_code(404);
    };
    match std::fs::read(&file) {
        Ok(bytes) => {
            let header = |k: &str, v: &str| {
                Header::from_bytes(k.as_bytes(), v.as_bytes()).expect("a valid header")
            };
            Response::from_data(bytes)
                .with_header(header("Content-Type", content_type(&file)))
                .with_header(header("Cache-Control", "no-cache"))
        }
        Err(_) => Response::from_string("not found\n").with_status_code(404),
    }
}

/// The file a URL path names inside `dir` (`/` is `index.html`); none for a path that
/// would leave it.
fn file_for(dir: &Path, path: &str) -> Option<PathBuf> {
    let relative = Path::new(path.trim_start_matches('/'));
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let file = dir.join(relative);
    if file.is_dir() {
        Some(file.join("index.html"))
    } else {
        Some(file)
    }
}

fn content_type(file: &Path) -> &'static str {
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
    fn paths_stay_inside_the_folder() {
        let dir = Path::new("/srv/web");
        assert_eq!(
            file_for(dir, "/pkg/birdcage_web.js"),
            Some(PathBuf::from("/srv/web/pkg/birdcage_web.js"))
        );
        assert_eq!(file_for(dir, "/../etc/passwd"), None);
        assert_eq!(file_for(dir, "/a/../../b"), None);
        assert_eq!(content_type(Path::new("x_bg.wasm")), "application/wasm");
    }
}
