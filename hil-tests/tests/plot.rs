//! The report's plot: one point per step, coloured by class, the band as a line.

use bench::{Class, Report, Scenario, Sil, header, report::PLOT};
use emulator::emulated::Defect;
use heuristic::Size;

mod common;

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;

/// SVG fill colour of a class's points (as the plot draws them).
fn fill(class: Class) -> &'static str {
    match class {
        Class::Agree => "#2E8B57",
        Class::Tie => "#4169E1",
        Class::Wiring => "#DC143C",
        other => panic!("no colour pinned for {other:?}"),
    }
}

#[test]
fn the_plot_has_one_point_per_step_coloured_by_class() {
    let sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
    // A stuck channel: steps out of band among steps in band.
    sil.emulated_cage()
        .inject(Defect::Stuck(Size::M4.nodes().nth(5).unwrap(), 100))
        .unwrap();
    let mut sil = sil;
    let scenario = Scenario::random(Size::M4, 4, 3);
    let dir = tempfile::tempdir().unwrap();
    let mut report = common::played(NUCLEO, &mut sil, &scenario, None, dir.path(), false).unwrap();
    let md = report.finish().unwrap();
    let tally = report.tally().clone();
    assert!(md.contains("Plot: `plot.svg`"), "{md}");
    let svg = std::fs::read_to_string(dir.path().join(PLOT)).unwrap();
    assert_eq!(svg.matches("<circle").count(), tally.steps, "{tally:?}");
    assert!(tally.count(Class::Wiring) > 0, "{tally:?}");
    for (class, n) in &tally.classes {
        if *n == 0 {
            continue;
        }
        let points = svg
            .lines()
            .filter(|l| l.contains("<circle") && l.contains(fill(*class)))
            .count();
        assert_eq!(points, *n, "{class:?}");
        assert!(
            svg.contains(&format!("{class:?}: {n}")),
            "legend of {class:?}"
        );
    }
    assert!(svg.contains("band ±24 codes"));
    assert!(svg.contains(&format!("{} steps", tally.steps)));
    assert!(!svg.contains("NaN"));
}

#[test]
fn an_empty_report_still_gets_a_plot() {
    let mut sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
    let scenario = Scenario::random(Size::M4, 0, 3);
    let dir = tempfile::tempdir().unwrap();
    let header = header(&mut sil, NUCLEO, &scenario, None).unwrap();
    let mut report = Report::open(dir.path(), header, bench::Existing::Refuse).unwrap();
    report.finish().unwrap();
    let svg = std::fs::read_to_string(dir.path().join(PLOT)).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("0 steps"), "{svg}");
    assert_eq!(svg.matches("<circle").count(), 0);
    assert!(!svg.contains("NaN"), "{svg}");
}
