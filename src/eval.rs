//! Static evaluation in the style of Lieberum's AMAZONG: territory by queen and king distance,
//! position terms, and a penalty for poorly mobile amazons, blended by a game-phase measure that
//! falls to zero as the regions close; a logistic maps the score to a win probability.
//!
//! With `D1`/`D2` the queen/king distance maps of each side (`territory.rs`), over empty squares:
//! - `t1`, `t2`: +1 for a square the side reaches first, -1 for one the opponent reaches first,
//!   `kappa` (a tempo bonus for the side to move) for a tie at a finite distance;
//! - `c1 = 2 * sum(2^-D1(own) - 2^-D1(opp))`, `c2 = sum(clamp((D2(opp) - D2(own)) / 6, -1, 1))`;
//! - `w = sum(2^-|D1(own) - D1(opp)|)` over squares both sides reach: the contested area. The phase
//!   is `w / phase_norm`, capped at 1; at phase 0 the board is split into separate regions;
//! - mobility: for each amazon, a penalty growing as its number of queen moves falls below
//!   `mobility_threshold`.
//!
//! The score is `t1` weighted by a blend from `t1_open` (phase 1) to 1 (phase 0), plus the other
//! terms weighted by their `*_open` coefficients times the phase. So once the regions are sealed the
//! score is exactly the territory difference. Every sum is taken a distance level at a time with
//! popcounts, never square by square.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::Position;
use crate::territory::{king_distances, queen_distances, DistanceMap, MAX_DISTANCE};

/// The evaluation weights, all in one place.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalParams {
    /// Credit to the side to move for a square both sides reach at the same distance.
    pub kappa: f32,
    /// Contested area `w` at which the phase reaches 1 (the opening).
    pub phase_norm: f32,
    /// Weight of queen territory `t1` at phase 1 (it is 1 at phase 0).
    pub t1_open: f32,
    /// Weight of king territory `t2` at phase 1.
    pub t2_open: f32,
    /// Weight of the queen position term `c1` at phase 1.
    pub c1_open: f32,
    /// Weight of the king position term `c2` at phase 1.
    pub c2_open: f32,
    /// Weight of the mobility term at phase 1 (the cost of one fully trapped amazon).
    pub mobility_open: f32,
    /// An amazon with fewer queen moves than this is penalised (quadratically in the shortfall).
    pub mobility_threshold: f32,
    /// Logistic scale (score units per factor e of odds) at phase 1.
    pub scale_open: f32,
    /// Logistic scale at phase 0, when the score is a territory count.
    pub scale_end: f32,
    /// Score the side to move needs, at phase 0, for even odds: in a sealed position the side to
    /// move must fill first, so it wins only with at least one more square.
    pub tempo_end: f32,
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            kappa: 0.1,
            phase_norm: 40.0,
            t1_open: 0.3,
            t2_open: 0.5,
            c1_open: 0.2,
            c2_open: 0.25,
            mobility_open: 4.0,
            mobility_threshold: 10.0,
            scale_open: 6.0,
            scale_end: 1.5,
            tempo_end: 0.5,
        }
    }
}

/// The evaluation terms, each from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Terms {
    /// Queen-distance territory (with the tempo credit `kappa` for ties).
    pub t1: f32,
    /// King-distance territory (with the tempo credit for ties).
    pub t2: f32,
    /// Queen position term.
    pub c1: f32,
    /// King position term.
    pub c2: f32,
    /// Mobility: the opponent's penalties minus the side to move's, each in 0..=1 per amazon.
    pub mobility: f32,
    /// Contested area (the same for both sides).
    pub w: f32,
}

/// A position's score and phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// Score for the side to move, in squares of territory (positive is good).
    pub score: f32,
    /// Game phase, from 1 (open board) down to 0 (every region sealed).
    pub phase: f32,
}

impl Evaluation {
    /// Win probability of the side to move.
    #[inline]
    pub fn win_probability(&self, params: &EvalParams) -> f32 {
        let scale = params.scale_end + (params.scale_open - params.scale_end) * self.phase;
        let offset = params.tempo_end * (1.0 - self.phase);
        logistic((self.score - offset) / scale)
    }
}

/// `1 / (1 + e^-x)`.
#[inline]
pub fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The win probability of the side to move: 0 when it has no move (it has lost), otherwise the
/// logistic of the evaluation.
#[inline]
pub fn win_probability(pos: &Position, params: &EvalParams) -> f32 {
    if !pos.has_legal_move() {
        return 0.0;
    }
    evaluate(pos, params).win_probability(params)
}

/// Evaluates `pos` for the side to move.
#[inline]
pub fn evaluate(pos: &Position, params: &EvalParams) -> Evaluation {
    evaluation_of(&terms(pos, params), params)
}

/// The score and phase the terms `t` give.
#[inline]
pub fn evaluation_of(t: &Terms, params: &EvalParams) -> Evaluation {
    let phase = (t.w / params.phase_norm).min(1.0);
    let t1_weight = 1.0 + (params.t1_open - 1.0) * phase;
    let score = t1_weight * t.t1
        + phase
            * (params.t2_open * t.t2
                + params.c1_open * t.c1
                + params.c2_open * t.c2
                + params.mobility_open * t.mobility);
    Evaluation { score, phase }
}

/// The evaluation terms of `pos` for the side to move.
///
/// The sums are popcounts; on x86-64 processors with the `popcnt` instruction (all from the last
/// fifteen years) a copy compiled to use it is chosen at run time, which makes the evaluation
/// about a third faster than the portable bit-twiddling count.
#[inline]
pub fn terms(pos: &Position, params: &EvalParams) -> Terms {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor supports `popcnt`, checked just above.
            return unsafe { terms_popcnt(pos, params) };
        }
    }
    terms_impl(pos, params)
}

/// [`terms_impl`] compiled with the `popcnt` instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn terms_popcnt(pos: &Position, params: &EvalParams) -> Terms {
    terms_impl(pos, params)
}

/// The four distance maps the evaluation is built on, for the side to move (`me`) and the
/// opponent (`op`).
#[derive(Clone, Copy, Debug)]
pub struct Maps {
    /// Queen distances of the side to move.
    pub q_me: DistanceMap,
    /// Queen distances of the opponent.
    pub q_op: DistanceMap,
    /// King distances of the side to move.
    pub k_me: DistanceMap,
    /// King distances of the opponent.
    pub k_op: DistanceMap,
}

impl Maps {
    /// The maps of `pos`.
    #[inline(always)]
    pub fn of(pos: &Position) -> Maps {
        let me = pos.side_to_move();
        Maps {
            q_me: queen_distances(pos, me),
            q_op: queen_distances(pos, !me),
            k_me: king_distances(pos, me),
            k_op: king_distances(pos, !me),
        }
    }
}

#[inline(always)]
fn terms_impl(pos: &Position, params: &EvalParams) -> Terms {
    terms_from_maps(pos, params, &Maps::of(pos))
}

/// The evaluation terms of `pos` from its maps (for callers that use the maps too).
#[inline(always)]
pub fn terms_from_maps(pos: &Position, params: &EvalParams, m: &Maps) -> Terms {
    let me = pos.side_to_move();
    let (q_me, q_op, k_me, k_op) = (&m.q_me, &m.q_op, &m.k_me, &m.k_op);
    let (cq_me, cq_op) = (cumulative(q_me), cumulative(q_op));
    let (ck_me, ck_op) = (cumulative(k_me), cumulative(k_op));
    let (mine, theirs, ties) = race(q_me, q_op, &cq_me, &cq_op);
    let t1 = mine - theirs + params.kappa * ties;
    let (mine, theirs, ties) = race(k_me, k_op, &ck_me, &ck_op);
    let t2 = mine - theirs + params.kappa * ties;
    Terms {
        t1,
        t2,
        c1: 2.0 * (weighted_area(q_me) - weighted_area(q_op)),
        c2: king_position(k_me, k_op, &ck_me, &ck_op),
        mobility: mobility_penalty(pos, !me, params) - mobility_penalty(pos, me, params),
        w: contested(q_me, q_op),
    }
}

/// Squares at distance at most `d`, for `d` in `0..=MAX_DISTANCE` (sources excluded).
type Cumulative = [Bitboard; MAX_DISTANCE + 1];

#[inline(always)]
fn cumulative(map: &DistanceMap) -> Cumulative {
    let mut cum = [map.reached; MAX_DISTANCE + 1];
    let mut acc = Bitboard::EMPTY;
    cum[0] = acc;
    for (c, level) in cum.iter_mut().zip(&map.levels).take(map.depth + 1).skip(1) {
        acc |= *level;
        *c = acc;
    }
    cum
}

/// Squares `a` reaches strictly first, squares `b` reaches strictly first, and ties at a finite
/// distance (`ca`, `cb`: the cumulative sets of `a` and `b`).
#[inline(always)]
fn race(a: &DistanceMap, b: &DistanceMap, ca: &Cumulative, cb: &Cumulative) -> (f32, f32, f32) {
    let (mut first_a, mut first_b, mut ties) = (0, 0, 0);
    for d in 1..=a.depth.max(b.depth) {
        first_a += (a.levels[d].0 & !cb[d].0).count_ones();
        first_b += (b.levels[d].0 & !ca[d].0).count_ones();
        ties += (a.levels[d] & b.levels[d]).count();
    }
    (first_a as f32, first_b as f32, ties as f32)
}

/// `sum(2^-d)` over the squares a map reaches.
#[inline(always)]
fn weighted_area(map: &DistanceMap) -> f32 {
    (1..=map.depth)
        .map(|d| map.levels[d].count() as f32 * POW2_NEG[d])
        .sum()
}

/// `2^-d` for each distance.
const POW2_NEG: [f32; MAX_DISTANCE + 1] = {
    let mut t = [0.0f32; MAX_DISTANCE + 1];
    let mut d = 0;
    let mut v = 1.0f32;
    while d <= MAX_DISTANCE {
        t[d] = v;
        v *= 0.5;
        d += 1;
    }
    t
};

/// `w`: the sum of `2^-|da - db|` over squares both maps reach. Pairs of levels more than 6 apart
/// add less than 1/64 a square and are skipped.
#[inline(always)]
fn contested(a: &DistanceMap, b: &DistanceMap) -> f32 {
    const SPAN: usize = 6;
    if (a.reached & b.reached).is_empty() {
        return 0.0;
    }
    let mut w = 0.0;
    for i in 1..=a.depth {
        let la = a.levels[i];
        let lo = i.saturating_sub(SPAN).max(1);
        let hi = (i + SPAN).min(b.depth);
        for j in lo..=hi {
            let n = (la & b.levels[j]).count();
            if n != 0 {
                w += n as f32 * POW2_NEG[i.abs_diff(j)];
            }
        }
    }
    w
}

/// `c2 = sum(clamp((db - da) / 6, -1, 1))` with unreachable squares at infinite distance, as
/// `(1/6) * sum over k = 1..=6 of (#{db - da >= k} - #{da - db >= k})`; each count is a popcount
/// per level of one map against the other's cumulative sets.
#[inline(always)]
fn king_position(a: &DistanceMap, b: &DistanceMap, ca: &Cumulative, cb: &Cumulative) -> f32 {
    let ahead = |x: &DistanceMap, cy: &Cumulative| -> u32 {
        let mut total = 0;
        for d in 1..=x.depth {
            let level = x.levels[d].0;
            for k in 1..=6 {
                total += (level & !cy[(d + k - 1).min(MAX_DISTANCE)].0).count_ones();
            }
        }
        total
    };
    (ahead(a, cb) as f32 - ahead(b, ca) as f32) / 6.0
}

/// Sum over `color`'s amazons of `(shortfall / threshold)^2`, the shortfall being how many queen
/// moves the amazon lacks below `mobility_threshold`.
#[inline(always)]
fn mobility_penalty(pos: &Position, color: Color, params: &EvalParams) -> f32 {
    let mut total = 0.0;
    for a in pos.amazons(color) {
        let short = params.mobility_threshold - pos.destination_count(a) as f32;
        if short > 0.0 {
            let x = short / params.mobility_threshold;
            total += x * x;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mv::Move;

    fn eval(text: &str) -> (Evaluation, Terms) {
        let pos: Position = text.parse().unwrap();
        let p = EvalParams::default();
        (evaluate(&pos, &p), terms(&pos, &p))
    }

    #[test]
    fn symmetric_positions_score_even() {
        // Positions symmetric under a top-bottom mirror that swaps the colours: every term is even,
        // apart from the tempo credit the side to move gets for tied squares.
        let boards = [
            "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3",
            "2B2B2/8/B6B/8/8/W6W/8/2W2W2",
            "1B2B1/B4B/6/6/W4W/1W2W1",
            "3B2B3/10/3x2x3/B8B/4xx4/4xx4/W8W/3x2x3/10/3W2W3",
        ];
        let p = EvalParams::default();
        for board in boards {
            let white: Position = format!("{board} w").parse().unwrap();
            let black: Position = format!("{board} b").parse().unwrap();
            let t = terms(&white, &p);
            assert_eq!(t, terms(&black, &p), "{board}");
            assert_eq!((t.c1, t.c2, t.mobility), (0.0, 0.0, 0.0), "{board}");
            for credit in [t.t1, t.t2] {
                let ties = credit / p.kappa;
                assert!(ties >= 0.0 && (ties - ties.round()).abs() < 1e-3, "{board}");
            }
            assert_eq!(evaluate(&white, &p), evaluate(&black, &p));
        }
    }

    #[test]
    fn colour_flip_negates_everything_but_tempo() {
        // The same position seen from the other side (mirrored top to bottom, colours swapped).
        let a = "3B2B3/10/2x7/B8B/3x6/10/W5x2W/10/10/3W2W3 w";
        let b = "3B2B3/10/10/B5x2B/10/3x6/W8W/2x7/10/3W2W3 b";
        let (ea, ta) = eval(a);
        let (eb, tb) = eval(b);
        assert!((ea.score - eb.score).abs() < 1e-4, "{ea:?} {eb:?}");
        assert_eq!(ta, tb);
    }

    #[test]
    fn enclosed_amazon_scores_badly() {
        // The same arrows on a2, b2 and b1; in the first position they wall in a white amazon on
        // a1, in the second that amazon stands free on a4.
        let walled = "3B2B3/10/10/B8B/10/10/9W/10/xx8/Wx1W2W3 w";
        let free = "3B2B3/10/10/B8B/10/10/W8W/10/xx8/1x1W2W3 w";
        let p = EvalParams::default();
        let w: Position = walled.parse().unwrap();
        let f: Position = free.parse().unwrap();
        let ew = evaluate(&w, &p);
        let ef = evaluate(&f, &p);
        assert!(ew.score < ef.score - 3.0, "{ew:?} vs {ef:?}");
        assert!(ew.win_probability(&p) < 0.3, "{ew:?}");
        // And the trapped side's mobility term shows it.
        assert!(terms(&w, &p).mobility < 0.0);
    }

    #[test]
    fn sealed_score_is_territory_difference() {
        // A wall of arrows on rank 6 separates White (ranks 1-5: 50 squares, 2 amazons) from Black
        // (ranks 7-10: 40 squares, 4 amazons, 3 arrows).
        let cases = [
            (
                "3B2B3/x1x1x5/10/B8B/xxxxxxxxxx/10/10/W8W/10/10 w",
                48.0 - 33.0,
            ),
            (
                "3B2B3/x1x1x5/10/B8B/xxxxxxxxxx/10/10/W8W/10/10 b",
                33.0 - 48.0,
            ),
            // White a1 owns b1, a2, b2; White d1 is walled in; Black a4 owns b4 and c4.
            ("B2x/xxxx/2xx/W1xW w", 3.0 - 2.0),
            ("B2x/xxxx/2xx/W1xW b", 2.0 - 3.0),
        ];
        let p = EvalParams::default();
        for (text, want) in cases {
            let pos: Position = text.parse().unwrap();
            let t = terms(&pos, &p);
            assert_eq!(t.w, 0.0, "{text}");
            let e = evaluate(&pos, &p);
            assert_eq!(e.phase, 0.0);
            assert_eq!(e.score, want, "{text}");
        }
    }

    #[test]
    fn lost_position_has_zero_probability() {
        let pos: Position = "Wx/xB w".parse().unwrap();
        assert_eq!(win_probability(&pos, &EvalParams::default()), 0.0);
    }

    #[test]
    fn a_good_move_raises_the_score() {
        // Shooting next to an opponent amazon is better than shooting into one's own corner.
        let pos = Position::standard();
        let p = EvalParams::default();
        let after = |t: &str| {
            let mut q = pos.clone();
            q.play(Move::parse(t, 10).unwrap()).unwrap();
            -evaluate(&q, &p).score
        };
        assert!(after("d1-d7/d8") > after("d1-d2/a2"));
    }
}
