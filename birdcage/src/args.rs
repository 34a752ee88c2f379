//! Command-line parsing: clap's usage errors folded to one line on stderr with exit code 2, as
//! every other bad input. The bench binary keeps a twin (`hil-tests/src/args.rs`): no library
//! holds it, so that none carries clap.

use std::process::ExitCode;

/// Exit code for bad input, as for clap's own usage errors.
pub const BAD_INPUT: u8 = 2;

/// Exit code 3: `--status` (links, study) answered, and a shard is not done.
pub const NOT_ALL_DONE: u8 = 3;

/// Parses the command line; on `--help`/`--version` prints and exits 0, on a usage error
/// prints clap's first paragraph and its tips joined into one line and exits 2; with no
/// subcommand prints the help (the subcommands listed) on stderr and exits 2.
pub fn parse<P: clap::Parser>() -> Result<P, ExitCode> {
    match P::try_parse() {
        Ok(parsed) => Ok(parsed),
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            Err(ExitCode::SUCCESS)
        }
        // A bare command (no subcommand): the help, whose list of subcommands is the answer a
        // person needs, on stderr; still no verdict, so exit 2.
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprint!("{}", e.render());
            Err(ExitCode::from(BAD_INPUT))
        }
        Err(e) => {
            eprintln!("{}", one_line(&clip_values(&e, e.render().to_string())));
            Err(ExitCode::from(BAD_INPUT))
        }
    }
}

/// clap's message as one line: its first paragraph, and its tips (`tip: a similar argument
/// exists: '--opponent'`), which stand in paragraphs of their own after it; not the usage.
fn one_line(text: &str) -> String {
    let mut paragraphs = text.split("\n\n");
    let first = paragraphs.next().unwrap_or_default().lines();
    let tips = paragraphs
        .flat_map(str::lines)
        .filter(|l| l.trim_start().starts_with("tip:"));
    first
        .chain(tips)
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// clap repeats what it could not take (a value, an unknown argument) in full: each such text
/// longer than [`heuristic::ECHO_CHARS`] is cut to it, so that a 200 KB argument gives a
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

/// The one whole-number parser of every binary ([`shards::whole`]).
pub use shards::whole;
