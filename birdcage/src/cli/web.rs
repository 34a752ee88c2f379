//! `birdcage web`: serves the web app (`cargo xtask web` builds it into `target/site`) on
//! 127.0.0.1. A static server for hostile clients too: [`http`] bounds what each client may
//! send and how long it may take, [`site`] serves only regular files inside the folder.

mod http;
mod site;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;

/// Serve the web app on 127.0.0.1 (build it first with `cargo xtask web`).
#[derive(Args, Debug)]
pub struct Cmd {
    /// The port; 0 picks a free one (the line printed at the start names it).
    #[arg(long, value_name = "P", default_value_t = 8080, allow_negative_numbers = true,
          value_parser = crate::args::whole::<u16>(0, u16::MAX.into()))]
    port: u16,
    /// The folder to serve; default the `site` folder beside this binary's build folder
    /// (`target/site` for `target/release/birdcage`) or `PREFIX/share/birdcage/site` for
    /// `PREFIX/bin/birdcage`.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Where the web app may be, for this binary at `exe`: where `cargo xtask web` writes it
/// for a build folder (`target/release/birdcage`, `target/<triple>/release/birdcage`: the
/// target folder's `site`), then where an installation keeps it (`PREFIX/bin/birdcage`:
/// `PREFIX/share/birdcage/site`).
fn default_dirs(exe: &Path) -> Vec<PathBuf> {
    let Some(bin) = exe.parent() else {
        return Vec::new();
    };
    let mut dirs = Vec::new();
    if let Some(up) = bin.parent() {
        dirs.push(up.join("site"));
        if let Some(upper) = up.parent() {
            dirs.push(upper.join("site"));
        }
        dirs.push(up.join("share/birdcage/site"));
    }
    dirs
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let dir = match &self.dir {
            Some(dir) => {
                if !dir.join("index.html").is_file() {
                    bail!(
                        "no web app in {}: build it with `cargo xtask web`",
                        dir.display()
                    );
                }
                dir.clone()
            }
            None => {
                let exe = std::env::current_exe()
                    .map_err(|e| anyhow::anyhow!("cannot find this program's path: {e}"))?;
                let dirs = default_dirs(&exe);
                match dirs.iter().find(|d| d.join("index.html").is_file()) {
                    Some(dir) => dir.clone(),
                    None => {
                        let looked: Vec<String> =
                            dirs.iter().map(|d| d.display().to_string()).collect();
                        bail!(
                            "no web app beside this program (looked in {}): build it with \
                             `cargo xtask web`, or name its folder with --dir DIR",
                            looked.join(", ")
                        );
                    }
                }
            }
        };
        let site = site::Site::new(&dir)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", dir.display()))?;
        let listener = std::net::TcpListener::bind(("127.0.0.1", self.port))
            .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{}: {e}", self.port))?;
        let port = listener.local_addr()?.port();
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "Serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)",
            dir.display()
        )?;
        out.flush()?;
        drop(out);
        http::serve(listener, site).map_err(|e| anyhow::anyhow!("the server stopped: {e}"))?;
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_is_looked_for_beside_the_binary() {
        assert_eq!(
            default_dirs(Path::new("/w/target/release/birdcage")),
            [
                PathBuf::from("/w/target/site"),
                PathBuf::from("/w/site"),
                PathBuf::from("/w/target/share/birdcage/site"),
            ]
        );
        assert_eq!(
            default_dirs(Path::new("/usr/local/bin/birdcage"))[2],
            PathBuf::from("/usr/local/share/birdcage/site")
        );
    }
}
