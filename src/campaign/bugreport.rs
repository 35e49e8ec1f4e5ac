//! `report.md` of a finding: what a user pastes into the compiler's tracker — a title naming
//! the faulty construct and the release, whether the newest releases still show it, the
//! program, expected against actual verdict with the compiler's message, what javac says of
//! the program's Java twin (with its message), the environment (compiler release and command
//! line, JDK, OS), the dependencies' coordinates, possible duplicates among the known
//! findings, and how to reproduce it. No local path appears in it: paths are the finding's
//! own files, and the compiler's output is scrubbed of absolute paths.
//!
//! A report is built once as blocks ([`Block`]) and printed as Markdown (GitHub issues,
//! YouTrack) or as JIRA wiki markup (Groovy's JIRA): [`Format`]. [`render`] builds it from a
//! finding's directory and its run ([`RunContext`]); [`write_reports`] rewrites `report.md`
//! and `reduced/report.md` so.

use std::fmt::Write as _;
use std::path::Path;

use super::candidate::Candidate;
use super::finding::{twin_applies, FindingKind, TwinStatus};
use super::known::KnownSet;
use super::records::{
    write_atomic, CompilerInfo, DiffRef, FindingFile, IntendedLabel, KnownLabel, Manifest,
    StoreError, MANIFEST, REDUCED,
};
use crate::compile::Verdict;
use crate::synth::Expected;
use crate::toolchain::Tool;

/// Lines of compiler output quoted in a report (the rest is in `compiler-output.txt`).
const QUOTED_OUTPUT_LINES: usize = 40;

/// The longest diagnostic quoted in a title (characters).
const TITLE_MESSAGE_CHARS: usize = 110;

/// The file of a reduced program's compiler output (written by the recheck).
pub const REDUCED_OUTPUT: &str = "compiler-output.txt";

/// The file of javac's verdict on a reduced program's Java twin (written by the recheck).
pub const REDUCED_TWIN: &str = "twin.json";

/// The file `thalia bisect` writes into a finding's directory (its `range` and `candidates`
/// are quoted in the report).
const BISECT_FILE: &str = "bisect.json";

/// What a report quotes of a bisection (`bisect.json`).
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
pub struct BisectRange {
    /// The range in words.
    #[serde(default)]
    pub range: String,
    /// The releases considered.
    #[serde(default)]
    pub candidates: Vec<String>,
}

/// What `report.md` says of a known bug's finding.
pub fn known_note_text(k: &KnownLabel) -> String {
    format!(
        "This is {} in thalia's known findings (`known-findings/`): {}{}. It is counted apart and not reported as new.",
        k.id,
        k.title,
        k.tracker
            .as_ref()
            .map(|t| format!(" (tracker: {t})"))
            .unwrap_or_default()
    )
}

/// What `report.md` says of an intended change's finding.
pub fn intended_note_text(i: &IntendedLabel) -> String {
    format!(
        "This disagreement is {} in thalia's intended changes (`known-findings/intended-changes.toml`): {}{}. It is counted apart and not reported as a bug.",
        i.id,
        i.reason.trim(),
        i.link
            .as_ref()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default()
    )
}

/// How a report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Markdown: GitHub issues (Scala), YouTrack (Kotlin), `report.md`.
    #[default]
    Markdown,
    /// JIRA wiki markup (Groovy's tracker).
    Jira,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "markdown" | "md" | "github" | "youtrack" => Ok(Format::Markdown),
            "jira" => Ok(Format::Jira),
            other => Err(format!(
                "unknown report format `{other}` (markdown or jira)"
            )),
        }
    }
}

/// A piece of running text.
#[derive(Clone, Debug, PartialEq)]
pub enum Span {
    /// Plain text.
    Text(String),
    /// Code (a name, a type, a command).
    Code(String),
    /// Emphasised text.
    Bold(String),
}

/// A block of a report.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// The title (one per report).
    Title(String),
    /// A section heading.
    Heading(String),
    /// A paragraph.
    Para(Vec<Span>),
    /// A code block in a language (`groovy`, `java`, ...; empty: plain output).
    Code(String, String),
    /// A bulleted list.
    List(Vec<Vec<Span>>),
}

fn text(s: impl Into<String>) -> Span {
    Span::Text(s.into())
}

fn code(s: impl Into<String>) -> Span {
    Span::Code(s.into())
}

fn bold(s: impl Into<String>) -> Span {
    Span::Bold(s.into())
}

/// The code-fence language of a source file.
fn fence(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("java") => "java",
        Some("kt") => "kotlin",
        Some("scala") => "scala",
        Some("groovy") => "groovy",
        _ => "",
    }
}

/// Markdown of running text.
fn md_spans(spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(t) => t.clone(),
            Span::Code(c) if c.contains('`') => format!("`` {c} ``"),
            Span::Code(c) => format!("`{c}`"),
            // `**Status:** `: a closing marker after a space is no marker
            Span::Bold(b) => {
                let t = b.trim_end();
                format!("**{t}**{}", &b[t.len()..])
            }
        })
        .collect()
}

/// JIRA text with its markup characters escaped.
fn jira_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "*_{}[]|^~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// JIRA wiki markup of running text.
fn jira_spans(spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(t) => jira_escape(t),
            Span::Code(c) if c.contains(['{', '}']) => jira_escape(c),
            Span::Code(c) => format!("{{{{{c}}}}}"),
            Span::Bold(b) => {
                let t = b.trim_end();
                format!("*{}*{}", jira_escape(t), &b[t.len()..])
            }
        })
        .collect()
}

/// The blocks printed in `format`.
pub fn print(blocks: &[Block], format: Format) -> String {
    let mut out = String::new();
    for b in blocks {
        match (b, format) {
            (Block::Title(t), Format::Markdown) => {
                let _ = writeln!(out, "# {t}\n");
            }
            (Block::Title(t), Format::Jira) => {
                let _ = writeln!(out, "h1. {}\n", jira_escape(t));
            }
            (Block::Heading(h), Format::Markdown) => {
                let _ = writeln!(out, "## {h}\n");
            }
            (Block::Heading(h), Format::Jira) => {
                let _ = writeln!(out, "h2. {}\n", jira_escape(h));
            }
            (Block::Para(spans), Format::Markdown) => {
                let _ = writeln!(out, "{}\n", md_spans(spans));
            }
            (Block::Para(spans), Format::Jira) => {
                let _ = writeln!(out, "{}\n", jira_spans(spans));
            }
            (Block::Code(lang, body), Format::Markdown) => {
                let body = body.trim_end_matches('\n');
                let ticks = if body.contains("```") { "````" } else { "```" };
                let _ = writeln!(out, "{ticks}{lang}\n{body}\n{ticks}\n");
            }
            (Block::Code(lang, body), Format::Jira) => {
                let body = body.trim_end_matches('\n');
                if lang.is_empty() {
                    let _ = writeln!(out, "{{noformat}}\n{body}\n{{noformat}}\n");
                } else {
                    let _ = writeln!(out, "{{code:{lang}}}\n{body}\n{{code}}\n");
                }
            }
            (Block::List(items), format) => {
                for i in items {
                    let line = match format {
                        Format::Markdown => md_spans(i),
                        Format::Jira => jira_spans(i),
                    };
                    let _ = writeln!(
                        out,
                        "{} {line}",
                        if format == Format::Jira { "*" } else { "-" }
                    );
                }
                out.push('\n');
            }
        }
    }
    out.trim_end().to_string() + "\n"
}

/// `text` without absolute paths: each is replaced by its last component (a source file's
/// name, a jar's), `file:` URLs included, and so is a relative path into a run's compile
/// directories or its temporary ones; other relative paths and the rest stay as they are.
pub fn scrub(text: &str) -> String {
    let path_char = |c: char| !c.is_whitespace() && !"'\"()[]<>,;:|`{}=".contains(c);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // just after a `file:` scheme: a path follows whatever precedes it
    let mut url = false;
    // what a path into a run's compile directories holds (`w0/src/T.groovy` under its
    // work directory)
    let run_work_mark = format!("/{}/w", super::records::WORK_DIR);
    let temp_marks: Vec<String> = super::records::RUN_TEMP_PREFIXES
        .iter()
        .map(|p| format!("/{p}"))
        .collect();
    while i < chars.len() {
        let c = chars[i];
        // a `file:` URL: drop the scheme, the path that follows is scrubbed below
        if c == 'f'
            && chars[i..].starts_with(&['f', 'i', 'l', 'e', ':', '/'])
            && (i == 0 || !chars[i - 1].is_alphanumeric())
        {
            i += 5;
            while i + 1 < chars.len() && chars[i] == '/' && chars[i + 1] == '/' {
                i += 1;
            }
            url = true;
            continue;
        }
        let starts_path = c == '/'
            && chars
                .get(i + 1)
                .is_some_and(|&n| n.is_alphanumeric() || "._~+@$-".contains(n))
            && (url || i == 0 || {
                let p = chars[i - 1];
                !(p.is_alphanumeric() || "._/>$-".contains(p))
            });
        url = false;
        // a relative path into a run's compile directories (`runs/g/work/w0/src/T.groovy`:
        // a run given as a relative directory)
        let starts_run_path =
            !starts_path && path_char(c) && (i == 0 || !path_char(chars[i - 1])) && {
                let token: String = chars[i..].iter().take_while(|&&c| path_char(c)).collect();
                token.contains(&run_work_mark) || temp_marks.iter().any(|m| token.contains(m))
            };
        if !starts_path && !starts_run_path {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && path_char(chars[i]) {
            i += 1;
        }
        let path: String = chars[start..i].iter().collect();
        let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        out.push_str(last);
    }
    out
}

/// Qualified type names shortened to their simple names (`java.util.List<java.lang.String>`
/// → `List<String>`), for titles.
fn simple_names(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        // `a.b.C` → `C`; a lower-case last part (a method, a field) keeps its class
        let parts: Vec<&str> = word.split('.').collect();
        let keep = match parts
            .iter()
            .rposition(|p| p.starts_with(char::is_uppercase))
        {
            Some(i) if parts.len() > 1 => parts[i..].join("."),
            _ => word.clone(),
        };
        out.push_str(&keep);
        word.clear();
    };
    for c in s.chars() {
        if c.is_alphanumeric() || c == '_' || c == '$' || c == '.' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The compiler as people name it (`groovyc 4.0.11`).
fn compiler_name(tool: Tool, version: &str) -> String {
    format!("{} {version}", tool.profile().executable)
}

/// The member under test as `Class.name`.
fn member_short(member: &str, class: &str) -> String {
    let head = member.split('(').next().unwrap_or_default();
    let name = head.rsplit(['.', ' ']).next().unwrap_or(head);
    let class = class.rsplit('.').next().unwrap_or(class);
    if head.trim_start().starts_with("new ") || name == class {
        format!("new {class}")
    } else {
        format!("{class}.{name}")
    }
}

/// The message of a diagnostic without its location, on one line, shortened.
fn short_message(tool: Tool, diagnostic: &str, max: usize) -> String {
    let parts = tool.profile().diagnostics.message(diagnostic);
    let msg = match parts.title {
        Some(t) => format!("{t}: {}", parts.message),
        None => parts.message,
    };
    let msg = msg
        .trim_start_matches("[Static type checking] - ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let msg = simple_names(&scrub(&msg));
    let msg = msg
        .split(" @ line ")
        .next()
        .unwrap_or(&msg)
        .trim_end_matches('.')
        .to_string();
    if msg.chars().count() > max {
        let cut: String = msg.chars().take(max).collect();
        format!("{}…", cut.trim_end())
    } else {
        msg
    }
}

/// The construct a finding is about, from its program's fault shape: `a lambda's result`,
/// `a method reference's argument`, `an argument`...
fn construct(finding: &FindingFile) -> String {
    let r = &finding.program.record;
    let position = r.broken.as_ref().map(|b| b.position.as_str()).unwrap_or("");
    let part = if position == "result" {
        "result"
    } else if position == "receiver" {
        "receiver"
    } else {
        "argument"
    };
    match r.shape.wrapped.as_deref() {
        Some("reference") => format!("a method reference's {part}"),
        Some(_) => format!("a lambda's {part}"),
        None if part == "argument" => "an argument".to_string(),
        None => format!("a {part}"),
    }
}

/// The title of a finding's report: the construct and the compiler release.
pub fn title(finding: &FindingFile, first_diagnostic: Option<&str>) -> String {
    let c = &finding.compiler;
    let compiler = compiler_name(c.tool, &c.version);
    let r = &finding.program.record;
    let member = member_short(&r.member, &r.class);
    let call = match r.shape.wrapped.as_deref() {
        Some("reference") => format!("method reference to `{member}`"),
        Some(_) => format!("lambda calling `{member}`"),
        None => format!("call of `{member}`"),
    };
    let message = first_diagnostic
        .map(|d| short_message(c.tool, d, TITLE_MESSAGE_CHARS))
        .filter(|m| !m.is_empty());
    let with = |head: String| match &message {
        Some(m) => format!("{head}: {m}"),
        None => head,
    };
    match finding.kind {
        FindingKind::UnexpectedAcceptance => {
            let (formal, actual) = r
                .broken
                .as_ref()
                .map(|b| (simple_names(&b.formal), simple_names(&b.actual)))
                .unwrap_or_default();
            let explicit = if !r.substitution.is_empty() && !r.erased {
                " with explicit type arguments"
            } else {
                ""
            };
            format!(
                "{} (`{actual}`) is not checked against `{formal}` in a {call}{explicit} in {compiler}",
                capitalize(&construct(finding))
            )
        }
        FindingKind::UnexpectedRejection => {
            with(format!("A well-typed {call} is rejected in {compiler}"))
        }
        FindingKind::RejectedElsewhere => with(format!(
            "A statement before a {call} is rejected in {compiler} although javac accepts it"
        )),
        FindingKind::Crash => {
            let detail = finding
                .signature_text
                .split_once(": ")
                .map(|(_, d)| d.to_string())
                .unwrap_or_default();
            format!("{compiler} crashes on a {call}: {}", simple_names(&detail))
        }
        FindingKind::Performance => {
            format!("{compiler} does not finish compiling a {call} within the time budget")
        }
        FindingKind::Miscompilation | FindingKind::Unsoundness => {
            let raised = finding
                .run
                .as_ref()
                .map(|r| simple_names(r.program.class()))
                .unwrap_or_else(|| "an exception".into());
            if finding.kind == FindingKind::Miscompilation {
                format!("The code {compiler} generates for a {call} fails to link: {raised}")
            } else {
                format!("A {call} that {compiler} accepts raises {raised} at run time")
            }
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// What the compiler was expected to do, and what it did, in words.
fn verdict_words(kind: FindingKind, expected: Expected) -> (&'static str, &'static str) {
    let expected = match expected {
        Expected::Accept => "accepts the program (it is well-typed)",
        Expected::Reject => "rejects the program at the marked call (it is ill-typed)",
    };
    let actual = match kind {
        FindingKind::UnexpectedRejection => "rejects it",
        FindingKind::UnexpectedAcceptance => "accepts it",
        FindingKind::Crash => "crashes",
        FindingKind::Performance => "does not finish within the time budget",
        FindingKind::RejectedElsewhere => "rejects it, but away from the call under test",
        FindingKind::Miscompilation => {
            "accepts it, but its compiled code fails to link or verify when run"
        }
        FindingKind::Unsoundness => {
            "accepts it, but running it raises an exception its types rule out"
        }
    };
    (expected, actual)
}

/// The machine a finding was made on: the compiler's JDK and the operating system.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    /// The JDK that runs the compiler (`17.0.15`), when known.
    pub jdk: Option<String>,
    /// The operating system and architecture.
    pub os: String,
}

impl Environment {
    /// This machine, with the JDK of the installed toolchain `tool@version` (when installed).
    pub fn here(tool: Tool, version: &str) -> Environment {
        let jdk = crate::toolchain::list()
            .into_iter()
            .find(|t| t.tool == tool && t.version == version)
            .and_then(|t| jdk_version(&t.java));
        Environment {
            jdk,
            os: os_words(),
        }
    }
}

/// The version of the JDK an executable (`bin/java`, `bin/javac`) belongs to, from its
/// `release` file.
fn jdk_version(exe: &Path) -> Option<String> {
    let real = std::fs::canonicalize(exe).ok()?;
    let home = real.parent()?.parent()?;
    let text = std::fs::read_to_string(home.join("release")).ok()?;
    text.lines().find_map(|l| {
        l.strip_prefix("JAVA_VERSION=")
            .map(|v| v.trim_matches('"').to_string())
    })
}

/// The operating system in words (`Debian GNU/Linux 12, Linux 6.1.0, x86_64`).
fn os_words() -> String {
    let name = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("PRETTY_NAME=")
                    .map(|v| v.trim_matches('"').to_string())
            })
        });
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|k| k.trim().to_string());
    let mut parts = Vec::new();
    parts.extend(name);
    match kernel {
        Some(k) => parts.push(format!("{} {k}", std::env::consts::OS)),
        None => parts.push(std::env::consts::OS.to_string()),
    }
    parts.push(std::env::consts::ARCH.to_string());
    parts.join(", ")
}

/// Packages of the JDK and of the languages' own libraries (and the programs' own, `thalia.`):
/// a program whose qualified names all start so needs no dependency.
const OWN_PACKAGES: &[&str] = &[
    "java.",
    "javax.",
    "jdk.",
    "kotlin.",
    "scala.",
    "groovy.",
    "groovyjarjar",
    "org.codehaus.groovy.",
    "org.apache.groovy.",
    "thalia.",
];

/// True when every qualified name in `source` (its imports, and names of three or more
/// segments whose first two are lower-case, `java.util.List`, `kotlin.collections.setOf`) is
/// in the JDK, a language's own library or the program's own package: it compiles without
/// the run's dependencies. Conservative: a name it cannot place (`r.field.method`) keeps them.
pub fn uses_no_dependency(source: &str) -> bool {
    static QUALIFIED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = QUALIFIED.get_or_init(|| {
        regex::Regex::new(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
            .expect("a valid pattern")
    });
    let own = |name: &str| {
        let name = name.trim_start_matches("_root_.");
        OWN_PACKAGES.iter().any(|p| name.starts_with(p))
    };
    let lower = |s: &str| s.starts_with(|c: char| c.is_ascii_lowercase());
    // comments and string literals name no class
    let code: String = strip_strings(source)
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    // names that stand alone somewhere (`val r = ...`, `(l, s) ->`) are locals, fields or
    // parameters: a chain on them (`r.size.toString()`) is no package name
    let standalone: std::collections::HashSet<&str> = re_ident()
        .find_iter(&code)
        .filter(|m| {
            let before = code[..m.start()].trim_end().ends_with('.');
            let after = code[m.end()..].trim_start().starts_with('.');
            !before && !after
        })
        .map(|m| m.as_str())
        .collect();
    re.find_iter(&code).all(|m| {
        let name = m.as_str();
        let segments: Vec<&str> = name.trim_start_matches("_root_.").split('.').collect();
        let qualified = segments.len() >= 3
            && lower(segments[0])
            && lower(segments[1])
            && !standalone.contains(segments[0]);
        let imported = code[..m.start()]
            .rsplit('\n')
            .next()
            .is_some_and(|line| line.trim_start().starts_with("import "));
        !(qualified || imported) || own(name)
    })
}

/// An identifier.
fn re_ident() -> &'static regex::Regex {
    static IDENT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    IDENT.get_or_init(|| regex::Regex::new(r"\b[A-Za-z_][A-Za-z0-9_]*\b").expect("a valid pattern"))
}

/// `source` with the contents of its string and character literals dropped.
fn strip_strings(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in source.chars() {
        match quote {
            Some(_) if c == '\n' => {
                // a literal ends at its line (an apostrophe in a comment opens none for long)
                quote = None;
                escaped = false;
                out.push(c);
            }
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                    out.push(c);
                }
            }
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

/// The Maven coordinates of the libraries the programs of a run were compiled against: the
/// API's `fetch.json` (its requested artifacts, resolved), or the embedded API's
/// `coordinates.txt`; empty when the programs use the JDK alone.
pub fn dependencies(manifest: &Manifest) -> Vec<String> {
    use crate::api::source::ApiSource;
    let label = match &manifest.identity {
        super::identity::RunIdentity::Run(r) => r.api.clone(),
        super::identity::RunIdentity::Check(c) => {
            let summary = Path::new(&c.programs).join("summary.json");
            std::fs::read_to_string(summary)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|v| v["api"].as_str().map(str::to_string))
                .unwrap_or_default()
        }
    };
    let fetched = |dir: &Path| -> Vec<String> {
        std::fs::read_to_string(dir.join("fetch.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| {
                v["resolved"].as_array().map(|a| {
                    a.iter()
                        .filter_map(|c| c.as_str().map(str::to_string))
                        .collect()
                })
            })
            .unwrap_or_default()
    };
    match ApiSource::from_label(&label) {
        ApiSource::Embedded => crate::embedded::embedded_coordinates(None),
        ApiSource::Corpus(n) => {
            let embedded = crate::embedded::embedded_coordinates(Some(&n));
            if embedded.is_empty() {
                fetched(&crate::api::source::fetched_apis_dir().join(&n))
            } else {
                embedded
            }
        }
        ApiSource::Dir(d) => fetched(&d),
    }
}

/// The compiler's command line as a user would type it, without local paths: the compiler's
/// name, its flags, `<classpath>` for the programs' classpath and `out` for the output
/// directory.
pub fn command_words(c: &CompilerInfo, file: &str) -> String {
    let mut words = vec![c.tool.profile().executable.to_string()];
    let mut after_cp = false;
    for a in c.own_arguments() {
        if after_cp {
            words.push("<classpath>".into());
            after_cp = false;
            continue;
        }
        if c.is_classpath_flag(a) {
            after_cp = true;
            words.push(a.clone());
            continue;
        }
        words.push(scrub(&a.replace("@OUT@", "out").replace("@FILE@", file)));
    }
    words.join(" ")
}

/// What a finding's report is made of, besides its `finding.json`.
#[derive(Clone, Debug, Default)]
pub struct Parts {
    /// The program's file name and source.
    pub file: String,
    /// Its source.
    pub source: String,
    /// The compiler's output on it.
    pub output: String,
    /// The Java twin's file and source.
    pub twin: Option<(String, String)>,
    /// javac's verdict on the twin, its message, and what it says of the finding.
    pub twin_verdict: Option<(String, Option<String>, Option<TwinStatus>)>,
    /// The disagreements of other compilers.
    pub differential: Vec<DiffRef>,
    /// A bisection (`thalia bisect`).
    pub bisection: Option<BisectRange>,
    /// The report of the reduced program: the original program's lines.
    pub reduced_from: Option<usize>,
    /// Whether the finding has a reduced program (`reduced/`).
    pub has_reduced: bool,
    /// Whether its reduction found that the program, compiled alone, does not make the
    /// finding (the campaign's batch did).
    pub not_reproduced_alone: bool,
}

/// Whether the reduction of the finding in `dir` found that its program, compiled alone,
/// does not make the finding.
pub fn not_reproduced_alone(dir: &Path) -> bool {
    read(dir, super::records::REDUCE_FAILED)
        .is_some_and(|t| t.contains(super::records::NOT_REPRODUCED_WORDS))
}

/// What a report needs of its run.
#[derive(Clone, Debug)]
pub struct RunContext {
    /// The run's manifest.
    pub manifest: Manifest,
    /// The machine.
    pub environment: Option<Environment>,
    /// The dependencies' coordinates.
    pub dependencies: Vec<String>,
    /// The known findings (for possible duplicates).
    pub known: Option<KnownSet>,
}

impl RunContext {
    /// The context of the run in `run`, with the embedded known findings.
    pub fn load(run: &Path) -> Result<RunContext, StoreError> {
        let path = run.join(MANIFEST);
        let text = crate::rundir::read_to_string_limited(&path, crate::rundir::MAX_JSON_BYTES)
            .map_err(|source| StoreError::Io {
                path: path.clone(),
                source,
            })?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| StoreError::Manifest {
            path,
            message: e.to_string(),
        })?;
        Ok(RunContext::of(manifest, KnownSet::embedded().ok()))
    }

    /// The context of a run with `manifest`, with `known` for possible duplicates.
    pub fn of(manifest: Manifest, known: Option<KnownSet>) -> RunContext {
        let c = &manifest.compiler;
        RunContext {
            environment: Some(Environment::here(c.tool, &c.version)),
            dependencies: dependencies(&manifest),
            known,
            manifest,
        }
    }

    /// The manifest's record of the compiler `tool@version` (the run's own, or an
    /// `--against` one).
    pub fn compiler(&self, f: &FindingFile) -> CompilerInfo {
        std::iter::once(&self.manifest.compiler)
            .chain(&self.manifest.against)
            .find(|c| c.tool == f.compiler.tool && c.version == f.compiler.version)
            .cloned()
            .unwrap_or_else(|| self.manifest.compiler.clone())
    }
}

/// The first diagnostic of a compiler output (its first line and what belongs to it).
fn first_diagnostic(output: &str) -> Option<String> {
    let first = output.lines().find(|l| !l.trim().is_empty())?;
    if first.starts_with('(') {
        return None;
    }
    Some(first.to_string())
}

/// The blocks of a finding's report.
pub fn blocks(f: &FindingFile, parts: &Parts, ctx: &RunContext) -> Vec<Block> {
    let c = &f.compiler;
    // the command with the program's flags, as it was compiled
    let info = super::flags::with_flags(&ctx.compiler(f), &f.program.record.flags);
    let compiler = compiler_name(c.tool, &c.version);
    let (expected, actual) = verdict_words(f.kind, f.expected);
    let r = &f.program.record;
    let mut out = Vec::new();
    let output = scrub(&parts.output);
    let first = match f.kind {
        FindingKind::UnexpectedAcceptance => None,
        _ => first_diagnostic(&output),
    };
    out.push(Block::Title(title(f, first.as_deref())));
    // where it stands, first: what a compiler team asks before anything else
    let mut standing = Vec::new();
    if let Some(s) = &f.status {
        standing.push(vec![bold("Status: "), text(s.words(c.tool.name()))]);
    }
    if let Some(k) = &f.known {
        let mut line = vec![bold("Known: "), text(format!("{} — {}", k.id, k.title))];
        if let Some(t) = &k.tracker {
            line.push(text(format!(" ({t})")));
        }
        standing.push(line);
    }
    if let Some(i) = &f.intended {
        standing.push(vec![bold("Intended change: "), text(i.id.clone())]);
    }
    if parts.not_reproduced_alone {
        standing.push(vec![
            bold("Does not reproduce alone: "),
            text(format!(
                "compiled alone, {compiler} does not make this finding of the program (the                  campaign's batch did); check it before filing"
            )),
        ]);
    }
    if !standing.is_empty() {
        out.push(Block::List(standing));
    }
    let mut summary = vec![
        text("The program below "),
        text(match f.kind {
            FindingKind::Performance | FindingKind::Crash => "uses ",
            _ => "calls ",
        }),
        code(r.member.clone()),
        text(format!(" ({} typing sequence", f.program.mode)),
    ];
    if let Some(b) = &r.broken {
        summary.push(text(format!("; its {} is a ", b.position)));
        summary.push(code(b.actual.clone()));
        summary.push(text(" where "));
        summary.push(code(b.formal.clone()));
        summary.push(text(" is needed"));
    }
    summary.push(text("). "));
    summary.push(bold("Expected: "));
    summary.push(text(format!("{compiler} {expected}. ")));
    summary.push(bold("Actual: "));
    summary.push(text(format!("{compiler} {actual}.")));
    out.push(Block::Para(summary));
    if let Some(n) = parts.reduced_from {
        out.push(Block::Para(vec![text(format!(
            "This is the finding's program reduced (from {n} lines) with the same verdict and signature; the original program is in the finding's directory."
        ))]));
    } else if parts.has_reduced {
        out.push(Block::Para(vec![
            text("A reduced program with the same verdict is in "),
            code(format!("{REDUCED}/")),
            text(" (its own report: "),
            code(format!("{REDUCED}/report.md")),
            text(")."),
        ]));
    }
    out.push(Block::Heading(format!("Program ({})", parts.file)));
    out.push(Block::Code(fence(&parts.file).into(), parts.source.clone()));
    if let Some(run) = &f.run {
        out.push(Block::Heading("Running it".into()));
        let mut lines = vec![format!("program: {}", run.program.describe())];
        if let Some(t) = &run.twin {
            lines.push(format!("Java twin: {}", t.describe()));
        }
        out.push(Block::Code(String::new(), lines.join("\n")));
    }
    out.push(Block::Heading(format!("{compiler} says")));
    let quoted: Vec<&str> = output.lines().take(QUOTED_OUTPUT_LINES).collect();
    out.push(Block::Code(String::new(), quoted.join("\n")));
    twin_blocks(f, parts, &mut out);
    if let Some(s) = &f.status {
        out.push(Block::Heading("Newest releases".into()));
        let mut items = Vec::new();
        for ch in &s.checks {
            let what = match (ch.shows, &ch.verdict, &ch.error) {
                (Some(true), Some(v), _) => format!("{v}: still shows it"),
                (Some(false), Some(v), _) => format!("{v}: no longer shows it"),
                (_, _, Some(e)) => format!("not tested: {}", scrub(e.lines().next().unwrap_or(""))),
                _ => "not tested".into(),
            };
            items.push(vec![text(format!(
                "{} {}{}: {what}",
                c.tool.name(),
                ch.version,
                if ch.pre_release { " (pre-release)" } else { "" }
            ))]);
        }
        let mut para = vec![text(capitalize(&s.words(c.tool.name())))];
        para.push(text(format!(
            " (the {} program compiled with each release",
            s.program
        )));
        if s.fixed_in.is_some() {
            para.push(text("; the first fixed release found by a binary search"));
        }
        para.push(text(")."));
        out.push(Block::Para(para));
        if !items.is_empty() {
            out.push(Block::List(items));
        }
    }
    if let Some(b) = &parts.bisection {
        out.push(Block::Heading("Affected releases".into()));
        out.push(Block::Para(vec![text(format!(
            "{} (binary search over {} releases; `bisect.json` has every verdict).",
            b.range,
            b.candidates.len()
        ))]));
    }
    if !parts.differential.is_empty() {
        out.push(Block::Heading("Other releases".into()));
        out.push(Block::List(
            parts
                .differential
                .iter()
                .map(|d| {
                    vec![text(format!(
                        "{}: {} ({})",
                        d.against,
                        d.verdict,
                        d.kind.as_str()
                    ))]
                })
                .collect(),
        ));
    }
    out.push(Block::Heading("Environment".into()));
    let mut env = vec![
        vec![
            text("Compiler: "),
            text(compiler.clone()),
            text(
                info.coordinate
                    .as_ref()
                    .map(|co| format!(" ({co})"))
                    .unwrap_or_default(),
            ),
            text(
                info.variant
                    .as_ref()
                    .map(|v| format!(", variant {v}"))
                    .unwrap_or_default(),
            ),
        ],
        vec![text("Command: "), code(command_words(&info, &parts.file))],
    ];
    let flags = super::flags::for_compiler(&info, &f.program.record.flags);
    if !flags.is_empty() {
        env.push(vec![
            text("Compiler flags: "),
            code(flags.join(" ")),
            text(" (a flag set thalia drew for this program; the expected verdict holds with and without it)"),
        ]);
    }
    if let Some(e) = &ctx.environment {
        env.push(vec![text(format!(
            "JDK: {}",
            e.jdk.clone().unwrap_or_else(|| "unknown".into())
        ))]);
        env.push(vec![text(format!("OS: {}", e.os))]);
    }
    if ctx.dependencies.is_empty() {
        env.push(vec![text("Dependencies: none (the JDK alone)")]);
    } else if uses_no_dependency(&parts.source) {
        let what = if parts.reduced_from.is_some() {
            "none after reduction (the reduced program names only the JDK's and the language's own classes; the campaign's program was compiled against "
        } else {
            "none (the program names only the JDK's and the language's own classes; the campaign compiled it against "
        };
        let mut deps = vec![text(format!("Dependencies: {what}"))];
        for (i, d) in ctx.dependencies.iter().enumerate() {
            if i > 0 {
                deps.push(text(", "));
            }
            deps.push(code(d.clone()));
        }
        deps.push(text(")"));
        env.push(deps);
    } else {
        let mut deps = vec![text("Dependencies: ")];
        for (i, d) in ctx.dependencies.iter().enumerate() {
            if i > 0 {
                deps.push(text(", "));
            }
            deps.push(code(d.clone()));
        }
        env.push(deps);
    }
    out.push(Block::List(env));
    if let Some(k) = &f.known {
        out.push(Block::Heading("Known bug".into()));
        let mut p = vec![text(known_note_text(k))];
        if let Some(e) = &k.evidence {
            p.push(text(format!(" Evidence: {e}.")));
        }
        out.push(Block::Para(p));
    }
    if let Some(d) = &f.known_disproved {
        out.push(Block::Para(vec![text(format!(
            "Not {}: {}.",
            d.id, d.reason
        ))]));
    }
    let duplicates: Vec<_> = ctx
        .known
        .as_ref()
        .map(|k| k.family(c.tool.name(), f.kind, &f.signature_text))
        .unwrap_or_default()
        .into_iter()
        .filter(|e| f.known.as_ref().is_none_or(|k| k.id != e.id))
        .collect();
    if !duplicates.is_empty() {
        out.push(Block::Heading("Possible duplicates".into()));
        out.push(Block::Para(vec![text(
            "Known findings of the same family (same kind and signature pattern); their own programs did not confirm this finding, so compare before filing:",
        )]));
        out.push(Block::List(
            duplicates
                .iter()
                .map(|e| {
                    let mut l = vec![text(format!("{}: {}", e.id, e.title))];
                    if let Some(t) = &e.tracker {
                        l.push(text(format!(" ({t})")));
                    }
                    l
                })
                .collect(),
        ));
    }
    if let Some(i) = &f.intended {
        out.push(Block::Heading("Intended language change".into()));
        out.push(Block::Para(vec![text(intended_note_text(i))]));
    }
    out.push(Block::Heading("Reproduce".into()));
    out.push(Block::Code(
        "sh".into(),
        format!(
            "sh repro.sh    # exit 0: the finding reproduces with {compiler} (run by thalia)\n\
             COMPILER={} sh repro.sh    # the same with your own {compiler}",
            c.tool.profile().executable
        ),
    ));
    let mut sig = vec![text("Signature: "), code(f.signature_text.clone())];
    if let Some(r) = &f.program.regenerate {
        sig.push(text(". Regenerate with thalia: "));
        sig.push(code(scrub(r)));
    }
    out.push(Block::Para(sig));
    if let Some(cl) = &f.cluster {
        out.push(Block::Heading("Cluster".into()));
        out.push(Block::Para(vec![text(format!(
            "{cl}: the findings whose reduced programs are this one up to the names of locals are one cause (`thalia report` lists them together)."
        ))]));
    }
    out
}

/// The Java twin's section.
fn twin_blocks(f: &FindingFile, parts: &Parts, out: &mut Vec<Block>) {
    let not_applicable = f
        .twin
        .as_ref()
        .and_then(|t| t.not_applicable.clone())
        .or_else(|| f.program.record.twin_not_applicable.clone())
        .filter(|_| twin_applies(f.kind));
    let Some((file, source)) = &parts.twin else {
        if let Some(reason) = not_applicable {
            out.push(Block::Heading("Java twin".into()));
            out.push(Block::Para(vec![text(format!(
                "Does not apply ({reason}): the finding is not judged by javac."
            ))]));
        }
        return;
    };
    out.push(Block::Heading(format!(
        "What javac says of the same program in Java ({file})"
    )));
    if let Some(reason) = &not_applicable {
        out.push(Block::Para(vec![text(format!(
            "Does not apply ({reason}): javac's verdict on it would say nothing of this finding, so it was not asked."
        ))]));
    } else {
        match &parts.twin_verdict {
            Some((verdict, message, status)) => {
                let what = match (status, f.kind) {
                    (Some(TwinStatus::Confirmed), FindingKind::RejectedElsewhere) => {
                        "it judges the program the other way (the statement the compiler rejects is fine in Java), so the rejection is the compiler's"
                    }
                    (Some(TwinStatus::Confirmed), _) => {
                        "the expected verdict, so the difference is the compiler's"
                    }
                    (Some(TwinStatus::GeneratorSuspect), _) => {
                        "the same unexpected verdict, so the expectation itself is suspect"
                    }
                    _ => "recorded for comparison",
                };
                out.push(Block::Para(vec![text(format!(
                    "javac {verdict} the same program written in Java: {what}."
                ))]));
                if let Some(m) = message.as_ref().filter(|m| !m.trim().is_empty()) {
                    out.push(Block::Code(String::new(), scrub(m)));
                }
            }
            None => out.push(Block::Para(vec![text(
                "javac was not asked about it (a crash, a timeout, or a campaign without twins).",
            )])),
        }
    }
    out.push(Block::Code("java".into(), source.clone()));
}

/// Reads `dir/name` when it is there: `name` (read from a finding's files) only when it is
/// a relative name of at most two components, the file only when it is a regular file of at
/// most [`crate::rundir::MAX_SOURCE_BYTES`] (a run directory is data, not trusted).
pub fn read(dir: &Path, name: &str) -> Option<String> {
    crate::rundir::check_relative(name, 2).ok()?;
    crate::rundir::read_to_string_limited(&dir.join(name), crate::rundir::MAX_SOURCE_BYTES).ok()
}

/// javac's verdict on a reduced program's twin (`reduced/twin.json`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReducedTwin {
    /// The twin's file.
    pub file: String,
    /// javac's verdict.
    pub verdict: String,
    /// Its first diagnostics, when it rejected the twin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What it says of the finding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TwinStatus>,
}

/// The reduced program of a finding: its file name in `reduced/` (the file of the compiler's
/// language), when reduced.
pub fn reduced_program(dir: &Path, tool: Tool) -> Option<String> {
    let ext = tool.profile().extension;
    let rd = dir.join(REDUCED);
    if !rd.join("reduction.json").is_file() {
        return None;
    }
    let mut files: Vec<String> = std::fs::read_dir(&rd)
        .ok()?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(&format!(".{ext}")) && !n.starts_with('.'))
        .collect();
    files.sort();
    files.into_iter().next()
}

/// The Java twin of the reduced program of the finding `f` in `dir`: its file name in
/// `reduced/` (the finding's twin's name, or the one `.java` file beside a reduced program
/// of another language, which reduction may have renamed with its class).
pub fn reduced_twin(dir: &Path, f: &FindingFile) -> Option<String> {
    let rd = dir.join(REDUCED);
    let twin = f.twin.as_ref()?;
    if crate::rundir::check_relative(&twin.file, 2).is_ok() && rd.join(&twin.file).is_file() {
        return Some(twin.file.clone());
    }
    if f.compiler.tool.profile().extension == "java" {
        return None;
    }
    let mut files: Vec<String> = std::fs::read_dir(&rd)
        .ok()?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".java") && !n.starts_with('.') && rd.join(n).is_file())
        .collect();
    files.sort();
    (files.len() == 1).then(|| files.remove(0))
}

/// The report of the finding in `dir` (its reduced program's with `reduced`), in `format`.
pub fn render(
    dir: &Path,
    ctx: &RunContext,
    reduced: bool,
    format: Format,
) -> Result<String, StoreError> {
    let f = FindingFile::read(dir)?;
    let parts = parts(dir, &f, reduced)?;
    Ok(print(&blocks(&f, &parts, ctx), format))
}

/// The parts of the report of the finding `f` in `dir` (its reduced program's with
/// `reduced`).
pub fn parts(dir: &Path, f: &FindingFile, reduced: bool) -> Result<Parts, StoreError> {
    let missing = |name: &str| StoreError::Manifest {
        path: dir.join(name),
        message: "missing".into(),
    };
    let bisection = read(dir, BISECT_FILE).and_then(|t| serde_json::from_str(&t).ok());
    let differential = Vec::new();
    let original_lines = read(dir, &f.program.file)
        .map(|s| s.lines().count())
        .unwrap_or(0);
    let has_reduced = reduced_program(dir, f.compiler.tool).is_some();
    if reduced {
        let rd = dir.join(REDUCED);
        let file = reduced_program(dir, f.compiler.tool).ok_or_else(|| missing(REDUCED))?;
        let source = read(&rd, &file).ok_or_else(|| missing(&file))?;
        let twin = reduced_twin(dir, f).and_then(|t| read(&rd, &t).map(|s| (t, s)));
        let twin_verdict = read(&rd, REDUCED_TWIN)
            .and_then(|t| serde_json::from_str::<ReducedTwin>(&t).ok())
            .map(|t| (t.verdict, t.message, t.status));
        return Ok(Parts {
            output: read(&rd, REDUCED_OUTPUT)
                .or_else(|| read(dir, "compiler-output.txt"))
                .unwrap_or_default(),
            file,
            source,
            twin,
            twin_verdict,
            differential,
            bisection,
            reduced_from: Some(original_lines),
            has_reduced,
            not_reproduced_alone: false,
        });
    }
    let source = read(dir, &f.program.file).ok_or_else(|| missing(&f.program.file))?;
    let twin = f
        .twin
        .as_ref()
        .and_then(|t| read(dir, &t.file).map(|s| (t.file.clone(), s)));
    let twin_verdict = f
        .twin
        .as_ref()
        .and_then(|t| t.verdict.clone().map(|v| (v, t.message.clone(), t.status)));
    Ok(Parts {
        file: f.program.file.clone(),
        source,
        output: read(dir, "compiler-output.txt").unwrap_or_default(),
        twin,
        twin_verdict,
        differential,
        bisection,
        reduced_from: None,
        has_reduced,
        not_reproduced_alone: not_reproduced_alone(dir),
    })
}

/// Rewrites `dir/report.md`, and `dir/reduced/report.md` when the finding is reduced, from
/// the directory's files, the run's context and the other compilers' verdicts on the
/// finding's program (`differential`).
pub fn write_reports(
    dir: &Path,
    ctx: &RunContext,
    differential: &[DiffRef],
) -> Result<(), StoreError> {
    let f = FindingFile::read(dir)?;
    let mut p = parts(dir, &f, false)?;
    p.differential = differential.to_vec();
    write_atomic(
        &dir.join("report.md"),
        &print(&blocks(&f, &p, ctx), Format::Markdown),
    )?;
    if p.has_reduced {
        let r = parts(dir, &f, true)?;
        write_atomic(
            &dir.join(REDUCED).join("report.md"),
            &print(&blocks(&f, &r, ctx), Format::Markdown),
        )?;
    }
    Ok(())
}

/// The report of a finding of `kind` by compiler `c` on `cand` (a reduced program of
/// `reduced_from` lines' finding, when given): in its run's context `run`
/// (environment, dependencies, duplicates) when there is one, else as it is first written
/// (before the run's end adds its status, environment and duplicates).
#[allow(clippy::too_many_arguments)]
pub fn report_md(
    run: Option<&RunContext>,
    reduced_from: Option<usize>,
    c: &CompilerInfo,
    kind: FindingKind,
    signature: &str,
    cand: &Candidate,
    output: &str,
    twin: Option<&Verdict>,
    differential: &[DiffRef],
) -> String {
    let f = FindingFile {
        run: None,
        signature: String::new(),
        signature_text: signature.to_string(),
        kind,
        compiler: super::records::FindingCompiler {
            tool: c.tool,
            version: c.version.clone(),
            mode: c.mode.clone(),
        },
        program: super::records::FindingProgram {
            key: cand.key.clone(),
            id: cand.id.clone(),
            mode: cand.mode.clone(),
            round: cand.round,
            file: cand.file.clone(),
            regenerate: cand.regenerate.clone(),
            record: cand.record.clone(),
        },
        expected: cand.expected,
        actual: String::new(),
        exit: None,
        twin: None,
        known: None,
        intended: None,
        cluster: None,
        status: None,
        known_disproved: None,
    };
    let twin_status = twin
        .filter(|_| twin_applies(kind))
        .map(|v| super::judge::twin_status(cand, kind, Some(v)));
    let parts = Parts {
        file: cand.file.clone(),
        source: cand.source.clone(),
        output: output.to_string(),
        twin: cand
            .twin
            .as_ref()
            .map(|t| (t.file.clone(), t.source.clone())),
        twin_verdict: twin.filter(|_| twin_applies(kind)).map(|v| {
            let message = match v {
                Verdict::Rejected { diagnostics } => Some(diagnostics.join("\n")),
                _ => None,
            };
            (v.label().to_string(), message, twin_status)
        }),
        differential: differential.to_vec(),
        bisection: None,
        reduced_from,
        has_reduced: false,
        not_reproduced_alone: false,
    };
    let manifest_less = RunContext {
        manifest: Manifest {
            tool: "thalia".into(),
            version: String::new(),
            kind: String::new(),
            identity: super::identity::RunIdentity::Check(super::identity::CheckIdentity {
                programs: String::new(),
                programs_jsonl_bytes: 0,
                programs_jsonl_hash: String::new(),
                language: c.tool.profile().language,
                compiler: c.label(),
                against: Vec::new(),
                run: false,
                shard: None,
            }),
            compiler: c.clone(),
            against: Vec::new(),
            merged: Vec::new(),
            sessions: Vec::new(),
        },
        environment: None,
        dependencies: Vec::new(),
        known: None,
    };
    print(
        &blocks(&f, &parts, run.unwrap_or(&manifest_less)),
        Format::Markdown,
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_finding_whose_reduction_could_not_reproduce_it_says_so() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(!super::not_reproduced_alone(dir.path()));
        let failed = dir.path().join(super::super::records::REDUCE_FAILED);
        std::fs::write(&failed, "the reduction ran out of compiler runs\n").expect("write");
        assert!(!super::not_reproduced_alone(dir.path()));
        std::fs::write(
            &failed,
            format!(
                "the finding does not reproduce: groovy@6.0.0 {} rejected-elsewhere-groovy-1\n",
                super::super::records::NOT_REPRODUCED_WORDS
            ),
        )
        .expect("write");
        assert!(super::not_reproduced_alone(dir.path()));
    }

    #[test]
    fn a_program_naming_only_jdk_and_language_classes_needs_no_dependency() {
        let java = "package thalia.p1;\nimport java.util.List;\nimport static java.util.Collections.emptyList;\nclass T { void t(List<String> l, short s) { java.util.function.Supplier<String> f = () -> l.remove(s); String x = \"org.foo.Bar\"; } }";
        assert!(super::uses_no_dependency(java));
        let kotlin = "import kotlin.io.walkBottomUp as w\nfun t() { val r = kotlin.collections.setOf(1u).toUIntArray(); r.size.toString() }";
        assert!(super::uses_no_dependency(kotlin));
        let scala = "import scala.collection.mutable.{ArrayBuffer}\nobject T { def t() = _root_.scala.Option(1).map(x => x) }";
        assert!(super::uses_no_dependency(scala));
    }

    #[test]
    fn a_program_naming_a_library_class_keeps_its_dependencies() {
        let imported = "import org.apache.commons.lang3.StringUtils;\nclass T { void t() { StringUtils.trim(\"\"); } }";
        assert!(!super::uses_no_dependency(imported));
        let qualified =
            "class T { void t() { String s = org.apache.commons.lang3.StringUtils.trim(\"\"); } }";
        assert!(!super::uses_no_dependency(qualified));
        let kotlin = "fun t() { val x: com.google.common.collect.ImmutableList<Int>? = null }";
        assert!(!super::uses_no_dependency(kotlin));
        // a chain on a name that never stands alone could be a package: kept
        assert!(!super::uses_no_dependency("fun t() { r.field.method() }"));
    }

    use super::*;

    #[test]
    fn absolute_paths_are_scrubbed_and_the_rest_kept() {
        let cases = [
            (
                "/tmp/w/x/Test_p1.groovy: 5: [Static type checking] - Cannot find java.util.List",
                "Test_p1.groovy: 5: [Static type checking] - Cannot find java.util.List",
            ),
            (
                "file:///root/.cache/run/w0/src/Test_p2.groovy: 3: x",
                "Test_p2.groovy: 3: x",
            ),
            (
                "/home/u/a.jar:/home/u/b.jar and a/b/c relative",
                "a.jar:b.jar and a/b/c relative",
            ),
            (
                "at java.base/java.util.ArrayList.forEach(ArrayList.java:1) x / y https://example.org/i/1",
                "at java.base/java.util.ArrayList.forEach(ArrayList.java:1) x / y https://example.org/i/1",
            ),
            (
                "thalia synth --api '/srv/x/api json' --seed 1",
                "thalia synth --api 'api json' --seed 1",
            ),
            // a run given as a relative directory (`--out g4011`)
            (
                "g4011/work/w0/src/Test_p016742.groovy: 6: Method clone is protected",
                "Test_p016742.groovy: 6: Method clone is protected",
            ),
            (
                "x k2421/work/w1/twin-src/Test_p1.java:6: error",
                "x Test_p1.java:6: error",
            ),
            // the recheck's directory in a relative run (`finding.json`'s release checks)
            (
                "k1821b/.recheck-4FKeqD/r4-0/b0/T.kt:4:480: error: this class",
                "T.kt:4:480: error: this class",
            ),
            (
                "k1821b/.finalize-KCEKkt/own/b0/Test_p1.kt:4:296: error: type mismatch",
                "Test_p1.kt:4:296: error: type mismatch",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(scrub(input), want, "{input}");
        }
    }

    #[test]
    fn names_shorten_to_their_class() {
        assert_eq!(
            simple_names("java.util.List<java.lang.String> to java.io.Serializable"),
            "List<String> to Serializable"
        );
        assert_eq!(simple_names("java.util.List#add(int)"), "List#add(int)");
    }

    #[test]
    fn jira_and_markdown_print_the_same_blocks() {
        let b = vec![
            Block::Title("A * title".into()),
            Block::Heading("Program".into()),
            Block::Para(vec![
                text("calls "),
                code("m()"),
                text(" "),
                bold("Expected:"),
            ]),
            Block::Code("groovy".into(), "class A {}\n".into()),
            Block::Code(String::new(), "out".into()),
            Block::List(vec![vec![text("a")]]),
        ];
        let md = print(&b, Format::Markdown);
        assert!(md.starts_with("# A * title\n"), "{md}");
        assert!(md.contains("calls `m()` **Expected:**"), "{md}");
        assert!(md.contains("```groovy\nclass A {}\n```"), "{md}");
        let jira = print(&b, Format::Jira);
        assert!(jira.starts_with("h1. A \\* title\n"), "{jira}");
        assert!(jira.contains("h2. Program"), "{jira}");
        assert!(jira.contains("calls {{m()}} *Expected:*"), "{jira}");
        assert!(jira.contains("{code:groovy}\nclass A {}\n{code}"), "{jira}");
        assert!(jira.contains("{noformat}\nout\n{noformat}"), "{jira}");
        assert!(jira.contains("* a\n"), "{jira}");
    }

    #[test]
    fn a_bold_label_keeps_its_trailing_space_outside_the_markers() {
        let b = vec![Block::Para(vec![bold("Status: "), text("open")])];
        // `**Status: **` would not render bold: a closing marker cannot follow a space
        assert_eq!(print(&b, Format::Markdown), "**Status:** open\n");
        assert_eq!(print(&b, Format::Jira), "*Status:* open\n");
    }
}
