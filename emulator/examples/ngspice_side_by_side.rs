//! The same 1,000 random physical netlists (both boards, every pull-up arrangement, fixture
//! or not, M=3 and M=4) solved by the emulator and by ngspice, in one process: medians per
//! netlist and their ratio. ngspice's figure is a whole `ngspice -b` run (start-up, parsing,
//! the operating point), which is what a cross-check costs; its own reported analysis time is
//! printed too.
//!
//! `cargo run --release -p emulator --example ngspice_side_by_side [COUNT]`

use std::process::Command;
use std::time::{Duration, Instant};

use emulator::export::{Network, spice};
use emulator::games::random_board_case;
use emulator::physical::solve;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let count: usize = match std::env::args().nth(1) {
        Some(n) => n.parse().map_err(|_| format!("`{n}` is not a count"))?,
        None => 1000,
    };
    if count == 0 {
        return Err("COUNT must be at least 1".into());
    }
    if Command::new("ngspice").arg("--version").output().is_err() {
        return Err("ngspice is not installed (apt-get install ngspice)".into());
    }
    let dir = std::env::temp_dir().join(format!("birdcage-side-by-side-{}", std::process::id()));
    // A guessable name in the shared temporary folder: made new (a link planted there is
    // refused, not followed), and written through the one writer.
    shards::safe::create_dir(&dir)?;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let cases: Vec<_> = (0..count).map(|_| random_board_case(&mut rng)).collect();
    let mut paths = Vec::with_capacity(count);
    for (k, c) in cases.iter().enumerate() {
        let network = Network::Board {
            board: Box::new(c.board.clone()),
            parts: c.parts.clone(),
        };
        let path = dir.join(format!("case{k}.cir"));
        shards::safe::write_file(
            &path,
            spice::netlist(&network, &c.position, "random", c.pullups)?.as_bytes(),
        )?;
        paths.push(path);
    }

    // Emulator: each netlist solved 100 times in a row; the per-solve time of that batch.
    let mut ours = Vec::with_capacity(count);
    for c in &cases {
        let start = Instant::now();
        for _ in 0..100 {
            std::hint::black_box(solve(&c.board, &c.parts, &c.position, c.pullups))?;
        }
        ours.push(start.elapsed() / 100);
    }
    let mut theirs = Vec::with_capacity(count);
    let mut analysis = Vec::with_capacity(count);
    for path in &paths {
        let start = Instant::now();
        let out = Command::new("ngspice").arg("-b").arg(path).output()?;
        theirs.push(start.elapsed());
        let text = String::from_utf8_lossy(&out.stdout);
        if let Some(secs) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("Total analysis time (seconds) = "))
            .and_then(|s| s.trim().parse::<f64>().ok())
        {
            analysis.push(Duration::from_secs_f64(secs));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (ours, theirs) = (median(ours), median(theirs));
    println!("{count} netlists, median per netlist:");
    println!("  emulator (physical::solve): {ours:?}");
    println!("  ngspice -b (whole run):     {theirs:?}");
    if !analysis.is_empty() {
        println!(
            "  ngspice's own analysis time: {:?} (printed to 1 ms)",
            median(analysis)
        );
    }
    println!(
        "  ratio ngspice / emulator:   {:.0}",
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
    Ok(())
}
