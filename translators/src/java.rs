//! The Java translator.
//!
//! A program becomes one file `Test_<id>.java`:
//!
//! ```java
//! package thalia.<id>;
//!
//! public final class Test_<id> {
//!     public static <T extends A & B, U> void test() throws Throwable {
//!         ...statements...
//!     }
//! }
//! ```
//!
//! Every class is written fully qualified and there are no imports. The output is pure ASCII
//! (other characters become `\uXXXX` escapes), so it compiles under any `-encoding`. The type
//! parameters of the test method are the program's `type_params` (none: `static void
//! test()`); `Ty::Var` is the variable's name.
//!
//! Mapping of the IR:
//! - `New { type_args: None }` is the diamond `new C<>(..)`, `Some(vec![])` is `new C(..)` and
//!   `Some(v)` is `new C<A, B>(..)`.
//! - `Bottom(T)` is `((T) null)`, or the default value of `T` if `T` is primitive.
//! - Primitive type arguments are boxed (`List<int>` is written `java.util.List<java.lang.Integer>`);
//!   `Nullable(T)` is `T` (boxed if primitive); `Top` is `java.lang.Object`; the bottom type
//!   is `java.lang.Void`.
//! - An expression statement that Java does not accept as a statement (anything but a call or
//!   `new`) is assigned to a fresh `java.lang.Object` local; a literal statement is dropped.
//! - `New { outer: Some(o) }` creates an inner class on its outer instance: `o.new
//!   Inner<A>(args)`, with the inner class's simple name (type arguments as for `new`).
//! - A local with `inferred` is `var x = init;`.
//! - Lambdas are `(a, b) -> body` or `(T a, U b) -> body`, `(x) -> {}` for a `Unit` body
//!   (`void` functional interfaces). A lambda with a `block` has a block body, one line:
//!   `(a) -> { T x = ..; var y = ..; return body; }`; a `Unit` body writes no `return`, and
//!   the body of a `void` function (`ret: Some(void)`) is its last statement (`l.clear();`).
//!   Expression statements in blocks are written as at the top level, with fresh names unique
//!   in the whole program. Java has one lambda form (`form` is ignored), and a lambda is never
//!   cast: javac types it by its position.
//! - Function references: static `java.lang.Integer::parseInt`; bound `e::m`, the receiver
//!   parenthesized unless it is a name, call, field, `new`, string, cast or conditional
//!   (`(1)::equals`); unbound `T::m` with the type's arguments
//!   (`java.util.List<java.lang.String>::size`, a type variable `T::length`); constructor
//!   `C::new` (`type_args` `None` or empty: inferred) or `C<A>::new`; array constructor
//!   `T[]::new`, with a non-reifiable element type written as its erasure
//!   (`java.util.List[]::new` for `IntFunction<List<String>[]>`: an unchecked conversion, as
//!   `List<?>[]` would not convert). A reference whose position does not convert it
//!   (`implicit: false` with a `target`) is cast, `((F) C::m)`, except as the initializer of a
//!   local declared with that type. `method_pointer` is Groovy's and ignored.
//! - `Cast` of a lambda or reference is `((F) (x) -> e)`, `((F) C::m)` (never cast twice).
//! - `NewArray` of a non-reifiable element type `E` (e.g. `List<String>`) is written as an
//!   unchecked cast of an array of `E`'s wildcard form: `((List<String>[]) new List<?>[] {..})`.
//!
//! Rejected with a [`TranslateError`]: function types, calls and field reads without a receiver
//! (Java has no top-level functions), wildcards outside type arguments, `void` anywhere but a
//! call's result, `Unit` anywhere but as a lambda's body, lambdas mixing typed and untyped
//! parameters, `var` with an initializer that has no type of its own (a lambda, a reference,
//! `null`, or a conditional of them: javac cannot infer it), an array constructor reference
//! with a type-variable element (`T[]::new` is a generic array creation), an unbound
//! reference to a member of a primitive, `char` literals outside the BMP, and names that are
//! not Java identifiers or are reserved words.

use std::cell::RefCell;

use crate::common::java_family::{needs_target_type, JavaFamily, JAVA_RESERVED};
use crate::common::literal::{utf16_escape, ControlEscape, Escapes, LiteralSyntax, Narrowing};
use crate::common::{self, open_test, BodyCx, CodeWriter, Dialect, ProgramNames, UNUSED_STEM};
use crate::ir::{Expr, Lit, Program, Receiver, Stmt, Ty};
use crate::{Language, TranslateError, Translator};

/// Translates programs to Java source.
#[derive(Debug, Clone, Copy, Default)]
pub struct JavaTranslator;

impl Translator for JavaTranslator {
    fn language(&self) -> Language {
        Language::Java
    }

    fn translate(&self, p: &Program) -> Result<String, TranslateError> {
        if let Some(name) = kotlin_only_class(p) {
            return Err(TranslateError::Unsupported {
                language: Language::Java,
                what: format!("`{name}`, a Kotlin type that no Java class is"),
            });
        }
        common::translate(&Emitter::new(p)?, p).map(|src| ascii_only(&src))
    }
}

/// Kotlin's classes that have no class file of that name: the read-only collection
/// interfaces (Java sees `java.util.List` with other variance), `Nothing`, the builtins'
/// companions (`kotlin.Int.Companion`), the unsigned types and arrays (value classes, which
/// Java sees as their underlying values).
const KOTLIN_ONLY_CLASSES: [&str; 21] = [
    "kotlin.collections.Iterable",
    "kotlin.collections.Collection",
    "kotlin.collections.List",
    "kotlin.collections.Set",
    "kotlin.collections.Map",
    "kotlin.collections.Map.Entry",
    "kotlin.collections.Iterator",
    "kotlin.collections.ListIterator",
    "kotlin.Nothing",
    "kotlin.Int.Companion",
    "kotlin.Long.Companion",
    "kotlin.Short.Companion",
    "kotlin.Byte.Companion",
    "kotlin.Char.Companion",
    "kotlin.Float.Companion",
    "kotlin.Double.Companion",
    "kotlin.Boolean.Companion",
    "kotlin.String.Companion",
    "kotlin.UInt",
    "kotlin.ULong",
    "kotlin.UShort",
];

/// The first class `p` names (in a type, a constructor call or a static access) that Java
/// cannot name as written ([`KOTLIN_ONLY_CLASSES`], `kotlin.UByte` and the unsigned arrays).
fn kotlin_only_class(p: &Program) -> Option<String> {
    let kotlin_only = |n: &str| {
        KOTLIN_ONLY_CLASSES.contains(&n)
            || n == "kotlin.UByte"
            || (n.starts_with("kotlin.U") && n.ends_with("Array"))
    };
    let mut found = None;
    p.walk_types(&mut |t| {
        if let Ty::Class { name, .. } = t {
            if found.is_none() && kotlin_only(name) {
                found = Some(name.clone());
            }
        }
    });
    p.walk_exprs(&mut |e| {
        let name = match e {
            Expr::New { class, .. }
            | Expr::Call {
                receiver: Receiver::Static(class),
                ..
            }
            | Expr::Field {
                receiver: Receiver::Static(class),
                ..
            } => class,
            _ => return,
        };
        if found.is_none() && kotlin_only(name) {
            found = Some(name.clone());
        }
    });
    found
}

/// The translation of one program: its test method's type parameters and the names taken
/// so far.
struct Emitter {
    /// `<T extends A, U> ` (with a trailing space), or nothing.
    type_params_decl: String,
    /// Fresh names for expression statements, unique across the program and its lambdas.
    names: RefCell<BodyCx>,
}

impl Emitter {
    /// The emitter of `p`; an error if its type parameters cannot be written.
    fn new(p: &Program) -> Result<Self, TranslateError> {
        let mut e = Emitter {
            type_params_decl: String::new(),
            names: RefCell::new(BodyCx::new(p)),
        };
        e.type_params_decl = e.type_params(&p.type_params)?;
        Ok(e)
    }
}

/// How Java writes literals: `1L`, `1.5f`, `0.1d`, `((byte) 1)`; control characters as octal
/// escapes (`\uXXXX` would be translated before lexing: `'\u000a'` is a line break).
pub(crate) const LITERALS: LiteralSyntax = LiteralSyntax {
    escapes: Escapes {
        string_quote: '"',
        form_feed: true,
        dollar: false,
        control: ControlEscape::Octal,
    },
    int_min: None,
    long_min: None,
    float_class: "java.lang.Float",
    double_class: "java.lang.Double",
    double_suffix: "d",
    narrowing: Narrowing::Cast,
    char_as_string: false,
};

impl Dialect for Emitter {
    fn language(&self) -> Language {
        Language::Java
    }

    fn is_reserved(&self, name: &str) -> bool {
        JAVA_RESERVED.contains(&name)
    }

    fn open(&self, names: &ProgramNames, w: &mut CodeWriter) {
        let package = format!("package {};", names.package);
        let class = format!("public final class {} {{", names.class);
        open_test(
            w,
            &[&package, "", &class],
            &format!(
                "public static {}void test() throws Throwable {{",
                self.type_params_decl
            ),
        );
    }

    fn stmt(&self, s: &Stmt, _: &mut BodyCx, w: &mut CodeWriter) -> Result<(), TranslateError> {
        self.java_stmt(s, w)
    }
}

impl JavaFamily for Emitter {
    const LITERALS: LiteralSyntax = LITERALS;
    const TYPE_VARIABLE_ARRAYS: bool = false;
    const NO_RECEIVER_HINT: &'static str =
        "Java has no top-level functions or fields; give a static receiver";
    const REFERENCE_TYPE_ARGS: bool = true;

    fn fresh_unused(&self) -> String {
        self.names.borrow_mut().fresh(UNUSED_STEM)
    }

    /// `var x = init;`; javac cannot infer a type from a lambda, a reference or `null`.
    fn inferred_local(&self, name: &str, init: &Expr) -> Result<String, TranslateError> {
        if needs_target_type(init) {
            return Err(self.unsupported(
                "`var` with a lambda, function reference or `null` initializer (it has no \
                 type of its own)",
            ));
        }
        Ok(format!("var {name} = {};", self.expr(init)?))
    }

    /// The simple name: `outer.new Inner(..)`.
    fn inner_class_name(&self, class: &str) -> Result<String, TranslateError> {
        Ok(class.rsplit('.').next().unwrap_or(class).to_owned())
    }

    fn local(&self, name: &str) -> Result<String, TranslateError> {
        Ok(name.to_owned())
    }

    fn field(&self, receiver: &Receiver, name: &str) -> Result<String, TranslateError> {
        self.check_name(name)?;
        Ok(format!(
            "{}.{name}",
            self.receiver(receiver, "a field read", name)?
        ))
    }

    /// `(a, b) -> body`, `(T a) -> body`; `(a) -> {}` for a `Unit` body; with a block
    /// `(a) -> { T x = ..; return body; }`.
    fn lambda(&self, e: &Expr) -> Result<String, TranslateError> {
        let Expr::Lambda {
            params,
            body,
            block,
            ret,
            target,
            ..
        } = e
        else {
            return self.expr(e);
        };
        self.check_uniform_params(params)?;
        // a Kotlin function type is a generic `FunctionN` to Java: its parameters are boxes
        // (`(java.lang.Integer l1) -> ..` for `(Int) -> Int`)
        let boxed: Vec<(String, Option<Ty>)>;
        let params = if matches!(target, Some(Ty::Function { .. })) {
            boxed = params
                .iter()
                .map(|(n, t)| {
                    let t = t.as_ref().map(|t| match t {
                        Ty::Prim(_) => Ty::Nullable(Box::new(t.clone())),
                        t => t.clone(),
                    });
                    (n.clone(), t)
                })
                .collect();
            &boxed
        } else {
            params
        };
        let params = self.params(params)?;
        let body = match body.as_ref() {
            body if !block.is_empty() => self.block_body(block, body, ret.as_ref())?,
            Expr::Unit => "{}".to_owned(),
            body => self.expr(body)?,
        };
        Ok(format!("({params}) -> {body}"))
    }

    /// `1.m()` lexes as `1.` then `m`; a lambda or an uncast reference is not a primary
    /// expression.
    fn parenthesize_receiver(&self, e: &Expr, _: &str) -> bool {
        match e {
            Expr::Lit(Lit::Str(_) | Lit::Null) => false,
            Expr::Lit(_) | Expr::Lambda { .. } => true,
            Expr::Ref { .. } => common::java_family::cast_target(e).is_none(),
            _ => false,
        }
    }
}

/// `src` with every non-ASCII character replaced by its `\uXXXX` escape(s), which Java reads
/// as the character itself anywhere in a source file (literals are escaped already; this
/// catches identifiers).
fn ascii_only(src: &str) -> String {
    if src.is_ascii() {
        return src.to_owned();
    }
    src.chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                utf16_escape(c)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::{test_support, TyPos};
    use crate::ir::{Expr, Program, Stmt, Ty};

    /// The body line(s) of a one-statement program.
    fn body(s: Stmt) -> Result<String, TranslateError> {
        test_support::body(&JavaTranslator, vec![s])
    }

    #[test]
    fn kotlin_package_functions_are_static_methods_of_their_facade() {
        let call = |receiver: Receiver, args: Vec<Expr>, declared_in: &[&str]| {
            let mut e = Expr::call(receiver, "trim", vec![], args);
            if let Expr::Call { declared_in: d, .. } = &mut e {
                *d = declared_in.iter().map(|s| s.to_string()).collect();
            }
            Stmt::local("t", Ty::string(), e)
        };
        let jvm = [
            crate::ir::NATIVE_MEMBER,
            "kotlin.text",
            "<jvm>kotlin.text.StringsKt.trim",
        ];
        // an extension: its receiver is the first argument
        assert_eq!(
            body(call(Receiver::expr(Expr::str("a")), vec![], &jvm)).as_deref(),
            Ok("java.lang.String t = kotlin.text.StringsKt.trim(\"a\");")
        );
        // a top-level function: the arguments as they are
        assert_eq!(
            body(call(
                Receiver::class("kotlin.text"),
                vec![Expr::str("a")],
                &jvm
            ))
            .as_deref(),
            Ok("java.lang.String t = kotlin.text.StringsKt.trim(\"a\");")
        );
        // without the JVM method: as the Kotlin program calls it
        assert_eq!(
            body(call(Receiver::expr(Expr::str("a")), vec![], &jvm[..2])).as_deref(),
            Ok("java.lang.String t = \"a\".trim();")
        );
    }

    #[test]
    fn kotlin_classes_without_a_class_file_are_not_written() {
        for name in [
            "kotlin.collections.List",
            "kotlin.UInt",
            "kotlin.Int.Companion",
        ] {
            let r = body(Stmt::local("l", Ty::class(name, vec![]), Expr::null()));
            assert!(
                matches!(r, Err(TranslateError::Unsupported { .. })),
                "{name}: {r:?}"
            );
        }
        assert!(body(Stmt::local(
            "l",
            Ty::class("kotlin.collections.ArrayDeque", vec![Ty::string()]),
            Expr::null()
        ))
        .is_ok());
    }

    #[test]
    fn expression_statements() {
        assert_eq!(body(Stmt::expr(Expr::int(1))).as_deref(), Ok(""));
        assert_eq!(
            body(Stmt::expr(Expr::static_field(
                "java.lang.Integer",
                "MAX_VALUE"
            )))
            .as_deref(),
            Ok("java.lang.Object __unused_0 = java.lang.Integer.MAX_VALUE;")
        );
        assert_eq!(
            body(Stmt::expr(Expr::new_instance(
                "java.lang.Object",
                Some(vec![]),
                vec![]
            )))
            .as_deref(),
            Ok("new java.lang.Object();")
        );
        assert_eq!(
            body(Stmt::expr(Expr::int(3).method("toString", vec![]))).as_deref(),
            Ok("(3).toString();")
        );
        // a lambda needs a target type: its own, not `Object`
        let mut lambda = Expr::lambda(Vec::new(), Expr::str(""));
        if let Expr::Lambda { target, .. } = &mut lambda {
            *target = Some(Ty::class("java.util.function.Supplier", vec![Ty::string()]));
        }
        assert_eq!(
            body(Stmt::expr(lambda)).as_deref(),
            Ok("java.util.function.Supplier<java.lang.String> __unused_0 = () -> \"\";")
        );
    }

    #[test]
    fn rejections() {
        let unsupported = |r: Result<String, TranslateError>| {
            matches!(
                r,
                Err(TranslateError::Unsupported {
                    language: Language::Java,
                    ..
                })
            )
        };
        assert_eq!(
            body(Stmt::local("v", Ty::VOID, Expr::null())),
            Err(TranslateError::VoidLocal { name: "v".into() })
        );
        assert!(unsupported(body(Stmt::expr(Expr::call(
            Receiver::None,
            "f",
            vec![],
            vec![]
        )))));
        assert!(unsupported(body(Stmt::local(
            "f",
            Ty::function(vec![], Ty::INT),
            Expr::null()
        ))));
        assert!(unsupported(body(Stmt::local(
            "w",
            Ty::WildcardStar,
            Expr::null()
        ))));
        assert!(unsupported(body(Stmt::local(
            "a",
            Ty::array(Ty::extends(Ty::object())),
            Expr::null()
        ))));
        assert!(unsupported(body(Stmt::expr(Expr::bottom(Ty::VOID)))));
        assert!(unsupported(body(Stmt::expr(Expr::cast(
            Ty::VOID,
            Expr::null()
        )))));
        assert!(unsupported(body(Stmt::local(
            "l",
            Ty::object(),
            Expr::lambda(
                vec![("a".into(), Some(Ty::INT)), ("b".into(), None)],
                Expr::null()
            )
        ))));
        assert!(unsupported(body(Stmt::expr(Expr::unit()))));
        assert!(unsupported(body(Stmt::local(
            "u",
            Ty::object(),
            Expr::unit()
        ))));
        assert!(unsupported(body(Stmt::expr(Expr::static_call(
            "java.util.Objects",
            "hash",
            vec![],
            vec![Expr::unit()]
        )))));
        // Only the lambda's body itself may be `Unit`, not an expression containing it.
        assert!(unsupported(body(Stmt::local(
            "c",
            Ty::object(),
            Expr::lambda(
                vec![("x".into(), None)],
                Expr::cond(Lit::Bool(true).into(), Expr::unit(), Expr::unit())
            )
        ))));
        assert_eq!(
            body(Stmt::local("default", Ty::INT, Expr::int(0))),
            Err(TranslateError::ReservedWord {
                language: Language::Java,
                name: "default".into()
            })
        );
        assert!(matches!(
            body(Stmt::expr(Expr::static_call(
                "java.lang.Object",
                "new",
                vec![],
                vec![]
            ))),
            Err(TranslateError::ReservedWord { .. })
        ));
        assert!(matches!(
            body(Stmt::expr(Expr::static_field("a.b-c.D", "x"))),
            Err(TranslateError::InvalidIdentifier { .. })
        ));
    }

    #[test]
    fn unit_lambda_bodies() {
        let consumer = Ty::class("java.util.function.Consumer", vec![Ty::string()]);
        assert_eq!(
            body(Stmt::local(
                "c",
                consumer.clone(),
                Expr::lambda(vec![("x".into(), None)], Expr::unit())
            ))
            .as_deref(),
            Ok("java.util.function.Consumer<java.lang.String> c = (x) -> {};")
        );
        assert_eq!(
            body(Stmt::local(
                "c",
                consumer,
                Expr::lambda(vec![("x".into(), Some(Ty::string()))], Expr::unit())
            ))
            .as_deref(),
            Ok("java.util.function.Consumer<java.lang.String> c = (java.lang.String x) -> {};")
        );
        assert_eq!(
            body(Stmt::local(
                "r",
                Ty::class("java.lang.Runnable", vec![]),
                Expr::lambda(vec![], Expr::unit())
            ))
            .as_deref(),
            Ok("java.lang.Runnable r = () -> {};")
        );
    }

    #[test]
    fn types() {
        let e = Emitter::new(&Program::new("t", vec![])).expect("no type parameters");
        let t = |ty: Ty| e.ty(&ty, TyPos::Value).expect("expressible");
        assert_eq!(
            t(Ty::class("java.util.List", vec![Ty::INT])),
            "java.util.List<java.lang.Integer>"
        );
        assert_eq!(t(Ty::nullable(Ty::CHAR)), "java.lang.Character");
        assert_eq!(t(Ty::array(Ty::array(Ty::BYTE))), "byte[][]");
        assert_eq!(t(Ty::Top), "java.lang.Object");
        assert_eq!(t(Ty::Bottom), "java.lang.Void");
        assert_eq!(
            t(Ty::class(
                "java.util.Map",
                vec![Ty::super_of(Ty::nullable(Ty::string())), Ty::WildcardStar]
            )),
            "java.util.Map<? super java.lang.String, ?>"
        );
    }

    #[test]
    fn non_ascii_identifiers_are_escaped() {
        let src = JavaTranslator
            .translate(&Program::new(
                "t",
                vec![Stmt::local("größe", Ty::INT, Expr::int(1))],
            ))
            .expect("translates");
        assert!(src.contains("int gr\\u00F6\\u00DFe = 1;"), "{src}");
        assert!(src.is_ascii());
    }
}
