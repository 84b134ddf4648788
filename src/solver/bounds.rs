//! Deciding a position without search, from its regions.
//!
//! Amazons never cross between regions (see `regions.rs`), so a region holding one side's amazons
//! only is that side's for good: the exact endgame solver gives its moves left. A mixed region is
//! still fought over, but every move there, by either side, burns one of its empty squares, so its
//! empty squares bound what each side can get from it. Summing:
//! - `sure[c]`: moves `c` can make whatever the opponent does (its own regions' lower bounds);
//! - `possible[c]`: moves `c` could make at best (its own regions' upper bounds plus the empty
//!   squares of the mixed regions it stands in).
//!
//! The side to move wins if `sure[mover] > possible[other]` (it can outlast anything the other
//! side does, and needs strictly more moves since it moves first), and loses if
//! `sure[other] >= possible[mover]`. In a decided position (no mixed region) with exact moves left
//! this is the exact result; earlier it settles positions where one side has walled off enough.

use crate::color::Color;
use crate::endgame::area::Area;
use crate::endgame::{Budget, Solver as Endgame};
use crate::position::Position;
use crate::regions::{RegionKind, Regions};

/// Endgame nodes allowed per region; small boards' regions are solved in far fewer.
const REGION_BUDGET: u64 = 20_000;

/// `Some(true)` when the side to move surely wins, `Some(false)` when it surely loses, `None`
/// when the bounds do not settle it. The caller has checked that the side to move can move.
pub(super) fn verdict(pos: &Position, endgame: &mut Endgame) -> Option<bool> {
    let mut sure = [0u32; 2];
    let mut possible = [0u32; 2];
    for region in Regions::of(pos) {
        match region.kind() {
            RegionKind::Dead => {}
            RegionKind::Mixed => {
                let e = region.empty.count();
                possible[0] += e;
                possible[1] += e;
            }
            kind => {
                let c = kind.owner().expect("white and black regions have an owner");
                let area = Area::new(region.amazons(c), region.empty);
                let v = endgame.area_moves_left(area, Budget::nodes(REGION_BUDGET));
                sure[c.index()] += v.lo;
                possible[c.index()] += v.hi;
            }
        }
    }
    let me = pos.side_to_move().index();
    let other = (!pos.side_to_move()).index();
    if sure[me] > possible[other] {
        Some(true)
    } else if sure[other] >= possible[me] {
        Some(false)
    } else {
        None
    }
}

/// The side that surely wins `pos` by [`verdict`], for tests and reports.
#[allow(dead_code)]
pub(super) fn winner(pos: &Position, endgame: &mut Endgame) -> Option<Color> {
    verdict(pos, endgame).map(|w| {
        if w {
            pos.side_to_move()
        } else {
            !pos.side_to_move()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Option<bool> {
        verdict(&text.parse().unwrap(), &mut Endgame::new())
    }

    #[test]
    fn walled_off_sides() {
        // Decided: White has a region of six squares, Black is walled in: White wins either way.
        assert_eq!(v("W2x/4/xxxx/Bx2 w"), Some(true));
        assert_eq!(v("W2x/4/xxxx/Bx2 b"), Some(false));
        // Equal territories: the side to move runs out first.
        assert_eq!(v("W1x1B/xxxxx w"), Some(false));
        // Mixed region of 3 empty squares against Black's sure 4: White to move loses.
        assert_eq!(v("W3B/xxxxx/B4 w"), Some(false));
        // A mixed region of 4 against a sure 1: undecided.
        assert_eq!(v("W3B/xxxxx/B1xxx w"), None);
    }
}
