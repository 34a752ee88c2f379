//! The board binary with its per-press self-check and its seal over the kept state off (feature
//! `unchecked`): the glitch campaign's study build, `firmware-unchecked`, beside the shipped one
//! (`main.rs`, the same program). Never flashed to play.
#![cfg_attr(target_os = "none", no_std, no_main)]

include!("program.rs");
