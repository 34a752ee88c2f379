//! What a stub does that the protocol does not say, as data rather than as special cases in
//! the code that talks to it. There is no default: whoever starts or names a stub knows which
//! it is and gives its quirks ([`Quirks::QEMU`], [`Quirks::PLAIN`], or a program's own for its
//! own stub).

/// One stub's quirks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quirks {
    /// Read `target.xml` at connect: QEMU answers `p`/`P` only to a client that has read its
    /// target description (an older gdb without XML gets empty answers and falls back to `g`).
    pub target_xml_first: bool,
    /// Writes to device registers through `M` are dropped without an error (measured on QEMU
    /// 7.2: an AIRCR reset written through `M` does nothing). The probe then refuses a write
    /// outside RAM rather than lose it.
    pub drops_device_writes: bool,
    /// The monitor command (`qRcmd`) that resets the system, if the stub has one; without
    /// it a reset request is refused.
    pub reset_command: Option<&'static str>,
    /// The stub answers memory packets while the guest runs (between instruction blocks), as a
    /// debug probe reads memory over the AHB without stopping the core; without it every
    /// access stops the guest first (QEMU's stub answers only a stopped guest).
    pub reads_while_running: bool,
    /// The monitor command that names the stub's memory window (RAM in a file the client maps
    /// too: accesses there send no packet), if it has one.
    pub window_command: Option<&'static str>,
}

impl Quirks {
    /// QEMU's gdbstub (checked on 7.2).
    pub const QEMU: Quirks = Quirks {
        target_xml_first: true,
        drops_device_writes: true,
        reset_command: Some("system_reset"),
        reads_while_running: false,
        window_command: None,
    };

    /// A stub that follows the protocol and models the device registers itself (a gdbstub
    /// crate server in front of a CPU emulator, say): writes go through, a reset is a write
    /// to AIRCR like any other.
    pub const PLAIN: Quirks = Quirks {
        target_xml_first: false,
        drops_device_writes: false,
        reset_command: None,
        reads_while_running: false,
        window_command: None,
    };
}
