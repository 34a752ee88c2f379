//! Move notation and game records: [`Edge::parse`], [`Move::parse`] and [`Record::read`] on
//! every supported size with either side opening, and a record's text read against no board
//! (`str::parse`). The input is the text itself, not a size byte and text: every size is read
//! on every input, so that a corpus file is a record a person could type.
//!
//! Beyond "no panic": what reads prints back as text that reads as the same value, a record
//! read against a board replays on it, and a move that reads names an edge that reads.
#![no_main]

use heuristic::{Edge, Move, Record, Side, Size};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    for size in Size::ALL {
        let edge = Edge::parse(size, text);
        if let Ok(e) = edge {
            assert_eq!(Edge::parse(size, &e.to_string()), Ok(e), "{size} edge {e}");
        }
        if let Ok(mv) = Move::parse(size, text) {
            assert_eq!(
                Move::parse(size, &mv.to_string()),
                Ok(mv),
                "{size} move {mv}"
            );
            assert_eq!(edge, Ok(mv.edge), "{size}: a move's edge reads as an edge");
        }
        for first in [Side::Cut, Side::Short] {
            let Ok(record) = Record::read(size, first, text) else {
                continue;
            };
            let printed = record.to_string();
            assert_eq!(
                Record::read(size, first, &printed).as_ref(),
                Ok(&record),
                "{size}: record {printed}"
            );
            assert!(
                record.replay(size).is_ok(),
                "{size}: record {printed} replays"
            );
            if !record.is_empty() {
                assert_eq!(printed.parse::<Record>().as_ref(), Ok(&record));
            }
        }
    }
    if let Ok(record) = text.parse::<Record>() {
        let printed = record.to_string();
        let again: Record = printed.parse().expect("a printed record reads");
        assert_eq!(again.moves(), record.moves(), "record {printed}");
    }
});
