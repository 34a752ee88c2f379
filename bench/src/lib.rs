//! The Bird Cage test bench: the firmware against ideal solving, at three stages. Layers, from
//! the top down: a module imports only modules below it in this list (`tests/layers.rs` checks).
//!
//! - [`doctor`](mod@doctor): bring-up step by step, each connection step a [`check::protocol::Check`],
//!   then the protocol's ([`doctor::doctor`]).
//! - [`jobs`]: the sharded jobs (games, fault campaigns, glitch campaign) behind one trait,
//!   [`jobs::Campaign`], planned from a [`RunSpec`], and one driver ([`jobs::drive`]).
//! - [`config`]: a run typed once, [`RunSpec`]: what it drives ([`Config`]), its scenario,
//!   seeds and campaign plan, every scenario's option rules ([`RunSpec::check`]), the shard
//!   spec it hashes, the command that runs it ([`RunSpec::to_args`]) and the one path from it
//!   to an open target ([`RunSpec::open`]).
//! - [`shard`]: the long runs in shards (the games of one board or a sweep of drawn boards,
//!   the fault campaigns) on the `shards` crate's model; the report folder's lock.
//! - [`faults`]: every single fault at every place of an emulated cage, and with `probe` every
//!   board fault the virtual board makes at register level, against one reference game.
//! - [`run`]: scenarios (replayed records, the M=3 tree, random games), games played step by
//!   step, [`play_scenario`]: a scenario's games into a report, games an operator guides ([`run::guided`]).
//! - [`calibrate`](mod@calibrate): a board's part values fitted from its codes.
//! - [`report`]: JSON lines as the run goes, resumption, JSON and Markdown summaries, tallies,
//!   an SVG plot, JUnit.
//! - [`check`]: one decision against the emulator's codes and the ideal tied set, classified
//!   ([`Class`]); the protocol checks of bring-up ([`check::protocol::protocol_checks`]).
//! - [`dut`]: the device under test, spoken to in the bench protocol ([`Dut`]): frames, the
//!   retry wait, lockstep, defmt; [`Sil`] in-process, [`dut::pil::Pil`]/[`dut::pil::RttPil`] in QEMU, `Hil` over
//!   probe-rs (feature `probe`).
//! - [`machine`]: QEMU started one way, the firmware's ELF read once, the emulated ADC.
//!
//! The items other crates use are also re-exported here, the bench's vocabulary; every other
//! item is reached by its module's path (`bench::faults::table::fault_csv`).

#![cfg_attr(test, allow(clippy::disallowed_methods))] // tests write their fixtures freely (clippy.toml)

pub mod calibrate;
pub mod check;
pub mod config;
pub mod doctor;
pub mod dut;
pub mod faults;
pub mod jobs;
pub mod machine;
pub mod report;
pub mod run;
pub mod shard;

pub use check::{Class, Predictor};
pub use config::{Config, DEFAULT_PACE_MS, RunSpec};
pub use dut::frame::{decode_reply, encode_command};
pub use dut::hil::{BOARD_ELF, Probe};
#[cfg(feature = "probe")]
pub use dut::hil::{Hil, qemu, virtual_board};
pub use dut::lockstep::Lockstep;
pub use dut::sil::Sil;
pub use dut::{Cage, Dut, DutError, Setup, Stage};
pub use machine::{PilOptions, QEMU, firmware_elf, qemu_available, virtual_board_binary};
pub use report::tally::Tally;
pub use report::{Existing, Header, Misfit, Report, ReportError, STEPS, Scan};
pub use run::kind::ScenarioKind;
pub use run::scenario::Scenario;
pub use run::{PlayError, header, play_scenario};
