//! `cargo xtask figures`: the figures the READMEs quote that a script can measure, measured
//! and written back. A README holds one as `<!-- figure NAME -->VALUE<!-- /figure -->` (the
//! markers render as nothing); [`FIGURES`] says how each NAME is measured. So a figure is
//! re-measured, not retyped, and one that drifts is rewritten by the next run (issue 63: the
//! wasm size and `links --vertices 9` had drifted from their READMEs).
//!
//! `cargo xtask figures --check` only reads: every marker names a row and every row is quoted
//! somewhere (a test runs it). Figures of a dated experiment (a benchmark, a cold clone's
//! time, a study's CPU-hours) stay as written with their date and command: re-running them is
//! minutes to hours, and their text says when and under what load they were taken.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail};

/// One measured figure: its name in the markers, and how it is measured (from the workspace's
/// root) into the text the README shows.
pub(crate) struct Figure {
    pub name: &'static str,
    /// What is measured, for `--help`-like listings and the doc.
    pub what: &'static str,
    measure: fn(&Path) -> Result<String>,
}

/// Every figure a script measures. The board binary's sizes are what `.ci/run` prints and
/// checks against the budget; the WebAssembly's is what `cargo xtask web` checks.
pub(crate) const FIGURES: &[Figure] = &[
    Figure {
        name: "firmware-flash-bytes",
        what: "the board binary's flash (text + data, `size -B` of `cargo fw`'s ELF)",
        measure: |root| firmware_size(root, FW).map(|[text, data, _]| thousands(text + data)),
    },
    Figure {
        name: "firmware-ram-bytes",
        what: "the board binary's static RAM (data + bss, `size -B` of `cargo fw`'s ELF)",
        measure: |root| firmware_size(root, FW).map(|[_, data, bss]| thousands(data + bss)),
    },
    Figure {
        name: "firmware-qemu-text-bytes",
        what: "the QEMU binary's text (`size -B` of firmware-qemu, profile fw)",
        measure: |root| firmware_size(root, QEMU).map(|[text, _, _]| thousands(text)),
    },
    Figure {
        name: "wasm-bytes",
        what: "the web app's WebAssembly before compression (`cargo xtask web`)",
        measure: wasm_bytes,
    },
    Figure {
        name: "links-9-seconds",
        what: "`birdcage links --vertices 9`, release build, wall time, median of 3 (needs nauty-geng)",
        measure: links_9_seconds,
    },
];

/// `cargo xtask figures [--check]`.
pub(crate) fn figures(check_only: bool) -> Result<()> {
    let root = crate::root();
    let readmes = readmes(&root)?;
    let mut quoted = Vec::new();
    for path in &readmes {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for marker in markers(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))? {
            quoted.push((path.clone(), marker));
        }
    }
    let problems = check(&quoted);
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    if check_only {
        println!(
            "passed: {} quoted figures, each named in xtask/src/figures.rs, each of its {} figures quoted",
            quoted.len(),
            FIGURES.len()
        );
        return Ok(());
    }
    for figure in FIGURES {
        let value =
            (figure.measure)(&root).with_context(|| format!("measuring {}", figure.name))?;
        println!("{:26} {value:>10}   {}", figure.name, figure.what);
        for path in &readmes {
            let text = std::fs::read_to_string(path)?;
            let new = rewrite(&text, figure.name, &value);
            if new != text {
                // The checkout's own README, rewritten in place by the one who runs the task;
                // xtask stays off the library crates (shards) to build in seconds (clippy.toml).
                #[allow(clippy::disallowed_methods)]
                std::fs::write(path, new)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                println!("  rewrote {}", path.display());
            }
        }
    }
    Ok(())
}

/// The root README and each crate's, the ones the figures may be quoted in.
fn readmes(root: &Path) -> Result<Vec<PathBuf>> {
    let mut found = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root)? {
        let readme = entry?.path().join("README.md");
        if readme.is_file() {
            found.push(readme);
        }
    }
    found.sort();
    Ok(found)
}

/// A marker read from a README: the figure's name and the value it shows.
#[derive(Debug, PartialEq)]
pub(crate) struct Marker {
    pub name: String,
    pub value: String,
}

const OPEN: &str = "<!-- figure ";
const CLOSE: &str = "<!-- /figure -->";

/// The markers of one README, in order; an unclosed one is an error naming its line.
pub(crate) fn markers(text: &str) -> Result<Vec<Marker>, String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        let line = text[..text.len() - rest.len() + at].lines().count().max(1);
        let after = &rest[at + OPEN.len()..];
        let (name, after) = after
            .split_once(" -->")
            .ok_or(format!("line {line}: a figure marker without ` -->`"))?;
        let (value, after) = after
            .split_once(CLOSE)
            .filter(|(value, _)| !value.contains('\n'))
            .ok_or(format!(
                "line {line}: figure {name} is not closed by {CLOSE} on its line"
            ))?;
        found.push(Marker {
            name: name.trim().to_string(),
            value: value.to_string(),
        });
        rest = after;
    }
    Ok(found)
}

/// Each marker whose name no row has, and each row nobody quotes.
pub(crate) fn check(quoted: &[(PathBuf, Marker)]) -> Vec<String> {
    let mut problems: Vec<String> = quoted
        .iter()
        .filter(|(_, m)| !FIGURES.iter().any(|f| f.name == m.name))
        .map(|(path, m)| {
            format!(
                "{}: figure `{}` is not one of xtask/src/figures.rs's ({})",
                path.display(),
                m.name,
                FIGURES
                    .iter()
                    .map(|f| f.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    problems.extend(
        FIGURES
            .iter()
            .filter(|f| !quoted.iter().any(|(_, m)| m.name == f.name))
            .map(|f| format!("figure `{}` is quoted in no README", f.name)),
    );
    problems
}

/// `text` with every marker of `name` showing `value`.
pub(crate) fn rewrite(text: &str, name: &str, value: &str) -> String {
    let open = format!("{OPEN}{name} -->");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&open) {
        let start = at + open.len();
        let Some(end) = rest[start..].find(CLOSE) else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(value);
        rest = &rest[start + end..];
    }
    out.push_str(rest);
    out
}

/// 53520 as `53,520`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs `cargo ARGS` in the root, failing with its command line.
fn cargo(root: &Path, args: &[&str]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(root)
        .args(args)
        .status()
        .with_context(|| format!("cannot run {cargo}"))?;
    if !status.success() {
        bail!("`cargo {}` failed", args.join(" "));
    }
    Ok(())
}

/// The board binary: `cargo fw` (the alias in `.cargo/config.toml`) and its ELF.
const FW: (&[&str], &str) = (&["fw"], "firmware");
/// The QEMU binary, as firmware/README.md builds it.
const QEMU: (&[&str], &str) = (
    &[
        "build",
        "-p",
        "firmware",
        "--bin",
        "firmware-qemu",
        "--features",
        "qemu",
        "--target",
        "thumbv7em-none-eabihf",
        "--profile",
        "fw",
    ],
    "firmware-qemu",
);

/// A firmware binary's text, data and bss in bytes, from `size -B`, after its build.
fn firmware_size(root: &Path, (build, bin): (&[&str], &str)) -> Result<[u64; 3]> {
    cargo(root, build)?;
    let elf = crate::target_dir()
        .join("thumbv7em-none-eabihf/fw")
        .join(bin);
    let out = Command::new("size")
        .arg("-B")
        .arg(&elf)
        .output()
        .context("cannot run `size` (binutils)")?;
    let text = String::from_utf8_lossy(&out.stdout);
    let numbers: Vec<u64> = text
        .lines()
        .nth(1)
        .unwrap_or("")
        .split_whitespace()
        .take(3)
        .filter_map(|w| w.parse().ok())
        .collect();
    let [text, data, bss] = numbers[..] else {
        bail!(
            "`size -B {}` printed no text, data and bss: {text}",
            elf.display()
        );
    };
    Ok([text, data, bss])
}

/// The WebAssembly's bytes, as `cargo xtask web` builds it.
fn wasm_bytes(_root: &Path) -> Result<String> {
    crate::web::web(None)?;
    let wasm = crate::target_dir().join("site/pkg/birdcage_web_bg.wasm");
    let bytes = std::fs::metadata(&wasm)
        .with_context(|| format!("no {}", wasm.display()))?
        .len();
    Ok(thousands(bytes))
}

/// The median wall time of three `birdcage links --vertices 9` runs of the release build.
fn links_9_seconds(root: &Path) -> Result<String> {
    cargo(root, &["build", "--release", "-p", "birdcage"])?;
    let birdcage = crate::target_dir().join("release/birdcage");
    let out = tempdir()?;
    let mut times = Vec::new();
    for run in 0..3 {
        let start = Instant::now();
        let status = Command::new(&birdcage)
            .args(["links", "--vertices", "9", "--out"])
            .arg(out.join(run.to_string()))
            .stdout(std::process::Stdio::null())
            .status()
            .with_context(|| format!("cannot run {}", birdcage.display()))?;
        if !status.success() {
            bail!("`birdcage links --vertices 9` failed (is nauty-geng on PATH?)");
        }
        times.push(start.elapsed().as_secs_f64());
    }
    let _ = std::fs::remove_dir_all(&out);
    times.sort_by(f64::total_cmp);
    Ok(format!("{:.2} s", times[1]))
}

/// A fresh folder under the target folder for the runs' output.
fn tempdir() -> Result<PathBuf> {
    let dir = crate::target_dir().join(format!("figures-{}", std::process::id()));
    // Under cargo's own target folder; xtask stays off the library crates (clippy.toml).
    #[allow(clippy::disallowed_methods)]
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The READMEs' markers and the table agree: each marker names a row, each row is quoted.
    #[test]
    fn every_quoted_figure_is_measured_by_the_script_and_every_figure_is_quoted() {
        let root = crate::root();
        let mut quoted = Vec::new();
        for path in readmes(&root).unwrap() {
            let text = std::fs::read_to_string(&path).unwrap();
            for m in markers(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
                quoted.push((path.clone(), m));
            }
        }
        let problems = check(&quoted);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// The check fails on a name no row has, and on a row nobody quotes.
    #[test]
    fn an_unknown_or_unquoted_figure_fails_the_check() {
        let quoted = vec![(
            PathBuf::from("README.md"),
            Marker {
                name: "wasm-kilobytes".into(),
                value: "585".into(),
            },
        )];
        let problems = check(&quoted);
        assert!(
            problems[0].contains("figure `wasm-kilobytes` is not one of"),
            "{problems:?}"
        );
        assert_eq!(problems.len(), 1 + FIGURES.len(), "{problems:?}");
    }

    #[test]
    fn markers_are_read_and_rewritten_in_place() {
        let text = "| flash | <!-- figure firmware-flash-bytes -->52 732<!-- /figure --> | 65 536 |\n\
                    and <!-- figure wasm-bytes -->1<!-- /figure --> bytes\n";
        assert_eq!(
            markers(text).unwrap(),
            [
                Marker {
                    name: "firmware-flash-bytes".into(),
                    value: "52 732".into()
                },
                Marker {
                    name: "wasm-bytes".into(),
                    value: "1".into()
                },
            ]
        );
        let new = rewrite(text, "firmware-flash-bytes", "53,520");
        assert_eq!(
            new,
            "| flash | <!-- figure firmware-flash-bytes -->53,520<!-- /figure --> | 65 536 |\n\
             and <!-- figure wasm-bytes -->1<!-- /figure --> bytes\n"
        );
        assert!(
            markers("<!-- figure a -->1\n<!-- /figure -->")
                .unwrap_err()
                .contains("line 1")
        );
    }

    #[test]
    fn thousands_are_grouped_by_commas() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(53_520), "53,520");
        assert_eq!(thousands(1_048_576), "1,048,576");
    }
}
