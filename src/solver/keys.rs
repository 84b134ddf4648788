//! The table's keys up to the board's symmetries (`crate::symmetry`): the solver's table key is
//! the smallest of a position's hashes under every symmetry of its board (4 on a rectangle, 8 on a
//! square), so mirrored and rotated positions,
//! which have the same value, share one entry.
//!
//! The rules do not care about colour either: a position and its image with the colours swapped
//! and the other side to move are one game for the side to move. Two whole positions of one search
//! are never such images, since every move adds an arrow and so the arrows' parity fixes the side
//! to move; but abstractions (see [`super::view`]) are, since their territories read as arrows
//! and their balance `x` as a number. So on a rectangle, whose symmetries fill half of the eight
//! lanes, the other four hold the colour-swapped images (balance `-x`), and the key of an
//! abstraction is the smallest over all eight: within the paths' drift with the table on the
//! whole 6x4 start (docs/results.md, 2026-12-07), kept because it merges only equal games.
//! Squares would need sixteen lanes.
//!
//! An abstraction's value depends on its mixed part alone, not on where that part lies, so keys
//! could also be taken up to translation and the eight symmetries of the square grid (queen lines
//! survive all of them), or each mixed region apart (a sum of games does not care how its terms
//! lie). Measured first, such keys merge at most 1.3% of the abstracted positions a search expands
//! (docs/results.md, 2026-12-07): too few to pay for keys that cannot be updated by XOR.
//!
//! A hash per symmetry is kept for every node on the search path and updated by XOR like the
//! ordinary Zobrist hash (three squares per move), so the canonical key costs a few lookups.
//!
//! Each symmetry has two independent hashes (two lanes of [`Keys`]): the first picks the
//! canonical image (the least) and the table's bucket, the second, of the same image, gives the
//! entry's check (see [`Key`]). With one 64-bit hash, two different positions with equal keys pass
//! any check, and keys that are the least of several hashes are equal more often than uniform
//! ones: about one chance in ten per whole 6x4 proof (2.7e8 stored entries, 2.5 G probes) that a
//! step rests on another position's numbers. With the second hash such a pair must also agree in
//! 40 independent bits.

use crate::bitboard::Bitboard;
use crate::color::Color;
#[cfg(test)]
use crate::mv::Move;
use crate::position::Position;
use crate::splitmix::mix64;
use crate::square::{Square, NUM_INDICES};
use crate::symmetry::Symmetry;
use crate::zobrist::{ARROW, BLACK_TO_MOVE, PIECE};

/// Lanes: up to eight symmetries (the board's and, on a rectangle, their colour-swapped images).
const SYMS: usize = 8;

/// A position's table key: two independent hashes of its canonical image (the symmetric image, or
/// colour-swapped one, with the least first hash). `index` chooses the table's bucket and orders
/// and merges children; `check` is what an entry keeps besides to tell positions apart.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Key {
    pub index: u64,
    pub check: u32,
}

/// The second hash of a first-hash value `z`: the top half of a bijective mix (splitmix64's
/// finaliser) with a salt, so the second set of square hashes is unrelated to the first under XOR.
#[inline]
const fn second(z: u64) -> u32 {
    (mix64(z ^ 0x5EC0_4D4A_54E1_B3C7) >> 32) as u32
}

/// One hash value per lane, both hashes: a key update is a few contiguous XORs instead of a map
/// lookup and a scattered load per symmetry. The second hash has 32 bits, which is plenty: it
/// only has to tell apart the rare positions whose first hashes are equal (the table's check
/// takes 8 more bits from the first). Lanes past the board's symmetry count are 0, which keeps
/// those hashes 0.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Hashes {
    first: [u64; SYMS],
    second: [u32; SYMS],
}

impl Hashes {
    /// `z` in lane `s` (and its second hash), all else as it was.
    #[inline]
    fn set(&mut self, s: usize, z: u64) {
        self.first[s] = z;
        self.second[s] = second(z);
    }

    #[inline]
    fn xor(&mut self, other: &Hashes) {
        for s in 0..SYMS {
            self.first[s] ^= other.first[s];
            self.second[s] ^= other.second[s];
        }
    }
}

/// The symmetries of one board, as each square's hashes under them.
pub(super) struct Symmetries {
    /// How many lanes are in use: the board's symmetries (4 on a rectangle, 8 on a square), and
    /// on a rectangle as many again for their colour-swapped images.
    count: usize,
    /// How many of them are the board's symmetries (the colour-swapped lanes follow).
    plain: usize,
    /// Per square index, its hashes under every symmetry (see [`Lanes`]).
    lanes: Vec<Lanes>,
    /// `BLACK_TO_MOVE` in the lanes in use, 0 in the others.
    turn: Hashes,
    /// Mixed into every key so boards of different shapes never share entries.
    shape: u64,
}

/// One square's hashes under each symmetry.
#[derive(Copy, Clone)]
struct Lanes {
    /// By piece kind (White amazon, Black amazon, arrow).
    piece: [Hashes; 3],
    /// The half-way mark of an arrow to be shot from this square (see [`pending`]).
    pending: Hashes,
}

/// The hashes of one position under each symmetry (only the first `count` lanes are used).
#[derive(Copy, Clone, Debug)]
pub(super) struct Keys {
    hashes: Hashes,
    count: usize,
    /// See [`Symmetries::plain`].
    plain: usize,
}

impl Symmetries {
    /// The symmetries of `pos`'s board.
    pub fn of(pos: &Position) -> Symmetries {
        let (w, h) = (pos.width(), pos.height());
        // The lanes' order: the board's symmetries with the transposing ones in the order the
        // table was first keyed in (the order changes no key, which is a minimum over lanes).
        let order: &[u8] = if w == h {
            &[0, 1, 2, 3, 4, 7, 5, 6]
        } else {
            &[0, 1, 2, 3]
        };
        let maps = order
            .iter()
            .map(|&k| {
                let sym = Symmetry::of_board(w, h)[k as usize];
                let mut m = [0u8; NUM_INDICES];
                for r in 0..h {
                    for f in 0..w {
                        let sq = Square::new(f, r);
                        m[sq.index()] = sym.square(sq, w, h).index() as u8;
                    }
                }
                m
            })
            .collect::<Vec<_>>();
        let mut lanes = vec![
            Lanes {
                piece: [Hashes::default(); 3],
                pending: Hashes::default(),
            };
            NUM_INDICES
        ];
        let mut turn = Hashes::default();
        // On a rectangle the four free lanes hold the colour-swapped images.
        let swapped = if w != h { maps.len() } else { 0 };
        for s in 0..maps.len() + swapped {
            let map = &maps[s % maps.len()];
            let swap = s >= maps.len();
            turn.set(s, BLACK_TO_MOVE);
            for (i, l) in lanes.iter_mut().enumerate() {
                let m = map[i] as usize;
                for (kind, lane) in l.piece.iter_mut().enumerate() {
                    let kind = if swap && kind < 2 { 1 - kind } else { kind };
                    lane.set(s, PIECE[kind][m]);
                }
                l.pending.set(s, pending(m));
            }
        }
        Symmetries {
            count: maps.len() + swapped,
            plain: maps.len(),
            lanes,
            turn,
            shape: (w * 16 + h) as u64 * 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// The hashes of `pos` under every symmetry, computed from scratch.
    pub fn keys(&self, pos: &Position) -> Keys {
        let mut hashes = Hashes::default();
        let black = pos.side_to_move() == Color::Black;
        for s in 0..self.count {
            // A colour-swapped image has the other side to move.
            hashes.set(s, self.shape);
            if black != (s >= self.plain) {
                hashes.first[s] ^= self.turn.first[s];
                hashes.second[s] ^= self.turn.second[s];
            }
        }
        for (kind, set) in [
            (0, pos.amazons(Color::White)),
            (1, pos.amazons(Color::Black)),
            (ARROW, pos.arrows()),
        ] {
            for sq in set {
                hashes.xor(&self.lanes[sq.index()].piece[kind]);
            }
        }
        Keys {
            hashes,
            count: self.count,
            plain: self.plain,
        }
    }

    /// The keys after `side` plays `m` in the position of `keys` (the search goes half a move at a
    /// time; the tests check that the two halves add up to this).
    #[cfg(test)]
    pub fn after(&self, keys: &Keys, m: Move, side: Color) -> Keys {
        let c = side.index();
        let l = |sq: Square| &self.lanes[sq.index()].piece;
        let mut out = *keys;
        for h in [&l(m.from)[c], &l(m.to)[c], &l(m.arrow)[ARROW], &self.turn] {
            out.hashes.xor(h);
        }
        out
    }

    /// The keys after `side`'s amazon steps from `from` to `to`, its arrow still to come: the
    /// half-way node of a split move, marked by the square it will shoot from.
    #[inline]
    pub fn after_step(&self, keys: &Keys, from: Square, to: Square, side: Color) -> Keys {
        let c = side.index();
        let (f, t) = (&self.lanes[from.index()], &self.lanes[to.index()]);
        let mut out = *keys;
        out.hashes.xor(&f.piece[c]);
        out.hashes.xor(&t.piece[c]);
        out.hashes.xor(&t.pending);
        out
    }

    /// The table key after `side`'s amazon steps from `from` to `to`: what
    /// `after_step(..).canonical()` gives, without building the keys (most steps are only
    /// numbered, never entered).
    #[inline]
    pub fn step_key(&self, keys: &Keys, from: Square, to: Square, side: Color) -> Key {
        let c = side.index();
        let (f, t) = (&self.lanes[from.index()], &self.lanes[to.index()]);
        keys.least_with([&f.piece[c], &t.piece[c], &t.pending], &Blank::default())
    }

    /// The table key of the abstraction by `blank` after the arrow from `to` lands on `arrow`:
    /// what `after_arrow(..).canonical_with(blank)` gives, without building the keys.
    #[inline]
    pub fn arrow_key(&self, keys: &Keys, to: Square, arrow: Square, blank: &Blank) -> Key {
        let (t, a) = (&self.lanes[to.index()], &self.lanes[arrow.index()]);
        keys.least_with([&t.pending, &a.piece[ARROW], &self.turn], blank)
    }

    /// What turns `pos`'s keys into the keys of its abstraction (see [`super::view`]): every
    /// square outside `mixed` that is not an arrow reads as one, and the territory balance `x` is
    /// mixed in. With nothing outside `mixed`, only the balance is mixed in and the key takes no
    /// colour-swapped images; `Blank::default()`, all zero, stands for no abstraction at all.
    pub fn blank(&self, pos: &Position, mixed: Bitboard, x: i32) -> Blank {
        let (plus, minus) = (balance_hash(x), balance_hash(-x));
        let mut out = Blank::default();
        if x != 0 {
            // A zero balance leaves both hashes as they are (see `balance_hash`).
            for s in 0..SYMS {
                out.xor.set(s, if s >= self.plain { minus } else { plus });
            }
        }
        let white = pos.amazons(Color::White);
        let black = pos.amazons(Color::Black);
        let outside = (pos.empty_squares() | white | black) & !mixed;
        if outside.is_empty() {
            return out;
        }
        // Only an abstraction can be the colour-swapped image of another position in one search:
        // every whole move adds an arrow, so without one the arrows' parity fixes the side to move.
        out.colour = true;
        for sq in outside {
            let piece = if white.contains(sq) {
                Some(0)
            } else if black.contains(sq) {
                Some(1)
            } else {
                None
            };
            let l = &self.lanes[sq.index()];
            out.xor.xor(&l.piece[ARROW]);
            if let Some(p) = piece {
                out.xor.xor(&l.piece[p]);
            }
        }
        out
    }

    /// The keys after the arrow from `to` (the amazon that just stepped there) lands on `arrow`.
    #[inline]
    pub fn after_arrow(&self, keys: &Keys, to: Square, arrow: Square) -> Keys {
        let (t, a) = (&self.lanes[to.index()], &self.lanes[arrow.index()]);
        let mut out = *keys;
        out.hashes.xor(&t.pending);
        out.hashes.xor(&a.piece[ARROW]);
        out.hashes.xor(&self.turn);
        out
    }
}

/// The territory balance's part of an abstract key (see [`super::view`]); 0 for a zero balance,
/// so a position whose territories cancel out shares its key with its mixed part alone.
#[inline]
fn balance_hash(x: i32) -> u64 {
    if x == 0 {
        return 0;
    }
    let mut z = (x as i64 as u64).wrapping_add(0x2545_F491_4F6C_DD1D);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Marks a half-way node whose arrow leaves from square index `sq`: derived from the arrow keys
/// by a rotation and a constant, so it matches no combination of whole-position keys in practice.
#[inline]
fn pending(sq: usize) -> u64 {
    PIECE[ARROW][sq].rotate_left(23) ^ 0xA5C3_96E1_0F78_D24B
}

/// Per lane, what to XOR into a position's hashes to get its abstraction's.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Blank {
    xor: Hashes,
    /// Whether the key takes the colour-swapped images too (see [`Symmetries::blank`]).
    colour: bool,
}

impl Keys {
    /// The table key: both hashes of the image with the smallest first hash (ties, which are
    /// images equal to the position, by the second).
    #[cfg(test)]
    pub fn canonical(&self) -> Key {
        self.canonical_with(&Blank::default())
    }

    /// The table key of the position's abstraction given by `blank`.
    #[inline]
    pub fn canonical_with(&self, blank: &Blank) -> Key {
        self.least_with([], blank)
    }

    /// The key of these hashes with `parts` and `blank` XORed in: both hashes of the lane with the
    /// least first hash, over the board's symmetries (and with `blank.colour` their colour-swapped
    /// images).
    // Always inlined: as a call it cost 1% more instructions per node (cachegrind).
    #[inline(always)]
    fn least_with<const N: usize>(&self, parts: [&Hashes; N], blank: &Blank) -> Key {
        let lanes = if blank.colour { self.count } else { self.plain };
        let (h, b) = (&self.hashes, &blank.xor);
        let mut best = Key {
            index: u64::MAX,
            check: u32::MAX,
        };
        for s in 0..lanes {
            let mut k = Key {
                index: h.first[s] ^ b.first[s],
                check: h.second[s] ^ b.second[s],
            };
            for p in parts {
                k.index ^= p.first[s];
                k.check ^= p.second[s];
            }
            best = best.min(k);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::FillSolver as Endgame;
    use crate::solver::view::View;

    fn key(text: &str) -> Key {
        let p: Position = text.parse().unwrap();
        Symmetries::of(&p).keys(&p).canonical()
    }

    #[test]
    fn mirror_images_share_a_key() {
        // 5x4 (5 files, 4 ranks): left-right and top-bottom mirrors and the half turn.
        let a = key("W4/2x2/5/3B1 w");
        assert_eq!(a, key("4W/2x2/5/1B3 w"));
        assert_eq!(a, key("3B1/5/2x2/W4 w"));
        assert_eq!(a, key("1B3/5/2x2/4W w"));
        assert_ne!(a, key("W4/2x2/5/3B1 b"));
        // Positions keyed whole never take the colour-swapped images (see `Symmetries::blank`).
        assert_ne!(a, key("B4/2x2/5/3W1 b"));
        assert_ne!(a, key("W4/5/2x2/3B1 w"));
        // A quarter turn is a symmetry of a square only.
        assert_eq!(key("W3/4/1x2/3B w"), key("3W/1x2/4/B3 w"));
    }

    /// The key of `text` abstracted by its view, as the search keys a whole-move position.
    fn whole_key(text: &str) -> Key {
        let p: Position = text.parse().unwrap();
        let sym = Symmetries::of(&p);
        let view = View::of(&p, &mut Endgame::new());
        let x = view.balance().expect("exact territories");
        sym.keys(&p).canonical_with(&sym.blank(&p, view.mixed, x))
    }

    #[test]
    fn abstractions_share_a_key_with_their_colours_swapped_on_rectangles() {
        // White's territory on rank 4 (one move), a fight on rank 1; then the colours swapped with
        // the turn, mirrored, and with the territory elsewhere: the same game for the side to move.
        let a = whole_key("W1xxx/xxxxx/xxxxx/W2B1 w");
        assert_eq!(a, whole_key("B1xxx/xxxxx/xxxxx/B2W1 b"));
        assert_eq!(a, whole_key("xxxB1/xxxxx/xxxxx/1W2B b"));
        assert_eq!(a, whole_key("xxxxx/xxxB1/xxxxx/1W2B b"));
        // The other side to move, or the territory's owner not swapped with the rest: other games.
        assert_ne!(a, whole_key("B1xxx/xxxxx/xxxxx/B2W1 w"));
        assert_ne!(a, whole_key("W1xxx/xxxxx/xxxxx/B2W1 b"));
        // On a square board the key takes the board's eight symmetries only.
        let sq = whole_key("W1xxx/xxxxx/xxxxx/xxxxx/W2B1 w");
        assert_ne!(sq, whole_key("B1xxx/xxxxx/xxxxx/xxxxx/B2W1 b"));
    }

    #[test]
    fn incremental_keys_match() {
        let mut p = Position::named_start(5, 5).unwrap();
        let sym = Symmetries::of(&p);
        let mut keys = sym.keys(&p);
        for _ in 0..6 {
            let m = p.legal_moves()[7];
            keys = sym.after(&keys, m, p.side_to_move());
            p.make(m);
            let fresh = sym.keys(&p);
            assert_eq!(keys.hashes, fresh.hashes);
        }
    }

    #[test]
    fn split_moves_reach_the_same_keys() {
        let mut p = Position::named_start(5, 4).unwrap();
        let sym = Symmetries::of(&p);
        let keys = sym.keys(&p);
        for m in p.legal_moves() {
            let half = sym.after_step(&keys, m.from, m.to, p.side_to_move());
            assert_ne!(half.canonical(), keys.canonical());
            let whole = sym.after_arrow(&half, m.to, m.arrow);
            assert_eq!(whole.hashes, sym.after(&keys, m, p.side_to_move()).hashes);
            // The shortcuts give the keys' keys, abstracted or not.
            let side = p.side_to_move();
            assert_eq!(sym.step_key(&keys, m.from, m.to, side), half.canonical());
            let blank = sym.blank(&p, p.empty_squares(), 3);
            for b in [Blank::default(), blank] {
                assert_eq!(
                    sym.arrow_key(&half, m.to, m.arrow, &b),
                    whole.canonical_with(&b)
                );
            }
            p.step(m.from, m.to);
            p.shoot(m.arrow);
            let mut q = p.clone();
            q.unshoot(m.arrow);
            q.step(m.from, m.to);
            p.unshoot(m.arrow);
            p.step(m.from, m.to);
            assert_eq!(q.to_string(), p.to_string());
            p.make(m);
            assert_eq!(sym.keys(&p).hashes, whole.hashes);
            p.unmake(m);
        }
    }
}
