//! `thalia synth`: write programs and their manifest.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use clap::Args;
use indicatif::ProgressBar;
use thalia::synth::config::MAX_TYPE_DEPTH;
use thalia::synth::{self, Selection, SynthConfig, SynthContext};
use thalia_translators::{translator_with, GroovyMode, Language};

use super::{load_api_for, parse_threads, threads};

/// Parses a type depth between 0 and [`MAX_TYPE_DEPTH`].
fn parse_type_depth(s: &str) -> std::result::Result<usize, String> {
    let n: usize = s.parse().map_err(|_| format!("`{s}` is not a depth"))?;
    if n > MAX_TYPE_DEPTH {
        return Err(format!("must be at most {MAX_TYPE_DEPTH}"));
    }
    Ok(n)
}

/// The synthesis knobs every synthesizing command takes: a config file, and flags for the
/// most used knobs that override it.
#[derive(Args, Debug, Clone, Default)]
pub(super) struct KnobArgs {
    /// Synthesis config file (TOML or JSON; or a `summary.json`, whose config is taken):
    /// every probability and limit of `SynthConfig`, including the swarm of expression
    /// forms (docs/synthesis.md). The flags below override it.
    #[arg(long, value_name = "FILE")]
    synth_config: Option<PathBuf>,
    /// Maximum nesting depth of the types drawn for type variables (default 2).
    #[arg(long, value_parser = parse_type_depth)]
    max_type_depth: Option<usize>,
    /// Maximum typing sequences per member (default 6).
    #[arg(long)]
    max_per_member: Option<usize>,
    /// Incompatible types tried per position in ill-typed mode (default 5).
    #[arg(long)]
    ill_types_per_position: Option<usize>,
    /// k of Yen's k-shortest paths for inhabitants (default 3).
    #[arg(long)]
    yen_k: Option<usize>,
}

impl KnobArgs {
    /// The config file (or the defaults) with the flags applied.
    pub(super) fn config(&self) -> Result<SynthConfig> {
        let mut cfg = match &self.synth_config {
            Some(p) => SynthConfig::from_file(p)?,
            None => SynthConfig::default(),
        };
        if let Some(d) = self.max_type_depth {
            cfg.max_type_depth = d;
        }
        if let Some(n) = self.max_per_member {
            cfg.max_sequences_per_member = n.max(1);
        }
        if let Some(n) = self.ill_types_per_position {
            cfg.ill_types_per_position = n;
        }
        if let Some(k) = self.yen_k {
            cfg.yen_k = k.max(1);
        }
        Ok(cfg)
    }
}

#[derive(Args, Debug)]
pub(super) struct SynthArgs {
    /// Directory of thalia API JSON files, or `@NAME` for one embedded corpus; default: the
    /// whole API embedded from `api-json/`.
    #[arg(long)]
    api: Option<PathBuf>,
    /// Target language of the programs.
    #[arg(long, default_value = "java")]
    lang: Language,
    /// The compiler release the programs are for (`NAME@VERSION`, e.g. `kotlin@1.8.21`): its
    /// own standard library (fetched once per release) is the API's language library, as in
    /// `thalia run --compiler` (default: the embedded one, the newest release's).
    #[arg(long = "for", value_name = "NAME@VERSION")]
    for_release: Option<String>,
    /// `well-typed` (the compiler must accept) or `ill-typed` (it must reject).
    #[arg(long, default_value = "well-typed")]
    mode: synth::Mode,
    /// Drop explicit type arguments of polymorphic calls where inference recovers them
    /// exactly (Section 3.5 of the paper).
    #[arg(long)]
    erase: bool,
    /// Groovy only: annotate the classes `@TypeChecked` instead of `@CompileStatic`.
    #[arg(long)]
    groovy_type_checked: bool,
    /// Number of programs (default: one per typing sequence of every member).
    #[arg(short = 'n', long)]
    count: Option<usize>,
    /// Seed of every random choice; the same seed gives the same programs whatever
    /// `--jobs` is (default: drawn at random and printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Regenerate only these program ids (e.g. `p000042`; repeatable) from the seed.
    #[arg(long, value_name = "ID")]
    only: Vec<String>,
    /// Write every N-th program of the whole round (a sample spread evenly over it, late
    /// members included; ids stay those of the round).
    #[arg(long, value_name = "N", conflicts_with_all = ["only", "count"], value_parser = clap::value_parser!(u64).range(1..))]
    stride: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(short, long, value_parser = parse_threads)]
    jobs: Option<usize>,
    /// Output directory (created if missing).
    #[arg(long, short, default_value = "thalia-out")]
    out: PathBuf,
    #[command(flatten)]
    knobs: KnobArgs,
}

pub(super) fn run(args: SynthArgs) -> Result<ExitCode> {
    let (source, mut api) = match &args.for_release {
        None => load_api_for(args.api.as_ref(), Some(args.lang))?,
        Some(spec) => {
            let (tool, version) = thalia::toolchain::parse_spec(spec)?;
            let Some(version) = version else {
                anyhow::bail!("--for {spec}: give the release (`NAME@VERSION`)");
            };
            let source = thalia::api::source::ApiSource::from_arg(args.api.as_deref());
            let native = synth::LanguageRules::from(args.lang).native_syntax();
            let api = source.load_for_release(native, (tool, &version), &[], super::progress())?;
            super::report_load(&api, &source);
            (source, api)
        }
    };
    let cfg = SynthConfig {
        mode: args.mode,
        lang: args.lang,
        erase: args.erase,
        ..args.knobs.config()?
    };
    let seed = args.seed.unwrap_or_else(rand::random);
    let start = std::time::Instant::now();
    let native = synth::LanguageRules::from(args.lang).native_syntax();
    let ctx = SynthContext::for_native(&mut api, native);
    let spinner = ProgressBar::new_spinner().with_message("enumerating typing sequences");
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let run = synth::Run {
        api: &api,
        ctx: &ctx,
        cfg: &cfg,
        seed,
        jobs: threads(args.jobs),
    };
    let plan = run.plan();
    spinner.finish_and_clear();
    let selection = match args.stride {
        Some(n) => Selection::Stride(usize::try_from(n).unwrap_or(usize::MAX)),
        None => {
            Selection::choose(&args.only, args.count, plan.order.len()).map_err(|e| anyhow!(e))?
        }
    };
    let bar = ProgressBar::new(selection.count(plan.order.len()) as u64);
    bar.set_style(thalia::progress::style(
        "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} programs ({rate}, eta {eta})",
    ));
    let mut built = run.build(&plan, &selection, &|| bar.inc(1));
    bar.finish_and_clear();
    let summary = synth::summarize(&api, &plan, &built);
    let tr = translator_with(args.lang, GroovyMode::of_flag(args.groovy_type_checked));
    let written = synth::output::write_run_with(
        &args.out,
        tr.as_ref(),
        &mut built,
        seed,
        &source.label(),
        &cfg,
        &summary,
    )?;
    eprintln!(
        "wrote {} {} programs ({}, seed {seed}) to {} in {:.2}s; manifest: {}",
        written.files,
        args.lang,
        cfg.mode.as_str(),
        args.out.display(),
        start.elapsed().as_secs_f64(),
        written.manifest.display()
    );
    eprintln!(
        "{} of {} members exercised through {} typing sequences; {} calls with erased type arguments; {} programs use a bottom constant",
        summary.members_exercised, summary.members, summary.sequences, summary.erased, summary.with_bottom
    );
    let census = &summary.census;
    let mut used: Vec<String> = synth::census::FORMS
        .iter()
        .filter(|(name, _)| census.forms.contains_key(*name))
        .map(|(name, _)| format!("{name} {:.0}%", 100.0 * census.share(name)))
        .collect();
    if used.is_empty() {
        used.push("none".into());
    }
    eprintln!("forms: {} ({})", used.join(", "), census.densities());
    if !summary.skipped.is_empty() {
        let why: Vec<String> = summary
            .skipped
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        eprintln!("members skipped: {}", why.join(", "));
    }
    for (id, e) in &written.untranslatable {
        eprintln!("warning: program {id} not written: {e}");
    }
    Ok(ExitCode::SUCCESS)
}
