// The board binary's program, shared by its two roots (`main.rs`, the shipped build, and
// `unchecked.rs`, the study build with feature `unchecked`): each root holds only what must sit at
// a crate's root (its doc comment and `no_std`) and includes this file, so that no file is the
// root of two cargo targets (cargo warns about that on every command).

#[cfg(not(target_os = "none"))]
fn main() {
    // The board binary runs on the MCU only; the library it wraps is tested on the host.
}

#[cfg(all(target_os = "none", not(feature = "board")))]
compile_error!("build the board binary with `--features board` (`cargo fw` does)");

#[cfg(target_os = "none")]
mod adc;
#[cfg(target_os = "none")]
mod gpio;
#[cfg(target_os = "none")]
mod spi;

#[cfg(target_os = "none")]
mod board {
    use boards::{NUCLEO_F446RE as BOARD, Pullups, RailRelease};
    use embedded_hal::delay::DelayNs;
    use firmware::protocol::MAX_FRAME;
    use firmware::timing::{SYSCLK_HZ, WATCHDOG_MS};
    use firmware::{
        Adg714Chain, App, Button, Config, Debouncer, EdgeSwitches, Hardware, PinLeds, Server,
    };
    use panic_probe as _;
    use stm32f4xx_hal::watchdog::IndependentWatchdog;
    use stm32f4xx_hal::{pac, prelude::*, rcc};

    use crate::adc::{NodeAdc, Resolution};
    use crate::gpio::Gpio;
    use crate::spi::Spi2;

    /// The ADG714 takes SCLK up to 30 MHz (ADG714 data sheet, timing); APB1 / 8 = 5.25 MHz.
    const SPI_DIVIDER_LOG2: u8 = 3;
    /// The main loop's period: the button is sampled once per millisecond.
    const TICK_MS: u32 = 1;
    /// ADC1 converts at the profile's resolution; a profile asking for one ADC1 lacks does
    /// not build.
    const ADC_RESOLUTION: Resolution = match Resolution::of(BOARD.adc.bits_used) {
        Some(r) => r,
        None => panic!("ADC1 converts at 12, 10, 8 or 6 bits only"),
    };

    #[cortex_m_rt::entry]
    fn main() -> ! {
        let channels = firmware::rtt_channels!(up: {} down: {});
        rtt_target::set_defmt_channel(channels.up.0);
        let mut bench_up = channels.up.1;
        let mut bench_down = channels.down.0;

        if let Err(e) = BOARD.validate() {
            defmt::panic!(
                "{} profile is invalid: {}",
                BOARD.name,
                defmt::Display2Format(&e)
            );
        }
        let dp = defmt::unwrap!(pac::Peripherals::take());
        let cp = defmt::unwrap!(cortex_m::Peripherals::take());
        // SYSCLK from the HSI through the PLL (firmware::timing), APB1 at half of it.
        let mut rcc = dp.RCC.freeze(
            rcc::Config::hsi()
                .sysclk(SYSCLK_HZ.Hz())
                .pclk1((SYSCLK_HZ / 2).Hz()),
        );
        let delay = cp.SYST.delay(&rcc.clocks);

        let gpio = Gpio::new(dp.GPIOA, dp.GPIOB, dp.GPIOC, dp.GPIOD, dp.GPIOH, &mut rcc);
        let pins = &BOARD.pins;

        let Pullups::SharedRail {
            control,
            released: RailRelease::DrivenLow,
            ..
        } = BOARD.pullups
        else {
            defmt::panic!("this binary drives a shared pull-up rail released low");
        };
        let sampler = NodeAdc::new(
            dp.ADC1,
            dp.ADC_COMMON,
            &gpio,
            pins,
            ADC_RESOLUTION,
            gpio.output(control),
            &mut rcc,
        );

        let leds = PinLeds::new(
            pins.row_leds.map(|p| gpio.output(p)),
            pins.column_leds.map(|p| gpio.output(p)),
            BOARD.leds.active,
        );
        let button = Button::new(
            gpio.input(pins.button.pin),
            pins.button.active,
            Debouncer::default(),
        );

        let fixture = defmt::unwrap!(BOARD.fixture);
        let spi = Spi2::new(dp.SPI2, &gpio, &fixture, SPI_DIVIDER_LOG2, &mut rcc);
        let chain = defmt::unwrap!(Adg714Chain::new(spi, gpio.output(fixture.sync), fixture).ok());
        if chain.present() {
            defmt::info!("edge fixture found: {} packages answer", fixture.devices);
        } else {
            defmt::info!("no edge fixture answers on MISO: moves are made by hand");
        }

        let hardware = Hardware {
            sampler,
            leds,
            button,
            delay,
            fixture: chain,
        };
        let config = Config {
            self_check: !cfg!(feature = "unchecked"),
            ..Config::default()
        };
        let mut app = App::new(&BOARD, hardware, config);
        defmt::info!(
            "{} on {} ({})",
            firmware::VERSION,
            BOARD.name,
            BOARD.description
        );
        app.start();

        // Started last: everything above runs once. DBG_IWDG_STOP freezes the counter while a
        // debugger holds the core halted (RM0390 33.16.4); without it a breakpoint held longer
        // than the timeout resets a real board under the debugger. probe-rs sets DBGMCU_CR at
        // attach but never APB1_FZ, so the firmware does.
        let mut watchdog = IndependentWatchdog::new(dp.IWDG);
        watchdog.stop_on_debug(&dp.DBGMCU, true);
        watchdog.start(WATCHDOG_MS.millis());

        let mut server = Server::new();
        let mut received = [0u8; 32];
        let mut reply = [0u8; MAX_FRAME];
        loop {
            app.tick();
            let n = bench_down.read(&mut received);
            for &byte in &received[..n] {
                if let Some(len) = server.push(&mut app, byte, &mut reply)
                    && bench_up.write(&reply[..len]) < len
                {
                    // Dropped whole (NoBlockSkip): the bench asks again with the same number.
                    defmt::warn!("reply dropped: the bench up channel is full");
                }
            }
            watchdog.feed();
            app.hardware_mut().delay.delay_ms(TICK_MS);
        }
    }
}
