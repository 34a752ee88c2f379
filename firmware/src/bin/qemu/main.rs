//! The machine in QEMU (PIL): the `firmware` application compiled for the Cortex-M4F of QEMU's
//! `mps2-an386`, with no ADC and no cage. Its node sampler asks the bench for every conversion
//! ([`firmware::pil`]). Two links, chosen on the command line:
//!
//! - `link=semihosting` (the default): commands on stdin, frames up on stderr, defmt on stdout,
//!   so the streams never interleave;
//! - `link=rtt`: the board's RTT layout ([`firmware::rtt`]: defmt on up 0, the bench on up 1 /
//!   down 0, served byte by byte as on the board) plus the emulated ADC on up 2 / down 1. The
//!   bench reads and writes the buffers through QEMU's gdbstub, as a probe does on a board.
//!
//! The semihosting command line (QEMU's `-append`) may also name the board profile the bench
//! emulates (`nucleo-f446re` when it does not), and, for the bench's own tests of its crash and
//! hang handling, `panic-at=N` or `hang-at=N` to fail at the N-th command (over semihosting
//! before it is read, over RTT after it is carried out and before its reply: either way its
//! reply never comes), or `drop-reply=N` to drop the N-th reply as a full RTT channel would.
//!
//! Build: `cargo build -p firmware --bin firmware-qemu --features qemu --target
//! thumbv7em-none-eabihf --profile fw`; the `hil-tests` PIL target starts QEMU itself.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(not(target_os = "none"))]
fn main() {
    // The QEMU binary runs on the emulated MCU only.
}

#[cfg(target_os = "none")]
mod log;

#[cfg(target_os = "none")]
mod qemu {
    use core::cell::RefCell;
    use core::convert::Infallible;

    use cortex_m::interrupt::{self, Mutex};

    use boards::Profile;
    use cortex_m_rt as _;
    use firmware::pil::{self, HostIo, HostSampler};
    use firmware::protocol::MAX_FRAME;
    use firmware::{
        App, Button, Config, Debouncer, Hardware, LedPattern, Leds, NoDelay, NoFixture, Server,
        Unpressed,
    };
    use rtt_target::{ChannelMode, DownChannel, UpChannel};
    use semihosting::io::{Read, Write};
    // cortex-m-rt's `device` feature (on through the HAL, as for the board binary) wants a
    // device's interrupt vectors: the STM32F446's are linked. No interrupt is ever enabled.
    use stm32f4xx_hal as _;

    use crate::log;

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

    impl HostIo for Semihosting {
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

    /// The emulated ADC's RTT pair. Its up channel blocks when full: the sampler has nothing
    /// to do but wait for the bench, and a request lost would hang the conversion.
    struct RttAdc {
        up: UpChannel,
        down: DownChannel,
    }

    impl HostIo for RttAdc {
        type Error = Infallible;

        fn send(&mut self, bytes: &[u8]) -> Result<(), Infallible> {
            self.up.write(bytes);
            Ok(())
        }

        fn receive(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
            loop {
                let n = self.down.read(buf);
                if n > 0 {
                    return Ok(n);
                }
            }
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

    /// Which bench link.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum LinkKind {
        Semihosting,
        Rtt,
    }

    /// What the semihosting command line asks for.
    struct Options {
        link: LinkKind,
        /// The profile, or the name that is none (refused once the logs can tell).
        profile: Result<&'static Profile, boards::UnknownBoard>,
        panic_at: Option<u32>,
        hang_at: Option<u32>,
        drop_reply: Option<u32>,
    }

    fn options() -> Options {
        let mut options = Options {
            link: LinkKind::Semihosting,
            profile: Ok(&boards::NUCLEO_F446RE),
            panic_at: None,
            hang_at: None,
            drop_reply: None,
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
            } else if let Some(n) = number("drop-reply=") {
                options.drop_reply = Some(n);
            } else if arg == "link=rtt" {
                options.link = LinkKind::Rtt;
            } else if arg == "link=semihosting" {
                options.link = LinkKind::Semihosting;
            } else {
                options.profile = boards::by_name(arg);
            }
        }
        options
    }

    /// The profile asked for, valid, or a panic that says why not.
    fn profile(options: &Options) -> &'static Profile {
        let profile = match &options.profile {
            Ok(profile) => *profile,
            Err(e) => defmt::panic!("{}", defmt::Display2Format(e)),
        };
        if let Err(e) = profile.validate() {
            defmt::panic!(
                "{} profile is invalid: {}",
                profile.name,
                defmt::Display2Format(&e)
            );
        }
        profile
    }

    /// The machine with its sampler on `io`.
    fn app<K: HostIo>(
        profile: &'static Profile,
        io: K,
    ) -> App<HostSampler<K>, Dark, Unpressed, NoDelay, NoFixture> {
        let hardware = Hardware {
            sampler: HostSampler::new(io),
            leds: Dark,
            button: Button::new(Unpressed, boards::Level::Low, Debouncer::default()),
            delay: NoDelay,
            fixture: NoFixture,
        };
        let app = App::new(profile, hardware, Config::default());
        defmt::info!("{} in QEMU as {}", firmware::VERSION, profile.name);
        app
    }

    /// What the test options do before command number `commands` is carried out.
    fn before_command(options: &Options, commands: u32) {
        if options.panic_at == Some(commands) {
            defmt::panic!("asked to panic at command {}", commands);
        }
        if options.hang_at == Some(commands) {
            defmt::warn!("asked to hang at command {}", commands);
            loop {
                cortex_m::asm::nop();
            }
        }
    }

    #[cortex_m_rt::entry]
    fn main() -> ! {
        let options = options();
        match options.link {
            LinkKind::Semihosting => semihosting_link(&options),
            LinkKind::Rtt => rtt_link(&options),
        }
    }

    fn semihosting_link(options: &Options) -> ! {
        log::to_semihosting();
        let mut app = app(profile(options), Semihosting::open());
        let mut link = Semihosting::open();
        let mut server = Server::new();
        let mut commands = 0u32;
        loop {
            commands += 1;
            before_command(options, commands);
            if let Err(e) = pil::serve(&mut app, &mut link, &mut server) {
                match e {
                    // The bench closed the link: the run is over.
                    pil::PilError::Closed => semihosting::process::exit(0),
                    e => defmt::panic!("bench link: {}", defmt::Debug2Format(&e)),
                }
            }
        }
    }

    /// The board's main loop over the board's RTT layout. The bench ends the run by stopping
    /// QEMU (a debugger has no way to close an RTT channel).
    fn rtt_link(options: &Options) -> ! {
        let channels = firmware::rtt_channels!(
            up: { 2: { size: firmware::rtt::ADC_SIZE, mode: ChannelMode::BlockIfFull, name: "adc" } }
            down: { 1: { size: firmware::rtt::ADC_SIZE, name: "adc" } }
        );
        log::to_rtt(channels.up.0);
        let adc = RttAdc {
            up: channels.up.2,
            down: channels.down.1,
        };
        let mut app = app(profile(options), adc);
        let (mut bench_up, mut bench_down) = (channels.up.1, channels.down.0);
        let mut server = Server::new();
        let mut received = [0u8; 32];
        let mut reply = [0u8; MAX_FRAME];
        let mut commands = 0u32;
        loop {
            let n = bench_down.read(&mut received);
            for &byte in &received[..n] {
                let Some(len) = server.push(&mut app, byte, &mut reply) else {
                    continue;
                };
                commands += 1;
                before_command(options, commands);
                if options.drop_reply == Some(commands) {
                    defmt::warn!("asked to drop reply {}", commands);
                } else if bench_up.write(&reply[..len]) < len {
                    // Dropped whole (NoBlockSkip): the bench asks again with the same number.
                    defmt::warn!("reply dropped: the bench up channel is full");
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
