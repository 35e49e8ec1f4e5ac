//! Reduction during a campaign (`thalia run`, on unless `--no-reduce`): a background thread
//! reduces each new finding of the run's own compiler (`bugs/<signature>/`) while the campaign
//! goes on compiling, and after the campaign for at most [`REDUCE_AFTER_RUN`]. A finding
//! is pending while it has neither `reduced/reduction.json` nor `reduce-failed.txt`, so a
//! resumed run (or `thalia reduce`) picks up what an interrupted one left.

use super::records::REDUCE_FAILED;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::reduce::{reduce, ReduceOptions, REDUCED};

/// How long reduction may go on after the campaign itself has finished; findings still
/// pending then are left for `thalia reduce` (the run's summary says how many).
pub const REDUCE_AFTER_RUN: Duration = Duration::from_secs(120);

/// How often the reducer looks for new findings while the campaign runs.
const POLL: Duration = Duration::from_millis(500);

/// What the campaign's reductions did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AutoReduced {
    /// Findings reduced (in this session).
    pub reduced: usize,
    /// Findings whose reduction failed (the compiler no longer reproduced them, ...).
    pub failed: usize,
    /// Findings still pending when the time after the run was up.
    pub pending: usize,
    /// Lines of each reduced program, in the order reduced.
    pub lines_after: Vec<usize>,
    /// Seconds each reduction took.
    pub seconds: Vec<f64>,
}

impl AutoReduced {
    /// The median of `v` (0 when empty).
    fn median<T: Copy + PartialOrd + Default>(v: &[T]) -> T {
        let mut s = v.to_vec();
        s.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        s.get(s.len() / 2).copied().unwrap_or_default()
    }

    /// A one-line summary for people.
    pub fn line(&self) -> String {
        let mut s = format!(
            "reduced {} finding(s) (median {} lines, median {:.1} s each)",
            self.reduced,
            Self::median(&self.lines_after),
            Self::median(&self.seconds)
        );
        if self.failed > 0 {
            s.push_str(&format!(
                "; {} not reducible ({REDUCE_FAILED})",
                self.failed
            ));
        }
        if self.pending > 0 {
            s.push_str(&format!(
                "; {} left for `thalia reduce` (time after the run was up)",
                self.pending
            ));
        }
        s
    }
}

/// The findings of `run`'s own compiler still waiting for reduction, sorted.
pub fn pending(run: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(run.join("bugs")) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.join("finding.json").is_file()
                && !p.join(REDUCED).join("reduction.json").is_file()
                && !p.join(REDUCE_FAILED).exists()
        })
        .collect();
    out.sort();
    out
}

/// The background reducer of a campaign.
pub struct AutoReducer {
    stop: Arc<AtomicBool>,
    abort: Arc<AtomicBool>,
    handle: JoinHandle<AutoReduced>,
}

impl AutoReducer {
    /// Starts reducing the findings of `run` as they appear.
    pub fn start(run: PathBuf, opts: ReduceOptions) -> AutoReducer {
        let stop = Arc::new(AtomicBool::new(false));
        let abort = Arc::new(AtomicBool::new(false));
        let (flag, abort_flag) = (Arc::clone(&stop), Arc::clone(&abort));
        let handle = std::thread::spawn(move || work(&run, &opts, &flag, &abort_flag));
        AutoReducer {
            stop,
            abort,
            handle,
        }
    }

    /// Tells the reducer the campaign is over and waits for it (at most
    /// [`REDUCE_AFTER_RUN`] more of reducing).
    pub fn finish(self) -> AutoReduced {
        self.stop.store(true, Ordering::SeqCst);
        self.handle.join().unwrap_or_default()
    }

    /// Tells the reducer to start no other reduction, without waiting for it (after Ctrl-C):
    /// a reduction under way ends on its own, and what is left is pending for the next
    /// session or `thalia reduce`.
    pub fn abandon(self) {
        self.abort.store(true, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn work(run: &Path, opts: &ReduceOptions, stop: &AtomicBool, abort: &AtomicBool) -> AutoReduced {
    let mut done = AutoReduced::default();
    let mut deadline: Option<Instant> = None;
    loop {
        if abort.load(Ordering::SeqCst) {
            return done;
        }
        let stopping = stop.load(Ordering::SeqCst);
        if stopping && deadline.is_none() {
            deadline = Some(Instant::now() + REDUCE_AFTER_RUN);
        }
        let todo = pending(run);
        if todo.is_empty() {
            if stopping {
                return done;
            }
            std::thread::sleep(POLL);
            continue;
        }
        for bug in todo {
            if abort.load(Ordering::SeqCst) {
                return done;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                done.pending = pending(run).len();
                return done;
            }
            match reduce(&bug, opts) {
                Ok(r) => {
                    done.reduced += 1;
                    done.lines_after.push(r.lines_after);
                    done.seconds.push(r.seconds);
                }
                Err(e) => {
                    done.failed += 1;
                    // recorded, so that the finding is not tried again
                    let _ = std::fs::write(bug.join(REDUCE_FAILED), format!("{e}\n"));
                }
            }
            if stop.load(Ordering::SeqCst) && deadline.is_none() {
                deadline = Some(Instant::now() + REDUCE_AFTER_RUN);
            }
        }
    }
}
