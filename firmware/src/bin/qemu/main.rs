//! The machine in QEMU (PIL): the `firmware` application compiled for the Cortex-M4F of QEMU's
//! `mps2-an386`, with no ADC and no cage. Its node sampler asks the bench for every conversion
//! ([`firmware::pil`]); the bench protocol and those requests travel over semihosting (commands
//! on stdin, frames up on stderr) and the defmt logs over semihosting stdout, so the two streams
//! never interleave.
//!
//! The semihosting command line (QEMU's `-append`) may name the board profile the bench
//! emulates (`nucleo-f446re` when it does not), and, for the bench's own tests of its crash and
//! hang handling, `panic-at=N` or `hang-at=N` to fail at the N-th command.
//!
//! Build: `cargo build -p firmware --bin firmware-qemu --features qemu --target
//! thumbv7em-none-eabihf --profile fw`; the `hil-tests` PIL target starts QEMU itself.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(not(target_os = "none"))]
fn main() {
    // The QEMU binary runs on the emulated MCU only.
}

#[cfg(target_os = "none")]
mod qemu {
    use core::cell::RefCell;
    use core::convert::Infallible;

    use cortex_m::interrupt::{self, Mutex};

    use boards::Profile;
    use firmware::pil::{self, HostSampler, Link};
    use firmware::protocol::FrameReader;
    use firmware::{
        App, Button, Config, Debouncer, Hardware, LedPattern, Leds, NoDelay, NoFixture, Unpressed,
    };
    use semihosting::io::{Read, Write};
    use {cortex_m_rt as _, defmt_semihosting as _};
    // cortex-m-rt's `device` feature (on through the HAL, as for the board binary) wants a
    // device's interrupt vectors: the STM32F446's are linked. No interrupt is ever enabled.
    use stm32f4xx_hal as _;

    /// Bytes read from semihosting stdin and not yet taken.
    static INBOX: Mutex<RefCell<pil::Inbox>> = Mutex::new(RefCell::new(pil::Inbox::new()));

    /// Semihosting: bench bytes down on stdin, up on stderr (stdout carries defmt).
    struct Semihosting {
        down: semihosting::io::Stdin,
        up: semihosting::io::Stderr,
    }

    impl Semihosting {
        fn open() -> Semihosting {
            match (semihosting::io::stdin(), semihosting::io::stderr()) {
                (Ok(down), Ok(up)) => Semihosting { down, up },
                _ => defmt::panic!("semihosting stdin/stderr are not available"),
            }
        }
    }

    impl Link for Semihosting {
        type Error = semihosting::io::Error;

        fn send(&mut self, bytes: &[u8]) -> Result<(), Self::Error> {
            self.up.write_all(bytes)
        }

        fn receive(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
            // One inbox for both readers of stdin (the command loop and the sampler): a read
            // traps into QEMU, so it takes all that is there, and nothing read ahead is lost.
            let down = &mut self.down;
            interrupt::free(|cs| INBOX.borrow(cs).borrow_mut().take(buf, |b| down.read(b)))
        }
    }

    /// The LEDs: the bench reads what they show from `status`.
    struct Dark;

    impl Leds for Dark {
        type Error = Infallible;

        fn show(&mut self, _pattern: LedPattern) -> Result<(), Infallible> {
            Ok(())
        }
    }

    /// What the semihosting command line asks for.
    struct Options {
        profile: &'static Profile,
        panic_at: Option<u32>,
        hang_at: Option<u32>,
    }

    fn options() -> Options {
        let mut options = Options {
            profile: &boards::NUCLEO_F446RE,
            panic_at: None,
            hang_at: None,
        };
        let Ok(args) = semihosting::experimental::env::args::<256>() else {
            return options;
        };
        // The first argument is the kernel's file name.
        for arg in (&args).skip(1).flatten() {
            let number = |prefix: &str| arg.strip_prefix(prefix).and_then(|n| n.parse().ok());
            if let Some(n) = number("panic-at=") {
                options.panic_at = Some(n);
            } else if let Some(n) = number("hang-at=") {
                options.hang_at = Some(n);
            } else {
                match boards::by_name(arg) {
                    Ok(profile) => options.profile = profile,
                    Err(e) => defmt::panic!("{}", defmt::Display2Format(&e)),
                }
            }
        }
        options
    }

    #[cortex_m_rt::entry]
    fn main() -> ! {
        let options = options();
        let profile = options.profile;
        if let Err(e) = profile.validate() {
            defmt::panic!(
                "{} profile is invalid: {}",
                profile.name,
                defmt::Display2Format(&e)
            );
        }
        let hardware = Hardware {
            sampler: HostSampler::new(Semihosting::open()),
            leds: Dark,
            button: Button::new(Unpressed, boards::Level::Low, Debouncer::default()),
            delay: NoDelay,
            fixture: NoFixture,
        };
        let mut app = App::new(profile, hardware, Config::default());
        defmt::info!("{} in QEMU as {}", firmware::VERSION, profile.name);

        let mut link = Semihosting::open();
        let mut reader = FrameReader::new();
        let mut commands = 0u32;
        loop {
            commands += 1;
            if options.panic_at == Some(commands) {
                defmt::panic!("asked to panic at command {}", commands);
            }
            if options.hang_at == Some(commands) {
                defmt::warn!("asked to hang at command {}", commands);
                loop {
                    cortex_m::asm::nop();
                }
            }
            if let Err(e) = pil::serve(&mut app, &mut link, &mut reader) {
                match e {
                    // The bench closed the link: the run is over.
                    pil::PilError::Closed => semihosting::process::exit(0),
                    e => defmt::panic!("bench link: {}", defmt::Debug2Format(&e)),
                }
            }
        }
    }

    /// A panic ends QEMU with exit code 101 after logging where, so the bench reports a crash
    /// with the last log lines rather than waiting for a timeout.
    #[panic_handler]
    fn panic(info: &core::panic::PanicInfo) -> ! {
        defmt::error!("panicked: {}", defmt::Display2Format(info));
        semihosting::process::exit(101)
    }

    /// A hard fault ends QEMU with exit code 102.
    #[cortex_m_rt::exception]
    #[allow(unsafe_code)] // cortex-m-rt's signature for the HardFault handler
    unsafe fn HardFault(frame: &cortex_m_rt::ExceptionFrame) -> ! {
        defmt::error!("hard fault at pc {=u32:#x}", frame.pc());
        semihosting::process::exit(102)
    }
}
