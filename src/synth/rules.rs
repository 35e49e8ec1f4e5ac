//! What each target language does differently from Java, asked by capability: synthesis never
//! asks which language it writes, only whether that language widens a primitive, converts a
//! lambda, sees a raw type, … ([`LanguageRules`]). The type-level checks built on these
//! answers live here too: the members a language cannot use the way Java does
//! (`Worker::language_problem`) and the conversions it makes where Java would not
//! (`Worker::lenient_conversion`).

use crate::types::{Sym, TypeSystem};
use thalia_translators::Language;

use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{Expr, Program, Receiver, Stmt, Ty};

use super::context::SkipReason;
use super::enumerate::{Broken, Formal, Position, Task, TypingSequence};
use super::program::to_ir;
use super::worker::{wider_prims, SynthRng, Worker};
use crate::api::{ClassKind, MemberId, MemberKind};
use crate::types::{print_type, Prim, Syntax, Type, TypeArena, TypeId};

/// Where a value is converted to a variable's type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ConversionSite {
    /// An assignment (`T x = e`, a local initialized with a call's result).
    Assignment,
    /// A method or constructor argument.
    Argument,
}

/// True when Kotlin imports every member of `package` by default.
pub(crate) fn kotlin_default_import(package: &str) -> bool {
    thalia_translators::kotlin::is_default_import(package)
}

/// The rules of one target language, as answers to capability questions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LanguageRules {
    lang: Language,
}

impl From<Language> for LanguageRules {
    fn from(lang: Language) -> Self {
        LanguageRules::new(lang)
    }
}

impl LanguageRules {
    /// The rules of `lang`.
    pub const fn new(lang: Language) -> Self {
        LanguageRules { lang }
    }

    /// The language these rules are for.
    pub const fn language(self) -> Language {
        self.lang
    }

    /// True when Scala 3 or 2.13 (private: every question below is a capability).
    const fn is_scala(self) -> bool {
        matches!(self.lang, Language::Scala3 | Language::Scala2)
    }

    /// True when a value of primitive type `from` converts implicitly to primitive type `to`
    /// (Java's widening, JLS 5.1.2). Kotlin has no implicit widening between primitive types;
    /// Groovy's static checker never widens `char` to a number, in assignments or arguments
    /// ("Cannot assign value of type char to variable of type int", "Cannot find matching
    /// method m(char)"; groovyc 4.0.11 and 5.1.3).
    pub fn widens_primitive(self, from: Prim, to: Prim) -> bool {
        match self.lang {
            Language::Kotlin => false,
            Language::Groovy if from == Prim::Char => false,
            Language::Java | Language::Scala3 | Language::Scala2 | Language::Groovy => {
                wider_prims(from).contains(&to)
            }
        }
    }

    /// True when the language widens a number and then boxes it where Java would not
    /// (Scala 2: `val l: java.lang.Long = anInt`), in assignments and arguments alike.
    pub fn widens_then_boxes(self) -> bool {
        self.lang == Language::Scala2
    }

    /// True when an assignment coerces values Java would not convert: Groovy turns anything
    /// into `boolean` (truth), `String` (`toString`), an enum (from its name), a `Class` or
    /// `Object`, and converts between numbers, collections to arrays and numbers to
    /// `BigDecimal`/`BigInteger`.
    pub fn coerces_on_assignment(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when method invocation (the loose phases of overload resolution) converts
    /// between any two numeric types or their boxes (Groovy's number table).
    pub fn converts_between_numbers(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when any trailing array parameter takes a variable number of arguments, not
    /// only one declared varargs (Groovy).
    pub fn trailing_array_is_varargs(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when some reference types are no `Object`s (Scala's value classes and universal
    /// traits), so that a class whose supertypes the API does not know may be one.
    pub fn has_universal_traits(self) -> bool {
        self.is_scala()
    }

    /// True when `class` is a universal trait of the language, a supertype of its value
    /// classes that extends `Any`, not `AnyRef`, so that its values are no `Object`
    /// (Scala's `java.lang.Comparable` and `java.io.Serializable`, Scala 3's
    /// `java.lang.Cloneable`, and the Scala API's own, such as `Product` and `Equals`).
    pub fn extends_any_only(self, ts: &TypeSystem, class: Sym) -> bool {
        self.is_scala()
            && (ts.is_universal(class)
                || matches!(
                    ts.arena.name(class),
                    "java.lang.Comparable" | "java.io.Serializable"
                )
                // scalac 3 also sees Java's `Cloneable` so ("Found: Cloneable, Required:
                // Object")
                || self.lang == Language::Scala3 && ts.arena.name(class) == "java.lang.Cloneable")
    }

    /// True when overload resolution prefers an alternative whose result conforms to the
    /// expected type (Scala: `l.remove(i)` assigned to a `Boolean` picks `remove(Object)`).
    pub fn overloads_by_expected_type(self) -> bool {
        self.is_scala()
    }

    /// True when overload resolution weighs a candidate declared in a subclass against a more
    /// specific one declared above it (Scala's relative weight: `jumps(Double)` of
    /// `ArbitrarilyJumpableGenerator` and the inherited `jumps(Long)` are ambiguous for a
    /// `Long`).
    pub fn weighs_overloads_by_owner(self) -> bool {
        self.is_scala()
    }

    /// True when a call may pass elements before a spread array to a variable-arity
    /// parameter (Kotlin's `f(a, b, *arr)`), so an array argument after an element still
    /// fills the parameter.
    pub fn spread_follows_elements(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the language writes raw types (a generic class without type arguments):
    /// Java and Groovy do; Kotlin and Scala have no syntax for them.
    pub fn has_raw_types(self) -> bool {
        matches!(self.lang, Language::Java | Language::Groovy)
    }

    /// True when the language converts a bare lambda to a functional interface whose single
    /// abstract method is named `sam`. Java counts a public `clone()` (or `finalize()`) that
    /// an interface redeclares as its abstract method (`Object`'s is protected); Kotlin,
    /// Scala and Groovy see `Object`'s own method and no SAM at all.
    pub fn converts_lambda_to(self, sam: &str) -> bool {
        self.lang == Language::Java || !matches!(sam, "clone" | "finalize")
    }

    /// True when a function reference's boxed parameter converts to a wider primitive
    /// parameter of the referenced method (Java's unboxing then widening: a
    /// `Function<Byte, R>` from `m(int)`); Scala converts a `java.lang.Byte` to `Byte` only
    /// (one implicit conversion, no widening after it) and Kotlin widens no primitive.
    pub fn widens_unboxed_reference_args(self) -> bool {
        matches!(self.lang, Language::Java | Language::Groovy)
    }

    /// True when the language's arrays are invariant (Scala's `Array[T]`): a method result
    /// `X<C<?>>[]` captured from a wildcard receiver (`Array[X[C[c.T]]]`) is no
    /// `Array[X[?]]`, where Java's covariant arrays make it one.
    pub fn arrays_are_invariant(self) -> bool {
        matches!(self.lang, Language::Scala3 | Language::Scala2)
    }

    /// True when the language can reference a static method of a generic class by the bare
    /// class name (`C::m`); Kotlin asks for the class's type arguments there ("3 type
    /// arguments expected") and has no syntax for them on a Java static.
    pub fn references_statics_of_generic_classes(self) -> bool {
        self.lang != Language::Kotlin
    }

    /// True when the language can reference an array constructor (`T[]::new`); Kotlin has
    /// no callable reference to one.
    pub fn references_array_constructors(self) -> bool {
        self.lang != Language::Kotlin
    }

    /// True when a value of the language's own function types (Kotlin's `(A) -> R`, Scala's
    /// `A => R`) is drawn as a function reference too (a callable reference, an
    /// eta-expansion), not only as a lambda.
    pub fn references_for_function_types(self) -> bool {
        matches!(
            self.lang,
            Language::Kotlin | Language::Scala3 | Language::Scala2
        )
    }

    /// True when a lambda for one of the language's own function types is cast to it in a
    /// share of the programs (Kotlin's `{ x: String -> .. } as (String) -> Int`, its
    /// parameters typed, since a cast gives it no expected type).
    pub fn casts_lambdas_to_function_types(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the language has implicit parameters that a call may leave to the
    /// compiler's search (Scala).
    pub fn searches_implicits(self) -> bool {
        self.is_scala()
    }

    /// True when the language references its packages' own functions (Kotlin's top-level
    /// and extension functions: `::maxOf_`, `String::trim_`, through import aliases).
    pub fn references_package_functions(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when a function's result of a primitive type (or its box) converts to the
    /// function type's wider primitive result (`int` for a `ToLongFunction`); groovyc's
    /// static checker does not widen a closure's or a reference's result.
    pub fn widens_function_results(self) -> bool {
        self.lang != Language::Groovy
    }

    /// True when a function's primitive result converts to any reference type of the function
    /// type's result that its box converts to (`Function<String, Object>` from
    /// `Integer::parseInt`, or a lambda whose body is an `int`); Scala converts a function's
    /// `Int` result only to `java.lang.Integer` itself (the `int2Integer` conversion), and
    /// rejects it for `Object`, `Number` or a type variable's `Object` instance.
    pub fn boxes_function_results_to_supertypes(self) -> bool {
        !self.is_scala()
    }

    /// True when a conditional joining a `char` (or `Character`) with another numeric type
    /// has the promoted numeric type, as in Java (JLS 15.25.2); groovyc joins the boxes
    /// (`Serializable & Comparable & Constable`), which no numeric variable accepts.
    pub fn promotes_char_in_conditionals(self) -> bool {
        self.lang != Language::Groovy
    }

    /// True when the checker checks a type argument against a bound that mentions another
    /// parameter whose argument is a wildcard, with the wildcard in the bound (Scala 3:
    /// `BaseStream[? <: Long, LongStream]` does not conform to `S <: BaseStream[T, S]`); Java
    /// captures the wildcard first.
    pub fn checks_bounds_through_wildcards(self) -> bool {
        self.lang == Language::Scala3
    }

    /// True when a primitive value converts to `java.lang.Object` where a conditional's
    /// branch (or any expression) expects one; Scala refuses the boxing view ("the result
    /// type of an implicit conversion must be more specific than Object": `val o: Object =
    /// if (c) 29.toShort else null`; Scala 3: "Found: (76.25d : Double), Required: Object").
    pub fn boxes_primitives_to_object(self) -> bool {
        !self.is_scala()
    }

    /// True when the language sees the Java supertypes of the boxed primitives and `String`
    /// (`Constable`, `ConstantDesc`, …); Kotlin sees them as its own `Int`, `String`, …,
    /// whose supertypes are only Kotlin's (`Number`, `Comparable`, `CharSequence`).
    pub fn sees_java_supertypes_of_builtins(self) -> bool {
        self.lang != Language::Kotlin
    }

    /// True when the language hides static members that the extractor copied into a class
    /// from a non-public supertype (Scala sees statics only on the class declaring them).
    pub fn hides_inherited_statics(self) -> bool {
        self.is_scala()
    }

    /// True when the language sees a public `clone()` that an interface declares (Scala 2
    /// sees only `Object`'s protected one, and scalac 2.13 rejects the call).
    pub fn sees_interface_clone(self) -> bool {
        self.lang != Language::Scala2
    }

    /// True when the elements of an annotation type are properties, not methods (Kotlin).
    pub fn annotation_elements_are_properties(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when a use-site projection's bound must lie within the type parameter's bounds
    /// (Kotlin: `C<out X>` with `X` outside `C`'s bound is an error; Java accepts
    /// `C<? extends X>` and intersects).
    pub fn checks_projection_bounds(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the language's mapped collection types declare the `Object` parameters of
    /// `Collection.contains`, `Map.get`, ... with the element, key or value type (Kotlin:
    /// `map.get(x)` with an `x` that is no `K` is "type inference failed").
    pub fn retypes_collection_object_parameters(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the language types `Map.compute`'s function with nullable value types
    /// (Kotlin's view of the JDK: `BiFunction<in K, in V?, out V?>`), which a `BiFunction`
    /// consuming a non-null `V` does not satisfy.
    pub fn nullable_map_compute(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when strings and arrays gain collection methods implicitly (Scala's `StringOps`,
    /// `WrappedString`, `ArrayOps`): a receiver of such a type may have a member its class
    /// lacks, and the arguments of calls on it may convert (`"a".contains(x)` takes any `x`
    /// as a `Seq[Char]`'s element).
    pub fn enriches_strings_and_arrays(self) -> bool {
        self.is_scala()
    }

    /// True when an integral constant (a Java `static final int`, read as a literal)
    /// converts to any numeric type or its box (Scala 3
    /// `val f: java.lang.Float = Calendar.NOVEMBER`).
    pub fn converts_constants_to_any_number(self) -> bool {
        self.is_scala()
    }

    /// True when the language has extension methods the ill-typed oracle must consult
    /// (Groovy's `DefaultGroovyMethods` and siblings, Kotlin's extension functions of its
    /// standard library; see [`super::groovy`]).
    pub fn has_extension_methods(self) -> bool {
        matches!(self.lang, Language::Groovy | Language::Kotlin)
    }

    /// True when the checker checks an argument whose parameter mentions a method type
    /// variable against the variable's bounds, not against the explicit type arguments,
    /// and accepts any expected type for a result mentioning a method type variable no
    /// parameter fixes (groovyc 4 and 5).
    pub fn ignores_explicit_type_arguments(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when the arguments of an overloaded method are typed before the overload is
    /// picked, without an expected type, so that a generic call there needs its type
    /// arguments (Scala 2).
    pub fn types_overloaded_arguments_untargeted(self) -> bool {
        self.lang == Language::Scala2
    }

    /// True when type inference solves a variable from the arguments before it looks at the
    /// target type, so that a capture variable from a wildcard-typed argument wins (Scala 2).
    pub fn infers_from_arguments_first(self) -> bool {
        self.lang == Language::Scala2
    }

    /// The API syntax whose own classes and members (extension and top-level functions,
    /// objects, nullable, function and by-name types) the language uses besides Java's:
    /// Kotlin's for Kotlin, Scala's for Scala 3 and 2.13.
    pub fn native_syntax(self) -> Option<crate::types::Syntax> {
        match self.lang {
            Language::Kotlin => Some(crate::types::Syntax::Kotlin),
            Language::Scala3 | Language::Scala2 => Some(crate::types::Syntax::Scala),
            _ => None,
        }
    }

    /// True when locals may be declared with a nullable type `T?` and the null-safety rules
    /// apply (Kotlin): a member cannot be called with `.` on a nullable receiver, and a
    /// nullable value cannot be passed where a non-null type is expected.
    pub fn has_nullable_types(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when a parameter of a reference type declared in Java is seen with a platform
    /// type (`T!`) that accepts a nullable argument, while a primitive one (`int` → `Int`)
    /// does not (Kotlin; the API has no nullability annotations to say otherwise).
    pub fn java_reference_parameters_accept_null(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the checker types a local by its initializer rather than by its declared
    /// type (Groovy's flow typing: `Object r = 'x'; r.length()` compiles), so that a use
    /// must be cast to the declared type where a narrower type would change the verdict.
    pub fn flow_types_locals(self) -> bool {
        self.lang == Language::Groovy
    }
}

/// The type put at a broken position, as the manifest records it: in Java syntax, with a
/// trailing `?` for a Kotlin nullable type (`java.lang.Integer?` for an `int` parameter).
pub fn print_actual(a: &TypeArena, t: TypeId) -> String {
    match *a.get(t) {
        Type::Nullable(inner) => format!("{}?", print_type(a, Syntax::Java, inner)),
        _ => print_type(a, Syntax::Java, t),
    }
}

/// Classes (with their subtypes) whose members Kotlin shows with its own signatures or
/// names (its mapped types: collections, maps, strings, numbers, throwables, enums), or on
/// which the Kotlin translator rewrites calls (casts to the Java class, properties): no
/// nullable declaration is made around their members.
const KOTLIN_MAPPED_ROOTS: [&str; 13] = [
    "java.lang.CharSequence",
    "java.lang.Number",
    "java.lang.Throwable",
    "java.lang.Enum",
    "java.lang.Boolean",
    "java.lang.Character",
    "java.lang.Comparable",
    "java.lang.Iterable",
    "java.util.Iterator",
    "java.util.Map",
    "java.util.Map.Entry",
    "java.lang.annotation.Annotation",
    "java.lang.Cloneable",
];

/// Java classes Kotlin maps to its own besides [`KOTLIN_MAPPED_ROOTS`] (the boxes, which
/// are its primitives, and the collection interfaces): a reference through one of them names
/// Kotlin's member, not Java's.
const KOTLIN_MAPPED_CLASSES: [&str; 13] = [
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Short",
    "java.lang.Byte",
    "java.lang.Double",
    "java.lang.Float",
    "java.util.Collection",
    "java.util.List",
    "java.util.Set",
    "java.util.ListIterator",
    "java.lang.Class",
    "java.lang.Object",
    "java.lang.String",
];

/// Packages and classes of the JDK whose signatures Kotlin enhances with built-in
/// nullability information (its predefined enhancements: `Optional.ifPresent` takes a
/// non-null `Consumer`), or that it maps: no nullable argument is passed to their members.
const KOTLIN_ENHANCED_PREFIXES: [&str; 7] = [
    "java.util.function.",
    "java.util.stream.",
    "java.util.Optional",
    "java.lang.ref.",
    "java.util.Spliterator",
    "java.util.PrimitiveIterator",
    "java.lang.Iterable",
];

/// Packages whose classes carry no nullability annotations Kotlin reads as errors (libraries
/// annotated with JSpecify make a nullable argument an error, and the API does not record
/// annotations): nullable arguments are passed to members of these packages only.
const KOTLIN_UNANNOTATED_PACKAGES: [&str; 2] = ["java.", "javax."];

/// Methods that the Kotlin translator writes differently on any receiver (properties, a cast
/// to `java.lang.Object`, `!!`): a nullable receiver could be hidden by the rewrite.
const KOTLIN_REWRITTEN_METHODS: [&str; 20] = [
    "equals",
    "hashCode",
    "toString",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
    "getMessage",
    "getLocalizedMessage",
    "getCause",
    "get",
    "put",
    "remove",
    "merge",
    "compute",
    "computeIfPresent",
    "putIfAbsent",
    "replace",
];

impl Worker<'_> {
    /// The positions of `task` whose locals Kotlin declares nullable (`T?`) when the program
    /// has the form on ([`LanguageRules::has_nullable_types`]), each with
    /// `cfg.swarm.use_probability`: the result local always may be; an argument local where
    /// the parameter is a Java reference parameter ([`LanguageRules::java_reference_parameters_accept_null`])
    /// of a member Kotlin does not retype. In ill-typed mode the task may instead be broken
    /// by nullability: a nullable receiver of a call with `.`, or a nullable argument for a
    /// primitive parameter (or one a nullability annotation makes not-null) of a static
    /// method or constructor that is not overloaded.
    pub(crate) fn nullable_positions(
        &mut self,
        rng: &mut SynthRng,
        task: &mut Task,
    ) -> Vec<Position> {
        if !self.rules.has_nullable_types() || !self.building.features.nullable_types {
            return Vec::new();
        }
        let p = self.cfg.swarm.use_probability.clamp(0.0, 1.0);
        let mut out = Vec::new();
        if task.broken.is_some() && rng.gen_bool(p) {
            let cands = self.nullable_breaks(task);
            if let Some(&(pos, formal)) = cands.choose(rng) {
                let base = match *self.api.ts.arena.get(formal) {
                    Type::Prim(q) => self.ctx.box_of(q).map(|b| self.api.ts.arena.class(b, &[])),
                    _ => Some(formal),
                };
                if let Some(base) = base {
                    let actual = self.api.ts.arena.nullable(base);
                    task.seq = TypingSequence {
                        receiver: task.formal.receiver,
                        args: task.formal.params.clone(),
                        result: task.formal.ret,
                    };
                    task.broken = Some(Broken {
                        position: pos,
                        formal,
                        actual,
                    });
                    out.push(pos);
                }
            }
        }
        let broken = task.broken.map(|b| b.position);
        // (a broken result stays as broken: `Double?` would take the nullable result that a
        // `double` local is broken by)
        if task.seq.result.is_some() && rng.gen_bool(p) && broken != Some(Position::Result) {
            out.push(Position::Result);
        }
        if !self.rules.java_reference_parameters_accept_null()
            || !self.kotlin_accepts_null_arguments(task)
        {
            return out;
        }
        let m = task.member;
        for i in 0..task.seq.args.len() {
            if broken == Some(Position::Arg(i)) || !rng.gen_bool(p) {
                continue;
            }
            let mem = self.api.member(m);
            let Some(param) = mem.params.get(i) else {
                continue;
            };
            let vararg = param.vararg;
            let prim = |w: &Self, t: TypeId| matches!(w.api.ts.arena.get(t), Type::Prim(_));
            if vararg
                || prim(self, param.ty)
                || prim(self, task.seq.args[i])
                || mem.java_nullness.not_null_param(i)
                || self.is_not_null_var(param.ty)
            {
                continue;
            }
            if task.formal.params.get(i).is_some_and(|&t| prim(self, t)) {
                continue;
            }
            out.push(Position::Arg(i));
        }
        out
    }

    /// True for a type variable whose values are never null (`TypeVar::not_null`: a Kotlin
    /// one with a non-null bound, a Java one of a JSpecify `@NullMarked` scope), so that a
    /// parameter of that type takes no nullable argument.
    fn is_not_null_var(&self, t: TypeId) -> bool {
        matches!(self.api.ts.arena.get(t), Type::Var(v) if self.api.ts.arena.var(*v).not_null)
    }

    /// The positions of `task`'s member that a nullable local breaks in Kotlin, with the
    /// formal type there.
    fn nullable_breaks(&mut self, task: &Task) -> Vec<(Position, TypeId)> {
        let m = task.member;
        let mem = self.api.member(m).clone();
        let mut out = Vec::new();
        if mem.kind == MemberKind::Method && !mem.is_static {
            if let Some(r) = task.formal.receiver {
                let plain_class = self.api.ts.arena.as_class(r).is_some();
                if plain_class
                    && !KOTLIN_REWRITTEN_METHODS.contains(&mem.name.as_str())
                    && !self.kotlin_retypes_member(task, false)
                {
                    out.push((Position::Receiver, r));
                }
            }
        }
        let static_like =
            mem.kind == MemberKind::Constructor || mem.kind == MemberKind::Method && mem.is_static;
        if static_like && !self.is_overloaded(m) {
            for (i, p) in mem.params.iter().enumerate() {
                if p.vararg {
                    continue;
                }
                if let Some(&f) = task.formal.params.get(i) {
                    // a primitive, or a reference that a nullability annotation makes not-null
                    let breaks = match self.api.ts.arena.get(f) {
                        Type::Prim(q) => *q != Prim::Void,
                        Type::Class { .. } => {
                            mem.java_nullness.not_null_param(i) || self.is_not_null_var(p.ty)
                        }
                        _ => false,
                    };
                    if breaks {
                        out.push((Position::Arg(i), f));
                    }
                }
            }
        }
        out
    }

    /// True when Kotlin may see the member of `task` with its own signature or the Kotlin
    /// translator rewrites its calls: its class, its receiver's class or a class that
    /// declares it is one of Kotlin's mapped types (or a subtype), or with `enhanced` one
    /// whose signatures Kotlin enhances ([`KOTLIN_ENHANCED_PREFIXES`]).
    pub(crate) fn kotlin_retypes_member(&mut self, task: &Task, enhanced: bool) -> bool {
        self.kotlin_retypes(task.member, task.seq.receiver, enhanced)
    }

    /// True when a Kotlin callable reference to member `m` (on a receiver of type
    /// `receiver`) may not name the Java member as Java declares it: its class or the
    /// receiver's is itself one of Kotlin's mapped classes (`String`, a box, `Number`, a
    /// collection interface, ...), or a class that declares the method (its override chain)
    /// is mapped or has signatures Kotlin enhances. Narrower than [`Self::kotlin_retypes`]:
    /// a member declared only by a Java class below a mapped type (`ArrayList.trimToSize`,
    /// `LocalDate.plusDays`) keeps its Java signature in Kotlin.
    pub(crate) fn kotlin_reference_retypes(
        &mut self,
        m: MemberId,
        receiver: Option<TypeId>,
    ) -> bool {
        let mem = self.api.member(m).clone();
        let owner_sym = self.api.class(mem.owner).sym;
        let owner = self.api.ts.self_type(owner_sym);
        let exactly_mapped = |w: &Self, t: TypeId| {
            let t = match *w.api.ts.arena.get(t) {
                Type::Nullable(i) => i,
                _ => t,
            };
            w.api.ts.arena.as_class(t).is_some_and(|(n, _)| {
                let name = w.api.ts.arena.name(n);
                KOTLIN_MAPPED_ROOTS.contains(&name) || KOTLIN_MAPPED_CLASSES.contains(&name)
            })
        };
        if std::iter::once(owner)
            .chain(receiver)
            .any(|t| exactly_mapped(self, t))
        {
            return true;
        }
        if mem.kind != MemberKind::Method || mem.is_static {
            return false;
        }
        let Some(declaring) = self.declaring_types(owner, &mem.name, mem.params.len(), false)
        else {
            return true;
        };
        // only a declaration in a mapped class (the override chain reaches it from any
        // subclass) or in a package whose signatures Kotlin enhances changes what Kotlin shows
        let enhanced = |w: &Self, t: TypeId| {
            w.api.ts.arena.as_class(t).is_some_and(|(n, _)| {
                let name = w.api.ts.arena.name(n);
                KOTLIN_ENHANCED_PREFIXES.iter().any(|p| name.starts_with(p))
            })
        };
        declaring
            .into_iter()
            .any(|t| exactly_mapped(self, t) || enhanced(self, t))
    }

    /// The self types of the classes that declare an instance method `name` of `arity`
    /// parameters seen from `owner` ([`Worker::declarers`]), the root class left out with
    /// `skip_root`; `None` when one of them lies outside the API (its signatures unknown).
    fn declaring_types(
        &mut self,
        owner: TypeId,
        name: &str,
        arity: usize,
        skip_root: bool,
    ) -> Option<Vec<TypeId>> {
        let mut out = Vec::new();
        for c in self.declarers(owner, name, arity) {
            let root = self
                .api
                .ts
                .arena
                .find_sym(&c)
                .is_some_and(|s| self.api.ts.is_root_class(s));
            if skip_root && root {
                continue;
            }
            let id = self.api.class_by_name(&c)?;
            let sym = self.api.class(id).sym;
            out.push(self.api.ts.self_type(sym));
        }
        Some(out)
    }

    /// [`Self::kotlin_retypes_member`] for member `m` on a receiver of type `receiver`.
    pub(crate) fn kotlin_retypes(
        &mut self,
        m: MemberId,
        receiver: Option<TypeId>,
        enhanced: bool,
    ) -> bool {
        let mem = self.api.member(m).clone();
        let owner_sym = self.api.class(mem.owner).sym;
        let owner = self.api.ts.self_type(owner_sym);
        let mut types = vec![owner];
        types.extend(receiver);
        if mem.kind == MemberKind::Method && !mem.is_static {
            match self.declaring_types(owner, &mem.name, mem.params.len(), true) {
                Some(ts) => types.extend(ts),
                None => return true,
            }
        }
        types.into_iter().any(|t| self.kotlin_mapped(t, enhanced))
    }

    /// True when a nullable argument may be passed to the member of `task` in Kotlin: it is
    /// declared in a package without nullability annotations
    /// ([`KOTLIN_UNANNOTATED_PACKAGES`]) and Kotlin does not enhance or map its signature.
    fn kotlin_accepts_null_arguments(&mut self, task: &Task) -> bool {
        let mem = self.api.member(task.member);
        let owner = self.api.class(mem.owner).name.clone();
        KOTLIN_UNANNOTATED_PACKAGES
            .iter()
            .any(|p| owner.starts_with(p))
            && !self.kotlin_retypes_member(task, true)
    }

    /// True when `t` is a subtype of one of [`KOTLIN_MAPPED_ROOTS`], of `String` or of a
    /// class of [`KOTLIN_ENHANCED_PREFIXES`].
    fn kotlin_mapped(&mut self, t: TypeId, enhanced: bool) -> bool {
        let t = match *self.api.ts.arena.get(t) {
            Type::Nullable(i) => i,
            _ => t,
        };
        let sups = self.api.ts.all_supertypes(t);
        sups.iter().any(|&s| {
            self.api.ts.arena.as_class(s).is_some_and(|(n, _)| {
                let name = self.api.ts.arena.name(n);
                name == "java.lang.String"
                    || KOTLIN_MAPPED_ROOTS.contains(&name)
                    || enhanced && KOTLIN_ENHANCED_PREFIXES.iter().any(|p| name.starts_with(p))
            })
        })
    }

    /// Declares the locals at `positions` of the call under test (the program's last
    /// statement) with a nullable type: `val a0: A? = ..`. A broken position whose value is
    /// not a local is cast to the nullable type instead (`(e as R?).m()`).
    pub fn declare_nullable(
        &self,
        program: &mut Program,
        positions: &[Position],
        broken: Option<Broken>,
    ) {
        if positions.is_empty() {
            return;
        }
        let Some(last) = program.stmts.last_mut() else {
            return;
        };
        let mut locals: Vec<String> = Vec::new();
        if positions.contains(&Position::Result) {
            if let Stmt::Local { name, .. } = last {
                locals.push(name.clone());
            }
        }
        let call = match last {
            Stmt::Local { init, .. } => init,
            Stmt::Expr(e) => e,
        };
        let broken_ty = broken
            .filter(|b| positions.contains(&b.position))
            .map(|b| (b.position, to_ir(&self.api, b.actual)));
        let mut visit = |pos: Position, e: &mut Expr| match e {
            Expr::Local(n) => locals.push(n.clone()),
            other => {
                if let Some((bp, ty)) = &broken_ty {
                    if *bp == pos {
                        let inner = std::mem::replace(other, Expr::Unit);
                        *other = Expr::Cast {
                            ty: ty.clone(),
                            expr: Box::new(inner),
                        };
                    }
                }
            }
        };
        match call {
            Expr::Call { receiver, args, .. } => {
                if positions.contains(&Position::Receiver) {
                    if let Receiver::Expr(r) = receiver {
                        visit(Position::Receiver, r);
                    }
                }
                for (i, a) in args.iter_mut().enumerate() {
                    if positions.contains(&Position::Arg(i)) {
                        visit(Position::Arg(i), a);
                    }
                }
            }
            Expr::New { args, .. } => {
                for (i, a) in args.iter_mut().enumerate() {
                    if positions.contains(&Position::Arg(i)) {
                        visit(Position::Arg(i), a);
                    }
                }
            }
            _ => {}
        }
        for s in &mut program.stmts {
            if let Stmt::Local {
                name, ty, inferred, ..
            } = s
            {
                if locals.contains(name) && !matches!(ty, Ty::Nullable(_)) {
                    *ty = Ty::Nullable(Box::new(ty.clone()));
                    *inferred = false;
                }
            }
        }
    }

    /// Why the target language cannot use member `m` the way Java does, if it cannot (for
    /// the member under test and for the members on inhabitant paths alike).
    pub(crate) fn language_problem(&mut self, m: MemberId) -> Option<SkipReason> {
        if let Some(&p) = self.caches.language_problems.get(&m) {
            return p;
        }
        let rules = self.rules;
        let p = if rules.hides_inherited_statics() && self.static_from_hidden_supertype(m) {
            Some(SkipReason::HiddenStatic)
        } else if !rules.has_raw_types() && self.mentions_raw_type(m) {
            Some(SkipReason::RawType)
        } else if !rules.sees_interface_clone() && self.is_interface_clone(m) {
            Some(SkipReason::InterfaceClone)
        } else if rules.annotation_elements_are_properties() && self.is_annotation_element(m) {
            Some(SkipReason::AnnotationElement)
        } else if rules.nullable_map_compute() && self.is_map_compute(m) {
            Some(SkipReason::KotlinNullableParameter)
        } else if rules.retypes_collection_object_parameters()
            && self.is_retyped_collection_member(m)
        {
            Some(SkipReason::KotlinMappedParameter)
        } else {
            None
        };
        self.caches.language_problems.insert(m, p);
        p
    }

    /// True for a method of `java.util.Collection`, `List` or `Map` (or an override) taking
    /// an `Object` or `Collection<?>` that Kotlin's mapped type declares with its element, key
    /// or value type (`contains(element: E)`, `get(key: K)`, `remove(key: K, value: V)`, ...).
    fn is_retyped_collection_member(&mut self, m: MemberId) -> bool {
        const RETYPED: [(&str, &str, usize); 13] = [
            ("java.util.Collection", "contains", 1),
            ("java.util.Collection", "remove", 1),
            ("java.util.Collection", "containsAll", 1),
            ("java.util.Collection", "removeAll", 1),
            ("java.util.Collection", "retainAll", 1),
            ("java.util.List", "indexOf", 1),
            ("java.util.List", "lastIndexOf", 1),
            ("java.util.Map", "get", 1),
            ("java.util.Map", "containsKey", 1),
            ("java.util.Map", "containsValue", 1),
            ("java.util.Map", "remove", 1),
            ("java.util.Map", "remove", 2),
            ("java.util.Map", "getOrDefault", 2),
        ];
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || mem.is_static {
            return false;
        }
        let (name, arity) = (mem.name.clone(), mem.params.len());
        let a = &self.api.ts.arena;
        let takes_any = mem.params.iter().any(|p| {
            a.as_class(p.ty).is_some_and(|(n, _)| {
                matches!(a.name(n), "java.lang.Object" | "java.util.Collection")
            })
        });
        if !takes_any || !RETYPED.iter().any(|(_, n, k)| *n == name && *k == arity) {
            return false;
        }
        let sym = self.api.class(mem.owner).sym;
        let owner = self.api.ts.self_type(sym);
        let declarers = self.declarers(owner, &name, arity);
        RETYPED
            .iter()
            .any(|(c, n, k)| *n == name && *k == arity && declarers.iter().any(|d| d == c))
    }

    /// True for `Map.compute(K, BiFunction)` or an override.
    fn is_map_compute(&mut self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || mem.is_static || mem.name != "compute" {
            return false;
        }
        let (sym, arity) = (self.api.class(mem.owner).sym, mem.params.len());
        let owner = self.api.ts.self_type(sym);
        arity == 2
            && self
                .declarers(owner, "compute", 2)
                .iter()
                .any(|c| c == "java.util.Map")
    }

    /// True for a `clone()` that an interface declares.
    fn is_interface_clone(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        mem.kind == MemberKind::Method
            && mem.name == "clone"
            && mem.params.is_empty()
            && self.api.class(mem.owner).kind == ClassKind::Interface
    }

    /// True for an element of an annotation type (an instance method of an interface that
    /// extends `java.lang.annotation.Annotation`), or `Annotation.annotationType()` itself
    /// (Kotlin shows it as the `annotationClass` extension).
    fn is_annotation_element(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || mem.is_static {
            return false;
        }
        let a = &self.api.ts.arena;
        if self.api.class(mem.owner).name == "java.lang.annotation.Annotation"
            && mem.name == "annotationType"
        {
            return true;
        }
        self.api.class(mem.owner).supertypes().iter().any(|&t| {
            a.as_class(t)
                .is_some_and(|(n, _)| a.name(n) == "java.lang.annotation.Annotation")
        })
    }

    /// True when the member's receiver, parameter or result type mentions a raw type (a
    /// generic class without type arguments).
    fn mentions_raw_type(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        let mut todo: Vec<TypeId> = mem.params.iter().map(|p| p.ty).collect();
        todo.push(mem.ret);
        todo.extend(mem.receiver);
        let a = &self.api.ts.arena;
        while let Some(t) = todo.pop() {
            if let Some((sym, args)) = a.as_class(t) {
                if args.is_empty() && self.api.ts.class_params(sym).is_some_and(|p| !p.is_empty()) {
                    return true;
                }
            }
            a.for_each_child(t, |c| todo.push(c));
        }
        false
    }

    /// True for a static field the extractor copied from a non-public supertype.
    fn static_from_hidden_supertype(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        mem.kind == MemberKind::Field
            && self
                .api
                .class(mem.owner)
                .doc
                .fields()
                .get(mem.doc_index)
                .is_some_and(|f| f.static_from_hidden_supertype == Some(true))
    }

    /// True when the target language gives a value of type `t` members its class lacks
    /// ([`LanguageRules::enriches_strings_and_arrays`]: `String` and arrays in Scala).
    pub(crate) fn enriched(&self, t: TypeId) -> bool {
        self.rules.enriches_strings_and_arrays()
            && match *self.api.ts.arena.get(t) {
                Type::Array(_) => true,
                Type::Class { name, .. } => name == self.ctx.string_sym,
                _ => false,
            }
    }

    /// True when the target language converts an integral constant to a variable of type
    /// `x` ([`LanguageRules::converts_constants_to_any_number`]).
    pub(crate) fn converts_constant(&self, x: TypeId) -> bool {
        self.rules.converts_constants_to_any_number() && self.is_numeric(x)
    }

    /// True when Scala may convert a `from` where a `to` is expected: any value to `Unit`
    /// (value discarding), or through one of the API's implicit conversions
    /// (`SynthContext::scala_views`) whose parameter takes a `from` and whose result is a
    /// `to`. Classes are compared without their type arguments and the conversion's scope is
    /// not checked: an over-approximation, so that no position a conversion could repair is
    /// taken for a type error.
    fn scala_converts(&mut self, from: TypeId, to: TypeId) -> bool {
        // (a by-name parameter `=> Unit` takes what its type takes)
        let to = match *self.api.ts.arena.get(to) {
            Type::ByName(t) => t,
            _ => to,
        };
        if super::enumerate::is_void(&self.api.ts.arena, to) {
            return true;
        }
        let results = self.scala_view_results(from);
        results.into_iter().any(|r| self.erased_conforms(r, to))
    }

    /// The result types of the API's implicit conversions (`SynthContext::scala_views`)
    /// whose parameter takes a `from` ([`Worker::erased_conforms`]).
    fn scala_view_results(&mut self, from: TypeId) -> Vec<TypeId> {
        let mut out = Vec::new();
        for i in 0..self.ctx.scala_views.len() {
            let (param, result) = self.ctx.scala_views[i];
            if self.erased_conforms(from, param) {
                out.push(result);
            }
        }
        out
    }

    /// True when `s` conforms to `t` with type arguments ignored: `t` a type variable (any
    /// `s`), the same primitive or its box, a subclass of `t`'s class, arrays for an array.
    fn erased_conforms(&mut self, s: TypeId, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        match *a.get(t) {
            Type::Var(_) | Type::Top => true,
            // (a primitive widens first: `DurationLong(n: Long)` takes an `Int`)
            Type::Prim(p) => self
                .prim_of(s)
                .is_some_and(|q| q == p || wider_prims(q).contains(&p)),
            Type::Array(_) => matches!(a.get(s), Type::Array(_)),
            Type::Class { name, .. } => {
                let s = match *a.get(s) {
                    Type::Prim(p) => match self.ctx.box_of(p) {
                        Some(b) => self.api.ts.arena.class(b, &[]),
                        None => return false,
                    },
                    _ => s,
                };
                self.api.ts.is_root_class(name) || self.api.ts.as_super(s, name).is_some()
            }
            _ => false,
        }
    }

    /// True when the target language converts a `from` value to a `to` variable at `site`
    /// although Java would not: Scala 2 widens then boxes
    /// ([`LanguageRules::widens_then_boxes`]); Scala converts implicitly
    /// ([`Worker::scala_converts`]); Groovy coerces on assignment
    /// ([`LanguageRules::coerces_on_assignment`]).
    pub(crate) fn lenient_conversion(
        &mut self,
        from: TypeId,
        to: TypeId,
        site: ConversionSite,
    ) -> bool {
        if self.rules.is_scala() && self.scala_converts(from, to) {
            return true;
        }
        if self.rules.widens_then_boxes() {
            return match (self.prim_of(from), self.prim_of(to)) {
                (Some(a), Some(b)) => a == b || wider_prims(a).contains(&b),
                _ => false,
            };
        }
        if site != ConversionSite::Assignment || !self.rules.coerces_on_assignment() {
            return false;
        }
        let names = |w: &Worker<'_>, t: TypeId| -> Option<String> {
            w.api
                .ts
                .arena
                .as_class(t)
                .map(|(n, _)| w.api.ts.arena.name(n).to_string())
        };
        let loose = |w: &Worker<'_>, t: TypeId| -> bool {
            if matches!(w.api.ts.arena.get(t), Type::Prim(_)) {
                return true;
            }
            let Some(n) = names(w, t) else { return false };
            let enum_like = w
                .api
                .class_by_name(&n)
                .is_some_and(|c| w.api.class(c).kind == ClassKind::Enum);
            enum_like
                || w.ctx
                    .unbox_of(
                        w.api
                            .ts
                            .arena
                            .as_class(t)
                            .map(|(s, _)| s)
                            .unwrap_or(w.ctx.object_sym),
                    )
                    .is_some()
                || matches!(
                    n.as_str(),
                    "java.lang.String"
                        | "java.lang.Object"
                        | "java.lang.Class"
                        | "java.lang.Number"
                        | "java.lang.CharSequence"
                )
        };
        // a collection or a stream converts to an array; a number to a BigDecimal/BigInteger
        let array_from_collection = matches!(self.api.ts.arena.get(to), Type::Array(_)) && {
            let seqs = [
                "java.util.Collection",
                "java.util.stream.BaseStream",
                "java.lang.Iterable",
            ];
            seqs.into_iter().any(|c| {
                let s = self.api.ts.arena.sym(c);
                let raw = self.api.ts.arena.class(s, &[]);
                self.api.ts.is_subtype(from, raw)
            })
        };
        let big = names(self, to)
            .is_some_and(|n| matches!(n.as_str(), "java.math.BigDecimal" | "java.math.BigInteger"))
            && (self.is_numeric(from) || {
                let number = self.api.ts.arena.class_named("java.lang.Number", &[]);
                self.api.ts.is_subtype(from, number)
            });
        array_from_collection
            || big
            || loose(self, to)
            || (loose(self, from) && matches!(self.api.ts.arena.get(to), Type::Prim(_)))
    }

    /// True when scalac accepts any receiver or argument at `pos` of `m`: a member that
    /// every Scala value has (`Any`'s `==`, `!=`, `equals`, `toString`, …: any receiver, and
    /// any argument of the comparisons).
    fn scala_accepts_any(&mut self, m: MemberId, pos: Position) -> bool {
        /// The members of `scala.Any` (and `AnyRef`), which the API's classes do not list.
        const ANY_MEMBERS: [&str; 12] = [
            "==",
            "!=",
            "equals",
            "eq",
            "ne",
            "##",
            "hashCode",
            "toString",
            "getClass",
            "isInstanceOf",
            "asInstanceOf",
            "synchronized",
        ];
        let name = self.api.member(m).name.clone();
        match pos {
            Position::Receiver => ANY_MEMBERS.contains(&name.as_str()),
            Position::Arg(_) => matches!(name.as_str(), "==" | "!=" | "equals" | "eq" | "ne"),
            Position::Result => false,
        }
    }

    /// True when Scala may call a member named `name` on a receiver of type `x` through one
    /// of the API's implicit conversions (`x + "s"` through `any2stringadd`, `n.max(m)`
    /// through `intWrapper`): one whose parameter takes an `x` and whose result's class has a
    /// member of the name (over-approximated as in [`Worker::scala_converts`]).
    pub(crate) fn scala_view_gives(&mut self, x: TypeId, name: &str) -> bool {
        if !self.rules.is_scala() {
            return false;
        }
        self.scala_view_results(x).into_iter().any(|result| {
            self.api
                .ts
                .arena
                .as_class(result)
                .and_then(|(c, _)| self.api.class_by_sym(c))
                .and_then(|c| self.ctx.members_by_name.get(&c))
                .is_some_and(|by| by.contains_key(name))
        })
    }

    /// True when the target language's checker accepts any type at position `pos` of a call
    /// of `m`, so that the position cannot be broken: an argument when an extension method of
    /// the same name and arity applies to the receiver ([`LanguageRules::has_extension_methods`];
    /// its parameters are not checked here), and for Scala a receiver or argument of a member
    /// every value has ([`Worker::scala_accepts_any`]). A checker's known bug is no reason to avoid a
    /// position: groovyc's acceptance of arguments that contradict explicit type arguments
    /// ([`LanguageRules::ignores_explicit_type_arguments`], RB9 in `known-findings/`) is
    /// generated and labelled `known` by the campaign.
    pub(crate) fn checker_accepts_any(
        &mut self,
        m: MemberId,
        f: &Formal,
        pos: Position,
        owner: TypeId,
    ) -> bool {
        let rules = self.rules;
        if rules.is_scala() && self.scala_accepts_any(m, pos) {
            return true;
        }
        let Position::Arg(_) = pos else {
            return false;
        };
        if !rules.has_extension_methods() {
            return false;
        }
        let mem = self.api.member(m).clone();
        if mem.kind != MemberKind::Method {
            return false;
        }
        let (recv, static_call) = match f.receiver {
            Some(r) => (r, false),
            None => (owner, true),
        };
        self.extension_applies(recv, static_call, &mem.name, f.params.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::inhabit::Inhabitant as Inh;
    use crate::synth::overload::Resolution;
    use crate::synth::{SynthConfig, SynthContext};
    use rand::SeedableRng;

    #[test]
    fn groovy_never_widens_char_to_a_number() {
        let groovy = LanguageRules::new(Language::Groovy);
        for to in [Prim::Int, Prim::Long, Prim::Float, Prim::Double] {
            assert!(!groovy.widens_primitive(Prim::Char, to), "{to:?}");
            assert!(LanguageRules::new(Language::Java).widens_primitive(Prim::Char, to));
        }
        assert!(groovy.widens_primitive(Prim::Short, Prim::Int));
    }

    #[test]
    fn kotlin_alone_has_no_primitive_widening() {
        for lang in Language::ALL {
            let rules = LanguageRules::new(lang);
            assert_eq!(
                rules.widens_primitive(Prim::Int, Prim::Long),
                lang != Language::Kotlin,
                "{lang}"
            );
            assert!(!rules.widens_primitive(Prim::Long, Prim::Int), "{lang}");
        }
    }

    #[test]
    fn only_java_converts_lambdas_to_an_interface_clone() {
        for lang in Language::ALL {
            let rules = LanguageRules::new(lang);
            assert!(rules.converts_lambda_to("apply"), "{lang}");
            assert_eq!(
                rules.converts_lambda_to("clone"),
                lang == Language::Java,
                "{lang}"
            );
        }
    }

    #[test]
    fn raw_types_are_written_in_java_and_groovy_only() {
        let with: Vec<Language> = Language::ALL
            .into_iter()
            .filter(|&l| LanguageRules::new(l).has_raw_types())
            .collect();
        assert_eq!(with, [Language::Java, Language::Groovy]);
    }

    #[test]
    fn java_has_none_of_the_other_languages_leniencies() {
        let java = LanguageRules::new(Language::Java);
        assert!(!java.widens_then_boxes());
        assert!(!java.coerces_on_assignment());
        assert!(!java.converts_between_numbers());
        assert!(!java.trailing_array_is_varargs());
        assert!(!java.hides_inherited_statics());
        assert!(java.sees_interface_clone());
        assert!(!java.annotation_elements_are_properties());
        assert!(!java.nullable_map_compute());
        assert!(!java.enriches_strings_and_arrays());
        assert!(!java.converts_constants_to_any_number());
        assert!(!java.has_extension_methods());
        assert!(!java.ignores_explicit_type_arguments());
        assert!(!java.types_overloaded_arguments_untargeted());
        assert!(!java.infers_from_arguments_first());
        assert!(!java.flow_types_locals());
        assert!(!java.has_nullable_types());
        assert!(!java.java_reference_parameters_accept_null());
    }

    #[test]
    fn only_kotlin_declares_nullable_types() {
        let with: Vec<Language> = Language::ALL
            .into_iter()
            .filter(|&l| LanguageRules::new(l).has_nullable_types())
            .collect();
        assert_eq!(with, [Language::Kotlin]);
        let mut a = crate::types::TypeArena::new();
        let int = a.class_named("java.lang.Integer", &[]);
        let n = a.nullable(int);
        assert_eq!(print_actual(&a, n), "java.lang.Integer?");
        assert_eq!(print_actual(&a, int), "java.lang.Integer");
    }

    #[test]
    fn conversions_java_lacks_depend_on_the_language_and_the_site() {
        use ConversionSite::{Argument, Assignment};
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        // (language, int → java.lang.Long at an assignment and an argument,
        //  int → String at an assignment and an argument)
        let expected = [
            (Language::Java, [false, false], [false, false]),
            (Language::Kotlin, [false, false], [false, false]),
            (Language::Scala3, [false, false], [false, false]),
            (Language::Scala2, [true, true], [false, false]),
            (Language::Groovy, [true, false], [true, false]),
        ];
        for (lang, to_long, to_string) in expected {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let int = w.api.ts.arena.prim(Prim::Int);
            let long = w.api.ts.arena.class_named("java.lang.Long", &[]);
            let string = w.api.ts.arena.class_named("java.lang.String", &[]);
            let got = |w: &mut Worker<'_>, to: TypeId| {
                [Assignment, Argument].map(|site| w.lenient_conversion(int, to, site))
            };
            assert_eq!(got(&mut w, long), to_long, "{lang}: int to Long");
            assert_eq!(got(&mut w, string), to_string, "{lang}: int to String");
        }
    }

    #[test]
    fn scala2_conditionals_joining_into_object_take_no_primitive_branch() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, primitive_allowed) in [(Language::Java, true), (Language::Scala2, false)] {
            let mut cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            cfg.swarm.use_probability = 1.0;
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            w.building.features.conditionals = true;
            let object = w.api.ts.arena.class_named("java.lang.Object", &[]);
            let mut rng = crate::synth::worker::SynthRng::seed_from_u64(11);
            let mut literal_branches = 0;
            for _ in 0..400 {
                if let Some(c) = w.conditional(&mut rng, object, 2) {
                    c.expr.walk(&mut |e| {
                        if let Expr::Cond { then, els, .. } = e {
                            for b in [then, els] {
                                if matches!(**b, Expr::Lit(_)) {
                                    literal_branches += 1;
                                }
                            }
                        }
                    });
                }
            }
            assert_eq!(literal_branches > 0, primitive_allowed, "{lang}");
        }
    }

    #[test]
    fn scala3_puts_no_wildcard_where_another_parameters_bound_mentions_it() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, wildcard_at_t) in [(Language::Java, true), (Language::Scala3, false)] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let base = w.api.ts.arena.sym("java.util.stream.BaseStream");
            assert!(w.bound_mentions_param(base, 0), "S's bound mentions T");
            assert!(!w.bound_mentions_param(base, 1));
            let long_stream = w
                .api
                .ts
                .arena
                .class_named("java.util.stream.LongStream", &[]);
            let mut rng = crate::synth::worker::SynthRng::seed_from_u64(3);
            let mut seen = false;
            for _ in 0..300 {
                for t in w.supertypes(&mut rng, long_stream, 12) {
                    if let Some((n, args)) = w.api.ts.arena.as_class(t) {
                        if n == base && matches!(w.api.ts.arena.get(args[0]), Type::Wildcard(_)) {
                            seen = true;
                        }
                    }
                }
            }
            assert_eq!(seen, wildcard_at_t, "{lang}: BaseStream<?.., LongStream>");
        }
    }

    #[test]
    fn a_primitive_stands_for_its_narrower_ones_only_where_they_widen() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for lang in [Language::Java, Language::Kotlin] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let int = w.api.ts.arena.prim(Prim::Int);
            let mut rng = crate::synth::worker::SynthRng::seed_from_u64(7);
            let subs = w.subtypes(&mut rng, int, 4);
            let want = if lang == Language::Kotlin { 1 } else { 4 };
            assert_eq!(subs.len(), want, "{lang}: subtypes of int");
            assert_eq!(subs[0], int);
        }
    }

    /// The member of the embedded `java.base` whose signature is `sig`.
    fn member_by_signature(w: &Worker<'_>, sig: &str) -> MemberId {
        w.api
            .member_ids()
            .find(|&m| w.api.signature(m) == sig)
            .unwrap_or_else(|| panic!("no member {sig}"))
    }

    #[test]
    fn scala2_casts_no_function_to_a_universal_trait_for_an_object() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, comparable_allowed) in [(Language::Java, true), (Language::Scala2, false)] {
            let mut cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            cfg.swarm.use_probability = 1.0;
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            w.building.features.function_casts = true;
            let object = w.api.ts.arena.class_named("java.lang.Object", &[]);
            let mut rng = crate::synth::worker::SynthRng::seed_from_u64(5);
            let mut comparable = 0;
            for _ in 0..3000 {
                if let Some(Inh {
                    expr:
                        Expr::Cast {
                            ty: Ty::Class { name, .. },
                            ..
                        },
                    ..
                }) = w.function_cast_below(&mut rng, object, 2)
                {
                    comparable += usize::from(name == "java.lang.Comparable");
                }
            }
            assert_eq!(
                comparable > 0,
                comparable_allowed,
                "{lang}: (Comparable) x as an Object"
            );
        }
    }

    #[test]
    fn scala_result_is_not_broken_where_another_overload_returns_the_type() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, picks_by_result) in [(Language::Java, false), (Language::Scala2, true)] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let remove = member_by_signature(
                &w,
                "E java.util.concurrent.CopyOnWriteArrayList.remove(int)",
            );
            let boolean = w.api.ts.arena.class_named("java.lang.Boolean", &[]);
            let string = w.api.ts.arena.class_named("java.lang.String", &[]);
            assert!(
                w.overload_returns(remove, boolean),
                "remove(Object) returns boolean"
            );
            assert!(!w.overload_returns(remove, string));
            assert_eq!(
                w.rules.overloads_by_expected_type(),
                picks_by_result,
                "{lang}"
            );
        }
    }

    #[test]
    fn kotlin_passes_elements_before_a_spread_array() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, applies) in [(Language::Java, false), (Language::Kotlin, true)] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let of = member_by_signature(
                &w,
                "static java.nio.file.Path java.nio.file.Paths.get(java.lang.String, java.lang.String...)",
            );
            let f = w.formal_under(of, crate::types::Subst::new());
            let string = w.api.ts.arena.class_named("java.lang.String", &[]);
            let strings = w.api.ts.arena.array(string);
            // `Paths.get(a, b, *rest)`
            let seq = TypingSequence {
                receiver: None,
                args: vec![string, string, strings],
                result: None,
            };
            let got = w.resolve(of, &f, &seq);
            assert_eq!(got == Resolution::Unique(of), applies, "{lang}: {got:?}");
        }
    }

    #[test]
    fn scala_weighs_an_overload_declared_below_against_a_more_specific_one() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, unique) in [(Language::Java, true), (Language::Scala3, false)] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let jumps = member_by_signature(
                &w,
                "default java.util.stream.Stream<java.util.random.RandomGenerator> \
                 java.util.random.RandomGenerator.JumpableGenerator.jumps(long)",
            );
            let f = w.formal_under(jumps, crate::types::Subst::new());
            let long = w.api.ts.arena.prim(Prim::Long);
            let recv = w.api.ts.arena.class_named(
                "java.util.random.RandomGenerator.ArbitrarilyJumpableGenerator",
                &[],
            );
            // `jumps(double)` is declared below, `jumps(long)` is more specific
            let seq = TypingSequence {
                receiver: Some(recv),
                args: vec![long],
                result: None,
            };
            let got = w.resolve(jumps, &f, &seq);
            let want = if unique {
                Resolution::Unique(jumps)
            } else {
                Resolution::Ambiguous
            };
            assert_eq!(got, want, "{lang}");
        }
    }

    #[test]
    fn kotlin_references_name_members_that_only_java_classes_below_mapped_types_declare() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        let cfg = SynthConfig {
            lang: Language::Kotlin,
            ..SynthConfig::default()
        };
        let mut w = Worker::new(api.clone(), &ctx, &cfg);
        for (sig, retyped) in [
            // `LocalDate` is a `Comparable`, but Kotlin maps only `compareTo`
            (
                "java.time.LocalDate java.time.LocalDate.plusDays(long)",
                false,
            ),
            ("void java.util.ArrayList.trimToSize()", false),
            // `Collection.size()` is Kotlin's property `size`
            ("int java.util.ArrayList.size()", true),
            // `Optional`'s signatures carry Kotlin's nullability enhancements
            ("T java.util.Optional.get()", true),
        ] {
            let m = member_by_signature(&w, sig);
            assert_eq!(w.kotlin_reference_retypes(m, None), retyped, "{sig}");
        }
    }

    #[test]
    fn a_test_method_variable_meets_the_bound_of_the_class_it_instantiates() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        let cfg = SynthConfig::default();
        let mut w = Worker::new(api.clone(), &ctx, &cfg);
        let a = &mut w.api.ts.arena;
        let serializable = a.class_named("java.io.Serializable", &[]);
        let unit = a.class_named("java.util.concurrent.TimeUnit", &[]);
        let v = a.new_var("T", "test");
        a.var_mut(v).upper = vec![serializable];
        let t = a.var_type(v);
        let desc_t = a.class_named("java.lang.Enum.EnumDesc", &[t]);
        let desc_unit = a.class_named("java.lang.Enum.EnumDesc", &[unit]);
        let list_t = a.class_named("java.util.List", &[desc_t]);
        assert!(
            !w.api.ts.is_well_formed(desc_t),
            "EnumDesc<T extends Serializable>"
        );
        assert!(!w.api.ts.is_well_formed(list_t), "List<EnumDesc<T>>");
        assert!(w.api.ts.is_well_formed(desc_unit), "EnumDesc<TimeUnit>");
    }

    #[test]
    fn invariant_arrays_keep_a_narrower_receiver_away_from_array_results() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, risk) in [(Language::Java, false), (Language::Scala2, true)] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let w = Worker::new(api.clone(), &ctx, &cfg);
            let m = member_by_signature(
                &w,
                "java.lang.reflect.TypeVariable<?>[] java.lang.reflect.GenericDeclaration.getTypeParameters()",
            );
            assert_eq!(w.covariant_array_risk(m), risk, "{lang}");
        }
    }
}
