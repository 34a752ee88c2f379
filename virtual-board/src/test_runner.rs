//! `virtual-board test`: the host side of embedded-test (the probe-rs project's on-target test
//! harness, protocol version 1, embedded-test 0.7) on the virtual board, as `probe-rs run`
//! does it with a probe: the tests are read from the ELF, and each runs from its own reset.
//!
//! The ELF lists its tests in the `.embedded_test` section (an INFO section that
//! `embedded-test.x` keeps): `EMBEDDED_TEST_VERSION` (a word, 1), and one 12-byte symbol per
//! test, whose name is a JSON object (`name`, `ignored`, `should_panic`, `timeout`) and whose
//! bytes are the test's entry point, and the address and length of its module path. After a
//! reset the firmware asks for its command line (`SYS_GET_CMDLINE`): the runner answers
//! `run_addr <entry point>`, and the test ends with `SYS_EXIT(_EXTENDED)`: status 0 passed,
//! anything else failed (embedded-test's panic handler and an `Err` return both abort).
//!
//! The output is libtest's (what `cargo test` shows on the host), with the test's defmt log
//! (RTT up channel 0) under a failure; the exit status is libtest's: 0, or 101 when a test
//! failed. A timeout is in virtual seconds (84 million core cycles), so a hanging test ends
//! the same on every machine.

use std::io::Write;
use std::time::Instant;

use object::{Object, ObjectSection, ObjectSymbol};

use crate::clock::PER_SECOND;
use crate::cpu::{Core, Ran};
use crate::elf::Elf;
use crate::log::Log;
use crate::semihosting::{self, Call};
use crate::stop::Stop;

/// The output section `embedded-test.x` gathers the tests into.
const SECTION: &str = ".embedded_test";
/// The symbol whose word is the protocol's version.
const VERSION_SYMBOL: &str = "EMBEDDED_TEST_VERSION";
/// The one version spoken: embedded-test 0.7's (the test chooses itself by its address).
const VERSION: u32 = 1;
/// embedded-test's default timeout (its README: 60 s).
const DEFAULT_TIMEOUT_S: u32 = 60;
/// Cycles per run slice: the defmt log is read and the timeout checked between slices.
const SLICE: u64 = PER_SECOND / 100;
/// libtest's exit status when a test failed.
const FAILED: u8 = 101;

/// One test of the ELF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCase {
    /// `module::function`, the crate's name left out (as libtest names them).
    pub name: String,
    /// `#[ignore]`.
    pub ignored: bool,
    /// `#[should_panic]`.
    pub should_panic: bool,
    /// `#[timeout(s)]`, else embedded-test's default.
    pub timeout_s: u32,
    /// The entry point the firmware is told to call (Thumb bit set).
    pub entry: u32,
}

/// Why an ELF has no tests the runner can run.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    /// No `.embedded_test` section or no version: not an embedded-test binary.
    #[error(
        "{0} has no embedded-test tests (no `{SECTION}` section with `{VERSION_SYMBOL}`): build \
         a test target that uses `#[embedded_test::tests]` and links `-Tembedded-test.x`"
    )]
    NotATestBinary(String),
    /// Another version of the protocol.
    #[error(
        "{path} speaks embedded-test protocol version {version}; this runner speaks version \
         {VERSION} (embedded-test 0.7)"
    )]
    Version {
        /// The ELF.
        path: String,
        /// Its version.
        version: u32,
    },
    /// A test symbol that does not read.
    #[error("{path}: test symbol {symbol:?} does not read: {why}")]
    Symbol {
        /// The ELF.
        path: String,
        /// The symbol's name.
        symbol: String,
        /// What is wrong.
        why: String,
    },
}

#[derive(serde::Deserialize)]
struct Meta {
    name: String,
    ignored: bool,
    should_panic: bool,
    timeout: Option<u32>,
}

/// The tests of `elf`, in name order.
pub fn list(path: &str, elf: &Elf) -> Result<Vec<TestCase>, ListError> {
    let not_tests = || ListError::NotATestBinary(path.to_string());
    let file = object::File::parse(&*elf.bytes).map_err(|_| not_tests())?;
    let section = file.section_by_name(SECTION).ok_or_else(not_tests)?;
    let data = section.data().map_err(|_| not_tests())?;
    let base = section.address();
    let word_at = |address: u64| -> Option<u32> {
        let at = usize::try_from(address.checked_sub(base)?).ok()?;
        let b = data.get(at..at + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let version = file
        .symbols()
        .find(|s| s.name() == Ok(VERSION_SYMBOL))
        .and_then(|s| word_at(s.address()))
        .ok_or_else(not_tests)?;
    if version != VERSION {
        return Err(ListError::Version {
            path: path.to_string(),
            version,
        });
    }
    let mut tests = Vec::new();
    for symbol in file.symbols() {
        if symbol.section_index() != Some(section.index()) || symbol.size() != 12 {
            continue;
        }
        let Ok(raw) = symbol.name() else { continue };
        let bad = |why: &str| ListError::Symbol {
            path: path.to_string(),
            symbol: raw.to_string(),
            why: why.to_string(),
        };
        let meta: Meta = serde_json::from_str(raw).map_err(|e| bad(&e.to_string()))?;
        let words = (0..3)
            .map(|i| word_at(symbol.address() + 4 * i))
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(|| bad("its bytes are outside the section"))?;
        let module = read_flash(elf, words[1], words[2])
            .ok_or_else(|| bad("its module path is outside the loaded image"))?;
        // `krate::module`: libtest leaves the crate's name out.
        let module = module.split_once("::").map_or("", |(_, rest)| rest);
        let name = if module.is_empty() {
            meta.name
        } else {
            format!("{module}::{}", meta.name)
        };
        tests.push(TestCase {
            name,
            ignored: meta.ignored,
            should_panic: meta.should_panic,
            timeout_s: meta.timeout.unwrap_or(DEFAULT_TIMEOUT_S),
            entry: words[0],
        });
    }
    tests.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tests)
}

/// `len` bytes at `address` of the ELF's loaded segments, as UTF-8.
fn read_flash(elf: &Elf, address: u32, len: u32) -> Option<String> {
    elf.segments.iter().find_map(|(start, bytes)| {
        let at = usize::try_from(address.checked_sub(*start)?).ok()?;
        let text = bytes.get(at..at.checked_add(len as usize)?)?;
        String::from_utf8(text.to_vec()).ok()
    })
}

/// libtest's options that the runner honours (the rest are accepted and ignored, as a cargo
/// runner must take what `cargo test -- ...` passes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Substrings (or exact names with `--exact`) a test's name must match; none: all.
    pub filters: Vec<String>,
    /// `--skip`.
    pub skip: Vec<String>,
    /// `--exact`.
    pub exact: bool,
    /// `--list`.
    pub list: bool,
    /// `--ignored`: only the ignored tests.
    pub ignored: bool,
    /// `--include-ignored`.
    pub include_ignored: bool,
    /// `--nocapture`: every test's log as it runs, not only a failure's.
    pub nocapture: bool,
}

impl Options {
    /// Parses libtest's arguments; `Err` names one it does not know.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--exact" => o.exact = true,
                "--list" => o.list = true,
                "--ignored" => o.ignored = true,
                "--include-ignored" => o.include_ignored = true,
                "--nocapture" | "--no-capture" => o.nocapture = true,
                "--skip" => o
                    .skip
                    .push(args.next().ok_or("--skip needs a name")?.clone()),
                // Accepted for cargo's sake; one core, one order, one format.
                "-q" | "--quiet" | "--show-output" | "--color=never" | "--color=auto"
                | "--color=always" => {}
                "--test-threads" | "--format" | "--color" | "-Z" => {
                    args.next();
                }
                a if a.starts_with("--test-threads=") || a.starts_with("--format=") => {}
                a if a.starts_with('-') => {
                    return Err(format!("unknown test option {a:?}"));
                }
                filter => o.filters.push(filter.to_string()),
            }
        }
        Ok(o)
    }

    fn selects(&self, name: &str) -> bool {
        let matches = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skip.iter().any(|s| name.contains(s.as_str()))
    }
}

/// How one test ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It passed.
    Passed,
    /// It failed: why (one line).
    Failed(String),
}

/// Runs one test from a reset; its defmt lines go to `log_out`.
pub fn run_one(
    core: &mut Core<'_>,
    elf: &Elf,
    test: &TestCase,
    log_out: &mut dyn FnMut(String),
) -> Outcome {
    if let Err(e) = core.reset() {
        return Outcome::Failed(format!("the core does not reset: {e}"));
    }
    let mut log = Log::new(elf);
    let start = core.state().board.cycles;
    let limit = u64::from(test.timeout_s) * PER_SECOND;
    let cmdline = format!("run_addr {}", test.entry);
    let mut asked = false;
    let mut output = Vec::new();
    let ended = loop {
        let elapsed = core.state().board.cycles - start;
        if elapsed >= limit {
            break Err(format!(
                "timed out after {} s of virtual time (`#[timeout({})]`): the test hangs",
                test.timeout_s, test.timeout_s
            ));
        }
        let result = core.run(SLICE.min(limit - elapsed), elf);
        for line in log.lines(core) {
            log_out(line);
        }
        match result {
            Ok(Ran::Slice) => {}
            Ok(Ran::Reset(crate::board::ResetCause::Software)) => {
                break Err("the firmware reset the core (SYSRESETREQ) during the test".into());
            }
            Ok(Ran::Reset(crate::board::ResetCause::Watchdog)) => {
                break Err("the independent watchdog (IWDG) reset the core during the test".into());
            }
            Ok(Ran::Sleeps) => {
                break Err("the core sleeps (WFI) and no interrupt is modelled".into());
            }
            // Only a debugger sets these (`serve`): no debugger is attached to a test.
            Ok(Ran::Breakpoint | Ran::Watched(_)) => {
                break Err("the core halted at a debugger's breakpoint or watchpoint".into());
            }
            Err(Stop::Breakpoint { imm: 0xAB, .. }) => {
                let cs = ((core.state().board.cycles - start) / (PER_SECOND / 100)) as u32;
                match semihosting::serve(core, &cmdline, cs) {
                    Ok(Call::CommandLine) if asked => {
                        break Err("the firmware asked for its command line twice".into());
                    }
                    Ok(Call::CommandLine) => asked = true,
                    Ok(Call::Output(bytes)) => output.extend(bytes),
                    Ok(Call::Resume) => {}
                    Ok(Call::Exit(_)) if !asked => {
                        break Err(
                            "the firmware exited before asking which test to run: is its \
                             `main` embedded-test's?"
                                .into(),
                        );
                    }
                    Ok(Call::Exit(status)) => break Ok(status == Ok(0)),
                    Err(e) => break Err(e.to_string()),
                }
            }
            Err(mut stop) => {
                if let Stop::Panic { message, .. } = &mut stop {
                    *message = log.lines(core);
                }
                break Err(format!("virtual board: {stop}"));
            }
        }
    };
    if !output.is_empty() {
        for line in String::from_utf8_lossy(&output).lines() {
            log_out(format!("semihosting: {line}"));
        }
    }
    match (ended, test.should_panic) {
        (Ok(true), false) | (Ok(false), true) => Outcome::Passed,
        (Ok(true), true) => Outcome::Failed("the test passed but should have panicked".into()),
        (Ok(false), false) => {
            Outcome::Failed("the test failed (a panic or an `Err`: its log is above)".into())
        }
        (Err(why), _) => Outcome::Failed(why),
    }
}

/// Runs the selected tests of `elf` on `core`, printing libtest's report to `out`; the exit
/// status (0, or 101 when a test failed).
pub fn run(
    core: &mut Core<'_>,
    elf: &Elf,
    tests: &[TestCase],
    options: &Options,
    out: &mut dyn Write,
) -> std::io::Result<u8> {
    let selected: Vec<&TestCase> = tests.iter().filter(|t| options.selects(&t.name)).collect();
    let filtered = tests.len() - selected.len();
    if options.list {
        for t in &selected {
            writeln!(out, "{}: test", t.name)?;
        }
        writeln!(out, "\n{} tests, 0 benchmarks", selected.len())?;
        return Ok(0);
    }
    let started = Instant::now();
    writeln!(out, "\nrunning {} tests", selected.len())?;
    let (mut passed, mut ignored) = (0, 0);
    let mut failures: Vec<(String, Vec<String>, String)> = Vec::new();
    for test in selected {
        let runs = if test.ignored {
            options.ignored || options.include_ignored
        } else {
            !options.ignored
        };
        if !runs {
            writeln!(out, "test {} ... ignored", test.name)?;
            ignored += 1;
            continue;
        }
        write!(out, "test {} ... ", test.name)?;
        out.flush()?;
        let mut lines = Vec::new();
        let nocapture = options.nocapture;
        let outcome = run_one(core, elf, test, &mut |line| {
            if nocapture {
                eprintln!("    {line}");
            }
            lines.push(line);
        });
        match outcome {
            Outcome::Passed => {
                writeln!(out, "ok")?;
                passed += 1;
            }
            Outcome::Failed(why) => {
                writeln!(out, "FAILED")?;
                failures.push((test.name.clone(), lines, why));
            }
        }
    }
    if !failures.is_empty() {
        writeln!(out, "\nfailures:\n")?;
        for (name, lines, why) in &failures {
            writeln!(out, "---- {name} (defmt log) ----")?;
            for line in lines {
                writeln!(out, "{line}")?;
            }
            writeln!(out, "{why}\n")?;
        }
        writeln!(out, "failures:")?;
        for (name, _, _) in &failures {
            writeln!(out, "    {name}")?;
        }
    }
    writeln!(
        out,
        "\ntest result: {}. {passed} passed; {} failed; {ignored} ignored; 0 measured; \
         {filtered} filtered out; finished in {:.2}s (virtual board)\n",
        if failures.is_empty() { "ok" } else { "FAILED" },
        failures.len(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(if failures.is_empty() { 0 } else { FAILED })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn libtest_options_select_as_libtest_does() {
        let o = Options::parse(&args(&["adc", "--skip", "six", "--test-threads", "1"])).unwrap();
        assert!(o.selects("tests::adc_twelve_bits"));
        assert!(!o.selects("tests::adc_six_bits"));
        assert!(!o.selects("tests::spi_frames"));
        let exact = Options::parse(&args(&["--exact", "tests::adc"])).unwrap();
        assert!(exact.selects("tests::adc"));
        assert!(!exact.selects("tests::adc_twelve_bits"));
        assert!(Options::parse(&args(&[])).unwrap().selects("anything"));
        assert_eq!(
            Options::parse(&args(&["--bogus"])),
            Err("unknown test option \"--bogus\"".to_string())
        );
    }
}
