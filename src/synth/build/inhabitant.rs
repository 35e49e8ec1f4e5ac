//! What the parts of program building hand each other: an expression with what inference
//! knows of it ([`Inhabitant`]), the function type a lambda or reference implements
//! ([`FnType`]), and how a call is written ([`CallShape`]).

use thalia_translators::ir::{Expr, Ty};

use crate::synth::typing::erase::InferInfo;
use crate::types::TypeId;

/// An expression with what erasure needs to know about it.
#[derive(Clone, Debug)]
pub struct Inhabitant {
    /// The expression.
    pub expr: Expr,
    /// Its static type when it is a standalone expression (usable for inferring a call's
    /// type arguments); `None` for poly expressions such as lambdas and erased generic calls.
    pub info: InferInfo,
}

/// The function type of a functional interface (JLS 9.9): what a lambda or a function
/// reference for it must implement.
#[derive(Clone, Debug)]
pub struct FnType {
    /// The parameter types (the single abstract method's, substituted).
    pub params: Vec<TypeId>,
    /// The result type (`void` for none).
    pub ret: TypeId,
    /// True when the result is `void`.
    pub void: bool,
    /// True when the parameter and result types are ground types Java can write (needed to
    /// type parameters, match references and call methods on parameters).
    pub ground: bool,
    /// The interface as the function type sees it (`Function<A, B>` for
    /// `Function<? super A, ? extends B>`), when Java can write it.
    pub target: Option<TypeId>,
    /// [`FnType::target`] as an IR type.
    pub target_ir: Option<Ty>,
    /// The single abstract method's declared result type (before substitution).
    pub declared_ret: TypeId,
    /// True when the single abstract method is a Kotlin `suspend` function: only a lambda
    /// (which Kotlin then infers to be a suspend lambda) implements it, neither an
    /// anonymous function nor a reference to an ordinary function.
    pub suspend: bool,
    /// True for a Kotlin function type (`(A) -> R`, not a functional interface): a callable
    /// reference for one whose result is `Unit` only where it may have been a type
    /// variable's (`() -> R` with `R = Unit`) is not adapted, so it must return `Unit`.
    pub function_type: bool,
}

/// How the call under test is written beyond its receiver and arguments.
#[derive(Clone, Debug, Default)]
pub struct CallShape {
    /// Keep the type arguments even when inference would recover them
    /// ([`super::features::Features::explicit_type_args`]).
    pub keep_explicit: bool,
    /// The elements of the variable-arity argument, written in place of the array (the last
    /// of `args`, which still decides erasure when there is at least one element).
    pub varargs: Option<Vec<Inhabitant>>,
    /// Erase type arguments that inference recovers even when the run does not erase: a
    /// call wanted in Kotlin's operator or infix form, which takes no type arguments.
    pub erase_for_form: bool,
    /// Leave a Scala call's implicit list out, for scalac's implicit search to supply
    /// (only where it is certain to, `Typing::implicits_found`); the call keeps its type
    /// arguments, which the search depends on.
    pub search_implicits: bool,
    /// The call is the receiver of the next call of a path: it has no target type, and the
    /// next call's result may show its type arguments (a capture variable among them).
    pub receiver: bool,
    /// The receiver's class has another method of the name and arity that the member's own
    /// class lacks (`andThen` of a `LongSummaryStatistics`, from `IntConsumer` and
    /// `LongConsumer`): the call is overloaded where it is made.
    pub receiver_overloads: bool,
    /// The target type is a wildcard-typed one with `? extends` replaced by its bound
    /// (`Collection<String>` for a `Collection<? extends String>`): it fixes the call's own
    /// variables but not those an erased call or diamond among its arguments mentions (javac
    /// resolves `comparing`'s `T` in `new TreeSet<>(Comparator.comparing(x -> ..))` for a
    /// `Collection<? extends CharSequence>` as `Object`).
    pub bounded_goal: bool,
}
