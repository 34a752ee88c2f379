//! The machine's application: a state machine driven by explicit events (`start`, `on_button`,
//! `tick`, and the bench's `handle`), generic over the hardware traits, so that the board
//! binary, host tests and an emulated board all run the same code.

use boards::Profile;
use embedded_hal::delay::DelayNs;
use embedded_hal::digital::InputPin;
use heuristic::{Node, Position, Side, Size};

use crate::log::{display, info, warn};
use crate::protocol::{
    self, Command, Frame, FrameReader, Identity, MAX_SAMPLES, Measurement, NO_SEQ, ProtocolError,
    Reply, Status,
};
use crate::sampler::average;
use crate::{
    Button, Component, EdgeSwitches, Fault, GameOverThresholds, LedPattern, Leds, Outcome, Phase,
    Sampler, Square, Tracker, band_codes, measure,
};

const M3: Size = Size::M3;
const M4: Size = Size::M4;

/// Settings that are not board values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// Conversions averaged per node, if not the profile's `adc.samples` (the board's one
    /// value, which the emulator and the studies model): an override for tests.
    pub samples: Option<u8>,
    /// Check the cage after each of the opponent's turns (and learn Short's move from it),
    /// and check the state kept between presses against the seal left after the last one.
    pub self_check: bool,
    /// Wait after switching the pull-ups: 30 kΩ into ~30 pF of pin, wiring and ADC sampling
    /// capacitor settles in about 1 µs per time constant; 100 µs is ample.
    pub settle_us: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            samples: None,
            self_check: true,
            settle_us: 100,
        }
    }
}

/// The hardware the application drives.
#[derive(Debug)]
pub struct Hardware<S, L, P, D, F> {
    /// Node codes and pull-ups.
    pub sampler: S,
    /// The row and column LEDs.
    pub leds: L,
    /// The debounced button.
    pub button: Button<P>,
    /// Delays (pull-up settling).
    pub delay: D,
    /// The edge fixture, or [`crate::NoFixture`].
    pub fixture: F,
}

#[derive(Debug, Hash)]
struct Game {
    size: Size,
    thresholds: GameOverThresholds,
    tracker: Tracker,
}

/// The machine.
#[derive(Debug)]
pub struct App<S, L, P, D, F> {
    profile: &'static Profile,
    hw: Hardware<S, L, P, D, F>,
    config: Config,
    game: Option<Game>,
    phase: Phase,
    last: Option<Outcome>,
    shown: LedPattern,
    fixture_loaded: bool,
    /// The hash of the state kept between presses, taken as the last press's work ended
    /// ([`App::kept_state`]): a bit that flips while the machine waits is found at the next
    /// press, before anything is decided or lit from it.
    seal: Option<u32>,
}

impl<S, L, P, D, F> App<S, L, P, D, F>
where
    S: Sampler,
    L: Leds,
    P: InputPin,
    D: DelayNs,
    F: EdgeSwitches,
{
    /// A machine for `profile`, idle until [`App::start`] or the first press.
    pub fn new(profile: &'static Profile, hw: Hardware<S, L, P, D, F>, config: Config) -> Self {
        App {
            profile,
            hw,
            config,
            game: None,
            phase: Phase::Idle,
            last: None,
            shown: LedPattern::OFF,
            fixture_loaded: false,
            seal: None,
        }
    }

    /// A hash of everything the machine keeps from one press to the next: which board, its
    /// settings, the game (size, thresholds, tracker), where the state machine is and what
    /// its LEDs show (not whether the bench loaded the fixture, which its own command sets). The self-check compares the tracker with the cage; this finds a flip
    /// the cage cannot show (a hypothesis changed to one the codes also fit).
    fn kept_state(&self) -> u32 {
        use core::hash::Hash;
        use hash32::Hasher;
        let mut hasher = hash32::FnvHasher::default();
        core::ptr::from_ref(self.profile).hash(&mut hasher);
        self.config.hash(&mut hasher);
        self.game.hash(&mut hasher);
        self.phase.hash(&mut hasher);
        self.shown.hash(&mut hasher);
        hasher.finish32()
    }

    /// Seals the kept state as a press's work ends.
    fn seal(&mut self) {
        self.seal = Some(self.kept_state());
    }

    /// Whether the kept state is still what was sealed (always, with the self-check off).
    fn intact(&self) -> bool {
        !self.config.self_check || self.seal.is_none_or(|seal| seal == self.kept_state())
    }

    /// Conversions averaged per node: the config's override, else the profile's.
    fn samples(&self) -> u8 {
        self.config.samples.unwrap_or(self.profile.adc.samples)
    }

    /// The hardware (an emulated board reaches its cage through this).
    pub fn hardware(&self) -> &Hardware<S, L, P, D, F> {
        &self.hw
    }

    /// The hardware, mutably.
    pub fn hardware_mut(&mut self) -> &mut Hardware<S, L, P, D, F> {
        &mut self.hw
    }

    /// The hardware back.
    pub fn release(self) -> Hardware<S, L, P, D, F> {
        self.hw
    }

    /// Where the state machine is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The size detected at the last new game.
    pub fn size(&self) -> Option<Size> {
        self.game.as_ref().map(|g| g.size)
    }

    /// The position the machine believes the cage holds, its pending cut included.
    pub fn position(&self) -> Option<Position> {
        self.game.as_ref().map(|g| g.tracker.position())
    }

    /// What the machine knows of the game.
    pub fn tracker(&self) -> Option<&Tracker> {
        self.game.as_ref().map(|g| &g.tracker)
    }

    /// The game-over thresholds for the detected size.
    pub fn thresholds(&self) -> Option<GameOverThresholds> {
        self.game.as_ref().map(|g| g.thresholds)
    }

    /// What the LEDs show.
    pub fn leds(&self) -> LedPattern {
        self.shown
    }

    /// The last outcome.
    pub fn last(&self) -> Option<Outcome> {
        self.last
    }

    /// Starts a new game: detects the size (3 when the M=4 cage's top internal row reads as the
    /// supply, else 4) and lights every LED.
    pub fn start(&mut self) -> Outcome {
        let outcome = self.try_start().unwrap_or_else(|f| self.fail(f));
        self.last = Some(outcome);
        self.seal();
        outcome
    }

    /// One press of the button: a new game when idle or over; otherwise the game-over reading,
    /// then (game on) the measurement, the self-check and the machine's move.
    pub fn on_button(&mut self) -> Outcome {
        let result = if !self.intact() {
            // Nothing kept can be trusted: the next press starts a new game.
            self.game = None;
            Err(Fault::Corrupted)
        } else {
            match (self.phase, self.game.is_some()) {
                (Phase::Idle | Phase::Over, _) | (_, false) => self.try_start(),
                _ => self.try_turn(),
            }
        };
        let outcome = result.unwrap_or_else(|f| self.fail(f));
        self.last = Some(outcome);
        self.seal();
        outcome
    }

    /// Samples the button once (call every millisecond); a debounced press runs
    /// [`App::on_button`].
    pub fn tick(&mut self) -> Option<Outcome> {
        match self.hw.button.poll() {
            Ok(true) => Some(self.on_button()),
            Ok(false) => None,
            Err(_) => Some(self.fail(Fault::Hardware(Component::Button))),
        }
    }

    fn try_start(&mut self) -> Result<Outcome, Fault> {
        if self.hw.fixture.present() && !self.fixture_loaded {
            // Power-on leaves every switch open; give the cage the M=4 start position.
            let cage = boards::cage_states(&Position::new(M4, Side::Cut))
                .map_err(|_| Fault::Hardware(Component::Fixture))?;
            self.hw
                .fixture
                .set(&cage)
                .map_err(|_| Fault::Hardware(Component::Fixture))?;
            self.fixture_loaded = true;
        }
        self.pullups(true)?;
        let near_supply = self
            .profile
            .full_scale_code()
            .saturating_sub(band_codes(self.profile));
        let mut m3 = true;
        let samples = self.samples();
        for node in M4.nodes().take(usize::from(M4.get())) {
            let code = average(&mut self.hw.sampler, node, samples)
                .map_err(|_| Fault::Hardware(Component::Sampler))?;
            m3 &= code >= near_supply;
        }
        let size = if m3 { M3 } else { M4 };
        self.game = Some(Game {
            size,
            thresholds: GameOverThresholds::derive(self.profile, size),
            tracker: Tracker::new(size),
        });
        self.show(LedPattern::NEW_GAME)?;
        self.phase = Phase::NewGame;
        info!("new game on M={}", size.get());
        Ok(Outcome::NewGame { size: size.get() })
    }

    fn try_turn(&mut self) -> Result<Outcome, Fault> {
        self.show(LedPattern::OFF)?;
        self.pullups(false)?;
        let samples = self.samples();
        let bottom = average(&mut self.hw.sampler, Node::Bottom, samples)
            .map_err(|_| Fault::Hardware(Component::Sampler))?;
        self.pullups(true)?;
        let Some(game) = self.game.as_mut() else {
            return self.try_start();
        };
        if let Some(winner) = game.thresholds.judge(bottom) {
            // The self-check knows Short's moves; without it only Cut's win can be checked.
            if (self.config.self_check || winner == Side::Cut) && !game.tracker.can_have_won(winner)
            {
                return Err(Fault::NotWon {
                    code: bottom,
                    winner,
                });
            }
            info!(
                "game over: the bottom terminal reads {}: {} has won",
                bottom,
                winner.name()
            );
            self.phase = Phase::Over;
            self.show(match winner {
                Side::Cut => LedPattern::CUT_WON,
                Side::Short => LedPattern::SHORT_WON,
            })?;
            return Ok(Outcome::GameOver(winner));
        }
        let full_scale = self.profile.full_scale_code();
        let codes = measure(&mut self.hw.sampler, game.size, full_scale, samples)
            .map_err(|_| Fault::Hardware(Component::Sampler))?;
        if self.config.self_check {
            if let Some(short) = game.tracker.check(self.profile, &codes)? {
                info!(
                    "self-check passed: Short played {}",
                    display!(Square::from(short))
                );
            }
        } else {
            game.tracker.assume();
        }
        let position = game.tracker.position();
        if let Some(winner) = position.winner() {
            return Err(Fault::Disagrees {
                code: bottom,
                winner,
            });
        }
        // No move means no resistor left: the codes always hold every node of the position.
        let choice = heuristic::choose(&position, codes.values())
            .ok()
            .flatten()
            .ok_or(Fault::NoResistor)?;
        game.tracker.play_cut(choice);
        let square = Square::from(choice);
        info!("Cut plays {}", display!(square));
        self.show(LedPattern::edge(choice))?;
        self.phase = Phase::Playing;
        Ok(Outcome::Move(square))
    }

    fn fail(&mut self, fault: Fault) -> Outcome {
        warn!("{}", display!(fault));
        let _ = self.show(LedPattern::FAULT);
        self.phase = Phase::Fault;
        Outcome::Fault(fault)
    }

    fn show(&mut self, pattern: LedPattern) -> Result<(), Fault> {
        self.hw
            .leds
            .show(pattern)
            .map_err(|_| Fault::Hardware(Component::Leds))?;
        self.shown = pattern;
        Ok(())
    }

    fn pullups(&mut self, on: bool) -> Result<(), Fault> {
        self.hw
            .sampler
            .set_pullups(on)
            .map_err(|_| Fault::Hardware(Component::Sampler))?;
        self.hw.delay.delay_us(self.config.settle_us);
        Ok(())
    }

    /// Answers one bench command.
    pub fn handle(&mut self, command: Command) -> Reply {
        match command {
            Command::Identify => Reply::Identity(Identity {
                version: truncated(crate::VERSION),
                board: truncated(self.profile.name),
                size: self.size().map_or(0, Size::get),
                adc_bits: self.profile.adc.bits_used,
                fixture: self.hw.fixture.present(),
            }),
            Command::Measure { pullups, samples } => self
                .measure_for_bench(pullups, samples)
                .unwrap_or_else(Reply::Error),
            Command::Decide => Reply::Turn(self.on_button()),
            Command::NewGame => Reply::Turn(self.start()),
            Command::SetEdges(states) => {
                if !self.hw.fixture.present() {
                    return Reply::Error(ProtocolError::NoFixture);
                }
                match self.hw.fixture.set(&states) {
                    Ok(()) => {
                        self.fixture_loaded = true;
                        Reply::Done
                    }
                    Err(_) => Reply::Error(ProtocolError::Hardware(Component::Fixture)),
                }
            }
            Command::Status => Reply::Status(self.status()),
        }
    }

    fn measure_for_bench(&mut self, pullups: bool, samples: u8) -> Result<Reply, ProtocolError> {
        if samples == 0 || samples > MAX_SAMPLES {
            return Err(ProtocolError::BadArgument);
        }
        let size = self.size().unwrap_or(M4);
        self.pullups(pullups)?;
        let codes = measure(
            &mut self.hw.sampler,
            size,
            self.profile.full_scale_code(),
            samples,
        );
        self.pullups(true)?;
        let codes = codes.map_err(|_| ProtocolError::Hardware(Component::Sampler))?;
        Ok(Reply::Codes(Measurement {
            size: size.get(),
            pullups,
            samples,
            codes: codes.values().iter().copied().collect(),
        }))
    }

    fn status(&self) -> Status {
        let position = self.position();
        let tracker = self.tracker();
        Status {
            phase: self.phase,
            size: self.size().map_or(0, Size::get),
            plies: position.as_ref().map_or(0, |p| p.plies() as u16),
            edges: position
                .iter()
                .flat_map(|p| p.states().iter().copied())
                .collect(),
            pending_cut: tracker.and_then(Tracker::pending_cut).map(Square::from),
            hypotheses: tracker.map_or(0, |t| t.hypotheses() as u8),
            last: self.last,
            leds: self.shown,
        }
    }
}

fn truncated(text: &str) -> heapless::String<{ protocol::NAME_CAPACITY }> {
    let mut out = heapless::String::new();
    for c in text.chars() {
        if out.push(c).is_err() {
            break;
        }
    }
    out
}

/// The bench link's receiving end: reads command frames byte by byte, carries each out, and
/// keeps the last one with its reply. The same command arriving again with the same number
/// (the bench did not get the reply: an RTT channel dropped it, or it came too late) is
/// answered again from the copy, not carried out twice: a repeated `Decide` must not play
/// twice. The command is compared too, so that a new bench session whose first number happens
/// to be the last one served is not answered with an old reply.
#[derive(Debug, Default)]
pub struct Server {
    reader: FrameReader,
    last: Option<(Frame<Command>, Reply)>,
}

impl Server {
    /// A server that has answered nothing yet.
    pub const fn new() -> Server {
        Server {
            reader: FrameReader::new(),
            last: None,
        }
    }

    /// The frame reader, for a link that reads frames itself ([`crate::pil::serve`]).
    pub(crate) fn reader(&mut self) -> &mut FrameReader {
        &mut self.reader
    }

    /// Feeds one received byte: at the end of a frame, answers it (see [`Server::answer`]) and
    /// encodes the reply into `out`, returning its length.
    pub fn push<S, L, P, D, F>(
        &mut self,
        app: &mut App<S, L, P, D, F>,
        byte: u8,
        out: &mut [u8],
    ) -> Option<usize>
    where
        S: Sampler,
        L: Leds,
        P: InputPin,
        D: DelayNs,
        F: EdgeSwitches,
    {
        let frame = self.reader.push::<Command>(byte)?;
        let reply = self.answer(app, frame);
        protocol::encode(&reply, out).ok()
    }

    /// The reply to a received frame: a frame that could not be read gets [`Reply::Error`]
    /// numbered [`NO_SEQ`]; a repeat of the last command's number gets the last reply again.
    pub fn answer<S, L, P, D, F>(
        &mut self,
        app: &mut App<S, L, P, D, F>,
        frame: Result<Frame<Command>, ProtocolError>,
    ) -> Frame<Reply>
    where
        S: Sampler,
        L: Leds,
        P: InputPin,
        D: DelayNs,
        F: EdgeSwitches,
    {
        match frame {
            Ok(frame) => match &self.last {
                Some((command, reply)) if *command == frame => {
                    info!("command {} again: its reply again", frame.seq);
                    Frame {
                        seq: frame.seq,
                        body: reply.clone(),
                    }
                }
                _ => {
                    let reply = app.handle(frame.body.clone());
                    let seq = frame.seq;
                    self.last = Some((frame, reply.clone()));
                    Frame { seq, body: reply }
                }
            },
            Err(error) => {
                warn!("bench link: {}", display!(error));
                Frame {
                    seq: NO_SEQ,
                    body: Reply::Error(error),
                }
            }
        }
    }
}
