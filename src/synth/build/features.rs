//! The swarm draw of a program (as wasm-smith's swarm testing): which expression forms it may
//! use, drawn from the [`SwarmConfig`] with the run's seed and the program's index alone
//! ([`RngStream::Swarm`]), so a program regenerated alone (`thalia synth --only ID`) has the
//! same forms; forms the target language cannot write are off.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::rng::RngStream;
use crate::synth::swarm::SwarmConfig;
use crate::synth::typing::rules::LanguageRules;

/// The forms one program may use (drawn from a [`SwarmConfig`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Features {
    /// See [`SwarmConfig::references`].
    pub references: bool,
    /// See [`SwarmConfig::method_pointers`].
    pub method_pointers: bool,
    /// See [`SwarmConfig::conditionals`].
    pub conditionals: bool,
    /// See [`SwarmConfig::lambda_bodies`].
    pub lambda_bodies: bool,
    /// See [`SwarmConfig::block_lambdas`].
    pub block_lambdas: bool,
    /// See [`SwarmConfig::typed_lambda_params`].
    pub typed_lambda_params: bool,
    /// See [`SwarmConfig::arrow_lambdas`].
    pub arrow_lambdas: bool,
    /// See [`SwarmConfig::anonymous_functions`].
    pub anonymous_functions: bool,
    /// See [`SwarmConfig::inferred_locals`].
    pub inferred_locals: bool,
    /// See [`SwarmConfig::cast_locals`].
    pub cast_locals: bool,
    /// See [`SwarmConfig::explicit_type_args`].
    pub explicit_type_args: bool,
    /// See [`SwarmConfig::generic_test_method`].
    pub generic_test_method: bool,
    /// See [`SwarmConfig::call_chains`].
    pub call_chains: bool,
    /// See [`SwarmConfig::varargs_elements`].
    pub varargs_elements: bool,
    /// See [`SwarmConfig::nullable_types`].
    pub nullable_types: bool,
    /// See [`SwarmConfig::function_casts`].
    pub function_casts: bool,
    /// See [`SwarmConfig::inner_classes`].
    pub inner_classes: bool,
    /// See [`SwarmConfig::call_as_reference`].
    pub call_as_reference: bool,
    /// See [`SwarmConfig::call_in_lambda`].
    pub call_in_lambda: bool,
    /// See [`SwarmConfig::deep_inhabitants`].
    #[serde(default)]
    pub deep_inhabitants: bool,
    /// See [`SwarmConfig::functional_operands`].
    #[serde(default)]
    pub functional_operands: bool,
    /// See [`SwarmConfig::inferred_type_args`].
    #[serde(default)]
    pub inferred_type_args: bool,
    /// See [`SwarmConfig::related_type_vars`].
    #[serde(default)]
    pub related_type_vars: bool,
    /// See [`SwarmConfig::as_coercion`].
    #[serde(default)]
    pub as_coercion: bool,
    /// See [`SwarmConfig::anonymous_classes`].
    #[serde(default)]
    pub anonymous_classes: bool,
    /// See [`SwarmConfig::type_aliases`].
    #[serde(default)]
    pub type_aliases: bool,
    /// See [`SwarmConfig::generic_constructors`].
    #[serde(default)]
    pub generic_constructors: bool,
}

impl Features {
    /// The forms of program `index` of a run with `seed` in the language of `rules`.
    pub fn draw(cfg: &SwarmConfig, rules: LanguageRules, seed: u64, index: u64) -> Features {
        let mut rng = RngStream::Swarm.rng(seed, index);
        let mut on = |p: f64| rng.gen_bool(p.clamp(0.0, 1.0));
        // every field is drawn in every language, so that a language's draws do not shift
        // the others'
        let mut f = Features {
            references: on(cfg.references),
            method_pointers: on(cfg.method_pointers),
            conditionals: on(cfg.conditionals),
            lambda_bodies: on(cfg.lambda_bodies),
            block_lambdas: on(cfg.block_lambdas),
            typed_lambda_params: on(cfg.typed_lambda_params),
            arrow_lambdas: on(cfg.arrow_lambdas),
            anonymous_functions: on(cfg.anonymous_functions),
            inferred_locals: on(cfg.inferred_locals),
            cast_locals: on(cfg.cast_locals),
            explicit_type_args: on(cfg.explicit_type_args),
            generic_test_method: on(cfg.generic_test_method),
            call_chains: on(cfg.call_chains),
            varargs_elements: on(cfg.varargs_elements),
            nullable_types: on(cfg.nullable_types),
            function_casts: on(cfg.function_casts),
            inner_classes: on(cfg.inner_classes),
            call_as_reference: on(cfg.call_as_reference),
            call_in_lambda: on(cfg.call_in_lambda),
            deep_inhabitants: on(cfg.deep_inhabitants),
            functional_operands: on(cfg.functional_operands),
            inferred_type_args: on(cfg.inferred_type_args),
            related_type_vars: on(cfg.related_type_vars),
            as_coercion: on(cfg.as_coercion),
            anonymous_classes: on(cfg.anonymous_classes),
            type_aliases: on(cfg.type_aliases),
            generic_constructors: on(cfg.generic_constructors),
        };
        f.method_pointers &= rules.writes_method_pointers();
        f.arrow_lambdas &= rules.writes_arrow_lambdas();
        // (casts of every local where the language types locals by their initializer)
        f.cast_locals &= rules.flow_types_locals();
        f.anonymous_functions &= rules.writes_anonymous_functions();
        f.nullable_types &= rules.has_nullable_types();
        f.as_coercion &= rules.writes_as_coercion();
        f.type_aliases &= rules.writes_type_aliases();
        f
    }

    /// Every form on (for tests that want each form exercised).
    pub fn all() -> Features {
        Features {
            references: true,
            method_pointers: true,
            conditionals: true,
            lambda_bodies: true,
            block_lambdas: true,
            typed_lambda_params: true,
            arrow_lambdas: true,
            anonymous_functions: true,
            inferred_locals: true,
            cast_locals: false,
            explicit_type_args: true,
            generic_test_method: true,
            call_chains: true,
            varargs_elements: true,
            nullable_types: true,
            function_casts: true,
            inner_classes: true,
            call_as_reference: true,
            call_in_lambda: true,
            deep_inhabitants: true,
            functional_operands: true,
            inferred_type_args: true,
            related_type_vars: true,
            as_coercion: true,
            anonymous_classes: true,
            type_aliases: true,
            generic_constructors: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use thalia_translators::Language;

    #[test]
    fn the_draw_depends_only_on_seed_and_index() {
        let cfg = SwarmConfig::default();
        let a = Features::draw(&cfg, LanguageRules::new(Language::Groovy), 7, 42);
        assert_eq!(
            a,
            Features::draw(&cfg, LanguageRules::new(Language::Groovy), 7, 42)
        );
        let distinct: std::collections::HashSet<String> = (0..50)
            .map(|i| {
                format!(
                    "{:?}",
                    Features::draw(&cfg, LanguageRules::new(Language::Groovy), 7, i)
                )
            })
            .collect();
        assert!(distinct.len() > 40, "{}", distinct.len());
    }

    #[test]
    fn forms_a_language_cannot_write_are_off() {
        let all_on = SwarmConfig {
            method_pointers: 1.0,
            arrow_lambdas: 1.0,
            anonymous_functions: 1.0,
            nullable_types: 1.0,
            cast_locals: 1.0,
            ..SwarmConfig::default()
        };
        let j = Features::draw(&all_on, LanguageRules::new(Language::Java), 1, 1);
        assert!(!j.method_pointers && !j.arrow_lambdas && !j.anonymous_functions);
        assert!(!j.nullable_types && !j.cast_locals);
        let k = Features::draw(&all_on, LanguageRules::new(Language::Kotlin), 1, 1);
        assert!(k.anonymous_functions && k.nullable_types && !k.arrow_lambdas);
        let g = Features::draw(&all_on, LanguageRules::new(Language::Groovy), 1, 1);
        assert!(g.method_pointers && g.arrow_lambdas && g.cast_locals);
    }
}
