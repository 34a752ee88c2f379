//! What a committed snapshot (insta) holds of a file whose bytes move for reasons no reader
//! cares about: one place, so the studies' SVGs (`birdcage/tests/formats.rs`) and the bench's
//! plot (`hil-tests/tests/formats.rs`) are normalised alike.

/// An SVG as its snapshot holds it: one element a line (plotters writes them so), every
/// number with more than one decimal rounded to one. A moved point or a changed font shows
/// as a readable line of the diff, and a float's last digit, which a compiler's or a
/// library's rounding may move, does not.
pub fn svg_normalised(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut chars = svg.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_digit() {
            out.push(c);
            continue;
        }
        let mut number = String::from(c);
        while let Some(&d) = chars.peek() {
            if d.is_ascii_digit() || (d == '.' && !number.contains('.')) {
                number.push(d);
                chars.next();
            } else {
                break;
            }
        }
        match number.split_once('.') {
            Some((_, decimals)) if decimals.len() > 1 => {
                let value: f64 = number.parse().expect("digits and one point");
                out += &format!("{value:.1}");
            }
            _ => out += &number,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::svg_normalised;

    #[test]
    fn svg_numbers_are_rounded_to_one_decimal_and_nothing_else_changes() {
        assert_eq!(
            svg_normalised(r#"<circle cx="12.3456" cy="7" r="2.5"/><text>M=3 · 0.04 %</text>"#),
            r#"<circle cx="12.3" cy="7" r="2.5"/><text>M=3 · 0.0 %</text>"#
        );
    }
}
