//! The `thalia` command line (see [`cli`]).

#![deny(missing_docs)]

mod cli;

fn main() -> std::process::ExitCode {
    restore_sigpipe();
    cli::main()
}

/// Gives `SIGPIPE` back its default action, which Rust's runtime sets to "ignore": when the
/// reader of thalia's output goes away (`thalia report --json RUN | head -1`), thalia ends
/// quietly, killed by the signal (status 141 in a shell) as `cat` or `grep` would, instead of
/// panicking on the next `println!`. Writes to a compile server's pipe block the signal
/// around them (`thalia::server`), so a dead server is an error there, not the end of thalia.
fn restore_sigpipe() {
    // SAFETY: sets a signal's disposition to the default before any other thread exists
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
