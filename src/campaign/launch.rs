//! The library's front door to campaigns: [`launch`] takes what a campaign judges (programs
//! synthesized from an API, or a directory written by `thalia synth`), with which compiler and
//! where it keeps its results, and runs it to its [`Summary`], as `thalia run`, `thalia check`
//! and every cell of `thalia batch` do. It says on stderr what it does (the line that starts
//! a session, installs, skipped programs); the caller prints the summary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use thalia_translators::{translator_with, GroovyMode, Language};

use super::autoreduce::{self, AutoReduced, AutoReducer};
use super::budget::Budget;
use super::driver::{self, CampaignError, Outcome};
use super::evidence::CompiledEvidence;
use super::feedback::FeedbackConfig;
use super::flags::FlagPlan;
use super::identity::{RunIdentity, SynthIdentity};
use super::intended::{IntendedError, IntendedSet};
use super::judge::Judge;
use super::known::{KnownError, KnownSet};
use super::recheck::{self, FinalizeOptions, RecheckOptions, RecheckSummary};
use super::records::StoreError;
use super::reduce::ReduceOptions;
use super::setup::{self, CompileSettings, SetupError};
use super::shard::Shard;
use super::source::dir::DirSource;
use super::source::synth::SynthSource;
use super::source::SourceError;
use super::store::Store;
use crate::api::source::{ApiSource, ApiSourceError};
use crate::api::Api;
use crate::synth::{LanguageRules, Mode, SynthConfig};
use crate::toolchain::Toolchain;

/// The run directory of `thalia run` when none is given.
pub const DEFAULT_RUN_DIR: &str = "thalia-run";

/// Programs synthesized on the fly from an API (`thalia run`).
#[derive(Clone, Debug)]
pub struct SynthPrograms {
    /// A directory of thalia API JSON files, or `@NAME` for one embedded corpus; `None`: the
    /// whole embedded API.
    pub api: Option<PathBuf>,
    /// The programs' language.
    pub lang: Language,
    /// The modes, interleaved batch by batch (empty: well-typed and ill-typed).
    pub modes: Vec<Mode>,
    /// Erase inferable type arguments.
    pub erase: bool,
    /// Groovy only: `@TypeChecked` instead of `@CompileStatic`.
    pub groovy_type_checked: bool,
    /// The seed (`None`: the run directory's when resuming, else random).
    pub seed: Option<u64>,
    /// The synthesis knobs (its mode, language and erasure are set from the fields above).
    pub config: SynthConfig,
    /// Synthesis threads (`None`: every core).
    pub threads: Option<usize>,
    /// Reduce new findings while the campaign runs (and for a while after).
    pub reduce: bool,
}

impl SynthPrograms {
    /// Programs of `lang` from `api` (`None`: the whole embedded API) with the default knobs,
    /// both modes, a random seed and reduction on.
    pub fn new(api: Option<PathBuf>, lang: Language) -> SynthPrograms {
        SynthPrograms {
            api,
            lang,
            modes: Vec::new(),
            erase: false,
            groovy_type_checked: false,
            seed: None,
            config: SynthConfig::default(),
            threads: None,
            reduce: true,
        }
    }
}

/// What a campaign judges.
#[derive(Clone, Debug)]
pub enum Programs {
    /// Programs synthesized on the fly (`thalia run`).
    Synth(Box<SynthPrograms>),
    /// The programs of a directory written by `thalia synth` (`thalia check`).
    Dir(PathBuf),
}

/// A campaign, as `thalia run` and `thalia check` take it from their flags.
#[derive(Clone, Debug)]
pub struct LaunchOptions {
    /// What the campaign judges.
    pub programs: Programs,
    /// The compiler, `NAME[@VERSION]` (default: the language's); installed when missing.
    pub compiler: Option<String>,
    /// The run directory (resumed when it holds the same run); default [`DEFAULT_RUN_DIR`]
    /// for a run, `DIR/check-<compiler>-<version>[-shard-I-of-N]` for a check.
    pub out: Option<PathBuf>,
    /// The shard of the campaign this process is.
    pub shard: Option<Shard>,
    /// How programs are compiled, and the budget.
    pub settings: CompileSettings,
    /// Other compilers every program is also compiled with (`NAME@VERSION[:VARIANT]`).
    pub against: Vec<String>,
    /// Compile the Java twins of non-Java findings with javac.
    pub twin: bool,
    /// The other releases and frontends that judge the findings of non-Java programs that
    /// no Java twin judges (`NAME@VERSION[:VARIANT]`); `None`: the compiler's defaults
    /// ([`setup::default_oracle_specs`]), `Some(vec![])`: none (such findings stay
    /// unconfirmed, in `suspects/`).
    pub oracles: Option<Vec<String>>,
    /// Known-findings files added to the embedded ones.
    pub known: Vec<PathBuf>,
    /// Intended-changes files added to the embedded ones.
    pub intended: Vec<PathBuf>,
    /// Options for the JVM of the compiler under test (not part of the run's identity).
    pub jvm_options: Vec<String>,
    /// The command line recorded for this session in the manifest.
    pub command: Vec<String>,
    /// At the end, compile every finding with the newest release of its compiler (and the
    /// newest pre-release) and record whether it is still open ([`super::recheck`]).
    pub recheck: bool,
    /// Run the programs the compiler accepts (and their Java twins) in a sandbox, and judge
    /// their outcomes ([`crate::run`]).
    pub run: bool,
    /// Draw compiler flag sets for the programs ([`super::flags`]); off: the compiler's
    /// defaults only.
    pub compiler_flags: bool,
    /// Feed the findings back into the synthesis ([`super::feedback`]): programs that look
    /// like a large family are drawn less (`thalia run` only).
    pub feedback: bool,
}

impl LaunchOptions {
    /// A campaign over `programs` with `settings`, everything else as the command line's
    /// defaults (twins on, no other compiler, the embedded known findings).
    pub fn new(programs: Programs, settings: CompileSettings) -> LaunchOptions {
        LaunchOptions {
            programs,
            compiler: None,
            out: None,
            shard: None,
            settings,
            against: Vec::new(),
            twin: true,
            oracles: None,
            known: Vec::new(),
            intended: Vec::new(),
            jvm_options: Vec::new(),
            command: Vec::new(),
            recheck: true,
            run: false,
            compiler_flags: true,
            feedback: true,
        }
    }
}

/// What a launched campaign's session did, and where its results are.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The run directory.
    pub dir: PathBuf,
    /// The session's programs, findings and time; `interrupted` after Ctrl-C.
    pub outcome: Outcome,
    /// Findings in the whole run (all sessions).
    pub findings: u64,
    /// Distinct signatures among them.
    pub distinct: usize,
    /// Programs this session could not translate (skipped) or twin, by reason.
    pub untranslatable: BTreeMap<String, u64>,
    /// What reduction during the run did (a run with reduction on, not interrupted).
    pub reduced: Option<AutoReduced>,
    /// What the recheck on the newest releases did (not interrupted, not `--no-recheck`).
    pub recheck: Option<RecheckSummary>,
}

/// A campaign that cannot be set up or run.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// A setting is out of range, or a compiler cannot be had.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The API or its classpath cannot be had.
    #[error(transparent)]
    Api(#[from] ApiSourceError),
    /// A known-findings file cannot be used.
    #[error(transparent)]
    Known(#[from] KnownError),
    /// An intended-changes file cannot be used.
    #[error(transparent)]
    Intended(#[from] IntendedError),
    /// The run directory cannot be used.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The programs cannot be read or made.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// The campaign stopped on an error (what it recorded stays).
    #[error(transparent)]
    Campaign(#[from] CampaignError),
    /// A shard of a synthesizing run without the campaign's seed.
    #[error("shard {0} needs the campaign's --seed (every shard must use the same one)")]
    ShardWithoutSeed(Shard),
}

/// Runs (or resumes) the campaign `opts` describes until its budget, the end of its
/// programs, or Ctrl-C (see [`super::interrupt`]).
pub fn launch(opts: &LaunchOptions) -> Result<Summary, LaunchError> {
    match &opts.programs {
        Programs::Synth(p) => run(opts, p),
        Programs::Dir(dir) => check(opts, dir),
    }
}

/// The lines that say what loading `api` from `source` gave: its summary and the first few
/// errors.
pub fn load_lines(api: &Api, source: &ApiSource) -> Vec<String> {
    const SHOWN: usize = 10;
    let mut lines = vec![format!("{}: {}", source.label(), api.report.summary())];
    let errors: Vec<_> = api.report.errors().collect();
    lines.extend(errors.iter().take(SHOWN).map(|e| format!("  {e}")));
    if errors.len() > SHOWN {
        lines.push(format!(
            "  ... and {} more (see `thalia api check`)",
            errors.len() - SHOWN
        ));
    }
    lines
}

/// The embedded known findings and those of `files`.
fn known(files: &[PathBuf]) -> Result<KnownSet, KnownError> {
    let mut set = KnownSet::embedded()?;
    for f in files {
        set.add_file(f)?;
    }
    Ok(set)
}

/// The embedded intended changes and those of `files`.
fn intended(files: &[PathBuf]) -> Result<IntendedSet, IntendedError> {
    let mut set = IntendedSet::embedded()?;
    for f in files {
        set.add_file(f)?;
    }
    Ok(set)
}

/// The javac that judges the Java twins of `lang` programs' findings, unless disabled.
fn twin_compiler(lang: Language, opts: &LaunchOptions) -> Result<Option<Toolchain>, SetupError> {
    if lang == Language::Java || !opts.twin {
        return Ok(None);
    }
    let s = &opts.settings;
    Ok(Some(setup::toolchain_for("javac", &s.repos, s.progress)?))
}

/// Sets up the differential oracle of a campaign on `lang` programs with `tc`: findings no
/// Java twin judges are settled by it (non-Java programs), with the compilers `opts` names
/// or the defaults, which are said on stderr.
fn differential(
    copts: &mut driver::CampaignOptions,
    lang: Language,
    opts: &LaunchOptions,
    tc: &Toolchain,
    classpath: Option<&str>,
) {
    copts.differential = lang != Language::Java;
    if !copts.differential {
        return;
    }
    copts.oracles = setup::oracles(opts.oracles.as_deref(), tc, &opts.settings, classpath);
    if !copts.oracles.is_empty() {
        eprintln!(
            "differential oracle (findings without a Java twin): {}",
            copts
                .oracles
                .iter()
                .map(driver::Against::label)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// How a session compiles, for the start-up line.
fn compile_mode(settings: &CompileSettings) -> &'static str {
    if settings.server {
        "warm server"
    } else {
        "a process per batch"
    }
}

/// Says that an interrupted session's cut-off lines were dropped.
fn note_recovery(store: &Store) {
    if store.recovered_lines() > 0 {
        eprintln!(
            "{}: dropped {} incomplete line(s) of an interrupted session",
            store.dir().display(),
            store.recovered_lines()
        );
    }
}

/// The summary of a session that ended with `outcome`.
fn summary(outcome: Outcome, store: &Store) -> Summary {
    let (findings, distinct) = store.findings();
    Summary {
        dir: store.dir().to_path_buf(),
        outcome,
        findings,
        distinct,
        untranslatable: BTreeMap::new(),
        reduced: None,
        recheck: None,
    }
}

/// The judge of the run `store` holds: labels on evidence (the known entries' programs
/// compiled with the run's compilers, `tc` and `against`), one per signature (those the store
/// holds kept).
fn judge_for(
    store: &Store,
    known: KnownSet,
    intended: IntendedSet,
    tc: &Toolchain,
    copts: &driver::CampaignOptions,
    repos: &[String],
) -> Judge {
    let evidence = CompiledEvidence::new(store.dir(), repos);
    evidence.add_compiler(
        &store.manifest().compiler.label(),
        tc.clone(),
        copts.compile.clone(),
    );
    for (a, info) in copts.against.iter().zip(&store.manifest().against) {
        let opts = crate::compile::CompileOptions {
            flags: a.variant.map(|v| v.flag_list()).unwrap_or_default(),
            ..copts.compile.clone()
        };
        evidence.add_compiler(&info.label(), a.toolchain.clone(), opts);
    }
    Judge::new(store.manifest(), known.clone(), intended)
        .with_evidence(std::sync::Arc::new(evidence))
        .with_pinned(store.pinned_labels())
}

/// The end of a session that was not interrupted: the recheck on the newest releases (unless
/// turned off) and every finding's report rewritten with its status, environment and
/// duplicates.
fn finish(
    opts: &LaunchOptions,
    dir: &Path,
    known: &KnownSet,
    reduce: bool,
) -> Option<RecheckSummary> {
    let s = &opts.settings;
    let rechecked = opts.recheck.then(|| {
        recheck::recheck(
            dir,
            &RecheckOptions {
                repos: s.repos.clone(),
                progress: s.progress,
                no_pre_release: false,
                known: Some(known.clone()),
            },
        )
    });
    let rechecked = match rechecked {
        Some(Ok(r)) => Some(r),
        Some(Err(e)) => {
            eprintln!("newest releases: not checked ({e})");
            None
        }
        None => None,
    };
    // the findings whose known label the newer releases took back are in `bugs/` now,
    // unreduced (known findings are not reduced): reduced like the others, for a while
    if reduce
        && rechecked.as_ref().is_some_and(|r| !r.relabelled.is_empty())
        && !autoreduce::pending(dir).is_empty()
    {
        let done = AutoReducer::start(
            dir.to_path_buf(),
            ReduceOptions {
                server: s.server,
                ..ReduceOptions::default()
            },
        )
        .finish();
        if done.reduced + done.failed + done.pending > 0 {
            eprintln!("after the newest releases: {}", done.line());
        }
    }
    if let Err(e) = recheck::finalize(
        dir,
        &FinalizeOptions {
            known: Some(known.clone()),
            repos: s.repos.clone(),
        },
    ) {
        eprintln!("the findings' reports could not be rewritten: {e}");
    }
    rechecked
}

/// The toolchain of `spec` with this campaign's JVM options.
fn toolchain(spec: &str, opts: &LaunchOptions) -> Result<Toolchain, SetupError> {
    let s = &opts.settings;
    let mut tc = setup::toolchain_for(spec, &s.repos, s.progress)?;
    tc.jvm_options = opts.jvm_options.clone();
    Ok(tc)
}

/// `thalia check`: the programs of `dir`.
fn check(opts: &LaunchOptions, dir: &Path) -> Result<Summary, LaunchError> {
    let shard = opts.shard;
    let settings = &opts.settings;
    settings.validate()?;
    let mut source = DirSource::open(dir)?;
    let lang = source.language();
    let spec = opts
        .compiler
        .clone()
        .unwrap_or_else(|| setup::default_compiler(lang).to_string());
    let tc = toolchain(&spec, opts)?;
    // the programs' libraries: those of the API they were synthesized from
    let classpath = match &settings.classpath {
        Some(cp) => Some(cp.clone()),
        None => ApiSource::from_label(source.api()).classpath_for(
            Some(tc.tool),
            &settings.repos,
            settings.progress,
        )?,
    };
    let (info, mut copts) = setup::campaign_options(&tc, settings, classpath.clone())?;
    copts.twin = twin_compiler(lang, opts)?;
    let (against, against_info) =
        setup::against(&opts.against, &tc, settings, classpath.as_deref())?;
    copts.against = against;
    differential(&mut copts, lang, opts, &tc, classpath.as_deref());
    if opts.run {
        copts.run = Some(
            crate::run::RunSettings::new(&tc, classpath.as_deref()).map_err(CampaignError::Run)?,
        );
    }
    // the programs of a directory have no seed: their flags are drawn from their keys
    copts.flags = FlagPlan::new(tc.tool, &tc.version, 0, opts.compiler_flags);
    // each shard its own store by default
    let out = opts.out.clone().unwrap_or_else(|| {
        let suffix = shard
            .map(|s| format!("-shard-{}-of-{}", s.index, s.count))
            .unwrap_or_default();
        dir.join(format!("check-{}-{}{suffix}", tc.tool.name(), tc.version))
    });
    let mut identity = setup::check_identity(dir, lang, setup::compiler_label(&tc))?;
    identity.against = copts.against.iter().map(driver::Against::label).collect();
    identity.shard = shard;
    identity.run = opts.run;
    if let Some(sh) = shard {
        let count = match settings.budget {
            Budget::Programs(n) => Some(n),
            _ => None,
        };
        // a count budget is the check's: this shard judges its share of it
        if let Some(share) = source.set_shard(sh, count) {
            copts.budget = Budget::Programs(share);
        }
    }
    let mut manifest = setup::manifest(
        RunIdentity::Check(identity),
        info,
        settings,
        &copts,
        opts.command.clone(),
    );
    manifest.against = against_info;
    let known = known(&opts.known)?;
    let intended = intended(&opts.intended)?;
    let store = Store::open(&out, manifest)?;
    let judge = judge_for(
        &store,
        known.clone(),
        intended,
        &tc,
        &copts,
        &settings.repos,
    );
    note_recovery(&store);
    eprintln!(
        "checking {} programs of {} with {} ({}), results in {}",
        source.len(),
        dir.display(),
        setup::compiler_label(&tc),
        compile_mode(settings),
        out.display()
    );
    let (outcome, store) = driver::run(store, &tc, &mut source, &judge, &copts)?;
    let interrupted = outcome.interrupted;
    let mut done = summary(outcome, &store);
    drop(store);
    if !interrupted {
        done.recheck = finish(opts, &out, &known, false);
        let (findings, distinct) = counts(&out);
        done.findings = findings;
        done.distinct = distinct;
    }
    Ok(done)
}

/// Findings in the run in `dir`, and distinct signatures among them (after the recheck moved
/// any).
fn counts(dir: &Path) -> (u64, usize) {
    match super::report::Report::load(dir) {
        Ok(r) => (
            r.signatures.iter().map(|s| s.count).sum(),
            r.signatures.len(),
        ),
        Err(_) => (0, 0),
    }
}

/// `thalia run`: programs synthesized from an API.
fn run(opts: &LaunchOptions, p: &SynthPrograms) -> Result<Summary, LaunchError> {
    let shard = opts.shard;
    let settings = &opts.settings;
    settings.validate()?;
    let out = opts
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_RUN_DIR));
    let spec = opts
        .compiler
        .clone()
        .unwrap_or_else(|| setup::default_compiler(p.lang).to_string());
    let tc = toolchain(&spec, opts)?;
    let mut modes = if p.modes.is_empty() {
        vec![Mode::WellTyped, Mode::IllTyped]
    } else {
        p.modes.clone()
    };
    modes.dedup();
    let base = &p.config;
    // the seed: given, the run directory's, or random
    let seed = p.seed.or_else(|| setup::recorded_seed(&out));
    // the shards of one campaign share its seed: a random one each would make N campaigns
    if let (Some(sh), None) = (shard, seed) {
        return Err(LaunchError::ShardWithoutSeed(sh));
    }
    let seed = seed.unwrap_or_else(rand::random);
    let api_source = ApiSource::from_arg(p.api.as_deref());
    let classpath = match &settings.classpath {
        Some(cp) => Some(cp.clone()),
        None => api_source.classpath_for(Some(tc.tool), &settings.repos, settings.progress)?,
    };
    let (info, mut copts) = setup::campaign_options(&tc, settings, classpath.clone())?;
    copts.twin = twin_compiler(p.lang, opts)?;
    let (against, against_info) =
        setup::against(&opts.against, &tc, settings, classpath.as_deref())?;
    copts.against = against;
    differential(&mut copts, p.lang, opts, &tc, classpath.as_deref());
    if opts.run {
        copts.run = Some(
            crate::run::RunSettings::new(&tc, classpath.as_deref()).map_err(CampaignError::Run)?,
        );
    }
    copts.flags = FlagPlan::new(tc.tool, &tc.version, seed, opts.compiler_flags);
    let identity = RunIdentity::Run(Box::new(SynthIdentity {
        seed,
        language: p.lang,
        api: api_source.label(),
        modes: modes.clone(),
        erase: p.erase,
        groovy_type_checked: p.groovy_type_checked,
        synth_config: setup::recorded_synth_config(p.lang, base),
        compiler: setup::compiler_label(&tc),
        against: copts.against.iter().map(driver::Against::label).collect(),
        run: opts.run,
        shard,
    }));
    let mut manifest = setup::manifest(identity, info, settings, &copts, opts.command.clone());
    manifest.against = against_info;
    let known = known(&opts.known)?;
    let intended = intended(&opts.intended)?;
    let store = Store::open(&out, manifest)?;
    let judge = judge_for(
        &store,
        known.clone(),
        intended,
        &tc,
        &copts,
        &settings.repos,
    );
    note_recovery(&store);
    let native = LanguageRules::from(p.lang).native_syntax();
    // the language library is the compiler's own release's
    let api = api_source.load_for_release(
        native,
        (tc.tool, &tc.version),
        &settings.repos,
        settings.progress,
    )?;
    for line in load_lines(&api, &api_source) {
        eprintln!("{line}");
    }
    let translator = translator_with(p.lang, GroovyMode::of_flag(p.groovy_type_checked));
    let threads = p
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut source = SynthSource::new(
        api,
        translator,
        &modes,
        &SynthConfig {
            erase: p.erase,
            lang: p.lang,
            ..base.clone()
        },
        seed,
        threads,
        &api_source.arg(),
        !matches!(settings.budget, Budget::OneRound),
    );
    source.write_config(&out)?;
    // a shard does not see the other shards' findings: its programs would not be the
    // unsharded run's, so the shards of a campaign draw without feedback
    if opts.feedback && shard.is_none() {
        let cfg = FeedbackConfig::default();
        source.set_feedback(cfg.clone());
        copts.feedback = Some(cfg);
    }
    source.keep_census(&out, store.done_count() > 0)?;
    source.prepare();
    if let Some(sh) = shard {
        // a count budget is the campaign's: the source stops where the unsharded run would,
        // and this shard does its own programs up to there
        if let Budget::Programs(n) = settings.budget {
            source.set_shard(sh, Some(n), settings.batch_size);
            copts.budget = Budget::OneRound;
        } else {
            source.set_shard(sh, None, settings.batch_size);
        }
    }
    eprintln!(
        "run {}{} (seed {seed}): {} {} programs with {} ({}), budget {}{}",
        out.display(),
        shard.map(|s| format!(", shard {s}")).unwrap_or_default(),
        modes
            .iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
        p.lang,
        setup::compiler_label(&tc),
        compile_mode(settings),
        settings.budget,
        if store.done_count() > 0 {
            format!("; resuming after {} judged programs", store.done_count())
        } else {
            String::new()
        }
    );
    let reducer = p.reduce.then(|| {
        AutoReducer::start(
            out.clone(),
            ReduceOptions {
                server: settings.server,
                ..ReduceOptions::default()
            },
        )
    });
    let (outcome, mut store) = driver::run(store, &tc, &mut source, &judge, &copts)?;
    let interrupted = outcome.interrupted;
    let mut reduced = None;
    if let Some(r) = reducer {
        if interrupted {
            // no waiting after Ctrl-C: what is left is reduced by the next session
            r.abandon();
        } else {
            if !autoreduce::pending(&out).is_empty() {
                eprintln!(
                    "reducing the new findings (at most {} s more; --no-reduce skips this)",
                    autoreduce::REDUCE_AFTER_RUN.as_secs()
                );
            }
            let done = r.finish();
            if done.reduced + done.failed + done.pending > 0 {
                eprintln!("{}", done.line());
            }
            reduced = Some(done);
        }
    }
    let untranslatable = source.untranslatable_reasons();
    if source.feedback_skipped() > 0 && !interrupted {
        eprintln!(
            "{} programs that look like large families were drawn less (skipped; --no-feedback keeps them)",
            source.feedback_skipped()
        );
    }
    store.note_untranslatable(&untranslatable)?;
    if !interrupted {
        for (reason, n) in &untranslatable {
            match reason.strip_prefix("Java twin: ") {
                // the program itself was compiled and judged, without a twin
                Some(why) => {
                    eprintln!("{n} programs have no Java twin ({why}): judged without one")
                }
                None => eprintln!("{n} programs could not be translated ({reason}): skipped"),
            }
        }
    }
    let mut done = Summary {
        untranslatable,
        reduced,
        ..summary(outcome, &store)
    };
    drop(store);
    if !interrupted {
        done.recheck = finish(opts, &out, &known, p.reduce);
        let (findings, distinct) = counts(&out);
        done.findings = findings;
        done.distinct = distinct;
    }
    Ok(done)
}
