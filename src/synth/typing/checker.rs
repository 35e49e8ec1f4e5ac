//! The checker's view of an API: [`Typing`] answers what the target language's compiler
//! accepts (conversions, overload resolution, implicit search, inference and erasure, the
//! members it cannot use), from the type system, the shared synthesis context and the
//! language's rules, with memo tables of its own. It draws nothing at random and knows
//! nothing of the program being built.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::rules::LanguageRules;
use crate::api::{Api, MemberId};
use crate::synth::context::{SkipReason, SynthContext};
use crate::types::{Type, TypeId};

/// What the target language's checker accepts, asked of an API (a worker's copy, whose
/// arena grows as types are interned) under the shared synthesis context.
pub struct Typing<'a> {
    /// The API (types are interned into it).
    pub api: &'a mut Api,
    /// Shared read-only facts.
    pub ctx: &'a SynthContext,
    /// The target language's rules.
    pub rules: LanguageRules,
    /// Memo tables filled on demand.
    pub(super) memo: &'a mut TypingMemo,
}

/// The memo tables of [`Typing`]. Each entry depends only on the API, the context and the
/// language's rules, never on the order of queries.
#[derive(Default)]
pub struct TypingMemo {
    /// Self types of the language's extension methods (Groovy's, Kotlin's), parsed into the
    /// API's arena.
    pub(super) extension_self_types: FxHashMap<&'static str, Option<TypeId>>,
    /// Per member, why the target language cannot use it (`None`: it can).
    pub(super) language_problems: FxHashMap<MemberId, Option<SkipReason>>,
    /// Per instance method, the classes that may declare it (see `Expr::Call::declared_in`).
    pub(super) declared_in: FxHashMap<MemberId, Arc<[String]>>,
}

impl<'a> Typing<'a> {
    /// The checker of `rules`' language over `api` and `ctx`, remembering in `memo` (which
    /// must not be shared between languages).
    pub fn new(
        api: &'a mut Api,
        ctx: &'a SynthContext,
        rules: LanguageRules,
        memo: &'a mut TypingMemo,
    ) -> Self {
        Typing {
            api,
            ctx,
            rules,
            memo,
        }
    }
}

impl Typing<'_> {
    /// True when type `t` is or contains a contravariant wildcard (`? super X`, `in X`).
    pub(crate) fn mentions_super_wildcard(&self, t: TypeId) -> bool {
        self.mentions(t, &|w| {
            matches!(w, Type::Wildcard(crate::types::Wildcard::Super(_)))
        })
    }

    /// True when type `t` or a type inside it is one that `is` picks.
    fn mentions(&self, t: TypeId, is: &dyn Fn(&Type) -> bool) -> bool {
        if is(self.api.ts.arena.get(t)) {
            return true;
        }
        let mut w = false;
        self.api
            .ts
            .arena
            .for_each_child(t, |c| w |= self.mentions(c, is));
        w
    }

    /// True when type `t` is or contains a wildcard.
    pub(crate) fn mentions_wildcard(&self, t: TypeId) -> bool {
        self.mentions(t, &|w| matches!(w, Type::Wildcard(_)))
    }
}
