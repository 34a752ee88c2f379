//! Shannon's Bird Cage machine: the application that measures the cage, plays Cut with Shannon's
//! largest-drop heuristic and shows its move on 14 LEDs, generic over small hardware traits so
//! that the same code runs on the NUCLEO-F446RE, against embedded-hal-mock on the host, and
//! against an emulated board.
//!
//! `no_std`, no alloc, no unsafe. Rules, geometry and the heuristic come from [`heuristic`];
//! pins and electrical values from [`boards`].
//!
//! - hardware traits: [`Sampler`] (ADC codes per node, pull-ups on/off), [`Leds`], the button
//!   (an embedded-hal [`InputPin`](embedded_hal::digital::InputPin) behind [`Button`]), delays
//!   (embedded-hal [`DelayNs`](embedded_hal::delay::DelayNs)), the optional [`EdgeSwitches`];
//! - the state machine: [`App`] (`start`, `on_button`, `tick`, `handle`);
//! - the decisions it needs: [`GameOverThresholds`], the self-check [`Tracker`];
//! - the bench link: [`protocol`] (postcard + COBS + CRC, sequence numbers), and [`pil`], the
//!   link of the QEMU build, whose sampler asks the bench for every conversion;
//! - the edge fixture driver: [`Adg714Chain`].
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod log;

mod app;
mod button;
mod debounce;
mod fixture;
mod game_over;
mod headless;
mod leds;
mod outcome;
pub mod pil;
pub mod protocol;
pub mod rtt;
mod sampler;
mod self_check;
mod square;
pub mod timing;
mod wire;

pub use app::{App, Config, Hardware, Server};
pub use button::Button;
pub use debounce::{Debouncer, Transition};
pub use fixture::{
    Adg714Chain, ChainError, EdgeSwitches, MAX_DEVICES, NoFixture, cage_frame, edge_switches,
    latched_cage,
};
pub use game_over::{GameOverThresholds, ladder_fraction, max_boundary};
pub use headless::{NoDelay, Unpressed};
pub use leds::{LedPattern, Leds, PinLeds};
pub use outcome::{Outcome, Phase};
pub use sampler::{BURST, Codes, Sampler, measure, rounded_mean};
pub use self_check::{Component, Deviation, Fault, Tracker, band_codes, predict};
pub use square::Square;

/// The firmware's version, as `identify` reports it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
