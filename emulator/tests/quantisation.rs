//! The quantisation study (`emulator::quantisation`) on the whole M=3 tree and a seeded M=4
//! sample, for the ideal converter and both board profiles, checked against an oracle
//! written here from first principles: its own exact solver (rational nodal analysis with
//! wires merged), its own ideal N-bit quantiser (round to the nearest code, full scale at the
//! top) and its own reading of the heuristic (first resistor in reading order with the
//! largest drop).
//!
//! `cargo test -p emulator` prints the M=3 table, the study's conclusion in one sentence worked
//! out from the tally, and how to run M=4; `-- --nocapture` adds the M=4 sample's table. This
//! target runs without libtest's harness (`harness = false`, `main` below), which would hold
//! back a passing test's output.

use std::collections::HashSet;

use emulator::physical::Board;
use emulator::quantisation::{Column, Converter, Quantiser, Tally};
use emulator::truth::Truth;
use emulator::verdict::{Cause, Judgement};
use heuristic::{EdgeState, Move, Node, Position, Side, Size};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use rand::SeedableRng;
use rand::seq::IteratorRandom;

const SEED: u64 = 1;
/// Seeded M=4 games sampled: enough for an ideal 6-bit converter to lose moves, few enough
/// for a second or two in a debug build.
const GAMES: usize = 60;
const BITS: std::ops::RangeInclusive<u8> = boards::ADC_BITS;

// ---- the oracle ------------------------------------------------------------------------

/// Exact node voltages as fractions of the supply (`None`: cut off from both terminals), by
/// Gauss-Jordan elimination over the nodes that wires merge into one.
fn oracle_volts(p: &Position) -> Vec<Option<BigRational>> {
    let size = p.size();
    let nodes: Vec<Node> = size.nodes().collect();
    let n = nodes.len();
    let mut class: Vec<usize> = (0..n).collect();
    fn root(class: &mut [usize], mut i: usize) -> usize {
        while class[i] != i {
            i = class[i];
        }
        i
    }
    let states = p.states();
    for (i, &s) in states.iter().enumerate() {
        if s == EdgeState::Short {
            let (a, b) = size.edge_ends(i);
            let (ra, rb) = (root(&mut class, a), root(&mut class, b));
            class[ra] = rb;
        }
    }
    let at = |node: Node| nodes.iter().position(|&m| m == node).unwrap();
    let (top, bottom) = (
        root(&mut class, at(Node::Top)),
        root(&mut class, at(Node::Bottom)),
    );
    let roots: Vec<usize> = (0..n).map(|i| root(&mut class, i)).collect();
    let resistors: Vec<(usize, usize)> = states
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s == EdgeState::Resistor)
        .map(|(i, _)| size.edge_ends(i))
        .map(|(a, b)| (roots[a], roots[b]))
        .filter(|(a, b)| a != b)
        .collect();
    // Classes a terminal reaches through resistors.
    let mut reached = HashSet::from([top, bottom]);
    loop {
        let before = reached.len();
        for &(a, b) in &resistors {
            if reached.contains(&a) || reached.contains(&b) {
                reached.insert(a);
                reached.insert(b);
            }
        }
        if reached.len() == before {
            break;
        }
    }
    let unknown: Vec<usize> = {
        let mut u: Vec<usize> = reached
            .iter()
            .copied()
            .filter(|&c| c != top && c != bottom)
            .collect();
        u.sort();
        u
    };
    let k = unknown.len();
    let col = |c: usize| unknown.iter().position(|&u| u == c);
    // Kirchhoff's current law at each unknown class: Σ (V_u − V_w) = 0 over its resistors.
    let mut m = vec![vec![BigRational::zero(); k + 1]; k];
    for &(a, b) in &resistors {
        for (u, w) in [(a, b), (b, a)] {
            let Some(r) = col(u) else { continue };
            m[r][r] += BigRational::one();
            match col(w) {
                Some(c) => m[r][c] -= BigRational::one(),
                None if w == top => m[r][k] += BigRational::one(),
                None => {}
            }
        }
    }
    for c in 0..k {
        let pivot = (c..k)
            .find(|&r| !m[r][c].is_zero())
            .expect("a reached class is determined");
        m.swap(c, pivot);
        let p = m[c][c].clone();
        for x in &mut m[c] {
            *x /= p.clone();
        }
        let pivot_row = m[c].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != c && !row[c].is_zero() {
                let f = row[c].clone();
                for (x, p) in row.iter_mut().zip(&pivot_row) {
                    *x -= p * &f;
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            let c = roots[i];
            if c == top {
                Some(BigRational::one())
            } else if c == bottom {
                Some(BigRational::zero())
            } else {
                col(c).map(|r| m[r][k].clone())
            }
        })
        .collect()
}

/// Per edge index, its drop (`None` for an edge that is not a resistor): |V_a − V_b|, 0 where
/// an end is cut off.
fn drops<T: Clone + Default + PartialOrd>(
    p: &Position,
    values: &[Option<T>],
    sub: impl Fn(&T, &T) -> T,
) -> Vec<Option<T>> {
    let size = p.size();
    p.states()
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            (s == EdgeState::Resistor).then(|| {
                let (a, b) = size.edge_ends(i);
                match (&values[a], &values[b]) {
                    (Some(x), Some(y)) if x >= y => sub(x, y),
                    (Some(x), Some(y)) => sub(y, x),
                    _ => T::default(),
                }
            })
        })
        .collect()
}

/// The first resistor in reading order with the largest drop, and every one tied with it.
fn heuristic<T: PartialOrd + Clone>(drops: &[Option<T>]) -> (usize, Vec<usize>) {
    let best = drops.iter().flatten().fold(None::<&T>, |m, d| match m {
        Some(x) if x >= d => Some(x),
        _ => Some(d),
    });
    let best = best.expect("a decision has a resistor").clone();
    let tied: Vec<usize> = (0..drops.len())
        .filter(|&i| drops[i].as_ref() == Some(&best))
        .collect();
    (tied[0], tied)
}

/// An ideal converter of `bits`, full scale at the supply: the nearest code, clamped to the
/// top code; the top terminal reads full scale, a cut-off node 0.
fn codes(p: &Position, volts: &[Option<BigRational>], bits: u8) -> Vec<Option<u32>> {
    let top = (1u32 << bits) - 1;
    let scale = BigRational::from_integer(BigInt::from(1u64 << bits));
    let half = BigRational::new(BigInt::from(1), BigInt::from(2));
    p.size()
        .nodes()
        .zip(volts)
        .map(|(node, v)| {
            if node == Node::Top {
                return Some(top);
            }
            let code = match v {
                Some(v) => (v * &scale + &half).floor().to_integer().to_u32().unwrap(),
                None => 0,
            };
            Some(code.min(top))
        })
        .collect()
}

/// The oracle's view of one decision: the exact choice and tied set (edge indices), the
/// exact best and runner-up, and the move of an ideal converter at each resolution.
struct Oracle {
    choice: usize,
    tied: Vec<usize>,
    best: BigRational,
    runner_up: Option<BigRational>,
    moves: Vec<usize>,
}

fn oracle(p: &Position) -> Oracle {
    let volts = oracle_volts(p);
    let exact = drops(p, &volts, |x, y| x - y);
    let (choice, tied) = heuristic(&exact);
    let best = exact[choice].clone().unwrap();
    let runner_up = exact.iter().flatten().filter(|&d| d < &best).max().cloned();
    let moves = BITS
        .map(|b| heuristic(&drops(p, &codes(p, &volts, b), |x, y| x - y)).0)
        .collect();
    Oracle {
        choice,
        tied,
        best,
        runner_up,
        moves,
    }
}

fn oracle_move(p: &Position) -> Move {
    let exact = drops(p, &oracle_volts(p), |x, y| x - y);
    let edge = p.size().edges().nth(heuristic(&exact).0).unwrap();
    Move {
        side: Side::Cut,
        edge,
    }
}

/// The M=3 tree's decisions: Cut plays the oracle's heuristic, Short every resistor.
fn m3_tree() -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut level = vec![Position::new(Size::M3, Side::Cut)];
    let mut decisions = Vec::new();
    while !level.is_empty() {
        let mut next = Vec::new();
        for p in level {
            if !seen.insert(format!("{:?}{:?}", p.states(), p.to_move())) {
                continue;
            }
            let moves: Vec<Move> = match p.to_move() {
                None => continue,
                Some(Side::Cut) => {
                    decisions.push(p.clone());
                    vec![oracle_move(&p)]
                }
                Some(Side::Short) => p
                    .resistors()
                    .map(|edge| Move {
                        side: Side::Short,
                        edge,
                    })
                    .collect(),
            };
            for mv in moves {
                let mut child = p.clone();
                child.play(mv).unwrap();
                next.push(child);
            }
        }
        level = next;
    }
    decisions
}

/// Every decision of `games` seeded M=4 games: Cut plays the oracle's heuristic, Short at
/// random.
fn m4_sample(games: usize) -> Vec<Position> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(SEED);
    let mut decisions = Vec::new();
    for _ in 0..games {
        let mut p = Position::new(Size::M4, Side::Cut);
        while let Some(side) = p.to_move() {
            let mv = match side {
                Side::Cut => {
                    decisions.push(p.clone());
                    oracle_move(&p)
                }
                Side::Short => {
                    let edge = p.resistors().choose(&mut rng).unwrap();
                    Move { side, edge }
                }
            };
            p.play(mv).unwrap();
        }
    }
    decisions
}

// ---- the study against it ----------------------------------------------------------------

fn converters() -> Vec<Converter> {
    let mut c = vec![Converter::Ideal];
    for profile in [&boards::ARDUINO_MEGA, &boards::NUCLEO_F446RE] {
        c.push(Converter::Board {
            spec: profile.name.to_string(),
            board: Box::new(Board::from_profile(profile)),
            seed: SEED,
        });
    }
    c
}

/// What the oracle counts over a set of positions: per resolution, the moves its own ideal
/// quantiser takes out of the tied set; per column, the moves it judges outside the tied set
/// and, of those, the ones its quantiser leaves the tied set on too (blamed on quantisation).
struct Counted {
    ideal_diverged: Vec<u64>,
    diverged: Vec<u64>,
    quantisation: Vec<u64>,
}

/// Runs the study on `positions` and checks every decision against the oracle: the truth,
/// the ideal converter's judgement at every resolution, and each board's judgement of its
/// own move (agree, tie or diverge by the oracle's tied set; blamed on quantisation exactly
/// when the oracle's ideal converter leaves the tied set too); then the tally the table and
/// the conclusion read against the oracle's counts, column by column. Returns the tally and
/// the oracle's counts.
fn check(name: &str, positions: &[Position]) -> (Tally, Counted) {
    let size = positions[0].size();
    let bits: Vec<u8> = BITS.collect();
    let converters = converters();
    let study = Quantiser::new(&converters, &bits, size).unwrap();
    let mut counted = Counted {
        ideal_diverged: vec![0; bits.len()],
        diverged: vec![0; study.columns()],
        quantisation: vec![0; study.columns()],
    };
    let mut tally = Tally::new(study.columns(), 1);
    for (i, p) in positions.iter().enumerate() {
        let o = oracle(p);
        let d = study.read(p).unwrap();
        tally.add(i as u32, &d);
        let t: &Truth = &d.truth;
        let index = |e: heuristic::Edge| e.index(size);
        assert_eq!(index(t.choice), o.choice, "{name}: {p:?}");
        assert_eq!(
            t.tied_edges(size)
                .into_iter()
                .map(index)
                .collect::<Vec<_>>(),
            o.tied
        );
        assert_eq!(t.best, o.best.to_f64().unwrap());
        assert_eq!(
            t.runner_up,
            o.runner_up.as_ref().map(|r| r.to_f64().unwrap())
        );
        assert_eq!(d.moves.len(), converters.len() * bits.len());
        for (column, r) in d.moves.iter().enumerate() {
            let at = column % bits.len();
            let quantised_leaves = !o.tied.contains(&o.moves[at]);
            let chosen = index(r.chosen);
            let expected = if chosen == o.choice {
                "agree"
            } else if o.tied.contains(&chosen) {
                "tie"
            } else {
                "diverges"
            };
            let got = match r.judgement {
                Judgement::Agree => "agree",
                Judgement::Tie => "tie",
                Judgement::Diverges(_) => "diverges",
            };
            assert_eq!(got, expected, "{name}: column {column}: {p:?}");
            if expected == "diverges" {
                counted.diverged[column] += 1;
                counted.quantisation[column] += u64::from(quantised_leaves);
            }
            if column < bits.len() {
                // The ideal converter: its move is the oracle's quantiser's.
                assert_eq!(chosen, o.moves[at], "{name}: {} bits: {p:?}", bits[at]);
                counted.ideal_diverged[at] += u64::from(quantised_leaves);
            }
            if r.judgement.diverges() {
                assert_eq!(
                    r.judgement.cause() == Some(Cause::Quantisation),
                    quantised_leaves,
                    "{name}: column {column}: {p:?}"
                );
            }
        }
    }
    for (column, c) in tally.columns.iter().enumerate() {
        assert_eq!(
            c.decisions(),
            positions.len() as u64,
            "{name}: column {column}"
        );
        assert_eq!(
            c.diverged(),
            counted.diverged[column],
            "{name}: column {column}"
        );
        assert_eq!(
            c.count(Judgement::Diverges(Cause::Quantisation)),
            counted.quantisation[column],
            "{name}: column {column}"
        );
    }
    (tally, counted)
}

/// A converter's name in the table and the conclusion.
fn converter_name(c: &Converter) -> &str {
    match c {
        Converter::Ideal => "ideal",
        Converter::Board { spec, .. } => spec.as_str(),
    }
}

/// The study's table: a row per converter and resolution.
fn table(title: &str, converters: &[Converter], tally: &Tally) -> String {
    use std::fmt::Write;
    let bits: Vec<u8> = BITS.collect();
    let mut out = String::new();
    let mut line = |s: String| writeln!(out, "{s}").unwrap();
    line(format!(
        "\n{title}: {} decisions",
        tally.columns[0].decisions()
    ));
    line(format!(
        "| {:<14} | {:>4} | {:>9} | {:>9} | {:>12} | {:>7} | {:>9} | {:>3} | {:>4} |",
        "converter",
        "bits",
        "decisions",
        "diverging",
        "quantisation",
        "pullups",
        "tolerance",
        "adc",
        "ties"
    ));
    line(format!(
        "| {:-<14} | ---: | --------: | --------: | -----------: | ------: | --------: | --: | ---: |",
        ""
    ));
    for (column, c) in tally.columns.iter().enumerate() {
        let n = |cause| c.count(Judgement::Diverges(cause));
        line(format!(
            "| {:<14} | {:>4} | {:>9} | {:>9} | {:>12} | {:>7} | {:>9} | {:>3} | {:>4} |",
            converter_name(&converters[column / bits.len()]),
            bits[column % bits.len()],
            c.decisions(),
            c.diverged(),
            n(Cause::Quantisation),
            n(Cause::Pullups),
            n(Cause::Tolerance),
            n(Cause::Adc),
            c.count(Judgement::Tie),
        ));
    }
    out
}

/// What a cause means, short (in a list) and long (when it is the only one).
fn cause_in_words(cause: Cause) -> (&'static str, &'static str) {
    match cause {
        Cause::Quantisation => (
            "quantisation",
            "quantisation (an ideal converter of the board's resolution already makes that move)",
        ),
        Cause::Pullups => (
            "the pull-ups",
            "the pull-ups (the board's network with nominal parts, read by an ideal converter, \
             already makes that move)",
        ),
        Cause::Tolerance => (
            "the parts' tolerance",
            "the parts' tolerance (the board's drawn parts, read by an ideal converter, already \
             make that move)",
        ),
        Cause::Adc => (
            "the converter's own errors",
            "the converter's own errors (offset, gain, INL, DNL and noise)",
        ),
    }
}

/// One converter's columns in words: at most how many decisions it changed at one
/// resolution, and from which resolution up it changed none (or how many it still changes
/// at the highest).
fn converter_in_words(columns: &[Column], bits: &[u8]) -> (u64, String) {
    let most = columns.iter().map(Column::diverged).max().unwrap_or(0);
    let clean_from = (0..columns.len())
        .find(|&i| columns[i..].iter().all(|c| c.diverged() == 0))
        .map(|i| bits[i]);
    let (low, high) = (bits[0], bits[bits.len() - 1]);
    let words = match clean_from {
        Some(b) if b == low => String::new(),
        Some(b) => format!(", none from {b} bits up"),
        None => format!(
            ", still {} at {high} bits",
            columns[columns.len() - 1].diverged()
        ),
    };
    (most, words)
}

/// The study's conclusion in one sentence, every number in it from the tally: what an ideal
/// converter did to the machine's move over the resolutions, what the boards did, and what
/// their divergences were blamed on.
fn conclusion(set: &str, converters: &[Converter], bits: &[u8], tally: &Tally) -> String {
    let per = bits.len();
    let decisions = tally.columns[0].decisions();
    let (low, high) = (bits[0], bits[per - 1]);
    let (ideal_most, ideal_words) = converter_in_words(&tally.columns[..per], bits);
    let ideal = if ideal_most == 0 {
        format!("an ideal converter never changed the machine's move at {low} to {high} bits")
    } else {
        format!(
            "an ideal converter changed the machine's move in at most {ideal_most} of \
             {decisions} decisions at one resolution{ideal_words}"
        )
    };
    let mut boards_most = 0;
    let mut each = Vec::new();
    for (k, converter) in converters.iter().enumerate().skip(1) {
        let (most, words) = converter_in_words(&tally.columns[k * per..(k + 1) * per], bits);
        boards_most = boards_most.max(most);
        each.push(match most {
            0 => format!("{} in none", converter_name(converter)),
            _ => format!("{} in at most {most}{words}", converter_name(converter)),
        });
    }
    let boards = if boards_most == 0 {
        "no board changed it either".to_string()
    } else {
        let board_columns = &tally.columns[per..];
        let blamed = |cause| -> u64 {
            board_columns
                .iter()
                .map(|c| c.count(Judgement::Diverges(cause)))
                .sum()
        };
        let mut causes: Vec<(Cause, u64)> = [
            Cause::Quantisation,
            Cause::Pullups,
            Cause::Tolerance,
            Cause::Adc,
        ]
        .into_iter()
        .map(|cause| (cause, blamed(cause)))
        .filter(|&(_, n)| n > 0)
        .collect();
        causes.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        let total: u64 = causes.iter().map(|&(_, n)| n).sum();
        let blame = match causes.as_slice() {
            [(cause, n)] => format!(
                "all {n} of their divergences over the {per} resolutions blamed on {}",
                cause_in_words(*cause).1
            ),
            _ => {
                let parts: Vec<String> = causes
                    .iter()
                    .enumerate()
                    .map(|(i, &(cause, n))| match i {
                        0 => format!("{n} blamed on {}", cause_in_words(cause).0),
                        _ => format!("{n} on {}", cause_in_words(cause).0),
                    })
                    .collect();
                let (last, first) = parts.split_last().unwrap();
                format!(
                    "of their {total} divergences over the {per} resolutions {} and {last}",
                    first.join(", ")
                )
            }
        };
        let quantisation = match blamed(Cause::Quantisation) {
            0 => ", none on quantisation",
            _ => "",
        };
        format!(
            "the boards changed it in at most {boards_most} of {decisions} decisions at one \
             resolution ({}), {blame}{quantisation}",
            each.join("; ")
        )
    };
    format!("Conclusion: on the {set} {ideal}; {boards}.")
}

/// `text` broken into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().unwrap();
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines.join("\n")
}

const M3: &str = "quantisation_study_on_the_m3_tree";
const M4: &str = "quantisation_study_on_an_m4_sample";
const WORDS: &str = "quantisation_conclusion_follows_the_tally";

/// The whole M=3 tree: 502 decisions; an ideal converter never leaves the tied set there,
/// down to 6 bits (the oracle finds the same, position by position). Prints the table, the
/// conclusion in words and how to run M=4, in one piece, with or without `--nocapture`.
fn quantisation_study_on_the_m3_tree() {
    let positions = m3_tree();
    assert_eq!(positions.len(), 502);
    let (tally, counted) = check("M=3 tree", &positions);
    let bits = BITS.count();
    for (at, c) in tally.columns.iter().enumerate() {
        assert_eq!(c.decisions(), 502);
        if at < bits {
            assert_eq!(c.diverged(), counted.ideal_diverged[at]);
            assert_eq!(c.diverged(), 0, "an ideal converter on the M=3 tree");
        }
    }
    assert!(tally.exact_ties > 0, "the tree has exact ties");
    let converters = converters();
    let bits: Vec<u8> = BITS.collect();
    let mut out = table(
        "M=3 tree (Cut plays the heuristic, Short every move), boards drawn from seed 1",
        &converters,
        &tally,
    );
    out += "\n";
    out += &wrap(&conclusion("M=3 tree", &converters, &bits, &tally), 100);
    out += &format!(
        "\n\nM=4, {GAMES} seeded games: cargo test -p emulator --test quantisation {M4} -- --nocapture\n\
         M=4, the whole tree:  cargo run --release -p birdcage -- study quantisation --size 4 \
         (report in target/quantisation-study/)\n\n"
    );
    print!("{out}");
}

/// A seeded sample of M=4 games: the ideal converter diverges at low resolution exactly as
/// often as the oracle's quantiser does, and not at all at 16 bits. Prints its table with
/// `--nocapture`.
fn quantisation_study_on_an_m4_sample(nocapture: bool) {
    let positions = m4_sample(GAMES);
    let (tally, counted) = check("M=4 sample", &positions);
    let bits = BITS.count();
    for (column, oracle) in tally.columns.iter().zip(&counted.ideal_diverged) {
        assert_eq!(column.diverged(), *oracle);
    }
    assert!(counted.ideal_diverged[0] > 0, "6 bits loses moves on M=4");
    assert_eq!(counted.ideal_diverged[bits - 1], 0, "16 bits loses none");
    if nocapture {
        print!(
            "{}",
            table(
                &format!("M=4, {GAMES} random games (seed {SEED}), boards drawn from seed 1"),
                &converters(),
                &tally,
            )
        );
    }
}

/// The conclusion follows the tally it is given: made-up tallies, one with no divergence and
/// one with every cause, give the sentences their numbers call for.
fn quantisation_conclusion_follows_the_tally() {
    let converters = converters();
    let bits: Vec<u8> = BITS.collect();
    let per = bits.len();
    let mut tally = Tally::new(converters.len() * per, 1);
    for c in &mut tally.columns {
        c.counts[Judgement::Agree.index()] = 10;
    }
    assert_eq!(
        conclusion("test set", &converters, &bits, &tally),
        "Conclusion: on the test set an ideal converter never changed the machine's move at 6 to \
         16 bits; no board changed it either."
    );
    let set = |tally: &mut Tally, column: usize, judgement: Judgement, n: u64| {
        let c = &mut tally.columns[column];
        c.counts[Judgement::Agree.index()] -= n;
        c.counts[judgement.index()] += n;
    };
    set(&mut tally, 0, Judgement::Diverges(Cause::Quantisation), 3);
    set(&mut tally, per, Judgement::Diverges(Cause::Pullups), 1);
    set(&mut tally, per, Judgement::Diverges(Cause::Adc), 1);
    set(&mut tally, per, Judgement::Tie, 4);
    set(
        &mut tally,
        3 * per - 1,
        Judgement::Diverges(Cause::Tolerance),
        2,
    );
    assert_eq!(
        conclusion("test set", &converters, &bits, &tally),
        "Conclusion: on the test set an ideal converter changed the machine's move in at most 3 \
         of 10 decisions at one resolution, none from 7 bits up; the boards changed it in at \
         most 2 of 10 decisions at one resolution (arduino-mega in at most 2, none from 7 bits \
         up; nucleo-f446re in at most 2, still 2 at 16 bits), of their 4 divergences over the \
         11 resolutions 2 blamed on the parts' tolerance, 1 on the pull-ups and 1 on the \
         converter's own errors, none on quantisation."
    );
    set(
        &mut tally,
        2 * per - 1,
        Judgement::Diverges(Cause::Quantisation),
        5,
    );
    let sentence = conclusion("test set", &converters, &bits, &tally);
    assert!(
        sentence.contains("in at most 5 of 10 decisions")
            && sentence.contains("arduino-mega in at most 5, still 5 at 16 bits")
            && sentence.contains(
                "of their 9 divergences over the 11 resolutions 5 blamed on quantisation, 2 on"
            )
            && !sentence.contains("none on quantisation"),
        "{sentence}"
    );
}

/// libtest's command line (filters, `--exact`, `--list --format terse`, `--nocapture`,
/// `--test-threads`) by `libtest-mimic`, so that `cargo test` and nextest run these as any
/// test; this target has no libtest harness so that the M=3 table is printed without
/// `--nocapture`.
fn main() -> std::process::ExitCode {
    use libtest_mimic::{Arguments, Trial};
    let args = Arguments::from_args();
    let nocapture = args.nocapture;
    let trials = vec![
        Trial::test(M3, || {
            quantisation_study_on_the_m3_tree();
            Ok(())
        }),
        Trial::test(M4, move || {
            quantisation_study_on_an_m4_sample(nocapture);
            Ok(())
        }),
        Trial::test(WORDS, || {
            quantisation_conclusion_follows_the_tally();
            Ok(())
        }),
    ];
    libtest_mimic::run(&args, trials).exit_code()
}
