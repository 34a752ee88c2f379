//! A job and its spec hash: what a shard computes, so that a shard of another job, another
//! spec or another version of the program is never merged.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::ShardId;

/// SHA-256 as 64 lower-case hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// One sharded job: its name (the stem of its shard files), its spec hash, and the command
/// line that runs it with `--out DIR` (the one-process run), from which the shard, merge and
/// status commands are made by adding one flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Stem of the shard files, e.g. `links-9` or `quantisation`: letters, digits, `-`, `_`.
    pub name: String,
    /// [`Job::spec_hash`] of the spec and the program's version.
    pub spec: String,
    /// The program's version (with the git commit it was built from, where it was): written
    /// in each shard's header, so a shard of another version is refused naming it.
    pub version: String,
    /// The one-process command, program first (`birdcage links --vertices 9 --out DIR`).
    pub command: Vec<String>,
    /// The spec as canonical JSON: written in each shard's header, so a shard of another
    /// spec is refused naming the inputs that differ ([`Job::differing_inputs`]).
    pub inputs: String,
}

impl Job {
    /// A job whose spec is `spec` (serialised canonically: serde_json's sorted maps, no
    /// whitespace) computed by `version` of the program.
    ///
    /// # Panics
    /// If `name` is not a plain file stem, or `spec` does not serialise (a bug, not input).
    pub fn new(name: &str, spec: &impl Serialize, version: &str, command: Vec<String>) -> Job {
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "job name {name:?} is not a plain file stem"
        );
        Job {
            name: name.to_string(),
            spec: Job::spec_hash(name, spec, version),
            version: version.to_string(),
            command,
            inputs: canonical(spec),
        }
    }

    /// The inputs whose values differ between this job's spec and `theirs` (another shard's
    /// `inputs` line), as `PATH: theirs X, this run's Y`, nested fields by dotted path.
    pub fn differing_inputs(&self, theirs: &str) -> Vec<String> {
        let (Ok(ours), Ok(theirs)) = (
            serde_json::from_str::<serde_json::Value>(&self.inputs),
            serde_json::from_str::<serde_json::Value>(theirs),
        ) else {
            return Vec::new();
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        flatten("", &ours, &mut a);
        flatten("", &theirs, &mut b);
        // Long values shown from a little before where the two first differ (two geng
        // versions share their first 20 characters), at most 24 characters of each.
        let short = |v: Option<&String>, other: Option<&String>| match v {
            None => "none".to_string(),
            Some(v) if v.chars().count() > 24 => {
                let same = other.map_or(0, |o| {
                    v.chars().zip(o.chars()).take_while(|(a, b)| a == b).count()
                });
                let from = same.saturating_sub(4);
                let lead = if from > 0 { "…" } else { "" };
                let rest: String = v.chars().skip(from).collect();
                if rest.chars().count() > 24 {
                    format!("{lead}{}…", rest.chars().take(23).collect::<String>())
                } else {
                    format!("{lead}{rest}")
                }
            }
            Some(v) => v.clone(),
        };
        let mut paths: Vec<&String> = a.iter().chain(&b).map(|(p, _)| p).collect();
        paths.sort();
        paths.dedup();
        paths
            .into_iter()
            .filter_map(|path| {
                let find = |list: &[(String, String)]| {
                    list.iter().find(|(p, _)| p == path).map(|(_, v)| v.clone())
                };
                let (o, t) = (find(&a), find(&b));
                (o != t).then(|| {
                    format!(
                        "{path}: theirs {}, this run's {}",
                        short(t.as_ref(), o.as_ref()),
                        short(o.as_ref(), t.as_ref())
                    )
                })
            })
            .collect()
    }

    /// The hash of a job's spec: SHA-256 of its name, the program's version and the spec as
    /// canonical JSON (a `Value` first, whose maps are sorted), one per line.
    pub fn spec_hash(name: &str, spec: &impl Serialize, version: &str) -> String {
        let canonical = canonical(spec);
        sha256_hex(format!("{name}\n{version}\n{canonical}\n").as_bytes())
    }

    /// The command with `extra` appended, quoted for a POSIX shell.
    pub fn command_with(&self, extra: &[&str]) -> String {
        self.command
            .iter()
            .map(String::as_str)
            .chain(extra.iter().copied())
            .map(shell_quote)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The command that runs shard `id` (and so makes its file again).
    pub fn shard_command(&self, id: ShardId) -> String {
        self.command_with(&["--shard", &id.to_string()])
    }

    /// The shard command with `K` left for the reader: `... --shard K/16`.
    pub fn shard_command_template(&self, count: u32) -> String {
        self.command_with(&["--shard", &format!("K/{count}")])
    }

    /// The shard command with both `K` and `P` left for the reader: `... --shard K/P`.
    pub fn shard_command_any(&self) -> String {
        self.command_with(&["--shard", "K/P"])
    }

    /// The command that merges the shards into the report.
    pub fn merge_command(&self) -> String {
        self.command_with(&["--merge"])
    }
}

/// A spec as canonical JSON: a `Value` first, whose maps are sorted; no whitespace.
fn canonical(spec: &impl Serialize) -> String {
    let value = serde_json::to_value(spec).expect("a spec serialises");
    serde_json::to_string(&value).expect("a value serialises")
}

/// A JSON value's leaves as (dotted path, compact JSON), in order.
fn flatten(path: &str, value: &serde_json::Value, out: &mut Vec<(String, String)>) {
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            for (key, v) in map {
                let p = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                flatten(&p, v, out);
            }
        }
        leaf => out.push((
            if path.is_empty() {
                "spec".into()
            } else {
                path.to_string()
            },
            match leaf {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            },
        )),
    }
}

/// `word` as a POSIX shell reads it back: bare when it holds only safe characters, else in
/// single quotes.
pub fn shell_quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+%@".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Spec {
        size: u32,
        seed: u64,
    }

    #[test]
    fn spec_hash_depends_on_every_part() {
        let a = Job::spec_hash("q", &Spec { size: 3, seed: 1 }, "1.0");
        assert_eq!(a.len(), 64);
        assert_eq!(a, Job::spec_hash("q", &Spec { size: 3, seed: 1 }, "1.0"));
        assert_ne!(a, Job::spec_hash("q", &Spec { size: 3, seed: 2 }, "1.0"));
        assert_ne!(a, Job::spec_hash("q", &Spec { size: 3, seed: 1 }, "1.1"));
        assert_ne!(a, Job::spec_hash("r", &Spec { size: 3, seed: 1 }, "1.0"));
        // Canonical: the order fields are written in does not matter.
        let reordered = serde_json::json!({"seed": 1, "size": 3});
        assert_eq!(a, Job::spec_hash("q", &reordered, "1.0"));
    }

    /// A foreign spec is named by what differs in it, nested fields by their path.
    #[test]
    fn differing_inputs_name_each_field_that_differs() {
        let ours = Job::new(
            "q",
            &serde_json::json!({"argv": ["study"], "depends": {"elf": "aa", "board": "bb"}}),
            "1",
            vec![],
        );
        let theirs = serde_json::json!({"argv": ["study"], "depends": {"elf": "aa", "board": "cc"}, "new": 1});
        assert_eq!(
            ours.differing_inputs(&theirs.to_string()),
            [
                "depends.board: theirs cc, this run's bb".to_string(),
                "new: theirs 1, this run's none".to_string()
            ]
        );
        assert!(ours.differing_inputs(&ours.inputs).is_empty());
        assert!(ours.differing_inputs("not json").is_empty());
    }

    /// Two long values that share their start are shown from where they part: two geng
    /// versions were both shown as `Nauty&Traces version 2.…`.
    #[test]
    fn long_values_are_shown_where_they_differ() {
        let plain = "Nauty&Traces version 2.8001 (32 bits)";
        let pruned = "Nauty&Traces version 2.8001 (32 bits) with the links PRUNE hook";
        let ours = Job::new("links-9", &serde_json::json!({"geng": pruned}), "1", vec![]);
        let theirs = serde_json::json!({"geng": plain});
        assert_eq!(
            ours.differing_inputs(&theirs.to_string()),
            ["geng: theirs …its), this run's …its) with the links PRU…".to_string()]
        );
    }

    #[test]
    fn sha256_of_a_known_text() {
        // FIPS 180-2, appendix B.1.
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn commands_quote_what_a_shell_would_split() {
        let job = Job::new(
            "links-9",
            &9,
            "0",
            vec![
                "birdcage".into(),
                "links".into(),
                "--out".into(),
                "my dir".into(),
            ],
        );
        assert_eq!(
            job.shard_command(ShardId { index: 2, count: 8 }),
            "birdcage links --out 'my dir' --shard 2/8"
        );
        assert_eq!(job.merge_command(), "birdcage links --out 'my dir' --merge");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
