//! The README's table of ranges is the bounds table in `src/bounds.rs`, row for row; every
//! built-in profile is inside it; and an out-of-range value's error names the field, the
//! value and the range.

use boards::bounds::{BOUNDS, Bound};

fn row(b: &Bound) -> String {
    let fields: Vec<String> = b.fields.iter().map(|f| format!("`{f}`")).collect();
    format!(
        "| {} | {}..={} | {} |",
        fields.join(", "),
        b.min,
        b.max,
        b.why
    )
}

#[test]
fn the_readme_table_is_the_bounds_table() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("boards/README.md");
    let rows: Vec<String> = BOUNDS.iter().map(|b| row(b)).collect();
    let table = rows.join("\n");
    assert!(
        readme.contains(&table),
        "boards/README.md should hold this table:\n{table}"
    );
}

#[test]
fn the_built_in_profiles_are_inside_the_bounds() {
    for p in boards::PROFILES {
        assert_eq!(p.validate(), Ok(()), "{}", p.name);
    }
}

#[test]
fn an_out_of_range_value_names_field_value_and_range() {
    let mut p = boards::NUCLEO_F446RE;
    p.resistors.nominal_ohms = 4_000_000_000;
    assert_eq!(
        p.validate().unwrap_err().to_string(),
        "resistors.nominal_ohms = 4000000000 is out of range (100..=1000000)"
    );
    let mut p = boards::NUCLEO_F446RE;
    p.adc.reference = boards::AdcReference::Fixed { millivolts: 1 };
    assert_eq!(
        p.validate().unwrap_err().to_string(),
        "adc.reference = 1 is out of range (1000..=5500)"
    );
    let mut p = boards::NUCLEO_F446RE;
    p.fixture.as_mut().unwrap().switch_on_milliohms = 1;
    assert_eq!(
        p.validate().unwrap_err().to_string(),
        "fixture.switch_on_milliohms = 1 is out of range (100..=1000000)"
    );
}
