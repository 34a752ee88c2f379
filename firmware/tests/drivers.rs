//! The drivers against embedded-hal-mock expectation tables: LEDs on pins, the debounced
//! button, the ADG714 chain on SPI, and the application's settling delays.

mod common;

use boards::{Level, NUCLEO_F446RE};
use embedded_hal_mock::eh1::delay::{CheckedDelay, Transaction as DelayTx};
use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as PinTx};
use embedded_hal_mock::eh1::spi::{Mock as SpiMock, Transaction as SpiTx};
use firmware::{
    Adg714Chain, App, Button, Config, Debouncer, EdgeSwitches, Hardware, LedPattern, Leds,
    NoFixture, Outcome, PinLeds, Transition, cage_frame,
};
use heuristic::{EdgeState, Position, Side};

use common::{Cage, ShownLeds, edge, size};

fn pins(expected: &[&[PinTx]]) -> Vec<PinMock> {
    expected.iter().map(|t| PinMock::new(*t)).collect()
}

fn seven(pins: &mut Vec<PinMock>) -> [PinMock; 7] {
    let rest = pins.split_off(7);
    let seven = std::mem::replace(pins, rest);
    seven.try_into().unwrap()
}

/// Shows each pattern on mocked pins expecting `levels` (rows 1..7 then columns A..G).
fn check_leds(active: Level, pattern: LedPattern, levels: [State; 14]) {
    let tables: Vec<Vec<PinTx>> = levels.iter().map(|&s| vec![PinTx::set(s)]).collect();
    let tables: Vec<&[PinTx]> = tables.iter().map(Vec::as_slice).collect();
    let mut all = pins(&tables);
    let rows = seven(&mut all);
    let columns = seven(&mut all);
    let mut leds = PinLeds::new(rows, columns, active);
    leds.show(pattern).unwrap();
    let (rows, columns) = leds.release();
    for mut pin in rows.into_iter().chain(columns) {
        pin.done();
    }
}

#[test]
fn leds_light_the_move_row_and_column() {
    use State::{High as H, Low as L};
    let c3 = LedPattern::edge(edge(size(4), "C3"));
    check_leds(Level::High, c3, [L, L, H, L, L, L, L, L, L, H, L, L, L, L]);
    // Active-low LEDs invert every level.
    check_leds(Level::Low, c3, [H, H, L, H, H, H, H, H, H, L, H, H, H, H]);
    check_leds(
        Level::High,
        LedPattern::CUT_WON,
        [H, H, H, H, H, H, H, L, L, L, L, L, L, L],
    );
    check_leds(
        Level::High,
        LedPattern::SHORT_WON,
        [L, L, L, L, L, L, L, H, H, H, H, H, H, H],
    );
    check_leds(
        Level::High,
        LedPattern::FAULT,
        [H, L, H, L, H, L, H, H, L, H, L, H, L, H],
    );
}

#[test]
fn debouncer_needs_agreeing_samples() {
    let mut d = Debouncer::new(3);
    // (raw sample, transition expected)
    let table = [
        (true, None),
        (false, None), // bounce
        (true, None),
        (true, None),
        (true, Some(Transition::Pressed)),
        (true, None), // held: no repeat
        (false, None),
        (true, None), // bounce while releasing
        (false, None),
        (false, None),
        (false, Some(Transition::Released)),
        (false, None),
    ];
    for (i, (raw, expected)) in table.into_iter().enumerate() {
        assert_eq!(d.update(raw), expected, "sample {i}");
    }
    assert!(!d.is_pressed());
}

#[test]
fn button_reads_its_active_level() {
    // Active low (the Nucleo's B1): three low samples make a press.
    let mut table = vec![PinTx::get(State::Low); 3];
    table.push(PinTx::get(State::High));
    let mut button = Button::new(PinMock::new(&table), Level::Low, Debouncer::new(3));
    assert_eq!(
        (0..4).map(|_| button.poll().unwrap()).collect::<Vec<_>>(),
        [false, false, true, false]
    );
    button.release().done();
}

#[test]
fn a_bouncing_button_presses_once_through_tick() {
    // 5 bouncy samples then 20 steady low ones: exactly one press, on the 20th low sample
    // counted by the integrator.
    let mut table = vec![
        PinTx::get(State::Low),
        PinTx::get(State::High),
        PinTx::get(State::Low),
        PinTx::get(State::High),
        PinTx::get(State::Low),
    ];
    table.extend(vec![PinTx::get(State::Low); 20]);
    let hardware = Hardware {
        sampler: Cage::new(4),
        leds: ShownLeds::default(),
        button: Button::new(PinMock::new(&table), Level::Low, Debouncer::default()),
        delay: embedded_hal_mock::eh1::delay::NoopDelay::new(),
        fixture: NoFixture,
    };
    let mut app = App::new(&NUCLEO_F446RE, hardware, Config::default());
    let outcomes: Vec<_> = (0..table.len()).filter_map(|_| app.tick()).collect();
    assert_eq!(outcomes, [Outcome::NewGame { size: 4 }]);
    app.release().button.release().done();
}

#[test]
fn pull_ups_settle_before_every_reading() {
    // Start: pull-ups on, settle. A turn: released, settle; on again, settle.
    let settle = Config::default().settle_us;
    let delay = CheckedDelay::new(&vec![DelayTx::delay_us(settle); 3]);
    let hardware = Hardware {
        sampler: Cage::new(4),
        leds: ShownLeds::default(),
        button: Button::new(PinMock::new(&[]), Level::Low, Debouncer::default()),
        delay,
        fixture: NoFixture,
    };
    let mut app = App::new(&NUCLEO_F446RE, hardware, Config::default());
    app.start();
    assert!(matches!(app.on_button(), Outcome::Move(_)));
    let mut hardware = app.release();
    hardware.delay.done();
    hardware.button.release().done();
}

fn start_cage() -> [EdgeState; 25] {
    boards::cage_states(&Position::new(size(4), Side::Cut)).unwrap()
}

#[test]
fn fixture_frame_maps_edges_to_switches() {
    let fixture = NUCLEO_F446RE.fixture.unwrap();
    // Every series switch closed: even bits. Package 6 holds switches 48..55: edge 24's series
    // switch (48) only. The last package goes first.
    let start = cage_frame(&fixture, &start_cage()).unwrap();
    assert_eq!(start.as_slice(), [0x01, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55]);

    let mut cage = start_cage();
    cage[0] = EdgeState::Short; // A7: switch 0 open, bypass 1 closed
    cage[5] = EdgeState::Cut; // edge 5: switches 10, 11 (package 1, bits 2, 3) open
    cage[24] = EdgeState::Short; // G1: switch 49 (package 6, bit 1)
    let frame = cage_frame(&fixture, &cage).unwrap();
    assert_eq!(frame.as_slice(), [0x02, 0x55, 0x55, 0x55, 0x55, 0x51, 0x56]);
}

#[test]
fn fixture_refuses_a_chain_too_short() {
    let fixture = boards::EdgeFixture {
        devices: 6,
        ..NUCLEO_F446RE.fixture.unwrap()
    };
    assert_eq!(cage_frame(&fixture, &start_cage()), None);
}

#[test]
fn fixture_shifts_one_frame_between_sync_edges() {
    let fixture = NUCLEO_F446RE.fixture.unwrap();
    let frame = cage_frame(&fixture, &start_cage()).unwrap().to_vec();
    let mut spi = SpiMock::new(&[SpiTx::write_vec(frame), SpiTx::flush()]);
    let mut sync = PinMock::new(&[
        PinTx::set(State::High), // idle at construction
        PinTx::set(State::Low),
        PinTx::set(State::High), // latch
    ]);
    let mut chain = Adg714Chain::new(spi.clone(), sync.clone(), fixture).unwrap();
    assert!(chain.present());
    chain.set(&start_cage()).unwrap();
    spi.done();
    sync.done();
}

#[test]
fn m3_on_the_m4_cage_jumpers_the_top_row() {
    let m3 = Position::from_record(size(3), Side::Cut, "A1,c3").unwrap();
    let cage = boards::cage_states(&m3).unwrap();
    let m4 = size(4);
    let state = |name: &str| cage[edge(m4, name).index(m4)];
    assert_eq!(
        ["A7", "C7", "E7", "G7", "B6", "G1", "A1", "C3", "E5"].map(state),
        [
            EdgeState::Short,
            EdgeState::Short,
            EdgeState::Short,
            EdgeState::Cut,
            EdgeState::Cut,
            EdgeState::Cut,
            EdgeState::Cut,
            EdgeState::Short,
            EdgeState::Resistor,
        ]
    );
}

#[test]
fn the_application_loads_the_fixture_and_the_bench_sets_it() {
    let fixture = NUCLEO_F446RE.fixture.unwrap();
    let start = cage_frame(&fixture, &start_cage()).unwrap().to_vec();
    let mut m3 = boards::cage_states(&Position::new(size(3), Side::Cut)).unwrap();
    m3[edge(size(4), "C3").index(size(4))] = EdgeState::Short;
    let m3_frame = cage_frame(&fixture, &m3).unwrap().to_vec();
    let frame = |bytes: Vec<u8>| [SpiTx::write_vec(bytes), SpiTx::flush()];
    let spi_table: Vec<SpiTx<u8>> = frame(start).into_iter().chain(frame(m3_frame)).collect();
    let mut spi = SpiMock::new(&spi_table);
    let latch = [PinTx::set(State::Low), PinTx::set(State::High)];
    let mut sync_table = vec![PinTx::set(State::High)];
    sync_table.extend(latch.iter().cloned().chain(latch.iter().cloned()));
    let mut sync = PinMock::new(&sync_table);
    let hardware = Hardware {
        sampler: Cage::new(4),
        leds: ShownLeds::default(),
        button: Button::new(PinMock::new(&[]), Level::Low, Debouncer::default()),
        delay: embedded_hal_mock::eh1::delay::NoopDelay::new(),
        fixture: Adg714Chain::new(spi.clone(), sync.clone(), fixture).unwrap(),
    };
    let mut app = App::new(&NUCLEO_F446RE, hardware, Config::default());
    // Power-on left every switch open: the first new game loads the M=4 start position.
    assert_eq!(app.start(), Outcome::NewGame { size: 4 });
    let wire = m3.map(firmware::protocol::WireState::from);
    assert_eq!(
        app.handle(firmware::protocol::Command::SetEdges(wire)),
        firmware::protocol::Reply::Done
    );
    // A later new game leaves the fixture as the bench set it.
    app.start();
    app.release().button.release().done();
    spi.done();
    sync.done();
}
