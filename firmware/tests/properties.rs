//! Properties: whatever the codes and the presses, the application never panics and never cuts
//! an edge that has been played.

mod common;

use common::{Cage, app_on};
use firmware::protocol::Command;
use firmware::{Config, Outcome, Sampler};
use heuristic::{EdgeState, Node, Side};
use proptest::prelude::*;

/// Codes from a script, cycled.
#[derive(Debug)]
struct Scripted {
    codes: Vec<u16>,
    next: usize,
}

impl Sampler for Scripted {
    type Error = core::convert::Infallible;

    fn set_pullups(&mut self, _on: bool) -> Result<(), Self::Error> {
        Ok(())
    }

    fn read(&mut self, _node: Node) -> Result<u16, Self::Error> {
        let code = self.codes[self.next % self.codes.len()];
        self.next += 1;
        Ok(code)
    }
}

#[derive(Clone, Debug)]
enum Event {
    Press,
    NewGame,
    Bench(u8),
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        8 => Just(Event::Press),
        1 => Just(Event::NewGame),
        1 => (0u8..6).prop_map(Event::Bench),
    ]
}

fn bench(which: u8) -> Command {
    match which {
        0 => Command::Identify,
        1 => Command::Measure {
            pullups: false,
            samples: 3,
        },
        2 => Command::Status,
        3 => Command::Decide,
        4 => Command::SetEdges([EdgeState::Cut; 25]),
        _ => Command::Measure {
            pullups: true,
            samples: 0,
        },
    }
}

type ScriptedApp = common::TestApp<Scripted>;
type CageApp = common::TestApp<Cage>;

/// Runs `events`; every move must be a resistor of the position the machine believed before
/// it, and never repeated within a game.
fn run_events(app: &mut ScriptedApp, events: Vec<Event>) -> Result<(), TestCaseError> {
    let mut played = Vec::new();
    for event in events {
        let before = app.position();
        let outcome = match event {
            Event::Press => app.on_button(),
            Event::NewGame => app.start(),
            Event::Bench(which) => {
                let _ = app.handle(bench(which));
                continue;
            }
        };
        match outcome {
            Outcome::Move(square) => {
                let before = before.expect("a move needs a game");
                let edge = square
                    .edge(before.size())
                    .expect("moves are edges of the board");
                prop_assert_eq!(before.state(edge), EdgeState::Resistor);
                prop_assert!(!played.contains(&square), "{} played twice", square);
                played.push(square);
            }
            Outcome::NewGame { .. } => played.clear(),
            _ => {}
        }
    }
    Ok(())
}

/// Plays the machine against Short's `replies` (indices into the resistors left) on the cage;
/// every move must be a resistor on the cage, every turn must pass the self-check, and the
/// result must be the cage's.
fn run_game(app: &mut CageApp, replies: Vec<usize>) -> Result<(), TestCaseError> {
    let size = app.hardware().sampler.position.size();
    let mut replies = replies.into_iter();
    for _ in 0..30 {
        let outcome = app.on_button();
        match outcome {
            Outcome::Move(square) => {
                let cage = &mut app.hardware_mut().sampler;
                let edge = square.edge(size).unwrap();
                prop_assert_eq!(cage.position.state(edge), EdgeState::Resistor);
                cage.make(outcome);
                if cage.position.winner().is_some() {
                    continue;
                }
                let Some(choice) = replies.next() else {
                    break;
                };
                let moves: Vec<_> = cage.position.resistors().collect();
                let reply = moves[choice % moves.len()];
                cage.play(Side::Short, &reply.to_string());
            }
            Outcome::GameOver(winner) => {
                let cage = &app.hardware().sampler;
                prop_assert_eq!(cage.position.winner(), Some(winner));
                break;
            }
            Outcome::NewGame { .. } => prop_assert!(false, "a new game mid-game"),
            Outcome::Fault(fault) => prop_assert!(false, "{}", fault),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Arbitrary codes and events, self-check on or off: no panic, and every move is a resistor
    /// of the position the machine believes, never repeated within a game.
    #[test]
    fn arbitrary_codes_never_cut_a_played_edge(
        codes in prop::collection::vec(0u16..=1023, 1..64),
        events in prop::collection::vec(event(), 1..60),
        self_check in any::<bool>(),
    ) {
        let config = Config { self_check, ..Config::default() };
        let mut app = app_on(Scripted { codes, next: 0 }, config);
        let result = run_events(&mut app, events);
        common::finish(app);
        result?;
    }

    /// A real cage with random replies from Short and reading noise of up to a third of the
    /// band on every node: the machine keeps track and never cuts a played edge.
    #[test]
    fn a_noisy_cage_never_loses_track(
        m in 3u32..=4,
        replies in prop::collection::vec(0usize..64, 1..14),
        noise in prop::collection::vec(-8i32..=8, 14),
    ) {
        let mut cage = Cage::new(m);
        let size = cage.position.size();
        cage.offsets = size
            .nodes()
            .filter(|&n| n != Node::Top)
            .zip(noise)
            .collect();
        let mut app = app_on(cage, Config::default());
        app.start();
        let result = run_game(&mut app, replies);
        common::finish(app);
        result?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The fixture's frame read back as a model of the chain reads it: the bytes a frame
    /// sends, latched package by package (the last byte sent sits in package 0), give the cage
    /// that was set, for any of the 3^25 cages.
    #[test]
    fn a_latched_frame_is_the_cage_it_was_made_from(
        states in prop::collection::vec(0u8..3, boards::CAGE_EDGES),
    ) {
        let fixture = boards::NUCLEO_F446RE.fixture.unwrap();
        let mut cage = [EdgeState::Resistor; boards::CAGE_EDGES];
        for (slot, s) in cage.iter_mut().zip(&states) {
            *slot = [EdgeState::Resistor, EdgeState::Cut, EdgeState::Short][usize::from(*s)];
        }
        let frame = firmware::cage_frame(&fixture, &cage).unwrap();
        // A shift register chain: each byte pushes the others one package along.
        let mut chain = vec![0u8; usize::from(fixture.devices)];
        for &byte in &frame {
            chain.rotate_right(1);
            chain[0] = byte;
        }
        prop_assert_eq!(firmware::latched_cage(&fixture, &chain), Some(cage));
    }
}
