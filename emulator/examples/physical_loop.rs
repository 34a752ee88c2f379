//! Profiling aid: physical solves of random M=4 positions in a loop (`perf record`).
use emulator::games::random_position;
use emulator::physical::{Board, Parts, PullupState, solve};
use heuristic::{Side, Size};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let m4 = Size::new(4).expect("size");
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let positions: Vec<_> = (0..512)
        .map(|_| {
            let plies = rng.random_range(0..=12);
            random_position(&mut rng, m4, Side::Cut, plies)
        })
        .collect();
    let board = Board::from_profile(&boards::ARDUINO_MEGA);
    let parts = Parts::draw(&board, m4, 1);
    let mut sum = 0.0;
    for _ in 0..2000 {
        for p in &positions {
            sum += solve(&board, &parts, p, PullupState::On).all_volts()[0].unwrap_or(0.0);
        }
    }
    println!("{sum}");
}
