//! `birdcage completions SHELL` and `birdcage man`: shell completions and a man page, both
//! generated from the clap definitions, so they can never fall out of step with the options.

use anyhow::Result;
use clap::{Args, Command};
use clap_complete::Shell;

/// Print a completion script for SHELL to stdout.
///
/// bash: `birdcage completions bash > ~/.local/share/bash-completion/completions/birdcage`;
/// zsh: `birdcage completions zsh > ~/.zfunc/_birdcage` (with `~/.zfunc` on `fpath`);
/// fish: `birdcage completions fish > ~/.config/fish/completions/birdcage.fish`.
#[derive(Args, Debug)]
pub struct CompletionsCmd {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

impl CompletionsCmd {
    pub fn run(&self, mut command: Command) -> Result<String> {
        let mut out = Vec::new();
        clap_complete::generate(self.shell, &mut command, "birdcage", &mut out);
        Ok(String::from_utf8(out)?)
    }
}

/// Print the man page (roff) to stdout: `birdcage man > birdcage.1; man ./birdcage.1`.
///
/// The page covers the command and lists its subcommands; `birdcage help SUBCOMMAND` gives
/// each one's options.
#[derive(Args, Debug)]
pub struct ManCmd {}

impl ManCmd {
    pub fn run(&self, command: Command) -> Result<String> {
        let mut out = Vec::new();
        clap_mangen::Man::new(command).render(&mut out)?;
        Ok(String::from_utf8(out)?)
    }
}
