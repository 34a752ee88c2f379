//! Why the virtual board stopped running the firmware: each reason names what a person would
//! look at (the register, the chip document's section, the instruction) and has its exit code.

use std::fmt;

/// A register access the model refuses: to nothing it models, or one it cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The address accessed.
    pub address: u32,
    /// Its offset in the peripheral's block.
    pub offset: u32,
    /// The peripheral there, if the chip has one the model knows the name of.
    pub peripheral: Option<&'static str>,
    /// The register's name, if known.
    pub register: Option<&'static str>,
    /// The value written; `None` for a read.
    pub written: Option<u32>,
    /// Bytes accessed.
    pub size: usize,
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.written {
            Some(v) => write!(f, "write of {v:#010x} to ")?,
            None => write!(f, "read of ")?,
        }
        match (self.peripheral, self.register) {
            (Some(p), Some(r)) => write!(f, "{p}_{r} ({:#010x})", self.address)?,
            (Some(p), None) => write!(
                f,
                "{p} register at offset {:#05x} ({:#010x})",
                self.offset, self.address
            )?,
            _ => write!(f, "{:#010x}", self.address)?,
        }
        if self.size != 4 {
            write!(f, " ({} bytes)", self.size)?;
        }
        Ok(())
    }
}

/// A configuration the chip's documents forbid, with the register values that make it and the
/// section they break: what the firmware (or the profile) must change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigFault {
    /// What is wrong, with the register values.
    pub what: String,
    /// The section of RM0390 or DS10693 (or another data sheet) it breaks.
    pub rule: &'static str,
}

impl fmt::Display for ConfigFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.what, self.rule)
    }
}

/// What a peripheral model answers instead of a value: a refusal (a board fault, a firmware
/// self-check fault and a configuration fault are other things).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing modelled there.
    Unmodelled(Access),
    /// The access breaks the chip's rules.
    Config(ConfigFault),
}

impl Refusal {
    /// A configuration fault.
    pub fn config(what: impl Into<String>, rule: &'static str) -> Refusal {
        Refusal::Config(ConfigFault {
            what: what.into(),
            rule,
        })
    }
}

/// Where the core was: its PC and the function around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The program counter.
    pub pc: u32,
    /// The ELF's function symbol around it, demangled.
    pub symbol: Option<String>,
    /// Whether `pc` is the instruction itself, or only the start of its instruction block (a
    /// fault inside a modelled peripheral's page).
    pub exact: bool,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.exact {
            write!(f, "the instruction block at ")?;
        }
        write!(f, "PC {:#010x}", self.pc)?;
        if let Some(s) = &self.symbol {
            write!(f, " in {s}")?;
        }
        Ok(())
    }
}

/// Why the firmware stopped running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// An access to a register (or address) the model does not model: never a silent zero.
    Unmodelled {
        /// The access.
        access: Access,
        /// The instruction that made it.
        place: Place,
    },
    /// A configuration fault.
    Config {
        /// What breaks which rule.
        fault: ConfigFault,
        /// The instruction that made it.
        place: Place,
    },
    /// The stack ran off the bottom of SRAM: an access below 0x20000000 by an SP at SRAM's
    /// bottom (flip-link puts the stack below the statics, so an overflow faults there instead
    /// of overwriting them). Told apart from an unmodelled access by [`crate::stack::stop_for`].
    StackOverflow {
        /// The access below SRAM.
        access: Access,
        /// SP when it was refused.
        sp: u32,
        /// The instruction that made it; its function is the one that overflowed.
        place: Place,
    },
    /// The firmware panicked (panic-probe's `udf`).
    Panic {
        /// Where.
        place: Place,
        /// The last defmt lines the firmware wrote, its panic message among them.
        message: Vec<String>,
    },
    /// The core stopped at `BKPT #imm` (a semihosting call is `BKPT 0xAB`): a debugger's
    /// business; only the test runner catches it ([`crate::cpu::Core::catch_breakpoints`]).
    Breakpoint {
        /// The instruction's immediate.
        imm: u8,
        /// Where.
        place: Place,
    },
    /// The CPU could not go on (an instruction fetch outside memory, an invalid instruction
    /// other than panic-probe's `udf`).
    Cpu {
        /// What unicorn said.
        what: String,
        /// Where.
        place: Place,
    },
}

impl Stop {
    /// The process's exit code for this stop: 3 a configuration fault, 4 an unmodelled
    /// access, 7 a stack overflow, 101 a firmware panic (as the QEMU firmware's), 5 anything
    /// else.
    pub fn exit_code(&self) -> i32 {
        match self {
            Stop::Config { .. } => 3,
            Stop::Unmodelled { .. } => 4,
            Stop::StackOverflow { .. } => 7,
            Stop::Panic { .. } => 101,
            Stop::Cpu { .. } | Stop::Breakpoint { .. } => 5,
        }
    }
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Unmodelled { access, place } => write!(
                f,
                "the firmware made a {access} at {place}, which the virtual board does not model"
            ),
            Stop::StackOverflow { access, sp, place } => {
                write!(f, "stack overflow in ")?;
                match &place.symbol {
                    Some(s) => write!(f, "{s}")?,
                    None => write!(f, "{:#010x}", place.pc)?,
                }
                write!(
                    f,
                    ": SP {sp:#010x} ran off the bottom of SRAM, a {access} at {place} (RM0390 \
                     2.3.1: nothing is mapped below SRAM's 0x20000000, where flip-link puts the \
                     stack's end)"
                )
            }
            Stop::Config { fault, place } => {
                write!(f, "configuration fault at {place}: {fault}")
            }
            Stop::Panic { place, message } => {
                write!(f, "the firmware panicked (udf at {place})")?;
                match message.last() {
                    Some(line) => write!(f, ": {line}"),
                    None => write!(f, "; no defmt message was left unread on RTT up 0"),
                }
            }
            Stop::Cpu { what, place } => write!(f, "the CPU stopped at {place}: {what}"),
            Stop::Breakpoint { imm, place } => {
                write!(f, "the firmware stopped at BKPT {imm:#04x} at {place}")?;
                if *imm == 0xAB {
                    write!(f, " (a semihosting call: run it with `virtual-board test`)")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unmodelled_access_names_address_register_direction_value_and_pc() {
        let stop = Stop::Unmodelled {
            access: Access {
                address: 0x4002_3C04,
                offset: 4,
                peripheral: Some("FLASH"),
                register: Some("KEYR"),
                written: Some(0x4567_0123),
                size: 4,
            },
            place: Place {
                pc: 0x0800_1234,
                symbol: Some("firmware::main".into()),
                exact: true,
            },
        };
        assert_eq!(
            stop.to_string(),
            "the firmware made a write of 0x45670123 to FLASH_KEYR (0x40023c04) at PC 0x08001234 \
             in firmware::main, which the virtual board does not model"
        );
        assert_eq!(stop.exit_code(), 4);
    }

    #[test]
    fn a_stack_overflow_names_the_function_first_then_sp_and_the_access() {
        let stop = Stop::StackOverflow {
            access: Access {
                address: 0x1FFF_FFFC,
                offset: 0,
                peripheral: None,
                register: None,
                written: Some(7),
                size: 4,
            },
            sp: 0x2000_0000,
            place: Place {
                pc: 0x0800_0100,
                symbol: Some("firmware_tests::deep".into()),
                exact: true,
            },
        };
        assert_eq!(
            stop.to_string(),
            "stack overflow in firmware_tests::deep: SP 0x20000000 ran off the bottom of SRAM, \
             a write of 0x00000007 to 0x1ffffffc at PC 0x08000100 in firmware_tests::deep \
             (RM0390 2.3.1: nothing is mapped below SRAM's 0x20000000, where flip-link puts \
             the stack's end)"
        );
        assert_eq!(stop.exit_code(), 7);
    }
}
