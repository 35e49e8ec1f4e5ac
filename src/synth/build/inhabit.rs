//! Inhabitants (Section 3.4, Algorithms 1 and 2): expressions of a wanted type, built from
//! k-shortest loopless paths of the API graph (Yen, cached per target node) whose
//! substitutions unify with the target, or literals, typed bottom constants, and the forms
//! of the program's swarm draw (conditionals, lambdas and references, anonymous classes, casts
//! to a functional interface; see `lambda`, `reference`, `anonymous`, `conditional`).

use std::sync::Arc;

use pathfinding::directed::yen::yen;
use petgraph::graph::NodeIndex;
use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{Expr, Lit};

use super::anonymous::BELOW_TRIES;
use super::inhabitant::{CallShape, Inhabitant};
use super::ir::to_ir;
use super::rng::SynthRng;
use super::worker::{Below, Worker};
use crate::api::{ClassId, MemberId, MemberKind};
use crate::graph::{ApiGraph, EdgeKind, Node};
use crate::synth::context::outer_class;
use crate::synth::typing::erase::InferInfo;
use crate::synth::typing::overload::Resolution;
use crate::synth::typing::sequence::TypingSequence;
use crate::types::{Prim, Subst, Type, TypeArena, TypeId, UnifyMode, VarId, Wildcard};

/// The string literals drawn for `String` (the empty string among them).
const STRINGS: [&str; 6] = ["a", "thalia", "x1", "", "Hello", "42"];

/// The `char` literals drawn for `char` and `Character` (a letter at each end of the
/// alphabet, a digit, a space).
const CHARS: [char; 4] = ['a', 'z', '0', ' '];

/// How many times `yen_k` paths a program with deep inhabitants or functional operands
/// searches per target: the k shortest paths of a type are mostly one or two calls long and
/// seldom take a function.
pub const DEEP_YEN_FACTOR: usize = 4;

/// The probability that a program with generic constructors on makes an operand of a
/// generic class type by a constructor call of a class below it (at least the use
/// probability). Default 0.7: such operands are mostly made by paths and conditionals
/// otherwise, and the form (the diamond, constructor inference) fits few positions.
pub const GENERIC_CONSTRUCTOR_USE: f64 = 0.7;

/// The probability that a program with inner-class creation on makes an operand of an
/// inner class's type on an instance of its enclosing class (at least the use probability).
/// Default 0.7, as [`GENERIC_CONSTRUCTOR_USE`]: inhabitant paths never take an inner class's
/// constructor (their steps have no enclosing instance), so such an operand is otherwise a
/// call's result or a bottom constant.
pub const INNER_CLASS_USE: f64 = 0.7;

/// How many of the type variables that a path through a member taking a function reaches
/// are tried for one operand (after the operand's own type's paths): each costs a path
/// search the first time and a unification.
pub const FUNCTION_VAR_TRIES: usize = 4;

/// Which of a type's paths [`Worker::path_inhabitant`] tries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PathPick {
    /// Every path, in random order.
    Any,
    /// The paths whose last member is no constructor first (a call chain's receiver).
    Call,
    /// Only the paths through a member that takes a functional interface or function type.
    Function,
}

/// Added to a drawn integer to make a `float` literal with a fraction (exact in binary).
const FLOAT_FRACTION: f32 = 0.5;

/// Added to a drawn integer to make a `double` literal with a fraction (exact in binary).
const DOUBLE_FRACTION: f64 = 0.25;

impl Worker<'_> {
    /// An expression of type `t` (a subtype of it), nested at most `depth` calls deep.
    pub fn inhabit(&mut self, rng: &mut SynthRng, t: TypeId, depth: usize) -> Inhabitant {
        // a by-name parameter `=> T` takes an expression of `T`
        let t = match *self.api.ts.arena.get(t) {
            Type::Nullable(i) | Type::ByName(i) => i,
            _ => t,
        };
        // a call chain's receiver: a path that ends in a call, if any is feasible
        if std::mem::take(&mut self.building.prefer_call)
            && depth > 0
            && matches!(self.api.ts.arena.get(t), Type::Class { .. })
        {
            if let Some(e) = self.path_inhabitant(rng, t, depth, PathPick::Call) {
                return e;
            }
        }
        let feats = self.building.features;
        let p = self.cfg.swarm.use_probability;
        // inside a lambda body, its parameters and block locals are sources too
        if !self.building.scope.is_empty() && feats.lambda_bodies && rng.gen_bool(p) {
            if let Some(e) = self.scope_source(rng, t) {
                return e;
            }
        }
        if self.diamond_site(t) {
            self.building.diamond_sites += 1;
        }
        // an inner class made on an instance of its enclosing class (`outer.new Inner()`)
        let inner = self.inner_constructors(t);
        if !inner.is_empty() {
            self.building.inner_class_sites += 1;
            if feats.inner_classes && rng.gen_bool(INNER_CLASS_USE.max(p)) {
                if let Some(e) = self.inner_created(rng, &inner, t, depth) {
                    return e;
                }
            }
        }
        // a constructor call of a generic class below the wanted type (the diamond); at the
        // deepest level too, through a constructor without parameters
        if feats.generic_constructors && rng.gen_bool(GENERIC_CONSTRUCTOR_USE.max(p)) {
            if let Some(c) = self.constructed(rng, t, depth) {
                return c;
            }
        }
        // a value computed by a call that takes a lambda or function reference
        // (`Optional.of(a).map(x -> e).orElse(b)`): functional arguments of generic and
        // overloaded calls deep in the operands, where the API has such paths; not at the
        // last level but one, whose calls' arguments are bottom constants
        let class = matches!(self.api.ts.arena.get(t), Type::Class { .. });
        if feats.functional_operands
            && class
            && depth > 1
            && self.building.in_function_path == 0
            && rng.gen_bool(p)
        {
            self.building.in_function_path += 1;
            let e = self.path_inhabitant(rng, t, depth, PathPick::Function);
            self.building.in_function_path -= 1;
            if let Some(e) = e {
                return e;
            }
        }
        if feats.conditionals && depth > 0 && rng.gen_bool(p) {
            if let Some(c) = self.conditional(rng, t, depth) {
                return c;
            }
        }
        // a deep program computes a string or box by an API call where a path makes one
        let boxed = matches!(self.api.ts.arena.get(t), Type::Class { .. });
        if feats.deep_inhabitants && boxed && depth > 0 && rng.gen_bool(p) {
            if let Some(e) = self.path_inhabitant(rng, t, depth, PathPick::Any) {
                return e;
            }
        }
        if let Some((lit, own)) = self.literal(rng, t) {
            // a literal for a box is of the primitive type: overload resolution sees a `1.5f`
            // for a `java.lang.Float`, which may take a `float` or `double` overload first
            // (Java's phase 1) or be ambiguous between the boxes (Scala 2), and casts it
            return Inhabitant {
                expr: lit,
                info: InferInfo::Standalone(own),
            };
        }
        match self.api.ts.arena.get(t).clone() {
            Type::Array(e) => {
                // an element of an array written through its wildcard form has that form as
                // its target (`asBiFunction(..)` erased in a `new BiFunction<?, ?, ?>[] {..}`
                // infers nothing): its calls keep their type arguments, and no conditional
                let wild = self.rules.writes_generic_arrays_by_wildcards() && !self.reifiable(e);
                self.building.keep_type_args += usize::from(wild);
                self.building.no_conditionals += usize::from(wild);
                let elem = self.inhabit(rng, e, depth.saturating_sub(1));
                self.building.keep_type_args -= usize::from(wild);
                self.building.no_conditionals -= usize::from(wild);
                return Inhabitant {
                    expr: Expr::NewArray {
                        elem: to_ir(&self.api, e),
                        elems: vec![elem.expr],
                    },
                    info: InferInfo::Standalone(t),
                };
            }
            Type::Class { .. } => {}
            // a Kotlin function type: a lambda or a function reference
            Type::Function { .. } if depth > 0 => {
                if feats.references && self.rules.references_for_function_types() && rng.gen_bool(p)
                {
                    if let Some(r) = self
                        .function_type(t)
                        .and_then(|f| self.reference(rng, &f, depth))
                    {
                        return r;
                    }
                }
                // cast to its type: the lambda then has no expected type, so the calls of its
                // body keep their type arguments
                let cast = feats.function_casts
                    && self.rules.casts_lambdas_to_function_types()
                    && rng.gen_bool(p)
                    && self.ground_in_program(t);
                self.building.keep_type_args += usize::from(cast);
                let l = self.lambda(rng, t, depth);
                self.building.keep_type_args -= usize::from(cast);
                // a lambda or reference (or a conditional) as the body needs the expected type
                // of the lambda's result, which a cast does not give
                let poly_body = |e: &Expr| {
                    matches!(e, Expr::Lambda { body, .. }
                        if matches!(**body, Expr::Lambda { .. } | Expr::Ref { .. } | Expr::Cond { .. }))
                };
                return match l {
                    Some(l) if cast && !poly_body(&l.expr) => Inhabitant {
                        expr: Expr::cast(to_ir(&self.api, t), l.expr),
                        info: InferInfo::Standalone(t),
                    },
                    Some(l) => l,
                    None => self.bottom(t),
                };
            }
            _ => return self.bottom(t),
        }
        if depth == 0 {
            return self.bottom(t);
        }
        if feats.references && rng.gen_bool(p) {
            if let Some(f) = self.function_type(t) {
                if let Some(r) = self.reference(rng, &f, depth) {
                    return self.maybe_cast(rng, r, &f);
                }
            }
        }
        // where no functional interface is wanted (an `Object`, a `Serializable`), a lambda
        // or reference cast to a functional interface below the wanted type
        if feats.function_casts && rng.gen_bool(p) && self.function_type(t).is_none() {
            if let Some(c) = self.function_cast_below(rng, t, depth) {
                return c;
            }
        }
        // an anonymous class of the interface or abstract class wanted here, else (at
        // `anonymous_below_probability`) of one below it
        if feats.anonymous_classes && rng.gen_bool(p) {
            if let Some(a) = self.anonymous_class(rng, t, depth) {
                return a;
            }
            if rng.gen_bool(self.cfg.anonymous_below_probability) {
                if let Some(a) = self.anonymous_below(rng, t, depth) {
                    return a;
                }
            }
        }
        let sam_first = rng.gen_bool(self.cfg.lambda_first_probability);
        if sam_first {
            if let Some(l) = self.lambda(rng, t, depth) {
                return l;
            }
        }
        if let Some(e) = self.path_inhabitant(rng, t, depth, PathPick::Any) {
            return e;
        }
        if !sam_first {
            if let Some(l) = self.lambda(rng, t, depth) {
                return l;
            }
        }
        self.bottom(t)
    }

    /// The typed bottom constant `(T) null`.
    pub fn bottom(&mut self, t: TypeId) -> Inhabitant {
        Inhabitant {
            expr: Expr::Bottom(to_ir(&self.api, t)),
            info: InferInfo::Standalone(t),
        }
    }

    /// A literal for primitives, their boxes and `String` (the unit value for `void`), with
    /// its own type: a box's primitive (`1.5f` for a `java.lang.Float` is a `float`), else
    /// `t`.
    fn literal(&mut self, rng: &mut SynthRng, t: TypeId) -> Option<(Expr, TypeId)> {
        let a = &self.api.ts.arena;
        let p = match a.get(t) {
            Type::Prim(p) => *p,
            Type::Class { name, args } if args.is_empty() => {
                if *name == self.ctx.string_sym {
                    let s = STRINGS[rng.gen_range(0..STRINGS.len())];
                    return Some((Expr::Lit(Lit::Str(s.to_string())), t));
                }
                self.ctx.unbox_of(*name)?
            }
            _ => return None,
        };
        let own = self.api.ts.arena.prim(p);
        let n: i32 = rng.gen_range(self.cfg.literal_ints.clone());
        let lit = Expr::Lit(match p {
            Prim::Boolean => Lit::Bool(rng.gen_bool(self.cfg.true_probability)),
            Prim::Byte => Lit::Byte(n as i8),
            Prim::Char => Lit::Char(CHARS[rng.gen_range(0..CHARS.len())]),
            Prim::Short => Lit::Short(n as i16),
            Prim::Int => Lit::Int(n),
            Prim::Long => Lit::Long(i64::from(n)),
            Prim::Float => Lit::Float(n as f32 + FLOAT_FRACTION),
            Prim::Double => Lit::Double(f64::from(n) + DOUBLE_FRACTION),
            // a Scala `Unit` (by-name) parameter takes the unit value `()`
            Prim::Void => return Some((Expr::Unit, t)),
        });
        Some((lit, own))
    }

    /// Yen's k shortest loopless paths from a receiver-less member to a type node (source
    /// first), cached per node.
    fn paths_to(&mut self, target: NodeIndex) -> Arc<Vec<Vec<NodeIndex>>> {
        // more paths for a deep program, and for one that looks for paths through a
        // member that takes a function
        let feats = self.building.features;
        let deep = feats.deep_inhabitants || feats.functional_operands;
        let cache = if deep {
            &self.caches.deep_paths
        } else {
            &self.caches.paths
        };
        if let Some(p) = cache.get(&target) {
            return Arc::clone(p);
        }
        let g: &ApiGraph = &self.ctx.graph;
        let usable = &self.ctx.path_usable;
        let api = &self.api;
        let is_source = |n: &NodeIndex| match g.graph[*n] {
            Node::Member(m) => usable.contains(&m) && !api.member(m).needs_receiver(),
            Node::Type(_) => false,
        };
        let max_len = self.cfg.max_path_len;
        let found = yen(
            &target,
            |n: &NodeIndex| {
                let n = *n;
                g.in_edges(n)
                    .filter(move |(_, src, _)| match g.graph[*src] {
                        Node::Member(m) => usable.contains(&m),
                        Node::Type(_) => true,
                    })
                    .map(|(_, src, _)| (src, 1usize))
                    .collect::<Vec<_>>()
            },
            is_source,
            if deep {
                self.cfg.yen_k.max(1) * DEEP_YEN_FACTOR
            } else {
                self.cfg.yen_k.max(1)
            },
        );
        let paths: Vec<Vec<NodeIndex>> = found
            .into_iter()
            .filter(|(p, _)| p.len() <= max_len)
            .map(|(mut p, _)| {
                p.reverse();
                p
            })
            .collect();
        let rc = Arc::new(paths);
        if deep {
            self.caches.deep_paths.insert(target, Arc::clone(&rc));
        } else {
            self.caches.paths.insert(target, Arc::clone(&rc));
        }
        rc
    }

    /// Algorithm 1 and 2: the first feasible path (in random order; with `PathPick::Call`
    /// the paths that end in no constructor call first) to the target's type constructor,
    /// turned into a chain of calls; `PathPick::Function`: [`Self::function_path_inhabitant`].
    fn path_inhabitant(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
        pick: PathPick,
    ) -> Option<Inhabitant> {
        if pick == PathPick::Function {
            return self.function_path_inhabitant(rng, t, depth);
        }
        let (ctor, _) = ApiGraph::key(&mut self.api, t);
        let node = self.ctx.graph.node_of_type(ctor)?;
        let paths = self.paths_to(node);
        let mut order: Vec<usize> = (0..paths.len()).collect();
        order.shuffle(rng);
        // a deep program's longest paths first (stable: the random order stays among
        // paths of one length)
        if self.building.features.deep_inhabitants {
            order.sort_by_key(|&i| std::cmp::Reverse(paths[i].len()));
        }
        // the paths through a member that takes a function first (stable: the random
        // order stays among them)
        if self.building.features.functional_operands {
            let keys: Vec<bool> = order
                .iter()
                .map(|&i| !self.takes_function(&paths[i]))
                .collect();
            let mut keyed: Vec<(bool, usize)> = keys.into_iter().zip(order).collect();
            keyed.sort_by_key(|&(k, _)| k);
            order = keyed.into_iter().map(|(_, i)| i).collect();
        }
        // a call chain's receiver: the paths whose last member is no constructor first
        if pick == PathPick::Call {
            let g = &self.ctx.graph;
            let api = &self.api;
            order.sort_by_key(|&i| {
                paths[i].iter().rev().find_map(|&n| match g.graph[n] {
                    Node::Member(m) => Some(api.member(m).kind == MemberKind::Constructor),
                    Node::Type(_) => None,
                })
            });
        }
        self.first_feasible(rng, &paths, order, ctor, t, depth)
    }

    /// A path through a member that takes a function, as a chain of calls of a subtype of
    /// `t`: one of the paths to `t`'s type constructor, else one to a type variable that
    /// such a path reaches (`SynthContext::function_var_nodes`), instantiated with `t`
    /// (`Objects.requireNonNullElseGet(a, () -> b)`, `Collections.max(c, (x, y) -> 0)` for
    /// a `String`), trying up to [`FUNCTION_VAR_TRIES`] such variables.
    fn function_path_inhabitant(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        let (ctor, _) = ApiGraph::key(&mut self.api, t);
        let mut nodes: Vec<NodeIndex> = self.ctx.graph.node_of_type(ctor).into_iter().collect();
        let vars = &self.ctx.function_var_nodes;
        for _ in 0..FUNCTION_VAR_TRIES.min(vars.len()) {
            nodes.push(vars[rng.gen_range(0..vars.len())]);
        }
        for node in nodes {
            let Node::Type(node_ty) = self.ctx.graph.graph[node] else {
                continue;
            };
            let paths = self.paths_to(node);
            let mut order: Vec<usize> = (0..paths.len()).collect();
            order.shuffle(rng);
            order.retain(|&i| self.takes_function(&paths[i]));
            // a call whose result is a bare type variable keeps its type arguments: erased,
            // it takes any type where no target fixes it (an argument of an overloaded
            // call: `LocalTime.now(pool.invokeAny(..))` is ambiguous)
            let var = matches!(self.api.ts.arena.get(node_ty), Type::Var(_));
            self.building.keep_type_args += usize::from(var);
            let e = self.first_feasible(rng, &paths, order, node_ty, t, depth);
            self.building.keep_type_args -= usize::from(var);
            if e.is_some() {
                return e;
            }
        }
        None
    }

    /// The first of `paths` (in `order`) to type constructor `ctor` that is feasible for
    /// target `t` and usable here, as a chain of calls.
    fn first_feasible(
        &mut self,
        rng: &mut SynthRng,
        paths: &[Vec<NodeIndex>],
        order: Vec<usize>,
        ctor: TypeId,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        for i in order {
            let path = &paths[i];
            if self.building.in_lambda > 0 && self.throws_in_path(path) {
                continue;
            }
            let unusable = path.iter().any(|&n| match self.ctx.graph.graph[n] {
                Node::Member(m) => self.typing().language_problem(m).is_some(),
                Node::Type(_) => false,
            });
            if unusable {
                continue;
            }
            if let Some(s) = self.feasible(rng, path, ctor, t) {
                return Some(self.path_to_expr(rng, path, &s, t, depth));
            }
        }
        None
    }

    /// A constructor call of a generic concrete API class below generic class type `t`
    /// (its own class included; `new ArrayDeque<>(..)` for a `Collection<String>`): the class
    /// instantiated as a subtype of `t`, drawn among the API's up to [`BELOW_TRIES`] times,
    /// through a constructor that inhabitant paths may use; its type arguments left to
    /// inference where `t`, its target type, recovers them (as a path's last call).
    pub(crate) fn constructed(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        // a wildcard-typed target (`Collection<? extends String>`): the diamond infers the
        // wildcard's bound (`ArrayList<String>`; JLS 18.5.2), or `Object` for `?`; Kotlin
        // infers nothing from `*`, so the call keeps its type arguments there
        let star = !self.rules.infers_from_star_projection()
            && self.has_wildcard_argument(t, |w| matches!(w, Wildcard::Star));
        let bounded = self.has_wildcard_argument(t, |w| matches!(w, Wildcard::Extends(_)));
        let t = self.wildcard_bounds(t);
        let (sym, targs) = self.api.ts.arena.as_class(t)?;
        if targs.is_empty() {
            return None;
        }
        let below = self.classes_below(sym, Below::Constructible);
        for _ in 0..BELOW_TRIES {
            let c = *below.get(rng.gen_range(0..below.len().max(1)))?;
            let Some(ctor) = self.path_constructor(rng, c, depth == 0) else {
                continue;
            };
            let Some(sub) = self.instance_below(rng, c, t, self.cfg.max_type_depth) else {
                continue;
            };
            if !self.ctx.expressible(&self.api, sub) {
                continue;
            }
            let Some((_, args)) = self.api.ts.arena.as_class(sub) else {
                continue;
            };
            let args = args.to_vec();
            let s = Subst::from_pairs(&self.api.class(c).type_params.clone(), &args);
            // the form is the constructor's inference: its type arguments go wherever
            // inference recovers them, whether or not the program erases others; in Kotlin
            // only where the program erases others (a Kotlin constructor call without them
            // needs its expected type, which a reduction under the Java twin may change)
            let for_form = !self.rules.maps_java_classes();
            self.building.bounded_goal = bounded;
            return Some(self.call_member_erasing(
                rng,
                ctor,
                &s,
                None,
                (!star).then_some(t),
                false,
                depth,
                for_form,
            ));
        }
        None
    }

    /// The constructors of inner class type `t` that an instance of its enclosing class can
    /// call here (`outer.new Inner(..)`): the class's own (the type names it exactly, so no
    /// subclass is needed), without type parameters of their own, callable in the language,
    /// none that throws a checked exception inside a lambda; empty for any other type.
    fn inner_constructors(&mut self, t: TypeId) -> Vec<MemberId> {
        let Some((sym, targs)) = self.api.ts.arena.as_class(t) else {
            return Vec::new();
        };
        let Some(c) = self.api.class_by_sym(sym) else {
            return Vec::new();
        };
        if !targs.is_empty() || self.api.class(c).doc.is_inner != Some(true) {
            return Vec::new();
        }
        let in_lambda = self.building.in_lambda > 0;
        let members = self.api.class(c).members.clone();
        members
            .into_iter()
            .filter(|&m| {
                let mem = self.api.member(m);
                mem.kind == MemberKind::Constructor
                    && mem.type_params.is_empty()
                    && outer_class(&self.api, m).is_some()
                    && !(in_lambda && self.ctx.throws_checked.contains(&m))
                    && self.typing().language_problem(m).is_none()
            })
            .collect()
    }

    /// An instance of inner class type `t` made by one of its constructors `ctors` on an
    /// instance of its enclosing class inhabited in turn (`outer.new Inner(..)`, Kotlin's
    /// `outer.Inner(..)`, Scala's `new outer.Inner(..)`).
    fn inner_created(
        &mut self,
        rng: &mut SynthRng,
        ctors: &[MemberId],
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        let m = *ctors.get(rng.gen_range(0..ctors.len()))?;
        let outer = outer_class(&self.api, m)?;
        let outer_t = self.api.ts.self_type(self.api.class(outer).sym);
        let receiver = self.inhabit(rng, outer_t, depth.saturating_sub(1));
        Some(self.call_member_erasing(
            rng,
            m,
            &Subst::new(),
            Some(receiver.expr),
            Some(t),
            false,
            depth,
            false,
        ))
    }

    /// True when `t` is a generic class type that a constructor call of a generic concrete
    /// API class below it can make: a place where the API allows the diamond.
    fn diamond_site(&mut self, t: TypeId) -> bool {
        let Some((sym, targs)) = self.api.ts.arena.as_class(t) else {
            return false;
        };
        !targs.is_empty() && !self.classes_below(sym, Below::Constructible).is_empty()
    }

    /// True when class type `t` has a wildcard type argument that `kind` picks.
    fn has_wildcard_argument(&self, t: TypeId, kind: fn(&Wildcard) -> bool) -> bool {
        let a = &self.api.ts.arena;
        a.as_class(t).is_some_and(|(_, args)| {
            args.iter()
                .any(|&x| matches!(a.get(x), Type::Wildcard(w) if kind(w)))
        })
    }

    /// Class type `t` with each wildcard type argument replaced by its bound (`Object` for
    /// `?`): what a constructor call without type arguments infers for a target of type `t`.
    fn wildcard_bounds(&mut self, t: TypeId) -> TypeId {
        let Some((name, args)) = self.api.ts.arena.as_class(t).map(|(n, a)| (n, a.to_vec())) else {
            return t;
        };
        let a = &mut self.api.ts.arena;
        if !args.iter().any(|&x| matches!(a.get(x), Type::Wildcard(_))) {
            return t;
        }
        let object = a.class(self.ctx.object_sym, &[]);
        let args: Vec<TypeId> = args
            .into_iter()
            .map(|x| match *a.get(x) {
                Type::Wildcard(Wildcard::Extends(b) | Wildcard::Super(b)) => b,
                Type::Wildcard(Wildcard::Star) => object,
                _ => x,
            })
            .collect();
        a.class(name, &args)
    }

    /// One of class `c`'s constructors that inhabitant paths may use (no type parameters of
    /// its own, none the language cannot call, none that throws a checked exception inside a
    /// lambda), drawn at random; one that takes a function first when functional operands
    /// are on; only one without parameters when `nullary` (at the deepest level, where an
    /// argument could be a constructor call again).
    fn path_constructor(
        &mut self,
        rng: &mut SynthRng,
        c: ClassId,
        nullary: bool,
    ) -> Option<MemberId> {
        let in_lambda = self.building.in_lambda > 0;
        let candidates: Vec<MemberId> = self.api.class(c).members.clone();
        let mut usable = Vec::new();
        for m in candidates {
            let mem = self.api.member(m);
            if mem.kind != MemberKind::Constructor
                || (nullary && !mem.params.is_empty())
                || !mem.type_params.is_empty()
                || !self.ctx.path_usable.contains(&m)
                || (in_lambda && self.ctx.throws_checked.contains(&m))
                || self.typing().language_problem(m).is_some()
            {
                continue;
            }
            usable.push(m);
        }
        if self.building.features.functional_operands {
            let mut functional = Vec::new();
            for &m in &usable {
                if crate::synth::context::takes_function(&self.api, m) {
                    functional.push(m);
                }
            }
            if !functional.is_empty() {
                usable = functional;
            }
        }
        usable.get(rng.gen_range(0..usable.len().max(1))).copied()
    }

    /// True when a member of the path takes a functional interface or a function type.
    fn takes_function(&mut self, path: &[NodeIndex]) -> bool {
        let members: Vec<MemberId> = path
            .iter()
            .filter_map(|&n| match self.ctx.graph.graph[n] {
                Node::Member(m) => Some(m),
                Node::Type(_) => None,
            })
            .collect();
        members
            .into_iter()
            .any(|m| crate::synth::context::takes_function(&self.api, m))
    }

    /// True when member `m` is a constructor of a generic class.
    fn is_generic_constructor(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        mem.kind == MemberKind::Constructor && !self.api.class(mem.owner).type_params.is_empty()
    }

    /// True when a member of the path declares a checked exception.
    fn throws_in_path(&self, path: &[NodeIndex]) -> bool {
        path.iter().any(|&n| match self.ctx.graph.graph[n] {
            Node::Member(m) => self.ctx.throws_checked.contains(&m),
            Node::Type(_) => false,
        })
    }

    /// Algorithm 1 for one path: propagate the edge substitutions, unify the path's type with
    /// the target, instantiate the remaining free variables at random; `None` if infeasible.
    fn feasible(
        &mut self,
        rng: &mut SynthRng,
        path: &[NodeIndex],
        ctor: TypeId,
        target: TypeId,
    ) -> Option<Subst> {
        let g = &self.ctx.graph;
        let mut free: Vec<VarId> = Vec::new();
        for &n in path {
            if let Node::Member(m) = g.graph[n] {
                let mem = self.api.member(m);
                free.extend(mem.type_params.iter().copied());
                if mem.kind == MemberKind::Constructor {
                    free.extend(self.api.class(mem.owner).type_params.iter().copied());
                }
            }
        }
        let mut acc = Subst::new();
        // a receiver edge into a member whose receiver type the path has already fixed (a
        // Kotlin extension on `Collection<UInt>` or `Iterable<T>` reached from `Set<E>`):
        // the type the path carries and the receiver's type argument must agree
        let mut links: Vec<(TypeId, TypeId)> = Vec::new();
        for w in path.windows(2) {
            let e = g.graph.find_edge(w[0], w[1])?;
            let receiver = g.graph[e].kind == EdgeKind::Receiver;
            let label = g.graph[e].label.clone();
            for (v, ty) in label.iter() {
                let ty = self.api.ts.arena.subst(ty, &acc);
                match acc.get(v) {
                    Some(carried) if receiver => {
                        if carried != ty {
                            links.push((carried, ty));
                        }
                    }
                    _ => acc.insert(v, ty),
                }
            }
        }
        let path_ty = self.api.ts.arena.subst(ctor, &acc);
        let mut u =
            self.api
                .ts
                .unify_with(path_ty, target, &free, UnifyMode::Subtype, &Subst::new())?;
        for &(carried, wanted) in &links {
            u = self.link(carried, wanted, &free, u)?;
        }
        let depth = self.cfg.max_type_depth;
        let drawn = self.draw_subst(rng, &free, depth, &u)?;
        let free_s = resolve_chains(&mut self.api.ts.arena, drawn);
        let mut full = free_s.clone();
        for (v, ty) in acc.iter() {
            let ty = self.api.ts.arena.subst(ty, &free_s);
            full.insert(v, ty);
        }
        let result = self.api.ts.arena.subst(ctor, &full);
        if !self.api.ts.arena.is_ground(result)
            || !self.ctx.expressible(&self.api, result)
            || !self.api.ts.is_subtype(result, target)
        {
            return None;
        }
        for (_, ty) in full.iter() {
            if !self.api.ts.arena.is_ground(ty) || !self.ctx.expressible(&self.api, ty) {
                return None;
            }
        }
        // every receiver the path reaches takes the type that reaches it
        for &(carried, wanted) in &links {
            let carried = self.api.ts.arena.subst(carried, &full);
            let wanted = self.api.ts.arena.subst(wanted, &full);
            if carried != wanted && !self.api.ts.is_equivalent(carried, wanted) {
                return None;
            }
        }
        Some(full)
    }

    /// `u` extended so that the type argument a path carries (`carried`) and the one a
    /// receiver wants (`wanted`) are equal, binding the path's free variables on either side.
    fn link(&mut self, carried: TypeId, wanted: TypeId, free: &[VarId], u: Subst) -> Option<Subst> {
        let arena = &mut self.api.ts.arena;
        let (carried, wanted) = (arena.subst(carried, &u), arena.subst(wanted, &u));
        if carried == wanted {
            return Some(u);
        }
        let ts = &mut self.api.ts;
        ts.unify_with(wanted, carried, free, UnifyMode::Equal, &u)
            .or_else(|| ts.unify_with(carried, wanted, free, UnifyMode::Equal, &u))
    }

    /// Algorithm 2: the calls along a feasible path under its substitution.
    fn path_to_expr(
        &mut self,
        rng: &mut SynthRng,
        path: &[NodeIndex],
        s: &Subst,
        target: TypeId,
        depth: usize,
    ) -> Inhabitant {
        let members: Vec<MemberId> = path
            .iter()
            .filter_map(|&n| match self.ctx.graph.graph[n] {
                Node::Member(m) => Some(m),
                Node::Type(_) => None,
            })
            .collect();
        let mut cur: Option<Inhabitant> = None;
        let last = members.len().saturating_sub(1);
        for (i, m) in members.into_iter().enumerate() {
            let goal = if i == last { Some(target) } else { None };
            let receiver = i != last;
            // a path that ends in a generic class's constructor call takes the diamond where
            // its target type recovers the type arguments, as `constructed` does
            let diamond = i == last
                && self.building.features.generic_constructors
                && !self.rules.maps_java_classes()
                && self.is_generic_constructor(m);
            cur = Some(self.call_member_erasing(
                rng,
                m,
                s,
                cur.map(|c| c.expr),
                goal,
                receiver,
                depth,
                diamond,
            ));
        }
        cur.unwrap_or_else(|| self.bottom(target))
    }

    /// A call (or field access, or constructor call) of `m` under `s`, its arguments
    /// inhabited one level deeper; type arguments erased when configured and safe (`goal`:
    /// its target type; `receiver_of_next`: it is the receiver of another call).
    #[allow(clippy::too_many_arguments)]
    pub fn call_member(
        &mut self,
        rng: &mut SynthRng,
        m: MemberId,
        s: &Subst,
        receiver: Option<Expr>,
        goal: Option<TypeId>,
        receiver_of_next: bool,
        depth: usize,
    ) -> Inhabitant {
        self.call_member_erasing(rng, m, s, receiver, goal, receiver_of_next, depth, false)
    }

    /// [`Self::call_member`], its type arguments erased where safe even when the program
    /// erases none (`erase_for_form`: the form is the inference).
    #[allow(clippy::too_many_arguments)]
    fn call_member_erasing(
        &mut self,
        rng: &mut SynthRng,
        m: MemberId,
        s: &Subst,
        receiver: Option<Expr>,
        goal: Option<TypeId>,
        receiver_of_next: bool,
        depth: usize,
        erase_for_form: bool,
    ) -> Inhabitant {
        let bounded_goal = std::mem::take(&mut self.building.bounded_goal);
        let mem = self.api.member(m).clone();
        let arg_tys: Vec<TypeId> = mem
            .params
            .iter()
            .map(|p| self.api.ts.arena.subst(p.ty, s))
            .collect();
        // Scala 2 types the arguments of an overloaded method before it picks the overload,
        // without an expected type: a generic call there needs its type arguments
        let overloaded = self.typing().is_overloaded(m);
        let keep = self.rules.types_overloaded_arguments_untargeted() && overloaded;
        self.building.keep_type_args += usize::from(keep);
        let keep_prim = self.rules.boxes_inferred_primitives_by_target() && overloaded;
        self.building.keep_primitive_type_args += usize::from(keep_prim);
        // a joined type may make another overload applicable or more specific
        self.building.no_conditionals += usize::from(overloaded);
        // the variable-arity argument as elements of its component type: the array's type
        // still decides erasure
        let varargs = self.operand_varargs(rng, m, s, &arg_tys);
        let fixed = arg_tys.len() - usize::from(varargs.is_some());
        let mut args: Vec<Inhabitant> = arg_tys[..fixed]
            .iter()
            .map(|&t| self.inhabit(rng, t, depth.saturating_sub(1)))
            .collect();
        let elems = varargs.map(|(comp, n)| {
            args.extend(arg_tys.last().map(|&t| Inhabitant {
                expr: Expr::Unit,
                info: InferInfo::Standalone(t),
            }));
            (0..n)
                .map(|_| self.inhabit(rng, comp, depth.saturating_sub(1)))
                .collect::<Vec<_>>()
        });
        self.building.no_conditionals -= usize::from(overloaded);
        self.building.keep_type_args -= usize::from(keep);
        self.building.keep_primitive_type_args -= usize::from(keep_prim);
        if overloaded {
            self.cast_competing_functions(m, s, &mut args, elems.as_deref());
        }
        if overloaded && elems.is_none() {
            self.disambiguate(m, s, &mut args);
        }
        self.building.varargs_element_calls += usize::from(elems.is_some());
        let search_implicits = self.draw_implicit_search(rng, m, s);
        let shape = CallShape {
            keep_explicit: false,
            varargs: elems,
            erase_for_form,
            search_implicits,
            receiver: receiver_of_next,
            // a path's receiver is its previous member's result, whose class the path
            // chose for this member: no overload beyond the member's own class is checked
            receiver_overloads: false,
            bounded_goal,
        };
        self.build_call_shaped(m, s, receiver, &args, goal, true, &shape)
            .0
    }
}

impl Worker<'_> {
    /// Casts the lambda and reference arguments `args` of a call of overloaded member `m`
    /// under `s` (with its varargs elements `elems`, if any) to their parameters' functional
    /// interfaces where another overload could take them too (`doAs(s, () -> x)` for
    /// `PrivilegedAction` or `PrivilegedExceptionAction`): Java's most specific method for
    /// lambdas is no subtyping.
    fn cast_competing_functions(
        &mut self,
        m: MemberId,
        s: &Subst,
        args: &mut [Inhabitant],
        elems: Option<&[Inhabitant]>,
    ) {
        let formal = self.typing().formal_under(m, s.clone());
        if formal.params.len() != args.len() {
            return;
        }
        // the fixed arguments and the elements, as the call passes them
        let fixed = args.len() - usize::from(elems.is_some());
        let infos: Vec<InferInfo> = args[..fixed]
            .iter()
            .chain(elems.unwrap_or_default())
            .map(|a| a.info)
            .collect();
        if self
            .typing()
            .poly_competitor(m, &infos, elems.map(<[Inhabitant]>::len))
        {
            for (a, &p) in args[..fixed].iter_mut().zip(&formal.params) {
                let function = matches!(a.expr, Expr::Lambda { .. } | Expr::Ref { .. });
                if a.info == InferInfo::Poly
                    && function
                    && self.typing().is_functional_class_type(p)
                    && self.api.ts.arena.is_ground(p)
                {
                    let e = std::mem::replace(&mut a.expr, Expr::Unit);
                    a.expr = Expr::cast(to_ir(&self.api, p), e);
                    a.info = InferInfo::Standalone(p);
                }
            }
        }
    }

    /// Casts the arguments `args` of a call of overloaded member `m` under `s` to their
    /// parameter types where their own types make another overload as specific as `m`
    /// (`new SingletonMap<K, V>((KeyValue<K, V>) aDefaultMapEntry)`: a `DefaultMapEntry` is
    /// a `KeyValue` and a `Map.Entry`, and `SingletonMap` takes either). A constructor call
    /// without type arguments counts as its class instantiated below its parameter's type,
    /// and gets those type arguments back before its cast; other poly arguments count as
    /// their parameter's type.
    fn disambiguate(&mut self, m: MemberId, s: &Subst, args: &mut [Inhabitant]) {
        let formal = self.typing().formal_under(m, s.clone());
        if formal.params.len() != args.len() {
            return;
        }
        let diamonds: Vec<Option<TypeId>> = args
            .iter()
            .zip(&formal.params)
            .map(|(a, &p)| match a.info {
                InferInfo::Standalone(_) => None,
                InferInfo::Poly | InferInfo::Opaque => self.diamond_type(&a.expr, p),
            })
            .collect();
        let seq = TypingSequence {
            receiver: formal.receiver,
            args: args
                .iter()
                .zip(&formal.params)
                .zip(&diamonds)
                .map(|((a, &p), d)| match a.info {
                    InferInfo::Standalone(t) => t,
                    InferInfo::Poly | InferInfo::Opaque => d.unwrap_or(p),
                })
                .collect(),
            result: formal.ret,
        };
        if self.typing().resolve_call(m, &formal, &seq) == Resolution::Unique(m) {
            return;
        }
        for ((a, &p), d) in args.iter_mut().zip(&formal.params).zip(diamonds) {
            let own = match (a.info, d) {
                (InferInfo::Standalone(t), _) => t,
                (_, Some(t)) => {
                    // the type arguments back: a cast is no context that infers them
                    if let (Expr::New { type_args, .. }, Some((_, targs))) =
                        (&mut a.expr, self.api.ts.arena.as_class(t))
                    {
                        *type_args = Some(targs.iter().map(|&x| to_ir(&self.api, x)).collect());
                    }
                    t
                }
                _ => continue,
            };
            if own != p {
                let e = std::mem::replace(&mut a.expr, Expr::Unit);
                a.expr = Expr::cast(to_ir(&self.api, p), e);
            }
            a.info = InferInfo::Standalone(p);
        }
    }

    /// The type of `e`, a constructor call without type arguments (`new DefaultMapEntry<>(k,
    /// v)`) for a parameter of type `p`: its class instantiated so that it is a subtype of
    /// `p`, where `p` fixes every type argument; `None` for any other expression.
    fn diamond_type(&mut self, e: &Expr, p: TypeId) -> Option<TypeId> {
        let Expr::New {
            class,
            type_args: None,
            outer: None,
            ..
        } = e
        else {
            return None;
        };
        let cid = self.api.class_by_name(class)?;
        let (sym, vars) = {
            let c = self.api.class(cid);
            (c.sym, c.type_params.clone())
        };
        if vars.is_empty() {
            return None;
        }
        let (psym, _) = self.api.ts.arena.as_class(p)?;
        let own = self.api.ts.self_type(sym);
        let sup = self.api.ts.all_supertypes(own).into_iter().find(|&x| {
            self.api
                .ts
                .arena
                .as_class(x)
                .is_some_and(|(n, _)| n == psym)
        })?;
        let u = self
            .api
            .ts
            .unify_with(sup, p, &vars, UnifyMode::Subtype, &Subst::new())?;
        let t = self.api.ts.arena.subst(own, &u);
        self.api.ts.arena.is_ground(t).then_some(t)
    }
}

/// A substitution whose variables map to other mapped variables (`T ↦ E`, `E ↦ String`), made
/// to map each to its end (`T ↦ String`); chains longer than [`MAX_CHAIN`] stay as they are.
fn resolve_chains(arena: &mut TypeArena, mut s: Subst) -> Subst {
    for _ in 0..MAX_CHAIN {
        let mut changed = false;
        let pairs: Vec<(VarId, TypeId)> = s.iter().collect();
        for (v, ty) in pairs {
            let resolved = arena.subst(ty, &s);
            if resolved != ty {
                s.insert(v, resolved);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    s
}

/// The longest chain of variables mapped to variables that [`resolve_chains`] follows.
const MAX_CHAIN: usize = 4;

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use thalia_translators::Language;

    use super::*;
    use crate::synth::{SynthConfig, SynthContext};

    /// A constructor call for a target with a star-projected argument (`Map<String, ?>`)
    /// takes the diamond in Java, where `?` infers `Object`, but keeps its type arguments in
    /// Kotlin where no argument fixes them: Kotlin takes no constraint from `*`
    /// (`java.util.Hashtable(26)` for a `Map<out Attribute, *>` cannot infer `V`).
    #[test]
    fn a_star_projected_target_fixes_a_constructors_variable_in_java_not_in_kotlin() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for lang in [Language::Java, Language::Kotlin] {
            let cfg = SynthConfig {
                lang,
                erase: true,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            w.building.features.generic_constructors = true;
            let a = &mut w.api.ts.arena;
            let string = a.class_named("java.lang.String", &[]);
            let star = a.wildcard(Wildcard::Star);
            let target = a.class_named("java.util.Map", &[string, star]);
            // constructor calls without arguments that left their type arguments out
            let mut nullary_erased = 0;
            let mut nullary = 0;
            for seed in 0..400 {
                let mut rng = SynthRng::seed_from_u64(seed);
                let Some(inh) = w.constructed(&mut rng, target, 0) else {
                    continue;
                };
                if let Expr::New {
                    type_args, args, ..
                } = &inh.expr
                {
                    if args.is_empty() {
                        nullary += 1;
                        nullary_erased += usize::from(type_args.is_none());
                    }
                }
            }
            assert!(nullary > 20, "{lang}: {nullary} nullary constructor calls");
            if lang == Language::Kotlin {
                assert_eq!(
                    nullary_erased, 0,
                    "Kotlin: `HashMap()` for a `Map<String, *>`"
                );
            } else {
                assert_eq!(nullary_erased, nullary, "Java: `new HashMap<>()`");
            }
        }
    }
}
