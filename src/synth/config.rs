//! The knobs of synthesis, with the paper's defaults explained.

use serde::{Deserialize, Serialize};

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
/// evaluation setup (Section 4.1) unless its comment says otherwise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// `k` of Yen's k-shortest loopless paths searched per inhabitant target. The paper
    /// uses 1 (the shortest path); a few more give variety at little cost.
    pub yen_k: usize,
    /// Nesting depth of inhabitants: arguments of calls on an inhabitant path are themselves
    /// inhabitants, down to this depth; deeper ones are literals or typed bottom constants.
    pub max_inhabitant_depth: usize,
    /// Maximum length (in nodes) of an inhabitant path.
    pub max_path_len: usize,
    /// The language the programs are written in: its conversions decide which sequences are
    /// well-typed or ill-typed beyond Java's rules (Kotlin has no implicit primitive
    /// widening; Groovy converts anything to `boolean` and `String` on assignment).
    pub lang: thalia_translators::Language,
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
            yen_k: 3,
            max_inhabitant_depth: 2,
            max_path_len: 9,
            lang: thalia_translators::Language::Java,
        }
    }
}
