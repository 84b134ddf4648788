//! Checking a proof after the search: a walk over the proof the table holds, which counts its
//! positions and checks every one of them against its children.
//!
//! At a position the proof says its side to move wins, the walk needs one whole move (a queen
//! step, then an arrow) after which the opponent is shown lost; at one it says the side to move
//! loses, every move the search generates there (the same moves: one perfect fill in an exact
//! territory, symmetric moves merged) must lead to a position shown won for the opponent. Leaves
//! are the positions the regions settle and those whose side to move cannot move. The table only
//! says which move to try first: a claim is never taken from it, so a result read by mistake (a
//! false match) is found out, not trusted. Where the table has lost part of the proof (entries
//! replaced by others), the winner's position is searched again and the walk goes on; the nodes
//! that takes are counted apart (see [`Search::holds_win`]).
//!
//! The walk trusts what the search trusts besides: the rules, the regions' bounds and the exact
//! endgame solver (all checked against exhaustive search in the tests). Positions are told apart
//! by their 96-bit keys, so positions already checked are not checked twice.

use super::{Child, Half, Search, INF};
use crate::position::Position;
use crate::solver::keys::{Key, Keys};
use crate::solver::view::{Reading, View};
use crate::square::Square;
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// Plies from which the walk keeps its arrows' views (see `Search::views`), far above any
/// search below a position searched again, which starts at [`RESOLVE_PLY`].
const WALK_PLY: usize = 1024;

/// The ply a position the walk searches again is given: past the root's special cases (0 and 1).
const RESOLVE_PLY: usize = 2;

/// The stop flag is looked at every this many positions checked.
const CHECK_EVERY: u64 = 4096;

/// How many times a winner's position is searched again before the walk gives up on it.
const MAX_RESOLVES: usize = 4;

/// What a proof check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProofCheck {
    /// Whether every position of the proof was checked against its children.
    pub verified: bool,
    /// Positions of the proof where the winner is to move (one move shown), distinct up to
    /// symmetry and territory abstraction.
    pub winner: u64,
    /// Positions of the proof where the loser is to move (every move shown losing).
    pub loser: u64,
    /// Leaves: positions settled by their regions, or whose side to move cannot move.
    pub leaves: u64,
    /// Nodes as the search counts them (whole-move and half-way positions expanded) that the
    /// proof needs: two at a winner's position (it and the chosen step), one plus one per step
    /// at a loser's. A search that expanded nothing else would have taken this many.
    pub nodes: u64,
    /// Nodes searched again where the table had lost part of the proof.
    pub resolved_nodes: u64,
    /// Where the check failed: a position the proof needs and the walk could not show.
    pub gap: Option<String>,
    /// Whether the walk was stopped before it ended.
    pub interrupted: bool,
}

/// The walk's state.
#[derive(Default)]
struct Walk {
    /// Positions shown (or settled) already, by key: whether shown won for the side to move.
    done: HashMap<Key, bool>,
    check: ProofCheck,
    visits: u64,
}

impl Search<'_> {
    /// Checks the proof that `pos`'s side to move wins (`win`) or loses, as the table holds it
    /// after a solve, searching again where the table lost a part. `pos` is left as it was.
    pub fn check_proof(&mut self, pos: &mut Position, win: bool) -> ProofCheck {
        let keys = self.sym.keys(pos);
        let (key, view) = self.whole_key(pos, &keys);
        let mut walk = Walk::default();
        let verified = self.holds(&mut walk, pos, keys, key, view, win, 0);
        let mut check = walk.check;
        check.verified = verified && !check.interrupted;
        if check.verified {
            check.gap = None;
        } else if check.gap.is_none() && !check.interrupted {
            check.gap = Some(pos.to_string());
        }
        check
    }

    /// Whether whole-move position `pos` (hashes `keys`, key `key`, view `view`) is shown won
    /// (`win`) or lost for its side to move.
    #[allow(clippy::too_many_arguments)]
    fn holds(
        &mut self,
        walk: &mut Walk,
        pos: &mut Position,
        keys: Keys,
        key: Key,
        view: View,
        win: bool,
        depth: usize,
    ) -> bool {
        if let Some(&shown) = walk.done.get(&key) {
            // The same game again (by symmetry, transposition or abstraction): its value cannot
            // differ.
            return shown == win;
        }
        walk.visits += 1;
        if walk.visits.is_multiple_of(CHECK_EVERY) && self.shared.stop.load(Ordering::Relaxed) {
            walk.check.interrupted = true;
        }
        if walk.check.interrupted {
            return false;
        }
        let settled = if !pos.has_legal_move() {
            Some(false)
        } else {
            match view.settle(pos, self.endgame) {
                Reading::Settled(v) => Some(v),
                Reading::Open { .. } => None,
            }
        };
        let shown = match settled {
            Some(v) => v == win,
            None if win => self.holds_win(walk, pos, &keys, key, &view, depth),
            None => self.holds_loss(walk, pos, &keys, &view, depth),
        };
        if !shown {
            if walk.check.gap.is_none() {
                walk.check.gap = Some(pos.to_string());
            }
            return false;
        }
        let count = match (settled, win) {
            (Some(_), _) => &mut walk.check.leaves,
            (None, true) => &mut walk.check.winner,
            (None, false) => &mut walk.check.loser,
        };
        *count += 1;
        walk.done.insert(key, win);
        true
    }

    /// Whether one move of `pos`'s side to move leaves the opponent shown lost; tries the moves
    /// the table marks as proven, and where none is shown searches again and retries.
    ///
    /// A search again must not start from the whole position: its proven step would answer at
    /// once. That step's entry is what is left of a proof whose arrow the table lost (replaced
    /// by another position's entry), so the step itself is searched again first, which finds
    /// the arrow anew or corrects the step's numbers; then the whole position.
    fn holds_win(
        &mut self,
        walk: &mut Walk,
        pos: &mut Position,
        keys: &Keys,
        key: Key,
        view: &View,
        depth: usize,
    ) -> bool {
        let side = pos.side_to_move();
        for attempt in 0..=MAX_RESOLVES {
            // A candidate's failure leaves a gap that a later candidate may make good.
            let gap = walk.check.gap.clone();
            let hollow = match self.some_move_wins(walk, pos, keys, view, depth) {
                Ok(()) => {
                    walk.check.gap = gap;
                    walk.check.nodes += 2;
                    return true;
                }
                Err(hollow) => hollow,
            };
            if walk.check.interrupted || attempt == MAX_RESOLVES {
                break;
            }
            walk.check.gap = gap;
            let before = self.counters.nodes;
            for (from, to) in hollow {
                let half = self.sym.after_step(keys, from, to, side);
                let step_key = self.sym.step_key(keys, from, to, side);
                pos.step(from, to);
                let arrow = Half::Arrow { from, to };
                self.mid(pos, half, step_key, *view, arrow, INF, INF, RESOLVE_PLY);
                pos.step(from, to);
            }
            let (pn, _) = self.mid(pos, *keys, key, *view, Half::Step, INF, INF, RESOLVE_PLY);
            walk.check.resolved_nodes += self.counters.nodes - before;
            // The search stops on the same flag as the walk.
            walk.check.interrupted |= self.aborted;
            if pn != 0 {
                break;
            }
        }
        false
    }

    /// Whether a move of `pos`'s side to move that the table numbers as winning is shown so;
    /// if not, the steps the table has as proven with no arrow proven below them (see
    /// [`Search::holds_win`]).
    fn some_move_wins(
        &mut self,
        walk: &mut Walk,
        pos: &mut Position,
        keys: &Keys,
        view: &View,
        depth: usize,
    ) -> Result<(), Vec<(Square, Square)>> {
        let mut steps = Vec::new();
        self.expand_steps(pos, keys, view, u32::MAX, &mut steps);
        // Proven steps first; the others may hold proven arrows the step's entry lost.
        steps.sort_by_key(|c| c.p);
        let ply = WALK_PLY + depth;
        let mut hollow = Vec::new();
        let mut arrows = Vec::new();
        for step in steps {
            let half = self.step_into(pos, keys, view, &step, ply, &mut arrows);
            let mut shown = false;
            let proven = arrows.iter().any(|a| a.p == 0);
            for a in arrows.iter().filter(|a| a.p == 0) {
                shown = self.arrow_holds(walk, pos, &half, a, ply, false, depth);
                if shown || walk.check.interrupted {
                    break;
                }
            }
            pos.step(step.mv.from, step.mv.to);
            if shown {
                return Ok(());
            }
            if walk.check.interrupted {
                break;
            }
            if step.p == 0 && !proven {
                hollow.push((step.mv.from, step.mv.to));
            }
        }
        Err(hollow)
    }

    /// Whether every move of `pos`'s side to move leaves the opponent shown winning.
    fn holds_loss(
        &mut self,
        walk: &mut Walk,
        pos: &mut Position,
        keys: &Keys,
        view: &View,
        depth: usize,
    ) -> bool {
        let mut steps = Vec::new();
        self.expand_steps(pos, keys, view, u32::MAX, &mut steps);
        // A step the table has as winning contradicts the loss (the list stops at it).
        if steps.iter().any(|c| c.p == 0) {
            return false;
        }
        let ply = WALK_PLY + depth;
        let nodes = 1 + steps.len() as u64;
        let mut arrows = Vec::new();
        for step in steps {
            let half = self.step_into(pos, keys, view, &step, ply, &mut arrows);
            // An arrow the table has as winning contradicts the loss too.
            let shown = arrows.iter().all(|a| a.p != 0)
                && arrows
                    .iter()
                    .all(|a| self.arrow_holds(walk, pos, &half, a, ply, true, depth));
            pos.step(step.mv.from, step.mv.to);
            if !shown {
                return false;
            }
        }
        walk.check.nodes += nodes;
        true
    }

    /// Plays queen step `step` of `pos` (whose hashes are `keys` and view `view`) and numbers
    /// the arrows after it into `arrows` as the search does, their views kept at `ply`. Returns
    /// the half-way position's hashes; `pos` is left after the step.
    fn step_into(
        &mut self,
        pos: &mut Position,
        keys: &Keys,
        view: &View,
        step: &Child,
        ply: usize,
        arrows: &mut Vec<Child>,
    ) -> Keys {
        let (from, to) = (step.mv.from, step.mv.to);
        let half = self.sym.after_step(keys, from, to, pos.side_to_move());
        pos.step(from, to);
        arrows.clear();
        self.expand_arrows(pos, &half, view, from, to, ply, arrows);
        half
    }

    /// Whether the position after arrow `a` of half-way position `pos` (hashes `half`, arrows
    /// numbered at `ply` and `depth`) is shown won (`win`) or lost for its side to move.
    #[allow(clippy::too_many_arguments)]
    fn arrow_holds(
        &mut self,
        walk: &mut Walk,
        pos: &mut Position,
        half: &Keys,
        a: &Child,
        ply: usize,
        win: bool,
        depth: usize,
    ) -> bool {
        let keys = self.sym.after_arrow(half, a.mv.to, a.mv.arrow);
        let view = self.views[ply][a.view as usize];
        pos.shoot(a.mv.arrow);
        let shown = self.holds(walk, pos, keys, a.key, view, win, depth + 1);
        pos.unshoot(a.mv.arrow);
        shown
    }
}
