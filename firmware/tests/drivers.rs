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

/// What MISO gives back in a SYNC window before the chain's own frame arrives: whatever the
/// packages held.
const HELD: u8 = 0x3C;

/// The start-up probe's SPI expectations: a test pattern then an all-open frame, MISO giving
/// back `back` (the pattern itself from a chain of the right length).
fn probe(fixture: &boards::EdgeFixture, back: impl Fn(&[u8]) -> Vec<u8>) -> [SpiTx<u8>; 2] {
    let n = usize::from(fixture.devices);
    let pattern: Vec<u8> = (0..n).map(|i| 0xA5 ^ i as u8).collect();
    let mut out = pattern.clone();
    out.resize(2 * n, 0);
    let mut answer = vec![HELD; n];
    answer.extend(back(&pattern));
    [SpiTx::transfer(out, answer), SpiTx::flush()]
}

/// A frame shifted twice in one SYNC window, MISO giving back `back`.
fn twice(frame: &[u8], back: &[u8]) -> [SpiTx<u8>; 2] {
    let out = [frame, frame].concat();
    let answer = [vec![HELD; frame.len()], back.to_vec()].concat();
    [SpiTx::transfer(out, answer), SpiTx::flush()]
}

/// SYNC idle at construction, then low and high (latch) for each of `windows`.
fn sync_pin(windows: usize) -> PinMock {
    let mut table = vec![PinTx::set(State::High)];
    for _ in 0..windows {
        table.extend([PinTx::set(State::Low), PinTx::set(State::High)]);
    }
    PinMock::new(&table)
}

/// Sets the start cage on a chain of `fixture` whose bus expects `table` (the construction's
/// probe, if any, and the frame) in `windows` SYNC windows; the chain must take itself as fitted.
fn set_start_cage(fixture: boards::EdgeFixture, table: &[SpiTx<u8>], windows: usize) {
    let mut spi = SpiMock::new(table);
    let mut sync = sync_pin(windows);
    let mut chain = Adg714Chain::new(spi.clone(), sync.clone(), fixture).unwrap();
    assert!(chain.present());
    chain.set(&start_cage()).unwrap();
    spi.done();
    sync.done();
}

#[test]
fn fixture_finds_its_chain_then_shifts_each_frame_twice_and_reads_it_back() {
    let fixture = NUCLEO_F446RE.fixture.unwrap();
    let frame = cage_frame(&fixture, &start_cage()).unwrap().to_vec();
    let table: Vec<SpiTx<u8>> = probe(&fixture, |p| p.to_vec())
        .into_iter()
        .chain(twice(&frame, &frame))
        .collect();
    set_start_cage(fixture, &table, 2);
}

#[test]
fn fixture_without_read_back_shifts_one_frame_and_is_taken_as_fitted() {
    let fixture = boards::EdgeFixture {
        miso: None,
        ..NUCLEO_F446RE.fixture.unwrap()
    };
    let frame = cage_frame(&fixture, &start_cage()).unwrap().to_vec();
    set_start_cage(fixture, &[SpiTx::write_vec(frame), SpiTx::flush()], 1);
}

#[test]
fn no_chain_or_a_chain_a_package_short_is_not_taken_for_a_fixture() {
    let fixture = NUCLEO_F446RE.fixture.unwrap();
    let floating_high = |p: &[u8]| vec![0xFFu8; p.len()];
    let floating_low = |p: &[u8]| vec![0x00u8; p.len()];
    // One package fewer: the pattern comes back a byte early.
    let short = |p: &[u8]| [&[HELD][..], &p[..p.len() - 1]].concat();
    for back in [
        &floating_high as &dyn Fn(&[u8]) -> Vec<u8>,
        &floating_low,
        &short,
    ] {
        let mut spi = SpiMock::new(&probe(&fixture, back));
        let mut sync = sync_pin(1);
        let chain = Adg714Chain::new(spi.clone(), sync.clone(), fixture).unwrap();
        assert!(!chain.present());
        spi.done();
        sync.done();
    }
}

/// The application on mocks, over an ADG714 chain on a mocked bus.
type ChainApp = App<
    Cage,
    ShownLeds,
    PinMock,
    embedded_hal_mock::eh1::delay::NoopDelay,
    Adg714Chain<SpiMock<u8>, PinMock>,
>;

/// The application over a chain whose SPI expects `table` and whose SYNC sees `windows`.
fn app_on_chain(table: &[SpiTx<u8>], windows: usize) -> (ChainApp, SpiMock<u8>, PinMock) {
    let spi = SpiMock::new(table);
    let sync = sync_pin(windows);
    let hardware = Hardware {
        sampler: Cage::new(4),
        leds: ShownLeds::default(),
        button: Button::new(PinMock::new(&[]), Level::Low, Debouncer::default()),
        delay: embedded_hal_mock::eh1::delay::NoopDelay::new(),
        fixture: Adg714Chain::new(spi.clone(), sync.clone(), NUCLEO_F446RE.fixture.unwrap())
            .unwrap(),
    };
    (
        App::new(&NUCLEO_F446RE, hardware, Config::default()),
        spi,
        sync,
    )
}

#[test]
fn a_bare_board_plays_by_hand_and_refuses_the_bench_s_set_edges() {
    let fixture = NUCLEO_F446RE.fixture.unwrap();
    let (mut app, mut spi, mut sync) = app_on_chain(&probe(&fixture, |p| vec![0xFFu8; p.len()]), 1);
    // No switch is driven: a new game reads the cage as the operator left it.
    assert_eq!(app.start(), Outcome::NewGame { size: 4 });
    let firmware::protocol::Reply::Identity(id) = app.handle(firmware::protocol::Command::Identify)
    else {
        panic!("identify should answer an identity");
    };
    assert!(!id.fixture);
    assert_eq!(
        app.handle(firmware::protocol::Command::SetEdges(start_cage())),
        firmware::protocol::Reply::Error(firmware::protocol::ProtocolError::NoFixture)
    );
    app.release().button.release().done();
    spi.done();
    sync.done();
}

#[test]
fn a_frame_that_does_not_come_back_is_a_fixture_fault() {
    let fixture = NUCLEO_F446RE.fixture.unwrap();
    let frame = cage_frame(&fixture, &start_cage()).unwrap().to_vec();
    let mut broken = frame.clone();
    broken[3] ^= 0x10;
    let table: Vec<SpiTx<u8>> = probe(&fixture, |p| p.to_vec())
        .into_iter()
        .chain(twice(&frame, &frame))
        .chain(twice(&frame, &broken))
        .collect();
    let (mut app, mut spi, mut sync) = app_on_chain(&table, 3);
    assert_eq!(app.start(), Outcome::NewGame { size: 4 });
    assert_eq!(
        app.handle(firmware::protocol::Command::SetEdges(start_cage())),
        firmware::protocol::Reply::Error(firmware::protocol::ProtocolError::Hardware(
            firmware::Component::Fixture
        ))
    );
    app.release().button.release().done();
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
    let table: Vec<SpiTx<u8>> = probe(&fixture, |p| p.to_vec())
        .into_iter()
        .chain(twice(&start, &start))
        .chain(twice(&m3_frame, &m3_frame))
        .collect();
    let (mut app, mut spi, mut sync) = app_on_chain(&table, 3);
    // Power-on left every switch open: the first new game loads the M=4 start position.
    assert_eq!(app.start(), Outcome::NewGame { size: 4 });
    assert_eq!(
        app.handle(firmware::protocol::Command::SetEdges(m3)),
        firmware::protocol::Reply::Done
    );
    // A later new game leaves the fixture as the bench set it.
    app.start();
    app.release().button.release().done();
    spi.done();
    sync.done();
}
