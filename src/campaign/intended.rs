//! Intended language changes: disagreements between two releases (or variants) of one
//! compiler that its makers meant, listed in a data file with a reason each. A campaign with
//! `--against` labels the differential findings that match an entry `intended` (with the
//! entry's id), keeps them in `intended/` and counts them apart from the bugs: a documented
//! change of the language is not a regression.
//!
//! The repository's list (`known-findings/intended-changes.toml`) is compiled into the binary
//! ([`EMBEDDED`]); `--intended FILE` adds a user's own entries in the same format.
//!
//! An entry matches a disagreement when its compiler is the disagreeing compilers', one of
//! them is in its `before` releases and the other in its `after` releases, and the finding
//! of the side that got the program wrong matches its patterns (the same globs as
//! [`super::known`]: signature text, and optionally the kind, member under test and first
//! diagnostic).
//!
//! A release pattern is `RELEASES[:VARIANT]`: `RELEASES` is a Maven version range
//! (`[2.0,)`, `[1.9,2.0)`), a glob over the version (`2.1.*`, `*`) or empty (any release);
//! `:VARIANT` is a glob over the `--against` variant (`:k1`, `:*`). Without `:VARIANT` the
//! pattern matches only a compiler run as it is (no variant).

use std::path::{Path, PathBuf};

use regex::Regex;
use serde::{Deserialize, Serialize};
use thalia_extractors::maven::version::{is_range, VersionRange};

use super::finding::FindingKind;
use super::known::{any, glob};

/// The repository's intended-changes file, compiled into the binary.
pub const EMBEDDED: &str = include_str!("../../known-findings/intended-changes.toml");

/// The folder of the directories of intended changes' findings in a run directory.
pub const INTENDED: &str = "intended";

/// One intended change of a compiler's language.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntendedEntry {
    /// A short, stable id (`K2-AMBIGUITY-CME`).
    pub id: String,
    /// The compiler's name (`kotlin`, `groovy`, ...).
    pub compiler: String,
    /// Release patterns of the behaviour before the change (`(,2.0)`, `*:k1`).
    pub before: Vec<String>,
    /// Release patterns of the behaviour after it (`[2.0,)`, `*:k2`).
    pub after: Vec<String>,
    /// Globs over the signature text of the wrong side's finding
    /// (`kotlin unexpected-rejection: ...`).
    pub signatures: Vec<String>,
    /// The kind of the wrong side's finding, when only one.
    #[serde(default)]
    pub kind: Option<FindingKind>,
    /// Globs over the member under test (as `programs.jsonl` prints it).
    #[serde(default)]
    pub members: Vec<String>,
    /// Globs over the wrong side's first diagnostic.
    #[serde(default)]
    pub diagnostics: Vec<String>,
    /// Why the disagreement is intended (required).
    pub reason: String,
    /// Where the change is documented.
    #[serde(default)]
    pub link: Option<String>,
}

/// An intended-changes file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntendedFile {
    /// Its entries.
    #[serde(default, rename = "change")]
    pub changes: Vec<IntendedEntry>,
}

/// An intended-changes file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum IntendedError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not an intended-changes file.
    #[error("{origin}: not an intended-changes file: {message}")]
    Malformed {
        /// The file (or `embedded`).
        origin: String,
        /// What is wrong (naming the entry).
        message: String,
    },
}

/// One compiler of a disagreement.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    /// Its version.
    pub version: &'a str,
    /// Its variant (`k1`), if any.
    pub variant: Option<&'a str>,
}

/// What an intended change is matched against: a disagreement on one program.
#[derive(Clone, Copy, Debug)]
pub struct DisagreementFacts<'a> {
    /// The compilers' name.
    pub compiler: &'a str,
    /// One side (the compiler under test).
    pub primary: Side<'a>,
    /// The other side (the `--against` compiler).
    pub other: Side<'a>,
    /// The kind of the wrong side's finding.
    pub kind: FindingKind,
    /// The wrong side's signature text.
    pub signature: &'a str,
    /// The member under test.
    pub member: &'a str,
    /// The wrong side's first diagnostic (or crash output), if any.
    pub diagnostic: Option<&'a str>,
}

/// A release pattern, compiled.
#[derive(Clone, Debug)]
struct Release {
    versions: Versions,
    variant: Option<Regex>,
}

#[derive(Clone, Debug)]
enum Versions {
    Any,
    Range(VersionRange),
    Glob(Regex),
}

impl Release {
    fn parse(text: &str, origin: &str, id: &str) -> Result<Release, IntendedError> {
        let (versions, variant) = match text.rsplit_once(':') {
            Some((v, var)) => (v.trim(), Some(var.trim())),
            None => (text.trim(), None),
        };
        let versions = if versions.is_empty() || versions == "*" {
            Versions::Any
        } else if is_range(versions) {
            Versions::Range(VersionRange::parse(versions).map_err(|e| {
                IntendedError::Malformed {
                    origin: origin.into(),
                    message: format!("{id}: release range `{versions}`: {e}"),
                }
            })?)
        } else {
            Versions::Glob(glob(versions, origin, id).map_err(malformed_intended)?)
        };
        let variant = match variant {
            Some("") => {
                return Err(IntendedError::Malformed {
                    origin: origin.into(),
                    message: format!("{id}: release pattern `{text}` has an empty variant"),
                })
            }
            Some(v) => Some(glob(v, origin, id).map_err(malformed_intended)?),
            None => None,
        };
        Ok(Release { versions, variant })
    }

    fn matches(&self, s: &Side<'_>) -> bool {
        let version = match &self.versions {
            Versions::Any => true,
            Versions::Range(r) => r.contains(s.version),
            Versions::Glob(g) => g.is_match(s.version),
        };
        let variant = match (&self.variant, s.variant) {
            (None, None) => true,
            (Some(g), Some(v)) => g.is_match(v),
            _ => false,
        };
        version && variant
    }
}

/// A known-findings glob error, as an intended-changes one.
fn malformed_intended(e: super::known::KnownError) -> IntendedError {
    match e {
        super::known::KnownError::Malformed { origin, message } => {
            IntendedError::Malformed { origin, message }
        }
        super::known::KnownError::Io { path, source } => IntendedError::Io { path, source },
    }
}

#[derive(Clone, Debug)]
struct Compiled {
    entry: IntendedEntry,
    before: Vec<Release>,
    after: Vec<Release>,
    signatures: Vec<Regex>,
    members: Vec<Regex>,
    diagnostics: Vec<Regex>,
}

/// Intended changes, ready to match.
#[derive(Clone, Debug, Default)]
pub struct IntendedSet {
    entries: Vec<Compiled>,
}

impl IntendedSet {
    /// The embedded list.
    pub fn embedded() -> Result<IntendedSet, IntendedError> {
        let mut set = IntendedSet::default();
        set.add_text(EMBEDDED, "embedded intended-changes.toml")?;
        Ok(set)
    }

    /// Adds the entries of the file at `path`.
    pub fn add_file(&mut self, path: &Path) -> Result<(), IntendedError> {
        let text = std::fs::read_to_string(path).map_err(|source| IntendedError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        self.add_text(&text, &path.display().to_string())
    }

    /// Adds the entries of an intended-changes file's text (`origin` names it in errors).
    pub fn add_text(&mut self, text: &str, origin: &str) -> Result<(), IntendedError> {
        let bad = |message: String| IntendedError::Malformed {
            origin: origin.into(),
            message,
        };
        let file: IntendedFile = toml::from_str(text).map_err(|e| bad(e.to_string()))?;
        for entry in file.changes {
            let id = entry.id.clone();
            if id.trim().is_empty() {
                return Err(bad("an entry without an id".into()));
            }
            if entry.reason.trim().is_empty() {
                return Err(bad(format!("{id}: no reason")));
            }
            if entry.signatures.is_empty() {
                return Err(bad(format!("{id}: no signature pattern")));
            }
            if entry.before.is_empty() || entry.after.is_empty() {
                return Err(bad(format!(
                    "{id}: `before` and `after` must each name at least one release pattern"
                )));
            }
            if crate::toolchain::Tool::from_name(&entry.compiler).is_none() {
                return Err(bad(format!("{id}: unknown compiler `{}`", entry.compiler)));
            }
            let globs = |ps: &[String]| {
                ps.iter()
                    .map(|p| glob(p, origin, &id).map_err(malformed_intended))
                    .collect::<Result<Vec<_>, _>>()
            };
            let releases = |ps: &[String]| {
                ps.iter()
                    .map(|p| Release::parse(p, origin, &id))
                    .collect::<Result<Vec<_>, _>>()
            };
            let compiled = Compiled {
                before: releases(&entry.before)?,
                after: releases(&entry.after)?,
                signatures: globs(&entry.signatures)?,
                members: globs(&entry.members)?,
                diagnostics: globs(&entry.diagnostics)?,
                entry,
            };
            // a later file's entry of the same id replaces the earlier one
            self.entries.retain(|c| c.entry.id != id);
            self.entries.push(compiled);
        }
        Ok(())
    }

    /// The entries, in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = &IntendedEntry> {
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

    /// The first entry that matches the disagreement, if any.
    pub fn find(&self, f: &DisagreementFacts<'_>) -> Option<&IntendedEntry> {
        let compiler = crate::toolchain::Tool::from_name(f.compiler);
        let side = |rs: &[Release], s: &Side<'_>| rs.iter().any(|r| r.matches(s));
        self.entries
            .iter()
            .find(|c| {
                let e = &c.entry;
                crate::toolchain::Tool::from_name(&e.compiler) == compiler
                    && (side(&c.before, &f.primary) && side(&c.after, &f.other)
                        || side(&c.before, &f.other) && side(&c.after, &f.primary))
                    && e.kind.is_none_or(|k| k == f.kind)
                    && c.signatures.iter().any(|p| p.is_match(f.signature))
                    && any(&c.members, f.member)
                    && (c.diagnostics.is_empty() || any(&c.diagnostics, f.diagnostic.unwrap_or("")))
            })
            .map(|c| &c.entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENTRY: &str = r#"
[[change]]
id = "X1"
compiler = "kotlin"
before = ["(,2.0)", "*:k1"]
after = ["[2.0,)"]
signatures = ["kotlin unexpected-rejection: *ambiguity*"]
reason = "the new frontend resolves this call differently, by design"
"#;

    fn facts<'a>(p: Side<'a>, o: Side<'a>, sig: &'a str) -> DisagreementFacts<'a> {
        DisagreementFacts {
            compiler: "kotlin",
            primary: p,
            other: o,
            kind: FindingKind::UnexpectedRejection,
            signature: sig,
            member: "",
            diagnostic: None,
        }
    }

    fn side<'a>(version: &'a str, variant: Option<&'static str>) -> Side<'a> {
        Side { version, variant }
    }

    #[test]
    fn the_embedded_list_parses_and_every_entry_has_a_reason() {
        let set = IntendedSet::embedded().expect("the embedded list parses");
        for e in set.entries() {
            assert!(!e.reason.trim().is_empty(), "{}", e.id);
        }
    }

    #[test]
    fn the_embedded_k2_entry_needs_k1_against_k2_and_its_member() {
        let set = IntendedSet::embedded().expect("the embedded list parses");
        let sig =
            "kotlin unexpected-rejection: Overload resolution ambiguity between candidates: T";
        let cme = "new java.util.ConcurrentModificationException(java.lang.String)";
        let facts = |p, o, member| DisagreementFacts {
            member,
            ..facts(p, o, sig)
        };
        let hit = |f: DisagreementFacts<'_>| set.find(&f).map(|e| e.id.clone());
        let k2 = side("2.1.0", None);
        assert_eq!(
            hit(facts(k2, side("2.1.0", Some("k1")), cme)).as_deref(),
            Some("K2-AMBIGUITY-CME")
        );
        assert_eq!(
            hit(facts(side("1.9.24", None), side("1.9.24", Some("k2")), cme)).as_deref(),
            Some("K2-AMBIGUITY-CME")
        );
        // another member, or two K2 releases: not this change
        assert_eq!(
            hit(facts(k2, side("2.1.0", Some("k1")), "int a.B.m()")),
            None
        );
        assert_eq!(hit(facts(k2, side("2.2.0", None), cme)), None);
    }

    #[test]
    fn a_pair_matches_in_either_order_and_only_across_the_change() {
        let mut set = IntendedSet::default();
        set.add_text(ENTRY, "t.toml").expect("parses");
        let sig = "kotlin unexpected-rejection: Overload resolution ambiguity: T";
        let hit = |p, o| set.find(&facts(p, o, sig)).map(|e| e.id.clone());
        let k2 = side("2.1.0", None);
        assert_eq!(hit(k2, side("1.9.24", None)).as_deref(), Some("X1"));
        assert_eq!(hit(side("1.9.24", None), k2).as_deref(), Some("X1"));
        assert_eq!(hit(k2, side("2.1.0", Some("k1"))).as_deref(), Some("X1"));
        // two releases on the same side of the change
        assert_eq!(hit(k2, side("2.2.0", None)), None);
        // a variant is not the release run as it is
        assert_eq!(hit(k2, side("1.9.24", Some("k2"))), None);
        // another signature, another compiler
        assert!(set
            .find(&facts(
                k2,
                side("1.9.24", None),
                "kotlin unexpected-rejection: other"
            ))
            .is_none());
        let mut g = facts(k2, side("1.9.24", None), sig);
        g.compiler = "groovy";
        assert!(set.find(&g).is_none());
    }

    #[test]
    fn malformed_files_name_the_file_and_the_entry() {
        for (text, needle) in [
            (
                ENTRY.replace(
                    "reason = \"the new frontend resolves this call differently, by design\"",
                    "reason = \"  \"",
                ),
                "X1: no reason",
            ),
            (
                ENTRY.replace(
                    "signatures = [\"kotlin unexpected-rejection: *ambiguity*\"]",
                    "signatures = []",
                ),
                "X1: no signature pattern",
            ),
            (
                ENTRY.replace("after = [\"[2.0,)\"]", "after = []"),
                "X1: `before` and `after`",
            ),
            (ENTRY.replace("\"(,2.0)\"", "\"[2.0\""), "X1: release range"),
            (ENTRY.replace("\"*:k1\"", "\"*:\""), "X1: release pattern"),
            (
                ENTRY.replace("compiler = \"kotlin\"", "compiler = \"cobol\""),
                "X1: unknown compiler",
            ),
            (ENTRY.replace("reason =", "reasons ="), "unknown field"),
            ("not toml [".to_string(), "not an intended-changes file"),
        ] {
            let e = IntendedSet::default()
                .add_text(&text, "f.toml")
                .expect_err(&text)
                .to_string();
            assert!(e.contains(needle) && e.contains("f.toml"), "{e}");
        }
    }
}
