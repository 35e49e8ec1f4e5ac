//! Inherited members, resolved through the supertypes with substitution (the paper's
//! `field-inheritance` and `method-inheritance` rules).

use smallvec::SmallVec;

use super::{Api, ClassId, MemberId, MemberKind};
use crate::types::{Subst, Type, TypeId};

/// A member as seen from a class: declared there or inherited through a supertype.
#[derive(Clone, Debug)]
pub struct ResolvedMember {
    /// The member.
    pub member: MemberId,
    /// The class that declares it.
    pub declared_in: ClassId,
    /// The supertype instance it comes through (the class's self type if declared there).
    pub via: TypeId,
    /// Maps the declaring class's type parameters to their instantiation in `via`.
    pub subst: Subst,
}

impl ResolvedMember {
    /// True when the member is inherited rather than declared in the class asked about.
    pub fn is_inherited(&self, class: ClassId) -> bool {
        self.declared_in != class
    }
}

impl Api {
    /// All members of a class: its own, then inherited ones (nearest supertype first), leaving
    /// out constructors and static members of supertypes, and members overridden or hidden
    /// by a nearer declaration with the same name and substituted parameter types.
    pub fn resolved_members(&mut self, class: ClassId) -> Vec<ResolvedMember> {
        let sym = self.class(class).sym;
        let self_ty = self.ts.self_type(sym);
        let ancestors = self.ts.all_supertypes(self_ty);
        let mut out: Vec<ResolvedMember> = Vec::new();
        let mut keys: Vec<(String, bool, SmallVec<[TypeId; 4]>)> = Vec::new();
        for via in ancestors {
            let Type::Class { name, args } = self.ts.arena.get(via).clone() else {
                continue;
            };
            let Some(decl) = self.class_by_sym(name) else {
                continue;
            };
            if out.iter().any(|r| r.declared_in == decl) {
                continue;
            }
            let params = self.class(decl).type_params.clone();
            let subst = if params.len() == args.len() {
                Subst::from_pairs(&params, &args)
            } else {
                Subst::new()
            };
            let inherited = decl != class;
            for mid in self.class(decl).members.clone() {
                let m = self.member(mid);
                if inherited && (m.kind == MemberKind::Constructor || m.is_static) {
                    continue;
                }
                let is_field = m.kind == MemberKind::Field;
                let name = m.name.clone();
                let ptys: SmallVec<[TypeId; 4]> = m.params.iter().map(|p| p.ty).collect();
                let ptys: SmallVec<[TypeId; 4]> = ptys
                    .into_iter()
                    .map(|t| {
                        let t = self.ts.arena.subst(t, &subst);
                        self.ts.erase(t)
                    })
                    .collect();
                let key = (
                    name,
                    is_field,
                    if is_field { SmallVec::new() } else { ptys },
                );
                if inherited && keys.contains(&key) {
                    continue;
                }
                keys.push(key);
                out.push(ResolvedMember {
                    member: mid,
                    declared_in: decl,
                    via,
                    subst: subst.clone(),
                });
            }
        }
        out
    }

    /// The signature of a resolved member with the supertype's instantiation applied.
    pub fn resolved_signature(&mut self, rm: &ResolvedMember) -> String {
        let m = self.member(rm.member).clone();
        let params: Vec<TypeId> = m
            .params
            .iter()
            .map(|p| self.ts.arena.subst(p.ty, &rm.subst))
            .collect();
        let ret = self.ts.arena.subst(m.ret, &rm.subst);
        let receiver = m.receiver.map(|r| self.ts.arena.subst(r, &rm.subst));
        self.format_signature(rm.member, receiver, &params, ret)
    }
}
