//! The bench's `steps.jsonl` as `hil-tests run --resume` and `calibrate` read it:
//! [`Scan::read`].
//!
//! Beyond "no panic": a file that reads keeps a prefix that ends a line (or is empty), holds the
//! header and the finished games only, and reads again to the same header and games with
//! nothing unfinished; an error names a line of the file.
#![no_main]

use std::path::Path;

use bench::{ReportError, Scan};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("steps.jsonl");
    let lines = data.split(|&b| b == b'\n').count();
    match Scan::read(data, path) {
        Ok(scan) => {
            assert!(scan.kept > 0 && scan.kept <= data.len());
            assert_eq!(data[scan.kept - 1], b'\n', "the kept part ends a line");
            let kept = Scan::read(&data[..scan.kept], path).expect("the kept part reads again");
            assert_eq!(kept.header, scan.header);
            assert_eq!(kept.games(), scan.games());
            assert_eq!(kept.kept, scan.kept);
            assert!(kept.unfinished.is_empty());
        }
        Err(ReportError::Garbled { line, .. } | ReportError::Misplaced { line, .. }) => {
            assert!((1..=lines).contains(&line), "line {line} of {lines}")
        }
        Err(other) => panic!("reading bytes gave {other}"),
    }
});
