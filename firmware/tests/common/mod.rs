//! Test doubles: a cage whose codes come from the profile's nominal network, LEDs that record
//! what they show, and an application built on them.
#![allow(dead_code)]

use core::convert::Infallible;

use boards::{Level, NUCLEO_F446RE, Profile};
use embedded_hal_mock::eh1::delay::NoopDelay;
use embedded_hal_mock::eh1::digital::Mock as PinMock;
use firmware::{
    App, Button, Config, Debouncer, Hardware, LedPattern, Leds, NoFixture, Outcome, Sampler,
    Square, predict,
};
use heuristic::{Edge, Move, Node, Position, Side, Size, rank};

pub const BOARD: &Profile = &NUCLEO_F446RE;

pub fn size(m: u32) -> Size {
    Size::new(m).unwrap()
}

pub fn edge(size: Size, name: &str) -> Edge {
    Edge::parse(size, name).unwrap()
}

/// Codes of every node of `position` with the pull-ups on, rounded as the ADC would.
pub fn nominal_codes(position: &Position) -> Vec<u16> {
    let predicted = predict(BOARD, position).unwrap();
    let full_scale = BOARD.full_scale_code();
    predicted[..position.size().node_count()]
        .iter()
        .map(|&v| (v.clamp(0.0, f32::from(full_scale)) + 0.5) as u16)
        .collect()
}

/// The machine's move on `position` read through the nominal network: what the application
/// plays when the cage matches.
pub fn machine_move(position: &Position) -> Option<Edge> {
    rank(position, &nominal_codes(position))
        .unwrap()
        .map(|r| r.choice)
}

/// An M=3 or M=4 cage on the M=4 board, read through the profile's nominal network.
#[derive(Debug)]
pub struct Cage {
    /// What the cage really holds.
    pub position: Position,
    /// Pull-ups on.
    pub pullups: bool,
    /// Codes added to a node's reading.
    pub offsets: Vec<(Node, i32)>,
    /// Conversions made.
    pub reads: usize,
    /// The sampler fails from now on.
    pub broken: bool,
}

impl Cage {
    pub fn new(m: u32) -> Cage {
        Cage {
            position: Position::new(size(m), Side::Cut),
            pullups: false,
            offsets: Vec::new(),
            reads: 0,
            broken: false,
        }
    }

    /// Plays a move on the cage whoever's turn the rules think it is (the hand on the cage does
    /// not ask).
    pub fn play(&mut self, side: Side, name: &str) {
        let edge = edge(self.position.size(), name);
        self.position.set_to_move(side);
        self.position.play(Move { side, edge }).unwrap();
    }

    /// Makes the machine's move on the cage.
    pub fn make(&mut self, outcome: Outcome) {
        let Outcome::Move(square) = outcome else {
            panic!("expected a move, got {outcome:?}");
        };
        let edge = square.edge(self.position.size()).unwrap();
        self.position.set_to_move(Side::Cut);
        self.position
            .play(Move {
                side: Side::Cut,
                edge,
            })
            .unwrap();
    }
}

impl Sampler for Cage {
    type Error = &'static str;

    fn set_pullups(&mut self, on: bool) -> Result<(), &'static str> {
        if self.broken {
            return Err("broken");
        }
        self.pullups = on;
        Ok(())
    }

    fn read(&mut self, node: Node) -> Result<u16, &'static str> {
        if self.broken {
            return Err("broken");
        }
        self.reads += 1;
        let full_scale = BOARD.full_scale_code();
        let size = self.position.size();
        let code = if !self.pullups {
            // The game-over reading: the bottom terminal with the pull-ups released.
            match (node, self.position.winner()) {
                (Node::Bottom, Some(Side::Short)) => full_scale,
                (Node::Bottom, Some(Side::Cut)) => 0,
                (Node::Bottom, None) => 300,
                _ => 0,
            }
        } else {
            let codes = nominal_codes(&self.position);
            match node {
                Node::Top => full_scale,
                Node::Bottom => codes[Node::Bottom.index(size)],
                Node::Internal { x, y } => match Node::internal(size, x, y) {
                    Some(n) => codes[n.index(size)],
                    // M=3 on the M=4 cage: row 6 is jumpered to Q, column G is pulled up.
                    None => full_scale,
                },
            }
        };
        let offset: i32 = self
            .offsets
            .iter()
            .filter(|(n, _)| *n == node)
            .map(|(_, o)| o)
            .sum();
        Ok((i32::from(code) + offset).clamp(0, i32::from(full_scale)) as u16)
    }
}

/// LEDs that remember every pattern shown.
#[derive(Debug, Default)]
pub struct ShownLeds {
    pub history: Vec<LedPattern>,
}

impl Leds for ShownLeds {
    type Error = Infallible;

    fn show(&mut self, pattern: LedPattern) -> Result<(), Infallible> {
        self.history.push(pattern);
        Ok(())
    }
}

pub type TestApp<S = Cage> = App<S, ShownLeds, PinMock, NoopDelay, NoFixture>;

/// The application on `sampler`, with a button pin that expects no reads.
pub fn app_on<S: Sampler>(sampler: S, config: Config) -> TestApp<S> {
    app_with(BOARD, sampler, config)
}

/// The same on another profile.
pub fn app_with<S: Sampler>(profile: &'static Profile, sampler: S, config: Config) -> TestApp<S> {
    let hardware = Hardware {
        sampler,
        leds: ShownLeds::default(),
        button: Button::new(PinMock::new(&[]), Level::Low, Debouncer::default()),
        delay: NoopDelay::new(),
        fixture: NoFixture,
    };
    App::new(profile, hardware, config)
}

pub fn app(cage: Cage) -> TestApp {
    app_on(cage, Config::default())
}

/// Checks the mocks' expectations were all used.
pub fn finish<S: Sampler>(app: TestApp<S>) -> S {
    let hardware = app.release();
    hardware.button.release().done();
    hardware.sampler
}

pub fn sq(size: Size, name: &str) -> Square {
    edge(size, name).into()
}
