//! Multithreaded Monte Carlo tree search with evaluated playout cut-offs.
//!
//! - `node.rs`: atomic node statistics and the virtual-loss guard;
//! - `arena.rs`, `tree.rs`: the fixed-size tree with lazily grown children lists, tree reuse and PV;
//! - `ordering.rs`: move ranking and priors for progressive widening;
//! - `playout.rs`: the playout policy; `exact.rs`: positions with known values;
//! - `search.rs`: the worker loop, limits and reports; `params.rs`: the tunables.
//!
//! [`MctsPlayer`] ties them to the [`Player`] contract: it keeps its tree between moves and walks it
//! down along the moves played since its last search.

pub mod arena;
pub mod exact;
pub mod node;
pub mod ordering;
pub mod params;
pub mod playout;
pub mod search;
pub mod tree;

use crate::endgame::{is_decided, Budget, MovesLeft};
use crate::eval::evaluate;
use crate::game::Game;
use crate::mv::Move;
use crate::player::{Decision, Limits, MoveStats, Player, SearchReport};
use crate::position::Position;
use exact::Oracle;
use node::{PROVEN_LOSS, PROVEN_WIN};
use ordering::{Orderer, RankPrior, Ranking};
pub use params::SearchParams;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use search::{Shared, Totals};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tree::Tree;

/// Below this hard limit the root is ordered by the cheap features only (the full one-ply
/// ordering of a 10x10 opening position takes a few milliseconds).
const QUICK_SEARCH: Duration = Duration::from_millis(50);

/// Longest perfect fill-in reported as the principal variation of a decided position.
const FILL_PV_LENGTH: usize = 20;

/// How far past its hard limit a search may end before it is logged as an overrun (the last
/// batch of playouts and the report are not interruptible).
const OVERRUN_SLACK: Duration = Duration::from_millis(20);

/// The Monte Carlo tree search player.
pub struct MctsPlayer {
    tree: Tree,
    params: SearchParams,
    priors: RankPrior,
    /// One per search thread (the first also plays the fill-in of decided positions).
    oracles: Vec<Oracle>,
    seed: Option<u64>,
    entropy: SmallRng,
    orderer: Orderer,
    /// The game (start and moves) whose current position is the tree's root.
    root_game: Option<(Position, Vec<Move>)>,
    totals: Totals,
}

impl MctsPlayer {
    /// A player searching with `threads` threads and a tree of `tree_bytes`, reproducible when
    /// seeded, tuned by `params`. Every thread's endgame oracle ([`exact::ORACLE_BYTES`]) comes
    /// on top: `crate::memory::split` shares a `memory` setting out between them.
    pub fn new(
        threads: usize,
        tree_bytes: usize,
        seed: Option<u64>,
        params: SearchParams,
    ) -> MctsPlayer {
        MctsPlayer {
            tree: Tree::new(tree_bytes),
            priors: RankPrior::new(params.prior_decay),
            params,
            oracles: (0..threads.max(1)).map(|_| Oracle::default()).collect(),
            seed,
            entropy: SmallRng::from_entropy(),
            orderer: Orderer::default(),
            root_game: None,
            totals: Totals::default(),
        }
    }

    /// Totals of the last search.
    pub fn totals(&self) -> Totals {
        self.totals
    }

    /// The tree (for inspection and tests).
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Moves the tree's root to `game`'s position, keeping the subtree when the game continues
    /// the one searched last, and clearing it otherwise.
    fn sync(&mut self, game: &Game) {
        let reused = match &self.root_game {
            Some((start, moves)) if start == game.start() && game.moves().starts_with(moves) => {
                self.tree.advance(&game.moves()[moves.len()..])
            }
            _ => false,
        };
        if reused {
            log::debug!(
                "search tree reused: {} visits, {} nodes",
                self.tree.root().visits(),
                self.tree.usage().0
            );
        } else {
            self.tree.clear();
        }
        self.root_game = Some((game.start().clone(), game.moves().to_vec()));
    }

    /// In a decided position, the answer without searching: the solver's perfect fill-in move
    /// (it keeps the side's moves left maximal, which also maximises the margin of a win and
    /// gives a lost game its best chance), with win rate 1 or 0 once the winner is proven (an
    /// estimate from the bounds otherwise). `None` when the position is not decided, the fill-in
    /// is off (`endgame_root_nodes` 0), or the solver found no move (it always does when the side
    /// to move can move).
    fn fill_in(
        &mut self,
        pos: &Position,
        limits: &Limits,
        start: Instant,
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Option<Decision> {
        if self.params.endgame_root_nodes == 0 || !is_decided(pos) {
            return None;
        }
        // The default 2,000,000 nodes solve regions of 25 squares in milliseconds; only rare
        // large defective ones need more, and then half the hard limit is all they get.
        let mut budget = Budget::nodes(self.params.endgame_root_nodes);
        if let Some(hard) = limits.hard {
            budget = budget.until(start + hard / 2);
        }
        let oracle = &mut self.oracles[0];
        let mv = oracle.solver().perfect_move(pos, budget)?;
        let score = oracle.solver().outcome(pos, budget).score()?;
        let winrate = exact::score_verdict(&score, &self.params.eval).value();
        // The fill-in that follows, both sides playing perfectly.
        let mut pv = vec![mv];
        let mut line = pos.clone();
        line.make(mv);
        while pv.len() < FILL_PV_LENGTH {
            match oracle.solver().perfect_move(&line, budget) {
                Some(m) => {
                    line.make(m);
                    pv.push(m);
                }
                None => break,
            }
        }
        let report = SearchReport {
            moves: vec![MoveStats {
                mv,
                visits: 0,
                winrate: winrate.map_or(0.5, f64::from),
                prior: 1.0,
                pv,
            }],
            playouts: 0,
            nodes: 0,
            elapsed: start.elapsed(),
            solved: None,
        };
        if limits.report_interval.is_some() {
            on_report(&report);
        }
        self.totals = Totals {
            elapsed: report.elapsed,
            ..Totals::default()
        };
        Some(Decision {
            mv: Some(mv),
            winrate: winrate.map(f64::from),
            report,
        })
    }

    /// When the root is proven lost (every child is proven lost for the side to move), the child
    /// that resists longest: the best margin for the side to move after the move, exact from the
    /// endgame solver when the position after it is decided, the static evaluation otherwise.
    /// The most-visited child is only the one whose loss the search proved last, often a quick one.
    /// Children are scanned in the tree's order (best prior first) until `deadline`; `None` when
    /// the root has no children or the deadline left no time for the first one.
    fn most_resistant_child(&mut self, pos: &Position, deadline: Option<Instant>) -> Option<u32> {
        let list = self.tree.children(self.tree.root())?;
        let mut budget = Budget::nodes(self.params.endgame_nodes.max(1));
        if let Some(d) = deadline {
            budget = budget.until(d);
        }
        let mut best: Option<(u32, f32)> = None;
        for i in 0..list.len() {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let c = list.child(i);
            let mut after = pos.clone();
            after.make(self.tree.node(c).mv());
            let exact = is_decided(&after)
                .then(|| self.oracles[0].solver().outcome(&after, budget).score())
                .flatten();
            // For the side that moved: its moves left against the opponent's (bounds' midpoints
            // when the budget ran out), or minus the evaluation for the opponent, who is to move.
            let margin = match exact {
                Some(score) => {
                    let mid = |m: MovesLeft| (m.lo + m.hi) as f32 / 2.0;
                    mid(score.other) - mid(score.to_move)
                }
                None => -evaluate(&after, &self.params.eval).score,
            };
            if best.is_none_or(|(_, b)| margin > b) {
                best = Some((c, margin));
            }
        }
        best.map(|(c, _)| c)
    }

    /// The seed of the next search: derived from the configured seed and the game, or random.
    fn next_seed(&mut self, game: &Game) -> u64 {
        match self.seed {
            Some(s) => {
                s ^ game.position().hash()
                    ^ (game.moves().len() as u64).wrapping_mul(0xA24B_AED4_963E_E407)
            }
            None => self.entropy.next_u64(),
        }
    }
}

impl Player for MctsPlayer {
    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Decision {
        let start = Instant::now();
        let pos = game.position().clone();
        if !pos.has_legal_move() {
            return Decision {
                mv: None,
                winrate: Some(0.0),
                report: SearchReport {
                    elapsed: start.elapsed(),
                    ..SearchReport::default()
                },
            };
        }
        if let Some(d) = self.fill_in(&pos, limits, start, on_report) {
            return d;
        }
        self.sync(game);
        let quick = limits.hard.is_some_and(|h| h < QUICK_SEARCH);
        let root_order = (self.params.root_full_ordering && !quick)
            .then(|| self.orderer.rank_all(&pos, Ranking::Full, &self.params));
        let setup = start.elapsed();
        let seed = self.next_seed(game);
        let shared = Shared::new(
            &self.tree,
            &self.params,
            &self.priors,
            &pos,
            root_order.as_deref(),
            stop,
            limits.playouts,
        );
        self.totals = shared.run(&mut self.oracles, seed, limits, start, on_report);
        let report = search::report(
            &self.tree,
            self.totals.playouts,
            self.totals.nodes,
            start.elapsed(),
        );
        log_phases(limits, setup, &report);
        // A proven-lost root: every move loses, so play the one that makes the win hardest.
        // The scan stops at the hard limit (then the most-visited child is the fallback).
        let best = if self.tree.all_children_lost(self.tree.root()) {
            let deadline = limits.hard.map(|h| start + h);
            self.most_resistant_child(&pos, deadline)
                .or_else(|| self.tree.best_child(self.tree.root()))
        } else {
            self.tree.best_child(self.tree.root())
        };
        let (mv, winrate) = match best {
            Some(c) => {
                let n = self.tree.node(c);
                let w = match n.proof() {
                    p if p & PROVEN_WIN != 0 => 1.0,
                    p if p & PROVEN_LOSS != 0 => 0.0,
                    _ => n.mean() as f64,
                };
                (n.mv(), Some(w))
            }
            // No child yet (stopped at once, or no memory for the root's children).
            None => {
                let first = root_order.and_then(|o| o.first().copied()).or_else(|| {
                    let mut best = Vec::new();
                    self.orderer
                        .best(&pos, Ranking::Cheap, &self.params, &[], 1, &mut best);
                    best.first().copied()
                });
                (first.expect("the position has a legal move"), None)
            }
        };
        Decision {
            mv: Some(mv),
            winrate,
            report,
        }
    }

    fn clear(&mut self) {
        self.tree.clear();
        self.root_game = None;
    }

    fn name(&self) -> &'static str {
        "mcts"
    }
}

/// Logs where a search spent its time, as a warning when it ended past its hard limit: an
/// overrun under a loaded machine is then attributable to the setup (tree reuse, root ordering)
/// or to the playouts (a slow rate says the process was starved of CPU).
fn log_phases(limits: &Limits, setup: Duration, report: &SearchReport) {
    let level = match limits.hard {
        Some(h) if report.elapsed > h + OVERRUN_SLACK => log::Level::Warn,
        _ => log::Level::Debug,
    };
    let rate = report.playouts as f64 / (report.elapsed - setup).as_secs_f64().max(1e-6);
    log::log!(
        level,
        "search: {:.3} s (hard limit {}), setup {:.3} s, {} playouts at {:.0}/s",
        report.elapsed.as_secs_f64(),
        limits
            .hard
            .map_or("none".to_string(), |h| format!("{:.3} s", h.as_secs_f64())),
        setup.as_secs_f64(),
        report.playouts,
        rate
    );
}
