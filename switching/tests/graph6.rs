//! graph6 against nauty's specification (`formats.txt`) and nauty's own programs, and
//! round trips.

use std::process::Command;

use proptest::prelude::*;
use switching::graph6::{Graph6Error, SimpleGraph};

/// The example of nauty's `formats.txt`: n = 5 with edges 0-2, 0-4, 1-3 and 3-4 is `DQc`.
#[test]
fn nauty_spec_example() {
    let g = SimpleGraph::new(5, [[0, 2], [0, 4], [1, 3], [3, 4]]).unwrap();
    assert_eq!(g.to_string(), "DQc");
    assert_eq!("DQc".parse::<SimpleGraph>().unwrap(), g);
    assert_eq!(">>graph6<<DQc\n".parse::<SimpleGraph>().unwrap(), g);
}

/// The vertex counts of `formats.txt`: N(30) = 93; N(12345) = 126 66 63 120 (the 4-byte
/// form starts at 63 vertices).
#[test]
fn vertex_count_forms() {
    let empty = |n| SimpleGraph::new(n, []).unwrap().to_string();
    assert_eq!(empty(30).as_bytes()[0], 93);
    assert_eq!(empty(62).as_bytes()[0], 125);
    assert_eq!(&empty(63).as_bytes()[..4], &[126, 63, 63, 126]);
    assert_eq!(&empty(12345).as_bytes()[..4], &[126, 66, 63, 120]);
    assert_eq!("?".parse::<SimpleGraph>().unwrap().vertices(), 0);
    assert_eq!("@".parse::<SimpleGraph>().unwrap().vertices(), 1);
    let big = empty(12345);
    assert_eq!(big.parse::<SimpleGraph>().unwrap().vertices(), 12345);
}

/// The messages users read.
#[test]
fn errors_name_what_is_wrong() {
    let err = |s: &str| s.parse::<SimpleGraph>().unwrap_err();
    assert_eq!(err(""), Graph6Error::Empty);
    assert_eq!(err(":Fa@x^").to_string(), "this is sparse6, not graph6");
    assert_eq!(err("&DI?AO?").to_string(), "this is digraph6, not graph6");
    assert_eq!(
        err("DQ c").to_string(),
        "byte 2 (0x20) is not a graph6 character: they run from '?' (63) to '~' (126)"
    );
    assert_eq!(
        err("DQcc").to_string(),
        "5 vertices need 3 bytes of graph6, found 4"
    );
    // 5 vertices: 10 bits, so the second byte's last 2 bits are padding.
    assert_eq!(err("DQd"), Graph6Error::Padding);
    assert_eq!(
        err("~?").to_string(),
        "the vertex count is cut short: its long form needs 4 bytes, found 2"
    );
    assert_eq!(
        err("~~~~~~~~").to_string(),
        "68719476735 vertices: at most 258047 are supported"
    );
    assert_eq!(
        SimpleGraph::new(3, [[1, 1]]).unwrap_err().to_string(),
        "edge 1-1 is a loop: graph6 holds simple graphs"
    );
    assert_eq!(
        SimpleGraph::new(3, [[0, 3]]).unwrap_err().to_string(),
        "edge 0-3 names a vertex outside 0..3"
    );
    assert_eq!(
        SimpleGraph::new(3, [[2, 1], [1, 2]])
            .unwrap_err()
            .to_string(),
        "edge 1-2 is listed twice: graph6 holds simple graphs"
    );
}

fn nauty(program: &str, args: &[&str], input: Option<&str>) -> Option<String> {
    use std::io::Write;
    let child = Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    // Not installed: the caller skips; installed but failing to start: a failure.
    let mut child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("{program} is installed but does not start: {e}"),
    };
    let mut stdin = child.stdin.take().unwrap();
    if let Some(text) = input {
        stdin.write_all(text.as_bytes()).unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{program} {args:?}");
    Some(String::from_utf8(out.stdout).unwrap())
}

/// Random graphs from nauty's `genrang` (both vertex-count forms) read as nauty's `listg -e`
/// lists their edges, and write back byte for byte.
#[test]
fn reads_what_nauty_writes() {
    for (n, seed) in [
        (8, "-S1"),
        (40, "-S2"),
        (62, "-S3"),
        (63, "-S4"),
        (150, "-S5"),
    ] {
        let Some(text) = nauty(
            "nauty-genrang",
            &["-g", "-q", &n.to_string(), "1", seed],
            None,
        ) else {
            needs::skip("nauty", "nauty not installed");
            return;
        };
        let line = text.trim_end();
        let g: SimpleGraph = line.parse().unwrap();
        assert_eq!(g.vertices(), n);
        assert_eq!(g.to_string(), line);
        let listed = nauty("nauty-listg", &["-e", "-q"], Some(&text)).unwrap();
        let mut words = listed
            .split_whitespace()
            .map(|w| w.parse::<usize>().unwrap());
        assert_eq!(words.next(), Some(n));
        let m = words.next().unwrap();
        let rest: Vec<usize> = words.collect();
        let mut want: Vec<[usize; 2]> = rest.chunks(2).map(|c| [c[0], c[1]]).collect();
        want.sort_by_key(|&[u, v]| (v, u));
        assert_eq!(want.len(), m);
        assert_eq!(g.edges(), want, "n = {n}");
    }
}

fn any_graph() -> impl Strategy<Value = SimpleGraph> {
    (0usize..=70).prop_flat_map(|n| {
        let pairs = n * n.saturating_sub(1) / 2;
        proptest::collection::vec(any::<bool>(), pairs).prop_map(move |bits| {
            let all = (1..n).flat_map(|v| (0..v).map(move |u| [u, v]));
            SimpleGraph::new(n, all.zip(bits).filter(|p| p.1).map(|p| p.0)).unwrap()
        })
    })
}

proptest! {
    #[test]
    fn round_trip(g in any_graph()) {
        let text = g.to_string();
        prop_assert!(text.bytes().all(|b| (63..=126).contains(&b)));
        prop_assert_eq!(text.parse::<SimpleGraph>().unwrap(), g);
    }

    /// No input makes the reader panic.
    #[test]
    fn any_text_reads_or_errs(text in "[\\x00-\\x7f]{0,40}") {
        let _ = text.parse::<SimpleGraph>();
    }
}
