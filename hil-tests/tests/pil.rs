//! PIL: the firmware compiled for Cortex-M4F in QEMU, against SIL on the same emulated board.
//! Runs when `qemu-system-arm` is installed (`.ci/run` installs it); says why it skips
//! otherwise. The firmware ELF is `BIRDCAGE_PIL_ELF`, or built once here.

use std::path::PathBuf;
use std::time::Duration;

use bench::{
    Class, Dut, DutError, Lockstep, PilOptions, Predictor, Scenario, Sil, dut::Lost, dut::pil::Pil,
    run::game::play_game, run::scenario::Script,
};
use emulator::emulated::Defect;
use firmware::protocol::{Command, Reply};
use heuristic::{Edge, Size};

mod common;

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;
const MEGA: &boards::Profile = &boards::ARDUINO_MEGA;

/// The QEMU firmware, or `None` when QEMU is not installed.
fn elf() -> Option<PathBuf> {
    common::qemu_elf()
}

fn pil(profile: &'static boards::Profile, size: Size, seed: Option<u64>) -> Option<Pil> {
    Some(Pil::start(&PilOptions::new(elf()?), profile, profile, size, seed).unwrap())
}

/// Runs `scenario` on SIL and PIL in lockstep; returns what was compared and the steps.
fn agree(
    profile: &'static boards::Profile,
    scenario: &Scenario,
    seed: Option<u64>,
) -> Option<(bench::dut::lockstep::Compared, bench::Tally)> {
    let sil = Sil::new(profile, scenario.size, seed).unwrap();
    let pil = pil(profile, scenario.size, seed)?;
    let mut both = Lockstep::new(sil, pil);
    let dir = tempfile::tempdir().unwrap();
    let report = common::played(profile, &mut both, scenario, seed, dir.path(), false)
        .unwrap_or_else(|e| panic!("{e}"));
    Some((both.compared(), report.tally().clone()))
}

#[test]
fn pil_and_sil_agree_on_every_position_of_the_m3_tree() {
    for (profile, seed) in [(NUCLEO, Some(3)), (MEGA, Some(4))] {
        let Some((compared, tally)) = agree(profile, &Scenario::tree(Size::M3), seed) else {
            return;
        };
        // Every position of the board's own tree: one measurement and one decision each. The
        // tree follows the machine's own cuts, so its size depends on the board drawn (981
        // and 1,000+ steps on these two); a sanity bound, the equalities below are the test.
        assert!(tally.steps > 900, "{tally:?}");
        assert!(compared.measurements >= tally.steps, "{compared:?}");
        assert!(compared.decisions >= tally.steps, "{compared:?}");
        assert_eq!(tally.count(Class::Fault) + tally.count(Class::Wiring), 0);
    }
}

#[test]
fn pil_and_sil_agree_on_ten_thousand_m4_positions() {
    let scenario = Scenario::random(Size::M4, 1900, 20_261_121);
    let Some((compared, tally)) = agree(NUCLEO, &scenario, Some(5)) else {
        return;
    };
    assert!(tally.steps >= 10_000, "{tally:?}");
    assert!(compared.measurements >= 10_000, "{compared:?}");
    assert!(compared.decisions >= 10_000, "{compared:?}");
}

#[test]
fn the_firmware_logs_in_defmt_and_the_bench_decodes_it() {
    let Some(mut pil) = pil(NUCLEO, Size::M4, None) else {
        return;
    };
    common::first_move(&mut pil);
    // Logs come on QEMU's stdout, frames on its stderr: two pipes, two reader threads, so the
    // log line of a move may arrive after the move's reply on a loaded machine. Wait for it.
    let mut logs = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !logs.iter().any(|l: &String| l.contains("Cut plays"))
        && std::time::Instant::now() < deadline
    {
        logs.extend(pil.logs());
        std::thread::sleep(Duration::from_millis(20));
    }
    let logs = logs.join("\n");
    assert!(logs.contains("in QEMU as nucleo-f446re"), "{logs}");
    assert!(logs.contains("Cut plays A1"), "{logs}");
}

fn crashed(args: &[&str], timeout: Duration) -> Option<String> {
    let mut options = PilOptions::new(elf()?);
    options.args = args.iter().map(|a| a.to_string()).collect();
    options.timeout = timeout;
    let mut pil = Pil::start(&options, NUCLEO, NUCLEO, Size::M4, None).unwrap();
    for command in [Command::Identify, Command::NewGame, Command::Decide] {
        if let Err(e) = pil.exchange(command) {
            return Some(e.to_string());
        }
    }
    panic!("the firmware was asked to fail and did not");
}

#[test]
fn a_crash_is_reported_with_the_exit_code_and_the_last_log_lines() {
    let Some(error) = crashed(&["panic-at=2"], Duration::from_secs(10)) else {
        return;
    };
    assert!(
        error.contains("the firmware panicked (exit code 101)"),
        "{error}"
    );
    assert!(error.contains("asked to panic at command 2"), "{error}");
    assert!(error.contains("in QEMU as nucleo-f446re"), "{error}");
}

#[test]
fn a_hang_is_reported_as_a_timeout() {
    let Some(error) = crashed(&["hang-at=3"], Duration::from_millis(500)) else {
        return;
    };
    assert!(
        error.contains("no answer to command 2 within 500ms"),
        "{error}"
    );
    assert!(error.contains("asked to hang at command 3"), "{error}");
}

#[test]
fn a_missing_firmware_file_is_a_clear_error() {
    let options = PilOptions::new("/nonexistent/firmware-qemu");
    let error = Pil::start(&options, NUCLEO, NUCLEO, Size::M4, None).unwrap_err();
    assert!(
        matches!(&error, DutError::Lost(lost @ Lost::Elf { .. })
            if lost.to_string().contains("/nonexistent/firmware-qemu")),
        "{error}"
    );
}

#[test]
fn an_open_resistor_in_qemu_is_reported_as_a_fault() {
    let Some(pil) = pil(NUCLEO, Size::M4, None) else {
        return;
    };
    pil.emulated_cage()
        .inject(Defect::Open(Edge::new(Size::M4, 3, 5).unwrap()))
        .unwrap();
    let mut pil = pil;
    let predictor = Predictor::new(NUCLEO, Size::M4);
    let mut faults = 0;
    for seed in 0..5 {
        let mut steps = Vec::new();
        play_game(
            &mut pil,
            &predictor,
            Size::M4,
            0,
            &Script::Random(seed),
            &mut |s| steps.push(s),
        )
        .unwrap();
        for s in steps {
            assert!(!s.class.diverges(), "reported as a move divergence: {s:?}");
            faults += usize::from(s.class.is_fault());
        }
    }
    assert!(faults > 0, "the open resistor went unnoticed");
}

/// The fault campaign finds the same on the compiled firmware: every fault of every kind at
/// every place of both cages, each verdict and move count alike.
#[test]
fn pil_finds_the_same_faults_as_sil() {
    for size in [Size::M3, Size::M4] {
        let Some(mut pil) = pil(NUCLEO, size, None) else {
            return;
        };
        let mut sil = Sil::new(NUCLEO, size, None).unwrap();
        let go = &mut |_, _| std::ops::ControlFlow::Continue(());
        let on_pil = bench::faults::fault_campaign(&mut pil, NUCLEO, size, go).unwrap();
        let on_sil = bench::faults::fault_campaign(&mut sil, NUCLEO, size, go).unwrap();
        assert_eq!(on_pil.stage, bench::Setup::Alone(bench::Stage::Pil));
        assert_eq!(on_pil.trials.len(), on_pil.planned);
        assert_eq!(on_pil.reference, on_sil.reference, "M={size}");
        assert_eq!(on_pil.trials, on_sil.trials, "M={size}");
        assert_eq!(
            bench::faults::table::fault_table(&on_pil.trials),
            bench::faults::table::fault_table(&on_sil.trials)
        );
    }
}

/// Ctrl-C reaches QEMU too (same terminal, same process group unless the bench moves it):
/// the bench must still stop between games, with its PIL target answering.
#[test]
fn the_cli_runs_pil_in_lockstep_with_sil_stops_cleanly_on_ctrl_c_and_resumes() {
    let Some(elf) = elf() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let run = || {
        let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_hil-tests"));
        run.args(["run", "--target", "pil", "--compare-sil"])
            .args([
                "--scenario",
                "random4",
                "--games",
                "60",
                "--board-seed",
                "2",
            ])
            .arg("--elf")
            .arg(&elf)
            .arg("--out")
            .arg(&out);
        run
    };
    let stopped = common::interrupted(run(), &out);
    let stderr = String::from_utf8(stopped.stderr).unwrap();
    assert_eq!(stopped.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: stopped after game "), "{stderr}");
    assert!(!stderr.contains("QEMU"), "{stderr}");
    let stdout = String::from_utf8(stopped.stdout).unwrap();
    assert!(stdout.contains("**INTERRUPTED**"), "{stdout}");

    let resumed = run().arg("--resume").output().unwrap();
    let stdout = String::from_utf8(resumed.stdout).unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(stdout.starts_with("# SIL=PIL bench: random4"), "{stdout}");
    assert!(stdout.contains("60 of 60 planned games played"), "{stdout}");
    assert!(stdout.contains("SIL and PIL agreed on all "), "{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("passed: ") && last.contains(" commands of PIL equal to SIL, none of "),
        "{stdout}"
    );
}

/// A frame of `command` numbered `seq`, delimiter included.
fn frame(seq: u16, command: Command) -> Vec<u8> {
    bench::encode_command(seq, command).unwrap()
}

/// The firmware in QEMU survives its link: garbage, torn and oversized frames, valid frames
/// with repeated and out-of-turn numbers, and a flood sent in one write. It answers each
/// frame exactly once (a frame it cannot read with an error numbered NO_SEQ), never hangs,
/// and a game played afterwards is, step for step, the game played without the noise.
#[test]
fn the_firmware_in_qemu_survives_garbage_torn_frames_and_a_flood() {
    use rand::{Rng, SeedableRng};
    let Some(mut clean) = pil(NUCLEO, Size::M4, Some(7)) else {
        return;
    };
    let predictor = Predictor::new(NUCLEO, Size::M4);
    let game = |target: &mut Pil| {
        let mut steps = Vec::new();
        play_game(
            target,
            &predictor,
            Size::M4,
            0,
            &Script::Random(11),
            &mut |s| steps.push(s),
        )
        .unwrap();
        steps
    };
    let reference = game(&mut clean);
    assert!(reference.len() >= 3, "{reference:?}");

    let mut noisy = pil(NUCLEO, Size::M4, Some(7)).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let identify = frame(40_000, Command::Identify);
    let mut noise: Vec<u8> = (0..4000).map(|_| rng.random()).collect();
    noise.push(0);
    noise.extend_from_slice(&identify[..identify.len() / 2]); // torn: cut, then a delimiter
    noise.push(0);
    noise.extend(std::iter::repeat_n(
        0x55u8,
        3 * firmware::protocol::MAX_FRAME,
    )); // oversized
    noise.push(0);
    // Numbers far from the bench's own (it counts from 0), so that its closing `Identify` is
    // told apart: a repeated one, the highest, and odd ones.
    let mut valid = vec![
        40_000u16,
        40_000,
        firmware::protocol::NO_SEQ - 1,
        30_001,
        20_007,
    ];
    for &seq in &valid {
        let command = if seq % 2 == 0 && seq < 50_000 {
            Command::Identify
        } else {
            Command::Status
        };
        noise.extend(frame(seq, command));
    }
    // A flood: a thousand frames in one write, far faster than the firmware answers.
    let flood: Vec<u16> = (50_000..51_000).collect();
    for &seq in &flood {
        noise.extend(frame(seq, Command::Status));
    }
    valid.extend(&flood);
    // Every non-empty run of bytes between zeros is one frame to answer, read or not.
    let frames = noise.split(|&b| b == 0).filter(|f| !f.is_empty()).count();

    let replies = noisy.noise(&noise).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replies.len(), frames);
    let answered: Vec<u16> = replies
        .iter()
        .map(|(seq, _)| *seq)
        .filter(|&seq| seq != firmware::protocol::NO_SEQ)
        .collect();
    assert_eq!(answered, valid, "every valid frame answered once, in order");
    for (seq, reply) in &replies {
        match reply {
            Reply::Error(_) => assert_eq!(*seq, firmware::protocol::NO_SEQ),
            Reply::Identity(_) => assert_eq!(seq % 2, 0, "{reply:?}"),
            Reply::Status(_) => assert!(seq % 2 == 1 || *seq >= 50_000, "{reply:?}"),
            other => panic!("{seq}: {other:?}"),
        }
    }
    let errors = replies.len() - answered.len();
    assert!(errors >= 3, "{errors} error replies");
    assert_eq!(game(&mut noisy), reference);
}
