//! `RunSpec` through the command line: every spec this strategy draws (every scenario, every
//! option) parses back from `to_args()` as itself, and two specs that differ in any one field
//! have different shard hashes. The strategy builds the struct field by field, so a new field
//! does not compile until it is drawn here too.

use std::path::PathBuf;

use bench::faults::glitches::{Kinds, Window};
use bench::{
    Config, Probe, RunSpec, ScenarioKind, Stage, config::GlitchOptions, dut::pil::Link,
    report::Depends, shard::seeds::BoardSeeds,
};
use clap::Parser;
use proptest::prelude::*;

/// The run's options alone, as `hil-tests run` flattens them.
#[derive(Debug, Parser)]
struct Cli {
    #[command(flatten)]
    spec: RunSpec,
}

fn parse(args: &[String]) -> Result<RunSpec, clap::Error> {
    let words = std::iter::once("run".to_string()).chain(args.iter().cloned());
    Cli::try_parse_from(words).map(|cli| cli.spec)
}

/// A word without spaces at its ends (the probe's parser trims), never `qemu` or `virtual`.
fn word() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9:/._-]{1,16}".prop_filter("a named probe", |w| {
        !w.eq_ignore_ascii_case("qemu")
            && !w.eq_ignore_ascii_case("virtual")
            && !w.starts_with("gdb:")
    })
}

/// Any finite number: the options' checks, not their parsing, bound them.
fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0..1e6f64,
        any::<f64>().prop_filter("finite", |v| v.is_finite())
    ]
}

fn config() -> impl Strategy<Value = Config> {
    let stage = prop::sample::select(Stage::ALL.to_vec());
    let probe = prop::option::of(prop_oneof![
        Just(Probe::Qemu),
        Just(Probe::Virtual),
        word().prop_map(Probe::Board),
    ]);
    let link = prop::option::of(prop::sample::select(Link::ALL.to_vec()));
    let elf = prop::option::of("[a-z/._-]{1,12}".prop_map(PathBuf::from));
    (
        (stage, probe, any::<bool>(), "[a-z0-9./ -]{0,12}", elf),
        (
            number(),
            link,
            prop::option::of(number()),
            prop::option::of(number()),
        ),
    )
        .prop_map(
            |((stage, probe, compare_sil, board, elf), (timeout_s, link, poll_ms, retry_ms))| {
                Config {
                    stage,
                    probe,
                    compare_sil,
                    board,
                    elf,
                    timeout_s,
                    link,
                    poll_ms,
                    retry_ms,
                }
            },
        )
}

fn scenario() -> impl Strategy<Value = ScenarioKind> {
    prop_oneof![
        Just(ScenarioKind::Tree3),
        Just(ScenarioKind::Random4),
        Just(ScenarioKind::Guided),
        Just(ScenarioKind::Faults),
        Just(ScenarioKind::Glitches),
        "[a-z0-9/._-]{1,12}".prop_map(|f| ScenarioKind::Records(f.into())),
    ]
}

fn glitches() -> impl Strategy<Value = GlitchOptions> {
    let window = (0u8..100, 1u8..=100).prop_filter_map("a window", |(from, to)| {
        format!("{from}..{to}").parse::<Window>().ok()
    });
    let kinds = prop::sample::subsequence(
        vec!["skip", "register", "sram", "adc", "fpu", "kept"],
        1..=6,
    )
    .prop_shuffle()
    .prop_map(|words| words.join(",").parse::<Kinds>().unwrap());
    (
        prop::option::of(1u64..=10_000_000),
        prop::option::of(window),
        prop::option::of(kinds),
        prop::option::of(0u64..=600_000),
    )
        .prop_map(|(trials, window, kinds, pace_ms)| GlitchOptions {
            trials,
            window,
            kinds,
            pace_ms,
        })
}

/// `--board-seed` and `--board-seeds` exclude each other on the command line.
fn boards() -> impl Strategy<Value = (Option<u64>, Option<BoardSeeds>)> {
    prop_oneof![
        Just((None, None)),
        any::<u64>().prop_map(|seed| (Some(seed), None)),
        (any::<u64>(), 0u64..10_000).prop_map(|(first, more)| {
            let last = first.saturating_add(more);
            (None, Some(BoardSeeds::new(first, last).unwrap()))
        }),
    ]
}

fn spec() -> impl Strategy<Value = RunSpec> {
    (
        config(),
        scenario(),
        boards(),
        prop::option::of(1u32..=u32::MAX),
        glitches(),
        any::<u64>(),
        prop::option::of(2u32..=8),
    )
        .prop_map(
            |(config, scenario, (board_seed, board_seeds), games, glitches, seed, size)| RunSpec {
                config,
                scenario,
                board_seed,
                board_seeds,
                games,
                glitches,
                seed,
                size,
            },
        )
}

fn hash(spec: &RunSpec) -> String {
    spec.job(&Depends::default(), Vec::new(), "0.0.0").spec
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_spec_parses_back_from_its_args(spec in spec()) {
        let args = spec.to_args().unwrap();
        let back = parse(&args).map_err(|e| TestCaseError::fail(format!("{args:?}: {e}")))?;
        prop_assert_eq!(back, spec, "{:?}", args);
    }

    /// Each field of `b` put alone into `a` (through the spec's JSON, whose keys are every
    /// field): the hash moves whenever the spec does.
    #[test]
    fn specs_that_differ_in_one_field_hash_differently(a in spec(), b in spec()) {
        let serde_json::Value::Object(a_json) = serde_json::to_value(&a).unwrap() else {
            unreachable!("a spec is a JSON object");
        };
        let serde_json::Value::Object(b_json) = serde_json::to_value(&b).unwrap() else {
            unreachable!("a spec is a JSON object");
        };
        for (field, value) in &b_json {
            let mut mixed = a_json.clone();
            prop_assert!(mixed.contains_key(field), "{field} is missing from one spec's JSON");
            mixed.insert(field.clone(), value.clone());
            let c: RunSpec = serde_json::from_value(serde_json::Value::Object(mixed)).unwrap();
            if c != a {
                prop_assert_ne!(hash(&c), hash(&a), "{} differs and the hash does not", field);
            }
        }
    }
}

/// Every scenario's spec, with every option its rules allow, round-trips: the proptest above
/// draws these too, this names them.
#[test]
fn every_scenario_round_trips() {
    for text in [
        "tree3",
        "random4",
        "guided",
        "faults",
        "glitches",
        "records:games.txt",
    ] {
        let spec = parse(&[
            "--stage=hil".into(),
            "--probe=virtual".into(),
            format!("--scenario={text}"),
            "--trials=7".into(),
            "--window=85..100".into(),
            "--kinds=kept,adc".into(),
            "--board-seeds=3..9".into(),
            "--games=2".into(),
            "--size=3".into(),
        ])
        .unwrap();
        assert_eq!(parse(&spec.to_args().unwrap()).unwrap(), spec, "{text}");
    }
}

/// The failure the round trip guards against: an option left out of the command.
#[test]
fn a_command_without_an_option_is_another_spec() {
    let spec = parse(&[
        "--stage=sil".into(),
        "--scenario=random4".into(),
        "--games=3".into(),
    ])
    .unwrap();
    let mut args = spec.to_args().unwrap();
    let at = args.iter().position(|a| a == "--games").unwrap();
    args.drain(at..at + 2);
    let back = parse(&args).unwrap();
    assert_ne!(back, spec);
    assert_ne!(hash(&back), hash(&spec));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// glitches.md's command, run again, draws the same trials: its words (after
    /// `hil-tests run`) parse into a spec of the same plan, board seed, scenario, stage and
    /// probe, so an option of the plan cannot be left out of it or written otherwise.
    #[test]
    fn the_glitch_report_s_command_parses_back_into_its_plan(
        glitches in glitches(),
        seed in any::<u64>(),
        board_seed in prop::option::of(any::<u64>()),
    ) {
        let mut spec = parse(&[
            "--stage=hil".into(),
            "--probe=virtual".into(),
            "--scenario=glitches".into(),
        ])
        .unwrap();
        spec.glitches = glitches;
        spec.seed = seed;
        spec.board_seed = board_seed;
        let command = bench::jobs::glitches::command(&spec);
        let words = command
            .strip_prefix("hil-tests run ")
            .expect("the command is hil-tests run's");
        let args: Vec<String> = words.split(' ').map(String::from).collect();
        let back = parse(&args).map_err(|e| TestCaseError::fail(format!("{command}: {e}")))?;
        prop_assert_eq!(back.glitch_plan(), spec.glitch_plan(), "{}", command);
        prop_assert_eq!(
            (back.board_seed, &back.scenario, back.config.stage, &back.config.probe),
            (spec.board_seed, &spec.scenario, spec.config.stage, &spec.config.probe),
            "{}",
            command
        );
    }
}

/// The command in the glitch report's snapshot (tests/formats.rs, which skips without the
/// board ELF and the virtual board) is the one written from that run's options, byte for
/// byte; with every option of the plan given, each is written after the plan's trials and
/// seed, in the order the reports have always had.
#[test]
fn the_glitch_report_s_command_is_the_snapshot_s() {
    let snapshot = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/snapshots/formats__glitches-glitches.md.snap"
    ))
    .unwrap();
    let written = snapshot
        .lines()
        .find_map(|l| l.strip_prefix('`')?.strip_suffix('`'))
        .expect("the snapshot has the command in backquotes");
    let args = [
        "--target",
        "hil",
        "--probe",
        "virtual",
        "--scenario",
        "glitches",
        "--trials",
        "12",
        "--seed",
        "4",
        "--kinds",
        "kept",
    ];
    let spec = parse(&args.map(String::from)).unwrap();
    assert_eq!(bench::jobs::glitches::command(&spec), written);
    let every = parse(
        &[
            "--stage=hil",
            "--probe=virtual",
            "--scenario=glitches",
            "--board-seed=9",
            "--pace-ms=300",
            "--kinds=adc,skip",
            "--window=85..100",
            "--seed=2",
        ]
        .map(String::from),
    )
    .unwrap();
    assert_eq!(
        bench::jobs::glitches::command(&every),
        "hil-tests run --stage hil --probe virtual --scenario glitches --trials 100 --seed 2 \
         --window 85..100 --kinds adc,skip --pace-ms 300 --board-seed 9"
    );
}
