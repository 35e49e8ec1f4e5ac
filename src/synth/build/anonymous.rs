//! Anonymous classes (Kotlin object expressions) that implement an API interface or extend
//! an abstract API class where a value of it is wanted: its abstract methods declared with
//! the type arguments substituted (`new Comparator<String>() { public int compare(String a,
//! String b) { return 0; } }`, `new AbstractList<String>() { public String get(int i) {
//! .. } public int size() { .. } }`), each body a parameter of the result type or an
//! inhabitant; a class's constructor arguments inhabited like a call's.

use rand::Rng;
use thalia_translators::ir::{Expr, KotlinMember, Method};

use super::inhabitant::Inhabitant;
use super::ir::to_ir;
use super::rng::SynthRng;
use super::worker::{Below, Worker};
use crate::api::{ClassKind, MemberId, MemberKind};
use crate::synth::context::java_expressible;
use crate::synth::typing::erase::InferInfo;
use crate::synth::typing::members::AbstractMethod;
use crate::synth::typing::sequence::is_void;
use crate::types::{kotlin_view, Subst, Type, TypeId};

/// How often a method body returns a parameter of the result type where one has it
/// (otherwise an inhabitant of the result type).
pub const PARAM_BODY_PROBABILITY: f64 = 0.5;

/// The Java interface that Kotlin maps to a type without its abstract method.
const MAPPED_WITHOUT_MEMBERS: &str = "java.lang.annotation.Annotation";

/// The abstract classes no class may extend directly (JLS 8.1.4).
const NOT_EXTENSIBLE: [&str; 2] = ["java.lang.Enum", "java.lang.Record"];

/// The most abstract methods an anonymous class of a non-functional type declares: a
/// program stays small enough to read and to reduce (`Iterator` has 2, `Reader` 2,
/// `AbstractList` 2; `AbstractQueue` 5 would be left to paths).
pub const MAX_ABSTRACT_METHODS: usize = 4;

/// How many interfaces or abstract classes below a wanted type are drawn for an anonymous
/// class before the inhabitant takes another form: many cannot be written (too many
/// abstract methods, a generic one, a Kotlin or Scala class), and a few draws find one that
/// can without searching the whole list.
pub const BELOW_TRIES: usize = 3;

impl Worker<'_> {
    /// An anonymous class implementing interface type `t` (as the function type sees it:
    /// `Comparator<String>` for `Comparator<? super String>`, a subtype of `t`), or `None`
    /// when `t` is no interface whose abstract members are all known and writable: only
    /// functional interfaces qualify, whose one abstract method the API names (Object's
    /// public methods that an interface redeclares stay Object's), and not its own generic
    /// one, nor a Kotlin `suspend` one.
    pub(crate) fn anonymous_class(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        let Some(f) = self.function_type(t) else {
            return self.anonymous_subclass(rng, t, depth);
        };
        if f.function_type || f.suspend || !f.ground {
            return None;
        }
        let target = f.target?;
        let ty = f.target_ir.clone()?;
        let sym = self.api.ts.arena.as_class(target)?.0;
        let cid = self.api.class_by_sym(sym)?;
        let class = self.api.class(cid);
        if class.kind != ClassKind::Interface {
            return None;
        }
        // Kotlin sees `java.lang.annotation.Annotation` as `kotlin.Annotation`, which has no
        // `annotationType()` to override
        if self.rules.maps_java_classes() && class.name == MAPPED_WITHOUT_MEMBERS {
            return None;
        }
        let (sam, _) = self.typing().sam_method(cid)?;
        let name = self.api.member(sam).name.clone();
        if !f
            .params
            .iter()
            .chain([&f.ret])
            .all(|&p| java_expressible(&self.api, p) && !self.typing().unwritable_raw(p))
        {
            return None;
        }
        let method = self.implementation(rng, name, None, &f.params, f.ret, depth);
        Some(Inhabitant {
            expr: Expr::Anonymous {
                ty,
                super_args: None,
                methods: vec![method],
            },
            info: InferInfo::Standalone(target),
        })
    }

    /// An anonymous class of an interface or abstract class below class type `t` where the
    /// API wants the supertype (`new AbstractList<String>() { .. }` for a
    /// `Collection<String>`, any of them for an `Object`): the subclass instantiated as a
    /// subtype of `t`, drawn at random among the API's, up to [`BELOW_TRIES`] times.
    pub(crate) fn anonymous_below(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        let (sym, _) = self.api.ts.arena.as_class(t)?;
        let below = self.classes_below(sym, Below::Declarable);
        for _ in 0..BELOW_TRIES {
            let c = *below.get(rng.gen_range(0..below.len().max(1)))?;
            let Some(sub) = self.instance_below(rng, c, t, self.cfg.max_type_depth) else {
                continue;
            };
            if let Some(a) = self.anonymous_class(rng, sub, depth) {
                return Some(a);
            }
        }
        None
    }

    /// An anonymous class of class type `t` that is no functional interface: an interface
    /// or an abstract class whose abstract methods can be written
    /// ([`Self::declarable_methods`]), a class through one of its public or protected
    /// constructors whose arity no other has (so that no overload is chosen).
    fn anonymous_subclass(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        let t = match *self.api.ts.arena.get(t) {
            Type::Nullable(i) => i,
            _ => t,
        };
        let (sym, args) = self.api.ts.arena.as_class(t)?;
        let args = args.to_vec();
        let cid = self.api.class_by_sym(sym)?;
        let is_class = self.api.class(cid).kind == ClassKind::Abstract;
        if !self.ground_in_program(t) {
            return None;
        }
        // Kotlin: no local class of a generic function may extend `Throwable`
        if self.rules.maps_java_classes()
            && self.building.generic_program
            && self.below_class(t, "java.lang.Throwable")
        {
            return None;
        }
        let abstract_methods = self.declarable_methods(t, cid)?;
        if !abstract_methods.iter().all(|m| {
            m.params
                .iter()
                .chain([&m.ret])
                .all(|&p| self.ground_in_program(p))
        }) {
            return None;
        }
        let super_args = if is_class {
            let ctor = self.anonymous_constructor(rng, cid)?;
            let subst = Subst::from_pairs(&self.api.class(cid).type_params.clone(), &args);
            match self
                .call_member(rng, ctor, &subst, None, Some(t), false, depth)
                .expr
            {
                Expr::New { args, .. } => Some(args),
                _ => return None,
            }
        } else {
            None
        };
        let methods = abstract_methods
            .iter()
            .map(|m| self.implementation(rng, m.name.clone(), m.kotlin, &m.params, m.ret, depth))
            .collect();
        Some(Inhabitant {
            expr: Expr::Anonymous {
                ty: to_ir(&self.api, t),
                super_args,
                methods,
            },
            info: InferInfo::Standalone(t),
        })
    }

    /// The abstract methods an anonymous class of class type `t` (of class `cid`) declares,
    /// cached per type: `None` unless `t` is an interface or abstract class that can be
    /// extended (top-level, not sealed, not `Enum` or `Record`) whose abstract methods
    /// (`Typing::abstract_methods`) are at most [`MAX_ABSTRACT_METHODS`] and writable in the
    /// language (Kotlin's: the members of its mapped types as it shows them, `size` a
    /// property).
    fn declarable_methods(
        &mut self,
        t: TypeId,
        cid: crate::api::ClassId,
    ) -> Option<std::sync::Arc<Vec<AbstractMethod>>> {
        if let Some(v) = self.caches.declarable.get(&t) {
            return v.clone();
        }
        let v = self
            .compute_declarable_methods(t, cid)
            .map(std::sync::Arc::new);
        self.caches.declarable.insert(t, v.clone());
        v
    }

    /// [`Self::declarable_methods`], not cached.
    fn compute_declarable_methods(
        &mut self,
        t: TypeId,
        cid: crate::api::ClassId,
    ) -> Option<Vec<AbstractMethod>> {
        let class = self.api.class(cid);
        if !matches!(class.kind, ClassKind::Interface | ClassKind::Abstract)
            || class.parent.is_some()
            || class.doc.is_sealed == Some(true)
            || NOT_EXTENSIBLE.contains(&class.name.as_str())
            || class.name == MAPPED_WITHOUT_MEMBERS
            || !self.ctx.expressible(&self.api, t)
        {
            return None;
        }
        // Kotlin sees a Java annotation interface as an annotation class, which no class
        // may inherit
        if self.rules.maps_java_classes() && self.below_class(t, MAPPED_WITHOUT_MEMBERS) {
            return None;
        }
        let methods = self.typing().abstract_methods(t)?;
        let writable = methods.len() <= MAX_ABSTRACT_METHODS
            && methods.iter().all(|m| {
                m.params
                    .iter()
                    .chain([&m.ret])
                    .all(|&p| java_expressible(&self.api, p) && !self.typing().unwritable_raw(p))
            });
        writable.then_some(methods)
    }

    /// True when class type `t` is a subtype of the class named `name`.
    fn below_class(&mut self, t: TypeId, name: &str) -> bool {
        let supers = self.api.ts.all_supertypes(t);
        let a = &self.api.ts.arena;
        supers
            .into_iter()
            .any(|s| a.as_class(s).is_some_and(|(n, _)| a.name(n) == name))
    }

    /// A constructor of abstract class `cid` an anonymous subclass can call without
    /// choosing among overloads: public or protected, not generic, no checked exception, no
    /// variable arity, the only accessible one of its arity; drawn at random.
    fn anonymous_constructor(
        &mut self,
        rng: &mut SynthRng,
        cid: crate::api::ClassId,
    ) -> Option<MemberId> {
        let accessible: Vec<MemberId> = self
            .api
            .class(cid)
            .members
            .iter()
            .copied()
            .filter(|&m| {
                let m = self.api.member(m);
                m.kind == MemberKind::Constructor
                    && matches!(m.access.as_deref(), None | Some("public" | "protected"))
            })
            .collect();
        let arity = |w: &Self, m: MemberId| w.api.member(m).params.len();
        let usable: Vec<MemberId> = accessible
            .iter()
            .copied()
            .filter(|&m| {
                let mem = self.api.member(m);
                mem.type_params.is_empty()
                    && mem.throws.is_empty()
                    && !mem.params.iter().any(|p| p.vararg)
                    && accessible
                        .iter()
                        .filter(|&&o| arity(self, o) == arity(self, m))
                        .count()
                        == 1
            })
            .collect();
        let ctor = *usable.get(rng.gen_range(0..usable.len().max(1)))?;
        // its arguments are written outside the class body: no protected nested class
        // (`AbstractMapBag(Map<E, MutableInteger>)`)
        let public = self
            .api
            .member(ctor)
            .params
            .iter()
            .all(|p| self.public_type(p.ty));
        (public && self.typing().language_problem(ctor).is_none()).then_some(ctor)
    }

    /// True when every class type `t` names is public (or of unknown access).
    fn public_type(&self, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        if let Some((n, _)) = a.as_class(t) {
            let hidden = self.api.class_by_sym(n).is_some_and(|c| {
                !crate::synth::context::is_public(self.api.class(c).doc.access_mod.as_deref())
            });
            if hidden {
                return false;
            }
        }
        let mut ok = true;
        a.for_each_child(t, |c| ok &= self.public_type(c));
        ok
    }

    /// The declaration of abstract method `name` (as Kotlin shows it: `kotlin`) with
    /// parameter types `params` and result `ret`: fresh parameter names, the body a parameter of the result type (at
    /// [`PARAM_BODY_PROBABILITY`]) or an inhabitant (`void`: empty).
    fn implementation(
        &mut self,
        rng: &mut SynthRng,
        name: String,
        kotlin: Option<&kotlin_view::MappedMember>,
        params: &[TypeId],
        ret: TypeId,
        depth: usize,
    ) -> Method {
        let params: Vec<(String, TypeId)> = params
            .iter()
            .map(|&p| {
                self.building.fresh += 1;
                (format!("l{}", self.building.fresh), p)
            })
            .collect();
        let body = if is_void(&self.api.ts.arena, ret) {
            Expr::Unit
        } else {
            let param = params
                .iter()
                .find(|(_, p)| *p == ret)
                .map(|(n, _)| Expr::Local(n.clone()));
            match param {
                Some(e) if rng.gen_bool(PARAM_BODY_PROBABILITY) => e,
                _ => self.method_body(rng, ret, depth),
            }
        };
        Method {
            name,
            params: params
                .iter()
                .map(|(n, p)| (n.clone(), to_ir(&self.api, *p)))
                .collect(),
            ret: to_ir(&self.api, ret),
            body,
            kotlin: kotlin.map(|k| KotlinMember {
                name: k.kotlin.to_owned(),
                property: k.property,
            }),
        }
    }

    /// An inhabitant of `ret` as a method's result: no lambda parameter of an enclosing
    /// lambda (the method is another scope), no call that throws a checked exception. A
    /// lambda or reference there keeps `implicit: false`: Kotlin converts none in a
    /// function's result, so it is written with its interface.
    fn method_body(&mut self, rng: &mut SynthRng, ret: TypeId, depth: usize) -> Expr {
        let scope = std::mem::take(&mut self.building.scope);
        self.building.in_lambda += 1;
        let e = self.inhabit(rng, ret, depth.saturating_sub(1)).expr;
        self.building.in_lambda -= 1;
        self.building.scope = scope;
        e
    }
}
