//! The profile file (TOML): [`boards::file::parse`], the syntax and then the checks of
//! `Profile::validate`, as `--board FILE` reads it. What the emulator then builds from a
//! profile is not fuzzed here.
//!
//! Beyond "no panic": every error prints as one line (the CLI shows it as one), and a profile
//! that reads is valid and carries the name the file or its path gives.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    match boards::file::parse(text, "fuzz.toml") {
        Ok(profile) => {
            assert_eq!(profile.validate(), Ok(()));
            assert!(!profile.name.is_empty());
        }
        Err(error) => {
            let message = error.to_string();
            assert!(!message.contains('\n'), "one line: {message}");
        }
    }
});
