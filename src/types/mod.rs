//! The type language: interned types, parsers and printers for the three API-JSON syntaxes,
//! subtyping, substitution, decomposition and unification.

mod arena;
pub mod kotlin_view;
mod print;
pub mod scala_view;
mod subst;
mod syntax;
mod system;
mod unify;

pub use arena::{
    Prim, Sym, Type, TypeArena, TypeId, TypeVar, VarId, Variance, Wildcard, MAX_DERIVED_TYPE_DEPTH,
};
pub use print::{print_param, print_type, print_type_param};
pub use subst::{subsumes, Subst};
pub use syntax::{
    parse_param, parse_type, parse_type_param, parse_type_param_head, shorten, ParamType,
    ParseError, Syntax, TypeParamHead, CONTEXT_FUNCTION, MAX_ARRAY_DIMENSIONS, MAX_SHOWN_CHARS,
    MAX_TYPE_DEPTH,
};
pub use system::{ClassSig, TypeSystem, MAX_SUPERTYPES};
pub use unify::UnifyMode;
