//! The transposition table of the proof-number search: proof and disproof numbers by position key.
//!
//! Buckets of four 16-byte entries, one 64-byte cache line each, so a probe costs one memory
//! access; the search prefetches the buckets of all of a node's children before probing them
//! (probes stalled on memory were most of the solver's time). A new position replaces the entry
//! of the bucket that cost the least work to compute (proofs and disproofs count double), so
//! expensive results survive longest. Eight-way buckets of two lines took more nodes, not fewer
//! (docs/results.md, 2026-12-07).
//!
//! A whole-move position's entry also filters its half-way children (the positions after one of
//! its queen steps, see [`super::dfpn`]): a 16-bit set with one bit per child the search went
//! into (24 bits before the check grew to 40). Most steps are never searched, so most of their
//! probes would miss; the expansion probes only the children whose bit is set and numbers the
//! others statically, which raised the rate. A child reached by transposition from another
//! parent, or whose parent's entry was replaced, is then searched afresh from its static numbers
//! (its own children are still found), which moved the node counts little (docs/results.md,
//! 2026-12-07).
//!
//! The same filter for the positions after a half-way node's arrows (in the half-way node's
//! entry, which has none) would skip 88% of their probes, most of which miss, but it would also
//! lose the 27% of their hits that come by transposition from other half-way nodes: it raised the
//! rate and the nodes more, and the whole 6x4 start fell behind (docs/results.md, 2026-12-07).
//!
//! A key is two independent hashes of the position (see [`Key`]): the low bits of the 64-bit
//! first choose the bucket, and the entry keeps a 40-bit check, the 32-bit second hash and 8 bits
//! of a mix of the first, made odd (0 marks an empty slot). A probe compares its check with the
//! four entries of its bucket, so a position not in the table reads another's numbers with odds
//! of at most 2^-37 per probe (39 free bits, four entries) whatever the table's size: some 0.02
//! false matches in the 2.5 G probes of the whole 6x4 start; and two positions whose first hashes
//! are equal still differ in their checks but for odds of 2^-32.
//!
//! The check used to be the first hash's top 32 bits, and a whole 6x4 run met one false match
//! that left one step of its proof unproven; then a mix of the first hash, which cannot tell
//! apart two positions whose first hashes are equal. Both histories, and how the step filter's
//! shrinking moved the node counts, are in docs/results.md, 2026-12-07.

use super::keys::Key;
use super::zeroed::{Zeroable, Zeroed};
// The entries' XOR trick mixes with splitmix64's finaliser: bijective, and `mix(0) == 0`.
use crate::splitmix::mix64 as mix;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// One stored result: `data` is `pn << 32 | dn`, and `tag` is
/// `(check << 24 | work << 16 | steps) ^ mix(data)`,
/// so a reader that meets a half-written entry (another thread stored `tag` but not yet `data`,
/// or two threads' stores interleaved) decodes a wrong check and sees a miss, never numbers of
/// another position (the XOR trick of Hyatt and Mann's lockless hashing). The data is mixed first
/// because with a plain XOR the check absorbs only the XOR of the two entries' `pn`: entries with
/// equal proof numbers (common: 0, 1, 2) would pass with the other entry's disproof number, and
/// two threads did prove a lost 4x4 start won that way (once in about 2,500 runs under load). An
/// empty slot is all zero (`mix(0) == 0`, and a real check is odd).
#[derive(Default)]
struct Entry {
    tag: AtomicU64,
    data: AtomicU64,
}

/// A decoded entry.
#[derive(Copy, Clone)]
struct Stored {
    /// [`CHECK_BITS`] bits.
    check: u64,
    /// The work's [`work_code`].
    work: u8,
    /// See [`Probe::steps`] ([`STEP_BITS`] bits).
    steps: u32,
    pn: u32,
    dn: u32,
}

/// What a probe finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Probe {
    pub pn: u32,
    pub dn: u32,
    /// For a whole-move position: a 16-bit filter of the half-way children (queen steps) the
    /// search has stored, one [`step_bit`] each. A child whose bit is clear was never stored
    /// under this entry, so its probe can be skipped; a set bit may be another child's.
    pub steps: u32,
}

/// Bits of [`Probe::steps`].
const STEP_BITS: u32 = 16;

/// Bits of an entry's check (see [`Table::check`]).
const CHECK_BITS: u32 = 40;

/// The bit of [`Probe::steps`] standing for the half-way child with key `key`.
#[inline]
pub(super) fn step_bit(key: Key) -> u32 {
    1 << ((key.index >> 20) as u32 % STEP_BITS)
}

/// Whether the filter `steps` (see [`Probe::steps`]) lets the child with key `key` have been
/// stored, so that it is worth probing.
#[inline]
pub(super) fn may_be_stored(steps: u32, key: Key) -> bool {
    steps & step_bit(key) != 0
}

/// A work count (nodes) in 8 bits, monotone and within 25% (the top bit's position and the two
/// bits below it): replacement only compares costs roughly, and the bits go to the steps filter.
#[inline]
fn work_code(work: u64) -> u8 {
    if work < 4 {
        return work as u8;
    }
    let top = 63 - work.leading_zeros();
    (top * 4 + ((work >> (top - 2)) & 3) as u32) as u8
}

impl Stored {
    /// The `(tag, data)` words of this entry.
    #[inline]
    fn encode(&self) -> (u64, u64) {
        let data = (self.pn as u64) << 32 | self.dn as u64;
        let low = (self.work as u64) << STEP_BITS | (self.steps & ((1 << STEP_BITS) - 1)) as u64;
        let tag = (self.check << (64 - CHECK_BITS) | low) ^ mix(data);
        (tag, data)
    }
}

impl Entry {
    #[inline]
    fn load(&self) -> Stored {
        let data = self.data.load(Ordering::Relaxed);
        let tag = self.tag.load(Ordering::Relaxed) ^ mix(data);
        Stored {
            check: tag >> (64 - CHECK_BITS),
            work: (tag >> STEP_BITS) as u8,
            steps: tag as u32 & ((1 << STEP_BITS) - 1),
            pn: (data >> 32) as u32,
            dn: data as u32,
        }
    }

    #[inline]
    fn store(&self, s: Stored) {
        let (tag, data) = s.encode();
        self.tag.store(tag, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

const WAYS: usize = 4;

/// Four entries on one cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Entry; WAYS]);

// SAFETY: a bucket is four entries of two `AtomicU64`s; all zero is four empty slots (check 0).
unsafe impl Zeroable for Bucket {}

/// Proof and disproof numbers by key, shared by the threads of a solve. Entries are atomics read
/// and written with relaxed ordering: an entry is a cache of numbers, any of which (old or new) is
/// valid for its position, so no ordering between entries is needed.
pub(super) struct Table {
    /// Zero at first and backed by memory only where touched (see [`super::zeroed`]).
    buckets: Zeroed<Bucket>,
    /// `buckets.len() - 1` when that is a power of two (a key's low bits pick its bucket), else
    /// `None` (the bucket is scaled from the key's low 32 bits, see [`Table::bucket`]).
    mask: Option<usize>,
    /// Slots ever filled (approximate under concurrent stores to one empty slot).
    used: AtomicUsize,
    /// The size it may grow to, MiB (`--hash`).
    max_mib: usize,
}

/// The size a table starts at, MiB, when allowed more (see [`Table::wants_growth`]).
const START_MIB: usize = 16;

impl Table {
    /// A table of up to `mb` MiB (at least 1), [`START_MIB`] at first if `mb` is larger. Any
    /// size is used whole: rounding the bucket count down to a power of two, as before, left a
    /// `--hash 6144` table at 4 GiB.
    pub fn new(mb: usize) -> Table {
        let max_mib = mb.max(1);
        Table::sized(max_mib.min(START_MIB), max_mib)
    }

    fn sized(mb: usize, max_mib: usize) -> Table {
        let bytes = mb << 20;
        let mut buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
        if buckets > 1 << 32 {
            // Beyond what 32 bits of the key can scale to (256 GiB).
            buckets = 1 << 32;
        }
        Table {
            buckets: Zeroed::new(buckets),
            mask: buckets.is_power_of_two().then(|| buckets - 1),
            used: AtomicUsize::new(0),
            max_mib,
        }
    }

    /// Whether the table is three quarters full while it may still grow: the solve then stops, and goes
    /// again with the whole table ([`Table::grow`]). A search with a table that started at its
    /// full size searches as it did, so a proof needing more than the start costs the search
    /// until the start was three quarters full (a few seconds at most) and then the same nodes as before,
    /// and a small proof takes [`START_MIB`] at most, not the whole `--hash`.
    pub fn wants_growth(&self) -> bool {
        self.mib() < self.max_mib
            && self.used.load(Ordering::Relaxed) * 4 >= self.buckets.len() * WAYS * 3
    }

    /// Makes the table its whole size, empty.
    pub fn grow(&mut self) {
        *self = Table::sized(self.max_mib, self.max_mib);
    }

    /// Forgets everything, and hands the memory back: the table starts small again.
    pub fn clear(&mut self) {
        *self = Table::new(self.max_mib);
    }

    /// MiB of the table held in memory: the pages stores have touched.
    pub fn resident_mib(&self) -> f64 {
        self.buckets.resident_bytes() as f64 / (1 << 20) as f64
    }

    /// Fraction of the slots in use.
    pub fn usage(&self) -> f64 {
        self.used.load(Ordering::Relaxed) as f64 / (self.buckets.len() * WAYS) as f64
    }

    #[inline]
    fn bucket(&self, key: Key) -> usize {
        match self.mask {
            Some(mask) => key.index as usize & mask,
            // Multiply and shift (Lemire's fast range): uniform over any bucket count, from the
            // same low bits a mask takes, so the entries' checks stay independent of it.
            None => (((key.index & 0xFFFF_FFFF) * self.buckets.len() as u64) >> 32) as usize,
        }
    }

    /// The size the table may grow to, MiB.
    pub fn max_mib(&self) -> usize {
        self.max_mib
    }

    /// The table's size now, MiB.
    pub fn mib(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// The part of `key` an entry keeps to tell positions apart: its 32-bit second hash and the
    /// top 8 bits of a mix of its first, made odd (0 marks an empty slot).
    #[inline]
    fn check(key: Key) -> u64 {
        (key.check as u64) << (CHECK_BITS - 32) | mix(key.index) >> (64 - (CHECK_BITS - 32)) | 1
    }

    /// Asks the processor to start loading `key`'s bucket, which a probe will soon need.
    #[inline]
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = &self.buckets[self.bucket(key)] as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint that never faults, and `p` points into the table.
            unsafe { _mm_prefetch(p, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored `(pn, dn)` of `key`, if any.
    #[inline]
    pub fn get(&self, key: Key) -> Option<(u32, u32)> {
        self.probe(key).map(|e| (e.pn, e.dn))
    }

    /// What is stored for `key`, if anything.
    #[inline]
    pub fn probe(&self, key: Key) -> Option<Probe> {
        let check = Self::check(key);
        self.buckets[self.bucket(key)]
            .0
            .iter()
            .map(Entry::load)
            .find(|e| e.check == check)
            .map(|e| Probe {
                pn: e.pn,
                dn: e.dn,
                steps: e.steps,
            })
    }

    /// Stores `(pn, dn)` for `key`, found with `work` nodes, adding `steps` to the entry's
    /// filter of stored half-way children (see [`Probe::steps`]).
    pub fn put(&self, key: Key, pn: u32, dn: u32, work: u64, steps: u32) {
        let work = work_code(work);
        // Proofs and disproofs count double (one more top bit).
        let value = |e: &Stored| {
            if e.pn == 0 || e.dn == 0 {
                e.work as u32 + 4
            } else {
                e.work as u32
            }
        };
        let check = Self::check(key);
        let slots = &self.buckets[self.bucket(key)].0;
        let stored: [Stored; WAYS] = std::array::from_fn(|i| slots[i].load());
        let i = match stored.iter().position(|e| e.check == check) {
            Some(i) => i,
            None => {
                let (i, _) = stored
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, e)| if e.check == 0 { 0 } else { value(e) + 1 })
                    .expect("a bucket has slots");
                if stored[i].check == 0 {
                    self.used.fetch_add(1, Ordering::Relaxed);
                }
                i
            }
        };
        let (work, steps) = if stored[i].check == check {
            (work.max(stored[i].work), steps | stored[i].steps)
        } else {
            (work, steps)
        };
        slots[i].store(Stored {
            check,
            work,
            steps,
            pn,
            dn,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key in bucket `index` (of a 1 MiB table, whose bucket takes 14 bits) with check `check`.
    fn key(index: u64, check: u32) -> Key {
        Key { index, check }
    }

    #[test]
    fn any_size_is_used_whole() {
        for mb in [1, 3, 6, 12] {
            let t = Table::new(mb);
            assert_eq!(t.mib(), mb);
            let n = t.buckets.len();
            let mut seen = vec![false; n];
            let mut x = 0x1234_5678_9ABC_DEF0u64;
            for _ in 0..n * 8 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let b = t.bucket(key(x ^ (x >> 29), 0));
                seen[b] = true;
            }
            // Every bucket can be reached, the top ones beyond the largest power of two too.
            let hit = seen.iter().filter(|&&s| s).count();
            assert!(hit > n * 99 / 100, "{mb} MiB: {hit} of {n} buckets");
            assert!(seen[n - 1] || seen[n - 2] || seen[n - 3]);
        }
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let t = Table::new(1);
        let k = |i: u32| key(1, i << 8);
        t.put(k(1), 2, 7, 10, 0);
        // Another thread storing k(2) with the same pn got as far as the tag: the old data with
        // the new tag must not read as k(2)'s (it did with a plain XOR of the data).
        let new = Stored {
            check: Table::check(k(2)),
            work: 10,
            steps: 5,
            pn: 2,
            dn: 9,
        };
        let entry = &t.buckets[t.bucket(k(2))].0[0];
        entry.tag.store(new.encode().0, Ordering::Relaxed);
        assert_eq!(t.get(k(2)), None);
        assert_eq!(t.get(k(1)), None);
        entry.data.store(new.encode().1, Ordering::Relaxed);
        assert_eq!(t.get(k(2)), Some((2, 9)));
        assert_eq!(mix(0), 0);
    }

    #[test]
    fn keys_differing_in_their_checks_are_told_apart() {
        // Equal first hashes (one bucket, one step bit) of different positions: their second
        // hashes, which differ in any bit, must keep them apart. A check taken from the first
        // hash alone passed them all.
        let t = Table::new(1);
        let k = key(0x9E37_79B9_7F4A_7C15, 0xD6E8_FEB8);
        t.put(k, 3, 4, 10, 0);
        for b in 0..32 {
            let other = key(k.index, k.check ^ 1 << b);
            assert_eq!(t.bucket(other), t.bucket(k));
            assert_eq!(step_bit(other), step_bit(k));
            assert_eq!(t.get(other), None, "bit {b}");
        }
        assert_eq!(t.get(k), Some((3, 4)));
        // And keys in other buckets with the same check are other positions too.
        assert_eq!(t.get(key(k.index ^ 1, k.check)), None);
    }

    #[test]
    fn work_codes_keep_the_order() {
        let mut last = 0;
        for w in (0..40).flat_map(|e| [1u64 << e, (1u64 << e) + (1 << e) / 2]) {
            let c = work_code(w);
            assert!(c >= last, "{w}");
            last = c;
        }
        assert!(work_code(1000) > work_code(600));
        assert_eq!(work_code(u64::MAX), 255);
    }

    #[test]
    fn the_step_filter_collects_bits() {
        let t = Table::new(1);
        let k = key(1, 7 << 8);
        let (a, b) = (key(11 << 20, 1), key(12 << 20, 2));
        assert_eq!(t.probe(k), None);
        t.put(k, 3, 4, 10, step_bit(a));
        t.put(k, 2, 5, 20, step_bit(b));
        let e = t.probe(k).unwrap();
        assert_eq!((e.pn, e.dn), (2, 5));
        assert_eq!(e.steps, step_bit(a) | step_bit(b));
        assert_ne!(step_bit(a), step_bit(b));
        assert!(e.steps < 1 << STEP_BITS);
    }

    #[test]
    fn keeps_the_most_expensive_entries() {
        let mut t = Table::new(1);
        // Keys of bucket 1 that differ in their checks.
        let k = |i: u32| key(1, i << 8);
        // Five keys in one bucket: the cheapest of them is the one replaced.
        for i in 1..=5u32 {
            t.put(k(i), 1, 2, i as u64 * 10, 0);
        }
        assert_eq!(t.get(k(1)), None);
        assert_eq!(t.get(k(5)), Some((1, 2)));
        t.put(k(2), 0, u32::MAX, 1, 0);
        assert_eq!(t.get(k(2)), Some((0, u32::MAX)));
        assert!(t.usage() > 0.0);
        t.clear();
        assert_eq!(t.get(k(5)), None);
    }
}
