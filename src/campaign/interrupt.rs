//! Ctrl-C during a campaign: while a campaign compiles, the first SIGINT asks it to stop (the
//! programs recorded so far stay; the batches under way are given up and judged again by the
//! next session), and a second one ends the process at once. Outside a campaign, SIGINT ends
//! the process as it always does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

/// Set when a stop was asked for (by SIGINT or [`request`]).
static REQUESTED: AtomicBool = AtomicBool::new(false);
/// Set while a campaign compiles (SIGINT then asks it to stop).
static ARMED: AtomicBool = AtomicBool::new(false);
/// The handler is installed once per process.
static INSTALL: Once = Once::new();

/// Installs the SIGINT handler that [`arm`] makes ask the campaign to stop (the command line
/// does this; a library user that wants Ctrl-C to stop campaigns gracefully may too).
pub fn install() {
    INSTALL.call_once(|| {
        // SAFETY: `on_sigint` only touches atomics and calls the async-signal-safe
        // signal(2) and raise(3); the sigaction struct is zeroed and then filled in
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = libc::SA_RESTART;
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        }
    });
}

/// The SIGINT handler: a stop request while armed and not asked before, else the default
/// action (the process ends).
extern "C" fn on_sigint(_: libc::c_int) {
    if ARMED.load(Ordering::SeqCst) && !REQUESTED.swap(true, Ordering::SeqCst) {
        return;
    }
    // SAFETY: signal(2) and raise(3) are async-signal-safe
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
        libc::raise(libc::SIGINT);
    }
}

/// Asks the campaign under way to stop, as Ctrl-C does.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Whether a stop was asked for since the campaign began.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// The flag [`request`] sets, for a [`crate::compile::Cutoff`] to watch.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// While a campaign compiles: SIGINT asks it to stop (see [`arm`]).
#[derive(Debug)]
pub struct Armed(());

impl Drop for Armed {
    fn drop(&mut self) {
        ARMED.store(false, Ordering::SeqCst);
    }
}

/// Arms SIGINT for a campaign that begins compiling (an earlier stop request is forgotten);
/// disarmed when the guard is dropped.
pub fn arm() -> Armed {
    REQUESTED.store(false, Ordering::SeqCst);
    ARMED.store(true, Ordering::SeqCst);
    Armed(())
}
