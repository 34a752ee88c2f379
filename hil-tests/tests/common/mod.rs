//! What more than one test binary needs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Runs the bench `command` in a process group of its own, and once its report in `out` holds
/// a finished game, sends the whole group SIGINT, as a terminal's Ctrl-C does.
#[allow(dead_code)] // Not every test binary that shares this module interrupts a run.
pub fn interrupted(command: Command, out: &Path) -> Output {
    signalled(command, out, "INT")
}

/// As [`interrupted`], with `signal` (`INT`, `TERM`, `HUP`) sent to the run's process group.
#[allow(dead_code)]
pub fn signalled(mut command: Command, out: &Path, signal: &str) -> Output {
    use std::os::unix::process::CommandExt;
    let mut child = command
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let steps = out.join("steps.jsonl");
    while !std::fs::read_to_string(&steps).is_ok_and(|t| t.contains("\"game_end\"")) {
        // A run that ended before its first game is what failed, not the wait: say why.
        if child.try_wait().unwrap().is_some() {
            let ended = child.wait_with_output().unwrap();
            panic!(
                "the run ended before a game finished ({}): {}",
                ended.status,
                String::from_utf8_lossy(&ended.stderr)
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no game finished in a minute"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let group = format!("-{}", child.id());
    let kill = Command::new("kill")
        .args([&format!("-{signal}"), "--", &group])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait_with_output().unwrap()
}

/// Identifies `target`, opens its report in `dir` (resuming what is there when asked) and
/// plays every game of `scenario` on `profile`; the report is left for the test to finish.
#[allow(dead_code)] // Not every test binary that shares this module plays a campaign.
pub fn played(
    profile: &'static boards::Profile,
    target: &mut dyn bench::Dut,
    scenario: &bench::Scenario,
    board_seed: Option<u64>,
    dir: &Path,
    resume: bool,
) -> Result<bench::Report, bench::PlayError> {
    let header = bench::header(target, profile, scenario, board_seed)?;
    let mut report = bench::Report::open(dir, header, existing(resume))?;
    bench::play_scenario(target, profile, scenario, &mut report, &mut |_, _| {
        std::ops::ControlFlow::Continue(())
    })?;
    Ok(report)
}

/// `--resume` or not, as `Report::open` takes it (a test's fresh folder never holds a report).
#[allow(dead_code)]
pub fn existing(resume: bool) -> bench::Existing {
    if resume {
        bench::Existing::Resume
    } else {
        bench::Existing::Refuse
    }
}

/// The QEMU firmware, or `None` (and why, printed) when QEMU is not installed.
#[allow(dead_code)] // Only the test binaries that run QEMU use it.
pub fn qemu_elf() -> Option<PathBuf> {
    static ELF: OnceLock<Option<PathBuf>> = OnceLock::new();
    ELF.get_or_init(|| {
        if !bench::qemu_available() {
            needs::skip("qemu", format!("{} not installed", bench::QEMU));
            return None;
        }
        Some(bench::firmware_elf().unwrap_or_else(|e| panic!("{e}")))
    })
    .clone()
}

/// Identifies the firmware (which must say it runs on the NUCLEO profile), starts a game and
/// checks the machine's first decision is a move.
#[allow(dead_code)] // Only the test binaries that run QEMU use it.
pub fn first_move(target: &mut dyn bench::Dut) {
    use firmware::protocol::{Command, Reply};
    let Reply::Identity(id) = target.exchange(Command::Identify).unwrap() else {
        panic!("identify answers an identity");
    };
    assert_eq!(id.board.as_str(), "nucleo-f446re");
    target.exchange(Command::NewGame).unwrap();
    let reply = target.exchange(Command::Decide).unwrap();
    assert!(
        matches!(reply, Reply::Turn(firmware::Outcome::Move(_))),
        "{reply:?}"
    );
}

/// A JUnit file's text with what a run cannot repeat masked: the clock (`timestamp`, `time`)
/// and the build (the `version` and `elf_sha256` properties' lines).
#[allow(dead_code)] // Only the test binaries that pin a JUnit file use it.
pub fn junit_masked(xml: &str) -> String {
    let mut text = xml.to_string();
    for attribute in ["timestamp", "time"] {
        let mut out = String::new();
        let mut rest = text.as_str();
        let key = format!(" {attribute}=\"");
        while let Some(at) = rest.find(&key) {
            let start = at + key.len();
            out.push_str(&rest[..start]);
            out.push_str("[masked]");
            rest = &rest[start..];
            rest = &rest[rest.find('"').unwrap()..];
        }
        out.push_str(rest);
        text = out;
    }
    text.lines()
        .map(|l| {
            match ["version", "elf_sha256"]
                .into_iter()
                .find(|name| l.contains(&format!("name=\"{name}\"")))
            {
                Some(name) => format!("[{name} property masked]"),
                None => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` with what moves with the folder the firmware is built in masked: `0x` and hex
/// digits as `0x[hex]`, a run of six or more digits as `N`.
#[allow(dead_code)] // Only the test binaries that pin the board binary's reports use it.
pub fn build_masked(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '0' && chars.get(i + 1) == Some(&'x') {
            let n = chars[i + 2..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
            if n > 0 {
                out.push_str("0x[hex]");
                i += 2 + n;
                continue;
            }
        }
        if chars[i].is_ascii_digit() {
            let n = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if n >= 6 {
                out.push('N');
            } else {
                out.extend(&chars[i..i + n]);
            }
            i += n;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}
