//! The knobs of synthesis, with the paper's defaults explained. Every probability, retry
//! count, range and limit that synthesis uses is a field of [`SynthConfig`]; the effective
//! configuration is printed into `summary.json`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The largest synthesis config file read (`--synth-config`): a config is a few hundred
/// bytes; a `summary.json` that carries one is a few kilobytes.
pub const MAX_CONFIG_FILE_BYTES: u64 = 1 << 20;

/// A problem with a synthesis config file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read synthesis config {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is too large to be a config.
    #[error("{path} is {bytes} bytes: a synthesis config has at most {MAX_CONFIG_FILE_BYTES}")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
    },
    /// The file is neither TOML nor JSON of a config.
    #[error("{path} is not a synthesis config ({format}): {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// `TOML` or `JSON`.
        format: &'static str,
        /// What the parser said.
        message: String,
    },
    /// A value is out of its range.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Which field and why.
        message: String,
    },
}

/// Whether programs must be accepted (well-typed) or rejected (ill-typed, one injected fault).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every typing sequence respects the member's signature: the compiler must accept.
    WellTyped,
    /// Exactly one position (receiver, one argument, or the expected result type) is
    /// replaced by an incompatible type: the compiler must reject.
    IllTyped,
}

impl Mode {
    /// `well-typed` / `ill-typed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::WellTyped => "well-typed",
            Mode::IllTyped => "ill-typed",
        }
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "well-typed" | "well" => Ok(Mode::WellTyped),
            "ill-typed" | "ill" => Ok(Mode::IllTyped),
            other => Err(format!(
                "unknown mode `{other}` (expected well-typed or ill-typed)"
            )),
        }
    }
}

/// Configuration of the synthesizer. Every field has a default that follows the paper's
/// evaluation setup (Section 4.1) unless its comment says otherwise; a field missing when
/// reading (a summary written by an older version) takes its default. Probabilities must lie
/// in `0.0..=1.0` and ranges must not be empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SynthConfig {
    /// Well-typed or ill-typed programs.
    pub mode: Mode,
    /// Drop explicit type arguments that inference recovers exactly (Section 3.5).
    pub erase: bool,
    /// Maximum nesting depth of the types drawn for type variables: 2 allows
    /// `List<List<String>>` but not `List<List<List<String>>>` (the paper's setting).
    pub max_type_depth: usize,
    /// Maximum number of types per position of a typing sequence (subtypes of a receiver or
    /// parameter, supertypes of a result). The product of the positions is sampled, not
    /// enumerated, when it is larger than `max_sequences_per_member`.
    pub max_types_per_position: usize,
    /// Maximum typing sequences (programs) per member and substitution.
    pub max_sequences_per_member: usize,
    /// Incompatible types tried per position in ill-typed mode (the paper uses at most 5).
    pub ill_types_per_position: usize,
    /// Number of random type substitutions drawn per polymorphic member.
    pub substitutions_per_member: usize,
    /// Attempts at drawing a valid substitution before a member is skipped.
    pub max_subst_attempts: usize,
    /// Probability that a random type is an instance of a generic class (while the depth
    /// allows one) rather than a non-generic class. Default 0.35: about one type in three
    /// is generic, so type arguments are exercised while most draws stay cheap and simple
    /// (the pool has far more non-generic classes, and a generic one may fail to
    /// instantiate).
    pub generic_type_probability: f64,
    /// Draws of a random type before falling back to `java.lang.Object`: a generic class
    /// may have no valid instance within the depth. Default 8, which almost never runs out.
    pub random_type_attempts: usize,
    /// Subclasses of a type variable's bound tried (at random) for an instance within the
    /// bound before a variable gets an unconstrained random type (which validity checking
    /// may then reject). Default 4: a few tries find one for most bounds without letting a
    /// bound with many unusable subclasses dominate the time.
    pub subclass_attempts: usize,
    /// When a member has more typing sequences than `max_sequences_per_member`, they are
    /// sampled: at most this many random draws per wanted sequence (duplicates are drawn
    /// again). Default 8: enough to fill the quota unless the product barely exceeds it.
    pub sample_tries_per_sequence: usize,
    /// Random pool types drawn as candidate replacements for each broken position in
    /// ill-typed mode (besides `int`, `boolean`, `double` and `String`, always tried). The
    /// paper draws candidates at random; default 16, so that after dropping compatible
    /// ones `ill_types_per_position` incompatible types usually remain.
    pub ill_candidates_per_position: usize,
    /// Probability that an inhabitant of a functional interface is a lambda tried before a
    /// path of the API graph (otherwise the path first, the lambda as fallback). Default
    /// 0.7: lambdas exercise the compilers' inference more than factory calls do.
    pub lambda_first_probability: f64,
    /// Probability that, where an anonymous class of the wanted type cannot be written (a
    /// concrete class, an interface with too many abstract methods), one of an interface or
    /// abstract class below it is (`new AbstractList<String>() { .. }` for a
    /// `Collection<String>`). Default 0.5: the API wants the supertype there, which is where
    /// overriding generic members meets inference.
    pub anonymous_below_probability: f64,
    /// The integers drawn for numeric literals (half-open; a `byte` or `short` keeps the
    /// low bits, `float` and `double` add a fraction). Default `-3..100`: small values that
    /// fit every numeric type, negatives included.
    pub literal_ints: std::ops::Range<i32>,
    /// Probability that a `boolean` literal is `true`. Default 0.5.
    pub true_probability: f64,
    /// `k` of Yen's k-shortest loopless paths searched per inhabitant target. The paper
    /// uses 1 (the shortest path); a few more give variety at little cost.
    pub yen_k: usize,
    /// Nesting depth of inhabitants: arguments of calls on an inhabitant path are themselves
    /// inhabitants, down to this depth; deeper ones are literals or typed bottom constants.
    pub max_inhabitant_depth: usize,
    /// Nesting depth of the inhabitants of a program whose `deep_inhabitants` swarm form is
    /// on (instead of `max_inhabitant_depth`). Default 4: the arguments of the calls on an
    /// inhabitant path are calls in turn, so that such a program holds about 10 API calls,
    /// as the original tool's do.
    pub deep_inhabitant_depth: usize,
    /// Maximum length (in nodes) of an inhabitant path.
    pub max_path_len: usize,
    /// Probability that a Kotlin program calls an `operator` or `infix` member under test
    /// in its operator or infix form (`a + b`, `b in a`, `a[i]`, `a[i] = v`, `-a`, `a(x)`,
    /// `a += b`, `a to b`; `compareTo` as `a < b` only where the program discards the
    /// value) instead of `a.plus(b)`. Drawn per program from its own stream, so other
    /// choices stay the same. Default 0.5: kotlinc resolves operators on their own path
    /// (operator candidates only, `plus` against `plusAssign`), and the call form stays
    /// as common.
    pub operator_form_probability: f64,
    /// Probability that a Kotlin program leaves out parameters with default values of the
    /// member under test (a random non-empty subset; the arguments after the first left out
    /// are named: `f(a, limit = 3)`). Only where no other member or extension of the name
    /// could be selected instead. Default 0.4: the full call stays the more common form.
    pub default_omission_probability: f64,
    /// Probability that a Scala program leaves the implicit (`using`) list of the member
    /// under test out, for scalac's implicit search to supply, where the search is certain
    /// to find every argument (compiler-synthesized `ClassTag`s and `<:<` evidence, the
    /// standard `Ordering`s and `Numeric`s: `synth::typing::implicits`); otherwise the arguments
    /// are passed. Drawn per program from its own stream. Default 0.5: both the search
    /// and explicitly passed implicits are exercised.
    pub implicit_search_probability: f64,
    /// The language the programs are written in: its conversions decide which sequences are
    /// well-typed or ill-typed beyond Java's rules (Kotlin has no implicit primitive
    /// widening; Groovy converts anything to `boolean` and `String` on assignment).
    pub lang: thalia_translators::Language,
    /// Which expression forms each program draws (swarm testing); see [`SwarmConfig`](super::swarm::SwarmConfig).
    pub swarm: super::swarm::SwarmConfig,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig {
            mode: Mode::WellTyped,
            erase: false,
            max_type_depth: 2,
            max_types_per_position: 3,
            max_sequences_per_member: 6,
            ill_types_per_position: 5,
            substitutions_per_member: 1,
            max_subst_attempts: 24,
            generic_type_probability: 0.35,
            random_type_attempts: 8,
            subclass_attempts: 4,
            sample_tries_per_sequence: 8,
            ill_candidates_per_position: 16,
            lambda_first_probability: 0.7,
            anonymous_below_probability: 0.9,
            literal_ints: -3..100,
            true_probability: 0.5,
            yen_k: 3,
            max_inhabitant_depth: 2,
            deep_inhabitant_depth: 4,
            max_path_len: 9,
            operator_form_probability: 0.5,
            default_omission_probability: 0.4,
            implicit_search_probability: 0.5,
            lang: thalia_translators::Language::Java,
            swarm: super::swarm::SwarmConfig::default(),
        }
    }
}

impl SynthConfig {
    /// Reads a config file (`--synth-config`): TOML (`.toml`) or JSON (anything else), a
    /// config document or a `summary.json` (whose `config` is taken); missing fields take
    /// their defaults, unknown ones are errors, and the values are checked.
    pub fn from_file(path: &Path) -> Result<SynthConfig, ConfigError> {
        let io = |source| ConfigError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bytes = std::fs::metadata(path).map_err(io)?.len();
        if bytes > MAX_CONFIG_FILE_BYTES {
            return Err(ConfigError::TooLarge {
                path: path.to_path_buf(),
                bytes,
            });
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        let toml = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
        let cfg = if toml {
            toml::from_str::<SynthConfig>(&text).map_err(|e| ConfigError::Malformed {
                path: path.to_path_buf(),
                format: "TOML",
                message: e.to_string(),
            })?
        } else {
            let malformed = |e: serde_json::Error| ConfigError::Malformed {
                path: path.to_path_buf(),
                format: "JSON",
                message: e.to_string(),
            };
            let mut v: serde_json::Value = serde_json::from_str(&text).map_err(malformed)?;
            // a summary.json carries the effective config of its run
            if v.get("tool").and_then(|t| t.as_str()) == Some("thalia") {
                if let Some(c) = v.get_mut("config") {
                    v = c.take();
                }
            }
            serde_json::from_value::<SynthConfig>(v).map_err(malformed)?
        };
        cfg.validate().map_err(|message| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        })?;
        Ok(cfg)
    }

    /// The first value out of its range (a probability outside `0..=1`, an empty range, a
    /// zero where at least one is needed), as a message naming the field.
    pub fn validate(&self) -> Result<(), String> {
        let probabilities = [
            ("generic_type_probability", self.generic_type_probability),
            ("lambda_first_probability", self.lambda_first_probability),
            (
                "anonymous_below_probability",
                self.anonymous_below_probability,
            ),
            ("true_probability", self.true_probability),
            ("operator_form_probability", self.operator_form_probability),
            (
                "default_omission_probability",
                self.default_omission_probability,
            ),
            (
                "implicit_search_probability",
                self.implicit_search_probability,
            ),
        ];
        for (name, p) in probabilities {
            if !(0.0..=1.0).contains(&p) {
                return Err(format!("{name} = {p} is not a probability (0.0 to 1.0)"));
            }
        }
        if self.literal_ints.is_empty() {
            return Err(format!(
                "literal_ints = {}..{} is empty",
                self.literal_ints.start, self.literal_ints.end
            ));
        }
        let at_least_one = [
            ("max_types_per_position", self.max_types_per_position),
            ("max_sequences_per_member", self.max_sequences_per_member),
            ("substitutions_per_member", self.substitutions_per_member),
            ("max_subst_attempts", self.max_subst_attempts),
            ("random_type_attempts", self.random_type_attempts),
            ("sample_tries_per_sequence", self.sample_tries_per_sequence),
            ("yen_k", self.yen_k),
            ("max_path_len", self.max_path_len),
        ];
        for (name, n) in at_least_one {
            if n == 0 {
                return Err(format!("{name} = 0: it must be at least 1"));
            }
        }
        if self.deep_inhabitant_depth > MAX_INHABITANT_DEPTH {
            return Err(format!(
                "deep_inhabitant_depth = {} is more than {MAX_INHABITANT_DEPTH}",
                self.deep_inhabitant_depth
            ));
        }
        if self.max_type_depth > MAX_TYPE_DEPTH {
            return Err(format!(
                "max_type_depth = {} is more than {MAX_TYPE_DEPTH}",
                self.max_type_depth
            ));
        }
        self.swarm.validate()
    }

    /// True when every knob but the mode, language and erasure (which commands give as
    /// flags) has its default value.
    pub fn knobs_are_default(&self) -> bool {
        let d = SynthConfig {
            mode: self.mode,
            erase: self.erase,
            lang: self.lang,
            ..SynthConfig::default()
        };
        *self == d
    }
}

/// The deepest inhabitants a deep program may nest (`deep_inhabitant_depth`): every level
/// multiplies a program's calls by the arguments of the calls on a path.
pub const MAX_INHABITANT_DEPTH: usize = 8;

/// The deepest types synthesis may draw (`max_type_depth`): random types are built
/// recursively, and real APIs need 2 or 3.
pub const MAX_TYPE_DEPTH: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_summary_without_the_newer_knobs_reads_with_their_defaults() {
        let old = serde_json::json!({
            "mode": "ill-typed",
            "erase": true,
            "max_type_depth": 2,
            "max_types_per_position": 3,
            "max_sequences_per_member": 6,
            "ill_types_per_position": 5,
            "substitutions_per_member": 1,
            "max_subst_attempts": 24,
            "yen_k": 3,
            "max_inhabitant_depth": 2,
            "max_path_len": 9,
            "lang": "kotlin"
        });
        let cfg: SynthConfig = serde_json::from_value(old).expect("an older config reads");
        assert_eq!(
            cfg,
            SynthConfig {
                mode: Mode::IllTyped,
                erase: true,
                lang: thalia_translators::Language::Kotlin,
                ..SynthConfig::default()
            }
        );
    }

    #[test]
    fn the_config_round_trips_through_json() {
        let cfg = SynthConfig {
            literal_ints: 0..7,
            lambda_first_probability: 0.25,
            ..SynthConfig::default()
        };
        let text = serde_json::to_string(&cfg).expect("serializes");
        let back: SynthConfig = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, cfg);
    }
}
