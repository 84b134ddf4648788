//! The whole-position solver in play: a player that tries to prove small positions before handing
//! over to another player (the MCTS).
//!
//! Once a position is *small enough* — it is not decided yet and its mixed regions (those still
//! holding amazons of both sides) have at most `max_empty` empty squares together — the solver
//! ([`crate::solver`]) gets a slice of the move's budget ([`slice`](fn@slice)):
//! - a proven win plays the proven winning move (the solver's table, kept between the moves of a
//!   game, makes every later move of the win a table hit, so the win is played out exactly);
//! - a proven loss plays the move whose refutation costs the most proof work (see
//!   `Prover::most_resistant`);
//! - otherwise the inner player searches with what is left of the budget.
//!
//! Decided positions go straight to the inner player: the MCTS plays those by the exact endgame
//! solver's perfect fill-in, which also maximises the margin, where the solver only knows win or
//! loss.

use crate::eval::{evaluate, EvalParams};
use crate::game::Game;
use crate::mv::Move;
use crate::player::{Decision, Limits, MoveStats, Player, SearchReport};
use crate::position::Position;
use crate::regions::{RegionKind, Regions};
use crate::solver::{self, MoveStatus, ProofSolver, SolveReport, Verdict};
use crossbeam::channel::{unbounded, Receiver, RecvTimeoutError, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Share of the move's soft time limit the solver may take before the inner player searches.
pub const TIME_SHARE: f64 = 0.5;
/// Playouts of the budget per solver node when only a playout limit is set (no clock), so that a
/// seeded engine with a playout limit stays reproducible. In late 10x10 middle games the MCTS
/// runs about 100,000 to 180,000 playouts a second and the solver expands 15,000 to 50,000
/// nodes, so this gives the solver about the share of time [`TIME_SHARE`] gives it on a clock.
pub const PLAYOUTS_PER_NODE: u64 = 8;
/// The solver's slice of a search without limits (`analyze`, pondering), before the inner player
/// takes over until stopped.
pub const UNBOUNDED_SLICE: Duration = Duration::from_secs(2);
/// Solver nodes, at most, spent re-proving the refutation of one losing move (measuring how much
/// it resists).
pub const PROBE_NODES: u64 = 20_000;
/// Table of the probe solver, MiB.
const PROBE_MB: usize = 1;
/// Memory the solvers take besides the main table: the probe table and the two solvers' endgame
/// tables (about 1.4 MB each), MiB.
pub const OVERHEAD_MB: usize = 4;
/// Memory the solvers take besides the main table with `threads` threads: [`OVERHEAD_MB`] and an
/// endgame table (about 1.4 MB) for each thread past the first, MiB.
pub fn overhead_mb(threads: usize) -> usize {
    OVERHEAD_MB + (threads.max(1) - 1) * 3 / 2
}

/// Smallest main table worth having, MiB.
const MIN_TABLE_MB: usize = 1;

/// The empty squares of the mixed regions of `pos`, or `None` when no region is mixed (the
/// position is decided).
pub fn mixed_empty(pos: &Position) -> Option<u32> {
    let mut mixed = false;
    let mut empty = 0;
    for r in Regions::of(pos) {
        if r.kind() == RegionKind::Mixed {
            mixed = true;
            empty += r.empty.count();
        }
    }
    mixed.then_some(empty)
}

/// The solver's budget for a search with `limits`: a time slice, a node count, or both.
pub fn slice(limits: &Limits) -> solver::ProofLimits {
    let mut out = solver::ProofLimits::default();
    match (limits.soft, limits.hard) {
        (None, None) => match limits.playouts {
            Some(p) => out.nodes = (p / PLAYOUTS_PER_NODE).max(1),
            None => out.time = Some(UNBOUNDED_SLICE),
        },
        (soft, hard) => {
            let base = soft.or(hard).unwrap_or_default().mul_f64(TIME_SHARE);
            let cap = hard.map_or(base, |h| h.mul_f64(TIME_SHARE));
            out.time = Some(base.min(cap));
            if let Some(p) = limits.playouts {
                out.nodes = (p / PLAYOUTS_PER_NODE).max(1);
            }
        }
    }
    out
}

/// The inner player's limits once the solver has used `spent` of them.
fn remaining(limits: &Limits, spent: Duration) -> Limits {
    Limits {
        soft: limits.soft.map(|s| s.saturating_sub(spent)),
        hard: limits.hard.map(|h| h.saturating_sub(spent)),
        ..limits.clone()
    }
}

/// What the solver thread found: the solve's report, then the losing moves probed (hardest
/// first) when it was a proven loss.
enum Found {
    Solved(SolveReport),
    Probed(Vec<(Move, u64, f32)>),
}

/// The solvers and what they need, owned by whichever thread runs them.
struct Prover {
    /// The main solver; its table is kept between the moves of a game.
    solver: ProofSolver,
    /// Re-proves refutations from scratch to measure them (see `most_resistant`).
    probe: ProofSolver,
    /// Whether `solver` holds results since it was last cleared.
    dirty: bool,
    eval: EvalParams,
}

/// One job for the solver thread.
struct Job {
    pos: Position,
    budget: solver::ProofLimits,
    /// Until when the losing moves of a proven loss may be probed.
    probe_deadline: Option<Instant>,
    /// Nodes for probing, when the budget is in nodes.
    probe_nodes: u64,
    /// Threads the solve may use.
    threads: usize,
}

impl Prover {
    /// A prover whose main table has `table_mb` MiB.
    fn new(table_mb: usize, eval: EvalParams) -> Box<Prover> {
        Box::new(Prover {
            solver: ProofSolver::new(table_mb),
            probe: ProofSolver::new(PROBE_MB),
            dirty: false,
            eval,
        })
    }

    /// Among the root moves of a proven loss, the one whose refutation needs the most proof
    /// work, measured by re-proving the opponent's win after each move from an empty table
    /// (at most [`PROBE_NODES`] each; a move not re-proven within that counts as the hardest),
    /// scanning in the solver's order until `deadline` or `nodes` probe nodes are spent. Ties go
    /// to the better static evaluation. A refutation the opponent needs more work to find gives
    /// it more chances to go wrong, and big proofs go with long resistance; the evaluation alone
    /// cannot tell lost moves apart once the margins are all negative. Returns the moves probed,
    /// hardest first, with their work and evaluation.
    fn most_resistant(
        &mut self,
        pos: &Position,
        moves: &[(Move, MoveStatus)],
        deadline: Option<Instant>,
        mut nodes: u64,
        stop: &AtomicBool,
    ) -> Vec<(Move, u64, f32)> {
        let mut scored: Vec<(Move, u64, f32)> = Vec::new();
        for &(mv, _) in moves {
            let time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if time.is_some_and(|t| t.is_zero()) || nodes == 0 || stop.load(Ordering::Relaxed) {
                break;
            }
            let mut after = pos.clone();
            after.make(mv);
            self.probe.clear();
            let limits = solver::ProofLimits {
                nodes: PROBE_NODES.min(nodes),
                time,
                ..solver::ProofLimits::default()
            };
            let r = self.probe.solve(&after, &limits, stop, &mut |_| {});
            nodes = nodes.saturating_sub(r.stats.nodes);
            let work = match r.verdict {
                Verdict::Win(_) => r.stats.nodes,
                // Cut off by the node cap: at least the cap, the most any move can score.
                Verdict::Unknown if r.stats.nodes >= PROBE_NODES => PROBE_NODES,
                // Cut off by the deadline or the stop flag: not measured.
                Verdict::Unknown => break,
                // The opponent loses after it: the proof said otherwise (cannot happen with a
                // consistent solver); such a move is the one to play.
                Verdict::Loss => u64::MAX,
            };
            let margin = -evaluate(&after, &self.eval).score;
            scored.push((mv, work, margin));
        }
        scored.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
        scored
    }

    /// Runs `job`, sending the solve's report and then, for a proven loss, the probed moves.
    fn run(&mut self, job: &Job, stop: &AtomicBool, out: &Sender<Found>) {
        self.dirty = true;
        // All the search's threads on a clock; one on a node budget alone, whose result must not
        // depend on how the threads were scheduled (seeded play stays reproducible).
        let threads = if job.budget.time.is_some() {
            job.threads
        } else {
            1
        };
        self.solver.set_threads(threads);
        let report = self.solver.solve(&job.pos, &job.budget, stop, &mut |_| {});
        let loss = report.verdict == Verdict::Loss;
        let moves = report.moves.clone();
        let spent = report.stats.nodes;
        if out.send(Found::Solved(report)).is_err() || !loss {
            return;
        }
        let nodes = job.probe_nodes.saturating_sub(spent);
        let scored = self.most_resistant(&job.pos, &moves, job.probe_deadline, nodes, stop);
        let _ = out.send(Found::Probed(scored));
    }
}

/// Where the prover is: at hand, or lent to a solver thread that has not finished (it ran past
/// the time it was waited for; its stop flag is up and it ends at its next limit check).
enum Slot {
    Idle(Option<Box<Prover>>),
    Busy {
        thread: JoinHandle<Box<Prover>>,
        stop: Arc<AtomicBool>,
    },
}

/// A player that proves small positions and lets `inner` play the others.
///
/// The solver runs on a thread of its own, and this player waits for it only as long as the
/// move's budget allows (the solver checks its limits only every so many nodes, and a node of a
/// big position can be slow): past that the tree search takes over, and the solver thread,
/// told to stop, finishes on its own; it is waited for at the next position that needs it.
pub struct ProofPlayer {
    inner: Box<dyn Player>,
    max_empty: u32,
    table_mb: usize,
    /// The search's threads, which the solver uses while the tree search waits for it.
    threads: usize,
    eval: EvalParams,
    slot: Slot,
}

/// Waits for the next message of the solver thread until `deadline` (for ever with `None`),
/// polling `stop`; `None` when the deadline passed or the search was stopped first (the thread
/// is then told to stop too), or the thread ended.
fn wait_for(
    rx: &Receiver<Found>,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    inner_stop: &AtomicBool,
) -> Option<Found> {
    const POLL: Duration = Duration::from_millis(5);
    loop {
        if stop.load(Ordering::Relaxed) {
            // Answer at once: the thread stops at its next limit check, on its own.
            inner_stop.store(true, Ordering::Relaxed);
            return None;
        }
        let step = match deadline {
            Some(d) => d.saturating_duration_since(Instant::now()).min(POLL),
            None => POLL,
        };
        match rx.recv_timeout(step) {
            Ok(f) => return Some(f),
            Err(RecvTimeoutError::Disconnected) => return None,
            Err(RecvTimeoutError::Timeout) => {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return None;
                }
            }
        }
    }
}

impl ProofPlayer {
    /// Proves positions whose mixed regions have at most `max_empty` empty squares, with a main
    /// table of `table_mb` MiB (plus [`OVERHEAD_MB`]) and `threads` threads, and lets `inner` play
    /// the rest. `eval` breaks ties between equally resistant losing moves.
    pub fn new(
        inner: Box<dyn Player>,
        max_empty: u32,
        table_mb: usize,
        threads: usize,
        eval: EvalParams,
    ) -> ProofPlayer {
        ProofPlayer {
            inner,
            max_empty,
            table_mb: table_mb.max(MIN_TABLE_MB),
            threads: threads.max(1),
            eval,
            slot: Slot::Idle(None),
        }
    }

    /// Whether the solver is tried on `pos`: its mixed empty squares when it is.
    fn small_enough(&self, pos: &Position) -> Option<u32> {
        mixed_empty(pos).filter(|&e| e <= self.max_empty)
    }

    /// The prover, once a thread that ran late has handed it back: waiting for it until
    /// `deadline` (for good with `None`), `None` when it is still out then; `Some(None)` before
    /// the first use.
    fn take_prover(&mut self, deadline: Option<Instant>) -> Option<Option<Box<Prover>>> {
        if let Slot::Busy { thread, stop } = &self.slot {
            stop.store(true, Ordering::Relaxed);
            while !thread.is_finished() {
                match deadline {
                    Some(d) if Instant::now() >= d => return None,
                    Some(_) => std::thread::sleep(Duration::from_millis(1)),
                    None => break,
                }
            }
        }
        match std::mem::replace(&mut self.slot, Slot::Idle(None)) {
            Slot::Idle(p) => Some(p),
            // A panic in the solver thread loses only the prover: another is built.
            Slot::Busy { thread, .. } => Some(thread.join().ok()),
        }
    }

    /// Tries to prove `game`'s position within `limits`' slice; the decision when it did.
    fn prove(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        start: Instant,
        mixed: u32,
    ) -> Option<Decision> {
        let pos = game.position();
        let ply = game.moves().len();
        let budget = slice(limits);
        // A thread left running by an earlier search (stopped pondering, say) gets a quarter of
        // the slice to end; searches without a clock wait for it, to stay reproducible.
        let Some(prover) = self.take_prover(budget.time.map(|t| start + t / 4)) else {
            log::debug!("solver: ply {ply}: the solver thread of an earlier search still runs");
            return None;
        };
        // How long to wait for the solve (half as long again as its slice), and until when a
        // proven loss may be probed (three quarters of the move's soft time), waiting a little
        // longer for that too; searches without a clock wait for their node budget.
        let move_time = limits.soft.into_iter().chain(limits.hard).min();
        let solve_wait = budget.time.map(|t| start + t.mul_f64(1.5));
        let (probe_deadline, probe_wait) = match move_time {
            Some(t) => (Some(start + t.mul_f64(0.75)), Some(start + t.mul_f64(0.9))),
            None => (solve_wait, solve_wait.map(|d| d + UNBOUNDED_SLICE / 2)),
        };
        let job = Job {
            pos: pos.clone(),
            budget,
            probe_deadline,
            probe_nodes: budget.nodes,
            threads: self.threads,
        };
        let inner_stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = unbounded();
        let flag = inner_stop.clone();
        let (table_mb, eval) = (self.table_mb, self.eval.clone());
        let thread = std::thread::Builder::new()
            .name("solver".into())
            .spawn(move || {
                // Built here on first use: a big table takes a while to allocate, and games
                // that never get small allocate nothing.
                let mut prover = prover.unwrap_or_else(|| Prover::new(table_mb, eval));
                prover.run(&job, &flag, &tx);
                prover
            })
            .expect("spawning the solver thread");
        self.slot = Slot::Busy {
            thread,
            stop: inner_stop.clone(),
        };
        let solved = wait_for(&rx, solve_wait, stop, &inner_stop);
        let Some(Found::Solved(report)) = solved else {
            log::debug!(
                "solver: ply {ply}: no answer within {:.3} s, the tree search takes over",
                start.elapsed().as_secs_f64()
            );
            inner_stop.store(true, Ordering::Relaxed);
            return None;
        };
        let s = report.stats;
        let side = pos.side_to_move();
        let level = match report.verdict {
            Verdict::Unknown => log::Level::Debug,
            _ => log::Level::Info,
        };
        log::log!(
            level,
            "solver: ply {ply} {side} to move, mixed empty {mixed}: {} in {:.3} s, {} nodes",
            report.verdict,
            s.elapsed.as_secs_f64(),
            s.nodes
        );
        let (moves, winrate) = match report.verdict {
            Verdict::Unknown => return None,
            Verdict::Win(m) => (vec![m], 1.0),
            Verdict::Loss => {
                let probed = match wait_for(&rx, probe_wait, stop, &inner_stop) {
                    Some(Found::Probed(scored)) => scored,
                    _ => {
                        inner_stop.store(true, Ordering::Relaxed);
                        Vec::new()
                    }
                };
                if let Some(best) = probed.first() {
                    log::debug!(
                        "solver: resisting with {} (refutation {} nodes, {} moves probed)",
                        best.0,
                        best.1,
                        probed.len()
                    );
                }
                let mut moves: Vec<Move> = probed.iter().map(|m| m.0).collect();
                if moves.is_empty() {
                    // Not even one probe: every move loses, the solver's first will do.
                    let first = report
                        .moves
                        .first()
                        .map(|m| m.0)
                        .or_else(|| pos.legal_moves().first().copied())?;
                    moves.push(first);
                }
                (moves, 0.0)
            }
        };
        // The thread has finished or is about to: take the prover back now when it has.
        if let Some(p) = self.take_prover(Some(Instant::now())) {
            self.slot = Slot::Idle(p);
        }
        let best = moves[0];
        Some(Decision {
            mv: Some(best),
            winrate: Some(winrate),
            report: SearchReport {
                moves: moves
                    .iter()
                    .map(|&mv| MoveStats {
                        mv,
                        visits: 0,
                        winrate,
                        prior: 1.0,
                        pv: vec![mv],
                    })
                    .collect(),
                playouts: 0,
                nodes: s.nodes,
                elapsed: start.elapsed(),
                solved: Some(report.verdict),
            },
        })
    }
}

impl Player for ProofPlayer {
    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Decision {
        let start = Instant::now();
        let pos = game.position();
        if let Some(mixed) = self.small_enough(pos).filter(|_| pos.has_legal_move()) {
            if let Some(d) = self.prove(game, limits, stop, start, mixed) {
                if limits.report_interval.is_some() {
                    on_report(&d.report);
                }
                return d;
            }
        }
        let rest = remaining(limits, start.elapsed());
        self.inner.choose(game, &rest, stop, on_report)
    }

    fn clear(&mut self) {
        self.inner.clear();
        // Only a prover that holds results needs clearing (the solver's table is big).
        if matches!(self.slot, Slot::Idle(None)) {
            return;
        }
        if let Some(Some(mut p)) = self.take_prover(None) {
            if p.dirty {
                p.solver.clear();
                p.dirty = false;
            }
            self.slot = Slot::Idle(Some(p));
        }
    }

    /// Solves with the main solver, on this thread, after any solver thread still running has
    /// ended: no second table, and what it proves is at hand for play.
    fn solve(
        &mut self,
        pos: &Position,
        limits: &solver::ProofLimits,
        stop: &AtomicBool,
    ) -> Option<Verdict> {
        let prover = self.take_prover(None).flatten();
        let mut prover = prover.unwrap_or_else(|| Prover::new(self.table_mb, self.eval.clone()));
        prover.dirty = true;
        prover.solver.set_threads(self.threads);
        let verdict = prover.solver.solve(pos, limits, stop, &mut |_| {}).verdict;
        self.slot = Slot::Idle(Some(prover));
        Some(verdict)
    }

    fn name(&self) -> &'static str {
        self.inner.name()
    }
}

impl Drop for ProofPlayer {
    /// Tells a solver thread still running to stop (it ends at its next limit check).
    fn drop(&mut self) {
        if let Slot::Busy { stop, .. } = &self.slot {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_follow_the_limits() {
        let ms = Duration::from_millis;
        let timed = Limits {
            soft: Some(ms(400)),
            hard: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(slice(&timed).time, Some(ms(200)));
        assert_eq!(slice(&timed).nodes, u64::MAX);
        let tight = Limits {
            soft: Some(ms(400)),
            hard: Some(ms(300)),
            ..Limits::default()
        };
        assert_eq!(slice(&tight).time, Some(ms(150)));
        let playouts = Limits {
            playouts: Some(1000),
            ..Limits::default()
        };
        assert_eq!(slice(&playouts).time, None);
        assert_eq!(slice(&playouts).nodes, 1000 / PLAYOUTS_PER_NODE);
        assert_eq!(slice(&Limits::default()).time, Some(UNBOUNDED_SLICE));
        let rest = remaining(&timed, ms(250));
        assert_eq!((rest.soft, rest.hard), (Some(ms(150)), Some(ms(750))));
        assert_eq!(remaining(&timed, ms(2000)).hard, Some(Duration::ZERO));
    }

    #[test]
    fn mixed_empty_counts_only_contested_squares() {
        // A decided position: no mixed region.
        let decided: Position = "Bx3/xx3/5/5/W4 b".parse().unwrap();
        assert_eq!(mixed_empty(&decided), None);
        // A mixed region of 2 empty squares (b5 b4) walled off from a white one of 9.
        let p: Position = "B1x2/W1x2/xxx2/xxx2/xxxW1 w".parse().unwrap();
        assert_eq!(mixed_empty(&p), Some(2));
        assert_eq!(p.empty_squares().count(), 11);
    }
}
