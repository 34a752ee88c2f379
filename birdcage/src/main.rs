//! `birdcage`: study and play Shannon's Bird Cage from the command line.

mod args;
mod cli;

use std::io::Write;
use std::process::ExitCode;

use args::BAD_INPUT;
use clap::{CommandFactory, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "birdcage",
    version,
    about = "Shannon's Bird Cage: exact analysis of the resistor game",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Analyze(cli::analyze::Cmd),
    Next(cli::next::Cmd),
    Export(cli::export::Cmd),
    Solve(cli::solve::Cmd),
    Beat(cli::beat::Cmd),
    Play(cli::play::Cmd),
    Study(cli::study::Cmd),
    Graph(cli::graph::Cmd),
    Link(cli::link::Cmd),
    Links(cli::links::Cmd),
    Web(cli::web::Cmd),
    Completions(cli::completions::CompletionsCmd),
    Man(cli::completions::ManCmd),
}

/// The exit codes in words, the same words as hil-tests' and virtual-board's for 0 and 2
/// (`--help` prints it; birdcage/README.md lists the codes).
const EXIT_STATUS: &str = "\
Exit status:
  0    done: the answer is on stdout (play: the game ended or was quit)
  1    stdout closed before the answer was written (`| head`)
  2    no verdict: bad input (one line on stderr naming it), or a file that cannot be read
       or written
  3    --status (links, study): a shard is not done yet (running, failed or missing);
       the states are on stdout
  130  stopped by Ctrl-C (play)";

fn main() -> ExitCode {
    let cli: Cli = match args::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let mut exit = None;
    let result = match &cli.command {
        Command::Analyze(cmd) => cmd.run(),
        Command::Next(cmd) => cmd.run(),
        Command::Export(cmd) => cmd.run(),
        Command::Solve(cmd) => cmd.run(),
        Command::Beat(cmd) => cmd.run(),
        // The game streams its own output as it goes.
        Command::Play(cmd) => cmd.run().map(|code| {
            exit = Some(code);
            String::new()
        }),
        Command::Study(cmd) => cmd.run().map(|reply| reply.text_exiting(&mut exit)),
        Command::Graph(cmd) => cmd.run(),
        Command::Link(cmd) => cmd.run(),
        Command::Links(cmd) => cmd.run().map(|reply| reply.text_exiting(&mut exit)),
        Command::Web(cmd) => cmd.run(),
        Command::Completions(cmd) => cmd.run(Cli::command()),
        Command::Man(cmd) => cmd.run(Cli::command()),
    };
    match result {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => exit.unwrap_or(ExitCode::SUCCESS),
                // A closed pipe (`| head`) is not worth a panic.
                Err(_) => ExitCode::FAILURE,
            }
        }
        Err(e) => {
            eprintln!("error: {}", one_line(&e));
            ExitCode::from(BAD_INPUT)
        }
    }
}

/// An error and its causes on one line, each said once: a cause whose text the line already
/// ends with (an error that prints its source and also chains it) is not repeated.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = e.to_string();
    for cause in e.chain().skip(1) {
        let text = cause.to_string();
        if !line.ends_with(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
    }
    line
}
