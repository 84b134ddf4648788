//! Ctrl-C: the first one asks the match to stop (games in progress are abandoned, engines are shut
//! down and the summary is printed); a second one kills the runner as usual.
//!
//! Rust's standard library has no signal handling. Rather than add a crate, this declares the C
//! library's `signal` function, which every Unix Rust program already links: the handler only stores
//! to an atomic and resets the disposition, both async-signal-safe. Elsewhere Ctrl-C keeps its
//! default effect.

use std::sync::atomic::AtomicBool;

/// Raised by the first SIGINT. A signal handler can reach only statics, hence this one flag.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The flag the first Ctrl-C raises (never raised where signals are not handled).
pub fn flag() -> &'static AtomicBool {
    &INTERRUPTED
}

#[cfg(unix)]
mod imp {
    use super::INTERRUPTED;
    use std::sync::atomic::Ordering;

    const SIGINT: i32 = 2;
    const SIG_DFL: usize = 0;

    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }

    extern "C" fn on_sigint(_: i32) {
        INTERRUPTED.store(true, Ordering::SeqCst);
        // SAFETY: `signal` is async-signal-safe; restoring the default makes a second Ctrl-C
        // end the process.
        unsafe {
            signal(SIGINT, SIG_DFL);
        }
    }

    pub fn install() {
        let handler: extern "C" fn(i32) = on_sigint;
        // SAFETY: `signal` is the C library's; the handler has the C signature it expects and
        // touches only an atomic and `signal` itself.
        unsafe {
            signal(SIGINT, handler as usize);
        }
    }
}

/// Makes the first Ctrl-C raise [`flag`] instead of ending the process.
pub fn install() {
    #[cfg(unix)]
    imp::install();
}
