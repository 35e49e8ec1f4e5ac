//! `thalia bisect BUGDIR`: the releases of a finding's compiler that show it. The compiler's
//! published versions come from the Maven resolver (`maven-metadata.xml`, as `toolchain
//! install` reads it); releases are installed as needed, the finding's program is compiled with
//! each exactly as the campaign compiled it (its classpath, its time budget) and judged with the
//! finding's signature. A binary search finds the first release that shows the finding and the
//! first after the finding's own release that no longer does, assuming the behaviour changes
//! once between tested bounds; every verdict seen is recorded in `BUGDIR/bisect.json`, and the
//! range is added to the finding's `report.md`.
//!
//! The finding's directory is data: `program.file` must be a plain file name (it is read
//! from the directory and written into a temporary one), and `bisect.json` and `report.md`
//! are written through a temporary file and a rename, never through a symbolic link.

use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use thalia_extractors::maven::{compare_versions, RepoConfig, Resolver, ResolverOptions};

use super::finding::FindingKind;
use super::judge::judge_with_reason;
use super::signature::signature;
use super::store::{CompilerInfo, FindingFile, StoreError};
use crate::compile::{CompileOptions, Compiler, Mode, Verdict};
use crate::profile::Install;
use crate::toolchain::{self, Toolchain};

/// The file a bisection writes into the finding's directory.
pub const BISECT_FILE: &str = "bisect.json";

/// The heading of the release range in `report.md`.
pub const REPORT_HEADING: &str = "## Affected releases";

/// The most releases one bisection installs and compiles with (a binary search over a
/// thousand releases needs about twenty).
pub const MAX_PROBES: usize = 64;

/// How to bisect.
#[derive(Clone, Debug, Default)]
pub struct BisectOptions {
    /// Consider pre-releases (alphas, betas, release candidates, milestones) too.
    pub pre_releases: bool,
    /// The oldest release to consider (inclusive).
    pub from: Option<String>,
    /// The newest release to consider (inclusive).
    pub to: Option<String>,
    /// Maven repositories (default: the user's configuration).
    pub repos: Vec<String>,
    /// Show download progress.
    pub progress: bool,
}

/// One release compiled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// The release.
    pub version: String,
    /// Its verdict (`accepted`, `rejected`, `crash`, `timeout`), when it could be compiled.
    pub verdict: Option<String>,
    /// The finding it made, if any.
    pub kind: Option<FindingKind>,
    /// Whether it shows the finding (same kind and signature); `None`: untestable.
    pub shows: Option<bool>,
    /// Its first diagnostic, shortened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostic: Option<String>,
    /// Why it could not be tested (install or compiler failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Seconds spent installing and compiling.
    pub seconds: f64,
}

/// `bisect.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bisection {
    /// The compiler's name.
    pub compiler: String,
    /// The release the finding was made with.
    pub finding_version: String,
    /// The finding's signature directory.
    pub signature: String,
    /// Whether pre-releases were considered.
    pub pre_releases: bool,
    /// The bounds asked for.
    pub from: Option<String>,
    /// The bounds asked for.
    pub to: Option<String>,
    /// The releases considered, oldest first.
    pub candidates: Vec<String>,
    /// The first release that shows the finding.
    pub introduced: Option<String>,
    /// The release before it (among the candidates) that does not; `None` when the oldest
    /// candidate already shows it.
    pub last_clean: Option<String>,
    /// The first release after the finding's own that no longer shows it; `None` when the
    /// newest candidate still does.
    pub fixed: Option<String>,
    /// The last release that shows it.
    pub last_affected: Option<String>,
    /// The range in words.
    pub range: String,
    /// Every release compiled, in the order compiled.
    pub probes: Vec<Probe>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A bisection that could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BisectError {
    /// The directory is not a finding of a run.
    #[error("{0}")]
    NotAFinding(String),
    /// Reading or writing failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The compiler cannot be bisected or its releases not listed.
    #[error("{0}")]
    Compiler(String),
    /// The finding does not reproduce with its own release.
    #[error("the finding does not reproduce with {0}")]
    NotReproduced(String),
}

/// Whether `v` lies within the optional bounds.
fn within(v: &str, from: Option<&str>, to: Option<&str>) -> bool {
    from.is_none_or(|f| compare_versions(v, f) != std::cmp::Ordering::Less)
        && to.is_none_or(|t| compare_versions(v, t) != std::cmp::Ordering::Greater)
}

/// The releases to consider, oldest first: the published ones (stable only unless
/// `pre_releases`) within the bounds, and always the finding's own release.
pub fn candidates(
    published: &[String],
    rules: &crate::profile::VersionRules,
    own: &str,
    opts: &BisectOptions,
) -> Vec<String> {
    let mut out: Vec<String> = published
        .iter()
        .filter(|v| opts.pre_releases || rules.is_stable(v))
        .filter(|v| within(v, opts.from.as_deref(), opts.to.as_deref()))
        .cloned()
        .collect();
    if !out.iter().any(|v| v == own) {
        out.push(own.to_string());
    }
    out.sort_by(|a, b| compare_versions(a, b));
    out.dedup();
    out
}

/// The index of the first candidate in `lo..hi` for which `shows` is true, given that it is
/// true at `hi - 1` and monotone (false then true) in between; untestable candidates are
/// dropped from `list` (and `hi` moves with them).
fn first_showing(
    list: &mut Vec<String>,
    mut lo: usize,
    mut hi: usize,
    shows: &mut dyn FnMut(&str) -> Result<Option<bool>, BisectError>,
) -> Result<usize, BisectError> {
    // invariant: list[hi - 1] shows the finding
    while lo + 1 < hi {
        let mid = lo + (hi - 1 - lo) / 2;
        match shows(&list[mid])? {
            Some(true) => hi = mid + 1,
            Some(false) => lo = mid + 1,
            None => {
                list.remove(mid);
                hi -= 1;
            }
        }
    }
    Ok(hi - 1)
}

/// The index of the first candidate in `lo..hi` for which `shows` is false (`hi` when none),
/// given that it is monotone (true then false); untestable candidates are dropped from `list`.
fn first_clean(
    list: &mut Vec<String>,
    mut lo: usize,
    mut hi: usize,
    shows: &mut dyn FnMut(&str) -> Result<Option<bool>, BisectError>,
) -> Result<usize, BisectError> {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match shows(&list[mid])? {
            Some(true) => lo = mid + 1,
            Some(false) => hi = mid,
            None => {
                list.remove(mid);
                hi -= 1;
            }
        }
    }
    Ok(lo)
}

/// Bisects the finding in `bug`.
pub fn bisect(bug: &Path, opts: &BisectOptions) -> Result<Bisection, BisectError> {
    let start = Instant::now();
    let finding = FindingFile::read(bug)?;
    // the program's file name is data: one plain name, read from `bug` only
    let source_path = crate::rundir::join_name(
        bug,
        &finding.program.file,
        &bug.join("finding.json"),
        "program.file",
    )
    .map_err(|e| BisectError::NotAFinding(e.to_string()))?;
    check_targets(bug)?;
    let (run, manifest) = super::store::finding_run(bug).map_err(BisectError::NotAFinding)?;
    let info: CompilerInfo = std::iter::once(&manifest.compiler)
        .chain(&manifest.against)
        .find(|c| c.tool == finding.compiler.tool && c.version == finding.compiler.version)
        .cloned()
        .ok_or_else(|| {
            BisectError::NotAFinding(format!(
                "{}: the run has no compiler {}@{}",
                run.display(),
                finding.compiler.tool.name(),
                finding.compiler.version
            ))
        })?;
    let tool = info.tool;
    let profile = tool.profile();
    let Install::Maven(maven) = profile.install else {
        return Err(BisectError::Compiler(format!(
            "{} comes with the JDK, not from Maven: its releases cannot be installed",
            profile.name
        )));
    };
    let source =
        crate::rundir::read_to_string_limited(&source_path, crate::rundir::MAX_SOURCE_BYTES)
            .map_err(|e| BisectError::NotAFinding(format!("{}: {e}", source_path.display())))?;
    // the published releases
    let resolver = RepoConfig::discover(&opts.repos)
        .and_then(|c| {
            Resolver::new(
                c,
                ResolverOptions {
                    progress: opts.progress,
                    ..ResolverOptions::default()
                },
            )
        })
        .map_err(|e| {
            BisectError::Compiler(format!("cannot list {}'s releases: {e}", tool.name()))
        })?;
    let meta = resolver
        .metadata(maven.group, maven.artifact)
        .map_err(|e| {
            BisectError::Compiler(format!("cannot list {}'s releases: {e}", tool.name()))
        })?;
    let mut list = candidates(&meta.versions, &profile.versions, &info.version, opts);
    let considered = list.clone();
    let signature_dir = finding
        .signature
        .rsplit('/')
        .next()
        .unwrap_or(&finding.signature)
        .to_string();
    let work = tempfile::tempdir()
        .map_err(|e| BisectError::Compiler(format!("a temporary directory: {e}")))?;
    // a variant's finding is replayed with its flags (its source is stored rewritten), and a
    // program with the flags it was drawn
    let compile_opts = CompileOptions {
        classpath: info.classpath.clone(),
        timeout: std::time::Duration::from_secs_f64(info.timeout_seconds),
        flags: super::flags::compile_flags(&info, &finding.program.record.flags),
    };
    let mut probes: Vec<Probe> = Vec::new();
    let mut probe = |version: &str| -> Result<Option<bool>, BisectError> {
        if let Some(p) = probes.iter().find(|p| p.version == version) {
            return Ok(p.shows);
        }
        if probes.len() >= MAX_PROBES {
            return Err(BisectError::Compiler(format!(
                "more than {MAX_PROBES} releases compiled; narrow the range with --from/--to"
            )));
        }
        let t = Instant::now();
        let mut p = Probe {
            version: version.to_string(),
            verdict: None,
            kind: None,
            shows: None,
            diagnostic: None,
            error: None,
            seconds: 0.0,
        };
        match installed(tool, version, opts).and_then(|tc| {
            compile_one(
                &tc,
                work.path(),
                probes.len(),
                &finding.program.file,
                &source,
                &compile_opts,
            )
        }) {
            Ok(verdict) => {
                let kind = judge_with_reason(
                    finding.expected,
                    &verdict,
                    profile.diagnostics,
                    finding.program.record.call_lines,
                );
                let same = kind == Some(finding.kind)
                    && signature(tool, finding.kind, &verdict, &finding.program.record).dir
                        == signature_dir;
                p.verdict = Some(verdict.label().to_string());
                p.kind = kind;
                p.shows = Some(same);
                p.diagnostic = match &verdict {
                    Verdict::Rejected { diagnostics } => {
                        diagnostics.first().map(|d| d.chars().take(400).collect())
                    }
                    Verdict::Crash { output, .. } => Some(output.chars().take(400).collect()),
                    _ => None,
                };
            }
            Err(e) => p.error = Some(e),
        }
        p.seconds = t.elapsed().as_secs_f64();
        let shows = p.shows;
        probes.push(p);
        Ok(shows)
    };
    // the finding's own release must show it
    let own_shows = probe(&info.version)?;
    if own_shows != Some(true) {
        return Err(BisectError::NotReproduced(format!(
            "{}@{} (its own release)",
            tool.name(),
            info.version
        )));
    }
    let own = list
        .iter()
        .position(|v| *v == info.version)
        .unwrap_or_default();
    let introduced = first_showing(&mut list, 0, own + 1, &mut probe)?;
    let own = list
        .iter()
        .position(|v| *v == info.version)
        .unwrap_or_default();
    let len = list.len();
    let fixed = first_clean(&mut list, own + 1, len, &mut probe)?;
    let pick = |i: Option<usize>| i.and_then(|i| list.get(i).cloned());
    let result = Bisection {
        compiler: tool.name().to_string(),
        finding_version: info.version.clone(),
        signature: finding.signature.clone(),
        pre_releases: opts.pre_releases,
        from: opts.from.clone(),
        to: opts.to.clone(),
        introduced: pick(Some(introduced)),
        last_clean: pick(introduced.checked_sub(1)),
        fixed: pick(Some(fixed)),
        last_affected: pick(fixed.checked_sub(1)),
        range: String::new(),
        candidates: considered,
        probes,
        seconds: start.elapsed().as_secs_f64(),
    };
    let result = Bisection {
        range: range_words(&result),
        ..result
    };
    write(bug, &result)?;
    Ok(result)
}

/// The installed toolchain of exactly `version`, installing it when missing.
fn installed(
    tool: crate::toolchain::Tool,
    version: &str,
    opts: &BisectOptions,
) -> Result<Toolchain, String> {
    if let Some(tc) = toolchain::list()
        .into_iter()
        .find(|t| t.tool == tool && t.version == version)
    {
        return Ok(tc);
    }
    toolchain::install(tool, Some(version), &opts.repos, opts.progress)
        .map_err(|e| e.to_string())
        .and_then(|tc| {
            if tc.version == version {
                Ok(tc)
            } else {
                Err(format!("asked for {version}, installed {}", tc.version))
            }
        })
}

/// Compiles `source` as `file` with `tc` in a fresh directory under `work`.
fn compile_one(
    tc: &Toolchain,
    work: &Path,
    n: usize,
    file: &str,
    source: &str,
    opts: &CompileOptions,
) -> Result<Verdict, String> {
    let dir = work.join(format!("p{n}"));
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).map_err(|e| format!("{}: {e}", classes.display()))?;
    crate::rundir::check_name(file).map_err(|p| format!("{file:?}: {p}"))?;
    let path = dir.join(file);
    std::fs::write(&path, source).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut compiler = Compiler::new(tc, Mode::Process);
    let result = compiler
        .compile_batch(std::slice::from_ref(&path), &classes, opts)
        .map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    result
        .verdicts
        .get(file)
        .cloned()
        .ok_or_else(|| format!("no verdict for {file}"))
}

/// The affected range in words (`4.0.0 ≤ affected < 5.0.0`).
pub fn range_words(b: &Bisection) -> String {
    let low = match (&b.introduced, &b.last_clean) {
        (Some(i), Some(c)) => format!("introduced in {i} (not in {c})"),
        (Some(i), None) => format!("present in {i}, the oldest release tested"),
        _ => "introduced in an unknown release".into(),
    };
    let high = match (&b.fixed, &b.last_affected) {
        (Some(f), Some(l)) => format!("fixed in {f} (last affected: {l})"),
        (Some(f), None) => format!("fixed in {f}"),
        (None, Some(l)) => format!("still present in {l}, the newest release tested"),
        (None, None) => "fixed in an unknown release".into(),
    };
    format!("{} {low}; {high}", b.compiler)
}

/// The `report.md` section of a bisection.
pub fn report_section(b: &Bisection) -> String {
    let mut s = format!(
        "{REPORT_HEADING}\n\n{} (binary search over {} release{} of {}{}; `bisect.json` has every verdict).\n\n",
        range_words(b),
        b.candidates.len(),
        if b.candidates.len() == 1 { "" } else { "s" },
        b.compiler,
        if b.pre_releases {
            ", pre-releases included"
        } else {
            ", stable only"
        }
    );
    let mut probes = b.probes.clone();
    probes.sort_by(|x, y| compare_versions(&x.version, &y.version));
    for p in &probes {
        let what = match (p.shows, &p.verdict, &p.error) {
            (Some(true), Some(v), _) => format!("{v}: shows the finding"),
            (Some(false), Some(v), _) => format!("{v}: does not show it"),
            (_, _, Some(e)) => format!("not tested: {}", e.lines().next().unwrap_or_default()),
            _ => "not tested".into(),
        };
        s.push_str(&format!("- {} {}: {what}\n", b.compiler, p.version));
    }
    s
}

/// `md` with its release-range section replaced by (or, when it has none, given) `section`:
/// before `## Reproduce` when there is one, else at the end.
pub fn with_section(md: &str, section: &str) -> String {
    let section = format!("{}\n", section.trim_end());
    if let Some(start) = md.find(REPORT_HEADING) {
        let rest = &md[start + REPORT_HEADING.len()..];
        let end = rest
            .find("\n## ")
            .map_or(md.len(), |i| start + REPORT_HEADING.len() + i + 1);
        return format!("{}{section}\n{}", &md[..start], &md[end..]);
    }
    match md.find("## Reproduce") {
        Some(i) => format!("{}{section}\n{}", &md[..i], &md[i..]),
        None => format!(
            "{}\n{section}",
            md.trim_end_matches('\n').to_string() + "\n"
        ),
    }
}

/// Refuses symbolic links where a bisection writes: `bisect.json`, `report.md`, `reduced/`
/// and `reduced/report.md`.
fn check_targets(bug: &Path) -> Result<(), BisectError> {
    let reduced = bug.join(super::reduce::REDUCED);
    for path in [
        bug.join(BISECT_FILE),
        bug.join("report.md"),
        reduced.join("report.md"),
        reduced,
    ] {
        crate::rundir::refuse_link(&path).map_err(|source| StoreError::Io { path, source })?;
    }
    Ok(())
}

/// Writes `bisect.json` and the range into `report.md` (and the reduced program's report).
fn write(bug: &Path, b: &Bisection) -> Result<(), BisectError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| StoreError::Io { path, source }
    };
    check_targets(bug)?;
    let json = serde_json::to_string_pretty(b).map_err(|e| BisectError::Compiler(e.to_string()))?;
    let path = bug.join(BISECT_FILE);
    crate::rundir::write_atomic(&path, (json + "\n").as_bytes()).map_err(io(&path))?;
    let section = report_section(b);
    for report in [
        bug.join("report.md"),
        bug.join(super::reduce::REDUCED).join("report.md"),
    ] {
        if let Some(md) = crate::rundir::read_optional(&report, crate::rundir::MAX_REPORT_BYTES)
            .map_err(io(&report))?
        {
            crate::rundir::write_atomic(&report, with_section(&md, &section).as_bytes())
                .map_err(io(&report))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn binary_search_finds_both_edges_and_skips_untestable_releases() {
        let all = vs(&[
            "1.0", "1.1", "1.2", "1.3", "1.4", "2.0", "2.1", "2.2", "3.0",
        ]);
        // shows from 1.2 up to 2.1; 1.1 cannot be installed
        let shows = |v: &str| match v {
            "1.1" => None,
            "1.2" | "1.3" | "1.4" | "2.0" | "2.1" => Some(true),
            _ => Some(false),
        };
        let mut seen = Vec::new();
        let mut probe = |v: &str| {
            seen.push(v.to_string());
            Ok(shows(v))
        };
        let mut list = all.clone();
        let own = 4; // 1.4
        let i = first_showing(&mut list, 0, own + 1, &mut probe).expect("search");
        assert_eq!(list[i], "1.2");
        let own = list.iter().position(|v| v == "1.4").expect("own");
        let len = list.len();
        let j = first_clean(&mut list, own + 1, len, &mut probe).expect("search");
        assert_eq!(list[j], "2.2");
        assert!(seen.len() < all.len(), "{seen:?}");
        // still present in the newest
        let mut list = all.clone();
        let mut always = |_: &str| Ok(Some(true));
        let j = first_clean(&mut list, 5, 9, &mut always).expect("search");
        assert_eq!(j, 9);
        let i = first_showing(&mut list, 0, 5, &mut always).expect("search");
        assert_eq!(i, 0);
    }

    #[test]
    fn candidates_respect_bounds_and_pre_releases_and_keep_the_own_release() {
        let published = vs(&[
            "4.0.0",
            "4.0.1",
            "5.0.0-alpha-1",
            "5.0.0",
            "4.0.10",
            "6.0.0-rc-1",
        ]);
        let rules = crate::profile::VersionRules::LATEST_STABLE;
        let mut opts = BisectOptions::default();
        assert_eq!(
            candidates(&published, &rules, "4.0.1", &opts),
            vs(&["4.0.0", "4.0.1", "4.0.10", "5.0.0"])
        );
        opts.pre_releases = true;
        opts.from = Some("4.0.1".into());
        assert_eq!(
            candidates(&published, &rules, "4.0.1", &opts),
            vs(&["4.0.1", "4.0.10", "5.0.0-alpha-1", "5.0.0", "6.0.0-rc-1"])
        );
        opts.to = Some("4.0.10".into());
        assert_eq!(
            candidates(&published, &rules, "6.0.0-rc-1", &opts),
            vs(&["4.0.1", "4.0.10", "6.0.0-rc-1"])
        );
    }

    #[test]
    fn the_range_section_is_replaced_not_repeated() {
        let md = "# title\n\n## Program\n\nx\n\n## Reproduce\n\nsh repro.sh\n";
        let once = with_section(md, "## Affected releases\n\nA\n");
        assert!(
            once.contains("## Affected releases\n\nA\n\n## Reproduce"),
            "{once}"
        );
        let twice = with_section(&once, "## Affected releases\n\nB\n");
        assert_eq!(twice.matches("## Affected releases").count(), 1, "{twice}");
        assert!(
            twice.contains("\nB\n") && !twice.contains("\nA\n"),
            "{twice}"
        );
        let end = with_section("# t\n", "## Affected releases\n\nC");
        assert!(end.ends_with("## Affected releases\n\nC\n"), "{end}");
    }
}
