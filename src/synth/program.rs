//! Turning a typing sequence into a client program (IR) and its manifest record.

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use thalia_translators::ir::{Expr, PrimTy, Program, Receiver, Stmt, Ty};

use super::config::Mode;
use super::enumerate::{Broken, Position, Task};
use super::erase::InferInfo;
use super::inhabit::Inhabitant;
use super::worker::{RngStream, Worker};
use crate::api::{Api, MemberId, MemberKind};
use crate::types::{print_type, Prim, Subst, Syntax, Type, TypeId, Wildcard};

/// The language-neutral IR type of a core type.
pub fn to_ir(api: &Api, t: TypeId) -> Ty {
    let a = &api.ts.arena;
    match a.get(t) {
        Type::Prim(p) => Ty::Prim(match p {
            Prim::Boolean => PrimTy::Boolean,
            Prim::Byte => PrimTy::Byte,
            Prim::Char => PrimTy::Char,
            Prim::Short => PrimTy::Short,
            Prim::Int => PrimTy::Int,
            Prim::Long => PrimTy::Long,
            Prim::Float => PrimTy::Float,
            Prim::Double => PrimTy::Double,
            Prim::Void => PrimTy::Void,
        }),
        Type::Class { name, args } => Ty::Class {
            name: a.name(*name).to_string(),
            args: args.iter().map(|&x| to_ir(api, x)).collect(),
        },
        Type::Var(v) => Ty::Var(a.var_name(*v).to_string()),
        Type::Wildcard(Wildcard::Star) => Ty::WildcardStar,
        Type::Wildcard(Wildcard::Extends(b)) => Ty::WildcardExtends(Box::new(to_ir(api, *b))),
        Type::Wildcard(Wildcard::Super(b)) => Ty::WildcardSuper(Box::new(to_ir(api, *b))),
        Type::Array(e) => Ty::Array(Box::new(to_ir(api, *e))),
        Type::Nullable(e) => Ty::Nullable(Box::new(to_ir(api, *e))),
        Type::ByName(e) => to_ir(api, *e),
        Type::Function {
            receiver,
            params,
            ret,
            ..
        } => Ty::Function {
            receiver: receiver.map(|r| Box::new(to_ir(api, r))),
            params: params.iter().map(|&p| to_ir(api, p)).collect(),
            ret: Box::new(to_ir(api, *ret)),
        },
        Type::Top => Ty::Top,
        Type::Bottom => Ty::Bottom,
    }
}

/// The typing sequence of a program as printed types.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SequenceRecord {
    /// Receiver type, if any.
    pub receiver: Option<String>,
    /// Argument types.
    pub args: Vec<String>,
    /// Expected result type, if any.
    pub result: Option<String>,
}

/// The broken position of an ill-typed program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BrokenRecord {
    /// `receiver`, `argN` or `result`.
    pub position: String,
    /// The type the signature asks for.
    pub formal: String,
    /// The incompatible type used instead.
    pub actual: String,
}

/// What the compiler should do with a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expected {
    /// A well-typed program: the compiler must accept it.
    Accept,
    /// An ill-typed program: the compiler must reject it.
    Reject,
}

impl Expected {
    /// `accept` / `reject`, as in `programs.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            Expected::Accept => "accept",
            Expected::Reject => "reject",
        }
    }

    /// Parses `accept` / `reject`.
    pub fn parse(s: &str) -> Option<Expected> {
        match s {
            "accept" => Some(Expected::Accept),
            "reject" => Some(Expected::Reject),
            _ => None,
        }
    }

    /// The expectation of a program synthesized in `mode`.
    pub fn of_mode(mode: Mode) -> Expected {
        match mode {
            Mode::WellTyped => Expected::Accept,
            Mode::IllTyped => Expected::Reject,
        }
    }
}

/// The kind of the API member a program exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecordKind {
    /// A method call.
    Method,
    /// A constructor call.
    Constructor,
    /// A field access.
    Field,
}

impl RecordKind {
    /// `method`, `constructor` or `field`.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Method => "method",
            RecordKind::Constructor => "constructor",
            RecordKind::Field => "field",
        }
    }
}

/// One line of `programs.jsonl`: the typed record that crosses from synthesis to campaigns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgramRecord {
    /// Program id (`p000042`).
    pub id: String,
    /// The program's file, relative to the output directory.
    pub file: String,
    /// The API member under test, as a signature.
    pub member: String,
    /// Its declaring class.
    pub class: String,
    /// Method, constructor or field.
    pub kind: RecordKind,
    /// Receiver, argument and expected result types.
    pub typing_sequence: SequenceRecord,
    /// The type arguments chosen for the type variables (`T` → `java.lang.Integer`).
    pub substitution: std::collections::BTreeMap<String, String>,
    /// `well-typed` or `ill-typed`.
    pub mode: Mode,
    /// What the compiler must do with the program.
    pub expected: Expected,
    /// The broken position of an ill-typed program.
    pub broken: Option<BrokenRecord>,
    /// True when the call under test was written without its type arguments.
    pub erased: bool,
    /// The file of the program's Java twin (the same IR written in Java), for a program in
    /// another language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin: Option<String>,
    /// The lines of the statement of the call under test in the program's file: an
    /// ill-typed program must be rejected there, not elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_lines: Option<thalia_translators::LineSpan>,
}

impl Worker<'_> {
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
        let mem = self.api.member(m).clone();
        let owner = self.api.class(mem.owner).clone();
        let ret = self.api.ts.arena.subst(mem.ret, s);
        let vars = if mem.kind == MemberKind::Constructor {
            owner.type_params.clone()
        } else {
            mem.type_params.clone()
        };
        let mut erased = false;
        if self.cfg.erase && allow_erase && self.building.keep_type_args == 0 && !vars.is_empty() {
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
            let infos: Vec<InferInfo> = args.iter().map(|a| a.info).collect();
            // a poly argument of an overloaded call makes Java infer through overload
            // resolution, where it may fail even though each candidate alone would work
            let poly_overloaded =
                infos.contains(&InferInfo::Poly) && self.has_same_arity_overload(m);
            erased = !poly_overloaded && self.erasable(&vars, s, &params, &infos, fret, goal);
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
        let overloaded = self.is_overloaded(m);
        for (e, p) in arg_exprs.iter_mut().zip(&mem.params) {
            if let Expr::Lambda { implicit, .. } | Expr::Ref { implicit, .. } = e {
                *implicit = !overloaded && !p.vararg && self.is_functional_class_type(p.ty);
            }
        }
        // an array passed to a varargs parameter is spread (`*a` in Kotlin, `a*` in Scala),
        // except for a signature-polymorphic method, which takes it as one argument
        if mem.params.last().is_some_and(|p| p.vararg)
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
        let expr = match mem.kind {
            MemberKind::Constructor => Expr::New {
                class: owner.name.clone(),
                type_args: if erased { None } else { Some(ir_args) },
                args: arg_exprs,
                // an inner class's enclosing instance (see `Worker::formal_under`)
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
                declared_in: if mem.is_static {
                    vec![owner.name.clone()]
                } else {
                    self.declared_in(m).to_vec()
                },
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
        Inhabitant {
            expr,
            info: if erased {
                InferInfo::Poly
            } else {
                InferInfo::Standalone(ret)
            },
        }
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

    /// True when `t` is a class type of a functional interface (a position where a bare
    /// lambda converts).
    pub(crate) fn is_functional_class_type(&self, t: TypeId) -> bool {
        let t = match *self.api.ts.arena.get(t) {
            Type::Nullable(i) => i,
            _ => t,
        };
        self.api
            .ts
            .arena
            .as_class(t)
            .and_then(|(sym, _)| self.api.class_by_sym(sym))
            .is_some_and(|c| self.api.class(c).functional)
    }

    /// The classes that may declare instance method `m` for a receiver: its declaring class,
    /// then the supertypes that declare an instance method of the same name and arity or whose
    /// members the API does not describe, nearest first.
    fn declared_in(&mut self, m: MemberId) -> Rc<[String]> {
        if let Some(d) = self.caches.declared_in.get(&m) {
            return Rc::clone(d);
        }
        let mem = self.api.member(m);
        let (name, arity) = (mem.name.clone(), mem.params.len());
        let sym = self.api.class(mem.owner).sym;
        // the owner comes first: it declares `m`
        let self_ty = self.api.ts.self_type(sym);
        let rc: Rc<[String]> = self.declarers(self_ty, &name, arity).into();
        self.caches.declared_in.insert(m, Rc::clone(&rc));
        rc
    }

    /// The classes among `t` and its supertypes, nearest first, that declare an instance
    /// method `name` with `arity` parameters or whose members the API does not describe.
    pub fn declarers(&mut self, t: TypeId, name: &str, arity: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for via in self.api.ts.all_supertypes(t) {
            let Some((s, _)) = self.api.ts.arena.as_class(via) else {
                continue;
            };
            let declares = match self.api.class_by_sym(s) {
                None => true,
                Some(c) => self.api.class(c).members.iter().any(|&o| {
                    let o = self.api.member(o);
                    o.kind == MemberKind::Method
                        && !o.is_static
                        && o.name == name
                        && o.params.len() == arity
                }),
            };
            let class_name = self.api.ts.arena.name(s).to_string();
            if declares && !out.contains(&class_name) {
                out.push(class_name);
            }
        }
        out
    }

    /// True when the member's class has another member of the same name and kind.
    pub(crate) fn is_overloaded(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        let Some(by) = self.ctx.members_by_name.get(&mem.owner) else {
            return false;
        };
        by.get(&mem.name).is_some_and(|rs| {
            rs.iter()
                .any(|r| r.member != m && self.api.member(r.member).kind == mem.kind)
        })
    }

    /// True when the member's class has another member of the same name, kind and arity.
    fn has_same_arity_overload(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        let Some(by) = self.ctx.members_by_name.get(&mem.owner) else {
            return false;
        };
        by.get(&mem.name).is_some_and(|rs| {
            rs.iter().any(|r| {
                let o = self.api.member(r.member);
                r.member != m && o.kind == mem.kind && o.params.len() == mem.params.len()
            })
        })
    }

    /// Builds program `id` for a task; `seed` and `index` fix every random choice.
    pub fn build_program(
        &mut self,
        task: &Task,
        id: &str,
        seed: u64,
        index: u64,
    ) -> (Program, ProgramRecord, bool) {
        let mut rng = RngStream::Program.rng(seed, index);
        self.building.fresh = 0;
        self.building.features =
            super::swarm::Features::draw(&self.cfg.swarm, self.cfg.lang, seed, index);
        let shaped = self.shape_task(task, seed, index);
        let task = &shaped.task;
        let depth = self.cfg.max_inhabitant_depth;
        let mut stmts = Vec::new();
        let mut receiver = None;
        if let Some(r) = task.seq.receiver {
            let inh = self.inhabit(&mut rng, r, depth);
            stmts.push(Stmt::local("r", to_ir(&self.api, r), inh.expr));
            receiver = Some(Expr::Local("r".into()));
        }
        let mut args = Vec::new();
        for (i, &a) in task.seq.args.iter().enumerate() {
            let inh = self.inhabit(&mut rng, a, depth);
            let name = format!("a{i}");
            stmts.push(Stmt::local(name.clone(), to_ir(&self.api, a), inh.expr));
            args.push(Inhabitant {
                expr: Expr::Local(name),
                info: InferInfo::Standalone(a),
            });
        }
        let call = self.build_call(
            task.member,
            &task.formal.subst,
            receiver,
            &args,
            task.seq.result,
            task.broken.is_none(),
        );
        let erased = matches!(call.info, InferInfo::Poly);
        let mut call = call;
        // a broken receiver is seen through its own type: a translator must not treat it as
        // a value of the member's class (Kotlin would cast it to the Java class)
        if let (
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
            *declared_in = self.declarers(actual, name, args.len());
        }
        match task.seq.result {
            Some(t) => stmts.push(Stmt::local("res", to_ir(&self.api, t), call.expr)),
            None => stmts.push(Stmt::Expr(call.expr)),
        }
        let mut program = Program::new(id, stmts);
        program.type_params = shaped.type_params;
        self.declare_nullable(&mut program, &shaped.nullable, task.broken);
        program.inner_classes = self.inner_classes_of(&program);
        let record = self.record(task, id, erased);
        (program, record, erased)
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
                actual: super::rules::print_actual(a, b.actual),
            }),
            erased,
            twin: None,
            call_lines: None,
        }
    }
}
