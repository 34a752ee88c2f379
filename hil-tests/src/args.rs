//! Command-line parsing for the bench binary: clap's usage errors folded to one line on stderr
//! with exit code 2, as every other bad input. A twin of `birdcage/src/args.rs`: no library
//! holds it, so that none carries clap, and both binaries answer a usage error the same way.

use std::process::ExitCode;

/// Exit code for bad input, as for clap's own usage errors.
pub const BAD_INPUT: u8 = 2;

/// Parses the command line; on `--help`/`--version` prints and exits 0, on a usage error
/// prints clap's first paragraph joined into one line and exits 2.
pub fn parse<P: clap::Parser>() -> Result<P, ExitCode> {
    match P::try_parse() {
        Ok(parsed) => Ok(parsed),
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            Err(ExitCode::SUCCESS)
        }
        Err(e) => {
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}", first.join(" "));
            Err(ExitCode::from(BAD_INPUT))
        }
    }
}
