//! Known findings: compiler bugs already confirmed, recorded in a data file so that a campaign
//! labels their findings `known` (with the entry's id), keeps them apart from new findings, and
//! never reports them again as new. The generator never avoids a known bug: it keeps producing
//! the shapes that trigger it, and this list recognizes them.
//!
//! The repository's list (`known-findings/known-findings.toml`) is compiled into the binary
//! ([`EMBEDDED`]); `--known FILE` adds a user's own entries in the same format.
//!
//! An entry matches a finding when its compiler is the finding's, the finding's release is not
//! one the entry lists as unaffected, its kind (when given) is the finding's, one of its
//! signature patterns matches the finding's deduplication signature text, and every further
//! facet it gives matches too (the member under test, the first diagnostic, the program's
//! source, the broken position, whether that position's declared type mentions one of the
//! member's own type variables). Patterns are globs: `*` stands for any text (line breaks
//! included), everything else is literal, and a pattern matches the whole text.
//!
//! A match by patterns is a guess; a finding is labelled only on evidence ([`Evidence`]): the
//! entry's own program, compiled with the finding's release, must show the bug the same way
//! ([`confirms`]: the same kind, and for a rejection or a crash the same signature). The
//! first entry in file order that matches and is confirmed gives the label.

use std::path::{Path, PathBuf};

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::finding::FindingKind;
use crate::synth::ProgramRecord;

/// The repository's known-findings file, compiled into the binary.
pub const EMBEDDED: &str = include_str!("../../known-findings/known-findings.toml");

/// The folder of the directories of known findings in a run directory.
pub const KNOWN: &str = "known";

/// The longest pattern accepted in a known-findings file (characters): a glob longer than
/// this is a mistake, not a signature.
pub const MAX_PATTERN_CHARS: usize = 4096;

/// One known compiler bug.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownEntry {
    /// A short, stable id (`RB9`).
    pub id: String,
    /// The compiler's name (`groovy`, `kotlin`, ...).
    pub compiler: String,
    /// A one-line title.
    pub title: String,
    /// The kind of the findings it makes, when only one.
    #[serde(default)]
    pub kind: Option<FindingKind>,
    /// Globs over the finding's signature text (`groovy unexpected-rejection: ...`).
    pub signatures: Vec<String>,
    /// Globs over the member under test (as `programs.jsonl` prints it).
    #[serde(default)]
    pub members: Vec<String>,
    /// Globs over the first diagnostic (or a crash's output).
    #[serde(default)]
    pub diagnostics: Vec<String>,
    /// Globs over the program's source.
    #[serde(default)]
    pub sources: Vec<String>,
    /// Globs over the broken position of an ill-typed program, written
    /// `POSITION: ACTUAL for FORMAL` (`arg0: java.lang.Object for java.lang.String[]`).
    #[serde(default)]
    pub broken: Vec<String>,
    /// Whether the broken position's declared type must mention (true) or must not mention
    /// (false) one of the member's own type variables.
    #[serde(default)]
    pub generic_position: Option<bool>,
    /// A minimal program showing the bug.
    #[serde(default)]
    pub program: String,
    /// The same program in Java (javac's reading), when there is one.
    #[serde(default)]
    pub java: Option<String>,
    /// The Maven coordinates (`group:artifact:version`) of the libraries the program needs
    /// besides the campaign's classpath, resolved when it is compiled as evidence.
    #[serde(default)]
    pub libraries: Vec<String>,
    /// Releases known to have the bug.
    #[serde(default)]
    pub affected: Vec<String>,
    /// Releases known not to have it (a finding of such a release is not this entry).
    #[serde(default)]
    pub unaffected: Vec<String>,
    /// The tracker issue, when filed.
    #[serde(default)]
    pub tracker: Option<String>,
    /// Anything else worth knowing.
    #[serde(default)]
    pub note: String,
}

/// A known-findings file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFile {
    /// Its entries.
    #[serde(default, rename = "finding")]
    pub findings: Vec<KnownEntry>,
}

/// A known-findings file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum KnownError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a known-findings file.
    #[error("{origin}: not a known-findings file: {message}")]
    Malformed {
        /// The file (or `embedded`).
        origin: String,
        /// What is wrong.
        message: String,
    },
}

/// What a known entry is matched against: one finding.
#[derive(Clone, Copy, Debug)]
pub struct FindingFacts<'a> {
    /// The compiler's name.
    pub compiler: &'a str,
    /// Its version.
    pub version: &'a str,
    /// The finding's kind.
    pub kind: FindingKind,
    /// Its signature text.
    pub signature: &'a str,
    /// The first diagnostic (or the crash output), if any.
    pub diagnostic: Option<&'a str>,
    /// The program's source.
    pub source: &'a str,
    /// The program's record.
    pub record: &'a ProgramRecord,
}

/// A known entry with its patterns compiled.
#[derive(Clone, Debug)]
struct Compiled {
    entry: KnownEntry,
    signatures: Vec<Regex>,
    members: Vec<Regex>,
    diagnostics: Vec<Regex>,
    sources: Vec<Regex>,
    broken: Vec<Regex>,
}

/// Known findings, ready to match.
#[derive(Clone, Debug, Default)]
pub struct KnownSet {
    entries: Vec<Compiled>,
}

/// A glob (`*` = any text) as an anchored regular expression (`origin` and `id` name the
/// file and entry in errors).
pub(crate) fn glob(pattern: &str, origin: &str, id: &str) -> Result<Regex, KnownError> {
    if pattern.chars().count() > MAX_PATTERN_CHARS {
        return Err(KnownError::Malformed {
            origin: origin.into(),
            message: format!("{id}: a pattern is longer than {MAX_PATTERN_CHARS} characters"),
        });
    }
    let body: Vec<String> = pattern.split('*').map(regex::escape).collect();
    Regex::new(&format!("(?s)^{}$", body.join(".*"))).map_err(|e| KnownError::Malformed {
        origin: origin.into(),
        message: format!("{id}: pattern `{pattern}`: {e}"),
    })
}

/// True when no pattern is given or one matches.
pub(crate) fn any(patterns: &[Regex], text: &str) -> bool {
    patterns.is_empty() || patterns.iter().any(|p| p.is_match(text))
}

impl KnownSet {
    /// The embedded list.
    pub fn embedded() -> Result<KnownSet, KnownError> {
        let mut set = KnownSet::default();
        set.add_text(EMBEDDED, "embedded known-findings.toml")?;
        Ok(set)
    }

    /// Adds the entries of the file at `path`.
    pub fn add_file(&mut self, path: &Path) -> Result<(), KnownError> {
        let text = std::fs::read_to_string(path).map_err(|source| KnownError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        self.add_text(&text, &path.display().to_string())
    }

    /// Adds the entries of a known-findings file's text (`origin` names it in errors).
    pub fn add_text(&mut self, text: &str, origin: &str) -> Result<(), KnownError> {
        let file: KnownFile = toml::from_str(text).map_err(|e| KnownError::Malformed {
            origin: origin.into(),
            message: e.to_string(),
        })?;
        for entry in file.findings {
            let id = entry.id.clone();
            if id.trim().is_empty() {
                return Err(KnownError::Malformed {
                    origin: origin.into(),
                    message: "an entry without an id".into(),
                });
            }
            if entry.signatures.is_empty() {
                return Err(KnownError::Malformed {
                    origin: origin.into(),
                    message: format!("{id}: no signature pattern"),
                });
            }
            if crate::toolchain::Tool::from_name(&entry.compiler).is_none() {
                return Err(KnownError::Malformed {
                    origin: origin.into(),
                    message: format!("{id}: unknown compiler `{}`", entry.compiler),
                });
            }
            let all = |ps: &[String]| {
                ps.iter()
                    .map(|p| glob(p, origin, &id))
                    .collect::<Result<Vec<_>, _>>()
            };
            let compiled = Compiled {
                signatures: all(&entry.signatures)?,
                members: all(&entry.members)?,
                diagnostics: all(&entry.diagnostics)?,
                sources: all(&entry.sources)?,
                broken: all(&entry.broken)?,
                entry,
            };
            // a later file's entry of the same id replaces the earlier one
            self.entries.retain(|c| c.entry.id != id);
            self.entries.push(compiled);
        }
        Ok(())
    }

    /// The entries, in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = &KnownEntry> {
        self.entries.iter().map(|c| &c.entry)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The first entry that matches the finding by its patterns, if any.
    pub fn find(&self, f: &FindingFacts<'_>) -> Option<&KnownEntry> {
        self.candidates(f).into_iter().next()
    }

    /// Every entry that matches the finding by its patterns, in file order: the candidates
    /// that evidence then confirms or not.
    pub fn candidates(&self, f: &FindingFacts<'_>) -> Vec<&KnownEntry> {
        let compiler = crate::toolchain::Tool::from_name(f.compiler);
        self.entries
            .iter()
            .filter(|c| {
                let e = &c.entry;
                crate::toolchain::Tool::from_name(&e.compiler) == compiler
                    && !e.unaffected.iter().any(|v| v == f.version)
                    && e.kind.is_none_or(|k| k == f.kind)
                    && c.signatures.iter().any(|p| p.is_match(f.signature))
                    && any(&c.members, &f.record.member)
                    && (c.diagnostics.is_empty() || any(&c.diagnostics, f.diagnostic.unwrap_or("")))
                    && any(&c.sources, f.source)
                    && (c.broken.is_empty() || any(&c.broken, &broken_text(f.record)))
                    && e.generic_position
                        .is_none_or(|want| generic_position(f.record) == Some(want))
            })
            .map(|c| &c.entry)
            .collect()
    }

    /// The entries of the finding's family: of its compiler and kind, with a signature pattern
    /// that matches its signature text, whatever the other facets say (possible duplicates
    /// to look at before filing).
    pub fn family(&self, compiler: &str, kind: FindingKind, signature: &str) -> Vec<&KnownEntry> {
        let compiler = crate::toolchain::Tool::from_name(compiler);
        self.entries
            .iter()
            .filter(|c| {
                crate::toolchain::Tool::from_name(&c.entry.compiler) == compiler
                    && c.entry.kind.is_none_or(|k| k == kind)
                    && c.signatures.iter().any(|p| p.is_match(signature))
            })
            .map(|c| &c.entry)
            .collect()
    }
}

impl KnownEntry {
    /// What a compiler must do with the entry's program: reject it for an entry of
    /// unexpected acceptances, accept it otherwise (a rejection, a crash or a timeout is the
    /// bug).
    pub fn expected(&self) -> crate::synth::Expected {
        match self.kind {
            Some(FindingKind::UnexpectedAcceptance) => crate::synth::Expected::Reject,
            _ => crate::synth::Expected::Accept,
        }
    }

    /// A hash of what the entry's evidence depends on (its program, kind and libraries).
    pub fn evidence_key(&self) -> String {
        let text = format!(
            "{}\n{:?}\n{}",
            self.program,
            self.kind,
            self.libraries.join(",")
        );
        format!("{:016x}", crate::hash::fnv1a64(text.as_bytes()))
    }
}

/// What a known entry's own program gave with one compiler release: the evidence a label
/// rests on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryVerdict {
    /// The entry's [`KnownEntry::evidence_key`] when it was compiled.
    pub key: String,
    /// The verdict (`accepted`, `rejected`, `crash`, `timeout`), when it could be compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// The finding the verdict makes against the entry's expectation: the bug shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<FindingKind>,
    /// Its signature text, for a rejection or a crash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The first diagnostic (or the crash output), shortened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostic: Option<String>,
    /// Why the program could not be compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl EntryVerdict {
    /// Whether the entry's program shows its bug on this release.
    pub fn shows(&self) -> bool {
        self.kind.is_some()
    }
}

/// The part of a signature text after its kind (`groovy unexpected-rejection: X` → `X`).
fn signature_detail(text: &str) -> &str {
    text.split_once(": ").map_or(text, |(_, d)| d)
}

/// Whether the entry's verdict `ev` on the finding's release confirms that a finding of `kind`
/// with signature text `signature` is the entry's bug: the entry's program shows a finding of
/// the same kind, and for a rejection or a crash (whose signature is the compiler's message
/// or stack) with the same signature detail. An acceptance's signature is the shape of the
/// injected fault, which an entry's program has no record of: the entry's patterns stand
/// for it.
pub fn confirms(ev: &EntryVerdict, kind: FindingKind, signature: &str) -> bool {
    ev.kind == Some(kind)
        && match kind {
            FindingKind::UnexpectedRejection
            | FindingKind::RejectedElsewhere
            | FindingKind::Crash => ev
                .signature
                .as_deref()
                .is_some_and(|s| signature_detail(s) == signature_detail(signature)),
            FindingKind::UnexpectedAcceptance
            | FindingKind::Performance
            | FindingKind::Miscompilation
            | FindingKind::Unsoundness => true,
        }
}

/// Where the evidence for known labels comes from: each entry's own program compiled with a
/// compiler release (`tool@version`, or `tool@version:variant`), computed when first asked
/// and kept. `None`: no evidence can be had (the program could not be compiled at all).
pub trait Evidence: Send + Sync {
    /// The verdict of `entry`'s program with the compiler `label`.
    fn verdict(&self, entry: &KnownEntry, label: &str) -> Option<EntryVerdict>;
}

/// No evidence: nothing is labelled known.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEvidence;

impl Evidence for NoEvidence {
    fn verdict(&self, _: &KnownEntry, _: &str) -> Option<EntryVerdict> {
        None
    }
}

/// The broken position of a record as `POSITION: ACTUAL for FORMAL` (empty when none).
pub fn broken_text(r: &ProgramRecord) -> String {
    r.broken
        .as_ref()
        .map(|b| format!("{}: {} for {}", b.position, b.actual, b.formal))
        .unwrap_or_default()
}

/// Splits `s` at the commas outside `<...>`, `(...)` and `[...]`.
fn split_top(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// The identifiers of a printed type (qualified names whole; a varargs `T...` is `T`).
fn idents(t: &str) -> impl Iterator<Item = &str> {
    t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.is_empty())
}

/// Whether the declared type at the broken position of `r` mentions one of the member's own
/// type variables (read from the member as printed: `static <T> T[] a.B.m(T[], int)`); `None`
/// when the record has no broken position or the member cannot be read.
pub fn generic_position(r: &ProgramRecord) -> Option<bool> {
    let b = r.broken.as_ref()?;
    let m = r.member.trim();
    let m = m.strip_prefix("static ").unwrap_or(m);
    let (vars, rest): (Vec<&str>, &str) = match m.strip_prefix('<') {
        Some(after) => {
            let mut depth = 1;
            let end = after.char_indices().find_map(|(i, c)| {
                match c {
                    '<' => depth += 1,
                    '>' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(i)
            })?;
            let vars = split_top(&after[..end])
                .into_iter()
                .filter_map(|v| v.split_whitespace().next())
                .collect();
            (vars, after[end + 1..].trim_start())
        }
        None => (Vec::new(), m),
    };
    let open = rest.find('(')?;
    let close = rest.rfind(')')?;
    let declared = if b.position == "result" {
        // the return type is the text before the qualified name
        let head = &rest[..open];
        head.rsplit_once(' ').map(|(ret, _)| ret)?
    } else if let Some(i) = b.position.strip_prefix("arg") {
        let i: usize = i.parse().ok()?;
        let params = split_top(rest.get(open + 1..close)?);
        params.get(i).copied()?
    } else {
        return Some(false);
    };
    Some(idents(declared).any(|w| vars.contains(&w)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::signature::signature;
    use crate::compile::Verdict;
    use crate::toolchain::Tool;
    use serde_json::json;

    fn record(fields: serde_json::Value) -> ProgramRecord {
        let mut base = json!({
            "id": "p000000", "file": "", "member": "", "class": "", "kind": "method",
            "typing_sequence": {"receiver": null, "args": [], "result": null},
            "substitution": {}, "mode": "well-typed", "expected": "accept",
            "broken": null, "erased": false
        });
        if let (Some(b), Some(f)) = (base.as_object_mut(), fields.as_object()) {
            for (k, v) in f {
                b.insert(k.clone(), v.clone());
            }
        }
        serde_json::from_value(base).expect("a program record")
    }

    /// The id of the embedded entry that a groovyc 4.0.11 rejection with `diagnostic` of a
    /// program `source` matches.
    fn rejection(diagnostic: &str, member: &str, source: &str) -> Option<String> {
        let set = KnownSet::embedded().expect("the embedded list parses");
        let rec = record(json!({"member": member}));
        let verdict = Verdict::Rejected {
            diagnostics: vec![diagnostic.to_string()],
        };
        let kind = FindingKind::UnexpectedRejection;
        let sig = signature(Tool::Groovy, kind, &verdict, &rec);
        set.find(&FindingFacts {
            compiler: "groovy",
            version: "4.0.11",
            kind,
            signature: &sig.text,
            diagnostic: Some(diagnostic),
            source,
            record: &rec,
        })
        .map(|e| e.id.clone())
    }

    #[test]
    fn the_embedded_list_holds_the_fourteen_groovyc_causes() {
        let set = KnownSet::embedded().expect("the embedded list parses");
        let ids: Vec<&str> = set.entries().map(|e| e.id.as_str()).collect();
        for id in [
            "RB1", "RB2", "RB3a", "RB3b", "RB4", "RB5", "RB6", "RB7", "RB8", "RB9", "RB11", "RB12",
            "RB13", "RB14", "RB15", "RB16", "RB17",
        ] {
            assert!(ids.contains(&id), "{id} missing from {ids:?}");
        }
        for e in set.entries() {
            assert!(!e.program.trim().is_empty(), "{}: no program", e.id);
            assert!(!e.affected.is_empty(), "{}: no affected release", e.id);
        }
    }

    #[test]
    fn real_groovyc_rejections_match_their_cause() {
        // groovyc 4.0.11's own messages on the minimal programs of `known-findings/`
        let cases = [
            ("Main.groovy: 2: [Static type checking] - Cannot assign value of type java.time.DayOfWeek[] to variable of type java.lang.Cloneable\n @ line 2, column 59.", "", "", Some("RB4")),
            ("Main.groovy: 2: [Static type checking] - Cannot assign value of type int[] to variable of type java.io.Serializable\n @ line 2, column 60.", "", "", Some("RB4")),
            // an array to an unrelated interface is rightly rejected
            ("Main.groovy: 2: [Static type checking] - Cannot assign value of type int[] to variable of type java.lang.Runnable\n @ line 2, column 60.", "", "", None),
            ("Main.groovy: 2: [Static type checking] - Cannot call java.util.EnumMap#<init>(java.util.EnumMap<java.time.DayOfWeek, ? extends java.util.List<java.lang.String>>) with arguments [java.util.EnumMap<java.time.DayOfWeek, java.lang.Object>]\n @ line 2, column 102.", "new java.util.EnumMap<K,V>(java.util.EnumMap<K, ? extends V>)", "new java.util.EnumMap<>(x)", Some("RB7")),
            ("Main.groovy: 2: [Static type checking] - Incompatible generic argument types. Cannot assign java.util.concurrent.Callable<java.lang.String> to: java.util.concurrent.Callable<java.lang.CharSequence>\n @ line 2, column 83.", "static <T> java.util.concurrent.Callable<T> java.util.concurrent.Executors.callable(java.lang.Runnable, T)", "", Some("RB8")),
            ("Main.groovy: 2: [Static type checking] - Cannot assign value of type java.lang.Object to variable of type java.lang.Integer\n @ line 2, column 189.", "V com.google.common.collect.TreeBasedTable.get(java.lang.Object, java.lang.Object)", "", Some("RB3b")),
            ("Main.groovy: 2: [Static type checking] - Cannot call <E> java.util.List#of(E, E) with arguments [java.util.ArrayList<java.lang.String>, java.util.ArrayList<java.lang.Integer>]\n @ line 2, column 81.", "static <E> java.util.List<E> java.util.List.of(E, E)", "java.util.List.<java.util.AbstractList<?>>of(a, b)", Some("RB5")),
            ("Main.groovy: 2: [Static type checking] - Cannot call <E extends java.lang.Comparable<? super E>> com.google.common.collect.ImmutableSortedSet#of(E, E) with arguments [java.time.DayOfWeek, java.time.DayOfWeek]\n @ line 2, column 105.", "static <E extends java.lang.Comparable<? super E>> com.google.common.collect.ImmutableSortedSet<E> com.google.common.collect.ImmutableSortedSet.of(E, E)", "", Some("RB6")),
            ("Main.groovy: 3: [Static type checking] - Cannot call <E> Main#m(java.util.function.Predicate<? super E>, java.util.function.Consumer<? super E>) with arguments [java.util.function.Predicate<java.lang.Object>, java.util.function.Consumer<java.lang.String>]\n @ line 3, column 24.", "static <E> void a.B.m(java.util.function.Predicate<? super E>, java.util.function.Consumer<? super E>)", "", Some("RB12")),
            ("Main.groovy: 4: [Static type checking] - Cannot call <K,V> Main#dm(java.util.Map<K, V>, java.util.function.Function<? super K, ? extends V>) with arguments [java.util.Map<java.lang.Integer, java.util.function.UnaryOperator<java.lang.String>>, java.util.function.UnaryOperator<java.lang.String>]\n @ line 4, column 99.", "static <K, V> void a.B.dm(java.util.Map<K,V>, java.util.function.Function<? super K,? extends V>)", "", Some("RB11")),
            // groovyc 5.1.3 on known-findings/programs/groovyc/V3-*
            ("Main.groovy: 6: [Static type checking] - Cannot return value of type boolean for lambda expecting java.lang.String\n @ line 6, column 55.", "E java.util.List.remove(int)", "java.util.function.Supplier<String> f = () -> l.remove(s)", Some("RB17")),
            // the same message for another call is not RB17
            ("Main.groovy: 6: [Static type checking] - Cannot return value of type boolean for lambda expecting java.lang.String\n @ line 6, column 55.", "boolean java.util.Set.add(E)", "java.util.function.Supplier<String> f = () -> l.add(s)", None),
            // char widening is Groovy's language, not a known bug
            ("Main.groovy: 2: [Static type checking] - Cannot find matching method java.lang.String#charAt(char). Please check if the declared type is correct and if the method exists.\n @ line 2, column 59.", "char java.lang.String.charAt(int)", "", None),
        ];
        for (diagnostic, member, source, want) in cases {
            assert_eq!(
                rejection(diagnostic, member, source).as_deref(),
                want,
                "{diagnostic}"
            );
        }
    }

    #[test]
    fn acceptances_match_by_member_and_position() {
        let set = KnownSet::embedded().expect("the embedded list parses");
        let accepted = |member: &str, position: &str, formal: &str, actual: &str, subst: bool| {
            let rec = record(json!({
                "member": member, "mode": "ill-typed", "expected": "reject",
                "substitution": if subst { json!({"E": "java.lang.String"}) } else { json!({}) },
                "broken": {"position": position, "formal": formal, "actual": actual},
            }));
            let kind = FindingKind::UnexpectedAcceptance;
            let sig = signature(Tool::Groovy, kind, &Verdict::Accepted, &rec);
            set.find(&FindingFacts {
                compiler: "groovy",
                version: "4.0.11",
                kind,
                signature: &sig.text,
                diagnostic: None,
                source: "",
                record: &rec,
            })
            .map(|e| e.id.clone())
        };
        assert_eq!(
            accepted(
                "static <E> java.util.concurrent.atomic.AtomicReferenceArray<E> com.google.common.util.concurrent.Atomics.newReferenceArray(E[])",
                "arg0", "java.lang.String[]", "java.lang.Object", true
            )
            .as_deref(),
            Some("RB9")
        );
        // a parameter that does not mention the method's type variable is not RB9
        assert_eq!(
            accepted(
                "static <E> java.util.List<E> a.B.m(E, java.lang.String)",
                "arg1",
                "java.lang.String",
                "java.lang.Object",
                true
            ),
            None
        );
        assert_eq!(
            accepted(
                "int java.time.LocalDate.compareTo(java.time.chrono.ChronoLocalDate)",
                "arg0",
                "java.time.chrono.ChronoLocalDate",
                "java.io.Console",
                false
            )
            .as_deref(),
            Some("RB2")
        );
    }

    #[test]
    fn the_shapes_of_the_v1_and_v2_programs_match_rb15_and_rb16() {
        let set = KnownSet::embedded().expect("the embedded list parses");
        let id = |rec: &ProgramRecord| {
            let kind = FindingKind::UnexpectedAcceptance;
            let sig = signature(Tool::Groovy, kind, &Verdict::Accepted, rec);
            let found = set
                .find(&FindingFacts {
                    compiler: "groovy",
                    version: "5.1.3",
                    kind,
                    signature: &sig.text,
                    diagnostic: None,
                    source: "",
                    record: rec,
                })
                .map(|e| e.id.clone());
            (sig.text, found)
        };
        // V1: `Function<Thread, List<Integer>> f = aForwardingListMultimap::get`
        let mut v1 = record(json!({
            "member": "java.util.List<V> com.google.common.collect.ForwardingListMultimap.get(K)",
            "mode": "ill-typed", "expected": "reject",
            "substitution": {"K": "java.lang.String", "V": "java.lang.Integer"},
            "broken": {"position": "arg0", "formal": "java.lang.String", "actual": "java.lang.Thread"},
        }));
        v1.shape.wrapped = Some("reference".into());
        let (text, found) = id(&v1);
        assert_eq!(
            text,
            "groovy unexpected-acceptance: argument of a polymorphic method with explicit types, class given class, as a reference"
        );
        assert_eq!(found.as_deref(), Some("RB15"), "{text}");
        // V2: `m(aThread, 2L)` for `<T> m(T, Comparable<T>, Object...)`
        let v2 = record(json!({
            "member": "static <T> void a.B.m(T, java.lang.Comparable<T>, java.lang.Object...)",
            "mode": "ill-typed", "expected": "reject", "erased": true,
            "substitution": {"T": "java.lang.Thread"},
            "broken": {"position": "arg1", "formal": "java.lang.Comparable<java.lang.Thread>", "actual": "java.lang.Long"},
        }));
        let (text, found) = id(&v2);
        assert_eq!(
            text,
            "groovy unexpected-acceptance: argument of a polymorphic method with erased type arguments, generic given class"
        );
        assert_eq!(found.as_deref(), Some("RB16"), "{text}");
        // without the varargs tail it is not RB16
        let mut plain = v2.clone();
        plain.member = "static <T> void a.B.m(T, java.lang.Comparable<T>)".into();
        assert_ne!(id(&plain).1.as_deref(), Some("RB16"));
    }

    #[test]
    fn evidence_confirms_the_same_kind_and_for_messages_the_same_signature() {
        let ev = |kind: Option<FindingKind>, sig: Option<&str>| EntryVerdict {
            key: String::new(),
            verdict: Some("rejected".into()),
            kind,
            signature: sig.map(str::to_string),
            diagnostic: None,
            error: None,
        };
        let r = FindingKind::UnexpectedRejection;
        let a = FindingKind::UnexpectedAcceptance;
        let sig = "groovy unexpected-rejection: [Static type checking] - X T";
        assert!(confirms(&ev(Some(r), Some(sig)), r, sig));
        assert!(!confirms(
            &ev(Some(r), Some("groovy unexpected-rejection: Y")),
            r,
            sig
        ));
        // the entry's program no longer shows its bug on this release
        assert!(!confirms(&ev(None, None), r, sig));
        assert!(!confirms(
            &ev(None, None),
            a,
            "groovy unexpected-acceptance: z"
        ));
        // an acceptance: the kind is what an entry's program can show
        assert!(confirms(
            &ev(Some(a), None),
            a,
            "groovy unexpected-acceptance: z"
        ));
        assert!(!confirms(
            &ev(Some(r), Some(sig)),
            a,
            "groovy unexpected-acceptance: z"
        ));
    }

    #[test]
    fn unaffected_releases_and_other_compilers_do_not_match() {
        let set = KnownSet::embedded().expect("the embedded list parses");
        let rb4 = set.entries().find(|e| e.id == "RB4").expect("RB4").clone();
        let d = "Main.groovy: 2: [Static type checking] - Cannot assign value of type int[] to variable of type java.io.Serializable";
        let rec = record(json!({}));
        let verdict = Verdict::Rejected {
            diagnostics: vec![d.into()],
        };
        let kind = FindingKind::UnexpectedRejection;
        let sig = signature(Tool::Groovy, kind, &verdict, &rec);
        let facts = |compiler: &'static str, version: &'static str| FindingFacts {
            compiler,
            version,
            kind,
            signature: &sig.text,
            diagnostic: Some(d),
            source: "",
            record: &rec,
        };
        assert!(set.find(&facts("groovy", "4.0.11")).is_some());
        assert!(set.find(&facts("groovyc", "4.0.11")).is_some(), "aliases");
        assert!(set.find(&facts("kotlin", "4.0.11")).is_none());
        let mut own = KnownSet::default();
        let mut entry = rb4;
        entry.unaffected = vec!["9.9.9".into()];
        let text = toml::to_string(&KnownFile {
            findings: vec![entry],
        })
        .expect("serializes");
        own.add_text(&text, "test").expect("round-trips");
        assert!(own.find(&facts("groovy", "9.9.9")).is_none());
        assert!(own.find(&facts("groovy", "4.0.11")).is_some());
    }

    #[test]
    fn malformed_files_are_clear_errors() {
        let mut set = KnownSet::default();
        for (text, needle) in [
            ("[[finding]]\nid = 'X'\ncompiler = 'groovy'\ntitle = 't'\nsignatures = []\n", "no signature pattern"),
            ("[[finding]]\nid = 'X'\ncompiler = 'cobol'\ntitle = 't'\nsignatures = ['*']\n", "unknown compiler"),
            ("[[finding]]\nid = 'X'\ncompiler = 'groovy'\ntitle = 't'\nsignatures = ['*']\nsignature = 'typo'\n", "unknown field"),
            ("not toml [", "not a known-findings file"),
        ] {
            let e = set.add_text(text, "f.toml").expect_err(text).to_string();
            assert!(e.contains(needle) && e.contains("f.toml"), "{e}");
        }
    }

    #[test]
    fn generic_positions_are_read_from_the_member() {
        let r = |member: &str, position: &str| {
            record(json!({"member": member,
                "broken": {"position": position, "formal": "", "actual": ""}}))
        };
        let m = "static <T, U extends java.util.Map<T,U>> java.util.List<U> a.B.m(T[], int, java.util.Map<java.lang.String,U>)";
        assert_eq!(generic_position(&r(m, "arg0")), Some(true));
        assert_eq!(generic_position(&r(m, "arg1")), Some(false));
        assert_eq!(generic_position(&r(m, "arg2")), Some(true));
        assert_eq!(generic_position(&r(m, "result")), Some(true));
        assert_eq!(generic_position(&r(m, "arg3")), None);
        // varargs
        let v = "static <T> T[] a.B.insert(int, T[], T...)";
        assert_eq!(generic_position(&r(v, "arg2")), Some(true));
        assert_eq!(generic_position(&r(v, "arg0")), Some(false));
        let plain = "java.util.List<E> a.B.m(E)";
        assert_eq!(generic_position(&r(plain, "arg0")), Some(false));
    }
}
