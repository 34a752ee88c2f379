//! Steane's published counts (the seed `004_…`), for comparison only: nothing is tuned to
//! them, and the tests check the project's counts against searches with no sieve.

use crate::link::reduce::Irreducible;

/// Table 1, by N: graphs kept by the paper's sieve (None where the seed's table has no
/// entry).
pub fn sieved(vertices: usize) -> Option<u64> {
    Some(match vertices {
        3 | 5 => 1,
        4 | 6 => 0,
        7 => 9,
        8 => 35,
        9 => 737,
        10 => 21_523,
        _ => return None,
    })
}

/// Table 1, by N: minimal weak links and the S-irreducible ones.
pub fn table_1(vertices: usize) -> Option<(u64, u64)> {
    Some(match vertices {
        3 => (1, 1),
        4 | 6 | 8 => (0, 0),
        5 => (1, 0),
        7 => (5, 1),
        9 => (36, 8),
        10 => (24, 7),
        11 => (953, 312),
        _ => return None,
    })
}

const fn row(links: u64, s: u64, p: u64, t: u64, spt: u64) -> Irreducible {
    Irreducible {
        links,
        s,
        p,
        t,
        spt,
    }
}

/// Table 2, by weight: minimal weak links and the S-, P-, T- and SPT-irreducible ones
/// (weights 2, 4 and 6 have none; the table skips them). Its row for weight 1 says W1 is
/// S-reducible, where table 1 counts it S-irreducible.
pub fn weak(weight: usize) -> Option<Irreducible> {
    Some(match weight {
        1 => row(1, 0, 1, 1, 0),
        2 | 4 | 6 => row(0, 0, 0, 0, 0),
        3 => row(1, 0, 0, 0, 0),
        5 => row(5, 1, 1, 2, 0),
        7 => row(36, 8, 8, 20, 2),
        8 => row(24, 7, 24, 24, 7),
        9 => row(953, 312, 544, 766, 208),
        _ => return None,
    })
}

/// Tables 2 (weak) and 3 (strong), by weight: the smallest centre (None where the table
/// leaves it blank: W1, S0 and S2, whose borders overlap), the range of edges and of the
/// largest degree.
pub fn spread(strong: bool, weight: usize) -> Option<(Option<u32>, [u32; 2], [u32; 2])> {
    Some(match (strong, weight) {
        (false, 1) => (None, [2, 2], [2, 2]),
        (false, 3) => (Some(0), [5, 5], [3, 3]),
        (false, 5) => (Some(1), [8, 9], [3, 4]),
        (false, 7) => (Some(2), [11, 13], [3, 5]),
        (false, 8) => (Some(3), [14, 16], [4, 5]),
        (false, 9) => (Some(3), [14, 21], [3, 6]),
        (true, 0) => (None, [1, 1], [1, 1]),
        (true, 2) => (None, [4, 4], [2, 2]),
        (true, 4) => (Some(0), [7, 8], [3, 3]),
        (true, 6) => (Some(0), [10, 12], [3, 4]),
        (true, 7) => (Some(1), [13, 15], [4, 5]),
        (true, 8) => (Some(1), [13, 20], [3, 6]),
        _ => return None,
    })
}

/// Table 3, by weight: minimal strong links and the S-, P-, T- and SPT-irreducible ones
/// (odd weights up to 5 have none; the table skips them).
pub fn strong(weight: usize) -> Option<Irreducible> {
    Some(match weight {
        0 => row(1, 1, 1, 1, 1),
        1 | 3 | 5 => row(0, 0, 0, 0, 0),
        2 => row(1, 0, 0, 1, 0),
        4 => row(2, 1, 0, 1, 0),
        6 => row(14, 4, 2, 6, 0),
        7 => row(10, 10, 10, 5, 5),
        8 => row(304, 196, 163, 204, 120),
        _ => return None,
    })
}
