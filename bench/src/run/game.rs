//! The runner: plays a scenario's games on a target, one checked step per decision.

use firmware::Outcome;
use firmware::protocol::Command;
use heuristic::{Move, Position, Record, Side, Size};

use crate::check::{Predictor, Step};
use crate::dut::ask::{measure, turn};
use crate::dut::{Dut, DutError};
use crate::run::scenario::{Script, game_rng, random_short};

/// Plays game `index` of `script` on `target`, passing every checked step to `step` as it is
/// made. Stops at the end of the game, at the board's first fault, or where the board leaves
/// a replayed record. For a [`Script::Branch`], returns the number of Short's replies where
/// the branch stops (0 when the game ended first).
pub fn play_game(
    target: &mut dyn Dut,
    predictor: &Predictor,
    size: Size,
    index: usize,
    script: &Script,
    step: &mut dyn FnMut(Step),
) -> Result<usize, DutError> {
    let mut shorts = 0usize;
    let branch_len = match script {
        Script::Branch(path) => path.len(),
        _ => 0,
    };
    let mut position = Position::new(size, Side::Cut);
    let mut moves = Record::new(Side::Cut);
    let mut rng = match script {
        // Without an operator, a guided game's Short plays what Enter would have drawn.
        Script::Random(seed) | Script::Guided(seed) => Some(game_rng(*seed)),
        Script::Record(_) | Script::Branch(_) | Script::Mirror => None,
    };
    target.start_game(index);
    target.set_cage(&position)?;
    match turn(target, Command::NewGame)? {
        Outcome::NewGame { size: m } if m == size.get() => {}
        other => {
            let codes = measure(target, predictor.profile().adc.samples)?;
            step(predictor.check(index, &moves, &position, &codes, other));
            return Ok(0);
        }
    }
    loop {
        let next = match script {
            Script::Record(all) => all.moves().get(moves.len()).copied(),
            Script::Random(_) | Script::Guided(_) => None,
            Script::Mirror if position.to_move() == Some(Side::Short) => {
                emulator::truth::Truth::of(&position).map(|t| Move {
                    side: Side::Short,
                    edge: t.choice,
                })
            }
            Script::Mirror => None,
            Script::Branch(path) if position.to_move() == Some(Side::Short) => {
                let resistors: Vec<_> = position.resistors().collect();
                match path.get(shorts) {
                    Some(&i) => resistors.get(usize::from(i)).map(|&edge| Move {
                        side: Side::Short,
                        edge,
                    }),
                    None if position.winner().is_none() => return Ok(resistors.len()),
                    None => None,
                }
            }
            Script::Branch(_) => None,
        };
        if position.winner().is_some() || position.to_move() == Some(Side::Cut) {
            let replay_over = matches!(script, Script::Record(_)) && next.is_none();
            let codes = measure(target, predictor.profile().adc.samples)?;
            let outcome = turn(target, Command::Decide)?;
            let mut checked = predictor.check(index, &moves, &position, &codes, outcome);
            let chosen = match outcome {
                Outcome::Move(square) if !checked.class.is_fault() => square.edge(size),
                _ => None,
            };
            let leaves = match (chosen, next) {
                (Some(edge), Some(expected)) if expected.edge != edge => {
                    checked.detail = format!(
                        "{} (the record plays {expected}; the replay stops here)",
                        checked.detail
                    );
                    true
                }
                _ => false,
            };
            if shorts >= branch_len {
                step(checked);
            }
            let Some(edge) = chosen.filter(|_| !leaves && !replay_over) else {
                return Ok(0);
            };
            let cut = Move {
                side: Side::Cut,
                edge,
            };
            if position.play(cut).is_err() {
                return Ok(0);
            }
            moves.push(cut).expect("a legal game never fills a record");
        } else {
            let short = match (next, rng.as_mut()) {
                (Some(mv), _) => Some(mv),
                (None, Some(rng)) => random_short(rng, &position).map(|edge| Move {
                    side: Side::Short,
                    edge,
                }),
                (None, None) => None,
            };
            let Some(short) = short.filter(|mv| mv.side == Side::Short) else {
                return Ok(0);
            };
            if position.play(short).is_err() {
                return Ok(0);
            }
            moves
                .push(short)
                .expect("a legal game never fills a record");
            shorts += 1;
        }
        target.set_cage(&position)?;
    }
}
