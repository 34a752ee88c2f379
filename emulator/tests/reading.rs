//! Reading positions through an ADC: quantisation can change the heuristic's move only when
//! the exact margin between the best drop and the runner-up is within a couple of LSB.

use emulator::exact::solve_model;
use emulator::games::random_position;
use emulator::physical::Board;
use emulator::reading::Reader;
use heuristic::{Model, Side, Size};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn quantisation_diverges_only_inside_its_margin() {
    let m4 = Size::new(4).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut diverged = [0usize; 3];
    let bits = [6u8, 10, 14];
    let mut positions = 0;
    while positions < 1500 {
        let plies = 2 * rng.random_range(0..10);
        let p = random_position(&mut rng, m4, Side::Cut, plies);
        if p.to_move() != Some(Side::Cut) {
            continue;
        }
        positions += 1;
        let exact = solve_model(&p, Model::Ideal);
        let Some(truth) = exact.rank() else { continue };
        let margin = truth.runner_up.as_ref().map_or(1.0, |r| {
            BigRational::new(truth.best.clone() - r, exact.denominator().clone())
                .to_f64()
                .unwrap()
        });
        for (k, &b) in bits.iter().enumerate() {
            let reading = Reader::IdealAdc { bits: b }.read(&p, &exact).unwrap();
            let choice = reading.ranking(&p).unwrap().choice;
            let diverges = !truth.tied.contains(&choice);
            // Each code is within half an LSB of its voltage, so a drop within one LSB.
            let lsb = 1.0 / f64::from(1u32 << b);
            if margin > 2.0 * lsb {
                assert!(!diverges, "{b} bits: margin {margin} but diverged");
            }
            diverged[k] += usize::from(diverges);
        }
    }
    assert!(
        diverged[0] > diverged[1] && diverged[1] >= diverged[2],
        "{diverged:?}"
    );
    assert!(diverged[0] > 0, "6 bits should blur some decisions");
}

#[test]
fn board_readings_are_reproducible_from_the_seed() {
    let m4 = Size::new(4).unwrap();
    let p = random_position(&mut ChaCha8Rng::seed_from_u64(42), m4, Side::Cut, 6);
    let exact = solve_model(&p, Model::Ideal);
    let board = Board::from_profile(&boards::NUCLEO_F446RE);
    let reader = |seed| Reader::Board {
        board: Box::new(board.clone()),
        seed,
    };
    assert_eq!(
        reader(Some(3)).read(&p, &exact).unwrap(),
        reader(Some(3)).read(&p, &exact).unwrap()
    );
    assert_ne!(
        reader(Some(3)).read(&p, &exact).unwrap().codes,
        reader(Some(4)).read(&p, &exact).unwrap().codes
    );
    // Nominal parts and a perfect converter: codes are the ideal transfer of the volts.
    let nominal = reader(None).read(&p, &exact).unwrap();
    for (v, c) in nominal.volts.iter().zip(&nominal.codes) {
        let want = (v.unwrap() / 3.3 * 1024.0 + 0.5).floor().min(1023.0) as u16;
        assert_eq!(c.unwrap(), want);
    }
}
