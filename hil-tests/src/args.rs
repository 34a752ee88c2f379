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
            let text = clip_values(&e, e.render().to_string());
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

/// clap repeats what it could not take (a value, an unknown argument) in full: each such text
/// longer than [`heuristic::ECHO_CHARS`] is cut to it, so that a 100 KB argument gives a
/// short error line.
fn clip_values(e: &clap::Error, mut text: String) -> String {
    use clap::error::ContextValue;
    for (_, value) in e.context() {
        let values = match value {
            ContextValue::String(v) => std::slice::from_ref(v),
            ContextValue::Strings(v) => v.as_slice(),
            _ => &[],
        };
        for v in values {
            if v.chars().count() > heuristic::ECHO_CHARS {
                let echo = heuristic::Echo(v).to_string();
                text = text.replace(&format!("'{v}'"), &echo).replace(v, &echo);
            }
        }
    }
    text
}
