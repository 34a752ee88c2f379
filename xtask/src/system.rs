//! What the workspace needs from the system beyond rustup, in one table: the Debian packages,
//! how to tell whether they are there, and what a run without them skips. `cargo xtask test`
//! and `cargo xtask setup` (which `.ci/run` calls) read this table and no other list.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One thing the system provides.
#[derive(Debug)]
pub struct Need {
    /// A short name, as `--hide`-style lists and the skip lines use it.
    pub name: &'static str,
    /// The Debian packages that provide it.
    pub packages: &'static [&'static str],
    /// Python packages from PyPI that provide it (`pip install`), where Debian has none.
    pub pypi: &'static [&'static str],
    /// Commands that must all be on PATH.
    pub commands: &'static [&'static str],
    /// Shared libraries, one of which must be found (by file name, in the usual folders).
    pub libraries: &'static [&'static str],
    /// What a test run without it skips (or, for CI-only needs, what CI does with it).
    pub skips: &'static str,
    /// Whether README's test command uses it (the rest only `.ci/run`).
    pub tests: bool,
    /// Ubuntu's packages where they are not Debian's; `Some(&[])`: none from apt there
    /// (Ubuntu's `chromium` is a snap stub; a hosted runner ships Google Chrome and
    /// chromedriver, named by [`Need::paths_from`]).
    pub ubuntu: Option<&'static [&'static str]>,
    /// (command, variable): the command is also found at the path the environment variable
    /// names (the browser test's `BIRDCAGE_CHROMIUM`), as a runner with Chrome sets it.
    pub paths_from: &'static [(&'static str, &'static str)],
}

/// Every system need of the workspace.
pub const NEEDS: &[Need] = &[
    Need {
        name: "unicorn-build",
        packages: &["cmake", "libclang-dev"],
        pypi: &[],
        commands: &["cmake"],
        libraries: &["libclang.so"],
        skips: "the virtual board (crate virtual-board: unicorn is built from source) and the bench's tests on it",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "qemu",
        packages: &["qemu-system-arm"],
        pypi: &[],
        commands: &["qemu-system-arm"],
        libraries: &[],
        skips: "PIL and HIL-in-QEMU tests (the firmware on QEMU's mps2-an386)",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "chromium",
        packages: &["chromium", "chromium-driver"],
        pypi: &[],
        commands: &["chromium", "chromedriver"],
        libraries: &[],
        skips: "the web app's browser test (birdcage/tests/web.rs)",
        tests: true,
        ubuntu: Some(&[]),
        paths_from: &[
            ("chromium", "BIRDCAGE_CHROMIUM"),
            ("chromedriver", "BIRDCAGE_CHROMEDRIVER"),
        ],
    },
    Need {
        name: "ngspice",
        packages: &["ngspice"],
        pypi: &[],
        commands: &["ngspice"],
        libraries: &[],
        skips: "the physical solver's cross-check against ngspice",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "nauty",
        packages: &["nauty"],
        pypi: &[],
        commands: &["nauty-geng"],
        libraries: &[],
        skips: "graph generation tests (nauty's geng: links, graph6, the heuristic study)",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "gdb",
        packages: &["gdb-multiarch"],
        pypi: &[],
        commands: &["gdb-multiarch"],
        libraries: &[],
        skips: "a real gdb against the virtual board's stub",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "pyocd",
        packages: &["python3-pip"],
        pypi: &["pyocd==0.46.0"],
        commands: &["pyocd"],
        libraries: &[],
        skips: "the second debugger on the virtual board's debug port (virtual-board/tests/dap.rs)",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "slurm",
        packages: &["slurm-wlm", "munge"],
        pypi: &[],
        commands: &["sbatch", "munged"],
        libraries: &[],
        skips: "the shards on a one-node Slurm cluster (`.ci/slurm-cluster`, CI only: the tests use fake Slurm programs)",
        tests: false,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "parallel",
        packages: &["parallel"],
        pypi: &[],
        commands: &["parallel"],
        libraries: &[],
        skips: "the shards run by GNU parallel",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "script",
        packages: &["bsdutils"],
        pypi: &[],
        commands: &["script"],
        libraries: &[],
        skips: "the progress bars under a terminal (birdcage/tests/progress.rs)",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "git",
        packages: &["git"],
        pypi: &[],
        commands: &["git"],
        libraries: &[],
        skips: "the check that a shard's version names the checkout's commit",
        tests: true,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "arm-binutils",
        packages: &["binutils-arm-none-eabi"],
        pypi: &[],
        commands: &["arm-none-eabi-size"],
        libraries: &[],
        skips: "the board binary's size budget (CI only)",
        tests: false,
        ubuntu: None,
        paths_from: &[],
    },
    Need {
        name: "shellcheck",
        packages: &["shellcheck"],
        pypi: &[],
        commands: &["shellcheck"],
        libraries: &[],
        skips: "the workflow's `run:` blocks linted (`.ci/lint-workflows`, CI only)",
        tests: false,
        ubuntu: None,
        paths_from: &[],
    },
];

/// What a test may skip for that is no package (`needs::skip`'s first argument): what `cargo
/// xtask test` builds itself when it can, or (`needs::skip_condition`, never a failure under
/// BIRDCAGE_REQUIRE_TOOLS) a condition of the machine. Each with why.
pub const CONDITIONS: &[(&str, &str)] = &[
    (
        "root",
        "a test that makes a second user (bench's private folder) runs only as root",
    ),
    (
        "other-user-python3",
        "a part of the second-user test binds a socket as that user with python3, which may be \
         installed where that user cannot run it",
    ),
    (
        "one-board",
        "a test that kills the board it started finds it among its process's children, \
         where `cargo test`'s threads may have started others (nextest: one test a process)",
    ),
    (
        "board-elf",
        "the board binary (`cargo fw`), built by the test command where the virtual board is",
    ),
    (
        "web-build",
        "the web app (`cargo xtask web`), built by the test command where chromium is",
    ),
    (
        "hooked-geng",
        "geng with the links' PRUNE hook (`cargo xtask hooked-geng`, from PyPI's pynauty source \
         package and a C compiler), built by the test command where nauty is",
    ),
];

/// Whether `tool`, as a skip names it, is a row of [`NEEDS`] (by name or by one of its
/// commands) or one of [`CONDITIONS`].
pub fn known_tool(tool: &str) -> bool {
    NEEDS
        .iter()
        .any(|n| n.name == tool || n.commands.contains(&tool))
        || CONDITIONS.iter().any(|(name, _)| *name == tool)
}

/// Where shared libraries are looked for (Debian's multiarch folder and LLVM's own, which is
/// where `libclang-dev` puts libclang.so).
fn library_folders() -> Vec<PathBuf> {
    let mut folders = vec![
        PathBuf::from("/usr/lib"),
        PathBuf::from("/usr/lib/x86_64-linux-gnu"),
        PathBuf::from("/usr/lib/aarch64-linux-gnu"),
        PathBuf::from("/usr/local/lib"),
    ];
    if let Some(dir) = std::env::var_os("LIBCLANG_PATH") {
        folders.push(PathBuf::from(dir));
    }
    if let Ok(entries) = std::fs::read_dir("/usr/lib") {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with("llvm-") {
                folders.push(entry.path().join("lib"));
            }
        }
    }
    folders
}

/// Whether `command` is an executable file in one of PATH's folders.
pub fn on_path(command: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| is_executable(&dir.join(command)))
    })
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

impl Need {
    /// Whether the system has it now.
    pub fn present(&self) -> bool {
        self.commands
            .iter()
            .all(|c| on_path(c) || self.named_by_environment(c))
            && (self.libraries.is_empty()
                || self
                    .libraries
                    .iter()
                    .any(|lib| library_folders().iter().any(|dir| dir.join(lib).exists())))
    }
}

impl Need {
    /// Whether `command` is an executable at the path its [`Need::paths_from`] variable names.
    fn named_by_environment(&self, command: &str) -> bool {
        self.paths_from
            .iter()
            .filter(|(c, _)| *c == command)
            .filter_map(|(_, var)| std::env::var_os(var))
            .any(|path| is_executable(Path::new(&path)))
    }

    /// Its packages on `distro`.
    pub fn packages_on(&self, distro: Distro) -> &'static [&'static str] {
        match (distro, self.ubuntu) {
            (Distro::Ubuntu, Some(packages)) => packages,
            _ => self.packages,
        }
    }
}

/// Whose package names apt takes here: Debian's, or Ubuntu's where they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distro {
    Debian,
    Ubuntu,
}

impl Distro {
    /// This machine's, from /etc/os-release (Debian's names when it cannot tell).
    pub fn here() -> Distro {
        Distro::of(&std::fs::read_to_string("/etc/os-release").unwrap_or_default())
    }

    /// The distribution an os-release file describes: Ubuntu when its `ID` or `ID_LIKE` says so.
    pub fn of(os_release: &str) -> Distro {
        let ubuntu = os_release.lines().any(|line| {
            let (key, value) = line.split_once('=').unwrap_or(("", ""));
            matches!(key, "ID" | "ID_LIKE")
                && value.trim_matches('"').split(' ').any(|id| id == "ubuntu")
        });
        if ubuntu {
            Distro::Ubuntu
        } else {
            Distro::Debian
        }
    }
}

/// How packages can be installed here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Installer {
    /// Running as root: apt-get directly.
    Root,
    /// sudo works without a password.
    Sudo,
    /// Neither: print the command for the user.
    None,
}

impl Installer {
    pub fn find() -> Installer {
        if !on_path("apt-get") {
            return Installer::None;
        }
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
        if root {
            return Installer::Root;
        }
        let sudo = on_path("sudo")
            && Command::new("sudo")
                .args(["-n", "true"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
        if sudo {
            Installer::Sudo
        } else {
            Installer::None
        }
    }

    /// Installs `packages` with apt-get; false when it could not.
    pub fn install(self, packages: &[&str]) -> bool {
        let prefix: &[&str] = match self {
            Installer::Root => &[],
            Installer::Sudo => &["sudo", "-n"],
            Installer::None => return false,
        };
        let run = |args: &[&str]| {
            let mut all: Vec<&str> = prefix.to_vec();
            all.extend_from_slice(&["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]);
            all.extend_from_slice(args);
            Command::new(all[0])
                .args(&all[1..])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        run(&["update", "-qq"]) && {
            let mut args = vec!["install", "-y", "-qq"];
            args.extend_from_slice(packages);
            run(&args)
        }
    }
}

/// The one line that installs `packages` by hand.
pub fn install_line(packages: &[&str]) -> String {
    format!("sudo apt-get install -y {}", packages.join(" "))
}

/// The Python packages of `needs` (PyPI requirements), in table order, once each.
pub fn pypi<'a>(needs: impl IntoIterator<Item = &'a Need>) -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for need in needs {
        for p in need.pypi {
            if !all.contains(p) {
                all.push(p);
            }
        }
    }
    all
}

/// What installs `needs` by hand: the apt-get line, and pip's for what PyPI gives.
pub fn install_lines<'a>(needs: impl IntoIterator<Item = &'a Need> + Clone) -> String {
    let apt = install_line(&packages(needs.clone()));
    match pypi(needs).as_slice() {
        [] => apt,
        reqs => format!("{apt} && {}", pip_line(reqs)),
    }
}

/// The line that installs `requirements` from PyPI.
pub fn pip_line(requirements: &[&str]) -> String {
    format!("python3 -m pip install {}", requirements.join(" "))
}

/// Installs `requirements` from PyPI (after apt-get gave pip); false when it could not.
/// Nothing to do: true. Into the Python that runs as `python3` (a pyenv's, CI's), else for
/// this user (`--user`: a distribution's own Python refuses a plain install, PEP 668; its
/// scripts go to ~/.local/bin, which the hosted workflow puts on PATH).
pub fn pip_install(requirements: &[&str]) -> bool {
    let pip = |extra: &[&str]| {
        Command::new("python3")
            .args(["-m", "pip", "install", "--quiet"])
            .arg("--disable-pip-version-check")
            .args(extra)
            .args(requirements)
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    requirements.is_empty() || pip(&[]) || pip(&["--user", "--break-system-packages"])
}

/// The packages of `needs` on this machine's distribution, in table order, once each.
pub fn packages<'a>(needs: impl IntoIterator<Item = &'a Need>) -> Vec<&'static str> {
    packages_on(Distro::here(), needs)
}

/// The packages of `needs` on `distro`, in table order, once each.
pub fn packages_on<'a>(
    distro: Distro,
    needs: impl IntoIterator<Item = &'a Need>,
) -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for need in needs {
        for p in need.packages_on(distro) {
            if !all.contains(p) {
                all.push(p);
            }
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_need_names_a_package_and_a_way_to_tell_it_is_there() {
        for need in NEEDS {
            assert!(
                !need.packages.is_empty() || !need.pypi.is_empty(),
                "{}",
                need.name
            );
            assert!(!need.commands.is_empty(), "{}", need.name);
        }
        let names: Vec<_> = NEEDS.iter().map(|n| n.name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(names.len(), unique.len(), "{names:?}");
    }

    #[test]
    fn the_install_line_lists_each_package_once_in_table_order() {
        let both = [&NEEDS[0], &NEEDS[0], &NEEDS[1]];
        assert_eq!(
            install_line(&packages(both)),
            "sudo apt-get install -y cmake libclang-dev qemu-system-arm"
        );
    }

    /// Ubuntu's apt takes the table's names but Chrome's: its `chromium` is a snap stub that
    /// fails in a runner, and a hosted runner ships Google Chrome and chromedriver instead.
    #[test]
    fn ubuntu_gets_every_package_but_the_browser_and_debian_all() {
        let ubuntu = "NAME=\"Ubuntu\"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID=\"24.04\"\n";
        let debian = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n";
        assert_eq!(Distro::of(ubuntu), Distro::Ubuntu);
        assert_eq!(Distro::of(debian), Distro::Debian);
        assert_eq!(
            Distro::of("ID=pop\nID_LIKE=\"ubuntu debian\"\n"),
            Distro::Ubuntu
        );
        let on_ubuntu = packages_on(Distro::Ubuntu, NEEDS);
        let on_debian = packages_on(Distro::Debian, NEEDS);
        assert!(on_debian.contains(&"chromium") && on_debian.contains(&"chromium-driver"));
        assert!(
            !on_ubuntu.iter().any(|p| p.starts_with("chromium")),
            "{on_ubuntu:?}"
        );
        for p in [
            "cmake",
            "libclang-dev",
            "qemu-system-arm",
            "nauty",
            "ngspice",
            "slurm-wlm",
        ] {
            assert!(on_ubuntu.contains(&p), "{p}");
        }
    }

    #[test]
    fn a_command_is_found_on_path_only_when_executable() {
        assert!(on_path("sh"));
        assert!(!on_path("surely-no-such-command-here"));
    }
}
