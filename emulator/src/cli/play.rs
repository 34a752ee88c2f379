//! `birdcage play`: a game against the machine.

use std::process::ExitCode;

use clap::Args;

/// Play a game against the machine.
#[derive(Args, Debug)]
pub struct Cmd {}

impl Cmd {
    pub fn run(&self) -> ExitCode {
        ExitCode::SUCCESS
    }
}
