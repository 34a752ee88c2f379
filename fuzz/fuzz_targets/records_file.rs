//! The studies' records file (`birdcage study ... --records FILE`):
//! [`PositionSet::records`] for every supported size.
//!
//! Beyond "no panic": a file that reads gives a set whose every position replays from its
//! parent by its move and whose size is the one asked; a file with no game is refused as such;
//! any other error names a line of the file.
#![no_main]

use heuristic::Size;
use libfuzzer_sys::fuzz_target;
use studies::positions::{PositionSet, RecordsError};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count();
    let games = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count();
    for size in Size::ALL {
        match PositionSet::records(size, &text, "fuzz.txt") {
            Ok(set) => {
                assert_eq!(set.size(), size);
                assert!(games > 0, "a file with no game is refused");
                assert!(!set.is_empty(), "a game starts at the start position");
                for entry in set.entries() {
                    let (Some(parent), Some(mv)) = (entry.parent, entry.mv) else {
                        continue;
                    };
                    let mut position = set.entries()[parent as usize].position.clone();
                    position.play(mv).expect("a recorded move is legal");
                    assert_eq!(position, entry.position, "{size}: after {mv}");
                }
            }
            Err(RecordsError::Line { line, .. }) => assert!((1..=lines).contains(&line)),
            Err(RecordsError::NoGame { .. }) => assert_eq!(games, 0, "a file with games"),
            Err(e @ RecordsError::Read { .. }) => panic!("text read no file: {e}"),
        }
    }
});
