//! The quantisation study (`emulator::quantisation`) on the whole M=3 tree and a seeded M=4
//! sample, for the ideal converter and both board profiles, checked against an oracle
//! written here from first principles: its own exact solver (rational nodal analysis with
//! wires merged), its own ideal N-bit quantiser (round to the nearest code, full scale at the
//! top) and its own reading of the heuristic (first resistor in reading order with the
//! largest drop). `cargo test -p emulator quantisation -- --nocapture` prints the table.

use std::collections::HashSet;

use emulator::physical::Board;
use emulator::quantisation::{Converter, Study, Tally};
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

/// Runs the study on `positions` and checks every decision against the oracle: the truth,
/// the ideal converter's judgement at every resolution, and each board's judgement of its
/// own move (agree, tie or diverge by the oracle's tied set; blamed on quantisation exactly
/// when the oracle's ideal converter leaves the tied set too). Returns the tally and, per
/// resolution, the oracle's own count of ideal-converter divergences.
fn check(name: &str, positions: &[Position]) -> (Tally, Vec<u64>) {
    let size = positions[0].size();
    let bits: Vec<u8> = BITS.collect();
    let converters = converters();
    let study = Study::new(&converters, &bits, size).unwrap();
    let mut oracle_diverged = vec![0u64; bits.len()];
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
            if column < bits.len() {
                // The ideal converter: its move is the oracle's quantiser's.
                assert_eq!(chosen, o.moves[at], "{name}: {} bits: {p:?}", bits[at]);
                oracle_diverged[at] += u64::from(quantised_leaves);
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
    (tally, oracle_diverged)
}

fn print_table(name: &str, tally: &Tally) {
    let converters = converters();
    let bits: Vec<u8> = BITS.collect();
    println!("\n{name}: {} decisions", tally.columns[0].decisions());
    println!(
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
    );
    println!(
        "| {:-<14} | ---: | --------: | --------: | -----------: | ------: | --------: | --: | ---: |",
        ""
    );
    for (column, c) in tally.columns.iter().enumerate() {
        let n = |cause| c.count(Judgement::Diverges(cause));
        println!(
            "| {:<14} | {:>4} | {:>9} | {:>9} | {:>12} | {:>7} | {:>9} | {:>3} | {:>4} |",
            match &converters[column / bits.len()] {
                Converter::Ideal => "ideal",
                Converter::Board { spec, .. } => spec.as_str(),
            },
            bits[column % bits.len()],
            c.decisions(),
            c.diverged(),
            n(Cause::Quantisation),
            n(Cause::Pullups),
            n(Cause::Tolerance),
            n(Cause::Adc),
            c.count(Judgement::Tie),
        );
    }
}

/// The whole M=3 tree: 502 decisions; an ideal converter never leaves the tied set there,
/// down to 6 bits (the oracle finds the same, position by position).
#[test]
fn quantisation_study_on_the_m3_tree() {
    let positions = m3_tree();
    assert_eq!(positions.len(), 502);
    let (tally, oracle_diverged) = check("M=3 tree", &positions);
    print_table(
        "M=3 tree (Cut plays the heuristic, Short every move), boards drawn from seed 1",
        &tally,
    );
    let bits = BITS.count();
    for (at, c) in tally.columns.iter().enumerate() {
        assert_eq!(c.decisions(), 502);
        if at < bits {
            assert_eq!(c.diverged(), oracle_diverged[at]);
            assert_eq!(c.diverged(), 0, "an ideal converter on the M=3 tree");
        }
    }
    assert!(tally.exact_ties > 0, "the tree has exact ties");
}

/// A seeded sample of M=4 games: the ideal converter diverges at low resolution exactly as
/// often as the oracle's quantiser does, and not at all at 16 bits.
#[test]
fn quantisation_study_on_an_m4_sample() {
    let positions = m4_sample(GAMES);
    let (tally, oracle_diverged) = check("M=4 sample", &positions);
    print_table(
        &format!("M=4, {GAMES} random games (seed {SEED}), boards drawn from seed 1"),
        &tally,
    );
    let bits = BITS.count();
    for (column, oracle) in tally.columns.iter().zip(&oracle_diverged) {
        assert_eq!(column.diverged(), *oracle);
    }
    assert!(oracle_diverged[0] > 0, "6 bits loses moves on M=4");
    assert_eq!(oracle_diverged[bits - 1], 0, "16 bits loses none");
}
