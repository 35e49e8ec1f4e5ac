//! Core types as IR types: what every part of program building writes into the IR.

use thalia_translators::ir::{PrimTy, Ty};

use crate::api::Api;
use crate::types::{Prim, Type, TypeId, Variance, Wildcard};

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
        Type::Class { name, args } => {
            let params = api.ts.class_params(*name).unwrap_or(&[]);
            Ty::Class {
                name: a.name(*name).to_string(),
                args: args
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| {
                        // a projection against the parameter's declared variance (`out X` for
                        // Kotlin's `in T`) admits every argument, as `*` does, and Kotlin
                        // rejects it as written
                        let declared = params.get(i).map(|&v| a.var(v).variance);
                        match (declared, a.get(x)) {
                            (
                                Some(Variance::Contravariant),
                                Type::Wildcard(Wildcard::Extends(_)),
                            )
                            | (Some(Variance::Covariant), Type::Wildcard(Wildcard::Super(_))) => {
                                Ty::WildcardStar
                            }
                            _ => to_ir(api, x),
                        }
                    })
                    .collect(),
            }
        }
        Type::Var(v) => Ty::Var(a.var_name(*v).to_string()),
        // (never written: synthesis substitutes a type constructor for the variable first)
        Type::Applied { head, args } => Ty::Class {
            name: a.var_name(*head).to_string(),
            args: args.iter().map(|&x| to_ir(api, x)).collect(),
        },
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
