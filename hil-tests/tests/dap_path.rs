//! The board's own path, as a team's first run on a NUCLEO takes it, on the virtual board:
//! `virtual-board serve --dap` (a blank chip: flash erased) answers at its debug port, and
//! probe-rs opens it with its own built-in `STM32F446RETx` target (no target file of ours, no
//! flash declared as RAM), downloads the board ELF through the chip's flash algorithm and
//! verifies it, resets and halts through the chip's debug sequence, halts on a hardware
//! breakpoint (an FPB comparator) and steps. Says why it skips without the board ELF or the
//! virtual board's binary.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use probe_rs::flashing::{DownloadOptions, ElfLoader, ElfOptions, download_file_with_options};
use probe_rs::probe::list::Lister;
use probe_rs::{MemoryInterface, Permissions};

/// The board ELF and the virtual board's binary, or why the test skips.
fn ready() -> Option<(PathBuf, PathBuf)> {
    let elf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(bench::BOARD_ELF);
    if !elf.is_file() {
        needs::skip("board-elf", "no board ELF (cargo fw)");
        return None;
    }
    match bench::virtual_board_binary() {
        Ok(board) => Some((elf, board)),
        Err(e) => {
            needs::skip("unicorn-build", format!("no virtual board ({e})"));
            None
        }
    }
}

/// A blank virtual board serving its debug port at `socket`, killed when dropped.
struct Blank(Child);

impl Drop for Blank {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve_blank(board: &Path, socket: &Path) -> Blank {
    let mut child = Command::new(board)
        .args(["serve", "--seed", "7", "--dap"])
        .arg(format!("unix:{}", socket.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("serving its debug port"), "{line}");
    Blank(child)
}

#[test]
fn probe_rs_flashes_verifies_resets_breaks_and_steps_through_the_chips_own_path() {
    let Some((elf, board)) = ready() else { return };
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("dap.sock");
    let _board = serve_blank(&board, &socket);
    let address = gdb_probe::Address::Unix(socket.clone());
    let lister = Lister::with_lister(Box::new(dap_probe::DapLister::new([address.clone()])));
    let probe = lister.open(dap_probe::selector(&address)).unwrap();
    // probe-rs's own target, from its built-in registry.
    let mut session = probe
        .attach("STM32F446RETx", Permissions::default())
        .unwrap_or_else(|e| panic!("attach: {e}"));
    {
        let mut core = session.core(0).unwrap();
        // Blank: the erased vector table (RM0390 3.6.3: erased flash reads 0xFF).
        assert_eq!(core.read_word_32(0x0800_0004).unwrap(), 0xFFFF_FFFF);
    }
    let mut options = DownloadOptions::default();
    options.verify = true;
    let start = Instant::now();
    download_file_with_options(
        &mut session,
        &elf,
        ElfLoader(ElfOptions::default()),
        options,
    )
    .unwrap_or_else(|e| panic!("download: {e}"));
    println!(
        "download and verify: {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let bytes = std::fs::read(&elf).unwrap();
    let functions = gdb_probe::symbols::Functions::parse(&bytes);
    let main = functions
        .as_slice()
        .iter()
        .find(|f| f.name == "main")
        .expect("the ELF's main")
        .address;
    let mut core = session.core(0).unwrap();
    // The vector table the algorithm programmed, and a reset that halts at its vector.
    let vector = core.read_word_32(0x0800_0004).unwrap() & !1;
    let halted = core.reset_and_halt(Duration::from_secs(1)).unwrap();
    assert_eq!(halted.pc, u64::from(vector), "halted at the reset vector");
    // A hardware breakpoint (an FPB comparator) on main: the core runs into it.
    core.set_hw_breakpoint(u64::from(main)).unwrap();
    core.run().unwrap();
    core.wait_for_core_halted(Duration::from_secs(2)).unwrap();
    let pc: u32 = core.read_core_reg(core.program_counter()).unwrap();
    assert_eq!(pc, main, "halted at main's breakpoint");
    core.clear_hw_breakpoint(u64::from(main)).unwrap();
    let stepped = core.step().unwrap();
    assert_ne!(stepped.pc, u64::from(main), "a step moved on");
    // Reset and run: the firmware starts (its RTT control block is written).
    core.reset().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let rtt = gdb_probe::symbols::rtt_control_block(&object::File::parse(&*bytes).unwrap())
        .expect("the ELF's _SEGGER_RTT");
    let mut id = [0u8; 16];
    core.read_8(u64::from(rtt), &mut id).unwrap();
    assert!(id.starts_with(b"SEGGER RTT"), "{id:?}");
}
