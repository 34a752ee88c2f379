//! Report resumption as `hil-tests run --resume` does it: [`Report::open`] with
//! [`Existing::Resume`] on a folder whose `steps.jsonl` is the input, with the header the
//! input's first line holds (so the input's own run resumes, and the rules past the header
//! are what is exercised).
//!
//! Beyond "no panic": a resume that is refused leaves the file byte for byte as it was; a
//! resume that opens keeps a prefix of the file that ends a line, and the file then reads as
//! that report with nothing unfinished; a step written after it continues the report's seal,
//! so the file reads again with that step (`Scan::read`), unfinished.
#![no_main]

use bench::{Existing, Header, Report, STEPS, Scan};
use libfuzzer_sys::fuzz_target;

/// The header a resume is asked for when the input has none of its own.
fn stand_in() -> Header {
    Header {
        stage: bench::Stage::Sil.into(),
        firmware: "fuzz".into(),
        board: "nucleo-f446re".into(),
        profile: None,
        board_seed: None,
        scenario: "tree3".into(),
        size: 3,
        games: 1,
        depends: Default::default(),
    }
}

/// One folder for the whole run (each input rewrites its file): making and removing a folder
/// per input would cost more than the resume it checks.
fn folder() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary folder"))
        .path()
}

fuzz_target!(|data: &[u8]| {
    let dir = folder();
    let path = dir.join(STEPS);
    std::fs::write(&path, data).expect("the input written");
    let first = data.split(|&b| b == b'\n').next().unwrap_or_default();
    let header = Scan::read(&[first, b"\n"].concat(), &path)
        .map(|scan| scan.header)
        .unwrap_or_else(|_| stand_in());
    match Report::open(dir, header.clone(), Existing::Resume) {
        Err(_) => {
            assert_eq!(std::fs::read(&path).unwrap(), data, "a refused resume touched the file");
        }
        Ok(mut report) => {
            let after = std::fs::read(&path).unwrap();
            assert!(data.starts_with(&after) || Scan::is_blank(data), "kept a prefix");
            let scan = Scan::read(&after, &path).expect("the kept report reads");
            assert_eq!(scan.header, header);
            assert!(scan.unfinished.is_empty());
            let games = scan.games();
            report
                .misfit(bench::Misfit {
                    game: games,
                    record: "A1".into(),
                    codes: vec![1, 2],
                    why: "fuzz".into(),
                })
                .expect("a line appended");
            drop(report);
            let again = Scan::read(&std::fs::read(&path).unwrap(), &path)
                .expect("the resumed report reads with its new line");
            assert_eq!(again.games(), games);
        }
    }
});
