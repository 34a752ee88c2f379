//! Shard files: written whole or not at all, read back only whole and only into the job that
//! wrote them.
//!
//! A shard file is a short text header, a blank line, then the body the job wrote:
//!
//! ```text
//! birdcage shard 2
//! job links-9
//! spec 5f1c…(64 hex digits: the job's spec hash)
//! program birdcage 0.1.0+3c2727d…(the version of the program that made it)
//! shard 3/16
//! bytes 1234
//! content 9a0b…(64 hex digits: SHA-256 of the body)
//!
//! …body…
//! ```
//!
//! It is written to a temporary file in the same folder (`.NAME.K-of-P.shard.tmp-PID`), flushed
//! to disk, then renamed into place, so a shard killed while writing leaves only a temporary
//! file that every reader ignores. Only regular files are read, never through a link, and a
//! FIFO named like a shard is refused by type, never opened ([`crate::safe`]).

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::safe::{FileError, open_regular};
use crate::spec::sha256_hex;
use crate::{Job, ShardId};

/// First line of every shard file: the format and its version.
const MAGIC: &str = "birdcage shard 2";

/// The largest shard file read (a merge holds every shard in memory).
pub const MAX_SHARD_BYTES: u64 = 1 << 30;

/// Shard files end so.
const EXTENSION: &str = "shard";

/// The file of shard `id` of `job` in `dir`: `DIR/NAME.K-of-P.shard`.
pub fn shard_path(dir: &Path, job: &Job, id: ShardId) -> PathBuf {
    dir.join(format!(
        "{}.{}-of-{}.{EXTENSION}",
        job.name, id.index, id.count
    ))
}

/// Writes shard `id`'s file whole or not at all ([`crate::safe::write_file_with`]: a
/// temporary file created new in `dir`, synced, renamed onto a regular file or nothing).
pub fn write_shard(dir: &Path, job: &Job, id: ShardId, body: &[u8]) -> Result<PathBuf, FileError> {
    let path = shard_path(dir, job, id);
    let header = format!(
        "{MAGIC}\njob {}\nspec {}\nprogram {}\nshard {id}\nbytes {}\ncontent {}\ninputs {}\n\n",
        job.name,
        job.spec,
        job.version,
        body.len(),
        sha256_hex(body),
        job.inputs
    );
    crate::safe::write_file_with(&path, |w| {
        w.write_all(header.as_bytes())?;
        w.write_all(body)
    })?;
    Ok(path)
}

/// Why a shard cannot be merged. Each names the file and the command that makes it again.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// Shards not in the folder.
    #[error("{}", missing_text(.0))]
    Missing(Vec<Remake>),
    /// Two files hold the same shard.
    #[error("{} and {} both hold shard {id}: remove one (or both, and run `{command}`)", .first.display(), .second.display())]
    Repeated {
        /// The shard.
        id: ShardId,
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
        /// The command that makes it again.
        command: String,
    },
    /// A file that is not a whole shard of this job: cut short, altered, or not a shard.
    #[error("{}: not a whole shard ({why}); remove it and run `{command}`", .path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
        /// The command that makes it again.
        command: String,
    },
    /// A whole shard of another spec, another version of the program, or another split.
    #[error("{}: a shard of {what}, not of this run; remove it (or use another folder) and run `{command}`", .path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// Whose it is.
        what: String,
        /// The command that makes the right one.
        command: String,
    },
    /// The folder or a file could not be read.
    #[error("reading {}", .path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// A shard to make again: its file and its command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remake {
    /// The shard.
    pub id: ShardId,
    /// Where its file belongs.
    pub path: PathBuf,
    /// The command that makes it.
    pub command: String,
}

/// Missing shards, at most a few named in full.
fn missing_text(missing: &[Remake]) -> String {
    const NAMED: usize = 4;
    let count = missing.first().map_or(0, |r| r.id.count);
    let mut text = format!("{} of {count} shards missing:", missing.len());
    for r in missing.iter().take(NAMED) {
        text += &format!(" {} (run `{}`);", r.path.display(), r.command);
    }
    if missing.len() > NAMED {
        text += &format!(" and {} more", missing.len() - NAMED);
    } else {
        text.pop();
    }
    text
}

/// A shard file's header, as read.
struct Header {
    job: String,
    spec: String,
    program: String,
    id: ShardId,
    bytes: u64,
    content: String,
    /// The spec as canonical JSON (absent in shards of older versions).
    inputs: Option<String>,
}

/// Splits a shard file into its header and its body; `Err(why)` if it is not one.
fn parse(bytes: &[u8]) -> Result<(Header, &[u8]), String> {
    let end = bytes
        .windows(2)
        .position(|w| w == b"\n\n")
        .ok_or("no header")?;
    let head = std::str::from_utf8(&bytes[..end]).map_err(|_| "a header that is not text")?;
    let body = &bytes[end + 2..];
    let mut lines = head.lines();
    if lines.next() != Some(MAGIC) {
        return Err(format!("its first line is not `{MAGIC}`"));
    }
    let mut field = |name: &str| -> Result<String, String> {
        lines
            .next()
            .and_then(|l| l.strip_prefix(name))
            .and_then(|l| l.strip_prefix(' '))
            .map(str::to_string)
            .ok_or_else(|| format!("no `{name}` line"))
    };
    let header = Header {
        job: field("job")?,
        spec: field("spec")?,
        program: field("program")?,
        id: field("shard")?
            .parse()
            .map_err(|e| format!("its shard line: {e}"))?,
        bytes: field("bytes")?
            .parse()
            .map_err(|_| "its bytes line is not a count")?,
        content: field("content")?,
        inputs: lines
            .next()
            .and_then(|l| l.strip_prefix("inputs "))
            .map(str::to_string),
    };
    Ok((header, body))
}

/// The shard a file's name says it holds (`NAME.K-of-P.shard`).
pub(crate) fn id_from_name(path: &Path, job: &Job) -> Option<ShardId> {
    let name = path.file_name()?.to_str()?;
    let rest = name
        .strip_prefix(&format!("{}.", job.name))?
        .strip_suffix(&format!(".{EXTENSION}"))?;
    let (k, p) = rest.split_once("-of-")?;
    ShardId::new(k.parse().ok()?, p.parse().ok()?)
}

/// A shard file's spec hash, program and shard id from its header alone (its first 1 KiB):
/// enough to tell whose a shard is without reading it whole. `Ok(None)` if it has no such
/// header (the merge names it corrupt); `Err(why)` if it is not a regular file (never opened
/// then) or its shard line is not a shard (`1/4294967295`: more shards than any job has).
pub(crate) fn read_header(path: &Path) -> Result<Option<HeaderLines>, String> {
    let mut head = Vec::with_capacity(1024);
    match open_regular(path) {
        Ok(file) => {
            if let Some(why) = file
                .metadata()
                .ok()
                .and_then(|m| crate::safe::untrusted(&m))
            {
                return Err(why);
            }
            if file.take(HEADER_BYTES).read_to_end(&mut head).is_err() {
                return Ok(None);
            }
        }
        Err(FileError::NotRegular { kind, .. }) => {
            return Err(format!("{kind}, not a regular file"));
        }
        Err(_) => return Ok(None),
    }
    let text = String::from_utf8_lossy(&head);
    let mut lines = text.lines();
    let mut next = |name: &str| Some(lines.next()?.strip_prefix(name)?.to_string());
    let (Some(_), Some(_), Some(spec), Some(program), Some(shard)) = (
        next(MAGIC).filter(String::is_empty),
        next("job "),
        next("spec "),
        next("program "),
        next("shard "),
    ) else {
        return Ok(None);
    };
    let id = shard.parse().map_err(|e| format!("its shard line: {e}"))?;
    let inputs = lines.find_map(|l| l.strip_prefix("inputs ").map(str::to_string));
    Ok(Some(HeaderLines {
        spec,
        program,
        id,
        inputs,
    }))
}

/// How much of a shard file [`read_header`] reads: the header with its `inputs` line.
const HEADER_BYTES: u64 = 64 * 1024;

/// What [`read_header`] reads of a shard's header.
#[derive(Debug, Clone)]
pub(crate) struct HeaderLines {
    pub spec: String,
    pub program: String,
    pub id: ShardId,
    pub inputs: Option<String>,
}

/// Whose a foreign shard is, in words: made by another version of the program (named), or
/// of another spec, naming the inputs that differ where its header holds them (another
/// seed, size, a profile file edited between two shards).
pub(crate) fn whose(
    job: &Job,
    name: &str,
    spec: &str,
    program: &str,
    inputs: Option<&str>,
) -> String {
    let spec = &spec[..spec.len().min(12)];
    if program != job.version {
        return format!(
            "job {name} made by {program}, another version of the program (this one is {})",
            job.version
        );
    }
    let differ = inputs.map(|i| job.differing_inputs(i)).unwrap_or_default();
    if differ.is_empty() {
        format!(
            "job {name} with spec {spec} (another spec; this run's is {})",
            &job.spec[..12]
        )
    } else {
        format!(
            "job {name} with spec {spec} (another spec: {})",
            differ.join("; ")
        )
    }
}

/// What a folder holds of a job's shards for a split into `count`.
#[derive(Debug, Default)]
pub struct Survey {
    /// Whole shards of this job, by index, with their bodies.
    pub done: BTreeMap<u32, (PathBuf, Vec<u8>)>,
    /// Files that refuse the merge (corrupt, repeated, foreign), in file-name order.
    pub refused: Vec<ShardError>,
    /// Shards with no file.
    pub missing: Vec<Remake>,
}

impl Survey {
    /// The bodies of every shard in order, or the first reason they cannot be merged.
    pub fn into_bodies(self) -> Result<Vec<Vec<u8>>, ShardError> {
        if let Some(e) = self.refused.into_iter().next() {
            return Err(e);
        }
        if !self.missing.is_empty() {
            return Err(ShardError::Missing(self.missing));
        }
        Ok(self.done.into_values().map(|(_, body)| body).collect())
    }
}

/// Reads every shard file of `job` in `dir` (temporary files ignored) and sorts them into
/// whole shards of a split into `count`, refused files, and missing shards.
pub fn survey(dir: &Path, job: &Job, count: u32) -> Result<Survey, ShardError> {
    let io_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ShardError::Io { path, source }
    };
    let prefix = format!("{}.", job.name);
    let mut names: Vec<PathBuf> = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(&format!(".{EXTENSION}")) {
            names.push(entry.path());
        }
    }
    names.sort();
    let mut survey = Survey::default();
    for path in names {
        let named = id_from_name(&path, job);
        let remake_of = |id: Option<ShardId>| match id.or(named) {
            Some(id) if id.count == count => job.shard_command(id),
            _ => format!(
                "{} (for each missing shard)",
                job.shard_command_template(count)
            ),
        };
        // By type before opening: a FIFO named like a shard would block the open forever.
        let file = match open_regular(&path) {
            Ok(file) => file,
            Err(FileError::NotRegular { kind, .. }) => {
                survey.refused.push(ShardError::Corrupt {
                    command: remake_of(None),
                    why: format!("{kind}, not a regular file"),
                    path,
                });
                continue;
            }
            Err(FileError::Read { source, .. } | FileError::Write { source, .. }) => {
                return Err(ShardError::Io { path, source });
            }
            // Something on the way to DIR is not a folder to walk (another user's link, a
            // loop): no shard is read there.
            Err(
                e @ (FileError::NotAFolder { .. }
                | FileError::ForeignLink { .. }
                | FileError::TooManyLinks { .. }),
            ) => {
                return Err(ShardError::Io {
                    path,
                    source: io::Error::other(e),
                });
            }
        };
        let meta = file.metadata().map_err(io_error(&path))?;
        if let Some(why) = crate::safe::untrusted(&meta) {
            survey.refused.push(ShardError::Corrupt {
                command: remake_of(None),
                why,
                path,
            });
            continue;
        }
        if meta.len() > MAX_SHARD_BYTES {
            survey.refused.push(ShardError::Corrupt {
                command: remake_of(None),
                why: format!("{} bytes, more than any shard", meta.len()),
                path,
            });
            continue;
        }
        let mut bytes = Vec::new();
        file.take(MAX_SHARD_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error(&path))?;
        let (header, body) = match parse(&bytes) {
            Ok(parsed) => parsed,
            Err(why) => {
                survey.refused.push(ShardError::Corrupt {
                    command: remake_of(None),
                    why,
                    path,
                });
                continue;
            }
        };
        let id = header.id;
        if body.len() as u64 != header.bytes {
            survey.refused.push(ShardError::Corrupt {
                command: remake_of(Some(id)),
                why: format!(
                    "{} bytes of body, its header says {}",
                    body.len(),
                    header.bytes
                ),
                path,
            });
            continue;
        }
        if sha256_hex(body) != header.content {
            survey.refused.push(ShardError::Corrupt {
                command: remake_of(Some(id)),
                why: "its content hash does not match its body".into(),
                path,
            });
            continue;
        }
        if header.job != job.name || header.spec != job.spec {
            survey.refused.push(ShardError::Foreign {
                command: remake_of(Some(id)),
                what: whose(
                    job,
                    &header.job,
                    &header.spec,
                    &header.program,
                    header.inputs.as_deref(),
                ),
                path,
            });
            continue;
        }
        if id.count != count {
            survey.refused.push(ShardError::Foreign {
                command: remake_of(None),
                what: format!("a split into {} shards, not {count}", id.count),
                path,
            });
            continue;
        }
        if let Some((first, _)) = survey.done.get(&id.index) {
            survey.refused.push(ShardError::Repeated {
                id,
                first: first.clone(),
                second: path,
                command: job.shard_command(id),
            });
            continue;
        }
        survey.done.insert(id.index, (path, body.to_vec()));
    }
    survey.missing = ShardId::all(count)
        .filter(|id| !survey.done.contains_key(&id.index))
        .map(|id| Remake {
            id,
            path: shard_path(dir, job, id),
            command: job.shard_command(id),
        })
        .collect();
    Ok(survey)
}

/// The bodies of shards 1..=`count` of `job` in `dir`, in order: only if every one is there
/// whole, once, and of this job's spec.
pub fn read_shards(dir: &Path, job: &Job, count: u32) -> Result<Vec<Vec<u8>>, ShardError> {
    survey(dir, job, count)?.into_bodies()
}

/// Shard `id`'s body as a stream, for a merge of bodies larger than memory: the file is
/// checked as [`survey`] checks it (header, job and spec, length, content hash; the hash
/// over a first pass a buffer at a time), then handed back positioned at its body, limited
/// to its length. Refused as [`read_shards`] refuses, naming the file and its command.
pub fn open_body(
    dir: &Path,
    job: &Job,
    id: ShardId,
) -> Result<io::Take<io::BufReader<fs::File>>, ShardError> {
    use io::{BufRead, Seek};
    use sha2::{Digest, Sha256};
    let path = shard_path(dir, job, id);
    let command = job.shard_command(id);
    let corrupt = |why: String| ShardError::Corrupt {
        path: path.clone(),
        why,
        command: command.clone(),
    };
    let io_error = |source| ShardError::Io {
        path: path.clone(),
        source,
    };
    let file = match open_regular(&path) {
        Ok(file) => file,
        Err(FileError::NotRegular { kind, .. }) => {
            return Err(corrupt(format!("{kind}, not a regular file")));
        }
        Err(FileError::Read { source, .. } | FileError::Write { source, .. }) => {
            return Err(match source.kind() {
                io::ErrorKind::NotFound => ShardError::Missing(vec![Remake {
                    id,
                    path: path.clone(),
                    command: command.clone(),
                }]),
                _ => io_error(source),
            });
        }
        // Something on the way to DIR is not a folder to walk (another user's link, a loop).
        Err(
            e @ (FileError::NotAFolder { .. }
            | FileError::ForeignLink { .. }
            | FileError::TooManyLinks { .. }),
        ) => return Err(io_error(io::Error::other(e))),
    };
    let length = file.metadata().map_err(io_error)?.len();
    let mut reader = io::BufReader::new(file);
    // The header: its lines up to the blank one.
    let mut head = Vec::new();
    loop {
        let before = head.len();
        (&mut reader)
            .take(HEADER_BYTES)
            .read_until(b'\n', &mut head)
            .map_err(io_error)?;
        if head.len() == before || head.len() as u64 > HEADER_BYTES {
            return Err(corrupt("no header".into()));
        }
        if head.ends_with(b"\n\n") {
            break;
        }
    }
    let (header, _) = parse(&head).map_err(corrupt)?;
    let body_length = length - head.len() as u64;
    if body_length != header.bytes {
        return Err(corrupt(format!(
            "{body_length} bytes of body, its header says {}",
            header.bytes
        )));
    }
    if header.job != job.name || header.spec != job.spec {
        return Err(ShardError::Foreign {
            what: whose(
                job,
                &header.job,
                &header.spec,
                &header.program,
                header.inputs.as_deref(),
            ),
            path: path.clone(),
            command: command.clone(),
        });
    }
    if header.id != id {
        return Err(ShardError::Foreign {
            what: format!("shard {}, not {id}", header.id),
            path: path.clone(),
            command: command.clone(),
        });
    }
    let mut hasher = Sha256::new();
    loop {
        let buffer = reader.fill_buf().map_err(io_error)?;
        if buffer.is_empty() {
            break;
        }
        hasher.update(buffer);
        let n = buffer.len();
        reader.consume(n);
    }
    let digest: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if digest != header.content {
        return Err(corrupt("its content hash does not match its body".into()));
    }
    reader
        .seek(io::SeekFrom::Start(head.len() as u64))
        .map_err(io_error)?;
    Ok(reader.take(header.bytes))
}
