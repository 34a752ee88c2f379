//! The fault campaigns and their reports: the cage's faults on an emulated board
//! ([`cage`]), the board's own faults on the virtual board (`board`), glitches of its core
//! (`glitches`, drawn by [`glitch_plan`]); the faults' kinds and places ([`kinds`]), the
//! reports' tables ([`table`], [`junit`]) and their intervals ([`interval`]).

#[cfg(feature = "probe")]
pub mod board;
pub mod cage;
pub mod glitch_plan;
#[cfg(feature = "probe")]
pub mod glitches;
pub mod interval;
pub mod junit;
pub mod kinds;
pub mod table;

pub use cage::{
    FaultCampaignError, FaultRun, FaultShard, Trial, Verdict, fault_campaign, fault_campaign_shard,
    planned_faults,
};
