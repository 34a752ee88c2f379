//! The game-over thresholds: the bounds they come from, pinned for the NUCLEO-F446RE, and
//! checked against the bottom terminal's voltage on random positions.

mod common;

use common::{BOARD, size};
use firmware::{GameOverThresholds, ladder_fraction, max_boundary};
use heuristic::{EdgeState, Node, Position, Side, Size};
use proptest::prelude::*;

#[test]
fn nucleo_thresholds() {
    // M=4: up to 16 resistors can stand between Q and the bottom terminal's wired group
    // (V0 ≤ 16 / (16 + 1 + 1/30) = 0.939 Vs = 961 codes); the 13-resistor ladder leaves
    // 0.0285 Vs = 29 codes. Thresholds half way to 0 and to full scale.
    assert_eq!(
        GameOverThresholds::derive(BOARD, size(4)),
        GameOverThresholds {
            play_low: 29,
            play_high: 961,
            cut_at_most: 14,
            short_at_least: 992,
        }
    );
    assert_eq!(
        GameOverThresholds::derive(BOARD, size(3)),
        GameOverThresholds {
            play_low: 92,
            play_high: 918,
            cut_at_most: 46,
            short_at_least: 971,
        }
    );
    assert_eq!((max_boundary(size(3)), max_boundary(size(4))), (9, 16));
}

#[test]
fn judge_reads_the_bottom_terminal() {
    let t = GameOverThresholds::derive(BOARD, size(4));
    let cases = [
        (0, Some(Side::Cut)),
        (14, Some(Side::Cut)),
        (15, None),
        (500, None),
        (991, None),
        (992, Some(Side::Short)),
        (1023, Some(Side::Short)),
    ];
    for (code, winner) in cases {
        assert_eq!(t.judge(code), winner, "code {code}");
    }
}

#[test]
fn the_ladder_of_one_resistor_is_a_divider() {
    // Q -R- 0, with Rs and Rpu from 0 to ground: V0/Vs = g / (g + gs + gpu), g = 1.
    let f = ladder_fraction(0, 1.0, 0.5);
    assert!((f - 1.0 / 2.5).abs() < 1e-6, "{f}");
    // Two resistors, a pull-down of 1 between and 2 at 0: with V0 = 1, 2 flows up to the
    // middle node (V = 3), which draws 3 more, so Q must be 3 + 5 = 8: V0/Vs = 1/8.
    let f = ladder_fraction(1, 1.0, 1.0);
    assert!((f - 0.125).abs() < 1e-6, "{f}");
}

/// V0 / Vs with the pull-ups released as pull-downs, wires as 10⁹ R⁻¹: a dense nodal solve
/// independent of the library's solver.
fn released_bottom(position: &Position) -> f64 {
    let size = position.size();
    let r = f64::from(BOARD.resistor_ohms());
    let g_pu = r / f64::from(BOARD.pullup_ohms());
    let g_s = r / f64::from(BOARD.series_ohms());
    let n = size.node_count();
    let (top, bottom) = (Node::Top.index(size), Node::Bottom.index(size));
    let mut g = vec![vec![0.0; n]; n];
    for (i, state) in position.states().iter().enumerate() {
        let c = match state {
            EdgeState::Resistor => 1.0,
            EdgeState::Short => 1e9,
            EdgeState::Cut => continue,
        };
        let (a, b) = size.edge_ends(i);
        g[a][a] += c;
        g[b][b] += c;
        g[a][b] -= c;
        g[b][a] -= c;
    }
    for (k, row) in g.iter_mut().enumerate() {
        if k != top {
            row[k] += g_pu;
        }
    }
    g[bottom][bottom] += g_s;
    // Unknowns: every node but Q (fixed at 1).
    let unknowns: Vec<usize> = (0..n).filter(|&k| k != top).collect();
    let mut a: Vec<Vec<f64>> = unknowns
        .iter()
        .map(|&i| {
            let mut row: Vec<f64> = unknowns.iter().map(|&j| g[i][j]).collect();
            row.push(-g[i][top]);
            row
        })
        .collect();
    let m = unknowns.len();
    for col in 0..m {
        let pivot = (col..m)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    let at = unknowns.iter().position(|&k| k == bottom).unwrap();
    a[at][m] / a[at][at]
}

fn random_position(m: u32, choices: &[usize]) -> Position {
    let mut p = Position::new(Size::new(m).unwrap(), Side::Cut);
    for &c in choices {
        if p.winner().is_some() {
            break;
        }
        let moves: Vec<_> = p.resistors().collect();
        p.play_edge(moves[c % moves.len()]).unwrap();
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Every position reads inside the band its result allows: play on between the bounds,
    /// Cut at or below `cut_at_most`, Short at or above `short_at_least`.
    #[test]
    fn thresholds_separate_the_results(
        m in 3u32..=4,
        choices in prop::collection::vec(0usize..64, 0..25),
    ) {
        let p = random_position(m, &choices);
        let t = GameOverThresholds::derive(BOARD, p.size());
        let code = released_bottom(&p) * (f64::from(BOARD.full_scale_code()) + 1.0);
        match p.winner() {
            None => {
                prop_assert!(code >= f64::from(t.play_low), "{code} below the ladder bound");
                prop_assert!(code <= f64::from(t.play_high) + 1.0, "{code} above the boundary bound");
            }
            Some(Side::Cut) => prop_assert!(code < f64::from(t.cut_at_most), "{code}"),
            Some(Side::Short) => prop_assert!(code > f64::from(t.short_at_least), "{code}"),
        }
        prop_assert_eq!(t.judge(code as u16), p.winner());
    }
}
