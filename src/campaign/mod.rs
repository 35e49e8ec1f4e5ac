//! Campaigns: programs (synthesized on the fly, or read from a synthesized directory) compiled
//! in batches by a real compiler, each verdict judged against the program's expectation, and
//! every finding deduplicated and kept in a results store that survives being killed.
//!
//! [`launch()`] is the front door: a campaign's options in, its summary out (`thalia run`,
//! `thalia check` and every cell of `thalia batch` go through it). Below it, by layer (a
//! module uses only modules of its own layer's left or of layers below; no import cycles,
//! which `tests/architecture_campaign.rs` checks):
//!
//! - what a campaign is: [`finding`] (kinds, twin statuses, differential kinds), [`flags`]
//!   (compiler flag sets as a swarm dimension), [`feedback`] (findings drawn less of),
//!   [`candidate`] (a program ready to compile), [`budget`], [`shard`], [`variant`],
//!   [`identity`] (what a resumed run must agree on), [`records`] (the run directory's files
//!   and their formats);
//! - judging, pure: [`signature`], [`known`], [`intended`], and [`mod@judge`] (verdicts →
//!   finding kind, signature, twin status, known/intended label, differential);
//! - keeping: [`store`] (opens, resumes and writes the run directory), [`bugreport`]
//!   (a finding's `report.md`);
//! - running: [`source`] (synthesized or read programs), [`twins`] (Java twins compiled with
//!   javac), [`evidence`] (known entries' programs compiled, for known labels), [`driver`]
//!   (the compile loop, budgets as deadlines), [`interrupt`] (Ctrl-C), [`setup`] (settings →
//!   identity, manifest, options), [`autoreduce`], and [`mod@launch`];
//! - after a run: [`report`], [`merge`] (shards joined), [`reduce`], [`cluster`],
//!   [`bisect`], [`recheck`] (open on the newest release or fixed since, reports rewritten),
//!   [`page`] (the findings page).

pub mod autoreduce;
pub mod bisect;
pub mod budget;
pub mod bugreport;
pub mod candidate;
pub mod cluster;
pub mod driver;
pub mod evidence;
pub mod feedback;
pub mod finding;
pub mod flags;
pub mod identity;
pub mod intended;
pub mod interrupt;
pub mod judge;
pub mod known;
pub mod launch;
pub mod merge;
pub mod page;
pub mod recheck;
pub mod records;
pub mod reduce;
pub mod report;
pub mod setup;
pub mod shard;
pub mod signature;
pub mod source;
pub mod store;
pub mod twins;
pub mod variant;

pub use candidate::{Candidate, Twin};
pub use finding::{twin_applies, DiffKind, FindingKind, TwinStatus};
pub use judge::{judge, judge_differential, judge_with_reason};
pub use launch::launch;

pub use crate::synth::Expected;
