//! HIL: only with a probe named in `BIRDCAGE_HIL_PROBE` (and the firmware ELF in
//! `BIRDCAGE_HIL_ELF`, the board binary `cargo fw` builds); otherwise skipped, and passing.

#[test]
fn hil_campaign_on_a_connected_board() {
    let Some(probe) = bench::probe_request() else {
        eprintln!(
            "skipped: no probe attached (set {} to the probe or chip)",
            bench::PROBE_ENV
        );
        return;
    };
    campaign(&probe);
}

fn campaign(probe: &str) {
    use bench::{Class, Report, Scenario, Target, header};
    let elf = std::env::var("BIRDCAGE_HIL_ELF")
        .expect("BIRDCAGE_HIL_ELF names the firmware ELF to flash");
    let profile = &boards::NUCLEO_F446RE;
    let mut hil = bench::Hil::connect(probe, profile, std::path::Path::new(&elf)).unwrap();
    let scenario = Scenario::random(heuristic::Size::M4, 3, 1);
    let dir = tempfile::tempdir().unwrap();
    let header = header(&mut hil, profile, &scenario, None).unwrap();
    let mut report = Report::open(dir.path(), header, bench::Existing::Refuse).unwrap();
    bench::campaign(&mut hil, profile, &scenario, &mut report, &mut |_, _| {
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
