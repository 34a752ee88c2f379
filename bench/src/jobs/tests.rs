//! The driver with a campaign of the test's own, written as a new campaign would be: its
//! merged report is the same whole, in shards or in chunks, and a stopped one-process run in
//! chunks resumes to it.

use std::ops::ControlFlow;
use std::path::Path;

use shards::{Job, Mode, Outcome, ShardId};

use super::{Campaign, Given, JobError, Merged, Tick, Trials, drive};
use crate::config::RunSpec;
use crate::report::{Depends, Existing};

/// Items 0..N, each `even` or `odd`; `chunks`: its one-process run in that many chunks.
struct Parity {
    items: u64,
    chunks: Option<u32>,
    depends: Depends,
    /// A stopped run returns what it finished (as the glitch campaign's 1/1 once did)
    /// instead of an error.
    keeps_partial: bool,
}

impl Campaign for Parity {
    const NAME: &'static str = "parity";
    const UNIT: &'static str = "items";
    const CLASSES: &'static [&'static str] = &["even", "odd"];
    const FAILS: &'static [&'static str] = &["odd"];
    const FILES: &'static [&'static str] = &["parity.md"];
    const REPORT: &'static str = "parity report";
    const KEPT: &'static str = "the items finished";
    const BODY: &'static str = "the test's parity";
    type Body = Vec<u64>;
    type Merged = Vec<u64>;

    fn refuse(_: &RunSpec, given: Given) -> Option<&'static str> {
        given.calibrate.then_some("--calibrate does not apply")
    }

    fn plan(
        _: &RunSpec,
        _: &'static boards::Profile,
        _: &'static boards::Profile,
    ) -> Result<Self, JobError> {
        Ok(Parity {
            items: 7,
            chunks: None,
            depends: Depends::default(),
            keeps_partial: false,
        })
    }

    fn depends(&self) -> &Depends {
        &self.depends
    }

    fn bar(&self, _: bool) -> Option<Tick> {
        None
    }

    fn run_shard(
        &self,
        id: ShardId,
        progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    ) -> Result<Vec<u64>, JobError> {
        let owned: Vec<u64> = (0..self.items).filter(|&k| id.owns(k)).collect();
        let mut done = Vec::new();
        for &k in &owned {
            done.push(k);
            let tick = Tick {
                prefix: String::new(),
                done: done.len(),
                all: owned.len(),
            };
            if progress(&tick).is_break() && done.len() < owned.len() {
                if self.keeps_partial {
                    return Ok(done);
                }
                return Err(JobError::Body {
                    shard: id.to_string(),
                    why: "stopped".into(),
                });
            }
        }
        Ok(done)
    }

    fn merge(
        &self,
        dir: &Path,
        bodies: Vec<Vec<u64>>,
        verdict: &dyn Fn(&Vec<u64>) -> String,
    ) -> Result<(Vec<u64>, String), JobError> {
        let mut items: Vec<u64> = bodies.into_iter().flatten().collect();
        items.sort_unstable();
        let md = format!("{items:?}\n{}\n", verdict(&items));
        std::fs::write(dir.join("parity.md"), &md).unwrap();
        Ok((items, md))
    }

    fn trials(items: &Vec<u64>) -> Trials<'_> {
        Trials::Classes(
            items
                .iter()
                .map(|k| if k % 2 == 0 { "even" } else { "odd" })
                .collect(),
        )
    }

    fn junit(&self, _: &Vec<u64>, _: &dyn Fn(&str) -> bool) -> Option<quick_junit::Report> {
        None
    }

    fn chunks(&self) -> Option<(u32, u64)> {
        self.chunks.map(|count| (count, self.items))
    }
}

fn job() -> Job {
    Job::new("bench-parity", &7, "test", vec!["parity".into()])
}

/// The driver's report in `dir` for `mode`, judged by counting the odd items.
fn run(
    parity: &Parity,
    dir: &Path,
    mode: Mode,
    existing: Existing,
    stop_after: Option<usize>,
) -> Result<Outcome<Merged<Vec<u64>>>, JobError> {
    let mut seen = 0;
    drive(
        parity,
        dir,
        &job(),
        &mode,
        existing,
        &mut |_| {
            seen += 1;
            match stop_after.is_some_and(|n| seen >= n) {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        },
        &|trials| match trials {
            Trials::Classes(words) => {
                format!("{} odd", words.iter().filter(|w| **w == "odd").count())
            }
            Trials::Steps { .. } => unreachable!(),
        },
    )
}

fn markdown(outcome: Outcome<Merged<Vec<u64>>>) -> String {
    match outcome {
        Outcome::Merged(done) => done.markdown,
        _ => panic!("not merged"),
    }
}

#[test]
fn whole_sharded_and_chunked_runs_write_the_same_report() {
    let dirs = tempfile::tempdir().unwrap();
    let [whole, sharded, chunked] = ["whole", "sharded", "chunked"].map(|d| {
        let dir = dirs.path().join(d);
        std::fs::create_dir(&dir).unwrap();
        dir
    });
    let parity = Parity {
        items: 7,
        chunks: None,
        depends: Depends::default(),
        keeps_partial: false,
    };
    let expected = "[0, 1, 2, 3, 4, 5, 6]\n3 odd\n";
    assert_eq!(
        markdown(run(&parity, &whole, Mode::Whole, Existing::Refuse, None).unwrap()),
        expected
    );
    for k in [2, 1] {
        let id = ShardId::new(k, 2).unwrap();
        let outcome = run(&parity, &sharded, Mode::Shard(id), Existing::Refuse, None).unwrap();
        assert!(matches!(outcome, Outcome::Shard { kept: false, .. }));
    }
    let merged = run(&parity, &sharded, Mode::Merge(None), Existing::Refuse, None).unwrap();
    assert_eq!(markdown(merged), expected);

    // In chunks: stopped in its second chunk, refused without --resume, then resumed.
    let parity = Parity {
        chunks: Some(3),
        ..parity
    };
    let stopped = run(&parity, &chunked, Mode::Whole, Existing::Refuse, Some(4)).unwrap_err();
    assert_eq!(
        stopped.to_string(),
        format!(
            "after 3 of 7 items; `--resume` goes on from them ({})",
            chunked.display()
        )
    );
    let refused = run(&parity, &chunked, Mode::Whole, Existing::Refuse, None).unwrap_err();
    assert!(
        matches!(
            refused,
            JobError::Chunks {
                stored: 1,
                count: 3,
                ..
            }
        ),
        "{refused}"
    );
    let resumed = run(&parity, &chunked, Mode::Whole, Existing::Resume, None).unwrap();
    assert_eq!(markdown(resumed), expected);
}

/// Issue 62: a stopped shard is never stored as whole, even from a campaign whose run keeps
/// what it finished: `--shard 1/1` (what `--slurm --shards 1` submits) and a one-process run
/// in one chunk (a glitch campaign of 50 trials or fewer) store nothing and say so, where
/// the partial shard was merged and judged as the whole campaign.
#[test]
fn a_stopped_shard_or_chunk_is_never_stored_as_whole() {
    let dir = tempfile::tempdir().unwrap();
    let parity = Parity {
        items: 7,
        chunks: None,
        depends: Depends::default(),
        keeps_partial: true,
    };
    let stopped = run(
        &parity,
        dir.path(),
        Mode::Shard(ShardId::WHOLE),
        Existing::Refuse,
        Some(3),
    )
    .unwrap_err();
    assert!(
        matches!(stopped, JobError::ShardStopped { .. }),
        "{stopped}"
    );
    assert_eq!(
        stopped.to_string(),
        "shard 1/1 was stopped before its end: nothing stored; run it again"
    );
    let one_chunk = Parity {
        chunks: Some(1),
        ..parity
    };
    let stopped = run(
        &one_chunk,
        dir.path(),
        Mode::Whole,
        Existing::Refuse,
        Some(3),
    )
    .unwrap_err();
    assert!(
        matches!(
            stopped,
            JobError::Stopped {
                done: 0,
                all: 7,
                ..
            }
        ),
        "{stopped}"
    );
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".shard"))
        .collect();
    assert!(files.is_empty(), "{files:?}");
    // Not stopped, the same run stores and merges all seven.
    let whole = run(&one_chunk, dir.path(), Mode::Whole, Existing::Refuse, None).unwrap();
    assert_eq!(markdown(whole), "[0, 1, 2, 3, 4, 5, 6]\n3 odd\n");
}
