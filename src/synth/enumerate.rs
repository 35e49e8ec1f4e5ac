//! API enumeration (Section 3.3): valid substitutions and typing sequences per member,
//! well-typed or with exactly one broken position, checked against Java overload resolution
//! ([`super::overload`]) and the target language's rules ([`super::rules`]).

use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;

use thalia_translators::ir::TypeParam;

use super::config::Mode;
use super::context::{outer_class, SkipReason};
pub use super::overload::Resolution;
use super::rules::ConversionSite;
use super::worker::{RngStream, SynthRng, Worker};
use crate::api::{MemberId, MemberKind};
use crate::types::{kotlin_view, print_type, Prim, Subst, Syntax, Type, TypeId, VarId, Wildcard};

/// Methods every class has (a receiver can never lack them; references never name them:
/// an interface's members in the API leave them out, so their overloads cannot be checked).
pub(crate) const OBJECT_METHODS: [&str; 9] = [
    "equals",
    "hashCode",
    "toString",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
];

/// A position of a typing sequence.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum Position {
    /// The receiver.
    Receiver,
    /// The i-th argument.
    Arg(usize),
    /// The expected type of the result.
    Result,
}

impl Position {
    /// `receiver`, `arg0`, `result`.
    pub fn label(self) -> String {
        match self {
            Position::Receiver => "receiver".into(),
            Position::Arg(i) => format!("arg{i}"),
            Position::Result => "result".into(),
        }
    }
}

/// The types of one abstract call: receiver, arguments and expected result.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TypingSequence {
    /// Receiver type (`None` for static members and constructors).
    pub receiver: Option<TypeId>,
    /// Argument types.
    pub args: Vec<TypeId>,
    /// Expected result type (`None` when the member returns nothing).
    pub result: Option<TypeId>,
}

/// The one position an ill-typed sequence breaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Broken {
    /// Which position.
    pub position: Position,
    /// The type the signature asks for there.
    pub formal: TypeId,
    /// The incompatible type put there instead.
    pub actual: TypeId,
}

/// A member's signature under a substitution.
#[derive(Clone, Debug)]
pub struct Formal {
    /// Substitution of the member's and (for instance members and constructors) its class's
    /// type parameters.
    pub subst: Subst,
    /// Receiver type.
    pub receiver: Option<TypeId>,
    /// Parameter types.
    pub params: Vec<TypeId>,
    /// Result type (`None` for `void`).
    pub ret: Option<TypeId>,
}

/// One program to build: a member, a substitution and a typing sequence.
#[derive(Clone, Debug)]
pub struct Task {
    /// The member under test.
    pub member: MemberId,
    /// Its formal signature under the drawn substitution.
    pub formal: Formal,
    /// The typing sequence.
    pub seq: TypingSequence,
    /// The broken position (ill-typed mode).
    pub broken: Option<Broken>,
}

/// The primitive types always tried, with `String`, as replacements for a broken position
/// (besides the random pool types of [`super::SynthConfig::ill_candidates_per_position`]).
const ILL_PRIMS: [Prim; 3] = [Prim::Int, Prim::Boolean, Prim::Double];

impl Worker<'_> {
    /// The typing sequences of a member under the configured mode, or why it is skipped.
    pub fn enumerate_member(&mut self, m: MemberId, seed: u64) -> Result<Vec<Task>, SkipReason> {
        if let Some(why) = self.language_problem(m) {
            return Err(why);
        }
        if self.cfg.mode == Mode::IllTyped && self.api.is_signature_polymorphic(m) {
            return Err(SkipReason::SignaturePolymorphic);
        }
        // an inner class is created on its outer instance only when the form may be drawn
        if outer_class(&self.api, m).is_some() && self.cfg.swarm.inner_classes <= 0.0 {
            return Err(SkipReason::NestedConstructor);
        }
        let mut rng = RngStream::Enumerate.rng(seed, u64::from(m.0));
        let mut tasks = Vec::new();
        let mut any_subst = false;
        let mut seen = Vec::new();
        for _ in 0..self.cfg.substitutions_per_member.max(1) {
            let Some(formal) = self.draw_formal(&mut rng, m) else {
                continue;
            };
            if seen.contains(&formal.subst) || self.captured_array_result(m, &formal) {
                continue;
            }
            seen.push(formal.subst.clone());
            any_subst = true;
            match self.cfg.mode {
                Mode::WellTyped => self.well_typed(&mut rng, m, &formal, &mut tasks),
                Mode::IllTyped => self.ill_typed(&mut rng, m, &formal, &mut tasks),
            }
        }
        if !any_subst {
            return Err(SkipReason::NoValidSubstitution);
        }
        if tasks.is_empty() {
            return Err(match self.cfg.mode {
                Mode::WellTyped => SkipReason::NoUsableSequence,
                Mode::IllTyped => SkipReason::NoIncompatibleType,
            });
        }
        Ok(tasks)
    }

    /// True when the language's arrays are invariant and the member's result is an array
    /// whose element type mentions a type variable that the substitution maps to a wildcard:
    /// the compiler sees the element with a captured type that no written type names.
    fn captured_array_result(&mut self, m: MemberId, f: &Formal) -> bool {
        if !self.rules.arrays_are_invariant() {
            return false;
        }
        let ret = self.api.member(m).ret;
        let a = &self.api.ts.arena;
        let Type::Array(elem) = *a.get(ret) else {
            return false;
        };
        a.free_vars(elem).iter().any(|&v| {
            f.subst
                .get(v)
                .is_some_and(|t| matches!(a.get(t), Type::Wildcard(_)))
        })
    }

    /// Draws a valid substitution and applies it to the member's signature.
    pub fn draw_formal(&mut self, rng: &mut SynthRng, m: MemberId) -> Option<Formal> {
        let mem = self.api.member(m).clone();
        let owner = self.api.class(mem.owner).clone();
        let class_vars = if mem.is_static {
            Vec::new()
        } else {
            owner.type_params.clone()
        };
        let vars: Vec<VarId> = class_vars
            .iter()
            .chain(mem.type_params.iter())
            .copied()
            .collect();
        let depth = self.cfg.max_type_depth;
        let seed = if class_vars
            .iter()
            .any(|&v| self.api.ts.arena.var(v).higher_kinded)
        {
            self.subclass_view(rng, owner.sym, depth)?
        } else {
            Subst::new()
        };
        let subst = self.draw_subst(rng, &vars, depth, &seed)?;
        let f = self.formal_under(m, subst);
        // `T ↦ Nothing` makes a Kotlin `Array<T?>` receiver or parameter an array of
        // `Nothing?`, which Kotlin has not
        if self.ctx.native == Some(crate::types::Syntax::Kotlin)
            && f.receiver
                .into_iter()
                .chain(f.params.iter().copied())
                .chain(f.ret)
                .any(|t| super::context::mentions_nothing_array(&self.api, t))
        {
            return None;
        }
        Some(f)
    }

    /// The class's type parameters as a random instance of one of its subclasses sees them:
    /// `IterableOps[A, CC[_], C]` seen from `List[Int]` is `[A ↦ Int, CC ↦ List, C ↦
    /// List[Int]]`. A class with a higher-kinded parameter is instantiated this way, so that
    /// its type constructor and the other arguments agree.
    fn subclass_view(
        &mut self,
        rng: &mut SynthRng,
        owner: crate::types::Sym,
        depth: usize,
    ) -> Option<Subst> {
        let subs = self.ctx.subclasses.get(&owner).cloned().unwrap_or_default();
        if subs.is_empty() {
            return None;
        }
        for _ in 0..self.cfg.subclass_attempts {
            let e = subs[rng.gen_range(0..subs.len())];
            let Some(inst) = self.random_instance(rng, e, depth) else {
                continue;
            };
            let Some(lifted) = self.api.ts.as_super(inst, owner) else {
                continue;
            };
            let (_, s) = self.api.ts.decompose(lifted);
            if self.api.ts.arena.is_ground(lifted) && self.api.ts.is_valid_subst(&s) {
                return Some(s);
            }
        }
        None
    }

    /// The member's signature under `subst`; the receiver of an inner class's constructor is
    /// its enclosing instance (`outer.new Inner()`).
    pub fn formal_under(&mut self, m: MemberId, subst: Subst) -> Formal {
        let mem = self.api.member(m).clone();
        let owner_sym = self.api.class(mem.owner).sym;
        let receiver = if let Some(r) = mem.receiver {
            // an extension member's receiver
            Some(self.api.ts.arena.subst(r, &subst))
        } else if mem.needs_receiver() {
            let self_ty = self.api.ts.self_type(owner_sym);
            Some(self.api.ts.arena.subst(self_ty, &subst))
        } else if let Some(outer) = outer_class(&self.api, m) {
            let outer_sym = self.api.class(outer).sym;
            Some(self.api.ts.self_type(outer_sym))
        } else {
            None
        };
        let params = mem
            .params
            .iter()
            .map(|p| self.api.ts.arena.subst(p.ty, &subst))
            .collect();
        let ret = if is_void(&self.api.ts.arena, mem.ret) {
            None
        } else {
            Some(self.api.ts.arena.subst(mem.ret, &subst))
        };
        Formal {
            subst,
            receiver,
            params,
            ret,
        }
    }

    /// Java overload resolution of the call in `seq`; a constructor's receiver (an inner
    /// class's enclosing instance) takes no part in it.
    pub(crate) fn resolve_call(
        &mut self,
        m: MemberId,
        f: &Formal,
        seq: &TypingSequence,
    ) -> Resolution {
        if seq.receiver.is_some() && self.api.member(m).kind == MemberKind::Constructor {
            let plain = TypingSequence {
                receiver: None,
                ..seq.clone()
            };
            return self.resolve(m, f, &plain);
        }
        self.resolve(m, f, seq)
    }

    fn well_typed(&mut self, rng: &mut SynthRng, m: MemberId, f: &Formal, out: &mut Vec<Task>) {
        let cap = self.cfg.max_types_per_position.max(1);
        let recv_set = match f.receiver {
            Some(r) => self.subtypes(rng, r, cap).into_iter().map(Some).collect(),
            None => vec![None],
        };
        let mut arg_sets = Vec::new();
        for &p in &f.params {
            arg_sets.push(self.subtypes(rng, p, cap));
        }
        let res_set = match f.ret {
            Some(r) => self.supertypes(rng, r, cap).into_iter().map(Some).collect(),
            None => vec![None],
        };
        // sizes of every position, receiver first and result last
        let mut sizes = vec![recv_set.len()];
        sizes.extend(arg_sets.iter().map(Vec::len));
        sizes.push(res_set.len());
        let total: usize = sizes.iter().fold(1usize, |a, &b| a.saturating_mul(b));
        let want = self.cfg.max_sequences_per_member.max(1);
        let mut picks: Vec<Vec<usize>> = Vec::new();
        if total <= want {
            for k in 0..total {
                let mut rem = k;
                let mut idx = Vec::with_capacity(sizes.len());
                for &s in &sizes {
                    idx.push(rem % s);
                    rem /= s;
                }
                picks.push(idx);
            }
        } else {
            picks.push(vec![0; sizes.len()]);
            let mut tries = 0;
            let max_tries = want.saturating_mul(self.cfg.sample_tries_per_sequence);
            while picks.len() < want && tries < max_tries {
                tries += 1;
                let idx: Vec<usize> = sizes.iter().map(|&s| rng.gen_range(0..s)).collect();
                if !picks.contains(&idx) {
                    picks.push(idx);
                }
            }
        }
        let n = sizes.len();
        for idx in picks {
            let seq = TypingSequence {
                receiver: recv_set[idx[0]],
                args: arg_sets
                    .iter()
                    .zip(&idx[1..n - 1])
                    .map(|(s, &i)| s[i])
                    .collect(),
                result: res_set[idx[n - 1]],
            };
            if self.resolve_call(m, f, &seq) == Resolution::Unique(m) {
                out.push(Task {
                    member: m,
                    formal: f.clone(),
                    seq,
                    broken: None,
                });
            }
        }
    }

    fn ill_typed(&mut self, rng: &mut SynthRng, m: MemberId, f: &Formal, out: &mut Vec<Task>) {
        let formal_seq = TypingSequence {
            receiver: f.receiver,
            args: f.params.clone(),
            result: f.ret,
        };
        if self.resolve_call(m, f, &formal_seq) != Resolution::Unique(m) {
            return;
        }
        let mut positions = Vec::new();
        let name = self.api.member(m).name.clone();
        let is_constructor = self.api.member(m).kind == MemberKind::Constructor;
        if f.receiver.is_some() && !OBJECT_METHODS.contains(&name.as_str()) {
            positions.push(Position::Receiver);
        }
        positions.extend((0..f.params.len()).map(Position::Arg));
        if f.ret.is_some() {
            positions.push(Position::Result);
        }
        // a static field of an integral type may be a compile-time constant, which Java
        // narrows to byte/short/char (and their boxes) when the value fits
        let mem = self.api.member(m);
        let constant = mem.kind == MemberKind::Field
            && mem.is_static
            && matches!(
                self.api.ts.arena.get(mem.ret),
                Type::Prim(Prim::Byte | Prim::Short | Prim::Char | Prim::Int)
            );
        let owner_sym = self.api.class(self.api.member(m).owner).sym;
        let owner_ty = self.api.ts.self_type(owner_sym);
        let owner_known =
            self.hierarchy_known(owner_ty) && f.receiver.is_none_or(|r| self.hierarchy_known(r));
        let mut pairs = Vec::new();
        for pos in positions {
            let formal = match pos {
                Position::Receiver => f.receiver,
                Position::Arg(i) => Some(f.params[i]),
                Position::Result => f.ret,
            };
            let Some(formal) = formal else { continue };
            if self.checker_accepts_any(m, f, pos, owner_ty) {
                continue;
            }
            // Scala's `StringOps` and `ArrayOps` give strings and arrays many methods more
            // (`"a".contains(x)` takes any `x` as a `Seq[Char]`'s element)
            let enriched_receiver = f.receiver.is_some_and(|r| self.enriched(r));
            if matches!(pos, Position::Arg(_)) && enriched_receiver {
                continue;
            }
            let mut found: Vec<TypeId> = Vec::new();
            let mut cands = self.ill_candidates(rng);
            cands.shuffle(rng);
            for x in cands {
                if found.len() >= self.cfg.ill_types_per_position {
                    break;
                }
                if found.contains(&x) || !self.incompatible(x, formal) {
                    continue;
                }
                let mut seq = formal_seq.clone();
                let ok = match pos {
                    // a wrong enclosing instance: `x.new Inner()` finds no member class
                    // `Inner` in `x`'s type
                    Position::Receiver if is_constructor => {
                        seq.receiver = Some(x);
                        self.lacks_member_class(x, &name)
                            && !self.enriched(x)
                            && !self.scala_view_gives(x, &name)
                    }
                    Position::Receiver if self.api.member(m).receiver.is_some() => {
                        // an extension member's receiver: no extension of the name in scope
                        // may take it, nor a member of its class
                        seq.receiver = Some(x);
                        self.lacks_member(x, &name)
                            && !self.extension_in_scope_takes(m, x)
                            && !self.enriched(x)
                            && !self.scala_view_gives(x, &name)
                    }
                    Position::Receiver => {
                        seq.receiver = Some(x);
                        // (nor an extension method, nor a conversion, gives it one)
                        self.lacks_member(x, &name)
                            && !(self.rules.has_extension_methods()
                                && self.extension_applies(x, false, &name, f.params.len())
                                || self.enriched(x)
                                || self.scala_view_gives(x, &name))
                    }
                    Position::Arg(_)
                        if self.lenient_conversion(x, formal, ConversionSite::Argument) =>
                    {
                        false
                    }
                    Position::Arg(i) => {
                        seq.args[i] = x;
                        // overloads may hide in supertypes outside the API
                        owner_known && self.resolve_call(m, f, &seq) == Resolution::NoneApplicable
                    }
                    Position::Result
                        if self.lenient_conversion(formal, x, ConversionSite::Assignment) =>
                    {
                        false
                    }
                    Position::Result => {
                        seq.result = Some(x);
                        !(self.assignable(formal, x)
                            || constant && self.narrows_constant(x)
                            || constant && self.converts_constant(x)
                            || self.rules.overloads_by_expected_type()
                                && self.overload_returns(m, x))
                    }
                };
                if ok {
                    found.push(x);
                    pairs.push((
                        seq,
                        Broken {
                            position: pos,
                            formal,
                            actual: x,
                        },
                    ));
                }
            }
        }
        pairs.shuffle(rng);
        pairs.truncate(self.cfg.max_sequences_per_member.max(1));
        for (seq, broken) in pairs {
            out.push(Task {
                member: m,
                formal: f.clone(),
                seq,
                broken: Some(broken),
            });
        }
    }

    /// Candidate replacement types for a broken position: random pool types, a few
    /// primitives and `String`.
    fn ill_candidates(&mut self, rng: &mut SynthRng) -> Vec<TypeId> {
        let mut c = Vec::new();
        let depth = self.cfg.max_type_depth;
        for _ in 0..self.cfg.ill_candidates_per_position {
            let t = self.random_type(rng, depth);
            c.push(t);
        }
        for p in ILL_PRIMS {
            c.push(self.api.ts.arena.prim(p));
        }
        let s = self.ctx.string_sym;
        c.push(self.api.ts.arena.class(s, &[]));
        c
    }

    /// Neither a subtype nor a supertype of the formal type, and writable in Java. Both
    /// hierarchies must be fully known: a supertype outside the API could hide a subtyping
    /// relation (an `ArrayList` whose `List` supertype is missing is still a `Collection`).
    fn incompatible(&mut self, x: TypeId, formal: TypeId) -> bool {
        self.ctx.expressible(&self.api, x)
            && self.hierarchy_known(x)
            && self.hierarchy_known(formal)
            && !self.api.ts.is_subtype(x, formal)
            && !self.api.ts.is_subtype(formal, x)
    }

    /// True when every supertype of `t` is defined by the API, is a root class, or is one of
    /// the JDK's marker interfaces (which have no supertypes of their own).
    pub(crate) fn hierarchy_known(&mut self, t: TypeId) -> bool {
        const LEAVES: [&str; 6] = [
            "java.io.Serializable",
            "java.lang.Cloneable",
            "java.util.RandomAccess",
            "java.lang.AutoCloseable",
            "java.lang.constant.Constable",
            "java.lang.constant.ConstantDesc",
        ];
        let t = match *self.api.ts.arena.get(t) {
            Type::Array(e) => e,
            _ => t,
        };
        for s in self.api.ts.all_supertypes(t) {
            if let Some((n, _)) = self.api.ts.arena.as_class(s) {
                if self.api.class_by_sym(n).is_none()
                    && !self.api.ts.is_root_class(n)
                    && !LEAVES.contains(&self.api.ts.arena.name(n))
                {
                    return false;
                }
            }
        }
        true
    }

    /// True when a value of the receiver type `x` certainly has no member named `name`.
    fn lacks_member(&mut self, x: TypeId, name: &str) -> bool {
        let Some((sym, _)) = self.api.ts.arena.as_class(x) else {
            return false;
        };
        let Some(cid) = self.api.class_by_sym(sym) else {
            return false;
        };
        // every supertype must be known, or a member could hide there
        let sups = self.api.ts.all_supertypes(x);
        for s in sups {
            if let Some((n, _)) = self.api.ts.arena.as_class(s) {
                if self.api.class_by_sym(n).is_none() && !self.api.ts.is_root_class(n) {
                    return false;
                }
            }
        }
        self.ctx
            .members_by_name
            .get(&cid)
            .is_none_or(|by| !by.contains_key(name))
    }
}

impl Worker<'_> {
    /// True when neither the class of `x` nor any of its supertypes has a member class named
    /// `simple` (all of them known to the API), so that `x.new simple()` cannot resolve.
    fn lacks_member_class(&mut self, x: TypeId, simple: &str) -> bool {
        match self.api.ts.arena.get(x) {
            // a primitive or an array has no member classes
            Type::Prim(_) | Type::Array(_) => return true,
            Type::Class { .. } => {}
            _ => return false,
        }
        if !self.hierarchy_known(x) {
            return false;
        }
        for s in self.api.ts.all_supertypes(x) {
            if let Some((n, _)) = self.api.ts.arena.as_class(s) {
                let nested = format!("{}.{simple}", self.api.ts.arena.name(n));
                if self.api.class_by_name(&nested).is_some() {
                    return false;
                }
            }
        }
        true
    }
}

/// True for `void` and Unit result types.
pub fn is_void(a: &crate::types::TypeArena, t: TypeId) -> bool {
    match a.get(t) {
        Type::Prim(Prim::Void) => true,
        Type::Class { name, args } if args.is_empty() => {
            matches!(a.name(*name), "kotlin.Unit" | "scala.Unit")
        }
        _ => false,
    }
}

/// The name of the generic test method's type variable (`static <T extends B> void test()`).
pub const PROGRAM_TYPE_VAR: &str = "T";

/// How many type arguments of a substitution [`Worker::generalize`] tries to replace by the
/// test method's type variable before it gives up.
pub const GENERALIZE_ATTEMPTS: usize = 3;

/// A task as a program builds it: possibly generalized over the test method's type
/// variables, with the positions whose locals Kotlin declares nullable (`T?`).
#[derive(Clone, Debug)]
pub struct Shaped {
    /// The task (generalized or re-broken at build time, else the enumerated one).
    pub task: Task,
    /// The type parameters of the test method.
    pub type_params: Vec<TypeParam>,
    /// The positions whose locals are declared with a nullable type.
    pub nullable: Vec<Position>,
}

impl Worker<'_> {
    /// The shape of program `index` for `task` under the program's swarm features (drawn
    /// before): a generic test method ([`Worker::generalize`]) and Kotlin's nullable locals
    /// (`Worker::nullable_positions`). Creating an inner class needs its enclosing
    /// instance, so the form is on for a program whose member is an inner class's constructor.
    pub fn shape_task(&mut self, task: &Task, seed: u64, index: u64) -> Shaped {
        let mut rng = RngStream::Shape.rng(seed, index);
        let p = self.cfg.swarm.use_probability.clamp(0.0, 1.0);
        if outer_class(&self.api, task.member).is_some() {
            self.building.features.inner_classes = true;
        }
        let mut task = task.clone();
        let mut type_params = Vec::new();
        if self.building.features.generic_test_method && rng.gen_bool(p) {
            if let Some((t, tp)) = self.generalize(&mut rng, &task) {
                task = t;
                type_params.push(tp);
            }
        }
        let nullable = self.nullable_positions(&mut rng, &mut task);
        Shaped {
            task,
            type_params,
            nullable,
        }
    }

    /// The task generalized over a type variable of the test method: a type argument `X` of
    /// the member's substitution is replaced, there and in the typing sequence, by the
    /// program's variable `T` bounded by `X` or by a supertype of `X`. Kept only when the
    /// substitution stays valid (Def. 3.1) and the sequence well-typed in Java's rules (or,
    /// for an ill-typed task, still broken at its position).
    pub fn generalize(&mut self, rng: &mut SynthRng, task: &Task) -> Option<(Task, TypeParam)> {
        let mut cands: Vec<(String, TypeId)> = Vec::new();
        let values: Vec<TypeId> = task.formal.subst.iter().map(|(_, t)| t).collect();
        for t in values {
            if self.generalizable(t) {
                let key = print_type(&self.api.ts.arena, Syntax::Java, t);
                if !cands.iter().any(|(k, _)| *k == key) {
                    cands.push((key, t));
                }
            }
        }
        // printed order, not id order: ids depend on what the worker interned before
        cands.sort();
        cands.shuffle(rng);
        for (_, x) in cands.into_iter().take(GENERALIZE_ATTEMPTS) {
            let bound = self.bound_for(rng, x);
            let v = self.program_var(bound);
            let tv = self.api.ts.arena.var_type(v);
            if let Some(t) = self.generalized(task, x, tv) {
                let tp = TypeParam {
                    name: PROGRAM_TYPE_VAR.to_string(),
                    bounds: vec![super::program::to_ir(&self.api, bound)],
                };
                return Some((t, tp));
            }
        }
        self.generalize_position(rng, task)
    }

    /// The task with the type `X` of its receiver or of one argument (a class type) replaced
    /// by the program's variable `T extends X` (a subtype of `X`, inhabited by `(T) null`),
    /// kept when the call still resolves the same way (or stays broken).
    fn generalize_position(
        &mut self,
        rng: &mut SynthRng,
        task: &Task,
    ) -> Option<(Task, TypeParam)> {
        let broken = task.broken.map(|b| b.position);
        let mut positions: Vec<Position> = Vec::new();
        if task.seq.receiver.is_some() {
            positions.push(Position::Receiver);
        }
        positions.extend((0..task.seq.args.len()).map(Position::Arg));
        positions.retain(|&p| Some(p) != broken);
        positions.shuffle(rng);
        let m = task.member;
        for pos in positions.into_iter().take(GENERALIZE_ATTEMPTS) {
            let x = match pos {
                Position::Receiver => task.seq.receiver,
                Position::Arg(i) => task.seq.args.get(i).copied(),
                Position::Result => None,
            }?;
            if !self.generalizable(x) || self.generic_array(x) {
                continue;
            }
            let v = self.program_var(x);
            let tv = self.api.ts.arena.var_type(v);
            let mut seq = task.seq.clone();
            match pos {
                Position::Receiver => seq.receiver = Some(tv),
                Position::Arg(i) => seq.args[i] = tv,
                Position::Result => {}
            }
            // `r.new Inner()` on a type-variable-typed `r` is left out
            if pos == Position::Receiver && self.api.member(m).kind == MemberKind::Constructor {
                continue;
            }
            let want = match broken {
                None | Some(Position::Result) => Some(Resolution::Unique(m)),
                Some(Position::Arg(_)) => Some(Resolution::NoneApplicable),
                // the receiver lacks the member: no resolution to compare
                Some(Position::Receiver) => None,
            };
            if want.is_some_and(|w| self.resolve_call(m, &task.formal, &seq) != w) {
                continue;
            }
            let tp = TypeParam {
                name: PROGRAM_TYPE_VAR.to_string(),
                bounds: vec![super::program::to_ir(&self.api, x)],
            };
            let t = Task {
                seq,
                ..task.clone()
            };
            return Some((t, tp));
        }
        None
    }

    /// True when a type argument can become the bound of the test method's type variable:
    /// a class type Java can write, not a box (unboxing a type variable differs between the
    /// languages), not a universal trait (a Scala `T <: Serializable` is no `Object`).
    fn generalizable(&self, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        match a.as_class(t) {
            Some((sym, _)) => {
                self.ctx.unbox_of(sym).is_none()
                    && self.ctx.expressible(&self.api, t)
                    && !a.name(sym).starts_with("java.lang.Void")
                    && !kotlin_view::is_array_class(a.name(sym))
                    && !self.rules.extends_any_only(&self.api.ts, sym)
                    && !self
                        .api
                        .class_by_sym(sym)
                        .is_some_and(|c| super::context::is_kotlin_annotation_class(&self.api, c))
            }
            None => false,
        }
    }

    /// The bound of the type variable that replaces `x`: `x` itself, or one of its
    /// supertypes that Java can write.
    fn bound_for(&mut self, rng: &mut SynthRng, x: TypeId) -> TypeId {
        if rng.gen_bool(0.5) {
            return x;
        }
        let mut sups: Vec<(String, TypeId)> = self
            .api
            .ts
            .all_supertypes(x)
            .into_iter()
            .filter(|&s| {
                // a universal trait bounds no type variable that stands for an `Object`
                self.api.ts.arena.as_class(s).is_some_and(|(n, _)| {
                    !self.rules.extends_any_only(&self.api.ts, n)
                        && !kotlin_view::is_array_class(self.api.ts.arena.name(n))
                }) && self.ctx.expressible(&self.api, s)
            })
            .map(|s| (print_type(&self.api.ts.arena, Syntax::Java, s), s))
            .collect();
        sups.sort();
        sups.dedup();
        sups.choose(rng).map_or(x, |&(_, s)| s)
    }

    /// The test method's type variable with upper bound `bound` (declared once per worker).
    fn program_var(&mut self, bound: TypeId) -> VarId {
        if let Some(&v) = self.caches.program_vars.get(&bound) {
            return v;
        }
        let v = self.api.ts.arena.new_var(PROGRAM_TYPE_VAR, "test");
        self.api.ts.arena.var_mut(v).upper = vec![bound];
        self.caches.program_vars.insert(bound, v);
        v
    }

    /// `task` with `x` replaced by `tv` in its substitution, formal and typing sequence, if
    /// the result is valid and keeps the task's verdict.
    fn generalized(&mut self, task: &Task, x: TypeId, tv: TypeId) -> Option<Task> {
        let m = task.member;
        let pairs: Vec<(VarId, TypeId)> = task.formal.subst.iter().collect();
        let mut subst = Subst::new();
        for (v, t) in pairs {
            let t = self.replace_type(t, x, tv);
            subst.insert(v, t);
        }
        if !self.api.ts.is_valid_subst(&subst) {
            return None;
        }
        let f = self.formal_under(m, subst);
        // `new T[]{..}` is a generic array creation, which Java forbids
        let arrays = f
            .receiver
            .into_iter()
            .chain(f.params.iter().copied())
            .chain(f.ret);
        if arrays.into_iter().any(|t| self.generic_array(t)) {
            return None;
        }
        match task.broken {
            None => {
                let seq = TypingSequence {
                    receiver: task.seq.receiver.map(|t| self.replace_type(t, x, tv)),
                    args: task
                        .seq
                        .args
                        .iter()
                        .map(|&t| self.replace_type(t, x, tv))
                        .collect(),
                    result: task.seq.result.map(|t| self.replace_type(t, x, tv)),
                };
                let seq_types = seq.receiver.into_iter().chain(seq.args.iter().copied());
                // a type variable in a class type must meet its parameter's bound
                if seq_types
                    .chain(seq.result)
                    .any(|t| self.generic_array(t) || !self.api.ts.is_well_formed(t))
                {
                    return None;
                }
                let receiver_ok = match (seq.receiver, f.receiver) {
                    (Some(a), Some(b)) => self.api.ts.is_subtype(a, b),
                    (None, None) => true,
                    _ => false,
                };
                let result_ok = match (f.ret, seq.result) {
                    (Some(r), Some(e)) => self.assignable(r, e),
                    (None, None) => true,
                    _ => false,
                };
                let ok = receiver_ok
                    && result_ok
                    && self.resolve_call(m, &f, &seq) == Resolution::Unique(m);
                ok.then(|| Task {
                    member: m,
                    formal: f,
                    seq,
                    broken: None,
                })
            }
            Some(b) => {
                let mut seq = TypingSequence {
                    receiver: f.receiver,
                    args: f.params.clone(),
                    result: f.ret,
                };
                let formal = match b.position {
                    Position::Receiver => f.receiver,
                    Position::Arg(i) => f.params.get(i).copied(),
                    Position::Result => f.ret,
                }?;
                let x = b.actual;
                if !self.incompatible(x, formal) {
                    return None;
                }
                let still = match b.position {
                    Position::Receiver => {
                        seq.receiver = Some(x);
                        let name = self.api.member(m).name.clone();
                        !self.scala_view_gives(x, &name)
                    }
                    Position::Arg(i) => {
                        seq.args[i] = x;
                        !self.lenient_conversion(x, formal, ConversionSite::Argument)
                            && self.resolve_call(m, &f, &seq) == Resolution::NoneApplicable
                    }
                    Position::Result => {
                        seq.result = Some(x);
                        !(self.lenient_conversion(formal, x, ConversionSite::Assignment)
                            || self.assignable(formal, x)
                            || self.rules.overloads_by_expected_type()
                                && self.overload_returns(m, x))
                    }
                };
                // the other positions must still resolve to the member
                let mut plain = seq.clone();
                match b.position {
                    Position::Receiver => plain.receiver = f.receiver,
                    Position::Arg(i) => plain.args[i] = formal,
                    Position::Result => plain.result = f.ret,
                }
                let resolves = self.resolve_call(m, &f, &plain) == Resolution::Unique(m);
                (still && resolves).then(|| Task {
                    member: m,
                    formal: f,
                    seq,
                    broken: Some(Broken {
                        position: b.position,
                        formal,
                        actual: x,
                    }),
                })
            }
        }
    }

    /// True when another overload of `m` with as many parameters returns a type assignable
    /// to `x`: a language that resolves overloads by the expected type may choose it.
    pub(crate) fn overload_returns(&mut self, m: MemberId, x: TypeId) -> bool {
        let mem = self.api.member(m);
        let (kind, arity) = (mem.kind, mem.params.len());
        let Some(rs) = self
            .ctx
            .members_by_name
            .get(&mem.owner)
            .and_then(|by| by.get(&mem.name))
        else {
            return false;
        };
        let rets: Vec<TypeId> = rs
            .iter()
            .filter(|r| r.member != m)
            .map(|r| self.api.member(r.member))
            .filter(|o| o.kind == kind && o.params.len() == arity)
            .map(|o| o.ret)
            .collect();
        rets.into_iter().any(|r| self.assignable(r, x))
    }

    /// True when `t` is or contains an array whose element type mentions a type variable.
    fn generic_array(&self, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        let mut todo = vec![t];
        while let Some(u) = todo.pop() {
            if let Type::Array(e) = a.get(u) {
                if !a.free_vars(*e).is_empty() {
                    return true;
                }
            }
            a.for_each_child(u, |c| todo.push(c));
        }
        false
    }

    /// `t` with every occurrence of the type `from` replaced by `to`.
    fn replace_type(&mut self, t: TypeId, from: TypeId, to: TypeId) -> TypeId {
        if t == from {
            return to;
        }
        match self.api.ts.arena.get(t).clone() {
            Type::Class { name, args } => {
                let args: Vec<TypeId> = args
                    .iter()
                    .map(|&a| self.replace_type(a, from, to))
                    .collect();
                self.api.ts.arena.class(name, &args)
            }
            Type::Array(e) => {
                let e = self.replace_type(e, from, to);
                self.api.ts.arena.array(e)
            }
            Type::Nullable(e) => {
                let e = self.replace_type(e, from, to);
                self.api.ts.arena.nullable(e)
            }
            Type::Wildcard(Wildcard::Extends(b)) => {
                let b = self.replace_type(b, from, to);
                self.api.ts.arena.wildcard(Wildcard::Extends(b))
            }
            Type::Wildcard(Wildcard::Super(b)) => {
                let b = self.replace_type(b, from, to);
                self.api.ts.arena.wildcard(Wildcard::Super(b))
            }
            _ => t,
        }
    }
}
