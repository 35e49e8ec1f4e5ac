//! The index of the API's members usable in function references, by arity (built once per
//! worker by `Worker::reference`'s first use).

use crate::api::MemberId;
use crate::types::Prim;

/// The largest function arity indexed for references.
pub const MAX_REF_ARITY: usize = 4;

/// The API's members usable in function references, by parameter count, in the stable
/// order of `SynthContext::testable` (facts about the API only).
#[derive(Debug, Default)]
pub(crate) struct RefIndex {
    /// Non-generic static methods with `i` parameters (`C::m` for an `i`-ary function).
    pub(crate) statics: Vec<Vec<MemberId>>,
    /// Non-generic instance methods with `i` parameters (`e::m` for an `i`-ary function).
    pub(crate) instance: Vec<Vec<MemberId>>,
    /// Kotlin programs: the API's own top-level functions with `i` parameters (`::f`), by
    /// result (generic ones under [`Key::Var`] when their result is a type variable).
    pub(crate) top_level: Vec<ByKey>,
    /// Kotlin programs: the API's own extension functions with `i` parameters besides the
    /// receiver (`e::f` for an `i`-ary function), by result.
    pub(crate) extensions: Vec<ByKey>,
    /// The same extension functions by receiver (`R::f` for an `i + 1`-ary function).
    pub(crate) extensions_by_receiver: Vec<ByKey>,
}

/// The class (or primitive, or bottom) a type names, under its nullability: what the
/// package functions are indexed by, so that a reference's candidates are drawn among
/// those whose result (or receiver) can fit at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Class(crate::types::Sym),
    Prim(Prim),
    /// `Nothing`: fits every result.
    Bottom,
    /// A type variable of the function's own: may fit any type.
    Var,
}

/// Members grouped by the [`Key`] of one of their types.
#[derive(Clone, Debug, Default)]
pub(crate) struct ByKey {
    /// Every member, in index order.
    pub(crate) all: Vec<MemberId>,
    /// The members by key.
    pub(crate) by: rustc_hash::FxHashMap<Key, Vec<MemberId>>,
}

impl ByKey {
    /// Adds a member under a key (`None`: in `all` only).
    pub(crate) fn push(&mut self, key: Option<Key>, m: MemberId) {
        self.all.push(m);
        if let Some(k) = key {
            self.by.entry(k).or_default().push(m);
        }
    }

    /// The members under any of the keys, in the keys' order.
    pub(crate) fn under(&self, keys: &[Key]) -> Vec<MemberId> {
        keys.iter()
            .filter_map(|k| self.by.get(k))
            .flatten()
            .copied()
            .collect()
    }
}
