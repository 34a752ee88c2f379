//! The report's plot (`plot.svg`): per step, the worst distance of a node's code from its
//! prediction, against the band the profile allows, coloured by class, so a wiring fault
//! or a drifting part stands out at a glance. plotters' SVG backend: no fonts to load, text
//! stays text.
//!
//! What a reader needs is how far each step is from its prediction, from 0 (a nominal board:
//! every step) through the converter's last code or two (quantisation, noise) to the band
//! (a toleranced board) and far past it (a fault). So the codes axis is logarithmic in
//! 1 + codes: 0 sits at its foot, raised off the step axis so that those points show, 1 and
//! 2 codes are told apart, and a fault of hundreds of codes still fits. Ticks are whole
//! codes (`0 1 2 5 10 20 …`) and whole steps; the legend stands beside the chart, never
//! over the band or the points.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::check::Class;

/// Every class with its colour, in [`Class`] order.
const CLASSES: [(Class, RGBColor); 7] = [
    (Class::Agree, RGBColor(46, 139, 87)),
    (Class::Tie, RGBColor(65, 105, 225)),
    (Class::Quantisation, RGBColor(0, 170, 190)),
    (Class::Pullups, RGBColor(148, 0, 211)),
    (Class::Tolerance, RGBColor(230, 140, 0)),
    (Class::Wiring, RGBColor(220, 20, 60)),
    (Class::Fault, RGBColor(0, 0, 0)),
];

/// The band's colour.
const BAND: RGBColor = RED;

/// One step on the plot: its worst |code - prediction| and its class.
pub type Point = (u16, Class);

/// What drawing the SVG can fail with: plotters' own error over the file's I/O.
pub type PlotError = plotters::drawing::DrawingAreaErrorKind<std::io::Error>;

/// The whole figure, pixels.
const SIZE: (u32, u32) = (960, 500);
/// Width of the legend beside the chart, pixels.
const LEGEND: u32 = 190;

/// The codes axis: `ln(1 + codes)`, from a little below 0 (so that points at 0 stand off
/// the step axis) to a tenth over the highest value shown, ticked at whole codes.
#[derive(Clone, Debug)]
struct Codes {
    /// The axis in `ln(1 + codes)`.
    range: Range<f64>,
    /// Tick values, codes.
    ticks: Vec<f64>,
}

impl Codes {
    /// An axis that shows `highest` codes and everything under it.
    fn new(highest: u16) -> Codes {
        let top = Codes::scaled(f64::from(highest.max(1))) * 1.1;
        let ticks = [1.0, 2.0, 5.0]
            .into_iter()
            .cycle()
            .zip((0..).map(|i| 10f64.powi(i / 3)))
            .map(|(m, decade)| m * decade)
            .take_while(|&v| Codes::scaled(v) <= top)
            .collect::<Vec<_>>();
        Codes {
            range: -0.05 * top..top,
            ticks: std::iter::once(0.0).chain(ticks).collect(),
        }
    }

    fn scaled(codes: f64) -> f64 {
        codes.max(0.0).ln_1p()
    }
}

impl Ranged for Codes {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let Range { start, end } = self.range;
        let t = (Codes::scaled(*value) - start) / (end - start);
        limit.0 + (f64::from(limit.1 - limit.0) * t).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.start.exp_m1()..self.range.end.exp_m1()
    }
}

/// Draws `points` (one per step, in report order) with the band as a horizontal line: the
/// SVG's text, which the report writes whole ([`shards::safe::write_file`]: plotters' own
/// file backend would write through a link planted at the name). An empty report gives
/// empty axes.
pub fn deviations(title: &str, points: &[Point], band: Option<u16>) -> Result<String, PlotError> {
    let mut svg = String::new();
    draw(&mut svg, title, points, band)?;
    Ok(svg)
}

fn draw(
    svg: &mut String,
    title: &str,
    points: &[Point],
    band: Option<u16>,
) -> Result<(), PlotError> {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 18))?;
    let (chart_area, legend_area) = root.split_horizontally(SIZE.0 - LEGEND);
    let steps = u32::try_from(points.len()).unwrap_or(u32::MAX);
    let highest = points.iter().map(|p| p.0).chain(band).max().unwrap_or(0);
    let last = steps.saturating_add(1);
    let mut chart = ChartBuilder::on(&chart_area)
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0..last, Codes::new(highest))?;
    chart
        .configure_mesh()
        .x_desc("step")
        .y_desc("worst |code - prediction|, codes (log scale)")
        .y_label_formatter(&|v| format!("{}", v.round() as i64))
        .disable_x_mesh()
        .draw()?;
    let mut legend: Vec<(String, Swatch)> = Vec::new();
    if let Some(band) = band {
        let y = f64::from(band);
        chart.draw_series(LineSeries::new([(0, y), (last, y)], BAND.stroke_width(1)))?;
        legend.push((format!("band ±{band} codes"), Swatch::Line(BAND)));
    }
    for (class, color) in CLASSES {
        let mine: Vec<(u32, f64)> = (1..)
            .zip(points)
            .filter(|(_, p)| p.1 == class)
            .map(|(step, p)| (step, f64::from(p.0)))
            .collect();
        if mine.is_empty() {
            continue;
        }
        chart.draw_series(mine.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
        legend.push((format!("{class:?}: {}", mine.len()), Swatch::Dot(color)));
    }
    draw_legend(&legend_area, &legend)?;
    root.present()?;
    Ok(())
}

/// A legend row's sample: the band's line or a class's colour.
enum Swatch {
    Line(RGBColor),
    Dot(RGBColor),
}

/// The legend, one row a series, in its own area to the right of the chart.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    rows: &[(String, Swatch)],
) -> Result<(), PlotError> {
    let text = ("sans-serif", 14)
        .into_font()
        .into_text_style(area)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (name, swatch)) in (0..).zip(rows) {
        let y = 40 + 22 * i;
        match swatch {
            Swatch::Line(c) => area.draw(&PathElement::new(vec![(4, y), (24, y)], *c))?,
            // A square, not a circle: the plot's circles are its steps.
            Swatch::Dot(c) => area.draw(&Rectangle::new([(9, y - 5), (19, y + 5)], c.filled()))?,
        }
        area.draw_text(name, &text, (32, y))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SVG of `points` against `band`.
    fn svg(points: &[Point], band: Option<u16>) -> String {
        deviations("a test plot", points, band).unwrap()
    }

    /// Every `<text>` element: its x and y attributes and its text.
    fn texts(svg: &str) -> Vec<(f64, f64, String)> {
        svg.split("<text")
            .skip(1)
            .map(|t| {
                let attr = |name: &str| -> f64 {
                    let at = t.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    t[at..].split('"').next().unwrap().parse().unwrap()
                };
                let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
                (attr("x"), attr("y"), body.trim().to_string())
            })
            .collect()
    }

    /// The (cx, cy) of every circle (one a step).
    fn circles(svg: &str) -> Vec<(f64, f64)> {
        svg.split("<circle")
            .skip(1)
            .map(|c| {
                let attr = |name: &str| -> f64 {
                    let at = c.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    c[at..].split('"').next().unwrap().parse().unwrap()
                };
                (attr("cx"), attr("cy"))
            })
            .collect()
    }

    /// The band's line: the longest polyline in the band's colour (the other is the
    /// legend's sample), as its points.
    fn band_line(svg: &str) -> Vec<(f64, f64)> {
        let lines: Vec<Vec<(f64, f64)>> = svg
            .split("<polyline")
            .skip(1)
            .filter(|l| l.contains("#FF0000"))
            .map(|l| {
                let at = l.find("points=\"").unwrap() + 8;
                l[at..]
                    .split('"')
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect();
        let span = |l: &Vec<(f64, f64)>| l.last().unwrap().0 - l[0].0;
        lines
            .into_iter()
            .max_by(|a, b| span(a).total_cmp(&span(b)))
            .unwrap()
    }

    #[test]
    fn ticks_are_whole_codes_and_whole_steps() {
        // A toleranced board's spread, a fault far past the band, 40 steps.
        let points: Vec<Point> = (0..40u16)
            .map(|i| (i % 27, Class::Agree))
            .chain([(300, Class::Wiring)])
            .collect();
        let svg = svg(&points, Some(24));
        let numbers: Vec<String> = texts(&svg)
            .into_iter()
            .map(|t| t.2)
            .filter(|t| t.parse::<f64>().is_ok())
            .collect();
        assert!(numbers.len() > 8, "{numbers:?}");
        for n in &numbers {
            assert!(n.parse::<i64>().is_ok(), "tick `{n}` is not a whole number");
        }
        // The codes axis: 0 at its foot, then 1, 2, 5, … up to the fault.
        for tick in ["0", "1", "2", "5", "10", "20", "50", "100", "200"] {
            assert!(numbers.iter().any(|n| n == tick), "{tick} in {numbers:?}");
        }
    }

    #[test]
    fn the_legend_stands_beside_the_band_and_the_points() {
        let points: Vec<Point> = (0..60u16)
            .map(|i| (i % 30, if i % 7 == 0 { Class::Tie } else { Class::Agree }))
            .collect();
        let svg = svg(&points, Some(24));
        let band = band_line(&svg);
        let right = band.iter().map(|p| p.0).fold(f64::MIN, f64::max);
        let dots = circles(&svg);
        assert_eq!(dots.len(), 60);
        assert!(dots.iter().all(|c| c.0 < right), "{dots:?} past {right}");
        let legend: Vec<_> = texts(&svg)
            .into_iter()
            .filter(|t| t.2.starts_with("band") || t.2.contains(": "))
            .collect();
        let names: Vec<&str> = legend.iter().map(|t| t.2.as_str()).collect();
        assert_eq!(
            names,
            ["band ±24 codes", "Agree: 51", "Tie: 9"],
            "{legend:?}"
        );
        for (x, _, name) in &legend {
            assert!(
                *x > right,
                "`{name}` at x={x}, over the chart (it ends at {right})"
            );
        }
    }

    #[test]
    fn a_nominal_boards_points_stand_off_the_step_axis() {
        // Nominal parts, a noiseless converter: every step is 0 or 1 code off.
        let points: Vec<Point> = (0..20u16).map(|i| (i % 2, Class::Agree)).collect();
        let svg = svg(&points, Some(24));
        let ys: Vec<f64> = circles(&svg).iter().map(|c| c.1).collect();
        let zero = ys.iter().copied().fold(f64::MIN, f64::max);
        let one = ys.iter().copied().fold(f64::MAX, f64::min);
        // The step axis is where its labels hang from: below every point.
        let axis = texts(&svg)
            .into_iter()
            .filter(|t| t.2 == "step")
            .map(|t| t.1)
            .next()
            .unwrap();
        let band = band_line(&svg)[0].1;
        // Pixels grow downwards: the band above 1 above 0, each well apart, 0 off the axis.
        assert!(band < one - 100.0, "band {band}, 1 code {one}");
        assert!(one < zero - 40.0, "1 code {one}, 0 codes {zero}");
        // The codes axis's 0 (the step axis's 0 hangs below it).
        let foot = texts(&svg)
            .into_iter()
            .filter(|t| t.2 == "0")
            .map(|t| t.1)
            .fold(f64::MAX, f64::min);
        assert!(
            (foot - zero).abs() <= 2.0,
            "the 0 tick at {foot}, zeros at {zero}"
        );
        assert!(
            zero < axis - 40.0,
            "zeros at {zero}, the step axis at {axis}"
        );
    }

    #[test]
    fn an_empty_plot_has_axes_and_no_legend() {
        let svg = svg(&[], None);
        assert!(circles(&svg).is_empty());
        assert!(!svg.contains("NaN"));
        assert!(texts(&svg).iter().all(|t| !t.2.contains(": ")));
    }
}
