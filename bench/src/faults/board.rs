//! Faults of the board itself, made at register level by the virtual NUCLEO-F446RE
//! (`virtual-board --fault`): an ADC input open or stuck, an LED that never lights, MISO stuck
//! low, the PLL that never locks (the core hung in a loop), a firmware panic. Each runs on a
//! fresh virtual board with the unmodified board ELF, reached through probe-rs as a board is,
//! against the intact virtual board's reference game; each says what a person should check
//! on a real board.
//!
//! Who finds each: the firmware's self-check (the game's verdicts, as in the cage campaign),
//! the bench (a run that stops: a hang with the PC and function, a panic with its message, a
//! refused command), or the LED check (after a new game the firmware lights every LED; the
//! virtual board shows which a person would see lit).

use std::ops::ControlFlow;

use boards::Profile;
use boards::virtual_board;
use firmware::LedPattern;
use firmware::protocol::{Command, Reply};
use heuristic::Size;

use crate::check::Predictor;
use crate::dut::hil::Hil;
use crate::dut::{Dut, DutError, Lost};
use crate::faults::cage::{FaultCampaignError, Reference, Verdict, classify, observe, reference};
use crate::run::scenario::Script;

/// One board fault of the campaign: the fault the virtual board takes, what it breaks and
/// what a person checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardFaultCase {
    /// The fault, as `virtual-board --fault` takes it (`adc-open:PA0`, `led-dead:PC10`, ...).
    pub spec: virtual_board::BoardFault,
    /// What is broken, in words.
    pub what: String,
    /// What a person checks on a real board that shows it.
    pub check: String,
}

impl BoardFaultCase {
    fn new(spec: virtual_board::BoardFault, what: String, check: String) -> BoardFaultCase {
        BoardFaultCase { spec, what, check }
    }
}

/// Every board fault at every place `profile` wires: each measured node's ADC input open,
/// stuck at 0 and stuck at full scale; each LED dead; MISO stuck low (with a fixture that has
/// MISO); the PLL that never locks; a panic.
pub fn board_faults(profile: &Profile) -> Vec<BoardFaultCase> {
    let pins = &profile.pins;
    let full = profile.full_scale_code();
    let mut faults = Vec::new();
    let inputs = pins
        .nodes
        .iter()
        .zip(
            boards::CAGE_SIZE
                .nodes()
                .filter(|n| *n != heuristic::Node::Top),
        )
        .map(|(input, node)| (*input, node.to_string()))
        .chain(std::iter::once((pins.bottom, "0".to_string())));
    for (input, node) in inputs {
        let (pin, channel) = (input.pin, input.channel);
        faults.push(BoardFaultCase::new(
            virtual_board::BoardFault::AdcOpen(pin),
            format!("node {node}'s input {pin} (ADC1_IN{channel}) open"),
            format!("the wire from node {node} to {pin} and its solder joints"),
        ));
        for (code, rail) in [(0, "ground"), (full, "3.3 V")] {
            faults.push(BoardFaultCase::new(
                virtual_board::BoardFault::AdcStuck(pin, code),
                format!("node {node}'s input {pin} stuck at {code}"),
                format!("{pin} for a short to {rail} (a solder bridge), or a damaged input"),
            ));
        }
    }
    let leds = pins
        .row_leds
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("row {}", i + 1), *p))
        .chain(
            pins.column_leds
                .iter()
                .enumerate()
                .map(|(i, p)| (format!("column {}", (b'A' + i as u8) as char), *p)),
        );
    for (name, pin) in leds {
        faults.push(BoardFaultCase::new(
            virtual_board::BoardFault::LedDead(pin),
            format!("the {name} LED ({pin}) dead"),
            format!("the {name} LED, its series resistor and its wire to {pin}"),
        ));
    }
    if let Some(miso) = profile.fixture.and_then(|f| f.miso) {
        faults.push(BoardFaultCase::new(
            virtual_board::BoardFault::MisoLow,
            format!("MISO ({miso}) stuck low"),
            format!(
                "the wire from the last ADG714's DOUT to {miso}, and the fixture's supply and \
                 ground"
            ),
        ));
    }
    faults.push(BoardFaultCase::new(
        virtual_board::BoardFault::PllStuck,
        "the PLL never locks (the core waits in a loop)".into(),
        "the clock set-up: the firmware waits where the bench says; on a board, the \
         supply and the chip's clock (HSI, PLL)"
            .into(),
    ));
    faults.push(BoardFaultCase::new(
        virtual_board::BoardFault::Panic,
        "the firmware panics at its first self-check".into(),
        "the RTT log's last lines: the panic message and where it was raised".into(),
    ));
    faults
}

/// What became of one board fault.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BoardVerdict {
    /// The game against the reference decided it, as in the cage campaign.
    Game(Verdict),
    /// The bench's run stopped: the board hung, panicked or refused a command.
    Stopped {
        /// The bench's words.
        said: String,
    },
    /// After a new game the firmware lights every LED, and some stay dark.
    Dark {
        /// The dark LEDs, by name and pin.
        leds: String,
    },
}

impl BoardVerdict {
    /// Whether the firmware, the bench or the LED check noticed it.
    pub fn found(&self) -> bool {
        !matches!(
            self,
            BoardVerdict::Game(Verdict::Silent) | BoardVerdict::Game(Verdict::Idle)
        )
    }

    /// Who noticed it, in words.
    pub fn by(&self) -> &'static str {
        match self {
            BoardVerdict::Game(Verdict::Detected { .. }) => "the firmware's self-check",
            BoardVerdict::Game(Verdict::Misread { .. }) => "misread by the firmware",
            BoardVerdict::Game(Verdict::Changed { .. }) => "a changed move",
            BoardVerdict::Game(_) => "nobody",
            BoardVerdict::Stopped { .. } => "the bench (the run stopped)",
            BoardVerdict::Dark { .. } => "the LED check",
        }
    }

    /// Every [`BoardVerdict::word`], as `--fail-on` lists them.
    pub const WORDS: [&'static str; 8] = [
        "detected", "misread", "silent", "changed", "tied", "idle", "stopped", "dark",
    ];

    /// Its one word, as `hil-tests run --fail-on` names it: a game's [`Verdict::word`], or
    /// `stopped` (the bench's run stopped), `dark` (LEDs that stay dark).
    pub fn word(&self) -> &'static str {
        match self {
            BoardVerdict::Game(verdict) => verdict.word(),
            BoardVerdict::Stopped { .. } => "stopped",
            BoardVerdict::Dark { .. } => "dark",
        }
    }

    /// What was seen.
    pub fn words(&self) -> String {
        match self {
            BoardVerdict::Game(Verdict::Detected { after, fault }) => {
                format!("after {after} moves: {fault}")
            }
            BoardVerdict::Game(Verdict::Misread { after, what })
            | BoardVerdict::Game(Verdict::Changed { after, what, .. }) => {
                format!("after {after} moves: {what}")
            }
            BoardVerdict::Game(_) => "the game went as on the intact board".into(),
            BoardVerdict::Stopped { said } => said.clone(),
            BoardVerdict::Dark { leds } => format!("these stay dark: {leds}"),
        }
    }
}

/// One board fault's run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BoardTrial {
    /// The fault as `virtual-board --fault` takes it.
    pub fault: String,
    /// What is broken.
    pub what: String,
    /// What became of it.
    pub verdict: BoardVerdict,
    /// What to check on a real board.
    pub check: String,
    /// How long the trial took (a fresh board included), for JUnit's `time`. `None` in a
    /// shard written before it was measured. Never in `board-faults.md` or `.csv`.
    #[serde(default)]
    pub took: Option<std::time::Duration>,
}

/// Two trials are the same when they found the same, however long each took.
impl PartialEq for BoardTrial {
    fn eq(&self, other: &BoardTrial) -> bool {
        let BoardTrial {
            fault,
            what,
            verdict,
            check,
            took: _,
        } = self;
        (fault, what, verdict, check) == (&other.fault, &other.what, &other.verdict, &other.check)
    }
}

impl Eq for BoardTrial {}

/// A board-fault campaign.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BoardFaultRun {
    /// The game's M.
    pub size: u8,
    /// The reference game's record (the intact virtual board's).
    pub reference: String,
    /// One per fault, in [`board_faults`] order.
    pub trials: Vec<BoardTrial>,
    /// Faults the campaign has.
    pub planned: usize,
}

/// A part of a board-fault campaign: the trials of the faults a shard owns, by their index
/// in the campaign's faults.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BoardFaultShard {
    /// The game's M.
    pub size: u8,
    /// The reference game's record (the intact virtual board's).
    pub reference: String,
    /// Faults the whole campaign has.
    pub planned: usize,
    /// The faults run, in order, each with its index.
    pub trials: Vec<(usize, BoardTrial)>,
}

/// Runs `faults` on boards from `connect` (a fresh virtual board with the faults it is given:
/// none for the reference), games of `size` on `profile`. `progress(done, planned)` is called
/// after each fault and stops the campaign by breaking.
///
/// The campaign in one plain loop, no part, no shard, no merge: the independent reference
/// the merged shards of the campaign are checked against (issue 49). It shares with
/// [`board_fault_campaign_shard`] only the intact board's game and each fault's trial.
pub fn board_fault_campaign(
    connect: &mut dyn FnMut(&[virtual_board::BoardFault]) -> Result<Hil, DutError>,
    profile: &'static Profile,
    size: Size,
    faults: &[BoardFaultCase],
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<BoardFaultRun, FaultCampaignError> {
    let predictor = Predictor::new(profile, size);
    let reference = intact(connect, profile, &predictor, size)?;
    let mut run = BoardFaultRun {
        size: size.get(),
        reference: reference.record.to_string(),
        trials: Vec::new(),
        planned: faults.len(),
    };
    for fault in faults {
        let trial = board_trial(connect, profile, &predictor, size, &reference, fault);
        run.trials.push(trial);
        if progress(run.trials.len(), faults.len()).is_break() {
            break;
        }
    }
    Ok(run)
}

/// Runs the faults `owns` picks (by index in `faults`), each on a fresh virtual board, after
/// the intact board's reference game (which every part plays for itself): a fault's trial is
/// the same whichever others run before it. `progress(done)` is called after each fault and
/// stops the part by breaking.
pub fn board_fault_campaign_shard(
    connect: &mut dyn FnMut(&[virtual_board::BoardFault]) -> Result<Hil, DutError>,
    profile: &'static Profile,
    size: Size,
    faults: &[BoardFaultCase],
    owns: &dyn Fn(usize) -> bool,
    progress: &mut dyn FnMut(usize) -> ControlFlow<()>,
) -> Result<BoardFaultShard, FaultCampaignError> {
    let predictor = Predictor::new(profile, size);
    let reference = intact(connect, profile, &predictor, size)?;
    let mut part = BoardFaultShard {
        size: size.get(),
        reference: reference.record.to_string(),
        trials: Vec::new(),
        planned: faults.len(),
    };
    for (i, fault) in faults.iter().enumerate() {
        if !owns(i) {
            continue;
        }
        let trial = board_trial(connect, profile, &predictor, size, &reference, fault);
        part.trials.push((i, trial));
        if progress(part.trials.len()).is_break() {
            break;
        }
    }
    Ok(part)
}

/// The intact board's reference game, its LEDs checked first.
fn intact(
    connect: &mut dyn FnMut(&[virtual_board::BoardFault]) -> Result<Hil, DutError>,
    profile: &Profile,
    predictor: &Predictor,
    size: Size,
) -> Result<Reference, FaultCampaignError> {
    let mut intact = connect(&[])?;
    if let Some(dark) = dark_leds(&mut intact, profile)? {
        return Err(FaultCampaignError::Reference(format!(
            "the intact board's LEDs stay dark: {dark}"
        )));
    }
    reference(&mut intact, predictor, size)
}

/// One fault on a fresh virtual board.
fn board_trial(
    connect: &mut dyn FnMut(&[virtual_board::BoardFault]) -> Result<Hil, DutError>,
    profile: &Profile,
    predictor: &Predictor,
    size: Size,
    reference: &Reference,
    fault: &BoardFaultCase,
) -> BoardTrial {
    let begun = std::time::Instant::now();
    let script = Script::Record(Box::new(reference.record.clone()));
    let verdict = match connect(&[fault.spec]) {
        Ok(mut board) => trial(&mut board, profile, predictor, size, reference, &script),
        Err(e) => BoardVerdict::Stopped {
            said: e.to_string(),
        },
    };
    BoardTrial {
        fault: fault.spec.to_string(),
        what: fault.what.clone(),
        verdict,
        check: fault.check.clone(),
        took: Some(begun.elapsed()),
    }
}

/// One faulty board: the LED check, then the reference game.
fn trial(
    board: &mut Hil,
    profile: &Profile,
    predictor: &Predictor,
    size: Size,
    reference: &Reference,
    script: &Script,
) -> BoardVerdict {
    let stopped = |board: &mut Hil, e: DutError| BoardVerdict::Stopped {
        said: stopped_words(board, e),
    };
    match dark_leds(board, profile) {
        Ok(Some(leds)) => return BoardVerdict::Dark { leds },
        Ok(None) => {}
        Err(e) => return stopped(board, e),
    }
    match observe(board, predictor, size, 1, script) {
        Ok((seen, steps)) => BoardVerdict::Game(classify(reference, &seen, &steps, size)),
        Err(e) => stopped(board, e),
    }
}

/// What the bench says of a board that stopped, the same on every run. A board that said why
/// it stopped (a panic, with its last log line: the virtual board's words) is taken at its
/// word: what the bench's link hit next, and which log lines the bench had read by then, are
/// the race between the two processes. Otherwise the bench's error, with the firmware's last
/// log line the bench read.
fn stopped_words(board: &mut Hil, e: DutError) -> String {
    if let DutError::Lost(Lost::Machine { said, .. }) = e {
        return said;
    }
    let said = e.to_string();
    match board.logs().pop() {
        Some(line) if !said.contains(&line) => format!("{said}; its log ends: {line}"),
        _ => said,
    }
}

/// After a new game the firmware lights every LED: those it drives that a person would not
/// see lit, by name and pin (`None`: all lit, or no one can look).
fn dark_leds(board: &mut Hil, profile: &Profile) -> Result<Option<String>, DutError> {
    board.exchange(Command::NewGame)?;
    let driven = match board.exchange(Command::Status)? {
        Reply::Status(status) => status.leds,
        reply => {
            return Err(Lost::Unexpected {
                expected: "its status",
                reply,
            }
            .into());
        }
    };
    let Some(seen) = board.lit().transpose()? else {
        return Ok(None);
    };
    Ok(dark(driven, seen, profile))
}

/// The LEDs `driven` lights that `seen` shows dark, by name and pin.
fn dark(driven: LedPattern, seen: LedPattern, profile: &Profile) -> Option<String> {
    let pins = &profile.pins;
    let rows = pins.row_leds.iter().enumerate().filter_map(|(i, pin)| {
        let y = i as u8 + 1;
        (driven.row(y) && !seen.row(y)).then(|| format!("row {y} ({pin})"))
    });
    let columns = pins.column_leds.iter().enumerate().filter_map(|(i, pin)| {
        let x = i as u8 + 1;
        (driven.column(x) && !seen.column(x))
            .then(|| format!("column {} ({pin})", (b'A' + i as u8) as char))
    });
    let dark: Vec<String> = rows.chain(columns).collect();
    (!dark.is_empty()).then(|| dark.join(", "))
}

/// `board-faults.md`: what each fault did, who found it and what to check.
pub fn board_fault_markdown(run: &BoardFaultRun, board: &str, seed: Option<u64>) -> String {
    let found = run.trials.iter().filter(|t| t.verdict.found()).count();
    let mut md = format!(
        "# Board faults on the virtual {board} (M={}, board seed {})\n\n\
         Reference game (the intact virtual board's): {}. {found} of {} faults found{}.\n\n\
         | fault | found by | what was seen | check on a real board |\n| --- | --- | --- | --- |\n",
        run.size,
        seed.map_or_else(|| "none: nominal parts".to_string(), |s| s.to_string()),
        super::table::record_words(&run.reference),
        run.trials.len(),
        if run.trials.len() < run.planned {
            format!(
                " (**INTERRUPTED** after {} of {})",
                run.trials.len(),
                run.planned
            )
        } else {
            String::new()
        },
    );
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    for t in &run.trials {
        md.push_str(&format!(
            "| {} (`{}`) | {} | {} | {} |\n",
            cell(&t.what),
            t.fault,
            t.verdict.by(),
            cell(&t.verdict.words()),
            cell(&t.check)
        ));
    }
    md
}

/// `board-faults.csv`: one line per fault (fault, found, by, seen, check).
pub fn board_fault_csv(run: &BoardFaultRun) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\"").replace('\n', " "));
    let mut csv = String::from("fault,found,by,seen,check\n");
    for t in &run.trials {
        csv.push_str(&format!(
            "{},{},{},{},{}\n",
            quote(&t.fault),
            t.verdict.found(),
            quote(t.verdict.by()),
            quote(&t.verdict.words()),
            quote(&t.check)
        ));
    }
    csv
}

/// Writes `board-faults.csv` and `board-faults.md` into `dir` (created if missing); returns the
/// Markdown.
pub fn write_board_fault_report(
    dir: &std::path::Path,
    run: &BoardFaultRun,
    board: &str,
    seed: Option<u64>,
) -> Result<String, shards::FileError> {
    // Whole or not at all, and never through a link planted in a shared --out.
    shards::safe::create_dir_all(dir)?;
    shards::safe::write_file(
        &dir.join("board-faults.csv"),
        board_fault_csv(run).as_bytes(),
    )?;
    let md = board_fault_markdown(run, board, seed);
    shards::safe::write_file(&dir.join("board-faults.md"), md.as_bytes())?;
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wired_pin_gets_its_faults_named_as_the_virtual_board_takes_them() {
        let profile = boards::NUCLEO_F446RE;
        let faults = board_faults(&profile);
        let specs: Vec<String> = faults.iter().map(|f| f.spec.to_string()).collect();
        // 12 internal nodes and the bottom terminal, three faults each; 14 LEDs; MISO, PLL,
        // panic.
        assert_eq!(faults.len(), 13 * 3 + 14 + 3);
        // Node A6 is PA0 (the profile's wiring table); its channel is the chip's ADC1_IN0.
        assert!(specs.contains(&"adc-open:PA0".to_string()), "{specs:?}");
        assert!(
            faults[0].what.contains("node A6's input PA0 (ADC1_IN0)"),
            "{faults:?}"
        );
        assert!(specs.contains(&"led-dead:PC10".to_string()), "{specs:?}");
        assert!(specs.contains(&"miso-low".to_string()) && specs.contains(&"panic".to_string()));
    }

    #[test]
    fn a_dark_led_is_one_driven_but_not_seen() {
        let profile = boards::NUCLEO_F446RE;
        let all = LedPattern {
            rows: 0x7F,
            columns: 0x7F,
        };
        assert_eq!(dark(all, all, &profile), None);
        let seen = LedPattern {
            rows: 0x7E,
            columns: 0x7F,
        };
        assert_eq!(dark(all, seen, &profile).as_deref(), Some("row 1 (PC10)"));
        // Not driven: not the LED's fault.
        assert_eq!(dark(seen, seen, &profile), None);
    }
}
