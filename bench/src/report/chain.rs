//! What a report guarantees about its own lines: each line of `steps.jsonl` carries its
//! sequence number and a running checksum, so a deleted, repeated, moved or edited line is
//! found by the first read that meets it (`--resume`, `calibrate`), with its line number.
//!
//! A line is a JSON object whose first two keys are the seal, then the line's own key:
//!
//! ```text
//! {"seq":0,"sum":"5d1c9e0b2a7f4c61","header":{...}}
//! {"seq":1,"sum":"0f3a...","step":{...}}
//! ```
//!
//! `sum` is the first 8 bytes, in hex, of SHA-256 over the previous line's `sum` (8 zero bytes
//! before the header), the sequence number as 8 little-endian bytes, and the line's body: the
//! same text with the seal taken out (`{"step":{...}}`). The checksum covers the bytes as
//! written, so no re-serialisation is involved in checking it. It guards against accidents
//! (an editor, a bad disk, a script that drops a line), not against someone who recomputes it:
//! it is a checksum, not a signature.

use sha2::{Digest, Sha256};

/// The running state of a report's seal: the next sequence number and the last checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Chain {
    seq: u64,
    last: [u8; 8],
}

/// Why a line does not carry the seal the report's order gives it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Broken {
    /// No `{"seq":N,"sum":"...",` at the start of the line.
    #[error("no sequence number and checksum (not a line this bench writes)")]
    Unsealed,
    /// Another sequence number than the one that comes next.
    #[error(
        "sequence number {found} where {expected} comes next (a line was deleted, repeated or moved)"
    )]
    Sequence {
        /// The line's number.
        found: u64,
        /// The number the report's order gives it.
        expected: u64,
    },
    /// The checksum does not match the line and the one before it.
    #[error("its checksum does not match its text (the line was edited or the file damaged)")]
    Sum,
}

const SEQ: &str = "{\"seq\":";
const SUM: &str = ",\"sum\":\"";

impl Chain {
    /// The next line's sequence number.
    pub fn next_seq(&self) -> u64 {
        self.seq
    }

    fn sum(&self, seq: u64, body: &str) -> [u8; 8] {
        let mut hash = Sha256::new();
        hash.update(self.last);
        hash.update(seq.to_le_bytes());
        hash.update(body.as_bytes());
        let digest = hash.finalize();
        let mut sum = [0; 8];
        sum.copy_from_slice(&digest[..8]);
        sum
    }

    /// Seals `body`, a JSON object's text (`{"step":{...}}`), as the next line: the text to
    /// write, without its newline.
    pub fn seal(&mut self, body: &str) -> String {
        let seq = self.seq;
        let sum = self.sum(seq, body);
        self.seq += 1;
        self.last = sum;
        // `body` starts with `{`: the seal's keys go in front of its own.
        let rest = body.strip_prefix('{').unwrap_or(body);
        let comma = if rest.starts_with('}') { "" } else { "," };
        format!("{SEQ}{seq}{SUM}{}\"{comma}{rest}", hex(&sum))
    }

    /// Checks `line` (without its newline) as the next line and returns its body, the text
    /// [`Chain::seal`] was given; the chain moves on only when the line is whole.
    pub fn open(&mut self, line: &str) -> Result<String, Broken> {
        let rest = line.strip_prefix(SEQ).ok_or(Broken::Unsealed)?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let found: u64 = rest[..digits].parse().map_err(|_| Broken::Unsealed)?;
        let rest = rest[digits..].strip_prefix(SUM).ok_or(Broken::Unsealed)?;
        let (written, rest) = rest.split_at_checked(16).ok_or(Broken::Unsealed)?;
        let written = unhex(written).ok_or(Broken::Unsealed)?;
        let rest = rest.strip_prefix('"').ok_or(Broken::Unsealed)?;
        let body = match rest.strip_prefix(',') {
            Some(rest) => format!("{{{rest}"),
            None if rest == "}" => "{}".to_string(),
            None => return Err(Broken::Unsealed),
        };
        if found != self.seq {
            return Err(Broken::Sequence {
                found,
                expected: self.seq,
            });
        }
        if self.sum(found, &body) != written {
            return Err(Broken::Sum);
        }
        self.seq += 1;
        self.last = written;
        Ok(body)
    }
}

/// SHA-256 of `bytes` in hex: what a report's header records of a file a run depends on.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn hex(bytes: &[u8; 8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<[u8; 8]> {
    let mut out = [0; 8];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sealed(bodies: &[&str]) -> Vec<String> {
        let mut chain = Chain::default();
        bodies.iter().map(|b| chain.seal(b)).collect()
    }

    #[test]
    fn a_sealed_line_is_json_with_the_seal_first_and_opens_to_its_body() {
        let bodies = [r#"{"header":{"a":1}}"#, r#"{"step":{"code":7}}"#, "{}"];
        let lines = sealed(&bodies);
        assert!(lines[1].starts_with(r#"{"seq":1,"sum":""#), "{}", lines[1]);
        assert!(lines[1].ends_with(r#","step":{"code":7}}"#), "{}", lines[1]);
        let mut chain = Chain::default();
        for (line, body) in lines.iter().zip(bodies) {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(value["seq"].as_u64(), Some(chain.next_seq()));
            assert_eq!(chain.open(line).unwrap(), body);
        }
    }

    /// The SHA-256 test vector of FIPS 180-2 (appendix B.1, "abc"), so the checksum is
    /// SHA-256 and not something that only agrees with itself.
    #[test]
    fn the_checksum_is_sha256() {
        let digest = Sha256::digest(b"abc");
        assert_eq!(
            hex(digest[..8].try_into().unwrap()),
            "ba7816bf8f01cfea",
            "FIPS 180-2 B.1"
        );
    }

    #[test]
    fn every_kind_of_tampering_is_found() {
        let lines = sealed(&[
            r#"{"header":{"a":1}}"#,
            r#"{"step":{"code":7,"chosen":"A5"}}"#,
            r#"{"game_end":[0,0]}"#,
        ]);
        let read = |lines: &[String]| -> Result<(), (usize, Broken)> {
            let mut chain = Chain::default();
            for (i, line) in lines.iter().enumerate() {
                chain.open(line).map_err(|e| (i, e))?;
            }
            Ok(())
        };
        assert_eq!(read(&lines), Ok(()));
        // A line deleted.
        let deleted = [lines[0].clone(), lines[2].clone()];
        assert_eq!(
            read(&deleted),
            Err((
                1,
                Broken::Sequence {
                    found: 2,
                    expected: 1
                }
            ))
        );
        // A value edited; a chosen edge made up.
        for (from, to) in [("\"code\":7", "\"code\":8"), ("\"A5\"", "\"Z9\"")] {
            let mut edited = lines.clone();
            edited[1] = edited[1].replace(from, to);
            assert_eq!(read(&edited), Err((1, Broken::Sum)), "{from} -> {to}");
        }
        // A line edited with its number kept but its checksum recomputed from scratch would
        // need the previous checksum: a line moved to another place breaks the sequence.
        let moved = [lines[0].clone(), lines[2].clone(), lines[1].clone()];
        assert!(read(&moved).is_err());
        // Not a sealed line at all, or a seal cut short.
        let mut plain = lines.clone();
        plain[1] = r#"{"step":{"code":7}}"#.to_string();
        assert_eq!(read(&plain), Err((1, Broken::Unsealed)));
        let mut short = lines.clone();
        short[1].truncate(20);
        assert_eq!(read(&short), Err((1, Broken::Unsealed)));
    }
}
