//! A typing sequence turned into a client program (IR) and its manifest record: the call under
//! test and its operands' locals, the program's shape from its swarm draw (locals without a
//! declared type, call chains, varargs elements, explicit type arguments kept, casts where a
//! flow-typed local's type matters, the call held by a function through `wrap`, Kotlin's
//! operator, infix and default-omitting call forms, Scala's implicit lists left to the search).

use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{
    CallForm, Expr, Lit, Program, Receiver, Stmt, Ty, JVM_METHOD, NATIVE_MEMBER,
};

use super::features::Features;
use super::inhabitant::{CallShape, Inhabitant};
use super::ir::to_ir;
use super::record::{
    BrokenRecord, Expected, ProgramRecord, RecordKind, SequenceRecord, ShapeRecord,
    NO_BUILTIN_TWIN, NO_DEFAULTS_TWIN, NO_NULLABLE_TWIN, NO_PACKAGE_FUNCTION_TWIN,
    NO_PROPERTY_TWIN, NO_VALUE_CLASS_TWIN,
};
use super::rng::{RngStream, SynthRng};
use super::worker::Worker;
use crate::api::{MemberId, MemberKind};
use crate::synth::config::Mode;
use crate::synth::typing::erase::InferInfo;
use crate::synth::typing::overload::Resolution;
use crate::synth::typing::rules::{kotlin_default_import, print_actual};
use crate::synth::typing::sequence::{is_void, Broken, Position, Task, TypingSequence};
use crate::types::{print_type, Subst, Syntax, Type, TypeId, VarId};

/// What the compiler sees as the type of an initializer, compared with the local's declared
/// type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Init {
    /// Exactly the declared type, in the target language.
    Exact,
    /// A standalone expression of this proper subtype of the declared type.
    Sub(TypeId),
    /// A standalone expression whose type the language may see narrower than declared
    /// (a call in a language that types locals by their initializer).
    Standalone,
    /// A poly expression, `null`, a conditional, or a constant whose written form has another
    /// type (a primitive's default value): never a local without a declared type.
    Other,
}

impl Init {
    /// True when a local with this initializer may go without its declared type in every
    /// use: the language infers exactly the declared type, or (`flow`: it types locals by
    /// their initializer anyway) any standalone type.
    fn inferable(self, flow: bool) -> bool {
        match self {
            Init::Exact => true,
            Init::Sub(_) | Init::Standalone => flow,
            Init::Other => false,
        }
    }
}

/// One operand of the call under test: its expression (a local or an inlined receiver), its
/// declared type and how its initializer relates to it.
struct Operand {
    expr: Expr,
    init: Init,
    /// The operand's position in the typing sequence (`None`: a varargs element).
    position: Option<Position>,
}

impl Worker<'_> {
    /// Whether a call of `m` (under `s`) leaves its implicit list to the search: the member
    /// has one, the language searches, the draw (`implicit_search_probability`, only for
    /// such a member) says so, and the search surely finds every argument.
    pub(crate) fn draw_implicit_search(
        &mut self,
        rng: &mut SynthRng,
        m: MemberId,
        s: &Subst,
    ) -> bool {
        let has_implicits = self
            .api
            .member(m)
            .scala_lists
            .as_ref()
            .is_some_and(|l| l.implicit > 0);
        has_implicits
            && self.rules.searches_implicits()
            && rng.gen_bool(self.cfg.implicit_search_probability.clamp(0.0, 1.0))
            && self.typing().implicits_found(m, s)
    }

    /// A call, field access or constructor call of `m` under `s` with the given receiver and
    /// arguments; its type arguments are erased when configured, allowed and safe.
    pub fn build_call(
        &mut self,
        m: MemberId,
        s: &Subst,
        receiver: Option<Expr>,
        args: &[Inhabitant],
        goal: Option<TypeId>,
        allow_erase: bool,
    ) -> Inhabitant {
        self.build_call_shaped(
            m,
            s,
            receiver,
            args,
            goal,
            allow_erase,
            &CallShape::default(),
        )
        .0
    }

    /// Names, in a call of a member on a receiver expression of type `receiver`, the classes
    /// that declare the member as that type sees them (a box's or an enum's override, which
    /// Kotlin writes its own way; `x.getKey()` of an `AbstractMapEntry`, below `Map.Entry`:
    /// Kotlin's `x.key`); a member of the language's own API stays spelled as declared.
    pub(crate) fn declare_from_receiver(&mut self, call: &mut Expr, receiver: TypeId) {
        if let Expr::Call {
            name,
            args,
            declared_in,
            receiver: Receiver::Expr(_),
            ..
        } = call
        {
            if declared_in.first().is_none_or(|d| d != NATIVE_MEMBER) {
                *declared_in = self.typing().declarers(receiver, name, args.len());
            }
        }
    }

    /// True when the language fixes one of a call's type variables `vars` from `args` before
    /// the call's other arguments or its target can, where Java infers it from all of them:
    /// inside an overloaded call's argument, Scala 3 fixes a variable by a primitive argument
    /// to the value type (`Char`), not its box; Scala 3 eta-expands a method reference only
    /// against a fully known function type, fixing a variable its parameter mentions
    /// (`whileClosure(aMap.containsKey, ifClosure(..), false)` fixes `E` to `Object`). Such
    /// a call keeps its type arguments.
    fn language_fixes_early(
        &self,
        mem: &crate::api::Member,
        vars: &[VarId],
        args: &[Inhabitant],
    ) -> bool {
        let a = &self.api.ts.arena;
        let primitive_arg = self.building.keep_primitive_type_args > 0
            && args.iter().zip(&mem.params).any(|(arg, p)| {
                matches!(a.get(p.ty), Type::Var(v) if vars.contains(v))
                    && matches!(arg.info, InferInfo::Standalone(t)
                        if matches!(a.get(t), Type::Prim(_)))
            });
        let eta_fixes = self.rules.fixes_variables_for_eta_expansion()
            && args.iter().zip(&mem.params).any(|(arg, p)| {
                matches!(arg.expr, Expr::Ref { .. })
                    && a.free_vars(p.ty).iter().any(|v| vars.contains(v))
            });
        primitive_arg || eta_fixes
    }

    /// [`Worker::build_call`] written with a [`CallShape`]; also says whether type arguments
    /// that could have been erased were kept.
    #[allow(clippy::too_many_arguments)]
    pub fn build_call_shaped(
        &mut self,
        m: MemberId,
        s: &Subst,
        receiver: Option<Expr>,
        args: &[Inhabitant],
        goal: Option<TypeId>,
        allow_erase: bool,
        shape: &CallShape,
    ) -> (Inhabitant, bool) {
        let mem = self.api.member(m).clone();
        let owner = self.api.class(mem.owner).clone();
        let ret = self.api.ts.arena.subst(mem.ret, s);
        let vars = if mem.kind == MemberKind::Constructor {
            owner.type_params.clone()
        } else {
            mem.type_params.clone()
        };
        let mut erased = false;
        let infer = self.cfg.erase || self.building.features.inferred_type_args;
        if (infer || shape.erase_for_form)
            && allow_erase
            && self.building.keep_type_args == 0
            && !shape.search_implicits
            && !vars.is_empty()
            && !self.language_fixes_early(&mem, &vars, args)
        {
            let mut outer = s.clone();
            for &v in &vars {
                outer.remove(v);
            }
            let params: Vec<TypeId> = mem
                .params
                .iter()
                .map(|p| self.api.ts.arena.subst(p.ty, &outer))
                .collect();
            let fret = self.api.ts.arena.subst(mem.ret, &outer);
            let mut params = params;
            let mut infos: Vec<InferInfo> = args.iter().map(|a| a.info).collect();
            // no element for the variable-arity parameter: nothing to infer from there
            if shape.varargs.as_ref().is_some_and(Vec::is_empty) {
                params.pop();
                infos.pop();
            }
            // Scala solves the variables list by list: only the first explicit list's
            // arguments are trusted to fix them (a later list's lambdas need them fixed,
            // Scala 2 types an implicit argument against them), and the target type only
            // for a call of one list (the first list's result is a method type)
            let mut goal = goal;
            if let Some(l) = &mem.scala_lists {
                params.truncate(l.first());
                infos.truncate(l.first());
                if l.explicit.len() > 1 || l.implicit > 0 {
                    goal = None;
                }
            }
            // a poly argument of an overloaded call makes Java infer through overload
            // resolution, where another candidate may accept it too
            let poly_overloaded = infos.contains(&InferInfo::Poly) && {
                let all: Vec<InferInfo> = args.iter().map(|a| a.info).collect();
                self.typing()
                    .poly_competitor(m, &all, shape.varargs.as_ref().map(Vec::len))
            };
            // an erased call, diamond or conditional among the arguments: its variables join
            // this call's, so the target must fix the variables its parameter mentions
            let poly_calls: Vec<bool> = args
                .iter()
                .take(infos.len())
                .map(|a| {
                    a.info == InferInfo::Poly
                        && matches!(
                            a.expr,
                            Expr::Call { .. } | Expr::New { .. } | Expr::Cond { .. }
                        )
                })
                .collect();
            erased = !poly_overloaded
                && self
                    .typing()
                    .erasable(&vars, s, &params, &infos, fret, goal, shape.receiver)
                && self.typing().poly_calls_fixed_by_goal(
                    &vars,
                    s,
                    &params,
                    &poly_calls,
                    fret,
                    goal.filter(|_| !shape.bounded_goal),
                );
        }
        let kept = erased && shape.keep_explicit;
        if kept {
            erased = false;
        }
        let ir_args: Vec<Ty> = vars
            .iter()
            .map(|&v| {
                let t = s.get(v).unwrap_or(ret);
                to_ir(&self.api, t)
            })
            .collect();
        let mut arg_exprs: Vec<Expr> = args.iter().map(|a| a.expr.clone()).collect();
        // a lambda for a parameter declared with a type variable (`T` instantiated with a
        // functional interface), or for an overloaded method, is not converted implicitly
        // in every language (Kotlin, Scala 2)
        let overloaded = self.typing().is_overloaded(m) || shape.receiver_overloads;
        for (e, p) in arg_exprs.iter_mut().zip(&mem.params) {
            if let Expr::Lambda { implicit, .. } | Expr::Ref { implicit, .. } = e {
                *implicit =
                    !overloaded && !p.vararg && self.typing().is_functional_class_type(p.ty);
            }
        }
        // an array passed to a varargs parameter is spread (`*a` in Kotlin, `a*` in Scala),
        // except for a signature-polymorphic method, which takes it as one argument
        if let Some(elems) = &shape.varargs {
            arg_exprs.pop();
            arg_exprs.extend(elems.iter().map(|e| e.expr.clone()));
        } else if mem.params.last().is_some_and(|p| p.vararg)
            && arg_exprs.len() == mem.params.len()
            && !self.api.is_signature_polymorphic(m)
        {
            if let Some(last) = arg_exprs.pop() {
                arg_exprs.push(Expr::Spread(Box::new(last)));
            }
        }
        let recv = || match &receiver {
            Some(e) => Receiver::Expr(Box::new(e.clone())),
            None => Receiver::Static(owner.name.clone()),
        };
        let object_member = crate::synth::context::is_kotlin_object(&self.api, mem.owner);
        if mem.receiver.is_some()
            && (object_member || !owner.is_class && !kotlin_default_import(&owner.name))
        {
            // an extension member is in scope only where imported
            self.building
                .imports
                .insert(format!("{}.{}", owner.name, mem.name));
        }
        // a Kotlin package member: the static method Java calls, if any; a twin cannot
        // write the others
        let package_member = owner.syntax == Syntax::Kotlin && !owner.is_class;
        let jvm_method = package_member
            .then(|| owner.doc.methods().get(mem.doc_index))
            .flatten()
            .filter(|_| mem.kind == MemberKind::Method)
            .and_then(|d| d.other_metadata.as_ref())
            .and_then(|o| o.jvm_method.clone());
        if package_member && jvm_method.is_none() {
            self.building
                .no_twin
                .get_or_insert(NO_PACKAGE_FUNCTION_TWIN);
        } else if mem.kind == MemberKind::Field
            && owner.syntax == Syntax::Kotlin
            && owner.doc.fields().get(mem.doc_index).is_some_and(|f| {
                let is_const = f.other_metadata.as_ref().and_then(|o| o.is_const);
                f.is_enum_constant != Some(true) && is_const != Some(true)
            })
        {
            // Java reads a property through its getter
            self.building.no_twin.get_or_insert(NO_PROPERTY_TWIN);
        }
        self.note_use(m);
        if shape.search_implicits && self.ctx.native.is_some_and(|s| s == owner.syntax) {
            if let Some(l) = &mem.scala_lists {
                arg_exprs.truncate(arg_exprs.len().saturating_sub(l.implicit));
            }
        }
        let expr = match mem.kind {
            MemberKind::Constructor => Expr::New {
                class: owner.name.clone(),
                type_args: if erased { None } else { Some(ir_args) },
                args: arg_exprs,
                // an inner class's enclosing instance (see `Typing::formal_under`)
                outer: receiver.as_ref().map(|e| Box::new(e.clone())),
            },
            MemberKind::Method => Expr::Call {
                receiver: if mem.is_static {
                    Receiver::Static(owner.name.clone())
                } else {
                    recv()
                },
                name: mem.name.clone(),
                type_args: if erased { Vec::new() } else { ir_args },
                args: arg_exprs,
                declared_in: if self.ctx.native.is_some_and(|s| s == owner.syntax) {
                    let mut d = vec![NATIVE_MEMBER.to_string(), owner.name.clone()];
                    if package_member {
                        d.extend(jvm_method.map(|j| format!("{JVM_METHOD}{j}")));
                    }
                    d
                } else if mem.is_static {
                    vec![owner.name.clone()]
                } else {
                    self.typing().declared_in(m).to_vec()
                },
                form: CallForm::Usual,
                // a Scala program writes a Scala member's lists (another language calls the
                // JVM method, which takes every list's parameters in one), without the
                // implicit one where scalac's search supplies it
                lists: mem
                    .scala_lists
                    .clone()
                    .filter(|_| self.ctx.native.is_some_and(|s| s == owner.syntax))
                    .map(|mut l| {
                        if shape.search_implicits {
                            l.searched = l.implicit;
                            l.implicit = 0;
                        }
                        l
                    }),
            },
            MemberKind::Field => Expr::Field {
                receiver: if mem.is_static {
                    Receiver::Static(owner.name.clone())
                } else {
                    recv()
                },
                name: mem.name.clone(),
            },
        };
        (
            Inhabitant {
                expr,
                info: if erased {
                    InferInfo::Poly
                } else {
                    InferInfo::Standalone(ret)
                },
            },
            kept,
        )
    }

    /// The inner (non-static member) classes that `p`'s types name, sorted.
    fn inner_classes_of(&self, p: &Program) -> Vec<String> {
        let mut inner = std::collections::BTreeSet::new();
        p.walk_types(&mut |t| {
            if let Ty::Class { name, .. } = t {
                let is_inner = self
                    .api
                    .class_by_name(name)
                    .is_some_and(|c| self.api.class(c).doc.is_inner == Some(true));
                if is_inner {
                    inner.insert(name.clone());
                }
            }
        });
        inner.into_iter().collect()
    }

    /// The component type and number of elements with which a call of method or constructor
    /// `m` in an operand (not the call under test) passes its variable-arity
    /// argument, when the program's swarm draw has varargs elements and the elements leave
    /// the call resolving to `m` (in Java's rules, and with no extension method answering
    /// the other arity).
    pub(crate) fn operand_varargs(
        &mut self,
        rng: &mut SynthRng,
        m: MemberId,
        s: &Subst,
        arg_tys: &[TypeId],
    ) -> Option<(TypeId, usize)> {
        let mem = self.api.member(m);
        let static_call = mem.is_static && mem.kind == MemberKind::Method;
        if !self.building.features.varargs_elements
            || mem.kind == MemberKind::Field
            || !mem.params.last().is_some_and(|p| p.vararg)
            || mem.params.len() != arg_tys.len()
            || self.api.is_signature_polymorphic(m)
            || !rng.gen_bool(VARARGS_ELEMENTS_PROBABILITY)
        {
            return None;
        }
        let (owner, kind) = (mem.owner, mem.kind);
        let (&last, fixed) = arg_tys.split_last()?;
        let (comp, n) = self.draw_elements(rng, last)?;
        let mut args = fixed.to_vec();
        args.extend(std::iter::repeat_n(comp, n));
        // an instance method's receiver as the path's substitution sees it
        let receiver = (!static_call && kind == MemberKind::Method).then(|| {
            let sym = self.api.class(owner).sym;
            let self_ty = self.api.ts.self_type(sym);
            self.api.ts.arena.subst(self_ty, s)
        });
        let formal = self.typing().formal_under(m, s.clone());
        let seq = TypingSequence {
            receiver,
            args,
            result: None,
        };
        self.typing()
            .elements_resolve(m, &formal, &seq, Resolution::Unique(m))
            .then_some((comp, n))
    }

    /// The component type of array type `array` and a number of elements to write for it
    /// ([`VARARGS_ELEMENT_COUNTS`]).
    fn draw_elements(&mut self, rng: &mut SynthRng, array: TypeId) -> Option<(TypeId, usize)> {
        let comp = match *self.api.ts.arena.get(array) {
            Type::Array(e) => e,
            _ => return None,
        };
        Some((comp, *VARARGS_ELEMENT_COUNTS.choose(rng)?))
    }

    /// Builds program `id` for a task; `seed` and `index` fix every random choice.
    ///
    /// The program's swarm draw decides its shape: locals without a declared type, the call
    /// under test on a call result, varargs elements instead of an array, explicit type
    /// arguments kept; in a language that types locals by their initializer, an operand is
    /// cast to its declared type where a narrower type could change the verdict.
    pub fn build_program(
        &mut self,
        task: &Task,
        id: &str,
        seed: u64,
        index: u64,
    ) -> (Program, ProgramRecord, bool) {
        let mut rng = RngStream::Program.rng(seed, index);
        self.building.fresh = 0;
        self.building.varargs_element_calls = 0;
        self.building.diamond_sites = 0;
        self.building.inner_class_sites = 0;
        self.building.imports.clear();
        self.building.opt_ins.clear();
        self.building.experimental = false;
        self.building.no_twin = None;
        self.building.features = Features::draw(&self.cfg.swarm, self.rules, seed, index);
        let shaped = self.shape_task(task, seed, index);
        self.building.generic_program = !shaped.type_params.is_empty();
        let task = &shaped.task;
        let feats = self.building.features;
        let use_p = self.cfg.swarm.use_probability.clamp(0.0, 1.0);
        let flow = self.rules.flow_types_locals();
        let depth = if feats.deep_inhabitants {
            self.cfg
                .deep_inhabitant_depth
                .max(self.cfg.max_inhabitant_depth)
        } else {
            self.cfg.max_inhabitant_depth
        };
        let broken_at = task.broken.map(|b| b.position);
        let ill = task.broken.is_some();
        let m = task.member;
        // (Scala 2 types the arguments of a method overloaded at any arity without their
        // parameter's type: `r.submit[F](a, new CompletableFuture())` makes its argument a
        // `CompletableFuture[Nothing]`)
        let overloaded = self.typing().overloaded_call(m, task.seq.receiver)
            || self.rules.types_overloaded_arguments_untargeted() && self.typing().is_overloaded(m);
        let mut shape = ShapeRecord::default();
        let mut stmts = Vec::new();
        let mut operands: Vec<Operand> = Vec::new();
        // the type of the receiver's expression: the receiver type, or a chained receiver's
        // narrower type
        let mut receiver_ty = task.seq.receiver;
        // a call under test that may end up in a lambda (`build::wrap`) takes operands whose
        // calls throw no checked exception: a block lambda declares them, and a call chain's
        // receiver is part of the call
        let lambda_operands = feats.call_in_lambda && !self.ctx.throws_checked.contains(&m);
        self.building.in_lambda += usize::from(lambda_operands);

        if let Some(r) = task.seq.receiver {
            // the call under test on a call result (or a constructor call): the receiver's
            // expression has exactly the receiver type (the broken one too), or in a
            // well-typed program a subtype whose class offers no other overload (nor another
            // view of the member: Kotlin's retyped collection members); its
            // inhabitant is then sought among the paths that end in a call first
            let try_chain = feats.call_chains && rng.gen_bool(CHAIN_PROBABILITY);
            self.building.prefer_call = try_chain;
            let inh = self.inhabit(&mut rng, r, depth);
            self.building.prefer_call = false;
            let init = self.init_kind(&inh, r);
            let broken_here = broken_at == Some(Position::Receiver);
            let chain = try_chain
                && matches!(
                    inh.expr,
                    Expr::Call { .. }
                        | Expr::Field { .. }
                        | Expr::New {
                            type_args: Some(_),
                            outer: None,
                            ..
                        }
                )
                && match inh.info {
                    InferInfo::Standalone(t) if t == r => true,
                    InferInfo::Standalone(t) => {
                        !ill && !overloaded
                            && matches!(init, Init::Sub(_) | Init::Standalone)
                            && self.api.ts.is_subtype(t, r)
                            && !self.typing().overloaded_call(m, Some(t))
                            && !self.typing().covariant_array_risk(m)
                            && !self.typing().retypes_collection_member_on(m, t)
                    }
                    InferInfo::Poly | InferInfo::Opaque => false,
                };
            if chain {
                shape.call_chain = true;
                if let InferInfo::Standalone(t) = inh.info {
                    receiver_ty = Some(t);
                }
                operands.push(Operand {
                    expr: inh.expr,
                    init,
                    position: Some(Position::Receiver),
                });
            } else {
                let inferred = feats.inferred_locals
                    && !broken_here
                    && init.inferable(flow)
                    && rng.gen_bool(use_p);
                stmts.push(self.local("r", r, inh.expr, inferred, &mut shape));
                operands.push(Operand {
                    expr: Expr::Local("r".into()),
                    init,
                    position: Some(Position::Receiver),
                });
            }
        }
        let n_args = task.seq.args.len();
        let mut inline_rng = RngStream::InlineArgs.rng(seed, index);
        let varargs_n = self.varargs_shape(&mut rng, task, feats.varargs_elements);
        let mut args = Vec::new();
        let mut elems: Option<Vec<Inhabitant>> = None;
        for (i, &a) in task.seq.args.iter().enumerate() {
            let broken_here = broken_at == Some(Position::Arg(i));
            if let (Some(n), true) = (varargs_n, i + 1 == n_args) {
                // the variable-arity argument as elements of its component type
                let comp = match *self.api.ts.arena.get(a) {
                    Type::Array(e) => e,
                    _ => a,
                };
                let mut es = Vec::new();
                for k in 0..n {
                    let inh = self.inhabit(&mut rng, comp, depth);
                    let init = self.init_kind(&inh, comp);
                    let name = format!("a{i}_{k}");
                    let inferred =
                        feats.inferred_locals && init.inferable(flow) && rng.gen_bool(use_p);
                    stmts.push(self.local(&name, comp, inh.expr, inferred, &mut shape));
                    operands.push(Operand {
                        expr: Expr::Local(name.clone()),
                        init,
                        position: None,
                    });
                    es.push(Inhabitant {
                        expr: Expr::Local(name),
                        info: InferInfo::Standalone(comp),
                    });
                }
                elems = Some(es);
                // the array's type still decides erasure (elements of exactly its component)
                args.push(Inhabitant {
                    expr: Expr::Unit,
                    info: InferInfo::Standalone(a),
                });
                continue;
            }
            // a `=> Unit` argument is the unit value itself: no language declares a `void`
            // local
            let unit = match *self.api.ts.arena.get(a) {
                Type::ByName(t) => is_void(&self.api.ts.arena, t),
                _ => is_void(&self.api.ts.arena, a),
            };
            if unit && !broken_here {
                operands.push(Operand {
                    expr: Expr::Unit,
                    init: Init::Exact,
                    position: Some(Position::Arg(i)),
                });
                args.push(Inhabitant {
                    expr: Expr::Unit,
                    info: InferInfo::Standalone(a),
                });
                continue;
            }
            // an argument written in place: a lambda or reference (`r.m(x -> e)`,
            // `C.m(String::length)`) or a diamond (`r.m(new ArrayList<>())`) meets the call's
            // inference and overload resolution instead of a local's declared type; an
            // overloaded call takes only a lambda or reference cast to its parameter's type,
            // whose resolution the typing sequence fixed
            let in_place = !broken_here && inline_rng.gen_bool(use_p);
            // in place, an argument of a generic class type is a diamond where one fits (a
            // diamond site, counted here where it is made here and by `inhabit` otherwise)
            let made = (in_place && feats.generic_constructors && !overloaded)
                .then(|| self.constructed(&mut rng, a, depth))
                .flatten()
                .filter(|c| is_diamond(&c.expr));
            self.building.diamond_sites += usize::from(made.is_some());
            let inh = match made {
                Some(c) => c,
                None => self.inhabit(&mut rng, a, depth),
            };
            let init = self.init_kind(&inh, a);
            let standalone = matches!(inh.info, InferInfo::Standalone(_));
            // (a Kotlin function type's too: the Java twin's lambda for a `Function1` declares
            // its parameters boxed)
            // a bare lambda or reference, and a diamond's type arguments, were made for the
            // argument's own type `a`: in place their target is the parameter's type, so
            // only where the two are one (else a local of type `a`: a lambda for a
            // `GenericArrayType` in place for a `Type` parameter has no functional interface,
            // and `new FutureTask<>(r, () -> {})` for a `Runnable` one leaves its `V`, and
            // the lambda's type, to nothing)
            let at_formal = task.formal.params.get(i) == Some(&a);
            let function = feats.functional_operands
                && is_function_value(&inh.expr)
                && (standalone || !overloaded && at_formal);
            let diamond =
                feats.generic_constructors && is_diamond(&inh.expr) && !overloaded && at_formal;
            if in_place && (function || diamond) {
                if function {
                    shape.inline_functional_args += 1;
                } else {
                    shape.inline_diamonds += 1;
                }
                operands.push(Operand {
                    expr: inh.expr.clone(),
                    init,
                    position: Some(Position::Arg(i)),
                });
                args.push(inh);
                continue;
            }
            let name = format!("a{i}");
            // a narrower type for an argument leaves the call well-typed unless another
            // overload could take it
            let inferred = feats.inferred_locals
                && !broken_here
                && (init.inferable(flow) || matches!(init, Init::Sub(_)) && !ill && !overloaded)
                && rng.gen_bool(use_p);
            stmts.push(self.local(&name, a, inh.expr, inferred, &mut shape));
            operands.push(Operand {
                expr: Expr::Local(name.clone()),
                init,
                position: Some(Position::Arg(i)),
            });
            let seen = match init {
                Init::Sub(t) if inferred && !flow => t,
                _ => a,
            };
            args.push(Inhabitant {
                expr: Expr::Local(name),
                info: InferInfo::Standalone(seen),
            });
        }
        self.building.in_lambda -= usize::from(lambda_operands);
        // a result local without a declared type gives the call no target type
        let res_inferred = task.seq.result.is_some()
            && feats.inferred_locals
            && broken_at != Some(Position::Result)
            && rng.gen_bool(use_p);
        let goal = if res_inferred { None } else { task.seq.result };
        let keep_explicit = feats.explicit_type_args && rng.gen_bool(use_p);
        // Kotlin's call forms, drawn from their own stream (the other choices stay as they
        // were): operator or infix syntax, parameters with default values left out
        let mut form_rng = RngStream::CallForm.rng(seed, index);
        let forms = self.api.member(m).kotlin_forms.clone();
        let want_operator = self.rules.writes_operator_forms()
            && (forms.is_operator || forms.is_infix)
            && form_rng.gen_bool(self.cfg.operator_form_probability.clamp(0.0, 1.0));
        let want_omit = self.rules.omits_default_arguments()
            && !forms.defaults.is_empty()
            && form_rng.gen_bool(self.cfg.default_omission_probability.clamp(0.0, 1.0));
        let keep_explicit = keep_explicit && !want_operator;
        // Scala: the implicit list left to scalac's search, where it finds every argument
        // (never when one of them is the broken one)
        let implicits = self
            .api
            .member(m)
            .scala_lists
            .as_ref()
            .map_or(0, |l| l.implicit);
        let first_implicit = self.api.member(m).params.len().saturating_sub(implicits);
        let broken_implicit = matches!(broken_at, Some(Position::Arg(i)) if i >= first_implicit);
        let search_implicits =
            self.draw_implicit_search(&mut form_rng, m, &task.formal.subst) && !broken_implicit;
        let receiver = task.seq.receiver.is_some();
        let receiver_overloads = self.typing().overloaded_call(m, task.seq.receiver);
        let recv_expr = operands
            .first()
            .filter(|_| receiver)
            .map(|o| o.expr.clone());
        let (call, kept) = self.build_call_shaped(
            m,
            &task.formal.subst,
            recv_expr,
            &args,
            goal,
            task.broken.is_none(),
            &CallShape {
                keep_explicit,
                varargs: elems,
                erase_for_form: want_operator,
                search_implicits,
                receiver: false,
                receiver_overloads,
                bounded_goal: false,
            },
        );
        shape.explicit_type_args = kept;
        let erased = matches!(call.info, InferInfo::Poly);
        let mut call = call;
        let native_call = matches!(&call.expr, Expr::Call { declared_in, .. }
            if declared_in.first().is_some_and(|d| d == NATIVE_MEMBER));
        // a broken receiver is seen through its own type: a translator must not treat it as
        // a value of the member's class (Kotlin would cast it to the Java class); a member
        // of the language's own API is spelled as declared
        if native_call {
        } else if let (
            Some(Broken {
                position: Position::Receiver,
                actual,
                ..
            }),
            Expr::Call {
                name,
                args,
                declared_in,
                ..
            },
        ) = (task.broken, &mut call.expr)
        {
            *declared_in = self.typing().declarers(actual, name, args.len());
        } else if let Some(t) = receiver_ty {
            self.declare_from_receiver(&mut call.expr, t);
        }
        if flow {
            let broken_result = broken_at == Some(Position::Result);
            let types: Vec<TypeId> = self.operand_types(task, varargs_n);
            let mut casts: Vec<Option<Ty>> = Vec::new();
            for (op, &t) in operands.iter().zip(&types) {
                let broken_here = op.position.is_some() && op.position == broken_at;
                // a diamond in place takes its type arguments from the parameter, not a cast
                // (`(List<String>) new ArrayList<>()` infers `ArrayList<Object>`)
                let needed = !is_diamond(&op.expr)
                    && (feats.cast_locals
                        || op.init != Init::Exact
                            && (overloaded || erased || broken_here || ill && broken_result));
                casts.push(needed.then(|| to_ir(&self.api, t)));
            }
            shape.casts = casts.iter().filter(|c| c.is_some()).count();
            // Groovy's `as` for an operand's cast to its own declared type (never at the
            // broken position, whose type the cast fixes)
            let coerce: Vec<bool> = operands
                .iter()
                .map(|op| {
                    feats.as_coercion
                        && (op.position.is_none() || op.position != broken_at)
                        && rng.gen_bool(use_p)
                })
                .collect();
            cast_operands(&mut call.expr, receiver, &casts, &coerce);
        }
        // the call under test as a function (a reference or inside a lambda); not where
        // Kotlin's nullable declarations rewrite the last statement's call
        let wrapped = if shaped.nullable.is_empty() {
            self.wrap_call(&mut rng, task, &call.expr, &mut stmts)
        } else {
            None
        };
        let plain_call = wrapped.is_none() && native_call;
        match (wrapped, task.seq.result) {
            (Some((stmt, how)), _) => {
                shape.wrapped = Some(how.as_str().to_string());
                stmts.push(stmt);
            }
            (None, Some(t)) => {
                let stmt = self.local("res", t, call.expr, res_inferred, &mut shape);
                stmts.push(stmt);
            }
            (None, None) => stmts.push(Stmt::Expr(call.expr)),
        }
        let mut program = Program::new(id, stmts);
        program.type_params = shaped.type_params;
        self.declare_nullable(&mut program, &shaped.nullable, task.broken);
        if plain_call && (want_operator || want_omit) {
            self.kotlin_call_form(
                &mut program,
                task,
                (want_operator, want_omit),
                &mut form_rng,
                &mut shape,
            );
        }
        program.inner_classes = self.inner_classes_of(&program);
        self.declare_aliases(&mut form_rng, &mut program);
        program.imports = self.building.imports.iter().cloned().collect();
        program.opt_ins = crate::synth::context::program_opt_ins(
            &self.api,
            self.ctx,
            &program,
            &self.building.opt_ins,
        );
        program.experimental = crate::synth::context::program_is_experimental(
            &self.api,
            &program,
            self.building.experimental,
        );
        let mut record = self.record(task, id, erased);
        if let Some(why) = self.building.no_twin {
            record
                .twin_not_applicable
                .get_or_insert_with(|| why.to_string());
        }
        if self.calls_package_function(&program) {
            record
                .twin_not_applicable
                .get_or_insert_with(|| NO_PACKAGE_FUNCTION_TWIN.to_string());
        }
        let receiver_class = task
            .seq
            .receiver
            .and_then(|r| self.api.ts.arena.as_class(r))
            .map(|(sym, _)| self.api.ts.arena.name(sym).to_string());
        if let Some(why) = self.kotlin_classes_untwinnable(&program, receiver_class.as_deref()) {
            record
                .twin_not_applicable
                .get_or_insert_with(|| why.to_string());
        }
        if shape.defaults_omitted > 0 {
            record
                .twin_not_applicable
                .get_or_insert_with(|| NO_DEFAULTS_TWIN.to_string());
        }
        record.typing_sequence.varargs_elements = varargs_n;
        shape.varargs_element_calls = self.building.varargs_element_calls;
        shape.diamond_sites = self.building.diamond_sites;
        shape.inner_class_sites = self.building.inner_class_sites;
        record.shape = shape;
        (program, record, erased)
    }

    /// Why `p`'s Java twin cannot judge it by the Kotlin classes it names, if so: a value
    /// class, which Java sees as its underlying value in signatures; a builtin without a
    /// class file (`kotlin.collections.List`), which Java does not name.
    fn kotlin_classes_untwinnable(
        &self,
        p: &Program,
        receiver: Option<&str>,
    ) -> Option<&'static str> {
        let mut why = None;
        let mut check = |name: &str| {
            let Some(c) = self.api.class_by_name(name) else {
                return;
            };
            let k = &self.api.class(c).doc.kotlin;
            // a value class's companion too: Java sees its members that take or give the
            // value class mangled or private (`Result.Companion.failure`)
            let in_value = self.api.class(c).parent.as_deref().is_some_and(|o| {
                self.api
                    .class_by_name(o)
                    .is_some_and(|o| self.api.class(o).doc.kotlin.is_value == Some(true))
            });
            if k.is_value == Some(true) || in_value {
                why.get_or_insert(NO_VALUE_CLASS_TWIN);
            } else if k.kotlin_builtin == Some(true) {
                why.get_or_insert(NO_BUILTIN_TWIN);
            }
        };
        p.walk_types(&mut |t| {
            if let Ty::Class { name, .. } = t {
                check(name);
            }
        });
        p.walk_exprs(&mut |e| {
            if let Expr::New { class, .. }
            | Expr::Call {
                receiver: Receiver::Static(class),
                ..
            }
            | Expr::Field {
                receiver: Receiver::Static(class),
                ..
            } = e
            {
                check(class);
            }
        });
        // the call under test's receiver type, which a call chain does not name
        // (`AtomicIntArray(n, f).compareAndExchangeAt(..)`: an extension on Java's
        // `AtomicIntegerArray` to Java)
        if let Some(r) = receiver {
            check(r);
        }
        why
    }

    /// Whether `p` calls a Kotlin package function (a member of a file of top-level
    /// members) without the static method Java calls for it, or references one: its Java
    /// twin cannot name it.
    fn calls_package_function(&self, p: &Program) -> bool {
        let mut found = false;
        p.walk_exprs(&mut |e| match e {
            Expr::Call { declared_in, .. }
                if declared_in.first().is_some_and(|d| d == NATIVE_MEMBER)
                    && !declared_in.iter().any(|d| d.starts_with(JVM_METHOD)) =>
            {
                let owner = declared_in.get(1).and_then(|n| self.api.class_by_name(n));
                found |= owner.is_some_and(|c| {
                    let c = self.api.class(c);
                    !c.is_class && c.syntax == crate::types::Syntax::Kotlin
                });
            }
            Expr::Ref {
                kind: thalia_translators::ir::RefKind::PackageFunction { .. },
                ..
            } => found = true,
            _ => {}
        });
        found
    }

    /// A local declaration, without its type when `inferred` (counted in `shape`).
    fn local(
        &self,
        name: &str,
        t: TypeId,
        init: Expr,
        inferred: bool,
        shape: &mut ShapeRecord,
    ) -> Stmt {
        let ty = to_ir(&self.api, t);
        if inferred {
            shape.inferred_locals += 1;
            Stmt::inferred_local(name, ty, init)
        } else {
            Stmt::local(name, ty, init)
        }
    }

    /// Writes the call under test (the last statement's) in Kotlin's forms that `want`
    /// (operator or infix syntax, parameters with default values left out) where they fit.
    ///
    /// Defaults are left out only where no other candidate of the name could take the
    /// shorter argument list (`Typing::rival_takes`: then none can be preferred for needing
    /// no defaults either); never the broken argument, nor in a program whose receiver is
    /// broken; a parameter whose type mentions the member's type variables only when the
    /// call keeps its type arguments. Operator and infix forms take no type arguments and
    /// no spread; `set`, `compareTo` (`a < b`) and the `*Assign` operators only as a
    /// statement whose value is discarded (`*Assign` on a local).
    fn kotlin_call_form(
        &mut self,
        program: &mut Program,
        task: &Task,
        want: (bool, bool),
        rng: &mut SynthRng,
        shape: &mut ShapeRecord,
    ) {
        let (want_operator, want_omit) = want;
        let m = task.member;
        let mem = self.api.member(m).clone();
        if mem.kind != MemberKind::Method {
            return;
        }
        let forms = &mem.kotlin_forms;
        let broken = task.broken.map(|b| b.position);
        let (call, discarded) = match program.stmts.last_mut() {
            Some(Stmt::Local { init, .. }) => (init, false),
            Some(Stmt::Expr(e)) => (e, true),
            None => return,
        };
        let Expr::Call {
            receiver,
            name,
            type_args,
            args,
            form,
            ..
        } = call
        else {
            return;
        };
        let n_params = mem.params.len();
        if *name != mem.name || args.len() != n_params || task.seq.args.len() != n_params {
            return;
        }
        if want_omit && broken != Some(Position::Receiver) && !mem.params.iter().any(|p| p.vararg) {
            let arena = &self.api.ts.arena;
            let omittable: Vec<usize> = forms
                .defaults
                .iter()
                .copied()
                .filter(|&i| {
                    i < n_params
                        && broken != Some(Position::Arg(i))
                        && (!type_args.is_empty()
                            || arena
                                .free_vars(mem.params[i].ty)
                                .iter()
                                .all(|v| !mem.type_params.contains(v)))
                })
                .collect();
            let mut omit: Vec<usize> = omittable
                .iter()
                .copied()
                .filter(|_| rng.gen_bool(0.5))
                .collect();
            if omit.is_empty() {
                omit.extend(omittable.choose(rng));
            }
            omit.sort_unstable();
            if let Some(&first) = omit.first() {
                let trailing = omit.len() == n_params - first;
                let named = forms.parameter_names.len() == n_params;
                // the kept arguments: their names (after the first left out) and types
                let kept: Vec<(Option<String>, TypeId)> = (0..n_params)
                    .filter(|i| !omit.contains(i))
                    .map(|i| {
                        let name = (!trailing && i > first)
                            .then(|| forms.parameter_names.get(i).cloned())
                            .flatten();
                        (name, task.seq.args[i])
                    })
                    .collect();
                if (trailing || named) && !self.typing().rival_takes(m, task, &kept) {
                    let old = std::mem::take(args);
                    let mut names = Vec::new();
                    for (i, a) in old.into_iter().enumerate() {
                        if !omit.contains(&i) {
                            args.push(a);
                            names.push((i > first).then(|| forms.parameter_names[i].clone()));
                        }
                    }
                    if !trailing {
                        *form = CallForm::Named(names);
                    }
                    shape.defaults_omitted = omit.len();
                }
            }
        }
        if !want_operator
            || !form.is_usual()
            || !type_args.is_empty()
            || args.iter().any(|a| matches!(a, Expr::Spread(_)))
        {
            return;
        }
        let Receiver::Expr(r) = receiver else {
            return;
        };
        let n = args.len();
        let on_local = matches!(**r, Expr::Local(_));
        let operator = forms.is_operator
            && match name.as_str() {
                "plus" | "minus" | "times" | "div" | "rem" | "rangeTo" | "rangeUntil"
                | "contains" => n == 1,
                "compareTo" => n == 1 && discarded,
                "plusAssign" | "minusAssign" | "timesAssign" | "divAssign" | "remAssign" => {
                    n == 1 && discarded && on_local
                }
                "unaryMinus" | "unaryPlus" | "not" => n == 0,
                "get" => n >= 1,
                "set" => n >= 2 && discarded,
                "invoke" => true,
                _ => false,
            };
        if operator {
            *form = CallForm::Operator;
            shape.call_form = Some("operator".into());
        } else if forms.is_infix && n == 1 {
            *form = CallForm::Infix;
            shape.call_form = Some("infix".into());
        }
    }

    /// The declared types of the call's operands, in [`Operand`] order: the receiver, then
    /// the arguments, the last one as `n` elements of its component type when `varargs` is
    /// `Some(n)`.
    fn operand_types(&self, task: &Task, varargs: Option<usize>) -> Vec<TypeId> {
        let mut out: Vec<TypeId> = task.seq.receiver.into_iter().collect();
        let n = task.seq.args.len();
        for (i, &a) in task.seq.args.iter().enumerate() {
            match varargs {
                Some(k) if i + 1 == n => {
                    let comp = match *self.api.ts.arena.get(a) {
                        Type::Array(e) => e,
                        _ => a,
                    };
                    out.extend(std::iter::repeat_n(comp, k));
                }
                _ => out.push(a),
            }
        }
        out
    }

    /// How the language sees the type of an initializer against the declared type `decl`.
    fn init_kind(&mut self, inh: &Inhabitant, decl: TypeId) -> Init {
        let prim = matches!(self.api.ts.arena.get(decl), Type::Prim(_));
        let string = self
            .api
            .ts
            .arena
            .as_class(decl)
            .is_some_and(|(n, a)| n == self.ctx.string_sym && a.is_empty());
        match &inh.expr {
            Expr::Lit(Lit::Null) => Init::Other,
            // a literal is written in the declared primitive's form (`1L`, `(byte) 1`)
            Expr::Lit(_) if prim || string => Init::Exact,
            Expr::Lit(_) => Init::Other,
            // a primitive's bottom constant is its default value, of another type (`0`)
            Expr::Bottom(_) if prim => Init::Other,
            Expr::Bottom(t) | Expr::Cast { ty: t, .. } if *t == to_ir(&self.api, decl) => {
                Init::Exact
            }
            Expr::Call { .. } | Expr::Field { .. } | Expr::New { .. } | Expr::NewArray { .. } => {
                let InferInfo::Standalone(t) = inh.info else {
                    return Init::Other;
                };
                // a language that types locals by their initializer may see a call's type
                // otherwise than Java (Groovy's explicit type arguments)
                let call_like = matches!(inh.expr, Expr::Call { .. } | Expr::Field { .. });
                if self.rules.flow_types_locals() && call_like {
                    Init::Standalone
                } else if t == decl {
                    Init::Exact
                } else if self.api.ts.arena.is_ground(t)
                    && self.ctx.expressible(&self.api, t)
                    && self.api.ts.is_subtype(t, decl)
                {
                    Init::Sub(t)
                } else {
                    Init::Other
                }
            }
            _ => Init::Other,
        }
    }

    /// The number of elements to write the task's variable-arity argument with (`None`: one
    /// array), when the swarm draw allows it and Java's overload resolution still selects
    /// the member (or, in ill-typed mode, still finds none applicable for a broken argument).
    fn varargs_shape(&mut self, rng: &mut SynthRng, task: &Task, on: bool) -> Option<usize> {
        let m = task.member;
        let mem = self.api.member(m).clone();
        let last = mem.params.len().checked_sub(1)?;
        if !on
            || !mem.params[last].vararg
            || mem.kind == MemberKind::Field
            || self.api.is_signature_polymorphic(m)
            || task.seq.args.len() != mem.params.len()
        {
            return None;
        }
        let broken_at = task.broken.map(|b| b.position);
        // the broken position stays as it is; Groovy's extension methods of another arity
        // could answer a broken call
        if matches!(broken_at, Some(Position::Receiver)) || broken_at == Some(Position::Arg(last)) {
            return None;
        }
        if task.broken.is_some() && self.rules.has_extension_methods() {
            return None;
        }
        if !rng.gen_bool(VARARGS_ELEMENTS_PROBABILITY) {
            return None;
        }
        let (comp, n) = self.draw_elements(rng, task.seq.args[last])?;
        let mut seq = task.seq.clone();
        seq.args.pop();
        seq.args.extend(std::iter::repeat_n(comp, n));
        let want = match broken_at {
            Some(Position::Arg(_)) => Resolution::NoneApplicable,
            _ => Resolution::Unique(m),
        };
        self.typing()
            .elements_resolve(m, &task.formal, &seq, want)
            .then_some(n)
    }

    fn record(&mut self, task: &Task, id: &str, erased: bool) -> ProgramRecord {
        let a = &self.api.ts.arena;
        let p = |t: TypeId| print_type(a, Syntax::Java, t);
        let mem = self.api.member(task.member);
        let owner = self.api.class(mem.owner);
        let substitution = task
            .formal
            .subst
            .iter()
            .map(|(v, t)| (a.var_name(v).to_string(), p(t)))
            .collect();
        ProgramRecord {
            id: id.to_string(),
            file: String::new(),
            member: self.api.signature(task.member),
            class: owner.name.clone(),
            kind: match mem.kind {
                MemberKind::Method => RecordKind::Method,
                MemberKind::Constructor => RecordKind::Constructor,
                MemberKind::Field => RecordKind::Field,
            },
            typing_sequence: SequenceRecord {
                receiver: task.seq.receiver.map(p),
                args: task.seq.args.iter().map(|&t| p(t)).collect(),
                result: task.seq.result.map(p),
                varargs_elements: None,
            },
            substitution,
            mode: if task.broken.is_some() {
                Mode::IllTyped
            } else {
                Mode::WellTyped
            },
            expected: if task.broken.is_some() {
                Expected::Reject
            } else {
                Expected::Accept
            },
            broken: task.broken.map(|b| BrokenRecord {
                position: b.position.label(),
                formal: p(b.formal),
                actual: print_actual(a, b.actual),
            }),
            erased,
            twin: None,
            twin_not_applicable: task
                .broken
                .filter(|b| matches!(a.get(b.actual), crate::types::Type::Nullable(_)))
                .map(|_| NO_NULLABLE_TWIN.to_string()),
            call_lines: None,
            flags: Vec::new(),
            shape: ShapeRecord::default(),
        }
    }
}

/// The probability that a program whose `call_chains` form is on makes its call under test
/// on a call result (where the receiver's inhabitant is a call): higher than the use
/// probability, since the form has one place to go.
pub const CHAIN_PROBABILITY: f64 = 0.8;

/// The probability that a program whose `varargs_elements` form is on writes the
/// variable-arity argument of its call under test as elements: higher than the use
/// probability, since the form has one place to go (about 2 % of the embedded API's typing
/// sequences are of variable arity).
pub const VARARGS_ELEMENTS_PROBABILITY: f64 = 0.8;

/// The element counts a variable-arity argument is written with: none, one, several.
pub const VARARGS_ELEMENT_COUNTS: [usize; 4] = [0, 1, 2, 3];

/// True for a lambda or function reference, also under a cast or coercion.
fn is_function_value(e: &Expr) -> bool {
    match e {
        Expr::Lambda { .. } | Expr::Ref { .. } => true,
        Expr::Cast { expr, .. } => matches!(**expr, Expr::Lambda { .. } | Expr::Ref { .. }),
        _ => false,
    }
}

/// True for a constructor call whose type arguments are left to inference (the diamond).
fn is_diamond(e: &Expr) -> bool {
    matches!(
        e,
        Expr::New {
            type_args: None,
            outer: None,
            ..
        }
    )
}

/// Wraps the operands of a call, constructor call or field read in the given casts (a
/// coercion where `coerce` says so): the receiver first when `has_receiver`, then the
/// arguments in order (inside a spread).
fn cast_operands(e: &mut Expr, has_receiver: bool, casts: &[Option<Ty>], coerce: &[bool]) {
    fn wrap(x: &mut Expr, (ty, coerce): (&Option<Ty>, bool)) {
        let Some(ty) = ty else { return };
        let target = match x {
            Expr::Spread(inner) => inner.as_mut(),
            other => other,
        };
        let inner = std::mem::replace(target, Expr::Unit);
        *target = if coerce {
            Expr::coerce(ty.clone(), inner)
        } else {
            Expr::cast(ty.clone(), inner)
        };
    }
    let mut casts = casts
        .iter()
        .zip(coerce.iter().copied().chain(std::iter::repeat(false)));
    match e {
        Expr::Call { receiver, args, .. } => {
            if has_receiver {
                let c = casts.next();
                if let (Receiver::Expr(r), Some(c)) = (receiver, c) {
                    wrap(r, c);
                }
            }
            for (a, c) in args.iter_mut().zip(casts) {
                wrap(a, c);
            }
        }
        Expr::New { args, outer, .. } => {
            if has_receiver {
                let c = casts.next();
                if let (Some(o), Some(c)) = (outer, c) {
                    wrap(o, c);
                }
            }
            for (a, c) in args.iter_mut().zip(casts) {
                wrap(a, c);
            }
        }
        Expr::Field { receiver, .. } => {
            if let (true, Receiver::Expr(r), Some(c)) = (has_receiver, receiver, casts.next()) {
                wrap(r, c);
            }
        }
        _ => {}
    }
}

impl Worker<'_> {
    /// Notes that the program uses member `m` (calls it or refers to it): the opt-ins it
    /// needs, and whether it is a Scala experimental member.
    pub(crate) fn note_use(&mut self, m: MemberId) {
        if self.ctx.opt_ins_per_member {
            let markers =
                crate::synth::context::member_opt_ins(&self.api, m, &self.ctx.opt_in_markers);
            self.building.opt_ins.extend(markers);
        }
        let owner = self.api.owner(m).syntax;
        if owner == Syntax::Scala && crate::synth::context::member_is_experimental(&self.api, m) {
            self.building.experimental = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use thalia_translators::ir::{Expr, RefKind, Ty};
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::erase::InferInfo;
    use crate::synth::{SynthConfig, SynthContext};

    /// The member of `api` whose signature is `sig`.
    fn member(api: &crate::api::Api, sig: &str) -> MemberId {
        api.member_ids()
            .find(|&m| api.signature(m) == sig)
            .unwrap_or_else(|| panic!("no member {sig}"))
    }

    /// `Integer::valueOf` as a reference for a function of `params` and `ret`.
    fn reference(target: &str, params: Vec<Ty>, ret: Ty) -> Inhabitant {
        Inhabitant {
            expr: Expr::Ref {
                kind: RefKind::Static {
                    class: "java.lang.Integer".into(),
                    name: "valueOf".into(),
                },
                fn_params: params,
                fn_ret: ret,
                target: Some(Ty::class(target, vec![])),
                implicit: false,
                declared_in: Vec::new(),
                method_pointer: false,
            },
            info: InferInfo::Poly,
        }
    }

    #[test]
    fn scala_3_keeps_the_type_arguments_a_method_reference_would_fix() {
        // `Objects.<T>requireNonNullElseGet(obj, supplier)`: Java infers `T` from `obj`;
        // Scala 3 fixes it while it eta-expands the reference for `Supplier<? extends T>`,
        // before it sees `obj`'s type
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        let m = member(
            &api,
            "static <T> T java.util.Objects.requireNonNullElseGet(T, java.util.function.Supplier<? extends T>)",
        );
        for (lang, erased) in [(Language::Java, true), (Language::Scala3, false)] {
            let cfg = SynthConfig {
                lang,
                erase: true,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let t = w.api.member(m).type_params[0];
            let integer = w.api.ts.arena.class_named("java.lang.Integer", &[]);
            let s = Subst::from_pairs(&[t], &[integer]);
            let args = [
                Inhabitant {
                    expr: Expr::local("i"),
                    info: InferInfo::Standalone(integer),
                },
                reference(
                    "java.util.function.Supplier",
                    vec![],
                    Ty::class("java.lang.Integer", vec![]),
                ),
            ];
            let call = w.build_call(m, &s, None, &args, Some(integer), true);
            let Expr::Call { type_args, .. } = &call.expr else {
                panic!("{lang}: not a call: {:?}", call.expr);
            };
            assert_eq!(type_args.is_empty(), erased, "{lang}: {type_args:?}");
        }
    }

    #[test]
    fn a_reference_passed_to_a_call_the_receivers_class_overloads_is_written_with_its_target() {
        // `IntConsumer.andThen(IntConsumer)` is alone in `IntConsumer`, but a
        // `LongSummaryStatistics` also has `LongConsumer.andThen(LongConsumer)`: Kotlin and
        // Scala convert a reference there only with its interface written
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        let m = member(
            &api,
            "default java.util.function.IntConsumer java.util.function.IntConsumer.andThen(java.util.function.IntConsumer)",
        );
        let cfg = SynthConfig {
            lang: Language::Scala3,
            ..SynthConfig::default()
        };
        let mut w = Worker::new(api.clone(), &ctx, &cfg);
        let stats = w
            .api
            .ts
            .arena
            .class_named("java.util.LongSummaryStatistics", &[]);
        assert!(!w.typing().is_overloaded(m));
        assert!(w.typing().overloaded_call(m, Some(stats)));
        for receiver_overloads in [false, true] {
            let args = [reference(
                "java.util.function.IntConsumer",
                vec![Ty::INT],
                Ty::VOID,
            )];
            let shape = CallShape {
                receiver_overloads,
                ..CallShape::default()
            };
            let (call, _) = w.build_call_shaped(
                m,
                &Subst::new(),
                Some(Expr::local("z")),
                &args,
                None,
                false,
                &shape,
            );
            let Expr::Call { args, .. } = &call.expr else {
                panic!("not a call: {:?}", call.expr);
            };
            let Expr::Ref { implicit, .. } = &args[0] else {
                panic!("not a reference: {:?}", args[0]);
            };
            assert_eq!(*implicit, !receiver_overloads);
        }
    }
}
