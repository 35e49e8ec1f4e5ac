//! Program synthesis (Sections 3.3-3.6): API enumeration, inhabitants, type erasure, and the
//! deterministic, parallel driver that turns an API into client programs.
//!
//! The driver works in two passes so that the output depends only on the seed, never on the
//! number of jobs:
//!
//! 1. every testable member is enumerated (in parallel, each with its own seeded RNG) to learn
//!    how many typing sequences it has, or why it is skipped;
//! 2. the sequences are ordered round-robin over the members (member order shuffled by the
//!    seed), numbered, and the selected ones are built; a worker re-enumerates a member
//!    (deterministically) before building its programs, and program `i` draws from an RNG
//!    seeded by `(seed, i)`.
//!
//! The modules below keep what a compiler accepts apart from what a program holds:
//! [`typing`] answers what the target language's checker accepts (conversions, overload
//! resolution, implicit search, erasure, language rules), [`build`] draws and builds the
//! programs and asks it; [`context`] holds the read-only facts both share, [`config`] and
//! [`swarm`] the knobs, [`census`] and [`output`] what a run reports and writes.

pub mod bench;
pub mod build;
pub mod census;
pub mod config;
pub mod context;
pub mod output;
pub mod swarm;
pub mod typing;

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rayon::prelude::*;
use serde::Serialize;
use thalia_translators::ir::Program;

use crate::api::{Api, MemberId};
use crate::synth::typing::Task;
pub use build::{
    BrokenRecord, Expected, Features, ProgramRecord, RecordKind, RngStream, SequenceRecord, Worker,
};
pub use config::{Mode, SynthConfig};
pub use context::{SkipReason, SynthContext};
pub use swarm::SwarmConfig;
pub use typing::LanguageRules;

/// Which programs of a run to build.
#[derive(Clone, Debug, Default)]
pub enum Selection {
    /// Every typing sequence.
    #[default]
    All,
    /// The first `n` programs.
    First(usize),
    /// Exactly these program indices (to regenerate programs alone).
    Only(Vec<usize>),
    /// Every `n`-th program of the whole round, starting with the first: a sample spread
    /// evenly over the round (late members included).
    Stride(usize),
}

impl Selection {
    /// The programs a user selected: ids (`p000042`, or `42`) when given, else the first
    /// `count`, else all; an id beyond the plan's `len` programs is an error.
    pub fn choose(ids: &[String], count: Option<usize>, len: usize) -> Result<Selection, String> {
        if ids.is_empty() {
            return Ok(count.map_or(Selection::All, Selection::First));
        }
        let mut v = Vec::with_capacity(ids.len());
        for id in ids {
            let n = id
                .trim_start_matches('p')
                .parse::<usize>()
                .map_err(|_| format!("`{id}` is not a program id (like p000042)"))?;
            if n >= len {
                return Err(format!(
                    "program {id} does not exist: this seed and API give {len} programs"
                ));
            }
            v.push(n);
        }
        v.sort_unstable();
        v.dedup();
        Ok(Selection::Only(v))
    }

    /// How many of a plan's `len` programs this selects.
    pub fn count(&self, len: usize) -> usize {
        match self {
            Selection::All => len,
            Selection::First(n) => len.min(*n),
            Selection::Only(v) => v.len(),
            Selection::Stride(n) => len.div_ceil((*n).max(1)),
        }
    }
}

/// Counts reported at the end of a run.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct SynthSummary {
    /// Members in the API (a context API's left out).
    pub members: usize,
    /// Members with at least one typing sequence.
    pub members_exercised: usize,
    /// Members skipped, by reason.
    pub skipped: BTreeMap<String, usize>,
    /// Typing sequences found.
    pub sequences: usize,
    /// Programs built.
    pub programs: usize,
    /// Programs whose call under test has its type arguments erased.
    pub erased: usize,
    /// Programs whose inhabitants needed a typed bottom constant somewhere.
    pub with_bottom: usize,
    /// Which expression forms the programs use.
    #[serde(default)]
    pub census: census::Census,
    /// Members by package (a context API's left out): how many, how many testable,
    /// how many exercised, and why the others were skipped.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub packages: BTreeMap<String, PackageCensus>,
}

/// The members of one package in a [`SynthSummary`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PackageCensus {
    /// Members of the package's classes and files.
    pub members: usize,
    /// Members a client can call: all but those skipped as not public.
    pub testable: usize,
    /// Members with at least one typing sequence.
    pub exercised: usize,
    /// Members skipped, by reason.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub skipped: BTreeMap<String, usize>,
}

impl PackageCensus {
    /// The share (0 to 1) of testable members exercised.
    pub fn share(&self) -> f64 {
        if self.testable == 0 {
            0.0
        } else {
            self.exercised as f64 / self.testable as f64
        }
    }
}

/// The package of a class: a file of top-level members is named after its package, a
/// class's package is its name up to the first segment that starts with an upper-case
/// letter (`kotlin.collections.Map.Entry` → `kotlin.collections`).
pub fn package_of(c: &crate::api::Class) -> String {
    if !c.is_class {
        return c.name.clone();
    }
    let segs: Vec<&str> = c
        .name
        .split('.')
        .take_while(|s| !s.starts_with(|ch: char| ch.is_uppercase()))
        .collect();
    segs.join(".")
}

/// A built program with its manifest record.
#[derive(Clone, Debug)]
pub struct Synthesized {
    /// Index of the program in the run (its id is `p` followed by it, zero-padded).
    pub index: usize,
    /// The program.
    pub program: Program,
    /// Its manifest record.
    pub record: ProgramRecord,
}

/// The id of program `index`.
pub fn program_id(index: usize) -> String {
    format!("p{index:06}")
}

/// The plan of a run: per member, how many sequences it has; and the global order.
#[derive(Clone, Debug)]
pub struct Plan {
    /// `(member, k)` for every program, in id order.
    pub order: Vec<(MemberId, usize)>,
    /// Members skipped, with the reason.
    pub skipped: Vec<(MemberId, SkipReason)>,
    /// Members with at least one sequence.
    pub exercised: usize,
}

/// Chunks per worker thread when a pass is split for parallel work: more than one, so that
/// a thread that finishes early takes over work (a chunk pays for one API copy). Only for
/// fresh workers (`thalia synth`); a campaign's kept states go slot by slot ([`Workers`]).
/// Output never depends on it.
pub const CHUNKS_PER_JOB: usize = 4;

/// Worker states and threads kept between the builds of one plan (a campaign's batches): the
/// API copies and memo tables are made and filled once per round instead of once per batch,
/// and the threads are started once. States are facts of the API and the configuration, so
/// keeping them changes no program; they belong to one API, context and configuration.
///
/// There is one state per thread (a slot), and each member of the API belongs to one slot
/// (`Workers::slot_of`): the slot's state enumerates the member's typing sequences in the
/// plan and keeps them ([`Task`]s name types of its own API copy), so that a batch's build
/// takes them instead of enumerating the member again. Enumeration was half of an ill-typed
/// program's synthesis: a round's batches visit each member once per sequence.
pub struct Workers {
    slots: Vec<std::sync::Mutex<Slot>>,
    pool: rayon::ThreadPool,
    jobs: usize,
}

/// One thread's kept state and the typing sequences it enumerated, by member.
#[derive(Default)]
struct Slot {
    state: Option<build::worker::WorkerState>,
    tasks: rustc_hash::FxHashMap<MemberId, Vec<Task>>,
}

impl Workers {
    /// No states yet, and `jobs` threads.
    pub fn new(jobs: usize) -> Self {
        let jobs = jobs.max(1);
        Workers {
            slots: (0..jobs).map(|_| Default::default()).collect(),
            pool: thread_pool(jobs),
            jobs,
        }
    }

    /// Drops the kept states (their API copies, memo tables and enumerated sequences); the
    /// threads stay.
    pub fn clear(&self) {
        for s in 0..self.jobs {
            *self.slot(s) = Slot::default();
        }
    }

    /// States kept now (at most one per thread).
    pub fn kept(&self) -> usize {
        (0..self.jobs)
            .filter(|&s| self.slot(s).state.is_some())
            .count()
    }

    /// Forgets the kept typing sequences (a new plan enumerates them anew), keeping the states.
    fn forget_tasks(&self) {
        for s in 0..self.jobs {
            self.slot(s).tasks.clear();
        }
    }

    /// Members whose typing sequences are kept now.
    pub fn enumerated(&self) -> usize {
        (0..self.jobs).map(|s| self.slot(s).tasks.len()).sum()
    }

    /// The slot that enumerates and builds member `m`'s programs.
    fn slot_of(&self, m: MemberId) -> usize {
        // a multiplicative hash spreads neighbouring members (a class's) over the slots
        (u64::from(m.0).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % self.jobs
    }

    fn slot(&self, s: usize) -> std::sync::MutexGuard<'_, Slot> {
        self.slots[s].lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` on each slot's items (indices into `items` with the slot given by `slot_of`),
    /// one thread per slot, with the slot's worker (made on first use) and kept sequences;
    /// results come back in input order.
    fn per_slot<T: Sync, R: Send>(
        &self,
        api: &Api,
        ctx: &SynthContext,
        cfg: &SynthConfig,
        items: &[T],
        member: impl Fn(&T) -> MemberId + Sync,
        f: impl Fn(&mut Worker<'_>, &mut rustc_hash::FxHashMap<MemberId, Vec<Task>>, &T) -> R + Sync,
    ) -> Vec<R> {
        let mut mine: Vec<Vec<usize>> = vec![Vec::new(); self.jobs];
        for (i, it) in items.iter().enumerate() {
            mine[self.slot_of(member(it))].push(i);
        }
        let done: Vec<Vec<(usize, R)>> = self.pool.install(|| {
            mine.par_iter()
                .enumerate()
                .map(|(s, idx)| {
                    if idx.is_empty() {
                        return Vec::new();
                    }
                    let mut slot = self.slot(s);
                    let slot = &mut *slot;
                    let mut w = match slot.state.take() {
                        Some(st) => Worker::from_state(st, ctx, cfg),
                        None => Worker::new(api.clone(), ctx, cfg),
                    };
                    let out = idx
                        .iter()
                        .map(|&i| (i, f(&mut w, &mut slot.tasks, &items[i])))
                        .collect();
                    slot.state = Some(w.into_state());
                    out
                })
                .collect()
        });
        let mut all: Vec<(usize, R)> = done.into_iter().flatten().collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    }
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workers")
            .field("jobs", &self.jobs)
            .field("kept", &self.kept())
            .finish()
    }
}

fn thread_pool(jobs: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .expect("a thread pool of the requested size")
}

/// Splits `items` into about `CHUNKS_PER_JOB × jobs` chunks processed in parallel by workers
/// that each own a copy of the API; results come back in input order.
fn par_chunks<T: Sync, R: Send>(
    api: &Api,
    ctx: &SynthContext,
    cfg: &SynthConfig,
    items: &[T],
    jobs: usize,
    f: impl Fn(&mut Worker<'_>, &T) -> R + Sync,
) -> Vec<R> {
    if items.is_empty() {
        return Vec::new();
    }
    let chunk = items.len().div_ceil(jobs.max(1) * CHUNKS_PER_JOB).max(1);
    thread_pool(jobs).install(|| {
        items
            .par_chunks(chunk)
            .map(|part| {
                let mut w = Worker::new(api.clone(), ctx, cfg);
                part.iter().map(|it| f(&mut w, it)).collect::<Vec<R>>()
            })
            .collect::<Vec<Vec<R>>>()
            .into_iter()
            .flatten()
            .collect()
    })
}

/// One synthesis run: the API, its context, the configuration, the seed and the number of
/// worker threads.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    /// The API (each worker clones it).
    pub api: &'a Api,
    /// Facts shared by the workers.
    pub ctx: &'a SynthContext,
    /// The configuration.
    pub cfg: &'a SynthConfig,
    /// The seed of every random choice.
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
}

impl Run<'_> {
    /// Pass 1: enumerates every testable member and orders the sequences round-robin.
    pub fn plan(&self) -> Plan {
        plan(self.api, self.ctx, self.cfg, self.seed, self.jobs, None)
    }

    /// Pass 1 as [`Run::plan`], on the worker states and threads `kept` holds, which keeps
    /// them (their caches filled) for the builds of this plan ([`Run::build_kept`]).
    pub fn plan_kept(&self, kept: &Workers) -> Plan {
        plan(
            self.api,
            self.ctx,
            self.cfg,
            self.seed,
            self.jobs,
            Some(kept),
        )
    }

    /// Pass 2: builds the selected programs of a plan; `on_done` is called once per program.
    pub fn build(
        &self,
        plan: &Plan,
        selection: &Selection,
        on_done: &(dyn Fn() + Sync),
    ) -> Vec<Synthesized> {
        build(self, plan, selection, None, on_done)
    }

    /// Pass 2 as [`Run::build`], on the worker states and threads `kept` holds (made for this
    /// run's API, context and configuration), which keeps them for the next build.
    pub fn build_kept(
        &self,
        plan: &Plan,
        selection: &Selection,
        kept: &Workers,
        on_done: &(dyn Fn() + Sync),
    ) -> Vec<Synthesized> {
        build(self, plan, selection, Some(kept), on_done)
    }
}

fn plan(
    api: &Api,
    ctx: &SynthContext,
    cfg: &SynthConfig,
    seed: u64,
    jobs: usize,
    kept: Option<&Workers>,
) -> Plan {
    let counts = match kept {
        // each slot keeps its members' sequences for the builds
        Some(k) => {
            k.forget_tasks();
            k.per_slot(
                api,
                ctx,
                cfg,
                &ctx.testable,
                |&m| m,
                |w, kept_tasks, &m| {
                    let tasks = w.enumerate_member(m, seed)?;
                    let n = tasks.len();
                    kept_tasks.insert(m, tasks);
                    Ok(n)
                },
            )
        }
        None => par_chunks(api, ctx, cfg, &ctx.testable, jobs, |w, &m| {
            w.enumerate_member(m, seed).map(|t| t.len())
        }),
    };
    let mut skipped = ctx.skipped.clone();
    let mut per_member: Vec<(MemberId, usize)> = Vec::new();
    for (&m, c) in ctx.testable.iter().zip(counts) {
        match c {
            Ok(n) => per_member.push((m, n)),
            Err(r) => skipped.push((m, r)),
        }
    }
    let mut rng = RngStream::PlanOrder.rng(seed, 0);
    per_member.shuffle(&mut rng);
    let mut order = Vec::new();
    let max = per_member.iter().map(|&(_, n)| n).max().unwrap_or(0);
    for k in 0..max {
        for &(m, n) in &per_member {
            if k < n {
                order.push((m, k));
            }
        }
    }
    Plan {
        order,
        skipped,
        exercised: per_member.len(),
    }
}

fn build(
    run: &Run<'_>,
    plan: &Plan,
    selection: &Selection,
    kept: Option<&Workers>,
    on_done: &(dyn Fn() + Sync),
) -> Vec<Synthesized> {
    let Run {
        api,
        ctx,
        cfg,
        seed,
        jobs,
    } = *run;
    let indices: Vec<usize> = match selection {
        Selection::All => (0..plan.order.len()).collect(),
        Selection::First(n) => (0..plan.order.len().min(*n)).collect(),
        Selection::Stride(n) => (0..plan.order.len()).step_by((*n).max(1)).collect(),
        Selection::Only(v) => v
            .iter()
            .copied()
            .filter(|&i| i < plan.order.len())
            .collect(),
    };
    // group by member, keeping the first appearance order
    let mut groups: Vec<(MemberId, Vec<(usize, usize)>)> = Vec::new();
    let mut pos: rustc_hash::FxHashMap<MemberId, usize> = rustc_hash::FxHashMap::default();
    for i in indices {
        let (m, k) = plan.order[i];
        let g = *pos.entry(m).or_insert_with(|| {
            groups.push((m, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push((i, k));
    }
    let build_picks = |w: &mut Worker<'_>, tasks: &[Task], picks: &[(usize, usize)]| {
        picks
            .iter()
            .filter_map(|&(i, k)| {
                let task = tasks.get(k)?;
                let id = program_id(i);
                let (program, record, _) = w.build_program(task, &id, seed, i as u64);
                on_done();
                Some(Synthesized {
                    index: i,
                    program,
                    record,
                })
            })
            .collect::<Vec<_>>()
    };
    let built = match kept {
        // the member's slot enumerated it in the plan (again only for a plan made elsewhere)
        Some(k) => k.per_slot(
            api,
            ctx,
            cfg,
            &groups,
            |(m, _)| *m,
            |w, kept_tasks, (m, picks)| {
                if !kept_tasks.contains_key(m) {
                    let Ok(tasks) = w.enumerate_member(*m, seed) else {
                        return Vec::new();
                    };
                    kept_tasks.insert(*m, tasks);
                }
                let tasks = kept_tasks.get(m).map_or(&[][..], Vec::as_slice);
                build_picks(w, tasks, picks)
            },
        ),
        None => par_chunks(api, ctx, cfg, &groups, jobs, |w, (m, picks)| {
            let Ok(tasks) = w.enumerate_member(*m, seed) else {
                return Vec::new();
            };
            build_picks(w, &tasks, picks)
        }),
    };
    let mut out: Vec<Synthesized> = built.into_iter().flatten().collect();
    out.sort_by_key(|s| s.index);
    out
}

/// The summary of a plan and the programs built from it.
pub fn summarize(api: &Api, plan: &Plan, built: &[Synthesized]) -> SynthSummary {
    let mut skipped = BTreeMap::new();
    for (_, r) in &plan.skipped {
        *skipped.entry(r.label().to_string()).or_insert(0) += 1;
    }
    let with_bottom = built
        .iter()
        .filter(|s| {
            let mut b = false;
            s.program.walk_exprs(&mut |e| {
                if matches!(e, thalia_translators::ir::Expr::Bottom(_)) {
                    b = true;
                }
            });
            b
        })
        .count();
    let mut census = census::Census::default();
    built
        .iter()
        .for_each(|s| census.add_record(&s.program, &s.record));
    let mut packages: BTreeMap<String, PackageCensus> = BTreeMap::new();
    for m in api.member_ids().filter(|&m| !api.owner(m).is_context()) {
        packages
            .entry(package_of(api.owner(m)))
            .or_default()
            .members += 1;
    }
    let mut not_public: BTreeMap<String, usize> = BTreeMap::new();
    for (m, r) in &plan.skipped {
        let p = package_of(api.owner(*m));
        if matches!(r, context::SkipReason::NotPublic) {
            *not_public.entry(p.clone()).or_default() += 1;
        }
        let e = packages.entry(p).or_default();
        *e.skipped.entry(r.label().to_string()).or_insert(0) += 1;
    }
    let mut exercised: Vec<MemberId> = plan.order.iter().map(|&(m, _)| m).collect();
    exercised.sort_unstable();
    exercised.dedup();
    for m in exercised {
        packages
            .entry(package_of(api.owner(m)))
            .or_default()
            .exercised += 1;
    }
    for (p, e) in packages.iter_mut() {
        e.testable = e.members - not_public.get(p).copied().unwrap_or(0).min(e.members);
    }
    SynthSummary {
        census,
        packages,
        members: api
            .member_ids()
            .filter(|&m| !api.owner(m).is_context())
            .count(),
        members_exercised: plan.exercised,
        skipped,
        sequences: plan.order.len(),
        programs: built.len(),
        erased: built.iter().filter(|s| s.record.erased).count(),
        with_bottom,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept plan's slots enumerate each exercised member once and keep its sequences, and
    /// builds from them give the programs a fresh worker builds.
    #[test]
    fn a_kept_plan_enumerates_each_member_once_and_builds_the_same_programs() {
        let arg = std::path::PathBuf::from("@commons-lang3-3.12.0");
        let mut api = crate::api::source::ApiSource::from_arg(Some(&arg))
            .load_for(None)
            .expect("an embedded API");
        let native = LanguageRules::from(thalia_translators::Language::Java).native_syntax();
        let ctx = SynthContext::for_native(&mut api, native);
        let cfg = SynthConfig {
            mode: Mode::IllTyped,
            ..SynthConfig::default()
        };
        let workers = Workers::new(2);
        let run = Run {
            api: &api,
            ctx: &ctx,
            cfg: &cfg,
            seed: 3,
            jobs: 2,
        };
        let plan = run.plan_kept(&workers);
        assert!(plan.exercised > 100, "{} members", plan.exercised);
        assert_eq!(workers.enumerated(), plan.exercised);
        assert_eq!(workers.kept(), 2, "one state per thread");
        let pick = Selection::Stride(plan.order.len() / 60);
        let kept = run.build_kept(&plan, &pick, &workers, &|| {});
        let fresh = Run { jobs: 1, ..run }.build(&plan, &pick, &|| {});
        assert!(kept.len() >= 50, "{} programs", kept.len());
        assert_eq!(kept.len(), fresh.len());
        for (a, b) in kept.iter().zip(&fresh) {
            assert_eq!(a.index, b.index);
            assert_eq!(a.program, b.program, "program {}", a.index);
        }
        // another round's plan forgets the first one's sequences
        let next = Run { seed: 4, ..run }.plan_kept(&workers);
        assert_eq!(workers.enumerated(), next.exercised);
        workers.clear();
        assert_eq!((workers.kept(), workers.enumerated()), (0, 0));
    }
}
