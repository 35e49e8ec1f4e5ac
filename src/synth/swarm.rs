//! Swarm configuration (as wasm-smith's `SwarmConfig`): every program draws which expression
//! forms it may use, so that a campaign explores combinations of forms instead of one average
//! shape. A form that is on is used at each place it fits with [`SwarmConfig::use_probability`].
//!
//! The draw itself is `build::features::Features::draw`.

use serde::{Deserialize, Serialize};

/// The probability that a program has each form on, and how often an on form is used.
/// Every field is a probability in `0.0..=1.0`; a field missing from a config file takes its
/// default. Forms a target language cannot write are off for it whatever the config says
/// (Groovy's method pointers and Java-style lambdas only in Groovy, anonymous functions and
/// declared nullable types only in Kotlin).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SwarmConfig {
    /// Function references (`C::m`, `e::m`, unbound `C::m`, `C::new`, `T[]::new`) where a
    /// functional interface is needed. Default 0.6: references are a large family of bugs
    /// (15 of the original tool's 62 Groovy bug programs) and fit few positions.
    pub references: f64,
    /// Groovy's method pointer `e.&m` instead of `e::m` for a bound reference. Default 0.5.
    pub method_pointers: f64,
    /// Conditional expressions whose branches are inhabitants of different subtypes of the
    /// wanted type (least-upper-bound inference), nested, with function branches. Default 0.75:
    /// the form fits only where an inhabitant has two subtypes to join.
    pub conditionals: f64,
    /// Lambda bodies computed by API calls that use the lambda's parameters (otherwise
    /// constants or typed bottom values). Default 0.7.
    pub lambda_bodies: f64,
    /// Lambda block bodies with local declarations (`{ T x = ..; return ..; }`). Default 0.8:
    /// only lambdas with operands to declare can have one.
    pub block_lambdas: f64,
    /// Lambda parameters with declared types (otherwise untyped). Default 0.9: typed
    /// parameters change how a compiler infers the lambda (4 of the original tool's 62 Groovy
    /// bug programs), and most programs have one lambda at most.
    pub typed_lambda_params: f64,
    /// Groovy's Java-style lambdas `(x) -> e` instead of closures. Default 0.7.
    pub arrow_lambdas: f64,
    /// Kotlin's anonymous functions `fun(x: A): R { .. }` instead of lambdas. Default 0.7:
    /// only lambdas whose types Kotlin can write down can be one.
    pub anonymous_functions: f64,
    /// Locals declared without a type (`var`, `def`, `val x =`): the compiler infers it.
    /// Default 0.4.
    pub inferred_locals: f64,
    /// Every use of a local cast to its declared type, where the language types locals by
    /// their initializer (Groovy's flow typing): the old one-shape programs. Default 0.15.
    pub cast_locals: f64,
    /// Calls that keep explicit type arguments although inference could recover them (and
    /// constructor calls with explicit type arguments instead of the diamond). Default 0.3.
    pub explicit_type_args: f64,
    /// A generic test method (`static <T extends B> void test()`) whose type variables appear
    /// in the typing sequence and the locals. Default 0.45.
    pub generic_test_method: f64,
    /// The call under test made on a call result (`a.b().m(..)`, call chains) instead of a
    /// local. Default 0.7 (it fits only where the receiver's inhabitant is a call).
    pub call_chains: f64,
    /// Varargs calls (the call under test, and calls in its operands) with zero, one or
    /// several elements instead of an array, each with probability
    /// `VARARGS_ELEMENTS_PROBABILITY` where Java's overload resolution still picks the member.
    /// Default 0.6.
    pub varargs_elements: f64,
    /// Declared nullable types `T?` in Kotlin where the null-safety rules allow them.
    /// Default 0.4.
    pub nullable_types: f64,
    /// Casts of lambdas and function references to their interface (`(F) x -> e`,
    /// `x::m as F`), also where no functional interface is wanted (`(Supplier<T>) C::new`
    /// for an `Object`), and of the member under test's own reference or lambda
    /// (`F res = (F) R::m;`). Default 0.6: most positions want no functional interface, and
    /// this is where references and lambdas reach them.
    pub function_casts: f64,
    /// Creation of inner-class instances on an outer instance (`outer.new Inner()`): the
    /// member under test when it is an inner class's constructor, and operands of an inner
    /// class's type (at `INNER_CLASS_USE`). Default 0.5: few APIs have public inner classes
    /// with public constructors, so the form costs little where it has no place.
    pub inner_classes: f64,
    /// The member under test written as a function reference assigned to a functional
    /// interface of the API whose function type is the typing sequence
    /// (`BiFunction<R, A, T> res = R::m;`, `Supplier<C> res = C::new;`) instead of a call.
    /// Default 0.3: where reference resolution and its inference live, for every member
    /// (only about 6 % of the typing sequences want a functional interface anywhere).
    pub call_as_reference: f64,
    /// The call under test inside a lambda whose target type carries the typing sequence
    /// (`Supplier<T> res = () -> r.m(a0);`, `Function<R, T> res = p -> p.m(a0);`, a block
    /// declaring the operands' locals). Default 0.35: lambda bodies, block lambdas and
    /// lambda-parameter inference for every member.
    pub call_in_lambda: f64,
    /// Deep inhabitant chains: the program's operands nest `deep_inhabitant_depth` calls
    /// deep (`SynthConfig`) instead of `max_inhabitant_depth`, so that the arguments of the
    /// calls on an inhabitant path, and the bodies of their lambdas, are themselves API
    /// calls; these programs reach the original tool's density (about 10 API calls).
    /// Default 0.35.
    pub deep_inhabitants: f64,
    /// Inhabitant paths through members that take a functional interface or function type:
    /// an operand of a class type sought first among such paths (to its own type, or to a
    /// type variable that such a path reaches: `Objects.requireNonNullElseGet(a, () -> b)`
    /// for a `String`), and such paths first among the others, so that lambdas and function
    /// references become arguments of generic and overloaded calls, constructor arguments
    /// and chain links (where the API has such paths); and the call under test's own
    /// functional arguments written in place (`r.m(x -> e)`) instead of as locals. Default
    /// 0.7 (functional arguments in 4 % of the programs before the first two, 13 % now on
    /// the embedded API; Kotlin 9 % and 21 %).
    pub functional_operands: f64,
    /// Type arguments left to inference where it recovers them exactly (the diamond
    /// `new C<>(..)`, `m(..)` without `<A>`), as `--erase` does for a whole run. Default 0.6.
    pub inferred_type_args: f64,
    /// A generic test method whose type parameters are bounded by each other or F-bounded:
    /// the member's (or its class's) own related parameters (`<K, V extends
    /// Comparable<K>>`, `<E extends Enum<E>>`) where it has them, else a type argument `X`
    /// replaced by `T extends I<T>` where `I<X>` is a supertype of `X` in the API, else an
    /// operand's type `X` replaced by `T` of `<U extends X, T extends U>`; used in the
    /// typing sequence and the locals, and kept only where Java's resolution still selects
    /// the member. Default 0.4.
    pub related_type_vars: f64,
    /// Groovy's `as` coercion (`{ x -> e } as F`, `e as T`) instead of a cast where it means
    /// the same: a closure or lambda to its interface, an operand to its declared type.
    /// Default 0.7.
    pub as_coercion: f64,
    /// Anonymous classes (Kotlin object expressions) implementing an API interface or
    /// extending an abstract API class where a value of it, or of a supertype, is wanted
    /// (`new Comparator<String>() { public int compare(String a, String b) { .. } }`, `new
    /// AbstractList<String>() { .. }` for a `Collection<String>`): the abstract methods
    /// declared with the type arguments substituted, a class's constructor arguments
    /// given. Default 0.9: few places want an interface or abstract class that can be
    /// written so, and at 0.6 only 6 % of programs had one (10 % now; Kotlin, which cannot
    /// write those below its mapped collections, 7 %).
    pub anonymous_classes: f64,
    /// Kotlin type aliases and Scala type members for the API classes of declared locals
    /// (`typealias Declared0<T0> = java.util.List<T0>`, `val x: Declared0<String>`), each
    /// class at the use probability. Default 0.5.
    pub type_aliases: f64,
    /// Operands of a generic class or interface type (`Collection<String>`) made by a
    /// constructor call of a generic API class below it (`new ArrayDeque<>(..)`), where
    /// inhabitant paths would mostly take a factory method or a typed `null`: the diamond
    /// and constructor inference where the API has such classes; also a path that ends in
    /// such a constructor call takes the diamond where its target recovers the type
    /// arguments. Default 0.9 (at 0.6, 4-5 % of programs had a diamond on the embedded API;
    /// 10 % now in Java and Groovy programs; Kotlin writes the form only in programs that
    /// leave other type arguments to inference too).
    pub generic_constructors: f64,
    /// How often a form that is on is used at a place where it fits. Default 0.5: a program
    /// mixes the form with the plain one, which is where inference has to reconcile them.
    pub use_probability: f64,
}

impl Default for SwarmConfig {
    fn default() -> Self {
        SwarmConfig {
            references: 0.6,
            method_pointers: 0.5,
            conditionals: 0.75,
            lambda_bodies: 0.7,
            block_lambdas: 0.8,
            typed_lambda_params: 0.9,
            arrow_lambdas: 0.7,
            anonymous_functions: 0.7,
            inferred_locals: 0.4,
            cast_locals: 0.15,
            explicit_type_args: 0.3,
            generic_test_method: 0.45,
            call_chains: 0.7,
            varargs_elements: 0.6,
            nullable_types: 0.4,
            function_casts: 0.6,
            inner_classes: 0.5,
            call_as_reference: 0.3,
            call_in_lambda: 0.35,
            deep_inhabitants: 0.35,
            functional_operands: 0.7,
            inferred_type_args: 0.6,
            related_type_vars: 0.4,
            as_coercion: 0.7,
            anonymous_classes: 0.9,
            type_aliases: 0.5,
            generic_constructors: 0.9,
            use_probability: 0.5,
        }
    }
}

impl SwarmConfig {
    /// Every form off: the plain programs of one call on typed locals (the pre-swarm shape).
    pub fn none() -> Self {
        SwarmConfig {
            references: 0.0,
            method_pointers: 0.0,
            conditionals: 0.0,
            lambda_bodies: 0.0,
            block_lambdas: 0.0,
            typed_lambda_params: 0.0,
            arrow_lambdas: 0.0,
            anonymous_functions: 0.0,
            inferred_locals: 0.0,
            cast_locals: 1.0,
            explicit_type_args: 0.0,
            generic_test_method: 0.0,
            call_chains: 0.0,
            varargs_elements: 0.0,
            nullable_types: 0.0,
            function_casts: 0.0,
            inner_classes: 0.0,
            call_as_reference: 0.0,
            call_in_lambda: 0.0,
            deep_inhabitants: 0.0,
            functional_operands: 0.0,
            inferred_type_args: 0.0,
            related_type_vars: 0.0,
            as_coercion: 0.0,
            anonymous_classes: 0.0,
            type_aliases: 0.0,
            generic_constructors: 0.0,
            use_probability: 0.5,
        }
    }

    /// The fields and their values, in declaration order (for validation and messages).
    pub fn fields(&self) -> [(&'static str, f64); 28] {
        [
            ("references", self.references),
            ("method_pointers", self.method_pointers),
            ("conditionals", self.conditionals),
            ("lambda_bodies", self.lambda_bodies),
            ("block_lambdas", self.block_lambdas),
            ("typed_lambda_params", self.typed_lambda_params),
            ("arrow_lambdas", self.arrow_lambdas),
            ("anonymous_functions", self.anonymous_functions),
            ("inferred_locals", self.inferred_locals),
            ("cast_locals", self.cast_locals),
            ("explicit_type_args", self.explicit_type_args),
            ("generic_test_method", self.generic_test_method),
            ("call_chains", self.call_chains),
            ("varargs_elements", self.varargs_elements),
            ("nullable_types", self.nullable_types),
            ("function_casts", self.function_casts),
            ("inner_classes", self.inner_classes),
            ("call_as_reference", self.call_as_reference),
            ("call_in_lambda", self.call_in_lambda),
            ("deep_inhabitants", self.deep_inhabitants),
            ("functional_operands", self.functional_operands),
            ("inferred_type_args", self.inferred_type_args),
            ("related_type_vars", self.related_type_vars),
            ("as_coercion", self.as_coercion),
            ("anonymous_classes", self.anonymous_classes),
            ("type_aliases", self.type_aliases),
            ("generic_constructors", self.generic_constructors),
            ("use_probability", self.use_probability),
        ]
    }

    /// The first field that is not a probability, as an error message.
    pub fn validate(&self) -> Result<(), String> {
        for (name, p) in self.fields() {
            if !(0.0..=1.0).contains(&p) {
                return Err(format!(
                    "swarm.{name} = {p} is not a probability (0.0 to 1.0)"
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probability_outside_the_unit_interval_is_refused() {
        let bad = SwarmConfig {
            conditionals: 1.5,
            ..SwarmConfig::default()
        };
        let e = bad.validate().expect_err("1.5 is refused");
        assert!(e.contains("swarm.conditionals"), "{e}");
        assert!(SwarmConfig::default().validate().is_ok());
    }

    #[test]
    fn an_unknown_swarm_field_is_an_error() {
        let e = serde_json::from_str::<SwarmConfig>(r#"{"referenses": 0.5}"#)
            .expect_err("a misspelt field is refused");
        assert!(e.to_string().contains("referenses"), "{e}");
    }
}
