//! The feature census: which expression forms the programs of a run use, counted from the
//! programs themselves (the IR), so that it says what was written, not what was drawn.
//! `summary.json` (`thalia synth`), `census.json` (`thalia run`) and `thalia report` show it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thalia_translators::ir::{
    CallForm, Expr, LambdaForm, Program, Receiver, RefKind, RefOn, Stmt, Ty,
};

/// The forms that stand only where the API allows them: the form, the census entry that
/// counts the programs with a place for it, and what the report calls those places.
pub const SITES: [(&str, &str, &str); 2] = [
    ("diamond", "diamond-site", "diamond"),
    ("inner-class-creation", "inner-class-site", "inner-class"),
];

/// Every form the census counts, with what it means (in report order).
pub const FORMS: [(&str, &str); 47] = [
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
    (
        "anonymous-class",
        "an anonymous class (Kotlin object expression) implementing an API interface or extending an abstract API class",
    ),
    (
        "anonymous-subclass",
        "an anonymous subclass of an abstract API class, its constructor's arguments given",
    ),
    (
        "anonymous-class:several-methods",
        "an anonymous class implementing an interface with other than one abstract method",
    ),
    (
        "type-alias",
        "a Kotlin `typealias` or Scala `type` member for an API class of a declared local",
    ),
    ("function-cast", "a cast of a lambda or reference"),
    (
        "functional-argument",
        "a lambda or function reference passed as an argument of an API call or constructor call",
    ),
    (
        "as-coercion",
        "Groovy's `as` coercion (`{ x -> e } as F`, `e as T`)",
    ),
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
    (
        "diamond-site",
        "an operand of a generic class type that a generic API class's constructor can make (where the API allows the diamond)",
    ),
    ("generic-test-method", "a test method with type parameters"),
    (
        "related-type-vars",
        "a test method whose type parameters are bounded by each other or F-bounded",
    ),
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
        "inner-class-site",
        "an operand of an inner class type that an instance of its enclosing class can create (where the API allows inner-class creation)",
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
        "broken-in-lambda",
        "an ill-typed program whose broken call sits inside a lambda body",
    ),
    (
        "dense",
        "a program with at least `DENSE_CALLS` API calls (deep inhabitant chains)",
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

/// The number of API calls (calls, constructor calls, field reads) from which a program
/// counts as `dense`: the original tool's programs have about 10.
pub const DENSE_CALLS: usize = 8;

/// What one program holds besides its forms: counts for the per-program densities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Casts (and Groovy coercions).
    pub casts: usize,
    /// API calls: method calls, constructor calls and field reads.
    pub api_calls: usize,
    /// Lambdas (and Kotlin anonymous functions).
    pub lambdas: usize,
    /// Function references (method pointers included).
    pub references: usize,
}

/// The forms one program uses (names of [`FORMS`]) and its number of casts.
pub fn forms_of(p: &Program) -> (Vec<&'static str>, usize) {
    let (forms, counts) = forms_and_counts(p);
    (forms, counts.casts)
}

/// True when one of a type parameter's bounds names a type parameter of the same list
/// (itself: F-bounded, or another one).
fn related_type_params(p: &Program) -> bool {
    p.type_params.iter().any(|tp| {
        let mut named = false;
        for b in &tp.bounds {
            b.walk(&mut |t| {
                if let Ty::Var(v) = t {
                    named |= p.type_params.iter().any(|q| q.name == *v);
                }
            });
        }
        named
    })
}

/// The forms one program uses (names of [`FORMS`]) and what it counts.
pub fn forms_and_counts(p: &Program) -> (Vec<&'static str>, Counts) {
    let mut seen = std::collections::BTreeSet::new();
    let mut casts = 0usize;
    let mut api_calls = 0usize;
    let mut lambdas = 0usize;
    let mut references = 0usize;
    if !p.type_params.is_empty() {
        seen.insert("generic-test-method");
    }
    if related_type_params(p) {
        seen.insert("related-type-vars");
    }
    if !p.aliases.is_empty() {
        seen.insert("type-alias");
    }
    // a lambda or reference (under a cast or coercion) passed to a call
    let functional = |a: &Expr| {
        let a = match a {
            Expr::Cast { expr, .. } => &**expr,
            a => a,
        };
        matches!(a, Expr::Lambda { .. } | Expr::Ref { .. })
    };
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
            references += 1;
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
        Expr::Anonymous {
            super_args,
            methods,
            ..
        } => {
            seen.insert("anonymous-class");
            if super_args.is_some() {
                seen.insert("anonymous-subclass");
            } else if methods.len() != 1 {
                seen.insert("anonymous-class:several-methods");
            }
        }
        Expr::Lambda {
            params,
            body,
            block,
            form,
            ..
        } => {
            lambdas += 1;
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
        Expr::Cast { expr, coerce, .. } => {
            casts += 1;
            seen.insert("cast");
            if *coerce {
                seen.insert("as-coercion");
            }
            if matches!(**expr, Expr::Lambda { .. } | Expr::Ref { .. }) {
                seen.insert("function-cast");
            }
        }
        Expr::Call {
            receiver,
            type_args,
            form,
            lists,
            args,
            ..
        } => {
            api_calls += 1;
            if args.iter().any(functional) {
                seen.insert("functional-argument");
            }
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
            type_args,
            outer,
            args,
            ..
        } => {
            api_calls += 1;
            if args.iter().any(functional) {
                seen.insert("functional-argument");
            }
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
        Expr::Field { .. } => {
            api_calls += 1;
        }
        Expr::Spread(_) => {
            seen.insert("varargs-spread");
        }
        _ => {}
    });
    if api_calls >= DENSE_CALLS {
        seen.insert("dense");
    }
    let counts = Counts {
        casts,
        api_calls,
        lambdas,
        references,
    };
    (seen.into_iter().collect(), counts)
}

/// How many programs of a run use each form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Census {
    /// Programs counted.
    pub programs: u64,
    /// Casts in all programs (divide by `programs` for casts per program).
    pub casts: u64,
    /// API calls (calls, constructor calls, field reads) in all programs.
    #[serde(default)]
    pub api_calls: u64,
    /// Lambdas in all programs.
    #[serde(default)]
    pub lambdas: u64,
    /// Function references in all programs.
    #[serde(default)]
    pub references: u64,
    /// Programs that use each form (names of [`FORMS`]; a form no program uses is absent).
    pub forms: BTreeMap<String, u64>,
}

impl Census {
    /// Counts one more program; `varargs_elements` says whether one of its variable-arity
    /// calls is written with its elements (none, one or several) instead of an array.
    pub fn add(&mut self, p: &Program, varargs_elements: bool) {
        self.add_program(p, varargs_elements);
    }

    /// [`Census::add`], returning the program's forms.
    fn add_program(&mut self, p: &Program, varargs_elements: bool) -> Vec<&'static str> {
        let (mut forms, counts) = forms_and_counts(p);
        if varargs_elements {
            forms.push("varargs-elements");
        }
        self.programs += 1;
        self.casts += counts.casts as u64;
        self.api_calls += counts.api_calls as u64;
        self.lambdas += counts.lambdas as u64;
        self.references += counts.references as u64;
        for &f in &forms {
            *self.forms.entry(f.to_string()).or_default() += 1;
        }
        forms
    }

    /// Counts one more synthesized program with what its record says beyond the IR
    /// (varargs elements, defaults left out).
    pub fn add_record(&mut self, p: &Program, r: &super::build::record::ProgramRecord) {
        let forms = self.add_program(p, r.uses_varargs_elements());
        // a diamond written is a place where the API allowed it (also where the wanted type
        // was no generic class type: `new FutureTask<>(c)` for a `Runnable`)
        if r.shape.diamond_sites > 0 || forms.contains(&"diamond") {
            *self.forms.entry("diamond-site".to_string()).or_default() += 1;
        }
        // likewise an inner class created (also by the call under test)
        if r.shape.inner_class_sites > 0 || forms.contains(&"inner-class-creation") {
            *self
                .forms
                .entry("inner-class-site".to_string())
                .or_default() += 1;
        }
        if r.shape.defaults_omitted > 0 {
            *self.forms.entry("default-omitted".to_string()).or_default() += 1;
        }
        // the call under test inside a lambda (every wrap but the reference)
        let in_lambda = r.shape.wrapped.as_deref().is_some_and(|w| w != "reference");
        if r.broken.is_some() && in_lambda {
            *self
                .forms
                .entry("broken-in-lambda".to_string())
                .or_default() += 1;
        }
    }

    /// Adds another census's counts.
    pub fn merge(&mut self, other: &Census) {
        self.programs += other.programs;
        self.casts += other.casts;
        self.api_calls += other.api_calls;
        self.lambdas += other.lambdas;
        self.references += other.references;
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

    /// The share of the programs that use form `among` (0 to 1) that use `form` too: the
    /// diamond among the programs where the API allows it (`diamond-site`).
    pub fn share_among(&self, form: &str, among: &str) -> f64 {
        let n = self.forms.get(among).copied().unwrap_or(0);
        if n == 0 {
            return 0.0;
        }
        self.forms.get(form).copied().unwrap_or(0) as f64 / n as f64
    }

    /// What a form's line adds after its share: its share of the programs where the API
    /// allows it, for a form with a [`SITES`] entry.
    pub fn note(&self, form: &str) -> String {
        match SITES.iter().find(|(f, ..)| *f == form) {
            Some((_, site, what)) if self.forms.contains_key(*site) => format!(
                " ({:.1}% of the {what} sites)",
                100.0 * self.share_among(form, site)
            ),
            _ => String::new(),
        }
    }

    /// Casts per program.
    pub fn casts_per_program(&self) -> f64 {
        self.per_program(self.casts)
    }

    /// `n` divided by the programs counted (0 for none).
    fn per_program(&self, n: u64) -> f64 {
        if self.programs == 0 {
            0.0
        } else {
            n as f64 / self.programs as f64
        }
    }

    /// Casts, API calls, lambdas and references per program, for people.
    pub fn densities(&self) -> String {
        format!(
            "{:.2} casts, {:.2} API calls, {:.2} lambdas, {:.2} references per program",
            self.per_program(self.casts),
            self.per_program(self.api_calls),
            self.per_program(self.lambdas),
            self.per_program(self.references)
        )
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
                "| {name} | {n} | {:.1}%{} |\n",
                100.0 * self.share(name),
                self.note(name)
            ));
        }
        out.push_str(&format!("\n{}\n", self.densities()));
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
    fn the_forms_of_issue_36_and_the_densities_are_counted() {
        let f = Ty::class("java.util.function.Function", vec![Ty::string(), Ty::INT]);
        let typed = Expr::lambda(
            vec![("s".into(), Some(Ty::string()))],
            Expr::local("s").method("length", vec![]),
        );
        // `Optional.of("a").map((s -> s.length()) as F)`: a lambda passed to a call, coerced
        let call = Expr::static_call("java.util.Optional", "of", vec![], vec![Expr::str("a")])
            .method("map", vec![Expr::coerce(f.clone(), typed)]);
        let mut stmts = vec![Stmt::local("o", Ty::string(), call)];
        // seven more calls: ten in all (the lambda's `length()` too), dense
        for i in 0..7 {
            stmts.push(Stmt::local(
                format!("n{i}"),
                Ty::INT,
                Expr::local("o").method("hashCode", vec![]),
            ));
        }
        let mut p = Program::new("p1", stmts);
        p.type_params = vec![
            thalia_translators::ir::TypeParam {
                name: "U".into(),
                bounds: vec![Ty::string()],
            },
            thalia_translators::ir::TypeParam {
                name: "T".into(),
                bounds: vec![Ty::var("U")],
            },
        ];
        let (forms, counts) = forms_and_counts(&p);
        for want in [
            "functional-argument",
            "as-coercion",
            "related-type-vars",
            "dense",
            "lambda",
        ] {
            assert!(forms.contains(&want), "{want} missing from {forms:?}");
        }
        assert_eq!(counts.api_calls, 10);
        assert_eq!((counts.lambdas, counts.references, counts.casts), (1, 0, 1));
        // one unrelated type parameter, few calls, no lambda in an argument
        let mut q = Program::new(
            "p2",
            vec![Stmt::local("f", f.clone(), Expr::cast(f, Expr::local("g")))],
        );
        q.type_params = vec![thalia_translators::ir::TypeParam {
            name: "T".into(),
            bounds: vec![Ty::string()],
        }];
        let (forms, counts) = forms_and_counts(&q);
        for absent in [
            "functional-argument",
            "as-coercion",
            "related-type-vars",
            "dense",
        ] {
            assert!(!forms.contains(&absent), "{absent} in {forms:?}");
        }
        assert_eq!(counts.api_calls, 0);
        let mut c = Census::default();
        c.add(&p, false);
        c.add(&q, false);
        assert_eq!((c.api_calls, c.lambdas), (10, 1));
        assert!(
            c.densities().contains("5.00 API calls"),
            "{}",
            c.densities()
        );
    }

    #[test]
    fn every_form_name_is_listed_once() {
        let names: std::collections::BTreeSet<&str> = FORMS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), FORMS.len());
    }
}
