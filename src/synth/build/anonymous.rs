//! Anonymous classes (Kotlin object expressions) that implement an API interface where a
//! value of it is wanted: the interface's single abstract method declared with the type
//! arguments substituted (`new Comparator<String>() { public int compare(String a,
//! String b) { return 0; } }`), its body a parameter of the result type or an inhabitant.

use rand::Rng;
use thalia_translators::ir::{Expr, Method};

use super::inhabitant::Inhabitant;
use super::ir::to_ir;
use super::rng::SynthRng;
use super::worker::Worker;
use crate::api::ClassKind;
use crate::synth::context::java_expressible;
use crate::synth::typing::erase::InferInfo;
use crate::types::TypeId;

/// How often a method body returns a parameter of the result type where one has it
/// (otherwise an inhabitant of the result type).
pub const PARAM_BODY_PROBABILITY: f64 = 0.5;

/// The Java interface that Kotlin maps to a type without its abstract method.
const MAPPED_WITHOUT_MEMBERS: &str = "java.lang.annotation.Annotation";

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
        let f = self.function_type(t)?;
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
            .all(|&p| java_expressible(&self.api, p))
        {
            return None;
        }
        let params: Vec<(String, TypeId)> = f
            .params
            .iter()
            .map(|&p| {
                self.building.fresh += 1;
                (format!("l{}", self.building.fresh), p)
            })
            .collect();
        let body = if f.void {
            Expr::Unit
        } else {
            let param = params
                .iter()
                .find(|(_, p)| *p == f.ret)
                .map(|(n, _)| Expr::Local(n.clone()));
            match param {
                Some(e) if rng.gen_bool(PARAM_BODY_PROBABILITY) => e,
                _ => self.method_body(rng, f.ret, depth),
            }
        };
        let method = Method {
            name,
            params: params
                .iter()
                .map(|(n, p)| (n.clone(), to_ir(&self.api, *p)))
                .collect(),
            ret: to_ir(&self.api, f.ret),
            body,
        };
        Some(Inhabitant {
            expr: Expr::Anonymous {
                ty,
                methods: vec![method],
            },
            info: InferInfo::Standalone(target),
        })
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
