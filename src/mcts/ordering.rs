//! Move ordering for progressive widening: which children a node gets first, and their priors.
//!
//! Two rankings:
//! - cheap: a handful of table lookups per move, from features computed once per position (queen
//!   distances of both sides, amazon mobility): arrows next to poorly mobile enemy amazons and on
//!   contested squares are good, arrows next to one's own amazons or into one's own safe area are
//!   bad, and destinations with many queen moves are good;
//! - full: the static evaluation after each move (a one-ply search), for the root and for nodes
//!   visited often enough to pay for it.
//!
//! Priors come from the rank alone (`1 / (rank + 1)^decay`, normalised over the legal moves), which
//! keeps them meaningful whatever the scale of the scores.

use super::params::{OrderingWeights, SearchParams};
use crate::bitboard::Bitboard;
use crate::eval::evaluate;
use crate::lines::{line_square, segment, SQUARE_LINES};
use crate::mv::Move;
use crate::position::Position;
use crate::square::{Square, NUM_INDICES};
use crate::territory::{queen_distances, DistanceMap};
use std::cmp::Ordering;

/// Which ranking to use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// Move features (fast).
    Cheap,
    /// One-ply static evaluation (slow, better).
    Full,
    /// The best this many moves by the cheap ranking, reordered by one-ply evaluation (the rest
    /// are dropped): most of the full ranking's quality near the top at a fraction of its cost.
    Refined(u16),
}

/// Rank priors: `prior(r, n) = w(r) / (w(0) + ... + w(n - 1))` with `w(r) = 1 / (r + 1)^decay`.
#[derive(Clone, Debug)]
pub struct RankPrior {
    weight: Vec<f32>,
    prefix: Vec<f32>,
}

/// Largest rank the prior table covers (more than any position has moves).
const MAX_RANK: usize = 8192;

impl RankPrior {
    /// The table for `decay`.
    pub fn new(decay: f32) -> RankPrior {
        let weight: Vec<f32> = (0..MAX_RANK)
            .map(|r| ((r + 1) as f32).powf(-decay))
            .collect();
        let mut prefix = Vec::with_capacity(MAX_RANK + 1);
        let mut acc = 0.0f64;
        prefix.push(0.0);
        for &w in &weight {
            acc += w as f64;
            prefix.push(acc as f32);
        }
        RankPrior { weight, prefix }
    }

    /// Prior of the move ranked `rank` among `total`.
    #[inline]
    pub fn prior(&self, rank: usize, total: usize) -> f32 {
        let r = rank.min(MAX_RANK - 1);
        self.weight[r] / self.prefix[total.clamp(1, MAX_RANK)]
    }
}

/// Scratch space for ranking moves (one per search thread).
#[derive(Default)]
pub struct Orderer {
    moves: Vec<Move>,
    scored: Vec<(f32, Move)>,
}

/// Best score first; ties broken by the move so the order is reproducible.
#[inline]
fn by_score(a: &(f32, Move), b: &(f32, Move)) -> Ordering {
    b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1))
}

impl Orderer {
    /// The best `count` legal moves of `pos` that are not in `exclude` (sorted), best first.
    pub fn best(
        &mut self,
        pos: &Position,
        ranking: Ranking,
        params: &SearchParams,
        exclude: &[Move],
        count: usize,
        out: &mut Vec<Move>,
    ) {
        if ranking == Ranking::Cheap && exclude.is_empty() && count <= SMALL_TOP {
            self.cheap_top(pos, &params.ordering, count, out);
            return;
        }
        self.moves.clear();
        pos.generate_moves(&mut self.moves);
        if !exclude.is_empty() {
            self.moves.retain(|m| exclude.binary_search(m).is_err());
        }
        self.score(pos, ranking, params);
        if let Ranking::Refined(k) = ranking {
            self.refine((k as usize).max(count), pos, params);
        }
        let count = count.min(self.scored.len());
        if count == 0 {
            out.clear();
            return;
        }
        if count < self.scored.len() {
            self.scored.select_nth_unstable_by(count - 1, by_score);
        }
        self.scored[..count].sort_unstable_by(by_score);
        out.clear();
        out.extend(self.scored[..count].iter().map(|&(_, m)| m));
    }

    /// The cheap ranking's best `count` moves without building the move list: the moves are
    /// walked along the line words as in move generation, each scored on the spot and kept only
    /// if it enters the running top `count`.
    fn cheap_top(
        &mut self,
        pos: &Position,
        weights: &OrderingWeights,
        count: usize,
        out: &mut Vec<Move>,
    ) {
        out.clear();
        if count == 0 {
            return;
        }
        let f = Features::new(pos, weights);
        let top = &mut self.scored;
        top.clear();
        let mut threshold = f32::NEG_INFINITY;
        for from in pos.amazons(pos.side_to_move()) {
            let fl = &SQUARE_LINES[from.index()];
            for k in 0..4 {
                let line = fl.line[k];
                let p = fl.slot[k] as u32;
                let (lo, hi) = segment(pos.line(line), p);
                for s in (lo..=hi).filter(|&s| s != p) {
                    let to = line_square(line, s);
                    let dest = f.destination(pos, from, to);
                    // No arrow can lift this destination into the top list.
                    if dest + f.best_arrow < threshold {
                        continue;
                    }
                    let tl = &SQUARE_LINES[to.index()];
                    for j in 0..4 {
                        let mut occ = pos.line(tl.line[j]);
                        if j == k {
                            occ &= !(1 << p);
                        }
                        let tp = tl.slot[j] as u32;
                        let (alo, ahi) = segment(occ, tp);
                        for a in (alo..=ahi).filter(|&a| a != tp) {
                            let arrow = line_square(tl.line[j], a);
                            let score = dest + f.arrow(from, to, arrow);
                            if score < threshold {
                                continue;
                            }
                            let cand = (score, Move::new(from, to, arrow));
                            if top.len() == count {
                                if by_score(&cand, &top[count - 1]) != Ordering::Less {
                                    continue;
                                }
                                top.pop();
                            }
                            let at = top
                                .iter()
                                .position(|x| by_score(&cand, x) == Ordering::Less)
                                .unwrap_or(top.len());
                            top.insert(at, cand);
                            if top.len() == count {
                                threshold = top[count - 1].0;
                            }
                        }
                    }
                }
            }
        }
        out.extend(top.iter().map(|&(_, m)| m));
    }

    /// Every legal move of `pos`, best first.
    pub fn rank_all(
        &mut self,
        pos: &Position,
        ranking: Ranking,
        params: &SearchParams,
    ) -> Vec<Move> {
        let mut out = Vec::new();
        self.best(pos, ranking, params, &[], usize::MAX, &mut out);
        out
    }

    /// Keeps the best `k` scored moves and scores them again by one-ply evaluation.
    fn refine(&mut self, k: usize, pos: &Position, params: &SearchParams) {
        if k < self.scored.len() {
            self.scored.select_nth_unstable_by(k - 1, by_score);
            self.scored.truncate(k);
        }
        let mut p = pos.clone();
        for entry in &mut self.scored {
            entry.0 = one_ply(&mut p, entry.1, params);
        }
    }

    /// Fills `scored` with a score for each move in `moves`.
    fn score(&mut self, pos: &Position, ranking: Ranking, params: &SearchParams) {
        self.scored.clear();
        match ranking {
            Ranking::Full => {
                let mut p = pos.clone();
                for &m in &self.moves {
                    self.scored.push((one_ply(&mut p, m, params), m));
                }
            }
            Ranking::Cheap | Ranking::Refined(_) => {
                let f = Features::new(pos, &params.ordering);
                let mut last = None;
                let mut dest = 0.0;
                for &m in &self.moves {
                    if last != Some((m.from, m.to)) {
                        last = Some((m.from, m.to));
                        dest = f.destination(pos, m.from, m.to);
                    }
                    self.scored.push((dest + f.arrow(m.from, m.to, m.arrow), m));
                }
            }
        }
    }
}

/// Up to this many moves the cheap ranking keeps a running top list instead of sorting.
const SMALL_TOP: usize = 16;

/// King neighbours of every square of the 10x10 geometry.
pub(crate) static NEIGHBOURS: [Bitboard; NUM_INDICES] = {
    let mut t = [Bitboard::EMPTY; NUM_INDICES];
    let board = Bitboard::board(10).0;
    let mut i = 0;
    while i < NUM_INDICES {
        let b = 1u128 << i;
        let s = crate::square::STRIDE;
        let spread = b << 1 | b >> 1 | b << s | b >> s | b << (s + 1) | b << (s - 1) | b >> (s + 1);
        t[i] = Bitboard((spread | b >> (s - 1)) & board);
        i += 1;
    }
    t
};

/// `ln(1 + n)` for queen-move counts.
pub(crate) static LN_1P: [f32; 64] = {
    // Natural logarithms from a short series are not available in const context; a table of
    // log2 by bit length refined linearly is accurate to about 1%, plenty for an ordering term.
    let mut t = [0.0f32; 64];
    let mut n = 0;
    while n < 64 {
        let x = (n + 1) as f32;
        let bits = 32 - (n as u32 + 1).leading_zeros();
        let base = (1u32 << (bits - 1)) as f32;
        let log2 = (bits - 1) as f32 + (x - base) / base;
        t[n] = log2 * std::f32::consts::LN_2;
        n += 1;
    }
    t
};

/// The evaluation after `m` for the side that plays it (a move that ends the game is best).
#[inline]
fn one_ply(p: &mut Position, m: Move, params: &SearchParams) -> f32 {
    p.make(m);
    let s = if p.has_legal_move() {
        -evaluate(p, &params.eval).score
    } else {
        f32::INFINITY
    };
    p.unmake(m);
    s
}

/// Per-position tables for the cheap ranking, with the weights folded in.
struct Features {
    /// Score of an arrow on each square, before the terms that depend on the moving amazon.
    arrow: [f32; NUM_INDICES],
    /// Bonus for moving the amazon on each square (escaping a cramped square).
    escape: [f32; NUM_INDICES],
    /// Score of each destination square from the learned reach terms (all 0 when unused).
    dest: [f32; NUM_INDICES],
    near_own: f32,
    mobility: f32,
    /// An upper bound of `arrow()` over all moves.
    best_arrow: f32,
}

impl Features {
    fn new(pos: &Position, w: &OrderingWeights) -> Features {
        let me = pos.side_to_move();
        let own = pos.amazons(me);
        let enemy = pos.amazons(!me);
        let mut arrow = [0.0f32; NUM_INDICES];
        for a in enemy {
            let mobility = pos.destination_count(a) as f32;
            let bonus = w.arrow_near_enemy * (1.0 + 8.0 / (2.0 + mobility));
            for s in NEIGHBOURS[a.index()] {
                arrow[s.index()] += bonus;
            }
        }
        for a in own {
            for s in NEIGHBOURS[a.index()] {
                arrow[s.index()] -= w.arrow_near_own;
            }
        }
        let mine = queen_distances(pos, me);
        let theirs = queen_distances(pos, !me);
        let dm = distance_table(&mine);
        let dt = distance_table(&theirs);
        for s in pos.empty_squares() {
            let (a, b) = (dm[s.index()], dt[s.index()]);
            if a == u8::MAX && b == u8::MAX {
                continue;
            }
            let v = if a.abs_diff(b) <= 1 {
                w.arrow_contested
            } else if b < a {
                w.arrow_enemy_side
            } else {
                -w.arrow_own_side
            };
            arrow[s.index()] += v;
        }
        let mut dest = [0.0f32; NUM_INDICES];
        if w.uses_reach() {
            let r = ReachTables::new(pos);
            for s in pos.empty_squares() {
                let i = s.index();
                arrow[i] += w.arrow_blocks_enemy * r.enemy_reach[i] as f32
                    - w.arrow_blocks_own * r.own_reach[i] as f32;
                dest[i] = w.destination_near_enemy * r.enemy_near[i] as f32
                    - w.destination_attacked * r.enemy_reach[i] as f32;
            }
        }
        let mut escape = [0.0f32; NUM_INDICES];
        for a in own {
            let mobility = pos.destination_count(a) as f32;
            escape[a.index()] = w.escape * 4.0 / (1.0 + mobility);
        }
        // The mover's correction adds at most |near_own| (fitted weights may be negative).
        let best_arrow =
            arrow.iter().copied().fold(f32::NEG_INFINITY, f32::max) + w.arrow_near_own.abs();
        Features {
            arrow,
            escape,
            dest,
            near_own: w.arrow_near_own,
            mobility: w.destination_mobility,
            best_arrow,
        }
    }

    /// Score of the amazon part of a move (the same for all its arrows).
    #[inline]
    fn destination(&self, pos: &Position, from: Square, to: Square) -> f32 {
        // Mobility from the destination, approximately: the start square counts as occupied.
        let mobility = pos.destination_count(to) as usize;
        self.mobility * LN_1P[mobility.min(63)] + self.escape[from.index()] + self.dest[to.index()]
    }

    /// Score of the arrow, correcting the own-amazon term for the amazon that moved.
    #[inline]
    fn arrow(&self, from: Square, to: Square, arrow: Square) -> f32 {
        let near = NEIGHBOURS[arrow.index()];
        let mut s = self.arrow[arrow.index()];
        if near.contains(from) {
            s += self.near_own;
        }
        if near.contains(to) {
            s -= self.near_own;
        }
        s
    }
}

/// Queen distance of every square (`u8::MAX` = unreachable).
pub(crate) fn distance_table(map: &DistanceMap) -> [u8; NUM_INDICES] {
    let mut t = [u8::MAX; NUM_INDICES];
    for d in 1..=map.depth {
        for s in map.levels[d] {
            t[s.index()] = d as u8;
        }
    }
    t
}

/// Per-square counts of amazons that reach a square in one queen move, or stand next to it.
pub(crate) struct ReachTables {
    /// Enemy amazons with a queen line to the square.
    pub enemy_reach: [u8; NUM_INDICES],
    /// Own amazons with a queen line to the square.
    pub own_reach: [u8; NUM_INDICES],
    /// Enemy amazons next to the square.
    pub enemy_near: [u8; NUM_INDICES],
}

impl ReachTables {
    /// The tables for `pos`, from the side to move's point of view (before the move).
    pub fn new(pos: &Position) -> ReachTables {
        let me = pos.side_to_move();
        let mut t = ReachTables {
            enemy_reach: [0; NUM_INDICES],
            own_reach: [0; NUM_INDICES],
            enemy_near: [0; NUM_INDICES],
        };
        for a in pos.amazons(!me) {
            for s in pos.queen_targets(a) {
                t.enemy_reach[s.index()] += 1;
            }
            for s in NEIGHBOURS[a.index()] {
                t.enemy_near[s.index()] += 1;
            }
        }
        for a in pos.amazons(me) {
            for s in pos.queen_targets(a) {
                t.own_reach[s.index()] += 1;
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn rank_priors_are_normalised_and_decreasing() {
        let p = RankPrior::new(1.0);
        let total: f32 = (0..100).map(|r| p.prior(r, 100)).sum();
        assert!((total - 1.0).abs() < 1e-4);
        assert!(p.prior(0, 100) > p.prior(1, 100));
        assert_eq!(p.prior(0, 1), 1.0);
    }

    #[test]
    fn best_with_exclusion_continues_the_ranking() {
        let pos = Position::standard();
        let mut o = Orderer::default();
        let sp = SearchParams::default();
        for ranking in [Ranking::Cheap, Ranking::Full] {
            let all = o.rank_all(&pos, ranking, &sp);
            assert_eq!(all.len(), 2176);
            let mut first = Vec::new();
            o.best(&pos, ranking, &sp, &[], 6, &mut first);
            assert_eq!(first, all[..6]);
            let mut exclude = first.clone();
            exclude.sort();
            let mut next = Vec::new();
            o.best(&pos, ranking, &sp, &exclude, 8, &mut next);
            assert_eq!(next, all[6..14]);
        }
    }

    #[test]
    fn running_top_matches_the_sorted_ranking() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut pos = Position::standard();
        let mut o = Orderer::default();
        let sp = SearchParams::default();
        while let Some(m) = pos.random_move(&mut rng) {
            let all = o.rank_all(&pos, Ranking::Cheap, &sp);
            for count in [1, 2, 5, SMALL_TOP] {
                let mut top = Vec::new();
                o.best(&pos, Ranking::Cheap, &sp, &[], count, &mut top);
                assert_eq!(top, all[..count.min(all.len())], "{pos} {count}");
            }
            pos.make(m);
        }
    }

    #[test]
    fn neighbour_table_and_logs() {
        let a1 = Square::new(0, 0);
        assert_eq!(NEIGHBOURS[a1.index()].count(), 3);
        assert_eq!(NEIGHBOURS[Square::new(4, 4).index()].count(), 8);
        for (n, &v) in LN_1P.iter().enumerate() {
            assert!((v - ((n + 1) as f32).ln()).abs() < 0.1, "{n}");
        }
    }

    #[test]
    fn cheap_ranking_prefers_blocking_to_self_blocking() {
        let pos = Position::standard();
        let mut o = Orderer::default();
        let all = o.rank_all(&pos, Ranking::Cheap, &SearchParams::default());
        let rank = |t: &str| {
            let m = Move::parse(t, 10).unwrap();
            all.iter().position(|&x| x == m).unwrap()
        };
        // d1-d6 then shooting next to the black amazon on a7 beats shooting beside White's
        // own a4 amazon.
        assert!(rank("d1-d6/b8") < rank("d1-d6/b4"));
    }
}
