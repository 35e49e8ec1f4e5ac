//! What each target language does differently from Java, asked by capability: synthesis never
//! asks which language it writes, only whether that language widens a primitive, converts a
//! lambda, sees a raw type, … ([`LanguageRules`]). This is the one place that names the
//! languages; Java's widening table, which the others' answers start from, is here too.

use thalia_translators::Language;

use crate::types::{print_type, Prim, Sym, Syntax, Type, TypeArena, TypeId, TypeSystem};

/// Java's widening primitive conversions (JLS 5.1.2): each primitive with those wider.
const WIDER: [(Prim, &[Prim]); 6] = [
    (
        Prim::Byte,
        &[
            Prim::Short,
            Prim::Int,
            Prim::Long,
            Prim::Float,
            Prim::Double,
        ],
    ),
    (
        Prim::Short,
        &[Prim::Int, Prim::Long, Prim::Float, Prim::Double],
    ),
    (
        Prim::Char,
        &[Prim::Int, Prim::Long, Prim::Float, Prim::Double],
    ),
    (Prim::Int, &[Prim::Long, Prim::Float, Prim::Double]),
    (Prim::Long, &[Prim::Float, Prim::Double]),
    (Prim::Float, &[Prim::Double]),
];

/// Primitives strictly wider than `p` (Java widening).
pub fn wider_prims(p: Prim) -> &'static [Prim] {
    WIDER.iter().find(|(q, _)| *q == p).map_or(&[], |(_, w)| w)
}

/// Primitives strictly narrower than `p`.
pub fn narrower_prims(p: Prim) -> Vec<Prim> {
    WIDER
        .iter()
        .filter(|(_, w)| w.contains(&p))
        .map(|(q, _)| *q)
        .collect()
}

/// True when Kotlin imports every member of `package` by default.
pub(crate) fn kotlin_default_import(package: &str) -> bool {
    thalia_translators::kotlin::is_default_import(package)
}

/// Which table of extension methods a checker resolves ([`LanguageRules::extension_table`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ExtensionTable {
    /// Groovy's `DefaultGroovyMethods` and siblings.
    Groovy,
    /// Kotlin's standard-library extension functions on Java types.
    Kotlin,
}

/// The annotations kotlinc reads itself (its compiler-required annotations), to which no
/// `typealias` may point: Java's meta-annotations and Kotlin's own that steer resolution.
const KOTLIN_COMPILER_REQUIRED_ANNOTATIONS: [&str; 16] = [
    "java.lang.annotation.Target",
    "java.lang.annotation.Retention",
    "java.lang.annotation.Repeatable",
    "java.lang.annotation.Documented",
    "java.lang.Deprecated",
    "kotlin.annotation.Target",
    "kotlin.annotation.Retention",
    "kotlin.annotation.Repeatable",
    "kotlin.annotation.MustBeDocumented",
    "kotlin.Deprecated",
    "kotlin.DeprecatedSinceKotlin",
    "kotlin.SinceKotlin",
    "kotlin.WasExperimental",
    "kotlin.RequiresOptIn",
    "kotlin.OptIn",
    "kotlin.jvm.JvmRecord",
];

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

    /// True when a primitive converts to the box of a wider primitive in method invocation
    /// (Scala 2's views through weak conformance: a `Float` takes a `java.lang.Double`
    /// parameter by `double2Double`, an `Int` a `java.lang.Long`), which Java and Scala 3 do
    /// only for constants.
    pub fn widens_before_boxing(self) -> bool {
        self.lang == Language::Scala2
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

    /// True when a call of several arguments may take them as one tuple for a method of one
    /// parameter that a tuple conforms to (Scala's auto-tupling: `s.remove(null, 0)` assigned
    /// to a `Boolean` is `s.remove((null, 0))`, the `remove(Object)` of a multiset).
    pub fn auto_tuples(self) -> bool {
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

    /// True when a type alias may name class `class`: Kotlin forbids a `typealias` to the
    /// annotations the compiler itself reads ("typealias to a compiler-required annotation
    /// 'java.lang.annotation.Target' is not allowed", kotlinc 2.4.21).
    pub fn aliases_class(self, class: &str) -> bool {
        self.lang != Language::Kotlin || !KOTLIN_COMPILER_REQUIRED_ANNOTATIONS.contains(&class)
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
    /// standard library; see [`super::extensions`]).
    pub fn has_extension_methods(self) -> bool {
        matches!(self.lang, Language::Groovy | Language::Kotlin)
    }

    /// True when an extension's receiver type, as the API's text writes it
    /// (`kotlin.collections.Collection<T>`), is a read-only type the language declares
    /// covariant in its element (Kotlin's `Iterable<out T>`, `Collection<out E>`, `List`,
    /// `Set`, `Sequence`): a call whose argument fits no `T` of the receiver's elements
    /// takes `T = Any` (`aUIntArray.plus(aKey)` is `Collection<Any>.plus(Any)`).
    pub fn covariant_receiver(self, receiver: &str) -> bool {
        const READ_ONLY: [&str; 5] = [
            "kotlin.collections.Iterable<",
            "kotlin.collections.Collection<",
            "kotlin.collections.List<",
            "kotlin.collections.Set<",
            "kotlin.sequences.Sequence<",
        ];
        self.lang == Language::Kotlin && READ_ONLY.iter().any(|p| receiver.starts_with(p))
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

    /// True when a type variable fixed by a primitive argument is the box only where an
    /// expected type says so: without one (an argument of an overloaded call whose
    /// candidates disagree on its parameter) Scala 3 takes the value type itself
    /// (`new ConstantFactory('z')` is a `ConstantFactory[Char]`, no `Factory[? <:
    /// Character]`), where Java boxes it.
    pub fn boxes_inferred_primitives_by_target(self) -> bool {
        self.lang == Language::Scala3
    }

    /// True when a method reference passed for a parameter that mentions a call's type
    /// variable fixes the variable there (Scala 3 eta-expands only against a fully known
    /// function type), before the later arguments can: such a call keeps its type arguments.
    pub fn fixes_variables_for_eta_expansion(self) -> bool {
        self.lang == Language::Scala3
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

    /// True when the language has a coercion operator distinct from its cast, which
    /// synthesis writes where it means the same as an upcast or a closure's conversion to
    /// its interface (Groovy's `as`).
    pub fn writes_as_coercion(self) -> bool {
        self.lang == Language::Groovy
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

    /// True when a value converts where Java would not through value discarding (any value
    /// to `Unit`) and the API's implicit conversions, which also give a receiver members its
    /// class lacks (Scala).
    pub fn converts_by_views(self) -> bool {
        self.is_scala()
    }

    /// True when every value has members its class does not list (Scala's `Any`: `==`,
    /// `!=`, `equals`, `##`, `toString`, …), which take any receiver and, for the
    /// comparisons, any argument.
    pub fn has_universal_members(self) -> bool {
        self.is_scala()
    }

    /// The table of extension methods the checker resolves beyond a class's members:
    /// Kotlin's standard library's for Kotlin, Groovy's for the other languages (which
    /// consult it only for extension members; see [`Self::has_extension_methods`]).
    pub fn extension_table(self) -> ExtensionTable {
        match self.lang {
            Language::Kotlin => ExtensionTable::Kotlin,
            Language::Java | Language::Groovy | Language::Scala3 | Language::Scala2 => {
                ExtensionTable::Groovy
            }
        }
    }

    /// True when an extension method applies to a static call on a class (Groovy's static
    /// extensions and the instance extensions of `Class`); Kotlin's extension functions
    /// take no class as their receiver.
    pub fn extends_static_calls(self) -> bool {
        self.lang != Language::Kotlin
    }

    /// True when the language writes an array of a non-reifiable element type through its
    /// wildcard form (`((List<String>[]) new List<?>[] {..})`, Java and Groovy), so that
    /// each element's target type is the wildcard form: an element must not need its
    /// target to infer type arguments or type a conditional.
    pub fn writes_generic_arrays_by_wildcards(self) -> bool {
        matches!(self.lang, Language::Java | Language::Groovy)
    }

    /// True when a call's target type fixes a type variable that an argument of a narrower
    /// type bounds from below (Java's invariant `Map<String, P>` target makes `Map.of("k",
    /// aSubOfP)` a `Map<String, P>`). Kotlin sees a Java collection target as its read-only
    /// collection (`Map<String, out P>`) and takes the argument's type; K2 then rejects the
    /// call for a Java parameter ("Java type mismatch").
    pub fn goal_overrides_narrower_arguments(self) -> bool {
        self.lang != Language::Kotlin
    }

    /// True when a type variable's bound may hold a wildcard whose bound names the
    /// variable itself (`<T extends Comparable<? super T>>`). Scala 2 writes the wildcard as
    /// an existential, which may not refer to the variable it bounds: `def m[T <:
    /// Comparable[_ >: T]]` is an "illegal cyclic reference involving type T" (Scala 3
    /// accepts it).
    pub fn bounds_wildcards_by_own_variable(self) -> bool {
        self.lang != Language::Scala2
    }

    /// True when a star-projected type argument of the target type (`?`, Kotlin's `*`) fixes
    /// the class type variable under it for a constructor call without type arguments, as
    /// its bound (Java's diamond takes `Object`). Kotlin takes no constraint from `*`: `val
    /// m: Map<String, *> = TreeMap(c)` cannot infer `V`, where `Map<String, out Any?>` can.
    pub fn infers_from_star_projection(self) -> bool {
        self.lang != Language::Kotlin
    }

    /// True when the language sees some Java classes as its own mapped types, with their own
    /// signatures, names and nullability (Kotlin: `java.util.List` as `List`/`MutableList`,
    /// `String`, the boxes, `Map.Entry.getValue()` as the property `value`), resolving a
    /// callable reference `e::m` on the static type of `e`: a reference cannot name such a
    /// member as Java declares it.
    pub fn maps_java_classes(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the language types a conditional whose branches have a contravariant
    /// projection by joining them to an out-projection of the top type (Kotlin, K1 and K2:
    /// `if (c) a else b` for a `K<String>` and a `K<in String>` is a `K<out Any?>`), so that
    /// no type argument of the call it is an argument of is inferred from it.
    pub fn joins_contravariant_to_top(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when a call may be written in the language's operator or infix form
    /// (Kotlin's `a + b`, `a to b`) for a member declared `operator` or `infix`.
    pub fn writes_operator_forms(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when a call may leave out parameters with default values (Kotlin; the arguments
    /// after the first left out are named).
    pub fn omits_default_arguments(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the language writes Groovy's method pointers (`e.&m`) for bound
    /// references.
    pub fn writes_method_pointers(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when the language writes a lambda in Java's arrow syntax besides its usual one
    /// (Groovy's `(x) -> e` besides closures).
    pub fn writes_arrow_lambdas(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when the language writes anonymous functions (Kotlin's `fun(x: A): R { .. }`).
    pub fn writes_anonymous_functions(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the language declares type aliases (Kotlin's `typealias`, Scala's `type`).
    pub fn writes_type_aliases(self) -> bool {
        matches!(
            self.lang,
            Language::Kotlin | Language::Scala3 | Language::Scala2
        )
    }

    /// True when a program in the language gets a Java twin (the same IR written in Java,
    /// which javac compiles to judge a verdict): every language but Java itself.
    pub fn has_java_twin(self) -> bool {
        self.lang != Language::Java
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn kotlin_aliases_no_compiler_required_annotation() {
        let kotlin = LanguageRules::new(Language::Kotlin);
        assert!(!kotlin.aliases_class("java.lang.annotation.Target"));
        assert!(kotlin.aliases_class("java.lang.annotation.Native"));
        assert!(kotlin.aliases_class("java.util.ArrayList"));
        assert!(LanguageRules::new(Language::Scala3).aliases_class("java.lang.annotation.Target"));
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
    fn each_language_answers_the_questions_about_its_own_forms() {
        for lang in Language::ALL {
            let r = LanguageRules::new(lang);
            let (groovy, kotlin) = (lang == Language::Groovy, lang == Language::Kotlin);
            let scala = matches!(lang, Language::Scala3 | Language::Scala2);
            assert_eq!(r.writes_method_pointers(), groovy, "{lang}");
            assert_eq!(r.writes_arrow_lambdas(), groovy, "{lang}");
            assert_eq!(r.writes_anonymous_functions(), kotlin, "{lang}");
            assert_eq!(r.writes_operator_forms(), kotlin, "{lang}");
            assert_eq!(r.omits_default_arguments(), kotlin, "{lang}");
            assert_eq!(r.maps_java_classes(), kotlin, "{lang}");
            assert_eq!(r.extends_static_calls(), !kotlin, "{lang}");
            assert_eq!(
                r.extension_table(),
                if kotlin {
                    ExtensionTable::Kotlin
                } else {
                    ExtensionTable::Groovy
                },
                "{lang}"
            );
            assert_eq!(r.converts_by_views(), scala, "{lang}");
            assert_eq!(r.has_universal_members(), scala, "{lang}");
            assert_eq!(r.has_java_twin(), lang != Language::Java, "{lang}");
        }
    }
}
