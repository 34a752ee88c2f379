//! The graph file (`--graph FILE`): `str::parse::<switching::Graph>`.
//!
//! Beyond "no panic": a graph that reads prints (its `Display` is the file format) as a file
//! that reads as the same graph, and printing that again gives the same text; an error that
//! names a line names one of the file's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use switching::Graph;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match text.parse::<Graph>() {
        Ok(graph) => {
            let printed = graph.to_string();
            let again: Graph = printed
                .parse()
                .unwrap_or_else(|e| panic!("printed graph does not read: {e}\n{printed}"));
            assert_eq!(again, graph, "printed:\n{printed}");
            assert_eq!(again.to_string(), printed);
        }
        Err(error) => {
            if let Some(line) = error.line() {
                assert!((1..=text.lines().count()).contains(&line), "{error}");
            }
        }
    }
});
