//! A steps file read back and checked (`--resume`, `calibrate`): its lines up to the first
//! that breaks the report's rules, and what they hold.

use super::*;

/// A steps file read and checked, as `--resume` and a calibration read it.
#[derive(Debug)]
pub struct Scan {
    /// The run's header (line 1).
    pub header: Header,
    /// The lines of the finished games, in order (a game's steps, then its end).
    pub(super) lines: Vec<Line>,
    /// Bytes of the file that hold the header and the finished games: what a resume keeps.
    pub kept: usize,
    /// The seal after the kept lines: where a resume's next line continues it.
    pub(super) chain: Chain,
    /// Steps of the game that was in hand when the run stopped (a calibration can use them;
    /// a resume plays that game again).
    pub unfinished: Vec<StepLine>,
}

/// How far a steps file reads: the lines up to the first that breaks the report's rules.
pub(super) struct Partial {
    pub(super) header: Option<Header>,
    pub(super) lines: Vec<Line>,
    pub(super) kept: usize,
    pub(super) chain: Chain,
    pub(super) pending: Vec<Line>,
    /// The first line refused, and why; `None` when the whole file reads.
    pub(super) error: Option<ReportError>,
}

impl Partial {
    /// Games finished before the first line refused.
    pub(super) fn games(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| matches!(l, Line::GameEnd(..)))
            .count()
    }
}

/// The start every header line this bench writes has: a file holding only a part of it is a
/// run killed while it wrote its first line, which played nothing.
const HEADER_START: &str = "{\"seq\":0,\"sum\":\"";

impl Scan {
    /// Reads a steps file's bytes (`path` only names it in errors). Every line must parse
    /// and carry its seal ([`chain`]), but a last line with no newline (cut short by a
    /// kill); the header comes first and once; games end in order, each once, and a game's
    /// steps come before its end and after the previous game's. Anything else is refused with
    /// the line's number: no run writes it.
    pub fn read(bytes: &[u8], path: &Path) -> Result<Scan, ReportError> {
        let partial = Scan::partial(bytes, path);
        if let Some(error) = partial.error {
            return Err(error);
        }
        let header = partial.header.ok_or_else(|| ReportError::Garbled {
            path: path.to_path_buf(),
            line: 1,
            why: "no header".to_string(),
        })?;
        let unfinished = partial
            .pending
            .into_iter()
            .filter_map(|l| match l {
                Line::Step(s) => Some(*s),
                _ => None,
            })
            .collect();
        Ok(Scan {
            header,
            lines: partial.lines,
            kept: partial.kept,
            chain: partial.chain,
            unfinished,
        })
    }

    /// Whether `bytes` hold no line at all: empty, or only the start of a header cut short
    /// (a run killed while writing its first line). Such a file holds nothing to keep or to
    /// lose, and a run starts afresh on it, with or without `--resume`.
    pub fn is_blank(bytes: &[u8]) -> bool {
        !bytes.contains(&b'\n')
            && std::str::from_utf8(bytes)
                .is_ok_and(|text| HEADER_START.starts_with(text) || text.starts_with(HEADER_START))
    }

    pub(super) fn partial(bytes: &[u8], path: &Path) -> Partial {
        let mut p = Partial {
            header: None,
            lines: Vec::new(),
            kept: 0,
            chain: Chain::default(),
            pending: Vec::new(),
            error: None,
        };
        let garbled = |line, why: String| ReportError::Garbled {
            path: path.to_path_buf(),
            line,
            why,
        };
        let misplaced = |line, why: String| ReportError::Misplaced {
            path: path.to_path_buf(),
            line,
            why,
        };
        let mut chain = Chain::default();
        let mut offset = 0;
        for (i, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
            let number = i + 1;
            offset += raw.len();
            let Some(text) = raw.strip_suffix(b"\n") else {
                // A last line cut short by an interruption: the run stopped in it.
                break;
            };
            if text.ends_with(b"\r") {
                p.error = Some(garbled(
                    number,
                    "it ends in CR LF: the file's line endings were converted (an editor, \
                     git's autocrlf); the bench writes LF only, so convert it back (dos2unix) \
                     to resume it"
                        .to_string(),
                ));
                break;
            }
            let Ok(text) = std::str::from_utf8(text) else {
                p.error = Some(garbled(number, "not UTF-8".to_string()));
                break;
            };
            let body = match chain.open(text) {
                Ok(body) => body,
                Err(Broken::Unsealed) => {
                    let why = if number == 1 && serde_json::from_str::<Line>(text).is_ok() {
                        "a header with no seal: written by an older bench, which cannot be \
                         resumed by this one (--force starts over)"
                            .to_string()
                    } else {
                        Broken::Unsealed.to_string()
                    };
                    p.error = Some(garbled(number, why));
                    break;
                }
                Err(broken) => {
                    p.error = Some(misplaced(number, broken.to_string()));
                    break;
                }
            };
            let Ok(line) = serde_json::from_str::<Line>(&body) else {
                p.error = Some(garbled(number, "not a report line".to_string()));
                break;
            };
            let next_game = p.games();
            match (&line, &p.header) {
                (Line::Header(h), None) if number == 1 => {
                    p.header = Some((**h).clone());
                    p.kept = offset;
                    p.chain = chain;
                    continue;
                }
                (Line::Header(_), _) => {
                    p.error = Some(misplaced(number, "a second header".to_string()));
                    break;
                }
                (_, None) => {
                    p.error = Some(garbled(1, "the first line is not a header".to_string()));
                    break;
                }
                _ => {}
            }
            let game = match &line {
                Line::Step(s) => s.game,
                Line::Misfit(m) => m.game,
                Line::GameEnd(g, _) => *g,
                Line::Header(_) => unreachable!("refused above"),
            };
            if game != next_game {
                p.error = Some(misplaced(
                    number,
                    format!("a line of game {game} where game {next_game} comes next"),
                ));
                break;
            }
            if matches!(line, Line::GameEnd(..)) {
                p.lines.append(&mut p.pending);
                p.lines.push(line);
                p.kept = offset;
                p.chain = chain;
            } else {
                p.pending.push(line);
            }
        }
        p
    }

    /// Games finished.
    pub fn games(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| matches!(l, Line::GameEnd(..)))
            .count()
    }

    /// Every step, the finished games' and then the unfinished one's.
    pub fn steps(self) -> Vec<StepLine> {
        let mut steps: Vec<StepLine> = self
            .lines
            .into_iter()
            .filter_map(|l| match l {
                Line::Step(s) => Some(*s),
                _ => None,
            })
            .collect();
        steps.extend(self.unfinished);
        steps
    }
}
