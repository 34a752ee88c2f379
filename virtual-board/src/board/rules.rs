//! The chip's rules that cross peripherals and the board, each a configuration fault with the
//! register values and the data-sheet section it breaks: a conversion needs ADC1's clock under
//! 36 MHz, its pin in analog mode, the profile's channel for the pin and a sampling time that
//! settles the node's source; a SPI2 frame needs SPI2 an enabled master, its pins on AF5 and a
//! clock mode the ADG714 latches; a wired output must be an output. The models only report what
//! a write asks ([`crate::chip::peripheral::Event`]).

use boards::{Pin, Port};
use firmware::Sampler;

use super::{Board, BoardFault, port_name};
use crate::chip::adc::Adc1;
use crate::chip::gpio::Mode;
use crate::chip::rcc::Rcc;
use crate::chip::spi::Spi;
use crate::chip::{self, SpiSignal, pin_name};
use crate::stop::Refusal;

/// A set-up the models do not cover, found at the write that starts a conversion or a frame:
/// the bus names it as that write (the register and the value written).
fn unmodelled() -> Refusal {
    chip::reg::unmodelled(0, None)
}

impl Board {
    /// After a write to `port`: a wired output that changed while its pin is not an output
    /// is a fault; SYNC rising latches the chain.
    pub(super) fn outputs_changed(&mut self, port: Port, before: u32) -> Result<(), Refusal> {
        let g = self.chip.gpio(port);
        let after = (0..16u8).fold(0u32, |acc, n| acc | (u32::from(g.odr(n)) << n));
        let changed = before ^ after;
        if changed == 0 {
            return Ok(());
        }
        let outputs = self.wiring_outputs();
        for n in (0..16u8).filter(|n| changed & (1 << n) != 0) {
            let pin = Pin::stm32(port, n);
            let Some((role, _)) = outputs.iter().find(|(_, p)| p.same_pin(pin)) else {
                continue;
            };
            let mode = self.chip.gpio(port).mode(n);
            if mode != Mode::Output {
                return Err(Refusal::config(
                    format!(
                        "the firmware drives {} ({role}) {} while its pin is in mode {} \
                         ({}_MODER = {:#010x}): the level never reaches the pin",
                        pin_name(pin),
                        if after & (1 << n) != 0 { "high" } else { "low" },
                        mode.bits(),
                        port_name(port),
                        self.chip.gpio(port).moder()
                    ),
                    "RM0390, GPIO output configuration (MODER = 01)",
                ));
            }
            if pin.same_pin(self.wiring.fixture.sync) && after & (1 << n) != 0 {
                self.chain.latch();
                self.wire_cage();
            }
        }
        Ok(())
    }

    fn wiring_outputs(&self) -> Vec<(String, Pin)> {
        let mut outputs = vec![
            ("the pull-up rail".to_string(), self.wiring.rail),
            ("the fixture's SYNC".to_string(), self.wiring.fixture.sync),
        ];
        for (i, p) in self.wiring.rows.iter().enumerate() {
            outputs.push((format!("row {} LED", i + 1), *p));
        }
        for (i, p) in self.wiring.columns.iter().enumerate() {
            outputs.push((format!("column {} LED", (b'A' + i as u8) as char), *p));
        }
        outputs
    }

    /// A software-started conversion: the chip's rules, then the cage's node through the
    /// drawn ADC, EOC after the conversion time.
    pub(super) fn convert(&mut self) -> Result<(), Refusal> {
        let adc = self.chip.get::<Adc1>();
        let quote = adc.quote();
        let clocks = self.chip.get::<Rcc>().clocks();
        let adc_hz = clocks.pclk2 / adc.prescaler();
        if adc_hz > chip::ADC_MAX_HZ {
            return Err(Refusal::config(
                format!(
                    "ADC1 converts at {:.1} MHz (PCLK2 {} MHz / ADCPRE {}), above the 36 MHz \
                     maximum; {quote}",
                    adc_hz as f64 / 1e6,
                    clocks.pclk2 / 1_000_000,
                    adc.prescaler()
                ),
                "DS10693, 12-bit ADC characteristics (f_ADC)",
            ));
        }
        if adc.sequence_length() != 1 {
            // A regular sequence longer than one (ADC1_SQR1.L).
            return Err(unmodelled());
        }
        let channel = adc.channel();
        let Some(pin) = chip::adc1_pin(channel) else {
            // An internal channel: temperature, VREFINT or VBAT.
            return Err(unmodelled());
        };
        let Some(&(node, _, _)) = self.wiring.nodes.iter().find(|(_, p, _)| p.same_pin(pin)) else {
            let claim = self
                .wiring
                .nodes
                .iter()
                .find(|(_, _, c)| *c == channel)
                .map(|(node, p, _)| {
                    format!(
                        "; the profile puts node {node} on {} with channel {channel}, but {} is \
                         {}",
                        pin_name(*p),
                        pin_name(*p),
                        chip::adc1_channel(*p)
                            .map_or("no ADC1 channel".to_string(), |c| format!("ADC1_IN{c}"))
                    )
                })
                .unwrap_or_default();
            return Err(Refusal::config(
                format!(
                    "ADC1 converts channel {channel}, which is {} on this chip, and the profile \
                     wires no node there{claim}; {quote}",
                    pin_name(pin)
                ),
                "DS10693, pin definitions (ADC1_INx)",
            ));
        };
        let (mode, moder) = self.pin_mode(pin);
        let (port, _) = chip::split(pin).expect("a chip pin");
        if mode != Mode::Analog {
            return Err(Refusal::config(
                format!(
                    "ADC1 converts channel {channel} on {} while the pin is in mode {} \
                     ({}_MODER = {moder:#010x}); {quote}",
                    pin_name(pin),
                    mode.bits(),
                    port_name(port)
                ),
                "RM0390, GPIO analog configuration (MODER = 11)",
            ));
        }
        let bits = adc.resolution_bits();
        let profile_bits = u32::from(self.cage.board().adc.bits);
        if bits != profile_bits {
            return Err(Refusal::config(
                format!(
                    "ADC1 converts at {bits} bits (ADC1_CR1.RES) but the profile's board reads \
                     {profile_bits}-bit codes; {quote}"
                ),
                "RM0390, ADC_CR1 (RES), and the profile's adc.bits_used",
            ));
        }
        let cycles = adc.sample_cycles(channel);
        let settles = chip::max_source_ohms(cycles, adc_hz, bits);
        let source = f64::from(self.wiring.pullup_ohms);
        if settles < source {
            return Err(Refusal::config(
                format!(
                    "ADC1 samples node {node} on {} for {cycles} cycles at {:.1} MHz, which \
                     settles a source of up to {:.0} ohms to a quarter LSB; the node's source \
                     is up to {source:.0} ohms (its pull-up); {quote}",
                    pin_name(pin),
                    adc_hz as f64 / 1e6,
                    settles.max(0.0)
                ),
                "DS10693, equation 1 (R_AIN max)",
            ));
        }
        let rail = self.pin_mode(self.wiring.rail).0 == Mode::Output && {
            let (port, n) = chip::split(self.wiring.rail).expect("checked");
            self.port(port).odr(n)
        };
        let code = if self.has(BoardFault::AdcOpen(pin)) {
            0
        } else {
            match self
                .sampler
                .set_pullups(rail)
                .and_then(|()| self.sampler.read(node))
            {
                Ok(code) => code,
                Err(never) => match never {},
            }
        };
        let code = code ^ self.adc_flip.take().unwrap_or(0);
        self.conversions += 1;
        // Sampling time plus one cycle per bit (RM0390, ADC timing), in core cycles.
        let adc_cycles = u64::from(cycles + bits);
        let core = (adc_cycles * clocks.sysclk).div_ceil(adc_hz.max(1));
        self.chip.get_mut::<Adc1>().begin(code, self.cycles + core)
    }

    /// A SPI2 frame: the pins must carry SPI2, the mode must suit the ADG714; the chain
    /// shifts while SYNC is low and MISO brings back its far end.
    pub(super) fn transfer(&mut self, frame: u16) -> Result<(), Refusal> {
        let spi = self.chip.get::<Spi>();
        let cr1 = spi.cr1();
        if !spi.master_enabled() {
            return Err(Refusal::config(
                format!(
                    "SPI2_DR written with SPI2 not an enabled master (SPI2_CR1 = {cr1:#010x}: \
                     SPE and MSTR must be 1); no clock reaches the fixture"
                ),
                "RM0390, SPI master mode configuration",
            ));
        }
        let fixture = self.wiring.fixture;
        for (signal, pin) in [
            (SpiSignal::Sck, Some(fixture.sck)),
            (SpiSignal::Mosi, Some(fixture.mosi)),
            (SpiSignal::Miso, fixture.miso),
        ] {
            let Some(pin) = pin else { continue };
            let (port, n) = chip::split(pin).expect("checked");
            let Some(af) = chip::spi2_af(signal, pin) else {
                return Err(Refusal::config(
                    format!(
                        "the profile wires the fixture's {signal:?} to {}, which cannot carry \
                         SPI2_{}",
                        pin_name(pin),
                        format!("{signal:?}").to_uppercase()
                    ),
                    "DS10693, alternate function mapping",
                ));
            };
            let g = self.port(port);
            if g.mode(n) != Mode::Alternate || g.af(n) != af {
                return Err(Refusal::config(
                    format!(
                        "SPI2 shifts a frame while {} (the fixture's {signal:?}) is in mode {} \
                         with AF{} ({}_MODER = {:#010x}): SPI2 reaches it only on AF{af} in \
                         alternate function mode",
                        pin_name(pin),
                        g.mode(n).bits(),
                        g.af(n),
                        port_name(port),
                        g.moder()
                    ),
                    "DS10693, alternate function mapping; RM0390, GPIO alternate function",
                ));
            }
        }
        let (cpol, cpha) = spi.mode();
        if cpol == cpha {
            return Err(Refusal::config(
                format!(
                    "SPI2 in mode {} (SPI2_CR1 = {cr1:#010x}: CPOL = {}, CPHA = {}) changes MOSI \
                     on the edge the ADG714 samples on: it latches DIN on SCLK's falling edge, \
                     which modes 1 and 2 give",
                    if cpol { 3 } else { 0 },
                    u8::from(cpol),
                    u8::from(cpha)
                ),
                "ADG714 data sheet, timing characteristics",
            ));
        }
        let (wide, lsb_first) = spi.frame();
        if wide {
            // 16-bit frames (SPI2_CR1.DFF).
            return Err(unmodelled());
        }
        let mut byte = frame as u8;
        if lsb_first {
            byte = byte.reverse_bits();
        }
        let (sync_port, sync_n) = chip::split(fixture.sync).expect("checked");
        let sync_low = !self.port(sync_port).odr(sync_n);
        let fitted = !self.has(BoardFault::NoFixture);
        let out = if sync_low && fitted {
            self.chain.shift(byte)
        } else {
            0
        };
        let miso = if fixture.miso.is_some() && !self.has(BoardFault::MisoLow) {
            out
        } else {
            0
        };
        let miso = if lsb_first { miso.reverse_bits() } else { miso };
        self.chip.get_mut::<Spi>().received(u16::from(miso))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boards::Profile;

    const AHB1ENR: u32 = 0x4002_3830;
    const APB1ENR: u32 = 0x4002_3840;
    const APB2ENR: u32 = 0x4002_3844;
    const GPIOA_MODER: u32 = 0x4002_0000;
    const GPIOC_BSRR: u32 = 0x4002_0818;
    const ADC1_SR: u32 = 0x4001_2000;
    const ADC1_CR1: u32 = 0x4001_2004;
    const ADC1_CR2: u32 = 0x4001_2008;
    const ADC1_SMPR2: u32 = 0x4001_2010;
    const ADC1_SQR3: u32 = 0x4001_2034;
    const ADC1_DR: u32 = 0x4001_204C;

    fn nucleo() -> Board {
        Board::new(&boards::NUCLEO_F446RE, Some(7)).unwrap()
    }

    fn w(b: &mut Board, address: u32, value: u32) {
        b.write(address, 4, value)
            .unwrap_or_else(|f| panic!("{address:#x}: {f:?}"));
    }

    /// Clocks on, PA0 (node A6, ADC1_IN0) analog, 10 bits, 480 cycles, ADON: as the binary
    /// sets ADC1 up, on the HSI (PCLK2 16 MHz, ADC 4 MHz).
    fn adc_ready(b: &mut Board) {
        w(b, AHB1ENR, 0x9F);
        w(b, APB2ENR, 1 << 8);
        w(b, GPIOA_MODER, 0xA800_0003);
        w(b, ADC1_CR1, 1 << 24);
        w(b, ADC1_SMPR2, 0b111);
        w(b, 0x4001_2304, 1 << 16); // ADCPRE /4
        w(b, ADC1_CR2, 1);
    }

    fn config_fault(result: Result<(), Refusal>) -> crate::stop::ConfigFault {
        match result {
            Err(Refusal::Config(fault)) => fault,
            other => panic!("not a configuration fault: {other:?}"),
        }
    }

    #[test]
    fn a_conversion_reads_the_cage_and_eoc_comes_after_the_conversion_time() {
        let mut b = nucleo();
        adc_ready(&mut b);
        w(&mut b, ADC1_SQR3, 0);
        w(&mut b, ADC1_CR2, 1 | 1 << 30);
        let start = b.cycles;
        assert_eq!(b.read(ADC1_SR, 4).unwrap() & 2, 0, "EOC at once");
        // The firmware polls: the next read is moved to the end of the conversion, (480 + 10)
        // ADC cycles at 4 MHz = 1960 core cycles at 16 MHz after the start.
        b.cycles += 10;
        assert_eq!(b.read(ADC1_SR, 4).unwrap() & 2, 2);
        assert_eq!(b.cycles - start, 1960);
        let code = b.read(ADC1_DR, 4).unwrap();
        // Node A6 of the M=4 start with the pull-ups released (the rail pin is not driven):
        // the drawn ADC reads near 0, never the full scale of a floating input.
        assert!(code < 1023, "{code}");
        assert_eq!(b.conversions, 1);
    }

    #[test]
    fn converting_a_pin_left_in_digital_mode_is_a_configuration_fault() {
        let mut b = nucleo();
        adc_ready(&mut b);
        w(&mut b, GPIOA_MODER, 0xA800_0001); // PA0 an output
        w(&mut b, ADC1_SQR3, 0);
        let fault = config_fault(b.write(ADC1_CR2, 4, 1 | 1 << 30));
        assert!(
            fault
                .what
                .contains("channel 0 on PA0 while the pin is in mode 01 (output)")
        );
        assert!(
            fault.what.contains("GPIOA_MODER = 0xa8000001"),
            "{}",
            fault.what
        );
        assert_eq!(fault.rule, "RM0390, GPIO analog configuration (MODER = 11)");
    }

    #[test]
    fn an_adc_clock_above_36_mhz_is_a_configuration_fault() {
        let mut b = nucleo();
        adc_ready(&mut b);
        // 84 MHz from the PLL, APB2 undivided, ADCPRE /2: 42 MHz.
        w(&mut b, 0x4002_3C00, 2);
        w(&mut b, 0x4002_3804, 16 | 336 << 6 | 1 << 16);
        w(&mut b, 0x4002_3800, 0x83 | 1 << 24);
        w(&mut b, 0x4002_3808, 0b10);
        w(&mut b, 0x4001_2304, 0); // ADCPRE /2
        let fault = config_fault(b.write(ADC1_CR2, 4, 1 | 1 << 30));
        assert!(
            fault.what.contains("ADC1 converts at 42.0 MHz"),
            "{}",
            fault.what
        );
        assert_eq!(fault.rule, "DS10693, 12-bit ADC characteristics (f_ADC)");
    }

    #[test]
    fn sampling_faster_than_the_sources_impedance_allows_is_a_configuration_fault() {
        let mut b = nucleo();
        adc_ready(&mut b);
        w(&mut b, ADC1_SMPR2, 0); // 3 cycles
        let fault = config_fault(b.write(ADC1_CR2, 4, 1 | 1 << 30));
        assert!(
            fault.what.contains("for 3 cycles at 4.0 MHz"),
            "{}",
            fault.what
        );
        assert!(
            fault.what.contains("up to 30000 ohms (its pull-up)"),
            "{}",
            fault.what
        );
        assert_eq!(fault.rule, "DS10693, equation 1 (R_AIN max)");
    }

    #[test]
    fn a_profile_naming_the_wrong_channel_for_a_pin_is_a_configuration_fault() {
        let mut profile = boards::NUCLEO_F446RE;
        // Node A6 stays on PA0, but the profile says channel 2 (DS10693: PA0 is ADC1_IN0).
        profile.pins.nodes[0].channel = 2;
        let profile: &'static Profile = Box::leak(Box::new(profile));
        let mut b = Board::new(profile, Some(7)).unwrap();
        adc_ready(&mut b);
        w(&mut b, ADC1_SQR3, 2); // what the firmware built from that profile converts
        let fault = config_fault(b.write(ADC1_CR2, 4, 1 | 1 << 30));
        assert!(
            fault
                .what
                .contains("the profile puts node A6 on PA0 with channel 2, but PA0 is ADC1_IN0"),
            "{}",
            fault.what
        );
        assert_eq!(fault.rule, "DS10693, pin definitions (ADC1_INx)");
    }

    #[test]
    fn driving_spi_before_its_pins_are_on_their_alternate_function_is_a_configuration_fault() {
        let mut b = nucleo();
        w(&mut b, AHB1ENR, 0x9F);
        w(&mut b, APB1ENR, 1 << 14);
        w(&mut b, 0x4000_3800, 1 << 2 | 1 << 6 | 1); // MSTR, SPE, CPHA (mode 1)
        let fault = config_fault(b.write(0x4000_380C, 4, 0xA5));
        assert!(
            fault
                .what
                .contains("PB13 (the fixture's Sck) is in mode 00 (input) with AF0"),
            "{}",
            fault.what
        );
        assert!(
            fault
                .rule
                .starts_with("DS10693, alternate function mapping")
        );
    }

    #[test]
    fn lighting_an_led_on_a_pin_that_is_not_an_output_is_a_configuration_fault() {
        let mut b = nucleo();
        w(&mut b, AHB1ENR, 0x9F);
        // Row 1's LED is PC10, still an input.
        let fault = config_fault(b.write(GPIOC_BSRR, 4, 1 << 10));
        assert!(
            fault
                .what
                .contains("drives PC10 (row 1 LED) high while its pin is in mode 00 (input)"),
            "{}",
            fault.what
        );
        assert_eq!(fault.rule, "RM0390, GPIO output configuration (MODER = 01)");
    }

    #[test]
    fn touching_a_peripheral_whose_clock_is_off_is_a_configuration_fault() {
        let mut b = nucleo();
        let Err(Refusal::Config(fault)) = b.read(GPIOA_MODER, 4) else {
            panic!("read with the clock off")
        };
        assert!(
            fault.what.contains(
                "GPIOA accessed with its clock off (RCC_AHB1ENR = 0x00100000: GPIOAEN = 0)"
            ),
            "{}",
            fault.what
        );
    }
}
