//! One draw: for the same profile and seed, the firmware in SIL and `birdcage analyze --board
//! FILE --tolerance-seed S` read the same board.
//!
//! Noise off (a profile file sets the converter's noise to zero): the codes the firmware
//! measures equal, node for node, the codes `analyze` prints, on Cut turns of 200 random
//! positions per profile (M=3 and M=4, a new seed each).
//!
//! Noise on: the two draw noise from different streams (the firmware converts node after node
//! along one stream, `analyze` reads each position afresh), so they agree in distribution. The
//! test: each node's code minus its noiseless code, in three classes (below, equal, above),
//! over the same positions, nodes and seeds; a chi-squared test of homogeneity on the 2×3
//! table must not reject at α = 0.001 (critical value 13.82 for 2 degrees of freedom). The same
//! statistic against a reader that averages one conversion instead of the profile's four must
//! reject, so the test can tell a different converter.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use emulator::emulated::EmulatedCage;
use emulator::exact::solve_model;
use emulator::physical::{Board, Build, PullupState, game_volts};
use emulator::reading::Reader;
use firmware::protocol::{Command, Reply};
use heuristic::{Model, Move, Node, Position, Record, Side, Size};
use rand::seq::IteratorRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use support::{json, scratch_file};

/// Chi-squared critical value, 2 degrees of freedom, α = 0.001.
const CHI2_CRITICAL: f64 = 13.82;

/// A random position with Cut to move, and its record.
fn cut_turn(rng: &mut ChaCha8Rng) -> (Position, String) {
    loop {
        let size = if rng.random_bool(0.5) {
            Size::M3
        } else {
            Size::M4
        };
        let mut position = Position::new(size, Side::Cut);
        let mut moves: Vec<Move> = Vec::new();
        let plies = rng.random_range(0..size.edge_count() / 2) * 2;
        for _ in 0..plies {
            let Some(edge) = position.resistors().choose(rng) else {
                break;
            };
            let side = position.to_move().unwrap_or(Side::Cut);
            if position.winner().is_some() || position.play_edge(edge).is_err() {
                break;
            }
            moves.push(Move { side, edge });
        }
        if position.winner().is_none() && position.to_move() == Some(Side::Cut) {
            let record = Record::from_moves(Side::Cut, &moves).unwrap();
            return (position, record.to_string());
        }
    }
}

/// The codes the firmware measures in SIL on `position`, on `profile`'s board drawn from
/// `seed` (nominal without): a new game started on the cage (which finds the size), the cage wired to the
/// position, then the bench's `Measure` with the profile's averaging, as the firmware's own
/// turn measures.
fn sil_codes(
    profile: &'static boards::Profile,
    position: &Position,
    seed: Option<u64>,
) -> Vec<u16> {
    let cage = EmulatedCage::new(profile, position.size(), seed).unwrap();
    let mut app = cage.app(profile, firmware::Config::default());
    app.start();
    cage.wire(position.clone());
    match app.handle(Command::Measure {
        pullups: true,
        samples: profile.adc.samples,
    }) {
        Reply::Codes(m) => m.codes.to_vec(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn without_noise_sil_and_analyze_read_the_same_codes() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for base in ["arduino-mega", "nucleo-f446re"] {
        let path = scratch_file(
            &format!("{base}-quiet.toml"),
            &format!("base = \"{base}\"\n[adc.accuracy.noise_rms]\ntyp_milli_lsb = 0\n"),
        );
        let spec = path.to_str().unwrap();
        let profile = boards::file::load(spec).unwrap();
        let mut differing_boards = 0;
        for i in 0..200 {
            let (position, record) = cut_turn(&mut rng);
            let seed = 1000 + i;
            let sil = sil_codes(profile, &position, Some(seed));
            let size = position.size().get().to_string();
            let seed_arg = seed.to_string();
            let v = json(&[
                "analyze",
                "--size",
                &size,
                "--moves",
                &record,
                "--board",
                spec,
                "--tolerance-seed",
                &seed_arg,
            ]);
            let analyzed: Vec<u16> = v["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["code"].as_u64().unwrap() as u16)
                .collect();
            assert_eq!(sil, analyzed, "{base}, seed {seed}, M={size}, {record}");
            // The seed matters: the nominal build reads differently somewhere.
            if sil != sil_codes(profile, &position, None) {
                differing_boards += 1;
            }
        }
        assert!(differing_boards > 100, "{base}: {differing_boards}");
    }
}

/// Counts of (code − noiseless code) below, at and above zero.
fn classes(deviations: impl Iterator<Item = i32>) -> [f64; 3] {
    let mut out = [0.0; 3];
    for d in deviations {
        out[(d.signum() + 1) as usize] += 1.0;
    }
    out
}

/// Pearson's chi-squared statistic of homogeneity for two rows of counts (empty columns
/// dropped).
fn chi2(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (na, nb): (f64, f64) = (a.iter().sum(), b.iter().sum());
    let n = na + nb;
    (0..3)
        .filter(|&k| a[k] + b[k] > 0.0)
        .map(|k| {
            let col = a[k] + b[k];
            let (ea, eb) = (na * col / n, nb * col / n);
            (a[k] - ea).powi(2) / ea + (b[k] - eb).powi(2) / eb
        })
        .sum()
}

#[test]
fn with_noise_sil_and_analyze_agree_in_distribution() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for profile in boards::PROFILES.iter().copied() {
        let board = Board::from_profile(profile);
        let single = Board {
            adc: emulator::physical::AdcSpec {
                samples: 1,
                ..board.adc
            },
            ..board.clone()
        };
        let (mut sil, mut analyze, mut one) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..400u64 {
            let (position, _) = cut_turn(&mut rng);
            let seed = 5000 + i;
            let build = Build::draw(&board, position.size(), Some(seed));
            let volts = game_volts(&board, &build.parts, &position, PullupState::On).unwrap();
            let quiet: Vec<Option<i32>> = position
                .size()
                .nodes()
                .zip(&volts)
                .map(|(n, v)| match n {
                    Node::Top => None,
                    _ => v.map(|v| i32::from(build.adc.transfer(v))),
                })
                .collect();
            let exact = solve_model(&position, Model::Ideal);
            let read = |reader: Reader| {
                reader
                    .read(&position, &exact)
                    .unwrap()
                    .codes
                    .into_iter()
                    .map(|c| c.map_or(0, i32::from))
                    .collect::<Vec<_>>()
            };
            let by_analyze = read(Reader::Board {
                board: Box::new(board.clone()),
                seed: Some(seed),
            });
            let by_one = read(Reader::Board {
                board: Box::new(single.clone()),
                seed: Some(seed),
            });
            let by_sil: Vec<i32> = sil_codes(profile, &position, Some(seed))
                .into_iter()
                .map(i32::from)
                .collect();
            for (k, q) in quiet.iter().enumerate() {
                if let Some(q) = q {
                    sil.push(by_sil[k] - q);
                    analyze.push(by_analyze[k] - q);
                    one.push(by_one[k] - q);
                }
            }
        }
        let (s, a, o) = (
            classes(sil.into_iter()),
            classes(analyze.into_iter()),
            classes(one.into_iter()),
        );
        let same = chi2(s, a);
        eprintln!(
            "{}: SIL {s:?}, analyze {a:?}, one sample {o:?}: chi2 {same:.2}",
            profile.name
        );
        assert!(same < CHI2_CRITICAL, "{}: chi2 {same:.2}", profile.name);
        if profile.adc.samples > 1 {
            let other = chi2(s, o);
            assert!(other > CHI2_CRITICAL, "{}: chi2 {other:.2}", profile.name);
        }
    }
}
