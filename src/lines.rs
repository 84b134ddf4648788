//! Queen lines: every rank, file, diagonal and anti-diagonal of the 10x10 geometry as a 10-slot
//! occupancy word.
//!
//! A square lies on exactly four lines. On every line the slot of a square is its file (its rank for
//! files), so each line is a `u16` whose bits 0..10 mark occupied slots. Slots that do not exist on a
//! line (short diagonals) or lie off a smaller board are kept permanently set, and bits 10..16 are set
//! as sentinels, so a ray stops at the first set bit without any edge test. Queen moves and arrow
//! counts then become a shift and a bit scan (or one table lookup) per line, which is what makes the
//! bulk-counting perft fast.

use crate::square::{Square, MAX_SIZE, NUM_INDICES, STRIDE};

/// Number of lines: 10 ranks, 10 files, 19 diagonals, 19 anti-diagonals.
pub const NUM_LINES: usize = 58;
/// Bits above the 10 slots, always set so a ray never runs off the word.
pub const SENTINEL: u16 = 0xFC00;
/// Marks a slot that holds no square.
const NONE: u8 = u8::MAX;

/// The four lines through one square and the square's slot on each, in the order rank, file,
/// diagonal, anti-diagonal.
#[derive(Copy, Clone, Debug)]
pub struct SquareLines {
    /// Line indices.
    pub line: [u8; 4],
    /// Slot of the square on each line.
    pub slot: [u8; 4],
}

const fn square_lines(index: usize) -> SquareLines {
    let file = index % STRIDE;
    let rank = index / STRIDE;
    SquareLines {
        line: [
            rank as u8,
            (MAX_SIZE + file) as u8,
            (2 * MAX_SIZE + file + MAX_SIZE - 1 - rank) as u8,
            (2 * MAX_SIZE + 2 * MAX_SIZE - 1 + file + rank) as u8,
        ],
        slot: [file as u8, rank as u8, file as u8, file as u8],
    }
}

const fn build_square_lines() -> [SquareLines; NUM_INDICES] {
    let mut t = [SquareLines {
        line: [0; 4],
        slot: [0; 4],
    }; NUM_INDICES];
    let mut i = 0;
    while i < NUM_INDICES {
        t[i] = square_lines(i);
        i += 1;
    }
    t
}

const fn build_line_squares() -> [[u8; MAX_SIZE]; NUM_LINES] {
    let mut t = [[NONE; MAX_SIZE]; NUM_LINES];
    let mut rank = 0;
    while rank < MAX_SIZE {
        let mut file = 0;
        while file < MAX_SIZE {
            let index = rank * STRIDE + file;
            let sl = square_lines(index);
            let mut k = 0;
            while k < 4 {
                t[sl.line[k] as usize][sl.slot[k] as usize] = index as u8;
                k += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    t
}

/// For each slot `p` and occupancy (low 10 bits), how many empty slots a queen on `p` reaches along
/// the line in both directions (its own bit is ignored).
const fn build_reach_counts() -> [[u8; 1024]; MAX_SIZE] {
    let mut t = [[0u8; 1024]; MAX_SIZE];
    let mut p = 0;
    while p < MAX_SIZE {
        let mut occ = 0;
        while occ < 1024 {
            let (lo, hi) = segment(occ as u16, p as u32);
            t[p][occ] = (hi - lo) as u8;
            occ += 1;
        }
        p += 1;
    }
    t
}

/// Lines through each padded square index.
pub static SQUARE_LINES: [SquareLines; NUM_INDICES] = build_square_lines();
/// Square index on each slot of each line (`u8::MAX` where there is none).
pub static LINE_SQUARES: [[u8; MAX_SIZE]; NUM_LINES] = build_line_squares();
/// `LINE_PREFIX[line][k]`: the squares (as `u128` bitboard bits) on the slots below `k` of
/// `line`, so a run of slots `lo..=hi` is `LINE_PREFIX[line][hi + 1] ^ LINE_PREFIX[line][lo]`.
pub static LINE_PREFIX: [[u128; MAX_SIZE + 1]; NUM_LINES] = build_line_prefixes();

const fn build_line_prefixes() -> [[u128; MAX_SIZE + 1]; NUM_LINES] {
    let mut t = [[0u128; MAX_SIZE + 1]; NUM_LINES];
    let mut line = 0;
    while line < NUM_LINES {
        let mut k = 0;
        while k < MAX_SIZE {
            let s = LINE_SQUARES[line][k];
            t[line][k + 1] = t[line][k] | if s == NONE { 0 } else { 1u128 << s };
            k += 1;
        }
        line += 1;
    }
    t
}

/// The squares on slots `lo..=hi` of `line`.
#[inline]
pub fn line_run(line: u8, lo: u32, hi: u32) -> u128 {
    let prefix = &LINE_PREFIX[line as usize];
    prefix[hi as usize + 1] ^ prefix[lo as usize]
}

/// `REACH[p][occ]`: empty slots reachable from slot `p` along a line with occupancy `occ`.
pub static REACH: [[u8; 1024]; MAX_SIZE] = build_reach_counts();

/// The run of empty slots around slot `p` (its own bit ignored): the inclusive range `lo..=hi`,
/// which contains `p`.
#[inline]
pub const fn segment(occ: u16, p: u32) -> (u32, u32) {
    let o = (occ | SENTINEL) as u32;
    let hi = p + (o >> (p + 1)).trailing_zeros();
    let below = o & ((1u32 << p) - 1);
    let lo = if below == 0 {
        0
    } else {
        32 - below.leading_zeros()
    };
    (lo, hi)
}

/// Empty slots a queen on `p` reaches along a line of occupancy `occ`.
#[inline]
pub fn reach(occ: u16, p: u8) -> u32 {
    REACH[p as usize][(occ & 0x3FF) as usize] as u32
}

/// The square on `slot` of `line`.
#[inline]
pub fn line_square(line: u8, slot: u32) -> Square {
    Square::from_index(LINE_SQUARES[line as usize][slot as usize] as usize)
}

/// Line occupancy words for an empty board of `width` files and `height` ranks: every slot that is
/// not a square of the board is set.
pub fn empty_lines(width: usize, height: usize) -> [u16; NUM_LINES] {
    let mut lines = [u16::MAX; NUM_LINES];
    for rank in 0..height {
        for file in 0..width {
            let sl = &SQUARE_LINES[Square::new(file, rank).index()];
            for k in 0..4 {
                lines[sl.line[k] as usize] &= !(1 << sl.slot[k]);
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_is_on_its_lines() {
        for rank in 0..10 {
            for file in 0..10 {
                let sq = Square::new(file, rank);
                let sl = &SQUARE_LINES[sq.index()];
                for k in 0..4 {
                    assert_eq!(line_square(sl.line[k], sl.slot[k] as u32), sq);
                }
            }
        }
        let used: usize = LINE_SQUARES
            .iter()
            .map(|l| l.iter().filter(|&&s| s != NONE).count())
            .sum();
        assert_eq!(used, 400);
    }

    #[test]
    fn line_runs_hold_exactly_their_slots() {
        for line in 0..NUM_LINES as u8 {
            for lo in 0..MAX_SIZE as u32 {
                for hi in lo..MAX_SIZE as u32 {
                    let want = (lo..=hi)
                        .map(|s| LINE_SQUARES[line as usize][s as usize])
                        .filter(|&sq| sq != NONE)
                        .fold(0u128, |b, sq| b | 1 << sq);
                    assert_eq!(
                        line_run(line, lo, hi),
                        want,
                        "line {line}, slots {lo}..={hi}"
                    );
                }
            }
        }
    }

    #[test]
    fn segments() {
        assert_eq!(segment(0, 4), (0, 9));
        assert_eq!(segment(0b0000_1000_0010, 4), (2, 6));
        assert_eq!(segment(0b11_1111_1111, 0), (0, 0));
        assert_eq!(reach(0, 0), 9);
        assert_eq!(reach(0b0000_0100_0000, 3), 5);
    }

    #[test]
    fn small_board_lines() {
        let lines = empty_lines(6, 6);
        // Rank 1 of a 6x6 board: slots 0..6 empty, the rest blocked.
        assert_eq!(lines[0], !0b11_1111u16);
        // The long diagonal a1-f6 has six squares.
        let d = SQUARE_LINES[Square::new(0, 0).index()].line[2] as usize;
        assert_eq!((!lines[d]).count_ones(), 6);
        // On 4x7 the file a has seven squares, rank 1 four, and the a1 diagonal four.
        let lines = empty_lines(4, 7);
        let a1 = SQUARE_LINES[Square::new(0, 0).index()];
        assert_eq!((!lines[a1.line[0] as usize]).count_ones(), 4);
        assert_eq!((!lines[a1.line[1] as usize]).count_ones(), 7);
        assert_eq!((!lines[a1.line[2] as usize]).count_ones(), 4);
    }
}
