//! The faults of the path from the bench to the chip, named from what the chip's own registers
//! say, each in one line with what to do: a core held in reset (DHCSR.S_RESET_ST set read after
//! read, ARMv7-M ARM C1.6.3), a core locked up (DHCSR.S_LOCKUP, B1.5.15), flash read-protected
//! (an STM32F4's FLASH_OPTCR.RDP, RM0390 3.8.6), and a debug port that answers WAIT or FAULT
//! (ADIv5 B4.2.2) where probe-rs sees only a failed transfer.
//!
//! [`look`] reads the first two and the third before probe-rs attaches (its attach halts the
//! core, which a core in reset never does, and reads flash, which protection refuses), through
//! a bare memory AP; [`named`] finds a WAIT or FAULT inside any of probe-rs's errors.

use probe_rs::MemoryInterface;
use probe_rs::architecture::arm::sequences::DefaultArmSequence;
use probe_rs::architecture::arm::{ArmError, DapError, FullyQualifiedApAddress};
use probe_rs::probe::Probe;

/// DHCSR (ARMv7-M ARM C1.6.3) and its status bits.
pub const DHCSR: u64 = 0xE000_EDF0;
const S_LOCKUP: u32 = 1 << 19;
const S_RESET_ST: u32 = 1 << 25;

/// An STM32F4's FLASH_OPTCR (RM0390 3.8.6): RDP in bits [15:8], 0xAA level 0, 0xCC level 2,
/// any other value level 1.
const STM32F4_FLASH_OPTCR: u64 = 0x4002_3C14;

/// A fault of the path to the chip: what the chip says, and what to do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathFault {
    /// nRST is held low: the core stays in reset (DHCSR.S_RESET_ST set at every read).
    #[error("the core is held in reset: nRST is low — {}", self.remedy())]
    HeldInReset,
    /// The flash is read-protected at level 1: the debug port may not reach it.
    #[error("the flash is read-protected (RDP level 1) — {}", self.remedy())]
    ReadProtected,
    /// The debug port answered WAIT: the chip's bus did not complete the transfer.
    #[error("the debug port answered WAIT {during}: the chip's bus stays busy — {}", self.remedy())]
    Wait {
        /// What the bench was doing.
        during: &'static str,
    },
    /// The debug port answered FAULT: a sticky error, the bus refused the transfer.
    #[error("the debug port answered FAULT {during}: the chip's bus refused the access (a sticky error) — {}", self.remedy())]
    Fault {
        /// What the bench was doing.
        during: &'static str,
    },
    /// The core locked up (a fault it could not take) and RTT never came up.
    #[error(
        "the core locked up at PC {pc:#010x}{} (a fault with no handler) — {}",
        symbol.as_ref().map(|s| format!(" in {s}")).unwrap_or_default(),
        self.remedy()
    )]
    LockedUp {
        /// Where the core was, halted out of lockup.
        pc: u32,
        /// The ELF's function there.
        symbol: Option<String>,
        /// Before RTT came up (at boot), or later, mid-run.
        at_boot: bool,
    },
}

impl PathFault {
    /// What to do about it.
    pub fn remedy(&self) -> &'static str {
        match self {
            PathFault::HeldInReset => "check the reset button / the probe's reset line",
            PathFault::ReadProtected => {
                "set RDP back to level 0 (STM32CubeProgrammer: -ob RDP=0xAA), which erases the flash, then flash again"
            }
            PathFault::Wait { .. } => {
                "lower the probe's clock, or attach under reset (a low-power mode stops the bus)"
            }
            PathFault::Fault { .. } => {
                "check the chip is the profile's and powered; a level-1 RDP refuses its flash so"
            }
            PathFault::LockedUp { at_boot: true, .. } => {
                "the firmware faults before its handlers run: check its vector table and reset handler (a blank chip locks up so too)"
            }
            PathFault::LockedUp { at_boot: false, .. } => {
                "the firmware faulted and could not take the fault: look at that PC and at its HardFault handler's vector"
            }
        }
    }
}

/// The WAIT or FAULT inside `error` (any of probe-rs's errors, through its sources), named as
/// met `during` a step.
pub fn named(error: &(dyn std::error::Error + 'static), during: &'static str) -> Option<PathFault> {
    let mut next = Some(error);
    while let Some(e) = next {
        let dap = e
            .downcast_ref::<DapError>()
            .or_else(|| match e.downcast_ref() {
                Some(ArmError::Dap(dap)) => Some(dap),
                _ => None,
            });
        match dap {
            Some(DapError::WaitResponse) => return Some(PathFault::Wait { during }),
            Some(DapError::FaultResponse) => return Some(PathFault::Fault { during }),
            _ => {}
        }
        next = e.source();
    }
    None
}

/// Looks at the chip through a bare memory AP before probe-rs attaches: a core held in reset,
/// flash read-protected (`chip` an STM32F4), or a debug port that answers WAIT or FAULT. The
/// probe comes back detached, as it came.
pub fn look(probe: Probe, chip: &str) -> (Probe, Option<PathFault>) {
    let mut probe = probe;
    if probe.attach_to_unspecified().is_err() {
        // probe-rs's own attach says why.
        return (probe, None);
    }
    let mut interface = match probe.try_into_arm_debug_interface(DefaultArmSequence::create()) {
        Ok(interface) => interface,
        Err((mut probe, e)) => {
            let _ = probe.detach();
            return (probe, named(&e, "at power-up"));
        }
    };
    let fault = (|| {
        let ap = FullyQualifiedApAddress::v1_with_default_dp(0);
        let mut memory = interface.memory_interface(&ap).ok()?;
        let during = "reading DHCSR";
        let mut dhcsr = || memory.read_word_32(DHCSR).map_err(|e| named(&e, during));
        let first = match dhcsr() {
            Ok(v) => v,
            Err(fault) => return fault,
        };
        let second = match dhcsr() {
            Ok(v) => v,
            Err(fault) => return fault,
        };
        // S_RESET_ST clears on its read: set again at once, the core is still in reset.
        if first & second & S_RESET_ST != 0 {
            return Some(PathFault::HeldInReset);
        }
        if chip.to_ascii_uppercase().starts_with("STM32F4") {
            let optcr = match memory.read_word_32(STM32F4_FLASH_OPTCR) {
                Ok(v) => v,
                Err(e) => return named(&e, "reading FLASH_OPTCR"),
            };
            if rdp_level(optcr) == 1 {
                return Some(PathFault::ReadProtected);
            }
        }
        None
    })();
    let mut probe = interface.close();
    let _ = probe.detach();
    (probe, fault)
}

/// An STM32F4's read-out protection level from FLASH_OPTCR.
fn rdp_level(optcr: u32) -> u8 {
    match (optcr >> 8) as u8 {
        0xAA => 0,
        0xCC => 2,
        _ => 1,
    }
}

/// The core locked up, if DHCSR says so: halted out of lockup (B1.5.15), where it was.
pub fn locked_up(core: &mut probe_rs::Core<'_>) -> Option<u32> {
    let dhcsr = core.read_word_32(DHCSR).ok()?;
    if dhcsr & S_LOCKUP == 0 {
        return None;
    }
    let info = core.halt(std::time::Duration::from_millis(500)).ok()?;
    Some(info.pc as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines users read, pinned.
    #[test]
    fn each_fault_is_one_line_with_what_to_do() {
        let lines = [
            (
                PathFault::HeldInReset,
                "the core is held in reset: nRST is low — check the reset button / the probe's reset line",
            ),
            (
                PathFault::ReadProtected,
                "the flash is read-protected (RDP level 1) — set RDP back to level 0 \
                 (STM32CubeProgrammer: -ob RDP=0xAA), which erases the flash, then flash again",
            ),
            (
                PathFault::Wait {
                    during: "reading DHCSR",
                },
                "the debug port answered WAIT reading DHCSR: the chip's bus stays busy — lower \
                 the probe's clock, or attach under reset (a low-power mode stops the bus)",
            ),
            (
                PathFault::Fault {
                    during: "downloading",
                },
                "the debug port answered FAULT downloading: the chip's bus refused the access \
                 (a sticky error) — check the chip is the profile's and powered; a level-1 RDP \
                 refuses its flash so",
            ),
            (
                PathFault::LockedUp {
                    pc: 0xFFFF_FFFE,
                    symbol: None,
                    at_boot: true,
                },
                "the core locked up at PC 0xfffffffe (a fault with no handler) — the firmware \
                 faults before its handlers run: check its vector table and reset handler (a \
                 blank chip locks up so too)",
            ),
            (
                PathFault::LockedUp {
                    pc: 0x0800_1234,
                    symbol: Some("firmware::app::App::start".into()),
                    at_boot: false,
                },
                "the core locked up at PC 0x08001234 in firmware::app::App::start (a fault with \
                 no handler) — the firmware faulted and could not take the fault: look at that \
                 PC and at its HardFault handler's vector",
            ),
        ];
        for (fault, line) in lines {
            assert_eq!(fault.to_string(), line);
            assert!(!line.contains('\n'));
            assert!(line.ends_with(fault.remedy()));
        }
    }

    #[test]
    fn rdp_is_level_0_at_0xaa_2_at_0xcc_and_1_otherwise() {
        // RM0390 3.8.6 / 3.6.3.
        assert_eq!(rdp_level(0x0FFF_AAED), 0);
        assert_eq!(rdp_level(0x0FFF_CCED), 2);
        assert_eq!(rdp_level(0x0FFF_55ED), 1);
        assert_eq!(rdp_level(0x0FFF_00ED), 1);
    }

    #[test]
    fn a_wait_or_fault_is_found_inside_probe_rss_errors() {
        let wait = probe_rs::Error::Arm(ArmError::Dap(DapError::WaitResponse));
        assert_eq!(
            named(&wait, "attaching"),
            Some(PathFault::Wait {
                during: "attaching"
            })
        );
        let fault = ArmError::Dap(DapError::FaultResponse);
        assert_eq!(named(&fault, "x"), Some(PathFault::Fault { during: "x" }));
        let other = probe_rs::Error::Arm(ArmError::Timeout);
        assert_eq!(named(&other, "x"), None);
    }
}
