//! clap's value parsers for the run's options (feature `clap`): each says what is wrong in
//! words, the number parsers through [`heuristic::whole`], the one whole-number reader.

use crate::dut::Stage;

/// A `--stage`: one of the three a run is asked for by name (`--compare-sil` puts SIL beside).
pub fn stage(text: &str) -> Result<Stage, String> {
    text.parse::<Stage>().map_err(|_| {
        format!(
            "{} (expected {})",
            heuristic::Echo(text),
            boards::Listed(Stage::ALL.map(Stage::arg), " or ")
        )
    })
}

/// Any option read through its type's `FromStr`, whose error says what is wrong.
pub fn parsed<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| e.to_string())
}

/// A whole number in `low..=high` that says the range in words (`-3`, `9` and `many`
/// alike): the one parser of every binary ([`shards::whole`]), its error as text.
pub fn whole(low: u64, high: u64) -> impl Fn(&str) -> Result<u64, String> + Clone {
    let whole = shards::whole::<u64>(low, high);
    move |text| whole(text).map_err(|e| e.to_string())
}

/// A seed: any whole number a `u64` holds.
pub fn seed(text: &str) -> Result<u64, String> {
    whole(0, u64::MAX)(text)
}

/// M as a whole number from 2 to 8, said so in words.
pub fn m(text: &str) -> Result<u32, String> {
    let (low, high) = (heuristic::MIN_SIZE, heuristic::MAX_SIZE);
    Ok(whole(low.into(), high.into())(text)? as u32)
}

/// A game count: a whole number from 1 (a run of no game is a typo, not a run).
pub fn games(text: &str) -> Result<u32, String> {
    let n = whole(1, u64::MAX)(text)?;
    u32::try_from(n).map_err(|_| format!("must be a whole number from 1 to {}", u32::MAX))
}

/// A trial count of the glitch campaign.
pub fn trials(text: &str) -> Result<u64, String> {
    whole(1, 10_000_000)(text)
}

/// `--pace-ms`: a visitor's turn, up to ten minutes.
pub fn pace_ms(text: &str) -> Result<u64, String> {
    whole(0, 600_000)(text)
}
