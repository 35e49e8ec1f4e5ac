//! The feature census: which expression forms the programs of a run use, counted from the
//! programs themselves (the IR), so that it says what was written, not what was drawn.
//! `summary.json` (`thalia synth`), `census.json` (`thalia run`) and `thalia report` show it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thalia_translators::ir::{
    CallForm, Expr, LambdaForm, Program, Receiver, RefKind, RefOn, Stmt, Ty,
};

/// Every form the census counts, with what it means (in report order).
pub const FORMS: [(&str, &str); 36] = [
    ("reference", "a function reference of any kind"),
    ("reference:static", "a static method reference `C::m`"),
    ("reference:bound", "a bound method reference `e::m`"),
    (
        "reference:unbound",
        "an unbound method reference `C::m` (receiver first)",
    ),
    ("reference:constructor", "a constructor reference `C::new`"),
    (
        "reference:array",
        "an array constructor reference `T[]::new`",
    ),
    (
        "reference:top-level",
        "a Kotlin top-level function reference `::f` (through an import alias)",
    ),
    (
        "reference:extension",
        "a Kotlin extension function reference `R::f` or `e::f` (through an import alias)",
    ),
    ("method-pointer", "Groovy's method pointer `e.&m`"),
    ("conditional", "a conditional expression"),
    ("lambda", "a lambda"),
    (
        "lambda-with-calls",
        "a lambda whose body calls an API member",
    ),
    (
        "block-lambda",
        "a lambda with a block body and local declarations",
    ),
    (
        "typed-lambda-params",
        "a lambda with declared parameter types",
    ),
    ("arrow-lambda", "Groovy's Java-style lambda `(x) -> e`"),
    (
        "anonymous-function",
        "Kotlin's anonymous function `fun(x) { }`",
    ),
    ("function-cast", "a cast of a lambda or reference"),
    (
        "inferred-local",
        "a local without a declared type (`var`, `def`, `val x =`)",
    ),
    ("cast", "a cast of any expression"),
    (
        "explicit-type-args",
        "a call or constructor call with explicit type arguments",
    ),
    ("diamond", "a constructor call with the diamond `<>`"),
    ("generic-test-method", "a test method with type parameters"),
    (
        "call-chain",
        "a call on the result of another call or of a constructor call",
    ),
    (
        "varargs-spread",
        "an array passed as a whole varargs argument",
    ),
    (
        "varargs-elements",
        "a varargs call (under test or in an operand) with its elements (none, one or several)",
    ),
    ("nullable-type", "a declared nullable type `T?`"),
    (
        "inner-class-creation",
        "an inner class created on its outer instance",
    ),
    (
        "call-as-reference",
        "the member under test as a function reference (`F res = C::m;`)",
    ),
    (
        "call-in-lambda",
        "the call under test inside a lambda (`F res = () -> r.m(a0);`)",
    ),
    (
        "operator",
        "Kotlin's operator form of a call (`a + b`, `b in a`, `a[i]`, `-a`, `a(x)`)",
    ),
    ("infix", "Kotlin's infix call `a name b`"),
    (
        "named-args",
        "Kotlin's named arguments after a default left out (`f(a, limit = 3)`)",
    ),
    (
        "default-omitted",
        "the call under test leaves out parameters with default values (Kotlin)",
    ),
    (
        "parameter-lists",
        "a Scala call with several explicit argument lists or none (`fold(z)(op)`, `empty[A]`)",
    ),
    (
        "implicit-arguments",
        "a Scala call given its implicit arguments (`f(a)(using ev)`, Scala 2 `f(a)(ev)`)",
    ),
    (
        "implicit-search",
        "a Scala call whose implicit arguments scalac's implicit search supplies (`xs.sorted[Int]`)",
    ),
];

/// The forms one program uses (names of [`FORMS`]) and its number of casts.
pub fn forms_of(p: &Program) -> (Vec<&'static str>, usize) {
    let mut seen = std::collections::BTreeSet::new();
    let mut casts = 0usize;
    if !p.type_params.is_empty() {
        seen.insert("generic-test-method");
    }
    let local_types = |stmts: &[Stmt], seen: &mut std::collections::BTreeSet<&'static str>| {
        for s in stmts {
            if let Stmt::Local { ty, inferred, .. } = s {
                if *inferred {
                    seen.insert("inferred-local");
                }
                ty.walk(&mut |t| {
                    if matches!(t, Ty::Nullable(_)) {
                        seen.insert("nullable-type");
                    }
                });
            }
        }
    };
    local_types(&p.stmts, &mut seen);
    // the call under test held by a function: the last statement's initializer
    if let Some(Stmt::Local { init, .. }) = p.stmts.last() {
        let init = match init {
            Expr::Cast { expr, .. } => &**expr,
            e => e,
        };
        match init {
            Expr::Ref { .. } => {
                seen.insert("call-as-reference");
            }
            Expr::Lambda { body, .. }
                if matches!(
                    **body,
                    Expr::Call { .. } | Expr::New { .. } | Expr::Field { .. }
                ) =>
            {
                seen.insert("call-in-lambda");
            }
            _ => {}
        }
    }
    p.walk_exprs(&mut |e| match e {
        Expr::Ref {
            kind,
            method_pointer,
            ..
        } => {
            seen.insert("reference");
            seen.insert(match kind {
                RefKind::Static { .. } => "reference:static",
                RefKind::Bound { .. } => "reference:bound",
                RefKind::Unbound { .. } => "reference:unbound",
                RefKind::Constructor { .. } => "reference:constructor",
                RefKind::ArrayConstructor { .. } => "reference:array",
                RefKind::PackageFunction {
                    on: RefOn::Nothing, ..
                } => "reference:top-level",
                RefKind::PackageFunction { .. } => "reference:extension",
            });
            if *method_pointer {
                seen.insert("method-pointer");
            }
        }
        Expr::Cond { .. } => {
            seen.insert("conditional");
        }
        Expr::Lambda {
            params,
            body,
            block,
            form,
            ..
        } => {
            seen.insert("lambda");
            let mut calls = false;
            let mut find = |x: &Expr| {
                if matches!(x, Expr::Call { .. } | Expr::New { .. } | Expr::Field { .. }) {
                    calls = true;
                }
            };
            body.walk(&mut find);
            block.iter().for_each(|s| s.walk(&mut find));
            if calls {
                seen.insert("lambda-with-calls");
            }
            if !block.is_empty() {
                seen.insert("block-lambda");
                local_types(block, &mut seen);
            }
            if params.iter().any(|(_, t)| t.is_some()) {
                seen.insert("typed-lambda-params");
            }
            match form {
                LambdaForm::Usual => {}
                LambdaForm::Arrow => {
                    seen.insert("arrow-lambda");
                }
                LambdaForm::AnonymousFunction => {
                    seen.insert("anonymous-function");
                }
            }
        }
        Expr::Cast { expr, .. } => {
            casts += 1;
            seen.insert("cast");
            if matches!(**expr, Expr::Lambda { .. } | Expr::Ref { .. }) {
                seen.insert("function-cast");
            }
        }
        Expr::Call {
            receiver,
            type_args,
            form,
            lists,
            ..
        } => {
            if !type_args.is_empty() {
                seen.insert("explicit-type-args");
            }
            match form {
                CallForm::Usual => {}
                CallForm::Operator => {
                    seen.insert("operator");
                }
                CallForm::Infix => {
                    seen.insert("infix");
                }
                CallForm::Named(_) => {
                    seen.insert("named-args");
                }
            }
            if let Some(l) = lists {
                if l.explicit.len() != 1 {
                    seen.insert("parameter-lists");
                }
                if l.implicit > 0 {
                    seen.insert("implicit-arguments");
                }
                if l.searched > 0 {
                    seen.insert("implicit-search");
                }
            }
            if let Receiver::Expr(r) = receiver {
                // through the cast a Groovy program puts on a broken or overloaded receiver
                let r = match &**r {
                    Expr::Cast { expr, .. } => &**expr,
                    r => r,
                };
                if matches!(r, Expr::Call { .. } | Expr::New { .. }) {
                    seen.insert("call-chain");
                }
            }
        }
        Expr::New {
            type_args, outer, ..
        } => {
            match type_args {
                None => {
                    seen.insert("diamond");
                }
                Some(v) if !v.is_empty() => {
                    seen.insert("explicit-type-args");
                }
                Some(_) => {}
            }
            if outer.is_some() {
                seen.insert("inner-class-creation");
            }
        }
        Expr::Spread(_) => {
            seen.insert("varargs-spread");
        }
        _ => {}
    });
    (seen.into_iter().collect(), casts)
}

/// How many programs of a run use each form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Census {
    /// Programs counted.
    pub programs: u64,
    /// Casts in all programs (divide by `programs` for casts per program).
    pub casts: u64,
    /// Programs that use each form (names of [`FORMS`]; a form no program uses is absent).
    pub forms: BTreeMap<String, u64>,
}

impl Census {
    /// Counts one more program; `varargs_elements` says whether one of its variable-arity
    /// calls is written with its elements (none, one or several) instead of an array.
    pub fn add(&mut self, p: &Program, varargs_elements: bool) {
        let (mut forms, casts) = forms_of(p);
        if varargs_elements {
            forms.push("varargs-elements");
        }
        self.programs += 1;
        self.casts += casts as u64;
        for f in forms {
            *self.forms.entry(f.to_string()).or_default() += 1;
        }
    }

    /// Counts one more synthesized program with what its record says beyond the IR
    /// (varargs elements, defaults left out).
    pub fn add_record(&mut self, p: &Program, r: &super::build::record::ProgramRecord) {
        self.add(p, r.uses_varargs_elements());
        if r.shape.defaults_omitted > 0 {
            *self.forms.entry("default-omitted".to_string()).or_default() += 1;
        }
    }

    /// Adds another census's counts.
    pub fn merge(&mut self, other: &Census) {
        self.programs += other.programs;
        self.casts += other.casts;
        for (f, n) in &other.forms {
            *self.forms.entry(f.clone()).or_default() += n;
        }
    }

    /// The share of programs (0 to 1) that use `form`.
    pub fn share(&self, form: &str) -> f64 {
        if self.programs == 0 {
            return 0.0;
        }
        self.forms.get(form).copied().unwrap_or(0) as f64 / self.programs as f64
    }

    /// Casts per program.
    pub fn casts_per_program(&self) -> f64 {
        if self.programs == 0 {
            0.0
        } else {
            self.casts as f64 / self.programs as f64
        }
    }

    /// A table of every form's share, for people (`thalia report`, `thalia synth`).
    pub fn table(&self) -> String {
        let mut out = format!(
            "| form | programs | share |\n| --- | ---: | ---: |\n| (all) | {} | 100% |\n",
            self.programs
        );
        for (name, _) in FORMS {
            let n = self.forms.get(name).copied().unwrap_or(0);
            out.push_str(&format!(
                "| {name} | {n} | {:.1}% |\n",
                100.0 * self.share(name)
            ));
        }
        out.push_str(&format!(
            "\ncasts per program: {:.2}\n",
            self.casts_per_program()
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_counted_from_the_program() {
        let f = Ty::class("java.util.function.Function", vec![Ty::string(), Ty::INT]);
        let mut lambda = Expr::lambda(
            vec![("s".into(), Some(Ty::string()))],
            Expr::local("s").method("length", vec![]),
        );
        if let Expr::Lambda { form, .. } = &mut lambda {
            *form = LambdaForm::Arrow;
        }
        let mut p = Program::new(
            "p1",
            vec![
                Stmt::local("f", f.clone(), Expr::cast(f, lambda)),
                Stmt::inferred_local(
                    "c",
                    Ty::string(),
                    Expr::cond(
                        Expr::Lit(thalia_translators::ir::Lit::Bool(true)),
                        Expr::str("a"),
                        Expr::str("b"),
                    ),
                ),
            ],
        );
        p.type_params.push(thalia_translators::ir::TypeParam {
            name: "T".into(),
            bounds: vec![],
        });
        let (forms, casts) = forms_of(&p);
        for want in [
            "lambda",
            "lambda-with-calls",
            "typed-lambda-params",
            "arrow-lambda",
            "function-cast",
            "cast",
            "inferred-local",
            "conditional",
            "generic-test-method",
        ] {
            assert!(forms.contains(&want), "{want} missing from {forms:?}");
        }
        assert!(!forms.contains(&"reference"), "{forms:?}");
        assert_eq!(casts, 1);
        let mut c = Census::default();
        c.add(&p, true);
        c.add(&Program::new("p2", vec![]), false);
        assert_eq!(c.programs, 2);
        assert!((c.share("lambda") - 0.5).abs() < 1e-9);
        assert!((c.share("varargs-elements") - 0.5).abs() < 1e-9);
        assert!(
            c.table().contains("| conditional | 1 | 50.0% |"),
            "{}",
            c.table()
        );
    }

    #[test]
    fn every_form_name_is_listed_once() {
        let names: std::collections::BTreeSet<&str> = FORMS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), FORMS.len());
    }
}
