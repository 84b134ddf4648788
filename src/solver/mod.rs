//! Proving whole positions: who wins with perfect play, and a winning move.
//!
//! Depth-first proof-number search (`dfpn`) over the full game, with a transposition table
//! keyed by position up to board symmetry (`symmetry`). The regions (`view`, with the exact
//! endgame solver for one-side regions) settle leaves without search when their bounds decide
//! them, and let keys and moves ignore how the territories are filled. A proof can be checked
//! afterwards, position by position ([`ProofSolver::check_proof`]).
//! Meant for small boards (up to about 6x5) and for late middle games on 10x10 whose open area is
//! small.

pub mod cli;
mod dfpn;
pub mod guide;
pub mod oracle;
mod symmetry;
mod table;
mod tempo;
mod view;
mod zeroed;

pub use crate::proof::{Limits, Verdict};
pub use dfpn::ProofCheck;

use crate::endgame::FillSolver as Endgame;
use crate::mv::Move;
use crate::position::Position;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Where a solve stands (also the final statistics).
#[derive(Copy, Clone, Debug, Default)]
pub struct Progress {
    /// Positions expanded.
    pub nodes: u64,
    /// New leaves looked at (settled statically or given initial numbers).
    pub leaves: u64,
    /// Positions stored as wins for their side to move.
    pub proven: u64,
    /// Positions stored as losses for their side to move.
    pub disproven: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
    /// Fraction of the table's slots in use.
    pub table_usage: f64,
    /// The root's first moves by what is known of them (in progress lines only).
    pub first_moves: Option<FirstMoves>,
}

/// The root's whole moves (up to board symmetry) counted by what the table and the bounds know of
/// them, as [`SolveReport::moves`] would list them at that moment: the figure to watch in a long
/// solve of a lost position, where every first move must be refuted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FirstMoves {
    /// Proven to win.
    pub won: usize,
    /// Proven to lose.
    pub lost: usize,
    /// All of them.
    pub total: usize,
}

impl FirstMoves {
    /// The counts of a list of root moves and their status.
    pub fn of(moves: &[(Move, MoveStatus)]) -> FirstMoves {
        let count = |f: fn(&MoveStatus) -> bool| moves.iter().filter(|(_, s)| f(s)).count();
        FirstMoves {
            won: count(|s| *s == MoveStatus::Wins),
            lost: count(|s| *s == MoveStatus::Loses),
            total: moves.len(),
        }
    }
}

impl Progress {
    /// Expanded positions per second.
    pub fn rate(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for Progress {
    /// One line: nodes, rate, table use, proven and disproven counts, elapsed time.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {} rate {:.0}/s table {:.1}% proven {} disproven {} time {:.1}s",
            self.nodes,
            self.rate(),
            self.table_usage * 100.0,
            self.proven,
            self.disproven,
            self.elapsed.as_secs_f64()
        )?;
        if let Some(m) = self.first_moves {
            write!(
                f,
                " first moves won {} lost {} of {}",
                m.won, m.lost, m.total
            )?;
        }
        Ok(())
    }
}

/// A root move and what is known about it, from the mover's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveStatus {
    /// Proven to win.
    Wins,
    /// Proven to lose.
    Loses,
    /// Open, with the proof and disproof numbers of the position after it (opponent to move).
    Open {
        /// Proof number of the opponent's win.
        pn: u32,
        /// Disproof number of the opponent's win.
        dn: u32,
    },
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// What was proved.
    pub verdict: Verdict,
    /// Final counters.
    pub stats: Progress,
    /// The root's moves (up to board symmetry) with their status, most promising first.
    pub moves: Vec<(Move, MoveStatus)>,
    /// Whether the solve was stopped by its limits or the stop flag.
    pub stopped: bool,
    /// If the table grew: its size before (MiB) and the nodes searched with it, which the
    /// counters above do not include (they are the search with the whole table).
    pub grown: Option<(usize, u64)>,
}

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
        limits: &Limits,
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
        limits: &Limits,
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
