//! The language-neutral client-program IR.
//!
//! A [`Program`] is a flat list of statements (local declarations and expression statements)
//! that becomes the body of one test function. Types and expressions are plain owned trees;
//! class names are always fully qualified, with nested classes separated by dots
//! (`java.util.Map.Entry`). Every type derives `serde` so that programs can be dumped as JSON
//! (enum tags are `snake_case`; non-finite float literals are written as the strings `"NaN"`,
//! `"Infinity"` and `"-Infinity"`).

use serde::{Deserialize, Serialize};

/// A primitive type (`Void` is only meaningful as a method's return type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrimTy {
    /// `boolean`
    Boolean,
    /// `byte`
    Byte,
    /// `char`
    Char,
    /// `short`
    Short,
    /// `int`
    Int,
    /// `long`
    Long,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `void`
    Void,
}

impl PrimTy {
    /// Every primitive type, in declaration order.
    pub const ALL: [PrimTy; 9] = [
        PrimTy::Boolean,
        PrimTy::Byte,
        PrimTy::Char,
        PrimTy::Short,
        PrimTy::Int,
        PrimTy::Long,
        PrimTy::Float,
        PrimTy::Double,
        PrimTy::Void,
    ];

    /// The Java keyword naming this primitive (`int`, `void`, ...).
    pub fn java_name(self) -> &'static str {
        match self {
            PrimTy::Boolean => "boolean",
            PrimTy::Byte => "byte",
            PrimTy::Char => "char",
            PrimTy::Short => "short",
            PrimTy::Int => "int",
            PrimTy::Long => "long",
            PrimTy::Float => "float",
            PrimTy::Double => "double",
            PrimTy::Void => "void",
        }
    }

    /// Fully-qualified name of the Java wrapper class (`java.lang.Integer`, `java.lang.Void`, ...).
    pub fn boxed_class(self) -> &'static str {
        match self {
            PrimTy::Boolean => "java.lang.Boolean",
            PrimTy::Byte => "java.lang.Byte",
            PrimTy::Char => "java.lang.Character",
            PrimTy::Short => "java.lang.Short",
            PrimTy::Int => "java.lang.Integer",
            PrimTy::Long => "java.lang.Long",
            PrimTy::Float => "java.lang.Float",
            PrimTy::Double => "java.lang.Double",
            PrimTy::Void => "java.lang.Void",
        }
    }
}

/// A type as written in a client program.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ty {
    /// A primitive type.
    Prim(PrimTy),
    /// Class type by fully-qualified name; nested classes use dots: `"java.util.Map.Entry"`.
    /// Empty `args` is a non-generic (or raw) class type.
    Class {
        /// Fully-qualified class name.
        name: String,
        /// Type arguments, in order.
        args: Vec<Ty>,
    },
    /// A type variable in scope (only inside generic contexts; rare in programs).
    Var(String),
    /// `? extends T` (Kotlin `out T`, Scala `_ <: T`); only valid as a type argument.
    WildcardExtends(Box<Ty>),
    /// `? super T` (Kotlin `in T`, Scala `_ >: T`); only valid as a type argument.
    WildcardSuper(Box<Ty>),
    /// `?` (Kotlin `*`, Scala `_`); only valid as a type argument.
    WildcardStar,
    /// Array of the element type.
    Array(Box<Ty>),
    /// Kotlin nullable type (Java/Groovy print the inner type, boxed if primitive).
    Nullable(Box<Ty>),
    /// Function type (Kotlin/Scala); `receiver` for Kotlin `R.(A) -> B`.
    Function {
        /// Kotlin extension receiver, if any.
        receiver: Option<Box<Ty>>,
        /// Parameter types.
        params: Vec<Ty>,
        /// Return type.
        ret: Box<Ty>,
    },
    /// The top type (`java.lang.Object`, `Any?`, `Any`).
    Top,
    /// The bottom type (`java.lang.Void` in Java, `Nothing` in Kotlin/Scala).
    Bottom,
}

impl Ty {
    /// `boolean`.
    pub const BOOLEAN: Ty = Ty::Prim(PrimTy::Boolean);
    /// `byte`.
    pub const BYTE: Ty = Ty::Prim(PrimTy::Byte);
    /// `char`.
    pub const CHAR: Ty = Ty::Prim(PrimTy::Char);
    /// `short`.
    pub const SHORT: Ty = Ty::Prim(PrimTy::Short);
    /// `int`.
    pub const INT: Ty = Ty::Prim(PrimTy::Int);
    /// `long`.
    pub const LONG: Ty = Ty::Prim(PrimTy::Long);
    /// `float`.
    pub const FLOAT: Ty = Ty::Prim(PrimTy::Float);
    /// `double`.
    pub const DOUBLE: Ty = Ty::Prim(PrimTy::Double);
    /// `void`.
    pub const VOID: Ty = Ty::Prim(PrimTy::Void);

    /// A class type `name<args>`.
    pub fn class(name: impl Into<String>, args: Vec<Ty>) -> Ty {
        Ty::Class {
            name: name.into(),
            args,
        }
    }

    /// `java.lang.String`.
    pub fn string() -> Ty {
        Ty::class("java.lang.String", vec![])
    }

    /// `java.lang.Object` as a class type (unlike [`Ty::Top`], which is the language's top).
    pub fn object() -> Ty {
        Ty::class("java.lang.Object", vec![])
    }

    /// A type variable.
    pub fn var(name: impl Into<String>) -> Ty {
        Ty::Var(name.into())
    }

    /// An array of `elem`.
    pub fn array(elem: Ty) -> Ty {
        Ty::Array(Box::new(elem))
    }

    /// `? extends bound`.
    pub fn extends(bound: Ty) -> Ty {
        Ty::WildcardExtends(Box::new(bound))
    }

    /// `? super bound`.
    pub fn super_of(bound: Ty) -> Ty {
        Ty::WildcardSuper(Box::new(bound))
    }

    /// Nullable `inner` (Kotlin `T?`).
    pub fn nullable(inner: Ty) -> Ty {
        Ty::Nullable(Box::new(inner))
    }

    /// A function type `(params) -> ret` without receiver.
    pub fn function(params: Vec<Ty>, ret: Ty) -> Ty {
        Ty::Function {
            receiver: None,
            params,
            ret: Box::new(ret),
        }
    }

    /// Whether this is one of the three wildcard forms.
    pub fn is_wildcard(&self) -> bool {
        matches!(
            self,
            Ty::WildcardExtends(_) | Ty::WildcardSuper(_) | Ty::WildcardStar
        )
    }

    /// Calls `f` on this type and then on every type nested in it (pre-order).
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Ty)) {
        f(self);
        match self {
            Ty::Prim(_) | Ty::Var(_) | Ty::WildcardStar | Ty::Top | Ty::Bottom => {}
            Ty::Class { args, .. } => args.iter().for_each(|a| a.walk(f)),
            Ty::WildcardExtends(t) | Ty::WildcardSuper(t) | Ty::Array(t) | Ty::Nullable(t) => {
                t.walk(f)
            }
            Ty::Function {
                receiver,
                params,
                ret,
            } => {
                if let Some(r) = receiver {
                    r.walk(f);
                }
                params.iter().for_each(|p| p.walk(f));
                ret.walk(f);
            }
        }
    }
}

impl From<PrimTy> for Ty {
    fn from(p: PrimTy) -> Ty {
        Ty::Prim(p)
    }
}

/// A literal constant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lit {
    /// `true` / `false`.
    Bool(bool),
    /// An `int` literal.
    Int(i32),
    /// A `long` literal.
    Long(i64),
    /// A `float` literal (may be NaN or infinite).
    Float(#[serde(with = "float_serde::single")] f32),
    /// A `double` literal (may be NaN or infinite).
    Double(#[serde(with = "float_serde::double")] f64),
    /// A `char` literal (a UTF-16 code unit in the JVM; supplementary characters are rejected).
    Char(char),
    /// A `byte` constant.
    Byte(i8),
    /// A `short` constant.
    Short(i16),
    /// A string literal.
    Str(String),
    /// `null`.
    Null,
}

/// What a call or field access is applied to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Receiver {
    /// No receiver: a top-level function (Kotlin/Scala), unsupported in Java.
    None,
    /// A static member of the class with this fully-qualified name.
    Static(String),
    /// An instance member of the value of this expression.
    Expr(Box<Expr>),
}

impl Receiver {
    /// A static receiver: the class with fully-qualified name `class`.
    pub fn class(class: impl Into<String>) -> Receiver {
        Receiver::Static(class.into())
    }

    /// An expression receiver.
    pub fn expr(e: Expr) -> Receiver {
        Receiver::Expr(Box::new(e))
    }
}

/// The first entry of an [`Expr::Call`]'s `declared_in` for a member that the target
/// language's own API declares (no Java spelling applies to it).
pub const NATIVE_MEMBER: &str = "<native>";

/// The prefix of the entry of an [`Expr::Call`]'s `declared_in` that names, for a Kotlin
/// package function, the static method Java calls (`<jvm>kotlin.text.StringsKt.trim`: its
/// facade class and JVM name); Java-family translators call that, with an extension's
/// receiver as the first argument.
pub const JVM_METHOD: &str = "<jvm>";

/// How a Scala call's arguments split into parameter lists: the sizes of its explicit lists
/// in order, then the implicit (`using`) arguments, which are the last `implicit` arguments.
/// `explicit: []` is a call without parentheses (`empty[A]`, `empty[A](using ord)`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ArgLists {
    /// The number of arguments of each explicit list, in order.
    pub explicit: Vec<usize>,
    /// The number of implicit arguments, written as one last list.
    pub implicit: usize,
    /// The number of implicit arguments left out for the compiler's implicit search to
    /// supply (not among the call's arguments; `implicit` is then 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub searched: usize,
}

/// True for 0 (serde's test for leaving a count out).
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl ArgLists {
    /// The total number of arguments.
    pub fn len(&self) -> usize {
        self.explicit.iter().sum::<usize>() + self.implicit
    }

    /// True when the call takes no argument at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of explicit arguments of the first list (all of them when the call has
    /// no explicit list: none).
    pub fn first(&self) -> usize {
        self.explicit.first().copied().unwrap_or(0)
    }
}

/// An expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expr {
    /// A literal.
    Lit(Lit),
    /// Typed bottom constant, an expression of exactly type `T`: `((T) null)` in Java and
    /// Groovy, `(null as T)` in Kotlin, `null.asInstanceOf[T]` in Scala; the default value
    /// (`0`, `false`, ...) for primitive `T` in Java, Groovy and Kotlin.
    Bottom(Ty),
    /// A reference to a local variable or lambda parameter.
    Local(String),
    /// Constructor call; `type_args: None` = diamond/inferred (`new C<>(..)`),
    /// `Some(vec![])` = no type arguments (`new C(..)`), `Some(v)` = explicit (`new C<A>(..)`).
    New {
        /// Fully-qualified class name.
        class: String,
        /// Class type arguments (see above).
        type_args: Option<Vec<Ty>>,
        /// Constructor arguments (varargs are just more arguments).
        args: Vec<Expr>,
        /// The enclosing instance of an inner (non-static member) class: `outer.new Inner()`
        /// in Java and Groovy, `outer.Inner()` in Kotlin, `new outer.Inner()` in Scala.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outer: Option<Box<Expr>>,
    },
    /// Method call; `type_args` empty = no explicit type arguments (erased / not generic).
    Call {
        /// What the method is called on.
        receiver: Receiver,
        /// Method name.
        name: String,
        /// Explicit type arguments of the method.
        type_args: Vec<Ty>,
        /// Arguments (varargs are just more arguments).
        args: Vec<Expr>,
        /// The classes that may declare the called method, nearest first: the class whose
        /// declaration is called, then its supertypes that declare a method of the same name
        /// and arity (which it overrides) or whose members are unknown; empty when unknown.
        /// Translators use it to spell members the way the target language shows them
        /// (Kotlin's `Number.toDouble()` for `doubleValue()` of any `Number` subclass).
        /// A member of the target language's own API (a Kotlin class's, an extension or
        /// top-level function) has [`NATIVE_MEMBER`] first, then its class or package: it is
        /// spelled as declared; a package function Java can call has, third, its static
        /// method ([`JVM_METHOD`]).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        declared_in: Vec<String>,
        /// How the call is spelled (operator, infix, named arguments) where the language
        /// has the form.
        #[serde(default, skip_serializing_if = "CallForm::is_usual")]
        form: CallForm,
        /// How `args` split into Scala parameter lists, when not into one explicit list
        /// (`f(a, b)(c)`, `f(a)(using ev)`, `empty[A]`); `None` for every other call.
        /// Languages without parameter lists pass `args` as one list (the JVM signature).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lists: Option<ArgLists>,
    },
    /// Field read.
    Field {
        /// Whose field it is.
        receiver: Receiver,
        /// Field name.
        name: String,
    },
    /// The unit value, i.e. no value: the body of a lambda for a `void` functional interface
    /// (`{}` as a Java lambda body, `Unit` in Kotlin, `()` in Scala). Java accepts it only as
    /// a lambda's body.
    Unit,
    /// Lambda with typed or untyped params; `body` is an expression ([`Expr::Unit`] for a
    /// lambda that returns nothing).
    Lambda {
        /// Parameter names, each with an optional declared type.
        params: Vec<(String, Option<Ty>)>,
        /// The body expression.
        body: Box<Expr>,
        /// The functional interface the lambda implements, as in its function type (JLS 9.9:
        /// wildcards replaced by their bounds), when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Ty>,
        /// True when the lambda's position is declared with a functional interface type (an
        /// argument for a parameter declared `Function<? super T, R>`), where every language
        /// converts a bare lambda; false for locals, array elements, lambda bodies and
        /// arguments for parameters declared with a type variable (`T` instantiated with a
        /// functional interface), where Kotlin needs `target` written out.
        #[serde(default)]
        implicit: bool,
        /// Statements run before `body` (local declarations): a block body
        /// `{ stmts; return body; }`. Empty for an expression body.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        block: Vec<Stmt>,
        /// How the function is spelled where a language has more than one form.
        #[serde(default, skip_serializing_if = "LambdaForm::is_usual")]
        form: LambdaForm,
        /// The function's result type (the single abstract method's, substituted), when
        /// known: Kotlin's anonymous functions and typed Scala lambdas may write it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ret: Option<Ty>,
    },
    /// A function reference (method or constructor reference) converted to a functional
    /// interface: `C::m`, `e::m`, `C::new`, `T[]::new` in Java; callable references in
    /// Kotlin; eta-expansion or placeholder functions in Scala; `::` or `.&` in Groovy.
    Ref {
        /// What the reference names.
        kind: RefKind,
        /// The parameter types of the function the reference implements (the single
        /// abstract method's, substituted), in order: Scala's placeholder forms and Kotlin's
        /// adaptations need them.
        fn_params: Vec<Ty>,
        /// The result type of that function (`void` for none).
        fn_ret: Ty,
        /// The functional interface the reference implements (as for [`Expr::Lambda`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Ty>,
        /// True when the position is declared with a functional interface type (as for
        /// [`Expr::Lambda`]); false where a language needs `target` written out.
        #[serde(default)]
        implicit: bool,
        /// The classes that may declare the referenced method, nearest first (as for
        /// [`Expr::Call`]).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        declared_in: Vec<String>,
        /// Groovy's method pointer `recv.&m` instead of `recv::m` (ignored by the other
        /// languages).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        method_pointer: bool,
    },
    /// Array creation with the given elements (`new T[] {..}`, `arrayOf<T>(..)`, `Array[T](..)`).
    NewArray {
        /// Element type.
        elem: Ty,
        /// The elements.
        elems: Vec<Expr>,
    },
    /// An array passed as the whole variable-arity argument of a varargs method: `a` in Java
    /// and Groovy, `*a` in Kotlin, `a*` in Scala 3, `a: _*` in Scala 2. Only valid as the last
    /// argument of a call or constructor call.
    Spread(Box<Expr>),
    /// Type cast.
    Cast {
        /// Target type.
        ty: Ty,
        /// Casted expression.
        expr: Box<Expr>,
        /// Groovy's `as` coercion (`expr as T`) instead of a cast where synthesis found it
        /// means the same (an upcast, a closure or lambda to its functional interface);
        /// the other languages write their cast.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        coerce: bool,
    },
    /// Conditional expression `cond ? then : els`.
    Cond {
        /// The condition.
        cond: Box<Expr>,
        /// Value if true.
        then: Box<Expr>,
        /// Value if false.
        els: Box<Expr>,
    },
    /// An anonymous class implementing an interface or extending an abstract class, and
    /// declaring its abstract methods: `new I<A>() { public R m(P p) { return e; } }` in Java
    /// and Groovy, the object expression `object : I<A> { override fun m(p: P): R = e }` in
    /// Kotlin, `new I[A] { def m(p: P): R = e }` in Scala; a class's constructor arguments
    /// follow its type (`new C<A>(x) { .. }`, `object : C<A>(x) { .. }`). Its type is `ty`
    /// itself (no conversion, unlike a lambda's).
    Anonymous {
        /// The interface it implements or the class it extends: a class type, its type
        /// arguments without wildcards.
        ty: Ty,
        /// The arguments of the superclass constructor when `ty` is a class; `None` for an
        /// interface.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        super_args: Option<Vec<Expr>>,
        /// The methods it declares: every abstract method of `ty`, with `ty`'s type
        /// arguments substituted.
        methods: Vec<Method>,
    },
}

/// A method an anonymous class ([`Expr::Anonymous`]) declares, implementing its
/// interface's abstract method of the same name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Method {
    /// The method's name.
    pub name: String,
    /// Its parameters: names and declared types.
    pub params: Vec<(String, Ty)>,
    /// Its result type (`void` for none).
    pub ret: Ty,
    /// The returned expression ([`Expr::Unit`]: an empty body, for a `void` method).
    pub body: Expr,
    /// How Kotlin names the member this method overrides where it differs from Java's (the
    /// members of Kotlin's mapped types: `Collection.size()` is the property `size`,
    /// `CharSequence.charAt` is `get`); `None`: as Java names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kotlin: Option<KotlinMember>,
}

/// A member of one of Kotlin's mapped types as Kotlin shows it ([`Method::kotlin`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KotlinMember {
    /// Kotlin's name of the member.
    pub name: String,
    /// True for a property (`override val size: Int get() = ..`), false for a function.
    pub property: bool,
}

/// What a function reference ([`Expr::Ref`]) names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefKind {
    /// A static method: `C::m` (Java, Groovy, Kotlin), `C.m` eta-expanded (Scala).
    Static {
        /// Fully-qualified class name.
        class: String,
        /// Method name.
        name: String,
    },
    /// An instance method bound to a receiver value: `e::m` (Groovy also `e.&m`).
    Bound {
        /// The receiver, evaluated once.
        receiver: Box<Expr>,
        /// Method name.
        name: String,
    },
    /// An instance method whose receiver is the function's first parameter: `C::m`,
    /// `List<String>::size` in Kotlin, `_.m(_)` in Scala.
    Unbound {
        /// The receiver's type (a class type, with type arguments when it is generic).
        ty: Ty,
        /// Method name.
        name: String,
    },
    /// A constructor: `C::new`, `C<A>::new`, Kotlin `::C`, Scala `new C(_)`.
    Constructor {
        /// Fully-qualified class name.
        class: String,
        /// Class type arguments: `None` = inferred (`C::new`), `Some(v)` = explicit
        /// (`C<A>::new`); `Some(vec![])` = a non-generic class.
        type_args: Option<Vec<Ty>>,
    },
    /// An array constructor `T[]::new` (a function from `int` to `T[]`).
    ArrayConstructor {
        /// Element type.
        elem: Ty,
    },
    /// A Kotlin top-level or extension function, named through an import alias
    /// (`import kotlin.text.trim as trim_`): `::trim_`, `String::trim_`, `e::trim_`.
    PackageFunction {
        /// The package that declares it.
        package: String,
        /// Function name.
        name: String,
        /// Its receiver: none (a top-level function), a type or a value (an extension).
        on: RefOn,
    },
}

/// The receiver of a [`RefKind::PackageFunction`] reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefOn {
    /// None: a top-level function (`::maxOf_`).
    Nothing,
    /// An unbound extension reference: the receiver is the function's first parameter
    /// (`String::trim_`).
    Type(Ty),
    /// A bound extension reference: the receiver, evaluated once (`(e)::trim_`).
    Value(Box<Expr>),
}

/// How a function literal ([`Expr::Lambda`]) is spelled where a language has several forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LambdaForm {
    /// The language's usual lambda: Java `x -> e`, Groovy closure `{ x -> e }`, Kotlin
    /// `{ x -> e }`, Scala `x => e`.
    #[default]
    Usual,
    /// Groovy 3+'s Java-style lambda `(x) -> e` (the usual form elsewhere).
    Arrow,
    /// Kotlin's anonymous function `fun(x: A): R { return e }` (the usual form elsewhere).
    AnonymousFunction,
}

impl LambdaForm {
    /// True for [`LambdaForm::Usual`] (the serialized default).
    pub fn is_usual(&self) -> bool {
        *self == LambdaForm::Usual
    }
}

/// How a method call ([`Expr::Call`]) is spelled where a language has several forms.
/// Languages without the form write the usual call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallForm {
    /// `recv.name(args)`.
    #[default]
    Usual,
    /// Kotlin's operator syntax for an `operator` member, chosen by its name and arity:
    /// `a + b`, `a ..< b`, `b in a`, `a[i, j]`, `a[i] = v` (a statement), `-a`, `!a`,
    /// `a(x)`, `a < b` (`compareTo`, value discarded), `a += b` (`plusAssign`, a statement).
    Operator,
    /// Kotlin's infix call `a name b` of an `infix` member.
    Infix,
    /// Kotlin's named arguments: one name per argument, `None` for a positional one (only
    /// before the named ones): `f(a, limit = 3)`, where a parameter with a default value
    /// was left out.
    Named(Vec<Option<String>>),
}

impl CallForm {
    /// True for [`CallForm::Usual`] (the serialized default).
    pub fn is_usual(&self) -> bool {
        *self == CallForm::Usual
    }
}

/// A type parameter of the generic test function: `<T extends A & B>`, `<T : A>`,
/// `[T <: A]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TypeParam {
    /// Its name (used as [`Ty::Var`] in the program).
    pub name: String,
    /// Its upper bounds (none = the top type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bounds: Vec<Ty>,
}

impl Expr {
    /// A literal expression.
    pub fn lit(l: Lit) -> Expr {
        Expr::Lit(l)
    }

    /// A string literal.
    pub fn str(s: impl Into<String>) -> Expr {
        Expr::Lit(Lit::Str(s.into()))
    }

    /// An `int` literal.
    pub fn int(i: i32) -> Expr {
        Expr::Lit(Lit::Int(i))
    }

    /// The `null` literal.
    pub fn null() -> Expr {
        Expr::Lit(Lit::Null)
    }

    /// The unit value ([`Expr::Unit`]).
    pub fn unit() -> Expr {
        Expr::Unit
    }

    /// A typed bottom constant of type `ty`.
    pub fn bottom(ty: Ty) -> Expr {
        Expr::Bottom(ty)
    }

    /// A reference to local `name`.
    pub fn local(name: impl Into<String>) -> Expr {
        Expr::Local(name.into())
    }

    /// A constructor call (`type_args` as documented on [`Expr::New`]).
    pub fn new_instance(
        class: impl Into<String>,
        type_args: Option<Vec<Ty>>,
        args: Vec<Expr>,
    ) -> Expr {
        Expr::New {
            class: class.into(),
            type_args,
            args,
            outer: None,
        }
    }

    /// A method call.
    pub fn call(
        receiver: Receiver,
        name: impl Into<String>,
        type_args: Vec<Ty>,
        args: Vec<Expr>,
    ) -> Expr {
        Expr::Call {
            receiver,
            name: name.into(),
            type_args,
            args,
            declared_in: Vec::new(),
            form: CallForm::Usual,
            lists: None,
        }
    }

    /// A static method call `class.<type_args>name(args)`.
    pub fn static_call(
        class: impl Into<String>,
        name: impl Into<String>,
        type_args: Vec<Ty>,
        args: Vec<Expr>,
    ) -> Expr {
        Expr::call(Receiver::class(class), name, type_args, args)
    }

    /// An instance method call `self.name(args)` without explicit type arguments.
    pub fn method(self, name: impl Into<String>, args: Vec<Expr>) -> Expr {
        Expr::call(Receiver::expr(self), name, vec![], args)
    }

    /// A field read.
    pub fn field(receiver: Receiver, name: impl Into<String>) -> Expr {
        Expr::Field {
            receiver,
            name: name.into(),
        }
    }

    /// A static field read `class.name`.
    pub fn static_field(class: impl Into<String>, name: impl Into<String>) -> Expr {
        Expr::field(Receiver::class(class), name)
    }

    /// A lambda of unknown target type, in a position declared with a functional interface
    /// type (see [`Expr::Lambda`]).
    pub fn lambda(params: Vec<(String, Option<Ty>)>, body: Expr) -> Expr {
        Expr::Lambda {
            params,
            body: Box::new(body),
            target: None,
            implicit: true,
            block: Vec::new(),
            form: LambdaForm::Usual,
            ret: None,
        }
    }

    /// An array creation.
    pub fn new_array(elem: Ty, elems: Vec<Expr>) -> Expr {
        Expr::NewArray { elem, elems }
    }

    /// A cast of `expr` to `ty`.
    pub fn cast(ty: Ty, expr: Expr) -> Expr {
        Expr::Cast {
            ty,
            expr: Box::new(expr),
            coerce: false,
        }
    }

    /// Groovy's `expr as ty` (a cast in the other languages).
    pub fn coerce(ty: Ty, expr: Expr) -> Expr {
        Expr::Cast {
            ty,
            expr: Box::new(expr),
            coerce: true,
        }
    }

    /// A conditional expression.
    pub fn cond(cond: Expr, then: Expr, els: Expr) -> Expr {
        Expr::Cond {
            cond: Box::new(cond),
            then: Box::new(then),
            els: Box::new(els),
        }
    }

    /// Calls `f` on this expression and then on every expression nested in it (pre-order).
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match self {
            Expr::Lit(_) | Expr::Bottom(_) | Expr::Local(_) | Expr::Unit => {}
            Expr::New { args, outer, .. } => {
                if let Some(o) = outer {
                    o.walk(f);
                }
                args.iter().for_each(|a| a.walk(f));
            }
            Expr::Call { receiver, args, .. } => {
                if let Receiver::Expr(r) = receiver {
                    r.walk(f);
                }
                args.iter().for_each(|a| a.walk(f));
            }
            Expr::Field { receiver, .. } => {
                if let Receiver::Expr(r) = receiver {
                    r.walk(f);
                }
            }
            Expr::Lambda { body, block, .. } => {
                block.iter().for_each(|s| s.walk(f));
                body.walk(f);
            }
            Expr::Ref { kind, .. } => match kind {
                RefKind::Bound { receiver, .. }
                | RefKind::PackageFunction {
                    on: RefOn::Value(receiver),
                    ..
                } => receiver.walk(f),
                _ => {}
            },
            Expr::NewArray { elems, .. } => elems.iter().for_each(|e| e.walk(f)),
            Expr::Cast { expr, .. } | Expr::Spread(expr) => expr.walk(f),
            Expr::Cond { cond, then, els } => {
                cond.walk(f);
                then.walk(f);
                els.walk(f);
            }
            Expr::Anonymous {
                super_args,
                methods,
                ..
            } => {
                super_args.iter().flatten().for_each(|a| a.walk(f));
                methods.iter().for_each(|m| m.body.walk(f));
            }
        }
    }

    /// Calls `f` on every type written directly in this expression or in nested ones.
    pub fn walk_types<'a>(&'a self, f: &mut impl FnMut(&'a Ty)) {
        self.walk(&mut |e| match e {
            Expr::Bottom(t) | Expr::Cast { ty: t, .. } | Expr::NewArray { elem: t, .. } => {
                t.walk(f)
            }
            Expr::New {
                type_args: Some(ts),
                ..
            }
            | Expr::Call { type_args: ts, .. } => ts.iter().for_each(|t| t.walk(f)),
            Expr::Lambda {
                params,
                target,
                block,
                ret,
                ..
            } => {
                params
                    .iter()
                    .filter_map(|(_, t)| t.as_ref())
                    .chain(target)
                    .chain(ret)
                    .for_each(|t| t.walk(f));
                // the block's expressions are walked by `walk`; its declared types here
                for s in block {
                    if let Stmt::Local { ty, .. } = s {
                        ty.walk(f);
                    }
                }
            }
            Expr::Ref {
                kind,
                fn_params,
                fn_ret,
                target,
                ..
            } => {
                match kind {
                    RefKind::Unbound { ty, .. }
                    | RefKind::ArrayConstructor { elem: ty }
                    | RefKind::PackageFunction {
                        on: RefOn::Type(ty),
                        ..
                    } => ty.walk(f),
                    RefKind::Constructor {
                        type_args: Some(ts),
                        ..
                    } => ts.iter().for_each(|t| t.walk(f)),
                    _ => {}
                }
                fn_params
                    .iter()
                    .chain(std::iter::once(fn_ret))
                    .chain(target)
                    .for_each(|t| t.walk(f));
            }
            Expr::Anonymous { ty, methods, .. } => {
                ty.walk(f);
                for m in methods {
                    m.params.iter().for_each(|(_, t)| t.walk(f));
                    m.ret.walk(f);
                }
            }
            _ => {}
        });
    }
}

impl From<Lit> for Expr {
    fn from(l: Lit) -> Expr {
        Expr::Lit(l)
    }
}

/// A statement of the test function's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stmt {
    /// Local variable declaration `T name = init;`.
    Local {
        /// Variable name.
        name: String,
        /// Declared type: the type synthesis meant, written unless `inferred`.
        ty: Ty,
        /// Initializer.
        init: Expr,
        /// Declared without a type (`var x =` in Java, `def x =` in Groovy, `val x =` in
        /// Kotlin and Scala): the compiler infers it from the initializer.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        inferred: bool,
    },
    /// Expression evaluated for its effect (or its type check).
    Expr(Expr),
}

impl Stmt {
    /// A local variable declaration.
    pub fn local(name: impl Into<String>, ty: Ty, init: Expr) -> Stmt {
        Stmt::Local {
            name: name.into(),
            ty,
            init,
            inferred: false,
        }
    }

    /// A local variable declared without a type (`var`, `def`, `val`), meant to have `ty`.
    pub fn inferred_local(name: impl Into<String>, ty: Ty, init: Expr) -> Stmt {
        Stmt::Local {
            name: name.into(),
            ty,
            init,
            inferred: true,
        }
    }

    /// Calls `f` on the statement's expression and every expression nested in it.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        self.expr_ref().walk(f);
    }

    /// An expression statement.
    pub fn expr(e: Expr) -> Stmt {
        Stmt::Expr(e)
    }

    /// The statement's top-level expression.
    pub fn expr_ref(&self) -> &Expr {
        match self {
            Stmt::Local { init, .. } => init,
            Stmt::Expr(e) => e,
        }
    }
}

/// A type alias a program declares for an API class (Kotlin's top-level `typealias`, a
/// `type` member of Scala's test object): `name<T0, .., Tn-1> = class<T0, .., Tn-1>` for a
/// class of `arity` type parameters. Every local the program declares with the class's type
/// (`class<A1, .., An>`, possibly nullable), its `arity` type arguments written and none a
/// wildcard, is declared through the alias (`name<A1, .., An>`); Java and Groovy have no
/// aliases and write the class.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TypeAlias {
    /// The alias's name.
    pub name: String,
    /// The fully-qualified name of the class it stands for.
    pub class: String,
    /// The number of its type parameters (the class's).
    pub arity: usize,
}

impl TypeAlias {
    /// The alias's own type arguments for `t`, when a local declared with `t` is written
    /// through it (see [`TypeAlias`]).
    pub fn args_for<'t>(&self, t: &'t Ty) -> Option<&'t [Ty]> {
        match t {
            Ty::Class { name, args }
                if *name == self.class
                    && args.len() == self.arity
                    && !args.iter().any(Ty::is_wildcard) =>
            {
                Some(args)
            }
            _ => None,
        }
    }

    /// The names of the alias's type parameters: `T0`, `T1`, ...
    pub fn expansion_params(&self) -> Vec<String> {
        (0..self.arity).map(|i| format!("T{i}")).collect()
    }

    /// The type the alias stands for, of its parameters ([`TypeAlias::expansion_params`]).
    pub fn expansion(&self) -> Ty {
        Ty::class(
            self.class.clone(),
            self.expansion_params().into_iter().map(Ty::var).collect(),
        )
    }
}

/// One client program: the body of a single test function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Program {
    /// Stable id, e.g. `"p000042"`; used to build the package/class names.
    pub id: String,
    /// The test function's statements, in order.
    pub stmts: Vec<Stmt>,
    /// The inner (non-static member) classes among the classes the program names, for the
    /// languages that write them differently from static nested ones (Scala's `Outer#Inner`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inner_classes: Vec<String>,
    /// Type parameters of the test function (a generic test method `static <T extends B>
    /// void test()`), which the statements name as [`Ty::Var`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub type_params: Vec<TypeParam>,
    /// Fully-qualified names the program imports (`kotlinx.coroutines.flow.map`): Kotlin's
    /// extension members outside the packages every Kotlin file imports, which no qualified
    /// name can reach. Sorted, without duplicates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<String>,
    /// Opt-in markers the program opts in to (Kotlin's `@file:OptIn(M::class)`): those of
    /// the API, whose members and classes need them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opt_ins: Vec<String>,
    /// Whether the program uses Scala 3 `@experimental` classes or members: its object is an
    /// experimental scope (`@scala.annotation.experimental`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub experimental: bool,
    /// The type aliases the program declares ([`TypeAlias`]; Kotlin and Scala write them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<TypeAlias>,
}

impl Program {
    /// A program with the given id and statements.
    pub fn new(id: impl Into<String>, stmts: Vec<Stmt>) -> Program {
        Program {
            id: id.into(),
            stmts,
            inner_classes: Vec::new(),
            type_params: Vec::new(),
            imports: Vec::new(),
            opt_ins: Vec::new(),
            experimental: false,
            aliases: Vec::new(),
        }
    }

    /// Calls `f` on every expression of the program (pre-order, statement by statement).
    pub fn walk_exprs<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        self.stmts.iter().for_each(|s| s.expr_ref().walk(f));
    }

    /// Calls `f` on every type written anywhere in the program.
    pub fn walk_types<'a>(&'a self, f: &mut impl FnMut(&'a Ty)) {
        for p in &self.type_params {
            p.bounds.iter().for_each(|b| b.walk(f));
        }
        for s in &self.stmts {
            if let Stmt::Local { ty, .. } = s {
                ty.walk(f);
            }
            s.expr_ref().walk_types(f);
        }
    }
}

/// Serde for float literals that keeps NaN and the infinities (JSON numbers cannot hold them).
mod float_serde {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    const NAN: &str = "NaN";
    const INF: &str = "Infinity";
    const NEG_INF: &str = "-Infinity";

    fn non_finite_name(v: f64) -> &'static str {
        if v.is_nan() {
            NAN
        } else if v > 0.0 {
            INF
        } else {
            NEG_INF
        }
    }

    struct F64Visitor;

    impl Visitor<'_> for F64Visitor {
        type Value = f64;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a number or one of \"NaN\", \"Infinity\", \"-Infinity\"")
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
            Ok(v)
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
            Ok(v as f64)
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
            Ok(v as f64)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
            match v {
                NAN => Ok(f64::NAN),
                INF => Ok(f64::INFINITY),
                NEG_INF => Ok(f64::NEG_INFINITY),
                _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
            }
        }
    }

    pub(super) mod double {
        use super::*;

        pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
            if v.is_finite() {
                s.serialize_f64(*v)
            } else {
                s.serialize_str(non_finite_name(*v))
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
            d.deserialize_any(F64Visitor)
        }
    }

    pub(super) mod single {
        use super::*;

        pub fn serialize<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
            if v.is_finite() {
                s.serialize_f32(*v)
            } else {
                s.serialize_str(non_finite_name(f64::from(*v)))
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
            // Narrowing is exact for values written by `serialize` (they came from an f32).
            d.deserialize_any(F64Visitor).map(|v| v as f32)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_keeps_non_finite_floats() {
        let p = Program::new(
            "p1",
            vec![
                Stmt::local("a", Ty::FLOAT, Lit::Float(f32::NAN).into()),
                Stmt::local("b", Ty::DOUBLE, Lit::Double(f64::NEG_INFINITY).into()),
                Stmt::local("c", Ty::FLOAT, Lit::Float(1.1).into()),
                Stmt::local("d", Ty::DOUBLE, Lit::Double(0.1).into()),
            ],
        );
        let json = serde_json::to_string(&p).expect("serializes");
        assert!(
            json.contains("\"NaN\"") && json.contains("\"-Infinity\""),
            "{json}"
        );
        let back: Program = serde_json::from_str(&json).expect("deserializes");
        let lits: Vec<&Lit> = back
            .stmts
            .iter()
            .filter_map(|s| match s.expr_ref() {
                Expr::Lit(l) => Some(l),
                _ => None,
            })
            .collect();
        assert!(matches!(lits[0], Lit::Float(f) if f.is_nan()));
        assert_eq!(lits[1], &Lit::Double(f64::NEG_INFINITY));
        assert_eq!(lits[2], &Lit::Float(1.1));
        assert_eq!(lits[3], &Lit::Double(0.1));
    }

    #[test]
    fn json_shape_is_snake_case() {
        let e = Expr::static_call(
            "java.util.Collections",
            "emptyList",
            vec![Ty::string()],
            vec![],
        );
        let json = serde_json::to_value(&e).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({"call": {
                "receiver": {"static": "java.util.Collections"},
                "name": "emptyList",
                "type_args": [{"class": {"name": "java.lang.String", "args": []}}],
                "args": []
            }})
        );
        assert_eq!(
            serde_json::to_value(Ty::INT).expect("serializes"),
            serde_json::json!({"prim": "int"})
        );
    }

    #[test]
    fn walk_types_sees_nested_types() {
        let e = Expr::lambda(
            vec![("x".into(), Some(Ty::var("T")))],
            Expr::cast(Ty::array(Ty::INT), Expr::bottom(Ty::Top)),
        );
        let mut seen = vec![];
        e.walk_types(&mut |t| seen.push(t.clone()));
        assert_eq!(
            seen,
            vec![Ty::var("T"), Ty::array(Ty::INT), Ty::INT, Ty::Top]
        );
    }
}
