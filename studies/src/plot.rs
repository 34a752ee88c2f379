//! The studies' plots, as SVG (plotters' SVG backend: no fonts to load, text stays text).

use std::path::Path;

use plotters::prelude::*;

/// One named line of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend.
    pub name: String,
    /// Points in x order.
    pub points: Vec<(f64, f64)>,
}

/// Labels of a chart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axes<'a> {
    /// Title on top.
    pub title: &'a str,
    /// x axis.
    pub x: &'a str,
    /// y axis.
    pub y: &'a str,
    /// Log-scale x axis.
    pub log_x: bool,
}

/// Why a plot could not be drawn: the SVG file could not be written, or plotters' own error.
pub type PlotError = DrawingAreaErrorKind<std::io::Error>;

/// The result of drawing one plot.
pub type PlotResult = Result<(), PlotError>;

/// Line chart of `series` (the y axis always shows 0).
pub fn lines(path: &Path, axes: Axes<'_>, series: &[Series]) -> PlotResult {
    lines_with(path, axes, series, false)
}

/// The same with an x axis of integers (vertex counts, sizes): ticks only at integers.
pub fn lines_integer_x(path: &Path, axes: Axes<'_>, series: &[Series]) -> PlotResult {
    lines_with(path, axes, series, true)
}

fn lines_with(path: &Path, axes: Axes<'_>, series: &[Series], integer_x: bool) -> PlotResult {
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x0, x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let (x0, x1) = if x0.is_finite() {
        (x0, x1.max(x0 + 1e-9))
    } else {
        (0.0, 1.0)
    };
    let ys = || series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let y0 = ys().fold(0.0f64, f64::min) * 1.05;
    let y1 = (ys().fold(0.0f64, f64::max) * 1.05).max(y0 + 1e-9);
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(axes.title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70);
    if axes.log_x {
        let mut chart = builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1)?;
        draw_chart(&mut chart, axes, series, None)?;
    } else if integer_x {
        let (x0, x1) = (x0.floor() - 0.5, x1.ceil() + 0.5);
        let mut chart = builder.build_cartesian_2d(x0..x1, y0..y1)?;
        let ticks = (x1 - x0) as usize + 1;
        draw_chart(&mut chart, axes, series, Some(ticks))?;
    } else {
        let mut chart = builder.build_cartesian_2d(x0..x1, y0..y1)?;
        draw_chart(&mut chart, axes, series, None)?;
    }
    root.present()?;
    Ok(())
}

/// Axes, grid, the lines and their legend on a chart of any x coordinate; with
/// `integer_ticks`, at most that many x labels, printed only where x is an integer.
fn draw_chart<'a, DB, X>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, plotters::coord::types::RangedCoordf64>>,
    axes: Axes<'_>,
    series: &[Series],
    integer_ticks: Option<usize>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    X: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let integer = |x: &f64| {
        if (x - x.round()).abs() < 1e-9 {
            format!("{}", x.round() as i64)
        } else {
            String::new()
        }
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(axes.x).y_desc(axes.y);
    if let Some(ticks) = integer_ticks {
        mesh.x_labels(ticks).x_label_formatter(&integer);
    }
    mesh.draw()?;
    for (i, s) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                color.stroke_width(2),
            ))?
            .label(s.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Bar chart of counts per labelled bin.
pub fn histogram(path: &Path, axes: Axes<'_>, bins: &[(String, u64)]) -> PlotResult {
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = bins.iter().map(|b| b.1).max().unwrap_or(0).max(1) as f64 * 1.05;
    let n = bins.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(axes.title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(60)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..n as f64, 0.0..top)?;
    let labels: Vec<String> = bins.iter().map(|b| b.0.clone()).collect();
    chart
        .configure_mesh()
        .x_desc(axes.x)
        .y_desc(axes.y)
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            labels.get(i).cloned().unwrap_or_default()
        })
        .draw()?;
    chart.draw_series(bins.iter().enumerate().map(|(i, b)| {
        Rectangle::new(
            [(i as f64 + 0.1, 0.0), (i as f64 + 0.9, b.1 as f64)],
            BLUE.mix(0.6).filled(),
        )
    }))?;
    root.present()?;
    Ok(())
}
