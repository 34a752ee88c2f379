//! Colours: the viridis heat scale for currents (perceptually even and colour-blind safe, as
//! the terminal game's `v` uses) and Okabe and Ito's pair for the two sides.

/// Short's colour (Okabe–Ito blue): wires, Short's dots and bridges.
pub const SHORT: &str = "#0072b2";
/// Cut's colour (Okabe–Ito vermillion): cuts, Cut's dots and bridges.
pub const CUT: &str = "#d55e00";

/// Viridis at eleven even steps (matplotlib's table).
const VIRIDIS: [(u8, u8, u8); 11] = [
    (0x44, 0x01, 0x54),
    (0x48, 0x28, 0x78),
    (0x3e, 0x4a, 0x89),
    (0x31, 0x68, 0x8e),
    (0x26, 0x82, 0x8e),
    (0x1f, 0x9e, 0x89),
    (0x35, 0xb7, 0x79),
    (0x6d, 0xcd, 0x59),
    (0xb4, 0xde, 0x2c),
    (0xd8, 0xe2, 0x19),
    (0xfd, 0xe7, 0x25),
];

/// Viridis at `t` in 0..=1 (dark purple for none, yellow for the most), as `#rrggbb`.
///
/// ```
/// assert_eq!(birdcage_web::colour::viridis(0.0), "#440154");
/// assert_eq!(birdcage_web::colour::viridis(1.0), "#fde725");
/// ```
pub fn viridis(t: f64) -> String {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |p: u8, q: u8| (f64::from(p) + (f64::from(q) - f64::from(p)) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}
