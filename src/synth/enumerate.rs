//! API enumeration (Section 3.3): valid substitutions and typing sequences per member,
//! well-typed or with exactly one broken position, checked against Java overload resolution.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use super::config::Mode;
use super::context::{java_expressible, SkipReason};
use super::worker::{mix_seed, SynthRng, Worker};
use crate::api::{ClassId, MemberId, MemberKind, ResolvedMember};
use crate::types::{Prim, Subst, Type, TypeId, UnifyMode, VarId};

/// Methods every class has (a receiver can never lack them).
const OBJECT_METHODS: [&str; 9] = [
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

/// What overload resolution does with a call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Resolution {
    /// Exactly one most specific applicable member.
    Unique(MemberId),
    /// Several maximally specific members.
    Ambiguous,
    /// No applicable member.
    NoneApplicable,
}

impl Worker<'_> {
    /// The typing sequences of a member under the configured mode, or why it is skipped.
    pub fn enumerate_member(&mut self, m: MemberId, seed: u64) -> Result<Vec<Task>, SkipReason> {
        if let Some(why) = self.language_problem(m) {
            return Err(why);
        }
        if self.cfg.mode == Mode::IllTyped && self.api.is_signature_polymorphic(m) {
            return Err(SkipReason::SignaturePolymorphic);
        }
        let mut rng = SynthRng::seed_from_u64(mix_seed(seed, 1, u64::from(m.0)));
        let mut tasks = Vec::new();
        let mut any_subst = false;
        let mut seen = Vec::new();
        for _ in 0..self.cfg.substitutions_per_member.max(1) {
            let Some(formal) = self.draw_formal(&mut rng, m) else {
                continue;
            };
            if seen.contains(&formal.subst) {
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

    /// Why the target language cannot use member `m` the way Java does, if it cannot (for
    /// the member under test and for the members on inhabitant paths alike).
    pub(crate) fn language_problem(&mut self, m: MemberId) -> Option<SkipReason> {
        if let Some(&p) = self.language_problems.get(&m) {
            return p;
        }
        use thalia_translators::Language::{Groovy, Java, Kotlin};
        let lang = self.cfg.lang;
        let p = if self.is_scala() && self.static_from_hidden_supertype(m) {
            Some(SkipReason::HiddenStatic)
        } else if !matches!(lang, Java | Groovy) && self.mentions_raw_type(m) {
            Some(SkipReason::RawType)
        } else if self.is_scala2_interface_clone(m) {
            Some(SkipReason::InterfaceClone)
        } else if self.is_kotlin_annotation_element(m) {
            Some(SkipReason::AnnotationElement)
        } else if lang == Kotlin && self.is_map_compute(m) {
            Some(SkipReason::KotlinNullableParameter)
        } else {
            None
        };
        self.language_problems.insert(m, p);
        p
    }

    /// True for `Map.compute(K, BiFunction)` or an override: Kotlin's view of the JDK types
    /// its function `BiFunction<in K, in V?, out V?>`, which a `BiFunction` consuming a
    /// non-null `V` does not satisfy.
    fn is_map_compute(&mut self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || mem.is_static || mem.name != "compute" {
            return false;
        }
        let (sym, arity) = (self.api.class(mem.owner).sym, mem.params.len());
        let owner = self.api.ts.self_type(sym);
        arity == 2
            && self
                .declarers(owner, "compute", 2)
                .iter()
                .any(|c| c == "java.util.Map")
    }

    /// True for a `clone()` that an interface declares public, when writing Scala 2, which
    /// only sees `Object`'s protected one (scalac 2.13 rejects the call).
    fn is_scala2_interface_clone(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        self.cfg.lang == thalia_translators::Language::Scala2
            && mem.kind == MemberKind::Method
            && mem.name == "clone"
            && mem.params.is_empty()
            && self.api.class(mem.owner).kind == crate::api::ClassKind::Interface
    }

    /// True for an element of an annotation type (an instance method of an interface that
    /// extends `java.lang.annotation.Annotation`) when writing Kotlin, which shows it as a
    /// property.
    fn is_kotlin_annotation_element(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        if self.cfg.lang != thalia_translators::Language::Kotlin
            || mem.kind != MemberKind::Method
            || mem.is_static
        {
            return false;
        }
        let a = &self.api.ts.arena;
        self.api.class(mem.owner).supertypes().iter().any(|&t| {
            a.as_class(t)
                .is_some_and(|(n, _)| a.name(n) == "java.lang.annotation.Annotation")
        })
    }

    /// True when the member's receiver, parameter or result type mentions a raw type (a
    /// generic class without type arguments).
    fn mentions_raw_type(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        let mut todo: Vec<TypeId> = mem.params.iter().map(|p| p.ty).collect();
        todo.push(mem.ret);
        todo.extend(mem.receiver);
        let a = &self.api.ts.arena;
        while let Some(t) = todo.pop() {
            if let Some((sym, args)) = a.as_class(t) {
                if args.is_empty() && self.api.ts.class_params(sym).is_some_and(|p| !p.is_empty()) {
                    return true;
                }
            }
            a.for_each_child(t, |c| todo.push(c));
        }
        false
    }

    /// True for a static field the extractor copied from a non-public supertype.
    fn static_from_hidden_supertype(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        mem.kind == MemberKind::Field
            && self
                .api
                .class(mem.owner)
                .doc
                .fields()
                .get(mem.doc_index)
                .and_then(|f| f.extra.get("static_from_hidden_supertype"))
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false)
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
        let subst = self.draw_subst(rng, &vars, depth, &Subst::new())?;
        let receiver = if mem.needs_receiver() {
            let self_ty = self.api.ts.self_type(owner.sym);
            Some(self.api.ts.arena.subst(self_ty, &subst))
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
        Some(Formal {
            subst,
            receiver,
            params,
            ret,
        })
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
            while picks.len() < want && tries < want * 8 {
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
            if self.resolve(m, f, &seq) == Resolution::Unique(m) {
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
        if self.resolve(m, f, &formal_seq) != Resolution::Unique(m) {
            return;
        }
        let mut positions = Vec::new();
        let name = self.api.member(m).name.clone();
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
            if self.groovy_cannot_break(m, f, pos, owner_ty) {
                continue;
            }
            // Scala's `StringOps` and `ArrayOps` give strings and arrays many methods more
            // (`"a".contains(x)` takes any `x` as a `Seq[Char]`'s element)
            let enriched_receiver = f.receiver.is_some_and(|r| self.scala_enriched(r));
            if self.is_scala() && matches!(pos, Position::Arg(_)) && enriched_receiver {
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
                    Position::Receiver => {
                        seq.receiver = Some(x);
                        self.lacks_member(x, &name)
                            && !(self.cfg.lang == thalia_translators::Language::Groovy
                                && self.groovy_extension_applies(x, false, &name, f.params.len()))
                            && !(self.is_scala() && self.scala_enriched(x))
                    }
                    Position::Arg(_)
                        if self.cfg.lang == thalia_translators::Language::Scala2
                            && self.lenient_assignment(x, formal) =>
                    {
                        false
                    }
                    Position::Arg(i) => {
                        seq.args[i] = x;
                        // overloads may hide in supertypes outside the API
                        owner_known && self.resolve(m, f, &seq) == Resolution::NoneApplicable
                    }
                    Position::Result if self.lenient_assignment(formal, x) => false,
                    Position::Result => {
                        seq.result = Some(x);
                        !(self.assignable(formal, x)
                            || constant && self.narrows_constant(x)
                            || constant && self.scala_converts_constant(x))
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

    /// True when Groovy's static checker accepts any type at position `pos` of a call of `m`
    /// (checked with groovyc 4 and 5): an argument when an extension method of the same name
    /// and arity applies to the receiver (its parameters are not checked here), or when the
    /// parameter's declared type mentions one of the method's type variables (groovyc checks
    /// arguments against the variables' bounds, not against explicit type arguments); the
    /// result when its declared type mentions a type variable of the method that no parameter
    /// fixes.
    fn groovy_cannot_break(
        &mut self,
        m: MemberId,
        f: &Formal,
        pos: Position,
        owner: TypeId,
    ) -> bool {
        if self.cfg.lang != thalia_translators::Language::Groovy {
            return false;
        }
        let mem = self.api.member(m).clone();
        let mentions_var = |w: &Worker<'_>, t: TypeId| {
            w.api
                .ts
                .arena
                .free_vars(t)
                .iter()
                .any(|v| mem.type_params.contains(v))
        };
        match pos {
            Position::Receiver => false,
            Position::Arg(i) => {
                let extension = mem.kind == MemberKind::Method && {
                    let (recv, static_call) = match f.receiver {
                        Some(r) => (r, false),
                        None => (owner, true),
                    };
                    self.groovy_extension_applies(recv, static_call, &mem.name, f.params.len())
                };
                extension || mem.params.get(i).is_some_and(|p| mentions_var(self, p.ty))
            }
            Position::Result => {
                let fixed: Vec<_> = mem
                    .params
                    .iter()
                    .flat_map(|p| self.api.ts.arena.free_vars(p.ty))
                    .collect();
                self.api
                    .ts
                    .arena
                    .free_vars(mem.ret)
                    .iter()
                    .any(|v| mem.type_params.contains(v) && !fixed.contains(v))
            }
        }
    }

    /// True when writing Scala 3 or 2.13.
    fn is_scala(&self) -> bool {
        use thalia_translators::Language::{Scala2, Scala3};
        matches!(self.cfg.lang, Scala2 | Scala3)
    }

    /// True for the types Scala enriches implicitly with collection methods: `String`
    /// (`StringOps`, `WrappedString`) and arrays (`ArrayOps`).
    fn scala_enriched(&self, t: TypeId) -> bool {
        match *self.api.ts.arena.get(t) {
            Type::Array(_) => true,
            Type::Class { name, .. } => name == self.ctx.string_sym,
            _ => false,
        }
    }

    /// Candidate replacement types for a broken position: random pool types, a few
    /// primitives and `String`.
    fn ill_candidates(&mut self, rng: &mut SynthRng) -> Vec<TypeId> {
        let mut c = Vec::new();
        let depth = self.cfg.max_type_depth;
        for _ in 0..16 {
            let t = self.random_type(rng, depth);
            c.push(t);
        }
        for p in [Prim::Int, Prim::Boolean, Prim::Double] {
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
        java_expressible(&self.api, x)
            && self.hierarchy_known(x)
            && self.hierarchy_known(formal)
            && !self.api.ts.is_subtype(x, formal)
            && !self.api.ts.is_subtype(formal, x)
    }

    /// True when every supertype of `t` is defined by the API, is a root class, or is one of
    /// the JDK's marker interfaces (which have no supertypes of their own).
    fn hierarchy_known(&mut self, t: TypeId) -> bool {
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

    /// True when the target language converts a `from` value to a `to` variable although Java
    /// would not: Groovy turns anything into `boolean` (truth), `String` (`toString`), an enum
    /// (from its name), a `Class` or `Object`, and converts between numbers.
    fn lenient_assignment(&mut self, from: TypeId, to: TypeId) -> bool {
        if self.cfg.lang == thalia_translators::Language::Scala2 {
            // Scala 2 widens a number and then boxes it (`val l: java.lang.Long = anInt`)
            return match (self.prim_of(from), self.prim_of(to)) {
                (Some(a), Some(b)) => a == b || super::worker::wider_prims(a).contains(&b),
                _ => false,
            };
        }
        if self.cfg.lang != thalia_translators::Language::Groovy {
            return false;
        }
        let names = |w: &Worker<'_>, t: TypeId| -> Option<String> {
            w.api
                .ts
                .arena
                .as_class(t)
                .map(|(n, _)| w.api.ts.arena.name(n).to_string())
        };
        let loose = |w: &Worker<'_>, t: TypeId| -> bool {
            if matches!(w.api.ts.arena.get(t), Type::Prim(_)) {
                return true;
            }
            let Some(n) = names(w, t) else { return false };
            let enum_like = w
                .api
                .class_by_name(&n)
                .is_some_and(|c| w.api.class(c).kind == crate::api::ClassKind::Enum);
            enum_like
                || w.ctx
                    .unbox_of(
                        w.api
                            .ts
                            .arena
                            .as_class(t)
                            .map(|(s, _)| s)
                            .unwrap_or(w.ctx.object_sym),
                    )
                    .is_some()
                || matches!(
                    n.as_str(),
                    "java.lang.String"
                        | "java.lang.Object"
                        | "java.lang.Class"
                        | "java.lang.Number"
                        | "java.lang.CharSequence"
                )
        };
        // a collection or a stream converts to an array; a number to a BigDecimal/BigInteger
        let array_from_collection = matches!(self.api.ts.arena.get(to), Type::Array(_)) && {
            let seqs = [
                "java.util.Collection",
                "java.util.stream.BaseStream",
                "java.lang.Iterable",
            ];
            seqs.into_iter().any(|c| {
                let s = self.api.ts.arena.sym(c);
                let raw = self.api.ts.arena.class(s, &[]);
                self.api.ts.is_subtype(from, raw)
            })
        };
        let big = names(self, to)
            .is_some_and(|n| matches!(n.as_str(), "java.math.BigDecimal" | "java.math.BigInteger"))
            && (self.is_numeric(from) || {
                let number = self.api.ts.arena.class_named("java.lang.Number", &[]);
                self.api.ts.is_subtype(from, number)
            });
        array_from_collection
            || big
            || loose(self, to)
            || (loose(self, from) && matches!(self.api.ts.arena.get(to), Type::Prim(_)))
    }

    /// True when Scala converts an integral constant (a Java `static final int`, which it
    /// reads as a literal) to a variable of type `x`: any numeric type or its box (Scala 3
    /// `val f: java.lang.Float = Calendar.NOVEMBER`).
    fn scala_converts_constant(&self, x: TypeId) -> bool {
        self.is_scala() && self.is_numeric(x)
    }

    /// The primitive type `t` is or boxes.
    fn prim_of(&self, t: TypeId) -> Option<Prim> {
        match *self.api.ts.arena.get(t) {
            Type::Prim(p) => Some(p),
            Type::Class { name, .. } => self.ctx.unbox_of(name),
            _ => None,
        }
    }

    /// True for a numeric primitive or its box.
    fn is_numeric(&self, t: TypeId) -> bool {
        self.prim_of(t)
            .is_some_and(|p| !matches!(p, Prim::Boolean | Prim::Void))
    }

    /// True for the types a constant of an integral type may be narrowed to.
    fn narrows_constant(&self, x: TypeId) -> bool {
        matches!(self.prim_of(x), Some(Prim::Byte | Prim::Short | Prim::Char))
    }

    /// Java assignment conversion of a value of type `from` to a variable of type `to`
    /// (subtyping, widening, boxing then widening reference, unboxing then widening).
    pub fn assignable(&mut self, from: TypeId, to: TypeId) -> bool {
        self.convertible(from, to, true)
    }

    fn convertible(&mut self, from: TypeId, to: TypeId, loose: bool) -> bool {
        if self.api.ts.is_subtype(from, to) {
            return true;
        }
        // unchecked conversion: a raw `List` converts to any `Collection<X>`
        if let (Some((fs, fa)), Some((_, ta))) = (
            self.api.ts.arena.as_class(from),
            self.api.ts.arena.as_class(to),
        ) {
            let raw = fa.is_empty() && self.api.ts.class_params(fs).is_some_and(|p| !p.is_empty());
            if raw && !ta.is_empty() {
                let erased = self.api.ts.erase(to);
                if self.api.ts.is_subtype(from, erased) {
                    return true;
                }
            }
        }
        if !loose {
            return false;
        }
        if self.cfg.lang == thalia_translators::Language::Groovy
            && self.is_numeric(from)
            && self.is_numeric(to)
        {
            // Groovy converts between numbers (its number table, both ways for safety)
            return true;
        }
        let a = &self.api.ts.arena;
        match (a.get(from).clone(), a.get(to).clone()) {
            (Type::Prim(_), Type::Prim(_)) => false,
            (Type::Prim(p), _) => match self.ctx.box_of(p) {
                // a box class the API does not describe: its supertypes are unknown, so
                // assume the conversion may succeed
                Some(b) if self.api.class_by_sym(b).is_none() => true,
                Some(b) => {
                    let boxed = self.api.ts.arena.class(b, &[]);
                    self.api.ts.is_subtype(boxed, to)
                }
                None => false,
            },
            (Type::Class { name, args }, Type::Prim(q)) if args.is_empty() => {
                match self.ctx.unbox_of(name) {
                    Some(p) => {
                        let (pt, qt) = (self.api.ts.arena.prim(p), self.api.ts.arena.prim(q));
                        self.api.ts.is_subtype(pt, qt)
                    }
                    None => false,
                }
            }
            _ => false,
        }
    }

    /// The class whose members a receiver type offers.
    fn receiver_class(&self, t: TypeId) -> Option<ClassId> {
        let (sym, _) = self.api.ts.arena.as_class(t)?;
        self.api.class_by_sym(sym)
    }

    /// Java overload resolution (JLS 15.12.2, phases 1-3, most specific method) of a call of
    /// `m`'s name with the sequence's receiver and argument types, with `m`'s explicit type
    /// arguments when it is generic.
    pub fn resolve(&mut self, m: MemberId, f: &Formal, seq: &TypingSequence) -> Resolution {
        let mem = self.api.member(m).clone();
        if mem.kind == MemberKind::Field {
            return Resolution::Unique(m);
        }
        let explicit: Vec<TypeId> = mem
            .type_params
            .iter()
            .map(|&v| f.subst.get(v).unwrap_or(v_any(self)))
            .collect();
        let (cls, recv_subst) = match seq.receiver {
            Some(r) => {
                let Some(c) = self.receiver_class(r) else {
                    return Resolution::Unique(m);
                };
                let params = self.api.class(c).type_params.clone();
                let args = self
                    .api
                    .ts
                    .arena
                    .as_class(r)
                    .map(|(_, a)| a.to_vec())
                    .unwrap_or_default();
                (c, Subst::from_pairs(&params, &args))
            }
            None => {
                let owner = mem.owner;
                let s = if mem.kind == MemberKind::Constructor {
                    let params = self.api.class(owner).type_params.clone();
                    let args: Vec<TypeId> = params
                        .iter()
                        .map(|&p| f.subst.get(p).unwrap_or(v_any(self)))
                        .collect();
                    Subst::from_pairs(&params, &args)
                } else {
                    Subst::new()
                };
                (owner, s)
            }
        };
        let cands: Vec<ResolvedMember> = self
            .ctx
            .members_by_name
            .get(&cls)
            .and_then(|by| by.get(&mem.name))
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|r| {
                let k = self.api.member(r.member).kind;
                (k == MemberKind::Constructor) == (mem.kind == MemberKind::Constructor)
                    && k != MemberKind::Field
                    && (mem.kind != MemberKind::Constructor || r.declared_in == cls)
            })
            .collect();
        let mut inst: Vec<(MemberId, Vec<TypeId>, bool)> = Vec::new();
        for r in &cands {
            if let Some((ps, va)) = self.instantiate(r, &recv_subst, &explicit, &seq.args) {
                inst.push((r.member, ps, va));
            }
        }
        for phase in 1..=3 {
            let mut app: Vec<(MemberId, Vec<TypeId>)> = Vec::new();
            for (id, ps, varargs) in &inst {
                if self.applicable(ps, *varargs, &seq.args, phase) {
                    app.push((*id, ps.clone()));
                }
            }
            if app.is_empty() {
                continue;
            }
            return self.most_specific(&app);
        }
        Resolution::NoneApplicable
    }

    /// Parameter types of a candidate as seen through the receiver, with its own type
    /// parameters given explicitly or inferred from the arguments; `None` if it cannot take
    /// the explicit type arguments.
    fn instantiate(
        &mut self,
        r: &ResolvedMember,
        recv_subst: &Subst,
        explicit: &[TypeId],
        args: &[TypeId],
    ) -> Option<(Vec<TypeId>, bool)> {
        let cm = self.api.member(r.member).clone();
        // Groovy fills any trailing array parameter from the remaining arguments
        let groovy = self.cfg.lang == thalia_translators::Language::Groovy;
        let varargs = cm.params.last().is_some_and(|p| {
            p.vararg || groovy && matches!(self.api.ts.arena.get(p.ty), Type::Array(_))
        });
        let mut ps: Vec<TypeId> = cm
            .params
            .iter()
            .map(|p| {
                let t = self.api.ts.arena.subst(p.ty, &r.subst);
                self.api.ts.arena.subst(t, recv_subst)
            })
            .collect();
        if !cm.type_params.is_empty() {
            let s = if !explicit.is_empty() {
                if explicit.len() != cm.type_params.len() {
                    return None;
                }
                Subst::from_pairs(&cm.type_params, explicit)
            } else {
                // inference: match each parameter against its (boxed) argument; for a
                // varargs candidate also each trailing argument against the element type
                let mut s = Subst::new();
                let n = ps.len();
                for (i, &a) in args.iter().enumerate() {
                    let a = self.boxed(a);
                    let mut targets: Vec<TypeId> = Vec::new();
                    if i < n {
                        targets.push(ps[i]);
                    }
                    if varargs && i + 1 >= n && n > 0 {
                        if let Type::Array(e) = *self.api.ts.arena.get(ps[n - 1]) {
                            targets.push(e);
                        }
                    }
                    let mut matched = false;
                    for &p in &targets {
                        // a variable fixed by an earlier argument must take this one too
                        // (`join(T...)` on `(String, Object)`: `T` is not `String`)
                        let fits = self
                            .api
                            .ts
                            .unify_with(p, a, &cm.type_params, UnifyMode::Subtype, &s)
                            .filter(|s2| {
                                let inst = self.api.ts.arena.subst(p, s2);
                                self.api.ts.is_subtype(a, inst)
                            });
                        if let Some(s2) = fits {
                            s = s2;
                            matched = true;
                            break;
                        }
                    }
                    // conflicting lower bounds: Java takes their lub; approximate it by the
                    // variable's erased bound, which accepts every candidate
                    if !matched {
                        if let Some(&p) = targets.last() {
                            for v in self.api.ts.arena.free_vars(p) {
                                if cm.type_params.contains(&v) && s.contains(v) {
                                    let b = self.var_bound(v);
                                    s.insert(v, b);
                                }
                            }
                        }
                    }
                }
                for &v in &cm.type_params {
                    if !s.contains(v) {
                        let b = self.var_bound(v);
                        s.insert(v, b);
                    }
                }
                s
            };
            ps = ps
                .into_iter()
                .map(|t| self.api.ts.arena.subst(t, &s))
                .collect();
        }
        Some((ps, varargs))
    }

    /// The erasure of a type variable's first bound (`Object` when unbounded).
    fn var_bound(&mut self, v: VarId) -> TypeId {
        let o = self.ctx.object_sym;
        let b = self
            .api
            .ts
            .arena
            .var(v)
            .upper
            .first()
            .copied()
            .unwrap_or_else(|| self.api.ts.arena.class(o, &[]));
        self.api.ts.erase(b)
    }

    fn boxed(&mut self, t: TypeId) -> TypeId {
        if let Type::Prim(p) = *self.api.ts.arena.get(t) {
            if let Some(b) = self.ctx.box_of(p) {
                return self.api.ts.arena.class(b, &[]);
            }
        }
        t
    }

    fn applicable(&mut self, ps: &[TypeId], varargs: bool, args: &[TypeId], phase: u8) -> bool {
        let loose = phase >= 2;
        if phase < 3 || !varargs {
            if phase == 3 {
                return false;
            }
            return ps.len() == args.len()
                && ps
                    .iter()
                    .zip(args)
                    .all(|(&p, &a)| self.convertible(a, p, loose));
        }
        // phase 3: variable arity
        let n = ps.len();
        if args.len() + 1 < n {
            return false;
        }
        let elem = match self.api.ts.arena.get(ps[n - 1]) {
            Type::Array(e) => *e,
            _ => return false,
        };
        for (i, &a) in args.iter().enumerate() {
            let p = if i + 1 < n { ps[i] } else { elem };
            if !self.convertible(a, p, true) {
                return false;
            }
        }
        true
    }

    fn most_specific(&mut self, app: &[(MemberId, Vec<TypeId>)]) -> Resolution {
        let mut maximal = Vec::new();
        for (i, (id, ps)) in app.iter().enumerate() {
            let is_max = app.iter().enumerate().all(|(j, (_, qs))| {
                i == j
                    || (ps.len() == qs.len()
                        && ps
                            .iter()
                            .zip(qs)
                            .all(|(&p, &q)| self.api.ts.is_subtype(p, q)))
            });
            if is_max {
                maximal.push(*id);
            }
        }
        match maximal.as_slice() {
            [one] => Resolution::Unique(*one),
            _ => Resolution::Ambiguous,
        }
    }
}

fn v_any(w: &mut Worker<'_>) -> TypeId {
    let o = w.ctx.object_sym;
    w.api.ts.arena.class(o, &[])
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
