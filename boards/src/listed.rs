//! A word list in prose, written from a table: help lines and error messages name the words
//! a parser takes from the same table the parser reads, so the two cannot drift (issue 65).

use core::fmt;

/// The words in order, separated by `, ` and the last by `last` (` or ` gives `a, b or c`,
/// `, ` gives `a, b, c`).
///
/// ```
/// use boards::Listed;
/// assert_eq!(Listed(["a", "b", "c"], " or ").to_string(), "a, b or c");
/// assert_eq!(Listed(["a", "b"], ", ").to_string(), "a, b");
/// assert_eq!(Listed(["a"], " or ").to_string(), "a");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Listed<I>(pub I, pub &'static str);

impl<I> fmt::Display for Listed<I>
where
    I: Clone + IntoIterator,
    I::Item: fmt::Display,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = self.0.clone().into_iter().peekable();
        let mut first = true;
        while let Some(word) = words.next() {
            let separator = match (first, words.peek().is_some()) {
                (true, _) => "",
                (false, true) => ", ",
                (false, false) => self.1,
            };
            write!(f, "{separator}{word}")?;
            first = false;
        }
        Ok(())
    }
}
