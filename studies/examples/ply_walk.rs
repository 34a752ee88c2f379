//! The quantisation study's ply walk (`quantisation::walk`, issue 64) on any M, shard by
//! shard, each shard measured: what `birdcage study quantisation --size M --ply-walk P --out
//! DIR` runs, with a line per shard in `DIR/shards.tsv` (ply, shard, positions, decisions
//! read, CPU seconds, peak resident memory of the shard in KiB, findings bytes), so a cluster
//! can be sized from measured shards. Resumes from the folder like the CLI; stops before a
//! shard once SECONDS have passed (default: none).
//!
//! `cargo run --release -p studies --example ply_walk -- M DIR P [SECONDS]`. Every converter,
//! seed 1, as `birdcage study quantisation --size M` by default. Peak memory per shard: the
//! kernel's high-water mark, reset before each shard (`/proc/self/clear_refs`).

#![allow(clippy::disallowed_methods)] // a measuring script run by hand into a folder of its own, not a command of the workspace (clippy.toml)
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use heuristic::Size;
use studies::Control;
use studies::quantisation::{QuantisationStudy, Walk};
use studies::study::{self, CageOptions, Study};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let m: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let dir = PathBuf::from(args.get(2).map_or("ply-walk", String::as_str));
    let parts: u32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(16);
    let budget: f64 = args
        .get(4)
        .and_then(|a| a.parse().ok())
        .unwrap_or(f64::INFINITY);
    let options = CageOptions {
        size: Size::new(m)?,
        seed: 1,
        board: None,
        boards: None,
        random_games: None,
        records: None,
        split_ply: None,
        ply_walk: Some(parts),
        ply: None,
    };
    let command = format!("birdcage study quantisation --size {m} --seed 1");
    let plan = QuantisationStudy::plan(&options, &command)?;
    let reader = plan.reader()?;
    std::fs::create_dir_all(&dir)?;
    let walk = Walk::new(
        &dir,
        options.size,
        &reader,
        parts,
        study::spec::<QuantisationStudy>(&options)?,
        concat!("birdcage ", env!("CARGO_PKG_VERSION")),
        vec![
            "birdcage".into(),
            "study".into(),
            "quantisation".into(),
            "--size".into(),
            m.to_string(),
            "--seed".into(),
            "1".into(),
            "--out".into(),
            dir.display().to_string(),
            "--ply-walk".into(),
            parts.to_string(),
        ],
    )?;
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("shards.tsv"))?;
    let start = Instant::now();
    loop {
        let status = walk.status()?;
        if status.complete {
            println!("the walk is complete");
            return Ok(());
        }
        let ply = status.finished_plies;
        for id in status.not_done {
            if start.elapsed().as_secs_f64() > budget {
                println!("stopped before ply {ply} shard {id}: past {budget} s");
                return Ok(());
            }
            let _ = std::fs::write("/proc/self/clear_refs", "5");
            let cpu = process_cpu();
            let t = Instant::now();
            let (positions, decisions) = walk.run_shard(ply, id, &Control::unattended())?;
            let findings = std::fs::metadata(
                walk.ply_dir(ply)
                    .join(format!("findings.{}-of-{}.shard", id.index, id.count)),
            )?
            .len();
            writeln!(
                log,
                "{ply}\t{id}\t{positions}\t{decisions}\t{:.1}\t{}\t{findings}\t{:.1}",
                process_cpu() - cpu,
                peak_kib(),
                t.elapsed().as_secs_f64()
            )?;
            log.flush()?;
        }
    }
}

/// CPU seconds (user + system) of this process so far, from the kernel.
fn process_cpu() -> f64 {
    let text = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = text
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, r)| r.split_whitespace().collect());
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}

/// The process's peak resident memory since the last reset, KiB (`VmHWM`).
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
