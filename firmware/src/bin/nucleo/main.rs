//! The machine on a NUCLEO-F446RE: the `firmware` application over the board's GPIO, ADC1 and
//! SPI2, with defmt logs on RTT up channel 0 and the bench protocol on RTT up channel 1 and
//! down channel 0.
//!
//! Every pin comes from `boards::NUCLEO_F446RE` at run time; the program (`program.rs`) only
//! knows the chip.
//! Build with `cargo fw`, flash and run with `cargo fw-run` (probe-rs).
#![cfg_attr(target_os = "none", no_std, no_main)]

include!("program.rs");
