//! What Java and Groovy write alike: Java's reserved words, Java's type syntax (fully
//! qualified, wildcards, boxed primitive type arguments), the generic test method's type
//! parameters, and the expression forms Groovy spells as Java does (`new C<>(..)`,
//! `outer.new Inner(..)`, `recv.<A>m(..)`, `new T[] {..}`, casts, `?:`, bottom constants,
//! `C::m` function references, block bodies `{ T x = ..; return e; }`). A language of the
//! family implements [`JavaFamily`]'s hooks for what differs.

use super::literal::LiteralSyntax;
use super::{bracketed, comma_separated, CodeWriter, Dialect, TyPos};
use crate::ir::{Expr, Lit, Method, PrimTy, Receiver, RefKind, Stmt, Ty, TypeParam};
use crate::TranslateError;

/// Java's reserved keywords, the literals `true`/`false`/`null`, and `_` (none can name a
/// variable or member). Contextual keywords (`var`, `record`, `yield`, ...) are allowed.
pub(crate) const JAVA_RESERVED: &[&str] = &[
    "_",
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "false",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "true",
    "try",
    "void",
    "volatile",
    "while",
];

/// A language that writes types and most expressions in Java's syntax. The provided methods
/// are the shared forms; the required ones and the constants are what differs.
pub(crate) trait JavaFamily: Dialect {
    /// How the language writes literals.
    const LITERALS: LiteralSyntax;

    /// Whether `new T[] {..}` may be written for a type variable `T` (Groovy erases it; in
    /// Java `T` is not reifiable, and such an array creation is an error).
    const TYPE_VARIABLE_ARRAYS: bool;

    /// The advice at the end of the error for a member access without receiver.
    const NO_RECEIVER_HINT: &'static str;

    /// Whether type arguments may be written before `::` (`java.util.List<T>::size`,
    /// `C<A>::new`, `List<String>[]::new`): Java's grammar has them, Groovy's does not.
    const REFERENCE_TYPE_ARGS: bool;

    /// A fresh variable name for an expression statement's value (`__unused_N`), unique in
    /// the whole program, lambda blocks included.
    fn fresh_unused(&self) -> String;

    /// A local declared without a type, `var x = init;` (Java) or `def x = init;` (Groovy).
    fn inferred_local(&self, name: &str, init: &Expr) -> Result<String, TranslateError>;

    /// How the inner class `class` (fully qualified) is named after `outer.new`: Java the
    /// simple name, Groovy the qualified one.
    fn inner_class_name(&self, class: &str) -> Result<String, TranslateError>;

    /// A use of local or lambda parameter `name`.
    fn local(&self, name: &str) -> Result<String, TranslateError>;

    /// How class `class` (fully qualified) is written before `.member` of a static access
    /// and before `::` of a static or constructor reference: as it is, unless the language
    /// cannot resolve that name in an expression.
    fn static_qualifier(&self, class: &str) -> String {
        class.to_owned()
    }

    /// A field read `recv.name` (Groovy reads instance fields with `recv.@name`).
    fn field(&self, receiver: &Receiver, name: &str) -> Result<String, TranslateError>;

    /// A lambda `e` (an [`Expr::Lambda`]): Java's `(a) -> body`, Groovy's closures.
    fn lambda(&self, e: &Expr) -> Result<String, TranslateError>;

    /// `e` in the language's syntax; compound forms come parenthesized, so they nest without
    /// precedence concerns.
    fn expr(&self, e: &Expr) -> Result<String, TranslateError> {
        Ok(match e {
            Expr::Lit(lit) => self.lit(lit)?,
            Expr::Bottom(t) => self.bottom(t)?,
            Expr::Local(name) => self.local(name)?,
            Expr::Unit => {
                return Err(self.unsupported("the unit value anywhere but as a lambda's body"))
            }
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
            } => self.inner_instance(outer, class, type_args.as_deref(), args)?,
            Expr::Ref { .. } => self.reference(e)?,
            Expr::Call {
                receiver,
                name,
                type_args,
                args,
                declared_in,
                ..
            } => match jvm_method(declared_in) {
                // a Kotlin package function: the static method of its facade class, an
                // extension's receiver first
                Some((class, method)) => {
                    let mut all = Vec::with_capacity(args.len() + 1);
                    if let Receiver::Expr(r) = receiver {
                        all.push(r.as_ref().clone());
                    }
                    all.extend(args.iter().cloned());
                    self.call(&Receiver::Static(class.to_owned()), method, type_args, &all)?
                }
                None => self.call(receiver, name, type_args, args)?,
            },
            Expr::Field { receiver, name } => self.field(receiver, name)?,
            Expr::Lambda { .. } => self.lambda(e)?,
            Expr::NewArray { elem, elems } => self.new_array(elem, elems)?,
            Expr::Cast {
                ty,
                expr,
                coerce: true,
            } => self.coerce(ty, expr)?,
            Expr::Cast { ty, expr, .. } => self.cast(ty, expr)?,
            // an array is passed to a varargs parameter as it is
            Expr::Spread(inner) => self.expr(inner)?,
            Expr::Cond { cond, then, els } => self.cond(cond, then, els)?,
            Expr::Anonymous {
                ty,
                super_args,
                methods,
            } => self.anonymous(ty, super_args.as_deref(), methods)?,
        })
    }

    /// An anonymous class on one line: `new I<A>() { public R m(P p) { return e; } }`, a
    /// class's constructor arguments in its parentheses (`new C<A>(x) { .. }`).
    fn anonymous(
        &self,
        ty: &Ty,
        super_args: Option<&[Expr]>,
        methods: &[Method],
    ) -> Result<String, TranslateError> {
        if !matches!(ty, Ty::Class { .. }) {
            return Err(self.unsupported("an anonymous class of a type that is no class type"));
        }
        let mut decls = Vec::with_capacity(methods.len());
        for m in methods {
            let params = comma_separated(&m.params, |(n, t)| {
                Ok(format!("{} {n}", self.ty(t, TyPos::Value)?))
            })?;
            let ret = match &m.ret {
                Ty::Prim(PrimTy::Void) => "void".to_owned(),
                t => self.ty(t, TyPos::Value)?,
            };
            let body = self.block_body(&[], &m.body, Some(&m.ret))?;
            decls.push(format!(
                "public {ret} {}({params}) {body}",
                self.member(&m.name)?
            ));
        }
        Ok(format!(
            "new {}({}) {{ {} }}",
            self.ty(ty, TyPos::Value)?,
            self.args(super_args.unwrap_or_default())?,
            decls.join(self.member_separator())
        ))
    }

    /// What separates the members of a class body written on one line: Java needs
    /// nothing, Groovy a `;` (it reads a class body's members line by line).
    fn member_separator(&self) -> &'static str {
        " "
    }

    /// `e` as an argument or operand inside another expression (Groovy parenthesizes
    /// closures there).
    fn operand(&self, e: &Expr) -> Result<String, TranslateError> {
        self.expr(e)
    }

    /// The initializer `e` of a local declared with type `declared`. A function reference
    /// whose target is the declared type is not cast to it: the declaration converts it
    /// (Groovy also writes its lambdas bare there).
    fn initializer(&self, e: &Expr, declared: &Ty) -> Result<String, TranslateError> {
        match e {
            Expr::Ref { .. } if cast_target(e).is_none_or(|t| t == declared) => {
                self.reference_text(e)
            }
            e => self.expr(e),
        }
    }

    /// Member name `name` as written after `.` (checked; Groovy quotes its keywords).
    fn member(&self, name: &str) -> Result<String, TranslateError> {
        self.check_name(name)?;
        Ok(name.to_owned())
    }

    /// Whether receiver expression `e`, written `s`, needs parentheses before `.member`.
    fn parenthesize_receiver(&self, e: &Expr, s: &str) -> bool;

    /// `t` in Java syntax, as written at position `pos`.
    fn ty(&self, t: &Ty, pos: TyPos) -> Result<String, TranslateError> {
        self.check_wildcard(t, pos)?;
        Ok(match t {
            Ty::Prim(p) => match (pos, p) {
                (TyPos::Arg, _) => p.boxed_class().to_owned(),
                (TyPos::Value, PrimTy::Void) => {
                    return Err(self.unsupported("`void` as the type of a value"))
                }
                (TyPos::Value, _) => p.java_name().to_owned(),
            },
            Ty::Class { name, args } => {
                self.check_qualified_name(name)?;
                if args.is_empty() {
                    name.clone()
                } else {
                    format!("{name}<{}>", self.ty_args(args)?)
                }
            }
            Ty::Var(name) => {
                self.check_name(name)?;
                name.clone()
            }
            Ty::WildcardStar => "?".to_owned(),
            Ty::WildcardExtends(b) => format!("? extends {}", self.ty(b, TyPos::Arg)?),
            Ty::WildcardSuper(b) => format!("? super {}", self.ty(b, TyPos::Arg)?),
            Ty::Array(elem) => format!("{}[]", self.ty(elem, TyPos::Value)?),
            Ty::Nullable(inner) => match inner.as_ref() {
                Ty::Prim(p) => p.boxed_class().to_owned(),
                inner => self.ty(inner, pos)?,
            },
            Ty::Function { .. } => return Err(self.unsupported("function types")),
            Ty::Top => "java.lang.Object".to_owned(),
            Ty::Bottom => "java.lang.Void".to_owned(),
        })
    }

    /// Comma-separated type arguments.
    fn ty_args(&self, args: &[Ty]) -> Result<String, TranslateError> {
        comma_separated(args, |a| self.ty(a, TyPos::Arg))
    }

    /// Comma-separated arguments.
    fn args(&self, args: &[Expr]) -> Result<String, TranslateError> {
        comma_separated(args, |a| self.operand(a))
    }

    /// A literal.
    fn lit(&self, lit: &Lit) -> Result<String, TranslateError> {
        Self::LITERALS.literal(self, lit)
    }

    /// A statement: `T x = init;`, a local without a type ([`JavaFamily::inferred_local`]),
    /// or an expression statement (see [`java_like_expr_stmt`]); at the top of the test
    /// method and in lambda blocks alike.
    fn java_stmt(&self, s: &Stmt, w: &mut CodeWriter) -> Result<(), TranslateError> {
        match s {
            Stmt::Local {
                name,
                ty: Ty::Prim(PrimTy::Void),
                ..
            } => return Err(TranslateError::VoidLocal { name: name.clone() }),
            Stmt::Local {
                name,
                init,
                inferred: true,
                ..
            } => w.line(&self.inferred_local(name, init)?),
            Stmt::Local { name, ty, init, .. } => {
                let init = self.initializer(init, ty)?;
                w.line(&format!("{} {name} = {init};", self.ty(ty, TyPos::Value)?));
            }
            Stmt::Expr(e) => java_like_expr_stmt(self, e, w)?,
        }
        Ok(())
    }

    /// The statements of a lambda block, each ending with `;`, joined by spaces on one line.
    fn block_stmts(&self, block: &[Stmt]) -> Result<String, TranslateError> {
        let mut w = CodeWriter::default();
        for s in block {
            self.java_stmt(s, &mut w)?;
        }
        Ok(w.finish().lines().collect::<Vec<_>>().join(" "))
    }

    /// A lambda's block body `{ stmts return body; }`: no `return` for a `Unit` body, and
    /// `body;` as a statement when the function returns `void` (`ret`).
    fn block_body(
        &self,
        block: &[Stmt],
        body: &Expr,
        ret: Option<&Ty>,
    ) -> Result<String, TranslateError> {
        let mut parts = vec![self.block_stmts(block)?];
        match body {
            Expr::Unit => {}
            body if matches!(ret, Some(Ty::Prim(PrimTy::Void))) => {
                let mut w = CodeWriter::default();
                java_like_expr_stmt(self, body, &mut w)?;
                parts.push(w.finish().trim_end().to_owned());
            }
            body => parts.push(format!("return {};", self.expr(body)?)),
        }
        parts.retain(|p| !p.is_empty());
        Ok(if parts.is_empty() {
            "{}".to_owned()
        } else {
            format!("{{ {} }}", parts.join(" "))
        })
    }

    /// The test method's type parameters `<T extends A & B, U> ` (with the trailing space),
    /// nothing without any.
    fn type_params(&self, params: &[TypeParam]) -> Result<String, TranslateError> {
        if params.is_empty() {
            return Ok(String::new());
        }
        let list = comma_separated(params, |p| {
            self.check_name(&p.name)?;
            if p.bounds.is_empty() {
                return Ok(p.name.clone());
            }
            let bounds: Vec<String> = p
                .bounds
                .iter()
                .map(|b| self.ty(b, TyPos::Value))
                .collect::<Result<_, _>>()?;
            Ok(format!("{} extends {}", p.name, bounds.join(" & ")))
        })?;
        Ok(format!("<{list}> "))
    }

    /// `outer.new Inner<A>(args)` ([`JavaFamily::inner_class_name`] names `Inner`; type
    /// arguments as for [`JavaFamily::new_instance`]).
    fn inner_instance(
        &self,
        outer: &Expr,
        class: &str,
        type_args: Option<&[Ty]>,
        args: &[Expr],
    ) -> Result<String, TranslateError> {
        self.check_qualified_name(class)?;
        let written = self.expr(outer)?;
        let outer = if self.parenthesize_receiver(outer, &written) {
            format!("({written})")
        } else {
            written
        };
        let targs = match type_args {
            None => "<>".to_owned(),
            Some(ts) => bracketed(ts, "<", ">", |a| self.ty(a, TyPos::Arg))?,
        };
        Ok(format!(
            "{outer}.new {}{targs}({})",
            self.inner_class_name(class)?,
            self.args(args)?
        ))
    }

    /// A function reference `e` (an [`Expr::Ref`]): [`JavaFamily::reference_text`], cast to
    /// its target `((F) C::m)` where the position does not convert it (`implicit` false).
    fn reference(&self, e: &Expr) -> Result<String, TranslateError> {
        let text = self.reference_text(e)?;
        Ok(match cast_target(e) {
            Some(t) => format!("(({}) {text})", self.ty(t, TyPos::Value)?),
            None => text,
        })
    }

    /// The reference `e` itself, never cast: `C::m`, `recv::m`, `T::m`, `C<A>::new`,
    /// `T[]::new` (Groovy overrides it for its method pointers `recv.&m`).
    fn reference_text(&self, e: &Expr) -> Result<String, TranslateError> {
        match e {
            Expr::Ref { kind, .. } => self.double_colon(kind),
            e => self.expr(e),
        }
    }

    /// `kind` written with `::`. Arrays of a non-reifiable element type are created with
    /// the element's erasure (`java.util.List[]::new`, an unchecked conversion); without
    /// [`JavaFamily::REFERENCE_TYPE_ARGS`] an unbound reference names its receiver's class
    /// without type arguments, and explicit constructor type arguments are an error.
    fn double_colon(&self, kind: &RefKind) -> Result<String, TranslateError> {
        Ok(match kind {
            RefKind::Static { class, name } => {
                self.check_qualified_name(class)?;
                format!("{}::{}", self.static_qualifier(class), self.member(name)?)
            }
            RefKind::Bound { receiver, name } => {
                format!("{}::{}", self.ref_receiver(receiver)?, self.member(name)?)
            }
            RefKind::Unbound { ty, name } => {
                let ty = match ty {
                    Ty::Prim(_) | Ty::Bottom => {
                        return Err(
                            self.unsupported("an unbound reference to a member of a primitive")
                        )
                    }
                    // (a class named alone is a qualifier: `static_qualifier` writes it)
                    Ty::Class { name, .. } if !Self::REFERENCE_TYPE_ARGS => {
                        self.check_qualified_name(name)?;
                        self.static_qualifier(name)
                    }
                    ty if !Self::REFERENCE_TYPE_ARGS => self.ty(&raw(ty), TyPos::Value)?,
                    ty => self.ty(ty, TyPos::Value)?,
                };
                format!("{ty}::{}", self.member(name)?)
            }
            RefKind::Constructor { class, type_args } => {
                self.check_qualified_name(class)?;
                let targs =
                    match type_args.as_deref() {
                        None | Some([]) => String::new(),
                        Some(_) if !Self::REFERENCE_TYPE_ARGS => return Err(self.unsupported(
                            "a constructor reference with explicit type arguments (`C<A>::new` \
                             is not in the grammar; use the inferred `C::new`)",
                        )),
                        Some(ts) => bracketed(ts, "<", ">", |a| self.ty(a, TyPos::Arg))?,
                    };
                format!("{}{targs}::new", self.static_qualifier(class))
            }
            RefKind::ArrayConstructor { elem } => {
                let written = if is_reifiable(elem, Self::TYPE_VARIABLE_ARRAYS) {
                    elem.clone()
                } else {
                    self.erasure(elem)?
                };
                format!("{}[]::new", self.ty(&written, TyPos::Value)?)
            }
            RefKind::PackageFunction { package, name, .. } => {
                return Err(self.unsupported(format!(
                    "a reference to the Kotlin package function {package}.{name}"
                )))
            }
        })
    }

    /// A bound reference's receiver, parenthesized unless it is a name, a call, a field, a
    /// string or already parenthesized.
    fn ref_receiver(&self, receiver: &Expr) -> Result<String, TranslateError> {
        let s = self.expr(receiver)?;
        let bare = match receiver {
            Expr::Local(_) | Expr::Call { .. } | Expr::Field { .. } | Expr::New { .. } => true,
            Expr::Lit(Lit::Str(_)) => true,
            Expr::Bottom(t) => !matches!(t, Ty::Prim(_)),
            Expr::Cast { .. } | Expr::Cond { .. } => true,
            Expr::Ref { .. } | Expr::Lambda { .. } => cast_target(receiver).is_some(),
            _ => false,
        };
        Ok(if bare { s } else { format!("({s})") })
    }

    /// The erasure of `t` as a type whose arrays can be created: type arguments dropped
    /// (`java.util.List<T>[]` → `java.util.List[]`); an error for a type variable (`T[]`)
    /// unless [`JavaFamily::TYPE_VARIABLE_ARRAYS`].
    fn erasure(&self, t: &Ty) -> Result<Ty, TranslateError> {
        let erased = raw(t);
        let mut var = None;
        erased.walk(&mut |t| {
            if let Ty::Var(name) = t {
                var.get_or_insert(name.clone());
            }
        });
        match var {
            Some(name) if !Self::TYPE_VARIABLE_ARRAYS => Err(self.unsupported(format!(
                "an array constructor reference with element type variable `{name}` (a \
                 generic array creation)"
            ))),
            _ => Ok(erased),
        }
    }

    /// `new C<A>(args)`; no type arguments (`None`) is the diamond `new C<>(..)`, an empty
    /// list none at all.
    fn new_instance(
        &self,
        class: &str,
        type_args: Option<&[Ty]>,
        args: &[Expr],
    ) -> Result<String, TranslateError> {
        self.check_qualified_name(class)?;
        let targs = match type_args {
            None => "<>".to_owned(),
            Some(ts) => bracketed(ts, "<", ">", |a| self.ty(a, TyPos::Arg))?,
        };
        Ok(format!("new {class}{targs}({})", self.args(args)?))
    }

    /// A call `recv.<A>m(args)`.
    fn call(
        &self,
        receiver: &Receiver,
        name: &str,
        type_args: &[Ty],
        args: &[Expr],
    ) -> Result<String, TranslateError> {
        let member = self.member(name)?;
        let receiver = self.receiver(receiver, "a call", name)?;
        let targs = bracketed(type_args, "<", ">", |a| self.ty(a, TyPos::Arg))?;
        Ok(format!("{receiver}.{targs}{member}({})", self.args(args)?))
    }

    /// The qualifier before `.member`; `what` and `member` describe the access for errors.
    fn receiver(&self, r: &Receiver, what: &str, member: &str) -> Result<String, TranslateError> {
        match r {
            Receiver::None => Err(self.unsupported(format!(
                "{what} of `{member}` without receiver ({})",
                Self::NO_RECEIVER_HINT
            ))),
            Receiver::Static(class) => {
                self.check_qualified_name(class)?;
                Ok(self.static_qualifier(class))
            }
            Receiver::Expr(e) => {
                let s = self.expr(e)?;
                Ok(if self.parenthesize_receiver(e, &s) {
                    format!("({s})")
                } else {
                    s
                })
            }
        }
    }

    /// Lambda or closure parameters: `java.lang.String a, b`.
    fn params(&self, params: &[(String, Option<Ty>)]) -> Result<String, TranslateError> {
        comma_separated(params, |(name, t)| match t {
            Some(t) => Ok(format!("{} {name}", self.ty(t, TyPos::Value)?)),
            None => Ok(name.clone()),
        })
    }

    /// `new E[] {elems}`; for a non-reifiable `E` (e.g. `List<String>`) an unchecked cast of
    /// an array of its reifiable form: `((List<String>[]) new List<?>[] {..})`.
    fn new_array(&self, elem: &Ty, elems: &[Expr]) -> Result<String, TranslateError> {
        let elem_ty = self.ty(elem, TyPos::Value)?;
        Ok(if is_reifiable(elem, Self::TYPE_VARIABLE_ARRAYS) {
            let elems = self.args(elems)?;
            format!("new {elem_ty}[] {{{elems}}}")
        } else {
            // a lambda or reference in an array of the wildcard form would implement that
            // form (`Diffable<?>`), not the element type: it is cast to the element type
            let elems: Vec<Expr> = elems
                .iter()
                .map(|e| match e {
                    Expr::Lambda { .. } | Expr::Ref { .. } => Expr::cast(elem.clone(), e.clone()),
                    e => e.clone(),
                })
                .collect();
            let elems = self.args(&elems)?;
            let erased = self.ty(&self.reifiable_form(elem)?, TyPos::Value)?;
            format!("(({elem_ty}[]) new {erased}[] {{{elems}}})")
        })
    }

    /// The reifiable type whose arrays can hold `t`'s values: type arguments become `?`.
    fn reifiable_form(&self, t: &Ty) -> Result<Ty, TranslateError> {
        Ok(match t {
            Ty::Class { name, args } => Ty::Class {
                name: name.clone(),
                args: vec![Ty::WildcardStar; args.len()],
            },
            Ty::Array(elem) => Ty::array(self.reifiable_form(elem)?),
            Ty::Nullable(inner) => self.reifiable_form(inner)?,
            Ty::Var(name) => {
                return Err(self.unsupported(format!(
                    "an array creation with element type variable `{name}`"
                )))
            }
            t => t.clone(),
        })
    }

    /// A cast `((T) e)`; a lambda or reference cast to its own target is not cast twice.
    fn cast(&self, ty: &Ty, e: &Expr) -> Result<String, TranslateError> {
        let inner = if cast_target(e) == Some(ty) {
            self.uncast(e)?
        } else {
            self.operand(e)?
        };
        Ok(format!("(({}) {inner})", self.ty(ty, TyPos::Value)?))
    }

    /// A coercion `e as T` (Groovy's `as`); Java writes the cast.
    fn coerce(&self, ty: &Ty, e: &Expr) -> Result<String, TranslateError> {
        self.cast(ty, e)
    }

    /// A lambda or reference `e` without the cast to its target that its position would
    /// otherwise get (as the operand of a cast to that target).
    fn uncast(&self, e: &Expr) -> Result<String, TranslateError> {
        match e {
            Expr::Ref { .. } => self.reference_text(e),
            e => self.operand(e),
        }
    }

    /// A conditional `(c ? a : b)`.
    fn cond(&self, cond: &Expr, then: &Expr, els: &Expr) -> Result<String, TranslateError> {
        Ok(format!(
            "({} ? {} : {})",
            self.operand(cond)?,
            self.operand(then)?,
            self.operand(els)?
        ))
    }

    /// The default value of `char` (Java's is the literal `'\000'`).
    fn char_zero(&self) -> Result<String, TranslateError> {
        self.lit(&Lit::Char('\0'))
    }

    /// The typed bottom constant of type `t`: `((T) null)`, or the default value of a
    /// primitive `T`.
    fn bottom(&self, t: &Ty) -> Result<String, TranslateError> {
        match t {
            Ty::Prim(PrimTy::Char) => self.char_zero(),
            Ty::Prim(p) => Self::LITERALS.zero(self, *p),
            t => Ok(format!("(({}) null)", self.ty(t, TyPos::Value)?)),
        }
    }
}

/// Writes an expression statement in Java's syntax: calls and `new` as they are; literals
/// dropped after checking they can be written; a lambda or a reference bound to a fresh
/// unused local of its target type (it needs one); anything else to a fresh unused
/// `java.lang.Object` local (only calls and `new` are statements in Java).
fn java_like_expr_stmt(
    d: &(impl JavaFamily + ?Sized),
    e: &Expr,
    w: &mut CodeWriter,
) -> Result<(), TranslateError> {
    match e {
        Expr::Call { .. } | Expr::New { .. } => w.line(&format!("{};", d.expr(e)?)),
        Expr::Lit(l) => {
            d.lit(l)?;
        }
        Expr::Lambda {
            target: Some(t), ..
        }
        | Expr::Ref {
            target: Some(t), ..
        } => {
            let ty = d.ty(t, TyPos::Value)?;
            let e = d.expr(e)?;
            w.line(&format!("{ty} {} = {e};", d.fresh_unused()));
        }
        _ => {
            let e = d.expr(e)?;
            w.line(&format!("java.lang.Object {} = {e};", d.fresh_unused()));
        }
    }
    Ok(())
}

/// `t` without type arguments (`java.util.List<String>[]` → `java.util.List[]`), a
/// nullable type as its inner type.
fn raw(t: &Ty) -> Ty {
    match t {
        Ty::Class { name, .. } => Ty::class(name.clone(), vec![]),
        Ty::Array(elem) => Ty::array(raw(elem)),
        Ty::Nullable(inner) => raw(inner),
        t => t.clone(),
    }
}

/// The type a lambda or reference `e` is cast to: its target, when its position does not
/// convert it (`implicit` false); `None` for any other expression.
pub(crate) fn cast_target(e: &Expr) -> Option<&Ty> {
    match e {
        Expr::Lambda {
            target: Some(t),
            implicit: false,
            ..
        }
        | Expr::Ref {
            target: Some(t),
            implicit: false,
            ..
        } => Some(t),
        _ => None,
    }
}

/// Whether `e` has no type of its own, so that `var x = e` cannot infer one: `null`, a
/// lambda, a function reference, or a conditional with such a branch or two `null`s.
pub(crate) fn needs_target_type(e: &Expr) -> bool {
    let null = |e: &Expr| matches!(e, Expr::Lit(Lit::Null));
    null(e)
        || is_function_literal(e)
        || matches!(e, Expr::Cond { then, els, .. } if null(then) && null(els))
}

/// Whether `e` is a lambda or reference, or a conditional with one as a branch (a poly
/// expression that only a target type gives a type).
fn is_function_literal(e: &Expr) -> bool {
    match e {
        Expr::Lambda { .. } | Expr::Ref { .. } => true,
        Expr::Cond { then, els, .. } => is_function_literal(then) || is_function_literal(els),
        _ => false,
    }
}

/// Whether arrays of `t` can be created with `new t[]` (JLS 4.7: no type arguments other than
/// unbounded wildcards; type variables only if `type_variables`).
fn is_reifiable(t: &Ty, type_variables: bool) -> bool {
    match t {
        Ty::Class { args, .. } => args.iter().all(|a| matches!(a, Ty::WildcardStar)),
        Ty::Array(elem) | Ty::Nullable(elem) => is_reifiable(elem, type_variables),
        Ty::Var(_) => type_variables,
        _ => true,
    }
}

/// The facade class and method name of a Kotlin package function that Java calls
/// statically (the [`crate::ir::JVM_METHOD`] entry of a native call's `declared_in`).
pub(crate) fn jvm_method(declared_in: &[String]) -> Option<(&str, &str)> {
    if declared_in.first().map(String::as_str) != Some(crate::ir::NATIVE_MEMBER) {
        return None;
    }
    declared_in
        .iter()
        .find_map(|d| d.strip_prefix(crate::ir::JVM_METHOD))
        .and_then(|m| m.rsplit_once('.'))
}

#[cfg(test)]
mod tests {
    use crate::common::test_support::body;
    use crate::ir::{Expr, Stmt, Ty};
    use crate::{GroovyTranslator, JavaTranslator, Language, TranslateError};

    #[test]
    fn java_and_groovy_print_types_alike() {
        let t = Ty::class(
            "java.util.Map",
            vec![
                Ty::super_of(Ty::nullable(Ty::INT)),
                Ty::array(Ty::class("java.util.List", vec![Ty::WildcardStar])),
            ],
        );
        let stmts = || vec![Stmt::local("m", t.clone(), Expr::bottom(t.clone()))];
        let printed = "java.util.Map<? super java.lang.Integer, java.util.List<?>[]>";
        assert_eq!(
            body(&JavaTranslator, stmts()).as_deref(),
            Ok(format!("{printed} m = (({printed}) null);").as_str())
        );
        assert_eq!(
            body(&GroovyTranslator::default(), stmts()).as_deref(),
            Ok(format!("{printed} m = (({printed}) null);").as_str())
        );
    }

    #[test]
    fn arrays_of_type_variables_only_in_groovy() {
        let stmts = || vec![Stmt::expr(Expr::new_array(Ty::var("T"), vec![]))];
        assert_eq!(
            body(&JavaTranslator, stmts()),
            Err(TranslateError::Unsupported {
                language: Language::Java,
                what: "an array creation with element type variable `T`".to_owned()
            })
        );
        assert_eq!(
            body(&GroovyTranslator::default(), stmts()).as_deref(),
            Ok("java.lang.Object __unused_0 = new T[] {};")
        );
    }
}
