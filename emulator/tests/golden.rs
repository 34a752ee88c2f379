//! The exact solver against independently computed drops (tests/golden/README.md).

use emulator::exact::solve_model;
use heuristic::{Edge, Model, Position, Side, Size};
use serde_json::Value;

#[test]
fn exact_drops_match_the_golden_set() {
    let text = include_str!("golden/drops.jsonl");
    let mut checked = 0;
    for (line_no, line) in text.lines().enumerate() {
        let row: Value = serde_json::from_str(line).unwrap();
        let size = Size::new(row["size"].as_u64().unwrap() as u32).unwrap();
        let model: Model = row["network"].as_str().unwrap().parse().unwrap();
        let record = row["moves"].as_str().unwrap();
        let position = Position::from_record(size, Side::Cut, record).unwrap();
        let voltages = solve_model(&position, model);
        let drops = row["drops"].as_object().unwrap();
        assert_eq!(drops.len(), size.edge_count(), "line {}", line_no + 1);
        for (name, want) in drops {
            let edge = Edge::parse(size, name).unwrap();
            let got = voltages.drop(edge).map(|d| d.to_string());
            let want = want.as_str().map(str::to_string);
            assert_eq!(got, want, "line {}: {record} {model} {name}", line_no + 1);
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} drops checked");
}
