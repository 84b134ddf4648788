//! Ctrl-C for the long-running subcommands (`match`, `solve`): the first one raises a flag that
//! the library polls (games in progress are abandoned and the summary printed; a proof stops and
//! prints what it knows); a second one ends the process at once, as Ctrl-C usually does.
//!
//! The handler comes from the `ctrlc` crate: it is portable (Unix signals and the Windows console
//! handler), and it runs the handler on a thread of its own rather than inside the signal, so the
//! handler may do more than store to an atomic.

use std::sync::atomic::{AtomicBool, Ordering};

/// Raised by the first Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Exit status after a second Ctrl-C: 128 + SIGINT, what a shell reports for a process that
/// SIGINT ended.
const SECOND_INTERRUPT_STATUS: i32 = 130;

/// The flag the first Ctrl-C raises.
pub fn flag() -> &'static AtomicBool {
    &INTERRUPTED
}

/// Makes the first Ctrl-C raise [`flag`] and a second one end the process. Calling it again is
/// harmless; where no handler can be installed, Ctrl-C keeps its default effect.
pub fn install() {
    let installed = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(SECOND_INTERRUPT_STATUS);
        }
    });
    if let Err(e) = installed {
        if !matches!(e, ctrlc::Error::MultipleHandlers) {
            log::warn!("Ctrl-C keeps its default effect: {e}");
        }
    }
}
