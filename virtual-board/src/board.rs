//! The virtual NUCLEO-F446RE: the chip ([`Chip`], its register models on one bus) and the
//! board's devices attached to its pins from outside the models: the button (an input level),
//! the LEDs (read off the output latches), the ADG714 chain on SPI2 and SYNC ([`adg714`]), and
//! the cage behind the ADC's pins, read through the project's physical model of the drawn board
//! ([`EmulatedCage`], the one SIL reads): one draw, one noise stream. The chip's rules that
//! cross peripherals and the board (a conversion needs its clock, its pin in analog mode and a
//! source it can settle; a SPI frame its pins on SPI2's alternate function) are in [`rules`].

pub mod adg714;
mod rules;
pub mod wiring;

use boards::{Level, Pin, Port, Profile};
use emulator::emulated::{CageSampler, EmulatedCage};
use firmware::LedPattern;
use heuristic::{EdgeState, Node, Position, Side, Size};

use crate::chip::flash::{FlashInterface, RdpLevelError};
use crate::chip::gpio::{Gpio, Mode, Outside};
use crate::chip::iwdg::Iwdg;
use crate::chip::peripheral::Event;
use crate::chip::rcc::Rcc;
use crate::chip::{self, Chip, pin_name};
use crate::stop::{Access, Refusal};
use adg714::Chain;
use wiring::Wiring;
pub use wiring::WiringError;

/// What a real board can get wrong, made at register level (`--fault`): the bench's words,
/// written once in `boards`.
pub use boards::virtual_board::BoardFault;

/// The function whose entry a [`BoardFault::Panic`] replaces by a branch to the panic handler:
/// the self-check, which runs at the first press of every game.
pub const PANIC_AT: &str = "firmware::self_check::Tracker::check";
/// The firmware's panic handler (panic-probe's, through defmt).
pub const PANIC_HANDLER: &str = "_defmt_panic";

/// What the virtual board says when the watchdog resets the chip (a log line of `run` and
/// `serve`).
pub const WATCHDOG_RESET: &str = "the independent watchdog (IWDG) expired: the firmware stopped \
                                  feeding it; system reset (memory kept, peripherals at reset, \
                                  the core from its vector table)";

/// Why the chip reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResetCause {
    /// The firmware asked (AIRCR.SYSRESETREQ), or a debugger did.
    Software,
    /// The independent watchdog expired (IWDG, RM0390 19.3): the firmware stopped feeding it.
    Watchdog,
}

/// The board: the chip, its devices, the wiring, the cage, time.
pub struct Board {
    chip: Chip,
    wiring: Wiring,
    cage: EmulatedCage,
    sampler: CageSampler,
    chain: Chain,
    button_pressed: bool,
    /// Core cycles since reset: the board's only clock.
    pub cycles: u64,
    /// A system reset was asked for (AIRCR.SYSRESETREQ) or made (the watchdog).
    pub reset_requested: bool,
    /// Why the chip resets, once `reset_requested`.
    cause: ResetCause,
    /// The first core cycle at which a block of the chip resets it by itself (the watchdog).
    pub due: u64,
    /// Conversions made.
    pub conversions: u64,
    /// Faults made on purpose.
    faults: Vec<BoardFault>,
    /// The next conversion's code has these bits flipped (a glitch trial's ADC fault).
    pub adc_flip: Option<u16>,
    /// Flash an erase started (first address, bytes): the core erases its memory there.
    erase: Option<(u32, u32)>,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("cycles", &self.cycles)
            .finish_non_exhaustive()
    }
}

impl Board {
    /// The chip's models (a debugger's comparators, the flash interface).
    pub fn chip(&self) -> &Chip {
        &self.chip
    }

    /// The chip's models, to change them.
    pub fn chip_mut(&mut self) -> &mut Chip {
        &mut self.chip
    }

    /// The board of `profile`, its parts and ADC drawn from `seed` as SIL draws them.
    pub fn new(profile: &'static Profile, seed: Option<u64>) -> Result<Board, WiringError> {
        let wiring = Wiring::of(profile)?;
        let cage = EmulatedCage::new(profile, Size::M4, seed)
            .expect("the M=4 cage is every profile's cage");
        let sampler = cage.hardware().sampler;
        let chain = Chain::new(usize::from(wiring.fixture.devices));
        let mut board = Board {
            chip: Chip::default(),
            wiring,
            cage,
            sampler,
            chain,
            button_pressed: false,
            cycles: 0,
            reset_requested: false,
            cause: ResetCause::Software,
            due: u64::MAX,
            conversions: 0,
            faults: Vec::new(),
            adc_flip: None,
            erase: None,
        };
        board.attach_button();
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
        match fault {
            // A bare cage, as a person wires it: every resistor in place.
            BoardFault::NoFixture => self.cage.wire(Position::new(Size::M4, Side::Cut)),
            BoardFault::PllStuck => self.chip.get_mut::<Rcc>().pll_stuck = true,
            _ => {}
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
        self.chip.reset();
        // RCC_CSR records why (RM0390 6.3.21): what a debugger reads after the fact.
        if self.reset_requested {
            self.chip.get_mut::<Rcc>().record_reset(match self.cause {
                ResetCause::Watchdog => crate::chip::rcc::IWDGRSTF,
                ResetCause::Software => crate::chip::rcc::SFTRSTF,
            });
        }
        self.due = self.chip.due();
        self.chain = Chain::new(usize::from(self.wiring.fixture.devices));
        self.reset_requested = false;
        self.erase = None;
        self.cause = ResetCause::Software;
        self.wire_cage();
    }

    /// The emulated cage (to start a game's noise stream, to read what it holds).
    pub fn cage(&self) -> &EmulatedCage {
        &self.cage
    }

    /// Presses (`true`) or releases the button.
    pub fn press(&mut self, pressed: bool) {
        self.button_pressed = pressed;
        self.attach_button();
    }

    /// The button on its pin: pressed, it drives the active level; released, its on-board
    /// pull drives the idle level, or with the chip's pull (`Internal`) the pin floats to it.
    fn attach_button(&mut self) {
        let button = self.wiring.button;
        let active = button.active == Level::High;
        let outside = match (self.button_pressed, button.pull) {
            (true, _) => Outside::Drives(active),
            (false, boards::ButtonPull::OnBoard) => Outside::Drives(!active),
            (false, boards::ButtonPull::Internal) => Outside::Floats(!active),
        };
        let (port, n) = chip::split(button.pin).expect("checked at start");
        self.chip.gpio_mut(port).set_outside(n, outside);
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
        self.chip.gpio(port)
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
        let (value, skip) = self.chip.read(address, size, self.cycles)?;
        self.cycles += skip;
        Ok(value)
    }

    /// Writes `size` bytes of `value` at `address` (a peripheral), then does what the write
    /// asks of the board (a conversion, a frame, outputs that changed, a reset).
    pub fn write(&mut self, address: u32, size: usize, value: u32) -> Result<(), Refusal> {
        let written = self.chip.write(address, size, value, self.cycles)?;
        self.cycles += written.skip;
        self.due = self.chip.due();
        let result = match written.event {
            Event::None => Ok(()),
            Event::Convert => self.convert(),
            Event::Transfer(frame) => self.transfer(frame),
            Event::Outputs(port, before) => self.outputs_changed(port, before),
            Event::SystemReset => {
                self.reset_requested = true;
                Ok(())
            }
            Event::Erase(start, len) => {
                self.erase = Some((start, len));
                Ok(())
            }
        };
        result.map_err(|f| self.chip.complete(f, written.address, Some(written.value)))
    }

    /// Time has reached [`Board::due`]: the watchdog resets the chip (asked of the core,
    /// which resets with it).
    pub fn expire(&mut self) {
        self.reset_requested = true;
        self.cause = ResetCause::Watchdog;
    }

    /// Why the chip resets (once `reset_requested`).
    pub fn reset_cause(&self) -> ResetCause {
        self.cause
    }

    /// The watchdog's feeds since power-on and the longest span between two, in core cycles.
    pub fn watchdog_feeds(&self) -> (u64, u64) {
        let w = self.chip.get::<Iwdg>();
        (w.feeds, w.longest)
    }

    /// Whether the watchdog runs and was fed within its period (a still-running core's).
    pub fn watchdog_fed(&self) -> bool {
        self.chip.get::<Iwdg>().fed_by(self.cycles)
    }

    /// The flash interface (its read-out protection level, its state).
    pub fn flash(&self) -> &FlashInterface {
        self.chip.get::<FlashInterface>()
    }

    /// Starts the board's flash at read-out protection level `level` (0 or 1), as a chip
    /// programmed so and powered on (`serve --rdp 1`).
    pub fn set_rdp_level(&mut self, level: u8) -> Result<(), RdpLevelError> {
        self.chip.get_mut::<FlashInterface>().set_rdp_level(level)
    }

    /// A store of `size` bytes of `data` to flash at `address`, whose bytes hold `old`: what
    /// the flash interface programs there (`None`: an error flag instead), time moved on by
    /// any operation it waited for ([`FlashInterface::program`]).
    pub fn program_flash(
        &mut self,
        address: u32,
        size: usize,
        data: u32,
        old: u32,
    ) -> Result<Option<u32>, Refusal> {
        let sysclk = self.chip.get::<Rcc>().clocks().sysclk;
        let now = self.cycles;
        let programmed = self
            .chip
            .get_mut::<FlashInterface>()
            .program(address, size, data, old, now, sysclk)?;
        self.cycles += programmed.stall;
        Ok(programmed.value)
    }

    /// The erase a write to FLASH_CR started, once (first address, bytes), for the core to
    /// make on its memory.
    pub fn take_erase(&mut self) -> Option<(u32, u32)> {
        self.erase.take()
    }

    /// The peripheral and register at `address`, for a fault.
    pub fn access(&self, address: u32, written: Option<u32>, size: usize) -> Access {
        self.chip.access(address, written, size)
    }
}

fn port_name(port: Port) -> String {
    format!("GPIO{port:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watchdog_resets_the_chip_and_rcc_csr_says_so() {
        let mut b = Board::new(&boards::NUCLEO_F446RE, Some(7)).unwrap();
        let w = |b: &mut Board, address: u32, value: u32| b.write(address, 4, value).unwrap();
        // IWDG: unlock, /4 (PR 0), RLR 31, start: 4 x 32 / 32 kHz = 4 ms, 64,000 cycles at
        // the HSI's 16 MHz (RM0390 19.3.3).
        w(&mut b, 0x4000_3000, 0x5555);
        w(&mut b, 0x4000_3008, 31);
        b.cycles = 1_000;
        w(&mut b, 0x4000_3000, 0xCCCC);
        assert_eq!(b.due, 65_000);
        b.cycles = 65_000;
        b.expire();
        assert_eq!(b.reset_cause(), ResetCause::Watchdog);
        b.reset();
        assert_eq!(b.due, u64::MAX, "a system reset stops the watchdog");
        // RCC_CSR: the power-on flags and IWDGRSTF (bit 29).
        assert_eq!(b.read(0x4002_3874, 4).unwrap(), 0x2E00_0000);
    }
}
