//! Quantisation study: for every decision position and every resolution, the move the
//! heuristic makes from ADC codes against the exact tied set, each divergence classified.
//!
//! The computation (converters, judgements, causes, the tally) is
//! [`emulator::quantisation`], beside the ADC model it studies, where `cargo test -p
//! emulator` runs it; this module runs it over a [`PositionSet`] in parallel chunks that
//! Ctrl-C can stop, and reports: [`report`] (JSON, CSV, Markdown) and [`plots`] (SVG).
//!
//! A move outside the exact tied set is a divergence, blamed on the first counterfactual
//! that already diverges ([`RULE`]); a move inside it but not the exact choice is an exact
//! tie broken differently (**tie**, benign).

mod plots;
mod report;

pub use emulator::quantisation::{
    Converter, MARGIN_BINS, MARGIN_BITS, margin_bin, margin_bin_edges,
};
/// The judgement of one move ([`emulator::verdict::Judgement`]), serialized in lower case.
pub use emulator::verdict::Judgement as Verdict;
pub use plots::{MARKED_BITS, plots};
pub use report::{Report, Row, Worst, write_tables};

use std::sync::OnceLock;

use rayon::prelude::*;

use super::positions::PositionSet;
use super::report::CsvWriter;
use super::stats::Rate;
use super::{CHUNK, Control};
use emulator::quantisation::{Decision, Quantiser, Tally};
use shards::ShardId;

mod shard;
pub mod split;
pub mod walk;
mod walk_mode;
mod walk_report;
pub use shard::{PlainShard, QuantisationShardError};
pub use split::{SplitError, SplitShard};
pub use walk::{Walk, WalkError, WalkStatus};

/// The rule stated in reports.
pub const RULE: &str = "a move outside the exact tied set diverges; a board's divergence is \
blamed on the first counterfactual that already diverges: ideal network + ideal ADC at the \
board's LSB (quantisation), board network with nominal parts + ideal ADC (pullups), drawn \
parts + ideal ADC (tolerance), else the drawn ADC's offset/gain/INL/DNL/noise (adc)";

/// Runs the study over the decision positions of `set`, writing one CSV row per position
/// that diverges somewhere to `positions_csv`. `worst` divergences are kept per row. The
/// one-process run: [`run_shard`] of shard 1/1, then [`report`].
pub fn run(
    set: &PositionSet,
    (converters, seed): (&[Converter], u64),
    bits: &[u8],
    worst: usize,
    control: &Control<'_>,
    positions_csv: &mut CsvWriter,
) -> Result<Report, QuantisationError> {
    let part = run_shard(
        set,
        converters,
        bits,
        worst,
        control,
        ShardId::WHOLE,
        Some(positions_csv),
    )?;
    report(set, (converters, seed), bits, worst, vec![part], None)
}

/// The positions CSV's header: the position, then one column per converter with a letter
/// per resolution.
fn positions_header(converters: &[Converter], bits: &[u8]) -> Vec<String> {
    let mut header = vec![
        "index".to_string(),
        "record".to_string(),
        "exact_choice".to_string(),
        "tied".to_string(),
    ];
    for c in converters {
        header.push(format!(
            "{} ({})",
            c.name(),
            bits.iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    header
}

/// Runs shard `shard` of the study: the decisions it owns (the k-th decision of the set
/// belongs to shard k mod P), in parallel chunks that Ctrl-C can stop. With `stream`, the
/// divergent positions' rows go to that CSV (header first) as each chunk finishes, so a run
/// killed half-way keeps them, and not into the part.
pub fn run_shard(
    set: &PositionSet,
    converters: &[Converter],
    bits: &[u8],
    worst: usize,
    control: &Control<'_>,
    shard: ShardId,
    mut stream: Option<&mut CsvWriter>,
) -> Result<PlainShard, QuantisationError> {
    let size = set.size();
    let study = Quantiser::new(converters, bits, size)?;
    let decisions = set.decisions();
    let owned: Vec<(usize, u32)> = decisions
        .iter()
        .copied()
        .enumerate()
        .filter(|&(k, _)| shard.owns(k as u64))
        .collect();
    let mut part = PlainShard {
        tally: Tally::new(study.columns(), worst),
        rows: Vec::new(),
        done: 0,
        owned: owned.len(),
    };
    if let Some(csv) = stream.as_deref_mut() {
        csv.row(&positions_header(converters, bits))?;
        csv.flush()?;
    }
    for chunk in owned.chunks(CHUNK) {
        if control.stopped() {
            break;
        }
        let results: Vec<Option<Decision>> = chunk
            .par_iter()
            .map(|&(_, i)| study.read(&set.entries()[i as usize].position))
            .collect();
        for (&(k, i), decision) in chunk.iter().zip(results) {
            if let Some(decision) = decision {
                take(
                    &mut part,
                    set,
                    bits,
                    (k, i),
                    &decision,
                    stream.as_deref_mut(),
                )?;
            }
        }
        if let Some(csv) = stream.as_deref_mut() {
            csv.flush()?;
        }
        part.done += chunk.len();
        (control.progress)(part.done as u64, owned.len() as u64);
    }
    Ok(part)
}

/// Decision `i` of `set`, the `k`-th, read: into the part's tally, and its positions' row
/// (when it diverges somewhere) to `stream` or into the part.
fn take(
    part: &mut PlainShard,
    set: &PositionSet,
    bits: &[u8],
    (k, i): (usize, u32),
    decision: &Decision,
    stream: Option<&mut CsvWriter>,
) -> Result<(), QuantisationError> {
    part.tally.add(i, decision);
    if let Some(row) = divergent_row(set, bits, i, decision) {
        match stream {
            Some(csv) => csv.row(&row)?,
            None => part.rows.push((k as u64, row)),
        }
    }
    Ok(())
}

/// [`run_shard`] of the whole tree ([`PositionSet::tree`]) with the tree built as it goes
/// ([`PositionSet::tree_reading`]): each decision read once, Cut's move there taken from
/// the read's exact choice, which is the heuristic's move, so it is the same tree, read in
/// the same order, with the same part; [`run_shard`] on a tree built first solves every
/// decision twice (in floats for the tree, exactly for the read). Stopped part-way
/// (Ctrl-C), the rest of the tree is built from the heuristic's moves alone, so the part
/// owns every decision of the tree and the report counts the whole tree.
pub fn run_tree(
    size: heuristic::Size,
    converters: &[Converter],
    bits: &[u8],
    worst: usize,
    control: &Control<'_>,
    mut stream: Option<&mut CsvWriter>,
) -> Result<(PositionSet, PlainShard), QuantisationError> {
    let study = Quantiser::new(converters, bits, size)?;
    let mut part = PlainShard {
        tally: Tally::new(study.columns(), worst),
        rows: Vec::new(),
        done: 0,
        owned: 0,
    };
    if let Some(csv) = stream.as_deref_mut() {
        csv.row(&positions_header(converters, bits))?;
        csv.flush()?;
    }
    let read = |p: &heuristic::Position| {
        let decision = study.read(p)?;
        let mv = heuristic::Move {
            side: heuristic::Side::Cut,
            edge: decision.truth.choice,
        };
        // Boxed: a decision is about 1 KB (the truth's drops), moved several times on its way
        // to the tally, which was a tenth of the study's CPU time.
        Some((mv, Box::new(decision)))
    };
    let built = PositionSet::tree_reading(size, read, |set, read| {
        if control.stopped() {
            return Ok(false);
        }
        for (i, decision) in read {
            let k = part.done;
            take(
                &mut part,
                set,
                bits,
                (k, i),
                &decision,
                stream.as_deref_mut(),
            )?;
            part.done += 1;
        }
        if let Some(csv) = stream.as_deref_mut() {
            csv.flush()?;
        }
        // The tree's decisions are known only once it is built: a count and its rate, no
        // total (issue 63: `done/done` drew a bar full from the start, `0s left`).
        (control.progress)(part.done as u64, 0);
        Ok::<_, QuantisationError>(true)
    })?;
    let set = built.unwrap_or_else(|| PositionSet::tree(size));
    part.owned = set.decisions().len();
    Ok((set, part))
}

/// The report from every shard's part, in shard order, as the one-process run makes it:
/// the tallies merged ([`Tally::merge`]), and into `positions_csv` (None: [`run_shard`]
/// streamed them already) the divergent positions' rows in set order.
pub fn report(
    set: &PositionSet,
    (converters, seed): (&[Converter], u64),
    bits: &[u8],
    worst: usize,
    parts: Vec<PlainShard>,
    positions_csv: Option<&mut CsvWriter>,
) -> Result<Report, QuantisationError> {
    let size = set.size();
    let study = Quantiser::new(converters, bits, size)?;
    let mut tally = Tally::new(study.columns(), worst);
    let mut done = 0;
    let mut csv_rows = Vec::new();
    for part in parts {
        tally.merge(part.tally);
        done += part.done;
        csv_rows.extend(part.rows);
    }
    csv_rows.sort_by_key(|(k, _)| *k);
    if let Some(csv) = positions_csv {
        let rows: Vec<Vec<String>> = csv_rows.into_iter().map(|(_, row)| row).collect();
        write_positions(csv, converters, bits, &rows)?;
    }
    let lookup = set_lookup(set);
    Ok(from_tally(
        &Facts::of(set, &lookup),
        (converters, seed),
        bits,
        worst,
        &study,
        tally,
        done,
    ))
}

/// The study in one plain loop: every decision of the set read in order into one tally,
/// the divergent positions' rows written to `positions_csv` in set order, the report made
/// from them: no shard, part, chunk or merge. The independent reference a merged study is
/// checked against (issue 49); it shares with [`run_shard`] only the reading of a decision
/// ([`Quantiser::read`]) and with [`report`] only the report's table ([`from_tally`]).
pub fn reference(
    set: &PositionSet,
    (converters, seed): (&[Converter], u64),
    bits: &[u8],
    worst: usize,
    positions_csv: &mut CsvWriter,
) -> Result<Report, QuantisationError> {
    let study = Quantiser::new(converters, bits, set.size())?;
    let mut tally = Tally::new(study.columns(), worst);
    let mut rows = Vec::new();
    let decisions = set.decisions();
    let read: Vec<Option<Decision>> = decisions
        .par_iter()
        .map(|&i| study.read(&set.entries()[i as usize].position))
        .collect();
    for (&i, decision) in decisions.iter().zip(read) {
        let Some(decision) = decision else { continue };
        tally.add(i, &decision);
        rows.extend(divergent_row(set, bits, i, &decision));
    }
    write_positions(positions_csv, converters, bits, &rows)?;
    let done = decisions.len();
    let lookup = set_lookup(set);
    Ok(from_tally(
        &Facts::of(set, &lookup),
        (converters, seed),
        bits,
        worst,
        &study,
        tally,
        done,
    ))
}

/// The positions CSV: its header, then `rows`.
fn write_positions(
    csv: &mut CsvWriter,
    converters: &[Converter],
    bits: &[u8],
    rows: &[Vec<String>],
) -> Result<(), QuantisationError> {
    csv.row(&positions_header(converters, bits))?;
    for row in rows {
        csv.row(row)?;
    }
    Ok(csv.flush()?)
}

/// The positions CSV's row of decision `i` when it diverges somewhere: the position, its
/// exact choice and tied set, a letter per converter and resolution.
fn divergent_row(
    set: &PositionSet,
    bits: &[u8],
    i: u32,
    decision: &Decision,
) -> Option<Vec<String>> {
    row_of(set.size(), bits, i, || set.record(i), decision)
}

/// [`divergent_row`] with the record given by `record`, asked only for a row: the ply walk
/// ([`walk`]) holds no set, only each position's record.
fn row_of(
    size: heuristic::Size,
    bits: &[u8],
    i: u32,
    record: impl FnOnce() -> String,
    decision: &Decision,
) -> Option<Vec<String>> {
    if !decision.moves.iter().any(|r| r.judgement.diverges()) {
        return None;
    }
    let truth = &decision.truth;
    let mut row = vec![
        i.to_string(),
        record(),
        truth.choice.to_string(),
        tied_names(size, truth.tied).join(" "),
    ];
    for c in decision.moves.chunks(bits.len()) {
        row.push(c.iter().map(|r| r.judgement.letter()).collect());
    }
    Some(row)
}

/// What the report reads of the positions besides the tally: the set's words and counts,
/// and the record and exact choice of a position by index (for the worst lists). A held set
/// gives them from its entries ([`Facts::of`]); the ply walk from its files.
struct Facts<'a> {
    size: heuristic::Size,
    description: String,
    positions: usize,
    decisions: usize,
    /// The record of position `index` and Cut's exact choice there.
    lookup: &'a dyn Fn(u32) -> (String, String),
}

impl Facts<'_> {
    fn of<'a>(set: &'a PositionSet, lookup: &'a dyn Fn(u32) -> (String, String)) -> Facts<'a> {
        Facts {
            size: set.size(),
            description: set.description().to_string(),
            positions: set.len(),
            decisions: set.decisions().len(),
            lookup,
        }
    }
}

/// A held set's [`Facts::lookup`]: the record and the heuristic's move at `index`.
fn set_lookup(set: &PositionSet) -> impl Fn(u32) -> (String, String) + '_ {
    |index| {
        let exact_choice =
            super::positions::heuristic_move(&set.entries()[index as usize].position)
                .map(|m| m.edge.to_string())
                .unwrap_or_default();
        (set.record(index), exact_choice)
    }
}

/// The report of `done` decisions read into `tally`.
fn from_tally(
    facts: &Facts<'_>,
    (converters, seed): (&[Converter], u64),
    bits: &[u8],
    worst: usize,
    study: &Quantiser,
    tally: Tally,
    done: usize,
) -> Report {
    let size = facts.size;
    let mut rows = Vec::new();
    for (column, a) in tally.columns.iter().enumerate() {
        let converter = &converters[column / bits.len()];
        let b = bits[column % bits.len()];
        let lsb_share = study.lsb_share(column);
        let total = a.decisions();
        let worst: Vec<Worst> = a
            .worst
            .iter()
            .take(worst)
            .map(|w| {
                let (record, exact_choice) = (facts.lookup)(w.index);
                Worst {
                    index: w.index,
                    replay: format!(
                        "birdcage analyze --size {} --moves '{record}' {}",
                        size.get(),
                        converter.analyze_options(b)
                    ),
                    record,
                    exact_choice,
                    code_choice: w.chosen.to_string(),
                    lost_share_of_supply: w.lost,
                    lost_lsb: w.lost / lsb_share,
                    verdict: w.judgement,
                }
            })
            .collect();
        let count = |j: usize| a.count(Verdict::ALL[j]);
        rows.push(Row {
            converter: converter.name(),
            bits: b,
            decisions: total,
            agree: count(0),
            tie: count(1),
            quantisation: count(2),
            pullups: count(3),
            tolerance: count(4),
            adc: count(5),
            divergence: Rate::new(a.diverged(), total),
            lsb_share_of_supply: lsb_share,
            min_margin_share_of_supply: a.min_margin,
            min_margin_lsb: a.min_margin.map(|m| m / lsb_share),
            max_lost_share_of_supply: a.worst.first().map(|w| w.lost),
            max_lost_lsb: a.worst.first().map(|w| w.lost / lsb_share),
            worst,
        });
    }
    Report {
        study: "quantisation",
        size: size.get(),
        seed,
        positions: facts.description.clone(),
        position_count: facts.positions,
        decisions: facts.decisions,
        decisions_done: done,
        interrupted: done < facts.decisions,
        rule: RULE,
        converters: converters.iter().map(Converter::name).collect(),
        rows,
        margin_histogram_10bit: tally.margin_histogram,
        exact_ties: tally.exact_ties,
    }
}

/// The edges of a tied mask, in reading order.
pub fn tied_names(size: heuristic::Size, tied: u128) -> Vec<String> {
    size.edges()
        .filter(|e| tied & (1 << e.index(size)) != 0)
        .map(|e| e.to_string())
        .collect()
}

/// Why a study could not run or write its data.
#[derive(Debug, thiserror::Error)]
pub enum QuantisationError {
    /// A board value out of range (ADC bits).
    #[error(transparent)]
    Board(#[from] boards::ProfileError),
    /// Writing the data failed (the error names the file).
    #[error(transparent)]
    File(#[from] crate::report::FileError),
}

/// The quantisation study's errors as every study's (the trait's module knows no study).
impl From<QuantisationError> for crate::study::StudyError {
    fn from(error: QuantisationError) -> Self {
        match error {
            QuantisationError::Board(e) => e.into(),
            QuantisationError::File(e) => e.into(),
        }
    }
}

/// The quantisation study's per-position file.
pub const POSITIONS_CSV: &str = "quantisation-positions.csv";

/// Divergences kept per row.
pub const WORST: usize = 5;

/// The quantisation study as the shard model runs it: its shards are the decision positions
/// (the k-th decision of the set belongs to shard k mod P), or with `--split-ply D` the tree's
/// subtrees below ply D ([`split`]).
#[derive(Debug)]
pub struct QuantisationStudy {
    positions: Positions,
    converters: Vec<Converter>,
    bits: Vec<u8>,
    size: heuristic::Size,
    seed: u64,
    command: String,
}

impl crate::study::Study for QuantisationStudy {
    const NAME: &'static str = "quantisation";
    const UNIT: &'static str = "decisions";
    type Options = crate::study::CageOptions;
    type Shard = QuantisationShard;

    fn plan(options: &Self::Options, command: &str) -> Result<Self, crate::study::StudyError> {
        if options.boards.is_some() {
            return Err(crate::study::StudyError::DoesNotApply(
                "--boards counts the boards the tolerance and pull-up studies draw; the \
                 quantisation study takes each profile's own board (or --board)",
            ));
        }
        // `ideal`: the ideal converter alone; no board: the ideal one, then every profile's.
        let ideal = options.board.as_deref() == Some("ideal");
        let boards: Vec<(String, emulator::physical::Board)> = match ideal {
            true => Vec::new(),
            false => match options.named_board()? {
                Some(board) => vec![board],
                None => boards::PROFILES
                    .iter()
                    .map(|p| {
                        (
                            p.name.to_string(),
                            emulator::physical::Board::from_profile(p),
                        )
                    })
                    .collect(),
            },
        };
        let positions = match options.split_ply {
            Some(ply) => {
                split::check_ply(options.size, ply)?;
                Positions::Split(ply)
            }
            // The walk reads the tree from its files; the tree is never built whole.
            None if options.ply_walk.is_some() => Positions::Tree(OnceLock::new()),
            None => match options.positions_unless_tree()? {
                Some(set) => Positions::Held(set),
                None => Positions::Tree(OnceLock::new()),
            },
        };
        let mut converters = vec![Converter::Ideal];
        converters.extend(boards.into_iter().map(|(spec, board)| Converter::Board {
            spec,
            board: Box::new(board),
            seed: options.seed,
        }));
        Ok(QuantisationStudy {
            positions,
            converters,
            bits: crate::BITS.collect(),
            size: options.size,
            seed: options.seed,
            command: command.to_string(),
        })
    }

    fn inputs(options: &Self::Options) -> Result<crate::study::Inputs, crate::study::StudyError> {
        options.inputs()
    }

    fn run_shard(
        &self,
        id: ShardId,
        control: &Control<'_>,
        rows: Option<&crate::report::Output>,
    ) -> Result<QuantisationShard, crate::study::StudyError> {
        let mut csv = rows.map(|out| out.csv(POSITIONS_CSV)).transpose()?;
        let set = match &self.positions {
            Positions::Split(ply) => {
                let study = Quantiser::new(&self.converters, &self.bits, self.size)?;
                return Ok(QuantisationShard::Split(split::run_split(
                    self.size, &study, *ply, id, control,
                )?));
            }
            Positions::Tree(tree) if id == ShardId::WHOLE && tree.get().is_none() => {
                let (set, part) = run_tree(
                    self.size,
                    &self.converters,
                    &self.bits,
                    WORST,
                    control,
                    csv.as_mut(),
                )?;
                // The report's positions: this run's tree (a tree already there is the same).
                let _ = tree.set(set);
                return Ok(QuantisationShard::Plain(part));
            }
            positions => positions.held(self.size).expect("not split"),
        };
        Ok(QuantisationShard::Plain(run_shard(
            set,
            &self.converters,
            &self.bits,
            WORST,
            control,
            id,
            csv.as_mut(),
        )?))
    }

    fn finished(&self, shard: &QuantisationShard, _: ShardId) -> bool {
        match shard {
            QuantisationShard::Plain(part) => part.done == part.owned,
            QuantisationShard::Split(part) => part.complete,
        }
    }

    fn shard_bytes(&self, shard: QuantisationShard) -> Result<Vec<u8>, crate::study::StudyError> {
        Ok(match shard {
            QuantisationShard::Plain(part) => part.to_bytes(),
            QuantisationShard::Split(part) => part.into_bytes(),
        })
    }

    fn read_shard(&self, bytes: &[u8]) -> Result<QuantisationShard, crate::study::StudyError> {
        let shard_error = |why: String| crate::study::StudyError::Shard {
            index: 0,
            count: 0,
            why,
        };
        match self.positions {
            Positions::Split(_) => SplitShard::from_bytes(bytes)
                .map(QuantisationShard::Split)
                .map_err(|e| shard_error(e.to_string())),
            _ => PlainShard::from_bytes(bytes, self.size, WORST)
                .map(QuantisationShard::Plain)
                .map_err(|e| shard_error(e.to_string())),
        }
    }

    fn write_report(
        &self,
        shards: Vec<QuantisationShard>,
        out: &crate::report::Output,
        streamed: bool,
    ) -> Result<String, crate::study::StudyError> {
        let mut plain = Vec::new();
        let mut split = Vec::new();
        for shard in shards {
            match shard {
                QuantisationShard::Plain(part) => plain.push(part),
                QuantisationShard::Split(part) => split.push(part),
            }
        }
        let merged;
        let (set, parts, streamed) = match self.positions.held(self.size) {
            Some(set) => (set, plain, streamed),
            None => {
                let columns = Quantiser::new(&self.converters, &self.bits, self.size)?.columns();
                let (set, part) = split::merge(self.size, &self.bits, columns, WORST, &split)?;
                merged = set;
                (&merged, vec![part], false)
            }
        };
        let mut csv = match streamed {
            true => None,
            false => Some(out.csv(POSITIONS_CSV)?),
        };
        let report = report(
            set,
            (&self.converters, self.seed),
            &self.bits,
            WORST,
            parts,
            csv.as_mut(),
        )?;
        self.files(&report, out)
    }

    fn run_own(
        &self,
        options: &Self::Options,
        dir: &std::path::Path,
        mode: &shards::Mode,
        job: &shards::Job,
        control: &Control<'_>,
        force: bool,
    ) -> Option<Result<crate::study::OwnReply, crate::study::StudyError>> {
        let parts = options.ply_walk?;
        Some(walk_mode::run(
            self,
            options,
            parts,
            (dir, mode, job),
            control,
            force,
        ))
    }

    fn write_reference(
        &self,
        out: &crate::report::Output,
    ) -> Result<String, crate::study::StudyError> {
        // The split study's reference is the plain tree's: the same report, held whole.
        let tree;
        let set = match self.positions.held(self.size) {
            Some(set) => set,
            None => {
                tree = PositionSet::tree(self.size);
                &tree
            }
        };
        let report = reference(
            set,
            (&self.converters, self.seed),
            &self.bits,
            WORST,
            &mut out.csv(POSITIONS_CSV)?,
        )?;
        self.files(&report, out)
    }
}

/// The positions a quantisation study reads, and when they are built.
#[derive(Debug)]
enum Positions {
    /// Random games or a records file, built by the plan.
    Held(PositionSet),
    /// The exhaustive tree, built when first needed: by the one-shard run as it reads it
    /// ([`run_tree`]), else from the heuristic's moves ([`PositionSet::tree`]) by a shard
    /// of several, a merge or the reference.
    Tree(OnceLock<PositionSet>),
    /// The tree split at this ply ([`split`]): no process holds it before the merge.
    Split(u32),
}

impl Positions {
    /// The set, built now if it is the tree; `None` when split.
    fn held(&self, size: heuristic::Size) -> Option<&PositionSet> {
        match self {
            Positions::Held(set) => Some(set),
            Positions::Tree(tree) => Some(tree.get_or_init(|| PositionSet::tree(size))),
            Positions::Split(_) => None,
        }
    }
}

/// A shard's part: the plain study's (decisions k mod P of the whole set) or the split
/// tree's ([`split`]); a study's shards are all of one kind (`--split-ply` is in the spec).
#[derive(Clone, Debug, PartialEq)]
pub enum QuantisationShard {
    /// Decisions k mod P of the set held whole.
    Plain(PlainShard),
    /// The subtrees below the split ply.
    Split(SplitShard),
}

impl QuantisationStudy {
    /// How this study reads a decision (its converters at every resolution), for the ply
    /// walk ([`walk`]), which reads the tree outside the shard driver.
    pub fn reader(&self) -> Result<Quantiser, crate::study::StudyError> {
        Ok(Quantiser::new(&self.converters, &self.bits, self.size)?)
    }

    /// The report of a finished ply walk into `out`: the same files the one process writes
    /// ([`walk_report`], a streaming merge of the walk's findings).
    pub fn write_walk_report(
        &self,
        walk: &Walk<'_>,
        out: &crate::report::Output,
    ) -> Result<String, crate::study::StudyError> {
        let study = self.reader()?;
        let mut csv = out.csv(POSITIONS_CSV)?;
        let report = walk_report::report(
            walk,
            &study,
            (&self.converters, self.seed),
            &self.bits,
            WORST,
            &mut csv,
        )?;
        self.files(&report, out)
    }

    /// The tables, the JSON, the summary and the plots of a report (the merged one's and the
    /// reference's alike).
    fn files(
        &self,
        report: &Report,
        out: &crate::report::Output,
    ) -> Result<String, crate::study::StudyError> {
        write_tables(report, out)?;
        let summary = report.markdown(&self.command);
        Ok(crate::report::finish(
            out,
            <Self as crate::study::Study>::NAME,
            report,
            summary,
            || plots(report, out),
        )?)
    }
}
