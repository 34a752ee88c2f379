//! The studies' plots, as SVG (plotters' SVG backend: no fonts to load, text stays text).
//!
//! What a reader sees: a title, and under it a caption naming where the data came from
//! (board, size, seed); axes in the unit of their quantity: integers (bits, vertices, codes,
//! counts) labelled `6`, never `6.0`; rates and shares of the supply drawn as the fractions
//! the CSV files hold and labelled in percent; a log axis for counts whose small tail matters
//! and for values studied by factors (tolerances, pull-up values), ticked at those values;
//! series told apart by colour from the Okabe–Ito palette (distinguishable with the common
//! colour-vision deficiencies), by marker shape and, where two kinds of series share a chart,
//! by dashes; the legend beside the plot, never over the data.

use std::ops::Range;
use std::path::Path;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::element::{ComposedElement, DashedPathElement};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A point in pixels (plotters_backend::BackendCoord).
type BackendCoord = (i32, i32);

/// The Okabe–Ito palette, in the order series take it (yellow last: faint on white).
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0xF0, 0xE4, 0x42), // yellow
];

/// Marker shapes, in the order series take them (with the colours of [`PALETTE`]).
const MARKERS: usize = 8;

/// How an axis maps and labels its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Linear, ticks at 1-2-5 steps, labelled as short decimals (`0.25`, `14`).
    Linear,
    /// Linear over integers (bits, vertices, codes): ticks only at integers, labelled `6`.
    Integer,
    /// Linear over fractions (rates, shares of the supply), labelled in percent: 0.0035 is
    /// labelled `0.35`.
    Percent,
    /// Logarithmic over fractions spanning decades (losses in LSB-sized steps), ticked at
    /// powers of ten and labelled in percent: 0.0001 is labelled `0.01`.
    LogPercent,
    /// Logarithmic, ticked at the values the data has (tolerances, pull-up values).
    Log,
    /// Logarithmic over counts: ticks at 1, 10, 100, …, labelled as integers.
    LogCount,
}

impl Scale {
    fn is_log(self) -> bool {
        matches!(self, Scale::Log | Scale::LogCount | Scale::LogPercent)
    }
}

/// One named line of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend.
    pub name: String,
    /// Points in x order; `None` leaves a gap in the line (nothing measured there).
    pub points: Vec<(f64, Option<f64>)>,
    /// Colour and marker: the `style`-th of [`PALETTE`] and of the marker shapes.
    pub style: usize,
    /// A dashed line (a second kind of series in the same colours).
    pub dashed: bool,
}

impl Series {
    /// A solid line of colour and marker `style`.
    pub fn new(name: impl Into<String>, style: usize, points: Vec<(f64, Option<f64>)>) -> Series {
        Series {
            name: name.into(),
            points,
            style,
            dashed: false,
        }
    }

    /// The same, dashed.
    pub fn dashed(mut self) -> Series {
        self.dashed = true;
        self
    }
}

/// The text on top of a plot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Title<'a> {
    /// What the plot shows.
    pub title: &'a str,
    /// Where the data came from: board, size, seed (see [`caption`]).
    pub caption: &'a str,
}

/// Axis labels and scales of a chart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axes<'a> {
    /// x axis.
    pub x: &'a str,
    /// y axis.
    pub y: &'a str,
    /// How x is mapped and labelled.
    pub x_scale: Scale,
    /// How y is mapped and labelled.
    pub y_scale: Scale,
}

/// One chart of a figure: a heading (may be empty), its axes and its lines.
#[derive(Clone, Copy, Debug)]
pub struct Panel<'a> {
    /// Above the chart, under the title.
    pub heading: &'a str,
    /// Axes.
    pub axes: Axes<'a>,
    /// Lines.
    pub series: &'a [Series],
}

/// Why a plot could not be drawn: plotters' own error, or the SVG file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// Drawing into memory failed.
    #[error(transparent)]
    Draw(#[from] DrawingAreaErrorKind<std::io::Error>),
    /// Writing the drawn SVG failed (a link or FIFO at its name, a full disk).
    #[error(transparent)]
    Write(#[from] shards::FileError),
}

/// The result of drawing one plot.
pub type PlotResult = Result<(), PlotError>;

/// The caption every board study's plots carry: size, board and seed (and anything more).
///
/// ```
/// assert_eq!(
///     studies::plot::caption(3, "nucleo-f446re", 4, "20 boards per cell"),
///     "M=3 · board nucleo-f446re · seed 4 · 20 boards per cell"
/// );
/// ```
pub fn caption(size: u8, board: &str, seed: u64, more: &str) -> String {
    let mut c = format!("M={size} · board {board} · seed {seed}");
    if !more.is_empty() {
        c.push_str(" · ");
        c.push_str(more);
    }
    c
}

/// Tick positions of an axis over `range`; `data` are the values plotted (a [`Scale::Log`]
/// axis is ticked at them).
pub fn ticks(scale: Scale, range: (f64, f64), data: &[f64]) -> Vec<f64> {
    let (lo, hi) = range;
    match scale {
        Scale::Log => {
            let mut t: Vec<f64> = data
                .iter()
                .copied()
                .filter(|v| v.is_finite() && *v > 0.0)
                .collect();
            t.sort_by(f64::total_cmp);
            t.dedup();
            t
        }
        Scale::LogCount | Scale::LogPercent => {
            // Powers of ten from 1 (counts) or from the one at or below lo, each computed
            // directly so that no error accumulates; 2, 3 and 5 times them too when fewer than
            // two powers fall in the range.
            let first = if scale == Scale::LogCount {
                0
            } else {
                lo.log10().floor() as i32
            };
            let inside = |v: &f64| *v >= lo * (1.0 - 1e-12) && *v <= hi * (1.0 + 1e-12);
            let powers = first..=hi.log10().floor() as i32;
            let t: Vec<f64> = powers
                .clone()
                .map(|e| 10f64.powi(e))
                .filter(inside)
                .collect();
            if t.len() >= 2 {
                return t;
            }
            powers
                .flat_map(|e| [1.0, 2.0, 3.0, 5.0].map(|m| m * 10f64.powi(e)))
                .filter(inside)
                .collect()
        }
        Scale::Linear | Scale::Percent | Scale::Integer => {
            // Integers tick at every one up to 16 of them (bits 6..=16 all labelled).
            let per = if scale == Scale::Integer { 16.0 } else { 8.0 };
            let step = nice_step((hi - lo) / per, scale == Scale::Integer);
            let first = (lo / step).ceil() as i64;
            let last = (hi / step).floor() as i64;
            (first..=last).map(|i| i as f64 * step).collect()
        }
    }
}

/// The smallest of 1, 2, 5 × 10^k at least `raw` (at least 1 for integers).
fn nice_step(raw: f64, integer: bool) -> f64 {
    let raw = if raw.is_finite() && raw > 0.0 {
        raw
    } else {
        1.0
    };
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag);
    if integer { step.max(1.0).round() } else { step }
}

/// A tick's label: integers without a decimal point (`6`, `180,000`), fractions in percent,
/// decimals without trailing zeros.
///
/// ```
/// use studies::plot::{Scale, tick_label};
/// assert_eq!(tick_label(Scale::Integer, 6.0), "6");
/// assert_eq!(tick_label(Scale::LogCount, 180_000.0), "180,000");
/// assert_eq!(tick_label(Scale::Percent, 0.0035), "0.35");
/// assert_eq!(tick_label(Scale::Log, 0.1), "0.1");
/// ```
pub fn tick_label(scale: Scale, v: f64) -> String {
    match scale {
        Scale::Integer | Scale::LogCount => {
            if (v - v.round()).abs() < 1e-9 {
                integer_text(v.round() as i64)
            } else {
                String::new()
            }
        }
        Scale::Percent | Scale::LogPercent => decimal_text(100.0 * v),
        Scale::Linear | Scale::Log => decimal_text(v),
    }
}

/// An integer with commas between thousands: `180,000`.
pub fn integer_text(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

/// A decimal with no trailing zeros (`14`, `0.35`, `0.000015`, never `-0`): at least 6
/// decimals, and 3 significant digits for smaller values.
fn decimal_text(v: f64) -> String {
    let decimals = if v == 0.0 || !v.is_finite() {
        6
    } else {
        (2 - v.abs().log10().floor() as i32).clamp(6, 15) as usize
    };
    let s = format!("{v:.decimals$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else if let Some(int) = s.strip_prefix('-').filter(|t| !t.contains('.')) {
        format!("-{}", integer_text(int.parse().unwrap_or(0)))
    } else if !s.contains('.') {
        integer_text(s.parse().unwrap_or(0))
    } else {
        s.to_string()
    }
}

/// An axis: its range, linear or log, and the ticks it shows (no light grid lines).
#[derive(Clone, Debug)]
struct Axis {
    range: Range<f64>,
    log: bool,
    ticks: Vec<f64>,
}

impl Axis {
    /// The axis of `scale` over the values `data`: a linear axis always shows 0, a log axis
    /// spans the positive values (a count axis from half a count, under a single one).
    fn new(scale: Scale, data: &[f64]) -> Axis {
        let usable = |v: &f64| v.is_finite() && (!scale.is_log() || *v > 0.0);
        let min = data
            .iter()
            .copied()
            .filter(usable)
            .fold(f64::INFINITY, f64::min);
        let max = data
            .iter()
            .copied()
            .filter(usable)
            .fold(f64::NEG_INFINITY, f64::max);
        let (min, max) = if min.is_finite() {
            (min, max)
        } else {
            (1.0, 1.0)
        };
        let range = match scale {
            Scale::Log => (min / 1.25)..(max * 1.25),
            Scale::LogPercent => (min / 1.6)..(max * 1.6),
            Scale::LogCount => 0.5..(max.max(1.0) * 4.0),
            Scale::Linear | Scale::Percent | Scale::Integer => {
                let (lo, hi) = (min.min(0.0), max.max(0.0));
                let span = if hi > lo {
                    hi - lo
                } else if scale == Scale::Percent {
                    0.01
                } else {
                    1.0
                };
                let lo = if lo < 0.0 { lo - 0.05 * span } else { lo };
                lo..(hi.max(lo + span) + 0.05 * span)
            }
        };
        let ticks = ticks(scale, (range.start, range.end), data);
        Axis {
            range,
            log: scale.is_log(),
            ticks,
        }
    }

    /// The same over the data's own x values (an x axis of integers starts at the first).
    fn new_x(scale: Scale, data: &[f64]) -> Axis {
        let mut axis = Axis::new(scale, data);
        if scale == Scale::Integer {
            let finite = || data.iter().copied().filter(|v| v.is_finite());
            let min = finite().fold(f64::INFINITY, f64::min);
            let max = finite().fold(f64::NEG_INFINITY, f64::max);
            if min.is_finite() {
                axis.range = (min.floor() - 0.5)..(max.ceil() + 0.5);
                axis.ticks = ticks(scale, (axis.range.start, axis.range.end), data);
            }
        } else if scale != Scale::Log {
            let min = data.iter().copied().fold(f64::INFINITY, f64::min);
            let max = data.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if min.is_finite() && max > min {
                axis.range = min..max;
                axis.ticks = ticks(scale, (min, max), data);
            }
        }
        axis
    }

    fn fraction(&self, v: f64) -> f64 {
        let Range { start, end } = self.range;
        if self.log {
            (v.max(start).ln() - start.ln()) / (end.ln() - start.ln())
        } else {
            (v - start) / (end - start)
        }
    }
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let t = self.fraction(*value);
        limit.0 + (f64::from(limit.1 - limit.0) * t + 1e-3).floor() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// A marker: a filled outline around its point.
type Marker<C, DB> = ComposedElement<C, DB, Polygon<BackendCoord>, PathElement<BackendCoord>>;

/// The outline of marker shape `style`, in pixels around the point.
fn marker_shape(style: usize) -> Vec<BackendCoord> {
    let round = |r: f64, corners: i32, turn: f64| -> Vec<BackendCoord> {
        (0..corners)
            .map(|k| {
                let a = (f64::from(k) / f64::from(corners) + turn) * std::f64::consts::TAU;
                ((r * a.cos()).round() as i32, (r * a.sin()).round() as i32)
            })
            .collect()
    };
    match style % MARKERS {
        0 => round(4.5, 12, 0.0),
        1 => vec![(0, -6), (5, 4), (-5, 4)],
        2 => vec![(-4, -4), (4, -4), (4, 4), (-4, 4)],
        3 => vec![(0, -6), (5, 0), (0, 6), (-5, 0)],
        4 => vec![
            (-5, -5),
            (0, -1),
            (5, -5),
            (6, -4),
            (1, 0),
            (6, 4),
            (5, 5),
            (0, 1),
            (-5, 5),
            (-6, 4),
            (-1, 0),
            (-6, -4),
        ],
        5 => vec![(0, 6), (5, -4), (-5, -4)],
        6 => vec![
            (-1, -6),
            (1, -6),
            (1, -1),
            (6, -1),
            (6, 1),
            (1, 1),
            (1, 6),
            (-1, 6),
            (-1, 1),
            (-6, 1),
            (-6, -1),
            (-1, -1),
        ],
        _ => round(5.0, 6, 0.25),
    }
}

/// The marker of `style` at `at`, in `colour`: its outline over a translucent fill, so that
/// markers of series with equal values stay visible on top of each other.
fn marker<C: Clone, DB: DrawingBackend>(style: usize, at: C, colour: RGBColor) -> Marker<C, DB> {
    let outline = marker_shape(style);
    let mut closed = outline.clone();
    closed.extend(outline.first().copied());
    EmptyElement::at(at)
        + Polygon::new(outline, colour.mix(0.3).filled())
        + PathElement::new(closed, colour.stroke_width(2))
}

fn colour(style: usize) -> RGBColor {
    PALETTE[style % PALETTE.len()]
}

/// Draws the title and caption; returns the area under them.
fn titled<'a>(
    root: &DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
    title: Title<'_>,
) -> Result<DrawingArea<SVGBackend<'a>, plotters::coord::Shift>, PlotError> {
    root.fill(&WHITE)?;
    let area = root.titled(title.title, ("sans-serif", 20))?;
    let grey = RGBColor(0x44, 0x44, 0x44);
    Ok(area.titled(title.caption, ("sans-serif", 14).into_font().color(&grey))?)
}

/// Width of the legend beside the charts, pixels.
const LEGEND: u32 = 210;

/// A figure of line charts side by side, one per panel, the legend (every series name once)
/// to their right.
pub fn lines(path: &Path, title: Title<'_>, panels: &[Panel<'_>]) -> PlotResult {
    let width = LEGEND + 620 * panels.len().max(1) as u32;
    svg_file(path, (width, 500), |root| {
        lines_on(root, width, title, panels)
    })
}

fn lines_on(root: &Svg<'_>, width: u32, title: Title<'_>, panels: &[Panel<'_>]) -> PlotResult {
    let area = titled(root, title)?;
    let (charts, legend_area) = area.split_horizontally(width - LEGEND);
    let cells = charts.split_evenly((1, panels.len().max(1)));
    let mut legend: Vec<&Series> = Vec::new();
    for (cell, panel) in cells.iter().zip(panels) {
        let xs: Vec<f64> = panel
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .collect();
        let ys: Vec<f64> = panel
            .series
            .iter()
            .flat_map(|s| s.points.iter().filter_map(|p| p.1))
            .collect();
        let (x_axis, y_axis) = (
            Axis::new_x(panel.axes.x_scale, &xs),
            Axis::new(panel.axes.y_scale, &ys),
        );
        let mut builder = ChartBuilder::on(cell);
        builder
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(70);
        if !panel.heading.is_empty() {
            builder.caption(panel.heading, ("sans-serif", 16));
        }
        let mut chart = builder.build_cartesian_2d(x_axis, y_axis)?;
        let (x_scale, y_scale) = (panel.axes.x_scale, panel.axes.y_scale);
        chart
            .configure_mesh()
            .x_desc(panel.axes.x)
            .y_desc(panel.axes.y)
            .bold_line_style(BLACK.mix(0.12))
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .x_label_formatter(&|v| tick_label(x_scale, *v))
            .y_label_formatter(&|v| tick_label(y_scale, *v))
            .draw()?;
        for s in panel.series {
            let c = colour(s.style);
            for run in runs(&s.points) {
                if s.dashed {
                    chart.draw_series(DashedLineSeries::new(
                        run.clone(),
                        8,
                        5,
                        c.stroke_width(2),
                    ))?;
                } else {
                    chart.draw_series(LineSeries::new(run.clone(), c.stroke_width(2)))?;
                }
                chart.draw_series(run.iter().map(|&p| marker(s.style, p, c)))?;
            }
            if !legend
                .iter()
                .any(|l| l.name == s.name && l.style == s.style && l.dashed == s.dashed)
            {
                legend.push(s);
            }
        }
    }
    draw_legend(&legend_area, &legend)?;
    Ok(())
}

/// The unbroken runs of a series' points.
fn runs(points: &[(f64, Option<f64>)]) -> Vec<Vec<(f64, f64)>> {
    let mut out = vec![Vec::new()];
    for &(x, y) in points {
        match y {
            Some(y) if y.is_finite() => out.last_mut().map_or((), |r| r.push((x, y))),
            _ => out.push(Vec::new()),
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

/// The legend: a line sample with its marker and the name, one series a row.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    series: &[&Series],
) -> PlotResult {
    let font = ("sans-serif", 13).into_font();
    let text = font
        .into_text_style(area)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, s) in series.iter().enumerate() {
        let y = 40 + 24 * i as i32;
        let c = colour(s.style);
        if s.dashed {
            area.draw(&DashedPathElement::new(
                vec![(8, y), (48, y)],
                8,
                5,
                c.stroke_width(2),
            ))?;
        } else {
            area.draw(&PathElement::new(vec![(8, y), (48, y)], c.stroke_width(2)))?;
        }
        area.draw(&marker(s.style, (28, y), c))?;
        area.draw_text(&s.name, &text, (56, y))?;
    }
    Ok(())
}

/// A bar chart of counts per bin: bin i spans edge i to edge i + 1 and is labelled at its edges
/// (`edges` has one label more than `counts`); each bar carries its count; `marks` are dashed
/// vertical lines at edges, with a label on top. `axes.y_scale` is [`Scale::LogCount`] for a
/// tail that must stay visible or [`Scale::Integer`].
pub fn histogram(
    path: &Path,
    title: Title<'_>,
    axes: Axes<'_>,
    edges: &[String],
    counts: &[u64],
    marks: &[(usize, String)],
) -> PlotResult {
    svg_file(path, (900, 520), |root| {
        histogram_on(root, title, axes, edges, counts, marks)
    })
}

fn histogram_on(
    root: &Svg<'_>,
    title: Title<'_>,
    axes: Axes<'_>,
    edges: &[String],
    counts: &[u64],
    marks: &[(usize, String)],
) -> PlotResult {
    let area = titled(root, title)?;
    let n = counts.len().max(1);
    let top = counts.iter().copied().max().unwrap_or(0) as f64;
    let x_axis = Axis {
        range: 0.0..n as f64,
        log: false,
        ticks: (0..=n).map(|i| i as f64).collect(),
    };
    let y_axis = Axis::new(axes.y_scale, &[0.0, top]);
    let bottom = y_axis.range.start.max(0.0);
    let mut chart = ChartBuilder::on(&area)
        .margin(12)
        .margin_top(28)
        .x_label_area_size(50)
        .y_label_area_size(75)
        .build_cartesian_2d(x_axis, y_axis)?;
    let ys = axes.y_scale;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(axes.x)
        .y_desc(axes.y)
        .bold_line_style(BLACK.mix(0.12))
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 14))
        .x_label_formatter(&|v| edges.get(v.round() as usize).cloned().unwrap_or_default())
        .y_label_formatter(&|v| tick_label(ys, *v))
        .draw()?;
    let bar = PALETTE[0];
    chart.draw_series(
        counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, &c)| {
                Rectangle::new(
                    [(i as f64 + 0.1, bottom), (i as f64 + 0.9, c as f64)],
                    bar.mix(0.85).filled(),
                )
            }),
    )?;
    let small = ("sans-serif", 11)
        .into_font()
        .into_text_style(&area)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    chart.draw_series(
        counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, &c)| {
                EmptyElement::at((i as f64 + 0.5, c as f64))
                    + Text::new(integer_text(c as i64), (0, -3), small.clone())
            }),
    )?;
    let grey = RGBColor(0x55, 0x55, 0x55);
    let label = ("sans-serif", 12)
        .into_font()
        .color(&grey)
        .into_text_style(&area)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    let y_top = chart.y_range().end;
    for (edge, text) in marks {
        let x = *edge as f64;
        chart.draw_series(DashedLineSeries::new(
            vec![(x, bottom), (x, y_top)],
            6,
            4,
            grey.stroke_width(1),
        ))?;
        chart.draw_series(std::iter::once(
            EmptyElement::at((x, y_top)) + Text::new(text.clone(), (0, -4), label.clone()),
        ))?;
    }
    Ok(())
}

/// An SVG drawing area drawn into memory.
pub type Svg<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// Draws an SVG of `size` pixels into memory with `draw`, then writes it to `path` through
/// the one writer (`shards::safe`: no link followed, whole or not at all), where plotters'
/// own file backend would create the file through a link planted at its name.
pub fn svg_file(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&Svg<'_>) -> PlotResult,
) -> PlotResult {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root)?;
        root.present()?;
    }
    Ok(shards::safe::write_file(path, text.as_bytes())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_axes_print_integers() {
        let t = ticks(Scale::Integer, (5.5, 16.5), &[6.0, 16.0]);
        assert!(t.iter().all(|v| v.fract() == 0.0), "{t:?}");
        let labels: Vec<String> = t.iter().map(|&v| tick_label(Scale::Integer, v)).collect();
        assert_eq!(labels.first().map(String::as_str), Some("6"));
        assert!(labels.contains(&"7".to_string()), "{labels:?}");
        assert!(labels.iter().all(|l| !l.contains('.')), "{labels:?}");
        // A short range still ticks at integers only, never at 0.5.
        let t = ticks(Scale::Integer, (-0.5, 2.5), &[0.0, 2.0]);
        assert_eq!(t, vec![0.0, 1.0, 2.0]);
        assert_eq!(tick_label(Scale::Integer, 2.5), "");
        assert_eq!(tick_label(Scale::Integer, 180_000.0), "180,000");
        assert_eq!(tick_label(Scale::Integer, -12.0), "-12");
    }

    #[test]
    fn decimals_lose_trailing_zeros() {
        assert_eq!(tick_label(Scale::Linear, 14.0), "14");
        assert_eq!(tick_label(Scale::Linear, 0.25), "0.25");
        assert_eq!(tick_label(Scale::Linear, -0.0), "0");
        assert_eq!(tick_label(Scale::Log, 1000.0), "1,000");
        assert_eq!(tick_label(Scale::Log, 0.5), "0.5");
        // 0.0035 · 100 is 0.35000000000000003 in f64.
        assert_eq!(tick_label(Scale::Percent, 0.0035), "0.35");
        assert_eq!(tick_label(Scale::Percent, 0.15), "15");
    }

    #[test]
    fn log_count_axis_ticks_powers_of_ten() {
        let axis = Axis::new(Scale::LogCount, &[0.0, 208.0]);
        assert!(axis.log);
        assert_eq!(axis.ticks, vec![1.0, 10.0, 100.0]);
        // One decision sits visibly above the floor, and a thousand halfway to a million.
        assert!(axis.fraction(1.0) > 0.05);
        let axis = Axis::new(Scale::LogCount, &[0.0, 1e6]);
        assert!((axis.fraction(1e3) - axis.fraction(1e6) / 2.0).abs() < 0.06);
        let labels: Vec<String> = axis
            .ticks
            .iter()
            .map(|&v| tick_label(Scale::LogCount, v))
            .collect();
        assert_eq!(
            labels,
            ["1", "10", "100", "1,000", "10,000", "100,000", "1,000,000"]
        );
    }

    #[test]
    fn log_percent_axes_tick_decades() {
        // Losses from 3 % of the supply down to 1 LSB at 16 bits.
        let axis = Axis::new(Scale::LogPercent, &[0.029, 1.0 / 65536.0]);
        assert!(axis.log);
        assert_eq!(axis.ticks, vec![1e-5, 1e-4, 1e-3, 1e-2]);
        let labels: Vec<String> = axis
            .ticks
            .iter()
            .map(|&v| tick_label(Scale::LogPercent, v))
            .collect();
        assert_eq!(labels, ["0.001", "0.01", "0.1", "1"]);
        assert_eq!(tick_label(Scale::LogPercent, 1.5e-7), "0.000015");
        // Less than a decade: 1, 2, 3, 5 steps.
        let axis = Axis::new(Scale::LogPercent, &[0.021, 0.03]);
        assert_eq!(axis.ticks, vec![0.02, 0.03]);
    }

    #[test]
    fn log_axes_tick_at_the_values_studied() {
        let xs = [0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 0.1];
        assert_eq!(
            ticks(Scale::Log, (0.08, 12.5), &xs),
            vec![0.1, 0.5, 1.0, 2.0, 5.0, 10.0]
        );
        let x = Axis::new_x(Scale::Log, &xs);
        assert!(x.range.start < 0.1 && x.range.end > 10.0);
    }

    #[test]
    fn percent_axes_step_nicely_and_show_zero() {
        let y = Axis::new(Scale::Percent, &[0.0, 0.004]);
        assert_eq!(y.range.start, 0.0);
        let labels: Vec<String> = y
            .ticks
            .iter()
            .map(|&v| tick_label(Scale::Percent, v))
            .collect();
        assert_eq!(labels.first().map(String::as_str), Some("0"));
        assert!(labels.contains(&"0.4".to_string()), "{labels:?}");
        // Nothing measured: still a readable axis.
        let y = Axis::new(Scale::Percent, &[0.0, 0.0]);
        assert!(y.range.end > 0.0 && y.ticks.len() >= 2);
    }

    #[test]
    fn gaps_split_lines() {
        let r = runs(&[
            (1.0, Some(1.0)),
            (2.0, None),
            (3.0, Some(2.0)),
            (4.0, Some(3.0)),
        ]);
        assert_eq!(r, vec![vec![(1.0, 1.0)], vec![(3.0, 2.0), (4.0, 3.0)]]);
    }
}
