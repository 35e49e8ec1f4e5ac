//! Scala's view of the JVM: the classes of Scala-typed API JSON that the JVM represents by a
//! primitive or a Java class, and the aliases of the `scala` package and of `Predef`,
//! rewritten when the API is loaded so that Scala and Java APIs share one hierarchy.
//!
//! A value of `scala.Int` is the primitive `int`; as a type argument (`Option[Int]`) it stays
//! the class `scala.Int`, which Scala programs print as `Int` — unlike Java's
//! `java.lang.Integer`, which Scala keeps apart (`Option[Int]` is not `Option[Integer]`).
//! Synthesis of Scala programs from Scala APIs boxes `int` to `scala.Int` (see
//! [`SCALA_BOXES`]). `scala.AnyRef` is `java.lang.Object`; `scala.Any` stays, a root above
//! it that no `Object` is (nor a value class: `types::TypeSystem`); `scala.Nothing` is the
//! bottom type, `scala.Array[T]` Java's `T[]`, and aliases name their class
//! (`scala.List` is `scala.collection.immutable.List`, `scala.Serializable` is
//! `java.io.Serializable`).

use super::arena::{Prim, Type, TypeArena, TypeId, Wildcard};

/// The Scala value classes whose values are JVM primitives, with their primitive; as type
/// arguments they stay these classes.
pub const SCALA_BOXES: [(Prim, &str); 8] = [
    (Prim::Boolean, "scala.Boolean"),
    (Prim::Byte, "scala.Byte"),
    (Prim::Char, "scala.Char"),
    (Prim::Short, "scala.Short"),
    (Prim::Int, "scala.Int"),
    (Prim::Long, "scala.Long"),
    (Prim::Float, "scala.Float"),
    (Prim::Double, "scala.Double"),
];

/// Scala names that are another class (type aliases of the `scala` package object and of
/// `Predef`, Scala 2.13 and 3), with the class they name.
const ALIASES: [(&str, &str); 43] = [
    ("scala.AnyRef", "java.lang.Object"),
    ("scala.Predef.String", "java.lang.String"),
    ("scala.Predef.Class", "java.lang.Class"),
    ("scala.Predef.Map", "scala.collection.immutable.Map"),
    ("scala.Predef.Set", "scala.collection.immutable.Set"),
    ("scala.Predef.Function", "scala.Function1"),
    ("scala.Serializable", "java.io.Serializable"),
    ("scala.Cloneable", "java.lang.Cloneable"),
    ("scala.Throwable", "java.lang.Throwable"),
    ("scala.Exception", "java.lang.Exception"),
    ("scala.Error", "java.lang.Error"),
    ("scala.RuntimeException", "java.lang.RuntimeException"),
    (
        "scala.NullPointerException",
        "java.lang.NullPointerException",
    ),
    ("scala.ClassCastException", "java.lang.ClassCastException"),
    (
        "scala.IndexOutOfBoundsException",
        "java.lang.IndexOutOfBoundsException",
    ),
    (
        "scala.ArrayIndexOutOfBoundsException",
        "java.lang.ArrayIndexOutOfBoundsException",
    ),
    (
        "scala.StringIndexOutOfBoundsException",
        "java.lang.StringIndexOutOfBoundsException",
    ),
    (
        "scala.UnsupportedOperationException",
        "java.lang.UnsupportedOperationException",
    ),
    (
        "scala.IllegalArgumentException",
        "java.lang.IllegalArgumentException",
    ),
    (
        "scala.NoSuchElementException",
        "java.util.NoSuchElementException",
    ),
    (
        "scala.NumberFormatException",
        "java.lang.NumberFormatException",
    ),
    ("scala.AbstractMethodError", "java.lang.AbstractMethodError"),
    (
        "scala.InterruptedException",
        "java.lang.InterruptedException",
    ),
    ("scala.IterableOnce", "scala.collection.IterableOnce"),
    ("scala.Iterable", "scala.collection.Iterable"),
    ("scala.Iterator", "scala.collection.Iterator"),
    (
        "scala.BufferedIterator",
        "scala.collection.BufferedIterator",
    ),
    ("scala.Seq", "scala.collection.immutable.Seq"),
    ("scala.IndexedSeq", "scala.collection.immutable.IndexedSeq"),
    ("scala.List", "scala.collection.immutable.List"),
    ("scala.::", "scala.collection.immutable.::"),
    ("scala.Vector", "scala.collection.immutable.Vector"),
    ("scala.LazyList", "scala.collection.immutable.LazyList"),
    ("scala.Range", "scala.collection.immutable.Range"),
    (
        "scala.StringBuilder",
        "scala.collection.mutable.StringBuilder",
    ),
    ("scala.BigInt", "scala.math.BigInt"),
    ("scala.BigDecimal", "scala.math.BigDecimal"),
    ("scala.Either", "scala.util.Either"),
    ("scala.Left", "scala.util.Left"),
    ("scala.Right", "scala.util.Right"),
    ("scala.Ordering", "scala.math.Ordering"),
    ("scala.Ordered", "scala.math.Ordered"),
    ("scala.Numeric", "scala.math.Numeric"),
];

/// The class a Scala alias names (`scala.List` → `scala.collection.immutable.List`), if
/// the name is one.
pub fn alias_target(scala: &str) -> Option<&'static str> {
    ALIASES.iter().find(|(k, _)| *k == scala).map(|&(_, j)| j)
}

/// True for a Scala class that no type of a loaded Scala API names, because the loader
/// replaces it (`scala.AnyRef`, `scala.Array`, the aliases); its own document is not used.
pub fn is_mapped(scala: &str) -> bool {
    alias_target(scala).is_some()
        || matches!(
            scala,
            "scala.Any" | "scala.Array" | "scala.Nothing" | "scala.Null"
        )
}

/// `t`, a type parsed from a Scala signature, with aliases resolved and the JVM's types put
/// in: `value` is true where the type is a value's type (a parameter, result or bound),
/// where `scala.Int` is `int` and `scala.Unit` is `void`; inside type arguments they stay
/// classes.
pub fn to_jvm(a: &mut TypeArena, t: TypeId, value: bool) -> TypeId {
    match a.get(t).clone() {
        Type::Class { name, args } => {
            let n = a.name(name).to_string();
            if value {
                if let Some(&(p, _)) = SCALA_BOXES.iter().find(|(_, k)| *k == n) {
                    return a.prim(p);
                }
                if n == "scala.Unit" {
                    return a.prim(Prim::Void);
                }
            }
            if n == "scala.Nothing" {
                return a.bottom();
            }
            if n == "scala.Array" && args.len() == 1 {
                // the element of `Array[Int]` is the primitive (`int[]`)
                let e = match *a.get(args[0]) {
                    Type::Wildcard(Wildcard::Extends(b)) | Type::Wildcard(Wildcard::Super(b)) => b,
                    _ => args[0],
                };
                let e = to_jvm(a, e, true);
                let e = if matches!(a.get(e), Type::Prim(Prim::Void)) {
                    to_jvm(a, args[0], false)
                } else {
                    e
                };
                return a.array(e);
            }
            let args: Vec<TypeId> = args.iter().map(|&x| to_jvm(a, x, false)).collect();
            match alias_target(&n) {
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
            let e = to_jvm(a, e, true);
            a.array(e)
        }
        Type::ByName(e) => {
            let e = to_jvm(a, e, value);
            a.intern(Type::ByName(e))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::print::print_type;
    use crate::types::syntax::{parse_type, Syntax};

    fn jvm(text: &str, value: bool) -> String {
        let mut a = TypeArena::new();
        let t = parse_type(&mut a, Syntax::Scala, text, &[]).expect("parses");
        let m = to_jvm(&mut a, t, value);
        print_type(&a, Syntax::Java, m)
    }

    #[test]
    fn value_classes_are_primitives_as_values_and_classes_as_arguments() {
        assert_eq!(jvm("scala.Int", true), "int");
        assert_eq!(jvm("scala.Int", false), "scala.Int");
        assert_eq!(
            jvm("scala.Option[scala.Int]", true),
            "scala.Option<scala.Int>"
        );
        assert_eq!(jvm("scala.Unit", true), "void");
        assert_eq!(jvm("scala.Array[scala.Int]", true), "int[]");
        assert_eq!(
            jvm("scala.Array[scala.Predef.String]", false),
            "java.lang.String[]"
        );
    }

    #[test]
    fn aliases_name_their_class() {
        assert_eq!(
            jvm("scala.List[scala.AnyRef]", true),
            "scala.collection.immutable.List<java.lang.Object>"
        );
        assert_eq!(jvm("scala.Any", true), "scala.Any");
        assert_eq!(jvm("scala.Serializable", true), "java.io.Serializable");
        assert_eq!(
            jvm("scala.Predef.Map[scala.Predef.String, scala.AnyRef]", true),
            "scala.collection.immutable.Map<java.lang.String,java.lang.Object>"
        );
        assert!(is_mapped("scala.Seq") && !is_mapped("scala.Option"));
    }
}
