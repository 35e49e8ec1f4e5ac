//! `thalia reduce BUGDIR`: shrinks a finding's program, as C-Reduce and Perses do for C, by a
//! pipeline of passes over the program's IR ([`passes`]), then over its source ([`text`]) and
//! last over its skeleton, the test class around the call ([`skeleton`]: modifiers no
//! language needs, one-letter names for the class and the locals), while the compiler keeps
//! giving the finding its signature (kind and diagnostic family), and writes the reduced
//! program (named after its class, with its Java twin, its own `repro.sh` and a new
//! `report.md`) into `BUGDIR/reduced/`. Findings of `thalia run` and of `thalia check` alike,
//! in every language.
//!
//! A step must keep what the finding is about, not only its signature: an acceptance's
//! signature is the fault's shape, which any well-typed variant would also show. So a step
//! either keeps the static types the call under test sees, or is checked by the finding's own
//! oracle: every compiler that judged the original program the expected way (javac on the
//! Java twin; the run's other compilers, `--against`, for a differential finding) must still
//! judge the step so, an ill-typed program rejected for the same family of error. A finding
//! without such an oracle (a Java program of a run without `--against`) gets the steps that
//! keep the types only; a crash or a timeout, a bug whatever the types, gets every step.
//!
//! Memory is linear in the program's size: the candidate steps are made one at a time, each a
//! copy of the program, and programs of more than [`MAX_REDUCE_NODES`] IR nodes are refused
//! (synthesized programs have tens). A candidate whose source was already judged is not
//! compiled again. The finding's directory is data: its files are read with the limits of
//! [`crate::rundir`], and everything is written through a temporary file and a rename, never
//! through a symbolic link (a linked `reduced/` or `report.md` is an error).

mod hierarchy;
pub mod passes;
pub mod skeleton;
pub mod text;

use super::records::NOT_REPRODUCED_WORDS;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;
use thalia_translators::ir::Program;
use thalia_translators::{translator_with, GroovyMode, JavaTranslator, Language, Translator};

use super::finding::FindingKind;
use super::judge::{judge, judge_with_reason};
use super::setup::RunIdentity;
use super::store::{CompilerInfo, FindingFile, Manifest, StoreError, PROGRAM_IR};
use crate::compile::{CompileOptions, Compiler, Mode, Verdict};
use crate::rundir;
use crate::synth::Expected;
use crate::toolchain::{self, Tool, Toolchain};
use passes::{Allow, Check, Hierarchy};

/// The most compiler runs one reduction makes by default (each candidate step is one; a step
/// checked by the Java twin is two).
pub const DEFAULT_MAX_COMPILES: usize = 300;

/// The largest program reduced, in IR nodes ([`size`]): a step is a copy of the program, and a
/// round may try a few steps per statement.
pub const MAX_REDUCE_NODES: usize = 20_000;

/// How to reduce.
#[derive(Clone, Debug)]
pub struct ReduceOptions {
    /// Stop after this many compiler runs.
    pub max_compiles: usize,
    /// Compile in a warm server instead of a process per candidate.
    pub server: bool,
}

impl Default for ReduceOptions {
    fn default() -> Self {
        ReduceOptions {
            max_compiles: DEFAULT_MAX_COMPILES,
            server: false,
        }
    }
}

/// What a reduction did.
#[derive(Clone, Debug, Serialize)]
pub struct Reduced {
    /// Lines of the program before.
    pub lines_before: usize,
    /// Lines after.
    pub lines_after: usize,
    /// Characters of the program before.
    pub chars_before: usize,
    /// Characters after.
    pub chars_after: usize,
    /// IR nodes before.
    pub size_before: usize,
    /// IR nodes after.
    pub size_after: usize,
    /// Steps kept.
    pub steps: usize,
    /// Steps kept by pass.
    pub passes: BTreeMap<String, usize>,
    /// The oracles that checked the steps that may change types (`javac (Java twin)`, the
    /// label of another compiler of the run).
    pub oracles: Vec<String>,
    /// Compiler runs made.
    pub compiles: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Where the reduced program is.
    pub dir: PathBuf,
    /// The cluster of findings whose reduced programs are the same up to renaming
    /// ([`super::cluster`]).
    pub cluster: String,
}

/// A reduction that could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    /// The directory is not a finding of a run.
    #[error("{0}")]
    NotAFinding(String),
    /// Reading or writing failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The compiler could not be found or run.
    #[error("{0}")]
    Compiler(String),
    /// The finding does not reproduce as it was recorded.
    #[error("the finding does not reproduce: {0}")]
    NotReproduced(String),
    /// The program is larger than [`MAX_REDUCE_NODES`].
    #[error("{0}")]
    TooLarge(String),
}

pub use passes::{measure, size};

/// The programs a reduction round tries from `p`, in the order it tries them (with the
/// steps an oracle must check when `may_check_twin`), each smaller than `p`: for tests and
/// fuzzing.
pub fn candidates(p: &Program, may_check_twin: bool) -> impl Iterator<Item = Program> + '_ {
    static NO_HIERARCHY: std::sync::OnceLock<Hierarchy> = std::sync::OnceLock::new();
    let allow = Allow {
        oracle: may_check_twin,
        ..Allow::default()
    };
    passes::steps(p, allow, NO_HIERARCHY.get_or_init(Hierarchy::new)).map(|s| s.program)
}

/// The finding's compiler (the run's, or an `--against` one) as the manifest records it.
fn compiler_info<'a>(m: &'a Manifest, f: &FindingFile) -> Option<&'a CompilerInfo> {
    std::iter::once(&m.compiler)
        .chain(&m.against)
        .find(|c| c.tool == f.compiler.tool && c.version == f.compiler.version)
}

/// Where programs are compiled: the compilers' scratch directory and the count of runs.
struct Work {
    dir: tempfile::TempDir,
    compiles: usize,
}

impl Work {
    /// Compiles `src` as `file` with `compiler`: its verdict.
    fn compile(
        &mut self,
        compiler: &mut Compiler,
        opts: &CompileOptions,
        file: &str,
        src: &str,
    ) -> Result<Verdict, ReduceError> {
        Ok(self.compile_and_run(compiler, opts, file, src, None)?.0)
    }

    /// Compiles `src` as `file` with `compiler` and, with `run`, runs it when accepted: its
    /// verdict and run outcome.
    fn compile_and_run(
        &mut self,
        compiler: &mut Compiler,
        opts: &CompileOptions,
        file: &str,
        src: &str,
        run: Option<&RunCheck>,
    ) -> Result<(Verdict, Option<crate::run::RunOutcome>), ReduceError> {
        self.compiles += 1;
        let dir = self.dir.path().join(format!("c{}", self.compiles));
        let classes = dir.join("classes");
        std::fs::create_dir_all(&classes)
            .map_err(|e| ReduceError::Compiler(format!("{}: {e}", classes.display())))?;
        rundir::check_name(file)
            .map_err(|p| ReduceError::NotAFinding(format!("the program's file {file:?}: {p}")))?;
        let path = dir.join(file);
        std::fs::write(&path, src)
            .map_err(|e| ReduceError::Compiler(format!("{}: {e}", path.display())))?;
        let result = compiler
            .compile_batch(std::slice::from_ref(&path), &classes, opts)
            .map_err(|e| ReduceError::Compiler(e.to_string()))?;
        let verdict = result
            .verdicts
            .get(file)
            .cloned()
            .ok_or_else(|| ReduceError::Compiler(format!("no verdict for {file}")));
        // an accepted program of a run finding runs, in the sandbox
        let outcome = match (&verdict, run) {
            (Ok(v), Some(run)) if v.is_accepted() => {
                let job = crate::run::Job {
                    id: "program".into(),
                    classes: classes.clone(),
                    class: crate::run::test_class(file, src),
                };
                let ran = run
                    .runner
                    .run_batch(&dir.join("run"), &run.shared, &[job])
                    .map_err(|e| ReduceError::Compiler(e.to_string()))?;
                ran.outcomes.get("program").cloned()
            }
            _ => None,
        };
        let _ = std::fs::remove_dir_all(&dir);
        Ok((verdict?, outcome))
    }
}

/// How a run finding's candidates are run (`--run`): the sandboxed runner, the classpath
/// they share (the language runtime, the API's jars) and what the finding's Java twin ended
/// in when the campaign ran it (kept as it was: reduction does not run the twin again).
struct RunCheck {
    runner: crate::run::Runner,
    shared: Vec<PathBuf>,
    twin: Option<crate::run::RunOutcome>,
}

/// A compiler that judges a program the expected way where the compiler under test does
/// not: the finding's own oracle (the Java twin with javac, or a differential compiler),
/// which must keep its verdict on every step that may change types.
struct Oracle {
    /// `javac (Java twin)` or the other compiler's label.
    label: String,
    compiler: Compiler,
    translator: Box<dyn Translator + Send + Sync>,
    variant: Option<&'static super::variant::Variant>,
    opts: CompileOptions,
    tool: Tool,
    /// The diagnostic family of its rejection of the original program (an ill-typed one).
    family: Option<String>,
}

/// The compiler under test and the settings to judge candidates with.
struct Judge {
    compiler: Compiler,
    tool: Tool,
    translator: Box<dyn Translator + Send + Sync>,
    opts: CompileOptions,
    work: Work,
    expected: Expected,
    kind: FindingKind,
    signature: String,
    record: crate::synth::ProgramRecord,
    /// The variant the compiler ran as (its source rewrite; its flags are in `opts`).
    variant: Option<&'static super::variant::Variant>,
    oracles: Vec<Oracle>,
    /// How the candidates of a run finding (miscompilation, unsoundness) are run.
    run: Option<RunCheck>,
    /// Hashes of the sources already judged not to keep the finding.
    tried: HashSet<u64>,
    /// For a rejection, how many diagnostics the original program got: a step must not add
    /// errors of its own (a raw type a pass left behind beside the finding's error).
    max_errors: Option<usize>,
}

/// The diagnostic family of a rejection (its first diagnostic, abstracted as signatures are).
fn family(tool: Tool, verdict: &Verdict, record: &crate::synth::ProgramRecord) -> Option<String> {
    matches!(verdict, Verdict::Rejected { .. }).then(|| {
        super::signature::signature(tool, FindingKind::UnexpectedRejection, verdict, record).text
    })
}

impl Judge {
    /// Compiles `src` with the compiler under test: its verdict, when it still makes the
    /// finding (same kind, same signature).
    fn keeps_finding_src(&mut self, src: &str, file: &str) -> Result<Option<Verdict>, ReduceError> {
        let key = crate::hash::fnv1a64(src.as_bytes());
        if self.tried.contains(&key) {
            return Ok(None);
        }
        let src = match self.variant {
            Some(v) => v.apply(src),
            None => src.to_string(),
        };
        let (verdict, outcome) = self.work.compile_and_run(
            &mut self.compiler,
            &self.opts,
            file,
            &src,
            self.run.as_ref(),
        )?;
        let mut record = self.record.clone();
        record.call_lines = self.translator.call_lines(&src);
        let format = self.tool.profile().diagnostics;
        let same = match &self.run {
            // a run finding: the program runs to the same finding (kind and signature)
            Some(run) => outcome.is_some_and(|o| {
                crate::run::judge_run(&o, run.twin.as_ref()).is_some_and(|rf| {
                    let kind = match rf.kind {
                        crate::run::RunKind::Miscompilation => FindingKind::Miscompilation,
                        crate::run::RunKind::Unsoundness => FindingKind::Unsoundness,
                    };
                    kind == self.kind
                        && super::judge::run_signature(self.tool, kind, &rf.detail).dir
                            == self.signature
                })
            }),
            None => {
                let kind = judge_with_reason(self.expected, &verdict, format, record.call_lines);
                let no_new_errors = match (&verdict, self.max_errors) {
                    (Verdict::Rejected { diagnostics }, Some(max)) => diagnostics.len() <= max,
                    _ => true,
                };
                kind == Some(self.kind)
                    && no_new_errors
                    && super::signature::signature(self.tool, self.kind, &verdict, &record).dir
                        == self.signature
            }
        };
        if !same {
            self.tried.insert(key);
        }
        Ok(same.then_some(verdict))
    }

    /// Translates `p` and compiles it with the compiler under test: its source and verdict
    /// when it still makes the finding.
    fn keeps_finding(&mut self, p: &Program) -> Result<Option<(String, Verdict)>, ReduceError> {
        let Ok(src) = self.translator.translate(p) else {
            return Ok(None);
        };
        let file = self.translator.file_name(p);
        Ok(self.keeps_finding_src(&src, &file)?.map(|v| (src, v)))
    }

    /// What oracle `i` says of `p`: whether it gives the expected verdict (and, for an
    /// ill-typed program, a rejection of the family it gave the original), and its verdict.
    fn oracle_holds(&mut self, i: usize, p: &Program) -> Result<bool, ReduceError> {
        let o = &self.oracles[i];
        let Ok(src) = o.translator.translate(p) else {
            return Ok(false);
        };
        let file = o.translator.file_name(p);
        self.oracle_holds_src(i, &src, &file)
    }

    /// What oracle `i` says of the program `src` in its language, as `file` (as
    /// [`Self::oracle_holds`]).
    fn oracle_holds_src(&mut self, i: usize, src: &str, file: &str) -> Result<bool, ReduceError> {
        let o = &mut self.oracles[i];
        let src = match o.variant {
            Some(v) => v.apply(src),
            None => src.to_string(),
        };
        let verdict = self.work.compile(&mut o.compiler, &o.opts, file, &src)?;
        if judge(self.expected, &verdict).is_some() {
            return Ok(false);
        }
        Ok(o.family.is_none() || family(o.tool, &verdict, &self.record) == o.family)
    }

    /// Whether every oracle still holds on `p`.
    fn oracles_hold(&mut self, p: &Program) -> Result<bool, ReduceError> {
        for i in 0..self.oracles.len() {
            if !self.oracle_holds(i, p)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Keeps of `candidates` the oracles that judge the original program `p` the expected
    /// way (recording the family of their rejection).
    fn settle_oracles(&mut self, candidates: Vec<Oracle>, p: &Program) -> Result<(), ReduceError> {
        for mut o in candidates {
            let Ok(src) = o.translator.translate(p) else {
                continue;
            };
            let file = o.translator.file_name(p);
            let src = match o.variant {
                Some(v) => v.apply(&src),
                None => src,
            };
            let verdict = self.work.compile(&mut o.compiler, &o.opts, &file, &src)?;
            if judge(self.expected, &verdict).is_none() {
                o.family = match self.expected {
                    Expected::Reject => family(o.tool, &verdict, &self.record),
                    Expected::Accept => None,
                };
                self.oracles.push(o);
            }
        }
        Ok(())
    }
}

/// The program of a finding of `thalia check`: its line of the checked directory's
/// `programs.ir.jsonl` (written by `thalia synth`).
fn checked_program(programs: &Path, id: &str) -> Result<Program, ReduceError> {
    use std::io::BufRead;
    let path = programs.join(PROGRAMS_IR);
    let file = rundir::open_regular(&path).map_err(|e| {
        ReduceError::NotAFinding(format!(
            "{}: {e} (the checked directory has no programs' IR: regenerate it with this release of `thalia synth`, which writes it)",
            path.display()
        ))
    })?;
    let needle = format!("\"id\":{}", serde_json::Value::String(id.to_string()));
    let reader = std::io::BufReader::new(file);
    for line in reader.lines() {
        let line =
            line.map_err(|e| ReduceError::NotAFinding(format!("{}: {e}", path.display())))?;
        if line.len() as u64 > rundir::MAX_PROGRAM_IR_BYTES {
            return Err(ReduceError::TooLarge(format!(
                "{}: a line of more than {} bytes",
                path.display(),
                rundir::MAX_PROGRAM_IR_BYTES
            )));
        }
        if !line.starts_with(&format!("{{{needle},")) {
            continue;
        }
        let entry: crate::synth::output::ProgramIr = serde_json::from_str(&line).map_err(|e| {
            ReduceError::NotAFinding(format!("{}: not a program: {e}", path.display()))
        })?;
        return Ok(entry.program);
    }
    Err(ReduceError::NotAFinding(format!(
        "{}: no program {id}",
        path.display()
    )))
}

pub use crate::synth::output::PROGRAMS_IR;

/// The finding's program: its `program.ir.json` (`thalia run`), or its line of the checked
/// directory's `programs.ir.jsonl` (`thalia check`).
fn finding_program(
    bug: &Path,
    finding: &FindingFile,
    manifest: &Manifest,
) -> Result<Program, ReduceError> {
    let ir_path = bug.join(PROGRAM_IR);
    let program = match (&manifest.identity, ir_path.exists()) {
        (RunIdentity::Check(c), false) => {
            checked_program(Path::new(&c.programs), &finding.program.id)?
        }
        _ => {
            let text = rundir::read_to_string_limited(&ir_path, rundir::MAX_PROGRAM_IR_BYTES)
                .map_err(|e| {
                    ReduceError::NotAFinding(format!(
                        "{}: {e} (findings of `thalia run` keep their program's IR)",
                        ir_path.display()
                    ))
                })?;
            serde_json::from_str(&text).map_err(|e| {
                ReduceError::NotAFinding(format!("{}: not a program: {e}", ir_path.display()))
            })?
        }
    };
    let nodes = size(&program);
    if nodes > MAX_REDUCE_NODES {
        return Err(ReduceError::TooLarge(format!(
            "{}: the program has {nodes} IR nodes; reduction takes programs of at most {MAX_REDUCE_NODES} IR nodes",
            ir_path.display()
        )));
    }
    rundir::check_name(&program.id)
        .map_err(|p| rundir::unsafe_name(&ir_path, "id", &program.id, p))
        .map_err(|e| ReduceError::NotAFinding(e.to_string()))?;
    Ok(program)
}

/// Whether the finding's program was written for `@TypeChecked` Groovy.
fn groovy_mode(manifest: &Manifest, bug: &Path, finding: &FindingFile) -> GroovyMode {
    match &manifest.identity {
        RunIdentity::Run(r) if r.groovy_type_checked => GroovyMode::TypeChecked,
        RunIdentity::Run(_) => GroovyMode::CompileStatic,
        RunIdentity::Check(_) => {
            let src = rundir::join_name(
                bug,
                &finding.program.file,
                &bug.join("finding.json"),
                "file",
            )
            .ok()
            .and_then(|p| rundir::read_to_string_limited(&p, rundir::MAX_SOURCE_BYTES).ok())
            .unwrap_or_default();
            if src.contains("@groovy.transform.TypeChecked") {
                GroovyMode::TypeChecked
            } else {
                GroovyMode::CompileStatic
            }
        }
    }
}

/// Reduces the finding in `bug`.
pub fn reduce(bug: &Path, opts: &ReduceOptions) -> Result<Reduced, ReduceError> {
    let start = Instant::now();
    let finding = FindingFile::read(bug)?;
    check_targets(bug)?;
    let (run, manifest) = super::store::finding_run(bug).map_err(ReduceError::NotAFinding)?;
    let mut program = finding_program(bug, &finding, &manifest)?;
    let info = compiler_info(&manifest, &finding).ok_or_else(|| {
        ReduceError::NotAFinding(format!(
            "{}: the run has no compiler {}@{}",
            run.display(),
            finding.compiler.tool.name(),
            finding.compiler.version
        ))
    })?;
    let spec = format!("{}@{}", info.tool.name(), info.version);
    let tc: Toolchain = toolchain::find(&spec).map_err(|e| ReduceError::Compiler(e.to_string()))?;
    let lang = info.tool.profile().language;
    let groovy = groovy_mode(&manifest, bug, &finding);
    let mode = if opts.server {
        Mode::Server
    } else {
        Mode::Process
    };
    // with the program's flags, as the campaign compiled it
    let drawn = finding.program.record.flags.clone();
    let compile_opts = |c: &CompilerInfo| CompileOptions {
        classpath: c.classpath.clone(),
        timeout: std::time::Duration::from_secs_f64(c.timeout_seconds),
        flags: super::flags::compile_flags(c, &drawn),
    };
    let mut judge_ = Judge {
        compiler: Compiler::new(&tc, mode),
        tool: info.tool,
        translator: translator_with(lang, groovy),
        opts: compile_opts(info),
        variant: info.variant(),
        work: Work {
            dir: tempfile::tempdir()
                .map_err(|e| ReduceError::Compiler(format!("a temporary directory: {e}")))?,
            compiles: 0,
        },
        expected: finding.expected,
        kind: finding.kind,
        signature: finding
            .signature
            .rsplit('/')
            .next()
            .unwrap_or(&finding.signature)
            .to_string(),
        record: finding.program.record.clone(),
        oracles: Vec::new(),
        run: match (&finding.run, finding.kind) {
            (Some(r), FindingKind::Miscompilation | FindingKind::Unsoundness) => {
                let settings = crate::run::RunSettings::new(&tc, info.classpath.as_deref())
                    .map_err(|e| ReduceError::Compiler(e.to_string()))?;
                Some(RunCheck {
                    runner: settings.runner,
                    shared: settings.shared,
                    twin: r.twin.clone(),
                })
            }
            _ => None,
        },
        tried: HashSet::new(),
        max_errors: None,
    };
    let Some((mut source, mut verdict)) = judge_.keeps_finding(&program)? else {
        return Err(ReduceError::NotReproduced(format!(
            "{spec} {NOT_REPRODUCED_WORDS} {}",
            finding.signature
        )));
    };
    if let Verdict::Rejected { diagnostics } = &verdict {
        judge_.max_errors = Some(diagnostics.len());
    }
    let (lines_before, chars_before, size_before) = (
        source.lines().count(),
        source.chars().count(),
        size(&program),
    );
    // the finding's own oracles: the Java twin, and the other compilers of the run, each
    // kept when it judges the original program the expected way
    let types_matter = super::finding::twin_applies(finding.kind)
        || finding.kind == FindingKind::RejectedElsewhere;
    let mut oracles = Vec::new();
    if types_matter {
        if lang != Language::Java && JavaTranslator.translate(&program).is_ok() {
            let j = toolchain::find("javac")
                .or_else(|_| toolchain::install(Tool::Javac, None, &[], false))
                .map_err(|e| ReduceError::Compiler(e.to_string()))?;
            oracles.push(Oracle {
                label: "javac (Java twin)".into(),
                compiler: Compiler::new(&j, mode),
                translator: Box::new(JavaTranslator),
                variant: None,
                opts: CompileOptions {
                    flags: Vec::new(),
                    ..compile_opts(info)
                },
                tool: Tool::Javac,
                family: None,
            });
        }
        for other in std::iter::once(&manifest.compiler).chain(&manifest.against) {
            let same = other.tool == info.tool
                && other.version == info.version
                && other.variant == info.variant;
            if same || other.tool.profile().language != lang {
                continue;
            }
            let Ok(tc) = toolchain::find(&format!("{}@{}", other.tool.name(), other.version))
            else {
                continue;
            };
            oracles.push(Oracle {
                label: other.label(),
                compiler: Compiler::new(&tc, mode),
                translator: translator_with(lang, groovy),
                variant: other.variant(),
                opts: compile_opts(other),
                tool: other.tool,
                family: None,
            });
        }
        // with neither, another release of the same compiler that judges the program the
        // expected way is a differential oracle: the one the recheck found fixing it, else
        // the newest one installed
        if oracles.is_empty() {
            for release in other_releases(&finding, info) {
                let other = CompilerInfo {
                    version: release.version.clone(),
                    ..info.clone()
                };
                let label = match fixing_release(&finding) {
                    Some(v) if v == release.version => {
                        format!("{} (fixed since {})", other.label(), fixed_in(&finding))
                    }
                    _ => other.label(),
                };
                oracles.push(Oracle {
                    label,
                    compiler: Compiler::new(&release, mode),
                    translator: translator_with(lang, groovy),
                    variant: other.variant(),
                    opts: compile_opts(&other),
                    tool: other.tool,
                    family: None,
                });
            }
        }
    }
    judge_.settle_oracles(oracles, &program)?;
    let allow = Allow {
        // a crash or a timeout is a bug whatever the types: no oracle needed
        oracle: !types_matter || !judge_.oracles.is_empty(),
        keep_result: finding
            .program
            .record
            .broken
            .as_ref()
            .is_some_and(|b| b.position == "result"),
        drop_call: finding.expected == Expected::Accept || !types_matter,
        ill_typed: types_matter && finding.expected == Expected::Reject,
        no_untyped_null: finding.compiler.tool == Tool::Kotlin,
        diamonds_need_a_target: finding.compiler.tool == Tool::Kotlin,
    };
    let hierarchy = if allow.oracle {
        hierarchy::of(
            &passes::library_classes(&program),
            info.classpath.as_deref(),
        )
    } else {
        Hierarchy::new()
    };
    let mut kept = 0;
    let mut passes_kept: BTreeMap<&'static str, usize> = BTreeMap::new();
    while judge_.work.compiles < opts.max_compiles {
        let mut next = None;
        for step in passes::steps(&program, allow, &hierarchy) {
            if judge_.work.compiles >= opts.max_compiles {
                break;
            }
            let Some((src, v)) = judge_.keeps_finding(&step.program)? else {
                continue;
            };
            // an ill-typed program's every step is checked when an oracle can: the fault
            // must stay where the oracle sees it
            let checked = step.check == Check::Oracle || allow.ill_typed;
            if checked && types_matter && !judge_.oracles_hold(&step.program)? {
                judge_.tried.insert(crate::hash::fnv1a64(src.as_bytes()));
                continue;
            }
            next = Some((step.program, src, v, step.pass));
            break;
        }
        let Some((p, src, v, pass)) = next else {
            break;
        };
        program = p;
        source = src;
        verdict = v;
        kept += 1;
        *passes_kept.entry(pass).or_default() += 1;
    }
    // the source-level passes: short names with imports, then the compact layout
    let mut file = judge_.translator.file_name(&program);
    for pass in ["short-names", "compact"] {
        let variants = match pass {
            "short-names" => text::shorten(&source, lang),
            _ => vec![text::compact(&source)],
        };
        for candidate in variants.into_iter().filter(|c| *c != source) {
            if judge_.work.compiles >= opts.max_compiles {
                break;
            }
            if let Some(v) = judge_.keeps_finding_src(&candidate, &file)? {
                source = candidate;
                verdict = v;
                kept += 1;
                *passes_kept.entry(pass).or_default() += 1;
                break;
            }
        }
    }
    let mut twin = reduced_twin(&mut judge_, &program, lang)?;
    // the skeleton: modifiers no language needs, then short names for the class and the
    // locals, on the program and its twin alike
    let runs = judge_.run.is_some();
    for rewrite in [
        Rewrite::Modifiers,
        Rewrite::Bindings,
        Rewrite::Class,
        Rewrite::Locals,
    ] {
        let plans = match rewrite {
            Rewrite::Locals => local_plans(&program, &source, twin.as_ref()),
            // one binding at a time
            Rewrite::Bindings => skeleton::locals(&program, &source)
                .into_iter()
                .map(|n| vec![(n, String::new())])
                .collect(),
            _ => vec![Vec::new()],
        };
        for (i, plan) in plans.iter().enumerate() {
            if judge_.work.compiles >= opts.max_compiles {
                break;
            }
            let Some(step) =
                skeleton_step(rewrite, plan, lang, runs, (&source, &file), twin.as_ref())
            else {
                continue;
            };
            if let Some(v) = keeps_skeleton(&mut judge_, &step, lang, types_matter)? {
                (source, file, twin, verdict) = (step.source, step.file, step.twin, v);
                kept += 1;
                *passes_kept.entry(step.pass).or_default() += 1;
                // the locals all at once: the rest are its parts
                if i == 0 && rewrite == Rewrite::Locals {
                    break;
                }
            }
        }
    }
    write_reduced(
        bug, &finding, &judge_, &program, &file, &source, twin, &verdict, info,
    )?;
    let cluster = super::cluster::cluster_id(info.tool, &program);
    record_cluster(bug, &finding, &cluster)?;
    let out = Reduced {
        lines_before,
        lines_after: source.lines().count(),
        chars_before,
        chars_after: source.chars().count(),
        size_before,
        size_after: size(&program),
        steps: kept,
        passes: passes_kept
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        oracles: judge_.oracles.iter().map(|o| o.label.clone()).collect(),
        compiles: judge_.work.compiles,
        seconds: start.elapsed().as_secs_f64(),
        dir: bug.join(REDUCED),
        cluster,
    };
    let summary =
        serde_json::to_string_pretty(&out).map_err(|e| ReduceError::Compiler(e.to_string()))?;
    let path = bug.join(REDUCED).join("reduction.json");
    rundir::write_atomic(&path, (summary + "\n").as_bytes())
        .map_err(|source| StoreError::Io { path, source })?;
    Ok(out)
}

/// The installed releases of the finding's compiler to try as its differential oracle, at
/// most two: the release the recheck found fixing it, and the newest installed release
/// other than the finding's own (pre-releases last).
fn other_releases(finding: &FindingFile, info: &CompilerInfo) -> Vec<Toolchain> {
    use thalia_extractors::maven::version::compare_versions;
    let mut installed: Vec<Toolchain> = toolchain::list()
        .into_iter()
        .filter(|t| t.tool == info.tool && t.version != info.version)
        .collect();
    let rules = &info.tool.profile().versions;
    // stable releases first, each kind newest first
    installed.sort_by(|a, b| {
        rules
            .is_stable(&b.version)
            .cmp(&rules.is_stable(&a.version))
            .then_with(|| compare_versions(&b.version, &a.version))
    });
    let mut out = Vec::new();
    if let Some(v) = fixing_release(finding) {
        if let Some(i) = installed.iter().position(|t| t.version == v) {
            out.push(installed.remove(i));
        }
    }
    out.extend(installed.into_iter().take(2 - out.len()));
    out
}

/// The newest stable release the recheck found no longer showing the finding (state
/// `fixed`), whose verdict can check the reduction's steps like another compiler of the run.
fn fixing_release(finding: &FindingFile) -> Option<&str> {
    let status = finding.status.as_ref()?;
    if status.state != super::records::StatusState::Fixed {
        return None;
    }
    status
        .checks
        .iter()
        .rev()
        .find(|c| !c.pre_release && c.shows == Some(false) && c.verdict.is_some())
        .map(|c| c.version.as_str())
}

/// The release that fixed the finding, for an oracle's label.
fn fixed_in(finding: &FindingFile) -> &str {
    finding
        .status
        .as_ref()
        .and_then(|s| s.fixed_in.as_deref())
        .unwrap_or("?")
}

/// A rewrite of the reduced program's skeleton ([`skeleton`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rewrite {
    /// The modifiers the language does not need go.
    Modifiers,
    /// A value nothing reads loses its binding to a local of the top type.
    Bindings,
    /// The test class gets a short name (and its file with it).
    Class,
    /// Locals get short names.
    Locals,
}

/// A skeleton step: the program and its twin rewritten alike.
struct SkeletonStep {
    pass: &'static str,
    source: String,
    file: String,
    twin: Option<super::candidate::Twin>,
}

/// The renamings of the locals of the reduced program and its twin to try: all at once,
/// then one at a time (empty when none would be shorter).
fn local_plans(
    program: &Program,
    source: &str,
    twin: Option<&super::candidate::Twin>,
) -> Vec<Vec<(String, String)>> {
    let twin_src = twin.map_or("", |t| t.source.as_str());
    let mut names = skeleton::locals(program, source);
    for n in skeleton::locals(program, twin_src) {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let mut taken = skeleton::identifiers(&[source, twin_src]);
    let mut all = Vec::new();
    for n in names {
        let short = skeleton::fresh(&skeleton::LOCAL_NAMES, &taken);
        if short.len() < n.len() {
            taken.insert(short.clone());
            all.push((n, short));
        }
    }
    let mut plans = Vec::new();
    if all.len() > 1 {
        plans.extend(all.iter().map(|e| vec![e.clone()]));
    }
    if !all.is_empty() {
        plans.insert(0, all);
    }
    plans
}

/// The skeleton step `rewrite` (with the renaming `plan` of the locals) makes of the reduced
/// program `(source, file)` and its twin, when it changes either.
fn skeleton_step(
    rewrite: Rewrite,
    plan: &[(String, String)],
    lang: Language,
    runs: bool,
    (source, file): (&str, &str),
    twin: Option<&super::candidate::Twin>,
) -> Option<SkeletonStep> {
    use super::candidate::Twin;
    let ext = file.rsplit_once('.').map_or(lang.extension(), |(_, e)| e);
    let step = match rewrite {
        Rewrite::Modifiers => SkeletonStep {
            pass: "drop-modifiers",
            source: skeleton::drop_modifiers(source, lang, runs)
                .unwrap_or_else(|| source.to_string()),
            file: file.to_string(),
            twin: twin.map(|t| Twin {
                file: t.file.clone(),
                source: skeleton::drop_modifiers(&t.source, Language::Java, runs)
                    .unwrap_or_else(|| t.source.clone()),
            }),
        },
        Rewrite::Class => {
            let from = skeleton::class_name(source)?;
            let twin_src = twin.map_or("", |t| t.source.as_str());
            let to = skeleton::fresh(
                &skeleton::CLASS_NAMES,
                &skeleton::identifiers(&[source, twin_src]),
            );
            if to.len() >= from.len() {
                return None;
            }
            SkeletonStep {
                pass: "short-class-name",
                source: skeleton::rename(source, &[(from, to.clone())]),
                file: format!("{to}.{ext}"),
                twin: twin.map(|t| match skeleton::class_name(&t.source) {
                    Some(c) => Twin {
                        file: format!("{to}.java"),
                        source: skeleton::rename(&t.source, &[(c, to.clone())]),
                    },
                    None => t.clone(),
                }),
            }
        }
        Rewrite::Bindings => SkeletonStep {
            pass: "drop-binding",
            source: skeleton::unbind(source, lang, &plan.first()?.0)?,
            file: file.to_string(),
            twin: twin.cloned(),
        },
        Rewrite::Locals => SkeletonStep {
            pass: "short-locals",
            source: skeleton::rename(source, plan),
            file: file.to_string(),
            twin: twin.map(|t| Twin {
                file: t.file.clone(),
                source: skeleton::rename(&t.source, plan),
            }),
        },
    };
    let same_twin = match (twin, &step.twin) {
        (Some(a), Some(b)) => a.source == b.source,
        _ => true,
    };
    (step.source != source || !same_twin).then_some(step)
}

/// Whether the skeleton step keeps the finding: its verdict when the compiler under test
/// still gives it the signature and every oracle still holds (javac on the rewritten twin,
/// the other compilers on the rewritten program).
fn keeps_skeleton(
    judge_: &mut Judge,
    step: &SkeletonStep,
    lang: Language,
    types_matter: bool,
) -> Result<Option<Verdict>, ReduceError> {
    let Some(v) = judge_.keeps_finding_src(&step.source, &step.file)? else {
        return Ok(None);
    };
    if types_matter {
        for i in 0..judge_.oracles.len() {
            let on_twin = judge_.oracles[i].translator.language() != lang;
            let holds = match (&step.twin, on_twin) {
                (_, false) => judge_.oracle_holds_src(i, &step.source, &step.file)?,
                (Some(t), true) => judge_.oracle_holds_src(i, &t.source, &t.file)?,
                (None, true) => false,
            };
            if !holds {
                return Ok(None);
            }
        }
    }
    Ok(Some(v))
}

/// The reduced program's Java twin (for a program in another language), with short names
/// when javac judges it as it judges the long one.
fn reduced_twin(
    judge_: &mut Judge,
    program: &Program,
    lang: Language,
) -> Result<Option<super::candidate::Twin>, ReduceError> {
    if lang == Language::Java {
        return Ok(None);
    }
    let Ok(java) = JavaTranslator.translate(program) else {
        return Ok(None);
    };
    let file = JavaTranslator.file_name(program);
    let Some(i) = judge_.oracles.iter().position(|o| o.tool == Tool::Javac) else {
        return Ok(Some(super::candidate::Twin { file, source: java }));
    };
    let o = &mut judge_.oracles[i];
    let before = judge_
        .work
        .compile(&mut o.compiler, &o.opts, &file, &java)?;
    let mut best = java.clone();
    for short in text::shorten(&java, Language::Java)
        .into_iter()
        .chain(std::iter::once(java.clone()))
    {
        let short = text::compact(&short);
        let after = judge_
            .work
            .compile(&mut o.compiler, &o.opts, &file, &short)?;
        if before.label() == after.label() {
            best = short;
            break;
        }
    }
    Ok(Some(super::candidate::Twin { file, source: best }))
}

/// Refuses, before any work, what reduction could not write: a symbolic link (or a file) as
/// `reduced/`, a link as `finding.json`, `report.md` or one of `reduced/`'s files.
fn check_targets(bug: &Path) -> Result<(), StoreError> {
    let reduced = bug.join(REDUCED);
    let check =
        |path: PathBuf, r: std::io::Result<()>| r.map_err(|source| StoreError::Io { path, source });
    if std::fs::symlink_metadata(&reduced).is_ok() {
        check(reduced.clone(), rundir::ensure_dir(&reduced))?;
    }
    for path in [
        bug.join("finding.json"),
        bug.join("report.md"),
        reduced.join("report.md"),
        reduced.join(PROGRAM_IR),
        reduced.join("reduction.json"),
        reduced.join("repro.sh"),
    ] {
        let r = rundir::refuse_link(&path);
        check(path, r)?;
    }
    Ok(())
}

/// Records the finding's cluster in its `finding.json` (rewritten through a temporary file)
/// and at the end of its `report.md` and the reduced one's.
fn record_cluster(bug: &Path, finding: &FindingFile, cluster: &str) -> Result<(), ReduceError> {
    let io = |path: PathBuf| move |source| StoreError::Io { path, source };
    let mut f = finding.clone();
    f.cluster = Some(cluster.to_string());
    let text =
        serde_json::to_string_pretty(&f).map_err(|e| ReduceError::Compiler(e.to_string()))?;
    let dest = bug.join("finding.json");
    rundir::write_atomic(&dest, (text + "\n").as_bytes()).map_err(io(dest))?;
    let note = format!(
        "\n## Cluster\n\n{cluster}: the findings whose reduced programs are this one up to the names of locals are one cause (`thalia report` lists them together).\n"
    );
    for path in [bug.join("report.md"), bug.join(REDUCED).join("report.md")] {
        let Some(text) =
            rundir::read_optional(&path, rundir::MAX_REPORT_BYTES).map_err(io(path.clone()))?
        else {
            continue;
        };
        // a finding reduced again gets one cluster note, the latest
        let kept = text.split("\n## Cluster\n").next().unwrap_or(&text);
        rundir::write_atomic(&path, format!("{kept}{note}").as_bytes())
            .map_err(io(path.clone()))?;
    }
    Ok(())
}

pub use super::records::REDUCED;

/// Writes the reduced program (as `file`), its Java twin and IR, its `report.md` and its
/// `repro.sh`.
#[allow(clippy::too_many_arguments)]
fn write_reduced(
    bug: &Path,
    finding: &FindingFile,
    judge_: &Judge,
    program: &Program,
    file: &str,
    source: &str,
    twin: Option<super::candidate::Twin>,
    verdict: &Verdict,
    info: &CompilerInfo,
) -> Result<(), ReduceError> {
    let dir = bug.join(REDUCED);
    rundir::ensure_dir(&dir).map_err(|source| StoreError::Io {
        path: dir.clone(),
        source,
    })?;
    // the program as the compiler (its variant) compiled it, as the finding keeps its own
    let source = match judge_.variant {
        Some(v) => v.apply(source),
        None => source.to_string(),
    };
    let source = source.as_str();
    remove_stale_programs(&dir, file, twin.as_ref().map(|t| t.file.as_str()), info)?;
    let write = |name: &str, text: &str| {
        let p = rundir::join_name(&dir, name, &bug.join(PROGRAM_IR), "id")
            .map_err(|e| ReduceError::NotAFinding(e.to_string()))?;
        rundir::write_atomic(&p, text.as_bytes())
            .map_err(|source| ReduceError::from(StoreError::Io { path: p, source }))
    };
    let file = file.to_string();
    write(&file, source)?;
    if let Some(t) = &twin {
        write(&t.file, &t.source)?;
    }
    let ir =
        serde_json::to_string_pretty(program).map_err(|e| ReduceError::Compiler(e.to_string()))?;
    write(PROGRAM_IR, &(ir + "\n"))?;
    let output = match verdict {
        Verdict::Rejected { diagnostics } => diagnostics.join("\n"),
        Verdict::Crash { output, .. } => output.clone(),
        other => other.label().to_string(),
    };
    let cand = super::candidate::Candidate {
        key: finding.program.key.clone(),
        id: finding.program.id.clone(),
        mode: finding.program.mode.clone(),
        round: finding.program.round,
        file,
        source: source.to_string(),
        expected: finding.expected,
        record: finding.program.record.clone(),
        regenerate: finding.program.regenerate.clone(),
        twin,
        program: None,
    };
    // the run's context (environment, dependencies) where the finding is in a run directory
    let run = bug
        .parent()
        .and_then(Path::parent)
        .and_then(|run| super::bugreport::RunContext::load(run).ok());
    let original_lines = rundir::check_relative(&finding.program.file, 1)
        .ok()
        .and_then(|_| {
            rundir::read_to_string_limited(&bug.join(&finding.program.file), rundir::MAX_JSON_BYTES)
                .ok()
        })
        .map_or(0, |s| s.lines().count());
    let report = super::bugreport::report_md(
        run.as_ref(),
        Some(original_lines),
        info,
        finding.kind,
        &finding.signature_text,
        &cand,
        &output,
        None,
        &[],
    );
    write("report.md", &report)?;
    // the reduced program's own reproduction, with the program's flags
    let deps = super::store::ProgramClasspath::of(
        info,
        run.as_ref().map_or(&[][..], |r| &r.dependencies),
        &cand.source,
    );
    let repro = super::store::repro_script(
        &super::flags::with_flags(info, &cand.record.flags),
        finding.kind,
        &cand,
        verdict,
        &finding.signature_text,
        &deps,
    );
    write("repro.sh", &repro)?;
    let path = dir.join("repro.sh");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(|source| StoreError::Io { path, source })?;
    }
    Ok(())
}

/// Removes from `reduced/` the programs and twins of an earlier reduction written under
/// other names than `file` and `twin` (the reports find the reduced program by its
/// extension).
fn remove_stale_programs(
    dir: &Path,
    file: &str,
    twin: Option<&str>,
    info: &CompilerInfo,
) -> Result<(), ReduceError> {
    let exts = [info.tool.profile().extension, "java"];
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let stale = e.file_type().is_ok_and(|t| !t.is_dir())
            && name != file
            && Some(name.as_str()) != twin
            && !name.starts_with('.')
            && name
                .rsplit_once('.')
                .is_some_and(|(_, ext)| exts.contains(&ext));
        if stale {
            let path = e.path();
            // a file or a link is removed itself, never what a link names
            std::fs::remove_file(&path).map_err(|source| StoreError::Io { path, source })?;
        }
    }
    Ok(())
}
