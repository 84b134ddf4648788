//! Proving whole positions: who wins with perfect play, and a winning move.
//!
//! Depth-first proof-number search (`dfpn`) over the full game, with a transposition table
//! keyed by position up to board symmetry (`keys`). The regions (`view`, with the exact
//! endgame solver for one-side regions) settle leaves without search when their bounds decide
//! them, and let keys and moves ignore how the territories are filled. A proof can be checked
//! afterwards, position by position ([`ProofSolver::check_proof`]).
//! Meant for small boards (up to about 6x5) and for late middle games on 10x10 whose open area is
//! small.

mod dfpn;
pub mod guide;
mod keys;
mod report;
mod table;
mod tempo;
mod view;
mod zeroed;

pub use crate::proof::{ProofLimits, Verdict};
pub use dfpn::verify::ProofCheck;
pub use report::{FirstMoves, MoveStatus, Progress, SolveReport};

use crate::endgame::FillSolver as Endgame;
use crate::mv::Move;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The solver: keeps its transposition table (and the endgame solvers') between solves.
pub struct ProofSolver {
    table: table::Table,
    /// One exact endgame solver per thread.
    endgames: Vec<Endgame>,
}

/// What one thread's search ended with.
struct ThreadResult {
    pn: u32,
    dn: u32,
    counters: dfpn::Counters,
    aborted: bool,
    root_win: Option<Move>,
    moves: Vec<(Move, MoveStatus)>,
}

impl ProofSolver {
    /// A one-thread solver with a table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> ProofSolver {
        ProofSolver::with_threads(hash_mb, 1)
    }

    /// A solver whose solves run `threads` searches sharing one table of about `hash_mb` MiB.
    pub fn with_threads(hash_mb: usize, threads: usize) -> ProofSolver {
        ProofSolver {
            table: table::Table::new(hash_mb),
            endgames: (0..threads.max(1)).map(|_| Endgame::new()).collect(),
        }
    }

    /// The table's size in MiB: what it may grow to.
    pub fn table_mib(&self) -> usize {
        self.table.max_mib()
    }

    /// The size a table starts at, MiB (less than [`ProofSolver::table_mib`] when it may grow).
    pub fn table_start_mib(&self) -> usize {
        self.table.mib()
    }

    /// MiB of the table held in memory: what the solves since it was made (or cleared) touched,
    /// never more than [`ProofSolver::table_mib`].
    pub fn table_resident_mib(&self) -> f64 {
        self.table.resident_mib()
    }

    /// Threads a solve uses.
    pub fn threads(&self) -> usize {
        self.endgames.len()
    }

    /// Makes later solves use `threads` threads (at least one); the table is kept.
    pub fn set_threads(&mut self, threads: usize) {
        self.endgames.resize_with(threads.max(1), Endgame::new);
    }

    /// Forgets all stored results.
    pub fn clear(&mut self) {
        self.table.clear();
        self.endgames.iter_mut().for_each(Endgame::clear);
    }

    /// Proves or disproves `pos` for its side to move within `limits`, or until `stop` is raised;
    /// `progress` is called every `limits.report_every`.
    ///
    /// With several threads every thread searches the root with the same table, each breaking
    /// ties between equally promising children its own way; results one thread stores are found
    /// by the others, and the first to settle the root stops them all.
    ///
    /// The table starts small and, once three quarters full, grows to its whole size: the solve then starts
    /// again with the empty whole table (see [`SolveReport::grown`]).
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: &ProofLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SolveReport {
        let started = Instant::now();
        if !pos.has_legal_move() {
            return SolveReport {
                verdict: Verdict::Loss,
                stats: Progress::default(),
                moves: Vec::new(),
                stopped: false,
                grown: None,
            };
        }
        let deadline = limits.time.map(|t| started + t);
        let mut report =
            self.solve_once(pos, limits.nodes, deadline, started, limits, stop, progress);
        if report.verdict == Verdict::Unknown
            && self.table.wants_growth()
            && !stop.load(Ordering::Relaxed)
            && deadline.is_none_or(|d| Instant::now() < d)
            && report.stats.nodes < limits.nodes
        {
            let grown = (self.table.mib(), report.stats.nodes);
            self.table.grow();
            let nodes = limits.nodes - report.stats.nodes;
            report = self.solve_once(pos, nodes, deadline, started, limits, stop, progress);
            report.grown = Some(grown);
        }
        report
    }

    /// One solve with the table as it is, stopped by `node_limit`, `deadline`, `stop`, or by
    /// the table's asking to grow.
    #[allow(clippy::too_many_arguments)]
    fn solve_once(
        &mut self,
        pos: &Position,
        node_limit: u64,
        deadline: Option<Instant>,
        started: Instant,
        limits: &ProofLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SolveReport {
        let shared = dfpn::Shared {
            node_limit,
            deadline,
            stop,
            done: AtomicBool::new(false),
            may_grow: true,
            nodes: AtomicU64::new(0),
            started,
        };
        let table = &self.table;
        let every = limits.report_every;
        let shared = &shared;
        let mut report =
            |c: &dfpn::Counters, elapsed: Duration, usage: f64, first: Option<FirstMoves>| {
                progress(&Progress {
                    first_moves: first,
                    ..progress_of(c, elapsed, usage)
                });
            };
        let (first, rest) = self
            .endgames
            .split_first_mut()
            .expect("one endgame per thread");
        let results: Vec<ThreadResult> = std::thread::scope(|scope| {
            let helpers: Vec<_> = rest
                .iter_mut()
                .enumerate()
                .map(|(i, endgame)| {
                    scope.spawn(move || run_thread(pos, table, shared, every, i + 1, endgame, None))
                })
                .collect();
            let mut results = vec![run_thread(
                pos,
                table,
                shared,
                every,
                0,
                first,
                Some(&mut report),
            )];
            results.extend(
                helpers
                    .into_iter()
                    .map(|h| h.join().expect("a solver thread panicked")),
            );
            results
        });
        let elapsed = started.elapsed();
        let mut counters = dfpn::Counters::default();
        for r in &results {
            counters.nodes += r.counters.nodes;
            counters.leaves += r.counters.leaves;
            counters.proven += r.counters.proven;
            counters.disproven += r.counters.disproven;
        }
        // The thread that settled the root, else the main one.
        let main = results
            .iter()
            .find(|r| r.pn == 0 || r.dn == 0)
            .unwrap_or(&results[0]);
        let mut moves = main.moves.clone();
        let rank = |s: &MoveStatus| match s {
            MoveStatus::Wins => (0, 0),
            MoveStatus::Open { dn, .. } => (1, *dn),
            MoveStatus::Loses => (2, 0),
        };
        moves.sort_by_key(|(_, s)| rank(s));
        let verdict = if main.pn == 0 {
            match main.root_win.or_else(|| moves.first().map(|&(m, _)| m)) {
                Some(m) if moves.contains(&(m, MoveStatus::Wins)) => Verdict::Win(m),
                _ => Verdict::Unknown,
            }
        } else if main.dn == 0 {
            Verdict::Loss
        } else {
            Verdict::Unknown
        };
        SolveReport {
            verdict,
            stats: progress_of(&counters, elapsed, self.table.usage()),
            moves,
            stopped: verdict == Verdict::Unknown && results.iter().any(|r| r.aborted),
            grown: None,
        }
    }

    /// Checks the proof of the last solve of `pos`, whose side to move it proved to win (`win`)
    /// or to lose: walks the proof the table holds, checking every position of it against its
    /// children and searching again where the table lost a part (see [`ProofCheck`]). Stops
    /// early when `stop` is raised.
    pub fn check_proof(&mut self, pos: &Position, win: bool, stop: &AtomicBool) -> ProofCheck {
        let shared = dfpn::Shared::unlimited(stop);
        let endgame = &mut self.endgames[0];
        let mut search =
            dfpn::Search::new(pos, &self.table, endgame, &shared, 0, Duration::MAX, None);
        search.check_proof(&mut pos.clone(), win)
    }
}

/// Runs thread `thread`'s search of `pos` to its end.
fn run_thread<'a>(
    pos: &Position,
    table: &'a table::Table,
    shared: &'a dfpn::Shared<'a>,
    report_every: Duration,
    thread: usize,
    endgame: &'a mut Endgame,
    report: Option<dfpn::Report<'a>>,
) -> ThreadResult {
    let mut search = dfpn::Search::new(pos, table, endgame, shared, thread, report_every, report);
    let mut root = pos.clone();
    let (pn, dn) = search.run(&mut root);
    // Only the main thread and a thread that settled the root report their moves.
    let moves = if thread == 0 || pn == 0 || dn == 0 {
        search.root_moves(&mut root)
    } else {
        Vec::new()
    };
    ThreadResult {
        pn,
        dn,
        counters: search.counters,
        aborted: search.aborted,
        root_win: search.root_win,
        moves,
    }
}

fn progress_of(c: &dfpn::Counters, elapsed: Duration, usage: f64) -> Progress {
    Progress {
        nodes: c.nodes,
        leaves: c.leaves,
        proven: c.proven,
        disproven: c.disproven,
        elapsed,
        table_usage: usage,
        first_moves: None,
    }
}

/// The proof check (`dfpn/verify.rs`) through the facade.
#[cfg(test)]
mod proof_check_tests {
    use super::dfpn::{overwrite, INF};
    use super::{ProofLimits, ProofSolver, Verdict};
    use crate::position::Position;
    use std::sync::atomic::AtomicBool;

    /// The 4x4 start, lost for White, solved.
    fn solved_4x4() -> (Position, ProofSolver) {
        let pos = Position::named_start(4, 4).unwrap();
        let mut solver = ProofSolver::new(16);
        let never = AtomicBool::new(false);
        let report = solver.solve(&pos, &ProofLimits::default(), &never, &mut |_| {});
        assert_eq!(report.verdict, Verdict::Loss);
        (pos, solver)
    }

    #[test]
    fn a_proof_checks_out_and_the_opposite_claim_does_not() {
        let (pos, mut solver) = solved_4x4();
        let never = AtomicBool::new(false);
        let check = solver.check_proof(&pos, false, &never);
        assert!(check.verified, "{check:?}");
        assert!(check.winner > 0 && check.loser > 0 && check.leaves > 0);
        assert!(check.nodes > 2 * check.winner + check.loser);
        assert_eq!(check.gap, None);
        // The check searches the winner's positions again when the table lacks a proof: a claim
        // that White wins finds none, whatever the table says.
        let wrong = solver.check_proof(&pos, true, &never);
        assert!(!wrong.verified);
        assert!(wrong.gap.is_some());
        // A table with nothing in it: the check searches again and still shows the loss.
        solver.clear();
        let again = solver.check_proof(&pos, false, &never);
        assert!(again.verified, "{again:?}");
        assert!(again.resolved_nodes > 0);
        // A raised stop flag interrupts it.
        solver.clear();
        let stop = AtomicBool::new(true);
        let stopped = solver.check_proof(&pos, false, &stop);
        assert!(!stopped.verified && stopped.interrupted, "{stopped:?}");
    }

    #[test]
    fn a_proof_whose_arrow_the_table_lost_is_found_again() {
        // After each of White's first moves, Black's winning reply: its position's entry replaced
        // by open numbers, as when another position takes its slot. Black's proven step is then
        // hollow, and the walk must search it again rather than trust it or give up.
        let (pos, mut solver) = solved_4x4();
        let never = AtomicBool::new(false);
        let mut lost = 0;
        for m in pos.legal_moves().into_iter().step_by(7) {
            let mut after = pos.clone();
            after.make(m);
            let mut own = ProofSolver::new(4);
            let reply = own.solve(&after, &ProofLimits::default(), &never, &mut |_| {});
            let Verdict::Win(r) = reply.verdict else {
                panic!("4x4 is lost for White, but not after {m}");
            };
            after.make(r);
            overwrite(&solver.table, &after, 1, 1);
            lost += 1;
        }
        assert!(lost > 3);
        let check = solver.check_proof(&pos, false, &never);
        assert!(check.verified, "{check:?}");
        assert!(check.resolved_nodes > 0, "{check:?}");
    }

    #[test]
    fn a_result_read_by_mistake_is_found_out() {
        // A stored entry that says Black, to move after one of White's first moves, is lost:
        // what a false match would read. The root's loss can no longer be shown.
        let (pos, mut solver) = solved_4x4();
        let never = AtomicBool::new(false);
        let mut after = pos.clone();
        after.make(pos.legal_moves()[0]);
        overwrite(&solver.table, &after, INF, 0);
        let check = solver.check_proof(&pos, false, &never);
        assert!(!check.verified, "{check:?}");
        assert!(check.gap.is_some());
    }
}
