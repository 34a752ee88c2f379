//! `--link`: PIL's two links to the firmware in QEMU, by name.

use std::fmt;
use std::str::FromStr;

/// PIL's link to the firmware in QEMU (`--link`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Link {
    /// QEMU's semihosting: stdin, stderr and stdout.
    Semihosting,
    /// RTT through QEMU's gdbstub, as a probe reads a board.
    Rtt,
}

/// A `--link` that is neither.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown link {} (expected {links})",
    heuristic::Echo(.0),
    links = boards::Listed(Link::ALL, " or ")
)]
pub struct LinkError(pub String);

impl Link {
    /// Both links.
    pub const ALL: [Link; 2] = [Link::Semihosting, Link::Rtt];
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Link::Semihosting => "semihosting",
            Link::Rtt => "rtt",
        })
    }
}

impl FromStr for Link {
    type Err = LinkError;

    fn from_str(text: &str) -> Result<Link, LinkError> {
        Link::ALL
            .into_iter()
            .find(|link| link.to_string().eq_ignore_ascii_case(text))
            .ok_or_else(|| LinkError(text.to_string()))
    }
}

impl serde::Serialize for Link {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_reads_back_from_its_name() {
        for link in Link::ALL {
            assert_eq!(link.to_string().parse::<Link>(), Ok(link));
        }
        assert_eq!("RTT".parse::<Link>(), Ok(Link::Rtt));
        assert_eq!(
            "usb".parse::<Link>().unwrap_err().to_string(),
            "unknown link `usb` (expected semihosting or rtt)"
        );
    }
}
