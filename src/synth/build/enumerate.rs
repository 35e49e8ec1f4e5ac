//! API enumeration (Section 3.3): valid substitutions and typing sequences per member,
//! well-typed or with exactly one broken position, checked against Java overload resolution
//! and the target language's rules (`typing`).

use rand::seq::SliceRandom;
use rand::Rng;

use super::rng::{RngStream, SynthRng};
use super::worker::Worker;
use crate::api::{MemberId, MemberKind};
use crate::synth::config::Mode;
use crate::synth::context::{outer_class, SkipReason};
use crate::synth::typing::convert::ConversionSite;
use crate::synth::typing::overload::Resolution;
use crate::synth::typing::sequence::{
    Broken, Formal, Position, Task, TypingSequence, OBJECT_METHODS,
};
use crate::types::{Prim, Subst, Type, TypeId, VarId};

/// The primitive types always tried, with `String`, as replacements for a broken position
/// (besides the random pool types of [`SynthConfig::ill_candidates_per_position`](crate::synth::SynthConfig::ill_candidates_per_position)).
const ILL_PRIMS: [Prim; 3] = [Prim::Int, Prim::Boolean, Prim::Double];

impl Worker<'_> {
    /// The typing sequences of a member under the configured mode, or why it is skipped.
    pub fn enumerate_member(&mut self, m: MemberId, seed: u64) -> Result<Vec<Task>, SkipReason> {
        if let Some(why) = self.typing().language_problem(m) {
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
        let f = self.typing().formal_under(m, subst);
        // `T ↦ Nothing` makes a Kotlin `Array<T?>` receiver or parameter an array of
        // `Nothing?`, which Kotlin has not
        if self.ctx.native == Some(crate::types::Syntax::Kotlin)
            && f.receiver
                .into_iter()
                .chain(f.params.iter().copied())
                .chain(f.ret)
                .any(|t| crate::synth::context::mentions_nothing_array(&self.api, t))
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
            if self.typing().resolve_call(m, f, &seq) == Resolution::Unique(m) {
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
        if self.typing().resolve_call(m, f, &formal_seq) != Resolution::Unique(m) {
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
        let owner_known = self.typing().hierarchy_known(owner_ty)
            && f.receiver.is_none_or(|r| self.typing().hierarchy_known(r));
        let mut pairs = Vec::new();
        for pos in positions {
            let formal = match pos {
                Position::Receiver => f.receiver,
                Position::Arg(i) => Some(f.params[i]),
                Position::Result => f.ret,
            };
            let Some(formal) = formal else { continue };
            if self.typing().checker_accepts_any(m, f, pos, owner_ty) {
                continue;
            }
            // Scala's `StringOps` and `ArrayOps` give strings and arrays many methods more
            // (`"a".contains(x)` takes any `x` as a `Seq[Char]`'s element)
            let enriched_receiver = f.receiver.is_some_and(|r| self.typing().enriched(r));
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
                if found.contains(&x) || !self.typing().incompatible(x, formal) {
                    continue;
                }
                let mut seq = formal_seq.clone();
                let ok = match pos {
                    // a wrong enclosing instance: `x.new Inner()` finds no member class
                    // `Inner` in `x`'s type
                    Position::Receiver if is_constructor => {
                        seq.receiver = Some(x);
                        self.typing().lacks_member_class(x, &name)
                            && !self.typing().enriched(x)
                            && !self.typing().scala_view_gives(x, &name)
                    }
                    Position::Receiver if self.api.member(m).receiver.is_some() => {
                        // an extension member's receiver: no extension of the name in scope
                        // may take it, nor a member of its class
                        seq.receiver = Some(x);
                        self.typing().lacks_member(x, &name)
                            && !self.typing().extension_in_scope_takes(m, x)
                            && !self.typing().enriched(x)
                            && !self.typing().scala_view_gives(x, &name)
                    }
                    Position::Receiver => {
                        seq.receiver = Some(x);
                        // (nor an extension method, nor a conversion, gives it one)
                        self.typing().lacks_member(x, &name)
                            && !(self.rules.has_extension_methods()
                                && self
                                    .typing()
                                    .extension_applies(x, false, &name, f.params.len())
                                || self.typing().enriched(x)
                                || self.typing().scala_view_gives(x, &name))
                    }
                    Position::Arg(_)
                        if self.typing().lenient_conversion(
                            x,
                            formal,
                            ConversionSite::Argument,
                        ) =>
                    {
                        false
                    }
                    // a Scala splice `x*` for the variable-arity parameter takes any `Seq`
                    Position::Arg(i)
                        if self.api.member(m).params.get(i).is_some_and(|p| p.vararg)
                            && self.typing().scala_splices(x, formal) =>
                    {
                        false
                    }
                    Position::Arg(i) => {
                        seq.args[i] = x;
                        // overloads may hide in supertypes outside the API
                        owner_known
                            && self.typing().resolve_call(m, f, &seq) == Resolution::NoneApplicable
                    }
                    Position::Result
                        if self.typing().lenient_conversion(
                            formal,
                            x,
                            ConversionSite::Assignment,
                        ) =>
                    {
                        false
                    }
                    Position::Result => {
                        seq.result = Some(x);
                        !(self.typing().assignable(formal, x)
                            || constant && self.typing().narrows_constant(x)
                            || constant && self.typing().converts_constant(x)
                            || self.rules.overloads_by_expected_type()
                                && self.typing().overload_returns(m, x))
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
}
