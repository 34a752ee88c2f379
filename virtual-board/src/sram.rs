//! The SRAM's backing memory: private to the process, or a file that a debugger on the same
//! machine maps too. Through the file, the bench's probe reads and writes RTT's buffers while
//! the core runs with no packet at all, as a debug probe reads RAM over the AHB
//! (gdb-probe's memory window; the stub names the file in answer to `monitor window`). The
//! GDB protocol's round trips, some twenty per bench command, were most of the M=3 tree's
//! time (hil-tests/README.md, "Speed").

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use memmap2::{MmapOptions, MmapRaw};

/// The memory behind the SRAM's addresses, mapped into unicorn ([`crate::cpu::Core::new`]).
#[derive(Debug)]
pub struct Sram {
    map: MmapRaw,
    /// The shared file, removed when the board ends.
    file: Option<PathBuf>,
}

impl Sram {
    /// `size` bytes that only this process sees (`run`, `play`).
    pub fn private(size: u32) -> std::io::Result<Sram> {
        let map = MmapOptions::new().len(size as usize).map_anon()?;
        Ok(Sram {
            map: map.into(),
            file: None,
        })
    }

    /// `size` bytes in a new file at `path` (refused if something is there, a link included),
    /// readable and writable by its owner only, shared with whoever of theirs maps it.
    pub fn shared(path: &Path, size: u32) -> std::io::Result<Sram> {
        use std::os::unix::fs::OpenOptionsExt;
        // A memory window mapped shared with the bench (mode 0600, O_EXCL, sized here): not
        // a file written whole, so not `shards::safe`'s temporary name and rename.
        #[allow(clippy::disallowed_methods)]
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)?;
        let map = file
            .set_len(u64::from(size))
            .and_then(|()| MmapRaw::map_raw(&file));
        match map {
            Ok(map) => Ok(Sram {
                map,
                file: Some(path.to_path_buf()),
            }),
            Err(e) => {
                let _ = std::fs::remove_file(path);
                Err(e)
            }
        }
    }

    /// The first byte (for unicorn's `mem_map_ptr`; valid as long as `self`).
    pub fn as_mut_ptr(&self) -> *mut u8 {
        self.map.as_mut_ptr()
    }

    /// Bytes.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// The shared file, if the memory is shared.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }
}

impl Drop for Sram {
    fn drop(&mut self) {
        if let Some(path) = &self.file {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_sram_is_a_file_of_its_size_removed_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("board.ram");
        let sram = Sram::shared(&path, 8192).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 8192);
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "its owner's alone");
        assert_eq!(sram.len(), 8192);
        // A second board cannot take the same file.
        assert!(Sram::shared(&path, 8192).is_err());
        assert!(path.exists(), "the refusal left the first board's file");
        drop(sram);
        assert!(!path.exists());
    }
}
