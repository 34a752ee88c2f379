//! `birdcage links`: every minimal weak link on N vertices, and the minimal strong links they
//! give, as Steane's tables 1 and 3 count them; in parts, resumable, mergeable.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use serde::Serialize;
use shards::{Mode, ShardArgs};
use switching::link::Link;
use switching::link::reduce::{Irreducible, Reductions};
use switching::links::{self, Canonical, LinksShard, Report, ShardId, Spread, paper};

use super::Format;
use super::progress::Progress;
use super::shard::{self, Reply};
use crate::args::whole;

/// List every minimal weak link on N vertices up to isomorphism, and the minimal strong links
/// on N - 1 vertices obtained from them (Steane, "Minimal and irreducible links in the
/// Shannon game", tables 1 and 3).
///
/// nauty's geng lists the connected graphs in P independent parts, the search's shards. With
/// `--out DIR` each finished part is kept in DIR as a shard file, so an interrupted run
/// resumes from the parts already done; `--shard K/P` runs one part alone, `--slurm` submits
/// them to a cluster, and `--merge` makes the report from the parts in DIR. The report goes
/// to stdout and, with `--out`, to DIR as links-N.json, links-N.txt (graph6 lists) and SVG
/// sheets of the links of up to 9 vertices (links-N-weak.svg, links-N-strong.svg).
#[derive(Args, Debug)]
pub struct Cmd {
    /// N: vertices of the links, terminals included (3..=12).
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u8>(3, links::MAX_VERTICES as u64))]
    vertices: u8,
    #[command(flatten)]
    shard: ShardArgs,
    /// Folder for the parts and the report.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Parts run at once (default: one per core).
    #[arg(long, value_name = "J", allow_negative_numbers = true,
          value_parser = whole::<u32>(1, 1024))]
    jobs: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Require geng with the links PRUNE hook (built by switching/nauty/build-geng.sh, its
    /// folder first on PATH): it lists only the graphs that can carry a minimal weak link, a
    /// few percent of them, and the report is the same. Refused when the geng found has no
    /// hook. Without this flag a geng with the hook is still found out and named in the spec.
    #[arg(long, conflicts_with = "reference")]
    pruned: bool,
    /// Run the independent reference instead (one geng run, every terminal pair solved, no
    /// parts, no merge): slow; what a merged report is checked against at small N.
    #[arg(long, conflicts_with_all = ["jobs", "shard", "shards", "merge", "slurm", "status"])]
    reference: bool,
}

/// The default number of parts for a search on `n` vertices: one part takes a few seconds to
/// a few minutes.
fn default_parts(n: usize) -> u32 {
    match n {
        ..=8 => 1,
        9 => 4,
        10 => 16,
        11 => 256,
        _ => 4096,
    }
}

impl Cmd {
    pub fn run(&self) -> Result<Reply> {
        let n = usize::from(self.vertices);
        if self.reference {
            let dir = self.out.as_deref();
            if let Some(dir) = dir {
                studies::report::Output::new(dir)?;
            }
            return self
                .written(&links::reference::search(n)?, dir)
                .map(Reply::done);
        }
        if self.pruned && !matches!(self.shard.mode(), Mode::Merge(_) | Mode::Status(_)) {
            let prunes = switching::enumerate::geng_prunes()
                .context("--pruned: looking for geng with the PRUNE hook")?;
            if !prunes {
                return Err(anyhow!(
                    "--pruned: the geng on PATH lists all 853 connected graphs on 7 vertices, so \
                     it has no PRUNE hook; build one with switching/nauty/build-geng.sh and put \
                     its folder first on PATH"
                ));
            }
        }
        let Some(dir) = &self.out else {
            let count = self.shard.shards.unwrap_or_else(|| default_parts(n));
            let ids: Vec<ShardId> = ShardId::all(count).collect();
            let parts = run_parts(n, &ids, self.jobs(), None)?;
            return self.report(&parts, None).map(Reply::done);
        };
        studies::report::Output::new(dir)?;
        // Every file the report writes is checked before the search runs: a link, FIFO or
        // folder at one of them is named now, not after minutes of work and half a report.
        for name in output_names(n) {
            shards::safe::replaceable(&dir.join(&name))?;
        }
        let dir = shard::absolute(dir)?;
        let mut args = vec!["links".to_string(), "--vertices".into(), n.to_string()];
        // Each shard's task refuses a geng without the hook too.
        if self.pruned {
            args.push("--pruned".into());
        }
        // Without geng here (a merge of parts made elsewhere), the spec says so: parts made by
        // a geng are then refused naming the versions, and a part to run fails on geng itself.
        let (geng, prune_c) = match switching::enumerate::geng_version() {
            Err(switching::enumerate::NautyError::NotFound(_)) => {
                ("no geng here".to_string(), None)
            }
            other => {
                let version = other.context("the parts' spec names geng's version")?;
                // A geng with the PRUNE hook lists other graphs: its parts are another spec,
                // which names the prune.c it was built from (refused unless the committed one).
                if switching::enumerate::geng_prunes().context("the parts' spec names geng")? {
                    let hash = links::hook::checked_on_path()?;
                    (format!("{version} with the links PRUNE hook"), Some(hash))
                } else {
                    (version, None)
                }
            }
        };
        let job = links::links_job(
            n,
            &geng,
            prune_c.as_deref(),
            shard::VERSION,
            shard::command(&dir, &args)?,
        );
        let mode = self.shard.mode();
        if mode == Mode::Whole {
            let _lock = shards::lock_folder(&dir, &job.command_with(&[]))?;
            let count = match self.shard.shards {
                Some(p) => p,
                None => stored_count(&dir, &job)?.unwrap_or_else(|| default_parts(n)),
            };
            let ids: Vec<ShardId> = ShardId::all(count).collect();
            let parts = run_parts(n, &ids, self.jobs(), Some((&dir, &job)))?;
            return self.report(&parts, Some(&dir)).map(Reply::done);
        }
        let outcome = shards::drive(
            &dir,
            &job,
            &mode,
            |id| -> Result<Vec<u8>> {
                let part = run_parts(n, &[id], 1, None)?.pop().expect("one part");
                Ok(part.to_string().into_bytes())
            },
            |bodies| -> Result<String> {
                let parts = bodies
                    .iter()
                    .zip(ShardId::all(bodies.len() as u32))
                    .map(|(body, id)| {
                        links::shard_from_body(&links::shard_path(&dir, &job, id), body, n, id)
                    })
                    .collect::<Result<Vec<LinksShard>, _>>()?;
                self.report(&parts, Some(&dir))
            },
        )?;
        Ok(Reply::of(outcome, &job, &dir, |report| report))
    }

    /// The report from every part: to stdout in the chosen format, and to `dir`.
    fn report(&self, parts: &[LinksShard], dir: Option<&Path>) -> Result<String> {
        self.written(&links::merge(parts)?, dir)
    }

    /// `report` to stdout in the chosen format, and to `dir`.
    fn written(&self, report: &Report, dir: Option<&Path>) -> Result<String> {
        let json = serde_json::to_string_pretty(&Json::new(report))? + "\n";
        if let Some(dir) = dir {
            write_outputs(dir, report, &json)?;
        }
        Ok(match self.format {
            Format::Json => json,
            Format::Text => text(report),
        })
    }

    fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            |j| j as usize,
        )
    }
}

/// The split of the parts already in `dir`, so that a resumed run keeps it; an error if two
/// splits are mixed.
fn stored_count(dir: &Path, job: &shards::Job) -> Result<Option<u32>> {
    let counts = shards::stored_counts(dir, job)?;
    match counts.len() {
        0 => Ok(None),
        1 => Ok(counts.first().copied()),
        _ => Err(anyhow!(
            "{} holds parts of {} different splits of the search ({}); keep one, or give --shards",
            dir.display(),
            counts.len(),
            counts
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Set by Ctrl-C, SIGTERM or SIGHUP: the search finishes the parts in hand (each stored as it
/// finishes) and starts no other, then says it stopped.
static STOP: AtomicBool = AtomicBool::new(false);

/// Runs the parts not already stored in `store` (a folder and the search's job) on `jobs`
/// threads, storing each as it finishes; returns every part, stored or run, in order. A stop
/// (Ctrl-C) before every part ran is an error that says how many finished and where they are.
fn run_parts(
    n: usize,
    ids: &[ShardId],
    jobs: usize,
    store: Option<(&Path, &shards::Job)>,
) -> Result<Vec<LinksShard>> {
    let mut done: Vec<Option<LinksShard>> = match (store, ids.first()) {
        (Some((dir, job)), Some(first)) => links::stored_shards(dir, job, n, first.count)?,
        _ => vec![None; ids.len()],
    };
    let todo: Vec<usize> = (0..ids.len()).filter(|&i| done[i].is_none()).collect();
    let reused = ids.len() - todo.len();
    // The whole search has a known total; one part of it (`--part`) has not.
    let whole = ids.first().is_some_and(|id| ids.len() == id.count as usize);
    // A geng with the PRUNE hook lists fewer: then no total (the bar counts what it lists).
    let pruned = switching::enumerate::geng_prunes().unwrap_or(false);
    let total = (whole && !pruned).then(|| links::CONNECTED_GRAPHS[n]);
    let bar = Progress::counted(format!("links on {n} vertices"), "graphs", total);
    bar.inc(done.iter().flatten().map(|p| p.graphs).sum::<u64>());
    let parts_done = AtomicUsize::new(reused);
    let parts_note = |done: usize| format!("parts done: {done} of {}", ids.len());
    bar.note(parts_note(reused));
    if reused > 0 && !todo.is_empty() {
        bar.println(format!(
            "resuming: {reused} of {} parts already done",
            ids.len()
        ));
    }
    // A second handler (tests run the CLI once per process) is not an error worth stopping for.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(todo.len()).max(1) {
            scope.spawn(|| {
                loop {
                    if failure.lock().expect("not poisoned").is_some()
                        || STOP.load(Ordering::SeqCst)
                    {
                        return;
                    }
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&i) = todo.get(k) else { return };
                    let outcome = links::run_shard(n, ids[i], &|g| bar.inc(g))
                        .map_err(anyhow::Error::from)
                        .and_then(|part| {
                            if let Some((dir, job)) = store {
                                links::save_shard(dir, job, &part).with_context(|| {
                                    format!("writing part {} to {}", ids[i], dir.display())
                                })?;
                            }
                            Ok(part)
                        });
                    match outcome {
                        Ok(part) => {
                            results.lock().expect("not poisoned").push((i, part));
                            bar.note(parts_note(parts_done.fetch_add(1, Ordering::SeqCst) + 1));
                        }
                        Err(e) => {
                            failure.lock().expect("not poisoned").get_or_insert(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    let failure = failure.into_inner().expect("not poisoned");
    let results = results.into_inner().expect("not poisoned");
    let graphs = bar.done();
    let stopped = failure.is_none() && results.len() < todo.len();
    bar.finish(&match &failure {
        Some(_) => "failed".to_string(),
        None if stopped => "stopped".to_string(),
        None => format!(
            "{} graphs; parts: {} run, {reused} already done",
            indicatif::HumanCount(graphs),
            todo.len()
        ),
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if stopped {
        let finished = reused + results.len();
        return Err(anyhow!(
            "interrupted: {finished} of {} parts finished{}",
            ids.len(),
            match store {
                Some((dir, _)) => format!(
                    "; they are in {}, and the same command runs the rest",
                    dir.display()
                ),
                None => " and nothing was written (--out DIR keeps each part as it finishes)"
                    .to_string(),
            }
        ));
    }
    for (i, part) in results {
        done[i] = Some(part);
    }
    Ok(done
        .into_iter()
        .map(|p| p.expect("every part ran"))
        .collect())
}

/// One link in the JSON report.
#[derive(Serialize)]
struct JsonLink {
    graph6: String,
    terminals: [usize; 2],
    edges: usize,
    pivots: Vec<usize>,
    pendant: bool,
    s_reducible: bool,
    p_reducible: bool,
    t_reducible: bool,
}

impl JsonLink {
    fn new(c: &Canonical, pivots: Vec<usize>, r: Reductions) -> JsonLink {
        let link = c.link();
        JsonLink {
            graph6: c.0.to_string(),
            terminals: link.terminals(),
            edges: link.edges().len(),
            pivots,
            pendant: link.terminals().iter().any(|&v| link.degree(v) == 1),
            s_reducible: r.s,
            p_reducible: r.p,
            t_reducible: r.t,
        }
    }
}

/// A row of tables 2 and 3: links, and how many lack each reduction.
#[derive(Serialize)]
struct Counts {
    links: u64,
    s_irreducible: u64,
    p_irreducible: u64,
    t_irreducible: u64,
    spt_irreducible: u64,
}

impl From<Irreducible> for Counts {
    fn from(c: Irreducible) -> Counts {
        Counts {
            links: c.links,
            s_irreducible: c.s,
            p_irreducible: c.p,
            t_irreducible: c.t,
            spt_irreducible: c.spt,
        }
    }
}

/// The paper's counts for the same N (null where the paper has none).
#[derive(Serialize)]
struct PaperCounts {
    /// Table 1.
    sieved_graphs: Option<u64>,
    /// Table 1.
    minimal_weak: Option<u64>,
    /// Table 1.
    s_irreducible: Option<u64>,
    /// Table 2, the row of weight N - 2.
    weak: Option<Counts>,
    /// Table 3, the row of weight N - 3.
    strong: Option<Counts>,
}

/// The JSON document; the field order is the key order.
#[derive(Serialize)]
struct Json {
    vertices: usize,
    weight: usize,
    /// Counted, unless `graphs_listed` is there: then the known count (OEIS A001349).
    connected_graphs: u64,
    /// With geng's PRUNE hook: the graphs it listed, counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    graphs_listed: Option<u64>,
    sieved_graphs: u64,
    terminal_pairs_solved: u64,
    minimal_weak: u64,
    s_irreducible: u64,
    p_irreducible: u64,
    t_irreducible: u64,
    spt_irreducible: u64,
    /// Minimal strong links on N - 1 vertices (weight N - 3) from the weak links with a
    /// pendant terminal.
    minimal_strong: u64,
    strong_weight: usize,
    strong: Counts,
    paper: PaperCounts,
    links: Vec<JsonLink>,
    strong_links: Vec<JsonLink>,
}

impl Json {
    fn new(r: &Report) -> Json {
        let n = r.vertices;
        let weak = r.weak_irreducible();
        let strong = r.strong_irreducible();
        let table_1 = paper::table_1(n);
        Json {
            vertices: n,
            weight: n - 2,
            connected_graphs: r.graphs,
            graphs_listed: r.listed,
            sieved_graphs: r.sieved,
            terminal_pairs_solved: r.pairs,
            minimal_weak: weak.links,
            s_irreducible: weak.s,
            p_irreducible: weak.p,
            t_irreducible: weak.t,
            spt_irreducible: weak.spt,
            minimal_strong: strong.links,
            strong_weight: n - 3,
            strong: strong.into(),
            paper: PaperCounts {
                sieved_graphs: paper::sieved(n),
                minimal_weak: table_1.map(|t| t.0),
                s_irreducible: table_1.map(|t| t.1),
                weak: paper::weak(n - 2).map(Counts::from),
                strong: paper::strong(n - 3).map(Counts::from),
            },
            links: r
                .weak
                .iter()
                .map(|w| JsonLink::new(&w.link, w.pivots.clone(), w.reductions))
                .collect(),
            strong_links: r
                .strong
                .iter()
                .map(|c| JsonLink::new(c, Vec::new(), Reductions::of(&c.link())))
                .collect(),
        }
    }
}

/// One row of the comparison: the project's count, the paper's, and a mark when they
/// differ.
fn row(name: &str, ours: u64, theirs: Option<u64>) -> String {
    match theirs {
        Some(t) if t == ours => format!("    {name:<18}{ours:>8}{t:>8}\n"),
        Some(t) => format!("    {name:<18}{ours:>8}{t:>8}   differs\n"),
        None => format!("    {name:<18}{ours:>8}       -\n"),
    }
}

/// A range `a–b` (one number when a = b).
fn range([a, b]: [u32; 2]) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

/// The three spread rows of a table 2 or 3 line.
fn spread_rows(ours: Option<Spread>, theirs: Option<(Option<u32>, [u32; 2], [u32; 2])>) -> String {
    let Some(ours) = ours else {
        return String::new();
    };
    let line = |name: &str, a: String, b: Option<String>| match b {
        Some(b) if a == b => format!("    {name:<18}{a:>8}{b:>8}\n"),
        Some(b) => format!("    {name:<18}{a:>8}{b:>8}   differs\n"),
        None => format!("    {name:<18}{a:>8}       -\n"),
    };
    line(
        "smallest centre",
        ours.centre.to_string(),
        theirs.and_then(|t| t.0).map(|c| c.to_string()),
    ) + &line("edges", range(ours.edges), theirs.map(|t| range(t.1)))
        + &line(
            "largest degree",
            range(ours.max_degree),
            theirs.map(|t| range(t.2)),
        )
}

/// The five rows of a table 2 or 3 line.
fn rows(ours: Irreducible, theirs: Option<Irreducible>, links_theirs: Option<u64>) -> String {
    let pick = |f: fn(&Irreducible) -> u64| theirs.as_ref().map(f);
    row("links", ours.links, links_theirs.or(pick(|c| c.links)))
        + &row("S-irreducible", ours.s, pick(|c| c.s))
        + &row("P-irreducible", ours.p, pick(|c| c.p))
        + &row("T-irreducible", ours.t, pick(|c| c.t))
        + &row("SPT-irreducible", ours.spt, pick(|c| c.spt))
}

fn text(r: &Report) -> String {
    let n = r.vertices;
    let mut out = format!("Minimal links from the connected graphs on {n} vertices\n");
    out += &format!("  connected graphs   {:>11}\n", r.graphs);
    if let Some(listed) = r.listed {
        out += &format!(
            "  (the known count, OEIS A001349: geng with the PRUNE hook listed {listed}, which the sieve read)\n"
        );
    }
    let theirs = match paper::sieved(n) {
        Some(t) => format!(" (the paper's sieve kept {t})"),
        None => String::new(),
    };
    out += &format!(
        "  kept by the sieve  {:>11} graphs{theirs}; {} terminal pairs solved\n\n",
        r.sieved, r.pairs
    );
    out += "                       project   paper\n";
    out += &format!(
        "  minimal weak links on {n} vertices (weight {}; tables 1 and 2)\n",
        n - 2
    );
    // Table 1's count and S column for the weak links; table 2 for the rest (they differ
    // only on W1, which table 2 calls S-reducible).
    let mut weak_paper = paper::weak(n - 2);
    if let (Some(row), Some((links, s))) = (weak_paper.as_mut(), paper::table_1(n)) {
        row.links = links;
        row.s = s;
    }
    out += &rows(r.weak_irreducible(), weak_paper, None);
    out += &spread_rows(r.weak_spread(), paper::spread(false, n - 2));
    out += &format!(
        "  minimal strong links on {} vertices (weight {}; table 3)\n",
        n - 1,
        n - 3
    );
    out += &rows(r.strong_irreducible(), paper::strong(n - 3), None);
    out += &spread_rows(r.strong_spread(), paper::spread(true, n - 3));
    if !r.weak.is_empty() {
        out += "\nMinimal weak links (graph6; terminals 0 and 1):\n";
        for w in &r.weak {
            let pivots: Vec<String> = w.pivots.iter().map(usize::to_string).collect();
            let mut notes = vec![format!("pivots {}", pivots.join(","))];
            if w.pendant {
                notes.push("pendant".into());
            }
            notes.push(reductions_text(w.reductions));
            out += &format!("  {:<14} {}\n", w.link.0.to_string(), notes.join("; "));
        }
    }
    if !r.strong.is_empty() {
        out += &format!(
            "\nMinimal strong links on {} vertices (graph6; terminals 0 and 1):\n",
            n - 1
        );
        for c in &r.strong {
            let notes = reductions_text(Reductions::of(&c.link()));
            out += &format!("  {:<14} {notes}\n", c.0.to_string());
        }
    }
    if let Some(line) = check_by_hand(r) {
        out += &line;
    }
    out
}

/// A command that checks one found link by hand, ready to paste: the first weak link (or
/// the first strong one). graph6 uses the bytes 63..=126 only, so single quotes hold any.
fn check_by_hand(r: &Report) -> Option<String> {
    let g6 = r
        .weak
        .first()
        .map(|w| w.link.0.to_string())
        .or_else(|| r.strong.first().map(|c| c.0.to_string()))?;
    Some(format!(
        "\nCheck one by hand (terminals 0 and 1): birdcage link --graph6 '{g6}'\n"
    ))
}

/// `reducible: S, T` or `irreducible`.
fn reductions_text(r: Reductions) -> String {
    let names: Vec<&str> = [(r.s, "S"), (r.p, "P"), (r.t, "T")]
        .iter()
        .filter(|(has, _)| *has)
        .map(|&(_, name)| name)
        .collect();
    if names.is_empty() {
        "irreducible".into()
    } else {
        format!("reducible: {}", names.join(", "))
    }
}

/// The files [`write_outputs`] writes for `n` vertices: JSON, list, weak and strong sheets.
fn output_names(n: usize) -> [String; 4] {
    [
        format!("links-{n}.json"),
        format!("links-{n}.txt"),
        format!("links-{n}-weak.svg"),
        format!("links-{n}-strong.svg"),
    ]
}

/// report.json, links.txt (`graph6 0 1` per line, weak then strong) and the SVG sheets.
fn write_outputs(dir: &Path, report: &Report, json: &str) -> Result<()> {
    let n = report.vertices;
    let [json_name, list_name, weak_name, strong_name] = output_names(n);
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        // The one writer: no link followed, a FIFO refused, whole or not at all.
        shards::safe::write_file(&path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))
    };
    write(&json_name, json)?;
    let mut lines = String::from(
        "# minimal weak links, then minimal strong links on one vertex fewer: graph6 s t\n",
    );
    for w in &report.weak {
        lines += &format!("weak {} 0 1\n", w.link.0);
    }
    for s in &report.strong {
        lines += &format!("strong {} 0 1\n", s.0);
    }
    write(&list_name, &lines)?;
    const MAX_DRAWN: usize = 9;
    if n <= MAX_DRAWN && !report.weak.is_empty() {
        let drawn: Vec<Link> = report.weak.iter().map(|w| w.link.link()).collect();
        let cells: Vec<studies::sheet::Cell<'_>> = report
            .weak
            .iter()
            .zip(&drawn)
            .map(|(w, link)| studies::sheet::Cell {
                link,
                marked: &w.pivots,
                caption: format!(
                    "{}{}",
                    w.link.0,
                    if w.reductions.s { "" } else { "  S-irred." }
                ),
            })
            .collect();
        let path = dir.join(&weak_name);
        studies::sheet::draw(
            &path,
            &format!(
                "The {} minimal weak links on {n} vertices (weight {}): terminals black, pivots orange",
                report.weak.len(),
                n - 2
            ),
            &cells,
        )
        .map_err(|e| anyhow!("drawing {}: {e}", path.display()))?;
    }
    if n - 1 <= MAX_DRAWN && !report.strong.is_empty() {
        let drawn: Vec<Link> = report.strong.iter().map(|c| c.link()).collect();
        let cells: Vec<studies::sheet::Cell<'_>> = report
            .strong
            .iter()
            .zip(&drawn)
            .map(|(c, link)| studies::sheet::Cell {
                link,
                marked: &[],
                caption: c.0.to_string(),
            })
            .collect();
        let path = dir.join(&strong_name);
        studies::sheet::draw(
            &path,
            &format!(
                "The {} minimal strong links on {} vertices (weight {}), from the weak links on {n}",
                report.strong.len(),
                n - 1,
                n - 3
            ),
            &cells,
        )
        .map_err(|e| anyhow!("drawing {}: {e}", path.display()))?;
    }
    Ok(())
}
