//! How often the hint finds a win against this machine where one exists: games in which
//! the person plays `OWN` random moves (seeded) against Shannon's heuristic (ideal network)
//! on the M cage, then the hint's search (its budget, [`emulator::hint::hint_limit`]) from
//! the position; where it finds nothing, the same search with ten times the budget says
//! whether a win was there to find. Prints one line a position and a summary.
//!
//! `cargo run --release -p emulator --example hint_reach -- M OWN SEEDS [FIRST]`, the games
//! seeded FIRST (0 unless given) onwards (issue 63: `-- 6 2 16`, `-- 6 3 16`, `-- 7 2 16`,
//! `-- 7 3 16`).

use std::time::Instant;

use emulator::beat::{Arena, Plan, Ties, plan_within};
use emulator::hint::hint_limit;
use heuristic::{Model, Move, Position, Side, Size};
use rand::{Rng, SeedableRng};

fn main() -> Result<(), String> {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().map_err(|_| format!("`{a}` is not a number")))
        .collect::<Result<_, _>>()?;
    let (m, own, seeds, first) = match args[..] {
        [m, own, seeds] => (m, own, seeds, 0),
        [m, own, seeds, first] => (m, own, seeds, first),
        _ => return Err("usage: hint_reach M OWN SEEDS [FIRST]".to_string()),
    };
    let size = Size::new(m).map_err(|e| e.to_string())?;
    let limit = hint_limit(size.edge_count());
    let model = Model::Ideal;
    let (mut found, mut missed, mut none) = (0, 0, 0);
    let mut times = Vec::new();
    for seed in u64::from(first)..u64::from(first) + u64::from(seeds) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut p = Position::new(size, Side::Cut);
        let mut record = Vec::new();
        let mut play = |p: &mut Position, side, edge| {
            record.push(Move { side, edge }.to_string());
            *p = p.after(edge);
        };
        for _ in 0..own {
            let cut = p.machine_moves(model, Ties::ReadingOrder)[0];
            play(&mut p, Side::Cut, cut);
            let open = p.open();
            play(&mut p, Side::Short, open[rng.random_range(0..open.len())]);
        }
        if p.winner().is_some() {
            continue;
        }
        let cut = p.machine_moves(model, Ties::ReadingOrder)[0];
        play(&mut p, Side::Cut, cut);
        if p.winner().is_some() {
            continue;
        }
        let start = Instant::now();
        let plan = plan_within(&p, model, Ties::ReadingOrder, limit, u8::MAX);
        let took = start.elapsed().as_secs_f64();
        times.push(took);
        let said = match plan {
            Plan::Wins { .. } => {
                found += 1;
                "found".to_string()
            }
            _ => match plan_within(&p, model, Ties::ReadingOrder, 10 * limit, u8::MAX) {
                Plan::Wins { .. } => {
                    missed += 1;
                    "missed (a win within ten times the budget)".to_string()
                }
                other => {
                    none += 1;
                    format!("nothing to find within ten times the budget ({other:?})")
                }
            },
        };
        println!(
            "M={m} {}: {said}, the hint's search {took:.3} s",
            record.join(",")
        );
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let most = times.last().copied().unwrap_or(0.0);
    println!(
        "M={m}, {own} own moves, {} positions: the hint found a win in {found}, missed {missed}, \
         none known in {none}; its search took {median:.3} s (median), {most:.3} s at most",
        times.len()
    );
    Ok(())
}
