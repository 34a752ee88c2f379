//! probe-rs over the probe against a fake server written here: pyOCD's protocol on a unix
//! socket with a tiny SW-DP and AHB-AP behind it (the STM32F446's DPIDR and AP IDR, CTRL/STAT's
//! power-up handshake, SELECT, sticky errors as on the chip, memory behind CSW/TAR/DRW: RAM,
//! flash read as erased, the private peripheral bus kept as words, with DHCSR's halt and step
//! answered at once), enough for a whole probe-rs session on the built-in STM32F446RETx.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dap_probe::{Client, ClientError, DapLister, Status, selector};
use gdb_probe::Address;
use probe_rs::architecture::arm::dp::{DPIDR, DpAddress, DpRegister};
use probe_rs::architecture::arm::sequences::DefaultArmSequence;
use probe_rs::architecture::arm::{ArmDebugInterface, ArmError, DapError, FullyQualifiedApAddress};
use probe_rs::probe::list::Lister;
use serde_json::{Value, json};

const DPIDR_F446: u32 = 0x2BA0_1477;
const AHB_AP_IDR: u32 = 0x2477_0011;
const RAM: std::ops::Range<u32> = 0x2000_0000..0x2002_0000;
/// The Cortex-M's private peripheral bus and the STM32's DBGMCU: read as zero, writes kept.
const PPB: std::ops::Range<u32> = 0xE000_0000..0xE010_0000;

/// DHCSR: its control bits kept; S_HALT set by C_HALT or C_STEP at once, S_REGRDY always.
const DHCSR: u32 = 0xE000_EDF0;
/// The STM32F4's DBGMCU_CR (RM0390 33.16.3).
const DBGMCU_CR: u32 = 0xE004_2004;

/// Flash, and its alias at 0 (erased: reads as zero here).
const FLASH: [std::ops::Range<u32>; 2] = [0x0000_0000..0x0008_0000, 0x0800_0000..0x0808_0000];

fn mapped(address: u32) -> bool {
    RAM.contains(&address) || PPB.contains(&address) || FLASH.iter().any(|f| f.contains(&address))
}
/// CTRL/STAT: STICKYERR, CDBGPWRUPREQ/ACK, CSYSPWRUPREQ/ACK.
const STICKYERR: u32 = 1 << 5;
const CDBGPWRUPREQ: u32 = 1 << 28;
const CSYSPWRUPREQ: u32 = 1 << 30;

/// The DAP the fake serves.
#[derive(Debug, Default)]
struct Dap {
    ctrl: u32,
    sticky: bool,
    select: u32,
    csw: u32,
    tar: u32,
    ram: HashMap<u32, u32>,
    reset: bool,
    /// The next AP access answers WAIT (status 11), as a busy AHB-AP.
    wait_next: bool,
}

/// What an access answers: a value, nothing, or a status with its text.
type Answer = Result<Option<Value>, (i64, String)>;

const FAULT: i64 = 12;

impl Dap {
    fn new() -> Dap {
        Dap {
            csw: 0x0300_0040,
            ..Dap::default()
        }
    }

    fn fault(&mut self, what: String) -> (i64, String) {
        self.sticky = true;
        (
            FAULT,
            format!("SWD/JTAG communication failure (FAULT ACK): {what}"),
        )
    }

    /// The AP register `addr` names, checked against SELECT's bank.
    fn ap_register(&mut self, addr: u64) -> Result<(u32, u32), (i64, String)> {
        if self.wait_next {
            self.wait_next = false;
            return Err((11, "SWD/JTAG communication failure (WAIT ACK)".into()));
        }
        if self.sticky {
            // STICKYERR set: the DP faults every AP access until ABORT clears it.
            return Err(self.fault("sticky error set".into()));
        }
        let bank = (self.select >> 4) & 0xF;
        if (addr as u32) >> 4 != bank || addr > 0xFF {
            return Err((
                1,
                format!("AP address {addr:#x} is not in SELECT's bank {bank:#x}"),
            ));
        }
        Ok((self.select >> 24, (bank << 4) | (addr as u32 & 0xC)))
    }

    fn read_ap(&mut self, addr: u64) -> Result<u32, (i64, String)> {
        let (apsel, register) = self.ap_register(addr)?;
        if apsel != 0 {
            return Ok(0);
        }
        Ok(match register {
            0x00 => self.csw,
            0x04 => self.tar,
            0x0C => {
                let address = self.tar;
                let Some(mut word) =
                    mapped(address).then(|| self.ram.get(&address).copied().unwrap_or(0))
                else {
                    return Err(self.fault(format!("read at {address:#010x}")));
                };
                if address == DHCSR {
                    // A halt, or a step done at once (the core halts after it).
                    let halted = word & 0b110 != 0;
                    word = (word & 0b1111) | (1 << 16) | (u32::from(halted) << 17);
                }
                self.advance();
                word
            }
            0xF4 => 0,
            0xF8 => 0xE00F_F003,
            0xFC => AHB_AP_IDR,
            _ => 0,
        })
    }

    fn write_ap(&mut self, addr: u64, value: u32) -> Result<(), (i64, String)> {
        let (apsel, register) = self.ap_register(addr)?;
        if apsel != 0 {
            return Ok(());
        }
        match register {
            0x00 => self.csw = value,
            0x04 => self.tar = value,
            0x0C => {
                let address = self.tar;
                if !mapped(address) {
                    return Err(self.fault(format!("write at {address:#010x}")));
                }
                if address != DHCSR || value >> 16 == 0xA05F {
                    self.ram.insert(address, value);
                }
                self.advance();
            }
            _ => {}
        }
        Ok(())
    }

    /// TAR after a DRW access: CSW.AddrInc single, within the 1 KiB auto-increment block.
    fn advance(&mut self) {
        if (self.csw >> 4) & 0b11 == 0b01 {
            self.tar = (self.tar & !0x3FF) | (self.tar.wrapping_add(4) & 0x3FF);
        }
    }

    fn read_dp(&mut self, addr: u64) -> Answer {
        let value = match addr {
            0x0 => DPIDR_F446,
            0x4 => {
                // ACKs mirror the requests, at once.
                let acks = (self.ctrl & (CDBGPWRUPREQ | CSYSPWRUPREQ)) << 1;
                self.ctrl | acks | if self.sticky { STICKYERR } else { 0 }
            }
            0x8 => 0,
            0xC => 0,
            _ => return Err((1, format!("DP address {addr:#x}"))),
        };
        Ok(Some(value.into()))
    }

    fn write_dp(&mut self, addr: u64, value: u32) -> Answer {
        match addr {
            0x0 if value & (1 << 2) != 0 => self.sticky = false,
            0x0 => {}
            0x4 => self.ctrl = value & !(STICKYERR | (1 << 29) | (1 << 31)),
            0x8 => self.select = value,
            _ => return Err((1, format!("DP address {addr:#x} is read-only"))),
        }
        Ok(None)
    }

    fn answer(&mut self, request: &str, args: &[Value]) -> Answer {
        let arg = |i: usize| args.get(i).and_then(Value::as_u64).unwrap_or(u64::MAX);
        let word = |i: usize| u32::try_from(arg(i)).map_err(|_| (1, "not a word".to_string()));
        match request {
            "hello" | "open" | "close" | "lock" | "unlock" | "connect" | "disconnect"
            | "swj_sequence" | "set_clock" | "reset" | "flush" => Ok(None),
            "readprop" => Ok(Some(match args.first().and_then(Value::as_str) {
                Some("supported_wire_protocols") => json!(["SWD"]),
                Some("capabilities") => json!(["SWJ_SEQUENCE"]),
                Some("wire_protocol") => json!("SWD"),
                _ => json!("fake"),
            })),
            "assert_reset" => {
                self.reset = args.first().and_then(Value::as_bool).unwrap_or(false);
                Ok(None)
            }
            "is_reset_asserted" => Ok(Some(self.reset.into())),
            "read_dp" => self.read_dp(arg(0)),
            "write_dp" => self.write_dp(arg(0), word(1)?),
            "read_ap" => Ok(Some(self.read_ap(arg(0))?.into())),
            "write_ap" => self.write_ap(arg(0), word(1)?).map(|()| None),
            "read_ap_multiple" => {
                let words = (0..arg(1))
                    .map(|_| self.read_ap(arg(0)))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Some(words.into()))
            }
            "write_ap_multiple" => {
                for value in args.get(1).and_then(Value::as_array).into_iter().flatten() {
                    self.write_ap(arg(0), value.as_u64().unwrap_or(0) as u32)?;
                }
                Ok(None)
            }
            // The fake's own bench commands: `wait-next` makes the next AP access WAIT.
            "monitor" => match args.first().and_then(Value::as_str) {
                Some("wait-next") => {
                    self.wait_next = true;
                    Ok(Some("".into()))
                }
                Some(text) => Ok(Some(format!("echo: {text}").into())),
                None => Err((1, "malformed request; invalid number of arguments".into())),
            },
            _ => Err((1, "unknown request type".into())),
        }
    }
}

/// The fake: serves one connection on `path`, keeping every request line.
struct Fake {
    lines: Arc<Mutex<Vec<String>>>,
    dap: Arc<Mutex<Dap>>,
    address: Address,
    _dir: tempfile::TempDir,
}

impl Fake {
    fn start() -> Fake {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dap.sock");
        let listener = UnixListener::bind(&path).unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let dap = Arc::new(Mutex::new(Dap::new()));
        {
            let (lines, dap) = (lines.clone(), dap.clone());
            std::thread::spawn(move || serve(&listener, &lines, &dap));
        }
        Fake {
            lines,
            dap,
            address: Address::Unix(path),
            _dir: dir,
        }
    }

    fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// The memory words written through the AP (TAR, DRW), in order.
    fn memory_writes(&self) -> Vec<(u32, u32)> {
        let (mut select, mut tar, mut writes) = (0u64, 0u64, Vec::new());
        for line in self.lines() {
            let v: Value = serde_json::from_str(&line).unwrap();
            let arg = |i: usize| v["arguments"][i].as_u64().unwrap_or(0);
            match v["request"].as_str().unwrap() {
                "write_dp" if arg(0) == 8 => select = arg(1),
                "write_ap" if select & 0xF0 == 0 && arg(0) == 0x4 => tar = arg(1),
                "write_ap" if select & 0xF0 == 0 && arg(0) == 0xC => {
                    writes.push((tar as u32, arg(1) as u32));
                }
                _ => {}
            }
        }
        writes
    }

    /// The requests since line `from`, as `name arguments`.
    fn requests_since(&self, from: usize) -> Vec<String> {
        self.lines()[from..]
            .iter()
            .map(|line| {
                let v: Value = serde_json::from_str(line).unwrap();
                format!(
                    "{} {}",
                    v["request"].as_str().unwrap(),
                    v.get("arguments").map_or(String::new(), Value::to_string)
                )
                .trim_end()
                .to_string()
            })
            .collect()
    }
}

fn serve(listener: &UnixListener, lines: &Mutex<Vec<String>>, dap: &Mutex<Dap>) {
    let Ok((stream, _)) = listener.accept() else {
        return;
    };
    let mut writer = stream.try_clone().unwrap();
    for line in BufReader::new(stream).lines() {
        let Ok(line) = line else { return };
        lines.lock().unwrap().push(line.clone());
        let request: Value = serde_json::from_str(&line).unwrap();
        let id = request["id"].clone();
        let args = request
            .get("arguments")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let answer = dap
            .lock()
            .unwrap()
            .answer(request["request"].as_str().unwrap_or(""), &args);
        // As pyOCD's server answers: `result` left out when there is none.
        let response = match answer {
            Ok(Some(result)) => json!({"id": id, "status": 0, "result": result}),
            Ok(None) => json!({"id": id, "status": 0}),
            Err((status, error)) => json!({"id": id, "status": status, "error": error}),
        };
        if writeln!(writer, "{response}").is_err() {
            return;
        }
    }
}

fn interface(fake: &Fake) -> Box<dyn ArmDebugInterface> {
    let lister = Lister::with_lister(Box::new(DapLister::new([fake.address.clone()])));
    let mut probe = lister
        .open(selector(&fake.address))
        .expect("the fake opens as a probe");
    probe.attach_to_unspecified().expect("attach");
    probe
        .try_into_arm_debug_interface(DefaultArmSequence::create())
        .map_err(|(_, e)| e)
        .expect("probe-rs's ARM interface")
}

const AP0: FullyQualifiedApAddress = FullyQualifiedApAddress::v1_with_default_dp(0);

#[test]
fn requests_go_out_exactly_as_pyocds_client_writes_them() {
    let fake = Fake::start();
    let mut arm = interface(&fake);
    arm.read_raw_dp_register(DpAddress::Default, DPIDR::ADDRESS)
        .unwrap();
    drop(arm);
    let lines = fake.lines();
    // Python 3: json.dumps({"id": 0, "request": "hello", "arguments": [1]}) and so on.
    assert_eq!(
        lines[..4],
        [
            r#"{"id": 0, "request": "hello", "arguments": [1]}"#,
            r#"{"id": 1, "request": "open"}"#,
            r#"{"id": 2, "request": "connect", "arguments": ["SWD"]}"#,
            r#"{"id": 3, "request": "set_clock", "arguments": [1000000]}"#,
        ]
    );
    // Every line: ids counting from 0, keys in pyOCD's order with its separators.
    for (id, line) in lines.iter().enumerate() {
        let prefix = format!(r#"{{"id": {id}, "request": ""#);
        assert!(line.starts_with(&prefix), "{line}");
        // `": "` and `, ` only (no string in these requests holds a colon or a comma).
        assert!(!line.replace("\": ", "").contains(':'), "{line}");
        assert!(!line.replace(", ", "").contains(','), "{line}");
    }
    // What probe-rs 0.32 sends from attach to drop, for a server to honour: a line reset, the
    // JTAG-to-SWD switch and another line reset, DPIDR, ABORT clearing every sticky flag
    // (0x1E), SELECT 0, CTRL/STAT; ABORT with DAPABORT too (0x1F), the power-up request
    // (CDBGPWRUPREQ | CSYSPWRUPREQ | MASKLANE 0xF, 0x50000F00) polled until both ACKs, written
    // again; then, dropped, CTRL/STAT 0 polled until the ACKs drop, and `close`. probe-rs
    // writes SELECT 0 three times; the probe sends it once, as the DP holds it after that
    // (`select.rs`).
    assert_eq!(
        fake.requests_since(4),
        [
            "flush",
            "swj_sequence [51,2251799813685247]",
            "swj_sequence [16,59294]",
            "swj_sequence [54,2251799813685247]",
            "read_dp [0]",
            "write_dp [0,30]",
            "flush",
            "write_dp [8,0]",
            "read_dp [4]",
            "read_dp [0]",
            "read_dp [4]",
            "write_dp [0,31]",
            "write_dp [4,1342181120]",
            "flush",
            "read_dp [4]",
            "write_dp [4,1342181120]",
            "read_dp [4]",
            "read_dp [4]",
            "read_dp [0]",
            "read_dp [0]",
            "write_dp [4,0]",
            "read_dp [4]",
            "flush",
            "close",
        ]
    );
}

#[test]
fn probe_rs_reads_the_dpidr_and_ram_through_the_mem_ap() {
    let fake = Fake::start();
    fake.dap
        .lock()
        .unwrap()
        .ram
        .extend([(0x2000_0010, 0xCAFE_F00D), (0x2000_0014, 0x1234_5678)]);
    let mut arm = interface(&fake);
    assert_eq!(
        arm.read_raw_dp_register(DpAddress::Default, DPIDR::ADDRESS)
            .unwrap(),
        DPIDR_F446
    );
    assert_eq!(
        arm.access_ports(DpAddress::Default)
            .unwrap()
            .into_iter()
            .collect::<Vec<_>>(),
        [AP0]
    );
    let mut memory = arm.memory_interface(&AP0).unwrap();
    assert_eq!(memory.read_word_32(0x2000_0010).unwrap(), 0xCAFE_F00D);
    memory.write_word_32(0x2000_0100, 0xDEAD_BEEF).unwrap();
    assert_eq!(memory.read_word_32(0x2000_0100).unwrap(), 0xDEAD_BEEF);
    // A block: one read_ap_multiple, not a round trip a word.
    let before = fake.lines().len();
    let mut words = [0u32; 64];
    memory.read_32(0x2000_0010, &mut words).unwrap();
    assert_eq!(words[..2], [0xCAFE_F00D, 0x1234_5678]);
    let requests = fake.requests_since(before);
    assert!(
        requests.iter().any(|r| r == "read_ap_multiple [12,64]"),
        "{requests:?}"
    );
    assert!(requests.len() <= 4, "{requests:?}");
    let block: Vec<u32> = (0..32).collect();
    memory.write_32(0x2000_0200, &block).unwrap();
    let mut back = [0u32; 32];
    memory.read_32(0x2000_0200, &mut back).unwrap();
    assert_eq!(back[..], block[..]);
    // The block went as one request (posted: the server has it once the read is answered).
    assert!(
        fake.requests_since(before)
            .iter()
            .any(|r| r.starts_with("write_ap_multiple [12,[0,1,2,"))
    );
}

#[test]
fn a_fault_is_probe_rs_fault_and_the_sticky_error_is_cleared() {
    let fake = Fake::start();
    let mut arm = interface(&fake);
    arm.read_raw_ap_register(&AP0, 0x00).unwrap(); // the DP powered up, SELECT 0 held
    // TAR at no memory, then DRW: FAULT, as an AHB error on the chip.
    let before = fake.lines().len();
    arm.write_raw_ap_register(&AP0, 0x04, 0x1000_0000).unwrap();
    match arm.read_raw_ap_register(&AP0, 0x0C) {
        Err(ArmError::Dap(DapError::FaultResponse)) => {}
        other => panic!("{other:?}"),
    }
    // ABORT with ORUNERRCLR | WDERRCLR | STKERRCLR | STKCMPCLR, pyOCD's clear_sticky_err.
    assert_eq!(
        fake.requests_since(before),
        ["write_ap [4,268435456]", "read_ap [12]", "write_dp [0,30]"]
    );
    assert!(!fake.dap.lock().unwrap().sticky);
    // The next access works: the recovery ran.
    let mut memory = arm.memory_interface(&AP0).unwrap();
    assert!(memory.read_word_32(0x1000_0000).is_err());
    assert_eq!(memory.read_word_32(0x2000_0000).unwrap(), 0);
}

#[test]
fn a_posted_writes_fault_comes_with_the_next_request() {
    let fake = Fake::start();
    let mut arm = interface(&fake);
    arm.read_raw_ap_register(&AP0, 0x00).unwrap(); // the DP powered up, SELECT 0 held
    // A DRW write at no memory: posted, so the call returns before the server answers, as
    // probe-rs's CMSIS-DAP driver returns from a queued write.
    arm.write_raw_ap_register(&AP0, 0x04, 0x1000_0000).unwrap();
    arm.write_raw_ap_register(&AP0, 0x0C, 0xDEAD_BEEF).unwrap();
    let before = fake.lines().len();
    match arm.read_raw_dp_register(DpAddress::Default, DPIDR::ADDRESS) {
        Err(ArmError::Dap(DapError::FaultResponse)) => {}
        other => panic!("{other:?}"),
    }
    assert!(
        !fake.dap.lock().unwrap().sticky,
        "the sticky error is cleared"
    );
    // The read was not sent: the write's FAULT came first, then the ABORT.
    let requests = fake.requests_since(before);
    assert_eq!(requests.last().map(String::as_str), Some("write_dp [0,30]"));
    assert!(!requests.iter().any(|r| r == "read_dp [0]"), "{requests:?}");
    assert_eq!(
        arm.read_raw_dp_register(DpAddress::Default, DPIDR::ADDRESS)
            .unwrap(),
        DPIDR_F446
    );
}

#[test]
fn a_wait_is_probe_rs_wait_and_dapabort_is_written() {
    let fake = Fake::start();
    let mut arm = interface(&fake);
    // CSW: a register the probe does not keep (IDR it would answer itself).
    let csw = arm.read_raw_ap_register(&AP0, 0x00).unwrap();
    let connection = dap_probe::connection(&fake.address).expect("the probe's connection");
    assert_eq!(connection.monitor("wait-next").unwrap(), "");
    let before = fake.lines().len();
    match arm.read_raw_ap_register(&AP0, 0x00) {
        Err(ArmError::Dap(DapError::WaitResponse)) => {}
        other => panic!("{other:?}"),
    }
    // The error made SELECT unknown: written again before the next access.
    assert_eq!(
        fake.requests_since(before),
        ["read_ap [0]", "write_dp [0,1]"]
    );
    let before = fake.lines().len();
    assert_eq!(arm.read_raw_ap_register(&AP0, 0x00).unwrap(), csw);
    assert_eq!(
        fake.requests_since(before),
        ["write_dp [8,0]", "read_ap [0]"]
    );
}

#[test]
fn an_aps_fixed_registers_go_over_the_wire_once_and_select_when_it_changes() {
    let fake = Fake::start();
    let mut arm = interface(&fake);
    arm.read_raw_ap_register(&AP0, 0x00).unwrap(); // the DP powered up, SELECT 0 held
    let before = fake.lines().len();
    // IDR twice, CSW after each: IDR read once; SELECT to bank 0xF and back once each, as
    // probe-rs asks for them around each IDR.
    assert_eq!(arm.read_raw_ap_register(&AP0, 0xFC).unwrap(), AHB_AP_IDR);
    arm.read_raw_ap_register(&AP0, 0x00).unwrap();
    assert_eq!(arm.read_raw_ap_register(&AP0, 0xFC).unwrap(), AHB_AP_IDR);
    arm.read_raw_ap_register(&AP0, 0x00).unwrap();
    assert_eq!(
        fake.requests_since(before),
        [
            "write_dp [8,240]",
            "read_ap [252]",
            "write_dp [8,0]",
            "read_ap [0]",
            "read_ap [0]"
        ]
    );
}

#[test]
fn the_host_reaches_the_probes_connection_and_the_probe_closes_when_dropped() {
    let fake = Fake::start();
    let arm = interface(&fake);
    let connection = dap_probe::connection(&fake.address).expect("the probe's connection");
    assert_eq!(connection.monitor("leds").unwrap(), "echo: leds");
    assert_eq!(
        connection
            .monitor_timeout("game 3", Duration::from_secs(30))
            .unwrap(),
        "echo: game 3"
    );
    assert!(
        fake.requests_since(0)
            .contains(&r#"monitor ["leds"]"#.to_string())
    );
    drop(arm);
    assert!(
        dap_probe::connection(&fake.address).is_some(),
        "the host still holds it"
    );
    drop(connection);
    assert!(dap_probe::connection(&fake.address).is_none());
    // The last handle gone, the probe is let go as pyOCD's client does.
    let requests = fake.requests_since(0);
    assert_eq!(
        requests.last().map(String::as_str),
        Some("close"),
        "{requests:?}"
    );
}

#[test]
fn reset_requests_follow_probe_rs_calls() {
    let fake = Fake::start();
    let lister = Lister::with_lister(Box::new(DapLister::new([fake.address.clone()])));
    let mut probe = lister.open(selector(&fake.address)).unwrap();
    probe.target_reset_assert().unwrap();
    probe.target_reset_deassert().unwrap();
    probe.target_reset().unwrap();
    assert_eq!(
        fake.requests_since(2),
        ["assert_reset [true]", "assert_reset [false]", "reset"]
    );
}

/// A server at `path` that answers `hello`, then `line` to the next request ("": hangs up).
fn answering(line: &'static str, path: &Path) -> Address {
    let listener = UnixListener::bind(path).unwrap();
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut writer = stream.try_clone().unwrap();
        let mut reader = BufReader::new(stream);
        let mut request = String::new();
        reader.read_line(&mut request).unwrap();
        writeln!(writer, r#"{{"id": 0, "status": 0}}"#).unwrap();
        request.clear();
        if reader.read_line(&mut request).unwrap() > 0 && !line.is_empty() {
            writeln!(writer, "{line}").unwrap();
        }
        // "" : hang up without answering; otherwise keep the socket open, silent.
        if !line.is_empty() {
            std::thread::sleep(Duration::from_secs(2));
        }
    });
    Address::Unix(path)
}

#[test]
fn bad_answers_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut client = Client::connect(&answering("", &dir.path().join("a.sock"))).unwrap();
    assert!(matches!(
        client.read_dp(0),
        Err(ClientError::Closed { request: "read_dp" })
    ));

    let mut client = Client::connect(&answering(
        r#"{"id": 1, "status": 12, "error": "FAULT ACK"}"#,
        &dir.path().join("b.sock"),
    ))
    .unwrap();
    let e = client.read_ap(0xC).unwrap_err();
    assert_eq!(e.status(), Some(Status::TransferFault));
    assert_eq!(
        e.to_string(),
        "`read_ap` failed on the DAP server (status 12, transfer fault (FAULT)): FAULT ACK"
    );

    let mut client = Client::connect(&answering(
        r#"{"id": 1, "status": 0, "result": "x"}"#,
        &dir.path().join("c.sock"),
    ))
    .unwrap();
    assert!(matches!(
        client.read_dp(0),
        Err(ClientError::Malformed {
            reason: "the result is not a 32-bit unsigned integer",
            ..
        })
    ));

    let mut client = Client::connect(&answering("\u{1}", &dir.path().join("d.sock"))).unwrap();
    client.set_timeout(Duration::from_millis(200)).unwrap();
    assert!(matches!(
        client.flush(),
        Err(ClientError::Malformed {
            reason: "not JSON",
            ..
        })
    ));
    assert!(matches!(
        client.flush(),
        Err(ClientError::Timeout {
            request: "flush",
            ..
        })
    ));
}

#[test]
fn a_probe_rs_session_attaches_to_the_stm32f446_and_reads_ram() {
    use probe_rs::config::Registry;
    use probe_rs::{MemoryInterface, Permissions};
    let fake = Fake::start();
    fake.dap
        .lock()
        .unwrap()
        .ram
        .insert(0x2000_0040, 0x0BAD_CAFE);
    let lister = Lister::with_lister(Box::new(DapLister::new([fake.address.clone()])));
    let probe = lister.open(selector(&fake.address)).unwrap();
    let registry = Registry::from_builtin_families();
    let mut session = probe
        .attach_with_registry("STM32F446RETx", Permissions::default(), &registry)
        .unwrap_or_else(|e| {
            let requests = fake.requests_since(0);
            panic!("{e:?}\n{:#?}", &requests)
        });
    let mut core = session.core(0).unwrap();
    assert_eq!(core.read_word_32(0x2000_0040).unwrap(), 0x0BAD_CAFE);
    drop(core);
    drop(session);
    // The STM32 sequence: DBGMCU_CR's DBG_SLEEP, DBG_STOP, DBG_STANDBY set at attach and the
    // value read restored at the end; the core's debug enabled through DHCSR.
    let writes = fake.memory_writes();
    assert_eq!(
        writes.iter().find(|w| w.0 == DBGMCU_CR),
        Some(&(DBGMCU_CR, 0x7))
    );
    assert_eq!(writes.last(), Some(&(DBGMCU_CR, 0)));
    assert!(writes.contains(&(DHCSR, 0xA05F_0001)), "{writes:x?}");
    assert_eq!(
        fake.requests_since(0).last().map(String::as_str),
        Some("close")
    );
}
