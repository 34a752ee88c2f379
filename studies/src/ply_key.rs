//! A position of the tree as the ply walk keeps it on disk: 16 bytes, two bits per edge.
//!
//! Within the tree a position is its edges' states alone: Cut moves first and the sides
//! alternate, so the side to move follows from how many edges each side has taken, and the
//! winner from the states. Keys sort and compare as integers, so a ply's file can be sorted,
//! deduplicated and merged without making a single position, and the partition a key belongs
//! to is a function of the key alone (any machine, any order).

use heuristic::{EdgeState, Move, Position, Side, Size};

/// The largest board whose keys fit: M=6's 61 edges take 122 of the 128 bits.
pub const MAX_M: u8 = 6;

/// Bytes of one key on disk (little-endian).
pub const KEY_BYTES: usize = 16;

/// A tree position's edges' states, two bits per edge in [`heuristic::Edge::index`] order
/// (0 resistor, 1 cut, 2 short).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlyKey(pub u128);

impl PlyKey {
    /// The key of `position`; `None` on a board above [`MAX_M`].
    pub fn of(position: &Position) -> Option<PlyKey> {
        if position.size().get() > MAX_M {
            return None;
        }
        let mut k = 0u128;
        for (i, s) in position.states().iter().enumerate() {
            k |= u128::from(code(*s)) << (2 * i);
        }
        Some(PlyKey(k))
    }

    /// The key after `mv` (a move of a resistor edge) from this key's position.
    pub fn after(self, size: Size, mv: Move) -> PlyKey {
        let bits = match mv.side {
            Side::Cut => 1u128,
            Side::Short => 2,
        };
        PlyKey(self.0 | bits << (2 * mv.edge.index(size)))
    }

    /// The position of this key on a board of `size`, Cut having moved first; `None` if the
    /// key holds a code that is no edge state, an edge past the board, or counts of cuts and
    /// shorts that no game of alternating moves reaches (a damaged file).
    pub fn position(self, size: Size) -> Option<Position> {
        let edges = size.edge_count();
        if edges * 2 < 128 && self.0 >> (edges * 2) != 0 {
            return None;
        }
        let mut states = Vec::with_capacity(edges);
        let (mut cuts, mut shorts) = (0usize, 0usize);
        for i in 0..edges {
            states.push(match (self.0 >> (2 * i)) & 3 {
                0 => EdgeState::Resistor,
                1 => {
                    cuts += 1;
                    EdgeState::Cut
                }
                2 => {
                    shorts += 1;
                    EdgeState::Short
                }
                _ => return None,
            });
        }
        let to_move = match cuts.checked_sub(shorts) {
            Some(0) => Side::Cut,
            Some(1) => Side::Short,
            _ => return None,
        };
        Position::set_up(size, &states, to_move)
    }

    /// The partition of `count` this key belongs to: a mix of its bits (SplitMix64's
    /// finaliser), so that partitions are even whatever the edges' order.
    pub fn partition(self, count: u32) -> u32 {
        let mut z = (self.0 as u64) ^ ((self.0 >> 64) as u64).rotate_left(29);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (((z >> 32) * u64::from(count)) >> 32) as u32
    }

    /// The key as it is stored.
    pub fn to_bytes(self) -> [u8; KEY_BYTES] {
        self.0.to_le_bytes()
    }

    /// A stored key.
    pub fn from_bytes(bytes: [u8; KEY_BYTES]) -> PlyKey {
        PlyKey(u128::from_le_bytes(bytes))
    }
}

fn code(s: EdgeState) -> u8 {
    match s {
        EdgeState::Resistor => 0,
        EdgeState::Cut => 1,
        EdgeState::Short => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position of the M=3 tree comes back from its key, side to move and winner
    /// included, and a child's key is the key of the child.
    #[test]
    fn keys_round_trip_on_the_m3_tree() {
        let size = Size::new(3).unwrap();
        let tree = crate::positions::PositionSet::tree(size);
        for e in tree.entries() {
            let k = PlyKey::of(&e.position).unwrap();
            assert_eq!(k.position(size).as_ref(), Some(&e.position));
            assert_eq!(PlyKey::from_bytes(k.to_bytes()), k);
            if let (Some(parent), Some(mv)) = (e.parent, e.mv) {
                let p = &tree.entries()[parent as usize].position;
                assert_eq!(PlyKey::of(p).unwrap().after(size, mv), k);
            }
        }
    }

    /// A damaged key (code 3, a bit past the board, two cuts ahead) is no position.
    #[test]
    fn damaged_keys_are_no_position() {
        let size = Size::new(3).unwrap();
        assert_eq!(PlyKey(3).position(size), None);
        assert_eq!(PlyKey(1 << 100).position(size), None);
        assert_eq!(PlyKey(0b0101).position(size), None);
        assert!(PlyKey(0b01).position(size).is_some());
    }

    #[test]
    fn partitions_cover_every_index() {
        let mut seen = [0u32; 7];
        for k in 0..10_000u128 {
            seen[PlyKey(k * 0x1_0000_0001).partition(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    }
}
