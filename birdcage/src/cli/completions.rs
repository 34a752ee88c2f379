//! `birdcage completions SHELL` and `birdcage man`: shell completions and a man page, both
//! generated from the clap definitions, so they can never fall out of step with the options.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
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

/// Print the man page (roff) to stdout, or write every page into a folder.
///
/// `birdcage man --dir ~/.local/share/man/man1` writes birdcage.1 and a page for every
/// subcommand (birdcage-analyze.1, birdcage-export-spice.1, ...), the pages birdcage.1
/// refers to; then `man birdcage-analyze`. Without --dir: birdcage.1 alone, on stdout.
#[derive(Args, Debug)]
pub struct ManCmd {
    /// Write birdcage.1 and one page for every subcommand into DIR (created if missing).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

impl ManCmd {
    pub fn run(&self, command: Command) -> Result<String> {
        let pages = pages(command)?;
        let Some(dir) = &self.dir else {
            // The first page is the command's own.
            return Ok(String::from_utf8(
                pages.into_iter().next().unwrap_or_default().1,
            )?);
        };
        if dir.exists() && !dir.is_dir() {
            bail!("--dir {}: a file, not a folder", dir.display());
        }
        shards::safe::create_dir_all(dir).with_context(|| format!("--dir {}", dir.display()))?;
        // Every page's name is checked before any is written: a FIFO there would block the
        // write until a reader came, and a refusal half-way would leave half the pages.
        for (name, _) in &pages {
            let path = dir.join(name);
            if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
                bail!(
                    "{} is not a regular file (a FIFO, a device, a folder or a link): the man \
                     pages are written as regular files only; remove it or choose another --dir",
                    path.display()
                );
            }
        }
        for (name, roff) in &pages {
            let path = dir.join(name);
            shards::safe::write_file(&path, roff).with_context(|| format!("{}", path.display()))?;
        }
        Ok(format!(
            "{} man pages written to {} (birdcage.1 and one a subcommand)\n",
            pages.len(),
            dir.display()
        ))
    }
}

/// Every page, the command's first, then each subcommand's (and theirs) in clap's order:
/// its file name and its roff. The `help` subcommand is left out, as clap_mangen's own
/// `generate_to` does: `birdcage.1` lists exactly the pages written.
fn pages(command: Command) -> Result<Vec<(String, Vec<u8>)>> {
    fn walk(command: &Command, out: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
        let man = clap_mangen::Man::new(command.clone());
        let mut roff = Vec::new();
        man.render(&mut roff)?;
        out.push((man.get_filename(), roff));
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, out)?;
        }
        Ok(())
    }
    let mut command = command.disable_help_subcommand(true);
    // Names the subcommands' pages `birdcage-SUB` (clap's display names).
    command.build();
    let mut out = Vec::new();
    walk(&command, &mut out)?;
    Ok(out)
}
