//! `virtual-board`: a virtual NUCLEO-F446RE that runs the unmodified board ELF (`cargo fw`) on
//! an emulated Cortex-M4F (unicorn) with register-level models of what it touches and the
//! project's physical model of the cage behind its pins.
//!
//! - `virtual-board run --elf ELF`: runs it for a while of virtual time, printing its defmt
//!   log (bring-up without a debugger).
//! - `virtual-board play --elf ELF`: the game a visitor played, with the person at the
//!   terminal: the LEDs show the machine's move, the person makes theirs and presses.
//! - `virtual-board visit --elf ELF`: a simulated visitor plays (perfect Short), for CI.
//! - `virtual-board serve --elf ELF --gdb unix:PATH`: serves a GDB remote stub, which the
//!   bench's probe (`hil-tests run --stage hil --probe virtual`) and `arm-none-eabi-gdb` attach
//!   to.
//!
//! - `virtual-board test --elf ELF [LIBTEST ARGS]`: runs an embedded-test binary's tests,
//!   each from a reset, as `probe-rs run` does with a probe (the cargo runner's board).
//!
//! GPL-2.0 (unicorn is): a binary of its own, reached only over a socket.
//!
//! Its modules in layers, top first: a module names (through `crate::` or `super::`) only
//! modules below it (`tests/layers.rs` checks it).
//!
//! - [`serve`]: one debugger at a time on the socket, the stub's attention between them
//! - [`gdb`]: the GDB remote protocol and the `monitor` commands
//! - [`dap`]: the debug port (`serve --dap`): pyOCD's remote-probe protocol, the SW-DP and AHB-AP
//! - [`test_runner`]: `test`, embedded-test binaries from a reset each
//! - [`person`]: `play`, the game at the terminal
//! - [`glitch`]: a glitch trial (`monitor trial`): inject, play, answer
//! - [`semihosting`]: the semihosting calls a test binary makes
//! - [`operator`]: the simulated visitor: press, read the LEDs, move on the cage
//! - [`log`]: the defmt log off RTT
//! - [`plant`]: the planted board faults (`--fault panic`, `hang`): a branch a reset writes
//! - [`cpu`]: the emulated core (unicorn), its hooks and the debugger's state
//! - [`stack`]: the stack's bounds and its overflow
//! - [`speed`]: instructions a second, for the summary
//! - [`coverage`]: which functions ran, merged across runs
//! - [`elf`]: the board binary's sections and symbols
//! - [`board`]: the NUCLEO and the cage behind its pins
//! - [`attention`]: who holds the stub's attention
//! - [`stream`]: the debugger's byte stream
//! - [`chip`]: the STM32F446's peripherals, one file each, and their table
//! - [`stop`]: each reason a run stops, with its exit code
//! - [`sram`]: the SRAM a debugger on this machine maps
//! - [`conn`]: the socket a debugger connects to
//! - [`clock`]: virtual time
//! - [`budget`](mod@budget): the instruction budget against its baseline
//!
//! Exit codes: `EXIT_STATUS` below, which `--help` prints (each stop's is `Stop::exit_code`'s;
//! the tests hold README's list and the stops to it).

#![cfg_attr(test, allow(clippy::disallowed_methods))] // tests write their fixtures freely (clippy.toml)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use clap::{Parser, Subcommand};
use heuristic::Side;

mod attention;
mod board;
mod budget;
mod chip;
mod clock;
mod conn;
mod coverage;
mod cpu;
mod dap;
mod elf;
mod gdb;
mod glitch;
mod log;
mod operator;
mod person;
mod plant;
mod semihosting;
mod serve;
mod speed;
mod sram;
mod stack;
mod stop;
mod stream;
mod test_runner;

use board::Board;
use chip::SRAM;
use cpu::{Core, Ran};
use elf::Elf;
use sram::Sram;
use stop::Stop;

#[derive(Debug, Parser)]
#[command(
    name = "virtual-board",
    version,
    about = "A virtual NUCLEO-F446RE: the board ELF on an emulated Cortex-M4F with the cage behind its pins",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What the board is built from: the ELF, the profile's wiring, the draw.
#[derive(Debug, clap::Args)]
struct BoardArgs {
    /// The board ELF (`cargo fw` writes target/thumbv7em-none-eabihf/fw/firmware). Only
    /// `serve --dap` goes without: a blank chip, its flash erased, that a debugger downloads to.
    #[arg(long)]
    elf: Option<PathBuf>,
    /// Board profile: a name or a profile file; its wiring is the virtual board's.
    #[arg(long, default_value = "nucleo-f446re")]
    profile: String,
    /// Draw the parts and the ADC from this seed, as SIL does (`--board-seed`); without it,
    /// nominal parts and a perfect ADC.
    #[arg(long, allow_negative_numbers = true, value_parser = shards::whole::<u64>(0, u64::MAX))]
    seed: Option<u64>,
    /// Write the ELF's functions that ran, one per line with a mark, to this file on exit
    /// (a regular file or nothing there: a link, a FIFO or a device is refused, named).
    #[arg(long)]
    coverage: Option<PathBuf>,
    /// With `--coverage`: keep the functions the file already marks as run (when it lists
    /// this ELF's functions), adding this run's; the bench's resumed report keeps its union.
    #[arg(long, requires = "coverage")]
    coverage_merge: bool,
    /// A fault of the board, made at register level (repeatable): `no-fixture`, `miso-low`,
    /// `pll-stuck`, `panic`, `hang`, `adc-open:PIN`, `adc-stuck:PIN:CODE`, `led-dead:PIN`.
    #[arg(long = "fault")]
    faults: Vec<board::BoardFault>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the firmware for a span of virtual time and print its defmt log.
    Run {
        #[command(flatten)]
        board: BoardArgs,
        /// Virtual milliseconds to run (at most ten minutes' worth; Ctrl-C stops it early).
        #[arg(long, default_value_t = 100, allow_negative_numbers = true,
              value_parser = shards::whole::<u64>(0, MAX_MS))]
        ms: u64,
        /// Press the button at this virtual millisecond (for 50 ms); repeatable. Within
        /// the longest run (a press past it never comes).
        #[arg(long = "press-at", allow_negative_numbers = true, value_parser = shards::whole::<u64>(0, MAX_MS))]
        press_at: Vec<u64>,
    },
    /// Play Shannon's machine as a visitor did, on a cage without fixture: the LEDs show the
    /// machine's move (it is cut on the cage), you type your Short move and press the button
    /// (an empty line), until the firmware lights its verdict. Line by line on stdin.
    Play {
        #[command(flatten)]
        board: BoardArgs,
    },
    /// A simulated visitor, with no bench protocol: a cage without fixture, the button
    /// pressed through IDR, the machine's move read off its LEDs, both moves made by hand;
    /// Short plays perfectly. Prints each game's record and winner.
    Visit {
        #[command(flatten)]
        board: BoardArgs,
        /// Games, each from power-on.
        #[arg(long, default_value_t = 1)]
        games: u32,
    },
    /// Serve a GDB remote stub on a socket, halted at the reset vector, for one debugger at a
    /// time (the next attaches when it leaves).
    Serve {
        #[command(flatten)]
        board: BoardArgs,
        /// Serve a GDB remote stub here: `unix:PATH` or `tcp:HOST:PORT`.
        #[arg(long, required_unless_present = "dap", conflicts_with = "dap")]
        gdb: Option<String>,
        /// Answer at the debug port here instead (`unix:PATH` or `tcp:HOST:PORT`): the SW-DP
        /// and AHB-AP in pyOCD's remote-probe protocol (pyOCD's `-u remote:HOST:PORT`, and the
        /// bench's `--probe dap:...` through probe-rs), the core running as on a board.
        #[arg(long)]
        dap: Option<String>,
        /// The option bytes' read-out protection level (0, or 1: a debugger's access to flash
        /// is refused, RM0390 3.6.3).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
        rdp: u8,
        /// nRST held low from power-on, as by a pressed reset button or a line shorted to
        /// ground (`--dap`): the core stays in reset whatever the debugger does; DHCSR's
        /// S_RESET_ST stays set.
        #[arg(long, requires = "dap")]
        hold_reset: bool,
        /// The AHB-AP's bus completes no transfer (`--dap`): `wait`, every one answered WAIT
        /// (the bus held busy); `fault`, answered FAULT with STICKYERR (the bus refuses).
        #[arg(long, value_enum, requires = "dap")]
        ap_bus: Option<dap::port::Stall>,
    },
    /// Run an embedded-test binary's tests (the host side of its semihosting protocol), each
    /// from a reset, with libtest's output and exit status (0, 101 a test failed, 2 no tests).
    Test {
        #[command(flatten)]
        board: BoardArgs,
        /// libtest's arguments as `cargo test -- ...` passes them: filters, `--exact`,
        /// `--skip NAME`, `--list`, `--ignored`, `--include-ignored`, `--nocapture`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        libtest: Vec<String>,
    },
    /// The firmware's instruction budget: one simulated visitor's game (as `visit`), its
    /// instructions per function compared with the baseline; exit 8 when a function on the
    /// hot path grew past its budget (firmware/README.md, Instruction budget).
    Budget {
        #[command(flatten)]
        board: BoardArgs,
        /// The baseline: instructions per function, one `COUNT NAME` a line.
        #[arg(long, default_value = "firmware/budget.txt")]
        baseline: PathBuf,
        /// Rewrite the baseline from this run instead (on purpose: a change that costs
        /// instructions, said in its commit).
        #[arg(long)]
        write: bool,
    },
}

/// How long `run --press-at` holds the button, in virtual milliseconds.
const PRESS_MS: u64 = 50;

/// The longest `run --ms`: ten minutes of virtual time (a few minutes of host time).
const MAX_MS: u64 = 600_000;

/// Set by SIGINT, SIGTERM or SIGHUP: the run or the server ends as it would at its end (its
/// summary, its files removed).
fn quit_flag() -> Arc<AtomicBool> {
    let quit = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&quit);
    // A second handler cannot be set (only one command runs); without one, a signal kills.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    quit
}

/// Where the core is and how fast it ran: the last lines of `run`, and of `serve` when a
/// signal ends it.
fn summary(core: &Core<'_>, elf: &Elf, started: std::time::Instant) {
    let state = core.state();
    let host = started.elapsed().as_secs_f64();
    let virtual_ms = state.board.cycles as f64 / clock::PER_MS as f64;
    let mut err = std::io::stderr().lock();
    let pc = core.pc();
    let _ = writeln!(
        err,
        "after {virtual_ms:.0} ms the core is at PC {pc:#010x}{}",
        elf.function_at(pc)
            .map(|f| format!(" in {}", f.name))
            .unwrap_or_default()
    );
    let _ = writeln!(
        err,
        "ran {} instructions ({virtual_ms:.1} ms of virtual time at {} MHz, {} conversions) in \
         {host:.2} s: {:.1} M instructions/s",
        state.instructions,
        clock::MHZ,
        state.board.conversions,
        state.instructions as f64 / host / 1e6
    );
    if let Some(line) = watchdog(core) {
        let _ = writeln!(err, "{line}");
    }
}

/// How the firmware fed its watchdog (the longest span is what its timeout must exceed), if
/// it started one.
fn watchdog(core: &Core<'_>) -> Option<String> {
    let (feeds, longest) = core.state().board.watchdog_feeds();
    (feeds > 0).then(|| {
        format!(
            "the independent watchdog was fed {feeds} times, at most {:.2} ms apart",
            longest as f64 / clock::PER_MS as f64
        )
    })
}

/// The exit codes in words, the same words as hil-tests' and birdcage's for 0 and 2; the
/// stops' codes are `Stop::exit_code`'s (virtual-board/README.md prints this table).
const EXIT_STATUS: &str = "\
Exit status:
  0    passed: the run ended as it should (a verdict shown; test: every test passed)
  2    no verdict: bad input (one line on stderr naming it), or a file that cannot be read
       or written
  3    a configuration fault: the firmware broke a rule of the chip's
  4    an unmodelled access: the firmware touched what the board does not model
  5    the core stopped otherwise (a CPU fault, a bkpt with no debugger, WFI with no
       interrupt, a semihosting call outside test)
  6    no verdict from the game (run, visit)
  7    a stack overflow
  8    budget: a function on the hot path grew by more than 10 %
  101  a firmware panic (test: a test failed)";

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn build(args: &BoardArgs) -> anyhow::Result<(Elf, Board)> {
    // Refused before the run, not at its end: a FIFO there would block the write for ever.
    if let Some(path) = &args.coverage {
        shards::safe::replaceable(path)?;
    }
    let elf = match &args.elf {
        Some(path) => Elf::read(path)?,
        None => anyhow::bail!(
            "--elf: give the board ELF (cargo fw writes target/thumbv7em-none-eabihf/fw/firmware)"
        ),
    };
    // Its errors name the profile already.
    let profile = boards::file::load(&args.profile)?;
    let mut board = Board::new(profile, args.seed)?;
    for &fault in &args.faults {
        board.inject(fault)?;
    }
    Ok((elf, board))
}

/// The core with `board` behind its bus and `elf` loaded, its planted faults in place.
fn core<'a>(board: Board, elf: &Elf, sram: Sram) -> anyhow::Result<Core<'a>> {
    let panics = board.has(board::BoardFault::Panic);
    let hangs = board.has(board::BoardFault::Hang);
    let mut core = Core::new(board, elf, sram).map_err(|e| anyhow::anyhow!("{e}"))?;
    if panics {
        plant::panic(&mut core, elf).map_err(|e| anyhow::anyhow!("--fault panic: {e}"))?;
    }
    if hangs {
        plant::hang(&mut core, elf).map_err(|e| anyhow::anyhow!("--fault hang: {e}"))?;
    }
    Ok(core)
}

/// One line for the bench (and a person) on stderr, then the stop's exit code.
fn stopped(stop: &Stop) -> ExitCode {
    eprintln!("virtual board: {stop}");
    ExitCode::from(stop.exit_code() as u8)
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Run {
            board,
            ms,
            press_at,
        } => {
            let (elf, b) = build(&board)?;
            let mut core = core(b, &elf, Sram::private(SRAM.size)?)?;
            // A semihosting call is named as one (it needs `test`), not an engine error.
            core.catch_breakpoints()
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let mut log = log::Log::new(&elf);
            let started = std::time::Instant::now();
            let quit = quit_flag();
            let code = run_for(&mut core, &elf, &mut log, ms, &press_at, &quit);
            summary(&core, &elf, started);
            write_coverage(&board, &elf, &core)?;
            Ok(code)
        }
        Command::Play { board } => {
            let (elf, mut b) = build(&board)?;
            b.inject(board::BoardFault::NoFixture)?;
            let mut core = core(b, &elf, Sram::private(SRAM.size)?)?;
            let mut log = log::Log::new(&elf);
            let mut out = std::io::stdout().lock();
            let mut input = std::io::stdin().lock();
            let prompt = std::io::IsTerminal::is_terminal(&input);
            let (ended, moves) = match person::play(&mut core, &elf, &mut input, &mut out, prompt) {
                Ok(ended) => ended,
                Err(stop) => return Ok(stopped(&stop)),
            };
            if let Some(record) = person::record(&moves) {
                writeln!(out, "Record: {record}")?;
            }
            let code = match ended {
                person::Ended::Verdict(Side::Cut) => {
                    writeln!(out, "Every row LED is lit: the machine (Cut) has won.")?;
                    ExitCode::SUCCESS
                }
                person::Ended::Verdict(Side::Short) => {
                    writeln!(out, "Every column LED is lit: you (Short) have won.")?;
                    ExitCode::SUCCESS
                }
                person::Ended::Quit => ExitCode::SUCCESS,
                person::Ended::Trouble(trouble) => {
                    eprintln!("virtual board: no verdict: {trouble}");
                    for line in log.lines(&mut core) {
                        eprintln!("  log: {line}");
                    }
                    ExitCode::from(6)
                }
            };
            write_coverage(&board, &elf, &core)?;
            Ok(code)
        }
        Command::Visit { board, games } => {
            let mut out = std::io::stdout().lock();
            for _ in 0..games {
                let (elf, mut b) = build(&board)?;
                b.inject(board::BoardFault::NoFixture)?;
                let mut core = core(b, &elf, Sram::private(SRAM.size)?)?;
                let mut log = log::Log::new(&elf);
                match operator::visit(
                    &mut core,
                    &elf,
                    emulator::players::perfect_move,
                    |_, _, _| {},
                ) {
                    Ok(game) => {
                        writeln!(out, "Record: {}", game.record())?;
                        if let Some(side) = game.winner {
                            writeln!(out, "Winner: {}", side.name())?;
                            if let Some(line) = watchdog(&core) {
                                eprintln!("virtual board: {line}");
                            }
                        } else {
                            let trouble = game.trouble.unwrap_or_default();
                            eprintln!("virtual board: no verdict: {trouble}");
                            for line in log.lines(&mut core) {
                                eprintln!("  log: {line}");
                            }
                            write_coverage(&board, &elf, &core)?;
                            return Ok(ExitCode::from(6));
                        }
                    }
                    Err(stop) => return Ok(stopped(&stop)),
                }
                write_coverage(&board, &elf, &core)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Budget {
            board,
            baseline,
            write,
        } => budget(&board, &baseline, write),
        Command::Test { board, libtest } => {
            let options = test_runner::Options::parse(&libtest).map_err(anyhow::Error::msg)?;
            let (elf, b) = build(&board)?;
            let name = board
                .elf
                .as_deref()
                .unwrap_or(Path::new(""))
                .display()
                .to_string();
            let tests = test_runner::list(&name, &elf)?;
            let mut core = core(b, &elf, Sram::private(SRAM.size)?)?;
            core.catch_breakpoints()
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let status = test_runner::run(
                &mut core,
                &elf,
                &tests,
                &options,
                &mut std::io::stdout().lock(),
            )?;
            write_coverage(&board, &elf, &core)?;
            Ok(ExitCode::from(status))
        }
        Command::Serve {
            board,
            gdb: None,
            dap: Some(dap),
            rdp,
            hold_reset,
            ap_bus,
        } => {
            let address = serve::Address::parse(&dap)?;
            let (elf, b) = if board.elf.is_some() {
                build(&board)?
            } else {
                // A blank chip: nothing but the board (its flash erased, as after a mass erase).
                let profile = boards::file::load(&board.profile)?;
                let mut b = Board::new(profile, board.seed)?;
                for &fault in &board.faults {
                    b.inject(fault)?;
                }
                (Elf::blank(), b)
            };
            let mut b = b;
            b.set_rdp_level(rdp)?;
            let mut core = core(b, &elf, Sram::private(SRAM.size)?)?;
            let mut target = dap::Target::new(hold_reset, ap_bus, &mut core);
            let quit = quit_flag();
            let (listener, _socket) = listen(&address, "its debug port (SW-DP, AHB-AP)")?;
            let started = std::time::Instant::now();
            serve::serve_dap(&mut target, &mut core, &elf, &listener, &quit);
            summary(&core, &elf, started);
            eprintln!("{} debug-port requests answered", target.requests);
            write_coverage(&board, &elf, &core)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve {
            board, gdb, rdp, ..
        } => {
            if rdp != 0 {
                anyhow::bail!("--rdp: read-out protection is modelled at the debug port (--dap)");
            }
            let gdb = gdb.context("serve: give --gdb or --dap")?;
            let address = serve::Address::parse(&gdb)?;
            let (elf, b) = build(&board)?;
            // The SRAM in a file beside the socket (or in the temporary folder for TCP), which
            // the bench's probe maps: RTT without packets (`monitor window` names it).
            let window = match &address {
                serve::Address::Unix(path) => gdb_probe::window::beside(path),
                serve::Address::Tcp(_) => {
                    std::env::temp_dir().join(format!("virtual-board-{}.ram", std::process::id()))
                }
            };
            if let serve::Address::Unix(path) = &address {
                // A killed board's window is removed only beside its stale socket.
                let stale = serve::clear_socket_path(path)?;
                serve::clear_window_path(&window, u64::from(SRAM.size), stale)?;
            }
            let sram = Sram::shared(&window, SRAM.size)
                .with_context(|| format!("cannot create {}", window.display()))?;
            let core = core(b, &elf, sram)?;
            let mut server = gdb::Server::new(core, &elf, board.output());
            let quit = quit_flag();
            let (listener, _socket) = listen(&address, "a GDB stub")?;
            let started = std::time::Instant::now();
            let code = match serve::serve(&mut server, &listener, &quit) {
                serve::Served::Killed => ExitCode::SUCCESS,
                serve::Served::Quit => {
                    summary(server.core(), &elf, started);
                    ExitCode::SUCCESS
                }
                serve::Served::Stopped(stop) => {
                    let mut stop = *stop;
                    if let Stop::Panic { message, .. } = &mut stop {
                        *message =
                            log::Log::after_debugger(&elf, server.core()).lines(server.core());
                    }
                    stopped(&stop)
                }
            };
            write_coverage(&board, &elf, server.core())?;
            Ok(code)
        }
    }
}

/// Listens at `address` for `what` (the GDB stub, the debug port): the socket's file removed
/// when the server ends; a warning when it reaches beyond this machine; the ready line on
/// stdout, which the bench and the tests wait for.
fn listen(
    address: &serve::Address,
    what: &str,
) -> anyhow::Result<(serve::Listener, serve::SocketFile)> {
    let listener = serve::Listener::bind(address)?;
    let socket = serve::SocketFile(match address {
        serve::Address::Unix(path) => Some(path.clone()),
        serve::Address::Tcp(_) => None,
    });
    let (at, beyond) = listener.describe();
    if beyond {
        eprintln!(
            "virtual board: warning: {at} is reachable beyond this machine, and whoever \
             reaches it can read and write the board's memory and run it"
        );
    }
    println!("virtual board: serving {what} on {at}");
    let _ = std::io::stdout().flush();
    Ok((listener, socket))
}

/// `virtual-board budget`: a visitor's game profiled, against (or written to) `baseline`.
fn budget(args: &BoardArgs, baseline: &Path, write: bool) -> anyhow::Result<ExitCode> {
    let (elf, mut b) = build(args)?;
    b.inject(board::BoardFault::NoFixture)?;
    let mut core = core(b, &elf, Sram::private(SRAM.size)?)?;
    core.state_mut().profile = Some(Default::default());
    let game = match operator::visit(
        &mut core,
        &elf,
        emulator::players::perfect_move,
        |_, _, _| {},
    ) {
        Ok(game) => game,
        Err(stop) => return Ok(stopped(&stop)),
    };
    if game.winner.is_none() {
        let trouble = game.trouble.unwrap_or_default();
        eprintln!("virtual board: no verdict: {trouble}");
        return Ok(ExitCode::from(6));
    }
    let blocks = core
        .state()
        .profile
        .as_ref()
        .map(|p| coverage::profile(&elf, p));
    let run = budget::Table::parse(&blocks.unwrap_or_default())
        .map_err(|e| anyhow::anyhow!("the run's profile: {e}"))?;
    if write {
        let seed = args
            .seed
            .map(|s| format!(" --seed {s}"))
            .unwrap_or_default();
        let scenario = format!("a simulated visitor's game (virtual-board visit{seed})");
        shards::safe::write_file(baseline, run.render(&scenario).as_bytes())
            .with_context(|| format!("writing {}", baseline.display()))?;
        println!(
            "wrote {} ({} functions)",
            baseline.display(),
            run.rows.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let text = std::fs::read_to_string(baseline)
        .with_context(|| format!("reading {}", baseline.display()))?;
    let base =
        budget::Table::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", baseline.display()))?;
    let comparison = budget::compare(&base, &run);
    println!("{comparison}");
    if comparison.over() {
        let over: Vec<&str> = comparison
            .changed
            .iter()
            .filter(|r| r.over)
            .map(|r| r.name.as_str())
            .collect();
        eprintln!(
            "virtual board: over the instruction budget (a hot function grew by more than {} %): \
             {}; if the change is meant, `virtual-board budget --write` and say so in the commit",
            budget::GROWTH_PERCENT,
            over.join(", ")
        );
        return Ok(ExitCode::from(8));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `ms` virtual milliseconds (at the core's clock as the firmware set it up), printing
/// the log; the stop's exit code if the firmware stopped.
fn run_for(
    core: &mut Core<'_>,
    elf: &Elf,
    log: &mut log::Log,
    ms: u64,
    presses: &[u64],
    quit: &AtomicBool,
) -> ExitCode {
    use clock::PER_MS;
    let end = ms * PER_MS;
    let mut out = std::io::stdout().lock();
    while core.state().board.cycles < end && !quit.load(Ordering::Relaxed) {
        let now_ms = core.state().board.cycles / PER_MS;
        let pressed = presses
            .iter()
            .any(|&at| (at..at.saturating_add(PRESS_MS)).contains(&now_ms));
        core.state_mut().board.press(pressed);
        let result = core.run(PER_MS / 4, elf);
        for line in log.lines(core) {
            let _ = writeln!(out, "{line}");
        }
        match result {
            Ok(Ran::Slice | Ran::Reset(board::ResetCause::Software)) => {}
            Ok(Ran::Reset(board::ResetCause::Watchdog)) => {
                let at = core.state().board.cycles / PER_MS;
                eprintln!("virtual board: at {at} ms {}", board::WATCHDOG_RESET);
            }
            Ok(Ran::Sleeps) => {
                eprintln!("virtual board: the core sleeps (WFI) and no interrupt is modelled");
                return ExitCode::from(5);
            }
            Ok(Ran::Breakpoint | Ran::Watched(_)) => {
                eprintln!("virtual board: the core reached a bkpt, and no debugger is attached");
                return ExitCode::from(5);
            }
            Err(mut stop) => {
                if let Stop::Panic { message, .. } = &mut stop {
                    *message = log.lines(core);
                }
                return stopped(&stop);
            }
        }
    }
    ExitCode::SUCCESS
}

/// Writes which of the ELF's functions ran, if `--coverage` asks.
fn write_coverage(args: &BoardArgs, elf: &Elf, core: &Core<'_>) -> anyhow::Result<()> {
    if let Some(deepest) = &core.state().deepest {
        eprintln!("virtual board: {}", deepest.report(elf));
    }
    coverage::write_profile(elf, &core.state().profile);
    match args.output() {
        Some(coverage) => coverage
            .write(elf, &core.state().executed)
            .map_err(anyhow::Error::msg),
        None => Ok(()),
    }
}

impl BoardArgs {
    /// Where the coverage goes, if anywhere.
    fn output(&self) -> Option<coverage::Output> {
        self.coverage.clone().map(|path| coverage::Output {
            path,
            merge: self.coverage_merge,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// The codes `EXIT_STATUS` lists, in order.
    fn table_codes() -> Vec<i32> {
        EXIT_STATUS
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("     "))
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect()
    }

    /// README's "Exit codes:" paragraph is prose (`0 done, 2 bad input (one line: ...), ...`):
    /// the number opening each of its items, its parentheses' commas skipped.
    #[test]
    fn the_readme_s_exit_codes_are_the_table_s() {
        let readme = include_str!("../README.md");
        let start = readme
            .find("Exit codes: ")
            .expect("README lists the exit codes");
        let text = &readme[start + "Exit codes: ".len()..];
        let text = &text[..text.find(".\n").unwrap_or(text.len())];
        let (mut depth, mut items, mut item) = (0, Vec::new(), String::new());
        for c in text.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(std::mem::take(&mut item));
                    continue;
                }
                _ => {}
            }
            item.push(c);
        }
        items.push(item);
        let codes: Vec<i32> = items
            .iter()
            .filter_map(|i| i.split_whitespace().next()?.parse().ok())
            .collect();
        assert_eq!(
            codes,
            table_codes(),
            "virtual-board/README.md's exit codes are not EXIT_STATUS's: {text}"
        );
    }

    /// Every stop's exit code is a line of the table `--help` prints.
    #[test]
    fn every_stop_s_exit_code_is_in_the_table() {
        let place = stop::Place {
            pc: 0x0800_0000,
            symbol: None,
            exact: true,
        };
        let access = stop::Access {
            address: 0x4000_0000,
            offset: 0,
            peripheral: None,
            register: None,
            written: None,
            size: 4,
        };
        let stops = [
            Stop::Unmodelled {
                access: access.clone(),
                place: place.clone(),
            },
            Stop::Config {
                fault: stop::ConfigFault {
                    what: "x".into(),
                    rule: "RM0390",
                },
                place: place.clone(),
            },
            Stop::StackOverflow {
                access,
                sp: 0x2000_0000,
                place: place.clone(),
            },
            Stop::Panic {
                place: place.clone(),
                message: Vec::new(),
            },
            Stop::Breakpoint {
                imm: 0,
                place: place.clone(),
            },
            Stop::Cpu {
                what: "x".into(),
                place,
            },
        ];
        let table = table_codes();
        for stop in stops {
            assert!(
                table.contains(&stop.exit_code()),
                "{stop:?} exits {}, which EXIT_STATUS does not list",
                stop.exit_code()
            );
        }
    }

    /// `--fault`'s help is a doc comment: it names every form of `BoardFault::FORMS`, in order.
    #[test]
    fn the_fault_option_names_every_board_fault() {
        let cli = Cli::command();
        let run = cli.find_subcommand("run").expect("a run subcommand");
        let fault = run
            .get_arguments()
            .find(|a| a.get_long() == Some("fault"))
            .expect("run takes --fault");
        let help = fault
            .get_help()
            .map(ToString::to_string)
            .unwrap_or_default();
        let named: Vec<&str> = help.split('`').skip(1).step_by(2).collect();
        assert_eq!(
            named,
            board::BoardFault::FORMS,
            "virtual-board --fault's help does not name BoardFault::FORMS: {help}"
        );
    }
}
