//! Compiler flags as a swarm dimension: every block of programs of a campaign draws a flag
//! set of its compiler (Kotlin's `-language-version`, Scala's `-source`, ...), so that a
//! campaign also explores the compiler's modes, not only its defaults.
//!
//! A flag set is honest about the expectation: it is drawn only for programs whose expected
//! verdict it cannot change. A flag that only adds errors (stricter checking) may be drawn for
//! programs that must be rejected, one that only removes errors for programs that must be
//! accepted, and one that leaves the language of the synthesized programs alone for both:
//!
//! | compiler | flag set | programs | why the expectation holds |
//! | --- | --- | --- | --- |
//! | kotlin 2.Y | `-language-version 2.X` (2.0 ≤ 2.X < 2.Y) | reject | an older language (and API) version only takes features and library members away; the break of an ill-typed program (an argument of the wrong type) is one in every version, but for a nullable argument below 2.1 (see below) |
//! | kotlin 2.0–2.2 | `-language-version 1.9` | reject | the K1 frontend, which these releases still ship, on the same ill-typed programs, but for a nullable argument (see below) |
//! | kotlin ≥ 1.6 | `-Xjsr305=strict` | reject | JSR-305 default qualifiers become errors instead of warnings: only adds errors |
//! | scala3 3.Y | `-source 3.X` (3.3 ≤ 3.X < 3.Y) | both | an older source level of the same release; the programs use no newer syntax |
//! | scala3 | `-source 3.0-migration` | accept | Scala 2 idioms become warnings: only removes errors |
//! | scala3 | `-source future` | reject | deprecations become errors: only adds errors |
//! | scala2 2.13 | `-Xsource:3` | reject | Scala 3 migration warnings become errors: only adds errors |
//!
//! Language versions below 2.1 read JSpecify's annotations (`@NullMarked`, `@Nullable` of
//! `org.jspecify.annotations`) as warnings, not errors: under them kotlinc accepts a nullable
//! argument where a JSpecify scope makes the parameter not-null (`nm.Tags.first(s)`, `s:
//! String?`). The API model records the not-null parameter without its annotation's origin,
//! so these sets ([`FlagSet::lenient_java_nullness`]) are not drawn for a program broken by
//! nullability (its broken argument is nullable, [`broken_by_nullability`]): such a program
//! gets the defaults where its block drew one of them.
//!
//! Kotlin's older language versions are not drawn for well-typed programs: they bring the API
//! version down with them (`-api-version` cannot be above `-language-version`), so a call of a
//! library member newer than the version is an error, and the API model does not know the
//! members' `@SinceKotlin` versions yet.
//!
//! Left out: Scala 3's `-Yexplicit-nulls` (Java members' types become `T | Null`: the typing
//! model would have to change), javac's `--release N` (it hides the newer platform API that
//! well-typed programs call, and the translator writes `var`), Groovy's `--indy` (always on
//! since Groovy 4; `@CompileStatic` against `@TypeChecked` is the `type-checked` variant and
//! `--groovy-type-checked`, a rewrite of the source, not a flag).
//!
//! The draw depends on the campaign's seed and the program's stream, round and index block
//! alone ([`FLAG_BLOCK`] programs in a row share a flag set, so that a batch is compiled in few
//! invocations: the driver compiles each flag set of a batch in one invocation of its own).

use std::path::Path;

use crate::profile::Tool;
use crate::synth::build::record::NO_NULLABLE_TWIN;
use crate::synth::build::rng::mix_seed;
use crate::synth::{Expected, ProgramRecord};

use super::candidate::Candidate;

/// Programs in a row (by index within their stream and round) that share a flag set. Default
/// 16: a batch of the default size spans two or three blocks, so it is compiled in two or
/// three invocations, while a campaign still draws thousands of independent flag sets.
pub const FLAG_BLOCK: u64 = 16;

/// The probability that a block gets a flag set other than the compiler's defaults. Default
/// 0.35: the defaults are what users compile with and stay the bulk of a campaign; the flag
/// sets share the rest evenly.
pub const FLAGGED_SHARE: f64 = 0.35;

/// The random stream of the flag draw (as `synth::build::rng::RngStream`'s).
const FLAG_STREAM: u64 = 0x666c_6167;

/// Which programs a flag set may be drawn for, by their expected verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    /// Programs expected accepted and rejected alike (the flag keeps the language).
    Both,
    /// Only programs expected accepted (the flag only removes errors).
    Accept,
    /// Only programs expected rejected (the flag only adds errors).
    Reject,
}

impl Applies {
    /// Whether a program expected `e` may get the flag set.
    pub fn admits(self, e: Expected) -> bool {
        match self {
            Applies::Both => true,
            Applies::Accept => e == Expected::Accept,
            Applies::Reject => e == Expected::Reject,
        }
    }
}

/// One set of flags a compiler release accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlagSet {
    /// The flags, in order.
    pub flags: Vec<String>,
    /// The programs it may be drawn for.
    pub applies: Applies,
    /// True when it reads some Java nullability annotations as warnings (Kotlin's language
    /// versions below 2.1 read JSpecify's so): not drawn for a program broken by nullability.
    pub lenient_java_nullness: bool,
}

impl FlagSet {
    fn new(flags: &[&str], applies: Applies) -> FlagSet {
        FlagSet {
            flags: flags.iter().map(|f| f.to_string()).collect(),
            applies,
            lenient_java_nullness: false,
        }
    }

    /// The set, reading some Java nullability annotations as warnings.
    fn lenient(mut self) -> FlagSet {
        self.lenient_java_nullness = true;
        self
    }
}

/// Whether the ill-typed program of `record` is broken by nullability: its broken argument
/// is a nullable type where a not-null one is asked for (a Kotlin `T?`, written with its `?`).
pub fn broken_by_nullability(record: &ProgramRecord) -> bool {
    record.twin_not_applicable.as_deref() == Some(NO_NULLABLE_TWIN)
        || record
            .broken
            .as_ref()
            .is_some_and(|b| b.actual.ends_with('?'))
}

/// `major.minor` of a release version (`2.4.21` → `(2, 4)`), `None` for a version that is
/// not numeric (a fake or local build: no flag sets).
pub fn major_minor(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.split(['.', '-']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// Every flag set (other than the defaults) that `tool` at `version` accepts, derived from
/// the release version (see the module docs).
pub fn flag_sets(tool: Tool, version: &str) -> Vec<FlagSet> {
    let Some((major, minor)) = major_minor(version) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match tool {
        Tool::Kotlin => {
            if major >= 2 {
                for m in 0..minor {
                    let v = format!("{major}.{m}");
                    let set = FlagSet::new(&["-language-version", &v], Applies::Reject);
                    // JSpecify's annotations are errors from language version 2.1 on
                    out.push(if (major, m) < (2, 1) {
                        set.lenient()
                    } else {
                        set
                    });
                }
                if major == 2 && minor <= 2 {
                    out.push(
                        FlagSet::new(&["-language-version", "1.9"], Applies::Reject).lenient(),
                    );
                }
            }
            if (major, minor) >= (1, 6) {
                out.push(FlagSet::new(&["-Xjsr305=strict"], Applies::Reject));
            }
        }
        Tool::Scala3 if major == 3 => {
            for m in 3..minor {
                let v = format!("3.{m}");
                out.push(FlagSet::new(&["-source", &v], Applies::Both));
            }
            out.push(FlagSet::new(&["-source", "3.0-migration"], Applies::Accept));
            out.push(FlagSet::new(&["-source", "future"], Applies::Reject));
        }
        Tool::Scala2 if (major, minor) == (2, 13) => {
            out.push(FlagSet::new(&["-Xsource:3"], Applies::Reject));
        }
        _ => {}
    }
    out
}

/// Whether `tool` at `version` accepts every flag of `flags` (an empty set always): the flag
/// sets of [`flag_sets`], for other releases that judge a program compiled with `flags`.
pub fn release_accepts(tool: Tool, version: &str, flags: &[String]) -> bool {
    flags.is_empty() || flag_sets(tool, version).iter().any(|s| s.flags == flags)
}

/// The flags another release (`tool` at `version`: an oracle, a compiler of `--against`, a
/// newer release of a recheck) compiles a program drawn `flags` with: the same when it
/// accepts them, else its defaults (a flag set never changes the expected verdict, so the
/// defaults judge the same expectation).
pub fn for_release(tool: Tool, version: &str, flags: &[String]) -> Vec<String> {
    if release_accepts(tool, version, flags) {
        flags.to_vec()
    } else {
        Vec::new()
    }
}

/// The flags the compiler of `info` (the compiler under test, an `--against` compiler, a
/// release of a recheck) compiles a program drawn `flags` with: none for a variant with flags
/// of its own (they choose its frontend), else [`for_release`].
pub fn for_compiler(info: &super::records::CompilerInfo, flags: &[String]) -> Vec<String> {
    if info.variant().is_some_and(|v| !v.flags.is_empty()) {
        return Vec::new();
    }
    for_release(info.tool, &info.version, flags)
}

/// The record `info` with the flags its compiler compiles a program drawn `flags` with
/// ([`for_compiler`]) added to its command, before the source file.
pub fn with_flags(
    info: &super::records::CompilerInfo,
    flags: &[String],
) -> super::records::CompilerInfo {
    let own = for_compiler(info, flags);
    let mut info = info.clone();
    if own.is_empty() {
        return info;
    }
    let at = info
        .command
        .iter()
        .position(|a| a == "@FILE@")
        .unwrap_or(info.command.len());
    info.command.splice(at..at, own);
    info
}

/// Every flag the compiler of `info` compiles a program drawn `flags` with: its variant's,
/// and the program's where it takes them ([`for_compiler`]).
pub fn compile_flags(info: &super::records::CompilerInfo, flags: &[String]) -> Vec<String> {
    let mut all = info.variant().map(|v| v.flag_list()).unwrap_or_default();
    all.extend(for_compiler(info, flags));
    all
}

/// The flag draw of a campaign: its compiler's flag sets and its seed.
#[derive(Clone, Debug, Default)]
pub struct FlagPlan {
    sets: Vec<FlagSet>,
    seed: u64,
}

impl FlagPlan {
    /// The draw of a campaign with `seed` on `tool` at `version`; `enabled` false: every
    /// program compiled with the defaults.
    pub fn new(tool: Tool, version: &str, seed: u64, enabled: bool) -> FlagPlan {
        FlagPlan {
            sets: if enabled {
                flag_sets(tool, version)
            } else {
                Vec::new()
            },
            seed,
        }
    }

    /// The flag sets it draws from (besides the defaults).
    pub fn sets(&self) -> &[FlagSet] {
        &self.sets
    }

    /// The flags of the program `key` (`MODE/rROUND/pINDEX`, or any other key: drawn from
    /// it as a whole) expected `expected`: empty for the defaults.
    pub fn draw(&self, key: &str, expected: Expected) -> Vec<String> {
        let admitted: Vec<&FlagSet> = self
            .sets
            .iter()
            .filter(|s| s.applies.admits(expected))
            .collect();
        if admitted.is_empty() {
            return Vec::new();
        }
        let block = block_of(key);
        let h = mix_seed(
            self.seed,
            FLAG_STREAM,
            crate::hash::fnv1a64(block.as_bytes()),
        );
        // the top 53 bits as a uniform number in [0, 1)
        let u = (h >> 11) as f64 / (1u64 << 53) as f64;
        if u >= FLAGGED_SHARE {
            return Vec::new();
        }
        let pick = mix_seed(h, FLAG_STREAM, 1) % admitted.len() as u64;
        admitted[pick as usize].flags.clone()
    }

    /// The flags of the program `key` expected `expected` with `record`: its block's draw
    /// ([`FlagPlan::draw`]), or the defaults where the drawn set does not admit a program
    /// broken by nullability ([`FlagSet::lenient_java_nullness`]).
    pub fn draw_for(&self, key: &str, expected: Expected, record: &ProgramRecord) -> Vec<String> {
        let flags = self.draw(key, expected);
        match self.sets.iter().find(|s| s.flags == flags) {
            Some(set) if set.lenient_java_nullness && broken_by_nullability(record) => Vec::new(),
            _ => flags,
        }
    }

    /// Draws the flags of `cand` into its record, unless it has some already (a program
    /// read from a directory with its flags).
    pub fn assign(&self, cand: &mut Candidate) {
        if cand.record.flags.is_empty() {
            cand.record.flags = self.draw_for(&cand.key, cand.expected, &cand.record);
        }
    }
}

/// The block of a program's key: `MODE/rROUND/` and its index divided by [`FLAG_BLOCK`]
/// (the key itself when it does not end in `pINDEX`).
fn block_of(key: &str) -> String {
    let (head, last) = key.rsplit_once('/').unwrap_or(("", key));
    match last.strip_prefix('p').and_then(|n| n.parse::<u64>().ok()) {
        Some(i) => format!("{head}/b{}", i / FLAG_BLOCK),
        None => key.to_string(),
    }
}

/// `flags` as one label for censuses and reports (`defaults` for none).
pub fn label(flags: &[String]) -> String {
    if flags.is_empty() {
        "defaults".to_string()
    } else {
        flags.join(" ")
    }
}

/// The flags of a program in a finding's directory `bug` (its `finding.json`), empty when
/// it has none or cannot be read.
pub fn of_finding(bug: &Path) -> Vec<String> {
    super::records::FindingFile::read(bug)
        .map(|f| f.program.record.flags)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kotlin_language_versions_come_from_the_release() {
        let sets = flag_sets(Tool::Kotlin, "2.4.21");
        let versions: Vec<&str> = sets
            .iter()
            .filter(|s| s.flags[0] == "-language-version")
            .map(|s| s.flags[1].as_str())
            .collect();
        assert_eq!(versions, ["2.0", "2.1", "2.2", "2.3"]);
        let k1: Vec<String> = flag_sets(Tool::Kotlin, "2.2.21")
            .into_iter()
            .flat_map(|s| s.flags)
            .collect();
        assert!(k1.contains(&"1.9".to_string()), "{k1:?}");
        assert!(flag_sets(Tool::Kotlin, "accepts-all").is_empty());
        assert!(flag_sets(Tool::Javac, "17.0.15").is_empty());
        // each only adds errors: drawn for programs that must be rejected
        assert!(
            sets.iter().all(|s| s.applies == Applies::Reject),
            "{sets:?}"
        );
        assert!(sets.iter().any(|s| s.flags == ["-Xjsr305=strict"]));
    }

    #[test]
    fn a_stricter_flag_is_drawn_only_for_programs_that_must_be_rejected() {
        let plan = FlagPlan::new(Tool::Scala2, "2.13.18", 3, true);
        let mut drawn = 0;
        for i in 0..400 {
            let key = format!("well-typed/r0/p{i:06}");
            assert!(plan.draw(&key, Expected::Accept).is_empty(), "{key}");
            if !plan
                .draw(&format!("ill-typed/r0/p{i:06}"), Expected::Reject)
                .is_empty()
            {
                drawn += 1;
            }
        }
        assert!(drawn > 0, "some ill-typed blocks get -Xsource:3");
    }

    #[test]
    fn a_block_of_programs_shares_its_flags_and_the_draw_follows_the_seed() {
        let plan = FlagPlan::new(Tool::Kotlin, "2.4.21", 11, true);
        let key = |i: u64| format!("ill-typed/r0/p{i:06}");
        for b in 0..20 {
            let first = plan.draw(&key(b * FLAG_BLOCK), Expected::Reject);
            for i in 1..FLAG_BLOCK {
                assert_eq!(plan.draw(&key(b * FLAG_BLOCK + i), Expected::Reject), first);
            }
        }
        let blocks: Vec<Vec<String>> = (0..200)
            .map(|b| plan.draw(&key(b * FLAG_BLOCK), Expected::Reject))
            .collect();
        let flagged = blocks.iter().filter(|f| !f.is_empty()).count();
        // about FLAGGED_SHARE of 200 blocks
        assert!((40..=100).contains(&flagged), "{flagged}");
        let again = FlagPlan::new(Tool::Kotlin, "2.4.21", 11, true);
        assert_eq!(again.draw(&key(5), Expected::Reject), blocks[0]);
        let off = FlagPlan::new(Tool::Kotlin, "2.4.21", 11, false);
        assert!((0..200).all(|b| off.draw(&key(b * FLAG_BLOCK), Expected::Reject).is_empty()));
        // Scala 3's older source levels keep the language: drawn for well-typed programs too
        let scala = FlagPlan::new(Tool::Scala3, "3.9.0", 11, true);
        let well = |i: u64| format!("well-typed/r0/p{i:06}");
        assert!((0..200).any(|b| !scala
            .draw(&well(b * FLAG_BLOCK), Expected::Accept)
            .is_empty()));
    }

    /// The record of an ill-typed program whose broken argument is `actual`.
    fn ill_typed(actual: &str) -> ProgramRecord {
        serde_json::from_value(serde_json::json!({
            "id": "p000000", "file": "", "member": "", "class": "", "kind": "method",
            "typing_sequence": {"receiver": null, "args": [], "result": null},
            "substitution": {}, "mode": "ill-typed", "expected": "reject",
            "broken": {"position": "arg0", "formal": "T", "actual": actual}, "erased": false
        }))
        .expect("a program record")
    }

    #[test]
    fn a_program_broken_by_nullability_gets_no_language_version_before_2_1() {
        // kotlinc 2.4 under `-language-version 2.0` reads JSpecify's annotations as warnings
        // (`nm.Tags.first(s)` with `s: String?` is accepted), from 2.1 on as errors
        let lenient: Vec<Vec<String>> = flag_sets(Tool::Kotlin, "2.4.21")
            .into_iter()
            .filter(|s| s.lenient_java_nullness)
            .map(|s| s.flags)
            .collect();
        assert_eq!(lenient, [["-language-version", "2.0"]]);
        let k1: Vec<Vec<String>> = flag_sets(Tool::Kotlin, "2.2.21")
            .into_iter()
            .filter(|s| s.lenient_java_nullness)
            .map(|s| s.flags)
            .collect();
        assert!(
            k1.contains(&vec!["-language-version".into(), "1.9".into()]),
            "{k1:?}"
        );
        let plan = FlagPlan::new(Tool::Kotlin, "2.4.21", 11, true);
        let nullable = ill_typed("kotlin.String?");
        let plain = ill_typed("kotlin.Int");
        let (mut v20, mut others) = (0, 0);
        for b in 0..400 {
            let key = format!("ill-typed/r0/p{:06}", b * FLAG_BLOCK);
            let block = plan.draw(&key, Expected::Reject);
            let got = plan.draw_for(&key, Expected::Reject, &nullable);
            if block == ["-language-version", "2.0"] {
                v20 += 1;
                assert!(got.is_empty(), "{key}: {got:?}");
                // a program broken otherwise keeps its block's set
                assert_eq!(plan.draw_for(&key, Expected::Reject, &plain), block);
            } else {
                assert_eq!(got, block, "{key}");
                others += usize::from(!block.is_empty());
            }
        }
        assert!(v20 > 0 && others > 0, "{v20} {others}");
        // the record's own mark says so too (a record read back without its `?`)
        let mut marked = ill_typed("String");
        marked.twin_not_applicable = Some(NO_NULLABLE_TWIN.to_string());
        assert!(broken_by_nullability(&marked));
        assert!(!broken_by_nullability(&plain));
    }

    #[test]
    fn another_release_accepts_only_its_own_flag_sets() {
        let lv = vec!["-language-version".to_string(), "2.3".to_string()];
        assert!(release_accepts(Tool::Kotlin, "2.4.21", &lv));
        assert!(!release_accepts(Tool::Kotlin, "2.2.21", &lv));
        assert!(release_accepts(Tool::Kotlin, "2.2.21", &[]));
    }
}
