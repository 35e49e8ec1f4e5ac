//! The typed manifest record of a program (`programs.jsonl`), read back by campaigns with
//! serde: its typing sequence, broken position, expectation and shape.

use serde::{Deserialize, Serialize};

use crate::synth::config::Mode;

/// The typing sequence of a program as printed types.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SequenceRecord {
    /// Receiver type, if any.
    pub receiver: Option<String>,
    /// Argument types.
    pub args: Vec<String>,
    /// Expected result type, if any.
    pub result: Option<String>,
    /// How many elements the variable-arity argument was written with (`m()`, `m(a)`,
    /// `m(a, b, c)`), each of the last argument's component type; `None` when it is passed as
    /// one array (or the member has no variable arity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub varargs_elements: Option<usize>,
}

/// How a program departs from the plain shape (one call on locals with declared types), for
/// the feature census.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeRecord {
    /// Casts of an operand of the call under test to its declared type, where the language
    /// types locals by their initializer (Groovy).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub casts: usize,
    /// Locals declared without a type (`var`, `def`, `val x =`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub inferred_locals: usize,
    /// The call under test is made on a call result (`a.b().m(..)`) instead of a local.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub call_chain: bool,
    /// The call under test keeps type arguments that inference would recover (and a
    /// constructor call its type arguments instead of the diamond).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub explicit_type_args: bool,
    /// How the call under test is held when not as a plain call: `reference` (the member
    /// as a function reference), `closure` (inside a lambda) or `receiver-lambda` (inside a
    /// lambda whose parameter is the receiver); see `synth::build::wrap`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrapped: Option<String>,
    /// Calls besides the call under test (in its operands) written with their varargs
    /// elements instead of an array (`Paths.get(a, b, c)`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub varargs_element_calls: usize,
    /// Kotlin's form of the call under test when not the usual call: `operator` (`a + b`)
    /// or `infix` (`a to b`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_form: Option<String>,
    /// Parameters with default values left out of the call under test (Kotlin).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub defaults_omitted: usize,
    /// Arguments of the call under test written in place as a lambda or function reference
    /// (`r.m(x -> e)`) instead of a local.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub inline_functional_args: usize,
    /// Arguments of the call under test written in place as a constructor call with the
    /// diamond (`r.m(new ArrayList<>())`) instead of a local.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub inline_diamonds: usize,
    /// Operands whose type a generic API class's constructor can make: places where the
    /// API allows the diamond (written or not).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub diamond_sites: usize,
    /// Operands whose type is an inner class that its enclosing class's instance can create
    /// (`outer.new Inner()`): places where the API allows inner-class creation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub inner_class_sites: usize,
}

impl ProgramRecord {
    /// True when one of the program's variable-arity calls (the call under test or one in
    /// its operands) is written with its elements instead of an array.
    pub fn uses_varargs_elements(&self) -> bool {
        self.typing_sequence.varargs_elements.is_some() || self.shape.varargs_element_calls > 0
    }
}

impl ShapeRecord {
    /// True for the plain shape (nothing to record).
    pub fn is_plain(&self) -> bool {
        *self == ShapeRecord::default()
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The broken position of an ill-typed program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BrokenRecord {
    /// `receiver`, `argN` or `result`.
    pub position: String,
    /// The type the signature asks for.
    pub formal: String,
    /// The incompatible type used instead.
    pub actual: String,
}

/// What the compiler should do with a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expected {
    /// A well-typed program: the compiler must accept it.
    Accept,
    /// An ill-typed program: the compiler must reject it.
    Reject,
}

impl Expected {
    /// `accept` / `reject`, as in `programs.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            Expected::Accept => "accept",
            Expected::Reject => "reject",
        }
    }

    /// Parses `accept` / `reject`.
    pub fn parse(s: &str) -> Option<Expected> {
        match s {
            "accept" => Some(Expected::Accept),
            "reject" => Some(Expected::Reject),
            _ => None,
        }
    }

    /// The expectation of a program synthesized in `mode`.
    pub fn of_mode(mode: Mode) -> Expected {
        match mode {
            Mode::WellTyped => Expected::Accept,
            Mode::IllTyped => Expected::Reject,
        }
    }
}

/// The kind of the API member a program exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecordKind {
    /// A method call.
    Method,
    /// A constructor call.
    Constructor,
    /// A field access.
    Field,
}

impl RecordKind {
    /// `method`, `constructor` or `field`.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Method => "method",
            RecordKind::Constructor => "constructor",
            RecordKind::Field => "field",
        }
    }
}

/// One line of `programs.jsonl`: the typed record that crosses from synthesis to campaigns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgramRecord {
    /// Program id (`p000042`).
    pub id: String,
    /// The program's file, relative to the output directory.
    pub file: String,
    /// The API member under test, as a signature.
    pub member: String,
    /// Its declaring class.
    pub class: String,
    /// Method, constructor or field.
    pub kind: RecordKind,
    /// Receiver, argument and expected result types.
    pub typing_sequence: SequenceRecord,
    /// The type arguments chosen for the type variables (`T` → `java.lang.Integer`).
    pub substitution: std::collections::BTreeMap<String, String>,
    /// `well-typed` or `ill-typed`.
    pub mode: Mode,
    /// What the compiler must do with the program.
    pub expected: Expected,
    /// The broken position of an ill-typed program.
    pub broken: Option<BrokenRecord>,
    /// True when the call under test was written without its type arguments.
    pub erased: bool,
    /// The file of the program's Java twin (the same IR written in Java), for a program in
    /// another language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin: Option<String>,
    /// Why the program's Java twin cannot judge it, when the language model says so
    /// (`kotlin nullability: Java has no nullable types`) or the twin could not be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin_not_applicable: Option<String>,
    /// The lines of the statement of the call under test in the program's file: an
    /// ill-typed program must be rejected there, not elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_lines: Option<thalia_translators::LineSpan>,
    /// The program's shape beyond one call on typed locals (casts, inferred locals, call
    /// chains, explicit type arguments).
    #[serde(default, skip_serializing_if = "ShapeRecord::is_plain")]
    pub shape: ShapeRecord,
    /// The compiler flags the campaign compiled the program with (its flag set, drawn by
    /// `campaign::flags`); empty: the compiler's defaults.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
}

/// Why the Java twin of a program broken by nullability (a Kotlin `T?` value where `T` is
/// required) cannot judge it: Java has no nullable types, so javac accepts the twin whatever
/// the Kotlin compiler must do.
pub const NO_NULLABLE_TWIN: &str = "kotlin nullability: Java has no nullable types";

/// Why the Java twin of a program that uses a Kotlin package member (a top-level or
/// extension function or property) cannot judge it: Java calls a function as a static method
/// of its JVM facade class (`StringsKt.trim(s)`), which the API records only for functions
/// Java can call (not inline-only, suspend or name-mangled ones, nor properties), and no
/// function reference is written that way.
pub const NO_PACKAGE_FUNCTION_TWIN: &str =
    "kotlin package function: Java calls it through its JVM facade class, which the API does not name";

/// Why the Java twin of a program that reads a Kotlin property cannot judge it: Java reads
/// it through its getter (`getSize()`), not as a field.
pub const NO_PROPERTY_TWIN: &str = "kotlin property: Java reads it through its getter";

/// Why the Java twin of a program that names a Kotlin value class cannot judge it: Java sees
/// its underlying value in signatures (`kotlin.UInt` is `int`).
pub const NO_VALUE_CLASS_TWIN: &str = "kotlin value class: Java sees its underlying value";

/// Why the Java twin of a program that names a Kotlin builtin without a class file cannot
/// judge it: Java does not name it (`kotlin.collections.List` is `java.util.List` there,
/// with other variance).
pub const NO_BUILTIN_TWIN: &str = "kotlin builtin: Java names no such class";

/// Why the Java twin of a program whose call leaves out arguments with default values
/// cannot judge it: Java passes every argument.
pub const NO_DEFAULTS_TWIN: &str = "kotlin default arguments: Java passes every argument";
