//! A run's identity: what a resumed run must agree on (seed, language, API, modes, synthesis
//! configuration, compilers, shard; or the checked directory), and one session's options.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thalia_translators::Language;

use super::shard::Shard;
use crate::synth::{Mode, SynthConfig};

/// What a synthesizing run (`thalia run`) must agree on when resumed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SynthIdentity {
    /// The run's seed.
    pub seed: u64,
    /// The programs' language.
    pub language: Language,
    /// The API's label.
    pub api: String,
    /// The modes, interleaved in this order.
    pub modes: Vec<Mode>,
    /// Whether type arguments are erased.
    pub erase: bool,
    /// Groovy programs are `@TypeChecked` rather than `@CompileStatic`.
    pub groovy_type_checked: bool,
    /// The synthesis configuration (its mode is that of the first stream).
    pub synth_config: SynthConfig,
    /// `NAME@VERSION` of the compiler.
    pub compiler: String,
    /// `NAME@VERSION` of the other compilers (`--against`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<String>,
    /// Accepted programs are run (`--run`): the run oracles judge them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub run: bool,
    /// The shard of the campaign this run is (`--shard I/N`), if it is one: a resumed shard
    /// stays the same shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// What a check of a synthesized directory (`thalia check`) must agree on when resumed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckIdentity {
    /// The checked directory (canonical).
    pub programs: String,
    /// Size of its `programs.jsonl`.
    pub programs_jsonl_bytes: u64,
    /// FNV-1a hash of its `programs.jsonl` (hex).
    pub programs_jsonl_hash: String,
    /// The programs' language.
    pub language: Language,
    /// `NAME@VERSION` of the compiler.
    pub compiler: String,
    /// `NAME@VERSION` of the other compilers (`--against`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<String>,
    /// Accepted programs are run (`--run`): the run oracles judge them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub run: bool,
    /// The shard of the check this store is (`thalia check --shard I/N`), if it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// A run's identity, as `manifest.json` records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RunIdentity {
    /// A synthesizing run.
    Run(Box<SynthIdentity>),
    /// A check of a directory.
    Check(CheckIdentity),
}

impl RunIdentity {
    /// `run` or `check`, the manifest's kind.
    pub fn kind(&self) -> &'static str {
        match self {
            RunIdentity::Run(_) => "run",
            RunIdentity::Check(_) => "check",
        }
    }

    /// The seed of a synthesizing run.
    pub fn seed(&self) -> Option<u64> {
        match self {
            RunIdentity::Run(r) => Some(r.seed),
            RunIdentity::Check(_) => None,
        }
    }

    /// The shard of a sharded run.
    pub fn shard(&self) -> Option<Shard> {
        match self {
            RunIdentity::Run(r) => r.shard,
            RunIdentity::Check(c) => c.shard,
        }
    }

    /// The identity of the whole campaign this run is part of (without its shard).
    pub fn campaign(&self) -> RunIdentity {
        match self {
            RunIdentity::Run(r) => RunIdentity::Run(Box::new(SynthIdentity {
                shard: None,
                ..(**r).clone()
            })),
            RunIdentity::Check(c) => RunIdentity::Check(CheckIdentity {
                shard: None,
                ..c.clone()
            }),
        }
    }
}

/// The options of one session, as the manifest records them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionOptions {
    /// Programs per compiler invocation.
    pub batch_size: usize,
    /// Compiler workers.
    pub jobs: usize,
    /// The budget, as written.
    pub budget: String,
    /// Per-file time budget in seconds.
    pub timeout_seconds: f64,
    /// Warm server or not.
    pub server: bool,
    /// The command line of the session.
    pub command: Vec<String>,
}

/// The first top-level field in which two identities differ.
pub fn first_difference(old: &RunIdentity, new: &RunIdentity) -> Option<(String, String, String)> {
    if old == new {
        return None;
    }
    // identities are plain data: serializing them cannot fail
    let old = serde_json::to_value(old).unwrap_or_default();
    let new = serde_json::to_value(new).unwrap_or_default();
    let show = |v: Option<&Value>| v.map_or("nothing".to_string(), Value::to_string);
    if let (Some(a), Some(b)) = (old.as_object(), new.as_object()) {
        for k in a.keys().chain(b.keys()) {
            if a.get(k) != b.get(k) {
                return Some((k.clone(), show(a.get(k)), show(b.get(k))));
            }
        }
    }
    Some(("identity".into(), old.to_string(), new.to_string()))
}

/// The synthesis configuration recorded in a run's identity for `lang` (the knobs of `base`;
/// the modes are recorded apart).
pub fn recorded_synth_config(lang: Language, base: &SynthConfig) -> SynthConfig {
    SynthConfig {
        lang,
        mode: Mode::WellTyped,
        erase: false,
        ..base.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_keep_their_json_shape_and_kind() {
        let run = RunIdentity::Run(Box::new(SynthIdentity {
            seed: 3,
            language: Language::Kotlin,
            api: "@java.base".into(),
            modes: vec![Mode::WellTyped, Mode::IllTyped],
            erase: false,
            groovy_type_checked: false,
            synth_config: recorded_synth_config(Language::Kotlin, &SynthConfig::default()),
            compiler: "kotlin@2.4.21".into(),
            against: vec!["kotlin@1.8.21".into()],
            run: false,
            shard: None,
        }));
        let v = serde_json::to_value(&run).expect("serializes");
        assert_eq!(v["seed"], 3);
        assert_eq!(v["modes"][1], "ill-typed");
        let back: RunIdentity = serde_json::from_value(v).expect("reads back");
        assert_eq!(back, run);
        assert_eq!(back.kind(), "run");
        let check = RunIdentity::Check(CheckIdentity {
            programs: "/x".into(),
            programs_jsonl_bytes: 10,
            programs_jsonl_hash: "00".into(),
            language: Language::Java,
            compiler: "javac@17".into(),
            against: Vec::new(),
            run: false,
            shard: None,
        });
        let back: RunIdentity =
            serde_json::from_value(serde_json::to_value(&check).expect("serializes"))
                .expect("reads back");
        assert_eq!(back, check);
        assert_eq!(back.seed(), None);
    }

    #[test]
    fn identities_differ_at_the_first_changed_field() {
        let run = |seed: u64| {
            RunIdentity::Run(Box::new(SynthIdentity {
                seed,
                language: thalia_translators::Language::Kotlin,
                api: "@java.base".into(),
                modes: vec![crate::synth::Mode::WellTyped],
                erase: false,
                groovy_type_checked: false,
                synth_config: recorded_synth_config(
                    thalia_translators::Language::Kotlin,
                    &crate::synth::SynthConfig::default(),
                ),
                compiler: "kotlin@2.4.21".into(),
                against: Vec::new(),
                run: seed == 3,
                shard: None,
            }))
        };
        let (a, b) = (run(1), run(2));
        assert_eq!(first_difference(&a, &a), None);
        assert_eq!(
            first_difference(&a, &b),
            Some(("seed".into(), "1".into(), "2".into()))
        );
        // a run with `--run` is another campaign; one recorded before the field reads as
        // without it
        let with_run = serde_json::to_value(run(3)).expect("serializes");
        assert_eq!(with_run["run"], true);
        let mut older = serde_json::to_value(run(1)).expect("serializes");
        assert_eq!(older.get("run"), None);
        older["seed"] = 3.into();
        let older: RunIdentity = serde_json::from_value(older).expect("reads back");
        assert_eq!(
            first_difference(&older, &run(3)),
            Some(("run".into(), "nothing".into(), "true".into()))
        );
    }
}
