//! The quantisation study's plots: divergence and loss against resolution, and the exact
//! margins' histogram.

use super::report::{Report, Row};
use crate::plot::{self, Axes, Panel, Scale, Series, Title};
use crate::report::Output;
use emulator::quantisation::{MARGIN_BITS, lsb_share, margin_bin, margin_bin_edges};

/// The resolutions marked on `margins.svg`: 1 LSB at each of them is a bin edge.
pub const MARKED_BITS: [u8; 6] = [6, 8, 10, 12, 14, 16];

/// `divergence-vs-bits.svg` (the divergence rate, one line per converter), `lost-vs-bits.svg`
/// (the largest drop a divergence gave away, as a share of the supply, with the size of one
/// LSB for scale) and `margins.svg` (the exact margins' histogram on a log count axis).
pub fn plots(report: &Report, out: &Output) -> plot::PlotResult {
    let caption = report.caption();
    let per_converter = |f: &dyn Fn(&Row) -> Option<f64>| -> Vec<Series> {
        report
            .converters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                Series::new(
                    c.clone(),
                    i,
                    report
                        .rows
                        .iter()
                        .filter(|r| &r.converter == c)
                        .map(|r| (f64::from(r.bits), f(r)))
                        .collect(),
                )
            })
            .collect()
    };
    plot::lines(
        &out.path("divergence-vs-bits.svg"),
        Title {
            title: "Moves outside the exact tied set",
            caption: &caption,
        },
        &[Panel {
            heading: "",
            axes: Axes {
                x: "ADC bits",
                y: "divergence (% of decisions)",
                x_scale: Scale::Integer,
                y_scale: Scale::Percent,
            },
            series: &per_converter(&|r| Some(r.divergence.rate)),
        }],
    )?;
    let mut lost = per_converter(&|r| r.max_lost_share_of_supply);
    for s in &mut lost {
        if s.points.iter().all(|p| p.1.is_none()) {
            s.name.push_str(" (no divergence)");
        }
    }
    let bits: Vec<u8> = report
        .rows
        .iter()
        .map(|r| r.bits)
        .collect::<std::collections::BTreeSet<u8>>()
        .into_iter()
        .collect();
    lost.push(
        Series::new(
            "1 LSB (ideal ADC)",
            6,
            bits.iter()
                .map(|&b| (f64::from(b), Some(lsb_share(b, 1.0))))
                .collect(),
        )
        .dashed(),
    );
    plot::lines(
        &out.path("lost-vs-bits.svg"),
        Title {
            title: "Largest drop a divergence gave away",
            caption: &caption,
        },
        &[Panel {
            heading: "",
            axes: Axes {
                x: "ADC bits",
                y: "drop given away (% of the supply, log scale)",
                x_scale: Scale::Integer,
                y_scale: Scale::LogPercent,
            },
            series: &lost,
        }],
    )?;
    let n = report.margin_histogram_10bit.len();
    let edges: Vec<String> = (0..=n)
        .map(|k| {
            if k == 0 {
                "0".to_string()
            } else if k == n {
                String::new()
            } else {
                let low = margin_bin_edges(k).0;
                if low >= 1.0 {
                    plot::integer_text(low as i64)
                } else {
                    format!("1/{}", (1.0 / low) as i64)
                }
            }
        })
        .collect();
    let marks: Vec<(usize, String)> = MARKED_BITS
        .iter()
        .filter_map(|&b| {
            let share = lsb_share(b, 1.0);
            let k = margin_bin(share);
            (margin_bin_edges(k).0 * lsb_share(MARGIN_BITS, 1.0) == share)
                .then(|| (k, format!("{b} bits")))
        })
        .collect();
    plot::histogram(
        &out.path("margins.svg"),
        Title {
            title: "Exact margin between the best and the runner-up",
            caption: &caption,
        },
        Axes {
            x: "margin in LSB at 10 bits (bin edges); dashed: 1 LSB at 6 … 16 bits",
            y: "decisions (log scale)",
            x_scale: Scale::Integer,
            y_scale: Scale::LogCount,
        },
        &edges,
        &report.margin_histogram_10bit,
        &marks,
    )
}
