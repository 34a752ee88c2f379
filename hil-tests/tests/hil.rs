//! HIL on a connected board: an ignored test (a board is hardware a run opts into, not a
//! tool a machine lacks), so every run lists it as skipped with its reason, JUnit included.
//! Run it with a probe named in `BIRDCAGE_HIL_PROBE` and the firmware ELF in
//! `BIRDCAGE_HIL_ELF` (the board binary `cargo fw` builds):
//! `cargo test -p hil-tests --test hil -- --ignored`.

#[test]
#[ignore = "a board: set BIRDCAGE_HIL_PROBE and BIRDCAGE_HIL_ELF, then run with --ignored"]
fn hil_campaign_on_a_connected_board() {
    let probe = bench::dut::hil::probe_request().unwrap_or_else(|| {
        panic!(
            "no probe attached: set {} to the probe or chip",
            bench::dut::hil::PROBE_ENV
        )
    });
    campaign(&probe);
}

fn campaign(probe: &str) {
    use bench::{Class, Dut, Report, Scenario, header};
    let elf = std::env::var("BIRDCAGE_HIL_ELF")
        .expect("BIRDCAGE_HIL_ELF names the firmware ELF to flash");
    let profile = &boards::NUCLEO_F446RE;
    let mut hil = bench::Hil::connect(probe, profile, std::path::Path::new(&elf)).unwrap();
    let scenario = Scenario::random(heuristic::Size::M4, 3, 1);
    let dir = tempfile::tempdir().unwrap();
    let header = header(&mut hil, profile, &scenario, None).unwrap();
    let mut report = Report::open(dir.path(), header, bench::Existing::Refuse).unwrap();
    bench::play_scenario(&mut hil, profile, &scenario, &mut report, &mut |_, _| {
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    let tally = report.tally().clone();
    eprintln!("{}", report.finish().unwrap());
    for line in hil.logs() {
        eprintln!("defmt: {line}");
    }
    assert_eq!(
        tally.count(Class::Wiring) + tally.count(Class::Fault),
        0,
        "{tally:?}"
    );
}
