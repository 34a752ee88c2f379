//! PIL over RTT: the firmware in QEMU on the board's RTT layout, its ring buffers read and
//! written through QEMU's gdbstub. Runs when `qemu-system-arm` is installed (`.ci/run`
//! installs it); says why it skips otherwise. The firmware ELF is `BIRDCAGE_PIL_ELF`, or built
//! once here.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::PathBuf;
use std::time::Duration;

use bench::{
    Class, Dut, Lockstep, PilOptions, Scenario, Sil, dut::pil::RttPil, dut::retry::Polling,
    dut::retry::RetryStats,
};
use firmware::protocol::Command;
use heuristic::Size;

mod common;

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;

/// The QEMU firmware, or `None` when QEMU is not installed.
fn elf() -> Option<PathBuf> {
    common::qemu_elf()
}

fn rtt(args: &[&str], polling: Polling, size: Size, seed: Option<u64>) -> Option<RttPil> {
    let mut options = PilOptions::new(elf()?);
    options.args = args.iter().map(|a| a.to_string()).collect();
    Some(
        RttPil::start(&options, polling, NUCLEO, NUCLEO, size, seed)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Plays `scenario` on SIL and on `pil` in lockstep (every reply compared); returns what was
/// compared, the tally and what the link went through.
fn agree(
    pil: RttPil,
    scenario: &Scenario,
    seed: Option<u64>,
) -> (
    bench::dut::lockstep::Compared,
    bench::Tally,
    RetryStats,
    Vec<String>,
) {
    let sil = Sil::new(NUCLEO, scenario.size, seed).unwrap();
    let mut both = Lockstep::new(sil, pil);
    let dir = tempfile::tempdir().unwrap();
    let report = common::played(NUCLEO, &mut both, scenario, seed, dir.path(), false)
        .unwrap_or_else(|e| panic!("{e}"));
    let logs = both.b.logs();
    (
        both.compared(),
        report.tally().clone(),
        both.b.stats(),
        logs,
    )
}

#[test]
fn the_firmware_declares_the_boards_rtt_layout_and_answers_over_it() {
    let Some(mut pil) = rtt(&[], Polling::default(), Size::M4, None) else {
        return;
    };
    let block = pil.control_block().clone();
    let names = |channels: &[gdb_probe::rtt::Channel]| {
        channels
            .iter()
            .map(|c| (c.name.clone(), c.size as usize, c.mode))
            .collect::<Vec<_>>()
    };
    // The sizes and modes are firmware::rtt's: what the board binary declares too. Mode 0 is
    // NoBlockSkip, 2 BlockIfFull (SEGGER's RTT flags).
    assert_eq!(
        names(&block.up),
        [
            ("defmt".to_string(), firmware::rtt::DEFMT_UP_SIZE, 0),
            ("bench".to_string(), firmware::rtt::BENCH_UP_SIZE, 0),
            ("adc".to_string(), firmware::rtt::ADC_SIZE, 2),
        ]
    );
    assert_eq!(
        names(&block.down),
        [
            ("bench".to_string(), firmware::rtt::BENCH_DOWN_SIZE, 0),
            ("adc".to_string(), firmware::rtt::ADC_SIZE, 0),
        ]
    );
    common::first_move(&mut pil);
    // defmt comes up channel 0 in the same polls as the replies.
    let logs = pil.logs().join("\n");
    assert!(logs.contains("in QEMU as nucleo-f446re"), "{logs}");
    assert!(logs.contains("Cut plays A1"), "{logs}");
    assert_eq!(pil.stats().rerequests, 0, "{:?}", pil.stats());
}

#[test]
fn rtt_and_sil_agree_reply_for_reply_on_random_m4_games() {
    let Some(pil) = rtt(&[], Polling::default(), Size::M4, Some(5)) else {
        return;
    };
    let (compared, tally, stats, _) = agree(pil, &Scenario::random(Size::M4, 4, 7), Some(5));
    assert!(tally.steps >= 20, "{tally:?}");
    assert!(compared.decisions >= tally.steps, "{compared:?}");
    assert_eq!(tally.count(Class::Fault) + tally.count(Class::Wiring), 0);
    assert_eq!(stats.rerequests, 0, "{stats:?}");
}

#[test]
fn a_dropped_reply_is_asked_for_again_and_the_game_goes_on_as_on_sil() {
    // The firmware drops its 5th reply as a full NoBlockSkip channel would (`drop-reply=5`).
    let polling = Polling {
        retry: Duration::from_millis(200),
        ..Polling::default()
    };
    let Some(pil) = rtt(&["drop-reply=5"], polling, Size::M4, Some(6)) else {
        return;
    };
    let (compared, tally, stats, logs) = agree(pil, &Scenario::random(Size::M4, 2, 8), Some(6));
    assert!(compared.decisions >= tally.steps, "{compared:?}");
    assert_eq!(stats.dropped, 1, "{stats:?}");
    // The dropped reply came after its repeat; on a loaded machine a reply merely slower than
    // the 200 ms retry is repeated and recovered too, so at least one, and never more
    // recoveries than repeats.
    assert!(stats.recovered >= 1, "{stats:?}");
    assert!(stats.rerequests >= stats.recovered, "{stats:?}");
    let logs = logs.join("\n");
    assert!(logs.contains("asked to drop reply 5"), "{logs}");
    assert!(logs.contains("again: its reply again"), "{logs}");
}

#[test]
fn slowed_polling_with_eager_repeats_plays_as_sil_and_drops_nothing() {
    // The bench polls every 20 ms and sends a command again after 5 ms without its reply: every
    // command that makes the firmware sample (its ADC waits a poll per request) is repeated,
    // the repeats pile up in the down channel and their answers in the up channel. A repeat
    // carried out twice (a second cut) would part from SIL.
    let polling = Polling {
        interval: Duration::from_millis(20),
        retry: Duration::from_millis(5),
    };
    let Some(pil) = rtt(&[], polling, Size::M3, Some(7)) else {
        return;
    };
    let sil = Sil::new(NUCLEO, Size::M3, Some(7)).unwrap();
    let mut both = Lockstep::new(sil, pil);
    let dir = tempfile::tempdir().unwrap();
    let scenario = Scenario::random(Size::M3, 2, 9);
    let report = common::played(NUCLEO, &mut both, &scenario, Some(7), dir.path(), false)
        .unwrap_or_else(|e| panic!("{e}"));
    let (compared, tally) = (both.compared(), report.tally().clone());
    // One more command, answered at once, after every repeat still waiting down: by its reply
    // the firmware has answered them all.
    std::thread::sleep(Duration::from_millis(100));
    both.b.exchange(Command::Identify).unwrap();
    let stats = both.b.stats();
    eprintln!("slowed polling: {stats:?}, {compared:?}");
    assert!(compared.decisions >= tally.steps, "{compared:?}");
    assert!(stats.rerequests > 20, "{stats:?}");
    // Every repeat was answered with a copy, so none was dropped: one command at a time,
    // 128-byte replies and a 129-byte down channel never make more answers than the 512-byte
    // up channel holds (hil-tests/README.md).
    assert_eq!(stats.stale, stats.rerequests, "{stats:?}");
    assert_eq!(stats.dropped, 0, "{stats:?}");
}

/// `hil-tests doctor` with `args`, on the QEMU firmware unless `args` name an `--elf`.
fn doctor(args: &[&str]) -> Option<std::process::Output> {
    let elf = elf()?;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_hil-tests"));
    command.arg("doctor").args(args);
    if !args.contains(&"--elf") {
        command.args(["--elf", elf.to_str().unwrap()]);
    }
    Some(command.output().unwrap())
}

#[test]
fn doctor_brings_up_the_firmware_in_qemu_one_line_per_step() {
    let Some(out) = doctor(&["--probe", "qemu"]) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let steps: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") || l.starts_with("skip ") || l.starts_with("FAIL "))
        .collect();
    for step in [
        "probe found: QEMU's gdbstub",
        "chip matches the profile: QEMU's mps2-an386 (Cortex-M4F) stands in for STM32F446RETx",
        "ELF flashed",
        "RTT control block found: at 0x",
        "firmware version read back: ",
        "bench channel answering",
        "self-check (new game, size detected): M=4 detected",
        "edge fixture probe: no edge fixture answers",
        "start position's codes in the profile's band: 14 nodes within",
        "defmt channel answering",
    ] {
        assert!(steps.iter().any(|l| l.contains(step)), "{step}\n{stdout}");
    }
    assert!(stdout.contains(&format!("{} on nucleo-f446re", firmware::VERSION)));
    assert!(stdout.contains("\"bench\" 512 B"), "{stdout}");
    assert_eq!(steps.len(), 10, "{stdout}");
}

#[test]
fn doctor_says_which_step_fails_and_what_to_do() {
    // A file that is no firmware, a folder, a missing file: the steps before pass, the ELF
    // step fails naming the file and the fix, no target is "lost", and the steps after are
    // not run. No firmware is needed: the ELF is refused before QEMU starts.
    let dir = tempfile::tempdir().unwrap();
    let not_elf = dir.path().join("firmware.elf");
    std::fs::write(&not_elf, b"not an ELF").unwrap();
    let missing = dir.path().join("missing.elf");
    for (elf, says) in [
        (not_elf.as_path(), "is not an ELF file"),
        (dir.path(), "is a directory, not a file"),
        (missing.as_path(), "no such file"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hil-tests"))
            .args(["doctor", "--elf", elf.to_str().unwrap()])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if stdout.contains("is not installed") {
            needs::skip("qemu", "no QEMU");
            return;
        }
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        let flashed = stdout
            .lines()
            .find(|l| l.starts_with("FAIL  ELF flashed"))
            .unwrap_or_else(|| panic!("{stdout}"));
        assert!(
            flashed.contains(&format!("{} {says}", elf.display()))
                || flashed.contains(&format!("{}: {says}", elf.display())),
            "{stdout}"
        );
        assert!(!stdout.contains("lost"), "{stdout}");
        assert!(
            stdout.contains("what to do: pass the firmware-qemu ELF"),
            "{stdout}"
        );
        assert!(stdout.contains("1 of 3 steps failed."), "{stdout}");
    }
}
