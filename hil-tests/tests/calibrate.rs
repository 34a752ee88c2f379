//! Calibration on SIL boards with drawn parts: the fit finds the drawn values.

use heuristic::Size;
use hil_tests::{Report, Scenario, Sil, Step, calibrate, campaign, header, observations};

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;

fn steps(size: Size, scenario: &Scenario, seed: u64) -> (Vec<Step>, Sil) {
    let mut sil = Sil::new(NUCLEO, size, Some(seed)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let header = header(&mut sil, scenario, Some(seed)).unwrap();
    let mut report = Report::open(dir.path(), header, false).unwrap();
    campaign(&mut sil, NUCLEO, scenario, &mut report, &mut |_, _| {}).unwrap();
    let text = std::fs::read_to_string(dir.path().join("steps.jsonl")).unwrap();
    let steps = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("step").cloned())
        .map(|s| serde_json::from_value(s).unwrap())
        .collect();
    (steps, sil)
}

#[test]
fn explore() {
    for seed in [1u64, 2] {
        let t = std::time::Instant::now();
        let (steps, sil) = steps(Size::M4, &Scenario::random(Size::M4, 100, 1), seed);
        let t1 = t.elapsed();
        let data = observations(Size::M4, &steps).unwrap();
        let cal = calibrate(NUCLEO, &data).unwrap();
        let t2 = t.elapsed();
        let truth = sil.cage().parts();
        eprintln!(
            "seed {seed}: campaign {t1:?} fit {:?}, {} steps",
            t2 - t1,
            steps.len()
        );
        eprintln!("{}", cal.markdown());
        let mut errs = Vec::new();
        for (i, f) in cal.edges.iter().enumerate() {
            if f.identifiable {
                let e = (f.fitted / truth.edge_ohms[i] - 1.0) * 100.0;
                let n = (f.nominal / truth.edge_ohms[i] - 1.0) * 100.0;
                errs.push((e, n));
                eprintln!(
                    "{} fit err {e:+.3}% nominal err {n:+.3}% se {:.3}%",
                    f.part,
                    f.std_error.unwrap() / f.fitted * 100.0
                );
            }
        }
        eprintln!(
            "series fit err {:+.3}% nominal {:+.3}%",
            (cal.series.fitted / truth.series_ohms - 1.0) * 100.0,
            (cal.series.nominal / truth.series_ohms - 1.0) * 100.0
        );
        let pu: f64 = truth
            .pullup_ohms
            .iter()
            .map(|p| (p / 30000.0).ln())
            .sum::<f64>()
            / truth.pullup_ohms.len() as f64;
        eprintln!("mean pullup err {:+.3}%", pu * 100.0);
    }
}
