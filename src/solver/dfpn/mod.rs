//! Depth-first proof-number search (df-pn) in negamax form.
//!
//! Every node holds, for its side to move, a proof number `pn` (how many leaves must still be
//! settled to prove a win, at least) and a disproof number `dn` (to prove a loss). With children
//! seen from the other side, `pn = min dn(child)`, and `dn` is the *weak* disproof number of Ueda
//! et al. (2008): the largest `pn(child)` plus one for each other child not yet settled. df-pn
//! walks down to the most proving child with thresholds (Nagai 2002) instead of returning to the
//! root each time, and keeps results in the transposition table.
//!
//! A move is searched as two plies of the same side: the queen step, then the arrow (after a step
//! the same side moves again, so a step's numbers count for its parent unswapped). An expansion
//! then looks at some 15 steps or 10 arrows instead of 100 or more whole moves, most of which a
//! proof never needs (one good move proves a win; figures in docs/results.md).
//!
//! Several threads may search one root together ([`Shared`]): they share the table, break ties
//! differently, and the first to settle the root stops the others.
//!
//! After a solve, [`verify`] walks the proof the table holds and checks every position of it
//! against its children ([`verify::ProofCheck`]).
//!
//! Cures for df-pn's known pathologies:
//! - *Cycles and the graph history interaction* cannot arise: every move burns a square, so the
//!   game graph is acyclic and a position's value never depends on the path to it.
//! - *Thrashing* between siblings of similar cost: the second-best threshold is widened by the
//!   1 + epsilon trick (Pawlewicz and Lew 2007), `dn2 * (1 + 1/16)`, so the search stays longer in
//!   a subtree before switching.
//! - *Overestimated disproof numbers* where transpositions are summed twice: a DAG inefficiency
//!   only (never a wrong result). Amazons transposes everywhere (two moves in either order), and a
//!   sum counts a shared subtree once per path to it, so the search kept leaving positions whose
//!   refutation was nearly done for siblings with fewer paths. The weak disproof number (max plus
//!   the other open children) counts each child once; it beat the sum on every named start once
//!   spare moves entered the bounds, and the summed rule went (docs/results.md, 2026-12-05).
//!   Symmetric children are merged too.
//!
//! Keys and moves use the regions ([`super::view`]): a whole-move position is keyed by its mixed
//! regions and its territory balance alone, and its side tries one fill move in its territories.
//! New leaves are first settled by the regions' bounds when possible (spare moves included,
//! [`super::tempo`]); otherwise they get initial
//! numbers from the two sides' queen mobility (a side with few moves is easy to refute), and a
//! side ahead in the naive race (see [`Reading::Open`]) gets a disproof number [`AHEAD_FACTOR`]
//! times larger (early on, with no territory yet, that is the side to move when the empty squares
//! are odd in number: it gets the last one if both just fill).

use super::keys::{Blank, Key, Keys, Symmetries};
use super::report::{FirstMoves, MoveStatus};
use super::table::{may_be_stored, step_bit, Table};
use super::tempo::Tempo;
use super::view::{Reading, View};
use crate::bitboard::Bitboard;
use crate::endgame::area::ring_connected;
use crate::endgame::{Budget, FillSolver as Endgame};
use crate::mv::Move;
use crate::position::Position;
use crate::square::Square;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub(super) mod verify;

/// Infinite proof or disproof number: the other number is 0 and the node is settled.
pub(super) const INF: u32 = u32::MAX;
/// Largest finite proof number (sums saturate here).
const MAX_FINITE: u32 = u32::MAX - 1;
/// Limits and the stop flag are checked every this many nodes.
const CHECK_EVERY: u64 = 1024;
/// Endgame nodes allowed for finding a perfect territory move.
const FILL_BUDGET: u64 = 20_000;
/// How much harder a leaf whose side to move leads the naive race is taken to be to refute: its
/// disproof number is this many times its mobility's. 4 was the best of 1, 2, 4 and 8 over the
/// small named starts (docs/results.md, 2026-12-07).
const AHEAD_FACTOR: u32 = 4;

/// A child of an expanded node, with its numbers seen from the parent: `p` is what it offers the
/// parent's proof number (a minimum over children), `d` what it gives the disproof number (the
/// largest `d` plus one for each other child with `d > 0`).
/// After a queen step the same side moves again, so a step's `(p, d)` is its own `(pn, dn)`; after
/// an arrow the turn passes and they swap.
///
/// A whole move's child has `mv` that move; a queen step's child has `mv.arrow == mv.to`, which no
/// real move has.
#[derive(Copy, Clone, Debug)]
pub(super) struct Child {
    pub mv: Move,
    pub p: u32,
    pub d: u32,
    key: Key,
    /// For an arrow: what the regions say of the position after it, for its side to move.
    settled: Option<bool>,
    /// For an arrow: where the view of the position after it is kept (see `Search::views`).
    view: u16,
}

/// Where a node is in its side's move: about to step an amazon, or about to shoot the arrow of
/// the amazon that stepped `from` to `to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Half {
    Step,
    Arrow { from: Square, to: Square },
}

/// Counters shown while solving.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Counters {
    pub nodes: u64,
    pub leaves: u64,
    pub proven: u64,
    pub disproven: u64,
}

/// What the threads of one solve share: limits, stop flags and the node count.
pub(super) struct Shared<'a> {
    /// Total expanded positions allowed.
    pub node_limit: u64,
    /// When to stop, if ever.
    pub deadline: Option<Instant>,
    /// The caller's stop flag.
    pub stop: &'a AtomicBool,
    /// Raised by the thread that settles the root, to stop the others.
    pub done: AtomicBool,
    /// Whether to stop when the table asks to grow ([`Table::wants_growth`]); the caller then
    /// grows it and solves again.
    pub may_grow: bool,
    /// Expanded positions of all threads, added in steps of [`CHECK_EVERY`].
    pub nodes: AtomicU64,
    /// When the solve started.
    pub started: Instant,
}

impl<'a> Shared<'a> {
    /// Limits for one search with no node or time limit, stopped only by `stop`.
    pub fn unlimited(stop: &'a AtomicBool) -> Shared<'a> {
        Shared {
            node_limit: u64::MAX,
            deadline: None,
            stop,
            done: AtomicBool::new(false),
            may_grow: false,
            nodes: AtomicU64::new(0),
            started: Instant::now(),
        }
    }

    /// Whether the threads should stop now.
    fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.done.load(Ordering::Relaxed)
            || self.nodes.load(Ordering::Relaxed) >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Called with the solve's counters, elapsed time, table use and the root's first moves.
pub(super) type Report<'a> = &'a mut dyn FnMut(&Counters, Duration, f64, Option<FirstMoves>);

/// One thread's df-pn search over one root.
pub(super) struct Search<'a> {
    table: &'a Table,
    endgame: &'a mut Endgame,
    shared: &'a Shared<'a>,
    sym: Symmetries,
    pub counters: Counters,
    /// Breaks ties between equally promising children differently in each thread (0: by the
    /// disproof number), so threads spread over the tree instead of all walking one path.
    salt: u64,
    pub aborted: bool,
    buffers: Vec<Vec<Child>>,
    /// Per ply, the views of the positions after the arrows expanded there, so the search below
    /// starts from them instead of recomputing them.
    views: Vec<Vec<View>>,
    /// The root's children (queen steps) as last seen by the search.
    pub root: Vec<Child>,
    /// A winning whole move of the root, once one of its steps is proven.
    pub root_win: Option<Move>,
    last_report: Instant,
    report_every: Duration,
    report: Option<Report<'a>>,
    /// The root position, for the first moves' counts in progress reports.
    root_pos: Position,
    /// The endgame solver those counts use, so that they leave the search's own (and with it the
    /// search's path) untouched.
    report_endgame: Option<Box<Endgame>>,
}

impl<'a> Search<'a> {
    /// Thread `thread`'s search of positions shaped like `pos`; only a search given `report`
    /// reports progress.
    pub fn new(
        pos: &Position,
        table: &'a Table,
        endgame: &'a mut Endgame,
        shared: &'a Shared<'a>,
        thread: usize,
        report_every: Duration,
        report: Option<Report<'a>>,
    ) -> Search<'a> {
        Search {
            table,
            endgame,
            shared,
            sym: Symmetries::of(pos),
            counters: Counters::default(),
            salt: (thread as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            aborted: false,
            buffers: Vec::new(),
            views: Vec::new(),
            root: Vec::new(),
            root_win: None,
            last_report: shared.started,
            report_every,
            report,
            root_pos: pos.clone(),
            report_endgame: None,
        }
    }

    /// Proves or disproves `pos` (whose side to move can move), or stops at a limit. Returns the
    /// root's `(pn, dn)`: `pn == 0` is a win for the side to move, `dn == 0` a loss. A thread
    /// that settles the root stops the others.
    pub fn run(&mut self, pos: &mut Position) -> (u32, u32) {
        let keys = self.sym.keys(pos);
        let (key, view) = self.whole_key(pos, &keys);
        let (pn, dn) = self.mid(pos, keys, key, view, Half::Step, INF, INF, 0);
        if pn == 0 || dn == 0 {
            self.shared.done.store(true, Ordering::Relaxed);
        }
        self.shared
            .nodes
            .fetch_add(self.counters.nodes % CHECK_EVERY, Ordering::Relaxed);
        (pn, dn)
    }

    /// The root's whole moves (up to symmetry) and what the table knows of them, after [`run`].
    ///
    /// [`run`]: Search::run
    pub fn root_moves(&mut self, pos: &mut Position) -> Vec<(Move, MoveStatus)> {
        let keys = self.sym.keys(pos);
        let side = pos.side_to_move();
        let mut out: Vec<(Key, Move, MoveStatus)> = Vec::new();
        for step in self.root.clone() {
            let (from, to) = (step.mv.from, step.mv.to);
            let half = self.sym.after_step(&keys, from, to, side);
            pos.step(from, to);
            for arrow in pos.queen_targets(to) {
                pos.shoot(arrow);
                let (key, view) = self.whole_key(pos, &self.sym.after_arrow(&half, to, arrow));
                // Numbers of the opponent, to move after the arrow.
                let (pn, dn) = if step.d == 0 {
                    (0, INF)
                } else {
                    match self.table.get(key) {
                        Some(v) => v,
                        // As the search numbered it.
                        None => self.new_leaf_numbers(pos, &view, None),
                    }
                };
                pos.unshoot(arrow);
                let status = if dn == 0 {
                    MoveStatus::Wins
                } else if pn == 0 {
                    MoveStatus::Loses
                } else {
                    MoveStatus::Open { pn, dn }
                };
                out.push((key, Move::new(from, to, arrow), status));
            }
            pos.step(from, to);
        }
        out.sort_unstable_by_key(|&(key, mv, _)| (key, mv));
        out.dedup_by_key(|e| e.0);
        let mut moves: Vec<(Move, MoveStatus)> = out.into_iter().map(|(_, m, s)| (m, s)).collect();
        if let Some(win) = self.root_win {
            match moves.iter_mut().find(|(m, _)| *m == win) {
                Some(e) => e.1 = MoveStatus::Wins,
                None => moves.push((win, MoveStatus::Wins)),
            }
        }
        moves
    }

    fn check_limits(&mut self) {
        let total = self.shared.nodes.fetch_add(CHECK_EVERY, Ordering::Relaxed) + CHECK_EVERY;
        if self.shared.halted() || (self.shared.may_grow && self.table.wants_growth()) {
            self.aborted = true;
        }
        if self.report.is_none() {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.last_report) >= self.report_every {
            self.last_report = now;
            let all = Counters {
                nodes: total,
                ..self.counters
            };
            let first = self.first_moves();
            if let Some(report) = self.report.as_mut() {
                report(
                    &all,
                    self.shared.started.elapsed(),
                    self.table.usage(),
                    first,
                );
            }
        }
    }

    /// The root's first moves counted by status, as [`Search::root_moves`] finds them now (the
    /// root's steps are known once it is expanded). Uses an endgame solver of its own and leaves
    /// the counters as they were.
    fn first_moves(&mut self) -> Option<FirstMoves> {
        if self.root.is_empty() {
            return None;
        }
        let mut own = self
            .report_endgame
            .take()
            .unwrap_or_else(|| Box::new(Endgame::new()));
        std::mem::swap(&mut *self.endgame, &mut *own);
        let leaves = self.counters.leaves;
        let mut pos = self.root_pos.clone();
        let moves = self.root_moves(&mut pos);
        self.counters.leaves = leaves;
        std::mem::swap(&mut *self.endgame, &mut *own);
        self.report_endgame = Some(own);
        Some(FirstMoves::of(&moves))
    }

    /// Numbers of whole-move position `pos` (just after an arrow, with view `view`) as a new
    /// leaf: settled when the side to move cannot move, by `settled` when the view's verdict is
    /// known, else by the view with its pockets (which take more work, so only for a leaf the
    /// territories leave open) when they decide it; otherwise from its mobility.
    fn new_leaf_numbers(
        &mut self,
        pos: &Position,
        view: &View,
        settled: Option<bool>,
    ) -> (u32, u32) {
        let reading = match settled {
            Some(v) => Reading::Settled(v),
            None => view.settle(pos, self.endgame),
        };
        self.counters.leaves += 1;
        if !pos.has_legal_move() {
            return (INF, 0);
        }
        match reading {
            Reading::Settled(true) => (0, INF),
            Reading::Settled(false) => (INF, 0),
            Reading::Open { margin } => {
                let (pn, dn) = initial_numbers(pos);
                if margin > 0 {
                    (pn, dn * AHEAD_FACTOR)
                } else {
                    (pn, dn)
                }
            }
        }
    }

    /// The table key of whole-move position `pos` with hashes `keys` (abstracted when its
    /// territories are exact, see [`super::view`]) and its view.
    fn whole_key(&mut self, pos: &Position, keys: &Keys) -> (Key, View) {
        let view = View::of(pos, self.endgame);
        (keys.canonical_with(&self.blank(pos, &view)), view)
    }

    /// The abstraction of `pos` by `view`: nothing when a territory is not solved exactly.
    fn blank(&self, pos: &Position, view: &View) -> Blank {
        match view.balance() {
            Some(x) => self.sym.blank(pos, view.mixed, x),
            None => Blank::default(),
        }
    }

    /// The multiple-iterative-deepening step: searches `pos` (at `half` of its side's move) until its
    /// pn reaches `th_pn` or its dn reaches `th_dn` (or the search is aborted), stores and returns
    /// its numbers. `view` is the view of the whole-move position (before the step, for a
    /// half-way node).
    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        pos: &mut Position,
        keys: Keys,
        key: Key,
        view: View,
        half: Half,
        th_pn: u32,
        th_dn: u32,
        ply: usize,
    ) -> (u32, u32) {
        let start_nodes = self.counters.nodes;
        self.counters.nodes += 1;
        if self.counters.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_limits();
        }
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.buffers[ply]);
        children.clear();
        // The half-way children stored under this position (see `Probe::steps`): only they are
        // probed, and the ones searched below are added.
        let mut steps = match half {
            Half::Step => self.table.probe(key).map_or(0, |e| e.steps),
            Half::Arrow { .. } => {
                // Its entry is only written at the end: start loading it now, so the store does
                // not wait for memory.
                self.table.prefetch(key);
                0
            }
        };
        match half {
            Half::Step => self.expand_steps(pos, &keys, &view, steps, &mut children),
            Half::Arrow { from, to } => {
                self.expand_arrows(pos, &keys, &view, from, to, ply, &mut children)
            }
        }
        if ply == 0 {
            // Progress reports count the first moves from these.
            self.root.clone_from(&children);
        }

        let side = pos.side_to_move();
        let (pn, dn) = loop {
            let (pn, dn, best, p2, others) = numbers(&children, self.salt);
            if pn >= th_pn || dn >= th_dn || self.aborted {
                break (pn, dn);
            }
            let c = children[best];
            // The child's p is this node's pn: stay below the second best (widened) and th_pn.
            // Widening by 1/8, 1/32 or 1/64 instead of 1/16 was no better everywhere (see
            // docs/results.md); on the whole 6x4 start 1/32 took 1,012.4 M nodes against 1,010.6 M.
            let widened = (p2 as u64 + 1).max(p2 as u64 + p2 as u64 / 16);
            let th_p = widened.min(th_pn as u64) as u32;
            // Keep this node's dn below th_dn: it is at least the child's d plus the other open
            // children (`dn < th_dn` makes this exceed `c.d`, so the child has room).
            let th_d = th_dn - others;
            let (p, d) = match half {
                Half::Step => {
                    let (from, to) = (c.mv.from, c.mv.to);
                    steps |= step_bit(c.key);
                    let child_keys = self.sym.after_step(&keys, from, to, side);
                    pos.step(from, to);
                    let child = Half::Arrow { from, to };
                    let v = self.mid(pos, child_keys, c.key, view, child, th_p, th_d, ply + 1);
                    pos.step(from, to);
                    v
                }
                Half::Arrow { to, .. } => {
                    let arrow = c.mv.arrow;
                    let child_keys = self.sym.after_arrow(&keys, to, arrow);
                    pos.shoot(arrow);
                    let child_view = self.views[ply][c.view as usize];
                    let (cpn, cdn) = self.mid(
                        pos,
                        child_keys,
                        c.key,
                        child_view,
                        Half::Step,
                        th_d,
                        th_p,
                        ply + 1,
                    );
                    pos.unshoot(arrow);
                    (cdn, cpn)
                }
            };
            children[best].p = p;
            children[best].d = d;
        };
        if !self.aborted || pn == 0 || dn == 0 {
            if pn == 0 {
                self.counters.proven += 1;
            } else if dn == 0 {
                self.counters.disproven += 1;
            }
            self.table
                .put(key, pn, dn, self.counters.nodes - start_nodes, steps);
        }
        if ply == 0 {
            self.root.clone_from(&children);
        } else if ply == 1 && pn == 0 {
            // A proven step of the root: its proving arrow makes a winning whole move.
            if let Some(c) = children.iter().find(|c| c.p == 0) {
                self.root_win = Some(c.mv);
            }
        }
        self.buffers[ply] = children;
        (pn, dn)
    }

    /// Fills `children` with the queen steps of the side to move, numbered by
    /// [`Search::number_children`]. When its territories are exact, the amazons in them make one
    /// step only, that of a perfect fill (see [`super::view`]).
    fn expand_steps(
        &mut self,
        pos: &mut Position,
        keys: &Keys,
        view: &View,
        steps: u32,
        children: &mut Vec<Child>,
    ) {
        let side = pos.side_to_move();
        let mut movers = pos.amazons(side);
        let mut fill = None;
        if view.exact {
            match view.fill[side.index()] {
                None => movers &= view.mixed,
                Some((area, value)) => {
                    // Trusted only when proven perfect; otherwise every step is tried.
                    let best = self
                        .endgame
                        .area_best_move(area, Budget::nodes(FILL_BUDGET));
                    if let Some((m, after)) = best {
                        if after.lo == after.hi && after.lo + 1 == value {
                            movers &= view.mixed;
                            fill = Some(m);
                        }
                    }
                }
            }
        }
        let mut push = |from: Square, to: Square| {
            // All keys first, their buckets prefetched, so the probes below overlap their memory
            // accesses instead of stalling one by one. Most steps were never stored: those the
            // filter rules out are numbered without a probe.
            let key = self.sym.step_key(keys, from, to, side);
            if may_be_stored(steps, key) {
                self.table.prefetch(key);
            }
            children.push(Child {
                mv: Move::new(from, to, to),
                p: 1,
                d: 1,
                key,
                settled: None,
                view: 0,
            });
        };
        for from in movers {
            for to in pos.queen_targets(from) {
                push(from, to);
            }
        }
        if let Some(m) = fill {
            push(m.from, m.to);
        }
        self.number_children(pos, Half::Step, 0, steps, children);
    }

    /// Fills `children` with the arrows of the amazon that stepped `from` to `to`, numbered by
    /// [`Search::number_children`].
    ///
    /// Each child needs its regions for its key. The half-way position's regions serve for an
    /// arrow into a mixed region that cannot split it (its neighbours in the region touch one
    /// another): only that region shrinks. Other arrows get their regions from scratch. An arrow
    /// inside the mover's own territory is a fill: only those keeping the most moves left stay.
    #[allow(clippy::too_many_arguments)]
    fn expand_arrows(
        &mut self,
        pos: &mut Position,
        keys: &Keys,
        before: &View,
        from: Square,
        to: Square,
        ply: usize,
        children: &mut Vec<Child>,
    ) {
        let side = pos.side_to_move();
        // Grown here only, never shortened: a proof check numbers arrows at plies of its own,
        // far above the search's (see `verify`).
        if self.views.len() <= ply {
            self.views.resize_with(ply + 1, Vec::new);
        }
        // A step inside a mixed region keeps every region as it was (the squares left and
        // reached both stay open), so the view before it holds.
        let here = if before.mixed.contains(from) {
            *before
        } else {
            View::of(pos, self.endgame)
        };
        let in_mixed = here.mixed.contains(to);
        let blank = self.blank(pos, &here);
        let mut best_fill = None;
        let mut views = std::mem::take(&mut self.views[ply]);
        views.clear();
        for arrow in pos.queen_targets(to) {
            let bit = Bitboard::from_square(arrow);
            let (key, view) = if in_mixed && ring_connected(here.mixed.0, arrow.index() as u32) {
                (
                    self.sym.arrow_key(keys, to, arrow, &blank),
                    here.after_simple_arrow(bit),
                )
            } else {
                let child_keys = self.sym.after_arrow(keys, to, arrow);
                pos.shoot(arrow);
                let kv = self.whole_key(pos, &child_keys);
                pos.unshoot(arrow);
                kv
            };
            if !in_mixed && view.exact {
                best_fill = best_fill.max(Some(view.lo[side.index()]));
            }
            // A position the regions settle is never probed (see `number_children`).
            let settled = view.verdict(!side, &Tempo::new(pos, view.mixed, [Bitboard::EMPTY; 2]));
            if settled.is_none() {
                self.table.prefetch(key);
            }
            children.push(Child {
                mv: Move::new(from, to, arrow),
                p: 1,
                d: (!in_mixed && view.exact) as u32 * view.lo[side.index()],
                key,
                settled,
                view: views.len() as u16,
            });
            views.push(view);
        }
        if let Some(best) = best_fill {
            // `d` holds the fill's moves left until the children are numbered; a worse fill is
            // never better. (Fills that keep no move are kept: dropping them too is sound, but it
            // changed the search's path, 4x5 28.9 M -> 30.1 M nodes, and all figures are with this.)
            children.retain(|c| c.d == 0 || c.d >= best);
        }
        self.views[ply] = views;
        self.number_children(pos, Half::Arrow { from, to }, ply, u32::MAX, children);
    }

    /// Numbers the `children` of a node at `half` of its side's move (their buckets already
    /// prefetched) from the table (only those whose [`step_bit`] is in `filter`, and no arrow
    /// the regions already settle: the table cannot know better), else statically: a step by
    /// [`step_numbers`], an arrow by [`Search::new_leaf_numbers`] of the position after it. Stops
    /// early at a child that proves the node, then merges symmetric duplicates (in key order;
    /// [`numbers`] picks the best).
    ///
    /// Killer moves (the move that last proved a node at the same ply numbered as cheap) were
    /// tried and took more nodes (docs/results.md, 2026-12-07).
    fn number_children(
        &mut self,
        pos: &mut Position,
        half: Half,
        ply: usize,
        filter: u32,
        children: &mut Vec<Child>,
    ) {
        for i in 0..children.len() {
            let Child {
                mv, key, settled, ..
            } = children[i];
            let stored = if may_be_stored(filter, key) && settled.is_none() {
                self.table.get(key)
            } else {
                None
            };
            let (pn, dn) = match stored {
                Some(v) => v,
                None => match half {
                    Half::Step => {
                        pos.step(mv.from, mv.to);
                        let v = step_numbers(pos, mv.to);
                        pos.step(mv.from, mv.to);
                        v
                    }
                    Half::Arrow { .. } => {
                        let c = children[i];
                        let view = self.views[ply][c.view as usize];
                        pos.shoot(mv.arrow);
                        let v = self.new_leaf_numbers(pos, &view, c.settled);
                        pos.unshoot(mv.arrow);
                        v
                    }
                },
            };
            // After a step the same side moves again; after an arrow the turn passes.
            let (p, d) = match half {
                Half::Step => (pn, dn),
                Half::Arrow { .. } => (dn, pn),
            };
            children[i].p = p;
            children[i].d = d;
            if p == 0 {
                // A step already proven, or an arrow after which the opponent is lost.
                children.truncate(i + 1);
                break;
            }
        }
        // Keys are unique but for symmetric duplicates, so sorting by the key alone and keeping
        // the least move of each run of equal keys gives what sorting by (key, move) would, with
        // a cheaper comparison.
        children.sort_unstable_by_key(|c| c.key.index);
        children.dedup_by(|later, kept| {
            if later.key != kept.key {
                return false;
            }
            if later.mv < kept.mv {
                std::mem::swap(later, kept);
            }
            true
        });
    }
}

/// `(pn, dn, index of the child with the least p (ties broken as `salt` says), least p of the
/// others, open children but one)` of a node from its children: `pn` the least `p`, `dn` the
/// largest `d` plus one for each other child not yet refuted (`d > 0`).
///
/// Rules between this and the sum, and mixes of the two by depth, took more nodes
/// (docs/results.md, 2026-12-07).
#[inline]
fn numbers(children: &[Child], salt: u64) -> (u32, u32, usize, u32, u32) {
    let mut best = 0;
    let mut p1 = INF;
    let mut t1 = u64::MAX;
    let mut p2 = INF;
    let mut max_d = 0;
    let mut open = 0u32;
    for (i, c) in children.iter().enumerate() {
        // Ties in p go to the child with the smaller d (the easier one to refute), or in helper
        // threads to a salted hash of the child.
        let tie = if salt == 0 {
            c.d as u64
        } else {
            (c.key.index ^ salt).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 1
        };
        if c.p < p1 || (c.p == p1 && tie < t1) {
            p2 = p1;
            p1 = c.p;
            t1 = tie;
            best = i;
        } else if c.p < p2 {
            p2 = c.p;
        }
        if c.d > 0 {
            open += 1;
            max_d = max_d.max(c.d);
        }
    }
    let pn = p1;
    let others = open.saturating_sub(1);
    // A child with d INF has p 0, which makes pn 0: the dn is only used when all are finite.
    let dn = if pn == 0 {
        INF
    } else {
        (max_d as u64 + others as u64).min(MAX_FINITE as u64) as u32
    };
    (pn, dn, best, p2, others)
}

/// Queen mobility (destinations, not counting arrows) of the side to move and of its opponent.
#[inline]
fn mobilities(pos: &Position) -> (u32, u32) {
    let mobility = |c| -> u32 {
        pos.amazons(c)
            .iter()
            .map(|a| pos.destination_count(a))
            .sum()
    };
    (mobility(pos.side_to_move()), mobility(!pos.side_to_move()))
}

/// Initial numbers of an unsettled leaf from queen mobility (destinations, not counting arrows):
/// refuting the side to move is harder the more it can move (dn: one per queen step, each a
/// child to refute), proving its win is harder the more the opponent can move (pn). Scaling the
/// numbers by the room left (as Deep df-pn does), by `2^(c * mixed empty squares)`, and counting
/// mobility incrementally (per node, per line, or per blocked square) were all tried and lost in
/// nodes or in time (the figures: docs/results.md, 2026-12-07).
#[inline]
fn initial_numbers(pos: &Position) -> (u32, u32) {
    let (me, other) = mobilities(pos);
    (1 + other / 4, 1 + me)
}

/// Initial numbers of a half-way node (an amazon stepped to `to`, its arrow to come), for its side
/// to move. The disproof number is what expanding it would give if every arrow led to a leaf
/// numbered by [`initial_numbers`] and disproof numbers were summed (the sum of their pn); with
/// the weak disproof number this is larger than an expansion gives. The proof number, a quarter
/// of the opponent's mobility, is smaller than the least dn of those leaves would be (the whole
/// mobility, or [`AHEAD_FACTOR`] times it), so a step not yet expanded looks cheaper to prove than
/// one whose arrows are known.
///
/// Other fractions of the mobility for the proof number (an eighth, a sixteenth, 1, a half, the
/// whole; by who leads the race) and other disproof numbers were tried; small test sets did not
/// predict the whole 6x4 proof, which none beat. Unexpanded steps must look cheap: giving them the
/// [`AHEAD_FACTOR`] their arrows' leaves would mostly get cost several times the nodes (the
/// figures: docs/results.md, 2026-12-07).
#[inline]
fn step_numbers(pos: &Position, to: Square) -> (u32, u32) {
    let (me, other) = mobilities(pos);
    let arrows = pos.destination_count(to);
    (1 + other / 4, arrows * (1 + me / 4))
}

/// Test support: stores `(pn, dn)` for whole-move position `at` in `table`, as the search keys it
/// (what a lost or a falsely matched entry looks like to the proof check).
#[cfg(test)]
pub(super) fn overwrite(table: &Table, at: &Position, pn: u32, dn: u32) {
    let never = AtomicBool::new(false);
    let shared = Shared::unlimited(&never);
    let mut endgame = crate::endgame::FillSolver::new();
    let mut search = Search::new(at, table, &mut endgame, &shared, 0, Duration::MAX, None);
    let keys = search.sym.keys(at);
    let (key, _) = search.whole_key(at, &keys);
    table.put(key, pn, dn, 1 << 20, 0);
}
