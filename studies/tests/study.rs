//! The studies, small and fast: position sets, quantisation, tolerance and pull-ups, with
//! checks that mean something. The `birdcage study` CLI (determinism, bad input, interrupts)
//! is tested in `birdcage/tests/study.rs`.

use emulator::physical::Board;
use heuristic::{Position, Side, Size};
use studies::positions::PositionSet;
use studies::quantisation::{self, Converter};
use studies::report::Output;
use studies::{Control, pullups, tolerance};

fn size(m: u32) -> Size {
    Size::new(m).unwrap()
}

fn quiet() -> Control<'static> {
    Control::unattended()
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("birdcage-study-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn quantise(set: &PositionSet, converters: &[Converter], name: &str) -> quantisation::Report {
    let out = Output::new(&scratch_dir(name)).unwrap();
    let mut csv = out.csv("positions.csv").unwrap();
    let bits: Vec<u8> = studies::BITS.collect();
    quantisation::run(set, (converters, 1), &bits, 3, &quiet(), &mut csv).unwrap()
}

/// The M=3 tree: its size, no position twice, every record replays to its position, Cut's
/// positions have exactly one child (the heuristic's move) and Short's one per resistor.
#[test]
fn m3_tree_is_complete_and_replays() {
    let set = PositionSet::tree(size(3));
    assert_eq!(
        (set.len(), set.decisions().len(), set.finished().len()),
        (901, 502, 288)
    );
    for (i, entry) in set.entries().iter().enumerate() {
        let replayed = Position::from_record(size(3), Side::Cut, &set.record(i as u32)).unwrap();
        assert_eq!(replayed, entry.position, "entry {i}");
    }
    // The start has one child (A5 on the empty M=3 board), then Short has 12 replies.
    assert_eq!(set.record(1), "A5");
    assert_eq!(
        set.entries().iter().filter(|e| e.parent == Some(1)).count(),
        12
    );
}

#[test]
fn random_games_and_records_sets() {
    let a = PositionSet::random_games(size(4), 20, 5);
    let b = PositionSet::random_games(size(4), 20, 5);
    assert_eq!(a.entries(), b.entries(), "same seed, same games");
    assert_eq!(a.finished().len(), 20, "20 different finished games");
    // Boards past 32 edges (M=6 has 61): distinct positions stay distinct, records replay, the
    // tied set holds every edge index.
    let big = PositionSet::random_games(size(6), 4, 2);
    assert_eq!(big.finished().len(), 4);
    for i in 0..big.len() as u32 {
        let replayed = Position::from_record(size(6), Side::Cut, &big.record(i)).unwrap();
        assert_eq!(replayed, big.entries()[i as usize].position);
    }
    let report = quantise(&big, &[Converter::Ideal], "q6");
    assert_eq!(report.decisions, big.decisions().len());
    let start = studies::Truth::of(&Position::new(size(6), Side::Cut)).unwrap();
    // On the empty M=6 board the 6 columns of 6 verticals carry equal drops: 36 ties, bits
    // up to index 60 of the mask.
    assert_eq!(start.tied.count_ones(), 36);
    assert!(start.tied >> 32 != 0);
    assert_eq!(start.choice.to_string(), "A11");
    let text = "# two games\nA5,c5,C3,a1\n\nA5,e5\n";
    let set = PositionSet::records(size(3), text, "games.txt").unwrap();
    assert_eq!(set.len(), 6, "start, A5, c5, C3, a1 and e5");
    let err = PositionSet::records(size(3), "A5\nA5,a5\n", "games.txt").unwrap_err();
    assert_eq!(
        err.to_string(),
        "games.txt line 2: move 2: a5 was already cut"
    );
    let err = PositionSet::records(size(3), "A5,z9\n", "games.txt").unwrap_err();
    assert!(
        err.to_string().starts_with("games.txt line 1: move 2: "),
        "{err}"
    );
}

/// Ideal converter on the M=3 tree: no divergence at any resolution (the smallest exact
/// margin is over 1 LSB at 6 bits), so certainly none at 16; every exact tie broken another
/// way is counted as benign, never as a divergence.
#[test]
fn quantisation_ideal_m3_has_no_divergence() {
    let set = PositionSet::tree(size(3));
    let report = quantise(&set, &[Converter::Ideal], "q3");
    assert_eq!(report.rows.len(), 11);
    for row in &report.rows {
        assert_eq!(row.divergence.count, 0, "{} bits", row.bits);
        assert_eq!(row.decisions, 502);
        assert!(row.min_margin_lsb.unwrap() > 1.0);
    }
    assert!(report.rows.iter().all(|r| r.agree + r.tie == 502));
    assert!(
        report.rows.iter().any(|r| r.tie > 0),
        "the tree has exact ties"
    );
}

/// On M=4 games the ideal converter does diverge at low resolution; divergence falls as bits
/// rise and is gone at 16 bits; nothing lost to quantisation exceeds 2 LSB (each of the two
/// codes of a drop is off by at most half an LSB).
#[test]
fn quantisation_falls_with_bits() {
    let set = PositionSet::random_games(size(4), 400, 3);
    let report = quantise(&set, &[Converter::Ideal], "q4");
    let at = |b: u8| report.rows.iter().find(|r| r.bits == b).unwrap();
    assert!(at(6).divergence.count > 0, "6 bits loses some moves");
    assert!(at(6).divergence.count >= at(8).divergence.count);
    assert!(at(8).divergence.count >= at(12).divergence.count);
    assert_eq!(at(16).divergence.count, 0);
    for row in &report.rows {
        assert!(row.max_lost_lsb.unwrap_or(0.0) < 2.0, "{row:?}");
        assert_eq!(row.divergence.count, row.quantisation);
    }
}

/// The text of every `<text>` element of an SVG file, trimmed.
fn svg_texts(path: &std::path::Path) -> Vec<String> {
    let svg = std::fs::read_to_string(path).unwrap();
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

/// A CSV file written by a study, as a header and rows of fields (no quoted fields here).
fn read_csv(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text
        .lines()
        .map(|l| l.split(',').map(String::from).collect::<Vec<_>>());
    let header = lines.next().unwrap();
    (header, lines.collect())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// Margins and losses as shares of the supply: a share is the LSB figure over 2^bits (both
/// converters are ratiometric), so the rows of different resolutions compare; the CSV
/// carries the same numbers; the smallest margin is the positions' own, the same share at
/// every resolution, where in LSB it doubles with every bit.
#[test]
fn quantisation_shares_of_the_supply() {
    let set = PositionSet::random_games(size(4), 400, 3);
    let nucleo = Converter::Board {
        spec: "nucleo-f446re".into(),
        board: Box::new(Board::from_profile(&boards::NUCLEO_F446RE)),
        seed: 1,
    };
    let report = quantise(&set, &[Converter::Ideal, nucleo], "qshare");
    let mut losses = 0;
    for r in &report.rows {
        let full = f64::from(1u32 << r.bits);
        assert_eq!(r.lsb_share_of_supply, 1.0 / full, "{} bits", r.bits);
        let margin = r.min_margin_share_of_supply.unwrap();
        assert!(close(margin, r.min_margin_lsb.unwrap() / full), "{r:?}");
        assert_eq!(
            margin,
            report.rows[0].min_margin_share_of_supply.unwrap(),
            "the same positions, the same exact margin"
        );
        assert_eq!(
            r.max_lost_share_of_supply.is_some(),
            r.divergence.count > 0,
            "{r:?}"
        );
        if let Some(lost) = r.max_lost_share_of_supply {
            losses += 1;
            assert!(close(lost, r.max_lost_lsb.unwrap() / full), "{r:?}");
            assert!(lost > 0.0 && lost <= 1.0);
        }
        for w in &r.worst {
            assert!(close(w.lost_share_of_supply, w.lost_lsb / full), "{w:?}");
        }
    }
    assert!(losses > 2, "divergences on both converters");
    // The CSV row of each converter and resolution holds the report's numbers.
    let csv = report.csv_rows();
    let column = |name: &str| csv[0].iter().position(|c| c == name).unwrap();
    for (r, line) in report.rows.iter().zip(&csv[1..]) {
        let number = |name: &str| line[column(name)].parse::<f64>().ok();
        assert_eq!(number("bits"), Some(f64::from(r.bits)));
        assert_eq!(number("lsb_share_of_supply"), Some(r.lsb_share_of_supply));
        assert_eq!(
            number("min_margin_share_of_supply"),
            r.min_margin_share_of_supply
        );
        assert_eq!(
            number("max_lost_share_of_supply"),
            r.max_lost_share_of_supply
        );
        assert_eq!(number("max_lost_lsb"), r.max_lost_lsb);
        assert_eq!(number("divergence_rate"), Some(r.divergence.rate));
    }
    // The margins' CSV: contiguous bins, shares = LSB at 10 bits / 1024, every margin counted.
    let margins = report.margin_csv_rows();
    assert_eq!(margins.len(), quantisation::MARGIN_BINS + 1);
    let mut counted = 0;
    for k in 1..margins.len() {
        let f = |i: usize| margins[k][i].parse::<f64>().ok();
        if k > 1 {
            assert_eq!(
                margins[k][1],
                margins[k - 1][2],
                "bin {k} starts where {} ends",
                k - 1
            );
        }
        assert_eq!(f(3), f(1).map(|v| v / 1024.0));
        assert_eq!(f(4), f(2).map(|v| v / 1024.0));
        let (low, _) = quantisation::margin_bin_edges(k - 1);
        if low > 0.0 {
            assert_eq!(quantisation::margin_bin(low / 1024.0), k - 1);
        }
        counted += margins[k][5].parse::<u64>().unwrap();
    }
    assert_eq!(counted, report.margin_histogram_10bit.iter().sum::<u64>());
    assert_eq!(
        margins[quantisation::MARGIN_BINS][2],
        "",
        "the last bin is unbounded"
    );
}

/// The quantisation plots as a person reads them: bits labelled 6, 7 (never 6.0), rates in
/// percent, the margins' counts on a log axis (ticks 1, 10, 100), and a caption naming the
/// size, the converters and the seed.
#[test]
fn quantisation_plots_read_well() {
    let set = PositionSet::tree(size(3));
    let dir = scratch_dir("qplots");
    let out = Output::new(&dir).unwrap();
    let mut csv = out.csv("positions.csv").unwrap();
    let bits: Vec<u8> = studies::BITS.collect();
    let report =
        quantisation::run(&set, (&[Converter::Ideal], 7), &bits, 3, &quiet(), &mut csv).unwrap();
    quantisation::plots(&report, &out).unwrap();
    quantisation::write_tables(&report, &out).unwrap();
    for name in ["divergence-vs-bits.svg", "lost-vs-bits.svg", "margins.svg"] {
        let texts = svg_texts(&out.path(name));
        assert!(
            texts.contains(&"M=3 · board ideal · seed 7 · 502 decisions".to_string()),
            "{name}: {texts:?}"
        );
        assert!(
            !texts.iter().any(|t| t.ends_with(".0")),
            "{name}: {texts:?}"
        );
    }
    let bits = svg_texts(&out.path("divergence-vs-bits.svg"));
    for b in 6..=16 {
        assert!(bits.contains(&b.to_string()), "{b} bits: {bits:?}");
    }
    let margins = svg_texts(&out.path("margins.svg"));
    for tick in ["1", "10", "100"] {
        assert!(margins.contains(&tick.to_string()), "{margins:?}");
    }
    assert!(margins.contains(&"1/128".to_string()) && margins.contains(&"16 bits".to_string()));
    // The histogram's CSV holds the bars drawn: each count is printed over its bar.
    let (header, rows) = read_csv(&out.path("quantisation-margins.csv"));
    assert_eq!(header[5], "decisions");
    for row in rows.iter().filter(|r| r[5] != "0") {
        let count = studies::plot::integer_text(row[5].parse().unwrap());
        assert!(margins.contains(&count), "bar {row:?}");
    }
}

fn tolerance_cells(tolerances_ppm: Vec<u32>, boards: u64, name: &str) -> Vec<tolerance::Cell> {
    let set = PositionSet::tree(size(3));
    let winner = |p: &Position| Some(switching::perfect::winner(p));
    let winners = tolerance::child_winners(&set, &winner);
    let out = Output::new(&scratch_dir(name)).unwrap();
    let mut csv = out.csv("positions.csv").unwrap();
    let plan = tolerance::Plan {
        tolerances_ppm,
        boards,
        seed: 9,
    };
    let board = Board::from_profile(&boards::NUCLEO_F446RE);
    tolerance::run(&set, &board, &plan, Some(&winners), &quiet(), &mut csv)
        .unwrap()
        .0
}

/// At 0 % tolerance every drawn board is the nominal board: no divergence, no impact.
#[test]
fn tolerance_zero_never_diverges() {
    let cells = tolerance_cells(vec![0], 5, "t0");
    assert_eq!(cells.len(), 3, "three distributions");
    for c in &cells {
        assert_eq!(c.decision_divergence.count, 0, "{c:?}");
        assert_eq!(c.game_divergence.count, 0);
        assert_eq!(c.decision_divergence.total, 5 * 502);
        assert_eq!(c.cut_win_lost.unwrap().count, 0);
    }
}

/// Wide tolerances do diverge, more at 10 % than at 1 %, the per-game rate is at least the
/// per-decision rate's share, and each rate sits inside its Wilson interval.
#[test]
fn tolerance_grows_with_the_band() {
    let cells = tolerance_cells(vec![10_000, 100_000], 40, "t10");
    let uniform = |percent: f64| {
        cells
            .iter()
            .find(|c| c.tolerance_percent == percent && c.distribution == "uniform")
            .unwrap()
    };
    assert!(uniform(10.0).decision_divergence.count > 0);
    assert!(uniform(10.0).decision_divergence.rate >= uniform(1.0).decision_divergence.rate);
    assert!(uniform(10.0).game_divergence.rate > uniform(10.0).decision_divergence.rate);
    for c in &cells {
        for r in [c.decision_divergence, c.game_divergence] {
            assert!(r.low <= r.rate && r.rate <= r.high);
        }
        assert!(c.worst_position.is_some() == (c.positions_ever > 0));
    }
}

/// The outcome impact comes from the perfect-play solver: on M=3 Cut keeps its win after the
/// nominal board's move almost everywhere, and no divergence can lose more wins than it has.
#[test]
fn tolerance_outcome_impact() {
    let set = PositionSet::tree(size(3));
    let winner = |p: &Position| Some(switching::perfect::winner(p));
    let winners = tolerance::child_winners(&set, &winner);
    assert_eq!(winners.len(), set.decisions().len());
    // After the heuristic's exact opening A5, Cut (first player) still wins the M=3 cage.
    let a5 = heuristic::Edge::parse(size(3), "A5").unwrap();
    assert_eq!(winners[0][a5.index(size(3))], Some(Side::Cut));
    let out = Output::new(&scratch_dir("impact")).unwrap();
    let mut csv = out.csv("positions.csv").unwrap();
    let plan = tolerance::Plan {
        tolerances_ppm: vec![100_000],
        boards: 30,
        seed: 3,
    };
    let board = Board::from_profile(&boards::NUCLEO_F446RE);
    let (cells, cut_wins) =
        tolerance::run(&set, &board, &plan, Some(&winners), &quiet(), &mut csv).unwrap();
    assert!(cut_wins.unwrap() > 450, "{cut_wins:?} of 502");
    for c in &cells {
        let lost = c.cut_win_lost.unwrap().count + c.short_win_lost.unwrap().count;
        assert!(lost <= c.decision_divergence.count, "{c:?}");
    }
}

/// Small pull-ups hurt the decisions and large ones do not; the Nucleo's design (shared rail
/// driven low at 30R) reads every game-over position on the right side of both thresholds.
#[test]
fn pullups_study() {
    let set = PositionSet::tree(size(3));
    let board = Board::from_profile(&boards::NUCLEO_F446RE);
    let out = Output::new(&scratch_dir("p3")).unwrap();
    let mut csv = out.csv("pullups.csv").unwrap();
    let report = pullups::run(
        &set,
        ("nucleo-f446re", &board, &boards::NUCLEO_F446RE),
        3,
        2,
        &quiet(),
        &mut csv,
    )
    .unwrap();
    assert_eq!(report.cases.len(), 24);
    let case = |t: pullups::Topology, r: u32| {
        report
            .cases
            .iter()
            .find(|c| c.topology == t && c.ratio == r)
            .unwrap()
    };
    for t in pullups::Topology::ALL {
        assert!(
            case(t, 10).divergence.rate > case(t, 1000).divergence.rate,
            "{t:?}"
        );
        assert_eq!(case(t, 1000).nominal_divergences, 0);
    }
    let nucleo = case(pullups::Topology::SharedRail, 30);
    for m in [&nucleo.cut_won, &nucleo.short_won, &nucleo.in_play] {
        assert!(m.readings > 0);
        assert_eq!(m.misjudged, 0);
        assert!(m.min_codes.unwrap() > 0);
    }
    // Margins in codes and as shares of the supply: one code of the Nucleo's ratiometric
    // 10-bit converter is 1/1024 of it.
    assert_eq!(report.code_share_of_supply, 1.0 / 1024.0);
    let (header, rows) = read_csv(&out.path("pullups.csv"));
    assert_eq!(rows.len(), 24);
    let column = |name: &str| header.iter().position(|c| c == name).unwrap();
    for row in &rows {
        for kind in ["cut_won", "short_won", "in_play"] {
            let codes: f64 = row[column(&format!("{kind}_min_margin"))].parse().unwrap();
            let share: f64 = row[column(&format!("{kind}_min_margin_share_of_supply"))]
                .parse()
                .unwrap();
            assert_eq!(share, codes / 1024.0, "{row:?}");
        }
    }
}
