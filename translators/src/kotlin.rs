//! The Kotlin translator.
//!
//! A program becomes one file `Test_<id>.kt`:
//!
//! ```kotlin
//! package thalia.<id>
//!
//! import java.util.ArrayList as ArrayList_        // only for constructor references
//! import kotlin.text.trim as trim_                 // and package function references
//! private typealias ArrayList_2 = java.util.ArrayList<String>
//!
//! object Test_<id> {
//!     fun <T : A, U> test() where U : B, U : C {  // `fun test() {` without type parameters
//!         ...statements...
//!     }
//! }
//! ```
//!
//! Classes are written fully qualified, except the Java types that Kotlin maps to its own
//! (below); the only imports are the extension functions outside Kotlin's default imports
//! (`Program::imports`) and the aliases of constructor and package function references
//! (below).
//!
//! The test function's type parameters (`Program::type_params`) are `<T : A>` with one bound
//! and go to a `where` clause with several (`where T : A, T : B`); a type parameter without
//! bounds (or bounded by `java.lang.Object`) is `<T : Any>`: Java's `Object` is `Any` here
//! (`? extends Object` is `out Any`), and `C<T>` must be a `C<out Any>` as in Java.
//!
//! Mapping of the IR's (Java) types to Kotlin's view of them:
//! - primitives → `Int`, `Boolean`, ...; the wrappers `java.lang.Integer`, ... → `Int`, ... (the
//!   *non-null* type: a Java `Integer` value is nearly always used as a number, and `Int?` could
//!   neither be a receiver nor be passed where Java unboxes; a `null` literal initializing such
//!   a local is written as the bottom constant, see below);
//! - `java.lang.Object` → `Any`, `String`, `CharSequence`, `Number`, `Comparable`, `Throwable`,
//!   `Enum`, `Cloneable`, `java.lang.annotation.Annotation` → the `kotlin` types; `Iterable`,
//!   `Collection`, `List`, `Set`, `Map`, `Map.Entry`, `Iterator`, `ListIterator` →
//!   `MutableIterable`, ..., `MutableMap.MutableEntry`, ... (Java's interfaces are mutable);
//! - `int[]` → `IntArray` (likewise every primitive), `T[]` → `Array<out T>`: Java arrays are
//!   covariant (`Object[] o = strings;`), and `Array<out T>` is Kotlin's covariant array type;
//! - wildcards `? extends T` → `out T`, `? super T` → `in T`, `?` → `*`; a projection that
//!   conflicts with the declaration-site variance of a Kotlin type (`Comparable<in T>`,
//!   `MutableIterable<out T>`, `MutableIterator<out T>`) becomes `*`, which means the same;
//! - `Top` → `Any?`, `Bottom` → `Nothing`, `Nullable(T)` → `T?`, functions `(A) -> B`.
//!
//! Expressions:
//! - `Bottom(T)` is `(null as T)` for reference types: exactly of type `T` (unlike `TODO()`, whose
//!   type `Nothing` would make every later statement unreachable and fits anywhere); kotlinc
//!   accepts it (a cast that fails at run time). Primitive types get their default value
//!   (`0.toByte()`, `'\u0000'`, `0L`, ...), as in Java.
//! - A `null` literal initializing a local of a (non-nullable) reference type is written as
//!   `(null as T)`: Java accepts `String s = null`, Kotlin only `String?`.
//! - A lambda is wrapped in its interface's SAM constructor,
//!   `java.util.function.Function<String, Int> { s -> ... }`, where Kotlin would not convert
//!   it: initializing a local or an array element (Kotlin converts lambdas to SAM types only as
//!   arguments of Java methods), and wherever the IR says its position does not convert it
//!   (`Expr::Lambda::implicit`: an argument of an overloaded method or for a parameter of
//!   type-variable type, a lambda returned by a lambda). The interface is the lambda's
//!   `target` (the function type of JLS 9.9, exact bounds for `?`), else the local's type with
//!   wildcards replaced by their bounds and `?` by `Any`. Kotlin's own `Iterable` and
//!   `Comparable` have no SAM constructors: object expressions
//!   (`object : MutableIterable<T> { override fun iterator(): MutableIterator<T> = ... }`,
//!   `{ stmts; return body }` for a block body); a lambda for
//!   `java.lang.annotation.Annotation` is not written.
//! - Lambdas: `{ a, b -> body }`, `{ a: String -> body }` with typed parameters, `{ -> body }`
//!   without parameters (never the implicit `it`), `{ a -> }` for a `Unit` body; a block body
//!   is `{ a -> val x: T = init; val y = init; f(x); body }` (its statements as at the top
//!   level, `;`-separated, the body last: a lambda's value is its last expression; a `Unit`
//!   body is left out). `LambdaForm::AnonymousFunction` is Kotlin's anonymous function
//!   `fun(a: A, b): R { stmts; return body }`, with the result type `Expr::Lambda::ret`;
//!   `fun(a) { stmts }` for a `Unit` body or a `void` result, `fun(a) = body` without `ret`
//!   and block (a block body without `ret` is `Unsupported`: its result type would be
//!   `Unit`); it is wrapped in a SAM constructor as `F(fun(a): R { .. })`.
//!   `LambdaForm::Arrow` is the usual form.
//! - Function references (`Expr::Ref`) are callable references: static
//!   `java.lang.Integer::parseInt`; bound `s::length`, `(e)::m` for any receiver but a local;
//!   unbound `String::length`, `MutableList<String>::size` (the receiver type in Kotlin's
//!   view of it); constructors `::ArrayList_` through an import alias
//!   (`import java.util.ArrayList as ArrayList_`: a callable reference cannot name a qualified
//!   class) or, for explicit type arguments, a type alias (`private typealias ArrayList_2 =
//!   java.util.ArrayList<String>`; `::C<A>` is no Kotlin), `::Any` and `::Throwable` for
//!   Kotlin's mapped classes. Aliases are the class's simple name and `_`, numbered from 2
//!   when that name is taken (by a local, a lambda parameter, a type parameter or another
//!   alias), in the order of first use. Members are renamed as calls are (below, with the
//!   function's parameters standing for the arguments): `String::length` is the property
//!   reference, `s::charAt` is `s::get`, a member Kotlin calls on the Java class is bound
//!   on the cast receiver `(s as java.lang.String)::concat`. They are wrapped in their
//!   interface's SAM constructor as lambdas are (below),
//!   `java.util.function.Function<String, Int>(java.lang.Integer::parseInt)`; bare where
//!   the position converts them (`implicit`, an argument of a Java method: Kotlin
//!   SAM-converts callable references there since 1.4). `Unsupported`: an array constructor
//!   `T[]::new` (Kotlin has no callable reference to an array constructor), an unbound
//!   reference on a type parameter (kotlinc resolves no `T::m`) or to a member that Kotlin
//!   calls only on the Java class (`java.lang.String::isEmpty`: Kotlin's `String` is no
//!   `java.lang.String`) or as a chain (`byteValue`), a constructor of another mapped class
//!   (`String`, the wrappers), a reference for Kotlin's own `Iterable`, `Comparable` or
//!   `Annotation` (no fun interfaces), type arguments of a constructor reference that name
//!   the test function's type parameters (a type alias is top-level).
//! - References to Kotlin's top-level and extension functions (`RefKind::PackageFunction`)
//!   name them through an import alias of the package's declarations of that name,
//!   `import kotlin.text.trim as trim_` (named as constructor aliases are): `::maxOf_`,
//!   unbound `String::trim_`, bound `s::trim_` or `(e)::trim_`. The alias imports every
//!   namesake of that package and nothing else (no member of the receiver's class has the
//!   alias's name), and it hides the name from the default imports: a program that also
//!   calls or reads a member of that name imports it again (`import kotlin.text.trim`).
//! - A cast of a lambda to a Kotlin function type gives the lambda typed parameters (a
//!   cast is no expected type): `(({ x: String -> x.length }) as (String) -> Int)`, the
//!   lambda parenthesized (an anonymous function's expression body would take the `as`);
//!   a callable reference cast to a function type is `Unsupported` (without an expected
//!   type an overloaded name is ambiguous).
//! - A cast of a lambda or reference to a class type is its SAM constructor, cast:
//!   `(java.util.function.Function<String, Int>(java.lang.Integer::parseInt) as F)`. Kotlin's
//!   `(x::m as F)` and `({ x -> e } as F)` are unchecked casts, not SAM conversions: the
//!   lambda's parameters get no types (an error), an overloaded reference is ambiguous, and
//!   an accepted one fails at run time.
//! - Conditionals are `(if (c) a else b)`; a lambda or reference branch gets its SAM
//!   constructor (its target, else the declared type of the local the conditional
//!   initializes): Kotlin converts neither a lambda in a local's `if` nor a callable
//!   reference in an argument's `if`, and a bare `{ a -> e }` branch would be the branch's
//!   block.
//! - A local declared without a type (`Stmt::Local::inferred`) is `val x = init`, its
//!   initializer written as for a declared local (a lambda or reference with its SAM
//!   constructor, which gives it its interface type).
//! - An inner class is created on its outer instance as `o.Inner<A>(args)` (any expression
//!   `o`; Kotlin sees a Java inner class as an `inner class`).
//! - Members that Kotlin shows under another name on its mapped types are renamed when the
//!   receiver's type is known (a local, a lambda parameter with a declared type, a literal, a
//!   `new`, a cast or a bottom constant) or a class that declares the method is one of those
//!   types (`Expr::Call::declared_in`, e.g. `java.lang.Number` for a library `Fraction`'s
//!   `doubleValue()`): `s.length()` → `s.length`, `s.charAt(i)` → `s.get(i)`,
//!   `n.intValue()` → `n.toInt()`, `n.byteValue()` → `n.toInt().toByte()` (`Double.toByte()`
//!   is an error), `c.size()` → `c.size`, `m.keySet()` → `m.keys`,
//!   `m.entrySet()` → `m.entries`, `m.values()` → `m.values`, `e.getKey()` → `e.key`,
//!   `c.toArray()` → `(c as java.util.Collection<*>).toArray()`, `l.remove(i)` with an `int`
//!   `i` → `l.removeAt(i)`, `l.sort(c)` → `l.sortWith(c)`, the other members of
//!   `java.lang.String` are called on the Java class: `(s as java.lang.String).getBytes()`
//!   (Kotlin hides them or offers extension functions with other types, e.g. `split` returning
//!   a `List`), and so are `getMessage()`, `getLocalizedMessage()` and `getCause()` of a
//!   throwable (`(e as java.lang.Throwable).getMessage()`: Kotlin's `message` is a `String?`)
//!   unless a subclass redeclares the getter with a covariant type, which only Kotlin's
//!   property keeps (`e.cause!!` is the `IOException` of an `UncheckedIOException`),
//!   and the wrappers' members that Kotlin's `Int`, `Char`, ... lack
//!   (`(i as java.lang.Integer).describeConstable()`); `java.lang.Enum`'s `name()`,
//!   `ordinal()` and `getDeclaringClass()` are the properties `name`, `ordinal` and
//!   `declaringJavaClass`, its other hidden members are not written.
//!   On any receiver: `x.get(k)` → `x.get(k)!!` (likewise `get()`, `put`, `remove`, `merge`,
//!   `compute`, ...: Kotlin's `Map` types them `V?` where Java has `V`, as it does
//!   `Reference.get()`, and on other receivers `!!` is a mere warning), `x.getClass()` → `x.javaClass`, `x.wait()`/`notify()`/`notifyAll()` →
//!   `(x as java.lang.Object).wait()`; on a receiver of unknown type and declaring class
//!   `t.getMessage()` → `t.message` (Kotlin's synthetic properties make this valid for any
//!   Java getter; a reference to one needs Kotlin 1.9, so a known class keeps the call); the
//!   field `a.length` of an array (or of an unknown receiver) → `a.size`.
//! - `new` of a class that Kotlin maps: `Any()`, `Throwable(..)`, else the Java constructor cast
//!   to the Kotlin type (`(java.lang.String("x") as String)`), since the Java class's type is
//!   not the mapped one.
//! - Numeric casts between primitives whose source type is known become conversions
//!   (`(long) i` → `i.toLong()`, `(int) c` → `c.code`); other casts are `(e as T)`.
//! - Literals: `1L`, `1.5f`, `0.1` (double), `1.toByte()`, `(-1).toShort()`, `'a'`; `Int.MIN_VALUE`
//!   is `(-2147483647 - 1)` (Kotlin reads `2147483648` as a `Long`); strings are escaped
//!   (`\$` too) and ASCII-only.
//! - Names that are Kotlin keywords or are not Kotlin identifiers (`$`) are quoted with
//!   backticks: ``java.io.Reader.`in`()``.
//! - An expression statement other than a call or `new` is bound to a fresh `val __unused_N:
//!   Any? = ...` (so that a statement starting with `{` or `(` cannot continue the previous
//!   line); a literal statement is dropped. In a lambda block the fresh names are
//!   `__unused_bN`.
//!
//! Known gaps: raw Java types (`List`) are written without type arguments, which Kotlin
//! rejects for generic classes (synthesis does not use them for Kotlin); renames cover the
//! JDK's families of mapped types (`Number`, `CharSequence`, `Collection`, `Map`,
//! `Map.Entry`, the wrappers, `Enum`).

use std::cell::RefCell;
use std::collections::HashMap;

use crate::common::literal::{ControlEscape, Escapes, LiteralSyntax, Narrowing};
use crate::common::{
    self, prim_name, BodyCx, CodeWriter, Dialect, LocalParts, ProgramNames, TyPos,
    BLOCK_UNUSED_STEM,
};
use crate::ir::{
    CallForm, Expr, LambdaForm, Lit, Method, PrimTy, Program, Receiver, RefKind, RefOn, Stmt, Ty,
    TypeAlias, TypeParam, NATIVE_MEMBER,
};
use crate::{Language, TranslateError, Translator};

/// The packages every Kotlin file imports (Kotlin spec, "Default imports"): their
/// extension members need no import, and an alias import of one of their declarations
/// hides its name unless it is imported again.
pub const DEFAULT_IMPORTS: [&str; 10] = [
    "kotlin",
    "kotlin.annotation",
    "kotlin.collections",
    "kotlin.comparisons",
    "kotlin.io",
    "kotlin.ranges",
    "kotlin.sequences",
    "kotlin.text",
    "kotlin.jvm",
    "java.lang",
];

/// True when Kotlin imports every member of `package` by default.
pub fn is_default_import(package: &str) -> bool {
    DEFAULT_IMPORTS.contains(&package)
}

/// An import alias for `stem` that no name of the program takes: `stem_`, else `stem_2`,
/// `stem_3`, ... (taken in `names`).
fn fresh_alias(names: &mut BodyCx, stem: &str) -> String {
    (1..)
        .map(|n| match n {
            1 => format!("{stem}_"),
            n => format!("{stem}_{n}"),
        })
        .find(|a| names.take(a))
        .unwrap_or_default()
}

/// Translates programs to Kotlin source.
#[derive(Debug, Clone, Copy, Default)]
pub struct KotlinTranslator;

impl Translator for KotlinTranslator {
    fn language(&self) -> Language {
        Language::Kotlin
    }

    fn translate(&self, p: &Program) -> Result<String, TranslateError> {
        common::translate(&Emitter::new(p)?, p)
    }
}

/// Kotlin's hard keywords: they can name something only when quoted with backticks.
const KEYWORDS: &[&str] = &[
    "as",
    "break",
    "class",
    "continue",
    "do",
    "else",
    "false",
    "for",
    "fun",
    "if",
    "in",
    "interface",
    "is",
    "null",
    "object",
    "package",
    "return",
    "super",
    "this",
    "throw",
    "true",
    "try",
    "typealias",
    "typeof",
    "val",
    "var",
    "when",
    "while",
];

/// `name`, quoted with backticks if Kotlin needs it (a keyword, `$`, or only underscores).
fn name(n: &str) -> String {
    common::backquoted_if(
        n,
        KEYWORDS.contains(&n) || n.contains('$') || n.chars().all(|c| c == '_'),
    )
}

/// A dot-separated qualified name with each segment quoted as needed.
fn qualified(n: &str) -> String {
    common::qualified(n, name)
}

/// How Kotlin writes literals: `1L`, `1.5f`, `0.1` (no `double` suffix), `1.toByte()`;
/// `Int.MIN_VALUE` is `(-2147483647 - 1)` (Kotlin reads `2147483648` as a `Long`); strings
/// escape `$` (string templates); Kotlin has no `\f`.
pub(crate) const LITERALS: LiteralSyntax = LiteralSyntax {
    escapes: Escapes {
        string_quote: '"',
        form_feed: false,
        dollar: true,
        control: ControlEscape::Unicode,
    },
    int_min: Some("(-2147483647 - 1)"),
    long_min: Some("(-9223372036854775807L - 1L)"),
    float_class: "kotlin.Float",
    double_class: "kotlin.Double",
    double_suffix: "",
    narrowing: Narrowing::Method("()"),
    char_as_string: false,
};

/// The primitive whose wrapper class is `class` (`java.lang.Integer` → `int`), `void` excluded.
fn unboxed(class: &str) -> Option<PrimTy> {
    PrimTy::ALL
        .into_iter()
        .find(|p| *p != PrimTy::Void && p.boxed_class() == class)
}

/// Declaration-site variance of a Kotlin type parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variance {
    Invariant,
    Out,
    In,
}

/// The Kotlin type that Kotlin shows for Java class `class` (if it maps it), with the variance
/// of its type parameters.
fn mapped_class(class: &str) -> Option<(&'static str, &'static [Variance])> {
    use Variance::*;
    Some(match class {
        "java.lang.Object" => ("Any", &[]),
        "java.lang.String" => ("String", &[]),
        "java.lang.CharSequence" => ("CharSequence", &[]),
        "java.lang.Number" => ("Number", &[]),
        "java.lang.Comparable" => ("Comparable", &[In]),
        "java.lang.Throwable" => ("Throwable", &[]),
        "java.lang.Enum" => ("Enum", &[Invariant]),
        "java.lang.Cloneable" => ("Cloneable", &[]),
        "java.lang.annotation.Annotation" => ("Annotation", &[]),
        "java.lang.Iterable" => ("MutableIterable", &[Out]),
        "java.util.Collection" => ("MutableCollection", &[Invariant]),
        "java.util.List" => ("MutableList", &[Invariant]),
        "java.util.Set" => ("MutableSet", &[Invariant]),
        "java.util.Map" => ("MutableMap", &[Invariant, Invariant]),
        "java.util.Map.Entry" => ("MutableMap.MutableEntry", &[Invariant, Invariant]),
        "java.util.Iterator" => ("MutableIterator", &[Out]),
        "java.util.ListIterator" => ("MutableListIterator", &[Invariant]),
        _ => return Some((prim_name(unboxed(class)?), &[])),
    })
}

/// JDK classes whose members Kotlin renames, by family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// `java.lang.String` (also a char sequence).
    String,
    /// Other `CharSequence`s: `length()` and `charAt` only.
    CharSequence,
    /// `java.lang.Number` and its JDK subclasses: `intValue()` → `toInt()`, ...
    Number,
    /// `java.util.Collection`s: `size()` → `size`, `toArray` on the Java interface.
    Collection,
    /// `java.util.Map`s: `size`, `keys`, `values`, `entries`.
    Map,
    /// `java.util.Map.Entry`s: `key`, `value`.
    Entry,
}

fn family(class: &str) -> Option<Family> {
    const CHAR_SEQUENCES: &[&str] = &[
        "java.lang.CharSequence",
        "java.lang.StringBuilder",
        "java.lang.StringBuffer",
        "java.lang.AbstractStringBuilder",
        "java.nio.CharBuffer",
    ];
    const NUMBERS: &[&str] = &[
        "java.lang.Number",
        "java.lang.Byte",
        "java.lang.Short",
        "java.lang.Integer",
        "java.lang.Long",
        "java.lang.Float",
        "java.lang.Double",
        "java.math.BigInteger",
        "java.math.BigDecimal",
        "java.util.concurrent.atomic.AtomicInteger",
        "java.util.concurrent.atomic.AtomicLong",
        "java.util.concurrent.atomic.LongAdder",
        "java.util.concurrent.atomic.DoubleAdder",
        "java.util.concurrent.atomic.LongAccumulator",
        "java.util.concurrent.atomic.DoubleAccumulator",
    ];
    const COLLECTIONS: &[&str] = &[
        "java.util.Collection",
        "java.util.List",
        "java.util.Set",
        "java.util.SortedSet",
        "java.util.NavigableSet",
        "java.util.SequencedCollection",
        "java.util.SequencedSet",
        "java.util.Queue",
        "java.util.Deque",
        "java.util.AbstractCollection",
        "java.util.AbstractList",
        "java.util.AbstractSequentialList",
        "java.util.AbstractSet",
        "java.util.AbstractQueue",
        "java.util.ArrayList",
        "java.util.LinkedList",
        "java.util.Vector",
        "java.util.Stack",
        "java.util.HashSet",
        "java.util.LinkedHashSet",
        "java.util.TreeSet",
        "java.util.EnumSet",
        "java.util.ArrayDeque",
        "java.util.PriorityQueue",
        "java.util.concurrent.BlockingQueue",
        "java.util.concurrent.BlockingDeque",
        "java.util.concurrent.TransferQueue",
        "java.util.concurrent.CopyOnWriteArrayList",
        "java.util.concurrent.CopyOnWriteArraySet",
        "java.util.concurrent.ConcurrentLinkedQueue",
        "java.util.concurrent.ConcurrentLinkedDeque",
        "java.util.concurrent.ConcurrentSkipListSet",
        "java.util.concurrent.ArrayBlockingQueue",
        "java.util.concurrent.LinkedBlockingQueue",
        "java.util.concurrent.LinkedBlockingDeque",
        "java.util.concurrent.PriorityBlockingQueue",
        "java.util.concurrent.DelayQueue",
        "java.util.concurrent.SynchronousQueue",
        "java.util.concurrent.LinkedTransferQueue",
    ];
    const MAPS: &[&str] = &[
        "java.util.Map",
        "java.util.SortedMap",
        "java.util.NavigableMap",
        "java.util.SequencedMap",
        "java.util.AbstractMap",
        "java.util.HashMap",
        "java.util.LinkedHashMap",
        "java.util.TreeMap",
        "java.util.Hashtable",
        "java.util.Properties",
        "java.util.IdentityHashMap",
        "java.util.WeakHashMap",
        "java.util.EnumMap",
        "java.util.concurrent.ConcurrentMap",
        "java.util.concurrent.ConcurrentNavigableMap",
        "java.util.concurrent.ConcurrentHashMap",
        "java.util.concurrent.ConcurrentSkipListMap",
        "java.util.jar.Attributes",
        "java.security.Provider",
        "java.security.AuthProvider",
        "java.awt.RenderingHints",
        "javax.script.Bindings",
        "javax.script.SimpleBindings",
        "javax.swing.UIDefaults",
        "javax.management.openmbean.TabularDataSupport",
    ];
    const ENTRIES: &[&str] = &[
        "java.util.Map.Entry",
        "java.util.AbstractMap.SimpleEntry",
        "java.util.AbstractMap.SimpleImmutableEntry",
    ];
    Some(if class == "java.lang.String" {
        Family::String
    } else if CHAR_SEQUENCES.contains(&class) {
        Family::CharSequence
    } else if NUMBERS.contains(&class) {
        Family::Number
    } else if COLLECTIONS.contains(&class) {
        Family::Collection
    } else if MAPS.contains(&class) {
        Family::Map
    } else if ENTRIES.contains(&class) {
        Family::Entry
    } else {
        return None;
    })
}

/// How a Java instance member is written in Kotlin.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Member {
    /// A call `recv.name(args)` (the name may differ from Java's).
    Call(&'static str),
    /// A property read `recv.name` (the Java method takes no arguments).
    Property(&'static str),
    /// A property read asserted non-null, `recv.name!!`: a Java subclass's covariant override
    /// of a getter that Kotlin shows as a nullable property of its mapped type.
    PropertyNonNull(&'static str),
    /// A chain of calls without arguments, `recv.toInt().toByte()`.
    Chain(&'static str),
    /// A call on the receiver cast to the Java class: `(recv as java.lang.String).m(args)`.
    OnJavaClass(&'static str),
    /// The same call, asserted non-null: Kotlin types it `V?` where Java has `V`
    /// (`m.get(k)!!`).
    NonNull,
    /// Kotlin cannot call it on this receiver (why).
    Unsupported(&'static str),
}

/// The Kotlin form of instance call `name` with `arity` arguments on a receiver of type `recv`
/// (`None`: unknown) of a method declared in the classes `declared_in` (nearest first, see
/// `Expr::Call`), or `None` to write it as in Java.
fn kotlin_member(
    recv: Option<&Ty>,
    name: &str,
    arity: usize,
    declared_in: &[String],
) -> Option<Member> {
    if declared_in.first().is_some_and(|d| d == NATIVE_MEMBER) {
        return None;
    }
    // Final methods of java.lang.Object, whatever the receiver.
    match (name, arity) {
        ("getClass", 0) => return Some(Member::Property("javaClass")),
        ("wait", 0..=2) | ("notify" | "notifyAll", 0) => {
            return Some(Member::OnJavaClass("java.lang.Object"))
        }
        _ => {}
    }
    let class = match recv {
        Some(Ty::Class { name, .. }) => Some(name.as_str()),
        Some(Ty::Nullable(inner)) => match inner.as_ref() {
            Ty::Class { name, .. } => Some(name.as_str()),
            _ => None,
        },
        _ => None,
    };
    // the receiver's class, then the declarations of the method
    let fam = class
        .into_iter()
        .chain(declared_in.iter().map(String::as_str))
        .find_map(family);
    // Kotlin's `Map` types these `V?` where Java has `V` (and `Reference.get()` too); `!!`
    // restores `V`, and is harmless (a warning) on any other receiver, so it needs no
    // receiver type.
    if matches!(
        (name, arity),
        ("get", 0..=1)
            | ("remove", 1)
            | (
                "put" | "putIfAbsent" | "replace" | "compute" | "computeIfPresent",
                2
            )
            | ("merge", 3)
    ) && fam != Some(Family::String)
    {
        return Some(Member::NonNull);
    }
    // Throwable's getters are Kotlin properties (of nullable types); on a known throwable
    // they are called on the Java class, which keeps Java's (platform) result types; on an
    // unknown receiver the property syntax works for throwables and any Java getter alike.
    // A receiver known to be a throwable by the method's declaring classes (a lambda
    // parameter, a type variable) is one too: a property would be `String?`/`Throwable?`.
    if arity == 0 && matches!(name, "getMessage" | "getLocalizedMessage" | "getCause") {
        let throwable = class.is_some_and(is_throwable_name)
            || declared_in.iter().any(|d| d == "java.lang.Throwable");
        let property = match name {
            "getMessage" => "message",
            "getLocalizedMessage" => "localizedMessage",
            _ => "cause",
        };
        // A subclass that redeclares the getter (`UncheckedIOException.getCause()` returns an
        // `IOException`) keeps its covariant type only as Kotlin's property, typed `T?`; the
        // cast to `java.lang.Throwable` would lose it.
        let overridden = declared_in
            .first()
            .is_some_and(|d| d != "java.lang.Throwable");
        match (recv, throwable) {
            (_, true) if overridden => return Some(Member::PropertyNonNull(property)),
            (_, true) => return Some(Member::OnJavaClass("java.lang.Throwable")),
            // a getter of a known non-throwable class stays a call: a reference to a Java
            // getter's synthetic property needs Kotlin 1.9
            (None, false) if declared_in.is_empty() => return Some(Member::Property(property)),
            _ => {}
        }
    }
    let declaring = declared_in.first().map(String::as_str).or(class);
    // java.lang.Enum's members are Kotlin properties or hidden (an interface of the enum
    // that declares one too does not make it callable).
    if declaring == Some("java.lang.Enum") || declared_in.iter().any(|d| d == "java.lang.Enum") {
        return match (name, arity) {
            ("name", 0) => Some(Member::Property("name")),
            ("ordinal", 0) => Some(Member::Property("ordinal")),
            ("getDeclaringClass", 0) => Some(Member::Property("declaringJavaClass")),
            ("compareTo" | "equals", 1) | ("hashCode" | "toString", 0) => None,
            _ => Some(Member::Unsupported(
                "a member of java.lang.Enum that Kotlin hides",
            )),
        };
    }
    let renamed = match (fam, name, arity) {
        (Some(Family::String | Family::CharSequence), "length", 0) => {
            Some(Member::Property("length"))
        }
        (Some(Family::String | Family::CharSequence), "charAt", 1) => Some(Member::Call("get")),
        (Some(Family::String), "equals" | "hashCode" | "toString" | "compareTo", _) => return None,
        (Some(Family::String), _, _) => Some(Member::OnJavaClass("java.lang.String")),
        // `Double.toByte()` and `Float.toShort()` are errors: go through `Int`
        (Some(Family::Number), "byteValue", 0) => Some(Member::Chain("toInt().toByte()")),
        (Some(Family::Number), "shortValue", 0) => Some(Member::Chain("toInt().toShort()")),
        (Some(Family::Number), "intValue", 0) => Some(Member::Call("toInt")),
        (Some(Family::Number), "longValue", 0) => Some(Member::Call("toLong")),
        (Some(Family::Number), "floatValue", 0) => Some(Member::Call("toFloat")),
        (Some(Family::Number), "doubleValue", 0) => Some(Member::Call("toDouble")),
        (Some(Family::Collection | Family::Map), "size", 0) => Some(Member::Property("size")),
        (Some(Family::Collection), "toArray", _) => {
            Some(Member::OnJavaClass("java.util.Collection<*>"))
        }
        (Some(Family::Map), "keySet", 0) => Some(Member::Property("keys")),
        (Some(Family::Map), "values", 0) => Some(Member::Property("values")),
        (Some(Family::Map), "entrySet", 0) => Some(Member::Property("entries")),
        (Some(Family::Entry), "getKey", 0) => Some(Member::Property("key")),
        (Some(Family::Entry), "getValue", 0) => Some(Member::Property("value")),
        _ => None,
    };
    if renamed.is_some() {
        return renamed;
    }
    // Kotlin's `Int`, `Char`, ... have none of the wrappers' other Java members
    // (`describeConstable()`, `charValue()`): call them on the Java class.
    let boxed = declaring.and_then(unboxed).map(PrimTy::boxed_class);
    match (boxed, name, arity) {
        (None, _, _)
        | (Some(_), "compareTo" | "equals", 1)
        | (Some(_), "hashCode" | "toString", 0) => None,
        (Some(b), _, _) => Some(Member::OnJavaClass(b)),
    }
}

/// Whether `class` is one of the JDK's `List`s (whose `remove(int)` Kotlin calls `removeAt`).
fn is_list_class(class: &str) -> bool {
    matches!(
        class,
        "java.util.List"
            | "java.util.AbstractList"
            | "java.util.AbstractSequentialList"
            | "java.util.ArrayList"
            | "java.util.LinkedList"
            | "java.util.Vector"
            | "java.util.Stack"
            | "java.util.concurrent.CopyOnWriteArrayList"
    )
}

/// The Kotlin form of instance member `method` with `arity` arguments on a receiver of static
/// type `recv` (`None`: unknown), `first_is_int` telling whether the first argument is an
/// `int`: [`kotlin_member`], and for the JDK's lists `sort(c)` → `sortWith(c)` and
/// `remove(int)` → `removeAt(int)`.
fn member_form(
    recv: Option<&Ty>,
    method: &str,
    arity: usize,
    first_is_int: bool,
    declared_in: &[String],
) -> Option<Member> {
    let class = match recv {
        Some(Ty::Class { name, .. }) => name.as_str(),
        _ => "",
    };
    // a receiver of unknown static type (an untyped lambda parameter) is a list when a list
    // class declares the member
    let list = is_list_class(class) || declared_in.iter().any(|c| is_list_class(c));
    if method == "sort" && arity == 1 && list {
        // Kotlin hides `List.sort(Comparator)` behind its `sortWith`.
        Some(Member::Call("sortWith"))
    } else if method == "remove" && arity == 1 && list && first_is_int {
        // `List.remove(int)`; `remove(Object)` keeps its name.
        Some(Member::Call("removeAt"))
    } else {
        kotlin_member(recv, method, arity, declared_in)
    }
}

/// Whether `t` is `java.lang.Object` or the top type: a type parameter's default bound.
fn is_default_bound(t: &Ty) -> bool {
    match t {
        Ty::Top => true,
        Ty::Class { name, args } => name == "java.lang.Object" && args.is_empty(),
        _ => false,
    }
}

/// Whether a class name looks like a `Throwable`'s (`java.lang.Throwable`, `...Exception`,
/// `...Error`).
fn is_throwable_name(class: &str) -> bool {
    let simple = class.rsplit('.').next().unwrap_or(class);
    simple == "Throwable" || simple.ends_with("Exception") || simple.ends_with("Error")
}

/// Whether `t` is a Java interface that Kotlin maps to one of its own, into which it converts
/// no lambda.
fn is_kotlin_interface(t: &Ty) -> bool {
    matches!(t, Ty::Class { name, .. } if is_own_interface(name))
}

/// Whether Java interface `class` is one that Kotlin maps to its own, which is no `fun
/// interface` (`Iterable`, `Comparable`, `Annotation`): no lambda or callable reference
/// converts to it (lambdas are written as object expressions, references not at all).
pub fn is_own_interface(class: &str) -> bool {
    matches!(
        class,
        "java.lang.Iterable" | "java.lang.Comparable" | "java.lang.annotation.Annotation"
    )
}

/// Whether a constructor reference to Java class `class` cannot be written in Kotlin: the
/// class is one Kotlin maps to its own type (`String`, the wrappers), other than `Object` and
/// `Throwable`, whose Kotlin constructors are `::Any` and `::Throwable`.
pub fn refuses_constructor_reference(class: &str) -> bool {
    !matches!(class, "java.lang.Object" | "java.lang.Throwable") && mapped_class(class).is_some()
}

/// The function type's view of a functional interface type (JLS 9.9): the bounds of `? extends`
/// and `? super`, and `Object` for `?` (the bound of the type parameter, which the IR does not
/// know here, is nearly always `Object`; the synthesizer's `target` says it exactly).
fn function_type_view(t: &Ty) -> Ty {
    match t {
        Ty::Class { name, args } => Ty::class(
            name.clone(),
            args.iter()
                .map(|a| match a {
                    Ty::WildcardExtends(b) | Ty::WildcardSuper(b) => (**b).clone(),
                    Ty::WildcardStar => Ty::object(),
                    a => a.clone(),
                })
                .collect(),
        ),
        t => t.clone(),
    }
}

/// The interface a lambda or reference is wrapped in (with its SAM constructor), if any:
/// its `target` (else the function type's view of `declared`) at a position of declared
/// class type `declared`, its `target` where the position does not convert it (`implicit`
/// false) or the target is one of Kotlin's own interfaces.
fn sam_wrap(target: Option<&Ty>, implicit: bool, declared: Option<&Ty>) -> Option<Ty> {
    match (target, declared) {
        (Some(t), Some(_)) => Some(t.clone()),
        (None, Some(d)) => Some(function_type_view(d)),
        (Some(t), None) if !implicit || is_kotlin_interface(t) => Some(t.clone()),
        _ => None,
    }
}

/// The translation of one program: the Kotlin dialect plus the declared types of the
/// variables in scope, used to rename members of mapped types, and what the program declares
/// around its statements (aliases of constructor references, the test function's type
/// parameters).
#[derive(Default)]
struct Emitter {
    /// Variables in scope → declared type (`None` for untyped lambda parameters).
    vars: RefCell<HashMap<String, Option<Ty>>>,
    /// The lines between the package and the object: the imports with aliases and the type
    /// aliases that constructor references name.
    header: Vec<String>,
    /// The file annotation opting in to the program's markers (`@file:OptIn(..)`).
    opt_in: Option<String>,
    /// The test function's header line (`None`: `fun test() {`).
    function: Option<String>,
    /// The alias each constructor reference's class (with its explicit type arguments, if
    /// any) is written with.
    ctor_aliases: HashMap<(String, Option<Vec<Ty>>), String>,
    /// The alias each referenced package function (package, name) is imported as.
    fn_aliases: HashMap<(String, String), String>,
    /// Fresh names of the locals that hold expression statements of lambda blocks.
    block_cx: RefCell<BodyCx>,
    /// The program's type aliases, through which its locals are declared.
    aliases: Vec<TypeAlias>,
}

/// The key of a constructor reference in [`Emitter::ctor_aliases`]: no type arguments and
/// inferred ones are the same (`::C_`).
fn ctor_key(class: &str, type_args: Option<&[Ty]>) -> (String, Option<Vec<Ty>>) {
    let args = type_args.filter(|a| !a.is_empty()).map(<[Ty]>::to_vec);
    (class.to_owned(), args)
}

/// A lambda's parts, as [`Expr::Lambda`] has them.
struct Fun<'a> {
    params: &'a [(String, Option<Ty>)],
    block: &'a [Stmt],
    body: &'a Expr,
    form: LambdaForm,
    ret: Option<&'a Ty>,
}

impl Dialect for Emitter {
    fn language(&self) -> Language {
        Language::Kotlin
    }

    fn open(&self, names: &ProgramNames, w: &mut CodeWriter) {
        let package = format!("package {}", qualified(&names.package));
        let object = format!("object {} {{", names.class);
        let mut header = Vec::new();
        if let Some(o) = &self.opt_in {
            header.push(o.as_str());
        }
        header.extend([package.as_str(), ""]);
        if !self.header.is_empty() {
            header.extend(self.header.iter().map(String::as_str));
            header.push("");
        }
        header.push(&object);
        common::open_test(
            w,
            &header,
            self.function.as_deref().unwrap_or("fun test() {"),
        );
    }

    fn stmt(&self, s: &Stmt, cx: &mut BodyCx, w: &mut CodeWriter) -> Result<(), TranslateError> {
        common::val_stmt(
            s,
            "Any?",
            cx,
            w,
            |n, ty, init, inferred| self.local_parts(n, ty, init, inferred),
            |e| self.expr(e),
            |l| self.lit(l),
        )?;
        if let Stmt::Local {
            name: local, ty, ..
        } = s
        {
            self.vars
                .borrow_mut()
                .insert(local.clone(), Some(ty.clone()));
        }
        Ok(())
    }
}

impl Emitter {
    /// The emitter of program `p`: its test function's header, and an alias for each class
    /// that a constructor reference names (`import java.util.ArrayList as ArrayList_`, or
    /// `private typealias ArrayList_2 = java.util.ArrayList<String>` for explicit type
    /// arguments), numbered in the order of first use and clashing with no name of the
    /// program.
    fn new(p: &Program) -> Result<Emitter, TranslateError> {
        let mut e = Emitter {
            block_cx: RefCell::new(BodyCx::new(p)),
            ..Emitter::default()
        };
        e.function = Some(e.function_header(&p.type_params)?);
        let mut names = BodyCx::new(p);
        for tp in &p.type_params {
            names.take(&tp.name);
        }
        let mut refs = Vec::new();
        let mut fns = Vec::new();
        // the names the program calls or reads otherwise (an alias import hides the name)
        let mut used = std::collections::HashSet::new();
        p.walk_exprs(&mut |x| match x {
            Expr::Ref {
                kind: RefKind::Constructor { class, type_args },
                ..
            } => refs.push((class, type_args.as_deref())),
            Expr::Ref {
                kind: RefKind::PackageFunction { package, name, .. },
                ..
            } => fns.push((package, name)),
            Expr::Call { name, .. } | Expr::Field { name, .. } => {
                used.insert(name.as_str());
            }
            _ => {}
        });
        if !p.opt_ins.is_empty() {
            let mut markers = Vec::new();
            for m in &p.opt_ins {
                e.check_qualified_name(m)?;
                markers.push(format!("{}::class", qualified(m)));
            }
            e.opt_in = Some(format!("@file:OptIn({})", markers.join(", ")));
        }
        // the extension members the program calls, by name
        for name in &p.imports {
            e.check_qualified_name(name)?;
            e.header.push(format!("import {}", qualified(name)));
        }
        // package functions through an alias (`import kotlin.text.trim as trim_`), which
        // hides the name from the default imports: the program's other uses of the name
        // import it again by name; so does a capitalized function, which is named after the
        // type it makes (`kotlin.Char(code)`: the alias hides the type `Char` too)
        for (package, f) in fns {
            let key = (package.clone(), f.clone());
            if e.fn_aliases.contains_key(&key) {
                continue;
            }
            e.check_qualified_name(package)?;
            e.check_name(f)?;
            let alias = fresh_alias(&mut names, f);
            e.header.push(format!(
                "import {}.{} as {}",
                qualified(package),
                name(f),
                name(&alias)
            ));
            let full = format!("{package}.{f}");
            let names_a_type = f.starts_with(|c: char| c.is_ascii_uppercase());
            if (used.contains(f.as_str()) || names_a_type) && !p.imports.contains(&full) {
                e.header
                    .push(format!("import {}.{}", qualified(package), name(f)));
            }
            e.fn_aliases.insert(key, alias);
        }
        let mut imports = e.header.len();
        for (class, type_args) in refs {
            let key = ctor_key(class, type_args);
            if mapped_class(class).is_some() || e.ctor_aliases.contains_key(&key) {
                continue;
            }
            e.check_qualified_name(class)?;
            let simple = class.rsplit('.').next().unwrap_or(class);
            let alias = fresh_alias(&mut names, simple);
            // an alias hides the class's own name from the default imports, by which the
            // program names Kotlin's own classes too (`(Int) -> Char` beside `::Char_`;
            // Java's are written qualified)
            let package = class.rsplit_once('.').map_or("", |(p, _)| p);
            if key.1.is_none() && package.starts_with("kotlin") && is_default_import(package) {
                e.header
                    .insert(imports, format!("import {}", qualified(class)));
                imports += 1;
            }
            let line = match &key.1 {
                None => format!("import {} as {}", qualified(class), name(&alias)),
                Some(args) => {
                    let mut vars = false;
                    args.iter()
                        .for_each(|a| a.walk(&mut |t| vars |= matches!(t, Ty::Var(_))));
                    if vars {
                        return Err(e.unsupported(
                            "a constructor reference whose type arguments name the test \
                             function's type parameters (its type alias is top-level)",
                        ));
                    }
                    format!(
                        "private typealias {} = {}{}",
                        name(&alias),
                        qualified(class),
                        e.ty_args_opt(args)?
                    )
                }
            };
            // imports come before every declaration
            match key.1 {
                None => e.header.insert(imports, line),
                Some(_) => e.header.push(line),
            }
            imports += usize::from(key.1.is_none());
            e.ctor_aliases.insert(key, alias);
        }
        // the program's own aliases: `private typealias Declared0<T0> = java.util.List<T0>`
        for a in &p.aliases {
            e.check_name(&a.name)?;
            if e.ctor_aliases.values().any(|c| *c == a.name) {
                return Err(e.unsupported(format!(
                    "a type alias named {} beside a constructor alias of that name",
                    a.name
                )));
            }
            let params = common::bracketed(&a.expansion_params(), "<", ">", |v| {
                e.check_name(v)?;
                Ok(name(v))
            })?;
            e.header.push(format!(
                "private typealias {}{params} = {}",
                name(&a.name),
                e.ty(&a.expansion(), TyPos::Value)?
            ));
        }
        e.aliases = p.aliases.clone();
        Ok(e)
    }

    /// `t` as a local's declared type: through the program's alias of its class where one
    /// applies ([`TypeAlias`]; `Declared0<String>?` for a nullable one).
    fn declared_ty(&self, t: &Ty) -> Result<String, TranslateError> {
        let (inner, nullable) = match t {
            Ty::Nullable(i) => (i.as_ref(), true),
            t => (t, false),
        };
        for a in &self.aliases {
            if let Some(args) = a.args_for(inner) {
                let s = format!("{}{}", name(&a.name), self.ty_args_opt(args)?);
                return Ok(if nullable { format!("{s}?") } else { s });
            }
        }
        self.ty(t, TyPos::Value)
    }

    /// `fun <T : A, U : Any> test() {`, or with a `where` clause for a type parameter with
    /// several bounds: `fun <T> test() where T : A, T : B {`. No bound (or `java.lang.Object`)
    /// is `Any`, the type Java's `Object` is written as.
    fn function_header(&self, type_params: &[TypeParam]) -> Result<String, TranslateError> {
        if type_params.is_empty() {
            return Ok("fun test() {".to_owned());
        }
        let mut params = Vec::new();
        let mut wheres = Vec::new();
        for tp in type_params {
            self.check_name(&tp.name)?;
            let n = name(&tp.name);
            let bounds = tp
                .bounds
                .iter()
                .filter(|b| !is_default_bound(b))
                .map(|b| self.ty(b, TyPos::Value))
                .collect::<Result<Vec<_>, _>>()?;
            match bounds.as_slice() {
                [] => params.push(format!("{n} : Any")),
                [b] => params.push(format!("{n} : {b}")),
                bs => {
                    wheres.extend(bs.iter().map(|b| format!("{n} : {b}")));
                    params.push(n);
                }
            }
        }
        let wheres = if wheres.is_empty() {
            String::new()
        } else {
            format!(" where {}", wheres.join(", "))
        };
        Ok(format!("fun <{}> test(){wheres} {{", params.join(", ")))
    }

    /// A local's name, declared type (`None` if `inferred`) and initializer: a lambda or
    /// reference initializing a local of class type gets its SAM constructor, a `null`
    /// literal for a reference type is `(null as T)`.
    fn local_parts(
        &self,
        local: &str,
        ty: &Ty,
        init: &Expr,
        inferred: bool,
    ) -> Result<LocalParts, TranslateError> {
        let ty_s = self.declared_ty(ty)?;
        let init_s = match (ty, init) {
            (Ty::Class { .. }, Expr::Lambda { .. } | Expr::Ref { .. }) => {
                self.fun_expr(init, Some(ty))?
            }
            (Ty::Class { .. }, Expr::Cond { cond, then, els }) => {
                self.cond_expr(cond, then, els, Some(ty))?
            }
            (Ty::Class { .. } | Ty::Array(_) | Ty::Var(_), Expr::Lit(Lit::Null)) => {
                format!("(null as {ty_s})")
            }
            _ => self.expr(init)?,
        };
        Ok((name(local), (!inferred).then_some(ty_s), init_s))
    }

    /// The statements of a lambda block, each as text (their locals enter `vars`).
    fn block_stmts(&self, block: &[Stmt]) -> Result<Vec<String>, TranslateError> {
        let mut out = Vec::new();
        for s in block {
            let text = common::val_stmt_text(
                s,
                "Any?",
                || self.block_cx.borrow_mut().fresh(BLOCK_UNUSED_STEM),
                |n, ty, init, inferred| self.local_parts(n, ty, init, inferred),
                |e| self.expr(e),
                |l| self.lit(l),
            )?;
            if let Stmt::Local { name, ty, .. } = s {
                self.vars
                    .borrow_mut()
                    .insert(name.clone(), Some(ty.clone()));
            }
            out.extend(text);
        }
        Ok(out)
    }
    /// `t` in Kotlin syntax, as written at position `pos`.
    fn ty(&self, t: &Ty, pos: TyPos) -> Result<String, TranslateError> {
        self.check_wildcard(t, pos)?;
        Ok(match t {
            Ty::Prim(PrimTy::Void) if pos == TyPos::Arg => "java.lang.Void".to_owned(),
            Ty::Prim(PrimTy::Void) => return Err(self.unsupported("`void` as the type of a value")),
            Ty::Prim(p) => prim_name(*p).to_owned(),
            Ty::Class { name: class, args } => {
                self.check_qualified_name(class)?;
                let (kotlin_name, variances) = match mapped_class(class) {
                    Some((n, v)) => (n.to_owned(), v),
                    None => (qualified(class), &[][..]),
                };
                if args.is_empty() {
                    kotlin_name
                } else {
                    let args = args
                        .iter()
                        .enumerate()
                        .map(|(i, a)| {
                            let v = variances.get(i).copied().unwrap_or(Variance::Invariant);
                            match (v, a) {
                                (Variance::Out, Ty::WildcardSuper(_))
                                | (Variance::In, Ty::WildcardExtends(_)) => Ok("*".to_owned()),
                                _ => self.ty(a, TyPos::Arg),
                            }
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    format!("{kotlin_name}<{}>", args.join(", "))
                }
            }
            Ty::Var(v) => {
                self.check_name(v)?;
                name(v)
            }
            Ty::WildcardStar => "*".to_owned(),
            Ty::WildcardExtends(b) => format!("out {}", self.ty(b, TyPos::Arg)?),
            Ty::WildcardSuper(b) => format!("in {}", self.ty(b, TyPos::Arg)?),
            Ty::Array(elem) => match elem.as_ref() {
                Ty::Prim(PrimTy::Void) => return Err(self.unsupported("an array of `void`")),
                Ty::Prim(p) => format!("{}Array", prim_name(*p)),
                elem => format!("Array<out {}>", self.ty(elem, TyPos::Value)?),
            },
            Ty::Nullable(inner) => match inner.as_ref() {
                Ty::Function { .. } => format!("({})?", self.ty(inner, TyPos::Value)?),
                Ty::Nullable(_) => self.ty(inner, pos)?,
                inner => format!("{}?", self.ty(inner, TyPos::Value)?),
            },
            Ty::Function {
                receiver,
                params,
                ret,
            } => {
                let (params, ret) =
                    common::function_type_parts(params, ret, |t| self.ty(t, TyPos::Value))?;
                match receiver {
                    Some(r) => format!("{}.({params}) -> {ret}", self.ty(r, TyPos::Value)?),
                    None => format!("({params}) -> {ret}"),
                }
            }
            Ty::Top => "Any?".to_owned(),
            Ty::Bottom => "Nothing".to_owned(),
        })
    }

    /// `<A, B>` or nothing.
    fn ty_args_opt(&self, args: &[Ty]) -> Result<String, TranslateError> {
        common::bracketed(args, "<", ">", |a| self.ty(a, TyPos::Arg))
    }

    /// Lambda or function reference `e` (any other expression as [`Emitter::expr`] writes
    /// it) at a position of declared type `declared` (a local or an array element of class
    /// type; `None` elsewhere).
    fn fun_expr(&self, e: &Expr, declared: Option<&Ty>) -> Result<String, TranslateError> {
        match e {
            Expr::Lambda { .. } => self.lambda_expr(e, declared),
            Expr::Ref { .. } => self.ref_expr(e, declared),
            _ => self.expr(e),
        }
    }

    /// Lambda `e`, bare or wrapped in its interface's SAM constructor
    /// (`java.util.function.Function<String, Int> { s -> ... }`; an object expression for
    /// Kotlin's own `Iterable` and `Comparable`, which are no `fun interface`s). It is
    /// wrapped when it initializes a local or an array element of class type `declared`,
    /// when its position does not convert it ([`Expr::Lambda`]'s `implicit`), and always
    /// for Kotlin's own interfaces.
    fn lambda_expr(&self, e: &Expr, declared: Option<&Ty>) -> Result<String, TranslateError> {
        let Expr::Lambda {
            params,
            body,
            target,
            implicit,
            block,
            form,
            ret,
        } = e
        else {
            return self.expr(e);
        };
        let wrap = sam_wrap(target.as_ref(), *implicit, declared);
        let f = Fun {
            params,
            block,
            body,
            form: *form,
            ret: ret.as_ref(),
        };
        let mut vars = self.vars.borrow_mut();
        for (n, t) in params {
            vars.insert(n.clone(), t.clone());
        }
        drop(vars);
        let result = match &wrap {
            Some(t) => self.wrapped_lambda(t, &f),
            None => self.lambda(&f),
        };
        let mut vars = self.vars.borrow_mut();
        for (n, _) in params {
            vars.remove(n);
        }
        for s in block {
            if let Stmt::Local { name, .. } = s {
                vars.remove(name);
            }
        }
        result
    }

    /// `F<A, B>`, the SAM constructor of functional interface `t` (Kotlin's name of a mapped
    /// interface).
    fn sam_constructor(&self, t: &Ty) -> Result<String, TranslateError> {
        let Ty::Class { name: class, args } = t else {
            return Err(self.unsupported("a SAM constructor of a type that is no class"));
        };
        self.check_qualified_name(class)?;
        let class = match mapped_class(class) {
            Some((n, _)) => n.to_owned(),
            None => qualified(class),
        };
        Ok(format!("{class}{}", self.ty_args_opt(args)?))
    }

    /// A lambda implementing interface `t` explicitly: its SAM constructor, or an object
    /// expression for `Iterable` and `Comparable`.
    fn wrapped_lambda(&self, t: &Ty, f: &Fun) -> Result<String, TranslateError> {
        let Ty::Class { name: class, args } = t else {
            return self.lambda(f);
        };
        self.check_qualified_name(class)?;
        let arg = |i: usize| -> Result<String, TranslateError> {
            match args.get(i) {
                Some(a) => self.ty(a, TyPos::Arg),
                None => Err(self.unsupported(format!("a lambda for the raw type {class}"))),
            }
        };
        match (class.as_str(), f.params) {
            ("java.lang.annotation.Annotation", _) => {
                return Err(self.unsupported(
                    "a lambda for java.lang.annotation.Annotation (kotlin.Annotation has no \
                     abstract method)",
                ))
            }
            ("java.lang.Iterable", []) => {
                let e = arg(0)?;
                return Ok(format!(
                    "object : MutableIterable<{e}> {{ override fun iterator(): \
                     MutableIterator<{e}> {} }}",
                    self.method_body(f)?
                ));
            }
            ("java.lang.Comparable", [(p, _)]) => {
                let e = arg(0)?;
                return Ok(format!(
                    "object : Comparable<{e}> {{ override fun compareTo({}: {e}): Int {} }}",
                    name(p),
                    self.method_body(f)?
                ));
            }
            _ => {}
        }
        let lambda = self.lambda(f)?;
        let sam = self.sam_constructor(t)?;
        Ok(match f.form {
            LambdaForm::AnonymousFunction => format!("{sam}({lambda})"),
            LambdaForm::Usual | LambdaForm::Arrow => format!("{sam} {lambda}"),
        })
    }

    /// The body of an object expression's method that runs lambda `f`: `= body`, or
    /// `{ stmts; return body }` for a block.
    fn method_body(&self, f: &Fun) -> Result<String, TranslateError> {
        let stmts = self.block_stmts(f.block)?;
        let body = self.expr(f.body)?;
        Ok(if stmts.is_empty() {
            format!("= {body}")
        } else {
            format!("{{ {}; return {body} }}", stmts.join("; "))
        })
    }
    /// The static type of `e` if it is evident without the API (locals, literals, `new`, casts,
    /// bottom constants).
    fn static_type(&self, e: &Expr) -> Option<Ty> {
        match e {
            Expr::Local(n) => self.vars.borrow().get(n).cloned().flatten(),
            Expr::Lit(Lit::Str(_)) => Some(Ty::string()),
            Expr::Lit(Lit::Int(_)) => Some(Ty::INT),
            Expr::Lit(Lit::Long(_)) => Some(Ty::LONG),
            Expr::Lit(Lit::Float(_)) => Some(Ty::FLOAT),
            Expr::Lit(Lit::Double(_)) => Some(Ty::DOUBLE),
            Expr::Lit(Lit::Char(_)) => Some(Ty::CHAR),
            Expr::Lit(Lit::Byte(_)) => Some(Ty::BYTE),
            Expr::Lit(Lit::Short(_)) => Some(Ty::SHORT),
            Expr::Lit(Lit::Bool(_)) => Some(Ty::BOOLEAN),
            Expr::New { class, .. } => Some(Ty::class(class.clone(), vec![])),
            Expr::Cast { ty, .. } | Expr::Bottom(ty) => Some(ty.clone()),
            Expr::NewArray { elem, .. } => Some(Ty::array(elem.clone())),
            _ => None,
        }
    }

    /// `e` in Kotlin syntax; compound forms come parenthesized.
    fn expr(&self, e: &Expr) -> Result<String, TranslateError> {
        Ok(match e {
            Expr::Lit(lit) => self.lit(lit)?,
            Expr::Bottom(t) => self.bottom(t)?,
            Expr::Local(n) => name(n),
            Expr::Unit => "Unit".to_owned(),
            Expr::New {
                class,
                type_args,
                args,
                outer: None,
            } => self.new_instance(class, type_args.as_deref(), args)?,
            Expr::New {
                class,
                type_args,
                args,
                outer: Some(outer),
            } => {
                // an inner class is created on its outer instance: `o.Inner<A>(args)`
                self.check_qualified_name(class)?;
                let inner = class.rsplit('.').next().unwrap_or(class);
                format!(
                    "{}.{}{}({})",
                    self.receiver(outer)?,
                    name(inner),
                    self.ty_args_opt(type_args.as_deref().unwrap_or_default())?,
                    self.args(args)?
                )
            }
            Expr::Ref { .. } => self.ref_expr(e, None)?,
            Expr::Call {
                receiver,
                name: method,
                type_args,
                args,
                declared_in,
                form,
                ..
            } => {
                self.check_name(method)?;
                if let Some(s) = self.operator_form(receiver, method, type_args, args, form)? {
                    return Ok(s);
                }
                let targs = self.ty_args_opt(type_args)?;
                let args_s = match form {
                    CallForm::Named(names) => self.named_args(args, names)?,
                    _ => self.args(args)?,
                };
                match receiver {
                    Receiver::None => format!("{}{targs}({args_s})", name(method)),
                    Receiver::Static(class) => {
                        self.check_qualified_name(class)?;
                        format!("{}.{}{targs}({args_s})", qualified(class), name(method))
                    }
                    Receiver::Expr(r) => {
                        let recv = self.receiver(r)?;
                        let recv_ty = self.static_type(r);
                        let first_is_int =
                            args.first().and_then(|a| self.static_type(a)) == Some(Ty::INT);
                        let member = member_form(
                            recv_ty.as_ref(),
                            method,
                            args.len(),
                            first_is_int,
                            declared_in,
                        );
                        match member {
                            None => format!("{recv}.{}{targs}({args_s})", name(method)),
                            Some(Member::Call(m)) => format!("{recv}.{m}{targs}({args_s})"),
                            Some(Member::Property(p)) => format!("{recv}.{p}"),
                            Some(Member::PropertyNonNull(p)) => format!("{recv}.{p}!!"),
                            Some(Member::NonNull) => {
                                format!("{recv}.{}{targs}({args_s})!!", name(method))
                            }
                            Some(Member::OnJavaClass(c)) => {
                                format!("({recv} as {c}).{}{targs}({args_s})", name(method))
                            }
                            Some(Member::Chain(calls)) => format!("{recv}.{calls}"),
                            Some(Member::Unsupported(why)) => return Err(self.unsupported(why)),
                        }
                    }
                }
            }
            Expr::Field {
                receiver,
                name: field,
            } => {
                self.check_name(field)?;
                match receiver {
                    Receiver::None => name(field),
                    Receiver::Static(class) => {
                        self.check_qualified_name(class)?;
                        format!("{}.{}", qualified(class), name(field))
                    }
                    Receiver::Expr(r) => {
                        let recv = self.receiver(r)?;
                        let is_array = match self.static_type(r) {
                            Some(t) => matches!(t, Ty::Array(_)),
                            // `length` is nearly always an array's.
                            None => true,
                        };
                        if field == "length" && is_array {
                            format!("{recv}.size")
                        } else {
                            format!("{recv}.{}", name(field))
                        }
                    }
                }
            }
            Expr::Lambda { .. } => self.lambda_expr(e, None)?,
            Expr::NewArray { elem, elems } => {
                // A lambda element of a functional interface type needs its SAM constructor.
                let elems = common::comma_separated(elems, |e| match (elem, e) {
                    (Ty::Class { .. }, Expr::Lambda { .. } | Expr::Ref { .. }) => {
                        self.fun_expr(e, Some(elem))
                    }
                    _ => self.expr(e),
                })?;
                match elem {
                    Ty::Prim(PrimTy::Void) => return Err(self.unsupported("an array of `void`")),
                    Ty::Prim(p) => format!("{}ArrayOf({elems})", prim_name(*p).to_lowercase()),
                    t => format!("arrayOf<{}>({elems})", self.ty(t, TyPos::Arg)?),
                }
            }
            Expr::Spread(inner) => format!("*{}", self.receiver(inner)?),
            Expr::Cast { ty, expr, .. } => self.cast(ty, expr)?,
            Expr::Cond { cond, then, els } => self.cond_expr(cond, then, els, None)?,
            Expr::Anonymous {
                ty,
                super_args,
                methods,
            } => self.anonymous(ty, super_args.as_deref(), methods)?,
        })
    }

    /// An object expression on one line: `(object : I<A> { override fun m(p: P): R = e })`,
    /// `override fun run() {}` for a `void` method with an empty body, a class's
    /// constructor call as its supertype (`object : C<A>(x) { .. }`), a member of a mapped
    /// type by Kotlin's name (`override val size: Int get() = 0`, `override fun get(index:
    /// Int): Char = 'a'`). The parameters are in scope in their method's body.
    fn anonymous(
        &self,
        ty: &Ty,
        super_args: Option<&[Expr]>,
        methods: &[Method],
    ) -> Result<String, TranslateError> {
        match ty {
            Ty::Class { name, .. } if name == "java.lang.annotation.Annotation" => {
                return Err(self.unsupported(
                    "an object expression for java.lang.annotation.Annotation (kotlin.Annotation \
                     has no abstract method)",
                ))
            }
            Ty::Class { .. } => {}
            _ => {
                return Err(self.unsupported("an object expression of a type that is no class type"))
            }
        }
        let mut decls = Vec::with_capacity(methods.len());
        for m in methods {
            let params = common::comma_separated(&m.params, |(n, t)| {
                Ok(format!("{}: {}", name(n), self.ty(t, TyPos::Value)?))
            })?;
            let mut vars = self.vars.borrow_mut();
            for (n, t) in &m.params {
                vars.insert(n.clone(), Some(t.clone()));
            }
            drop(vars);
            let decl = match (&m.kotlin, &m.ret, &m.body) {
                (Some(k), Ty::Prim(PrimTy::Void), _) if k.property => {
                    Err(self.unsupported("a property override of a method without a result"))
                }
                (Some(k), ret, body) if k.property => {
                    self.check_name(&k.name)?;
                    self.local_parts("result", ret, body, false)
                        .map(|(_, t, b)| {
                            format!(
                                "override val {}: {} get() = {b}",
                                name(&k.name),
                                t.unwrap_or_default()
                            )
                        })
                }
                (kotlin, ret, body) => {
                    let member = kotlin.as_ref().map_or(&m.name, |k| &k.name);
                    self.check_name(member)?;
                    let head = format!("override fun {}({params})", name(member));
                    match (ret, body) {
                        (Ty::Prim(PrimTy::Void), Expr::Unit) => Ok(format!("{head} {{}}")),
                        (Ty::Prim(PrimTy::Void), body) => {
                            self.expr(body).map(|b| format!("{head} {{ {b} }}"))
                        }
                        (ret, body) => self
                            .local_parts("result", ret, body, false)
                            .map(|(_, t, b)| format!("{head}: {} = {b}", t.unwrap_or_default())),
                    }
                }
            };
            let mut vars = self.vars.borrow_mut();
            for (n, _) in &m.params {
                vars.remove(n);
            }
            decls.push(decl?);
        }
        let call = match super_args {
            Some(args) => format!("({})", self.args(args)?),
            None => String::new(),
        };
        Ok(format!(
            "(object : {}{call} {{ {} }})",
            self.ty(ty, TyPos::Value)?,
            decls.join("; ")
        ))
    }

    /// `(if (c) a else b)` at a position of declared type `declared` (a local's). A lambda or
    /// reference branch gets its SAM constructor (with its target, else the declared type):
    /// Kotlin converts neither a lambda in a local's `if` nor a callable reference in an
    /// argument's `if`; a bare lambda branch would be read as the branch's block, so one
    /// without a type to wrap it in is parenthesized.
    fn cond_expr(
        &self,
        cond: &Expr,
        then: &Expr,
        els: &Expr,
        declared: Option<&Ty>,
    ) -> Result<String, TranslateError> {
        common::if_else(cond, then, els, |e| match e {
            Expr::Lambda { target, .. } | Expr::Ref { target, .. } => {
                let d = declared.or(target.as_ref());
                let s = self.fun_expr(e, d)?;
                Ok(if s.starts_with('{') {
                    format!("({s})")
                } else {
                    s
                })
            }
            Expr::Cond { cond, then, els } => self.cond_expr(cond, then, els, declared),
            e => self.expr(e),
        })
    }

    /// `C<A>(args)`, `C(args)` for the IR's diamond (`None`: Kotlin infers the type
    /// arguments). A mapped class's Java constructor builds a value of the Java class, which
    /// Kotlin does not take for the mapped type: Kotlin's own constructors are used where it
    /// has them, else the value is cast (`(java.lang.String("x") as String)`).
    fn new_instance(
        &self,
        class: &str,
        type_args: Option<&[Ty]>,
        args: &[Expr],
    ) -> Result<String, TranslateError> {
        self.check_qualified_name(class)?;
        let targs = self.ty_args_opt(type_args.unwrap_or_default())?;
        let args = self.args(args)?;
        Ok(match (class, mapped_class(class)) {
            ("java.lang.Object", _) => format!("Any({args})"),
            ("java.lang.Throwable", _) => format!("Throwable({args})"),
            (_, Some((kotlin_name, _))) => {
                format!("({}{targs}({args}) as {kotlin_name})", qualified(class))
            }
            (_, None) => format!("{}{targs}({args})", qualified(class)),
        })
    }

    /// A lambda's text (its parameters are in scope): `{ a, b: T -> stmts; body }`, or the
    /// anonymous function `fun(a, b: T): R { stmts; return body }`.
    fn lambda(&self, f: &Fun) -> Result<String, TranslateError> {
        let params = common::colon_params(f.params, name, |t| self.ty(t, TyPos::Value))?;
        let mut parts = self.block_stmts(f.block)?;
        if f.form == LambdaForm::AnonymousFunction {
            let stmts: String = parts.iter().map(|s| format!("{s}; ")).collect();
            return Ok(match (f.body, f.ret) {
                (Expr::Unit, _) | (_, Some(Ty::Prim(PrimTy::Void))) => {
                    let mut parts = parts;
                    if !matches!(f.body, Expr::Unit) {
                        parts.push(self.expr(f.body)?);
                    }
                    if parts.is_empty() {
                        format!("fun({params}) {{}}")
                    } else {
                        format!("fun({params}) {{ {} }}", parts.join("; "))
                    }
                }
                (body, Some(r)) => format!(
                    "fun({params}): {} {{ {stmts}return {} }}",
                    self.ty(r, TyPos::Value)?,
                    self.expr(body)?
                ),
                (body, None) if parts.is_empty() => {
                    format!("fun({params}) = {}", self.expr(body)?)
                }
                (_, None) => {
                    return Err(self.unsupported(
                        "an anonymous function with a block body and no result type \
                         (`Expr::Lambda::ret`)",
                    ))
                }
            });
        }
        let params = if params.is_empty() {
            "->".to_owned()
        } else {
            format!("{params} ->")
        };
        if !matches!(f.body, Expr::Unit) {
            parts.push(self.expr(f.body)?);
        }
        Ok(if parts.is_empty() {
            format!("{{ {params} }}")
        } else {
            format!("{{ {params} {} }}", parts.join("; "))
        })
    }

    /// Function reference `e` (a callable reference), bare or wrapped in its interface's SAM
    /// constructor as a lambda is ([`Emitter::lambda_expr`]):
    /// `java.util.function.Function<String, Int>(java.lang.Integer::parseInt)`.
    fn ref_expr(&self, e: &Expr, declared: Option<&Ty>) -> Result<String, TranslateError> {
        let Expr::Ref {
            kind,
            fn_params,
            target,
            implicit,
            declared_in,
            ..
        } = e
        else {
            return self.expr(e);
        };
        let r = self.callable_ref(kind, fn_params, declared_in)?;
        match sam_wrap(target.as_ref(), *implicit, declared) {
            Some(t @ Ty::Class { .. }) => {
                if let Ty::Class { name: class, .. } = &t {
                    if is_kotlin_interface(&t) {
                        return Err(self.unsupported(format!(
                            "a function reference for {class}, which Kotlin maps to its own \
                             interface (no fun interface: no SAM conversion)"
                        )));
                    }
                }
                Ok(format!("{}({r})", self.sam_constructor(&t)?))
            }
            _ => Ok(r),
        }
    }

    /// The callable reference of `kind` for a function of parameters `fn_params`:
    /// `java.lang.Integer::parseInt`, `(e)::m`, `String::length`, `::ArrayList_`.
    fn callable_ref(
        &self,
        kind: &RefKind,
        fn_params: &[Ty],
        declared_in: &[String],
    ) -> Result<String, TranslateError> {
        Ok(match kind {
            RefKind::Static { class, name: m } => {
                self.check_qualified_name(class)?;
                self.check_name(m)?;
                format!("{}::{}", qualified(class), name(m))
            }
            RefKind::Bound { receiver, name: m } => {
                self.check_name(m)?;
                let recv_ty = self.static_type(receiver);
                let first_is_int = fn_params.first() == Some(&Ty::INT);
                let member = member_form(
                    recv_ty.as_ref(),
                    m,
                    fn_params.len(),
                    first_is_int,
                    declared_in,
                );
                let recv = match receiver.as_ref() {
                    Expr::Local(n) => name(n),
                    r => format!("({})", self.expr(r)?),
                };
                match member {
                    None | Some(Member::NonNull) => format!("{recv}::{}", name(m)),
                    Some(Member::Call(k) | Member::Property(k)) => format!("{recv}::{k}"),
                    Some(Member::OnJavaClass(c)) => {
                        format!("({} as {c})::{}", self.expr(receiver)?, name(m))
                    }
                    Some(Member::Chain(calls)) => return Err(self.chain_ref(m, calls)),
                    Some(Member::PropertyNonNull(p)) => {
                        return Err(self.nullable_property_ref(m, p))
                    }
                    Some(Member::Unsupported(why)) => return Err(self.unsupported(why)),
                }
            }
            RefKind::Unbound { ty, name: m } => {
                self.check_name(m)?;
                let Some(arity) = fn_params.len().checked_sub(1) else {
                    return Err(
                        self.unsupported("an unbound reference without a receiver parameter")
                    );
                };
                if let Ty::Var(v) = ty {
                    return Err(self.unsupported(format!(
                        "an unbound reference on type parameter {v} (kotlinc resolves no \
                         callable reference `{v}::m`)"
                    )));
                }
                let first_is_int = fn_params.get(1) == Some(&Ty::INT);
                let member = member_form(Some(ty), m, arity, first_is_int, declared_in);
                let lhs = self.ty(ty, TyPos::Value)?;
                match member {
                    None | Some(Member::NonNull) => format!("{lhs}::{}", name(m)),
                    Some(Member::Call(k) | Member::Property(k)) => format!("{lhs}::{k}"),
                    Some(Member::OnJavaClass(c)) => {
                        return Err(self.unsupported(format!(
                            "an unbound reference to `{m}`, which Kotlin calls only on the \
                             Java class {c} (not a supertype of Kotlin's {lhs})"
                        )))
                    }
                    Some(Member::Chain(calls)) => return Err(self.chain_ref(m, calls)),
                    Some(Member::PropertyNonNull(p)) => {
                        return Err(self.nullable_property_ref(m, p))
                    }
                    Some(Member::Unsupported(why)) => return Err(self.unsupported(why)),
                }
            }
            RefKind::Constructor { class, type_args } => match class.as_str() {
                "java.lang.Object" => "::Any".to_owned(),
                "java.lang.Throwable" => "::Throwable".to_owned(),
                c if refuses_constructor_reference(c) => {
                    return Err(self.unsupported(format!(
                        "a constructor reference to {c}, which Kotlin maps to its own type"
                    )))
                }
                c => match self.ctor_aliases.get(&ctor_key(c, type_args.as_deref())) {
                    Some(alias) => format!("::{}", name(alias)),
                    None => {
                        return Err(self.unsupported(format!(
                            "a constructor reference to {c} outside its program (no alias)"
                        )))
                    }
                },
            },
            RefKind::ArrayConstructor { .. } => {
                return Err(self.unsupported(
                    "an array constructor reference (`T[]::new`): Kotlin has no callable \
                     reference to an array constructor",
                ))
            }
            RefKind::PackageFunction {
                package,
                name: f,
                on,
            } => {
                let Some(alias) = self.fn_aliases.get(&(package.clone(), f.clone())) else {
                    return Err(self.unsupported(format!(
                        "a reference to {package}.{f} outside its program (no alias)"
                    )));
                };
                let alias = name(alias);
                match on {
                    RefOn::Nothing => format!("::{alias}"),
                    RefOn::Type(Ty::Var(v)) => {
                        return Err(self.unsupported(format!(
                            "an unbound reference on type parameter {v} (kotlinc resolves no \
                             callable reference `{v}::m`)"
                        )))
                    }
                    RefOn::Type(ty) => format!("{}::{alias}", self.ty(ty, TyPos::Value)?),
                    RefOn::Value(receiver) => match receiver.as_ref() {
                        Expr::Local(n) => format!("{}::{alias}", name(n)),
                        r => format!("({})::{alias}", self.expr(r)?),
                    },
                }
            }
        })
    }

    /// The error for a reference to `method`, which Kotlin writes as the chain `calls`.
    fn chain_ref(&self, method: &str, calls: &str) -> TranslateError {
        self.unsupported(format!(
            "a reference to `{method}`, which Kotlin writes as the calls `{calls}`"
        ))
    }

    /// Why a reference to a getter that Kotlin shows only as a nullable property is not written.
    fn nullable_property_ref(&self, method: &str, property: &str) -> TranslateError {
        self.unsupported(format!(
            "a reference to `{method}`, an override that Kotlin shows only as the nullable \
             property `{property}`"
        ))
    }

    /// A cast: a numeric conversion between primitives whose source type is known, else `as`.
    /// A lambda or reference cast to a class type gets its SAM constructor first (`as` alone
    /// is an unchecked cast, not a SAM conversion, and gives a lambda no parameter types):
    /// `(java.util.function.Function<String, Int>(java.lang.Integer::parseInt) as F)`.
    fn cast(&self, ty: &Ty, expr: &Expr) -> Result<String, TranslateError> {
        // a cast gives a lambda no expected type: its parameters are typed from the function
        // type (`{ x: String -> .. } as (String) -> Int`)
        if let (
            Ty::Function {
                receiver: None,
                params: fn_params,
                ..
            },
            Expr::Lambda { params, .. },
        ) = (ty, expr)
        {
            if fn_params.len() != params.len() {
                return Err(self.unsupported(format!(
                    "a lambda of {} parameters cast to a function type of {}",
                    params.len(),
                    fn_params.len()
                )));
            }
            let mut typed = expr.clone();
            if let Expr::Lambda { params, .. } = &mut typed {
                for ((_, t), p) in params.iter_mut().zip(fn_params) {
                    t.get_or_insert_with(|| p.clone());
                }
            }
            // parenthesized: an anonymous function's expression body would take the `as`
            return Ok(format!(
                "(({}) as {})",
                self.lambda_expr(&typed, None)?,
                self.ty(ty, TyPos::Value)?
            ));
        }
        if let (Ty::Function { .. }, Expr::Ref { .. }) = (ty, expr) {
            return Err(self.unsupported(
                "a callable reference cast to a function type (a cast gives it no expected \
                 type to resolve overloads and infer type arguments with)",
            ));
        }
        if let (Ty::Class { .. }, Expr::Lambda { .. } | Expr::Ref { .. }) = (ty, expr) {
            return Ok(format!(
                "({} as {})",
                self.fun_expr(expr, Some(ty))?,
                self.ty(ty, TyPos::Value)?
            ));
        }
        let e = self.receiver(expr)?;
        if let (&Ty::Prim(to), Some(Ty::Prim(from))) = (ty, self.static_type(expr)) {
            let numeric = |p: PrimTy| !matches!(p, PrimTy::Boolean | PrimTy::Void);
            if numeric(to) && numeric(from) && to != from {
                return Ok(match (from, to) {
                    (PrimTy::Char, PrimTy::Int) => format!("{e}.code"),
                    (PrimTy::Char, to) => format!("{e}.code.to{}()", prim_name(to)),
                    (PrimTy::Int, PrimTy::Char) => format!("{e}.toChar()"),
                    (_, PrimTy::Char) => format!("{e}.toInt().toChar()"),
                    (_, to) => format!("{e}.to{}()", prim_name(to)),
                });
            }
        }
        Ok(format!(
            "({} as {})",
            self.expr(expr)?,
            self.ty(ty, TyPos::Value)?
        ))
    }

    /// Comma-separated arguments.
    fn args(&self, args: &[Expr]) -> Result<String, TranslateError> {
        common::comma_separated(args, |a| self.expr(a))
    }

    /// Arguments with names where given: `a, limit = 3`.
    fn named_args(
        &self,
        args: &[Expr],
        names: &[Option<String>],
    ) -> Result<String, TranslateError> {
        if names.len() != args.len() {
            return Err(self.unsupported(format!(
                "{} argument names for {} arguments",
                names.len(),
                args.len()
            )));
        }
        let pairs: Vec<(&Expr, &Option<String>)> = args.iter().zip(names).collect();
        common::comma_separated(&pairs, |&(a, n)| {
            Ok(match n {
                Some(n) => {
                    self.check_name(n)?;
                    format!("{} = {}", name(n), self.expr(a)?)
                }
                None => self.expr(a)?,
            })
        })
    }

    /// The operator or infix form of a call (`None` for the other forms): `a + b`,
    /// `b in a`, `a[i]`, `a[i] = v`, `-a`, `a(x)`, `a < b`, `a += b`, `a to b`. Operands
    /// other than locals and plain calls are parenthesized.
    fn operator_form(
        &self,
        receiver: &Receiver,
        method: &str,
        type_args: &[Ty],
        args: &[Expr],
        form: &CallForm,
    ) -> Result<Option<String>, TranslateError> {
        if !matches!(form, CallForm::Operator | CallForm::Infix) {
            return Ok(None);
        }
        let Receiver::Expr(r) = receiver else {
            return Err(self.unsupported(format!("`{method}` in operator form without a receiver")));
        };
        if !type_args.is_empty() {
            return Err(self.unsupported(format!(
                "`{method}` in operator form with explicit type arguments"
            )));
        }
        let a = self.operand(r)?;
        let ops = args
            .iter()
            .map(|x| self.operand(x))
            .collect::<Result<Vec<_>, _>>()?;
        if *form == CallForm::Infix {
            return match ops.as_slice() {
                [b] => Ok(Some(format!("{a} {} {b}", name(method)))),
                _ => {
                    Err(self.unsupported(format!("infix `{method}` with {} arguments", args.len())))
                }
            };
        }
        let binary = |op: &str| match ops.as_slice() {
            [b] => Some(format!("{a} {op} {b}")),
            _ => None,
        };
        let unary = |op: &str| ops.is_empty().then(|| format!("{op}{a}"));
        let s = match method {
            "plus" => binary("+"),
            "minus" => binary("-"),
            "times" => binary("*"),
            "div" => binary("/"),
            "rem" => binary("%"),
            "rangeTo" => binary(".."),
            "rangeUntil" => binary("..<"),
            "compareTo" => binary("<"),
            "plusAssign" => binary("+="),
            "minusAssign" => binary("-="),
            "timesAssign" => binary("*="),
            "divAssign" => binary("/="),
            "remAssign" => binary("%="),
            "contains" => match ops.as_slice() {
                [b] => Some(format!("{b} in {a}")),
                _ => None,
            },
            "unaryMinus" => unary("-"),
            "unaryPlus" => unary("+"),
            "not" => unary("!"),
            "get" if !args.is_empty() => Some(format!("{a}[{}]", self.args(args)?)),
            "set" if args.len() >= 2 => {
                let (value, index) = args.split_last().expect("two arguments at least");
                Some(format!(
                    "{a}[{}] = {}",
                    self.args(index)?,
                    self.expr(value)?
                ))
            }
            "invoke" => Some(format!("{a}({})", self.args(args)?)),
            _ => None,
        };
        match s {
            Some(s) => Ok(Some(s)),
            None => {
                Err(self.unsupported(format!("operator `{method}` with {} arguments", args.len())))
            }
        }
    }

    /// `e` as an operand of an operator: a local or a usual call as is, anything else
    /// parenthesized (unless it already is).
    fn operand(&self, e: &Expr) -> Result<String, TranslateError> {
        let s = self.expr(e)?;
        let plain = match e {
            Expr::Local(_) => true,
            Expr::Call { form, .. } => form.is_usual() || matches!(form, CallForm::Named(_)),
            Expr::Field { .. } => true,
            _ => false,
        };
        Ok(if plain || common::is_parenthesized(&s) {
            s
        } else {
            format!("({s})")
        })
    }

    /// `e` as the qualifier of a member access (parenthesized where needed).
    fn receiver(&self, e: &Expr) -> Result<String, TranslateError> {
        let s = self.expr(e)?;
        if let Expr::Call {
            form: CallForm::Operator | CallForm::Infix,
            ..
        } = e
        {
            return Ok(if common::is_parenthesized(&s) {
                s
            } else {
                format!("({s})")
            });
        }
        Ok(match e {
            Expr::Lit(Lit::Str(_) | Lit::Null | Lit::Bool(_) | Lit::Char(_)) => s,
            Expr::Lit(_) | Expr::Lambda { .. } | Expr::Ref { .. } if !s.starts_with('(') => {
                format!("({s})")
            }
            _ => s,
        })
    }

    /// The typed bottom constant of type `t`: `(null as T)`, or the default value of a
    /// primitive `T`.
    fn bottom(&self, t: &Ty) -> Result<String, TranslateError> {
        match t {
            Ty::Prim(p) => LITERALS.zero(self, *p),
            t => Ok(format!("(null as {})", self.ty(t, TyPos::Value)?)),
        }
    }

    /// A literal in Kotlin syntax.
    fn lit(&self, lit: &Lit) -> Result<String, TranslateError> {
        LITERALS.literal(self, lit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Expr, Program, Stmt, Ty};

    fn ty(t: Ty) -> String {
        Emitter::default()
            .ty(&t, TyPos::Value)
            .expect("type is expressible")
    }

    /// The body line(s) of a program.
    fn body(stmts: Vec<Stmt>) -> Result<String, TranslateError> {
        common::test_support::body(&KotlinTranslator, stmts)
    }

    /// The last body line of a program.
    fn last(stmts: Vec<Stmt>) -> String {
        body(stmts)
            .expect("translates")
            .lines()
            .last()
            .unwrap_or_default()
            .to_owned()
    }

    fn one(s: Stmt) -> String {
        body(vec![s]).expect("translates")
    }

    #[test]
    fn file_layout() {
        let src = KotlinTranslator
            .translate(&Program::new("p7", vec![]))
            .expect("translates");
        assert_eq!(
            src,
            "package thalia.p7\n\nobject Test_p7 {\n    fun test() {\n    }\n}\n"
        );
        assert_eq!(
            KotlinTranslator.file_name(&Program::new("p7", vec![])),
            "Test_p7.kt"
        );
    }

    #[test]
    fn types() {
        assert_eq!(ty(Ty::object()), "Any");
        assert_eq!(ty(Ty::class("java.lang.Integer", vec![])), "Int");
        assert_eq!(
            ty(Ty::class(
                "java.util.Map",
                vec![Ty::string(), Ty::class("java.util.List", vec![Ty::INT])]
            )),
            "MutableMap<String, MutableList<Int>>"
        );
        assert_eq!(
            ty(Ty::class(
                "java.util.Map.Entry",
                vec![Ty::extends(Ty::object()), Ty::WildcardStar]
            )),
            "MutableMap.MutableEntry<out Any, *>"
        );
        // Projections against declaration-site variance.
        assert_eq!(
            ty(Ty::class(
                "java.lang.Comparable",
                vec![Ty::extends(Ty::string())]
            )),
            "Comparable<*>"
        );
        assert_eq!(
            ty(Ty::class(
                "java.lang.Comparable",
                vec![Ty::super_of(Ty::string())]
            )),
            "Comparable<in String>"
        );
        assert_eq!(
            ty(Ty::class(
                "java.lang.Iterable",
                vec![Ty::super_of(Ty::string())]
            )),
            "MutableIterable<*>"
        );
        assert_eq!(ty(Ty::array(Ty::SHORT)), "ShortArray");
        assert_eq!(ty(Ty::array(Ty::array(Ty::INT))), "Array<out IntArray>");
        assert_eq!(ty(Ty::array(Ty::string())), "Array<out String>");
        assert_eq!(ty(Ty::nullable(Ty::INT)), "Int?");
        assert_eq!(
            ty(Ty::nullable(Ty::function(vec![Ty::INT], Ty::VOID))),
            "((Int) -> Unit)?"
        );
        assert_eq!(ty(Ty::Top), "Any?");
        assert_eq!(ty(Ty::Bottom), "Nothing");
        assert_eq!(
            ty(Ty::class("org.example.object.Foo", vec![])),
            "org.example.`object`.Foo"
        );
        assert!(Emitter::default()
            .ty(&Ty::WildcardStar, TyPos::Value)
            .is_err());
    }

    #[test]
    fn keywords_are_quoted_not_rejected() {
        assert_eq!(
            one(Stmt::local(
                "in",
                Ty::INT,
                Expr::static_field("org.example.Io", "is")
            )),
            "val `in`: Int = org.example.Io.`is`"
        );
        assert_eq!(
            one(Stmt::expr(Expr::static_call("a.b", "when", vec![], vec![]))),
            "a.b.`when`()"
        );
        assert_eq!(
            one(Stmt::local("a$b", Ty::INT, Expr::int(1))),
            "val `a$b`: Int = 1"
        );
    }

    #[test]
    fn sam_constructors_for_lambda_locals() {
        let f = |args| Ty::class("java.util.function.Function", args);
        let lam = || Expr::lambda(vec![("x".into(), None)], Expr::local("x"));
        assert_eq!(
            one(Stmt::local("f", f(vec![Ty::string(), Ty::string()]), lam())),
            "val f: java.util.function.Function<String, String> = \
             java.util.function.Function<String, String> { x -> x }"
        );
        assert_eq!(
            one(Stmt::local(
                "f",
                f(vec![Ty::super_of(Ty::string()), Ty::WildcardStar]),
                lam()
            )),
            "val f: java.util.function.Function<in String, *> = \
             java.util.function.Function<String, Any> { x -> x }"
        );
        // Lambdas elsewhere are plain Kotlin lambdas; no parameters means `->`, not `it`.
        assert_eq!(
            one(Stmt::expr(Expr::static_call(
                "a.B",
                "run",
                vec![],
                vec![Expr::lambda(vec![], Expr::unit())]
            ))),
            "a.B.run({ -> })"
        );
        assert_eq!(
            one(Stmt::local(
                "g",
                Ty::function(vec![Ty::INT], Ty::INT),
                Expr::lambda(vec![("y".into(), Some(Ty::INT))], Expr::local("y"))
            )),
            "val g: (Int) -> Int = { y: Int -> y }"
        );
    }

    #[test]
    fn bottoms_and_nulls() {
        assert_eq!(
            one(Stmt::local("s", Ty::string(), Expr::bottom(Ty::string()))),
            "val s: String = (null as String)"
        );
        assert_eq!(
            one(Stmt::local("s", Ty::string(), Expr::null())),
            "val s: String = (null as String)"
        );
        assert_eq!(
            one(Stmt::local("s", Ty::nullable(Ty::string()), Expr::null())),
            "val s: String? = null"
        );
        assert_eq!(
            one(Stmt::local("c", Ty::CHAR, Expr::bottom(Ty::CHAR))),
            "val c: Char = '\\u0000'"
        );
        assert!(body(vec![Stmt::expr(Expr::bottom(Ty::VOID))]).is_err());
    }

    #[test]
    fn members_of_mapped_types_are_renamed() {
        let s = || Stmt::local("s", Ty::string(), Expr::str("x"));
        let call = |recv: &str, m: &str, args| Expr::local(recv).method(m, args);
        assert_eq!(
            last(vec![
                s(),
                Stmt::local("n", Ty::INT, call("s", "length", vec![]))
            ]),
            "val n: Int = s.length"
        );
        assert_eq!(
            last(vec![
                s(),
                Stmt::local("c", Ty::CHAR, call("s", "charAt", vec![Expr::int(0)]))
            ]),
            "val c: Char = s.get(0)"
        );
        assert_eq!(
            last(vec![s(), Stmt::expr(call("s", "getBytes", vec![]))]),
            "(s as java.lang.String).getBytes()"
        );
        let m = || {
            Stmt::local(
                "m",
                Ty::class("java.util.Map", vec![Ty::string(), Ty::INT]),
                Expr::new_instance("java.util.HashMap", None, vec![]),
            )
        };
        assert_eq!(
            last(vec![
                m(),
                Stmt::expr(call("m", "put", vec![Expr::str("a"), Expr::int(1)]))
            ]),
            "m.put(\"a\", 1)!!"
        );
        assert_eq!(
            last(vec![
                m(),
                Stmt::local(
                    "k",
                    Ty::class("java.util.Set", vec![Ty::string()]),
                    call("m", "keySet", vec![])
                )
            ]),
            "val k: MutableSet<String> = m.keys"
        );
        // An Object receiver keeps the call: Java rejects `length()` there, and so does Kotlin.
        assert_eq!(
            last(vec![
                Stmt::local("o", Ty::object(), Expr::str("x")),
                Stmt::expr(call("o", "length", vec![]))
            ]),
            "o.length()"
        );
        assert_eq!(
            kotlin_member(None, "getClass", 0, &[]),
            Some(Member::Property("javaClass"))
        );
        assert_eq!(
            kotlin_member(None, "wait", 1, &[]),
            Some(Member::OnJavaClass("java.lang.Object"))
        );
        assert_eq!(
            kotlin_member(None, "getMessage", 0, &[]),
            Some(Member::Property("message"))
        );
        let foo = Ty::class("org.example.Foo", vec![]);
        assert_eq!(kotlin_member(Some(&foo), "getMessage", 0, &[]), None);
        let ex = Ty::class("java.io.IOException", vec![]);
        assert_eq!(
            kotlin_member(Some(&ex), "getCause", 0, &[]),
            Some(Member::OnJavaClass("java.lang.Throwable"))
        );
        // An enum's `name()` is Kotlin's property, even when an interface declares it first.
        let family = [
            "java.net.ProtocolFamily".to_owned(),
            "java.lang.Enum".to_owned(),
        ];
        assert_eq!(
            kotlin_member(None, "name", 0, &family),
            Some(Member::Property("name"))
        );
        assert_eq!(kotlin_member(None, "name", 0, &family[..1]), None);
        // A covariant override keeps its type only as Kotlin's (nullable) property.
        let unchecked = Ty::class("java.io.UncheckedIOException", vec![]);
        let declared = [
            "java.io.UncheckedIOException".to_owned(),
            "java.lang.Throwable".to_owned(),
        ];
        assert_eq!(
            kotlin_member(Some(&unchecked), "getCause", 0, &declared),
            Some(Member::PropertyNonNull("cause"))
        );
        assert_eq!(
            kotlin_member(Some(&unchecked), "getMessage", 0, &declared[1..]),
            Some(Member::OnJavaClass("java.lang.Throwable"))
        );
        assert_eq!(
            kotlin_member(
                Some(&Ty::class("java.lang.Long", vec![])),
                "intValue",
                0,
                &[]
            ),
            Some(Member::Call("toInt"))
        );
        assert_eq!(kotlin_member(Some(&foo), "size", 0, &[]), None);
    }

    /// `recv.name(args)` of a Kotlin member in `form`, with explicit type arguments `targs`.
    fn native_call(recv: Expr, name: &str, args: Vec<Expr>, form: CallForm) -> Expr {
        Expr::Call {
            receiver: Receiver::expr(recv),
            name: name.into(),
            type_args: vec![],
            args,
            declared_in: vec![NATIVE_MEMBER.into(), "kotlin.collections".into()],
            form,
            lists: None,
        }
    }

    #[test]
    fn operator_infix_and_named_argument_forms() {
        let l = Expr::local;
        let stmts = |call: Expr| {
            vec![
                Stmt::local("r", Ty::string(), Expr::str("x")),
                Stmt::local("a0", Ty::string(), Expr::str("y")),
                Stmt::local("a1", Ty::INT, Expr::int(1)),
                Stmt::expr(call),
            ]
        };
        let op = |name: &str, args: Vec<Expr>| {
            last(stmts(native_call(l("r"), name, args, CallForm::Operator)))
        };
        assert_eq!(op("plus", vec![l("a0")]), "r + a0");
        assert_eq!(op("rangeUntil", vec![l("a0")]), "r ..< a0");
        assert_eq!(op("contains", vec![l("a0")]), "a0 in r");
        assert_eq!(op("get", vec![l("a0"), l("a1")]), "r[a0, a1]");
        assert_eq!(op("set", vec![l("a1"), l("a0")]), "r[a1] = a0");
        assert_eq!(op("unaryMinus", vec![]), "-r");
        assert_eq!(op("not", vec![]), "!r");
        assert_eq!(op("invoke", vec![l("a0")]), "r(a0)");
        assert_eq!(op("compareTo", vec![l("a0")]), "r < a0");
        assert_eq!(op("plusAssign", vec![l("a0")]), "r += a0");
        // operands that are not locals or plain calls are parenthesized
        let cast = Expr::cast(Ty::string(), l("a0"));
        assert_eq!(op("minus", vec![cast.clone()]), "r - (a0 as String)");
        assert_eq!(
            last(stmts(native_call(
                Expr::int(-3),
                "unaryMinus",
                vec![],
                CallForm::Operator
            ))),
            "-(-3)"
        );
        // an operator call as a receiver is parenthesized
        let sum = native_call(l("r"), "plus", vec![l("a0")], CallForm::Operator);
        assert_eq!(
            last(stmts(native_call(
                sum,
                "times",
                vec![l("a1")],
                CallForm::Operator
            ))),
            "(r + a0) * a1"
        );
        assert_eq!(
            last(stmts(native_call(
                l("r"),
                "until",
                vec![l("a1")],
                CallForm::Infix
            ))),
            "r until a1"
        );
        // named arguments after a parameter left out
        let named = CallForm::Named(vec![None, Some("limit".into())]);
        assert_eq!(
            last(stmts(native_call(
                l("r"),
                "split",
                vec![l("a0"), l("a1")],
                named
            ))),
            "r.split(a0, limit = a1)"
        );
        // forms that do not fit are errors, not wrong programs
        assert!(body(stmts(native_call(
            l("r"),
            "plus",
            vec![],
            CallForm::Operator
        )))
        .is_err());
        let mut generic = native_call(l("r"), "plus", vec![l("a0")], CallForm::Operator);
        if let Expr::Call { type_args, .. } = &mut generic {
            type_args.push(Ty::string());
        }
        assert!(body(stmts(generic)).is_err());
        let mismatched = CallForm::Named(vec![None]);
        assert!(body(stmts(native_call(
            l("r"),
            "f",
            vec![l("a0"), l("a1")],
            mismatched
        )))
        .is_err());
    }

    #[test]
    fn casts_and_fields() {
        let i = || Stmt::local("i", Ty::INT, Expr::int(1));
        let c = || Stmt::local("c", Ty::CHAR, Lit::Char('a').into());
        assert_eq!(
            last(vec![
                i(),
                Stmt::local("l", Ty::LONG, Expr::cast(Ty::LONG, Expr::local("i")))
            ]),
            "val l: Long = i.toLong()"
        );
        assert_eq!(
            last(vec![
                c(),
                Stmt::local("n", Ty::INT, Expr::cast(Ty::INT, Expr::local("c")))
            ]),
            "val n: Int = c.code"
        );
        assert_eq!(
            last(vec![
                i(),
                Stmt::local("d", Ty::CHAR, Expr::cast(Ty::CHAR, Expr::local("i")))
            ]),
            "val d: Char = i.toChar()"
        );
        assert_eq!(
            last(vec![Stmt::local(
                "o",
                Ty::object(),
                Expr::cast(Ty::object(), Expr::str("s"))
            )]),
            "val o: Any = (\"s\" as Any)"
        );
        assert_eq!(
            last(vec![
                Stmt::local("a", Ty::array(Ty::INT), Expr::new_array(Ty::INT, vec![])),
                Stmt::local(
                    "n",
                    Ty::INT,
                    Expr::field(Receiver::expr(Expr::local("a")), "length")
                )
            ]),
            "val n: Int = a.size"
        );
        assert_eq!(
            last(vec![
                Stmt::local(
                    "a",
                    Ty::array(Ty::string()),
                    Expr::new_array(Ty::string(), vec![])
                ),
                Stmt::expr(Expr::static_call(
                    "java.util.Arrays",
                    "asList",
                    vec![],
                    vec![Expr::Spread(Box::new(Expr::local("a")))]
                ))
            ]),
            "java.util.Arrays.asList(*a)"
        );
    }

    /// A call of `name` on local `recv` declared in `declared_in`.
    fn call_in(recv: &str, name: &str, args: Vec<Expr>, declared_in: &[&str]) -> Expr {
        Expr::Call {
            receiver: Receiver::expr(Expr::local(recv)),
            name: name.into(),
            type_args: vec![],
            args,
            declared_in: declared_in.iter().map(|c| c.to_string()).collect(),
            form: CallForm::Usual,
            lists: None,
        }
    }

    #[test]
    fn members_renamed_by_the_classes_that_declare_them() {
        let lib = |name: &str| Ty::class(name, vec![]);
        let stmts = |recv: Ty, call: Expr| {
            vec![
                Stmt::local("r", recv, Expr::bottom(lib("x.Y"))),
                Stmt::expr(call),
            ]
        };
        // a library Number and CharSequence: Kotlin shows `toDouble()` and `length`
        let fraction = "org.apache.commons.lang3.math.Fraction";
        let b = body(stmts(
            lib(fraction),
            call_in("r", "doubleValue", vec![], &[fraction, "java.lang.Number"]),
        ))
        .expect("translates");
        assert!(b.ends_with("r.toDouble()"), "{b}");
        let sb = "org.apache.commons.lang3.text.StrBuilder";
        let b = body(stmts(
            lib(sb),
            call_in("r", "length", vec![], &[sb, "java.lang.CharSequence"]),
        ))
        .expect("translates");
        assert!(b.ends_with("r.length"), "{b}");
        // `Double.toByte()` is an error: through `Int`
        let b = body(stmts(
            Ty::class("java.lang.Double", vec![]),
            call_in(
                "r",
                "byteValue",
                vec![],
                &["java.lang.Double", "java.lang.Number"],
            ),
        ))
        .expect("translates");
        assert!(b.ends_with("r.toInt().toByte()"), "{b}");
        // the wrappers' other Java members are on the Java class
        let b = body(stmts(
            Ty::class("java.lang.Integer", vec![]),
            call_in("r", "describeConstable", vec![], &["java.lang.Integer"]),
        ))
        .expect("translates");
        assert!(
            b.ends_with("(r as java.lang.Integer).describeConstable()"),
            "{b}"
        );
        // java.lang.Enum's members
        let unit = "java.util.concurrent.TimeUnit";
        let enum_call = |name: &str| {
            body(stmts(
                lib(unit),
                call_in("r", name, vec![], &["java.lang.Enum"]),
            ))
        };
        assert!(enum_call("name").expect("translates").ends_with("r.name"));
        assert!(enum_call("getDeclaringClass")
            .expect("translates")
            .ends_with("r.declaringJavaClass"));
        assert!(enum_call("describeConstable").is_err());
        // `Reference.get()` is nullable in Kotlin
        let b = body(stmts(
            lib("java.lang.ref.WeakReference"),
            call_in("r", "get", vec![], &["java.lang.ref.Reference"]),
        ))
        .expect("translates");
        assert!(b.ends_with("r.get()!!"), "{b}");
    }

    #[test]
    fn lambdas_get_their_target_where_kotlin_does_not_convert_them() {
        let consumer = Ty::class("java.util.function.LongConsumer", vec![]);
        let lambda = |implicit: bool| Expr::Lambda {
            params: vec![("l1".into(), None)],
            body: Box::new(Expr::Unit),
            target: Some(consumer.clone()),
            implicit,
            block: vec![],
            form: crate::ir::LambdaForm::Usual,
            ret: None,
        };
        let call = |l: Expr| {
            one(Stmt::expr(Expr::static_call(
                "org.apache.commons.lang3.Range",
                "is",
                vec![consumer.clone()],
                vec![l],
            )))
        };
        assert_eq!(
            call(lambda(true)),
            "org.apache.commons.lang3.Range.`is`<java.util.function.LongConsumer>({ l1 -> })"
        );
        assert_eq!(
            call(lambda(false)),
            "org.apache.commons.lang3.Range.`is`<java.util.function.LongConsumer>(java.util.function.LongConsumer { l1 -> })"
        );
        // the synthesizer's target knows the bound of `?` (`E extends Throwable`)
        let runnable = "org.apache.commons.lang3.function.FailableRunnable";
        let b = one(Stmt::local(
            "a0",
            Ty::class(runnable, vec![Ty::WildcardStar]),
            Expr::Lambda {
                params: vec![],
                body: Box::new(Expr::Unit),
                target: Some(Ty::class(
                    runnable,
                    vec![Ty::class("java.lang.Throwable", vec![])],
                )),
                implicit: false,
                block: vec![],
                form: crate::ir::LambdaForm::Usual,
                ret: None,
            },
        ));
        assert_eq!(
            b,
            format!("val a0: {runnable}<*> = {runnable}<Throwable> {{ -> }}")
        );
        // Kotlin's own Iterable and Comparable are no fun interfaces: object expressions
        let iterable = Ty::class("java.lang.Iterable", vec![Ty::string()]);
        let b = one(Stmt::local(
            "r",
            iterable.clone(),
            Expr::lambda(
                vec![],
                Expr::bottom(Ty::class("java.util.Iterator", vec![Ty::string()])),
            ),
        ));
        assert_eq!(
            b,
            "val r: MutableIterable<String> = object : MutableIterable<String> { override fun \
             iterator(): MutableIterator<String> = (null as MutableIterator<String>) }"
        );
        let b = one(Stmt::local(
            "c",
            Ty::class("java.lang.Comparable", vec![Ty::string()]),
            Expr::lambda(vec![("o".into(), None)], Expr::int(0)),
        ));
        assert_eq!(
            b,
            "val c: Comparable<String> = object : Comparable<String> { override fun \
             compareTo(o: String): Int = 0 }"
        );
    }

    /// A lambda with every field given.
    fn full_lambda(
        params: Vec<(String, Option<Ty>)>,
        block: Vec<Stmt>,
        body: Expr,
        target: Ty,
        form: LambdaForm,
        ret: Option<Ty>,
    ) -> Expr {
        Expr::Lambda {
            params,
            body: Box::new(body),
            target: Some(target),
            implicit: false,
            block,
            form,
            ret,
        }
    }

    #[test]
    fn lambda_blocks_and_anonymous_functions() {
        let f = Ty::class(
            "java.util.function.Function",
            vec![Ty::string(), Ty::class("java.lang.Integer", vec![])],
        );
        let a = || vec![("a".to_owned(), None)];
        // a non-call expression statement of a block is bound to a fresh block name, and
        // the block's locals are typed for renames (`n.length`)
        let b = one(Stmt::local(
            "g",
            f.clone(),
            full_lambda(
                a(),
                vec![
                    Stmt::local("n", Ty::string(), Expr::local("a")),
                    Stmt::expr(Expr::local("n")),
                ],
                Expr::local("n").method("length", vec![]),
                f.clone(),
                LambdaForm::Usual,
                None,
            ),
        ));
        assert_eq!(
            b,
            "val g: java.util.function.Function<String, Int> = \
             java.util.function.Function<String, Int> { a -> val n: String = a; \
             val __unused_b0: Any? = n; n.length }"
        );
        let anon = |block: Vec<Stmt>, body: Expr, ret: Option<Ty>| {
            body_of(full_lambda(
                a(),
                block,
                body,
                f.clone(),
                LambdaForm::AnonymousFunction,
                ret,
            ))
        };
        assert_eq!(
            anon(vec![], Expr::int(1), None).expect("translates"),
            "java.util.function.Function<String, Int>(fun(a) = 1)"
        );
        let block = || vec![Stmt::inferred_local("n", Ty::INT, Expr::int(1))];
        assert!(matches!(
            anon(block(), Expr::local("n"), None),
            Err(TranslateError::Unsupported { .. })
        ));
        assert_eq!(
            anon(block(), Expr::Unit, Some(Ty::VOID)).expect("translates"),
            "java.util.function.Function<String, Int>(fun(a) { val n = 1 })"
        );
        // Kotlin's own Iterable: an object expression whose method runs the block
        let iterable = Ty::class("java.lang.Iterable", vec![Ty::string()]);
        let it = Ty::class("java.util.Iterator", vec![Ty::string()]);
        let b = body_of(full_lambda(
            vec![],
            vec![Stmt::local("i", it.clone(), Expr::bottom(it))],
            Expr::local("i"),
            iterable,
            LambdaForm::Usual,
            None,
        ))
        .expect("translates");
        assert_eq!(
            b,
            "object : MutableIterable<String> { override fun iterator(): \
             MutableIterator<String> { val i: MutableIterator<String> = \
             (null as MutableIterator<String>); return i } }"
        );
    }

    /// The initializer of a local `x: Any?` holding `e`.
    fn body_of(e: Expr) -> Result<String, TranslateError> {
        let b = body(vec![Stmt::local("x", Ty::Top, e)])?;
        Ok(b.trim_start_matches("val x: Any? = ").to_owned())
    }

    #[test]
    fn constructor_references_of_type_parameters_are_unsupported() {
        let t = Ty::var("T");
        let supplier = Ty::class("java.util.function.Supplier", vec![t.clone()]);
        let mut p = Program::new(
            "t",
            vec![Stmt::local(
                "s",
                supplier.clone(),
                Expr::Ref {
                    kind: RefKind::Constructor {
                        class: "java.util.ArrayList".into(),
                        type_args: Some(vec![t]),
                    },
                    fn_params: vec![],
                    fn_ret: Ty::object(),
                    target: Some(supplier),
                    implicit: false,
                    declared_in: vec![],
                    method_pointer: false,
                },
            )],
        );
        p.type_params = vec![TypeParam {
            name: "T".into(),
            bounds: vec![Ty::object()],
        }];
        assert!(matches!(
            KotlinTranslator.translate(&p),
            Err(TranslateError::Unsupported { .. })
        ));
    }
    #[test]
    fn a_list_member_on_an_untyped_lambda_parameter_keeps_kotlins_name() {
        // `p0` has no declared type; the member's declaring classes say it is a list's
        let call = |name: &str, arg: Expr| Expr::Call {
            receiver: Receiver::Expr(Box::new(Expr::local("p0"))),
            name: name.into(),
            type_args: vec![],
            args: vec![arg],
            declared_in: vec![
                "java.util.Vector".into(),
                "java.util.AbstractList".into(),
                "java.util.List".into(),
            ],
            form: CallForm::Usual,
            lists: None,
        };
        let f = Ty::class(
            "java.util.function.Function",
            vec![
                Ty::class("java.util.Vector", vec![Ty::string()]),
                Ty::string(),
            ],
        );
        let lambda = |body: Expr| {
            Stmt::local(
                "f",
                f.clone(),
                Expr::lambda(vec![("p0".into(), None)], body),
            )
        };
        let removed = last(vec![
            Stmt::local("i", Ty::INT, Expr::int(1)),
            lambda(call("remove", Expr::local("i"))),
        ]);
        assert!(removed.contains("p0.removeAt(i)"), "{removed}");
        let sorted = last(vec![lambda(call("sort", Expr::Lit(Lit::Null)))]);
        assert!(sorted.contains("p0.sortWith("), "{sorted}");
    }
}
