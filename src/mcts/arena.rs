//! A fixed-capacity bump allocator shared by the search threads.
//!
//! The backing memory is requested zeroed, so the operating system maps pages lazily: an arena
//! sized for hundreds of megabytes costs nothing until the search grows into it. Items are handed
//! out by index with one `fetch_add`; the arena never grows, so a full arena simply refuses.

use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Types for which the all-zero bit pattern is a valid value (atomics and integers).
///
/// # Safety
/// Implement only for types whose every field is valid when all bytes are zero.
pub unsafe trait Zeroable: Sized {}

/// A shared array of `T` handed out a run at a time.
pub struct Arena<T: Zeroable> {
    items: Box<[T]>,
    next: AtomicUsize,
}

impl<T: Zeroable> Arena<T> {
    /// An arena of `capacity` items (at least one), all zero.
    pub fn new(capacity: usize) -> Arena<T> {
        let capacity = capacity.max(1);
        let layout = Layout::array::<T>(capacity).expect("arena size overflows");
        assert!(std::mem::size_of::<T>() > 0, "arena of zero-sized items");
        // SAFETY: the layout has a non-zero size (capacity >= 1 and `T` is not zero-sized), as
        // `alloc_zeroed` requires. The memory is zeroed, which `Zeroable` guarantees is a valid
        // `T` for every element, and the pointer comes from the global allocator with exactly the
        // layout of a `[T]` of `capacity` elements, as `Box::from_raw` requires.
        let items = unsafe {
            let ptr = alloc_zeroed(layout) as *mut T;
            if ptr.is_null() {
                handle_alloc_error(layout);
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, capacity))
        };
        Arena {
            items,
            next: AtomicUsize::new(0),
        }
    }

    /// Reserves `n` consecutive items and returns the index of the first, or `None` when the arena
    /// is full. The items keep whatever they held before: the caller initialises them.
    #[inline]
    pub fn alloc(&self, n: usize) -> Option<usize> {
        let start = self.next.fetch_add(n, Relaxed);
        (start + n <= self.items.len()).then_some(start)
    }

    /// The item at `index`.
    #[inline]
    pub fn get(&self, index: usize) -> &T {
        &self.items[index]
    }

    /// Items handed out.
    pub fn used(&self) -> usize {
        self.next.load(Relaxed).min(self.items.len())
    }

    /// Total items.
    pub fn capacity(&self) -> usize {
        self.items.len()
    }

    /// Whether fewer than `n` items are left.
    #[inline]
    pub fn nearly_full(&self, n: usize) -> bool {
        self.next.load(Relaxed) + n > self.items.len()
    }

    /// Forgets every allocation (the items are reused as they are).
    pub fn reset(&mut self) {
        *self.next.get_mut() = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    struct Cell(AtomicU32);
    // SAFETY: an atomic integer is valid when zero.
    unsafe impl Zeroable for Cell {}

    #[test]
    fn allocates_until_full() {
        let mut a: Arena<Cell> = Arena::new(10);
        assert_eq!(a.alloc(4), Some(0));
        assert_eq!(a.alloc(4), Some(4));
        assert_eq!(a.alloc(4), None);
        assert_eq!(a.used(), 10);
        assert_eq!(a.get(7).0.load(Relaxed), 0);
        a.reset();
        assert_eq!(a.alloc(10), Some(0));
        assert!(a.nearly_full(1));
    }
}
