//! The search proper: worker threads running playouts on the shared tree, and the calling thread,
//! which also runs playouts, watching the limits and reporting.
//!
//! A playout walks down the tree choosing children by PUCT (mean value plus a prior-weighted
//! exploration bonus) among the first few children in prior order (progressive widening), marks
//! its path with virtual losses so other threads spread out, expands the leaf once it has been
//! visited often enough, plays a few policy moves past the tree, evaluates the position, and adds
//! the result to every node on the path. Nothing on this path takes a lock: statistics are atomics,
//! expansion and widening are claimed by compare-and-swap, and each thread counts its playouts
//! locally and adds them to the shared counters in batches.

use super::exact::{Knowledge, Oracle};
use super::node::{Node, VirtualLoss, PROVEN_LOSS, PROVEN_WIN};
use super::ordering::{Orderer, RankPrior, Ranking};
use super::params::SearchParams;
use super::playout::playout_move;
use super::tree::{ChildList, NewChild, Tree, FIRST_BLOCK, ROOT};
use crate::endgame::is_decided;
use crate::eval::win_probability;
use crate::mv::Move;
use crate::player::{Limits, MoveStats, SearchReport};
use crate::position::Position;
use crossbeam::utils::CachePadded;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Playouts a thread runs between flushing its counters (and, for the calling thread, between
/// looks at the clock).
const BATCH: u64 = 16;
/// Longest principal variation reported.
const PV_LENGTH: usize = 20;
/// Most candidate moves listed in a report.
const REPORTED_MOVES: usize = 20;

/// What every search thread shares.
pub struct Shared<'t> {
    tree: &'t Tree,
    params: &'t SearchParams,
    priors: &'t RankPrior,
    root_pos: &'t Position,
    root_order: Option<&'t [Move]>,
    stop: &'t AtomicBool,
    done: AtomicBool,
    budget: Option<u64>,
    claimed: CachePadded<AtomicU64>,
    playouts: CachePadded<AtomicU64>,
    nodes: CachePadded<AtomicU64>,
}

/// Totals of one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    /// Playouts run.
    pub playouts: u64,
    /// Positions visited: tree nodes walked through plus playout moves.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl<'t> Shared<'t> {
    /// Shared state for a search of `tree`, whose root is `root_pos`. `root_order`, when given,
    /// ranks the root's moves (it must hold every legal move).
    pub fn new(
        tree: &'t Tree,
        params: &'t SearchParams,
        priors: &'t RankPrior,
        root_pos: &'t Position,
        root_order: Option<&'t [Move]>,
        stop: &'t AtomicBool,
        budget: Option<u64>,
    ) -> Shared<'t> {
        Shared {
            tree,
            params,
            priors,
            root_pos,
            root_order,
            stop,
            done: AtomicBool::new(false),
            budget,
            claimed: CachePadded::new(AtomicU64::new(0)),
            playouts: CachePadded::new(AtomicU64::new(0)),
            nodes: CachePadded::new(AtomicU64::new(0)),
        }
    }

    /// Runs the search on one thread per oracle (the caller's included) until `limits` or `stop`
    /// end it, calling `on_report` from the calling thread about every `limits.report_interval`.
    /// `seed` makes a one-thread search with a playout limit reproducible.
    pub fn run(
        &self,
        oracles: &mut [Oracle],
        seed: u64,
        limits: &Limits,
        start: Instant,
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Totals {
        let thread_seed = |t: u64| seed ^ t.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let (first, others) = oracles
            .split_first_mut()
            .expect("a search has at least one thread");
        std::thread::scope(|scope| {
            for (t, oracle) in others.iter_mut().enumerate() {
                let seed = thread_seed(t as u64 + 1);
                scope.spawn(move || {
                    let mut w = Worker::new(self, seed, oracle);
                    while w.playout() {}
                    w.flush();
                });
            }
            let mut w = Worker::new(self, thread_seed(0), first);
            let mut last_report = start;
            loop {
                let mut running = true;
                for _ in 0..BATCH {
                    if !w.playout() {
                        running = false;
                        break;
                    }
                }
                w.flush();
                let now = Instant::now();
                if !running || self.should_stop(limits, now - start) {
                    self.done.store(true, Relaxed);
                    // A search that ends by itself (a proof, a limit) shows where it ended.
                    if limits.report_interval.is_some() && !self.stop.load(Relaxed) {
                        on_report(&self.report(now - start));
                    }
                    break;
                }
                if let Some(every) = limits.report_interval {
                    if now - last_report >= every {
                        last_report = now;
                        on_report(&self.report(now - start));
                    }
                }
            }
        });
        Totals {
            playouts: self.playouts.load(Relaxed),
            nodes: self.nodes.load(Relaxed),
            elapsed: start.elapsed(),
        }
    }

    /// Whether the search should end now, `elapsed` into it.
    fn should_stop(&self, limits: &Limits, elapsed: Duration) -> bool {
        if self.done.load(Relaxed) || self.stop.load(Relaxed) {
            return true;
        }
        if limits.hard.is_some_and(|h| elapsed >= h) {
            return true;
        }
        let root = self.tree.root();
        if root.proof() != 0 {
            return true;
        }
        let Some(list) = self.tree.children(root) else {
            return false;
        };
        if list.total() == 1 {
            return true;
        }
        let Some(soft) = limits.soft else {
            return false;
        };
        let (best, second) = self.two_best(list);
        if elapsed >= soft {
            // Past the soft limit, keep going (up to twice it, within the hard limit) only while
            // the most visited move is not also the best valued one among the contenders.
            let unsure = match (best, second) {
                (Some(b), Some(s)) => {
                    let (b, s) = (self.tree.node(b), self.tree.node(s));
                    s.visits() * 2 >= b.visits() && s.mean() > b.mean() + 0.01
                }
                _ => false,
            };
            return !unsure || elapsed >= soft * 2;
        }
        // Before it, stop once the runner-up cannot catch up in the time left at the current rate;
        // unless the soft limit is the hard one, which says time not used now is lost.
        let hard = limits.hard.unwrap_or(Duration::MAX);
        if elapsed < soft / 8 || soft >= hard {
            return false;
        }
        let (Some(b), Some(s)) = (best, second) else {
            return false;
        };
        let lead = self.tree.node(b).visits() as f64 - self.tree.node(s).visits() as f64;
        let rate = self.playouts.load(Relaxed) as f64 / elapsed.as_secs_f64().max(1e-6);
        lead > rate * (soft - elapsed).as_secs_f64()
    }

    /// The two most visited children of the root.
    fn two_best(&self, list: &ChildList) -> (Option<u32>, Option<u32>) {
        let mut best: (Option<u32>, u32) = (None, 0);
        let mut second: (Option<u32>, u32) = (None, 0);
        for i in 0..list.len() {
            let c = list.child(i);
            let v = self.tree.node(c).visits();
            if best.0.is_none() || v > best.1 {
                second = best;
                best = (Some(c), v);
            } else if second.0.is_none() || v > second.1 {
                second = (Some(c), v);
            }
        }
        (best.0, second.0)
    }

    /// A snapshot of the root's statistics.
    pub fn report(&self, elapsed: Duration) -> SearchReport {
        report(
            self.tree,
            self.playouts.load(Relaxed),
            self.nodes.load(Relaxed),
            elapsed,
        )
    }
}

/// The root's visited children, best first, with their principal variations.
pub fn report(tree: &Tree, playouts: u64, nodes: u64, elapsed: Duration) -> SearchReport {
    let mut moves = Vec::new();
    if let Some(list) = tree.children(tree.root()) {
        let mut kids: Vec<u32> = (0..list.len())
            .map(|i| list.child(i))
            .filter(|&c| tree.node(c).visits() > 0 || tree.node(c).proof() != 0)
            .collect();
        let key = |c: &u32| {
            let n = tree.node(*c);
            (n.proof() & PROVEN_WIN != 0, n.visits(), n.mean().to_bits())
        };
        kids.sort_by_key(|c| std::cmp::Reverse(key(c)));
        kids.truncate(REPORTED_MOVES);
        for c in kids {
            let n = tree.node(c);
            let mut pv = vec![n.mv()];
            pv.extend(tree.principal_variation(c, PV_LENGTH - 1));
            let winrate = match n.proof() {
                p if p & PROVEN_WIN != 0 => 1.0,
                p if p & PROVEN_LOSS != 0 => 0.0,
                _ => n.mean() as f64,
            };
            moves.push(MoveStats {
                mv: n.mv(),
                visits: n.visits() as u64,
                winrate,
                prior: n.prior() as f64,
                pv,
            });
        }
    }
    SearchReport {
        moves,
        playouts,
        nodes,
        elapsed,
        solved: None,
    }
}

/// One search thread's working state.
#[repr(align(64))]
struct Worker<'s, 't> {
    shared: &'s Shared<'t>,
    oracle: &'s mut Oracle,
    rng: SmallRng,
    path: Vec<u32>,
    guards: Vec<VirtualLoss<'t>>,
    orderer: Orderer,
    ranked: Vec<Move>,
    new_children: Vec<NewChild>,
    playouts: u64,
    nodes: u64,
}

impl<'s, 't> Worker<'s, 't> {
    fn new(shared: &'s Shared<'t>, seed: u64, oracle: &'s mut Oracle) -> Self {
        Worker {
            shared,
            oracle,
            rng: SmallRng::seed_from_u64(seed),
            path: Vec::with_capacity(64),
            guards: Vec::with_capacity(64),
            orderer: Orderer::default(),
            ranked: Vec::new(),
            new_children: Vec::new(),
            playouts: 0,
            nodes: 0,
        }
    }

    /// Adds the local counters to the shared ones.
    fn flush(&mut self) {
        if self.playouts > 0 {
            self.shared.playouts.fetch_add(self.playouts, Relaxed);
            self.shared.nodes.fetch_add(self.nodes, Relaxed);
            self.playouts = 0;
            self.nodes = 0;
        }
    }

    /// Runs one playout; false when the search is over.
    fn playout(&mut self) -> bool {
        let s = self.shared;
        if s.done.load(Relaxed) || s.stop.load(Relaxed) {
            return false;
        }
        if let Some(budget) = s.budget {
            if s.claimed.fetch_add(1, Relaxed) >= budget {
                s.done.store(true, Relaxed);
                return false;
            }
        }
        let tree: &'t Tree = s.tree;
        let mut pos = s.root_pos.clone();
        self.path.clear();
        self.path.push(ROOT);
        self.guards.push(tree.root().enter());
        let mut at = ROOT;
        // Value of the final position for its side to move.
        let value = loop {
            let node = tree.node(at);
            let proof = node.proof();
            if proof != 0 {
                break if proof & PROVEN_WIN != 0 { 0.0 } else { 1.0 };
            }
            let Some(list) = tree.children(node) else {
                // The root is always expanded (it has moves), so its moves get statistics.
                let verdict = if at == ROOT {
                    Knowledge::Open
                } else {
                    self.oracle.verdict(&pos, s.params)
                };
                if let Knowledge::Proven(v) = verdict {
                    node.set_proof(if v == 0.0 { PROVEN_WIN } else { PROVEN_LOSS });
                    break v;
                }
                let ready = at == ROOT || node.visits() >= s.params.expand_visits;
                if ready && !tree.is_full() && self.expand(node, at == ROOT, &pos) {
                    continue;
                }
                // A decided position needs no playout: its bounds say more than random fills.
                break match verdict.value() {
                    Some(v) => v,
                    None => self.rollout(&mut pos),
                };
            };
            let c = self.select(node, list, at == ROOT, &pos);
            let child = tree.node(c);
            self.guards.push(child.enter());
            pos.make(child.mv());
            self.path.push(c);
            at = c;
        };
        self.backup(value);
        self.nodes += self.path.len() as u64;
        self.playouts += 1;
        if self.playouts >= BATCH {
            self.flush();
        }
        true
    }

    /// Adds `value` (for the side to move at the end of the path) to the path, propagates proofs,
    /// and lifts the virtual losses.
    fn backup(&mut self, value: f32) {
        let tree = self.shared.tree;
        let mut v = 1.0 - value;
        for &i in self.path.iter().rev() {
            tree.node(i).add(v);
            v = 1.0 - v;
        }
        for k in (1..self.path.len()).rev() {
            let child = tree.node(self.path[k]).proof();
            let parent = tree.node(self.path[k - 1]);
            if child & PROVEN_WIN != 0 {
                parent.set_proof(PROVEN_LOSS);
            } else if child & PROVEN_LOSS != 0 && tree.all_children_lost(parent) {
                parent.set_proof(PROVEN_WIN);
            } else {
                break;
            }
        }
        self.guards.clear();
    }

    /// Picks the child of `node` to descend into, widening the list when a new child is due.
    fn select(&mut self, node: &Node, list: &ChildList, at_root: bool, pos: &Position) -> u32 {
        let s = self.shared;
        let p = s.params;
        let tree = s.tree;
        let n_parent = node.visits() + node.in_flight();
        let sqrt_n = (n_parent.max(1) as f32).sqrt();
        let parent_q = if node.visits() > 0 {
            1.0 - node.mean()
        } else {
            0.5
        };
        let fpu = parent_q - p.fpu_reduction;
        let total = list.total();
        let allowed = ((p.pw_base + p.pw_factor * (n_parent as f32).powf(p.pw_exponent)) as usize)
            .clamp(1, total);
        let len = list.len();
        let considered = len.min(allowed);
        let mut best = (f32::NEG_INFINITY, None);
        let explore = p.c_puct * sqrt_n;
        for (first, count) in list.runs(considered) {
            for c in first..first + count as u32 {
                let child = tree.node(c);
                let proof = child.proof();
                if proof & PROVEN_WIN != 0 {
                    return c;
                }
                if proof & PROVEN_LOSS != 0 {
                    continue;
                }
                let (v, n) = child.sum_with_virtual_loss();
                let u = explore * child.prior();
                // The score is `q + u / (1 + n)` = `a / b`; compare by cross-multiplying and
                // divide only when it is the new best (most children are not).
                let (a, b) = if n == 0 {
                    (fpu + u, 1.0)
                } else {
                    let n = n as f32;
                    (v * (1.0 + n) + u * n, n * (1.0 + n))
                };
                if a > best.0 * b {
                    best = (a / b, Some(c));
                }
            }
        }
        if considered == len && len < allowed {
            let score = fpu + p.c_puct * s.priors.prior(len, total) * sqrt_n;
            if score > best.0 {
                if let Some(c) = self.widen(node, list, at_root, pos) {
                    return c;
                }
            }
        }
        // Every considered child proven lost: any will do.
        best.1.unwrap_or_else(|| list.child(0))
    }

    /// The ranking for a node with `visits` visits.
    fn ranking(&self, visits: u32) -> Ranking {
        let p = self.shared.params;
        if visits >= p.full_ordering_visits {
            Ranking::Full
        } else if visits >= p.refine_visits {
            Ranking::Refined(p.refine_candidates)
        } else {
            Ranking::Cheap
        }
    }

    /// Fills `ranked` with the best `count` moves of `pos` not in `exclude` (sorted).
    fn rank(&mut self, pos: &Position, at_root: bool, visits: u32, exclude: &[Move], count: usize) {
        let s = self.shared;
        match s.root_order.filter(|_| at_root) {
            Some(order) => {
                self.ranked.clear();
                self.ranked.extend(
                    order
                        .iter()
                        .filter(|m| exclude.binary_search(m).is_err())
                        .take(count),
                );
            }
            None => self.orderer.best(
                pos,
                self.ranking(visits),
                s.params,
                exclude,
                count,
                &mut self.ranked,
            ),
        }
    }

    /// Gives a leaf its first children; false if another thread got there first or memory is full.
    fn expand(&mut self, node: &Node, at_root: bool, pos: &Position) -> bool {
        if !node.try_begin_expansion() {
            return false;
        }
        let total = pos.count_moves() as usize;
        self.rank(pos, at_root, node.visits(), &[], FIRST_BLOCK.min(total));
        self.fill_children(0, total);
        self.shared.tree.expand(node, &self.new_children, total)
    }

    /// Adds the next block of children to `list`; returns the first new child, or `None` if another
    /// thread is widening it or memory is full.
    fn widen(
        &mut self,
        node: &Node,
        list: &ChildList,
        at_root: bool,
        pos: &Position,
    ) -> Option<u32> {
        let tree = self.shared.tree;
        if !list.try_lock() {
            return None;
        }
        let len = list.len();
        let size = list.next_block_size();
        let mut added = None;
        if size > 0 && !tree.is_full() {
            let mut exclude = tree.child_moves(list);
            exclude.sort_unstable();
            self.rank(pos, at_root, node.visits(), &exclude, size);
            self.fill_children(len, list.total());
            if self.new_children.len() == size && tree.widen(list, &self.new_children) {
                added = Some(list.child(len));
            }
        }
        list.unlock();
        added
    }

    /// Turns `ranked` into children with rank priors, the first being rank `first_rank`.
    fn fill_children(&mut self, first_rank: usize, total: usize) {
        let priors = self.shared.priors;
        self.new_children.clear();
        self.new_children.extend(
            self.ranked
                .iter()
                .enumerate()
                .map(|(k, &m)| (m, priors.prior(first_rank + k, total))),
        );
    }

    /// Plays policy moves from `pos` and evaluates; the value is for `pos`'s side to move. The
    /// playout ends early, scored by the exact endgame, once the position is decided.
    fn rollout(&mut self, pos: &mut Position) -> f32 {
        let p = self.shared.params;
        let me = pos.side_to_move();
        // The starting position is not decided (the caller checked).
        let mut decided = false;
        for _ in 0..p.playout_depth {
            match playout_move(pos, &mut self.rng, p.playout_candidates) {
                Some(m) => {
                    pos.make(m);
                    self.nodes += 1;
                    decided = is_decided(pos);
                    if decided {
                        break;
                    }
                }
                None => return if pos.side_to_move() == me { 0.0 } else { 1.0 },
            }
        }
        let v = if decided {
            self.oracle.decided_value(pos, p)
        } else {
            match &p.net {
                Some(net) => net.win_probability(pos, &p.eval),
                None => win_probability(pos, &p.eval),
            }
        };
        if pos.side_to_move() == me {
            v
        } else {
            1.0 - v
        }
    }
}
