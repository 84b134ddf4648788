//! Exact moves left of an area: depth-first search with a transposition table.
//!
//! The question asked of the search is always "can these amazons still make `t` moves?". An area
//! with `n` reachable empty squares allows at most `n` moves (each burns one); when a move cuts the
//! area into parts, each part is solved on its own (and cached, normalized to the corner) and the
//! values add up. The exact value is found by raising a proven lower bound (a greedy fill, then
//! each path found, extended greedily) until the question fails: successes are quick with good
//! move ordering, and only the last question, one above the true value, needs a full proof. That
//! proof is what makes some defective regions slow (it is exponential in the worst case); the
//! budget then leaves proven bounds.

use super::area::{greedy_fill, low_bit, Area, Node};
use super::bounds::{Budget, MovesLeft};
use super::table::Table;
use std::time::Instant;

/// The budget ran out; nothing proven is lost (proven bounds stay in the table).
#[derive(Debug)]
pub(crate) struct OutOfBudget;

/// The children of a node with their "certainly connected" flag, and their ordering keys
/// (`key << 32 | index`; sorting plain integers is much faster than sorting the children).
type Children = (Vec<(bool, Area)>, Vec<u64>);

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 1024;

/// Search state: the table survives between calls (its entries are facts about areas), the
/// budget counters are per call.
pub(crate) struct Search {
    table: Table,
    /// Child lists, one per depth, reused to avoid allocating.
    lists: Vec<Children>,
    nodes: u64,
    node_limit: u64,
    /// After a search for `t` moves succeeds: further moves proven possible beyond the `t`
    /// (the found path extended greedily), so the caller can raise its lower bound past `t`.
    extra: u32,
    deadline: Option<Instant>,
}

impl Search {
    pub fn new(table_bits: u32) -> Search {
        Search {
            table: Table::new(table_bits),
            lists: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            extra: 0,
            deadline: None,
        }
    }

    /// Starts a call with a fresh budget.
    pub fn start(&mut self, budget: Budget) {
        self.nodes = 0;
        self.node_limit = budget.nodes;
        self.deadline = budget.deadline;
    }

    /// Nodes searched since [`Search::start`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the transposition table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Moves left of `area` (any number of parts): exact when the budget allows, else proven
    /// bounds.
    pub fn bounds(&mut self, area: Area) -> MovesLeft {
        let mut total = MovesLeft::exact(0);
        for part in area.parts() {
            total = total + self.part_bounds(part.normalized());
        }
        total
    }

    /// Bounds of one connected, normalized part.
    fn part_bounds(&mut self, part: Area) -> MovesLeft {
        if !part.can_move() {
            return MovesLeft::exact(0);
        }
        let (mut lo, mut hi) = self.table.get(part).unwrap_or((0, part.squares()));
        if lo < hi {
            lo = lo.max(greedy_fill(part));
        }
        while lo < hi {
            match self.search(part, lo + 1, 0, true) {
                Ok(true) => lo = (lo + 1 + self.extra).min(hi),
                Ok(false) => hi = lo,
                Err(OutOfBudget) => break,
            }
        }
        self.table.put(part, lo, hi);
        MovesLeft { lo, hi }
    }

    /// Exact moves left of `area` (any number of parts), or out of budget.
    pub fn exact(&mut self, area: Area, ply: usize) -> Result<u32, OutOfBudget> {
        let (first, rest) = area.split_first();
        let mut total = 0;
        if rest.amazons != 0 {
            total += self.exact(rest, ply)?;
        }
        let part = first.normalized();
        if !part.can_move() {
            return Ok(total);
        }
        let (mut lo, mut hi) = self.table.get(part).unwrap_or((0, part.squares()));
        if lo < hi && hi >= 8 {
            lo = lo.max(greedy_fill(part));
        }
        while lo < hi {
            if self.search(part, lo + 1, ply, true)? {
                lo = (lo + 1 + self.extra).min(hi);
            } else {
                hi = lo;
            }
        }
        self.table.put(part, lo, lo);
        Ok(total + lo)
    }

    /// A proven lower bound for `area` without search: cached bounds of its parts, else 0.
    fn quick_lower(&self, area: Area) -> u32 {
        area.parts()
            .into_iter()
            .map(|p| self.table.get(p.normalized()).map_or(0, |(lo, _)| lo))
            .sum()
    }

    /// Whether `area` allows at least `t` moves. `connected`: the caller knows the area is in one
    /// piece (no flood fill needed).
    fn search(
        &mut self,
        area: Area,
        t: u32,
        ply: usize,
        connected: bool,
    ) -> Result<bool, OutOfBudget> {
        if t == 0 {
            // The end of a successful path: see how much further it goes.
            self.extra = greedy_fill(area);
            return Ok(true);
        }
        let area = if connected {
            area
        } else {
            let (first, rest) = area.split_first();
            if rest.amazons != 0 {
                // Independent parts: the values add. Settle the cheap bound first, then solve
                // the part holding the lowest amazon exactly and ask the rest for the remainder.
                if first.quick_upper() + rest.quick_upper() < t {
                    return Ok(false);
                }
                let v = self.exact(first, ply)?;
                if v >= t {
                    self.extra = v - t + self.quick_lower(rest);
                    return Ok(true);
                }
                return self.search(rest, t - v, ply, false);
            }
            first
        };
        let squares = area.squares();
        if squares < t || !area.can_move() {
            return Ok(false);
        }
        if let Some((lo, hi)) = self.table.get(area) {
            if lo >= t {
                self.extra = lo - t;
                return Ok(true);
            }
            if hi < t {
                return Ok(false);
            }
        }
        self.nodes += 1;
        if self.nodes > self.node_limit
            || (self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Err(OutOfBudget);
        }
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Default::default);
        }
        let (mut children, mut order) = std::mem::take(&mut self.lists[ply]);
        children.clear();
        order.clear();
        let node = Node::new(area);
        let table = &self.table;
        area.for_each_move(|from, to, arrow, child| {
            let e = node.effect(from, to, arrow, child);
            // Each move burns one square; orphaned squares are lost as well.
            if squares - e.orphans >= t {
                table.prefetch(child);
                order.push((e.key as u64) << 32 | children.len() as u64);
                children.push((e.connected, child));
            }
        });
        order.sort_unstable();
        let mut found = Ok(false);
        for &k in &order {
            let (connected, child) = children[k as u32 as usize];
            match self.search(child, t - 1, ply + 1, connected) {
                Ok(false) => {}
                other => {
                    found = other;
                    break;
                }
            }
        }
        self.lists[ply] = (children, order);
        match found {
            Ok(true) => self.table.put(area, t, squares),
            Ok(false) => self.table.put(area, 0, t - 1),
            Err(_) => {}
        }
        found
    }

    /// Among the moves of `area`, one that keeps its moves left maximal, as `(from, to, arrow)`
    /// bits, with the bounds of the area after it. With exact values this is a perfect move;
    /// otherwise the move whose result has the best proven lower bound.
    pub fn best_move(&mut self, area: Area) -> Option<((u128, u128, u128), MovesLeft)> {
        let target = self.bounds(area);
        let mut moves: Vec<(u32, (u128, u128, u128), Area)> = Vec::new();
        let node = Node::new(area);
        area.for_each_move(|from, to, arrow, child| {
            moves.push((
                node.effect(from, to, arrow, child).key,
                (from, to, arrow),
                child,
            ))
        });
        moves.sort_unstable_by_key(|m| m.0);
        let mut best: Option<((u128, u128, u128), MovesLeft)> = None;
        for (_, m, child) in moves {
            let got = self.bounds(child);
            if target.is_exact() && got.is_exact() && got.lo + 1 == target.lo {
                return Some((m, got));
            }
            if best.is_none_or(|(_, b)| (got.lo, got.hi) > (b.lo, b.hi)) {
                best = Some((m, got));
            }
        }
        best
    }
}

/// The square of a one-bit set.
fn bit_square(bit: u128) -> crate::square::Square {
    debug_assert_eq!(low_bit(bit), bit);
    crate::square::Square::from_index(bit.trailing_zeros() as usize)
}

/// The move a [`Search::best_move`] gives as one-bit sets `(from, to, arrow)`.
pub(crate) fn bits_move((from, to, arrow): (u128, u128, u128)) -> crate::mv::Move {
    crate::mv::Move::new(bit_square(from), bit_square(to), bit_square(arrow))
}
