//! The search tree: nodes and children lists in two fixed-size arenas.
//!
//! A node's children are kept in prior order and created lazily (progressive widening): first a
//! block of [`FIRST_BLOCK`] children, then blocks of doubling size, each a run of consecutive nodes.
//! A [`ChildList`] record holds where each block starts. Growing a list never moves a child, so
//! other threads keep updating children while one thread adds a block.
//!
//! The arenas never grow: when either is full, nodes simply stop being expanded and the search
//! carries on by evaluating the leaves it reaches. Between searches the subtree of the new root is
//! copied to the front of the arenas and everything else is dropped (tree reuse).

use super::arena::{Arena, Zeroable};
use super::node::{Node, NodeData, PROVEN_LOSS, PROVEN_WIN};
use crate::mv::Move;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::*};

/// Size of a node's first block of children.
pub const FIRST_BLOCK: usize = 2;
/// Blocks per node: capacity `FIRST_BLOCK * (2^NUM_BLOCKS - 1)` = 8190 children, more than any
/// position has moves.
pub const NUM_BLOCKS: usize = 12;

/// Index of the root node.
pub const ROOT: u32 = 0;

/// The children of one node, in the order they were ranked.
///
/// Invariants: `len` only grows, always to the end of a block (or to `total`); block `j` is written
/// and its nodes initialised before `len` covers it (release store, paired with the acquire load in
/// [`ChildList::len`]); `widening` is held by at most one thread, the only one that writes blocks.
#[derive(Default)]
pub struct ChildList {
    blocks: [AtomicU32; NUM_BLOCKS],
    len: AtomicU32,
    total: AtomicU32,
    widening: AtomicBool,
}

// SAFETY: atomics and integers only, all valid when zero.
unsafe impl Zeroable for ChildList {}
// SAFETY: atomics only, all valid when zero.
unsafe impl Zeroable for Node {}

/// Block holding child `i`, and the offset within it.
#[inline]
fn locate(i: usize) -> (usize, usize) {
    let q = i / FIRST_BLOCK + 1;
    let j = (usize::BITS - 1 - q.leading_zeros()) as usize;
    (j, i - block_start(j))
}

/// Index of the first child of block `j`.
#[inline]
fn block_start(j: usize) -> usize {
    FIRST_BLOCK * ((1 << j) - 1)
}

impl ChildList {
    /// Children published so far (the first `len` in rank order).
    #[inline]
    pub fn len(&self) -> usize {
        self.len.load(Acquire) as usize
    }

    /// Whether no child is published (never true for a published list).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Legal moves of the node: the most children it can get.
    #[inline]
    pub fn total(&self) -> usize {
        self.total.load(Relaxed) as usize
    }

    /// Node index of child `i` (`i < len()`).
    #[inline]
    pub fn child(&self, i: usize) -> u32 {
        let (j, off) = locate(i);
        self.blocks[j].load(Relaxed) + off as u32
    }

    /// The first `n` children (`n <= len()`) as runs of consecutive node indices: `(first, count)`
    /// per block.
    #[inline]
    pub fn runs(&self, n: usize) -> impl Iterator<Item = (u32, usize)> + '_ {
        let mut done = 0;
        (0..NUM_BLOCKS).map_while(move |j| {
            if done >= n {
                return None;
            }
            let count = (FIRST_BLOCK << j).min(n - done);
            done += count;
            Some((self.blocks[j].load(Relaxed), count))
        })
    }

    /// How many children the next block adds (0 when the list is complete).
    pub fn next_block_size(&self) -> usize {
        let len = self.len();
        let (j, _) = locate(len);
        (FIRST_BLOCK << j).min(self.total() - len)
    }

    /// Claims the right to add a block: true for one caller at a time.
    #[inline]
    pub fn try_lock(&self) -> bool {
        self.widening
            .compare_exchange(false, true, Acquire, Relaxed)
            .is_ok()
    }

    /// Releases the claim taken by `try_lock`.
    #[inline]
    pub fn unlock(&self) {
        self.widening.store(false, Release);
    }
}

/// A child to create: its move and prior.
pub type NewChild = (Move, f32);

/// Nodes and children lists.
pub struct Tree {
    nodes: Arena<Node>,
    lists: Arena<ChildList>,
}

/// Bytes one node costs, counting its share of the children lists (about one list per three nodes).
const BYTES_PER_NODE: usize =
    std::mem::size_of::<Node>() + std::mem::size_of::<ChildList>() / 3 + 1;

impl Tree {
    /// A tree using at most `memory_bytes` (a minimum of a few hundred nodes), holding a root.
    pub fn new(memory_bytes: usize) -> Tree {
        let nodes = (memory_bytes / BYTES_PER_NODE).max(256);
        let mut tree = Tree {
            nodes: Arena::new(nodes),
            lists: Arena::new(nodes / 3 + 1),
        };
        tree.clear();
        tree
    }

    /// Drops every node and starts again from a fresh root.
    pub fn clear(&mut self) {
        self.nodes.reset();
        self.lists.reset();
        let root = self.nodes.alloc(1).expect("an empty arena holds the root");
        self.nodes.get(root).init(None, 1.0);
    }

    /// Node `i`.
    #[inline]
    pub fn node(&self, i: u32) -> &Node {
        self.nodes.get(i as usize)
    }

    /// The root node.
    #[inline]
    pub fn root(&self) -> &Node {
        self.node(ROOT)
    }

    /// The children of `node`, when it has been expanded.
    #[inline]
    pub fn children(&self, node: &Node) -> Option<&ChildList> {
        match node.expansion() {
            0 | super::node::EXPANDING => None,
            e => Some(self.lists.get(e as usize - 1)),
        }
    }

    /// Whether the arenas can no longer take an expansion.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.lists.nearly_full(1) || self.nodes.nearly_full(FIRST_BLOCK)
    }

    /// Nodes in use and node capacity.
    pub fn usage(&self) -> (usize, usize) {
        (self.nodes.used(), self.nodes.capacity())
    }

    /// Bytes the arenas reserve.
    pub fn reserved_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.lists.capacity() * std::mem::size_of::<ChildList>()
    }

    /// Gives `node` (claimed with `try_begin_expansion`) its first children, `first` in rank
    /// order, out of `total` legal moves. Returns false, leaving the node unexpanded, when memory
    /// is full.
    pub fn expand(&self, node: &Node, first: &[NewChild], total: usize) -> bool {
        debug_assert!(!first.is_empty() && first.len() <= FIRST_BLOCK.min(total));
        let Some(li) = self.lists.alloc(1) else {
            node.abandon_expansion();
            return false;
        };
        let Some(start) = self.nodes.alloc(first.len()) else {
            node.abandon_expansion();
            return false;
        };
        self.init_block(start, first);
        let list = self.lists.get(li);
        list.blocks[0].store(start as u32, Relaxed);
        list.total.store(total as u32, Relaxed);
        list.widening.store(false, Relaxed);
        list.len.store(first.len() as u32, Release);
        node.finish_expansion(li as u32);
        true
    }

    /// Appends the next block, `more` (exactly `next_block_size()` children), to `list`, whose
    /// lock the caller holds. Returns false when memory is full.
    pub fn widen(&self, list: &ChildList, more: &[NewChild]) -> bool {
        let len = list.len();
        debug_assert_eq!(more.len(), list.next_block_size());
        let Some(start) = self.nodes.alloc(more.len()) else {
            return false;
        };
        self.init_block(start, more);
        let (j, off) = locate(len);
        debug_assert_eq!(off, 0);
        list.blocks[j].store(start as u32, Relaxed);
        list.len.store((len + more.len()) as u32, Release);
        true
    }

    fn init_block(&self, start: usize, children: &[NewChild]) {
        for (k, &(m, prior)) in children.iter().enumerate() {
            self.nodes.get(start + k).init(Some(m), prior);
        }
    }

    /// The moves of `list`'s published children.
    pub fn child_moves(&self, list: &ChildList) -> Vec<Move> {
        (0..list.len())
            .map(|i| self.node(list.child(i)).mv())
            .collect()
    }

    /// The child of `node` reached by `m`, if it exists.
    pub fn find_child(&self, node: &Node, m: Move) -> Option<u32> {
        let list = self.children(node)?;
        (0..list.len())
            .map(|i| list.child(i))
            .find(|&c| self.node(c).mv() == m)
    }

    /// The child of `node` to play: a proven win if there is one, else the most visited (ties go to
    /// the better mean, then to the better rank).
    pub fn best_child(&self, node: &Node) -> Option<u32> {
        let list = self.children(node)?;
        let key = |c: u32| {
            let n = self.node(c);
            (n.proof() & PROVEN_WIN != 0, n.visits(), n.mean().to_bits())
        };
        let mut best: Option<(u32, (bool, u32, u32))> = None;
        for i in 0..list.len() {
            let c = list.child(i);
            let k = key(c);
            if best.is_none_or(|(_, bk)| k > bk) {
                best = Some((c, k));
            }
        }
        best.map(|(c, _)| c)
    }

    /// The principal variation from `node`: the best child, its best child, and so on, while the
    /// children have been visited (at most `max` moves).
    pub fn principal_variation(&self, mut node: u32, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        while pv.len() < max {
            match self.best_child(self.node(node)) {
                Some(c) if self.node(c).visits() > 0 || self.node(c).proof() != 0 => {
                    pv.push(self.node(c).mv());
                    node = c;
                }
                _ => break,
            }
        }
        pv
    }

    /// Whether every child of `node` exists and is proven lost for the side that moved into it.
    pub fn all_children_lost(&self, node: &Node) -> bool {
        let Some(list) = self.children(node) else {
            return false;
        };
        list.len() == list.total()
            && (0..list.len()).all(|i| self.node(list.child(i)).proof() & PROVEN_LOSS != 0)
    }

    /// Makes the node reached from the root by `moves` the new root, keeping its subtree and
    /// dropping the rest. Returns false (and clears the tree) when that node does not exist.
    /// Only between searches.
    pub fn advance(&mut self, moves: &[Move]) -> bool {
        let mut at = ROOT;
        for &m in moves {
            match self.find_child(self.node(at), m) {
                Some(c) => at = c,
                None => {
                    self.clear();
                    return false;
                }
            }
        }
        if at != ROOT {
            self.compact(at);
        }
        true
    }

    /// Copies the subtree of `new_root` to the front of the arenas, breadth first, so that it
    /// becomes the whole tree with its root at [`ROOT`].
    fn compact(&mut self, new_root: u32) {
        struct ListData {
            blocks: [u32; NUM_BLOCKS],
            len: u32,
            total: u32,
        }
        let mut nodes: Vec<NodeData> = vec![self.node(new_root).save()];
        let mut old_index: Vec<u32> = vec![new_root];
        let mut lists: Vec<ListData> = Vec::new();
        let mut next = 0;
        while next < nodes.len() {
            let old = self.node(old_index[next]);
            if let Some(list) = self.children(old) {
                let len = list.len();
                let mut data = ListData {
                    blocks: [0; NUM_BLOCKS],
                    len: len as u32,
                    total: list.total() as u32,
                };
                let mut i = 0;
                let mut j = 0;
                while i < len {
                    let size = (FIRST_BLOCK << j).min(len - i);
                    data.blocks[j] = nodes.len() as u32;
                    for k in 0..size {
                        let c = list.child(i + k);
                        nodes.push(self.node(c).save());
                        old_index.push(c);
                    }
                    i += size;
                    j += 1;
                }
                lists.push(data);
                nodes[next].expansion = lists.len() as u32;
            } else {
                // An unexpanded node (or one whose expansion was interrupted) starts afresh.
                nodes[next].expansion = 0;
            }
            next += 1;
        }
        self.nodes.reset();
        self.lists.reset();
        let start = self.nodes.alloc(nodes.len()).expect("a subtree fits");
        debug_assert_eq!(start, ROOT as usize);
        for (i, d) in nodes.iter().enumerate() {
            self.nodes.get(i).load(d);
        }
        if !lists.is_empty() {
            self.lists.alloc(lists.len()).expect("a subtree fits");
        }
        for (i, d) in lists.iter().enumerate() {
            let list = self.lists.get(i);
            for (b, &v) in list.blocks.iter().zip(&d.blocks) {
                b.store(v, Relaxed);
            }
            list.total.store(d.total, Relaxed);
            list.len.store(d.len, Relaxed);
            list.widening.store(false, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn children(moves: &[Move]) -> Vec<NewChild> {
        moves.iter().map(|&m| (m, 0.1)).collect()
    }

    #[test]
    fn blocks_double() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(1), (0, 1));
        assert_eq!(locate(2), (1, 0));
        assert_eq!(locate(5), (1, 3));
        assert_eq!(locate(6), (2, 0));
        assert_eq!(locate(13), (2, 7));
        assert_eq!(locate(14), (3, 0));
        assert!(block_start(NUM_BLOCKS) >= 8000);
    }

    #[test]
    fn expand_widen_and_reuse() {
        let pos = Position::standard();
        let moves = pos.legal_moves();
        let tree_mem = 1 << 20;
        let mut tree = Tree::new(tree_mem);
        let root = tree.root();
        assert!(root.try_begin_expansion());
        assert!(tree.expand(root, &children(&moves[..2]), moves.len()));
        let list = tree.children(tree.root()).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list.next_block_size(), 4);
        assert!(list.try_lock());
        assert!(!list.try_lock());
        assert!(tree.widen(list, &children(&moves[2..6])));
        list.unlock();
        assert_eq!(list.len(), 6);
        assert_eq!(tree.child_moves(list), moves[..6].to_vec());
        let runs: Vec<(u32, usize)> = list.runs(5).collect();
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[0].0, runs[0].1, runs[1].1), (list.child(0), 2, 3));
        assert_eq!(runs[1].0, list.child(2));
        // Give child 4 some statistics and a child of its own, then make it the root.
        let c4 = tree.find_child(tree.root(), moves[4]).unwrap();
        tree.node(c4).add(0.75);
        let mut after = pos.clone();
        after.make(moves[4]);
        let replies = after.legal_moves();
        assert!(tree.node(c4).try_begin_expansion());
        assert!(tree.expand(tree.node(c4), &children(&replies[..2]), replies.len()));
        let grandchild = tree.find_child(tree.node(c4), replies[1]).unwrap();
        tree.node(grandchild).add(0.25);
        assert!(tree.advance(&[moves[4]]));
        assert_eq!(tree.root().visits(), 1);
        assert_eq!(tree.root().mean(), 0.75);
        assert_eq!(tree.usage().0, 3);
        let g = tree.find_child(tree.root(), replies[1]).unwrap();
        assert_eq!(tree.node(g).mean(), 0.25);
        assert_eq!(tree.best_child(tree.root()), Some(g));
        assert_eq!(tree.principal_variation(ROOT, 10), vec![replies[1]]);
        // A move that is not in the tree clears it.
        assert!(!tree.advance(&[replies[0], moves[0]]));
        assert_eq!(tree.usage().0, 1);
        assert!(tree.children(tree.root()).is_none());
    }

    #[test]
    fn full_tree_refuses_expansion() {
        let pos = Position::standard();
        let moves = pos.legal_moves();
        let tree = Tree::new(0);
        let (_, cap) = tree.usage();
        let mut expanded = 0;
        for i in 0..cap as u32 {
            let n = tree.node(i);
            if i as usize >= tree.usage().0 {
                break;
            }
            if n.try_begin_expansion() && tree.expand(n, &children(&moves[..2]), moves.len()) {
                expanded += 1;
            }
        }
        assert!(expanded > 10);
        assert!(tree.is_full());
        assert!(tree.usage().0 <= cap);
    }
}
