//! The Bird Cage test bench: the firmware against ideal solving, at three stages. Layers, from
//! the top down: a module imports only modules below it in this list (`tests/layers.rs` checks).
//!
//! - [`doctor`](mod@doctor): bring-up step by step, each connection step a [`Check`], then the
//!   protocol's ([`doctor()`]).
//! - [`config`]: a run typed once, [`RunSpec`]: what it drives ([`Config`]), its scenario,
//!   seeds and campaign plan, every scenario's option rules ([`RunSpec::check`]), the shard
//!   spec it hashes, the command that runs it ([`RunSpec::to_args`]) and the one path from it
//!   to an open target ([`RunSpec::open`]).
//! - [`shard`]: the long runs in shards (the games of one board or a sweep of drawn boards,
//!   the fault campaigns) on the `shards` crate's model; the report folder's lock.
//! - [`faults`]: every single fault at every place of an emulated cage, and with `probe` every
//!   board fault the virtual board makes at register level, against one reference game.
//! - [`run`]: scenarios (replayed records, the M=3 tree, random games), games played step by
//!   step, [`campaign`]s into a report, games an operator guides ([`guided`]).
//! - [`calibrate`](mod@calibrate): a board's part values fitted from its codes.
//! - [`report`]: JSON lines as the run goes, resumption, JSON and Markdown summaries, tallies,
//!   an SVG plot, JUnit.
//! - [`check`]: one decision against the emulator's codes and the ideal tied set, classified
//!   ([`Class`]); the protocol checks of bring-up ([`protocol_checks`]).
//! - [`target`]: the device under test, spoken to in the bench protocol ([`Target`]): frames, the
//!   retry wait, lockstep, defmt; [`Sil`] in-process, [`Pil`]/[`RttPil`] in QEMU, `Hil` over
//!   probe-rs (feature `probe`).
//! - [`machine`]: QEMU started one way, the firmware's ELF read once, the emulated ADC.
//!
//! Every item is also re-exported here.

pub mod calibrate;
pub mod check;
pub mod config;
pub mod doctor;
pub mod faults;
pub mod machine;
pub mod report;
pub mod run;
pub mod shard;
pub mod target;

pub use calibrate::{
    Calibration, CalibrationError, Fitted, MIN_STEPS, Observation, Residuals, calibrate,
    calibrate_report, observations,
};
pub use check::protocol::{Check, StepVerdict, protocol_checks};
pub use check::{Class, Fit, Off, Predictor, Step};
pub use config::{
    Config, ConfigError, DEFAULT_PACE_MS, GlitchOptions, MAX_TIMEOUT_S, Opened, RunSpec,
    RunSpecError,
};
pub use doctor::{DoctorError, doctor};
#[cfg(feature = "probe")]
pub use faults::board::{
    BoardFaultCase, BoardFaultPart, BoardFaultRun, BoardTrial, BoardVerdict, board_fault_campaign,
    board_fault_campaign_part, board_fault_csv, board_fault_markdown, board_faults,
    write_board_fault_report,
};
pub use faults::kinds::{DefectTarget, Kind, place};
pub use faults::table::{
    FaultRow, fault_csv, fault_detail, fault_markdown, fault_rows, fault_table, write_fault_report,
};
pub use faults::{
    FaultCampaignError, FaultPart, FaultRun, Trial, Verdict, fault_campaign, fault_campaign_part,
    planned_faults,
};
pub use machine::{
    ELF_ENV, Elf, ElfError, MAX_ELF_BYTES, MachineError, PilOptions, QEMU, QemuEvent, QemuExit,
    QemuFailure, VIRTUAL_BOARD_ENV, firmware_elf, qemu_available, virtual_board_binary,
};
pub use report::tally::Tally;
pub use report::{
    COVERAGE, Collected, Depends, Existing, GameSink, Header, MAX_STEPS_BYTES, Misfit, PLOT,
    Report, ReportError, STEPS, SUMMARY_JSON, SUMMARY_MD, Scan,
};
pub use run::game::play_game;
pub use run::guided::{Console, GuidedError, Task, guided};
pub use run::kind::{ScenarioChoiceError, ScenarioKind};
pub use run::scenario::{MAX_RECORDS_BYTES, Scenario, ScenarioError, Script};
pub use run::{CampaignError, campaign, header};
#[cfg(feature = "probe")]
pub use shard::faults::BoardFaults;
pub use shard::faults::{CageFaults, FaultShardError};
pub use shard::games::{Boards, Games, GamesError, Written};
pub use shard::lock;
pub use shard::seeds::{BoardSeeds, BoardSeedsError, MAX_BOARDS};
pub use shard::sweep::{SWEEP_CSV, SWEEP_MD, board_folder};
pub use target::ask::measure;
pub use target::defmt::{DefmtError, DefmtLog};
pub use target::frame::{Sequence, decode_reply, encode_command};
pub use target::hil::{BOARD_ELF, PROBE_ENV, Probe, ProbeError, probe_request};
#[cfg(feature = "probe")]
pub use target::hil::{Emulation, Hil, Service, qemu, virtual_board};
pub use target::lockstep::{Compared, Lockstep};
pub use target::pil::{Link, LinkError, Pil, PilTarget, RttPil};
pub use target::retry::{Polling, RetryStats};
pub use target::sil::Sil;
pub use target::{ByHand, Cage, CageError, Fixture, Lost, Stage, StageError, Target, TargetError};
