//! Transposition table of proven bounds on the moves left of an area.
//!
//! An entry holds the full area (amazons and empty squares), so a hit is never a hash collision
//! and every bound it returns is proven. Buckets of two: the first slot keeps the entry that cost
//! more to prove (more empty squares), the second always takes the newest.

use super::area::Area;

#[derive(Copy, Clone, Default)]
struct Entry {
    /// Empty squares as two words (0 marks an unused slot: empty areas are never stored).
    empty: [u64; 2],
    amazons: [u64; 2],
    lo: u8,
    hi: u8,
}

fn words(x: u128) -> [u64; 2] {
    [x as u64, (x >> 64) as u64]
}

impl Entry {
    fn holds(&self, a: Area) -> bool {
        self.empty == words(a.empty) && self.amazons == words(a.amazons)
    }

    fn work(&self) -> u32 {
        self.empty[0].count_ones() + self.empty[1].count_ones()
    }
}

/// Bytes of one table entry.
pub(crate) const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// Proven `lo..=hi` bounds per area.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (40 bytes each); `bits` at least 1.
    pub fn new(bits: u32) -> Table {
        let n = 1usize << bits.clamp(1, 30);
        Table {
            entries: vec![Entry::default(); n],
            mask: n - 2,
        }
    }

    #[inline]
    fn bucket(&self, a: Area) -> usize {
        let [e0, e1] = words(a.empty);
        let [a0, a1] = words(a.amazons);
        let mut h = e0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ e1.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ a0.wrapping_mul(0x1656_67B1_9E37_79F9)
            ^ a1.wrapping_mul(0x27D4_EB2F_1656_67C5);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 32;
        h as usize & self.mask
    }

    /// Asks the processor to start loading `a`'s bucket, which a probe will soon need (the table
    /// is far larger than the caches, so probes otherwise stall on memory).
    #[inline]
    pub fn prefetch(&self, a: Area) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.entries[self.bucket(a)..].as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint; it never faults, even on a bad address, and `p`
            // points into the table anyway.
            unsafe { _mm_prefetch(p, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = a;
    }

    /// Proven bounds for `a`, if stored.
    #[inline]
    pub fn get(&self, a: Area) -> Option<(u32, u32)> {
        let i = self.bucket(a);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.holds(a))
            .map(|e| (e.lo as u32, e.hi as u32))
    }

    /// Records that the moves left of `a` lie in `lo..=hi` (merged with what is known).
    pub fn put(&mut self, a: Area, lo: u32, hi: u32) {
        if a.empty == 0 {
            return;
        }
        let i = self.bucket(a);
        let slots = &mut self.entries[i..i + 2];
        if let Some(e) = slots.iter_mut().find(|e| e.holds(a)) {
            e.lo = e.lo.max(lo as u8);
            e.hi = e.hi.min(hi as u8);
            return;
        }
        let new = Entry {
            empty: words(a.empty),
            amazons: words(a.amazons),
            lo: lo as u8,
            hi: hi as u8,
        };
        if new.work() >= slots[0].work() {
            slots[1] = slots[0];
            slots[0] = new;
        } else {
            slots[1] = new;
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_survive_neighbours() {
        let mut t = Table::new(4);
        let a = Area {
            amazons: 1,
            empty: 0b110,
        };
        assert_eq!(t.get(a), None);
        t.put(a, 1, 2);
        t.put(a, 0, 1);
        assert_eq!(t.get(a), Some((1, 1)));
        // Many other areas: the big one keeps its slot against smaller ones.
        let big = Area {
            amazons: 1,
            empty: 0xF_FFFF_FFF0,
        };
        t.put(big, 3, 30);
        for k in 0..200u128 {
            t.put(
                Area {
                    amazons: 1 << 100,
                    empty: k + 2,
                },
                0,
                5,
            );
        }
        assert_eq!(t.get(big), Some((3, 30)));
        t.clear();
        assert_eq!(t.get(big), None);
    }
}
