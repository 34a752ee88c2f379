//! HIL's probe-rs path against the firmware in QEMU: probe-rs attaches through
//! `bench::qemu` (QEMU's gdbstub as a debug probe), downloads the QEMU firmware, resets
//! it and attaches RTT, and the bench plays over RTT in lockstep with SIL on the same board.
//! Says why it skips when QEMU is not installed.

use bench::{Class, Dut, Lockstep, Scenario, Sil};
use heuristic::Size;

mod common;

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;

#[test]
fn probe_rs_over_qemus_gdbstub_agrees_with_sil_over_random_games() {
    if !bench::qemu_available() {
        needs::skip("qemu", format!("{} not found", bench::QEMU));
        return;
    }
    let elf = bench::firmware_elf().unwrap_or_else(|e| panic!("{e}"));
    let seed = Some(5);
    let scenario = Scenario::random(Size::M4, 3, 1);
    let sil = Sil::new(NUCLEO, Size::M4, seed).unwrap();
    let hil = bench::qemu::connect(&elf, NUCLEO, NUCLEO, Size::M4, seed)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(hil.stage(), bench::Setup::Alone(bench::Stage::Hil));
    let mut both = Lockstep::new(sil, hil);
    let dir = tempfile::tempdir().unwrap();
    let report = common::played(NUCLEO, &mut both, &scenario, seed, dir.path(), false)
        .unwrap_or_else(|e| panic!("{e}"));
    let compared = both.compared();
    let tally = report.tally();
    // Three games of M=4: a dozen measured positions and decisions, each the same on both.
    assert!(tally.steps >= 9, "{tally:?}");
    assert!(compared.measurements >= tally.steps, "{compared:?}");
    assert!(compared.decisions >= tally.steps, "{compared:?}");
    assert_eq!(tally.count(Class::Fault) + tally.count(Class::Wiring), 0);
}

#[test]
fn a_firmware_that_is_not_there_is_an_error_not_a_hang() {
    if !bench::qemu_available() {
        needs::skip("qemu", format!("{} not found", bench::QEMU));
        return;
    }
    let missing = std::path::Path::new("/nonexistent/firmware-qemu");
    let e = bench::qemu::connect(missing, NUCLEO, NUCLEO, Size::M4, None).unwrap_err();
    assert!(e.to_string().contains("nonexistent"), "{e}");
}
