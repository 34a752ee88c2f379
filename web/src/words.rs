//! What the page says in words: each edge on hover or tap, the ranking of the drops (exact
//! ties marked exact, from `emulator::share` as `birdcage analyze` words them), why the
//! machine made its last move, the heat legend.

use std::fmt::Write as _;

use heuristic::{EdgeState, Side};
use num_rational::BigRational;

use crate::colour::viridis;
use crate::game::{Drops, Game};
use crate::html::escape;

/// The digits that rank the drops apart (as `analyze` prints them).
fn digits(drops: &Drops) -> usize {
    emulator::share::digits_to_rank(drops.drops.iter().flatten())
}

fn percent(d: &BigRational, digits: usize) -> String {
    emulator::share::percent(d, digits)
}

/// "1st", "2nd", …
/// Names shown in a list before the rest are counted.
pub const FEW: usize = 5;

/// `names` as a list, the first [`FEW`] named and the rest counted (`A1, B2, C3, D4, E5 and
/// 59 more`): an M=8 panel listed 64 names and then 56.
///
/// ```
/// # use birdcage_web::words::some_of;
/// assert_eq!(some_of(&["A1", "B2"]), "A1, B2");
/// let seven = ["A1", "B2", "C3", "D4", "E5", "F6", "G7"];
/// assert_eq!(some_of(&seven), "A1, B2, C3, D4, E5 and 2 more");
/// ```
pub fn some_of(names: &[impl AsRef<str>]) -> String {
    let shown: Vec<&str> = names.iter().take(FEW).map(AsRef::as_ref).collect();
    match names.len().checked_sub(FEW) {
        Some(more) if more > 0 => format!("{} and {more} more", shown.join(", ")),
        _ => shown.join(", "),
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Each edge's line for hover and tap: its state, its drop, its rank, exact ties.
pub fn edge_info(game: &Game, drops: &Drops) -> Vec<String> {
    let names = game.names();
    let states = game.states();
    let digits = digits(drops);
    let resistors = drops.drops.iter().flatten().count();
    let side = game.to_move();
    (0..names.len())
        .map(|e| {
            let name = &names[e];
            match (states[e], &drops.drops[e]) {
                (EdgeState::Cut, _) => format!("{name}: cut (a gap where Cut removed it)"),
                (EdgeState::Short, _) => {
                    format!("{name}: a wire (Short replaced the resistor)")
                }
                (EdgeState::Resistor, None) => format!("{name}: a resistor"),
                (EdgeState::Resistor, Some(d)) => {
                    let rank = 1 + drops.drops.iter().flatten().filter(|o| *o > d).count();
                    let equal: Vec<&str> = (0..names.len())
                        .filter(|&f| f != e && drops.drops[f].as_ref() == Some(d))
                        .map(|f| names[f].as_str())
                        .collect();
                    let mut s = format!(
                        "{name}: resistor, drop {} % of the supply, the {} largest of {resistors}",
                        percent(d, digits),
                        ordinal(rank)
                    );
                    if !equal.is_empty() {
                        let _ = write!(s, ", exactly equal to {}", some_of(&equal));
                    }
                    if drops.tied.first() == Some(&e) && side.is_some() {
                        let verb = match side {
                            Some(Side::Short) => "Bridj-It 2.0's machine would short it",
                            _ => "Shannon's machine would cut it",
                        };
                        let _ = write!(s, ": the largest, first in reading order: {verb}");
                    }
                    s
                }
            }
        })
        .collect()
}

/// A tie set this short is named again in the top drops' list; a longer one only once.
const SHORT_SET: usize = 3;

/// The ranking in words (`analyze`'s), then the top drops as a list.
pub fn ranking_html(game: &Game, drops: &Drops) -> String {
    let names = game.names();
    let named: Vec<(&str, BigRational)> = drops
        .drops
        .iter()
        .enumerate()
        .filter_map(|(e, d)| Some((names[e].as_str(), d.clone()?)))
        .collect();
    let digits = digits(drops);
    let mut out = String::new();
    // The analyze CLI's lines, but with at most FEW names a set: an M=8 panel listed its 64
    // equal largest drops and then the 56 runners-up.
    for line in emulator::share::ranking_naming(&named, digits, FEW).lines() {
        let _ = write!(out, "<p>{}</p>", escape(line));
    }
    let mut order: Vec<usize> = (0..named.len()).collect();
    order.sort_by(|&a, &b| named[b].1.cmp(&named[a].1).then(a.cmp(&b)));
    // The five largest drops, each set of exactly equal ones one item, so that a tie set
    // (64 resistors at M=8) is named once, not in each of five items; the largest and the
    // runner-up sets are given by the lines above, so their items give only their count
    // (unless the set is short enough to read again at a glance).
    let named_above = |d: &BigRational| {
        let mut larger: Vec<&BigRational> =
            named.iter().map(|(_, o)| o).filter(|o| *o > d).collect();
        larger.sort();
        larger.dedup();
        larger.len() < 2
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in order.iter().take(5) {
        match groups.last_mut() {
            Some(group) if named[group[0]].1 == named[i].1 => group.push(i),
            _ => groups.push(vec![i]),
        }
    }
    if !groups.is_empty() {
        out.push_str("<ol class=\"top\">");
        for group in &groups {
            let d = &named[group[0]].1;
            let equal: Vec<&str> = named
                .iter()
                .filter(|(_, o)| o == d)
                .map(|(n, _)| *n)
                .collect();
            let names = match equal.as_slice() {
                [one] => (*one).to_string(),
                all if all.len() > SHORT_SET && named_above(d) => {
                    format!("the {} of the line above (exactly equal)", all.len())
                }
                all => format!("{} (exactly equal)", some_of(all)),
            };
            let _ = write!(
                out,
                "<li><span class=\"swatch\" style=\"background:{}\"></span>{} %: {}</li>",
                viridis(heat(d, &named)),
                percent(d, digits),
                escape(&names)
            );
        }
        out.push_str("</ol>");
    }
    out
}

fn heat(d: &BigRational, named: &[(&str, BigRational)]) -> f64 {
    use num_traits::ToPrimitive;
    let max = named
        .iter()
        .filter_map(|(_, d)| d.to_f64())
        .fold(0.0, f64::max);
    if max > 0.0 {
        d.to_f64().unwrap_or(0.0) / max
    } else {
        0.0
    }
}

/// Why the machine made its last move: the ranking it measured before it.
pub fn why_html(game: &Game) -> String {
    let Some((i, e)) = game.last_machine_move() else {
        return String::new();
    };
    let side = game.side_of(i);
    let name = game.move_name(side, e);
    if !game.machine_is_heuristic() {
        return format!(
            "<h2>The machine's last move: {}</h2><p>The perfect player's move (Lehman's \
             theorem).</p>",
            escape(&name)
        );
    }
    let before = game.drops_after(i);
    if !before.tied.contains(&e) {
        // A move the link's record gave for the machine's side, not the machine's choice.
        let choice = before
            .tied
            .first()
            .map_or("none".to_string(), |&t| game.move_name(side, t));
        return format!(
            "<h2>The last move of the machine's side: {}</h2><p>It came with the record; the \
             machine would have played {} (the largest drop then).</p>{}",
            escape(&name),
            escape(&choice),
            ranking_html(game, &before)
        );
    }
    let verb = match side {
        Side::Cut => "cut the resistor with the largest current",
        Side::Short => "shorted the resistor with the largest drop",
    };
    // The tie set is named once, by the ranking below.
    let ties = if before.tied.len() > 1 {
        format!(
            " It was exactly tied with {} more (the line below); ties go to the first in \
             reading order.",
            before.tied.len() - 1
        )
    } else {
        String::new()
    };
    format!(
        "<h2>Why the machine played {}</h2><p>It {verb}.{}</p>{}",
        escape(&name),
        escape(&ties),
        ranking_html(game, &before)
    )
}

/// The heat legend: the scale from no current to the largest drop.
pub fn legend_html(drops: &Drops) -> String {
    let max = drops.tied.first().and_then(|&e| drops.drops[e].as_ref());
    let top = max.map_or("0".to_string(), |d| {
        emulator::share::percent(d, emulator::share::MIN_DIGITS)
    });
    let stops: Vec<String> = (0..=10)
        .map(|i| format!("{} {}%", viridis(f64::from(i) / 10.0), i * 10))
        .collect();
    format!(
        "<div class=\"legend\"><span>0 %</span><span class=\"scale\" style=\"background:\
         linear-gradient(to right,{})\"></span><span>{top} % of the supply</span></div>\
         <p class=\"note\">Colour (viridis) and thickness: each resistor's current, that is its \
         drop, as a share of the largest. A pink band marks the machine's last move, a green one \
         the hint's.</p>",
        stops.join(",")
    )
}
