//! The GDB stubs a `gdb:` probe can name, as one table ([`KINDS`]): how each kind is
//! recognised, and how it connects (with its quirks and memory map). A stub is matched
//! against the rows in order, never assumed to be one; the last row takes any stub. A new
//! kind (OpenOCD's, say) is one file here and one row.

mod plain;
mod qemu;
mod virtual_board;

use std::path::Path;
use std::time::Duration;

use gdb_probe::{Address, Gdb, Quirks};

use super::env::Probe;
use super::probe::Hil;
use crate::dut::DutError;

/// One kind of GDB stub.
pub struct StubKind {
    /// What it is called.
    pub name: &'static str,
    /// Whether the stub behind `gdb` is of this kind: asked on a connection of its own,
    /// closed before the probe's (a stub may serve one debugger at a time).
    pub recognised: fn(&mut Gdb) -> bool,
    /// Connects the HIL target to the stub at the address, flashing the ELF.
    pub connect: fn(&Address, &'static boards::Profile, &Path) -> Result<Hil, DutError>,
}

impl std::fmt::Debug for StubKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The kinds, tried in order: the virtual board's, QEMU's, then any stub.
pub const KINDS: &[StubKind] = &[virtual_board::KIND, qemu::KIND, plain::KIND];

/// The kind of the stub at `address`: the first row that recognises it, else the last (a
/// stub that does not answer is left to the connection to name what is wrong).
pub fn recognise(address: &Address) -> &'static StubKind {
    let any = &KINDS[KINDS.len() - 1];
    let Ok(mut gdb) = Gdb::connect(address, Quirks::PLAIN) else {
        return any;
    };
    let _ = gdb.set_answer_timeout(Duration::from_secs(2));
    KINDS
        .iter()
        .find(|kind| (kind.recognised)(&mut gdb))
        .unwrap_or(any)
}

impl Hil {
    /// Connects: `request` names the probe (`VID:PID[:SERIAL]`), the chip, a GDB stub
    /// (`gdb:unix:PATH`, `gdb:tcp:HOST:PORT`, of the kind [`recognise`] finds) or a DAP server
    /// (`dap:unix:PATH`, `dap:tcp:HOST:PORT`); the chip defaults to the profile's. Flashes
    /// `elf` and attaches RTT.
    pub fn connect(
        request: &str,
        profile: &'static boards::Profile,
        elf: &Path,
    ) -> Result<Hil, DutError> {
        let probe = if let Ok(address) = dap_probe::parse_selector(request) {
            Probe::Dap(address)
        } else if let Ok(address) = gdb_probe::probe::parse_selector(request) {
            Probe::Gdb(address)
        } else {
            Probe::Board(request.to_string())
        };
        Hil::connect_probe(&probe, profile, elf)
    }

    /// [`Hil::connect`] to a probe already read: a GDB stub's or a DAP server's address is
    /// used as it is, never written out and parsed again.
    pub fn connect_probe(
        probe: &Probe,
        profile: &'static boards::Profile,
        elf: &Path,
    ) -> Result<Hil, DutError> {
        match probe {
            Probe::Dap(address) => super::dap_board::connect(address.clone(), profile, elf),
            Probe::Gdb(address) => (recognise(address).connect)(address, profile, elf),
            Probe::Board(request) => Hil::connect_board(request, profile, elf),
            // Not a board's probe: probe-rs says so in its words, as for any other name.
            Probe::Qemu | Probe::Virtual => Hil::connect_board(&probe.to_string(), profile, elf),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::os::unix::net::UnixListener;

    use super::*;

    /// A stub that is neither QEMU's nor the virtual board: it answers `qSupported`, `?`
    /// and every monitor command with `OK`, anything else with nothing, one connection at a
    /// time, until the test ends.
    fn plain_stub() -> (Address, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stub.sock");
        let listener = UnixListener::bind(&path).unwrap();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let mut packet: Option<Vec<u8>> = None;
                let mut byte = [0u8; 1];
                while stream.read_exact(&mut byte).is_ok() {
                    match (byte[0], &mut packet) {
                        (b'$', _) => packet = Some(Vec::new()),
                        (b'#', Some(data)) => {
                            let mut sum = [0u8; 2];
                            let _ = stream.read_exact(&mut sum);
                            let text = String::from_utf8_lossy(&std::mem::take(data)).into_owned();
                            packet = None;
                            let reply = if text.starts_with("qSupported") {
                                "PacketSize=400"
                            } else if text.starts_with("qRcmd") {
                                "OK"
                            } else if text == "?" {
                                "S05"
                            } else {
                                ""
                            };
                            let sum = reply.bytes().fold(0u8, u8::wrapping_add);
                            let _ = stream.write_all(format!("+${reply}#{sum:02x}").as_bytes());
                        }
                        (b, Some(data)) => data.push(b),
                        _ => {}
                    }
                }
            }
        });
        (Address::Unix(path), dir)
    }

    #[test]
    fn a_stub_neither_qemus_nor_the_virtual_boards_is_a_plain_one() {
        let (address, _dir) = plain_stub();
        assert_eq!(recognise(&address).name, "a GDB stub");
    }

    #[test]
    fn qemus_stub_is_recognised_as_qemus() {
        if std::process::Command::new(crate::machine::QEMU)
            .arg("--version")
            .output()
            .is_err()
        {
            needs::skip("qemu", format!("no {}", crate::machine::QEMU));
            return;
        }
        let (machine, _) =
            crate::machine::spawn_with_gdbstub(crate::machine::qemu_machine(), false).unwrap();
        assert_eq!(recognise(&machine.address()).name, "QEMU's gdbstub");
    }

    /// `dap:` goes to the DAP server through dap-probe, neither a USB probe nor a GDB stub:
    /// a server that greets but cannot give the probe (`open`) is named in the error.
    #[test]
    fn a_dap_selector_opens_the_dap_server() {
        use std::io::BufRead;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dap.sock");
        let listener = UnixListener::bind(&path).unwrap();
        std::thread::spawn(move || {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut writer = stream.try_clone().unwrap();
            for line in std::io::BufReader::new(stream).lines() {
                let Ok(line) = line else { return };
                let request: serde_json::Value = serde_json::from_str(&line).unwrap();
                let id = &request["id"];
                let answer = match request["request"].as_str() {
                    Some("open") => {
                        serde_json::json!({"id": id, "status": 3, "error": "no board behind it"})
                    }
                    _ => serde_json::json!({"id": id, "status": 0}),
                };
                let _ = writeln!(writer, "{answer}");
            }
        });
        let elf = dir.path().join("firmware.elf");
        let request = format!("dap:unix:{}", path.display());
        let e = Hil::connect(&request, &boards::NUCLEO_F446RE, &elf).unwrap_err();
        assert_eq!(
            e.to_string(),
            "target lost: The debug probe could not be created.: An error specific with the \
             selected probe occurred.: `open` failed on the DAP server (status 3, probe error): \
             no board behind it"
        );
    }
}
