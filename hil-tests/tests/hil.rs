//! HIL: only with a probe named in `BIRDCAGE_HIL_PROBE`; otherwise skipped (and passing).

#[test]
fn hil_campaign_on_a_connected_board() {
    let Some(probe) = hil_tests::probe_request() else {
        eprintln!(
            "skipped: no probe attached (set {} to the probe or chip)",
            hil_tests::PROBE_ENV
        );
        return;
    };
    panic!(
        "{}={probe} asks for HIL, but the probe-rs target is not built yet (see hil-tests/README.md)",
        hil_tests::PROBE_ENV
    );
}
