//! The data of typing: a member's signature under a substitution ([`Formal`]), the types of
//! one abstract call ([`TypingSequence`]), its positions and the one an ill-typed call breaks
//! ([`Broken`]), and the unit of synthesis built from them ([`Task`]).

use serde::Serialize;

use crate::api::MemberId;
use crate::types::{Prim, Subst, Type, TypeId};

/// Methods every class has (a receiver can never lack them; references never name them:
/// an interface's members in the API leave them out, so their overloads cannot be checked).
pub(crate) const OBJECT_METHODS: [&str; 9] = [
    "equals",
    "hashCode",
    "toString",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
];

/// A position of a typing sequence.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum Position {
    /// The receiver.
    Receiver,
    /// The i-th argument.
    Arg(usize),
    /// The expected type of the result.
    Result,
}

impl Position {
    /// `receiver`, `arg0`, `result`.
    pub fn label(self) -> String {
        match self {
            Position::Receiver => "receiver".into(),
            Position::Arg(i) => format!("arg{i}"),
            Position::Result => "result".into(),
        }
    }
}

/// The types of one abstract call: receiver, arguments and expected result.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TypingSequence {
    /// Receiver type (`None` for static members and constructors).
    pub receiver: Option<TypeId>,
    /// Argument types.
    pub args: Vec<TypeId>,
    /// Expected result type (`None` when the member returns nothing).
    pub result: Option<TypeId>,
}

/// The one position an ill-typed sequence breaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Broken {
    /// Which position.
    pub position: Position,
    /// The type the signature asks for there.
    pub formal: TypeId,
    /// The incompatible type put there instead.
    pub actual: TypeId,
}

/// A member's signature under a substitution.
#[derive(Clone, Debug)]
pub struct Formal {
    /// Substitution of the member's and (for instance members and constructors) its class's
    /// type parameters.
    pub subst: Subst,
    /// Receiver type.
    pub receiver: Option<TypeId>,
    /// Parameter types.
    pub params: Vec<TypeId>,
    /// Result type (`None` for `void`).
    pub ret: Option<TypeId>,
}

/// One program to build: a member, a substitution and a typing sequence.
#[derive(Clone, Debug)]
pub struct Task {
    /// The member under test.
    pub member: MemberId,
    /// Its formal signature under the drawn substitution.
    pub formal: Formal,
    /// The typing sequence.
    pub seq: TypingSequence,
    /// The broken position (ill-typed mode).
    pub broken: Option<Broken>,
}

/// True for `void` and Unit result types.
pub fn is_void(a: &crate::types::TypeArena, t: TypeId) -> bool {
    match a.get(t) {
        Type::Prim(Prim::Void) => true,
        Type::Class { name, args } if args.is_empty() => {
            matches!(a.name(*name), "kotlin.Unit" | "scala.Unit")
        }
        _ => false,
    }
}
