//! The host side of Arm semihosting, as a debugger answers it: the core stops at `BKPT 0xAB`
//! with the operation in r0 and its parameter (a value or a block's address) in r1, the host
//! does the call, writes the result to r0 and resumes after the `BKPT` (Arm's "Semihosting for
//! AArch32 and AArch64", 2025Q1). Only what a test binary calls is served: the command line,
//! the console, exit; anything else is named and ends the test.

use crate::cpu::Core;
use crate::stop::Refusal;

/// The operations served (the specification's numbers).
mod op {
    pub const SYS_OPEN: u32 = 0x01;
    pub const SYS_CLOSE: u32 = 0x02;
    pub const SYS_WRITEC: u32 = 0x03;
    pub const SYS_WRITE0: u32 = 0x04;
    pub const SYS_WRITE: u32 = 0x05;
    pub const SYS_ISTTY: u32 = 0x09;
    pub const SYS_CLOCK: u32 = 0x10;
    pub const SYS_ERRNO: u32 = 0x13;
    pub const SYS_GET_CMDLINE: u32 = 0x15;
    pub const SYS_EXIT: u32 = 0x18;
    pub const SYS_EXIT_EXTENDED: u32 = 0x20;
}

/// `ADP_Stopped_ApplicationExit`: the program ended normally (its subcode is the exit status).
const APPLICATION_EXIT: u32 = 0x2_0026;

/// The longest string the target may hand over (SYS_WRITE0, a file name).
const MAX_STRING: usize = 4096;

/// What a call asks of the runner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// Done: resume the core.
    Resume,
    /// The target asked for its command line (answered).
    CommandLine,
    /// The target wrote this to its console (answered).
    Output(Vec<u8>),
    /// The program ended: `Ok(status)` by `SYS_EXIT(_EXTENDED)` with
    /// `ADP_Stopped_ApplicationExit`, `Err(reason)` with another reason.
    Exit(Result<u32, u32>),
}

/// Why a call cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum SemihostingError {
    /// An operation the runner does not serve.
    #[error("semihosting operation {0:#04x}, which the virtual board does not serve")]
    Unsupported(u32),
    /// The call's block or buffer is outside memory.
    #[error("semihosting operation {op:#04x} with a parameter block outside memory ({fault:?})")]
    Memory {
        /// The operation.
        op: u32,
        /// The access.
        fault: Box<Refusal>,
    },
    /// The core's registers could not be written.
    #[error("semihosting: {0}")]
    Engine(String),
}

/// Serves the call the core stopped at (r0, r1), with `cmdline` as the program's command line
/// and `elapsed_cs` as SYS_CLOCK's centiseconds; the result is in r0 and the core is past the
/// `BKPT` on return, except after an exit.
pub fn serve(
    core: &mut Core<'_>,
    cmdline: &str,
    elapsed_cs: u32,
) -> Result<Call, SemihostingError> {
    let (number, param) = (core.r(0), core.r(1));
    let memory = |fault| SemihostingError::Memory {
        op: number,
        fault: Box::new(fault),
    };
    let word = |core: &mut Core<'_>, at: u32| -> Result<u32, Refusal> {
        let mut b = [0u8; 4];
        core.read_memory(at, &mut b)?;
        Ok(u32::from_le_bytes(b))
    };
    let (result, call) = match number {
        op::SYS_EXIT => {
            let status = if param == APPLICATION_EXIT {
                Ok(0)
            } else {
                Err(param)
            };
            return Ok(Call::Exit(status));
        }
        op::SYS_EXIT_EXTENDED => {
            let reason = word(core, param).map_err(memory)?;
            let subcode = word(core, param + 4).map_err(memory)?;
            let status = if reason == APPLICATION_EXIT {
                Ok(subcode)
            } else {
                Err(reason)
            };
            return Ok(Call::Exit(status));
        }
        op::SYS_GET_CMDLINE => {
            let buf = word(core, param).map_err(memory)?;
            let len = word(core, param + 4).map_err(memory)? as usize;
            let mut bytes = cmdline.as_bytes().to_vec();
            bytes.push(0);
            if bytes.len() > len {
                (u32::MAX, Call::CommandLine)
            } else {
                core.write_memory(buf, &bytes).map_err(memory)?;
                let n = (bytes.len() - 1) as u32;
                core.write_memory(param + 4, &n.to_le_bytes())
                    .map_err(memory)?;
                (0, Call::CommandLine)
            }
        }
        op::SYS_WRITEC => {
            let mut b = [0u8; 1];
            core.read_memory(param, &mut b).map_err(memory)?;
            (0, Call::Output(b.to_vec()))
        }
        op::SYS_WRITE0 => {
            let text = read_c_string(core, param).map_err(memory)?;
            (0, Call::Output(text))
        }
        op::SYS_WRITE => {
            let buf = word(core, param + 4).map_err(memory)?;
            let len = word(core, param + 8).map_err(memory)?;
            let mut bytes = vec![0u8; len.min(MAX_STRING as u32) as usize];
            core.read_memory(buf, &mut bytes).map_err(memory)?;
            // The bytes not written: none.
            (len - bytes.len() as u32, Call::Output(bytes))
        }
        op::SYS_OPEN => {
            // Only the console, ":tt": its handle by mode (r 0, w 1, a 2, as the semihosting
            // crate and newlib expect: stdin, stdout, stderr).
            let name = word(core, param).map_err(memory)?;
            let mode = word(core, param + 4).map_err(memory)?;
            let text = read_c_string(core, name).map_err(memory)?;
            if text == b":tt" {
                (1 + mode / 4, Call::Resume)
            } else {
                (u32::MAX, Call::Resume)
            }
        }
        op::SYS_CLOSE | op::SYS_ERRNO => (0, Call::Resume),
        op::SYS_ISTTY => (1, Call::Resume),
        op::SYS_CLOCK => (elapsed_cs, Call::Resume),
        other => return Err(SemihostingError::Unsupported(other)),
    };
    core.set_r(0, result)
        .and_then(|()| core.resume_after_breakpoint())
        .map_err(|e| SemihostingError::Engine(e.to_string()))?;
    Ok(call)
}

/// A NUL-terminated string of at most [`MAX_STRING`] bytes.
fn read_c_string(core: &mut Core<'_>, mut at: u32) -> Result<Vec<u8>, Refusal> {
    let mut text = Vec::new();
    while text.len() < MAX_STRING {
        let mut b = [0u8; 1];
        core.read_memory(at, &mut b)?;
        if b[0] == 0 {
            break;
        }
        text.push(b[0]);
        at += 1;
    }
    Ok(text)
}
