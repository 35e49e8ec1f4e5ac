//! What each target language's checker accepts, as functions of the type system and the API:
//! subtyping and conversions, overload resolution, what function references may name,
//! implicit search, inference and erasure, the members a language cannot use, and the
//! extension methods a checker resolves beyond Java's members; with the capability questions
//! of [`LanguageRules`]. Nothing here draws at random or knows the program being built:
//! `synth::build` asks, this module answers ([`Typing`], a view of a worker's API copy, the
//! shared context and the language's rules).

pub mod checker;
pub mod convert;
pub mod erase;
pub mod extensions;
pub mod implicits;
pub mod mapped;
pub mod members;
pub mod overload;
pub mod references;
pub mod rules;
pub mod sequence;
#[cfg(test)]
pub(crate) mod testing;

pub use checker::{Typing, TypingMemo};
pub use convert::ConversionSite;
pub use erase::InferInfo;
pub use overload::Resolution;
pub use rules::LanguageRules;
pub use sequence::{Broken, Formal, Position, Task, TypingSequence};
