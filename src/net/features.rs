//! The network's inputs: what the linear evaluation already computes, and where on the board each
//! kind of square lies.
//!
//! Every input is from the side to move's point of view and the same for every image of the
//! position under the board's eight symmetries (up to the rounding of a sum taken in board order): square counts are taken per *symmetry class*
//! (the 15 orbits of the 10x10 board's squares under the dihedral group: a corner, an edge square
//! next to it, ..., the four centre squares), never per square. So the network is exactly
//! symmetric, and one position teaches what its seven images would.
//!
//! Inputs, in order:
//! - [`LINEAR`]: the logit of the linear evaluation (`eval.rs`) with the weights the search uses;
//!   the network adds its learned correction to it;
//! - the evaluation's terms `t1 t2 c1 c2` (over 10), `mobility`, `w / 40` and the phase;
//! - each side's queen-move counts of its amazons, ascending, each `min(n, 30) / 30`;
//! - the empty squares over 92;
//! - per symmetry class, the fraction of its squares in each of [`CATEGORIES`] categories: the
//!   queen race (only I reach it, I am first by 2 or more, by 1, a tie, the opponent first by 1, by
//!   2 or more, only the opponent, nobody), the king race (I am first, a tie, the opponent first),
//!   and my amazons and the opponent's.

use crate::bitboard::Bitboard;
use crate::eval::{evaluation_of, terms_from_maps, EvalParams, Maps};
use crate::position::Position;
use crate::square::Square;
use crate::territory::{DistanceMap, MAX_DISTANCE};

/// The board side the network is made for.
pub const BOARD: usize = 10;
/// Symmetry classes of the 10x10 board's squares.
pub const CLASSES: usize = 15;
/// Square categories counted per class.
pub const CATEGORIES: usize = 13;
/// Inputs before the per-class counts.
pub const GLOBALS: usize = 17;
/// Number of inputs.
pub const NUM_INPUTS: usize = GLOBALS + CLASSES * CATEGORIES;
/// Index of the linear evaluation's logit among the inputs.
pub const LINEAR: usize = 0;
/// Identifies this list of inputs in weight files: a file made for another list is refused.
pub const FEATURE_SET: u32 = 1;

/// The network's input vector.
pub type Inputs = [f32; NUM_INPUTS];

/// The symmetry class of square (`file`, `rank`) of the 10x10 board: fold into the lower-left
/// quadrant, then across its diagonal; classes number the folded squares `(a, b)`, `a <= b < 5`.
pub const fn class_of(file: usize, rank: usize) -> usize {
    let f = if file < BOARD / 2 {
        file
    } else {
        BOARD - 1 - file
    };
    let r = if rank < BOARD / 2 {
        rank
    } else {
        BOARD - 1 - rank
    };
    let (a, b) = if f <= r { (f, r) } else { (r, f) };
    // Row `b` of the triangle starts after 1 + 2 + ... + b entries.
    b * (b + 1) / 2 + a
}

/// The squares of each class, and one over the class's size.
struct ClassMasks {
    masks: [Bitboard; CLASSES],
    inv_size: [f32; CLASSES],
}

const CLASS_MASKS: ClassMasks = {
    let mut masks = [Bitboard::EMPTY; CLASSES];
    let mut sizes = [0u32; CLASSES];
    let mut rank = 0;
    while rank < BOARD {
        let mut file = 0;
        while file < BOARD {
            let c = class_of(file, rank);
            masks[c] = Bitboard(masks[c].0 | Bitboard::from_square(Square::new(file, rank)).0);
            sizes[c] += 1;
            file += 1;
        }
        rank += 1;
    }
    let mut inv_size = [0.0f32; CLASSES];
    let mut c = 0;
    while c < CLASSES {
        inv_size[c] = 1.0 / sizes[c] as f32;
        c += 1;
    }
    ClassMasks { masks, inv_size }
};

/// Whether the network applies to `pos` (a 10x10 board; other sizes use the linear evaluation).
pub fn applies(pos: &Position) -> bool {
    pos.width() == BOARD && pos.height() == BOARD
}

/// The inputs of `pos` (a 10x10 board, see [`applies`]) for the side to move, with `params` the
/// linear evaluation's weights.
///
/// On x86-64 processors with `popcnt` a copy compiled to use it is chosen at run time (the
/// per-class counts are some two hundred popcounts).
#[inline]
pub fn inputs(pos: &Position, params: &EvalParams) -> Inputs {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor supports `popcnt`, checked just above.
            return unsafe { inputs_popcnt(pos, params) };
        }
    }
    inputs_impl(pos, params)
}

/// [`inputs_impl`] compiled with the `popcnt` instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn inputs_popcnt(pos: &Position, params: &EvalParams) -> Inputs {
    inputs_impl(pos, params)
}

#[inline(always)]
fn inputs_impl(pos: &Position, params: &EvalParams) -> Inputs {
    let mut x = [0.0f32; NUM_INPUTS];
    let me = pos.side_to_move();
    let maps = Maps::of(pos);
    let t = terms_from_maps(pos, params, &maps);
    let e = evaluation_of(&t, params);
    let phase = e.phase;
    let p = e.win_probability(params).clamp(1e-6, 1.0 - 1e-6);
    x[LINEAR] = (p / (1.0 - p)).ln();
    x[1] = t.t1 / 10.0;
    x[2] = t.t2 / 10.0;
    x[3] = t.c1 / 10.0;
    x[4] = t.c2 / 10.0;
    x[5] = t.mobility;
    x[6] = t.w / 40.0;
    x[7] = phase;
    for (k, side) in [me, !me].into_iter().enumerate() {
        let mut counts = [0u32; 4];
        for (i, a) in pos.amazons(side).into_iter().take(4).enumerate() {
            counts[i] = pos.destination_count(a).min(30);
        }
        counts.sort_unstable();
        for (i, n) in counts.iter().enumerate() {
            x[8 + 4 * k + i] = *n as f32 / 30.0;
        }
    }
    let empty = pos.empty_squares();
    x[16] = empty.count() as f32 / 92.0;

    let cats = categories(pos, &maps, empty);
    for (c, (mask, inv)) in CLASS_MASKS
        .masks
        .iter()
        .zip(CLASS_MASKS.inv_size)
        .enumerate()
    {
        let base = GLOBALS + c * CATEGORIES;
        for (k, set) in cats.iter().enumerate() {
            x[base + k] = (*set & *mask).count() as f32 * inv;
        }
    }
    x
}

/// The squares of each category (see the module comment), in input order.
#[inline(always)]
fn categories(pos: &Position, m: &Maps, empty: Bitboard) -> [Bitboard; CATEGORIES] {
    let me = pos.side_to_move();
    let (q_me, q_op, k_me, k_op) = (&m.q_me, &m.q_op, &m.k_me, &m.k_op);
    let (q_lead, q_tie, q_behind) = race(q_me, q_op);
    let (k_lead, k_tie, k_behind) = race(k_me, k_op);
    let both = q_me.reached & q_op.reached;
    let only_me = q_me.reached & !q_op.reached;
    let only_op = q_op.reached & !q_me.reached;
    let nobody = empty & !(q_me.reached | q_op.reached);
    [
        only_me,
        q_lead[1] & both,
        q_lead[0] & both,
        q_tie,
        q_behind[0] & both,
        q_behind[1] & both,
        only_op,
        nobody,
        k_lead[0] | k_lead[1] | (k_me.reached & !k_op.reached),
        k_tie,
        k_behind[0] | k_behind[1] | (k_op.reached & !k_me.reached),
        pos.amazons(me),
        pos.amazons(!me),
    ]
}

/// For squares both maps reach: where `a` is first by exactly one step (`[0]`) or by two or more
/// (`[1]`), the ties, and where `b` is first by one (`[0]`) or by two or more (`[1]`).
#[inline(always)]
fn race(a: &DistanceMap, b: &DistanceMap) -> ([Bitboard; 2], Bitboard, [Bitboard; 2]) {
    let level = |m: &DistanceMap, d: usize| {
        if d <= m.depth.min(MAX_DISTANCE) {
            m.levels[d]
        } else {
            Bitboard::EMPTY
        }
    };
    let (mut lead1, mut behind1, mut tie) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for d in 1..=a.depth.max(b.depth) {
        let (la, lb) = (level(a, d), level(b, d));
        tie |= la & lb;
        lead1 |= la & level(b, d + 1);
        behind1 |= lb & level(a, d + 1);
    }
    let both = a.reached & b.reached;
    let lead2 = ahead_of(a, b) & both & !lead1;
    let behind2 = ahead_of(b, a) & both & !behind1;
    ([lead1, lead2], tie, [behind1, behind2])
}

/// Squares `x` reaches strictly before `y` does (or that only `x` reaches).
#[inline(always)]
fn ahead_of(x: &DistanceMap, y: &DistanceMap) -> Bitboard {
    let mut before = Bitboard::EMPTY;
    let mut y_within = Bitboard::EMPTY;
    for d in 1..=x.depth {
        if d <= y.depth {
            y_within |= y.levels[d];
        }
        before |= x.levels[d] & !y_within;
    }
    before
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn classes_are_the_fifteen_orbits() {
        let sizes: Vec<u32> = (0..CLASSES).map(|c| CLASS_MASKS.masks[c].count()).collect();
        assert_eq!(sizes.iter().sum::<u32>(), 100);
        // Five diagonal classes of 4 squares (corner to centre) and ten of 8.
        assert_eq!(sizes.iter().filter(|&&n| n == 4).count(), 5);
        assert_eq!(class_of(0, 0), class_of(9, 9));
        assert_eq!(class_of(1, 0), class_of(0, 8));
        assert_ne!(class_of(1, 0), class_of(1, 1));
    }

    /// Positions along random games from the start.
    pub(crate) fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::standard();
            while let Some(m) = pos.random_move(&mut rng) {
                pos.make(m);
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn inputs_are_the_same_for_every_image_of_a_position() {
        let params = EvalParams::default();
        for pos in random_positions(7, 6) {
            let x = inputs(&pos, &params);
            for s in crate::symmetry::Symmetry::ALL {
                // Equal up to the rounding of the mobility sum, which adds the amazons in board
                // order.
                let y = inputs(&s.position(&pos), &params);
                for (i, (a, b)) in x.iter().zip(&y).enumerate() {
                    assert!((a - b).abs() < 1e-5, "{pos} under {s:?}: input {i}");
                }
            }
        }
    }

    #[test]
    fn categories_split_the_squares() {
        // Per class, the queen-race categories and the amazons cover every non-arrow square once,
        // and the king race covers exactly the squares either side reaches.
        let params = EvalParams::default();
        for pos in random_positions(3, 4) {
            let x = inputs(&pos, &params);
            for c in 0..CLASSES {
                let f = &x[GLOBALS + c * CATEGORIES..GLOBALS + (c + 1) * CATEGORIES];
                let inv = CLASS_MASKS.inv_size[c];
                let open = (CLASS_MASKS.masks[c] & !pos.arrows()).count() as f32 * inv;
                let queen: f32 = f[..8].iter().sum::<f32>() + f[11] + f[12];
                assert!((queen - open).abs() < 1e-5, "{pos} class {c}");
                let king: f32 = f[8..11].iter().sum();
                let reached = f[..7].iter().sum::<f32>();
                assert!((king - reached).abs() < 1e-5, "{pos} class {c}");
            }
        }
    }
}
