//! A search tree node: lock-free statistics shared by all search threads.
//!
//! Invariants (every field is an atomic, updated without locks):
//! - `visits` only grows during a search; it counts finished playouts through the node.
//! - `value` is the sum, in fixed point ([`VALUE_ONE`] = 1.0), of the results of those playouts for
//!   the side that moved into the node. Each playout adds its value before its visit, both with
//!   relaxed ordering, so a reader may briefly see one without the other: readers clamp the mean
//!   to 0..=1.
//! - `in_flight` counts playouts that are below this node right now (virtual loss). It is raised on
//!   the way down and lowered only by dropping the [`VirtualLoss`] guard, after the result has been
//!   added, so it is 0 whenever no search is running.
//! - `expansion` is 0 while the node has no children, [`EXPANDING`] while one thread builds them,
//!   and otherwise one more than the index of its children record; it never goes back to 0 during a
//!   search. The record is fully written before this field is published with release ordering.
//! - `proof` only gains bits: once a node is proven won or lost that never changes.
//! - `mv` and `prior` are written before the node is published and never change afterwards.

use crate::mv::Move;
use crate::square::Square;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::*};

/// Fixed-point 1.0 of the value sums (2^24: exact to 6e-8, room for 2^40 visits).
pub const VALUE_ONE: f64 = (1u64 << 24) as f64;
/// `expansion` while a thread is building the children.
pub const EXPANDING: u32 = u32::MAX;

/// Proof bit: the side that moved into this node wins with best play.
pub const PROVEN_WIN: u8 = 1;
/// Proof bit: the side that moved into this node loses with best play.
pub const PROVEN_LOSS: u8 = 2;

/// One node: the position reached by `mv` from its parent, in 32 bytes. Every atomic is naturally
/// aligned, so none straddles a cache line. (Aligning nodes to 32 bytes would make the arena's
/// zeroed allocation take the eager memset path instead of lazily mapped pages.)
#[derive(Default)]
#[repr(C)]
pub struct Node {
    visits: AtomicU32,
    in_flight: AtomicU32,
    value: AtomicU64,
    expansion: AtomicU32,
    prior: AtomicU32,
    mv: [AtomicU8; 3],
    proof: AtomicU8,
}

/// A plain copy of a node's fields (for moving subtrees between searches).
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeData {
    /// Finished playouts.
    pub visits: u32,
    /// Value sum in fixed point.
    pub value: u64,
    /// Children record index plus one, or 0.
    pub expansion: u32,
    /// Prior probability.
    pub prior: f32,
    /// The move leading here (from, to, arrow indices).
    pub mv: [u8; 3],
    /// Proof bits.
    pub proof: u8,
}

impl Node {
    /// Resets the node to a fresh child for `mv` with prior `prior`. Only for a node no other
    /// thread can see yet.
    pub fn init(&self, mv: Option<Move>, prior: f32) {
        self.load(&NodeData {
            prior,
            mv: mv.map_or([0; 3], |m| {
                [
                    m.from.index() as u8,
                    m.to.index() as u8,
                    m.arrow.index() as u8,
                ]
            }),
            ..NodeData::default()
        });
    }

    /// Overwrites every field (only for a node no other thread can see yet).
    pub fn load(&self, d: &NodeData) {
        self.visits.store(d.visits, Relaxed);
        self.in_flight.store(0, Relaxed);
        self.value.store(d.value, Relaxed);
        self.expansion.store(d.expansion, Relaxed);
        self.prior.store(d.prior.to_bits(), Relaxed);
        for (a, &b) in self.mv.iter().zip(&d.mv) {
            a.store(b, Relaxed);
        }
        self.proof.store(d.proof, Relaxed);
    }

    /// A copy of the fields (only meaningful when no search is running).
    pub fn save(&self) -> NodeData {
        NodeData {
            visits: self.visits(),
            value: self.value.load(Relaxed),
            expansion: self.expansion.load(Acquire),
            prior: self.prior(),
            mv: [
                self.mv[0].load(Relaxed),
                self.mv[1].load(Relaxed),
                self.mv[2].load(Relaxed),
            ],
            proof: self.proof(),
        }
    }

    /// The move from the parent (meaningless for the root).
    #[inline]
    pub fn mv(&self) -> Move {
        let sq = |i: usize| Square::from_index(self.mv[i].load(Relaxed) as usize);
        Move::new(sq(0), sq(1), sq(2))
    }

    /// Finished playouts through the node.
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Playouts under way through the node.
    #[inline]
    pub fn in_flight(&self) -> u32 {
        self.in_flight.load(Relaxed)
    }

    /// The prior probability the move ordering gave the node.
    #[inline]
    pub fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Relaxed))
    }

    /// The value sum (in units of 1.0) and the number of playouts counted, `in_flight` ones
    /// included as losses: the inputs of the selection formula.
    #[inline]
    pub fn sum_with_virtual_loss(&self) -> (f32, u32) {
        let n = self.visits() + self.in_flight();
        let v = (self.value.load(Relaxed) as i64 as f32) * (1.0 / VALUE_ONE as f32);
        (v, n)
    }

    /// Mean value for the side that moved here over finished playouts (0.5 when there are none).
    #[inline]
    pub fn mean(&self) -> f32 {
        let n = self.visits();
        if n == 0 {
            return 0.5;
        }
        let v = self.value.load(Relaxed) as f64 / VALUE_ONE;
        ((v / n as f64) as f32).clamp(0.0, 1.0)
    }

    /// Adds one finished playout of value `v` (for the side that moved here).
    #[inline]
    pub fn add(&self, v: f32) {
        self.value
            .fetch_add((v.clamp(0.0, 1.0) as f64 * VALUE_ONE) as u64, Relaxed);
        self.visits.fetch_add(1, Relaxed);
    }

    /// Raw `expansion` field (see the invariants above).
    #[inline]
    pub fn expansion(&self) -> u32 {
        self.expansion.load(Acquire)
    }

    /// Claims the right to expand the node: true for exactly one caller while it is unexpanded.
    #[inline]
    pub fn try_begin_expansion(&self) -> bool {
        self.expansion
            .compare_exchange(0, EXPANDING, Acquire, Relaxed)
            .is_ok()
    }

    /// Publishes the children record `index` (after a successful `try_begin_expansion`).
    #[inline]
    pub fn finish_expansion(&self, index: u32) {
        self.expansion.store(index + 1, Release);
    }

    /// Gives up an expansion claimed with `try_begin_expansion` (out of memory).
    #[inline]
    pub fn abandon_expansion(&self) {
        self.expansion.store(0, Release);
    }

    /// Proof bits ([`PROVEN_WIN`], [`PROVEN_LOSS`]) for the side that moved here.
    #[inline]
    pub fn proof(&self) -> u8 {
        self.proof.load(Relaxed)
    }

    /// Records a proof.
    #[inline]
    pub fn set_proof(&self, bits: u8) {
        self.proof.fetch_or(bits, Relaxed);
    }

    /// Marks a playout passing through (virtual loss); undone when the guard drops.
    #[inline]
    pub fn enter(&self) -> VirtualLoss<'_> {
        self.in_flight.fetch_add(1, Relaxed);
        VirtualLoss(self)
    }
}

/// A playout in progress through a node: other threads see it as a provisional loss, steering them
/// to other lines; dropping the guard takes the mark away.
pub struct VirtualLoss<'a>(&'a Node);

impl Drop for VirtualLoss<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_loss_is_undone_by_drop() {
        let n = Node::default();
        n.add(1.0);
        assert_eq!(n.sum_with_virtual_loss(), (1.0, 1));
        {
            let _a = n.enter();
            let _b = n.enter();
            assert_eq!(n.in_flight(), 2);
            // The two playouts in flight count as losses.
            assert_eq!(n.sum_with_virtual_loss(), (1.0, 3));
        }
        assert_eq!(n.in_flight(), 0);
        assert_eq!(n.mean(), 1.0);
    }

    #[test]
    fn fields_round_trip() {
        let n = Node::default();
        let m = Move::parse("d1-d7/g7", 10).unwrap();
        n.init(Some(m), 0.25);
        n.add(0.5);
        n.set_proof(PROVEN_WIN);
        assert_eq!(n.mv(), m);
        assert_eq!(n.prior(), 0.25);
        let copy = Node::default();
        copy.load(&n.save());
        assert_eq!(copy.mv(), m);
        assert_eq!(copy.visits(), 1);
        assert_eq!(copy.mean(), 0.5);
        assert_eq!(copy.proof(), PROVEN_WIN);
        assert!(copy.try_begin_expansion());
        assert!(!copy.try_begin_expansion());
    }
}
