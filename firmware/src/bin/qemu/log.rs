//! The QEMU binary's defmt logger: defmt frames go where the bench link goes, to semihosting
//! stdout (`link=semihosting`) or to RTT up channel 0 as on the board (`link=rtt`). One binary
//! serves both links, so the logger is chosen at run time rather than linked in (the board
//! binary links rtt-target's).
//!
//! The shape is rtt-target's and defmt-semihosting's: a critical section from `acquire` to
//! `release`, one encoder.
#![allow(unsafe_code)] // defmt's `Logger` is an unsafe trait; the statics are only touched
// inside its critical section.

use core::sync::atomic::{AtomicBool, Ordering};

use rtt_target::UpChannel;
use semihosting::io::Write;

/// Where the frames go.
enum Sink {
    /// Nowhere yet: frames before the link is chosen are dropped.
    None,
    /// Semihosting stdout.
    Semihosting(semihosting::io::Stdout),
    /// An RTT up channel.
    Rtt(UpChannel),
}

static mut SINK: Sink = Sink::None;
static TAKEN: AtomicBool = AtomicBool::new(false);
static mut RESTORE: critical_section::RestoreState = critical_section::RestoreState::invalid();
static mut ENCODER: defmt::Encoder = defmt::Encoder::new();

/// Logs to semihosting stdout from now on.
pub fn to_semihosting() {
    if let Ok(stdout) = semihosting::io::stdout() {
        set(Sink::Semihosting(stdout));
    }
}

/// Logs to `channel` from now on.
pub fn to_rtt(channel: UpChannel) {
    set(Sink::Rtt(channel));
}

fn set(sink: Sink) {
    critical_section::with(|_| {
        // SAFETY: inside a critical section, and no log frame is open (logging takes the same
        // critical section).
        unsafe { *core::ptr::addr_of_mut!(SINK) = sink };
    });
}

#[defmt::global_logger]
struct Logger;

// SAFETY: `acquire` and `release` bracket a critical section, so the statics have one user.
unsafe impl defmt::Logger for Logger {
    fn acquire() {
        // SAFETY: paired with the `release` in `Logger::release`.
        let restore = unsafe { critical_section::acquire() };
        if TAKEN.load(Ordering::Relaxed) {
            panic!("defmt logger taken reentrantly");
        }
        TAKEN.store(true, Ordering::Relaxed);
        // SAFETY: interrupts are off.
        unsafe {
            RESTORE = restore;
            (*core::ptr::addr_of_mut!(ENCODER)).start_frame(write);
        }
    }

    unsafe fn flush() {}

    unsafe fn release() {
        // SAFETY: interrupts are off until `critical_section::release`.
        unsafe {
            (*core::ptr::addr_of_mut!(ENCODER)).end_frame(write);
            TAKEN.store(false, Ordering::Relaxed);
            critical_section::release(RESTORE);
        }
    }

    unsafe fn write(bytes: &[u8]) {
        // SAFETY: called between `acquire` and `release`.
        unsafe { (*core::ptr::addr_of_mut!(ENCODER)).write(bytes, write) };
    }
}

fn write(bytes: &[u8]) {
    // SAFETY: only called from the logger, inside its critical section.
    match unsafe { &mut *core::ptr::addr_of_mut!(SINK) } {
        Sink::None => {}
        Sink::Semihosting(stdout) => {
            let _ = stdout.write_all(bytes);
        }
        Sink::Rtt(channel) => {
            channel.write(bytes);
        }
    }
}
