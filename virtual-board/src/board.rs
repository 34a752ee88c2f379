//! The virtual NUCLEO-F446RE behind the core: the peripheral models on one bus, the chip's
//! rules that cross peripherals (a conversion needs its clock, its pin in analog mode and a
//! source it can settle; a SPI frame needs its pins on SPI2's alternate function), and the
//! board's wiring from the profile: which pin is which node, LED, button, rail and fixture
//! line. A conversion reads the cage through the project's physical model of the drawn board
//! ([`EmulatedCage`], the one SIL reads): one draw, one noise stream.

use boards::{Level, Pin, Port, Profile, Pullups};
use emulator::emulated::{CageSampler, EmulatedCage};
use firmware::{LedPattern, Sampler};
use heuristic::{EdgeState, Node, Position, Side, Size};

use crate::chip::{self, SpiSignal, pin_name};
use crate::periph::gpio::{Gpio, IDR, Mode, Pull};
use crate::periph::spi::{Chain, Spi};
use crate::periph::systick::SysTick;
use crate::periph::{FlashInterface, adc, dbgmcu, debug, rcc, scb, spi, systick};
use crate::stop::{Access, Refusal};

/// The bit-band alias of the peripherals (PM0214 2.2.5).
const BITBAND: u32 = 0x4200_0000;
const BITBAND_END: u32 = 0x4400_0000;
const PERIPHERALS: u32 = 0x4000_0000;

/// Why a profile cannot be the virtual board's wiring.
#[derive(Debug, thiserror::Error)]
pub enum WiringError {
    /// A pin the chip does not have (LQFP64).
    #[error("the profile's {role} is on {pin}, which the STM32F446RE (LQFP64) does not bond")]
    NoSuchPin {
        /// What the pin is for.
        role: String,
        /// The pin.
        pin: String,
    },
    /// The binary drives a shared rail; other pull-up wirings are not modelled.
    #[error(
        "the profile's pull-ups are not a shared rail: the NUCLEO board binary drives one rail pin"
    )]
    Pullups,
    /// No fixture: the board binary's cage is set by the fixture or by hand.
    #[error("the profile has no edge fixture on SPI2; the virtual board models the ADG714 chain")]
    Fixture,
}

/// What the pins are wired to, from the profile.
#[derive(Debug)]
struct Wiring {
    nodes: Vec<(Node, Pin, u8)>,
    rail: Pin,
    pullup_ohms: u32,
    rows: [Pin; 7],
    columns: [Pin; 7],
    led_active: Level,
    button: boards::Button,
    fixture: boards::EdgeFixture,
}

impl Wiring {
    fn of(profile: &Profile) -> Result<Wiring, WiringError> {
        let Pullups::SharedRail { ohms, control, .. } = profile.pullups else {
            return Err(WiringError::Pullups);
        };
        let fixture = profile.fixture.ok_or(WiringError::Fixture)?;
        let wiring = Wiring {
            nodes: profile
                .pins
                .measured()
                .map(|(node, input)| (node, input.pin, input.channel))
                .collect(),
            rail: control,
            pullup_ohms: ohms,
            rows: profile.pins.row_leds,
            columns: profile.pins.column_leds,
            led_active: profile.leds.active,
            button: profile.pins.button,
            fixture,
        };
        for (role, pin) in wiring.pins() {
            let bonded = chip::split(pin).is_some_and(|(port, n)| {
                chip::PORTS.contains(&port)
                    && n < 16
                    && !(port == Port::D && n != 2)
                    && !(port == Port::H && n > 1)
                    && !(port == Port::B && n == 11)
            });
            if !bonded {
                return Err(WiringError::NoSuchPin {
                    role,
                    pin: pin_name(pin),
                });
            }
        }
        Ok(wiring)
    }

    fn pins(&self) -> Vec<(String, Pin)> {
        let mut pins: Vec<(String, Pin)> = self
            .nodes
            .iter()
            .map(|(node, pin, _)| (format!("node {node}"), *pin))
            .collect();
        pins.push(("pull-up rail".into(), self.rail));
        for (i, p) in self.rows.iter().enumerate() {
            pins.push((format!("row {} LED", i + 1), *p));
        }
        for (i, p) in self.columns.iter().enumerate() {
            pins.push((format!("column {} LED", (b'A' + i as u8) as char), *p));
        }
        pins.push(("button".into(), self.button.pin));
        for (signal, pin) in self.fixture.pins() {
            if let Some(pin) = pin {
                pins.push((format!("fixture {signal:?}"), pin));
            }
        }
        pins
    }
}

/// What a real board can get wrong, made at register level (`--fault`): the bench's words,
/// written once in `boards`.
pub use boards::virtual_board::BoardFault;

/// The function whose entry a [`BoardFault::Panic`] replaces by a branch to the panic handler:
/// the self-check, which runs at the first press of every game.
pub const PANIC_AT: &str = "firmware::self_check::Tracker::check";
/// The firmware's panic handler (panic-probe's, through defmt).
pub const PANIC_HANDLER: &str = "_defmt_panic";

/// The board: peripherals, wiring, cage, time.
pub struct Board {
    rcc: rcc::Rcc,
    flash: FlashInterface,
    gpio: Vec<Gpio>,
    adc: adc::Adc1,
    spi: Spi,
    systick: SysTick,
    cpacr: u32,
    vtor: u32,
    shcsr: u32,
    dbgmcu_cr: u32,
    /// FP_CTRL and DWT_CTRL's writable bits (no comparators behind them).
    fp_ctrl: u32,
    dwt_ctrl: u32,
    wiring: Wiring,
    cage: EmulatedCage,
    sampler: CageSampler,
    chain: Chain,
    button_pressed: bool,
    /// Core cycles since reset: the board's only clock.
    pub cycles: u64,
    /// A system reset was asked for (AIRCR.SYSRESETREQ).
    pub reset_requested: bool,
    /// Conversions made.
    pub conversions: u64,
    /// Faults made on purpose.
    faults: Vec<BoardFault>,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("cycles", &self.cycles)
            .finish_non_exhaustive()
    }
}

impl Board {
    /// The board of `profile`, its parts and ADC drawn from `seed` as SIL draws them.
    pub fn new(profile: &'static Profile, seed: Option<u64>) -> Result<Board, WiringError> {
        let wiring = Wiring::of(profile)?;
        let cage = EmulatedCage::new(profile, Size::M4, seed)
            .expect("the M=4 cage is every profile's cage");
        let sampler = cage.hardware().sampler;
        let chain = Chain::new(usize::from(wiring.fixture.devices));
        let mut board = Board {
            rcc: rcc::Rcc::default(),
            flash: FlashInterface::default(),
            gpio: chip::PORTS.iter().map(|&p| Gpio::new(p)).collect(),
            adc: adc::Adc1::default(),
            spi: Spi::default(),
            systick: SysTick::default(),
            cpacr: 0,
            vtor: 0,
            shcsr: 0,
            dbgmcu_cr: 0,
            fp_ctrl: 0,
            dwt_ctrl: 0,
            wiring,
            cage,
            sampler,
            chain,
            button_pressed: false,
            cycles: 0,
            reset_requested: false,
            conversions: 0,
            faults: Vec::new(),
        };
        board.wire_cage();
        Ok(board)
    }

    /// Makes `fault` on the board.
    pub fn inject(&mut self, fault: BoardFault) -> Result<(), WiringError> {
        if let BoardFault::AdcStuck(pin, code) = fault {
            let node = self.node_at(pin).ok_or_else(|| WiringError::NoSuchPin {
                role: "stuck ADC input".into(),
                pin: pin_name(pin),
            })?;
            // The emulated cage's own stuck channel: what SIL's fault campaign injects.
            self.cage
                .inject(emulator::emulated::Defect::Stuck(node, code))
                .map_err(|_| WiringError::Fixture)?;
        }
        self.faults.push(fault);
        if fault == BoardFault::NoFixture {
            // A bare cage, as a person wires it: every resistor in place.
            self.cage.wire(Position::new(Size::M4, Side::Cut));
        }
        Ok(())
    }

    /// Whether `fault` was injected.
    pub fn has(&self, fault: BoardFault) -> bool {
        self.faults.contains(&fault)
    }

    fn node_at(&self, pin: Pin) -> Option<Node> {
        self.wiring
            .nodes
            .iter()
            .find(|(_, p, _)| p.same_pin(pin))
            .map(|(node, _, _)| *node)
    }

    /// A system reset: every peripheral at its reset value, the fixture's switches open; the
    /// cage (its parts, its noise stream) is the same board.
    pub fn reset(&mut self) {
        self.rcc = rcc::Rcc::default();
        self.flash = FlashInterface::default();
        self.gpio = chip::PORTS.iter().map(|&p| Gpio::new(p)).collect();
        self.adc = adc::Adc1::default();
        self.spi = Spi::default();
        self.systick = SysTick::default();
        self.cpacr = 0;
        self.vtor = 0;
        self.shcsr = 0;
        self.chain = Chain::new(usize::from(self.wiring.fixture.devices));
        self.reset_requested = false;
        self.wire_cage();
    }

    /// The emulated cage (to start a game's noise stream, to read what it holds).
    pub fn cage(&self) -> &EmulatedCage {
        &self.cage
    }

    /// Presses (`true`) or releases the button.
    pub fn press(&mut self, pressed: bool) {
        self.button_pressed = pressed;
    }

    /// What the LEDs show: a row or column LED is lit when its pin is an output at the
    /// profile's active level.
    pub fn leds(&self) -> LedPattern {
        let lit = |pin: Pin| {
            if self.has(BoardFault::LedDead(pin)) {
                return false;
            }
            let (port, n) = chip::split(pin).expect("checked at start");
            let g = self.port(port);
            g.mode(n) == Mode::Output && g.odr(n) == (self.wiring.led_active == Level::High)
        };
        let mut pattern = LedPattern::OFF;
        for (i, &p) in self.wiring.rows.iter().enumerate() {
            if lit(p) {
                pattern.rows |= 1 << i;
            }
        }
        for (i, &p) in self.wiring.columns.iter().enumerate() {
            if lit(p) {
                pattern.columns |= 1 << i;
            }
        }
        pattern
    }

    /// The row and column LEDs' pins (row 1 and column A first).
    pub fn led_pins(&self) -> ([Pin; 7], [Pin; 7]) {
        (self.wiring.rows, self.wiring.columns)
    }

    fn port(&self, port: Port) -> &Gpio {
        let i = chip::PORTS.iter().position(|&p| p == port).expect("bonded");
        &self.gpio[i]
    }

    fn pin_mode(&self, pin: Pin) -> (Mode, u32) {
        let (port, n) = chip::split(pin).expect("checked at start");
        let g = self.port(port);
        (g.mode(n), g.moder())
    }

    /// A cage wired by hand to `moves` on the M=4 cage (`monitor wire A1 c1`), as a person
    /// wires a board without fixture; refused while a fixture holds the cage.
    pub fn wire_by_hand(&mut self, moves: &[heuristic::Move]) -> Result<(), String> {
        if !self.has(BoardFault::NoFixture) {
            return Err("the edge fixture sets this cage (start with --fault no-fixture)".into());
        }
        let mut states = [EdgeState::Resistor; boards::CAGE_EDGES];
        for mv in moves {
            states[mv.edge.index(Size::M4)] = match mv.side {
                Side::Cut => EdgeState::Cut,
                Side::Short => EdgeState::Short,
            };
        }
        let position =
            Position::set_up(Size::M4, &states, Side::Cut).ok_or("the M=4 cage has 25 edges")?;
        self.cage.wire(position);
        Ok(())
    }

    /// The fixture's latched switches on the cage.
    fn wire_cage(&mut self) {
        if self.has(BoardFault::NoFixture) {
            return;
        }
        let states = firmware::latched_cage(&self.wiring.fixture, self.chain.latched())
            .expect("the profile's fixture fits the frame format (checked by the firmware)");
        let position =
            Position::set_up(Size::M4, &states, Side::Cut).expect("25 states for the M=4 cage");
        self.cage.wire(position);
    }

    /// Reads `size` bytes at `address` (a peripheral); a sub-word read takes its bytes of the
    /// word.
    pub fn read(&mut self, address: u32, size: usize) -> Result<u32, Refusal> {
        let aligned = address & !3;
        let word = if (BITBAND..BITBAND_END).contains(&address) {
            let (word, bit) = bitband(aligned);
            (self.read_word(word)? >> bit) & 1
        } else {
            self.read_word(aligned)?
        };
        let shift = 8 * (address & 3);
        let mask = if size >= 4 {
            u32::MAX
        } else {
            (1u32 << (8 * size)) - 1
        };
        Ok((word >> shift) & mask)
    }

    /// Writes `size` bytes of `value` at `address` (a peripheral). A sub-word write to a
    /// register is refused (the models take words), except through the bit-band alias.
    pub fn write(&mut self, address: u32, size: usize, value: u32) -> Result<(), Refusal> {
        if (BITBAND..BITBAND_END).contains(&address) {
            let (word, bit) = bitband(address & !3);
            // The alias is a read-modify-write of the word, as the bus matrix does it.
            let old = self.read_word(word)?;
            let new = (old & !(1 << bit)) | ((value & 1) << bit);
            return self.write_word(word, new);
        }
        // SPI's registers are 16 bits wide and taken by half-words (RM0390, SPI registers);
        // their upper half is reserved.
        if size == 2 && address & 3 == 0 && in_block(address, spi::BASE) {
            return self.write_word(address, value & 0xFFFF);
        }
        if size != 4 || address & 3 != 0 {
            return Err(Refusal::Unmodelled(self.access(address, Some(value), size)));
        }
        self.write_word(address, value)
    }

    /// The peripheral and register at `address`, for a fault.
    pub fn access(&self, address: u32, written: Option<u32>, size: usize) -> Access {
        let (peripheral, register) = names(address);
        Access {
            address,
            peripheral,
            register,
            written,
            size,
        }
    }

    fn complete(&self, fault: Refusal, address: u32, written: Option<u32>) -> Refusal {
        match fault {
            Refusal::Unmodelled(_) => Refusal::Unmodelled(self.access(address, written, 4)),
            config => config,
        }
    }

    fn clocked(&self, enable: rcc::Enable, peripheral: &str) -> Result<(), Refusal> {
        if self.rcc.enabled(enable) {
            return Ok(());
        }
        Err(Refusal::config(
            format!(
                "{peripheral} accessed with its clock off (RCC_{} = {:#010x}: {} = 0); the chip \
                 ignores the write or reads 0",
                enable.register,
                self.rcc.value_of(enable),
                enable.name
            ),
            "RM0390, RCC peripheral clock enable registers",
        ))
    }

    fn read_word(&mut self, address: u32) -> Result<u32, Refusal> {
        let now = self.cycles;
        let result = match address {
            a if in_block(a, spi::BASE) => {
                self.clocked(rcc::SPI2EN, "SPI2")?;
                self.spi.read(a - spi::BASE)
            }
            a if in_block(a, adc::BASE) => {
                self.clocked(rcc::ADC1EN, "ADC1")?;
                let (value, skip) = self.adc.read(a - adc::BASE, now)?;
                self.cycles += skip;
                Ok(value)
            }
            a if in_block(a, rcc::BASE) => self.rcc.read(a - rcc::BASE),
            a if a == crate::periph::FLASH_ACR => Ok(self.flash.read()),
            a if (systick::BASE..systick::BASE + 0x10).contains(&a) => {
                let (value, skip) = self.systick.read(a - systick::BASE, now)?;
                self.cycles += skip;
                Ok(value)
            }
            scb::CPUID => Ok(scb::CPUID_VALUE),
            scb::MVFR0 => Ok(scb::MVFR0_VALUE),
            scb::MVFR1 => Ok(scb::MVFR1_VALUE),
            scb::VTOR => Ok(self.vtor),
            scb::AIRCR => Ok(0xFA05_0000),
            scb::CPACR => Ok(self.cpacr),
            scb::SHCSR => Ok(self.shcsr),
            dbgmcu::IDCODE => Ok(dbgmcu::IDCODE_VALUE),
            dbgmcu::CR => Ok(self.dbgmcu_cr),
            // NUM_CODE = NUM_LIT = 0, NUMCOMP = 0: no comparators.
            debug::FP_CTRL => Ok(self.fp_ctrl & 1),
            debug::DWT_CTRL => Ok(self.dwt_ctrl & 1),
            a => match self.gpio_at(a) {
                Some((i, offset)) => {
                    let port = self.gpio[i].port;
                    self.clocked(rcc::gpio_en(chip::port_index(port)), &port_name(port))?;
                    if offset == IDR {
                        Ok(self.idr(i))
                    } else {
                        self.gpio[i].read(offset)
                    }
                }
                None => Err(crate::periph::reg::unmodelled(a, None)),
            },
        };
        result.map_err(|f| self.complete(f, address, None))
    }

    fn write_word(&mut self, address: u32, value: u32) -> Result<(), Refusal> {
        let now = self.cycles;
        let result = match address {
            a if in_block(a, spi::BASE) => {
                self.clocked(rcc::SPI2EN, "SPI2")?;
                match self.spi.write(a - spi::BASE, value) {
                    Ok(spi::Effect::Transfer(frame)) => self.transfer(frame),
                    Ok(spi::Effect::None) => Ok(()),
                    Err(e) => Err(e),
                }
            }
            a if in_block(a, adc::BASE) => {
                self.clocked(rcc::ADC1EN, "ADC1")?;
                match self.adc.write(a - adc::BASE, value, now) {
                    Ok(adc::Effect::Start) => self.convert(),
                    Ok(adc::Effect::None) => Ok(()),
                    Err(e) => Err(e),
                }
            }
            a if in_block(a, rcc::BASE) => {
                let stuck = self.has(BoardFault::PllStuck);
                self.rcc
                    .write(a - rcc::BASE, value, self.flash.latency(), stuck)
            }
            a if a == crate::periph::FLASH_ACR => {
                self.flash.write(value);
                Ok(())
            }
            a if (systick::BASE..systick::BASE + 0x10).contains(&a) => {
                self.systick.write(a - systick::BASE, value, now)
            }
            scb::VTOR => {
                self.vtor = value & !0x7F;
                Ok(())
            }
            scb::AIRCR => {
                if value >> 16 == scb::VECTKEY && value & scb::SYSRESETREQ != 0 {
                    self.reset_requested = true;
                }
                Ok(())
            }
            scb::CPACR => {
                self.cpacr = value;
                Ok(())
            }
            scb::SHCSR => {
                self.shcsr = value & scb::SHCSR_BITS;
                Ok(())
            }
            dbgmcu::CR => {
                self.dbgmcu_cr = value;
                Ok(())
            }
            debug::FP_CTRL => {
                self.fp_ctrl = value;
                Ok(())
            }
            debug::DWT_CTRL => {
                self.dwt_ctrl = value;
                Ok(())
            }
            a => match self.gpio_at(a) {
                Some((i, offset)) => {
                    let port = self.gpio[i].port;
                    self.clocked(rcc::gpio_en(chip::port_index(port)), &port_name(port))?;
                    let before = self.gpio[i].write(offset, value)?;
                    self.outputs_changed(i, before)
                }
                None => Err(crate::periph::reg::unmodelled(a, Some(value))),
            },
        };
        result.map_err(|f| self.complete(f, address, Some(value)))
    }

    fn gpio_at(&self, address: u32) -> Option<(usize, u32)> {
        chip::PORTS.iter().enumerate().find_map(|(i, &port)| {
            let base = chip::gpio_base(port);
            in_block(address, base).then(|| (i, address - base))
        })
    }

    /// IDR of port `i`: an output reads its latch, an input its level (the button, else its
    /// pull; a floating unwired pin reads 0), analog and alternate pins 0 (RM0390, I/O port
    /// configurations).
    fn idr(&self, i: usize) -> u32 {
        let g = &self.gpio[i];
        let mut idr = 0;
        for n in 0..16u8 {
            let high = match g.mode(n) {
                Mode::Output => g.odr(n),
                Mode::Input => {
                    let pin = Pin::stm32(g.port, n);
                    if pin.same_pin(self.wiring.button.pin) {
                        let active = self.wiring.button.active == Level::High;
                        if self.button_pressed {
                            active
                        } else {
                            match (self.wiring.button.pull, g.pull(n)) {
                                (boards::ButtonPull::OnBoard, _) => !active,
                                (boards::ButtonPull::Internal, Pull::Up) => true,
                                (boards::ButtonPull::Internal, Pull::Down) => false,
                                // Floating: the model reads it as the idle level would be
                                // pulled; a real pin would wander.
                                (boards::ButtonPull::Internal, Pull::None) => !active,
                            }
                        }
                    } else {
                        g.pull(n) == Pull::Up
                    }
                }
                Mode::Alternate | Mode::Analog => false,
            };
            idr |= u32::from(high) << n;
        }
        idr
    }

    /// After a write to port `i`'s ODR or BSRR: a wired output that changed while its pin is
    /// not an output is a fault; SYNC rising latches the chain.
    fn outputs_changed(&mut self, i: usize, before: u32) -> Result<(), Refusal> {
        let port = self.gpio[i].port;
        let after = (0..16u8).fold(0u32, |acc, n| acc | (u32::from(self.gpio[i].odr(n)) << n));
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
            let mode = self.gpio[i].mode(n);
            if mode != Mode::Output {
                return Err(Refusal::config(
                    format!(
                        "the firmware drives {} ({role}) {} while its pin is in mode {} \
                         ({}_MODER = {:#010x}): the level never reaches the pin",
                        pin_name(pin),
                        if after & (1 << n) != 0 { "high" } else { "low" },
                        mode.bits(),
                        port_name(port),
                        self.gpio[i].moder()
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
    fn convert(&mut self) -> Result<(), Refusal> {
        let quote = self.adc.quote();
        let clocks = self.rcc.clocks();
        let adc_hz = clocks.pclk2 / self.adc.prescaler();
        if adc_hz > chip::ADC_MAX_HZ {
            return Err(Refusal::config(
                format!(
                    "ADC1 converts at {:.1} MHz (PCLK2 {} MHz / ADCPRE {}), above the 36 MHz \
                     maximum; {quote}",
                    adc_hz as f64 / 1e6,
                    clocks.pclk2 / 1_000_000,
                    self.adc.prescaler()
                ),
                "DS10693, 12-bit ADC characteristics (f_ADC)",
            ));
        }
        if self.adc.sequence_length() != 1 {
            return Err(Refusal::Unmodelled(Access {
                address: adc::BASE + 0x2C,
                peripheral: Some("ADC1"),
                register: Some("SQR1 (a regular sequence longer than one)"),
                written: None,
                size: 4,
            }));
        }
        let channel = self.adc.channel();
        let Some(pin) = chip::adc1_pin(channel) else {
            return Err(Refusal::Unmodelled(Access {
                address: adc::BASE + 0x34,
                peripheral: Some("ADC1"),
                register: Some("SQR3 (an internal channel: temperature, VREFINT or VBAT)"),
                written: None,
                size: 4,
            }));
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
        let bits = self.adc.resolution_bits();
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
        let cycles = self.adc.sample_cycles(channel);
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
        self.conversions += 1;
        // Sampling time plus one cycle per bit (RM0390, ADC timing), in core cycles.
        let adc_cycles = u64::from(cycles + bits);
        let core = (adc_cycles * clocks.sysclk).div_ceil(adc_hz.max(1));
        self.adc.begin(code, self.cycles + core)
    }

    /// A SPI2 frame: the pins must carry SPI2, the mode must suit the ADG714; the chain
    /// shifts while SYNC is low and MISO brings back its far end.
    fn transfer(&mut self, frame: u16) -> Result<(), Refusal> {
        let cr1 = self.spi.cr1();
        if !self.spi.master_enabled() {
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
        let (cpol, cpha) = self.spi.mode();
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
        let (wide, lsb_first) = self.spi.frame();
        if wide {
            return Err(Refusal::Unmodelled(Access {
                address: spi::BASE,
                peripheral: Some("SPI2"),
                register: Some("CR1 (16-bit frames)"),
                written: Some(cr1),
                size: 4,
            }));
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
        self.spi.received(u16::from(miso))
    }
}

fn in_block(address: u32, base: u32) -> bool {
    (base..base + 0x400).contains(&address)
}

/// The word and bit a bit-band alias address stands for (PM0214 2.2.5).
fn bitband(alias: u32) -> (u32, u32) {
    let offset = alias - BITBAND;
    let byte = PERIPHERALS + offset / 32;
    let bit = (offset % 32) / 4 + 8 * (byte & 3);
    (byte & !3, bit)
}

fn port_name(port: Port) -> String {
    format!("GPIO{port:?}")
}

/// The peripheral (RM0390, memory map) and register at `address`, where the model knows them.
fn names(address: u32) -> (Option<&'static str>, Option<&'static str>) {
    const BLOCKS: &[(u32, &str)] = &[
        (0x4000_0000, "TIM2"),
        (0x4000_0400, "TIM3"),
        (0x4000_0800, "TIM4"),
        (0x4000_0C00, "TIM5"),
        (0x4000_2800, "RTC"),
        (0x4000_2C00, "WWDG"),
        (0x4000_3000, "IWDG"),
        (0x4000_3800, "SPI2"),
        (0x4000_3C00, "SPI3"),
        (0x4000_4400, "USART2"),
        (0x4000_4800, "USART3"),
        (0x4000_5400, "I2C1"),
        (0x4000_7000, "PWR"),
        (0x4001_0000, "TIM1"),
        (0x4001_1000, "USART1"),
        (0x4001_2000, "ADC1"),
        (0x4001_3000, "SPI1"),
        (0x4001_3800, "SYSCFG"),
        (0x4001_3C00, "EXTI"),
        (0x4002_0000, "GPIOA"),
        (0x4002_0400, "GPIOB"),
        (0x4002_0800, "GPIOC"),
        (0x4002_0C00, "GPIOD"),
        (0x4002_1000, "GPIOE"),
        (0x4002_1C00, "GPIOH"),
        (0x4002_3000, "CRC"),
        (0x4002_3800, "RCC"),
        (0x4002_3C00, "FLASH"),
        (0x4002_6000, "DMA1"),
        (0x4002_6400, "DMA2"),
        (0xE000_E000, "SCS"),
        (0xE000_1000, "DWT"),
        (0xE004_2000, "DBGMCU"),
    ];
    let Some(&(base, name)) = BLOCKS
        .iter()
        .find(|(base, _)| (*base..base + 0x400).contains(&address))
    else {
        return (None, None);
    };
    let offset = address - base;
    let register = match name {
        "SPI2" => Spi::register(offset),
        "ADC1" => adc::Adc1::register(offset),
        "RCC" => rcc::Rcc::register(offset),
        "FLASH" => ["ACR", "KEYR", "OPTKEYR", "SR", "CR", "OPTCR"]
            .get((offset / 4) as usize)
            .copied(),
        n if n.starts_with("GPIO") => Gpio::register(offset),
        "SCS" if (0x10..0x20).contains(&offset) => SysTick::register(offset - 0x10),
        _ => None,
    };
    (Some(name), register)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_bit_band_alias_is_its_peripheral_word_and_bit() {
        // RCC_APB2ENR (0x40023844) bit 8, ADC1EN: 0x42000000 + 0x23844 * 32 + 8 * 4.
        assert_eq!(bitband(0x4247_08A0), (0x4002_3844, 8));
    }

    #[test]
    fn unmodelled_registers_are_named_from_the_memory_map() {
        assert_eq!(names(0x4002_3C04), (Some("FLASH"), Some("KEYR")));
        assert_eq!(names(0x4000_7000), (Some("PWR"), None));
        assert_eq!(names(0x4002_0C1C), (Some("GPIOD"), None));
        assert_eq!(names(0x5000_0000), (None, None));
    }
}
