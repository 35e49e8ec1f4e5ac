//! Busy time per campaign stage (synthesis with its round plans, compile, attribution, store,
//! twins, run), summed over
//! the threads of this process: what `thalia bench compile` shares a campaign's wall time
//! out by; and the compiler starts and invocations of the campaign's batches alone (not of a
//! finding's evidence or differential compilations), which it counts per batch.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

/// A stage of a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Making the programs (on the campaign's producer thread, beside the compilers).
    Synthesis,
    /// Planning a round (synthesis's pass 1, once per round and mode): part of
    /// [`Stage::Synthesis`]'s time, counted here too so that a campaign's steady rate can
    /// charge it per round rather than to its first batch.
    Plan,
    /// Compiling them (writing no files; a compiler's output read back included).
    Compile,
    /// Reading the compiler's output and attributing its diagnostics to files.
    Attribution,
    /// Judging the verdicts and keeping them in the run directory.
    Store,
    /// Compiling the Java twins of findings.
    Twins,
    /// Running accepted programs and their twins (`--run`).
    Run,
    /// A compile worker's file work: clearing its scratch directory, writing a batch's
    /// sources.
    Files,
    /// A compile worker waiting for the producer's next batch.
    Wait,
}

impl Stage {
    /// Every stage, in report order.
    pub const ALL: [Stage; 9] = [
        Stage::Synthesis,
        Stage::Plan,
        Stage::Compile,
        Stage::Attribution,
        Stage::Store,
        Stage::Twins,
        Stage::Run,
        Stage::Files,
        Stage::Wait,
    ];
}

/// Nanoseconds per stage (by its index in [`Stage::ALL`]).
static NANOS: [AtomicU64; Stage::ALL.len()] = [const { AtomicU64::new(0) }; Stage::ALL.len()];

/// Adds `d` to `stage`.
pub fn add(stage: Stage, d: Duration) {
    let nanos = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    NANOS[stage as usize].fetch_add(nanos, Ordering::Relaxed);
}

/// Runs `f`, adding its time to `stage`.
pub fn time<T>(stage: Stage, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    add(stage, start.elapsed());
    out
}

/// Seconds per stage so far in this process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StageTimes {
    /// [`Stage::Synthesis`].
    pub synthesis: f64,
    /// [`Stage::Plan`] (within `synthesis`).
    #[serde(default)]
    pub plan: f64,
    /// [`Stage::Compile`].
    pub compile: f64,
    /// [`Stage::Attribution`].
    pub attribution: f64,
    /// [`Stage::Store`].
    pub store: f64,
    /// [`Stage::Twins`].
    pub twins: f64,
    /// [`Stage::Run`].
    #[serde(default)]
    pub run: f64,
    /// [`Stage::Files`].
    #[serde(default)]
    pub files: f64,
    /// [`Stage::Wait`].
    #[serde(default)]
    pub wait: f64,
}

impl StageTimes {
    /// The seconds of `stage`.
    pub fn get(&self, stage: Stage) -> f64 {
        match stage {
            Stage::Synthesis => self.synthesis,
            Stage::Plan => self.plan,
            Stage::Compile => self.compile,
            Stage::Attribution => self.attribution,
            Stage::Store => self.store,
            Stage::Twins => self.twins,
            Stage::Run => self.run,
            Stage::Files => self.files,
            Stage::Wait => self.wait,
        }
    }

    /// The time spent since `earlier`, stage by stage.
    pub fn since(&self, earlier: &StageTimes) -> StageTimes {
        StageTimes {
            synthesis: self.synthesis - earlier.synthesis,
            plan: self.plan - earlier.plan,
            compile: self.compile - earlier.compile,
            attribution: self.attribution - earlier.attribution,
            store: self.store - earlier.store,
            twins: self.twins - earlier.twins,
            run: self.run - earlier.run,
            files: self.files - earlier.files,
            wait: self.wait - earlier.wait,
        }
    }
}

/// The seconds per stage so far.
pub fn snapshot() -> StageTimes {
    let s = |stage: Stage| NANOS[stage as usize].load(Ordering::Relaxed) as f64 / 1e9;
    StageTimes {
        synthesis: s(Stage::Synthesis),
        plan: s(Stage::Plan),
        compile: s(Stage::Compile),
        attribution: s(Stage::Attribution),
        store: s(Stage::Store),
        twins: s(Stage::Twins),
        run: s(Stage::Run),
        files: s(Stage::Files),
        wait: s(Stage::Wait),
    }
}

/// Compiler starts and invocations of the campaigns' batch compilations so far.
static BATCH_COMPILES: [AtomicU64; 2] = [const { AtomicU64::new(0) }; 2];

/// Adds one batch compilation's compiler starts and invocations.
pub fn add_batch_compiles(starts: usize, invocations: usize) {
    BATCH_COMPILES[0].fetch_add(starts as u64, Ordering::Relaxed);
    BATCH_COMPILES[1].fetch_add(invocations as u64, Ordering::Relaxed);
}

/// The compiler starts and invocations of the campaigns' batch compilations so far.
pub fn batch_compiles() -> (u64, u64) {
    (
        BATCH_COMPILES[0].load(Ordering::Relaxed),
        BATCH_COMPILES[1].load(Ordering::Relaxed),
    )
}

/// Programs of the rounds planned so far (each plan's length).
static PLANNED: AtomicU64 = AtomicU64::new(0);

/// Adds a planned round of `programs` programs.
pub fn add_planned(programs: usize) {
    PLANNED.fetch_add(programs as u64, Ordering::Relaxed);
}

/// The programs of the rounds planned so far.
pub fn planned() -> u64 {
    PLANNED.load(Ordering::Relaxed)
}
