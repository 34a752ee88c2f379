//! The studies' records file (`birdcage study ... --records FILE`):
//! [`PositionSet::records`] for every supported size.
//!
//! Beyond "no panic": a file that reads gives a set whose every position replays from its
//! parent by its move, whose size is the one asked, and which is empty only for a file with no
//! game; an error names a line of the file.
#![no_main]

use heuristic::Size;
use libfuzzer_sys::fuzz_target;
use studies::positions::PositionSet;

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
                assert_eq!(
                    set.is_empty(),
                    games == 0,
                    "a game starts at the start position"
                );
                for entry in set.entries() {
                    let (Some(parent), Some(mv)) = (entry.parent, entry.mv) else {
                        continue;
                    };
                    let mut position = set.entries()[parent as usize].position.clone();
                    position.play(mv).expect("a recorded move is legal");
                    assert_eq!(position, entry.position, "{size}: after {mv}");
                }
            }
            Err(error) => assert!((1..=lines).contains(&error.line), "{error}"),
        }
    }
});
