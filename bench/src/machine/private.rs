//! A folder of the bench's own for one machine's files (its gdb socket, the virtual board's
//! memory window and stderr): made fresh in the temporary folder with a random name, readable
//! and enterable by this user only (0700), and removed with everything in it when the machine
//! is done. A name another local user can guess in the shared temporary folder would let them
//! plant a socket the bench connects to, or a symbolic link it writes through.

use std::ffi::OsStr;
use std::fs::{DirBuilder, File, OpenOptions};
use std::io::ErrorKind;
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The most bytes a unix socket's path holds (`sun_path`, 108 with its NUL, on Linux).
pub const MAX_SOCKET_PATH: usize = 107;

/// The longest path the bench puts in a private folder, from the folder's parent on: the
/// longest kind, a pid of 7 digits (Linux's largest `pid_max`), the random part, the longest
/// socket name.
const LONGEST_INSIDE: &str = "/birdcage-virtual-4194304-0123456789abcdef/board.sock";

/// What is wrong with the temporary folder (`TMPDIR`, else `/tmp`) the bench's private
/// folders go in: said in one line naming it, where a socket QEMU or the virtual board cannot
/// bind would otherwise fail later under the other program's name.
#[derive(Debug, thiserror::Error)]
pub enum TempDirError {
    /// Set, but to nothing.
    #[error("TMPDIR is set but empty: set it to a folder, or unset it for /tmp")]
    Empty,
    /// Not UTF-8: the sockets are named to QEMU and the virtual board as text.
    #[error(
        "TMPDIR ({0}) is not UTF-8: the bench names its sockets to QEMU and the virtual board \
         as text; set TMPDIR to a folder with a UTF-8 name"
    )]
    NotUtf8(String),
    /// It does not exist.
    #[error("{0} does not exist: {FIX}")]
    Missing(Folder),
    /// It is something else than a folder.
    #[error("{0} is not a directory: {FIX}")]
    NotADirectory(Folder),
    /// A socket in it would not fit a unix socket's path.
    #[error(
        "{path} is {len} bytes long: a socket in it would be {socket} bytes, past the \
         {MAX_SOCKET_PATH} a unix socket's path holds; set TMPDIR to a shorter folder"
    )]
    TooLong {
        /// The folder.
        path: Folder,
        /// Its length in bytes.
        len: usize,
        /// The longest socket path in it.
        socket: usize,
    },
    /// The private folder could not be made in it.
    #[error("cannot make a private folder in {path}: {source}")]
    Make {
        /// The folder.
        path: Folder,
        /// Why.
        source: std::io::Error,
    },
}

/// What to do about a missing or wrong TMPDIR.
const FIX: &str = "set TMPDIR to a folder, or unset it for /tmp";

/// The temporary folder as an error names it: `TMPDIR (PATH)`, or `/tmp (TMPDIR unset)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    /// The folder.
    pub path: PathBuf,
    /// Whether `TMPDIR` named it.
    pub from_tmpdir: bool,
}

impl std::fmt::Display for Folder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.from_tmpdir {
            write!(f, "TMPDIR ({})", self.path.display())
        } else {
            write!(f, "{} (TMPDIR unset)", self.path.display())
        }
    }
}

/// The temporary folder, checked: `TMPDIR` as the environment sets it, else `/tmp`.
pub fn temp_folder() -> Result<Folder, TempDirError> {
    check_temp_folder(std::env::var_os("TMPDIR").as_deref())
}

/// [`temp_folder`] for a given `TMPDIR` (`None`: unset): a UTF-8 path of an existing
/// directory, short enough for the sockets the bench makes in it.
pub fn check_temp_folder(tmpdir: Option<&OsStr>) -> Result<Folder, TempDirError> {
    let path = match tmpdir {
        None => PathBuf::from("/tmp"),
        Some(v) if v.is_empty() => return Err(TempDirError::Empty),
        Some(v) => PathBuf::from(v),
    };
    let Some(text) = path.to_str() else {
        return Err(TempDirError::NotUtf8(path.display().to_string()));
    };
    let text = text.to_string();
    let path = Folder {
        path,
        from_tmpdir: tmpdir.is_some(),
    };
    let socket = text.len() + LONGEST_INSIDE.len();
    if socket > MAX_SOCKET_PATH {
        return Err(TempDirError::TooLong {
            len: text.len(),
            socket,
            path,
        });
    }
    match std::fs::metadata(&path.path) {
        Err(e) if e.kind() == ErrorKind::NotFound => Err(TempDirError::Missing(path)),
        Err(source) => Err(TempDirError::Make { path, source }),
        Ok(meta) if !meta.is_dir() => Err(TempDirError::NotADirectory(path)),
        Ok(_) => Ok(path),
    }
}

/// Names tried before giving up (each random: a clash means someone is guessing).
const ATTEMPTS: u32 = 16;

/// A private folder, removed when dropped.
#[derive(Debug)]
pub struct PrivateDir {
    path: PathBuf,
}

/// `birdcage-KIND-PID-RANDOM`.
fn folder_name(kind: &str, random: &str) -> String {
    format!("birdcage-{kind}-{}-{random}", std::process::id())
}

pub use shards::safe::me;

impl PrivateDir {
    /// Makes `birdcage-KIND-PID-RANDOM` in the temporary folder, mode 0700. `mkdir` never
    /// follows a symbolic link at the name, and the folder is checked to be a directory of
    /// this user's that nobody else can enter before anything is put in it. The temporary
    /// folder is checked first ([`temp_folder`]).
    pub fn new(kind: &str) -> Result<PrivateDir, TempDirError> {
        let path = temp_folder()?;
        Self::new_in(&path.path, kind).map_err(|source| TempDirError::Make { path, source })
    }

    /// As [`PrivateDir::new`], in `parent`; first sweeps the folders a killed bench left
    /// there ([`sweep_stale`]).
    pub fn new_in(parent: &Path, kind: &str) -> std::io::Result<PrivateDir> {
        sweep_stale(parent);
        for _ in 0..ATTEMPTS {
            let path = parent.join(folder_name(
                kind,
                &format!("{:016x}", rand::random::<u64>()),
            ));
            // Mode 0700 at creation, in the temporary folder: a private folder the bench
            // removes on drop, not one of the workspace's outputs (clippy.toml).
            #[allow(clippy::disallowed_methods)]
            let made = DirBuilder::new().mode(0o700).create(&path);
            match made {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
            let dir = PrivateDir { path };
            let meta = std::fs::symlink_metadata(&dir.path)?;
            if !meta.is_dir() || meta.uid() != me() || meta.mode() & 0o077 != 0 {
                return Err(std::io::Error::other(format!(
                    "{} is not a folder of this user's that only they can enter",
                    dir.path.display()
                )));
            }
            return Ok(dir);
        }
        Err(std::io::Error::new(
            ErrorKind::AlreadyExists,
            format!(
                "{ATTEMPTS} random names for a private folder in {} were all taken",
                parent.display()
            ),
        ))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path in the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Creates the new file `name` in the folder (mode 0600): refused if anything is there,
    /// a symbolic link included (`O_EXCL`).
    // Mode 0600, O_EXCL, in the bench's own 0700 folder that no one else can enter: the
    // board's log, not an output in a shared folder (clippy.toml).
    #[allow(clippy::disallowed_methods)]
    pub fn create(&self, name: &str) -> std::io::Result<File> {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(self.join(name))
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        // Links inside are removed, never followed.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The pid in a private folder's name, `birdcage-KIND-PID-RANDOM` (RANDOM: 16 hex digits),
/// or `None` for any other name.
fn owner_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("birdcage-")?;
    let (rest, random) = rest.rsplit_once('-')?;
    if random.len() != 16 || !random.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let (kind, pid) = rest.rsplit_once('-')?;
    if kind.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Removes the private folders in `parent` that a bench killed before its `Drop` left (its
/// socket, the board's 128 KiB memory window, its stderr): named as [`PrivateDir::new`]
/// names them, this user's, mode 0700, and their process gone (no `/proc/PID`). A folder
/// whose pid is alive is kept, whoever holds that pid now; without `/proc` nothing is swept.
pub fn sweep_stale(parent: &Path) {
    if !Path::new("/proc/self").is_dir() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(owner_pid) else {
            continue;
        };
        // The entry itself, a link not followed.
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let ours = meta.is_dir() && meta.uid() == me() && meta.mode() & 0o777 == 0o700;
        if ours && pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            // Links inside are removed, never followed.
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether `path` is a socket of this user's (not a link to one): the only kind the bench
/// connects to.
pub fn own_socket(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket() && m.uid() == me())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// Issue 62: a TMPDIR the bench cannot use is one line naming TMPDIR and what is wrong
    /// with it, before any program starts.
    #[test]
    fn a_wrong_tmpdir_is_named_in_one_line() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        let said = |tmpdir: &OsStr| check_temp_folder(Some(tmpdir)).unwrap_err().to_string();
        let missing = dir.path().join("gone");
        assert_eq!(
            said(missing.as_os_str()),
            format!(
                "TMPDIR ({}) does not exist: set TMPDIR to a folder, or unset it for /tmp",
                missing.display()
            )
        );
        assert_eq!(
            said(file.as_os_str()),
            format!(
                "TMPDIR ({}) is not a directory: set TMPDIR to a folder, or unset it for /tmp",
                file.display()
            )
        );
        assert_eq!(
            said(OsStr::new("")),
            "TMPDIR is set but empty: set it to a folder, or unset it for /tmp"
        );
        let bytes = said(OsStr::from_bytes(b"/tmp/\xff"));
        assert!(
            bytes.starts_with("TMPDIR (/tmp/\u{FFFD}) is not UTF-8: "),
            "{bytes}"
        );
        let long = format!("/tmp/{}", "d".repeat(60));
        assert_eq!(
            said(OsStr::new(&long)),
            "TMPDIR (/tmp/dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd) is 65 \
             bytes long: a socket in it would be 118 bytes, past the 107 a unix socket's path \
             holds; set TMPDIR to a shorter folder"
        );
        for message in [said(missing.as_os_str()), said(OsStr::new(&long))] {
            assert!(
                !message.contains('\n') && !message.contains("qemu"),
                "{message}"
            );
        }
        let fine = check_temp_folder(Some(dir.path().as_os_str())).unwrap();
        assert_eq!(fine.path, dir.path());
        assert_eq!(check_temp_folder(None).unwrap().path, Path::new("/tmp"));
    }

    #[test]
    fn a_private_folder_is_this_users_alone_and_removed_with_its_files() {
        let parent = tempfile::tempdir().unwrap();
        let dir = PrivateDir::new_in(parent.path(), "test").unwrap();
        let meta = std::fs::metadata(dir.path()).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o700);
        assert_eq!(meta.uid(), me());
        let other = PrivateDir::new_in(parent.path(), "test").unwrap();
        assert_ne!(dir.path(), other.path(), "random names");
        dir.create("board.stderr").unwrap();
        let file = std::fs::metadata(dir.join("board.stderr")).unwrap();
        assert_eq!(file.permissions().mode() & 0o777, 0o600);
        let path = dir.path().to_path_buf();
        drop(dir);
        assert!(!path.exists());
    }

    /// A pid that was a process's and is no more.
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn a_killed_benchs_folder_is_swept_by_the_next_and_nothing_else_is() {
        use std::os::unix::fs::PermissionsExt;
        let parent = tempfile::tempdir().unwrap();
        let folder = |name: &str, mode: u32| {
            let path = parent.path().join(name);
            std::fs::create_dir(&path).unwrap();
            std::fs::write(path.join("board.sock.ram"), vec![0u8; 128 << 10]).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            path
        };
        let dead = dead_pid();
        assert!(!Path::new(&format!("/proc/{dead}")).exists());
        let stale = folder(&format!("birdcage-virtual-{dead}-0123456789abcdef"), 0o700);
        let alive = folder(
            &format!("birdcage-virtual-{}-0123456789abcdef", std::process::id()),
            0o700,
        );
        let shared = folder(&format!("birdcage-virtual-{dead}-fedcba9876543210"), 0o755);
        let other = folder(&format!("birdcage-virtual-{dead}-notrandom"), 0o700);
        let dir = PrivateDir::new_in(parent.path(), "virtual").unwrap();
        assert!(!stale.exists(), "a dead bench's folder is swept");
        for kept in [&alive, &shared, &other] {
            assert!(kept.exists(), "{} is not a dead bench's", kept.display());
        }
        assert!(dir.path().exists());
    }

    #[test]
    fn only_a_private_folders_name_gives_a_pid() {
        assert_eq!(owner_pid("birdcage-virtual-42-0123456789abcdef"), Some(42));
        assert_eq!(owner_pid("birdcage-qemu-pil-7-0123456789ABCDEF"), Some(7));
        for name in [
            "birdcage-virtual-42-0123",
            "birdcage--42-0123456789abcdef",
            "birdcage-virtual-x42-0123456789abcdef",
            "other-virtual-42-0123456789abcdef",
        ] {
            assert_eq!(owner_pid(name), None, "{name}");
        }
    }

    #[test]
    fn a_planted_link_is_never_written_through() {
        let parent = tempfile::tempdir().unwrap();
        let victim = parent.path().join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        let dir = PrivateDir::new_in(parent.path(), "test").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join("board.stderr")).unwrap();
        assert!(dir.create("board.stderr").is_err());
        drop(dir);
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
    }

    #[test]
    fn only_a_socket_of_this_users_is_one_to_connect_to() {
        let parent = tempfile::tempdir().unwrap();
        let sock = parent.path().join("s.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        assert!(own_socket(&sock));
        let link = parent.path().join("link.sock");
        std::os::unix::fs::symlink(&sock, &link).unwrap();
        assert!(!own_socket(&link), "a link to a socket");
        let file = parent.path().join("file");
        std::fs::write(&file, b"").unwrap();
        assert!(!own_socket(&file));
    }

    /// A command as `uid`:`gid` (setpriv, util-linux): whether it succeeded.
    fn as_user(uid: &str, gid: &str, script: &str) -> bool {
        std::process::Command::new("setpriv")
            .arg(format!("--reuid={uid}"))
            .arg(format!("--regid={gid}"))
            .args(["--clear-groups", "--", "sh", "-c", script])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// `id` of the second user, created if need be (as root).
    fn second_user() -> Option<(String, String)> {
        const NAME: &str = "birdcage-other";
        let id = |flag: &str| {
            std::process::Command::new("id")
                .args([flag, NAME])
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        };
        if id("-u").is_none() {
            let made = std::process::Command::new("useradd")
                .args([
                    "--system",
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    NAME,
                ])
                .status()
                .is_ok_and(|s| s.success());
            if !made && id("-u").is_none() {
                return None;
            }
        }
        Some((id("-u")?, id("-g")?))
    }

    #[test]
    fn another_user_can_neither_enter_the_folder_nor_plant_a_socket_the_bench_takes() {
        if me() != 0 {
            needs::skip_condition(
                "root",
                "not root (a second user is made for this test only as root)",
            );
            return;
        }
        // As root, useradd and setpriv (shadow-utils, util-linux) are on every machine: one
        // that fails is a failure, not a skip.
        let (uid, gid) = second_user().expect("useradd makes the second user");
        assert!(
            as_user(&uid, &gid, "true"),
            "setpriv runs `true` as the second user"
        );
        let dir = PrivateDir::new("two-users").unwrap();
        dir.create("board.stderr").unwrap();
        let d = dir.path().display().to_string();
        for attack in [
            format!("ls {d}"),
            format!("cat {d}/board.stderr"),
            format!("ln -s /etc/passwd {d}/board.sock"),
            format!("echo planted > {d}/board.stderr"),
            format!("rm -f {d}/board.stderr"),
            format!("mv {d} {d}.gone"),
        ] {
            assert!(
                !as_user(&uid, &gid, &attack),
                "the other user could: {attack}"
            );
        }
        assert_eq!(std::fs::read(dir.join("board.stderr")).unwrap(), b"");
        // A socket the other user binds where both can write is not one the bench takes.
        let shared = tempfile::tempdir().unwrap();
        std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
        let planted = shared.path().join("planted.sock");
        let bound = as_user(
            &uid,
            &gid,
            &format!(
                "python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.bind(\"{}\")'",
                planted.display()
            ),
        );
        if bound {
            assert!(planted.exists());
            assert!(!own_socket(&planted), "another user's socket");
        } else {
            // A condition, not a tool: python3 may be installed where the second user cannot
            // run it (a pyenv's under root's home).
            needs::skip_condition(
                "other-user-python3",
                "no python3 the second user can run to bind a socket (the rest of the test ran)",
            );
        }
    }
}
