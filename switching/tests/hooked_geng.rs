//! The hooked geng (nauty's geng with the links' PRUNE hook, `nauty/prune.c`, built by `cargo
//! xtask hooked-geng`) lists exactly the plain geng's connected graphs that have at least three
//! triangle-free vertices, line for line and in geng's order, for N = 7 to 10 (issue 62): the
//! hook drops no graph the search keeps and lists none it would not.
//!
//! The filter is the sieve's own `Condition::ThreeTriangleFree` on the graph decoded by the
//! search's `small_adjacency`: Rust written for the sieve and checked there against a search
//! with no sieve, on the whole final graph. prune.c shares none of it: C on geng's partial
//! graphs, with the bound `3 - (maxn - n)` that lets it cut a graph before its last vertices.
//!
//! The hooked binary is the one `BIRDCAGE_HOOKED_GENG` names (the test command sets it), else
//! `hooked-geng/nauty-geng` in this build's target folder; the plain geng is Debian's
//! `nauty-geng` on PATH. Both listings are streamed, never held. The hooked binary's record
//! must name the committed prune.c (`switching::links::hook`): a stale build fails, naming the
//! rebuild.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use switching::enumerate::CONNECTED;
use switching::link::sieve::{Condition, Shape};
use switching::link::{MAX_VERTICES, Set};
use switching::links::small_adjacency;

/// The hooked geng, or why the test skips.
fn hooked() -> Option<PathBuf> {
    match switching::enumerate::nauty_available() {
        Ok(true) => {}
        Ok(false) => {
            needs::skip("nauty", "nauty's geng is not installed: no plain listing");
            return None;
        }
        Err(e) => panic!("nauty is installed but does not run: {e}"),
    }
    if let Some(named) = std::env::var_os("BIRDCAGE_HOOKED_GENG").filter(|p| !p.is_empty()) {
        let named = PathBuf::from(named);
        assert!(
            named.is_file(),
            "BIRDCAGE_HOOKED_GENG names {}, which is no file",
            named.display()
        );
        return Some(named);
    }
    // Integration tests get `target/tmp`: the target folder is its parent.
    let built = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target/tmp has a parent")
        .join("hooked-geng/nauty-geng");
    if built.is_file() {
        return Some(built);
    }
    needs::skip(
        "hooked-geng",
        format!(
            "no hooked geng at {} nor in BIRDCAGE_HOOKED_GENG: build it with `cargo xtask \
             hooked-geng` (PyPI's pynauty source and a C compiler)",
            built.display()
        ),
    );
    None
}

/// `program -c -q N`, its graph6 lines on a pipe.
fn listing(program: &std::ffi::OsStr, n: usize) -> Child {
    Command::new(program)
        .args(["-c", "-q", &n.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", program.to_string_lossy()))
}

/// The graph6 line without its newline.
fn trimmed(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}

/// The triangle-free vertices of a graph6 line, by the sieve's own shape of it.
fn passes(line: &[u8]) -> bool {
    let mut adjacency: [Set; MAX_VERTICES] = [0; MAX_VERTICES];
    let n = small_adjacency(line, &mut adjacency).unwrap_or_else(|| {
        panic!(
            "geng printed {:?}, no graph6",
            String::from_utf8_lossy(line)
        )
    });
    Condition::ThreeTriangleFree.holds_for_graph(&Shape::new(&adjacency[..n]))
}

/// Waits for a listing's program; its stderr on failure.
fn finished(name: &str, mut child: Child) {
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut stderr);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{name} failed ({status}): {stderr}");
}

/// The check for N vertices: the hooked listing equals the plain one filtered, in order. The
/// first graph where they part is named, with what the filter says of each. Returns how many
/// the hooked geng listed.
fn check(n: usize) -> Option<u64> {
    let hooked_geng = hooked()?;
    // Built from the committed prune.c (its record, `links::hook`), or it checks another hook.
    if let Err(e) = switching::links::hook::checked(&hooked_geng) {
        panic!("{e}");
    }
    assert!(
        !switching::enumerate::geng_prunes().unwrap(),
        "the geng on PATH has the PRUNE hook: this test needs Debian's plain nauty-geng first"
    );
    let mut plain_child = listing("nauty-geng".as_ref(), n);
    let mut hooked_child = listing(hooked_geng.as_os_str(), n);
    let mut plain = BufReader::new(plain_child.stdout.take().unwrap());
    let mut hooked = BufReader::new(hooked_child.stdout.take().unwrap());
    let (mut p, mut h) = (Vec::new(), Vec::new());
    let (mut listed, mut kept) = (0u64, 0u64);
    let show = |line: &[u8]| String::from_utf8_lossy(trimmed(line)).into_owned();
    loop {
        p.clear();
        if plain.read_until(b'\n', &mut p).unwrap() == 0 {
            break;
        }
        listed += 1;
        if !passes(trimmed(&p)) {
            continue;
        }
        kept += 1;
        h.clear();
        let more = hooked.read_until(b'\n', &mut h).unwrap() > 0;
        assert!(
            more,
            "N = {n}: the hooked geng stopped after {} graphs; the filtered plain listing goes \
             on with {} (plain graph {listed})",
            kept - 1,
            show(&p)
        );
        assert!(
            h == p,
            "N = {n}: graph {kept} of the filtered plain listing (plain graph {listed}) is {}, \
             the hooked geng's is {} ({})",
            show(&p),
            show(&h),
            if passes(trimmed(&h)) {
                "which has three triangle-free vertices"
            } else {
                "which has fewer than three triangle-free vertices: the hook kept a graph the \
                 sieve drops"
            }
        );
    }
    h.clear();
    let extra = hooked.read_until(b'\n', &mut h).unwrap() > 0;
    assert!(
        !extra,
        "N = {n}: the hooked geng lists {} after the last of the {kept} graphs the filter keeps",
        show(&h)
    );
    finished("nauty-geng", plain_child);
    finished(&hooked_geng.display().to_string(), hooked_child);
    // The plain listing was whole (OEIS A001349), so the filter saw every graph.
    assert_eq!(listed, CONNECTED[n], "N = {n}: plain geng's count");
    Some(kept)
}

#[test]
fn the_hooked_geng_lists_the_filtered_plain_listing_on_7_vertices() {
    // build-geng.sh's own count, the one `enumerate::geng_prunes` recognises the hook by.
    if let Some(listed) = check(7) {
        assert_eq!(listed, switching::enumerate::PRUNED_ON_7);
    }
}

#[test]
fn the_hooked_geng_lists_the_filtered_plain_listing_on_8_vertices() {
    check(8);
}

#[test]
fn the_hooked_geng_lists_the_filtered_plain_listing_on_9_vertices() {
    check(9);
}

#[test]
fn the_hooked_geng_lists_the_filtered_plain_listing_on_10_vertices() {
    // The count the README and build-geng.sh give (of 11,716,571 connected graphs).
    if let Some(listed) = check(10) {
        assert_eq!(listed, 939_267);
    }
}
