//! The firmware's own tests on the chip (embedded-test): the board binary's drivers
//! (`firmware/src/bin/nucleo`, compiled in unchanged) against the STM32F446RE's registers, and
//! the no_std parts that matter on the Cortex-M4F (the bench protocol, the self-check, the
//! heuristic's f32 path on the FPU). Each test runs from its own reset.
//!
//! The expected values come from outside the code under test: the chip's reference manual
//! (register fields), the CRC's published check value, the game's known first move, and the
//! profile's nominal circuit through `firmware::predict` for the ADC (its own host tests check
//! it against an independent nodal solve). What the emulated chip cannot judge (analog
//! settling in time, an LED a person sees, ADC1 at another resolution than the profile's) is
//! `#[ignore]`d: on a board, run with `-- --include-ignored`.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(not(target_os = "none"))]
fn main() {
    // A runner that lists the tests first (cargo-nextest: `--list --format terse`) finds none
    // on the host, in libtest's words: nothing. Run, the stub says where the tests run.
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    println!(
        "on the target only (not a host test): cargo test -p firmware-tests --target thumbv7em-none-eabihf"
    );
}

#[cfg(target_os = "none")]
#[path = "../../firmware/src/bin/nucleo/adc.rs"]
#[allow(dead_code)]
mod adc;
#[cfg(target_os = "none")]
#[path = "../../firmware/src/bin/nucleo/gpio.rs"]
#[allow(dead_code)]
mod gpio;
#[cfg(target_os = "none")]
#[path = "../../firmware/src/bin/nucleo/spi.rs"]
#[allow(dead_code)]
mod spi;

#[cfg(target_os = "none")]
#[embedded_test::setup]
fn setup() {
    rtt_target::rtt_init_defmt!();
}

#[cfg(target_os = "none")]
#[embedded_test::tests]
mod tests {
    use boards::{NUCLEO_F446RE as BOARD, Pullups};
    use embedded_hal::delay::DelayNs;
    use embedded_hal::digital::OutputPin;
    use firmware::timing::SYSCLK_HZ;
    use firmware::{
        Adg714Chain, App, Button, Config, Debouncer, EdgeSwitches, Hardware, LedPattern, Leds,
        PinLeds, Sampler, Tracker, measure,
    };
    use heuristic::{Node, Position, Side, Size};
    use stm32f4xx_hal::{pac, prelude::*, rcc, timer::SysDelay};

    use crate::adc::{NodeAdc, Resolution};
    use crate::gpio::Gpio;
    use crate::spi::Spi2;

    /// The board binary's SPI2 divider (APB1 / 8).
    const SPI_DIVIDER_LOG2: u8 = 3;

    /// The chip as the board binary sets it up: SYSCLK from the HSI (firmware::timing), the
    /// GPIO ports.
    struct Chip {
        gpio: &'static Gpio,
        adc: pac::ADC1,
        common: pac::ADC_COMMON,
        spi: pac::SPI2,
        rcc: rcc::Rcc,
        delay: SysDelay,
    }

    #[init]
    fn init() -> Chip {
        let dp = defmt::unwrap!(pac::Peripherals::take());
        let cp = defmt::unwrap!(cortex_m::Peripherals::take());
        let mut rcc = dp.RCC.freeze(
            rcc::Config::hsi()
                .sysclk(SYSCLK_HZ.Hz())
                .pclk1((SYSCLK_HZ / 2).Hz()),
        );
        let delay = cp.SYST.delay(&rcc.clocks);
        let gpio = Gpio::new(dp.GPIOA, dp.GPIOB, dp.GPIOC, dp.GPIOD, dp.GPIOH, &mut rcc);
        let gpio: &'static Gpio = defmt::unwrap!(cortex_m::singleton!(: Gpio = gpio));
        Chip {
            gpio,
            adc: dp.ADC1,
            common: dp.ADC_COMMON,
            spi: dp.SPI2,
            rcc,
            delay,
        }
    }

    fn rail(gpio: &'static Gpio) -> crate::gpio::GpioPin<'static> {
        let Pullups::SharedRail { control, .. } = BOARD.pullups else {
            defmt::panic!("the Nucleo profile has a shared pull-up rail");
        };
        gpio.output(control)
    }

    /// The fixture (the board binary's chain on SPI2) at the M=4 start position: every edge a
    /// resistor. Power-on leaves every switch open, that is every edge cut.
    fn wire_start_position(chip: &mut Chip) {
        let fixture = defmt::unwrap!(BOARD.fixture);
        let spi = Spi2::new(
            // Each test runs from a reset and owns the chip: SPI2 is taken again per helper.
            unsafe { pac::SPI2::steal() },
            chip.gpio,
            &fixture,
            SPI_DIVIDER_LOG2,
            &mut chip.rcc,
        );
        let mut chain =
            defmt::unwrap!(Adg714Chain::new(spi, chip.gpio.output(fixture.sync), fixture).ok());
        defmt::assert!(chain.present(), "no edge fixture answers on MISO");
        let cage = defmt::unwrap!(boards::cage_states(&Position::new(Size::M4, Side::Cut)).ok());
        defmt::unwrap!(chain.set(&cage).ok());
    }

    /// ADC1 at `bits`, the cage at the start position, pull-ups on and settled.
    fn sampler(chip: &mut Chip, bits: u8) -> NodeAdc<'static> {
        wire_start_position(chip);
        let rail = rail(chip.gpio);
        let adc = unsafe { pac::ADC1::steal() };
        let common = unsafe { pac::ADC_COMMON::steal() };
        let mut sampler = NodeAdc::new(
            adc,
            common,
            chip.gpio,
            &BOARD.pins,
            defmt::unwrap!(Resolution::of(bits)),
            rail,
            &mut chip.rcc,
        );
        defmt::unwrap!(sampler.set_pullups(true).ok());
        chip.delay.delay_us(Config::default().settle_us);
        sampler
    }

    /// The start position's codes at the profile's resolution, from its nominal circuit.
    fn predicted() -> [f32; heuristic::MAX_NODES] {
        defmt::unwrap!(firmware::predict(
            &BOARD,
            &Position::new(Size::M4, Side::Cut)
        ))
    }

    /// Node C4's code at `bits` against the nominal circuit's, scaled from the profile's
    /// resolution; within the self-check's band (parts' tolerance and the ADC's error), scaled.
    fn converts_at(chip: &mut Chip, bits: u8, res_field: u32) {
        let _ = (&chip.adc, &chip.common, &chip.spi);
        let mut sampler = sampler(chip, bits);
        // RM0390 13.13.2: ADC_CR1.RES is bits 25:24.
        let adc = unsafe { &*pac::ADC1::ptr() };
        defmt::assert_eq!((adc.cr1().read().bits() >> 24) & 0b11, res_field);
        let node = Node::Internal { x: 3, y: 4 };
        let index = defmt::unwrap!(Size::M4.nodes().position(|n| n == node));
        let profile_bits = BOARD.adc.bits_used;
        let scale = (1u32 << bits) as f32 / (1u32 << profile_bits) as f32;
        let expected = predicted()[index] * scale;
        let band = f32::from(firmware::band_codes(&BOARD)) * scale + 1.0;
        let code = defmt::unwrap!(sampler.read(node).ok());
        defmt::info!(
            "C4 at {} bits: {}, expected {} ± {}",
            bits,
            code,
            expected,
            band
        );
        defmt::assert!(u32::from(code) < 1 << bits, "a code above full scale");
        defmt::assert!((f32::from(code) - expected).abs() <= band);
    }

    /// Board only: the virtual board's ADC converts at the profile's resolution and stops any
    /// other as a configuration fault.
    #[test]
    #[ignore]
    fn adc1_converts_at_12_bits(mut chip: Chip) {
        converts_at(&mut chip, 12, 0b00);
    }

    #[test]
    fn adc1_converts_at_10_bits(mut chip: Chip) {
        converts_at(&mut chip, 10, 0b01);
    }

    /// Board only: the virtual board's ADC converts at the profile's resolution and stops any
    /// other as a configuration fault.
    #[test]
    #[ignore]
    fn adc1_converts_at_8_bits(mut chip: Chip) {
        converts_at(&mut chip, 8, 0b10);
    }

    /// Board only: the virtual board's ADC converts at the profile's resolution and stops any
    /// other as a configuration fault.
    #[test]
    #[ignore]
    fn adc1_converts_at_6_bits(mut chip: Chip) {
        converts_at(&mut chip, 6, 0b11);
    }

    /// Every node is converted on the channel the profile names (SQR3.SQ1 after the read), and
    /// reads the nominal circuit's code within the band: a swapped channel shows.
    #[test]
    fn the_channel_sequence_follows_the_profile(mut chip: Chip) {
        let bits = BOARD.adc.bits_used;
        let mut sampler = sampler(&mut chip, bits);
        let adc = unsafe { &*pac::ADC1::ptr() };
        let expected = predicted();
        let band = f32::from(firmware::band_codes(&BOARD));
        for (i, node) in Size::M4.nodes().enumerate() {
            if node == Node::Top {
                continue;
            }
            let code = defmt::unwrap!(sampler.read(node).ok());
            let input = defmt::unwrap!(BOARD.pins.node(Size::M4, node).ok());
            defmt::assert_eq!(adc.sqr3().read().bits() & 0x1F, u32::from(input.channel));
            defmt::assert_eq!(adc.sqr1().read().bits() >> 20 & 0xF, 0, "one conversion");
            defmt::assert!(
                (f32::from(code) - expected[i]).abs() <= band,
                "node {} reads {}, expected {}",
                i,
                code,
                expected[i]
            );
        }
    }

    /// The rail's pin follows `set_pullups`, and the cage's nodes follow the rail: pulled up,
    /// then released (driven low, the pull-ups become pull-downs).
    #[test]
    fn the_pull_up_rail_switches(mut chip: Chip) {
        let mut sampler = sampler(&mut chip, BOARD.adc.bits_used);
        let Pullups::SharedRail { control, .. } = BOARD.pullups else {
            defmt::panic!("shared rail");
        };
        let boards::Pin::Stm32 { number, .. } = control else {
            defmt::panic!("an STM32 pin");
        };
        let node = Node::Internal { x: 3, y: 6 };
        let odr = |port_odr: u32| port_odr >> number & 1;
        let port = || unsafe { &*rail_port(control) };
        defmt::assert_eq!(odr(port().odr().read().bits()), 1, "rail on");
        let on = defmt::unwrap!(sampler.read(node).ok());
        defmt::unwrap!(sampler.set_pullups(false).ok());
        chip.delay.delay_us(Config::default().settle_us);
        defmt::assert_eq!(odr(port().odr().read().bits()), 0, "rail released");
        let off = defmt::unwrap!(sampler.read(node).ok());
        defmt::info!("C6: {} with the pull-ups, {} released", on, off);
        defmt::assert!(on > off + firmware::band_codes(&BOARD));
    }

    fn rail_port(pin: boards::Pin) -> *const pac::gpioa::RegisterBlock {
        match pin {
            boards::Pin::Stm32 {
                port: boards::Port::A,
                ..
            } => pac::GPIOA::ptr(),
            boards::Pin::Stm32 {
                port: boards::Port::B,
                ..
            } => pac::GPIOB::ptr() as _,
            boards::Pin::Stm32 {
                port: boards::Port::C,
                ..
            } => pac::GPIOC::ptr() as _,
            boards::Pin::Stm32 {
                port: boards::Port::D,
                ..
            } => pac::GPIOD::ptr() as _,
            boards::Pin::Stm32 {
                port: boards::Port::H,
                ..
            } => pac::GPIOH::ptr() as _,
            _ => defmt::panic!("an STM32 pin"),
        }
    }

    /// SPI2 as the board binary sets it (RM0390 28.7.1: master, mode 1, /8, software NSS),
    /// and the chain: a frame shifted twice in one SYNC window comes back once on MISO.
    #[test]
    fn the_spi_chain_is_present_and_returns_its_frames(mut chip: Chip) {
        let fixture = defmt::unwrap!(BOARD.fixture);
        let mut spi = Spi2::new(
            unsafe { pac::SPI2::steal() },
            chip.gpio,
            &fixture,
            SPI_DIVIDER_LOG2,
            &mut chip.rcc,
        );
        let cr1 = unsafe { &*pac::SPI2::ptr() }.cr1().read().bits();
        // MSTR bit 2, CPOL bit 1 = 0, CPHA bit 0 = 1, BR bits 5:3 = 2 (/8), SSM 9, SSI 8, SPE 6.
        defmt::assert_eq!(cr1 & 0b11_0111_1111, 0b11_0101_0101);
        let mut sync = chip.gpio.output(fixture.sync);
        defmt::unwrap!(sync.set_high().ok());
        let n = usize::from(fixture.devices);
        let frame: [u8; 7] = [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE];
        defmt::assert_eq!(n, frame.len());
        let mut out = [0u8; 14];
        out[..7].copy_from_slice(&frame);
        out[7..].copy_from_slice(&frame);
        let mut back = [0u8; 14];
        defmt::unwrap!(sync.set_low().ok());
        defmt::unwrap!(embedded_hal::spi::SpiBus::transfer(&mut spi, &mut back, &out).ok());
        defmt::unwrap!(embedded_hal::spi::SpiBus::flush(&mut spi).ok());
        defmt::unwrap!(sync.set_high().ok());
        defmt::assert_eq!(&back[7..], &frame[..], "the first copy comes back");
        // And the driver's own presence check finds the chain.
        let chain = defmt::unwrap!(Adg714Chain::new(spi, sync, fixture).ok());
        defmt::assert!(chain.present());
    }

    /// A cut made through the chain shows in the ADC's reading: the fixture's edge 0 (reading
    /// order) cut, node A2's code moves by more than the band.
    #[test]
    fn a_cut_through_spi_changes_the_node(mut chip: Chip) {
        let mut sampler = sampler(&mut chip, BOARD.adc.bits_used);
        let a1 = Node::Internal { x: 1, y: 2 };
        let before = defmt::unwrap!(sampler.read(a1).ok());
        let fixture = defmt::unwrap!(BOARD.fixture);
        let spi = Spi2::new(
            unsafe { pac::SPI2::steal() },
            chip.gpio,
            &fixture,
            SPI_DIVIDER_LOG2,
            &mut chip.rcc,
        );
        let mut chain =
            defmt::unwrap!(Adg714Chain::new(spi, chip.gpio.output(fixture.sync), fixture).ok());
        let mut cage =
            defmt::unwrap!(boards::cage_states(&Position::new(Size::M4, Side::Cut)).ok());
        cage[0] = heuristic::EdgeState::Cut;
        defmt::unwrap!(chain.set(&cage).ok());
        chip.delay.delay_us(Config::default().settle_us);
        let after = defmt::unwrap!(sampler.read(a1).ok());
        defmt::info!("A2: {} with edge 0 wired, {} with it cut", before, after);
        defmt::assert!(before.abs_diff(after) > firmware::band_codes(&BOARD));
    }

    /// The 14 LEDs on their pins at the profile's active level: each pattern's ODR bits.
    #[test]
    fn the_led_matrix_drives_its_pins(chip: Chip) {
        let pins = &BOARD.pins;
        let mut leds = PinLeds::new(
            pins.row_leds.map(|p| chip.gpio.output(p)),
            pins.column_leds.map(|p| chip.gpio.output(p)),
            BOARD.leds.active,
        );
        let lit = |pin: boards::Pin| {
            let boards::Pin::Stm32 { number, .. } = pin else {
                defmt::panic!("an STM32 pin");
            };
            let odr = unsafe { &*rail_port(pin) }.odr().read().bits() >> number & 1 == 1;
            odr == (BOARD.leds.active == boards::Level::High)
        };
        for pattern in [
            LedPattern::NEW_GAME,
            LedPattern::FAULT,
            LedPattern::CUT_WON,
            LedPattern::OFF,
        ] {
            defmt::unwrap!(leds.show(pattern).ok());
            for (y, &pin) in pins.row_leds.iter().enumerate() {
                defmt::assert_eq!(lit(pin), pattern.row(y as u8 + 1), "row {}", y + 1);
            }
            for (x, &pin) in pins.column_leds.iter().enumerate() {
                defmt::assert_eq!(lit(pin), pattern.column(x as u8 + 1), "column {}", x + 1);
            }
        }
    }

    /// A person looks: every LED lights, rows then columns, one second each. The emulated
    /// chip cannot judge brightness; on the board the test passes when it runs, and the
    /// person watching fails it.
    #[test]
    #[ignore]
    fn every_led_lights_for_a_person(mut chip: Chip) {
        let pins = &BOARD.pins;
        let mut leds = PinLeds::new(
            pins.row_leds.map(|p| chip.gpio.output(p)),
            pins.column_leds.map(|p| chip.gpio.output(p)),
            BOARD.leds.active,
        );
        for pattern in [LedPattern::CUT_WON, LedPattern::SHORT_WON, LedPattern::OFF] {
            defmt::unwrap!(leds.show(pattern).ok());
            chip.delay.delay_ms(1000);
        }
    }

    /// The pull-ups settle within `Config::settle_us`: a node read right after switching and
    /// after the settling time agree with one read much later. The emulated ADC samples the
    /// solved network (no settling in time): only the board can judge this.
    #[test]
    #[ignore]
    fn the_pull_ups_settle_within_the_configured_time(mut chip: Chip) {
        let mut sampler = sampler(&mut chip, BOARD.adc.bits_used);
        let node = Node::Internal { x: 7, y: 6 };
        defmt::unwrap!(sampler.set_pullups(false).ok());
        chip.delay.delay_ms(10);
        defmt::unwrap!(sampler.set_pullups(true).ok());
        chip.delay.delay_us(Config::default().settle_us);
        let settled = defmt::unwrap!(sampler.read(node).ok());
        chip.delay.delay_ms(10);
        let later = defmt::unwrap!(sampler.read(node).ok());
        defmt::info!("G6: {} after settling, {} 10 ms later", settled, later);
        defmt::assert!(settled.abs_diff(later) <= 2);
    }

    /// The debouncer on a real pin in SysTick time: a pin read back through IDR (an LED pin
    /// driven as the button) bounces for 5 ms, then holds; the press comes at the 20th
    /// agreeing 1 ms sample and not before, and a bounce of 19 ms never makes one.
    #[test]
    fn the_debouncer_counts_systick_milliseconds(mut chip: Chip) {
        let pin = BOARD.pins.row_leds[0];
        let mut drive = chip.gpio.output(pin);
        let mut button = Button::new(
            chip.gpio.output(pin),
            boards::Level::High,
            Debouncer::default(),
        );
        // 19 pressed samples then released: no press.
        for level in core::iter::repeat_n(true, 19).chain(core::iter::repeat_n(false, 30)) {
            defmt::unwrap!(
                if level {
                    drive.set_high()
                } else {
                    drive.set_low()
                }
                .ok()
            );
            defmt::assert!(!defmt::unwrap!(button.poll().ok()));
            chip.delay.delay_ms(1);
        }
        // Bounce: 5 ms alternating, then held.
        for i in 0..5 {
            defmt::unwrap!(
                if i % 2 == 0 {
                    drive.set_high()
                } else {
                    drive.set_low()
                }
                .ok()
            );
            defmt::assert!(!defmt::unwrap!(button.poll().ok()));
            chip.delay.delay_ms(1);
        }
        defmt::unwrap!(drive.set_high().ok());
        let mut ticks = 0u32;
        while !defmt::unwrap!(button.poll().ok()) {
            ticks += 1;
            defmt::assert!(ticks < 100, "no press after 100 ms held");
            chip.delay.delay_ms(1);
        }
        // The bounce left the counter at 1 (3 up, 2 down): 19 more samples complete it.
        defmt::assert_eq!(ticks + 1, 19);
    }

    /// The bench protocol's CRC-16/CCITT-FALSE on the chip: the catalogue's check value.
    #[test]
    fn the_protocol_crc_has_its_check_value() {
        defmt::assert_eq!(firmware::protocol::crc16(b"123456789"), 0x29B1);
    }

    /// The application on the chip's drivers, as the board binary builds it: the size found,
    /// the self-check passing on the start position (f32 prediction on the FPU), the
    /// heuristic's first move (A1, the game's known first move), shown on the LEDs.
    #[test]
    fn the_machine_plays_its_first_move(mut chip: Chip) {
        // The FPU is on (CPACR CP10 and CP11 full access, PM0214 4.6.1): cortex-m-rt does it
        // for an eabihf target, and the self-check's f32 needs it.
        let cpacr = unsafe { (*cortex_m::peripheral::SCB::PTR).cpacr.read() };
        defmt::assert_eq!(cpacr >> 20 & 0xF, 0xF);
        let sampler = sampler(&mut chip, BOARD.adc.bits_used);
        let pins = &BOARD.pins;
        let leds = PinLeds::new(
            pins.row_leds.map(|p| chip.gpio.output(p)),
            pins.column_leds.map(|p| chip.gpio.output(p)),
            BOARD.leds.active,
        );
        let button = Button::new(
            chip.gpio.input(pins.button.pin),
            pins.button.active,
            Debouncer::default(),
        );
        let fixture = defmt::unwrap!(BOARD.fixture);
        let spi = Spi2::new(
            unsafe { pac::SPI2::steal() },
            chip.gpio,
            &fixture,
            SPI_DIVIDER_LOG2,
            &mut chip.rcc,
        );
        let chain =
            defmt::unwrap!(Adg714Chain::new(spi, chip.gpio.output(fixture.sync), fixture).ok());
        let hardware = Hardware {
            sampler,
            leds,
            button,
            delay: chip.delay,
            fixture: chain,
        };
        let mut app = App::new(&BOARD, hardware, Config::default());
        app.start();
        let outcome = app.on_button();
        defmt::info!("{}", defmt::Display2Format(&outcome));
        defmt::assert!(matches!(outcome, firmware::Outcome::Move(_)));
        // "Cut plays A1": the move's text, as the host tests pin it.
        let mut text = heapless::String::<32>::new();
        defmt::unwrap!(core::fmt::write(&mut text, format_args!("{outcome}")).ok());
        defmt::assert_eq!(text.as_str(), "Cut plays A1");
    }

    /// The self-check on ADC1's codes (f32 on the FPU): the start position fits, the same
    /// codes with one node moved by twice the band do not.
    #[test]
    fn the_self_check_judges_measured_codes(mut chip: Chip) {
        let mut sampler = sampler(&mut chip, BOARD.adc.bits_used);
        let codes = defmt::unwrap!(
            measure(
                &mut sampler,
                Size::M4,
                BOARD.full_scale_code(),
                BOARD.adc.samples
            )
            .ok()
        );
        let mut tracker = Tracker::new(Size::M4);
        defmt::assert!(tracker.check(&BOARD, &codes).is_ok());
        let mut values = [0u16; heuristic::MAX_NODES];
        values[..codes.values().len()].copy_from_slice(codes.values());
        values[5] = values[5].saturating_sub(2 * firmware::band_codes(&BOARD));
        let moved = defmt::unwrap!(firmware::Codes::new(
            Size::M4,
            &values[..codes.values().len()]
        ));
        defmt::assert!(Tracker::new(Size::M4).check(&BOARD, &moved).is_err());
    }
}
