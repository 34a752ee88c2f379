//! Round trips to the firmware in QEMU over each PIL link: `Identify` (the bench link alone)
//! and `NewGame` (which also makes the firmware's sampler ask the emulated ADC for every node).
//! Both links run in this process, so their ratio is what to quote (hil-tests/README.md).
//!
//! `BIRDCAGE_PIL_ELF` names the QEMU firmware (built with cargo when unset); without
//! qemu-system-arm the bench says so and measures nothing.

use std::time::Duration;

use bench::{
    Dut, PilOptions, dut::pil::Pil, dut::pil::PilTarget, dut::pil::RttPil, dut::retry::Polling,
};
use criterion::{Criterion, criterion_group, criterion_main};
use firmware::protocol::Command;
use heuristic::Size;

fn targets() -> Option<Vec<(&'static str, PilTarget)>> {
    if !bench::qemu_available() {
        eprintln!("skipped: {} not found", bench::QEMU);
        return None;
    }
    let elf = bench::firmware_elf().expect("the QEMU firmware builds");
    let options = PilOptions::new(elf);
    let board = &boards::NUCLEO_F446RE;
    let semihosting = Pil::start(&options, board, board, Size::M4, Some(1)).expect("QEMU starts");
    let rtt = RttPil::start(
        &options,
        Polling::default(),
        board,
        board,
        Size::M4,
        Some(1),
    )
    .expect("QEMU starts with its gdbstub");
    Some(vec![
        ("semihosting", PilTarget::Semihosting(Box::new(semihosting))),
        ("rtt", PilTarget::Rtt(Box::new(rtt))),
    ])
}

fn round_trips(c: &mut Criterion) {
    let Some(mut targets) = targets() else {
        return;
    };
    for (command, name) in [
        (Command::Identify, "identify"),
        (Command::NewGame, "new_game"),
    ] {
        let mut group = c.benchmark_group(name);
        group.measurement_time(Duration::from_secs(5));
        for (link, target) in &mut targets {
            group.bench_function(*link, |b| {
                b.iter(|| target.exchange(command.clone()).expect("a reply"));
            });
        }
        group.finish();
    }
}

criterion_group!(benches, round_trips);
criterion_main!(benches);
