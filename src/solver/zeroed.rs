//! A large array that starts all zero and costs memory only where it is touched.
//!
//! The solver's table is sized by `--hash` (1 GiB by default) whatever the position needs.
//! Writing it empty before a solve cost a small proof a gigabyte and a third of a second, so on
//! Linux the array is mapped anonymously: the kernel hands out zeroed pages on first touch, and
//! a proof that stores a few thousand positions touches a few thousand 4 KiB pages.
//!
//! The mapping asks for 2 MiB pages (a probe of a big table with 4 KiB pages misses the TLB
//! almost every time, and the page walk cost the solver more than the cache miss itself); a
//! table's entries are spread at random, so a table that is used at all soon has every huge
//! page touched, and the table therefore starts small (see [`super::table`]). Elsewhere the array
//! is an ordinary zeroed allocation.

use std::ops::Deref;

/// Types whose all-zero bytes are a valid value.
///
/// # Safety
/// An implementor must be valid (and mean "empty") when every byte is zero.
pub(super) unsafe trait Zeroable: Sized {}

/// `len` values of `T`, all zero at first.
pub(super) struct Zeroed<T: Zeroable> {
    ptr: *mut T,
    len: usize,
    /// What to hand back when dropped.
    mapping: Mapping,
}

// SAFETY: `Zeroed` owns its memory like a `Box<[T]>`; sharing it across threads is as safe as
// sharing `[T]`, which the bounds require.
unsafe impl<T: Zeroable + Send> Send for Zeroed<T> {}
// SAFETY: as above; only `&[T]` is handed out.
unsafe impl<T: Zeroable + Sync> Sync for Zeroed<T> {}

enum Mapping {
    /// An anonymous mapping of `len` bytes at `base` (Linux).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Mapped { base: *mut u8, len: usize },
    /// A global-allocator block of this layout.
    Allocated(std::alloc::Layout),
}

#[cfg(target_os = "linux")]
mod sys {
    use std::ffi::c_void;
    pub const PROT_READ_WRITE: i32 = 0x1 | 0x2;
    pub const MAP_PRIVATE_ANONYMOUS: i32 = 0x02 | 0x20;
    pub const MADV_HUGEPAGE: i32 = 14;
    pub const PAGE: usize = 4096;
    pub const HUGE: usize = 2 << 20;
    extern "C" {
        pub fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: i32,
            flags: i32,
            fd: i32,
            off: i64,
        ) -> *mut c_void;
        pub fn munmap(addr: *mut c_void, len: usize) -> i32;
        pub fn madvise(addr: *mut c_void, len: usize, advice: i32) -> i32;
    }
}

impl<T: Zeroable> Zeroed<T> {
    /// `len` zero values (at least one).
    pub fn new(len: usize) -> Zeroed<T> {
        let len = len.max(1);
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .expect("array size overflows");
        #[cfg(target_os = "linux")]
        if let Some(z) = Self::mapped(len, bytes) {
            return z;
        }
        let layout = std::alloc::Layout::array::<T>(len).expect("array size overflows");
        // SAFETY: the layout has a non-zero size (`len` >= 1 and `T` is not zero-sized, or the
        // multiplication above gave 0 bytes and `Layout::array` a valid zero-size layout, which
        // `alloc_zeroed` must not get).
        assert!(layout.size() > 0, "zero-sized element");
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Zeroed {
            ptr,
            len,
            mapping: Mapping::Allocated(layout),
        }
    }

    /// An anonymous mapping whose array starts on a 2 MiB boundary (so that all of it can later
    /// be backed by huge pages), or `None` if the kernel refuses.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize) -> Option<Zeroed<T>> {
        assert!(std::mem::align_of::<T>() <= sys::PAGE);
        let map_len = bytes.checked_add(sys::HUGE)?;
        // SAFETY: a fresh private anonymous mapping touches no existing memory.
        let base = unsafe {
            sys::mmap(
                std::ptr::null_mut(),
                map_len,
                sys::PROT_READ_WRITE,
                sys::MAP_PRIVATE_ANONYMOUS,
                -1,
                0,
            )
        };
        if base as isize == -1 {
            return None;
        }
        let base = base as *mut u8;
        let offset = (base as usize).next_multiple_of(sys::HUGE) - base as usize;
        // SAFETY: `offset + bytes <= map_len`, inside the mapping.
        let ptr = unsafe { base.add(offset) };
        if bytes >= sys::HUGE {
            // SAFETY: the range is inside the fresh mapping; the advice changes only how the
            // kernel backs the pages, and fails harmlessly (ignored) without huge pages.
            unsafe {
                sys::madvise(
                    ptr.cast(),
                    bytes / sys::HUGE * sys::HUGE,
                    sys::MADV_HUGEPAGE,
                )
            };
        }
        Some(Zeroed {
            ptr: ptr as *mut T,
            len,
            mapping: Mapping::Mapped { base, len: map_len },
        })
    }

    fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }

    /// Bytes of the array the system holds in memory (Linux: the mapping's resident set, read
    /// from `/proc/self/smaps`, where pages only read share the kernel's zero page and do not
    /// count; elsewhere the whole array, which an allocation may have written).
    pub fn resident_bytes(&self) -> usize {
        #[cfg(target_os = "linux")]
        if let Mapping::Mapped { base, .. } = self.mapping {
            if let Some(kib) = smaps_rss_kib(base as usize) {
                return (kib << 10).min(self.bytes());
            }
        }
        self.bytes()
    }
}

/// The `Rss` of the mapping that starts at `start`, in KiB, from `/proc/self/smaps`.
#[cfg(target_os = "linux")]
fn smaps_rss_kib(start: usize) -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let head = format!("{start:x}-");
    let mut lines = text.lines().skip_while(|l| !l.starts_with(&head)).skip(1);
    lines
        .find_map(|l| l.strip_prefix("Rss:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

impl<T: Zeroable> Deref for Zeroed<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` values, all valid (zero or written through `&T`'s
        // interior mutability), owned by `self` for as long as the borrow.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: Zeroable> Drop for Zeroed<T> {
    fn drop(&mut self) {
        match self.mapping {
            #[cfg(target_os = "linux")]
            // SAFETY: the mapping was made by `mapped` with this base and length, and nothing
            // borrows it once `self` is dropped.
            Mapping::Mapped { base, len } => unsafe {
                sys::munmap(base.cast(), len);
            },
            #[cfg(not(target_os = "linux"))]
            Mapping::Mapped { .. } => unreachable!("mappings are made on Linux only"),
            // SAFETY: allocated by `new` with this layout.
            Mapping::Allocated(layout) => unsafe {
                std::alloc::dealloc(self.ptr as *mut u8, layout)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    struct Cell(AtomicU64);
    // SAFETY: an all-zero AtomicU64 is 0.
    unsafe impl Zeroable for Cell {}

    #[test]
    fn starts_zero_keeps_writes_and_costs_only_what_is_touched() {
        let z: Zeroed<Cell> = Zeroed::new(3 << 20);
        assert_eq!(z.len(), 3 << 20);
        let before = z.resident_bytes();
        // Reads see zeros and, on Linux, cost no memory (the kernel's zero page).
        assert!(z
            .iter()
            .step_by(4099)
            .all(|c| c.0.load(Ordering::Relaxed) == 0));
        let read = z.resident_bytes();
        z[12345].0.store(7, Ordering::Relaxed);
        z[(3 << 20) - 1].0.store(9, Ordering::Relaxed);
        assert_eq!(z[12345].0.load(Ordering::Relaxed), 7);
        assert_eq!(z[(3 << 20) - 1].0.load(Ordering::Relaxed), 9);
        assert_eq!(z[12346].0.load(Ordering::Relaxed), 0);
        let written = z.resident_bytes();
        assert!(written >= 8192, "{written}");
        #[cfg(target_os = "linux")]
        {
            // 24 MiB mapped; two writes touch at most two 2 MiB pages.
            assert!(before < 1 << 20, "{before} bytes resident before any write");
            assert!(read < 1 << 20, "{read} bytes resident after reads");
            assert!(
                written <= 4 << 20,
                "{written} bytes resident after two writes"
            );
        }
        let _ = (before, read);
    }
}
