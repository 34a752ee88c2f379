//! The report's plot (`plot.svg`): per step, the worst distance of a node's code from its
//! prediction, against the band the profile allows, coloured by class, so a wiring fault
//! or a drifting part stands out at a glance. plotters' SVG backend: no fonts to load, text
//! stays text.

use std::path::Path;

use plotters::prelude::*;

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

/// One step on the plot: its worst |code - prediction| and its class.
pub type Point = (u16, Class);

/// What drawing the SVG can fail with: plotters' own error over the file's I/O.
pub type PlotError = plotters::drawing::DrawingAreaErrorKind<std::io::Error>;

/// Draws `points` (one per step, in report order) with the band as a horizontal line, and
/// writes the SVG to `path`. An empty report gives empty axes.
pub fn deviations(
    path: &Path,
    title: &str,
    points: &[Point],
    band: Option<u16>,
) -> Result<(), PlotError> {
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let steps = points.len();
    let top = points
        .iter()
        .map(|p| p.0)
        .chain(band)
        .max()
        .unwrap_or(0)
        .max(1);
    let y1 = f64::from(top) * 1.1 + 1.0;
    let x1 = steps.max(1) as f64 + 0.5;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.5..x1, 0.0..y1)?;
    chart
        .configure_mesh()
        .x_desc("step")
        .y_desc("worst |code - prediction| (codes)")
        .disable_x_mesh()
        .draw()?;
    if let Some(band) = band {
        let y = f64::from(band);
        chart
            .draw_series(LineSeries::new([(0.5, y), (x1, y)], RED.stroke_width(1)))?
            .label(format!("band ±{band} codes"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], RED));
    }
    for (class, color) in CLASSES {
        let mine: Vec<(f64, f64)> = points
            .iter()
            .enumerate()
            .filter(|(_, p)| p.1 == class)
            .map(|(i, p)| ((i + 1) as f64, f64::from(p.0)))
            .collect();
        if mine.is_empty() {
            continue;
        }
        chart
            .draw_series(mine.iter().map(|&p| Circle::new(p, 2, color.filled())))?
            .label(format!("{class:?}: {}", mine.len()))
            .legend(move |(x, y)| Rectangle::new([(x, y - 4), (x + 8, y + 4)], color.filled()));
    }
    if band.is_some() || !points.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    }
    root.present()?;
    Ok(())
}
