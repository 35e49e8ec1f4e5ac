//! The IR-level passes of `thalia reduce`, as C-Reduce and Perses have them for C: each
//! makes smaller variants of a program one at a time, and says whether a variant keeps the
//! static types the rest of the program sees (then the compiler's signature is enough) or
//! may change them (then the finding's own oracle, the Java twin or a differential compiler,
//! must keep its verdict).
//!
//! The passes, in the order a round tries them: statements that do not matter go (an unused
//! local, an expression statement, the call under test of a rejection or crash whose cause
//! is elsewhere), opt-ins and imports go, locals read once are inlined, initializers and
//! operands become their smallest inhabitant (a typed bottom constant, a literal, `null`; a
//! receiver's or argument's `((Object) null)` a plain `null`),
//! call chains collapse (a receiver that is a constructor call or a cast becomes a typed
//! bottom constant), conditionals lose the branch that does not matter, casts and explicit
//! type arguments go, and library types become JDK types ([`Hierarchy`]).

use std::collections::{BTreeSet, HashMap};

use thalia_translators::ir::{Expr, Lit, PrimTy, Program, Receiver, RefKind, RefOn, Stmt, Ty};

/// What must check a variant besides the compiler's signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The variant keeps the static types the program's calls see: the signature is enough.
    Signature,
    /// The variant may change static types: the finding's oracle must keep its verdict.
    Oracle,
}

/// One reduction step: a smaller program, what must check it, and the pass that made it.
pub struct Step {
    /// The smaller program.
    pub program: Program,
    /// What must check it.
    pub check: Check,
    /// The pass's name (for `reduction.json`).
    pub pass: &'static str,
}

/// What the passes may do for one finding.
#[derive(Clone, Copy, Debug, Default)]
pub struct Allow {
    /// An oracle can check steps that change types.
    pub oracle: bool,
    /// The result of the call under test must stay (an ill-typed program broken at it).
    pub keep_result: bool,
    /// The call under test may go (a rejection or a crash: its cause may be elsewhere).
    pub drop_call: bool,
    /// The program is ill-typed (an acceptance): its fault is somewhere in its expressions,
    /// and replacing an operand may remove it whatever the types, so the oracle checks
    /// every operand's replacement.
    pub ill_typed: bool,
    /// An untyped `null` is no operand's smallest inhabitant (Kotlin: `null` has no non-null
    /// type, and the Java twin, the oracle, cannot tell).
    pub no_untyped_null: bool,
    /// A constructor call without type arguments takes them from its expected type alone
    /// (Kotlin: `ArrayList()` for an `Any` is an error, Java's `new ArrayList<>()` is not),
    /// which the Java twin, the oracle, cannot judge: no step changes the types of a program
    /// that holds one.
    pub diamonds_need_a_target: bool,
}

/// The JDK supertypes of the library classes a program names, nearest first (a library class
/// may become one where the finding holds).
pub type Hierarchy = HashMap<String, Vec<String>>;

/// Whether `class` is the JDK's or a language library's own (never replaced).
pub fn is_platform(class: &str) -> bool {
    ["java.", "javax.", "kotlin.", "scala."]
        .iter()
        .any(|p| class.starts_with(p))
}

/// The number of IR nodes of a program (its size for the reduction).
pub fn size(p: &Program) -> usize {
    let mut n = p.stmts.len();
    p.walk_exprs(&mut |_| n += 1);
    n
}

/// What a reduction step must decrease, in this order: statements, IR nodes, initializers
/// that are not yet typed bottom constants (which inlining then removes), and the weight of
/// what is written (type nodes, literal text, opt-ins and imports).
pub fn measure(p: &Program) -> (usize, usize, usize, usize) {
    let not_bottom = p
        .stmts
        .iter()
        .filter(|s| matches!(s, Stmt::Local { init, .. } if !matches!(init, Expr::Bottom(_))))
        .count();
    let mut weight = p.opt_ins.len() + p.imports.len() + p.aliases.len();
    p.walk_types(&mut |t| {
        weight += match t {
            // a long name weighs more, a library class twice, `Object` least
            Ty::Class { name, .. } if name == "java.lang.Object" => 1,
            Ty::Class { name, .. } if !is_platform(name) => 2 * (1 + name.len() / 10),
            Ty::Class { name, .. } => 1 + name.len() / 10,
            _ => 1,
        }
    });
    p.walk_exprs(&mut |e| {
        weight += match e {
            Expr::Lit(Lit::Str(s)) => s.chars().count(),
            Expr::Lit(l) if !is_smallest(l) => 1,
            Expr::Call { declared_in, .. } if declared_in.iter().any(|c| !is_platform(c)) => 1,
            _ => 0,
        }
    });
    (p.stmts.len(), size(p), not_bottom, weight)
}

/// Whether a literal is the smallest of its kind (`0`, `false`, `""`, `null`).
fn is_smallest(l: &Lit) -> bool {
    match l {
        Lit::Bool(b) => !b,
        Lit::Int(i) => *i == 0,
        Lit::Long(i) => *i == 0,
        Lit::Float(f) => *f == 0.0,
        Lit::Double(f) => *f == 0.0,
        Lit::Char(c) => *c == 'a',
        Lit::Byte(b) => *b == 0,
        Lit::Short(s) => *s == 0,
        Lit::Str(s) => s.is_empty(),
        Lit::Null => true,
    }
}

/// The smallest literal of a literal's kind.
fn smallest(l: &Lit) -> Lit {
    match l {
        Lit::Bool(_) => Lit::Bool(false),
        Lit::Int(_) => Lit::Int(0),
        Lit::Long(_) => Lit::Long(0),
        Lit::Float(_) => Lit::Float(0.0),
        Lit::Double(_) => Lit::Double(0.0),
        Lit::Char(_) => Lit::Char('a'),
        Lit::Byte(_) => Lit::Byte(0),
        Lit::Short(_) => Lit::Short(0),
        Lit::Str(_) => Lit::Str(String::new()),
        Lit::Null => Lit::Null,
    }
}

/// Where an expression is, for the replacements that fit there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pos {
    /// A statement's expression or a local's initializer.
    Top,
    /// The receiver of a call, field or bound reference.
    Receiver,
    /// An argument of a call or constructor call, or an array element.
    Arg,
    /// A lambda's body.
    Body,
    /// A conditional's condition.
    Condition,
    /// Anywhere else (a cast's operand, a conditional's branch, a spread array).
    Inner,
}

/// The direct children of `e` that the passes may replace, with their positions, in the
/// order of [`Expr::walk`].
fn children_mut(e: &mut Expr) -> Vec<(&mut Expr, Pos)> {
    let mut out: Vec<(&mut Expr, Pos)> = Vec::new();
    match e {
        Expr::Lit(_) | Expr::Bottom(_) | Expr::Local(_) | Expr::Unit => {}
        Expr::New { args, outer, .. } => {
            if let Some(o) = outer {
                out.push((o.as_mut(), Pos::Receiver));
            }
            out.extend(args.iter_mut().map(|a| (a, Pos::Arg)));
        }
        Expr::Call { receiver, args, .. } => {
            if let Receiver::Expr(r) = receiver {
                out.push((r.as_mut(), Pos::Receiver));
            }
            out.extend(args.iter_mut().map(|a| (a, Pos::Arg)));
        }
        Expr::Field { receiver, .. } => {
            if let Receiver::Expr(r) = receiver {
                out.push((r.as_mut(), Pos::Receiver));
            }
        }
        Expr::Lambda { body, block, .. } => {
            for s in block.iter_mut() {
                match s {
                    Stmt::Local { init, .. } => out.push((init, Pos::Top)),
                    Stmt::Expr(x) => out.push((x, Pos::Top)),
                }
            }
            out.push((body.as_mut(), Pos::Body));
        }
        Expr::Ref { kind, .. } => match kind {
            RefKind::Bound { receiver, .. }
            | RefKind::PackageFunction {
                on: RefOn::Value(receiver),
                ..
            } => out.push((receiver.as_mut(), Pos::Receiver)),
            _ => {}
        },
        Expr::NewArray { elems, .. } => out.extend(elems.iter_mut().map(|a| (a, Pos::Arg))),
        Expr::Cast { expr, .. } | Expr::Spread(expr) => out.push((expr.as_mut(), Pos::Inner)),
        Expr::Cond { cond, then, els } => {
            out.push((cond.as_mut(), Pos::Condition));
            out.push((then.as_mut(), Pos::Inner));
            out.push((els.as_mut(), Pos::Inner));
        }
        Expr::Anonymous {
            super_args,
            methods,
            ..
        } => {
            out.extend(super_args.iter_mut().flatten().map(|a| (a, Pos::Arg)));
            out.extend(methods.iter_mut().map(|m| (&mut m.body, Pos::Body)));
        }
    }
    out
}

/// The number of nodes of `e` that [`nth_mut`] reaches.
fn count(e: &mut Expr) -> usize {
    1 + children_mut(e)
        .into_iter()
        .map(|(c, _)| count(c))
        .sum::<usize>()
}

/// Applies `f` to the `n`-th node of `e` in pre-order (0 is `e` itself) and its position,
/// replacing the node by what `f` makes of it: `Some(true)` when replaced, `Some(false)`
/// when `f` made nothing, `None` when `e` has fewer nodes.
fn replace_at(
    e: &mut Expr,
    pos: Pos,
    n: &mut usize,
    f: &mut dyn FnMut(&Expr, Pos) -> Option<Expr>,
) -> Option<bool> {
    if *n == 0 {
        return Some(match f(e, pos) {
            Some(x) => {
                *e = x;
                true
            }
            None => false,
        });
    }
    *n -= 1;
    for (c, p) in children_mut(e) {
        if let Some(r) = replace_at(c, p, n, f) {
            return Some(r);
        }
    }
    None
}

/// Replaces the `n`-th node of `e` (pre-order) by what `f` makes of it, if anything.
fn replace_nth(e: &mut Expr, n: usize, mut f: impl FnMut(&Expr, Pos) -> Option<Expr>) -> bool {
    let mut k = n;
    replace_at(e, Pos::Top, &mut k, &mut f) == Some(true)
}

/// The smaller expressions `e` at `pos` may become, each with what must check it.
fn replacements(e: &Expr, pos: Pos, allow: Allow) -> Vec<(Expr, Check)> {
    let mut out = Vec::new();
    let oracle = |out: &mut Vec<(Expr, Check)>, x: Expr| {
        if allow.oracle {
            out.push((x, Check::Oracle));
        }
    };
    match e {
        Expr::Lit(l) if !is_smallest(l) => out.push((Expr::Lit(smallest(l)), Check::Signature)),
        // a string's smallest inhabitant is `""`, of exactly its type
        Expr::Bottom(Ty::Class { name, args }) if name == "java.lang.String" && args.is_empty() => {
            out.push((Expr::str(""), Check::Signature));
        }
        Expr::Cast { ty, expr, .. } => {
            if !matches!(
                expr.as_ref(),
                Expr::Bottom(_) | Expr::Local(_) | Expr::Lit(_)
            ) {
                out.push((Expr::Bottom(ty.clone()), Check::Signature));
            }
            if matches!(expr.as_ref(), Expr::Lit(l) if !matches!(l, Lit::Null)) {
                // `(byte) 82`: the primitive's default value
                if matches!(ty, Ty::Prim(p) if *p != PrimTy::Void) {
                    out.push((Expr::Bottom(ty.clone()), Check::Signature));
                }
            }
            oracle(&mut out, expr.as_ref().clone());
        }
        Expr::New {
            class,
            type_args: Some(targs),
            outer: None,
            args,
        } if !args.is_empty() => {
            out.push((
                Expr::Bottom(Ty::class(class.clone(), targs.clone())),
                Check::Signature,
            ));
        }
        Expr::Cond { then, els, .. } => {
            oracle(&mut out, then.as_ref().clone());
            oracle(&mut out, els.as_ref().clone());
        }
        Expr::Lambda {
            body, ret: Some(r), ..
        } if !matches!(body.as_ref(), Expr::Bottom(_) | Expr::Unit | Expr::Local(_))
            && !matches!(r, Ty::Prim(PrimTy::Void)) =>
        {
            let mut l = e.clone();
            if let Expr::Lambda { body, .. } = &mut l {
                **body = Expr::Bottom(r.clone());
            }
            oracle(&mut out, l);
        }
        Expr::Lambda { block, .. } if !block.is_empty() => {
            for i in 0..block.len() {
                let mut l = e.clone();
                if let Expr::Lambda { block, .. } = &mut l {
                    block.remove(i);
                }
                oracle(&mut out, l);
            }
        }
        _ => {}
    }
    // a declared type, a lambda or a reference becomes a typed bottom constant of the type
    // it implements: its own type is a subtype (an anonymous class) or the same, and the
    // languages without an untyped `null` (Kotlin) have no other smaller operand for it
    match e {
        Expr::Anonymous { ty, .. } => oracle(&mut out, Expr::Bottom(ty.clone())),
        Expr::Lambda {
            target: Some(t), ..
        }
        | Expr::Ref {
            target: Some(t), ..
        } => {
            oracle(&mut out, Expr::Bottom(t.clone()));
        }
        Expr::NewArray { elems, .. } if !elems.is_empty() => {
            for i in 0..elems.len() {
                let mut a = e.clone();
                if let Expr::NewArray { elems, .. } = &mut a {
                    elems.remove(i);
                }
                out.push((a, Check::Signature));
            }
        }
        _ => {}
    }
    match (pos, e) {
        (Pos::Condition, c) if !matches!(c, Expr::Lit(Lit::Bool(_))) => {
            out.push((Expr::Lit(Lit::Bool(true)), Check::Signature));
        }
        // an operand that is not yet the smallest: an untyped `null`
        (Pos::Arg | Pos::Inner, x)
            if !allow.no_untyped_null
                && !matches!(
                    x,
                    Expr::Lit(_) | Expr::Bottom(_) | Expr::Local(_) | Expr::Unit | Expr::Spread(_)
                ) =>
        {
            oracle(&mut out, Expr::Lit(Lit::Null));
        }
        // `((Object) null)` as a receiver or an argument: the cast may not matter where the
        // member or parameter is looked up on `Object` anyway
        (Pos::Receiver | Pos::Arg, Expr::Bottom(t))
            if *t == Ty::object() && !allow.no_untyped_null =>
        {
            oracle(&mut out, Expr::Lit(Lit::Null));
        }
        _ => {}
    }
    if allow.ill_typed {
        // the fault may be in what goes: only the oracle can tell
        out.retain(|_| allow.oracle);
        for (_, c) in &mut out {
            *c = Check::Oracle;
        }
    }
    out
}

/// A program like `p` (its file-level declarations included) with other statements.
fn with_stmts(p: &Program, stmts: Vec<Stmt>) -> Program {
    // every field named: a new file-level declaration must be kept here too
    Program {
        id: p.id.clone(),
        stmts,
        inner_classes: p.inner_classes.clone(),
        type_params: p.type_params.clone(),
        imports: p.imports.clone(),
        opt_ins: p.opt_ins.clone(),
        experimental: p.experimental,
        aliases: p.aliases.clone(),
    }
}

/// Whether `name` is read anywhere in `stmts`.
pub fn uses(stmts: &[Stmt], name: &str) -> usize {
    let mut n = 0;
    for s in stmts {
        s.expr_ref().walk(&mut |e| {
            if matches!(e, Expr::Local(l) if l == name) {
                n += 1;
            }
        });
    }
    n
}

/// For each statement that declares a local, how often the statements after it read its
/// name (`uses(&stmts[i + 1..], name)`, for all `i` in one pass); 0 for the others.
pub fn later_uses(stmts: &[Stmt]) -> Vec<usize> {
    let mut reads: HashMap<&str, usize> = HashMap::new();
    let mut out = vec![0; stmts.len()];
    for (i, s) in stmts.iter().enumerate().rev() {
        if let Stmt::Local { name, .. } = s {
            out[i] = reads.get(name.as_str()).copied().unwrap_or(0);
        }
        s.expr_ref().walk(&mut |e| {
            if let Expr::Local(l) = e {
                *reads.entry(l.as_str()).or_default() += 1;
            }
        });
    }
    out
}

/// `e` with every `Local(name)` replaced by `with` (not inside a lambda that declares a
/// parameter or block local of that name).
fn substitute(e: &Expr, name: &str, with: &Expr) -> Expr {
    if matches!(e, Expr::Local(l) if l == name) {
        return with.clone();
    }
    if let Expr::Lambda { params, block, .. } = e {
        let hidden = params.iter().any(|(p, _)| p == name)
            || block
                .iter()
                .any(|s| matches!(s, Stmt::Local { name: l, .. } if l == name));
        if hidden {
            return e.clone();
        }
    }
    let mut out = e.clone();
    for (c, _) in children_mut(&mut out) {
        *c = substitute(c, name, with);
    }
    out
}

/// `e` with `f` applied bottom-up to every node.
fn map_expr(e: &Expr, f: &dyn Fn(Expr) -> Expr) -> Expr {
    let mut out = e.clone();
    for (c, _) in children_mut(&mut out) {
        *c = map_expr(c, f);
    }
    f(out)
}

/// `stmts` with `f` applied to each statement's expression (a local's initializer).
fn map_stmts(stmts: &[Stmt], f: impl Fn(&Expr) -> Expr) -> Vec<Stmt> {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::Local {
                name,
                ty,
                init,
                inferred,
            } => Stmt::Local {
                name: name.clone(),
                ty: ty.clone(),
                init: f(init),
                inferred: *inferred,
            },
            Stmt::Expr(x) => Stmt::Expr(f(x)),
        })
        .collect()
}

/// `e` with casts of locals to their own declared type removed (`((T) a0)` where `a0: T`).
fn drop_own_casts(e: &Expr, declared: &[(String, Ty)]) -> Expr {
    map_expr(e, &|x| match x {
        Expr::Cast { ty, expr, coerce } => match *expr {
            Expr::Local(l) if declared.iter().any(|(n, t)| *n == l && *t == ty) => Expr::Local(l),
            other => Expr::Cast {
                ty,
                expr: Box::new(other),
                coerce,
            },
        },
        other => other,
    })
}

/// `e` with the receivers of calls that are constructor calls with explicit type arguments
/// (the call chains of synthesis: `new C<A>(..).m()`) or casts of other expressions
/// (`((T) r.b()).m()`) made typed bottom constants of their type.
fn bottom_receivers(e: &Expr) -> Expr {
    map_expr(e, &|x| match x {
        Expr::Call {
            receiver: Receiver::Expr(r),
            name,
            type_args,
            args,
            declared_in,
            form,
            lists,
        } => {
            let bottom = match r.as_ref() {
                Expr::New {
                    class,
                    type_args: Some(targs),
                    outer: None,
                    ..
                } => Some(Ty::class(class.clone(), targs.clone())),
                Expr::Cast { ty, expr, .. }
                    if !matches!(expr.as_ref(), Expr::Local(_) | Expr::Bottom(_)) =>
                {
                    Some(ty.clone())
                }
                _ => None,
            };
            Expr::Call {
                receiver: Receiver::Expr(match bottom {
                    Some(t) => Box::new(Expr::Bottom(t)),
                    None => r,
                }),
                name,
                type_args,
                args,
                declared_in,
                form,
                lists,
            }
        }
        other => other,
    })
}

/// True when `p` holds a constructor call without type arguments (a diamond).
fn has_diamond(p: &Program) -> bool {
    let mut found = false;
    p.walk_exprs(&mut |e| {
        found |= matches!(
            e,
            Expr::New {
                type_args: None,
                ..
            }
        );
    });
    found
}

/// `e` with every call's explicit type arguments dropped.
fn drop_type_args(e: &Expr) -> Expr {
    map_expr(e, &|x| match x {
        Expr::Call {
            receiver,
            name,
            args,
            declared_in,
            form,
            lists,
            ..
        } => Expr::Call {
            receiver,
            name,
            type_args: Vec::new(),
            args,
            declared_in,
            form,
            lists,
        },
        other => other,
    })
}

/// The library classes `p` names (in types, constructor calls, static receivers), sorted.
pub fn library_classes(p: &Program) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    p.walk_types(&mut |t| {
        if let Ty::Class { name, .. } = t {
            if !is_platform(name) {
                out.insert(name.clone());
            }
        }
    });
    p.walk_exprs(&mut |e| match e {
        Expr::New { class, .. } if !is_platform(class) => {
            out.insert(class.clone());
        }
        _ => {}
    });
    out
}

/// `t` with the class `from` (and its type arguments) replaced by the raw class `to`.
fn replace_class(t: &Ty, from: &str, to: &str) -> Ty {
    match t {
        Ty::Class { name, .. } if name == from => Ty::class(to, Vec::new()),
        Ty::Class { name, args } => Ty::class(
            name.clone(),
            args.iter().map(|a| replace_class(a, from, to)).collect(),
        ),
        Ty::WildcardExtends(x) => Ty::extends(replace_class(x, from, to)),
        Ty::WildcardSuper(x) => Ty::super_of(replace_class(x, from, to)),
        Ty::Array(x) => Ty::array(replace_class(x, from, to)),
        Ty::Nullable(x) => Ty::nullable(replace_class(x, from, to)),
        Ty::Function {
            receiver,
            params,
            ret,
        } => Ty::Function {
            receiver: receiver
                .as_ref()
                .map(|r| Box::new(replace_class(r, from, to))),
            params: params.iter().map(|a| replace_class(a, from, to)).collect(),
            ret: Box::new(replace_class(ret, from, to)),
        },
        other => other.clone(),
    }
}

/// `p` with the library class `from` replaced by `to` in every type written in a local's
/// declaration, a typed bottom constant or a cast (where a value of `from` is only seen
/// as one of its supertype); `None` when `from` is also constructed or called statically.
fn retype(p: &Program, from: &str, to: &str) -> Option<Program> {
    let mut blocked = false;
    p.walk_exprs(&mut |e| match e {
        Expr::New { class, .. } if class == from => blocked = true,
        Expr::Call {
            receiver: Receiver::Static(c),
            ..
        }
        | Expr::Field {
            receiver: Receiver::Static(c),
            ..
        } if c == from => blocked = true,
        _ => {}
    });
    if blocked {
        return None;
    }
    let stmts = p
        .stmts
        .iter()
        .map(|s| {
            let init = map_expr(s.expr_ref(), &|x| match x {
                Expr::Bottom(t) => Expr::Bottom(replace_class(&t, from, to)),
                Expr::Cast { ty, expr, coerce } => Expr::Cast {
                    ty: replace_class(&ty, from, to),
                    expr,
                    coerce,
                },
                other => other,
            });
            match s {
                Stmt::Local {
                    name, ty, inferred, ..
                } => Stmt::Local {
                    name: name.clone(),
                    ty: replace_class(ty, from, to),
                    init,
                    inferred: *inferred,
                },
                Stmt::Expr(_) => Stmt::Expr(init),
            }
        })
        .collect();
    let q = with_stmts(p, stmts);
    (q != *p).then_some(q)
}

/// `t` with every occurrence of the subtree `from` replaced by `to`.
fn subst_ty(t: &Ty, from: &Ty, to: &Ty) -> Ty {
    if t == from {
        return to.clone();
    }
    let sub = |x: &Ty| subst_ty(x, from, to);
    match t {
        Ty::Class { name, args } => Ty::class(name.clone(), args.iter().map(sub).collect()),
        Ty::WildcardExtends(x) => Ty::extends(sub(x)),
        Ty::WildcardSuper(x) => Ty::super_of(sub(x)),
        Ty::Array(x) => Ty::array(sub(x)),
        Ty::Nullable(x) => Ty::nullable(sub(x)),
        Ty::Function {
            receiver,
            params,
            ret,
        } => Ty::Function {
            receiver: receiver.as_ref().map(|r| Box::new(sub(r))),
            params: params.iter().map(sub).collect(),
            ret: Box::new(sub(ret)),
        },
        other => other.clone(),
    }
}

/// `e` with `f` applied to every type written in it (and in the expressions nested in it).
fn map_expr_types(e: &Expr, f: &dyn Fn(&Ty) -> Ty) -> Expr {
    let all = |ts: &[Ty]| ts.iter().map(f).collect::<Vec<Ty>>();
    map_expr(e, &|x| match x {
        Expr::Bottom(t) => Expr::Bottom(f(&t)),
        Expr::Cast { ty, expr, coerce } => Expr::Cast {
            ty: f(&ty),
            expr,
            coerce,
        },
        Expr::NewArray { elem, elems } => Expr::NewArray {
            elem: f(&elem),
            elems,
        },
        Expr::New {
            class,
            type_args,
            args,
            outer,
        } => Expr::New {
            class,
            type_args: type_args.map(|ts| all(&ts)),
            args,
            outer,
        },
        Expr::Call {
            receiver,
            name,
            type_args,
            args,
            declared_in,
            form,
            lists,
        } => Expr::Call {
            receiver,
            name,
            type_args: all(&type_args),
            args,
            declared_in,
            form,
            lists,
        },
        Expr::Lambda {
            params,
            body,
            target,
            implicit,
            block,
            form,
            ret,
        } => Expr::Lambda {
            params: params
                .into_iter()
                .map(|(n, t)| (n, t.as_ref().map(f)))
                .collect(),
            body,
            target: target.as_ref().map(f),
            implicit,
            block: block
                .into_iter()
                .map(|s| match s {
                    Stmt::Local {
                        name,
                        ty,
                        init,
                        inferred,
                    } => Stmt::Local {
                        name,
                        ty: f(&ty),
                        init,
                        inferred,
                    },
                    other => other,
                })
                .collect(),
            form,
            ret: ret.as_ref().map(f),
        },
        Expr::Ref {
            kind,
            fn_params,
            fn_ret,
            target,
            implicit,
            declared_in,
            method_pointer,
        } => Expr::Ref {
            kind: match kind {
                RefKind::Unbound { ty, name } => RefKind::Unbound { ty: f(&ty), name },
                RefKind::ArrayConstructor { elem } => RefKind::ArrayConstructor { elem: f(&elem) },
                RefKind::Constructor { class, type_args } => RefKind::Constructor {
                    class,
                    type_args: type_args.map(|ts| all(&ts)),
                },
                RefKind::PackageFunction {
                    package,
                    name,
                    on: RefOn::Type(t),
                } => RefKind::PackageFunction {
                    package,
                    name,
                    on: RefOn::Type(f(&t)),
                },
                other => other,
            },
            fn_params: all(&fn_params),
            fn_ret: f(&fn_ret),
            target: target.as_ref().map(f),
            implicit,
            declared_in,
            method_pointer,
        },
        other => other,
    })
}

/// `p` with every occurrence of the type `from` in its statements replaced by `to`.
fn retype_subtree(p: &Program, from: &Ty, to: &Ty) -> Option<Program> {
    let f = |t: &Ty| subst_ty(t, from, to);
    let stmts = p
        .stmts
        .iter()
        .map(|s| match s {
            Stmt::Local {
                name,
                ty,
                init,
                inferred,
            } => Stmt::Local {
                name: name.clone(),
                ty: f(ty),
                init: map_expr_types(init, &f),
                inferred: *inferred,
            },
            Stmt::Expr(x) => Stmt::Expr(map_expr_types(x, &f)),
        })
        .collect();
    let q = with_stmts(p, stmts);
    (q != *p).then_some(q)
}

/// The distinct class types written in `p`'s statements, largest first (at most `max`).
fn class_subtrees(p: &Program, max: usize) -> Vec<Ty> {
    let mut seen: Vec<(usize, Ty)> = Vec::new();
    for s in &p.stmts {
        let mut visit = |t: &Ty| {
            if matches!(t, Ty::Class { name, .. } if name != "java.lang.Object")
                && !seen.iter().any(|(_, x)| x == t)
            {
                let mut n = 0;
                t.walk(&mut |_| n += 1);
                seen.push((n, t.clone()));
            }
        };
        if let Stmt::Local { ty, .. } = s {
            ty.walk(&mut visit);
        }
        s.expr_ref().walk_types(&mut visit);
    }
    // largest first, then in order of appearance
    seen.sort_by_key(|s| std::cmp::Reverse(s.0));
    seen.into_iter().take(max).map(|(_, t)| t).collect()
}

/// The candidate steps from `p`, most promising first, made one at a time as they are taken
/// (each is a copy of the program: all of them at once took memory quadratic in its size),
/// each smaller than `p` by [`measure`].
pub fn steps<'a>(
    p: &'a Program,
    allow: Allow,
    hierarchy: &'a Hierarchy,
) -> impl Iterator<Item = Step> + 'a {
    let n = p.stmts.len();
    let last = n.saturating_sub(1);
    let later = later_uses(&p.stmts);
    let limit = measure(p);
    let local = |i: usize| match &p.stmts[i] {
        Stmt::Local { name, ty, init, .. } => Some((name, ty, init)),
        Stmt::Expr(_) => None,
    };
    let step = |program: Program, check: Check, pass: &'static str| Step {
        program,
        check,
        pass,
    };
    let later_ = later.clone();
    // a statement nobody reads goes (the call under test, the last statement, only when its
    // cause may be elsewhere)
    let unused = (0..n).filter_map(move |i| {
        if i == last && !allow.drop_call {
            return None;
        }
        if local(i).is_some() && later_[i] != 0 {
            return None;
        }
        let mut stmts = p.stmts.clone();
        stmts.remove(i);
        Some(step(
            with_stmts(p, stmts),
            Check::Signature,
            "drop-statement",
        ))
    });
    // opt-ins and imports go, all at once, then one at a time; so do type aliases
    let file_level = std::iter::once_with(move || {
        let mut q = p.clone();
        q.opt_ins.clear();
        (!p.opt_ins.is_empty()).then(|| step(q, Check::Signature, "drop-opt-ins"))
    })
    .flatten()
    .chain((0..p.opt_ins.len().min(64)).map(move |i| {
        let mut q = p.clone();
        q.opt_ins.remove(i);
        step(q, Check::Signature, "drop-opt-ins")
    }))
    .chain((0..p.imports.len().min(64)).map(move |i| {
        let mut q = p.clone();
        q.imports.remove(i);
        step(q, Check::Signature, "drop-import")
    }))
    // a type alias goes: its locals name the class (an alias is only a name for it)
    .chain((0..p.aliases.len().min(64)).map(move |i| {
        let mut q = p.clone();
        q.aliases.remove(i);
        step(q, Check::Signature, "drop-alias")
    }));
    // a local read once is inlined: a typed bottom constant keeps the type its use sees;
    // any other initializer may not (the oracle checks it)
    let inlined = (0..last).filter_map(move |i| {
        let (name, _, init) = local(i)?;
        let bottom = matches!(init, Expr::Bottom(_));
        if !((bottom || allow.oracle) && later[i] == 1) {
            return None;
        }
        let mut stmts = p.stmts[..i].to_vec();
        stmts.extend(map_stmts(&p.stmts[i + 1..], |e| substitute(e, name, init)));
        let check = if bottom {
            Check::Signature
        } else {
            Check::Oracle
        };
        Some(step(with_stmts(p, stmts), check, "inline"))
    });
    // an initializer becomes a typed bottom constant of the local's declared type
    let bottomed_inits = (0..last).filter_map(move |i| {
        let (_, ty, init) = local(i)?;
        if matches!(init, Expr::Bottom(_)) {
            return None;
        }
        let mut stmts = p.stmts.clone();
        if let Stmt::Local { init, .. } = &mut stmts[i] {
            *init = Expr::Bottom(ty.clone());
        }
        Some(step(with_stmts(p, stmts), Check::Signature, "bottom-init"))
    });
    // the result local of the call under test (the last statement) goes, the call stays as
    // a statement: what the result is assigned to is part of the finding only when the
    // finding then changes; an ill-typed program broken at its result keeps it (without it
    // the program would be well-typed, and an acceptance would still look like the finding)
    let result = std::iter::once_with(move || {
        let Some(Stmt::Local { name, init, .. }) = p.stmts.last().filter(|_| !allow.keep_result)
        else {
            return None;
        };
        if uses(&p.stmts, name) != 0 {
            return None;
        }
        let mut stmts = p.stmts.clone();
        if let Some(last) = stmts.last_mut() {
            *last = Stmt::Expr(init.clone());
        }
        Some(step(with_stmts(p, stmts), Check::Signature, "drop-result"))
    })
    .flatten();
    // call chains collapse: a receiver that is a constructor call or a cast expression
    // becomes a typed bottom constant of its type
    let receivers = std::iter::once_with(move || {
        let bottomed = map_stmts(&p.stmts, bottom_receivers);
        (bottomed != p.stmts)
            .then(|| step(with_stmts(p, bottomed), Check::Signature, "collapse-chain"))
    })
    .flatten();
    // casts of locals to their own declared type go
    let casts = std::iter::once_with(move || {
        let declared: Vec<(String, Ty)> = p
            .stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::Local { name, ty, .. } => Some((name.clone(), ty.clone())),
                Stmt::Expr(_) => None,
            })
            .collect();
        let uncast = map_stmts(&p.stmts, |e| drop_own_casts(e, &declared));
        (uncast != p.stmts).then(|| step(with_stmts(p, uncast), Check::Signature, "drop-cast"))
    })
    .flatten();
    // each operand becomes its smallest inhabitant, each conditional one of its branches
    let operands = (0..n).flat_map(move |i| {
        let mut e = p.stmts[i].expr_ref().clone();
        let nodes = count(&mut e);
        (0..nodes).flat_map(move |k| {
            let mut base = p.stmts[i].expr_ref().clone();
            let mut found = Vec::new();
            let mut bottom = false;
            replace_nth(&mut base, k, |node, pos| {
                found = replacements(node, pos, allow);
                bottom = matches!(node, Expr::Bottom(_));
                None
            });
            found.into_iter().filter_map(move |(with, check)| {
                let pass = match (&with, check) {
                    (Expr::Lit(Lit::Null), _) if bottom => "drop-null-cast",
                    (_, Check::Signature) => "smallest-operand",
                    _ => "replace-operand",
                };
                let mut stmts = p.stmts.clone();
                let target = match &mut stmts[i] {
                    Stmt::Local { init, .. } => init,
                    Stmt::Expr(x) => x,
                };
                let mut with = Some(with);
                replace_nth(target, k, |_, _| with.take())
                    .then(|| step(with_stmts(p, stmts), check, pass))
            })
        })
    });
    // the steps that change types, which an oracle checks (none where a diamond's inference
    // is the language's own)
    let retypes = allow.oracle && !(allow.diamonds_need_a_target && has_diamond(p));
    // explicit type arguments go (inference must find them: the oracle checks it)
    let type_args = std::iter::once_with(move || {
        if !retypes {
            return None;
        }
        let erased = map_stmts(&p.stmts, drop_type_args);
        (erased != p.stmts).then(|| step(with_stmts(p, erased), Check::Oracle, "drop-type-args"))
    })
    .flatten();
    // a library class becomes a JDK supertype of it (the oracle checks it)
    let classes: Vec<String> = if retypes {
        library_classes(p).into_iter().collect()
    } else {
        Vec::new()
    };
    let jdk = classes.into_iter().flat_map(move |c| {
        let supers = hierarchy.get(&c).cloned().unwrap_or_default();
        supers
            .into_iter()
            .chain(std::iter::once("java.lang.Object".to_string()))
            .filter_map(move |s| retype(p, &c, &s))
            .map(move |q| step(q, Check::Oracle, "jdk-type"))
    });
    // each class type written (largest first) becomes `Object` everywhere it is written:
    // the smallest type that may still show the finding (the oracle checks it)
    let subtrees = if retypes {
        class_subtrees(p, 48)
    } else {
        Vec::new()
    };
    let again = subtrees.clone();
    let objects = subtrees.into_iter().filter_map(move |t| {
        retype_subtree(p, &t, &Ty::object()).map(|q| step(q, Check::Oracle, "object-type"))
    });
    // where `Object` loses the finding (a boxed result then fits: `Builder<Object>` takes an
    // `int`-returning reference), the short final `String` may keep it
    let string = Ty::class("java.lang.String", vec![]);
    let strings = again.into_iter().filter_map(move |t| {
        (t != string)
            .then(|| retype_subtree(p, &t, &string))
            .flatten()
            .map(|q| step(q, Check::Oracle, "string-type"))
    });
    unused
        .chain(file_level)
        .chain(inlined)
        .chain(bottomed_inits)
        .chain(result)
        .chain(receivers)
        .chain(casts)
        .chain(operands)
        .chain(type_args)
        .chain(jdk)
        .chain(objects)
        .chain(strings)
        .filter(move |s| measure(&s.program) < limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `a0 = null; a1 = a0; a2 = null; ...; m(a1, aN)`: a chain of reads and unused locals.
    fn chain(n: usize) -> Program {
        let string = Ty::class("java.lang.String", Vec::new());
        let mut stmts: Vec<Stmt> = (0..n)
            .map(|i| {
                let init = if i % 3 == 1 {
                    Expr::local(format!("a{}", i - 1))
                } else {
                    Expr::Lit(Lit::Null)
                };
                Stmt::local(format!("a{i}"), string.clone(), init)
            })
            .collect();
        stmts.push(Stmt::expr(Expr::static_call(
            "java.util.Objects",
            "equals",
            Vec::new(),
            vec![Expr::local("a1"), Expr::local(format!("a{}", n - 1))],
        )));
        Program::new("p1", stmts)
    }

    #[test]
    fn later_uses_counts_what_each_local_is_read_after_it() {
        let p = chain(12);
        let later = later_uses(&p.stmts);
        for (i, s) in p.stmts.iter().enumerate() {
            let expected = match s {
                Stmt::Local { name, .. } => uses(&p.stmts[i + 1..], name),
                Stmt::Expr(_) => 0,
            };
            assert_eq!(later[i], expected, "statement {i}");
        }
        assert_eq!(later[0], 1, "a1 = a0");
        assert_eq!(later[1], 1, "m(a1, ..)");
        assert_eq!(later[2], 0);
    }

    #[test]
    fn candidates_are_smaller_and_the_first_drops_the_first_unused_local() {
        let p = chain(12);
        let h = Hierarchy::new();
        let all: Vec<Step> = steps(
            &p,
            Allow {
                oracle: true,
                ..Allow::default()
            },
            &h,
        )
        .collect();
        assert!(!all.is_empty());
        for q in &all {
            assert!(measure(&q.program) < measure(&p));
        }
        // the first is the first unused local gone (a2)
        assert_eq!(all[0].program.stmts.len(), p.stmts.len() - 1);
        assert!(!all[0]
            .program
            .stmts
            .iter()
            .any(|s| matches!(s, Stmt::Local { name, .. } if name == "a2")));
    }

    /// `q` in Java.
    fn java(q: &Program) -> String {
        use thalia_translators::{JavaTranslator, Translator};
        JavaTranslator.translate(q).expect("translates")
    }

    /// `T a0 = (true ? ((A) null) : ((B) null)); new C(m("xyz", 7), a0).n(a0)`.
    fn nested() -> Program {
        let t = Ty::class("lib.T", Vec::new());
        let cond = Expr::cond(
            Expr::Lit(Lit::Bool(true)),
            Expr::Bottom(Ty::class("lib.A", Vec::new())),
            Expr::Bottom(Ty::class("lib.B", Vec::new())),
        );
        let inner = Expr::static_call(
            "lib.U",
            "m",
            Vec::new(),
            vec![Expr::str("xyz"), Expr::int(7)],
        );
        let call = Expr::new_instance("lib.C", Some(Vec::new()), vec![inner, Expr::local("a0")])
            .method("n", vec![Expr::local("a0")]);
        Program::new(
            "p1",
            vec![
                Stmt::local("a0", t, cond),
                Stmt::local("res", Ty::INT, call),
            ],
        )
    }

    #[test]
    fn no_type_changes_where_a_kotlin_diamond_needs_its_expected_type() {
        // `val a: lib.List<lib.A> = lib.ArrayList()`: Kotlin infers the diamond from the
        // declared type alone, which `Object` would leave without one (javac, the oracle,
        // accepts `new ArrayList<>()` for an `Object`)
        let list = Ty::class("lib.List", vec![Ty::class("lib.A", Vec::new())]);
        let diamond = Expr::new_instance("lib.ArrayList", None, Vec::new());
        let mut p = nested();
        p.stmts.insert(0, Stmt::local("d", list, diamond));
        let h = Hierarchy::new();
        let retypes = |allow: Allow| {
            steps(&p, allow, &h)
                .filter(|s| {
                    ["object-type", "string-type", "jdk-type", "drop-type-args"].contains(&s.pass)
                })
                .count()
        };
        let java = Allow {
            oracle: true,
            ..Allow::default()
        };
        let kotlin = Allow {
            diamonds_need_a_target: true,
            ..java
        };
        assert!(retypes(java) > 0);
        assert_eq!(retypes(kotlin), 0);
        // without a diamond, Kotlin's types change as Java's do
        let plain = nested();
        let count = |allow: Allow| {
            steps(&plain, allow, &h)
                .filter(|s| s.pass == "object-type")
                .count()
        };
        assert!(count(kotlin) > 0);
        assert_eq!(count(kotlin), count(java));
    }

    #[test]
    fn operands_become_their_smallest_inhabitants_and_conditionals_lose_a_branch() {
        let p = nested();
        let h = Hierarchy::new();
        let all: Vec<Step> = steps(
            &p,
            Allow {
                oracle: true,
                ..Allow::default()
            },
            &h,
        )
        .collect();
        let sources: Vec<(String, Check, &str)> = all
            .iter()
            .map(|s| (java(&s.program), s.check, s.pass))
            .collect();
        let has = |needle: &str, check: Check| {
            sources
                .iter()
                .any(|(src, c, _)| src.contains(needle) && *c == check)
        };
        // the string and the int become the smallest literals, keeping the types
        assert!(has("m(\"\", 7)", Check::Signature), "{sources:#?}");
        assert!(has("m(\"xyz\", 0)", Check::Signature));
        // the nested call becomes `null`, which may change the types: the oracle checks it
        assert!(has("new lib.C(null, a0)", Check::Oracle));
        // the conditional becomes one branch (oracle), its condition stays `true`
        assert!(has("lib.T a0 = ((lib.A) null);", Check::Oracle));
        assert!(has("lib.T a0 = ((lib.B) null);", Check::Oracle));
        // the library type of a0 becomes a JDK one (here Object: no hierarchy known)
        assert!(has("java.lang.Object a0 = ", Check::Oracle));
        // a class type becomes `Object` wherever it is written (oracle)
        assert!(
            sources.iter().any(|(src, c, pass)| *pass == "object-type"
                && *c == Check::Oracle
                && src.contains("java.lang.Object a0 = (true ? ((lib.A) null)")),
            "{sources:#?}"
        );

        // without an oracle, only the steps that keep the types
        let kept: Vec<Step> = steps(&p, Allow::default(), &h).collect();
        assert!(kept.iter().all(|s| s.check == Check::Signature));
        assert!(!kept.is_empty());
    }

    #[test]
    fn a_long_class_type_may_become_string_where_object_would_lose_the_finding() {
        let p = retype(&nested(), "lib.T", "lib.concurrent.ALongLibraryTypeName").expect("retyped");
        let h = Hierarchy::new();
        let oracle = Allow {
            oracle: true,
            ..Allow::default()
        };
        let strings: Vec<String> = steps(&p, oracle, &h)
            .filter(|s| s.pass == "string-type")
            .inspect(|s| assert_eq!(s.check, Check::Oracle))
            .map(|s| java(&s.program))
            .collect();
        assert!(
            strings
                .iter()
                .any(|src| src.contains("java.lang.String a0 = (true ? ((lib.A) null)")),
            "{strings:#?}"
        );
        // `String` is no step where it weighs as much as the type it replaces
        assert!(!steps(&nested(), oracle, &h)
            .any(|s| s.pass == "string-type" && java(&s.program).contains("java.lang.String a0")));
    }

    #[test]
    fn an_ill_typed_programs_operands_are_replaced_only_under_the_oracle() {
        let p = nested();
        let h = Hierarchy::new();
        let operand = |s: &Step| s.pass == "smallest-operand" || s.pass == "replace-operand";
        let ill = Allow {
            ill_typed: true,
            ..Allow::default()
        };
        assert!(!steps(&p, ill, &h).any(|s| operand(&s)));
        let checked = Allow {
            oracle: true,
            ..ill
        };
        let all: Vec<Step> = steps(&p, checked, &h).filter(operand).collect();
        assert!(!all.is_empty());
        assert!(all.iter().all(|s| s.check == Check::Oracle));
    }

    #[test]
    fn a_null_cast_to_object_goes_from_receivers_and_arguments_under_the_oracle() {
        let object = || Expr::Bottom(Ty::object());
        let p = Program::new(
            "p1",
            vec![
                Stmt::expr(Expr::static_call(
                    "java.util.Objects",
                    "equals",
                    Vec::new(),
                    vec![object(), Expr::Bottom(Ty::string())],
                )),
                Stmt::expr(object().method("hashCode", Vec::new())),
            ],
        );
        let h = Hierarchy::new();
        let oracle = Allow {
            oracle: true,
            ..Allow::default()
        };
        let dropped: Vec<Step> = steps(&p, oracle, &h)
            .filter(|s| s.pass == "drop-null-cast")
            .collect();
        let sources: Vec<String> = dropped.iter().map(|s| java(&s.program)).collect();
        assert_eq!(dropped.len(), 2, "{sources:#?}");
        assert!(dropped.iter().all(|s| s.check == Check::Oracle));
        // the argument and the receiver, each alone; a `String`'s cast is no such step
        assert!(
            sources[0].contains("java.util.Objects.equals(null, ((java.lang.String) null));"),
            "{sources:#?}"
        );
        assert!(
            sources[1].contains("java.util.Objects.equals(((java.lang.Object) null), ")
                && !sources[1].contains("((java.lang.Object) null).hashCode()"),
            "{sources:#?}"
        );
        // without an oracle, the casts stay
        assert!(!steps(&p, Allow::default(), &h).any(|s| s.pass == "drop-null-cast"));
        // in Kotlin an untyped `null` has no non-null type: never a replacement
        let kotlin = Allow {
            no_untyped_null: true,
            diamonds_need_a_target: false,
            ..oracle
        };
        assert!(
            !steps(&p, kotlin, &h).any(|s| s.program.stmts.iter().any(|st| {
                let mut null = false;
                st.expr_ref()
                    .walk(&mut |e| null |= matches!(e, Expr::Lit(Lit::Null)));
                null
            }))
        );
    }

    #[test]
    fn the_call_under_test_goes_only_when_allowed() {
        let p = nested();
        let h = Hierarchy::new();
        let drops_call = |allow: Allow| {
            steps(&p, allow, &h).any(|s| {
                s.program.stmts.len() == 1
                    && matches!(&s.program.stmts[0], Stmt::Local { name, .. } if name == "a0")
            })
        };
        assert!(!drops_call(Allow::default()));
        assert!(drops_call(Allow {
            drop_call: true,
            ..Allow::default()
        }));
    }

    #[test]
    fn declared_types_lambdas_and_references_become_typed_bottoms_under_the_oracle() {
        use thalia_translators::ir::{Method, TypeAlias};
        let runnable = Ty::class("java.lang.Runnable", Vec::new());
        let supplier = Ty::class("java.util.function.Supplier", vec![Ty::string()]);
        let anonymous = Expr::Anonymous {
            ty: runnable.clone(),
            super_args: None,
            methods: vec![Method {
                name: "run".into(),
                params: Vec::new(),
                ret: Ty::Prim(PrimTy::Void),
                body: Expr::Unit,
                kotlin: None,
            }],
        };
        let mut lambda = Expr::lambda(Vec::new(), Expr::str("x"));
        if let Expr::Lambda { target, .. } = &mut lambda {
            *target = Some(supplier.clone());
        }
        let call = Expr::static_call("lib.U", "m", Vec::new(), vec![anonymous, lambda]);
        let mut p = Program::new(
            "p1",
            vec![
                Stmt::local(
                    "a0",
                    Ty::class("lib.T", Vec::new()),
                    Expr::Bottom(Ty::string()),
                ),
                Stmt::local("res", Ty::INT, call),
            ],
        );
        p.aliases.push(TypeAlias {
            name: "Declared0".into(),
            class: "lib.T".into(),
            arity: 0,
        });
        p.experimental = true;
        let h = Hierarchy::new();
        let kotlin = Allow {
            oracle: true,
            no_untyped_null: true,
            diamonds_need_a_target: false,
            ..Allow::default()
        };
        let all: Vec<Step> = steps(&p, kotlin, &h).collect();
        let bottom_of = |t: &Ty| {
            all.iter().any(|s| {
                let mut found = false;
                s.program.stmts.iter().for_each(|st| {
                    st.expr_ref()
                        .walk(&mut |e| found |= matches!(e, Expr::Bottom(b) if b == t))
                });
                found && s.check == Check::Oracle
            })
        };
        assert!(
            bottom_of(&runnable),
            "the anonymous class becomes a typed null"
        );
        assert!(bottom_of(&supplier), "the lambda becomes a typed null");
        // without an oracle, neither
        assert!(!steps(&p, Allow::default(), &h).any(|s| {
            let mut found = false;
            s.program.stmts.iter().for_each(|st| {
                st.expr_ref()
                    .walk(&mut |e| found |= matches!(e, Expr::Bottom(b) if *b == runnable))
            });
            found
        }));
        // the alias goes as a step of its own, checked by the signature
        assert!(all.iter().any(|s| s.pass == "drop-alias"
            && s.program.aliases.is_empty()
            && s.check == Check::Signature));
        // every other step keeps the program's file-level declarations
        for s in all.iter().filter(|s| s.pass != "drop-alias") {
            assert_eq!(s.program.aliases, p.aliases, "{}", s.pass);
            assert!(s.program.experimental, "{}", s.pass);
        }
    }
}
