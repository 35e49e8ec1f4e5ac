//! `thalia reduce BUGDIR`: shrinks a finding's program at the IR level while the compiler
//! keeps giving the finding its signature, and writes the reduced program (with its Java twin
//! and a new `report.md`) into `BUGDIR/reduced/`.
//!
//! A step must keep what the finding is about, not only its signature: an acceptance's
//! signature is the fault's shape, which any well-typed variant would also show. So every step
//! either keeps the static types the call under test sees (a local's initializer becomes a
//! typed bottom constant of the local's declared type, an unused local goes, a cast of a local
//! to its own declared type goes) or, for a program in another language than Java, is checked
//! by javac on the step's Java twin, which must keep the expected verdict (a local used once is
//! inlined, explicit type arguments are dropped).
//!
//! Memory is linear in the program's size: the candidate steps are made one at a time, each a
//! copy of the program, and programs of more than [`MAX_REDUCE_NODES`] IR nodes are refused
//! (synthesized programs have tens). The finding's directory is data: its files are read with
//! the limits of [`crate::rundir`], and everything is written through a temporary file and a
//! rename, never through a symbolic link (a linked `reduced/` or `report.md` is an error).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;
use thalia_translators::ir::{Expr, Program, Receiver, RefKind, RefOn, Stmt, Ty};
use thalia_translators::{translator_with, GroovyMode, JavaTranslator, Language, Translator};

use super::finding::FindingKind;
use super::judge::{judge, judge_with_reason};
use super::setup::RunIdentity;
use super::store::{CompilerInfo, FindingFile, Manifest, StoreError, PROGRAM_IR};
use crate::compile::{CompileOptions, Compiler, Mode, Verdict};
use crate::rundir;
use crate::synth::Expected;
use crate::toolchain::{self, Toolchain};

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
    /// IR nodes before.
    pub size_before: usize,
    /// IR nodes after.
    pub size_after: usize,
    /// Steps kept.
    pub steps: usize,
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

/// The number of IR nodes of a program (its size for the reduction).
pub fn size(p: &Program) -> usize {
    let mut n = p.stmts.len();
    p.walk_exprs(&mut |_| n += 1);
    n
}

/// The finding's compiler (the run's, or an `--against` one) as the manifest records it.
fn compiler_info<'a>(m: &'a Manifest, f: &FindingFile) -> Option<&'a CompilerInfo> {
    std::iter::once(&m.compiler)
        .chain(&m.against)
        .find(|c| c.tool == f.compiler.tool && c.version == f.compiler.version)
}

/// A compiler and the settings to judge candidates with.
struct Judge {
    compiler: Compiler,
    tool: crate::toolchain::Tool,
    translator: Box<dyn Translator + Send + Sync>,
    javac: Option<Compiler>,
    opts: CompileOptions,
    work: tempfile::TempDir,
    compiles: usize,
    expected: Expected,
    kind: FindingKind,
    signature: String,
    record: crate::synth::ProgramRecord,
    /// The variant the compiler ran as (its source rewrite; its flags are in `opts`).
    variant: Option<&'static super::variant::Variant>,
}

impl Judge {
    /// Compiles `p` with the compiler under test: its verdict and whether it still makes the
    /// finding (same kind, same signature).
    fn keeps_finding(&mut self, p: &Program) -> Result<Option<(String, Verdict)>, ReduceError> {
        let Ok(src) = self.translator.translate(p) else {
            return Ok(None);
        };
        let src = match self.variant {
            Some(v) => v.apply(&src),
            None => src,
        };
        let file = self.translator.file_name(p);
        let verdict = self.compile(false, &file, &src)?;
        let mut record = self.record.clone();
        record.call_lines = self.translator.call_lines(&src);
        let format = self.tool.profile().diagnostics;
        let kind = judge_with_reason(self.expected, &verdict, format, record.call_lines);
        let same = kind == Some(self.kind)
            && super::signature::signature(self.tool, self.kind, &verdict, &record).dir
                == self.signature;
        Ok(same.then_some((src, verdict)))
    }

    /// Whether javac still gives `p`'s Java twin the expected verdict.
    fn twin_keeps_expectation(&mut self, p: &Program) -> Result<bool, ReduceError> {
        if self.javac.is_none() {
            return Ok(false);
        }
        let Ok(src) = JavaTranslator.translate(p) else {
            return Ok(false);
        };
        let file = JavaTranslator.file_name(p);
        let verdict = self.compile(true, &file, &src)?;
        Ok(judge(self.expected, &verdict).is_none())
    }

    fn compile(&mut self, twin: bool, file: &str, src: &str) -> Result<Verdict, ReduceError> {
        self.compiles += 1;
        let dir = self.work.path().join(format!("c{}", self.compiles));
        let classes = dir.join("classes");
        std::fs::create_dir_all(&classes)
            .map_err(|e| ReduceError::Compiler(format!("{}: {e}", classes.display())))?;
        rundir::check_name(file)
            .map_err(|p| ReduceError::NotAFinding(format!("the program's file {file:?}: {p}")))?;
        let path = dir.join(file);
        std::fs::write(&path, src)
            .map_err(|e| ReduceError::Compiler(format!("{}: {e}", path.display())))?;
        let compiler = match (twin, &mut self.javac) {
            (true, Some(j)) => j,
            _ => &mut self.compiler,
        };
        let result = compiler
            .compile_batch(std::slice::from_ref(&path), &classes, &self.opts)
            .map_err(|e| ReduceError::Compiler(e.to_string()))?;
        let _ = std::fs::remove_dir_all(&dir);
        result
            .verdicts
            .get(file)
            .cloned()
            .ok_or_else(|| ReduceError::Compiler(format!("no verdict for {file}")))
    }
}

/// One reduction step: a smaller program, and whether javac must check it on the Java twin.
struct Step {
    program: Program,
    needs_twin: bool,
}

/// Whether `name` is read anywhere in `stmts`.
fn uses(stmts: &[Stmt], name: &str) -> usize {
    let mut n = 0;
    for s in stmts {
        s.expr_ref().walk(&mut |e| {
            if matches!(e, Expr::Local(l) if l == name) {
                n += 1;
            }
        });
    }
    n
}

/// For each statement that declares a local, how often the statements after it read its
/// name (`uses(&stmts[i + 1..], name)`, for all `i` in one pass); 0 for the others.
fn later_uses(stmts: &[Stmt]) -> Vec<usize> {
    let mut reads: HashMap<&str, usize> = HashMap::new();
    let mut out = vec![0; stmts.len()];
    for (i, s) in stmts.iter().enumerate().rev() {
        if let Stmt::Local { name, .. } = s {
            out[i] = reads.get(name.as_str()).copied().unwrap_or(0);
        }
        s.expr_ref().walk(&mut |e| {
            if let Expr::Local(l) = e {
                *reads.entry(l.as_str()).or_default() += 1;
            }
        });
    }
    out
}

/// `e` with every `Local(name)` replaced by `with`.
fn substitute(e: &Expr, name: &str, with: &Expr) -> Expr {
    map_children(e, &mut |c| substitute(c, name, with), name, with)
}

/// Rebuilds `e` with `f` applied to its direct children (and `Local(name)` itself replaced by
/// `with`).
fn map_children(e: &Expr, f: &mut dyn FnMut(&Expr) -> Expr, name: &str, with: &Expr) -> Expr {
    if matches!(e, Expr::Local(l) if l == name) {
        return with.clone();
    }
    let mut out = e.clone();
    let mut apply = |x: &mut Expr| *x = f(x);
    match &mut out {
        Expr::New { args, outer, .. } => {
            if let Some(o) = outer {
                apply(o);
            }
            args.iter_mut().for_each(&mut apply);
        }
        Expr::Call { receiver, args, .. } => {
            if let Receiver::Expr(x) = receiver {
                apply(x);
            }
            args.iter_mut().for_each(&mut apply);
        }
        Expr::Field {
            receiver: Receiver::Expr(x),
            ..
        } => apply(x),
        Expr::Ref {
            kind:
                RefKind::Bound { receiver, .. }
                | RefKind::PackageFunction {
                    on: RefOn::Value(receiver),
                    ..
                },
            ..
        } => apply(receiver),
        Expr::Lambda {
            params,
            body,
            block,
            ..
        } => {
            // a parameter or block local of the same name hides the local
            let hidden = params.iter().any(|(p, _)| p == name)
                || block
                    .iter()
                    .any(|s| matches!(s, Stmt::Local { name: l, .. } if l == name));
            if !hidden {
                for s in block.iter_mut() {
                    match s {
                        Stmt::Local { init, .. } => apply(init),
                        Stmt::Expr(x) => apply(x),
                    }
                }
                apply(body);
            }
        }
        Expr::NewArray { elems, .. } => elems.iter_mut().for_each(&mut apply),
        Expr::Spread(x) | Expr::Cast { expr: x, .. } => apply(x),
        Expr::Cond { cond, then, els } => {
            apply(cond);
            apply(then);
            apply(els);
        }
        _ => {}
    }
    out
}

/// `e` with casts of locals to their own declared type removed (`((T) a0)` where `a0: T`).
fn drop_own_casts(e: &Expr, declared: &[(String, Ty)]) -> Expr {
    match e {
        Expr::Cast { ty, expr, .. } => match expr.as_ref() {
            Expr::Local(l) if declared.iter().any(|(n, t)| n == l && t == ty) => {
                Expr::Local(l.clone())
            }
            _ => map_children(e, &mut |c| drop_own_casts(c, declared), "", e),
        },
        _ => map_children(e, &mut |c| drop_own_casts(c, declared), "", e),
    }
}

/// `e` with the receivers of calls that are constructor calls with explicit type arguments
/// (the call chains of synthesis: `new C<A>(..).m()`) or casts of other expressions
/// (`((T) r.b()).m()`) made typed bottom constants of their type.
fn bottom_receivers(e: &Expr) -> Expr {
    let e = match e {
        Expr::Call {
            receiver: Receiver::Expr(r),
            name,
            type_args,
            args,
            declared_in,
            form,
            lists,
        } => {
            let bottom = match r.as_ref() {
                Expr::New {
                    class,
                    type_args: Some(targs),
                    outer: None,
                    ..
                } => Some(Ty::class(class.clone(), targs.clone())),
                Expr::Cast { ty, expr, .. }
                    if !matches!(expr.as_ref(), Expr::Local(_) | Expr::Bottom(_)) =>
                {
                    Some(ty.clone())
                }
                _ => None,
            };
            match bottom {
                Some(t) => Expr::Call {
                    receiver: Receiver::Expr(Box::new(Expr::Bottom(t))),
                    name: name.clone(),
                    type_args: type_args.clone(),
                    args: args.clone(),
                    declared_in: declared_in.clone(),
                    form: form.clone(),
                    lists: lists.clone(),
                },
                None => e.clone(),
            }
        }
        other => other.clone(),
    };
    map_children(&e, &mut bottom_receivers, "", &e)
}

/// `e` with every call's and constructor's explicit type arguments dropped.
fn drop_type_args(e: &Expr) -> Expr {
    let e = match e {
        Expr::Call {
            receiver,
            name,
            args,
            declared_in,
            form,
            lists,
            ..
        } => Expr::Call {
            receiver: receiver.clone(),
            name: name.clone(),
            type_args: Vec::new(),
            args: args.clone(),
            declared_in: declared_in.clone(),
            form: form.clone(),
            lists: lists.clone(),
        },
        other => other.clone(),
    };
    map_children(&e, &mut drop_type_args, "", &e)
}

/// `stmts` with `f` applied to each statement's expression (a local's initializer).
fn map_stmts(stmts: &[Stmt], f: impl Fn(&Expr) -> Expr) -> Vec<Stmt> {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::Local {
                name,
                ty,
                init,
                inferred,
            } => Stmt::Local {
                name: name.clone(),
                ty: ty.clone(),
                init: f(init),
                inferred: *inferred,
            },
            Stmt::Expr(x) => Stmt::Expr(f(x)),
        })
        .collect()
}

/// The candidate steps from `p`, most promising first, made one at a time as they are taken
/// (each is a copy of the program: all of them at once took memory quadratic in its size).
fn steps(p: &Program, may_check_twin: bool, keep_result: bool) -> impl Iterator<Item = Step> + '_ {
    let n = p.stmts.len();
    let last = n.saturating_sub(1);
    let later = later_uses(&p.stmts);
    let limit = measure(p);
    let mut shell = Program::new(p.id.clone(), Vec::new());
    shell.inner_classes = p.inner_classes.clone();
    shell.type_params = p.type_params.clone();
    shell.imports = p.imports.clone();
    shell.opt_ins = p.opt_ins.clone();
    let with = move |stmts: Vec<Stmt>| {
        let mut q = shell.clone();
        q.stmts = stmts;
        q
    };
    let local = |i: usize| match &p.stmts[i] {
        Stmt::Local { name, ty, init, .. } => Some((name, ty, init)),
        Stmt::Expr(_) => None,
    };
    let later_ = later.clone();
    let with_ = with.clone();
    // a local nobody reads goes (never the call under test, the last statement)
    let unused = (0..last).filter_map(move |i| {
        local(i).filter(|_| later_[i] == 0)?;
        let mut stmts = p.stmts.clone();
        stmts.remove(i);
        Some(Step {
            program: with_(stmts),
            needs_twin: false,
        })
    });
    // a local read once is inlined: a typed bottom constant keeps the type its use sees;
    // any other initializer may not (javac checks the twin)
    let with_ = with.clone();
    let inlined = (0..last).filter_map(move |i| {
        let (name, _, init) = local(i)?;
        let bottom = matches!(init, Expr::Bottom(_));
        if !((bottom || may_check_twin) && later[i] == 1) {
            return None;
        }
        let mut stmts = p.stmts[..i].to_vec();
        stmts.extend(map_stmts(&p.stmts[i + 1..], |e| substitute(e, name, init)));
        Some(Step {
            program: with_(stmts),
            needs_twin: !bottom,
        })
    });
    // an initializer becomes a typed bottom constant of the local's declared type
    let with_ = with.clone();
    let bottomed_inits = (0..last).filter_map(move |i| {
        let (_, ty, init) = local(i)?;
        if matches!(init, Expr::Bottom(_)) {
            return None;
        }
        let mut stmts = p.stmts.clone();
        if let Stmt::Local { init, .. } = &mut stmts[i] {
            *init = Expr::Bottom(ty.clone());
        }
        Some(Step {
            program: with_(stmts),
            needs_twin: false,
        })
    });
    // the result local of the call under test (the last statement) goes, the call stays as
    // a statement: what the result is assigned to is part of the finding only when the
    // finding then changes; an ill-typed program broken at its result keeps it (without it
    // the program would be well-typed, and an acceptance would still look like the finding)
    let with_ = with.clone();
    let result = std::iter::once_with(move || {
        let Some(Stmt::Local { name, init, .. }) = p.stmts.last().filter(|_| !keep_result) else {
            return None;
        };
        if uses(&p.stmts, name) != 0 {
            return None;
        }
        let mut stmts = p.stmts.clone();
        if let Some(last) = stmts.last_mut() {
            *last = Stmt::Expr(init.clone());
        }
        Some(Step {
            program: with_(stmts),
            needs_twin: false,
        })
    });
    // a call's receiver that is a constructor call (a call chain) or a cast expression
    // becomes a typed bottom constant of its type
    let with_ = with.clone();
    let receivers = std::iter::once_with(move || {
        let bottomed = map_stmts(&p.stmts, bottom_receivers);
        (bottomed != p.stmts).then(|| Step {
            program: with_(bottomed),
            needs_twin: false,
        })
    });
    // casts of locals to their own declared type go
    let with_ = with.clone();
    let casts = std::iter::once_with(move || {
        let declared: Vec<(String, Ty)> = p
            .stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::Local { name, ty, .. } => Some((name.clone(), ty.clone())),
                Stmt::Expr(_) => None,
            })
            .collect();
        let uncast = map_stmts(&p.stmts, |e| drop_own_casts(e, &declared));
        (uncast != p.stmts).then(|| Step {
            program: with_(uncast),
            needs_twin: false,
        })
    });
    // explicit type arguments go (inference must find them: javac checks the twin)
    let type_args = std::iter::once_with(move || {
        if !may_check_twin {
            return None;
        }
        let erased = map_stmts(&p.stmts, drop_type_args);
        (erased != p.stmts).then(|| Step {
            program: with(erased),
            needs_twin: true,
        })
    });
    unused
        .chain(inlined)
        .chain(bottomed_inits)
        .chain(result.flatten())
        .chain(receivers.flatten())
        .chain(casts.flatten())
        .chain(type_args.flatten())
        .filter(move |s| measure(&s.program) < limit)
}

/// The programs a reduction round tries from `p`, in the order it tries them (with the Java
/// twin's checks when `may_check_twin`), each smaller than `p`: for tests and fuzzing.
pub fn candidates(p: &Program, may_check_twin: bool) -> impl Iterator<Item = Program> + '_ {
    steps(p, may_check_twin, false).map(|s| s.program)
}

/// What a reduction step must decrease: statements, then IR nodes, then initializers that
/// are not yet typed bottom constants (which inlining then removes).
fn measure(p: &Program) -> (usize, usize, usize) {
    let not_bottom = p
        .stmts
        .iter()
        .filter(|s| matches!(s, Stmt::Local { init, .. } if !matches!(init, Expr::Bottom(_))))
        .count();
    (p.stmts.len(), size(p), not_bottom)
}

/// Reduces the finding in `bug`.
pub fn reduce(bug: &Path, opts: &ReduceOptions) -> Result<Reduced, ReduceError> {
    let start = Instant::now();
    let finding = FindingFile::read(bug)?;
    check_targets(bug)?;
    let ir_path = bug.join(PROGRAM_IR);
    let text =
        rundir::read_to_string_limited(&ir_path, rundir::MAX_PROGRAM_IR_BYTES).map_err(|e| {
            ReduceError::NotAFinding(format!(
                "{}: {e} (only findings of `thalia run` keep their program's IR)",
                ir_path.display()
            ))
        })?;
    let mut program: Program = serde_json::from_str(&text).map_err(|e| {
        ReduceError::NotAFinding(format!("{}: not a program: {e}", ir_path.display()))
    })?;
    drop(text);
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
    let (run, manifest) = super::store::finding_run(bug).map_err(ReduceError::NotAFinding)?;
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
    let groovy = match &manifest.identity {
        RunIdentity::Run(r) if r.groovy_type_checked => GroovyMode::TypeChecked,
        _ => GroovyMode::CompileStatic,
    };
    let mode = if opts.server {
        Mode::Server
    } else {
        Mode::Process
    };
    let javac = if lang == Language::Java {
        None
    } else {
        let j = toolchain::find("javac")
            .or_else(|_| toolchain::install(crate::toolchain::Tool::Javac, None, &[], false))
            .map_err(|e| ReduceError::Compiler(e.to_string()))?;
        Some(Compiler::new(&j, mode))
    };
    let mut judge_ = Judge {
        compiler: Compiler::new(&tc, mode),
        tool: info.tool,
        translator: translator_with(lang, groovy),
        javac,
        opts: CompileOptions {
            classpath: info.classpath.clone(),
            timeout: std::time::Duration::from_secs_f64(info.timeout_seconds),
            flags: info.variant().map(|v| v.flag_list()).unwrap_or_default(),
        },
        variant: info.variant(),
        work: tempfile::tempdir()
            .map_err(|e| ReduceError::Compiler(format!("a temporary directory: {e}")))?,
        compiles: 0,
        expected: finding.expected,
        kind: finding.kind,
        signature: finding
            .signature
            .rsplit('/')
            .next()
            .unwrap_or(&finding.signature)
            .to_string(),
        record: finding.program.record.clone(),
    };
    let Some((mut source, mut verdict)) = judge_.keeps_finding(&program)? else {
        return Err(ReduceError::NotReproduced(format!(
            "{spec} does not give the program the signature {}",
            finding.signature
        )));
    };
    let (lines_before, size_before) = (source.lines().count(), size(&program));
    let mut kept = 0;
    let keep_result = finding
        .program
        .record
        .broken
        .as_ref()
        .is_some_and(|b| b.position == "result");
    while judge_.compiles < opts.max_compiles {
        let mut next = None;
        for step in steps(&program, judge_.javac.is_some(), keep_result) {
            if judge_.compiles >= opts.max_compiles {
                break;
            }
            if step.needs_twin && !judge_.twin_keeps_expectation(&step.program)? {
                continue;
            }
            if let Some((src, v)) = judge_.keeps_finding(&step.program)? {
                next = Some((step.program, src, v));
                break;
            }
        }
        let Some((p, src, v)) = next else {
            break;
        };
        program = p;
        source = src;
        verdict = v;
        kept += 1;
    }
    write_reduced(bug, &finding, &judge_, &program, &source, &verdict, info)?;
    let cluster = super::cluster::cluster_id(info.tool, &program);
    record_cluster(bug, &finding, &cluster)?;
    let out = Reduced {
        lines_before,
        lines_after: source.lines().count(),
        size_before,
        size_after: size(&program),
        steps: kept,
        compiles: judge_.compiles,
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

/// Writes the reduced program, its Java twin and IR, and its `report.md`.
fn write_reduced(
    bug: &Path,
    finding: &FindingFile,
    judge_: &Judge,
    program: &Program,
    source: &str,
    verdict: &Verdict,
    info: &CompilerInfo,
) -> Result<(), ReduceError> {
    let dir = bug.join(REDUCED);
    rundir::ensure_dir(&dir).map_err(|source| StoreError::Io {
        path: dir.clone(),
        source,
    })?;
    let write = |name: &str, text: &str| {
        let p = rundir::join_name(&dir, name, &bug.join(PROGRAM_IR), "id")
            .map_err(|e| ReduceError::NotAFinding(e.to_string()))?;
        rundir::write_atomic(&p, text.as_bytes())
            .map_err(|source| ReduceError::from(StoreError::Io { path: p, source }))
    };
    let file = judge_.translator.file_name(program);
    write(&file, source)?;
    let twin = match (judge_.javac.is_some(), JavaTranslator.translate(program)) {
        (true, Ok(java)) => {
            let name = JavaTranslator.file_name(program);
            write(&name, &java)?;
            Some(super::candidate::Twin {
                file: name,
                source: java,
            })
        }
        _ => None,
    };
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
    let report = super::bugreport::report_md(
        info,
        finding.kind,
        &finding.signature_text,
        &cand,
        &output,
        None,
        &[],
    );
    write("report.md", &report)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use thalia_translators::ir::Lit;

    /// `a0 = null; a1 = a0; a2 = null; ...; m(a1, aN)`: a chain of reads and unused locals.
    fn chain(n: usize) -> Program {
        let string = Ty::class("java.lang.String", Vec::new());
        let mut stmts: Vec<Stmt> = (0..n)
            .map(|i| {
                let init = if i % 3 == 1 {
                    Expr::local(format!("a{}", i - 1))
                } else {
                    Expr::Lit(Lit::Null)
                };
                Stmt::local(format!("a{i}"), string.clone(), init)
            })
            .collect();
        stmts.push(Stmt::expr(Expr::static_call(
            "java.util.Objects",
            "equals",
            Vec::new(),
            vec![Expr::local("a1"), Expr::local(format!("a{}", n - 1))],
        )));
        Program::new("p1", stmts)
    }

    #[test]
    fn later_uses_counts_what_each_local_is_read_after_it() {
        let p = chain(12);
        let later = later_uses(&p.stmts);
        for (i, s) in p.stmts.iter().enumerate() {
            let expected = match s {
                Stmt::Local { name, .. } => uses(&p.stmts[i + 1..], name),
                Stmt::Expr(_) => 0,
            };
            assert_eq!(later[i], expected, "statement {i}");
        }
        assert_eq!(later[0], 1, "a1 = a0");
        assert_eq!(later[1], 1, "m(a1, ..)");
        assert_eq!(later[2], 0);
    }

    #[test]
    fn candidates_are_smaller_and_the_first_drops_the_first_unused_local() {
        let p = chain(12);
        let all: Vec<Program> = candidates(&p, true).collect();
        assert!(!all.is_empty());
        for q in &all {
            assert!(measure(q) < measure(&p));
        }
        // the first is the first unused local gone (a2)
        assert_eq!(all[0].stmts.len(), p.stmts.len() - 1);
        assert!(!all[0]
            .stmts
            .iter()
            .any(|s| matches!(s, Stmt::Local { name, .. } if name == "a2")));
    }
}
