//! Legal move generation, bulk counting and random move sampling.
//!
//! All three read queen rays from the line occupancy words (`lines.rs`): the empty run of a line
//! around a square is one shift and two bit scans. An amazon's destinations on a line are that run;
//! its arrows from a destination are the runs of the destination's four lines, with the vacated
//! start square cleared on the one line the two squares share.

use crate::bitboard::Bitboard;
use crate::lines::{line_square, reach, segment, LINE_SQUARES, SQUARE_LINES};
use crate::mv::Move;
use crate::position::Position;
use crate::square::Square;
use rand::Rng;

impl Position {
    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(256);
        self.generate_moves(&mut out);
        out
    }

    /// Appends all legal moves of the side to move to `out`.
    pub fn generate_moves(&self, out: &mut Vec<Move>) {
        for from in self.amazons(self.side_to_move()) {
            let fl = &SQUARE_LINES[from.index()];
            for k in 0..4 {
                let line = fl.line[k];
                let p = fl.slot[k] as u32;
                let (lo, hi) = segment(self.line(line), p);
                for s in (lo..=hi).filter(|&s| s != p) {
                    let to = line_square(line, s);
                    self.push_arrows(from, to, k, p, out);
                }
            }
        }
    }

    /// Appends every arrow from `to` for the amazon that left `from`; `from` lies on line kind `k` of
    /// `to` at slot `from_slot`.
    #[inline]
    fn push_arrows(&self, from: Square, to: Square, k: usize, from_slot: u32, out: &mut Vec<Move>) {
        let tl = &SQUARE_LINES[to.index()];
        for j in 0..4 {
            let mut occ = self.line(tl.line[j]);
            if j == k {
                occ &= !(1 << from_slot);
            }
            let p = tl.slot[j] as u32;
            let (lo, hi) = segment(occ, p);
            for s in (lo..=hi).filter(|&s| s != p) {
                out.push(Move::new(from, to, line_square(tl.line[j], s)));
            }
        }
    }

    /// Number of legal moves of the side to move, without generating them: for each destination the
    /// arrows are counted by table lookups.
    pub fn count_moves(&self) -> u64 {
        let mut total = 0u64;
        for from in self.amazons(self.side_to_move()) {
            let fl = &SQUARE_LINES[from.index()];
            total += self.count_line::<0>(fl.line[0], fl.slot[0])
                + self.count_line::<1>(fl.line[1], fl.slot[1])
                + self.count_line::<2>(fl.line[2], fl.slot[2])
                + self.count_line::<3>(fl.line[3], fl.slot[3]);
        }
        total
    }

    /// Moves of an amazon on `slot` of `line` (of kind `K`) whose destination is on that line.
    #[inline(always)]
    fn count_line<const K: usize>(&self, line: u8, slot: u8) -> u64 {
        let p = slot as u32;
        let (lo, hi) = segment(self.line(line), p);
        // Along the shared line the arrow sees the whole run (the start square is vacated) except
        // the destination itself: `n` arrows for each of the `n` destinations.
        let n = (hi - lo) as u64;
        let mut total = n * n;
        let squares = &LINE_SQUARES[line as usize];
        for s in (lo..=hi).filter(|&s| s != p) {
            let tl = &SQUARE_LINES[squares[s as usize] as usize];
            let mut sum = 0;
            for j in 0..4 {
                if j != K {
                    sum += reach(self.line(tl.line[j]), tl.slot[j]);
                }
            }
            total += sum as u64;
        }
        total
    }

    /// Number of squares `from` can move to (its queen mobility).
    #[inline]
    pub fn destination_count(&self, from: Square) -> u32 {
        let fl = &SQUARE_LINES[from.index()];
        (0..4)
            .map(|k| reach(self.line(fl.line[k]), fl.slot[k]))
            .sum()
    }

    /// A random legal move of the side to move, or `None` when it has none, without generating the
    /// move list: a random amazon among those that can move, a random destination, a random arrow
    /// (an arrow always exists, since the amazon can shoot back to the square it left). Every legal
    /// move has a positive probability.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        let empty = self.empty_squares();
        let mobile: Bitboard = self
            .amazons(self.side_to_move())
            .iter()
            .filter(|&a| !Bitboard::from_square(a).king_step(empty).is_empty())
            .collect();
        let n = mobile.count();
        if n == 0 {
            return None;
        }
        let from = mobile.nth(rng.gen_range(0..n))?;
        let fl = &SQUARE_LINES[from.index()];
        let segs: [(u32, u32); 4] =
            std::array::from_fn(|k| segment(self.line(fl.line[k]), fl.slot[k] as u32));
        let total: u32 = segs.iter().map(|(lo, hi)| hi - lo).sum();
        let (k, s) = pick(&segs, fl.slot, rng.gen_range(0..total));
        let to = line_square(fl.line[k], s);
        let tl = &SQUARE_LINES[to.index()];
        let arrow_segs: [(u32, u32); 4] = std::array::from_fn(|j| {
            let mut occ = self.line(tl.line[j]);
            if j == k {
                occ &= !(1 << fl.slot[k]);
            }
            segment(occ, tl.slot[j] as u32)
        });
        let total: u32 = arrow_segs.iter().map(|(lo, hi)| hi - lo).sum();
        let (j, s) = pick(&arrow_segs, tl.slot, rng.gen_range(0..total));
        Some(Move::new(from, to, line_square(tl.line[j], s)))
    }
}

/// The `r`-th slot over four runs, each run skipping its own origin slot.
#[inline]
fn pick(segs: &[(u32, u32); 4], origin: [u8; 4], mut r: u32) -> (usize, u32) {
    for (k, &(lo, hi)) in segs.iter().enumerate() {
        let n = hi - lo;
        if r < n {
            let s = lo + r;
            return (k, if s >= origin[k] as u32 { s + 1 } else { s });
        }
        r -= n;
    }
    unreachable!("r is below the total of the runs")
}
