//! The transposition table of the proof-number search: proof and disproof numbers by position key.
//!
//! Buckets of four entries; a new position replaces the entry of the bucket that cost the least
//! work to compute (proofs and disproofs count double), so expensive results survive longest.
//! Keys are full 64-bit hashes (0 marks an empty slot), and a collision between two positions with
//! the same 64-bit key is accepted as practically impossible.

/// One stored result.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// Search nodes spent on this position when it was stored (saturating).
    work: u32,
}

const WAYS: usize = 4;

/// Proof and disproof numbers by key.
pub(super) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    used: usize,
}

impl Table {
    /// A table of about `mb` MiB (a power of two number of buckets, at least one).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let buckets = (bytes / (WAYS * std::mem::size_of::<Entry>())).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            entries: vec![Entry::default(); buckets * WAYS],
            mask: buckets - 1,
            used: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.used = 0;
    }

    /// Fraction of the slots in use.
    pub fn usage(&self) -> f64 {
        self.used as f64 / self.entries.len() as f64
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * WAYS
    }

    /// The stored `(pn, dn)` of `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(u32, u32)> {
        let b = self.bucket(key);
        self.entries[b..b + WAYS]
            .iter()
            .find(|e| e.key == key)
            .map(|e| (e.pn, e.dn))
    }

    /// Stores `(pn, dn)` for `key`, found with `work` nodes.
    pub fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        let work = work.min(u32::MAX as u64 / 2) as u32;
        let value = |e: &Entry| {
            if e.pn == 0 || e.dn == 0 {
                e.work.saturating_mul(2)
            } else {
                e.work
            }
        };
        let b = self.bucket(key);
        let slots = &mut self.entries[b..b + WAYS];
        let i = match slots.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                let (i, _) = slots
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, e)| if e.key == 0 { 0 } else { value(e) + 1 })
                    .expect("a bucket has slots");
                if slots[i].key == 0 {
                    self.used += 1;
                }
                i
            }
        };
        let e = &mut slots[i];
        let work = if e.key == key { work.max(e.work) } else { work };
        *e = Entry { key, pn, dn, work };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_most_expensive_entries() {
        let mut t = Table::new(1);
        let buckets = t.mask as u64 + 1;
        // Five keys in one bucket: the cheapest of them is the one replaced.
        for i in 1..=5u64 {
            t.put(i * buckets + 1, 1, 2, i * 10);
        }
        assert_eq!(t.get(buckets + 1), None);
        assert_eq!(t.get(5 * buckets + 1), Some((1, 2)));
        t.put(2 * buckets + 1, 0, u32::MAX, 1);
        assert_eq!(t.get(2 * buckets + 1), Some((0, u32::MAX)));
        assert!(t.usage() > 0.0);
        t.clear();
        assert_eq!(t.get(5 * buckets + 1), None);
    }
}
