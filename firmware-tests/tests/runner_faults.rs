//! Faults for the runner to report (feature `runner-faults`; `check-runner` runs them): a test
//! that passes, one that panics with a defmt message, one that returns an `Err`, one that
//! hangs past its timeout, one that should panic and does not, and one whose recursion runs
//! the stack off the bottom of SRAM (flip-link's layout: the virtual board names the stack
//! overflow and the function). They fail on purpose.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(not(target_os = "none"))]
fn main() {
    // A runner that lists the tests first (cargo-nextest: `--list --format terse`) finds none
    // on the host, in libtest's words: nothing. Run, the stub says where the tests run.
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    println!("on the target only (not a host test): firmware-tests/check-runner");
}

// The runtime, the critical section and the vector table, linked though unnamed.
#[cfg(target_os = "none")]
use {cortex_m as _, cortex_m_rt as _, stm32f4xx_hal as _};

#[cfg(target_os = "none")]
#[embedded_test::setup]
fn setup() {
    rtt_target::rtt_init_defmt!();
}

/// A recursion with a 256-byte frame that is not a tail call: it only ends at depth `n`, far
/// beyond what 128 KiB of SRAM holds.
#[cfg(target_os = "none")]
#[inline(never)]
fn deep(n: u32) -> u32 {
    let frame = core::hint::black_box([n; 64]);
    if n == 0 {
        return 0;
    }
    frame[n as usize % 64].wrapping_add(deep(n - 1))
}

#[cfg(target_os = "none")]
#[embedded_test::tests]
mod tests {
    #[test]
    fn passes() {
        defmt::info!("a passing test's log");
    }

    #[test]
    fn panics() {
        let node = 7;
        defmt::panic!("node {} reads 937, expected 912", node);
    }

    #[test]
    fn returns_an_error() -> Result<(), u8> {
        Err(42)
    }

    #[test]
    #[timeout(1)]
    fn hangs() {
        defmt::info!("about to hang");
        #[allow(clippy::empty_loop)]
        loop {}
    }

    #[test]
    #[should_panic]
    fn should_panic_but_passes() {}

    #[test]
    fn overflows_its_stack() {
        let depth = super::deep(1_000_000);
        defmt::info!("returned from a recursion of {}", depth);
    }

    #[test]
    #[should_panic]
    fn should_panic_and_panics() {
        defmt::panic!("as it should");
    }
}
