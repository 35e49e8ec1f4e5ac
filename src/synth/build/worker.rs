//! A synthesis worker: a private copy of the API (its type arena grows as types are built),
//! the memo tables of its checker (`Worker::typing`) and of program building, the counters of
//! the program being built, and the random choice of types and substitutions.

use std::sync::Arc;

use petgraph::graph::NodeIndex;
use rand::seq::SliceRandom;
use rand::Rng;
use rustc_hash::FxHashMap;

use super::features::Features;
use super::inhabitant::FnType;
use super::ref_index::RefIndex;
use super::rng::SynthRng;
use crate::api::{Api, ClassId};
use crate::synth::config::SynthConfig;
use crate::synth::context::SynthContext;
use crate::synth::typing::rules::{narrower_prims, wider_prims, LanguageRules};
use crate::synth::typing::{Typing, TypingMemo};
use crate::types::{Subst, Type, TypeId, UnifyMode, VarId, Variance, Wildcard};

/// Deepest nesting of [`Worker::instance_below`] draws. Each level tries several subclasses
/// and substitutions, so the work grows exponentially with it; F-bounds of Java APIs
/// (`E extends Enum<E>`) need one or two levels, and Scala bounds that recur through
/// subclasses (`C <: IterableOps[A, CC, C]`) would otherwise never end.
const MAX_SUBST_NESTING: usize = 4;

/// Most candidates one substitution draw may try, the draws nested in it included (the
/// instances below bounds that its candidates need, and theirs). Each nesting level tries
/// [`SynthConfig::max_subst_attempts`] substitutions of several subclasses, so F-bounded
/// hierarchies with many subclasses (protobuf's `GeneratedMessageV3.ExtendableMessage<M
/// extends ExtendableMessage<M>>`) grew the work exponentially: one member of protobuf-java
/// took minutes. Ordinary draws need a few dozen; the budget is counted, not timed, so
/// synthesis stays deterministic.
const MAX_DRAW_ATTEMPTS: usize = 4_096;

/// How many types (the bound itself first) a variable with a lower bound draws from: the
/// bound and a few of its supertypes, so that `B >: A` is also instantiated above `A`.
const LOWER_BOUND_SUPERTYPES: usize = 4;

/// How often a higher-kinded variable drawn alone (`G[_]` of `def traverse[G[_]]`) takes one
/// of the constructors the API itself passes to such variables (`List` of `Traverse[List]`)
/// rather than any generic class of the right shape: type-class instances, which such members
/// take as implicit arguments, exist for those. The rest keeps other constructors reachable.
const MENTIONED_CONSTRUCTOR_PROBABILITY: f64 = 0.75;

/// One worker's state: its own API copy and caches. Results never depend on what the worker
/// did before (caches hold only deterministic data).
pub struct Worker<'c> {
    /// The worker's copy of the API (types are interned into it).
    pub api: Api,
    /// Shared read-only facts.
    pub ctx: &'c SynthContext,
    /// The configuration.
    pub cfg: &'c SynthConfig,
    /// The target language's rules (from `cfg.lang`).
    pub rules: LanguageRules,
    /// The memo tables of [`Worker::typing`].
    memo: TypingMemo,
    /// The memo tables of program building, filled on demand; they hold only facts derived
    /// from the API.
    pub(crate) caches: Caches,
    /// Where the program being built currently is (reset for every program).
    pub(crate) building: Building,
}

/// What a worker owns beyond its borrowed context: its API copy (whose arena grows with the
/// types it interns) and its memo tables, all facts of the API and the configuration; kept
/// between the batches of one plan so that they are copied and filled once.
pub struct WorkerState {
    api: Api,
    memo: TypingMemo,
    caches: Caches,
}

impl WorkerState {
    /// A fresh state over a copy of the API.
    pub fn new(api: Api) -> Self {
        WorkerState {
            api,
            memo: TypingMemo::default(),
            caches: Caches::default(),
        }
    }
}

/// Which classes below a class [`Worker::classes_below`] collects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Below {
    /// Functional interfaces (for a lambda or reference cast to one).
    Functional,
    /// Interfaces and abstract classes (for an anonymous class of one).
    Declarable,
    /// Generic concrete classes (for a constructor call whose type arguments inference may
    /// recover).
    Constructible,
}

/// A worker's memo tables. Each entry depends only on the API and the configuration, never
/// on the order of queries, so a worker gives the same answers whatever it did before.
#[derive(Default)]
pub(crate) struct Caches {
    /// Yen paths per target type node, source first.
    pub(crate) paths: FxHashMap<NodeIndex, Arc<Vec<Vec<NodeIndex>>>>,
    /// The same for programs with deep inhabitants (more paths per node).
    pub(crate) deep_paths: FxHashMap<NodeIndex, Arc<Vec<Vec<NodeIndex>>>>,
    /// The type variable of a generic test method per bound (`T extends B`), declared once in
    /// this worker's arena.
    pub(crate) program_vars: FxHashMap<TypeId, VarId>,
    /// The test method's copies of a member's related type variables, per variables and
    /// the values of the others (`None` for a related one; `None` overall when a bound
    /// cannot be written), declared once in this worker's arena.
    #[allow(clippy::type_complexity)]
    pub(crate) related_vars: FxHashMap<Vec<(VarId, Option<TypeId>)>, Option<Arc<Vec<VarId>>>>,
    /// The test method's F-bounded variable `T extends I<T>` per type `X` with a supertype
    /// `I<X>` (`None`: it has none).
    pub(crate) f_bounded_vars: FxHashMap<TypeId, Option<VarId>>,
    /// The test method's variables `U extends X` and `T extends U` per type `X`.
    pub(crate) chain_vars: FxHashMap<TypeId, (VarId, VarId)>,
    /// Every variable of `related_vars`, `f_bounded_vars` and `chain_vars`.
    pub(crate) related_set: rustc_hash::FxHashSet<VarId>,
    /// Per class and kind, the classes of that kind below it ([`Worker::classes_below`]).
    pub(crate) below: FxHashMap<(crate::types::Sym, Below), Arc<Vec<ClassId>>>,
    /// Per class type, the abstract methods an anonymous class of it declares, or `None`
    /// when none can be written ([`Worker::declarable_methods`]).
    pub(crate) declarable:
        FxHashMap<TypeId, Option<Arc<Vec<crate::synth::typing::members::AbstractMethod>>>>,
    /// The members usable in function references, by arity (built on first use).
    pub(crate) refs: Option<Arc<RefIndex>>,
    /// The API's functional interfaces by the arity of their abstract method (built on
    /// first use; empty before).
    pub(crate) functional: Vec<Arc<Vec<crate::api::ClassId>>>,
    /// Per type, its function type when it is a functional interface.
    pub(crate) fn_types: FxHashMap<TypeId, Option<FnType>>,
}

/// The counters of the program being built: where inhabitants are being written, so that
/// nested expressions respect the constraints of their context. The nesting counters go up
/// on entering a context and back down on leaving it.
#[derive(Default)]
pub(crate) struct Building {
    /// Nesting of substitutions drawn for instances below a bound ([`Worker::instance_below`]).
    pub(crate) subst_nesting: usize,
    /// Nesting of [`Worker::draw_subst`] calls (0 outside any).
    pub(crate) draw_nesting: usize,
    /// Candidates drawn since the outermost [`Worker::draw_subst`] call began.
    pub(crate) draw_attempts: usize,
    /// Lambda parameters named so far in this program (the next is `l{fresh + 1}`).
    pub(crate) fresh: usize,
    /// Nesting of lambda bodies being built (calls there may not throw checked exceptions).
    pub(crate) in_lambda: usize,
    /// Nesting of arguments being built whose calls must keep their type arguments.
    pub(crate) keep_type_args: usize,
    /// Nesting of paths through a member that takes a function being built (their operands
    /// take none of their own: a program stays small).
    pub(crate) in_function_path: usize,
    /// Nesting of arguments of overloaded calls being built where a call must keep its type
    /// arguments if a primitive argument would fix one ([`LanguageRules::boxes_inferred_primitives_by_target`]).
    pub(crate) keep_primitive_type_args: usize,
    /// The next inhabitant should be a path that ends in a method call or field access
    /// rather than a constructor call, where the API offers one (the receiver of a call
    /// chain); taken by the next [`Worker::inhabit`].
    pub(crate) prefer_call: bool,
    /// The next constructor call's target is a wildcard-typed one with `? extends` replaced
    /// by its bound ([`super::inhabitant::CallShape::bounded_goal`]); taken by the next
    /// [`Worker::call_member_erasing`].
    pub(crate) bounded_goal: bool,
    /// The expression forms the program being built may use (its swarm draw).
    pub(crate) features: Features,
    /// Lambda parameters and block locals in scope with their types (sources for the
    /// inhabitants of a lambda body).
    pub(crate) scope: Vec<(String, TypeId)>,
    /// Nesting of positions where a conditional must not be written (arguments of
    /// overloaded calls, receivers of bound references).
    pub(crate) no_conditionals: usize,
    /// Calls of the program besides the call under test written with their varargs
    /// elements instead of an array.
    pub(crate) varargs_element_calls: usize,
    /// Operands of the program whose type a generic API class's constructor can make (where
    /// the diamond could stand, whether or not it was written).
    pub(crate) diamond_sites: usize,
    /// Operands of the program whose type is an inner class that an instance of its
    /// enclosing class can create (written so or not).
    pub(crate) inner_class_sites: usize,
    /// The imports the program's extension calls need (Kotlin), sorted.
    pub(crate) imports: std::collections::BTreeSet<String>,
    /// The opt-in markers the program's member uses need (Kotlin), sorted.
    pub(crate) opt_ins: std::collections::BTreeSet<String>,
    /// Whether a member the program uses is Scala 3 `@experimental`.
    pub(crate) experimental: bool,
    /// Why the program's Java twin cannot judge it, from the members it uses (a Kotlin
    /// package member without the static method Java calls, a Kotlin property).
    pub(crate) no_twin: Option<&'static str>,
    /// Whether the program's test method declares type variables.
    pub(crate) generic_program: bool,
}

impl<'c> Worker<'c> {
    /// A worker over its own copy of the API.
    pub fn new(api: Api, ctx: &'c SynthContext, cfg: &'c SynthConfig) -> Self {
        Worker {
            api,
            ctx,
            cfg,
            rules: LanguageRules::new(cfg.lang),
            memo: TypingMemo::default(),
            caches: Caches::default(),
            building: Building::default(),
        }
    }

    /// A worker that takes up a state an earlier worker of the same context and
    /// configuration left ([`Worker::into_state`]): its API copy and its memo tables.
    pub fn from_state(state: WorkerState, ctx: &'c SynthContext, cfg: &'c SynthConfig) -> Self {
        Worker {
            api: state.api,
            ctx,
            cfg,
            rules: LanguageRules::new(cfg.lang),
            memo: state.memo,
            caches: state.caches,
            building: Building::default(),
        }
    }

    /// What this worker keeps for a later one: its API copy and its memo tables.
    pub fn into_state(self) -> WorkerState {
        WorkerState {
            api: self.api,
            memo: self.memo,
            caches: self.caches,
        }
    }

    /// What the target language's checker accepts, asked of this worker's API.
    pub fn typing(&mut self) -> Typing<'_> {
        Typing::new(&mut self.api, self.ctx, self.rules, &mut self.memo)
    }

    /// True when `t` mentions no type variable but those of a generic test method (which the
    /// program declares, so they can be written).
    pub(crate) fn ground_in_program(&self, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        a.is_ground(t)
            || a.free_vars(t).iter().all(|v| {
                self.caches.related_set.contains(v)
                    || self.caches.program_vars.values().any(|p| p == v)
            })
    }

    /// A random ground class type of nesting depth at most `depth`.
    pub fn random_type(&mut self, rng: &mut SynthRng, depth: usize) -> TypeId {
        for _ in 0..self.cfg.random_type_attempts {
            if depth > 0
                && !self.ctx.generic.is_empty()
                && rng.gen_bool(self.cfg.generic_type_probability)
            {
                let c = self.ctx.generic[rng.gen_range(0..self.ctx.generic.len())];
                if let Some(t) = self.random_instance(rng, c, depth) {
                    return t;
                }
            } else if !self.ctx.concrete.is_empty() {
                return self.ctx.concrete[rng.gen_range(0..self.ctx.concrete.len())];
            }
        }
        let o = self.ctx.object_sym;
        self.api.ts.arena.class(o, &[])
    }

    /// A random valid instance `C<...>` of a class, arguments of depth below `depth`.
    pub fn random_instance(
        &mut self,
        rng: &mut SynthRng,
        c: ClassId,
        depth: usize,
    ) -> Option<TypeId> {
        let cl = self.api.class(c);
        let sym = cl.sym;
        let params = cl.type_params.clone();
        if params.is_empty() {
            return Some(self.api.ts.arena.class(sym, &[]));
        }
        if depth == 0 {
            return None;
        }
        let s = self.draw_subst(rng, &params, depth - 1, &Subst::new())?;
        let args: Vec<TypeId> = params
            .iter()
            .map(|&p| s.get(p).unwrap_or(p_obj(self)))
            .collect();
        Some(self.api.ts.arena.class(sym, &args))
    }

    /// Draws a valid substitution for `vars` (extending `seed`), with types of depth at most
    /// `depth`; `None` when no valid one was found within the configured attempts.
    pub fn draw_subst(
        &mut self,
        rng: &mut SynthRng,
        vars: &[VarId],
        depth: usize,
        seed: &Subst,
    ) -> Option<Subst> {
        if vars.iter().all(|v| seed.contains(*v)) {
            return self.api.ts.is_valid_subst(seed).then(|| seed.clone());
        }
        if self.building.draw_nesting == 0 {
            self.building.draw_attempts = 0;
        }
        self.building.draw_nesting += 1;
        let s = self.draw_subst_attempts(rng, vars, depth, seed);
        self.building.draw_nesting -= 1;
        s
    }

    /// The attempts of [`Worker::draw_subst`], within [`MAX_DRAW_ATTEMPTS`] for the
    /// outermost call and all the draws nested in it.
    fn draw_subst_attempts(
        &mut self,
        rng: &mut SynthRng,
        vars: &[VarId],
        depth: usize,
        seed: &Subst,
    ) -> Option<Subst> {
        for _ in 0..self.cfg.max_subst_attempts {
            let mut s = seed.clone();
            for &v in vars {
                if s.contains(v) {
                    continue;
                }
                if self.building.draw_attempts >= MAX_DRAW_ATTEMPTS {
                    return None;
                }
                self.building.draw_attempts += 1;
                let t = self.candidate_for(rng, v, vars, &s, depth);
                s.insert(v, t);
            }
            if self.api.ts.is_valid_subst(&s) {
                return Some(s);
            }
        }
        None
    }

    /// A random candidate for variable `v` given the choices made so far.
    fn candidate_for(
        &mut self,
        rng: &mut SynthRng,
        v: VarId,
        vars: &[VarId],
        s: &Subst,
        depth: usize,
    ) -> TypeId {
        if self.api.ts.arena.var(v).higher_kinded {
            return self.type_constructor(rng, v);
        }
        // a variable bounded below by a chosen type (Scala's `B >: A`): that type or one of
        // its supertypes, which a random type seldom is
        if let Some(lower) = self.api.ts.arena.var(v).lower {
            let applied = self.api.ts.arena.subst(lower, s);
            if self.api.ts.arena.is_ground(applied) {
                let sups = self.supertypes(rng, applied, LOWER_BOUND_SUPERTYPES);
                return sups[rng.gen_range(0..sups.len())];
            }
        }
        let upper = self.api.ts.arena.var(v).upper.clone();
        let Some(&bound) = upper.first() else {
            return self.random_type(rng, depth);
        };
        let applied = self.api.ts.arena.subst(bound, s);
        match self.api.ts.arena.get(applied).clone() {
            Type::Var(w) if s.contains(w) => s.get(w).unwrap_or(applied),
            Type::Class { name, .. } => {
                if self.api.ts.is_root_class(name) {
                    return self.random_type(rng, depth);
                }
                let open = self
                    .api
                    .ts
                    .arena
                    .free_vars(applied)
                    .iter()
                    .any(|w| vars.contains(w));
                let subs = self.ctx.subclasses.get(&name).cloned().unwrap_or_default();
                if subs.is_empty() {
                    return self.random_type(rng, depth);
                }
                for _ in 0..self.cfg.subclass_attempts {
                    let e = subs[rng.gen_range(0..subs.len())];
                    let t = if open {
                        self.random_instance(rng, e, depth)
                    } else {
                        self.instance_below(rng, e, applied, depth)
                    };
                    if let Some(t) = t {
                        return t;
                    }
                }
                self.random_type(rng, depth)
            }
            _ => self.random_type(rng, depth),
        }
    }

    /// A type constructor for higher-kinded variable `v` (a generic class named without
    /// arguments, `List`) whose parameters match `v`'s own in number and variance; the top
    /// type, which no substitution accepts, when there is none or `v`'s shape is not plain.
    fn type_constructor(&mut self, rng: &mut SynthRng, v: VarId) -> TypeId {
        let shape = self.api.ts.arena.var(v).constructor_params.clone();
        let fits = |api: &Api, c: ClassId| {
            let params = &api.class(c).type_params;
            params.len() == shape.len()
                && params.iter().zip(&shape).all(|(&p, &want)| {
                    want == Variance::Invariant || api.ts.arena.var(p).variance == want
                })
        };
        let all: Vec<ClassId> = if shape.is_empty() {
            Vec::new()
        } else {
            self.ctx
                .constructors
                .iter()
                .copied()
                .filter(|&c| fits(&self.api, c))
                .collect()
        };
        let mentioned: Vec<ClassId> = all
            .iter()
            .copied()
            .filter(|&c| {
                self.ctx
                    .mentioned_constructors
                    .contains(&self.api.class(c).sym)
            })
            .collect();
        let pool = if !mentioned.is_empty() && rng.gen_bool(MENTIONED_CONSTRUCTOR_PROBABILITY) {
            &mentioned
        } else {
            &all
        };
        if pool.is_empty() {
            return self.api.ts.arena.top();
        }
        let sym = self.api.class(pool[rng.gen_range(0..pool.len())]).sym;
        self.api.ts.arena.class(sym, &[])
    }

    /// The API classes of kind `what` below class `sym`, cached: its subclasses, or every
    /// class for `Object` (though its supertypes may not say so; but Scala's universal
    /// traits, which are below `Any` only).
    pub(crate) fn classes_below(
        &mut self,
        sym: crate::types::Sym,
        what: Below,
    ) -> Arc<Vec<ClassId>> {
        if let Some(v) = self.caches.below.get(&(sym, what)) {
            return Arc::clone(v);
        }
        let keep = |w: &Self, c: ClassId| {
            let class = w.api.class(c);
            match what {
                Below::Functional => class.functional,
                Below::Declarable => matches!(
                    class.kind,
                    crate::api::ClassKind::Interface | crate::api::ClassKind::Abstract
                ),
                Below::Constructible => {
                    class.kind == crate::api::ClassKind::Class
                        && !class.type_params.is_empty()
                        && class.members.iter().any(|&m| {
                            w.api.member(m).kind == crate::api::MemberKind::Constructor
                                && w.ctx.path_usable.contains(&m)
                        })
                }
            }
        };
        let v: Vec<ClassId> = if sym == self.ctx.object_sym {
            self.api
                .class_ids()
                .filter(|&c| {
                    keep(self, c)
                        && !self
                            .rules
                            .extends_any_only(&self.api.ts, self.api.class(c).sym)
                })
                .collect()
        } else {
            self.ctx
                .subclasses
                .get(&sym)
                .map(|cs| cs.iter().copied().filter(|&c| keep(self, c)).collect())
                .unwrap_or_default()
        };
        let rc = Arc::new(v);
        self.caches.below.insert((sym, what), Arc::clone(&rc));
        rc
    }

    /// An instance of class `e` that is a subtype of `target`, its remaining type arguments
    /// drawn at random.
    pub fn instance_below(
        &mut self,
        rng: &mut SynthRng,
        e: ClassId,
        target: TypeId,
        depth: usize,
    ) -> Option<TypeId> {
        let cl = self.api.class(e);
        let sym = cl.sym;
        let params = cl.type_params.clone();
        let self_ty = self.api.ts.self_type(sym);
        let s =
            self.api
                .ts
                .unify_with(self_ty, target, &params, UnifyMode::Subtype, &Subst::new())?;
        // bounds that name subclasses of themselves (Scala's `C <: IterableOps[A, CC, C]`)
        // would recurse without end: the nesting is bounded
        if self.building.subst_nesting >= MAX_SUBST_NESTING {
            return None;
        }
        self.building.subst_nesting += 1;
        let s = self.draw_subst(rng, &params, depth.saturating_sub(1), &s);
        self.building.subst_nesting -= 1;
        let s = s?;
        let t = self.api.ts.arena.subst(self_ty, &s);
        if self.api.ts.arena.is_ground(t) && self.api.ts.is_subtype(t, target) {
            Some(t)
        } else {
            None
        }
    }

    /// Up to `cap` distinct subtypes of `t` (itself first).
    pub fn subtypes(&mut self, rng: &mut SynthRng, t: TypeId, cap: usize) -> Vec<TypeId> {
        let mut out = vec![t];
        // Kotlin's `String` is no `Constable`: a type mentioning one keeps only itself
        if !self.rules.sees_java_supertypes_of_builtins()
            && self.typing().mentions_java_only_supertype(t)
        {
            return out;
        }
        match self.api.ts.arena.get(t).clone() {
            Type::Prim(p) => {
                // the narrower primitives that widen to `p` (none in Kotlin)
                let rules = self.rules;
                let mut n = narrower_prims(p);
                n.retain(|&q| rules.widens_primitive(q, p));
                n.shuffle(rng);
                for q in n {
                    if out.len() >= cap {
                        break;
                    }
                    out.push(self.api.ts.arena.prim(q));
                }
            }
            Type::Class { name, .. } => {
                let mut subs = self.ctx.subclasses.get(&name).cloned().unwrap_or_default();
                subs.shuffle(rng);
                let depth = self.cfg.max_type_depth;
                for e in subs {
                    if out.len() >= cap {
                        break;
                    }
                    if self.api.class(e).sym == name {
                        continue;
                    }
                    if let Some(u) = self.instance_below(rng, e, t, depth) {
                        if !out.contains(&u) {
                            out.push(u);
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// Up to `cap` distinct supertypes of `t` (itself first), including wildcard-widened
    /// forms such as `List<? extends Number>` for `List<Integer>`.
    pub fn supertypes(&mut self, rng: &mut SynthRng, t: TypeId, cap: usize) -> Vec<TypeId> {
        let mut out = vec![t];
        let mut cands: Vec<TypeId> = match self.api.ts.arena.get(t).clone() {
            // the wider primitives `p` converts to in the language (none in Kotlin, no number
            // for a Groovy `char`)
            Type::Prim(p) => {
                let rules = self.rules;
                wider_prims(p)
                    .iter()
                    .filter(|&&q| rules.widens_primitive(p, q))
                    .map(|&q| self.api.ts.arena.prim(q))
                    .collect()
            }
            Type::Class { .. } | Type::Array(_) => {
                let mut sups = self.api.ts.all_supertypes(t);
                sups.retain(|&u| u != t && self.ctx.expressible(&self.api, u));
                // a raw supertype (a Java class's `extends KCallable`) where the language
                // has no raw types
                if !self.rules.has_raw_types() {
                    let a = &self.api.ts.arena;
                    let ts = &self.api.ts;
                    sups.retain(|&u| {
                        !a.as_class(u).is_some_and(|(c, args)| {
                            args.is_empty() && ts.class_params(c).is_some_and(|p| !p.is_empty())
                        })
                    });
                }
                let o = self.ctx.object_sym;
                let obj = self.api.ts.arena.class(o, &[]);
                // (not above Scala's `Any` and value classes, which are no `Object`s, nor
                // above a class whose supertypes are unknown, which may be a universal trait)
                // (nor above Scala's `java.io.Serializable` and `Comparable`, which extend `Any`)
                if !sups.contains(&obj) && self.api.ts.is_subtype(t, obj) && self.surely_object(t) {
                    sups.push(obj);
                }
                // one wildcard-widened variant of a generic supertype
                let generic: Vec<TypeId> = std::iter::once(t)
                    .chain(sups.iter().copied())
                    .filter(|&u| matches!(self.api.ts.arena.get(u), Type::Class { args, .. } if !args.is_empty()))
                    .collect();
                if let Some(&g) = generic.choose(rng) {
                    if let Some(w) = self.widen_with_wildcard(rng, g) {
                        // (a wildcard for a type constructor, `IterableOps[A, ? <: Seq, C]`,
                        // is not expressible)
                        if self.api.ts.is_subtype(t, w) && self.ctx.expressible(&self.api, w) {
                            sups.push(w);
                        }
                    }
                }
                sups
            }
            _ => Vec::new(),
        };
        cands.shuffle(rng);
        if !self.rules.sees_java_supertypes_of_builtins() {
            cands.retain(|&c| !self.typing().mentions_java_only_supertype(c));
        }
        for c in cands {
            if out.len() >= cap {
                break;
            }
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// Whether a value of type `t` is surely an `Object` in the target language: not a class
    /// that extends Scala's `Any` only (`java.io.Serializable`, `Comparable`, value classes),
    /// and, where the language has universal traits, of a known hierarchy.
    fn surely_object(&mut self, t: TypeId) -> bool {
        let any_only = matches!(self.api.ts.arena.get(t), Type::Class { name, .. }
            if self.rules.extends_any_only(&self.api.ts, *name));
        !any_only && (!self.rules.has_universal_traits() || self.typing().hierarchy_known(t))
    }

    /// Replaces one type argument `X` of `C<..X..>` by `? extends X`, `? extends S` for a
    /// supertype `S` of `X`, or `?`.
    fn widen_with_wildcard(&mut self, rng: &mut SynthRng, g: TypeId) -> Option<TypeId> {
        let (name, args) = {
            let (n, a) = self.api.ts.arena.as_class(g)?;
            (n, a.to_vec())
        };
        let i = rng.gen_range(0..args.len());
        if matches!(self.api.ts.arena.get(args[i]), Type::Wildcard(_)) {
            return None;
        }
        // Scala 3 checks another parameter's F-bound with the wildcard in it
        // (`BaseStream[? <: Long, LongStream]` for `S <: BaseStream[T, S]` is an error)
        if self.rules.checks_bounds_through_wildcards()
            && self.typing().bound_mentions_param(name, i)
        {
            return None;
        }
        let w = match rng.gen_range(0..3) {
            0 => Wildcard::Star,
            1 => Wildcard::Extends(args[i]),
            _ => {
                let sups = self.api.ts.all_supertypes(args[i]);
                let s = *sups.choose(rng)?;
                if !self.ctx.expressible(&self.api, s) {
                    return None;
                }
                // in Scala, `? <: Object` holds only an `AnyRef`: not a type variable, which
                // a universal trait may bound (`T <: Comparable[T]`), nor a class whose
                // supertypes are unknown or that extends `Any` only
                if s == p_obj(self)
                    && self.rules.has_universal_traits()
                    && !(matches!(self.api.ts.arena.get(args[i]), Type::Class { .. })
                        && self.surely_object(args[i]))
                {
                    return None;
                }
                // Kotlin checks a projection's bound against the type parameter's bounds
                // (`FailableLongPredicate<out Serializable>` for `E : Throwable` is an
                // error); Java accepts `? extends Serializable` there
                if self.rules.checks_projection_bounds() && !self.typing().within_bounds(name, i, s)
                {
                    return None;
                }
                Wildcard::Extends(s)
            }
        };
        let mut new_args = args;
        new_args[i] = self.api.ts.arena.wildcard(w);
        Some(self.api.ts.arena.class(name, &new_args))
    }
}

fn p_obj(w: &mut Worker<'_>) -> TypeId {
    let o = w.ctx.object_sym;
    w.api.ts.arena.class(o, &[])
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use thalia_translators::Language;

    use super::*;
    use crate::types::Prim;

    #[test]
    fn scala3_puts_no_wildcard_where_another_parameters_bound_mentions_it() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, wildcard_at_t) in [(Language::Java, true), (Language::Scala3, false)] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let base = w.api.ts.arena.sym("java.util.stream.BaseStream");
            assert!(
                w.typing().bound_mentions_param(base, 0),
                "S's bound mentions T"
            );
            assert!(!w.typing().bound_mentions_param(base, 1));
            let long_stream = w
                .api
                .ts
                .arena
                .class_named("java.util.stream.LongStream", &[]);
            let mut rng = SynthRng::seed_from_u64(3);
            let mut seen = false;
            for _ in 0..300 {
                for t in w.supertypes(&mut rng, long_stream, 12) {
                    if let Some((n, args)) = w.api.ts.arena.as_class(t) {
                        if n == base && matches!(w.api.ts.arena.get(args[0]), Type::Wildcard(_)) {
                            seen = true;
                        }
                    }
                }
            }
            assert_eq!(seen, wildcard_at_t, "{lang}: BaseStream<?.., LongStream>");
        }
    }

    #[test]
    fn a_primitive_stands_for_its_narrower_ones_only_where_they_widen() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for lang in [Language::Java, Language::Kotlin] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let int = w.api.ts.arena.prim(Prim::Int);
            let mut rng = SynthRng::seed_from_u64(7);
            let subs = w.subtypes(&mut rng, int, 4);
            let want = if lang == Language::Kotlin { 1 } else { 4 };
            assert_eq!(subs.len(), want, "{lang}: subtypes of int");
            assert_eq!(subs[0], int);
        }
    }
}
