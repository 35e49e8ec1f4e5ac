//! Kotlin's mapped types: the classes of Kotlin-typed API JSON that the JVM represents by a
//! Java class, rewritten to that class when the API is loaded, so that Kotlin and Java APIs
//! share one hierarchy (`kotlin.String` is `java.lang.String`, `kotlin.Int` is `int` as a
//! value and `java.lang.Integer` as a type argument, `kotlin.collections.MutableList` is
//! `java.util.List`).
//!
//! Kotlin's read-only collection interfaces (`kotlin.collections.List<out E>`, ...) have no
//! Java class of their own and stay as they are; [`READ_ONLY_COLLECTIONS`] pairs each with the
//! Java interface that Kotlin sees as its mutable subtype, and the loader adds that supertype
//! edge when an API defines both. The Kotlin translator prints them back (`List`,
//! `MutableList`).

use super::arena::{Prim, Type, TypeArena, TypeId, Wildcard};

/// The Kotlin classes whose values are JVM primitives, with their primitive.
const PRIMITIVES: [(&str, Prim); 8] = [
    ("kotlin.Boolean", Prim::Boolean),
    ("kotlin.Byte", Prim::Byte),
    ("kotlin.Char", Prim::Char),
    ("kotlin.Short", Prim::Short),
    ("kotlin.Int", Prim::Int),
    ("kotlin.Long", Prim::Long),
    ("kotlin.Float", Prim::Float),
    ("kotlin.Double", Prim::Double),
];

/// The boxed class of each primitive (Java's wrappers; Kotlin's `Int?` and `List<Int>` hold
/// them).
pub const BOXES: [(Prim, &str); 8] = [
    (Prim::Boolean, "java.lang.Boolean"),
    (Prim::Byte, "java.lang.Byte"),
    (Prim::Char, "java.lang.Character"),
    (Prim::Short, "java.lang.Short"),
    (Prim::Int, "java.lang.Integer"),
    (Prim::Long, "java.lang.Long"),
    (Prim::Float, "java.lang.Float"),
    (Prim::Double, "java.lang.Double"),
];

/// Kotlin's primitive array classes and their element primitive.
const PRIMITIVE_ARRAYS: [(&str, Prim); 8] = [
    ("kotlin.BooleanArray", Prim::Boolean),
    ("kotlin.ByteArray", Prim::Byte),
    ("kotlin.CharArray", Prim::Char),
    ("kotlin.ShortArray", Prim::Short),
    ("kotlin.IntArray", Prim::Int),
    ("kotlin.LongArray", Prim::Long),
    ("kotlin.FloatArray", Prim::Float),
    ("kotlin.DoubleArray", Prim::Double),
];

/// Kotlin classes that are a Java class on the JVM (Kotlin spec, "Java interoperability:
/// mapped types"); the mutable collection interfaces are Java's.
const CLASSES: [(&str, &str); 19] = [
    ("kotlin.Any", "java.lang.Object"),
    ("kotlin.String", "java.lang.String"),
    ("kotlin.CharSequence", "java.lang.CharSequence"),
    ("kotlin.Number", "java.lang.Number"),
    ("kotlin.Throwable", "java.lang.Throwable"),
    ("kotlin.Comparable", "java.lang.Comparable"),
    ("kotlin.Enum", "java.lang.Enum"),
    ("kotlin.Annotation", "java.lang.annotation.Annotation"),
    ("kotlin.Cloneable", "java.lang.Cloneable"),
    ("kotlin.collections.MutableIterable", "java.lang.Iterable"),
    (
        "kotlin.collections.MutableCollection",
        "java.util.Collection",
    ),
    ("kotlin.collections.MutableList", "java.util.List"),
    ("kotlin.collections.MutableSet", "java.util.Set"),
    ("kotlin.collections.MutableMap", "java.util.Map"),
    (
        "kotlin.collections.MutableMap.MutableEntry",
        "java.util.Map.Entry",
    ),
    ("kotlin.collections.MutableIterator", "java.util.Iterator"),
    (
        "kotlin.collections.MutableListIterator",
        "java.util.ListIterator",
    ),
    // the JVM's own exceptions, which Kotlin names by type aliases
    ("kotlin.Exception", "java.lang.Exception"),
    ("kotlin.RuntimeException", "java.lang.RuntimeException"),
];

/// Kotlin's read-only collection interfaces and the Java interface that is their mutable
/// subtype in Kotlin's view (`java.util.List<E>` is a `kotlin.collections.List<E>`).
pub const READ_ONLY_COLLECTIONS: [(&str, &str); 8] = [
    ("kotlin.collections.Iterable", "java.lang.Iterable"),
    ("kotlin.collections.Collection", "java.util.Collection"),
    ("kotlin.collections.List", "java.util.List"),
    ("kotlin.collections.Set", "java.util.Set"),
    ("kotlin.collections.Map", "java.util.Map"),
    ("kotlin.collections.Map.Entry", "java.util.Map.Entry"),
    ("kotlin.collections.Iterator", "java.util.Iterator"),
    ("kotlin.collections.ListIterator", "java.util.ListIterator"),
];

/// The Java class of a Kotlin class that the JVM represents by one (`kotlin.Any` →
/// `java.lang.Object`), not counting primitives and arrays.
pub fn java_class(kotlin: &str) -> Option<&'static str> {
    CLASSES.iter().find(|(k, _)| *k == kotlin).map(|&(_, j)| j)
}

/// True for a Java class that Kotlin sees as one of its own (`java.util.List` as
/// `MutableList`, `java.lang.Number` as `kotlin.Number`), with its own members.
pub fn maps_java(java: &str) -> bool {
    CLASSES.iter().any(|&(_, j)| j == java)
}

/// A Java method of one of Kotlin's mapped types that Kotlin shows as its own member
/// (Kotlin spec, "Java interoperability: mapped types"; the members of `kotlin.Number`,
/// `kotlin.CharSequence`, `kotlin.collections.Collection`, `Map` and `Map.Entry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MappedMember {
    /// The Java class that declares it.
    pub class: &'static str,
    /// Java's name.
    pub java: &'static str,
    /// Its number of parameters.
    pub arity: usize,
    /// Kotlin's name.
    pub kotlin: &'static str,
    /// True when Kotlin shows it as a property (`val size: Int`).
    pub property: bool,
    /// True when Kotlin declares it abstract where Java implements it: an object expression
    /// overrides it (`kotlin.Number.toByte`, `MutableIterator.remove`).
    pub abstract_in_kotlin: bool,
}

/// Shorthand for the entries of [`MAPPED_MEMBERS`].
const fn mapped(
    class: &'static str,
    java: &'static str,
    arity: usize,
    kotlin: &'static str,
    property: bool,
    abstract_in_kotlin: bool,
) -> MappedMember {
    MappedMember {
        class,
        java,
        arity,
        kotlin,
        property,
        abstract_in_kotlin,
    }
}

/// The Java methods of mapped types that Kotlin names or declares otherwise, for the object
/// expressions that override them; the ones it shows under Java's name and abstractness are
/// not listed.
pub const MAPPED_MEMBERS: [MappedMember; 18] = [
    mapped("java.util.Collection", "size", 0, "size", true, false),
    mapped("java.util.Map", "size", 0, "size", true, false),
    mapped("java.util.Map", "entrySet", 0, "entries", true, false),
    mapped("java.util.Map", "keySet", 0, "keys", true, false),
    mapped("java.util.Map", "values", 0, "values", true, false),
    mapped("java.util.Map.Entry", "getKey", 0, "key", true, false),
    mapped("java.util.Map.Entry", "getValue", 0, "value", true, false),
    mapped("java.lang.CharSequence", "length", 0, "length", true, false),
    mapped("java.lang.CharSequence", "charAt", 1, "get", false, false),
    mapped("java.lang.Number", "intValue", 0, "toInt", false, false),
    mapped("java.lang.Number", "longValue", 0, "toLong", false, false),
    mapped("java.lang.Number", "floatValue", 0, "toFloat", false, false),
    mapped(
        "java.lang.Number",
        "doubleValue",
        0,
        "toDouble",
        false,
        false,
    ),
    mapped("java.lang.Number", "byteValue", 0, "toByte", false, true),
    mapped("java.lang.Number", "shortValue", 0, "toShort", false, true),
    mapped("java.util.Iterator", "remove", 0, "remove", false, true),
    mapped(
        "java.lang.Throwable",
        "getMessage",
        0,
        "message",
        true,
        false,
    ),
    mapped("java.lang.Throwable", "getCause", 0, "cause", true, false),
];

/// Java methods of mapped types taking an `Object` or `Collection<?>` that Kotlin shows with
/// the element, key or value type (`contains(E)` for `contains(Object)`, `removeAt(Int)`
/// beside `remove(E)`): a call cannot pass them any object, an object expression cannot
/// override them with Java's signature. Class, name, number of parameters.
pub const RETYPED_MEMBERS: [(&str, &str, usize); 13] = [
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

/// How Kotlin shows method `java` of `arity` parameters of a class below the mapped Java
/// classes `supers` (its supertypes' names), when it names or declares it otherwise.
pub fn mapped_member<'a>(
    supers: impl IntoIterator<Item = &'a str>,
    java: &str,
    arity: usize,
) -> Option<&'static MappedMember> {
    let supers: Vec<&str> = supers.into_iter().collect();
    MAPPED_MEMBERS
        .iter()
        .find(|m| m.java == java && m.arity == arity && supers.contains(&m.class))
}

/// `Collection.toArray()`, which Kotlin's collections do not declare: an object expression
/// cannot override it as Java declares it.
const HIDDEN_MEMBER: (&str, &str, usize) = ("java.util.Collection", "toArray", 0);

/// True when Kotlin shows method `java` of `arity` parameters of a class below the mapped
/// Java classes `supers` with other parameter types ([`RETYPED_MEMBERS`]) or not at all.
pub fn retyped_member<'a>(
    supers: impl IntoIterator<Item = &'a str>,
    java: &str,
    arity: usize,
) -> bool {
    let supers: Vec<&str> = supers.into_iter().collect();
    RETYPED_MEMBERS
        .iter()
        .chain([&HIDDEN_MEMBER])
        .any(|&(c, n, a)| n == java && a == arity && supers.contains(&c))
}

/// True for a Kotlin class that no Kotlin type of a loaded API names, because the loader
/// replaces it by a JVM type (`kotlin.String`, `kotlin.Int`, `kotlin.IntArray`,
/// `kotlin.Array`, `kotlin.collections.MutableList`): its own document (a builtin's) is not
/// used by synthesis.
pub fn is_mapped(kotlin: &str) -> bool {
    java_class(kotlin).is_some()
        || PRIMITIVES.iter().any(|(k, _)| *k == kotlin)
        || PRIMITIVE_ARRAYS.iter().any(|(k, _)| *k == kotlin)
        || kotlin == "kotlin.Array"
}

/// Kotlin's unsigned types and the array classes that hold them (`vararg x: UInt` is a
/// `UIntArray`, not an `Array<UInt>`).
const UNSIGNED_ARRAYS: [(&str, &str); 4] = [
    ("kotlin.UByte", "kotlin.UByteArray"),
    ("kotlin.UShort", "kotlin.UShortArray"),
    ("kotlin.UInt", "kotlin.UIntArray"),
    ("kotlin.ULong", "kotlin.ULongArray"),
];

/// True for a Kotlin unsigned type, whose `vararg` is its own array class.
pub fn is_unsigned(kotlin: &str) -> bool {
    UNSIGNED_ARRAYS.iter().any(|(u, _)| *u == kotlin)
}

/// True for a Kotlin class that Kotlin treats as an array (no type variable's bound):
/// the unsigned arrays.
pub fn is_array_class(kotlin: &str) -> bool {
    UNSIGNED_ARRAYS.iter().any(|(_, a)| *a == kotlin)
}

/// `t`, a type parsed from a Kotlin signature, with Kotlin's mapped classes replaced by their
/// JVM types. `value` is true where the type is a value's type (a parameter, result,
/// receiver or bound), where `kotlin.Int` is `int` and `kotlin.Unit` is `void`; false inside
/// type arguments and nullable types, where they are `java.lang.Integer` and `kotlin.Unit`.
pub fn to_jvm(a: &mut TypeArena, t: TypeId, value: bool) -> TypeId {
    match a.get(t).clone() {
        Type::Class { name, args } => {
            let n = a.name(name).to_string();
            if let Some(&(_, p)) = PRIMITIVES.iter().find(|(k, _)| *k == n) {
                return if value { a.prim(p) } else { box_of(a, p) };
            }
            if let Some(&(_, p)) = PRIMITIVE_ARRAYS.iter().find(|(k, _)| *k == n) {
                let e = a.prim(p);
                return a.array(e);
            }
            if n == "kotlin.Unit" && value {
                return a.prim(Prim::Void);
            }
            if n == "kotlin.Array" && args.len() == 1 {
                let e = match *a.get(args[0]) {
                    Type::Wildcard(Wildcard::Extends(b)) | Type::Wildcard(Wildcard::Super(b)) => b,
                    _ => args[0],
                };
                let e = to_jvm(a, e, false);
                return a.array(e);
            }
            let args: Vec<TypeId> = args.iter().map(|&x| to_jvm(a, x, false)).collect();
            match java_class(&n) {
                Some(j) => a.class_named(j, &args),
                None => a.class(name, &args),
            }
        }
        Type::Nullable(e) => {
            let e = to_jvm(a, e, false);
            a.nullable(e)
        }
        Type::Wildcard(Wildcard::Extends(b)) => {
            let b = to_jvm(a, b, false);
            a.wildcard(Wildcard::Extends(b))
        }
        Type::Wildcard(Wildcard::Super(b)) => {
            let b = to_jvm(a, b, false);
            a.wildcard(Wildcard::Super(b))
        }
        Type::Array(e) => {
            let e = to_jvm(a, e, false);
            a.array(e)
        }
        Type::Function {
            receiver,
            params,
            ret,
            suspend,
        } => {
            let receiver = receiver.map(|r| to_jvm(a, r, true));
            let params: Vec<TypeId> = params.iter().map(|&p| to_jvm(a, p, true)).collect();
            let ret = to_jvm(a, ret, true);
            a.function(receiver, &params, ret, suspend)
        }
        _ => t,
    }
}

fn box_of(a: &mut TypeArena, p: Prim) -> TypeId {
    let name = BOXES
        .iter()
        .find(|(q, _)| *q == p)
        .map_or("java.lang.Object", |&(_, n)| n);
    a.class_named(name, &[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::print::print_type;
    use crate::types::syntax::{parse_type, Syntax};

    fn jvm(text: &str, value: bool) -> String {
        let mut a = TypeArena::new();
        let t = parse_type(&mut a, Syntax::Kotlin, text, &[]).expect("parses");
        let m = to_jvm(&mut a, t, value);
        print_type(&a, Syntax::Kotlin, m)
    }

    #[test]
    fn primitives_are_primitive_values_and_boxed_arguments() {
        // printed in Kotlin syntax: a primitive is `kotlin.Int`, its box `java.lang.Integer`
        assert_eq!(jvm("kotlin.Int", true), "kotlin.Int");
        assert_eq!(jvm("kotlin.Int", false), "java.lang.Integer");
        assert_eq!(jvm("kotlin.Int?", true), "java.lang.Integer?");
        assert_eq!(
            jvm("kotlin.collections.List<kotlin.Int>", true),
            "kotlin.collections.List<java.lang.Integer>"
        );
        assert_eq!(jvm("kotlin.Unit", true), "kotlin.Unit");
        assert_eq!(jvm("kotlin.Unit", false), "kotlin.Unit");
        assert_eq!(jvm("kotlin.IntArray", true), "kotlin.Array<kotlin.Int>");
        assert_eq!(
            jvm("kotlin.Array<out kotlin.String>", true),
            "kotlin.Array<java.lang.String>"
        );
        let mut a = TypeArena::new();
        let t = parse_type(&mut a, Syntax::Kotlin, "kotlin.Unit", &[]).expect("parses");
        let v = to_jvm(&mut a, t, true);
        assert_eq!(*a.get(v), Type::Prim(Prim::Void));
    }

    #[test]
    fn mapped_classes_become_java_classes_and_read_only_ones_stay() {
        assert_eq!(
            jvm(
                "kotlin.collections.MutableMap<kotlin.String, kotlin.Any?>",
                true
            ),
            "java.util.Map<java.lang.String, java.lang.Object?>"
        );
        assert_eq!(
            jvm("kotlin.collections.Set<out kotlin.Comparable<*>>", true),
            "kotlin.collections.Set<out java.lang.Comparable<*>>"
        );
        assert!(is_mapped("kotlin.collections.MutableList") && is_mapped("kotlin.IntArray"));
        assert!(!is_mapped("kotlin.collections.List") && !is_mapped("kotlin.Unit"));
    }
}
