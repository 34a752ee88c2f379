//! `birdcage analyze|next --board|--adc-bits` and `birdcage export` as users see them.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use serde_json::Value;
use support::{assert_bad_input, birdcage, json, scratch_file, stdout};

#[test]
fn board_analysis_reports_nodes_codes_and_the_firmware_choice() {
    let v = json(&[
        "analyze",
        "--size",
        "4",
        "--moves",
        "A7,c5",
        "--board",
        "nucleo-f446re",
        "--tolerance-seed",
        "7",
    ]);
    for key in [
        "nodes",
        "firmware_choice",
        "diverges",
        "tied",
        "choice",
        "board",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["network"], "ideal", "compared with the ideal network");
    assert_eq!(v["board"]["name"], "nucleo-f446re");
    assert_eq!(v["board"]["tolerance_seed"], 7);
    let nodes = v["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 14);
    for n in nodes {
        let keys: Vec<&str> = n.as_object().unwrap().keys().map(String::as_str).collect();
        assert!(
            ["node", "volts", "code"].iter().all(|k| keys.contains(k)),
            "{n}"
        );
        let volts = n["volts"].as_f64().unwrap();
        let code = n["code"].as_u64().unwrap();
        assert!((0.0..=3.3).contains(&volts) && code <= 1023, "{n}");
    }
    let q = nodes.iter().find(|n| n["node"] == "Q").unwrap();
    assert_eq!(
        (q["volts"].as_f64(), q["code"].as_u64()),
        (Some(3.3), Some(1023))
    );
    // Code drops are the differences of the node codes.
    let code = |name: &str| nodes.iter().find(|n| n["node"] == name).unwrap()["code"].as_i64();
    let edges = v["edges"].as_array().unwrap();
    let a5 = edges.iter().find(|e| e["edge"] == "A5").unwrap();
    assert_eq!(
        a5["code_drop"].as_i64().unwrap(),
        (code("A6").unwrap() - code("A4").unwrap()).abs()
    );
    assert!(a5["ohms"].as_f64().unwrap() > 990.0);
    let cut = edges.iter().find(|e| e["edge"] == "A7").unwrap();
    assert_eq!(cut["code_drop"], Value::Null);
    let choice = v["firmware_choice"].as_str().unwrap();
    let tied: Vec<&str> = v["tied"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(v["diverges"], !tied.contains(&choice));
}

#[test]
fn without_a_reader_the_json_keys_stay_as_they_were() {
    let v = json(&["analyze", "--size", "3", "--moves", "A5"]);
    for key in ["nodes", "firmware_choice", "diverges", "board"] {
        assert!(v.get(key).is_none(), "{key} appeared");
    }
    assert!(v["edges"][0].get("code_drop").is_none());
}

#[test]
fn an_ideal_adc_reads_the_exact_model() {
    let v = json(&[
        "analyze",
        "--size",
        "4",
        "--moves",
        "A7,c5",
        "--adc-bits",
        "10",
    ]);
    assert_eq!(v["board"]["adc_bits"], 10);
    assert_eq!(v["board"]["name"], Value::Null);
    let a6 = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["node"] == "A6")
        .unwrap()
        .clone();
    let volts = a6["volts"].as_f64().unwrap();
    assert_eq!(
        a6["code"].as_u64().unwrap(),
        (volts * 1024.0 + 0.5).floor() as u64
    );
    // The classic position: the codes agree with the exact choice.
    assert_eq!(v["firmware_choice"], "C7");
    assert_eq!(v["diverges"], false);
    assert_eq!(
        stdout(&[
            "next",
            "--size",
            "4",
            "--moves",
            "A7,c5",
            "--adc-bits",
            "10"
        ]),
        "C7\n"
    );
}

#[test]
fn board_text_lists_node_codes_and_the_verdict() {
    let text = stdout(&[
        "analyze",
        "--size",
        "3",
        "--moves",
        "A5,c5",
        "--board",
        "arduino-mega",
    ]);
    assert!(
        text.contains("Read by arduino-mega (10-bit ADC, nominal parts):"),
        "{text}"
    );
    assert!(text.contains("Drops in ADC codes:"));
    assert!(text.contains("  node         mV  code\n"), "{text}");
    assert!(text.contains("  Q       5000.00  1023"), "{text}");
    assert!(text.contains("Firmware's move (largest code drop): "));
}

#[test]
fn profile_files_override_a_known_profile() {
    let good = scratch_file(
        "twelve.toml",
        "base = \"nucleo-f446re\"\nname = \"twelve\"\n[adc]\nbits_used = 12\n",
    );
    let v = json(&["analyze", "--size", "3", "--board", good.to_str().unwrap()]);
    assert_eq!(v["board"]["name"], "twelve");
    assert_eq!(v["board"]["adc_bits"], 12);
    let nodes = v["nodes"].as_array().unwrap();
    let q = nodes.iter().find(|n| n["node"] == "Q").unwrap();
    assert_eq!(q["code"], 4095);

    for (name, text, message) in [
        (
            "bad.toml",
            "base = \"nucleo-f446re\"\n[resistors]\nnominal_ohms = [1]\n",
            "line 3",
        ),
        (
            "negative.toml",
            "base = \"arduino-mega\"\nseries_ohms = 0\n",
            "negative.toml, line 2: series_ohms = 0 is out of range (100..=1000000)",
        ),
        (
            "wide.toml",
            "base = \"arduino-mega\"\n[resistors.tolerance]\nppm = 500000\n",
            "wide.toml, line 3: resistors.tolerance.ppm = 500000 is out of range (0..=499999)",
        ),
    ] {
        let path = scratch_file(name, text);
        assert_bad_input(
            &["next", "--size", "3", "--board", path.to_str().unwrap()],
            message,
        );
    }
}

#[test]
fn a_bad_profile_file_is_one_line_said_once() {
    let path = scratch_file(
        "five-bits.toml",
        "base = \"nucleo-f446re\"\n[adc]\nbits_used = 5\n",
    );
    let path = path.to_str().unwrap();
    let out = birdcage(&["analyze", "--size", "4", "--board", path]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!("error: profile file {path}, line 3: adc.bits_used = 5 is out of range (6..=16)\n")
    );
}

#[test]
fn bad_board_options_are_named() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["analyze", "--size", "3", "--board", "uno"],
            "unknown board `uno` (expected arduino-mega, nucleo-f446re or a profile file)",
        ),
        (
            vec![
                "analyze",
                "--size",
                "3",
                "--board",
                "nucleo-f446re",
                "--adc-bits",
                "20",
            ],
            "invalid value '20' for '--adc-bits <N>': must be a whole number from 6 to 16",
        ),
        (
            vec!["analyze", "--size", "3", "--adc-bits", "-3"],
            "invalid value '-3' for '--adc-bits <N>': must be a whole number from 6 to 16",
        ),
        (
            vec!["analyze", "--size", "3", "--tolerance-seed", "4"],
            "--board",
        ),
        (
            vec![
                "analyze",
                "--size",
                "3",
                "--board",
                "arduino-mega",
                "--network",
                "reference",
            ],
            "cannot be used with",
        ),
        (
            vec!["export", "spice", "--size", "3", "--moves", "A5,a5"],
            "move 2: a5 was already cut",
        ),
        (
            vec!["export", "gerber", "--size", "3"],
            "unrecognized subcommand",
        ),
    ];
    for (args, message) in cases {
        assert_bad_input(&args, message);
    }
}

#[test]
fn spice_export_names_nodes_after_the_board() {
    let net = stdout(&[
        "export",
        "spice",
        "--size",
        "3",
        "--moves",
        "A5,c5",
        "--board",
        "arduino-mega",
        "--tolerance-seed",
        "1",
    ]);
    // M=3 is exported as the board holds it: on the M=4 cage, with jumpers from row 6 to Q.
    assert!(net.starts_with("* birdcage: M=4, moves A5,c5 (an M=3 game on the M=4 cage), board arduino-mega, parts drawn from tolerance seed 1, pull-ups on\n"), "{net}");
    assert!(net.contains("Vsupply q 0 DC 5\n"));
    assert!(!net.contains("RA5 "), "a cut edge is no part");
    assert!(net.contains("Rwire_C5 c6 c4 5e-2\n"), "{net}");
    assert!(net.contains("Rwire_C7 q c6 5e-2\n"), "{net}");
    assert!(net.contains("Rpullup_bottom bottom q "));
    assert!(net.contains("\n.op\n") && net.ends_with(".end\n"));
    // The models: unit resistors, wires as 0 V sources.
    let ideal = stdout(&["export", "spice", "--size", "2", "--moves", "A3,b2"]);
    // B2 is a wire: A2 and C2 are one net, named after A2; the bottom terminal is ground.
    assert!(
        ideal.contains("* wire B2: a2 and c2 are net a2\n"),
        "{ideal}"
    );
    assert!(ideal.contains("RC3 q a2 1\n"), "{ideal}");
    assert!(ideal.contains("RC1 a2 0 1\n"), "{ideal}");
}

#[test]
fn circuitjs_export_has_a_three_way_switch_per_edge_set_to_the_position() {
    let text = stdout(&[
        "export",
        "circuitjs",
        "--size",
        "3",
        "--moves",
        "A5,c5",
        "--network",
        "reference",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("$ 1 "));
    let switches: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("S "))
        .collect();
    assert_eq!(switches.len(), 13);
    // Positions: middle = resistor, 0 = short, 2 = cut; A5 is the first edge, C5 the second.
    let position = |l: &str| l.split(' ').nth(6).unwrap().to_string();
    assert_eq!(position(switches[0]), "2");
    assert_eq!(position(switches[1]), "0");
    assert!(switches[2..].iter().all(|l| position(l) == "1"));
    assert_eq!(lines.iter().filter(|l| l.starts_with("370 ")).count(), 13);
    assert_eq!(lines.iter().filter(|l| l.starts_with("368 ")).count(), 1);
    // Reference: 30 kΩ pull-ups on the 6 internal nodes and the bottom terminal, each fed by
    // its own 5 V rail, plus the supply rail.
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("r ") && l.ends_with(" 30000"))
            .count(),
        7
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("R ")).count(), 8);
    assert!(!text.contains('+'), "CircuitJS splits tokens on '+'");
    // Every coordinate on the 16 px grid.
    for l in &lines[1..] {
        for c in l.split(' ').skip(1).take(4) {
            assert_eq!(c.parse::<i32>().unwrap() % 16, 0, "{l}");
        }
    }
    let ideal = stdout(&["export", "circuitjs", "--size", "3"]);
    assert_eq!(
        ideal.lines().filter(|l| l.starts_with("R ")).count(),
        1,
        "no pull-ups"
    );
}

/// Issue 17: a profile far outside the physical ranges (here a 1 mOhm switch, where the issue's
/// `on_ohms = 1e-300` panicked the solver) is refused naming the field, the value and the
/// range, by the commands that solve it and by the study before it makes its folder.
#[test]
fn an_out_of_range_profile_is_refused_before_anything_is_solved() {
    let path = scratch_file(
        "tiny-switch.toml",
        "base = \"nucleo-f446re\"\n[fixture]\nswitch_on_milliohms = 1\n",
    );
    let path = path.to_str().unwrap();
    let message = format!(
        "error: profile file {path}, line 3: fixture.switch_on_milliohms = 1 is out of range (100..=1000000)\n"
    );
    let out_dir = std::env::temp_dir().join(format!("birdcage-tiny-switch-{}", std::process::id()));
    let out_text = out_dir.to_str().unwrap();
    for args in [
        vec![
            "analyze", "--size", "4", "--moves", "A7,c5", "--board", path,
        ],
        vec!["next", "--size", "4", "--board", path],
        vec!["export", "spice", "--size", "4", "--board", path],
        vec!["study", "tolerance", "--board", path, "--out", out_text],
    ] {
        let out = birdcage(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8(out.stderr).unwrap(), message, "{args:?}");
    }
    assert!(!out_dir.exists(), "the study made its folder");
    for (name, text, said) in [
        (
            "empty-name.toml",
            "base = \"arduino-mega\"\nname = \" \"\n",
            "name is empty",
        ),
        (
            "huge.toml",
            "base = \"arduino-mega\"\n[resistors]\nnominal_ohms = 4000000000\n",
            "line 3: resistors.nominal_ohms = 4000000000 is out of range (100..=1000000)",
        ),
    ] {
        let file = scratch_file(name, text);
        assert_bad_input(
            &["analyze", "--size", "3", "--board", file.to_str().unwrap()],
            said,
        );
    }
}

/// Issue 17: a `--board` path that is missing, a directory or a fifo says what is wrong with
/// it; a name that is no path still lists the known boards.
#[test]
fn a_board_path_that_is_no_file_says_what_it_is() {
    let dir = std::env::temp_dir().join(format!("birdcage-board-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let missing = dir.join("missing.toml");
    let mut cases = vec![
        (missing.display().to_string(), "no such file".to_string()),
        (
            dir.display().to_string(),
            "is a directory, not a file".to_string(),
        ),
        ("nucleo.toml".to_string(), "no such file".to_string()),
    ];
    if made.is_ok_and(|s| s.success()) {
        let problem = "not a regular file (a fifo, socket or device)".to_string();
        cases.push((fifo.display().to_string(), problem));
    }
    for (path, problem) in cases {
        let out = birdcage(&["analyze", "--size", "3", "--board", &path]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("error: profile file {path}: {problem}\n")
        );
    }
    assert_bad_input(
        &["analyze", "--size", "3", "--board", "uno"],
        "error: unknown board `uno` (expected arduino-mega, nucleo-f446re or a profile file)",
    );
}
