//! The crate against a stub it has never seen: a small GDB remote server written here from
//! the protocol's description (packets `$data#sum`, `+` acks, `m`/`M`/`p`/`P`/`c`/`s`/`?`,
//! the 0x03 interrupt), over TCP. The client, the RTT reader and (with `probe-rs`) the probe
//! opened by selector through probe-rs's lister all run against it, with no QEMU.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use gdb_probe::{Address, Gdb, Quirks};

/// What the fake target holds: sparse memory, 43 registers, whether it runs.
#[derive(Debug, Default)]
struct Machine {
    memory: BTreeMap<u32, u8>,
    regs: Vec<u32>,
    running: bool,
    packets: Vec<String>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn send(stream: &mut TcpStream, data: &str) {
    let sum = data.bytes().fold(0u8, u8::wrapping_add);
    stream
        .write_all(format!("${data}#{sum:02x}").as_bytes())
        .unwrap();
}

/// Answers one packet; `None` for one that gets no answer (`c`).
fn answer(m: &mut Machine, packet: &str) -> Option<String> {
    m.packets.push(packet.to_string());
    let (cmd, rest) = packet.split_at(1);
    Some(match cmd {
        "q" if rest.starts_with("Supported") => "PacketSize=400".to_string(),
        "q" if rest.starts_with("Rcmd") => "OK".to_string(),
        "?" => "S05".to_string(),
        "m" => {
            let (addr, len) = rest.split_once(',').unwrap();
            let (addr, len) = (
                u32::from_str_radix(addr, 16).unwrap(),
                u32::from_str_radix(len, 16).unwrap(),
            );
            let bytes: Vec<u8> = (addr..addr + len)
                .map(|a| m.memory.get(&a).copied().unwrap_or(0))
                .collect();
            hex(&bytes)
        }
        "M" => {
            let (head, data) = rest.split_once(':').unwrap();
            let addr = u32::from_str_radix(head.split(',').next().unwrap(), 16).unwrap();
            for (i, b) in unhex(data).into_iter().enumerate() {
                m.memory.insert(addr + i as u32, b);
            }
            "OK".to_string()
        }
        "p" => hex(&m.regs[usize::from_str_radix(rest, 16).unwrap()].to_le_bytes()),
        "P" => {
            let (n, v) = rest.split_once('=').unwrap();
            let v = unhex(v);
            m.regs[usize::from_str_radix(n, 16).unwrap()] =
                u32::from_le_bytes([v[0], v[1], v[2], v[3]]);
            "OK".to_string()
        }
        "c" => {
            m.running = true;
            return None;
        }
        "s" => {
            m.regs[15] += 2;
            "S05".to_string()
        }
        _ => String::new(),
    })
}

/// Serves one connection on a fresh port; returns the address and the shared machine.
fn serve(machine: Machine) -> (Address, Arc<Mutex<Machine>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = Address::Tcp(listener.local_addr().unwrap().to_string());
    let shared = Arc::new(Mutex::new(machine));
    let m = shared.clone();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut byte = [0u8; 1];
        let mut packet: Option<Vec<u8>> = None;
        while stream.read_exact(&mut byte).is_ok() {
            match (byte[0], &mut packet) {
                (b'$', _) => packet = Some(Vec::new()),
                (b'#', Some(data)) => {
                    let mut sum = [0u8; 2];
                    stream.read_exact(&mut sum).unwrap();
                    stream.write_all(b"+").unwrap();
                    let text = String::from_utf8(std::mem::take(data)).unwrap();
                    packet = None;
                    if let Some(reply) = answer(&mut m.lock().unwrap(), &text) {
                        send(&mut stream, &reply);
                    }
                }
                (b, Some(data)) => data.push(b),
                (0x03, None) => {
                    m.lock().unwrap().running = false;
                    send(&mut stream, "S02");
                }
                _ => {} // acks
            }
        }
    });
    (address, shared)
}

fn machine() -> Machine {
    Machine {
        regs: vec![0; 43],
        ..Machine::default()
    }
}

#[test]
fn the_client_speaks_to_a_stub_over_tcp() {
    let (address, m) = serve(machine());
    let mut gdb = Gdb::connect(&address, Quirks::PLAIN).unwrap();
    assert!(
        !m.lock()
            .unwrap()
            .packets
            .iter()
            .any(|p| p.contains("target.xml")),
        "a plain stub is not asked for its target description"
    );
    gdb.write_memory(0x2000_0000, &[1, 2, 3, 0xff]).unwrap();
    let mut buf = [0u8; 4];
    gdb.read_memory(0x2000_0000, &mut buf).unwrap();
    assert_eq!(buf, [1, 2, 3, 0xff]);
    // A read longer than one packet is split and put back together.
    let long: Vec<u8> = (0..2000u32).map(|i| (i * 7) as u8).collect();
    gdb.write_memory(0x2000_1000, &long).unwrap();
    let mut back = vec![0u8; long.len()];
    gdb.read_memory(0x2000_1000, &mut back).unwrap();
    assert_eq!(back, long);
    gdb.write_register(15, 0x1c4).unwrap();
    gdb.step().unwrap();
    assert_eq!(gdb.read_register(15).unwrap(), 0x1c6);
    gdb.resume().unwrap();
    // `c` has no reply until the target stops: the stub's thread marks it running when the
    // packet arrives, which can be a moment after `resume` returns.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !m.lock().unwrap().running && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(m.lock().unwrap().running);
    // An access while running interrupts first.
    assert_eq!(gdb.read_u32(0x2000_0000).unwrap(), 0xff03_0201);
    assert!(!m.lock().unwrap().running);
}

#[test]
fn rtt_is_read_and_written_through_the_memory_trait() {
    use gdb_probe::rtt::ControlBlock;
    let mut target = machine();
    let block = 0x2000_0000u32;
    let mut put = |addr: u32, bytes: &[u8]| {
        for (i, &b) in bytes.iter().enumerate() {
            target.memory.insert(addr + i as u32, b);
        }
    };
    // The control block as SEGGER's layout has it: id, counts, then one descriptor per
    // channel (name, buffer, size, write, read, flags), up channels first.
    put(block, b"SEGGER RTT\0\0\0\0\0\0");
    put(block + 16, &1u32.to_le_bytes());
    put(block + 20, &1u32.to_le_bytes());
    let (name, up_buf, down_buf) = (0x2000_0100u32, 0x2000_0200u32, 0x2000_0300u32);
    put(name, b"bench\0");
    let descriptor = |buffer: u32, size: u32, write: u32, read: u32| {
        [name, buffer, size, write, read, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    put(block + 24, &descriptor(up_buf, 16, 3, 14)); // wraps: 14, 15, then 0..3
    put(block + 48, &descriptor(down_buf, 8, 0, 0));
    put(up_buf + 14, b"ab");
    put(up_buf, b"cde");
    let (address, m) = serve(target);
    let mut gdb = Gdb::connect(&address, Quirks::PLAIN).unwrap();
    let cb = ControlBlock::read(&mut gdb, block).unwrap().unwrap();
    assert_eq!((cb.up.len(), cb.down.len()), (1, 1));
    assert_eq!((cb.up[0].name.as_str(), cb.up[0].size), ("bench", 16));
    let mut out = Vec::new();
    cb.read_up(&mut gdb, 0, &mut out).unwrap();
    assert_eq!(out, b"abcde");
    assert!(cb.write_down(&mut gdb, 0, b"hello").unwrap());
    assert!(
        !cb.write_down(&mut gdb, 0, b"xyz").unwrap(),
        "8-byte ring keeps one free"
    );
    let at = |a: u32| m.lock().unwrap().memory.get(&a).copied().unwrap_or(0);
    assert_eq!(
        (0..5).map(|i| at(down_buf + i)).collect::<Vec<_>>(),
        b"hello"
    );
    // The host's read offset moved to the write offset; the down write offset to 5.
    assert_eq!(at(block + 24 + 16), 3);
    assert_eq!(at(block + 48 + 12), 5);
    // A second reader goes back to the start of the frame the first one read: after the
    // last 0 (at 13) before the read offset, across the wrap.
    assert_eq!(cb.rewind_up(&mut gdb, 0, 0).unwrap(), 5);
    assert_eq!(at(block + 24 + 16), 14);
    let mut again = Vec::new();
    cb.read_up(&mut gdb, 0, &mut again).unwrap();
    assert_eq!(again, b"abcde");
    // At a frame's start it stays.
    put_delimited(&m, up_buf + 2);
    assert_eq!(cb.rewind_up(&mut gdb, 0, 0).unwrap(), 0);
    // The last whole frame, read already or not: "abcd" and its 0 at 2, from 14 (after
    // the 0 at 13), across the wrap...
    cb.read_up(&mut gdb, 0, &mut Vec::new()).unwrap();
    assert_eq!(at(block + 24 + 16), 3);
    assert!(cb.rewind_up_to_last(&mut gdb, 0, 0).unwrap());
    assert_eq!(at(block + 24 + 16), 14);
    // ... and none when the ring's last byte ends no frame: the offset stays.
    m.lock().unwrap().memory.insert(up_buf + 2, b'x');
    assert!(!cb.rewind_up_to_last(&mut gdb, 0, 0).unwrap());
    assert_eq!(at(block + 24 + 16), 14);
}

/// A 0 at `addr` of the machine's memory.
fn put_delimited(m: &std::sync::Arc<std::sync::Mutex<Machine>>, addr: u32) {
    m.lock().unwrap().memory.insert(addr, 0);
}

#[cfg(feature = "probe-rs")]
#[test]
fn probe_rs_opens_the_stub_by_selector_like_any_probe() {
    use gdb_probe::probe::{GdbLister, GdbTarget, connection, parse_selector, selector};
    use gdb_probe::targets::{MPS2_AN386, MPS2_AN386_YAML};
    use probe_rs::MemoryInterface;
    use probe_rs::probe::list::Lister;

    let mut target = machine();
    target.regs[25] = 0x0100_0000; // xPSR: Thumb
    let (address, m) = serve(target);
    let text = format!("gdb:{address}");
    assert_eq!(parse_selector(&text).unwrap(), address);
    let lister = Lister::with_lister(Box::new(GdbLister::new([GdbTarget {
        address: address.clone(),
        quirks: Quirks::PLAIN,
        ram: std::iter::once(0x2000_0000..0x2040_0000).collect(),
    }])));
    let listed = lister.list_all();
    assert!(
        listed
            .iter()
            .any(|p| p.serial_number.as_deref() == Some(address.to_string().as_str())),
        "{listed:?}"
    );
    let probe = lister.open(selector(&address)).unwrap();
    assert!(
        connection(&address).is_some(),
        "the host reaches the probe's connection"
    );
    let mut registry = probe_rs::config::Registry::new();
    registry
        .add_target_family_from_yaml(MPS2_AN386_YAML)
        .unwrap();
    let mut session = probe
        .attach_with_registry(MPS2_AN386, probe_rs::Permissions::default(), &registry)
        .unwrap();
    let mut core = session.core(0).unwrap();
    core.write_word_32(0x2000_0040, 0xCAFE_F00D).unwrap();
    assert_eq!(core.read_word_32(0x2000_0040).unwrap(), 0xCAFE_F00D);
    assert!(
        m.lock()
            .unwrap()
            .packets
            .iter()
            .any(|p| p.starts_with("M20000040,4:")),
        "the write reached the stub as an M packet"
    );
    drop(core);
    drop(session);
    assert!(connection(&address).is_none(), "gone with the probe");
}
