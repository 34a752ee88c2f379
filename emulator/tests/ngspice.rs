//! The physical solver against ngspice: random positions on random board variants (both
//! profiles, every pull-up arrangement, fixture or not, drawn or nominal parts, pull-ups on or
//! released), exported with `birdcage`'s own SPICE writer and run with `ngspice -b`. Every node
//! voltage must agree to 1e-6 relative, and ngspice must see exactly the nodes the emulator
//! defines.
//!
//! Needs Debian's `ngspice` (`.ci/run` installs it); without it the test says it is skipped.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::collections::BTreeMap;
use std::process::Command;

use emulator::export::{Network, node_name, spice};

use emulator::physical::solve;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const NETLISTS: usize = 240;

fn ngspice_available() -> bool {
    Command::new("ngspice").arg("--version").output().is_ok()
}

/// `name = value` lines of `print all`, lower-cased names.
fn node_voltages(output: &str) -> BTreeMap<String, f64> {
    output
        .lines()
        .filter_map(|line| {
            let (name, value) = line.split_once(" = ")?;
            let name = name.trim();
            if name.contains(['#', ' ']) {
                return None; // source currents, timing lines
            }
            Some((name.to_lowercase(), value.trim().parse().ok()?))
        })
        .collect()
}

/// A scratch folder for one test's netlists, or `None` (with the skip message) when ngspice
/// is not installed.
fn scratch(test: &str) -> Option<std::path::PathBuf> {
    if !ngspice_available() {
        needs::skip("ngspice", "ngspice not installed (apt-get install ngspice)");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("birdcage-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Some(dir)
}

#[test]
fn physical_solver_agrees_with_ngspice() {
    let Some(dir) = scratch("ngspice") else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0x5_91CE);
    let mut compared = 0;
    let mut with_undefined = 0;
    let mut worst: f64 = 0.0;
    for k in 0..NETLISTS {
        let c = emulator::games::random_board_case(&mut rng);
        let sol = solve(&c.board, &c.parts, &c.position, c.pullups).unwrap();
        let network = Network::Board {
            board: Box::new(c.board.clone()),
            parts: c.parts.clone(),
        };
        let text = spice::netlist(&network, &c.position, "random", c.pullups).unwrap();
        let path = dir.join(format!("case{k}.cir"));
        std::fs::write(&path, &text).unwrap();
        let out = Command::new("ngspice")
            .arg("-b")
            .arg(&path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let spice_volts = node_voltages(&stdout);
        assert!(
            !spice_volts.is_empty(),
            "case {k}: ngspice printed no voltages\n{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let size = c.position.size();
        let mut ours: BTreeMap<String, f64> = size
            .nodes()
            .filter_map(|n| Some((node_name(n), sol.volts(n)?)))
            .collect();
        if let Some(rail) = sol.rail_volts() {
            ours.insert("rail".to_string(), rail);
        }
        if ours.len() < size.node_count() {
            with_undefined += 1;
        }
        assert_eq!(
            ours.keys().collect::<Vec<_>>(),
            spice_volts.keys().collect::<Vec<_>>(),
            "case {k}: node sets differ\n{text}"
        );
        for (name, v) in &ours {
            let s = spice_volts[name];
            let scale = v.abs().max(1e-3 * c.board.supply_volts);
            worst = worst.max((v - s).abs() / scale);
            assert!(
                (v - s).abs() <= 1e-6 * scale,
                "case {k}, node {name}: emulator {v}, ngspice {s}\n{text}"
            );
            compared += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(compared > 2000, "{compared}");
    assert!(
        with_undefined >= 3,
        "only {with_undefined} netlists with cut-off parts"
    );
    eprintln!(
        "{NETLISTS} netlists ({with_undefined} with cut-off parts), {compared} node voltages; \
         largest relative difference {worst:.1e}"
    );
}

#[test]
fn model_netlists_agree_with_the_exact_solver() {
    use emulator::exact::solve_model;
    use heuristic::{Model, Side, Size};
    use num_traits::ToPrimitive;
    let Some(dir) = scratch("ngspice-models") else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0x30DE1);
    let mut compared = 0;
    for k in 0..60 {
        let size = Size::new(3 + k % 2).unwrap();
        let p = emulator::games::any_position(&mut rng, size);
        let model = Model::ALL[k as usize % 2];
        if model == Model::Ideal && p.winner() == Some(Side::Short) {
            continue; // the supply shorted by wires: no circuit to solve
        }
        let text = spice::netlist(
            &Network::Model(model),
            &p,
            "random",
            emulator::physical::PullupState::On,
        )
        .unwrap();
        let path = dir.join(format!("model{k}.cir"));
        std::fs::write(&path, &text).unwrap();
        let out = Command::new("ngspice")
            .arg("-b")
            .arg(&path)
            .output()
            .unwrap();
        let volts = node_voltages(&String::from_utf8_lossy(&out.stdout));
        let exact = solve_model(&p, model);
        let nets = spice::model_nets(&p, model);
        for node in size.nodes() {
            let net = &nets[node.index(size)];
            let spice_volts = match net.as_str() {
                "0" => Some(&0.0),
                name => volts.get(name),
            };
            match (exact.voltage(node), spice_volts) {
                (Some(v), Some(s)) => {
                    let v = v.to_f64().unwrap();
                    assert!(
                        (v - s).abs() <= 1e-9,
                        "{node}: exact {v}, ngspice {s}\n{text}"
                    );
                    compared += 1;
                }
                (None, None) => {}
                (v, s) => panic!("{node}: exact {v:?}, ngspice {s:?}\n{text}"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(compared > 300, "{compared}");
}
