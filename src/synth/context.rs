//! Read-only facts about an API that synthesis needs, computed once and shared by workers:
//! the pool of types to instantiate type variables with, the subclasses of every class, the
//! members (with inherited ones) of every class by name, and which members are usable.

use rustc_hash::{FxHashMap, FxHashSet};
use thalia_extractors::KotlinKind;

use crate::api::{Api, ClassId, ClassKind, MemberId, MemberKind, ResolvedMember};
use crate::graph::{ApiGraph, Node};
use crate::types::{kotlin_view, scala_view, Prim, Sym, Syntax, Type, TypeId, VarId};
use petgraph::graph::NodeIndex;

/// Why a member is not exercised.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipReason {
    /// Not public, or declared in a class that is not.
    NotPublic,
    /// A constructor of an abstract class, interface or enum.
    AbstractConstructor,
    /// A constructor of a static nested class, or of an inner class whose enclosing class is
    /// generic or not usable (or inner-class creation is off in the configuration).
    NestedConstructor,
    /// A constructor with its own type parameters (`new <T> C()`).
    GenericConstructor,
    /// Top-level members of a Kotlin/Scala file, or a suspend function.
    NotCallableFromJava,
    /// A Kotlin `suspend` function, callable only from a coroutine.
    Suspend,
    /// A Kotlin inline function with a `reified` type parameter: its type argument must be a
    /// class known at the call, never the generic test method's variable.
    Reified,
    /// A type the target language cannot write (function types, by-name types, ...).
    UnsupportedType,
    /// No valid instantiation of the type variables was found (e.g. recursive bounds
    /// without a subclass to satisfy them).
    NoValidSubstitution,
    /// A JDK preview API, or a signature that mentions one.
    Preview,
    /// A static field a class only inherits from a non-public supertype: Java reaches it
    /// through the class, Scala does not inherit statics.
    HiddenStatic,
    /// Every typing sequence was dropped (ambiguous or resolved to another overload).
    NoUsableSequence,
    /// Ill-typed mode: no position could be broken with an incompatible type.
    NoIncompatibleType,
    /// A raw type (`List` for `List<E>`) in the signature: only Java and Groovy can write it.
    RawType,
    /// A public `clone()` declared by an interface, which Scala 2 resolves to `Object`'s
    /// protected one.
    InterfaceClone,
    /// A method whose parameter Kotlin's view of the JDK makes nullable where the typing
    /// sequence has a non-null type (`Map.compute`).
    KotlinNullableParameter,
    /// A member of a JDK collection or map whose `Object` parameter Kotlin's mapped type
    /// declares with the element, key or value type (`Map.get(key: K)`,
    /// `Collection.contains(element: E)`).
    KotlinMappedParameter,
    /// An element of an annotation type, which Kotlin reads as a property (`r.value`).
    AnnotationElement,
    /// Ill-typed mode: a signature-polymorphic method (`MethodHandle.invoke`), whose argument
    /// and result types come from the call site, so no position can be broken.
    SignaturePolymorphic,
    /// A Scala constructor with an implicit (`implicit`/`using`) parameter list or context
    /// bound, or a method with one that is overloaded or has a variable-arity parameter.
    ScalaImplicit,
    /// A Scala member with a higher-kinded type parameter (`CC[_]`) or one that names its
    /// class's type-constructor parameter.
    HigherKinded,
    /// A Scala constructor with several explicit parameter lists, or a method with several
    /// lists or none (`fold(z)(op)`, `empty[A]`) that is overloaded or has a variable-arity
    /// parameter.
    ScalaParameterLists,
    /// A Scala 3 extension method.
    ScalaExtension,
    /// A Kotlin member deprecated with level `ERROR`, or one whose signature names a class
    /// deprecated so: its call does not compile (it stays a candidate of overload
    /// resolution).
    DeprecatedError,
    /// A Kotlin member whose receiver or parameter is an invariant array (`Array<T>.sort()`):
    /// programs declare arrays `Array<out T>`, as Java's covariant arrays are, which it does
    /// not take.
    KotlinInvariantArray,
    /// A member of a Kotlin annotation class, whose values a program cannot name ("this
    /// class can only be used as an annotation").
    KotlinAnnotationMember,
    /// A member of `scala.Unit`'s companion object, which scalac 2.13 and 3 do not allow in
    /// source ("use `()` for the unit value").
    ScalaUnitCompanion,
    /// A Scala macro that needs a literal receiver (`StringContext.f`: "Expected statically
    /// known StringContext"; scalac 2.13 aborts the expansion).
    ScalaMacro,
    /// A Kotlin extension that kotlinc accepts only on a property literal (`::x.isInitialized`:
    /// its receiver is annotated `@AccessibleLateinitPropertyLiteral`, which the view does
    /// not record).
    KotlinPropertyLiteral,
    /// A member whose signature has a Scala 3 context function type (`A ?=> B`,
    /// `scala.ContextFunctionN`): a value of one is applied to the givens in scope wherever
    /// the expected type is no context function, and an argument for one is a context
    /// closure, so it is no plain function (`A => B`) and not modelled yet.
    ScalaContextFunction,
    /// `kotlin.context(with, block)`: KDoc writes the block's type with context parameters
    /// (`context(A) () -> R`), which the API reads as a plain function type (`(A) -> R`).
    KotlinContextParameters,
}

impl SkipReason {
    /// A short readable label.
    pub fn label(self) -> &'static str {
        match self {
            SkipReason::NotPublic => "not public",
            SkipReason::AbstractConstructor => "constructor of an abstract class",
            SkipReason::NestedConstructor => "constructor of a nested class",
            SkipReason::GenericConstructor => "generic constructor",
            SkipReason::NotCallableFromJava => "not callable from Java",
            SkipReason::Suspend => "Kotlin suspend function (needs a coroutine)",
            SkipReason::Reified => "Kotlin reified type parameter",
            SkipReason::UnsupportedType => "unsupported type",
            SkipReason::NoValidSubstitution => "no valid type substitution",
            SkipReason::Preview => "preview API",
            SkipReason::HiddenStatic => "static field of a non-public supertype",
            SkipReason::NoUsableSequence => "no unambiguous typing sequence",
            SkipReason::NoIncompatibleType => "no incompatible type for any position",
            SkipReason::RawType => "raw type in the signature (not Java or Groovy)",
            SkipReason::SignaturePolymorphic => "signature-polymorphic method",
            SkipReason::AnnotationElement => "annotation element (Kotlin)",
            SkipReason::InterfaceClone => "clone() declared by an interface (Scala 2)",
            SkipReason::KotlinNullableParameter => "parameter Kotlin types nullable (Map.compute)",
            SkipReason::ScalaImplicit => {
                "Scala implicit parameters (constructor, overloaded, or variable arity)"
            }
            SkipReason::HigherKinded => "higher-kinded type parameter (Scala)",
            SkipReason::ScalaParameterLists => {
                "several Scala parameter lists, or none (constructor, overloaded, or variable arity)"
            }
            SkipReason::ScalaExtension => "Scala 3 extension method",
            SkipReason::DeprecatedError => "Kotlin deprecated with level ERROR",
            SkipReason::KotlinInvariantArray => "invariant Kotlin array parameter (Array<T>)",
            SkipReason::KotlinAnnotationMember => "member of a Kotlin annotation class",
            SkipReason::ScalaUnitCompanion => "member of scala.Unit's companion (not in source)",
            SkipReason::KotlinPropertyLiteral => "Kotlin extension on a property literal only",
            SkipReason::ScalaMacro => "Scala macro on a literal only (StringContext.f)",
            SkipReason::ScalaContextFunction => {
                "Scala 3 context function type (A ?=> B, applied to the givens in scope)"
            }
            SkipReason::KotlinContextParameters => {
                "Kotlin function type with context parameters (kotlin.context), read as a plain one"
            }
            SkipReason::KotlinMappedParameter => {
                "Object parameter Kotlin types with the element type (Map.get, Collection.contains)"
            }
        }
    }
}

/// Facts about an API shared by all synthesis workers.
#[derive(Debug)]
pub struct SynthContext {
    /// The API graph.
    pub graph: ApiGraph,
    /// Members that can be exercised, in a stable order.
    pub testable: Vec<MemberId>,
    /// Members that cannot, with the reason.
    pub skipped: Vec<(MemberId, SkipReason)>,
    /// Members usable as steps of inhabitant paths.
    pub path_usable: FxHashSet<MemberId>,
    /// The type-variable nodes of the graph that a path through a member taking a function
    /// reaches (`Objects.requireNonNullElseGet`'s `T`, `ThreadLocal.get`'s `T` after
    /// `withInitial(Supplier)`): a value of any type that such a variable can take.
    pub function_var_nodes: Vec<NodeIndex>,
    /// The classes the API describes as protected or package-private: no client outside
    /// their package names them (`AbstractLinkedList.LinkedListIterator`).
    pub non_public: FxHashSet<Sym>,
    /// Members that declare checked exceptions (not usable inside lambda bodies).
    pub throws_checked: FxHashSet<MemberId>,
    /// Ground non-generic class types usable as type arguments and local types, by name.
    pub concrete: Vec<TypeId>,
    /// Generic classes usable as type constructors, by name.
    pub generic: Vec<ClassId>,
    /// For Scala programs, the generic classes a higher-kinded variable can be given alone
    /// (`List` for `G[_]`): no own parameter is bounded or higher-kinded.
    pub constructors: Vec<ClassId>,
    /// For Scala programs, the type constructors the API itself passes to higher-kinded
    /// parameters (`List` of `Traverse[List]`, of `IterableOps[A, List, List[A]]`), which
    /// its type-class instances exist for.
    pub mentioned_constructors: FxHashSet<Sym>,
    /// For each class symbol, the API classes that inherit from it (transitively), by name.
    pub subclasses: FxHashMap<Sym, Vec<ClassId>>,
    /// Each class's members (its own and inherited) grouped by name.
    pub members_by_name: FxHashMap<ClassId, FxHashMap<String, Vec<ResolvedMember>>>,
    /// Symbols of Java's boxed primitive classes, when the API defines them.
    pub boxes: Vec<(Prim, Sym)>,
    /// `java.lang.String`, `java.lang.Object` symbols.
    pub string_sym: Sym,
    /// `java.lang.Object`.
    pub object_sym: Sym,
    /// The native language's extension members (of files of top-level members) by name,
    /// in declaration order.
    pub extensions: FxHashMap<String, Vec<MemberId>>,
    /// The native language's opt-in markers (Kotlin annotation classes annotated
    /// `@RequiresOptIn`), sorted.
    pub opt_in_markers: Vec<String>,
    /// True when the API says which markers each member and class needs (the Kotlin view's
    /// `opt_in`): a program opts in to those its members and types need
    /// ([`program_opt_ins`]); false for an API extracted before (a library with markers
    /// and no member marked), whose programs opt in to every marker.
    pub opt_ins_per_member: bool,
    /// The API syntax whose own classes and members the target language uses besides
    /// Java's (`Some(Kotlin)` for Kotlin programs), or `None`.
    pub native: Option<Syntax>,
    /// The packages the API describes (its context's included): a class of one of them that
    /// the API lacks is not public, and Kotlin and Scala programs do not write it.
    pub packages: FxHashSet<String>,
    /// For Kotlin and Scala programs, the inner classes of generic classes
    /// ([`is_raw_inner`]), computed once: no type of a program names one.
    raw_inner: FxHashSet<Sym>,
    /// For Scala programs, the implicit conversions the API declares (an `implicit def` of
    /// one explicit parameter, an implicit class's constructor): (parameter, result) types.
    pub scala_views: Vec<(TypeId, TypeId)>,
    /// For Scala programs, the implicit instances of the API's companion objects, which
    /// implicit search finds in the implicit scope of the types their companions belong to
    /// ([`ImplicitIndex`]).
    pub scala_instances: ImplicitIndex,
}

/// The boxed class of each primitive.
pub use crate::types::kotlin_view::BOXES;

/// True when Java can write the type (no function, by-name, top or bottom types inside).
pub fn java_expressible(api: &Api, t: TypeId) -> bool {
    expressible(api, t, None)
}

/// True for an array of Kotlin's `Nothing` or `Nothing?`, which Kotlin has not ("an invalid
/// array type", "not supported on the JVM").
pub fn is_nothing_array(api: &Api, t: TypeId) -> bool {
    let a = &api.ts.arena;
    let Type::Array(e) = *a.get(t) else {
        return false;
    };
    let e = match *a.get(e) {
        Type::Nullable(i) => i,
        _ => e,
    };
    matches!(a.get(e), Type::Class { name, .. } if a.name(*name) == "kotlin.Nothing")
}

/// True when a Kotlin array of `Nothing` occurs anywhere in the type ([`is_nothing_array`]).
pub fn mentions_nothing_array(api: &Api, t: TypeId) -> bool {
    let mut found = is_nothing_array(api, t);
    api.ts
        .arena
        .for_each_child(t, |c| found |= mentions_nothing_array(api, c));
    found
}

/// True when a program of the language whose API syntax is `native` can write the type:
/// Java's types, and for Kotlin and Scala their own classes and function types too (and
/// Scala's by-name types).
pub fn expressible(api: &Api, t: TypeId, native: Option<Syntax>) -> bool {
    let kotlin = native == Some(Syntax::Kotlin);
    let scala = native == Some(Syntax::Scala);
    let a = &api.ts.arena;
    match a.get(t) {
        Type::Function {
            receiver, suspend, ..
        } if (kotlin || scala) && receiver.is_none() && !suspend => {
            let mut ok = true;
            a.for_each_child(t, |c| ok &= expressible(api, c, native));
            ok
        }
        Type::ByName(e) if scala => expressible(api, *e, native),
        Type::Array(_) if kotlin && is_nothing_array(api, t) => false,
        Type::Function { .. } | Type::ByName(_) | Type::Top | Type::Bottom => false,
        // `CC[B]` of a signature: written once a type constructor is substituted for `CC`
        Type::Applied { .. } if !scala => false,
        Type::Class { name, .. } => {
            let n = a.name(*name);
            if (n.starts_with("kotlin.") && !kotlin)
                || (n.starts_with("scala.") && !scala)
                || !n.contains('.') && (n.len() <= 2 || scala)
                || scala
                    && api
                        .class_by_name(n)
                        .is_some_and(|c| is_scala_object(api, c))
            {
                // Kotlin/Scala-only classes, single-letter names that are unresolved type
                // variables, Scala's literal types (`false`) and objects
                return false;
            }
            if scala && !constructor_args_ok(api, t) {
                return false;
            }
            let mut ok = true;
            a.for_each_child(t, |c| ok &= expressible(api, c, native));
            ok
        }
        _ => {
            let mut ok = true;
            a.for_each_child(t, |c| ok &= expressible(api, c, native));
            ok
        }
    }
}

/// The implicit conversions of a Scala API, wherever declared (a conversion that needs an
/// import counts too: a position it could convert is no certain type error): the
/// (parameter, result) types of every `implicit def` with one explicit parameter and of every
/// implicit class's constructor.
fn implicit_views(api: &Api) -> Vec<(TypeId, TypeId)> {
    let mut out = Vec::new();
    for m in api.member_ids() {
        let mem = api.member(m);
        let cl = api.class(mem.owner);
        let one = match &mem.scala_lists {
            None => mem.params.len() == 1,
            Some(l) => l.explicit == [1],
        };
        if cl.syntax != Syntax::Scala || mem.receiver.is_some() || !one {
            continue;
        }
        let view = match mem.kind {
            MemberKind::Method => cl
                .doc
                .methods()
                .get(mem.doc_index)
                .is_some_and(|d| d.scala.implicit == Some(true)),
            MemberKind::Constructor => cl.doc.scala.implicit == Some(true),
            MemberKind::Field => false,
        };
        if let (true, Some(p)) = (view, mem.params.first()) {
            out.push((p.ty, mem.ret));
        }
    }
    out
}

/// True unless class type `t` passes something other than a type constructor (a class named
/// without arguments, `List`) for a higher-kinded parameter of its class (`CC[_]` of
/// `IterableOps[A, CC, C]`) or a higher-kinded variable: a wildcard or an applied type there
/// is ill-kinded.
fn constructor_args_ok(api: &Api, t: TypeId) -> bool {
    let a = &api.ts.arena;
    let Type::Class { name, args } = a.get(t) else {
        return true;
    };
    let Some(params) = api.ts.class_params(*name) else {
        return true;
    };
    params.iter().zip(args.iter()).all(|(&v, &arg)| {
        !a.var(v).higher_kinded
            || match a.get(arg) {
                Type::Class { args, .. } => args.is_empty(),
                // a signature's own constructor variable, substituted before it is written
                Type::Var(w) => a.var(*w).higher_kinded,
                _ => false,
            }
    })
}

/// True when generic class `c` can be given alone for a higher-kinded variable: none of its
/// parameters is bounded (`EnumSet[E <: Enum[E]]` is not, nor Scala's `SoftReference[T <:
/// AnyRef]`: only `Any` and a Java class's `Object` are no bound) or itself higher-kinded.
fn plain_constructor(api: &Api, c: ClassId) -> bool {
    let a = &api.ts.arena;
    let cl = api.class(c);
    let java = cl.syntax == Syntax::Java;
    cl.type_params.iter().all(|&v| {
        let d = a.var(v);
        !d.higher_kinded
            && d.lower.is_none()
            && d.upper.iter().all(|&b| match a.get(b) {
                Type::Class { name, args } if args.is_empty() => {
                    let n = a.name(*name);
                    n == "scala.Any" || java && n == "java.lang.Object"
                }
                _ => false,
            })
    })
}

/// Adds to `out` the generic classes named without arguments as type arguments in `t`
/// (`List` of `Traverse[List]`): the API's type constructors.
fn constructor_args(api: &Api, t: TypeId, out: &mut FxHashSet<Sym>) {
    let a = &api.ts.arena;
    match a.get(t) {
        Type::Class { args, .. } | Type::Applied { args, .. } => {
            for &arg in args.iter() {
                if let Type::Class { name, args } = a.get(arg) {
                    if args.is_empty() && api.ts.class_params(*name).is_some_and(|p| !p.is_empty())
                    {
                        out.insert(*name);
                    }
                }
                constructor_args(api, arg, out);
            }
        }
        Type::Function { params, ret, .. } => {
            for &p in params.iter().chain([ret]) {
                constructor_args(api, p, out);
            }
        }
        Type::Array(i) | Type::Nullable(i) | Type::ByName(i) => constructor_args(api, *i, out),
        _ => {}
    }
}

/// True for an inner (non-static member) class of a generic class, directly or through
/// enclosing inner classes: its type needs the enclosing class's type arguments
/// (`TypeToken<T>.TypeSet`), a raw type without them. Also true for every Scala class of a
/// class or trait: its type depends on the enclosing instance (`r.Value`), which a
/// projection (`Enumeration#Value`) does not equal where the type is invariant.
pub fn is_raw_inner(api: &Api, sym: Sym) -> bool {
    let mut c = api.class_by_sym(sym);
    // (the bound guards against a cyclic `parent` in a hostile document)
    for _ in 0..16 {
        let Some(cl) = c.map(|c| api.class(c)) else {
            return false;
        };
        if cl.doc.scala.scala_inner.is_some() {
            return true;
        }
        if cl.doc.is_inner != Some(true) {
            return false;
        }
        let Some(outer) = cl.parent.as_deref().and_then(|p| api.class_by_name(p)) else {
            return false;
        };
        if api.class(outer).is_generic() {
            return true;
        }
        c = Some(outer);
    }
    false
}

/// True when type `t` names a class that [`is_raw_inner`].
pub fn names_raw_inner(api: &Api, t: TypeId) -> bool {
    let a = &api.ts.arena;
    let mut todo = vec![t];
    while let Some(t) = todo.pop() {
        if let Type::Class { name, .. } = a.get(t) {
            if is_raw_inner(api, *name) {
                return true;
            }
        }
        a.for_each_child(t, |c| todo.push(c));
    }
    false
}

/// True when `t` names a generic class without its type arguments (a raw type, as a Java
/// supertype list may give one: `KMutableProperty0` for `KMutableProperty0<V>`), which
/// Kotlin cannot write (a Scala type argument may be a bare type constructor).
pub fn names_raw_type(api: &Api, t: TypeId) -> bool {
    let a = &api.ts.arena;
    match a.get(t) {
        Type::Class { name, args } => {
            (args.is_empty()
                && api
                    .class_by_sym(*name)
                    .is_some_and(|c| !api.class(c).type_params.is_empty()))
                || args.iter().any(|&x| names_raw_type(api, x))
        }
        Type::Applied { .. } => false,
        _ => {
            let mut raw = false;
            a.for_each_child(t, |c| raw |= names_raw_type(api, c));
            raw
        }
    }
}

/// Why a program cannot write type `t` of a Kotlin or Scala member, when it names a class
/// that is not public (absent from the API though the API describes its package: for a
/// nested class, its outermost class's) or a Scala singleton type (`Either.type`).
fn hidden_class_problem(api: &Api, t: TypeId, packages: &FxHashSet<String>) -> Option<SkipReason> {
    let a = &api.ts.arena;
    if let Type::Class { name, .. } = a.get(t) {
        let n = a.name(*name);
        if n.ends_with(".type") {
            return Some(SkipReason::UnsupportedType);
        }
        // (also a class nested in one the API leaves out: `JavaCollectionWrappers.JMapWrapper`
        // of the `private[collection]` object, named as a supertype of `WeakHashMap`)
        let package = n
            .match_indices('.')
            .map(|(i, _)| &n[..i])
            .take_while(|p| {
                !p.rsplit('.')
                    .next()
                    .is_some_and(|seg| seg.starts_with(char::is_uppercase))
            })
            .last();
        if api.class_by_sym(*name).is_none()
            && package.is_some_and(|p| packages.contains(p) || through_term(p, packages))
        {
            return Some(SkipReason::NotPublic);
        }
    }
    let mut found = None;
    a.for_each_child(t, |c| {
        if found.is_none() {
            found = hidden_class_problem(api, c, packages);
        }
    });
    found
}

/// True when type `t` names one of the classes of `set`.
fn mentions_class_in(api: &Api, t: TypeId, set: &FxHashSet<Sym>) -> bool {
    if set.is_empty() {
        return false;
    }
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if matches!(api.ts.arena.get(u), Type::Class { name, .. } if set.contains(name)) {
            return true;
        }
        api.ts.arena.for_each_child(u, |c| stack.push(c));
    }
    false
}

/// True when `path`, the lower-case prefix of a class name the API lacks, is no package the
/// API describes but continues one with a term: the class is named through an object (Scala's
/// `private[process] object processInternal` of `scala.sys.process.processInternal.File`,
/// a type alias that Scaladoc views keep), which a client cannot name.
fn through_term(path: &str, packages: &FxHashSet<String>) -> bool {
    !packages.contains(path)
        && path
            .match_indices('.')
            .any(|(i, _)| packages.contains(&path[..i]))
        && !packages
            .iter()
            .any(|p| p.starts_with(path) && p[path.len()..].starts_with('.'))
}

/// True when type `t` names a class deprecated with level `ERROR` (Kotlin's
/// `"deprecation_level": "error"`), which a program cannot write.
fn names_error_class(api: &Api, t: TypeId) -> bool {
    let a = &api.ts.arena;
    if let Type::Class { name, .. } = a.get(t) {
        if api
            .class_by_sym(*name)
            .is_some_and(|c| api.class(c).is_error_deprecated())
        {
            return true;
        }
    }
    let mut found = false;
    a.for_each_child(t, |c| found |= names_error_class(api, c));
    found
}

/// True when `t` names one of Scala 3's context function classes (`A ?=> B` is
/// `scala.ContextFunction1[A, B]`, [`crate::types::CONTEXT_FUNCTION`]).
fn names_context_function(api: &Api, t: TypeId) -> bool {
    let a = &api.ts.arena;
    if let Type::Class { name, .. } = a.get(t) {
        let n = a.name(*name);
        if n.strip_prefix(crate::types::CONTEXT_FUNCTION)
            .is_some_and(|arity| !arity.is_empty() && arity.bytes().all(|b| b.is_ascii_digit()))
        {
            return true;
        }
    }
    let mut found = false;
    a.for_each_child(t, |c| found |= names_context_function(api, c));
    found
}

/// The enclosing class of an inner (non-static member) class whose constructor `m` is, when
/// that class is in the API and not generic: the class of the enclosing instance that
/// `outer.new Inner()` needs (the call's receiver).
pub fn outer_class(api: &Api, m: MemberId) -> Option<ClassId> {
    let mem = api.member(m);
    if mem.kind != MemberKind::Constructor {
        return None;
    }
    let owner = api.class(mem.owner);
    if owner.doc.is_inner != Some(true) {
        return None;
    }
    let outer = api.class_by_name(owner.parent.as_deref()?)?;
    let oc = api.class(outer);
    (oc.is_class && oc.kind != ClassKind::Interface && !oc.is_generic()).then_some(outer)
}

/// True when member `m` takes a functional interface or a function type.
pub fn takes_function(api: &Api, m: MemberId) -> bool {
    api.member(m).params.iter().any(|p| {
        let t = match *api.ts.arena.get(p.ty) {
            Type::Nullable(i) => i,
            _ => p.ty,
        };
        match api.ts.arena.get(t) {
            Type::Function { .. } => true,
            Type::Class { name, .. } => api
                .class_by_sym(*name)
                .is_some_and(|c| api.class(c).functional),
            _ => false,
        }
    })
}

/// The type-variable nodes of `graph` that a path of usable members from a receiver-less one
/// reaches through a member that takes a function (a fixpoint over the graph: a node is
/// reached when a source of one of its in-edges is, a member also through its receiver).
fn function_var_nodes(api: &Api, graph: &ApiGraph, usable: &FxHashSet<MemberId>) -> Vec<NodeIndex> {
    let g = &graph.graph;
    let n = g.node_count();
    // 0: not reached, 1: reached, 2: reached through a member that takes a function
    let mut level = vec![0u8; n];
    let mut changed = true;
    while changed {
        changed = false;
        for ix in g.node_indices() {
            let mut best = 0u8;
            for (_, src, _) in graph.in_edges(ix) {
                best = best.max(level[src.index()]);
            }
            let new = match g[ix] {
                Node::Member(m) if !usable.contains(&m) => 0,
                Node::Member(m) => {
                    let mem = api.member(m);
                    let reached = if mem.needs_receiver() { best } else { 1 };
                    if reached > 0 && takes_function(api, m) {
                        2
                    } else {
                        reached
                    }
                }
                Node::Type(_) => best,
            };
            if new > level[ix.index()] {
                level[ix.index()] = new;
                changed = true;
            }
        }
    }
    // a variable bounded below (Scala's `B >: A` of `reduceLeft`) is met by few types, and
    // Java's view of the bound is not Scala's (`AnyRef` is no supertype of `Int`)
    g.node_indices()
        .filter(|&ix| level[ix.index()] == 2)
        .filter(|&ix| match g[ix] {
            Node::Type(t) => match *api.ts.arena.get(t) {
                Type::Var(v) => api.ts.arena.var(v).lower.is_none(),
                _ => false,
            },
            Node::Member(_) => false,
        })
        .collect()
}

/// The Kotlin kind the Kotlin view records for a class (`object`, `companion`,
/// `annotation_class`, ...), if any.
pub fn kotlin_kind(api: &Api, c: ClassId) -> Option<KotlinKind> {
    api.class(c).doc.kotlin.kotlin_kind
}

/// True for a Scala `object` without a companion class (`scala.None`,
/// `scala.math.Ordering.Int`): its members are static, and it is no type that a program can
/// name (`None.type` is).
pub fn is_scala_object(api: &Api, c: ClassId) -> bool {
    api.class(c).doc.scala.scala_object == Some(true)
}

/// True for a Kotlin `object` or companion object, whose members are imported by name.
pub fn is_kotlin_object(api: &Api, c: ClassId) -> bool {
    matches!(
        kotlin_kind(api, c),
        Some(KotlinKind::Object | KotlinKind::Companion)
    )
}

/// The Kotlin extensions (package, name) that kotlinc accepts only on a property literal.
const PROPERTY_LITERAL_ONLY: [(&str, &str); 1] = [("kotlin", "isInitialized")];

/// True when some class or member of `api` carries the Kotlin view's `opt_in` fact.
fn has_opt_in_facts(api: &Api) -> bool {
    api.class_ids().any(|c| {
        let d = &api.class(c).doc;
        d.kotlin.opt_in.is_some()
            || d.methods().iter().any(|m| {
                m.other_metadata
                    .as_ref()
                    .is_some_and(|o| o.opt_in.is_some())
            })
            || d.fields().iter().any(|f| {
                f.other_metadata
                    .as_ref()
                    .is_some_and(|o| o.opt_in.is_some())
            })
    })
}

/// The opt-in markers a use of class `c` needs: those it and its enclosing classes are
/// annotated with; for a builtin (whose annotations are unknown) outside package `kotlin`,
/// the `markers` of its package (`kotlin.concurrent.atomics.AtomicLong` needs
/// `ExperimentalAtomicApi`).
pub fn class_opt_ins(api: &Api, c: ClassId, markers: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut next = Some(c);
    let mut depth = 0;
    while let Some(c) = next.filter(|_| depth < 16) {
        let cl = api.class(c);
        let d = &cl.doc;
        out.extend(d.kotlin.opt_in.iter().flatten().cloned());
        let package = cl.name.rsplit_once('.').map_or("", |(p, _)| p);
        // (the builtins of package `kotlin` itself, `Any` to `Nothing`, are stable)
        if d.kotlin.kotlin_builtin == Some(true) && package != "kotlin" {
            out.extend(
                markers
                    .iter()
                    .filter(|m| m.rsplit_once('.').is_some_and(|(p, _)| p == package))
                    .cloned(),
            );
        }
        next = d.parent().and_then(|p| api.class_by_name(p));
        depth += 1;
    }
    out
}

/// The opt-in markers a use of member `m` needs: its own and its class's
/// ([`class_opt_ins`]).
pub fn member_opt_ins(api: &Api, m: MemberId, markers: &[String]) -> Vec<String> {
    let mem = api.member(m);
    let d = &api.class(mem.owner).doc;
    let own = match mem.kind {
        MemberKind::Field => d
            .fields()
            .get(mem.doc_index)
            .and_then(|f| f.other_metadata.as_ref())
            .and_then(|o| o.opt_in.clone()),
        MemberKind::Method | MemberKind::Constructor => d
            .methods()
            .get(mem.doc_index)
            .and_then(|f| f.other_metadata.as_ref())
            .and_then(|o| o.opt_in.clone()),
    };
    let mut out = own.unwrap_or_default();
    out.extend(class_opt_ins(api, mem.owner, markers));
    out
}

/// The markers program `p` opts in to: every marker of the API when it does not say which
/// each member needs, else those of `used` (the markers of the members the program calls)
/// and of the classes its types and constructor calls name, among the API's markers
/// (sorted, without duplicates).
pub fn program_opt_ins(
    api: &Api,
    ctx: &SynthContext,
    p: &thalia_translators::ir::Program,
    used: &std::collections::BTreeSet<String>,
) -> Vec<String> {
    if !ctx.opt_ins_per_member {
        return ctx.opt_in_markers.clone();
    }
    let mut out = used.clone();
    for n in &named_classes(p) {
        if let Some(c) = api.class_by_name(n) {
            out.extend(class_opt_ins(api, c, &ctx.opt_in_markers));
        }
    }
    out.into_iter()
        .filter(|m| ctx.opt_in_markers.binary_search(m).is_ok())
        .collect()
}

/// The classes program `p` names: in its types, and as the class of its constructor calls,
/// static calls, fields and references.
fn named_classes(p: &thalia_translators::ir::Program) -> std::collections::BTreeSet<String> {
    use thalia_translators::ir::{Expr, Receiver, RefKind, Ty};
    let mut named = std::collections::BTreeSet::new();
    p.walk_types(&mut |t| {
        if let Ty::Class { name, .. } = t {
            named.insert(name.clone());
        }
    });
    p.walk_exprs(&mut |e| match e {
        Expr::New { class, .. }
        | Expr::Call {
            receiver: Receiver::Static(class),
            ..
        }
        | Expr::Field {
            receiver: Receiver::Static(class),
            ..
        }
        | Expr::Ref {
            kind: RefKind::Static { class, .. } | RefKind::Constructor { class, .. },
            ..
        } => {
            named.insert(class.clone());
        }
        _ => {}
    });
    named
}

/// Whether a use of class `c` needs Scala 3's experimental scope: it, or a class or object
/// it is nested in (by name: `scala.caps.internal.X` in `scala.caps.internal`), is
/// `@experimental`.
pub fn class_is_experimental(api: &Api, c: ClassId) -> bool {
    let mut name = api.class(c).name.as_str();
    loop {
        if api
            .class_by_name(name)
            .is_some_and(|c| api.class(c).doc.scala.experimental == Some(true))
        {
            return true;
        }
        match name.rsplit_once('.') {
            Some((outer, _)) => name = outer,
            None => return false,
        }
    }
}

/// Whether a use of member `m` needs Scala 3's experimental scope: it or its class is
/// `@experimental` ([`class_is_experimental`]).
pub fn member_is_experimental(api: &Api, m: MemberId) -> bool {
    let mem = api.member(m);
    let d = &api.class(mem.owner).doc;
    let own = match mem.kind {
        MemberKind::Field => d
            .fields()
            .get(mem.doc_index)
            .is_some_and(|f| f.scala.experimental == Some(true)),
        MemberKind::Method | MemberKind::Constructor => d
            .methods()
            .get(mem.doc_index)
            .is_some_and(|f| f.scala.experimental == Some(true)),
    };
    own || class_is_experimental(api, mem.owner)
}

/// Whether program `p` needs Scala 3's experimental scope: a member it uses is experimental
/// (`uses_experimental`), or a class it names is.
pub fn program_is_experimental(
    api: &Api,
    p: &thalia_translators::ir::Program,
    uses_experimental: bool,
) -> bool {
    uses_experimental
        || named_classes(p)
            .iter()
            .filter_map(|n| api.class_by_name(n))
            .any(|c| class_is_experimental(api, c))
}

/// The Java-only interfaces that the JVM classes Kotlin maps to its own (`java.lang.String` to
/// `kotlin.String`, the boxes to `kotlin.Int`..., `java.lang.Enum` to `kotlin.Enum`) implement
/// and Kotlin's classes do not: kotlinc rejects `val c: Constable = "x"` and a `String` for a
/// `ConstantDesc` parameter.
const KOTLIN_UNMAPPED_SUPERS: [&str; 2] = [
    "java.lang.constant.Constable",
    "java.lang.constant.ConstantDesc",
];

/// Kotlin's view of the classes it maps: `java.lang.String`, the boxes and `java.lang.Enum`
/// lose the supertypes in [`KOTLIN_UNMAPPED_SUPERS`] (JDK 12's), so that no Kotlin program
/// passes a `String` where a `ConstantDesc` is wanted, nor expects it to be rejected the
/// other way.
fn kotlin_mapped_supertypes(api: &mut Api) {
    let dropped: Vec<_> = KOTLIN_UNMAPPED_SUPERS
        .iter()
        .map(|n| api.ts.arena.sym(n))
        .collect();
    let keep = |ts: &crate::types::TypeSystem, t: TypeId| !matches!(ts.arena.get(t), Type::Class { name, .. } if dropped.contains(name));
    let mapped = ["java.lang.String", "java.lang.Enum"]
        .into_iter()
        .chain(BOXES.iter().map(|(_, b)| *b));
    for name in mapped {
        // the type system's hierarchy (subtyping)
        let sym = api.ts.arena.sym(name);
        if let Some(sig) = api.ts.class_sig(sym).cloned() {
            let supers: Vec<_> = sig
                .supers
                .iter()
                .copied()
                .filter(|&t| keep(&api.ts, t))
                .collect();
            if supers.len() != sig.supers.len() {
                api.ts
                    .declare_class(sym, crate::types::ClassSig { supers, ..sig });
            }
        }
        // and the class's own lists, from which the API graph takes its subtype edges
        if let Some(c) = api.class_by_name(name) {
            let class = &api.classes[c.0 as usize];
            let implements: Vec<TypeId> = (class.implements.iter().copied())
                .filter(|&t| keep(&api.ts, t))
                .collect();
            let inherits: Vec<TypeId> = (class.inherits.iter().copied())
                .filter(|&t| keep(&api.ts, t))
                .collect();
            let class = &mut api.classes[c.0 as usize];
            class.implements = implements;
            class.inherits = inherits;
        }
    }
}

/// True for a Kotlin annotation class, which is no type of values (nor a bound).
pub fn is_kotlin_annotation_class(api: &Api, c: ClassId) -> bool {
    kotlin_kind(api, c) == Some(KotlinKind::AnnotationClass)
}

/// True for a public access modifier (or none recorded).
pub(crate) fn is_public(access: Option<&str>) -> bool {
    access.is_none_or(|a| a == "public")
}

impl SynthContext {
    /// Computes the context of an API for programs that use its Java classes only (builds
    /// its graph too).
    pub fn new(api: &mut Api) -> SynthContext {
        Self::for_native(api, None)
    }

    /// Computes the context of an API for programs of a language that also uses the API's
    /// classes and members of syntax `native` (Kotlin's own extension functions, top-level
    /// functions, nullable and function types).
    pub fn for_native(api: &mut Api, native: Option<Syntax>) -> SynthContext {
        if native == Some(Syntax::Kotlin) {
            kotlin_mapped_supertypes(api);
        }
        let graph = ApiGraph::build(api);
        let string_sym = api.ts.arena.sym("java.lang.String");
        let object_sym = api.ts.arena.sym("java.lang.Object");
        // Scala programs of a Scala API box `int` to `scala.Int` (`Option[Int]`); Java's
        // boxes still unbox
        let scala_api =
            native == Some(Syntax::Scala) && api.classes.iter().any(|c| c.syntax == Syntax::Scala);
        let boxes = scala_api
            .then_some(&scala_view::SCALA_BOXES)
            .into_iter()
            .flatten()
            .chain(BOXES.iter())
            .map(|&(p, n)| (p, api.ts.arena.sym(n)))
            .collect();

        // classes usable from client code
        let preview: FxHashSet<Sym> = api
            .classes
            .iter()
            .filter(|c| c.doc.preview == Some(true))
            .map(|c| c.sym)
            .collect();
        let non_public: FxHashSet<Sym> = api
            .classes
            .iter()
            .filter(|c| !is_public(c.doc.access_mod.as_deref()))
            .map(|c| c.sym)
            .collect();
        let usable_owner = |api: &Api, c: ClassId| {
            let cl = api.class(c);
            let own = if cl.syntax == Syntax::Java || Some(cl.syntax) != native {
                // Java's documents, and other languages' used as Java sees them
                !cl.name.starts_with("kotlin.") && !cl.name.starts_with("scala.")
            } else {
                // a builtin that the JVM's class stands for is not used (nor a deprecated
                // class: its use may be an error)
                Some(cl.syntax) == native
                    && !(cl.syntax == Syntax::Kotlin && kotlin_view::is_mapped(&cl.name))
                    && !(cl.syntax == Syntax::Scala
                        && (scala_view::is_mapped(&cl.name) || cl.doc.scala.scala_inner.is_some()))
                    && cl.doc.deprecated != Some(true)
            };
            own && !preview.contains(&cl.sym) && is_public(cl.doc.access_mod.as_deref())
        };
        // the classes of the type pool, and the owners of usable members: those and the
        // native language's files of top-level members
        let mut owners: Vec<ClassId> = api.class_ids().filter(|&c| usable_owner(api, c)).collect();
        owners.sort_by(|a, b| api.class(*a).name.cmp(&api.class(*b).name));
        let opt_in_markers: Vec<String> = owners
            .iter()
            .copied()
            .filter(|&c| api.class(c).doc.kotlin.opt_in_marker == Some(true))
            .map(|c| api.class(c).name.clone())
            .collect();
        let opt_ins_per_member = !opt_in_markers.is_empty() && has_opt_in_facts(api);
        // Kotlin's annotation classes and Scala's objects are no types of values, nor for
        // them an inner class of a generic class (see `is_raw_inner`); nor is a type
        // constructor over type constructors (`IterableOps[A, CC[_], C]`), whose instances
        // in the pools (or as a subclass chosen for a supertype) would give `CC` a proper type
        let class_ids: Vec<ClassId> = owners
            .iter()
            .copied()
            .filter(|&c| {
                let cl = api.class(c);
                let no_type = is_kotlin_annotation_class(api, c)
                    || is_scala_object(api, c)
                    || native.is_some() && is_raw_inner(api, cl.sym);
                cl.is_class
                    && !no_type
                    && !cl
                        .type_params
                        .iter()
                        .any(|&v| api.ts.arena.var(v).higher_kinded)
            })
            .collect();

        let raw_inner: FxHashSet<Sym> = if native.is_some() {
            api.classes
                .iter()
                .map(|c| c.sym)
                .filter(|&sym| is_raw_inner(api, sym))
                .collect()
        } else {
            FxHashSet::default()
        };
        let mut concrete = Vec::new();
        let mut generic = Vec::new();
        for &c in &class_ids {
            let cl = api.class(c);
            if cl.is_generic() {
                generic.push(c);
            } else {
                let sym = cl.sym;
                concrete.push(api.ts.arena.class(sym, &[]));
            }
        }

        let scala = native == Some(Syntax::Scala);
        let constructors: Vec<ClassId> = if scala {
            generic
                .iter()
                .copied()
                .filter(|&c| plain_constructor(api, c))
                .collect()
        } else {
            Vec::new()
        };
        let mut mentioned_constructors = FxHashSet::default();
        let mut subclasses: FxHashMap<Sym, Vec<ClassId>> = FxHashMap::default();
        for &c in &class_ids {
            let sym = api.class(c).sym;
            let self_ty = api.ts.self_type(sym);
            for s in api.ts.all_supertypes(self_ty) {
                if let Type::Class { name, .. } = api.ts.arena.get(s) {
                    subclasses.entry(*name).or_default().push(c);
                }
                if scala {
                    constructor_args(api, s, &mut mentioned_constructors);
                }
            }
        }
        if scala {
            for m in api.member_ids() {
                let mem = api.member(m);
                for t in mem.params.iter().map(|p| p.ty).chain([mem.ret]) {
                    constructor_args(api, t, &mut mentioned_constructors);
                }
            }
        }

        let mut members_by_name: FxHashMap<ClassId, FxHashMap<String, Vec<ResolvedMember>>> =
            FxHashMap::default();
        for c in api.class_ids().collect::<Vec<_>>() {
            let mut by: FxHashMap<String, Vec<ResolvedMember>> = FxHashMap::default();
            for r in api.resolved_members(c) {
                let name = api.member(r.member).name.clone();
                by.entry(name).or_default().push(r);
            }
            members_by_name.insert(c, by);
        }

        // the packages the API describes: a class of one that the API lacks is not public
        let packages: FxHashSet<String> = api
            .classes
            .iter()
            .filter_map(|c| c.name.rsplit_once('.').map(|(p, _)| p.to_string()))
            .collect();
        let mut testable = Vec::new();
        let mut skipped = Vec::new();
        let mut path_usable = FxHashSet::default();
        let mut ids: Vec<MemberId> = api.member_ids().collect();
        ids.sort_by_key(|&m| (api.owner(m).name.clone(), m));
        for m in ids {
            match Self::member_problem(api, m, &owners, &preview, &non_public, native, &packages) {
                None => {
                    // a context API's members serve inhabitant paths only
                    if !api.owner(m).is_context() {
                        testable.push(m);
                    }
                    // an inner class's constructor needs its enclosing instance, which the
                    // steps of an inhabitant path do not provide
                    if outer_class(api, m).is_none() && !Self::kotlin_path_problem(api, m) {
                        path_usable.insert(m);
                    }
                }
                Some(r) if !api.owner(m).is_context() => skipped.push((m, r)),
                Some(_) => {}
            }
        }
        // Scala resolves an overloaded call on its first list alone, where the typing
        // sequence compares every list's: a member with several lists or an implicit one
        // that has an overload is not called
        testable.retain(|&m| {
            let mem = api.member(m);
            let overloaded = mem.scala_lists.is_some()
                && members_by_name
                    .get(&mem.owner)
                    .and_then(|by| by.get(&mem.name))
                    .is_some_and(|rs| {
                        rs.iter()
                            .any(|r| r.member != m && api.member(r.member).kind == mem.kind)
                    });
            if overloaded {
                let l = mem.scala_lists.as_ref();
                let reason = if l.is_some_and(|l| l.implicit > 0) {
                    SkipReason::ScalaImplicit
                } else {
                    SkipReason::ScalaParameterLists
                };
                skipped.push((m, reason));
                path_usable.remove(&m);
            }
            !overloaded
        });
        let mut extensions: FxHashMap<String, Vec<MemberId>> = FxHashMap::default();
        for &o in &owners {
            let c = api.class(o);
            if c.is_class && !is_kotlin_object(api, o) {
                continue;
            }
            for &m in &c.members {
                let mem = api.member(m);
                if mem.receiver.is_some() {
                    extensions.entry(mem.name.clone()).or_default().push(m);
                }
            }
        }
        let throws_checked = Self::checked_throwers(api);
        let function_var_nodes = function_var_nodes(api, &graph, &path_usable);
        let scala_views = if native == Some(Syntax::Scala) {
            implicit_views(api)
        } else {
            Vec::new()
        };
        let scala_instances = if native == Some(Syntax::Scala) {
            ImplicitIndex::of(api)
        } else {
            ImplicitIndex::default()
        };
        SynthContext {
            graph,
            testable,
            skipped,
            path_usable,
            function_var_nodes,
            throws_checked,
            concrete,
            generic,
            constructors,
            mentioned_constructors,
            subclasses,
            members_by_name,
            boxes,
            string_sym,
            object_sym,
            extensions,
            opt_in_markers,
            opt_ins_per_member,
            native,
            packages,
            raw_inner,
            scala_views,
            scala_instances,
            non_public,
        }
    }

    /// True when the target language can write the type ([`expressible`]).
    pub fn expressible(&self, api: &Api, t: TypeId) -> bool {
        expressible(api, t, self.native)
            && !mentions_class_in(api, t, &self.non_public)
            && (self.native.is_none()
                || hidden_class_problem(api, t, &self.packages).is_none()
                    && !self.names_raw_inner(api, t)
                    && !(self.native == Some(Syntax::Kotlin) && names_raw_type(api, t)))
    }

    /// True when type `t` names one of the classes of `raw_inner`.
    fn names_raw_inner(&self, api: &Api, t: TypeId) -> bool {
        if self.raw_inner.is_empty() {
            return false;
        }
        let a = &api.ts.arena;
        let mut todo = vec![t];
        while let Some(t) = todo.pop() {
            if matches!(a.get(t), Type::Class { name, .. } if self.raw_inner.contains(name)) {
                return true;
            }
            a.for_each_child(t, |c| todo.push(c));
        }
        false
    }

    /// True for a member whose value an inhabitant path cannot take as a step: one with a
    /// nullable result (a path's value is a receiver or argument that must be non-null), or
    /// a generic extension whose receiver names its own type parameters (a path unifies a
    /// step's arguments, not its receiver, with the member's type parameters).
    fn kotlin_path_problem(api: &Api, m: MemberId) -> bool {
        let mem = api.member(m);
        let a = &api.ts.arena;
        matches!(a.get(mem.ret), Type::Nullable(_))
            || mem
                .receiver
                .is_some_and(|r| a.free_vars(r).iter().any(|v| mem.type_params.contains(v)))
    }

    /// Why a member of a Scala API cannot be called yet, if it cannot: an implicit list the
    /// compiler would search for, a higher-kinded type, several explicit parameter lists, an
    /// extension method.
    fn scala_problem(api: &Api, m: MemberId) -> Option<SkipReason> {
        let mem = api.member(m);
        let a = &api.ts.arena;
        let facts = match mem.kind {
            MemberKind::Field => None,
            _ => api
                .class(mem.owner)
                .doc
                .methods()
                .get(mem.doc_index)
                .map(|d| &d.scala),
        };
        if mem.receiver.is_some() {
            return Some(SkipReason::ScalaExtension);
        }
        if mem.is_static && api.class(mem.owner).name == "scala.Unit" {
            return Some(SkipReason::ScalaUnitCompanion);
        }
        if api.class(mem.owner).name == "scala.StringContext" && mem.name == "f" {
            return Some(SkipReason::ScalaMacro);
        }
        // an auxiliary constructor that a page lists as a method
        if mem.name == "this" {
            return Some(SkipReason::NotPublic);
        }
        // a method's lists are written as declared (`Member::scala_lists`, the implicit
        // arguments given explicitly); a constructor's are not written yet
        let implicit = facts.is_some_and(|f| f.implicit_parameters.is_some());
        let lists = facts.and_then(|f| f.parameter_lists);
        let reason = if implicit {
            SkipReason::ScalaImplicit
        } else {
            SkipReason::ScalaParameterLists
        };
        if mem.kind == MemberKind::Constructor && (implicit || lists.is_some_and(|n| n != 1)) {
            return Some(reason);
        }
        // a variable-arity parameter is spread as the last argument: not written in a list
        if mem.scala_lists.is_some() && mem.params.iter().any(|p| p.vararg) {
            return Some(reason);
        }
        let owner_vars = &api.class(mem.owner).type_params;
        let hk = |v: &VarId| a.var(*v).higher_kinded;
        // a class with a constructor parameter (`IterableOps[A, CC[_], C]`) is instantiated
        // as one of its subclasses sees it (`Worker::subclass_view`), for its instance
        // members; a constructor of such a class (`new C[List]`) and its static members are
        // not called yet
        // a method's own constructor parameter of a plain shape (`G[_]`) is drawn alone
        // (`Worker::type_constructor`)
        let opaque = |v: &VarId| hk(v) && a.var(*v).constructor_params.is_empty();
        let hk_owner = owner_vars.iter().any(hk);
        if mem.type_params.iter().any(opaque)
            || (hk_owner && (mem.is_static || mem.kind == MemberKind::Constructor))
        {
            return Some(SkipReason::HigherKinded);
        }
        None
    }

    /// Members whose `throws` lists an exception not known to be unchecked (a subtype of
    /// `RuntimeException` or `Error`).
    fn checked_throwers(api: &mut Api) -> FxHashSet<MemberId> {
        let rte = api.ts.arena.class_named("java.lang.RuntimeException", &[]);
        let err = api.ts.arena.class_named("java.lang.Error", &[]);
        let mut out = FxHashSet::default();
        for m in api.member_ids().collect::<Vec<_>>() {
            let throws = api.member(m).throws.clone();
            if throws
                .into_iter()
                .any(|t| !api.ts.is_subtype(t, rte) && !api.ts.is_subtype(t, err))
            {
                out.insert(m);
            }
        }
        out
    }

    fn member_problem(
        api: &Api,
        m: MemberId,
        usable: &[ClassId],
        preview: &FxHashSet<Sym>,
        non_public: &FxHashSet<Sym>,
        native: Option<Syntax>,
        packages: &FxHashSet<String>,
    ) -> Option<SkipReason> {
        let mem = api.member(m);
        let owner = api.class(mem.owner);
        let doc_preview = match mem.kind {
            MemberKind::Field => false,
            _ => owner
                .doc
                .methods()
                .get(mem.doc_index)
                .is_some_and(|d| d.preview == Some(true)),
        };
        if doc_preview || preview.contains(&owner.sym) {
            return Some(SkipReason::Preview);
        }
        // (in every target language: Java and Kotlin cannot write the class either)
        if mem
            .signature_types()
            .any(|t| names_context_function(api, t))
        {
            return Some(SkipReason::ScalaContextFunction);
        }
        if owner.syntax == Syntax::Kotlin && owner.name == "kotlin" && mem.name == "context" {
            return Some(SkipReason::KotlinContextParameters);
        }
        let own = native.is_some() && native == Some(owner.syntax);
        if mem.is_suspend && own {
            return Some(SkipReason::Suspend);
        }
        if own && (mem.call_is_error || mem.signature_types().any(|t| names_error_class(api, t))) {
            return Some(SkipReason::DeprecatedError);
        }
        if own && is_kotlin_annotation_class(api, mem.owner) {
            return Some(SkipReason::KotlinAnnotationMember);
        }
        if own
            && owner.syntax == Syntax::Kotlin
            && mem.receiver.is_some()
            && PROPERTY_LITERAL_ONLY.contains(&(owner.name.as_str(), mem.name.as_str()))
        {
            return Some(SkipReason::KotlinPropertyLiteral);
        }
        if own
            && owner.syntax == Syntax::Kotlin
            && matches!(mem.kind, MemberKind::Method | MemberKind::Constructor)
        {
            // (the document's text tells `Array<T>` from `Array<out T>`, which both load
            // as an array)
            let invariant = |t: &str| {
                t.match_indices("kotlin.Array<").any(|(i, m)| {
                    !t[i + m.len()..].starts_with("out ") && !t[i + m.len()..].starts_with('*')
                })
            };
            let doc = owner.doc.methods().get(mem.doc_index);
            if doc.is_some_and(|d| {
                d.parameters.iter().any(|p| invariant(p)) || d.receiver().is_some_and(invariant)
            }) {
                return Some(SkipReason::KotlinInvariantArray);
            }
        }
        if !own && (!owner.is_class || mem.is_suspend || mem.receiver.is_some()) {
            return Some(SkipReason::NotCallableFromJava);
        }
        if own && mem.type_params.iter().any(|&v| api.ts.arena.var(v).reified) {
            return Some(SkipReason::Reified);
        }
        if own && owner.syntax == Syntax::Scala {
            if let Some(r) = Self::scala_problem(api, m) {
                return Some(r);
            }
        }
        if own {
            // a Kotlin or Scala extractor leaves out internal and `private[pkg]` classes
            // (and Scala's singleton types `x.type`): a signature that names one is not the
            // client's to write
            if let Some(r) = mem
                .signature_types()
                .find_map(|t| hidden_class_problem(api, t, packages))
            {
                return Some(r);
            }
        }
        // an extension declared in a class is in scope only inside it (or, for an object's,
        // where imported); a `vararg` before other parameters needs named arguments after it
        if own
            && (mem.receiver.is_some() && owner.is_class && !is_kotlin_object(api, mem.owner)
                || mem.params.iter().rev().skip(1).any(|p| p.vararg))
        {
            return Some(SkipReason::UnsupportedType);
        }
        if !is_public(mem.access.as_deref()) || !usable.contains(&mem.owner) {
            return Some(SkipReason::NotPublic);
        }
        // Kotlin and Scala write an inner class of a generic class with its enclosing class's
        // type arguments (`TypeToken<T>.TypeSet`), which the API's types do not carry
        if native.is_some()
            && (is_raw_inner(api, owner.sym)
                || mem.signature_types().any(|t| names_raw_inner(api, t)))
        {
            return Some(SkipReason::RawType);
        }
        if mem.kind == MemberKind::Constructor {
            if !matches!(owner.kind, ClassKind::Class) {
                return Some(SkipReason::AbstractConstructor);
            }
            // a static nested class is created by its qualified name (`new
            // AbstractMap.SimpleEntry<>(k, v)`), an inner one on an instance of its
            // enclosing class, which must be usable
            if owner.doc.is_inner == Some(true) {
                let usable_outer = outer_class(api, m).is_some_and(|o| usable.contains(&o));
                if !usable_outer {
                    return Some(SkipReason::NestedConstructor);
                }
            }
            if !mem.type_params.is_empty() {
                return Some(SkipReason::GenericConstructor);
            }
        }
        let mut types: Vec<TypeId> = mem.params.iter().map(|p| p.ty).collect();
        types.push(mem.ret);
        for &v in &mem.type_params {
            types.extend(api.ts.arena.var(v).upper.iter().copied());
        }
        types.extend(mem.receiver);
        // a `vararg` of an unsigned type is its unsigned array (`UIntArray`), not written yet
        let unsigned_vararg = mem.params.iter().any(|p| {
            p.vararg
                && matches!(api.ts.arena.get(p.ty), Type::Array(e)
                    if api.ts.arena.as_class(*e)
                        .is_some_and(|(n, _)| kotlin_view::is_unsigned(api.ts.arena.name(n))))
        });
        if unsigned_vararg {
            return Some(SkipReason::UnsupportedType);
        }
        if types.iter().any(|&t| !expressible(api, t, native)) {
            return Some(SkipReason::UnsupportedType);
        }
        if types.iter().any(|&t| mentions_class_in(api, t, preview)) {
            return Some(SkipReason::Preview);
        }
        // a class the API describes as protected or package-private is not accessible
        // (`AbstractPatriciaTrie.firstEntry()`'s protected `TrieEntry`), nor is a nested
        // class of an API class that the API leaves out (e.g. a public field whose type is a
        // private nested class)
        if types.iter().any(|&t| mentions_class_in(api, t, non_public)) {
            return Some(SkipReason::NotPublic);
        }
        let hidden_nested = |t: TypeId| {
            let mut found = false;
            let mut stack = vec![t];
            while let Some(u) = stack.pop() {
                if let Type::Class { name, .. } = api.ts.arena.get(u) {
                    let n = api.ts.arena.name(*name);
                    if api.class_by_name(n).is_none() {
                        if let Some((outer, _)) = n.rsplit_once('.') {
                            found |= api.class_by_name(outer).is_some();
                        }
                    }
                }
                api.ts.arena.for_each_child(u, |c| stack.push(c));
            }
            found
        };
        if types.iter().any(|&t| hidden_nested(t)) {
            return Some(SkipReason::NotPublic);
        }
        None
    }

    /// The boxed class symbol of a primitive.
    pub fn box_of(&self, p: Prim) -> Option<Sym> {
        self.boxes.iter().find(|(q, _)| *q == p).map(|(_, s)| *s)
    }

    /// The primitive a boxed class unboxes to.
    pub fn unbox_of(&self, s: Sym) -> Option<Prim> {
        self.boxes.iter().find(|(_, b)| *b == s).map(|(p, _)| *p)
    }
}

/// The implicit instances and implicit methods of a Scala API's companion objects.
#[derive(Clone, Debug, Default)]
pub struct ImplicitIndex {
    /// Each implicit `val` or parameterless `def` of a companion: its owner class and the
    /// parts of its type (an intersection `A & B` gives both).
    pub(in crate::synth) instances: Vec<(Sym, Vec<TypeId>)>,
    /// Each implicit method of a companion with type or implicit parameters (a generic or
    /// conditional instance): its owner class and the class its result is an instance of.
    pub(in crate::synth) producers: Vec<(Sym, Sym)>,
}

impl ImplicitIndex {
    /// Reads the API's Scala companions (static members): fields and methods marked
    /// `implicit`; an instance's type is read from its document (the loader leaves out a
    /// member whose type is an intersection).
    pub fn of(api: &mut Api) -> ImplicitIndex {
        let mut out = ImplicitIndex::default();
        let classes: Vec<crate::api::ClassId> = api
            .class_ids()
            .filter(|&c| api.class(c).syntax == Syntax::Scala)
            .collect();
        for c in classes {
            let (sym, doc) = {
                let cl = api.class(c);
                (cl.sym, cl.doc.clone())
            };
            for f in doc.fields() {
                if f.scala.implicit != Some(true) || f.is_static != Some(true) {
                    continue;
                }
                let parts: Option<Vec<TypeId>> = split_intersection(&f.ty)
                    .into_iter()
                    .map(|t| {
                        let t = crate::types::parse_type(&mut api.ts.arena, Syntax::Scala, t, &[])
                            .ok()?;
                        Some(crate::types::scala_view::to_jvm(&mut api.ts.arena, t, true))
                    })
                    .collect();
                if let Some(parts) = parts {
                    out.instances.push((sym, parts));
                }
            }
        }
        for m in api.member_ids() {
            let mem = api.member(m);
            let cl = api.class(mem.owner);
            if cl.syntax != Syntax::Scala || !mem.is_static || mem.kind != MemberKind::Method {
                continue;
            }
            let marked = cl
                .doc
                .methods()
                .get(mem.doc_index)
                .is_some_and(|d| d.scala.implicit == Some(true));
            if !marked {
                continue;
            }
            let ret = api.ts.arena.as_class(mem.ret).map(|(s, _)| s);
            match ret {
                // a parameterless one is an instance (a method only where the view says so)
                Some(_) if mem.params.is_empty() && mem.type_params.is_empty() => {
                    out.instances.push((cl.sym, vec![mem.ret]));
                }
                Some(r) => out.producers.push((cl.sym, r)),
                None => {}
            }
        }
        out
    }
}

/// The parts of an intersection type's text (`A & B[C & D]` gives `A` and `B[C & D]`): split
/// at each `&` outside brackets and parentheses.
fn split_intersection(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, ch) in text.char_indices() {
        match ch {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            '&' if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Syntax;
    use std::path::PathBuf;

    /// A Java API with a generic class `p.Outer<T>`, its inner class `Inner` and a static
    /// nested class `Nested`, and a class whose methods take each.
    fn outer_inner_api() -> Api {
        let method = |name: &str, param: &str| {
            serde_json::json!({"name": name, "parameters": [param], "type_parameters": [],
                "return_type": "void", "is_static": true, "is_constructor": false,
                "access_mod": "public"})
        };
        Api::from_docs(
            vec![
                doc(
                    serde_json::json!({"name": "p.Outer", "type_parameters": ["T"],
                    "class_type": 0, "access_mod": "public", "language": "java",
                    "methods": [], "fields": []}),
                ),
                doc(
                    serde_json::json!({"name": "p.Outer.Inner", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "java",
                    "parent": "p.Outer", "is_inner": true,
                    "methods": [method("size", "int")], "fields": []}),
                ),
                doc(
                    serde_json::json!({"name": "p.Outer.Nested", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "java",
                    "parent": "p.Outer", "is_inner": false, "methods": [], "fields": []}),
                ),
                doc(serde_json::json!({"name": "p.Use", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "java",
                    "methods": [method("inner", "p.Outer.Inner"),
                                method("nested", "p.Outer.Nested")],
                    "fields": []})),
            ],
            Vec::new(),
        )
    }

    /// A class document and the path it would have in an API directory.
    fn doc(v: serde_json::Value) -> (PathBuf, thalia_extractors::ClassDoc) {
        let d: thalia_extractors::ClassDoc = serde_json::from_value(v).expect("a class document");
        (PathBuf::from(format!("{}.json", d.name)), d)
    }

    #[test]
    fn kotlin_and_scala_never_name_an_inner_class_of_a_generic_class() {
        for (native, raw_skipped) in [
            (None, false),
            (Some(Syntax::Kotlin), true),
            (Some(Syntax::Scala), true),
        ] {
            let mut api = outer_inner_api();
            let inner = api.ts.arena.sym("p.Outer.Inner");
            let nested = api.ts.arena.sym("p.Outer.Nested");
            assert!(is_raw_inner(&api, inner));
            assert!(!is_raw_inner(&api, nested));
            let ctx = SynthContext::for_native(&mut api, native);
            let reason = |name: &str| {
                ctx.skipped
                    .iter()
                    .find(|(m, _)| api.member(*m).name == name)
                    .map(|(_, r)| *r)
            };
            let raw = raw_skipped.then_some(SkipReason::RawType);
            // a member naming the inner class, and the inner class's own members
            assert_eq!(reason("inner"), raw, "{native:?}");
            assert_eq!(reason("size"), raw, "{native:?}");
            assert_eq!(reason("nested"), None, "{native:?}");
            let inner_t = api.ts.arena.class(inner, &[]);
            assert_eq!(
                ctx.concrete.contains(&inner_t),
                !raw_skipped,
                "{native:?}: the inner class is a type of the pool"
            );
            assert_eq!(ctx.expressible(&api, inner_t), !raw_skipped, "{native:?}");
        }
    }

    #[test]
    fn kotlin_sees_no_constant_desc_above_its_mapped_classes() {
        for (native, sees) in [(None, true), (Some(Syntax::Kotlin), false)] {
            let mut api = crate::embedded::embedded_corpus("java.base").expect("corpus");
            let _ = SynthContext::for_native(&mut api, native);
            let class = |api: &mut Api, n: &str| {
                let s = api.ts.arena.sym(n);
                api.ts.arena.class(s, &[])
            };
            let string = class(&mut api, "java.lang.String");
            let integer = class(&mut api, "java.lang.Integer");
            let desc = class(&mut api, "java.lang.constant.ConstantDesc");
            let constable = class(&mut api, "java.lang.constant.Constable");
            let chars = class(&mut api, "java.lang.CharSequence");
            assert_eq!(api.ts.is_subtype(string, desc), sees, "{native:?}");
            assert_eq!(api.ts.is_subtype(integer, constable), sees, "{native:?}");
            // Kotlin's own supertypes stay
            assert!(api.ts.is_subtype(string, chars), "{native:?}");
            // the API graph's subtype edges come from the class's own lists
            let c = api.class_by_name("java.lang.String").expect("String");
            assert_eq!(
                api.class(c).supertypes().contains(&desc),
                sees,
                "{native:?}"
            );
        }
    }

    #[test]
    fn scala_3_experimental_classes_and_members_make_an_experimental_program() {
        use thalia_translators::ir::{Expr, Program, Stmt, Ty};
        let method = |name: &str, experimental: bool| {
            let mut m = serde_json::json!({"name": name, "parameters": [],
                "type_parameters": [], "return_type": "scala.Unit", "is_static": true,
                "is_constructor": false, "access_mod": "public"});
            if experimental {
                m["experimental"] = serde_json::json!(true);
            }
            m
        };
        let api = Api::from_docs(
            vec![
                doc(serde_json::json!({"name": "s.Lab", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "scala",
                    "methods": [method("trial", true), method("plain", false)],
                    "fields": []})),
                // an experimental object, and a class nested in it (by name only)
                doc(serde_json::json!({"name": "s.caps", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "scala",
                    "experimental": true, "methods": [], "fields": []})),
                doc(
                    serde_json::json!({"name": "s.caps.Inner", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "scala",
                    "methods": [method("run", false)], "fields": []}),
                ),
            ],
            Vec::new(),
        );
        let member = |class: &str, name: &str| {
            api.member_ids()
                .find(|&m| {
                    api.member(m).name == name && api.class(api.member(m).owner).name == class
                })
                .expect("a member")
        };
        assert!(member_is_experimental(&api, member("s.Lab", "trial")));
        assert!(!member_is_experimental(&api, member("s.Lab", "plain")));
        // a member of a class nested in an experimental object
        assert!(member_is_experimental(&api, member("s.caps.Inner", "run")));
        let typed = |class: &str| {
            let ty = Ty::Class {
                name: class.into(),
                args: Vec::new(),
            };
            Program::new("p1", vec![Stmt::local("r", ty, Expr::null())])
        };
        assert!(program_is_experimental(&api, &typed("s.caps.Inner"), false));
        assert!(!program_is_experimental(&api, &typed("s.Lab"), false));
        assert!(program_is_experimental(&api, &typed("s.Lab"), true));
    }

    #[test]
    fn a_member_that_names_a_protected_nested_class_is_not_public() {
        let method = |name: &str, ret: &str| {
            serde_json::json!({"name": name, "parameters": [], "type_parameters": [],
                "return_type": ret, "is_static": false, "is_constructor": false,
                "access_mod": "public"})
        };
        // commons-collections4's `AbstractPatriciaTrie`: public `firstEntry()` returns the
        // protected nested `TrieEntry`, which javac and kotlinc refuse to name outside
        let mut api = Api::from_docs(
            vec![
                doc(serde_json::json!({"name": "p.Trie", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "java",
                    "methods": [method("firstEntry", "p.Trie.Entry"),
                                method("open", "p.Trie.Open")],
                    "fields": []})),
                doc(
                    serde_json::json!({"name": "p.Trie.Entry", "type_parameters": [],
                    "class_type": 0, "access_mod": "protected", "language": "java",
                    "parent": "p.Trie", "methods": [], "fields": []}),
                ),
                doc(
                    serde_json::json!({"name": "p.Trie.Open", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "java",
                    "parent": "p.Trie", "methods": [], "fields": []}),
                ),
            ],
            Vec::new(),
        );
        for native in [None, Some(Syntax::Kotlin)] {
            let ctx = SynthContext::for_native(&mut api, native);
            let reason = |name: &str| {
                ctx.skipped
                    .iter()
                    .find(|(m, _)| api.member(*m).name == name)
                    .map(|(_, r)| *r)
            };
            assert_eq!(reason("firstEntry"), Some(SkipReason::NotPublic));
            assert_eq!(reason("open"), None);
            // nor is the protected class a type a program may write (a type variable's
            // bound, a type argument)
            let (entry, open) = (
                api.ts.arena.class_named("p.Trie.Entry", &[]),
                api.ts.arena.class_named("p.Trie.Open", &[]),
            );
            assert!(!ctx.expressible(&api, entry));
            assert!(ctx.expressible(&api, open));
        }
    }

    #[test]
    fn kotlin_writes_no_raw_type() {
        // a generic class without its type arguments, as a Java supertype list may give it
        // (the bound `T : KMutableProperty0` of a generic test method, which kotlinc refuses)
        for (native, writes) in [(None, true), (Some(Syntax::Kotlin), false)] {
            let mut api = crate::embedded::embedded_corpus("java.base").expect("corpus");
            let ctx = SynthContext::for_native(&mut api, native);
            let string = api.ts.arena.class_named("java.lang.String", &[]);
            let raw = api.ts.arena.class_named("java.util.List", &[]);
            let full = api.ts.arena.class_named("java.util.List", &[string]);
            let nested = api.ts.arena.class_named("java.util.List", &[raw]);
            assert_eq!(ctx.expressible(&api, raw), writes, "{native:?}");
            assert_eq!(ctx.expressible(&api, nested), writes, "{native:?}");
            assert!(ctx.expressible(&api, full), "{native:?}");
        }
    }

    #[test]
    fn a_scala_type_named_through_a_private_object_is_not_written() {
        let method = |name: &str, param: &str| {
            serde_json::json!({"name": name, "parameters": [param], "type_parameters": [],
                "return_type": "scala.Unit", "is_static": false, "is_constructor": false,
                "access_mod": "public"})
        };
        // Scaladoc's view of `scala.sys.process.BasicIO`: `processInternal` is a
        // `private[process] object` of the package object, its aliases kept
        let mut api = Api::from_docs(
            vec![
                doc(
                    serde_json::json!({"name": "java.io.File", "type_parameters": [],
                    "class_type": 0, "access_mod": "public", "language": "java",
                    "methods": [], "fields": []}),
                ),
                doc(serde_json::json!({"name": "scala.sys.process.BasicIO",
                    "type_parameters": [], "class_type": 0, "access_mod": "public",
                    "language": "scala",
                    "methods": [method("aliased", "scala.sys.process.processInternal.File"),
                                method("direct", "java.io.File"),
                                method("sub", "scala.sys.process.sub.Missing")],
                    "fields": []})),
                doc(serde_json::json!({"name": "scala.sys.process.sub.Known",
                    "type_parameters": [], "class_type": 0, "access_mod": "public",
                    "language": "scala", "methods": [], "fields": []})),
            ],
            Vec::new(),
        );
        let packages: FxHashSet<String> = ["java.io", "scala.sys.process", "scala.sys.process.sub"]
            .into_iter()
            .map(String::from)
            .collect();
        assert!(through_term("scala.sys.process.processInternal", &packages));
        assert!(!through_term("scala.sys.process", &packages));
        assert!(!through_term("scala.sys.process.sub", &packages));
        assert!(!through_term("org.other", &packages));
        let ctx = SynthContext::for_native(&mut api, Some(Syntax::Scala));
        let reason = |name: &str| {
            ctx.skipped
                .iter()
                .find(|(m, _)| api.member(*m).name == name)
                .map(|(_, r)| *r)
        };
        assert_eq!(reason("aliased"), Some(SkipReason::NotPublic));
        assert_eq!(reason("direct"), None);
        // a class the API lacks in a package it describes: not public, as before
        assert_eq!(reason("sub"), Some(SkipReason::NotPublic));
    }

    #[test]
    fn a_member_with_a_context_function_type_is_skipped_not_taken_for_a_function() {
        let method = |name: &str, param: &str, ret: &str| {
            serde_json::json!({"name": name, "parameters": [param], "type_parameters": ["T"],
                "return_type": ret, "is_static": true, "is_constructor": false,
                "access_mod": "public"})
        };
        // the Scala view of Scala 3's `boundary` and `quoted.runtime.Expr`: `apply(body:
        // Label[T] ?=> T): T`, `quote(x: T): Quotes ?=> Expr[T]`; `run` takes a plain function
        let docs = || {
            vec![
                doc(serde_json::json!({"name": "scala.util.boundary.Label",
                    "type_parameters": ["T"], "class_type": 1, "access_mod": "public",
                    "language": "scala", "methods": [], "fields": []})),
                doc(serde_json::json!({"name": "scala.util.boundary",
                    "type_parameters": [], "class_type": 0, "access_mod": "public",
                    "language": "scala", "scala_object": true,
                    "methods": [
                        method("apply", "(scala.util.boundary.Label[T]) ?=> T", "T"),
                        method("quote", "T", "(scala.util.boundary.Label[T]) ?=> scala.Option[T]"),
                        method("nested", "scala.Option[(scala.Int, T) ?=> T]", "T"),
                        method("run", "(scala.util.boundary.Label[T]) => T", "T")],
                    "fields": []})),
            ]
        };
        for native in [Some(Syntax::Scala), None] {
            let mut api = Api::from_docs(docs(), Vec::new());
            assert!(api.report.issues.is_empty(), "{:?}", api.report.issues);
            let ctx = SynthContext::for_native(&mut api, native);
            let reason = |name: &str| {
                ctx.skipped
                    .iter()
                    .find(|(m, _)| api.member(*m).name == name)
                    .map(|(_, r)| *r)
            };
            for name in ["apply", "quote", "nested"] {
                assert_eq!(
                    reason(name),
                    Some(SkipReason::ScalaContextFunction),
                    "{name} {native:?}"
                );
                let m = api.member_ids().find(|&m| api.member(m).name == name);
                assert!(!ctx.path_usable.contains(&m.expect("the member")));
            }
            if native.is_some() {
                assert_eq!(reason("run"), None);
            }
        }
    }

    #[test]
    fn scala_programs_keep_type_constructors_path_types_and_views_apart() {
        let mut api = crate::embedded::embedded_corpus("scala-library-2.13.18").expect("corpus");
        let ctx = SynthContext::for_native(&mut api, Some(Syntax::Scala));
        let sym = |api: &mut Api, n: &str| api.ts.arena.sym(n);
        // a class with a higher-kinded parameter is in no pool
        let ops = sym(&mut api, "scala.collection.IterableOps");
        let in_pools = ctx.generic.iter().any(|&c| api.class(c).sym == ops)
            || ctx
                .subclasses
                .values()
                .any(|cs| cs.iter().any(|&c| api.class(c).sym == ops));
        assert!(!in_pools, "IterableOps in a pool");
        // type constructors a method's `G[_]` can be given alone: unbounded parameters only
        // (not `SoftReference[T <: AnyRef]`); the API's own (`List`, passed to `CC` by the
        // supertypes of `List`) are marked
        let ctor = |api: &mut Api, n: &str| {
            let s = sym(api, n);
            let plain = ctx.constructors.iter().any(|&c| api.class(c).sym == s);
            (plain, ctx.mentioned_constructors.contains(&s))
        };
        assert_eq!(
            ctor(&mut api, "scala.collection.immutable.List"),
            (true, true)
        );
        assert!(!ctor(&mut api, "scala.ref.SoftReference").0);
        assert!(ctor(&mut api, "scala.Option").0);
        // its type is expressible with a type constructor for `CC`, not with a wildcard
        let defaults = sym(&mut api, "scala.collection.IterableFactoryDefaults");
        let a = &mut api.ts.arena;
        let string = a.class_named("java.lang.String", &[]);
        let list = a.class_named("scala.collection.immutable.List", &[]);
        let iterable = a.class_named("scala.collection.Iterable", &[]);
        let wild = a.wildcard(crate::types::Wildcard::Extends(iterable));
        let with_list = a.class(defaults, &[string, list]);
        let with_wild = a.class(defaults, &[string, wild]);
        // a class nested in an object the API leaves out (`private[collection]`), named as a
        // supertype of `WeakHashMap`, is not written
        let hidden = a.class_named(
            "scala.collection.convert.JavaCollectionWrappers.JMapWrapperLike",
            &[string, string, list, list],
        );
        assert!(ctx.expressible(&api, with_list));
        assert!(!ctx.expressible(&api, with_wild));
        assert!(!ctx.expressible(&api, hidden));
        // a class of a class is path-dependent (`r.Value`): never written
        let value = sym(&mut api, "scala.Enumeration.Value");
        assert!(is_raw_inner(&api, value));
        // `Predef.intWrapper(x: Int): RichInt`, inherited from a class clients cannot name,
        // and the implicit class `ArrowAssoc[A](self: A)` are conversions
        let views: Vec<(String, String)> = ctx
            .scala_views
            .iter()
            .map(|&(p, r)| {
                let show = |t| crate::types::print_type(&api.ts.arena, Syntax::Scala, t);
                (show(p), show(r))
            })
            .collect();
        for (p, r) in [
            ("scala.Int", "scala.runtime.RichInt"),
            ("A", "scala.Predef.ArrowAssoc[A]"),
        ] {
            assert!(
                views.iter().any(|(a, b)| a == p && b == r),
                "{p} => {r} not among {} views",
                views.len()
            );
        }
    }

    #[test]
    fn a_type_variable_is_a_function_node_when_a_path_through_a_function_reaches_it() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("corpus");
        let ctx = SynthContext::new(&mut api);
        let objects = api.class_by_name("java.util.Objects").expect("Objects");
        // the result node of `Objects`'s one-parameter method `name`
        let result_node = |api: &Api, name: &str, params: usize| {
            let m = api
                .class(objects)
                .members
                .iter()
                .copied()
                .find(|&m| api.member(m).name == name && api.member(m).params.len() == params)
                .expect("the method");
            assert!(matches!(api.ts.arena.get(api.member(m).ret), Type::Var(_)));
            ctx.graph
                .node_of_type(api.member(m).ret)
                .expect("a result node")
        };
        // `<T> T requireNonNullElseGet(T, Supplier<? extends T>)` takes a function
        let else_get = result_node(&api, "requireNonNullElseGet", 2);
        assert!(ctx.function_var_nodes.contains(&else_get));
        // `<T> T requireNonNull(T)`: no path to its own `T` takes a function
        let plain = result_node(&api, "requireNonNull", 1);
        assert!(!ctx.function_var_nodes.contains(&plain));
        // only type variables
        for &n in &ctx.function_var_nodes {
            assert!(
                matches!(ctx.graph.graph[n], Node::Type(t) if matches!(api.ts.arena.get(t), Type::Var(_)))
            );
        }
    }
}
