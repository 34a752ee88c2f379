//! `birdcage web` against hostile clients and hostile folders (issue 41): every read is
//! bounded in size and time, one client never stops the others, and only regular files
//! inside the site folder are served. Each test starts the real binary on a free port and
//! speaks HTTP over plain `std::net` sockets, byte by byte where it matters.
#![cfg(unix)]
#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server's head timeout (`cli/web/http.rs`): a client has this long to send its head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// `birdcage web --port 0 --dir DIR`, killed when the test ends however it ends.
struct Server {
    child: Child,
    port: u16,
    /// The line the server printed first (`Serving DIR at http://127.0.0.1:PORT/ ...`).
    banner: String,
}

impl Server {
    fn start(dir: &Path) -> Server {
        Server::spawn(
            Command::new(env!("CARGO_BIN_EXE_birdcage"))
                .args(["web", "--port", "0", "--dir"])
                .arg(dir),
        )
    }

    fn spawn(command: &mut Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("birdcage web starts");
        let mut banner = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut banner)
            .unwrap();
        let port = banner
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {banner:?}"));
        Server {
            child,
            port,
            banner,
        }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
            .set_write_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
    }

    /// Sends `raw` and reads the answer to its end (a reset after some bytes ends it too).
    fn raw(&self, raw: &[u8]) -> String {
        let mut stream = self.connect();
        stream.write_all(raw).unwrap();
        read_answer(&mut stream)
    }

    fn get(&self, path: &str) -> String {
        self.raw(
            format!(
                "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
                self.port
            )
            .as_bytes(),
        )
    }

    /// The server's resident memory, in KiB (Linux).
    fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the server sent until it closed (or the 10 s read timeout, or a reset).
fn read_answer(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                assert!(
                    !answer.is_empty() || e.kind() == ErrorKind::ConnectionReset,
                    "no answer: {e}"
                );
                break;
            }
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

fn status(answer: &str) -> &str {
    answer.lines().next().unwrap_or("")
}

/// A site folder with the app's index and one text file.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<p>the index</p>\n").unwrap();
    std::fs::write(dir.path().join("a.txt"), "inside\n").unwrap();
    dir
}

/// Many clients need many descriptors: this process's soft limit raised to the hard one.
fn raise_open_files() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    limit.current = limit.maximum;
    let _ = setrlimit(Resource::Nofile, limit);
}

/// Streams a request line without end from another thread, until the server stops it;
/// how many bytes it got out.
fn endless_line(port: u16) -> std::thread::JoinHandle<(usize, String)> {
    std::thread::spawn(move || {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_write_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let chunk = [b'A'; 64 * 1024];
        let mut sent = stream.write(b"GET /").unwrap_or(0);
        // 256 MiB at most: a server that reads on without bound has shown it by then.
        while sent < 256 << 20 {
            match stream.write(&chunk) {
                Ok(n) => sent += n,
                Err(_) => break,
            }
        }
        let answer = read_answer(&mut stream);
        (sent, answer)
    })
}

#[test]
fn an_endless_request_line_gets_414_and_the_memory_stays_small() {
    let dir = site();
    let mut server = Server::start(dir.path());
    let before = server.rss_kib();
    let (sent, answer) = endless_line(server.port).join().unwrap();
    assert!(
        status(&answer).starts_with("HTTP/1.1 414"),
        "after {sent} bytes: {answer:?}"
    );
    assert!(sent < 64 << 20, "the server read {sent} bytes of one line");
    if let (Some(before), Some(after)) = (before, server.rss_kib()) {
        assert!(
            after < before + 32 * 1024,
            "resident memory {before} KiB, then {after} KiB"
        );
    }
    assert!(server.alive());
    assert!(status(&server.get("/")).starts_with("HTTP/1.1 200"));
}

#[test]
fn big_heads_and_many_fields_get_431() {
    let dir = site();
    let server = Server::start(dir.path());
    let host = format!("Host: 127.0.0.1:{}\r\n", server.port);
    let long = format!(
        "GET / HTTP/1.1\r\n{host}X-Long: {}\r\n\r\n",
        "v".repeat(20_000)
    );
    assert!(status(&server.raw(long.as_bytes())).starts_with("HTTP/1.1 431"));
    let many: String = (0..200).map(|i| format!("X-{i}: v\r\n")).collect();
    let many = format!("GET / HTTP/1.1\r\n{host}{many}\r\n");
    assert!(status(&server.raw(many.as_bytes())).starts_with("HTTP/1.1 431"));
    // A long but bounded target is still answered (404: no such file).
    let target = format!("/{}", "b".repeat(6_000));
    assert!(status(&server.get(&target)).starts_with("HTTP/1.1 404"));
}

#[test]
fn a_silent_client_is_dropped_and_the_others_are_answered_meanwhile() {
    let dir = site();
    let server = Server::start(dir.path());
    let mut silent = server.connect();
    let mut half = server.connect();
    half.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.").unwrap();
    let start = Instant::now();
    let answer = server.get("/a.txt");
    assert!(answer.ends_with("inside\n"), "{answer}");
    assert!(start.elapsed() < Duration::from_secs(3));
    // Both are closed by the server once their time is up, without an answer.
    for stream in [&mut silent, &mut half] {
        stream
            .set_read_timeout(Some(HEAD_TIMEOUT + Duration::from_secs(5)))
            .unwrap();
        let mut buf = [0u8; 64];
        let n = stream.read(&mut buf);
        assert!(
            matches!(n, Ok(0)) || matches!(&n, Err(e) if e.kind() == ErrorKind::ConnectionReset),
            "{n:?} after {:?}",
            start.elapsed()
        );
    }
    assert!(start.elapsed() < HEAD_TIMEOUT + Duration::from_secs(4));
}

/// Makes `link` a symlink to `target`.
fn symlink(target: impl AsRef<Path>, link: PathBuf) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[test]
fn only_regular_files_inside_the_folder_are_served() {
    let dir = site();
    let p = dir.path();
    symlink("/etc/passwd", p.join("passwd.txt"));
    symlink("/", p.join("root"));
    symlink("/proc/self/environ", p.join("env.txt"));
    symlink("/dev/zero", p.join("zero"));
    symlink(p.join("a.txt"), p.join("inner.txt"));
    std::fs::create_dir(p.join("sub")).unwrap();
    symlink("../..", p.join("sub/up"));
    let server = Server::start(p);
    for path in [
        "/passwd.txt",
        "/root/etc/passwd",
        "/root/",
        "/env.txt",
        "/zero",
        "/sub/up/",
        "/sub/",
        "/../a.txt",
        "/%2e%2e/a.txt",
    ] {
        let answer = server.get(path);
        assert!(
            status(&answer).starts_with("HTTP/1.1 404"),
            "{path}: {answer}"
        );
    }
    // A link that stays inside the folder is followed.
    assert!(server.get("/inner.txt").ends_with("inside\n"));
    assert!(server.get("/").ends_with("<p>the index</p>\n"));
}

#[test]
fn a_fifo_in_the_folder_neither_hangs_nor_is_served() {
    let dir = site();
    let fifo = dir.path().join("pipe");
    // coreutils' mkfifo is on every machine: one that fails is a failure, not a skip.
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
    symlink(&fifo, dir.path().join("pipe.txt"));
    let server = Server::start(dir.path());
    let start = Instant::now();
    for path in ["/pipe", "/pipe.txt"] {
        assert!(status(&server.get(path)).starts_with("HTTP/1.1 404"));
    }
    assert!(server.get("/a.txt").ends_with("inside\n"));
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn other_methods_get_405_with_allow() {
    let dir = site();
    let server = Server::start(dir.path());
    let answer = server.raw(
        format!(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 3\r\n\r\nabc",
            server.port
        )
        .as_bytes(),
    );
    assert!(status(&answer).starts_with("HTTP/1.1 405"), "{answer}");
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("\r\nallow: get, head\r\n"),
        "{answer}"
    );
    let head = server.raw(
        format!(
            "HEAD /a.txt HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            server.port
        )
        .as_bytes(),
    );
    assert!(status(&head).starts_with("HTTP/1.1 200"), "{head}");
    assert!(!head.contains("inside"), "{head}");
}

#[test]
fn the_host_must_be_the_address_served() {
    let dir = site();
    let server = Server::start(dir.path());
    let port = server.port;
    let ask = |request: String| server.raw(request.as_bytes());
    // A DNS-rebinding page: its own name, resolved to 127.0.0.1.
    let rebound = ask(format!(
        "GET /a.txt HTTP/1.1\r\nHost: attacker.example:{port}\r\n\r\n"
    ));
    assert!(status(&rebound).starts_with("HTTP/1.1 421"), "{rebound}");
    assert!(!rebound.contains("inside"));
    let absolute = ask(format!(
        "GET http://attacker.example:{port}/a.txt HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    ));
    assert!(status(&absolute).starts_with("HTTP/1.1 421"), "{absolute}");
    let none = ask("GET /a.txt HTTP/1.1\r\n\r\n".to_string());
    assert!(status(&none).starts_with("HTTP/1.1 400"), "{none}");
    for host in [format!("127.0.0.1:{port}"), format!("LocalHost:{port}")] {
        let answer = ask(format!("GET /a.txt HTTP/1.1\r\nHost: {host}\r\n\r\n"));
        assert!(answer.ends_with("inside\n"), "{host}: {answer}");
    }
}

#[test]
fn the_default_folder_is_found_beside_the_installed_binary() {
    let prefix = tempfile::tempdir().unwrap();
    let bin = prefix.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let exe = bin.join("birdcage");
    std::fs::copy(env!("CARGO_BIN_EXE_birdcage"), &exe).unwrap();
    // Nothing there yet: one line naming where it looked and the option.
    let out = Command::new(&exe)
        .args(["web", "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: no web app beside this program (looked in ")
            && err.contains(&prefix.path().join("site").display().to_string())
            && err.ends_with("or name its folder with --dir DIR\n")
            && err.lines().count() == 1,
        "{err}"
    );
    // An installation: PREFIX/share/birdcage/site; a build folder: the target's site.
    for site in ["share/birdcage/site", "site"] {
        let dir = prefix.path().join(site);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), site).unwrap();
        let server = Server::spawn(Command::new(&exe).args(["web", "--port", "0"]));
        let shown = dir.canonicalize().unwrap();
        assert!(
            server.banner.contains(&dir.display().to_string())
                || server.banner.contains(&shown.display().to_string()),
            "{}",
            server.banner
        );
        assert!(server.get("/").ends_with(site), "{site}");
    }
}

/// The load test CI runs: an endless request line and 2,000 slow clients at once (every
/// one sends part of a head, a tenth of them a byte every half second), bounded in time
/// and count. Meanwhile a normal request is answered; once their time is up the server
/// has closed every slow client, and a normal request is answered still.
#[test]
fn two_thousand_slow_clients_and_an_endless_line() {
    const CLIENTS: usize = 2_000;
    raise_open_files();
    let dir = site();
    let mut server = Server::start(dir.path());
    let start = Instant::now();
    let endless = endless_line(server.port);
    let partial = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Slow: ",
        server.port
    );
    let mut slow = Vec::with_capacity(CLIENTS);
    for i in 0..CLIENTS {
        let mut stream = TcpStream::connect_timeout(
            &(std::net::Ipv4Addr::LOCALHOST, server.port).into(),
            Duration::from_secs(5),
        )
        .unwrap_or_else(|e| panic!("client {i}: {e}"));
        let _ = stream.write_all(partial.as_bytes());
        slow.push(stream);
    }
    let connected = start.elapsed();
    let during = Instant::now();
    let answer = server.get("/a.txt");
    assert!(
        answer.ends_with("inside\n"),
        "with {CLIENTS} slow clients: {answer}"
    );
    let answered_during = during.elapsed();
    assert!(
        answered_during < Duration::from_secs(3),
        "{answered_during:?}"
    );
    // The trickle: a byte every half second from every tenth client, until the deadline.
    // The last client's 5 s, the server's second of lingering, and a margin.
    let deadline = start + connected + HEAD_TIMEOUT + Duration::from_secs(3);
    while Instant::now() < deadline {
        for stream in slow.iter_mut().step_by(10) {
            let _ = stream.write(b"x");
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let mut open = 0;
    for stream in &mut slow {
        stream.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 16];
        match stream.read(&mut buf) {
            Err(e) if e.kind() == ErrorKind::WouldBlock => open += 1,
            _ => {}
        }
        let _ = stream.shutdown(Shutdown::Both);
    }
    let (sent, line) = endless.join().unwrap();
    assert!(
        status(&line).starts_with("HTTP/1.1 414"),
        "{sent} bytes: {line:?}"
    );
    assert_eq!(
        open,
        0,
        "slow clients still open after {:?}",
        start.elapsed()
    );
    assert!(server.alive());
    assert!(server.get("/a.txt").ends_with("inside\n"));
    println!(
        "{CLIENTS} slow clients connected in {connected:?}; a request answered among them in \
         {answered_during:?}; all closed by the server; {:?} in all",
        start.elapsed()
    );
}
