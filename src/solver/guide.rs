//! The guided root: a ranking of the first moves from outside the proof search (in `otrera
//! solve --guide`, the engine's tree search) picks which of them the solver tries to prove first.
//!
//! Why: df-pn at the root follows the first move whose opponent looks cheapest to refute, and its
//! numbers come from mobility. On 5x6 and 4x7 the winning first moves are blocks the numbers do
//! not favour: both starts stayed open after 600 s, while the positions after the blocks are
//! proven lost for the opponent in minutes. The tree search ranks such blocks at or near its top.
//!
//! How: rounds whose node budget doubles from [`FIRST_BUDGET`]. In a round the candidates still
//! open share the budget by their weights (the CLI gives the square root of the tree search's
//! visits, so a move the tree search is sure of gets most of it without starving the others): each
//! is solved (the position after it, the opponent to move) with its share, and then the whole
//! root with the round's budget. All share one table, so a round goes on from the numbers the last
//! one stored instead of starting afresh. A candidate proven lost for the opponent proves the root;
//! one proven won for the opponent drops out; once none is open, the root gets the rest of the
//! limits. The root's own search thus keeps about half of the nodes: a ranking that names no
//! winning move costs about twice the unguided solve's nodes (a little more for the restarts), and
//! where every first move must be refuted anyway (a lost root) the candidates' work is part of the
//! proof.

use super::keys::Symmetries;
use super::{FirstMoves, Progress, ProofLimits, ProofSolver, SolveReport, Verdict};
use crate::mv::Move;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Nodes the candidates get together in the first round, and the root after them (about three
/// seconds on one core).
pub const FIRST_BUDGET: u64 = 1 << 21;

/// What guides a solve: the candidate first moves and the first round's budget.
#[derive(Clone, Debug)]
pub struct Guide {
    /// First moves, best first, each with a weight (its share of a round's budget among the
    /// candidates still open is its weight over their sum; weights below 0 count as 0, and with
    /// no positive weight the shares are equal).
    pub candidates: Vec<(Move, f64)>,
    /// Nodes the candidates get together in the first round (doubled each round after).
    pub first_budget: u64,
}

/// What one try of a candidate first move found, for the side to move at the root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Proven to win: the root is proven.
    Wins,
    /// Proven to lose: the candidate is dropped.
    Loses,
    /// Not settled within the round's budget.
    Open,
}

/// One try of one candidate (reported as it ends).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The round, from 1.
    pub round: u32,
    /// The candidate first move.
    pub mv: Move,
    /// The node budget it had.
    pub budget: u64,
    /// Nodes it took.
    pub nodes: u64,
    /// What it found.
    pub outcome: Outcome,
}

impl ProofSolver {
    /// Proves or disproves `pos` for its side to move as [`ProofSolver::solve`] does, trying the
    /// `guide`'s candidates before and between passes over the whole root (see the module
    /// comment). Illegal candidates and symmetric images of earlier ones are skipped.
    /// `attempt` is called after each try of a candidate; `progress` every `limits.report_every`
    /// over the whole solve (to within a second), counting all the nodes so far, with the root's
    /// first moves only during the root's passes.
    pub fn solve_guided(
        &mut self,
        pos: &Position,
        guide: &Guide,
        limits: &ProofLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
        attempt: &mut dyn FnMut(&Attempt),
    ) -> SolveReport {
        let started = Instant::now();
        let deadline = limits.time.map(|t| started + t);
        let candidates = &guide.candidates;
        let moves: Vec<Move> = candidates.iter().map(|c| c.0).collect();
        let weight = |m: Move| {
            candidates
                .iter()
                .find(|c| c.0 == m)
                .map_or(0.0, |c| c.1.max(0.0))
        };
        let mut open = distinct_legal(pos, &moves);
        let mut tally = Tally {
            done: Progress::default(),
            started,
        };
        let mut budget = guide.first_budget.max(1);
        let mut round = 1;
        // The solves report at least every second, and their reports are passed on at the
        // solve's own pace: each solve's clock starts afresh, and most are shorter than it.
        let every = limits.report_every;
        let sub_every = every.min(Duration::from_secs(1));
        let mut next_report = every;
        let mut progress = |p: &Progress| {
            if p.elapsed >= next_report {
                next_report = p.elapsed + every;
                progress(p);
            }
        };
        // The limits left for a solve of at most `nodes` nodes; `None` once they are spent.
        let left = |tally: &Tally, nodes: u64| -> Option<ProofLimits> {
            let nodes = nodes.min(limits.nodes.saturating_sub(tally.done.nodes));
            let time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let spent = nodes == 0 || time.is_some_and(|t| t.is_zero());
            (!spent && !stop.load(Ordering::Relaxed)).then_some(ProofLimits {
                nodes,
                time,
                report_every: sub_every,
            })
        };
        let mut proven = None;
        'rounds: while proven.is_none() {
            let total: f64 = open.iter().map(|&m| weight(m)).sum();
            let mut i = 0;
            while i < open.len() {
                let mv = open[i];
                let share = if total > 0.0 {
                    (budget as f64 * weight(mv) / total) as u64
                } else {
                    budget / open.len() as u64
                };
                let share = share.max(1);
                let Some(sub) = left(&tally, share) else {
                    break 'rounds;
                };
                let mut after = pos.clone();
                after.make(mv);
                let before = tally.done.nodes;
                let r = self.counted(&after, &sub, stop, &mut tally, &mut progress, false);
                let outcome = match r.verdict {
                    Verdict::Loss => Outcome::Wins,
                    Verdict::Win(_) => Outcome::Loses,
                    Verdict::Unknown => Outcome::Open,
                };
                attempt(&Attempt {
                    round,
                    mv,
                    budget: share,
                    nodes: tally.done.nodes - before,
                    outcome,
                });
                match outcome {
                    Outcome::Wins => {
                        proven = Some(mv);
                        break 'rounds;
                    }
                    Outcome::Loses => {
                        open.remove(i);
                    }
                    Outcome::Open => i += 1,
                }
            }
            // The root's pass: as many nodes as the candidates had, or all that is left once
            // none is open.
            let share = if open.is_empty() { u64::MAX } else { budget };
            let Some(sub) = left(&tally, share) else {
                break;
            };
            let r = self.counted(pos, &sub, stop, &mut tally, &mut progress, true);
            if r.verdict != Verdict::Unknown || open.is_empty() {
                return r;
            }
            budget = budget.saturating_mul(2);
            round += 1;
        }
        // A last pass lists the root's moves from the table. After a candidate's proof it gets
        // what is left of the limits and mostly settles the root from the table at once (if it
        // does not, the candidate's proof stands); otherwise the limits or the stop flag have
        // ended the search, and it stops at its first check, within a few thousand nodes.
        let last = ProofLimits {
            nodes: match proven {
                Some(_) => limits.nodes.saturating_sub(tally.done.nodes).max(1),
                None => 1,
            },
            time: match (proven, deadline) {
                (Some(_), Some(d)) => Some(d.saturating_duration_since(Instant::now())),
                _ => None,
            },
            report_every: sub_every,
        };
        let mut r = self.counted(pos, &last, stop, &mut tally, &mut progress, true);
        if let Some(mv) = proven {
            // The candidate as tried, not the symmetric image the root's pass may name.
            r.verdict = Verdict::Win(mv);
            r.stopped = false;
        }
        r
    }

    /// One solve of `pos` (the whole root, or the position after a candidate) within `limits`,
    /// its counters added to `tally`; progress reports and the report's statistics count all the
    /// guided solve's nodes so far, and give first moves only for the `root`.
    fn counted(
        &mut self,
        pos: &Position,
        limits: &ProofLimits,
        stop: &AtomicBool,
        tally: &mut Tally,
        progress: &mut dyn FnMut(&Progress),
        root: bool,
    ) -> SolveReport {
        let base = *tally;
        let mut r = self.solve(pos, limits, stop, &mut |p| {
            progress(&base.plus(p, p.first_moves.filter(|_| root)));
        });
        tally.done = tally.plus(&r.stats, None);
        r.stats = tally.done;
        r
    }
}

/// The counters of a guided solve's finished solves, and when it started.
#[derive(Copy, Clone)]
struct Tally {
    done: Progress,
    started: Instant,
}

impl Tally {
    /// These counters plus those of `p`, timed from the start, with `p`'s table use and `first`.
    fn plus(&self, p: &Progress, first: Option<FirstMoves>) -> Progress {
        Progress {
            nodes: self.done.nodes + p.nodes,
            leaves: self.done.leaves + p.leaves,
            proven: self.done.proven + p.proven,
            disproven: self.done.disproven + p.disproven,
            elapsed: self.started.elapsed(),
            table_usage: p.table_usage,
            first_moves: first,
        }
    }
}

/// The legal moves of `moves`, in order, without those that lead to a symmetric image of the
/// position after an earlier one.
pub fn distinct_legal(pos: &Position, moves: &[Move]) -> Vec<Move> {
    let sym = Symmetries::of(pos);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for &mv in moves {
        let mut after = pos.clone();
        if after.play(mv).is_err() {
            continue;
        }
        let key = sym.keys(&after).canonical_with(&Default::default());
        if !seen.contains(&key) {
            seen.push(key);
            out.push(mv);
        }
    }
    out
}
