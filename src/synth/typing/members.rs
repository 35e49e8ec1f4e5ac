//! Members as the target language sees them: a member's signature under a substitution, the
//! members a language cannot use the way Java does ([`Typing::language_problem`]), the classes
//! that declare a method, whether a receiver certainly lacks a member, the positions whose
//! checker accepts any type, and the single abstract method of a functional interface.

use std::sync::Arc;

use super::checker::Typing;
use super::sequence::{is_void, Formal, Position};
use crate::api::{ClassKind, MemberId, MemberKind};
use crate::synth::context::{outer_class, SkipReason};
use crate::types::{kotlin_view, Subst, Type, TypeId};

impl Typing<'_> {
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
        } else if let Some(outer) = outer_class(self.api, m) {
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

    /// Why the target language cannot use member `m` the way Java does, if it cannot (for
    /// the member under test and for the members on inhabitant paths alike).
    pub fn language_problem(&mut self, m: MemberId) -> Option<SkipReason> {
        if let Some(&p) = self.memo.language_problems.get(&m) {
            return p;
        }
        let rules = self.rules;
        let p = if rules.hides_inherited_statics() && self.static_from_hidden_supertype(m) {
            Some(SkipReason::HiddenStatic)
        } else if !rules.has_raw_types() && self.mentions_raw_type(m) {
            Some(SkipReason::RawType)
        } else if !rules.sees_interface_clone() && self.is_interface_clone(m) {
            Some(SkipReason::InterfaceClone)
        } else if rules.annotation_elements_are_properties() && self.is_annotation_element(m) {
            Some(SkipReason::AnnotationElement)
        } else if rules.nullable_map_compute() && self.is_map_compute(m) {
            Some(SkipReason::KotlinNullableParameter)
        } else if rules.retypes_collection_object_parameters()
            && self.is_retyped_collection_member(m)
        {
            Some(SkipReason::KotlinMappedParameter)
        } else {
            None
        };
        self.memo.language_problems.insert(m, p);
        p
    }

    /// True for a method of `java.util.Collection`, `List` or `Map` (or an override) taking
    /// an `Object` or `Collection<?>` that Kotlin's mapped type declares with its element, key
    /// or value type (`contains(element: E)`, `get(key: K)`, `remove(key: K, value: V)`, ...).
    fn is_retyped_collection_member(&mut self, m: MemberId) -> bool {
        self.retyped_collection_member_on(m, None)
    }

    /// True when the target language shows member `m` with retyped collection parameters
    /// ([`Self::is_retyped_collection_member`]) on a receiver of type `receiver`: a class
    /// below both the member's own class and a mapped one overrides it for both
    /// (commons-collections4's `Get.remove(Object)` is Kotlin's `remove(key: K)` on an
    /// `UnmodifiableOrderedMap`, which is also a `java.util.Map`).
    pub(crate) fn retypes_collection_member_on(&mut self, m: MemberId, receiver: TypeId) -> bool {
        self.rules.retypes_collection_object_parameters()
            && self.retyped_collection_member_on(m, Some(receiver))
    }

    /// [`Self::is_retyped_collection_member`] seen from `receiver`'s class, or from the
    /// member's own.
    fn retyped_collection_member_on(&mut self, m: MemberId, receiver: Option<TypeId>) -> bool {
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || mem.is_static {
            return false;
        }
        let (name, arity) = (mem.name.clone(), mem.params.len());
        let a = &self.api.ts.arena;
        let takes_any = mem.params.iter().any(|p| {
            a.as_class(p.ty).is_some_and(|(n, _)| {
                matches!(a.name(n), "java.lang.Object" | "java.util.Collection")
            })
        });
        if !takes_any
            || !kotlin_view::RETYPED_MEMBERS
                .iter()
                .any(|(_, n, k)| *n == name && *k == arity)
        {
            return false;
        }
        let sym = receiver
            .and_then(|r| self.api.ts.arena.as_class(r).map(|(s, _)| s))
            .unwrap_or(self.api.class(mem.owner).sym);
        let owner = self.api.ts.self_type(sym);
        let declarers = self.declarers(owner, &name, arity);
        kotlin_view::RETYPED_MEMBERS
            .iter()
            .any(|(c, n, k)| *n == name && *k == arity && declarers.iter().any(|d| d == c))
    }

    /// True for `Map.compute(K, BiFunction)` or an override.
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

    /// True for a `clone()` that an interface declares.
    fn is_interface_clone(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        mem.kind == MemberKind::Method
            && mem.name == "clone"
            && mem.params.is_empty()
            && self.api.class(mem.owner).kind == ClassKind::Interface
    }

    /// True for an element of an annotation type (an instance method of an interface that
    /// extends `java.lang.annotation.Annotation`), or `Annotation.annotationType()` itself
    /// (Kotlin shows it as the `annotationClass` extension).
    fn is_annotation_element(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || mem.is_static {
            return false;
        }
        let a = &self.api.ts.arena;
        if self.api.class(mem.owner).name == "java.lang.annotation.Annotation"
            && mem.name == "annotationType"
        {
            return true;
        }
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
        self.any_raw(todo)
    }

    /// True when `t` mentions a raw type where the language has none to write
    /// ([`LanguageRules::has_raw_types`](super::rules::LanguageRules::has_raw_types)): a
    /// lambda's parameter of that type is left untyped, an anonymous class not written.
    pub(crate) fn unwritable_raw(&self, t: TypeId) -> bool {
        !self.rules.has_raw_types() && self.any_raw(vec![t])
    }

    /// True when one of `todo` mentions a raw type.
    fn any_raw(&self, mut todo: Vec<TypeId>) -> bool {
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
                .is_some_and(|f| f.static_from_hidden_supertype == Some(true))
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
    pub(crate) fn declared_in(&mut self, m: MemberId) -> Arc<[String]> {
        if let Some(d) = self.memo.declared_in.get(&m) {
            return Arc::clone(d);
        }
        let mem = self.api.member(m);
        let (name, arity) = (mem.name.clone(), mem.params.len());
        let sym = self.api.class(mem.owner).sym;
        // the owner comes first: it declares `m`
        let self_ty = self.api.ts.self_type(sym);
        let rc: Arc<[String]> = self.declarers(self_ty, &name, arity).into();
        self.memo.declared_in.insert(m, Arc::clone(&rc));
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

    /// True when the language's arrays are invariant and member `m` returns an array: on a
    /// receiver of a narrower type, an override's narrower array type is no subtype of it
    /// (`Class<?>.getTypeParameters()` against `GenericDeclaration`'s in Scala).
    pub(crate) fn covariant_array_risk(&self, m: MemberId) -> bool {
        self.rules.arrays_are_invariant()
            && matches!(
                self.api.ts.arena.get(self.api.member(m).ret),
                Type::Array(_)
            )
    }

    /// Neither a subtype nor a supertype of the formal type, and writable in Java. Both
    /// hierarchies must be fully known: a supertype outside the API could hide a subtyping
    /// relation (an `ArrayList` whose `List` supertype is missing is still a `Collection`).
    pub(crate) fn incompatible(&mut self, x: TypeId, formal: TypeId) -> bool {
        self.ctx.expressible(self.api, x)
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
    pub(crate) fn lacks_member(&mut self, x: TypeId, name: &str) -> bool {
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

    /// True when neither the class of `x` nor any of its supertypes has a member class named
    /// `simple` (all of them known to the API), so that `x.new simple()` cannot resolve.
    pub(crate) fn lacks_member_class(&mut self, x: TypeId, simple: &str) -> bool {
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

    /// True when scalac accepts any receiver or argument at `pos` of `m`: a member that
    /// every Scala value has (`Any`'s `==`, `!=`, `equals`, `toString`, …: any receiver, and
    /// any argument of the comparisons).
    fn scala_accepts_any(&mut self, m: MemberId, pos: Position) -> bool {
        /// The members of `scala.Any` (and `AnyRef`), which the API's classes do not list.
        const ANY_MEMBERS: [&str; 12] = [
            "==",
            "!=",
            "equals",
            "eq",
            "ne",
            "##",
            "hashCode",
            "toString",
            "getClass",
            "isInstanceOf",
            "asInstanceOf",
            "synchronized",
        ];
        let name = self.api.member(m).name.clone();
        match pos {
            Position::Receiver => ANY_MEMBERS.contains(&name.as_str()),
            Position::Arg(_) => matches!(name.as_str(), "==" | "!=" | "equals" | "eq" | "ne"),
            Position::Result => false,
        }
    }

    /// True when the target language's checker accepts any type at position `pos` of a call
    /// of `m`, so that the position cannot be broken: an argument when an extension method of
    /// the same name and arity applies to the receiver ([`LanguageRules::has_extension_methods`](super::rules::LanguageRules::has_extension_methods);
    /// its parameters are not checked here), and for Scala a receiver or argument of a member
    /// every value has ([`Self::scala_accepts_any`]). A checker's known bug is no reason to avoid a
    /// position: groovyc's acceptance of arguments that contradict explicit type arguments
    /// ([`LanguageRules::ignores_explicit_type_arguments`](super::rules::LanguageRules::ignores_explicit_type_arguments), RB9 in `known-findings/`) is
    /// generated and labelled `known` by the campaign.
    pub(crate) fn checker_accepts_any(
        &mut self,
        m: MemberId,
        f: &Formal,
        pos: Position,
        owner: TypeId,
    ) -> bool {
        let rules = self.rules;
        if rules.has_universal_members() && self.scala_accepts_any(m, pos) {
            return true;
        }
        let Position::Arg(_) = pos else {
            return false;
        };
        if !rules.has_extension_methods() {
            return false;
        }
        let mem = self.api.member(m).clone();
        if mem.kind != MemberKind::Method {
            return false;
        }
        let (recv, static_call) = match f.receiver {
            Some(r) => (r, false),
            None => (owner, true),
        };
        self.extension_applies(recv, static_call, &mem.name, f.params.len())
    }

    /// The single abstract method of a functional interface, with the substitution from its
    /// declaring interface to the class.
    pub(crate) fn sam_method(&mut self, cid: crate::api::ClassId) -> Option<(MemberId, Subst)> {
        const OBJ: [&str; 3] = ["equals", "hashCode", "toString"];
        let by = self.ctx.members_by_name.get(&cid)?;
        let mut found = None;
        let mut names: Vec<&String> = by.keys().collect();
        names.sort();
        for name in names {
            for r in &by[name] {
                let m = self.api.member(r.member);
                if m.kind == MemberKind::Method
                    && !m.is_static
                    && !m.is_default
                    && !OBJ.contains(&m.name.as_str())
                {
                    if found.is_some() || !m.type_params.is_empty() {
                        return None;
                    }
                    found = Some((r.member, r.subst.clone()));
                }
            }
        }
        found
    }

    /// The abstract methods an anonymous class of class type `t` (an interface or an
    /// abstract class, its type arguments without wildcards) must declare, with `t`'s type
    /// arguments substituted: a method is implemented by the nearest class of the
    /// superclass chain that declares it (abstract there or not), else by a default method
    /// of an interface, else by `Object`. `None` when a supertype but `Object` is not in the
    /// API (its abstract methods are unknown), or when one cannot be written in the program:
    /// a generic, variable-arity or package-private one, one of `Object`'s declared abstract
    /// again, or a non-Java declaration (Kotlin's and Scala's own classes declare members
    /// Java does not see). In Kotlin, as Kotlin shows its mapped types' members
    /// ([`kotlin_view::MAPPED_MEMBERS`]: `size` a property, `Number.toByte` abstract), and
    /// `None` where it retypes one that must be declared (`Collection.contains(E)`).
    pub(crate) fn abstract_methods(&mut self, t: TypeId) -> Option<Vec<AbstractMethod>> {
        const OBJ: [(&str, usize); 3] = [("equals", 1), ("hashCode", 0), ("toString", 0)];
        let supers = self.api.ts.all_supertypes(t);
        let object = self.ctx.object_sym;
        // Kotlin shows the members of its mapped types as its own
        let kotlin = self.rules.maps_java_classes();
        let mapped: Vec<String> = if kotlin {
            supers
                .iter()
                .filter_map(|&s| self.api.ts.arena.as_class(s))
                .map(|(n, _)| self.api.ts.arena.name(n).to_owned())
                .filter(|n| kotlin_view::maps_java(n))
                .collect()
        } else {
            Vec::new()
        };
        let mut chain = Vec::new();
        let mut interfaces = Vec::new();
        for &via in &supers {
            let (sym, args) = self.api.ts.arena.as_class(via)?;
            // `Object` implements what it declares (its methods declared abstract again are
            // seen where they are), also where a library's API does not hold it
            if sym == object {
                continue;
            }
            // Kotlin's read-only collection interfaces above Java's: their members are the
            // mutable ones' as Kotlin shows them ([`kotlin_view::MAPPED_MEMBERS`])
            let name = self.api.ts.arena.name(sym);
            if kotlin_view::READ_ONLY_COLLECTIONS
                .iter()
                .any(|(k, j)| *k == name && mapped.iter().any(|m| m == j))
            {
                continue;
            }
            let args = args.to_vec();
            let cid = self.api.class_by_sym(sym)?;
            let class = self.api.class(cid);
            if class.syntax != crate::types::Syntax::Java {
                return None;
            }
            if class.type_params.len() != args.len()
                || args
                    .iter()
                    .any(|&a| matches!(self.api.ts.arena.get(a), Type::Wildcard(_)))
            {
                return None;
            }
            let subst = Subst::from_pairs(&class.type_params, &args);
            match class.kind {
                ClassKind::Interface => interfaces.push((cid, subst)),
                _ => chain.push((cid, subst)),
            }
        }
        let mapped = || mapped.iter().map(String::as_str);
        let mut seen: Vec<(String, Vec<TypeId>)> = Vec::new();
        // every inherited instance method as the class sees it: name, parameters, erasure
        let mut inherited: Vec<(String, Vec<TypeId>, Vec<TypeId>)> = Vec::new();
        let mut out: Vec<AbstractMethod> = Vec::new();
        let chain_len = chain.len();
        for (i, (cid, subst)) in chain.into_iter().chain(interfaces).enumerate() {
            let interface = i >= chain_len;
            for mid in self.api.class(cid).members.clone() {
                let m = self.api.member(mid).clone();
                if m.kind != MemberKind::Method || m.is_static || m.receiver.is_some() {
                    continue;
                }
                let params: Vec<TypeId> = m
                    .params
                    .iter()
                    .map(|p| self.api.ts.arena.subst(p.ty, &subst))
                    .collect();
                // a nearer method implements this one when its parameters erase like this
                // one's, or like this one's declared ones (`nextKey(Object)` implements
                // `OrderedMap<K, V>.nextKey(K)`, JLS 8.4.2)
                let erased: Vec<TypeId> = params.iter().map(|&p| self.api.ts.erase(p)).collect();
                let declared: Vec<TypeId> =
                    m.params.iter().map(|p| self.api.ts.erase(p.ty)).collect();
                inherited.push((m.name.clone(), params.clone(), erased.clone()));
                let key = (m.name.clone(), erased);
                if seen.contains(&key) || seen.contains(&(m.name.clone(), declared)) {
                    continue;
                }
                seen.push(key);
                let object_method = OBJ.contains(&(m.name.as_str(), params.len()));
                let view = kotlin
                    .then(|| kotlin_view::mapped_member(mapped(), &m.name, params.len()))
                    .flatten();
                let kotlin_abstract = view
                    .is_some_and(|v| v.abstract_in_kotlin && v.class == self.api.class(cid).name);
                let is_abstract = kotlin_abstract
                    || if interface {
                        !m.is_default && !object_method
                    } else {
                        m.is_abstract
                    };
                if !is_abstract {
                    continue;
                }
                if kotlin && kotlin_view::retyped_member(mapped(), &m.name, params.len()) {
                    return None;
                }
                // an abstract `equals(Object)` is `equals(Any?)` in Kotlin and `equals(Any)`
                // in Scala, which the Java parameter type does not override
                let writable = !object_method
                    && m.type_params.is_empty()
                    && !m.params.iter().any(|p| p.vararg)
                    && matches!(m.access.as_deref(), None | Some("public" | "protected"));
                if !writable {
                    return None;
                }
                let ret = self.api.ts.arena.subst(m.ret, &subst);
                out.push(AbstractMethod {
                    name: m.name,
                    params,
                    ret,
                    kotlin: view,
                });
            }
        }
        // an override whose parameters erase like another inherited method's without being
        // its parameters clashes with it (JLS 8.4.8.3: `PrimitiveIterator<T, Consumer<Integer>>`
        // has `forEachRemaining(T_CONS)` and `Iterator`'s `forEachRemaining(Consumer<? super
        // T>)`)
        let clashes = out.iter().any(|o| {
            let erased: Vec<TypeId> = o.params.iter().map(|&p| self.api.ts.erase(p)).collect();
            inherited
                .iter()
                .any(|(n, ps, es)| *n == o.name && *es == erased && *ps != o.params)
        });
        (!clashes).then_some(out)
    }
}

/// An abstract method an anonymous class declares ([`Typing::abstract_methods`]).
#[derive(Clone, Debug)]
pub(crate) struct AbstractMethod {
    /// Its name.
    pub name: String,
    /// Its parameter types, the class type's arguments substituted.
    pub params: Vec<TypeId>,
    /// Its result type, likewise.
    pub ret: TypeId,
    /// How Kotlin shows it, where it is a member of a mapped type that Kotlin names or
    /// declares otherwise (Kotlin programs only).
    pub kotlin: Option<&'static kotlin_view::MappedMember>,
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::testing::{class, java_lang, method, with, Fixture};

    #[test]
    fn a_raw_type_is_unwritable_where_the_language_has_none() {
        let mut fx = Fixture::java_base();
        let raw = fx.ty("java.util.function.Predicate<java.util.List>");
        let typed = fx.ty("java.util.function.Predicate<java.util.List<java.lang.String>>");
        for (lang, writes_raw) in [
            (Language::Java, true),
            (Language::Groovy, true),
            (Language::Kotlin, false),
            (Language::Scala3, false),
        ] {
            let t = fx.typing(lang);
            assert_eq!(t.unwritable_raw(raw), !writes_raw, "{lang}");
            assert!(!t.unwritable_raw(typed), "{lang}");
        }
    }

    #[test]
    fn an_anonymous_class_declares_what_no_nearer_class_or_default_method_implements() {
        let abstract_ = |m: Value| with(m, json!({"is_abstract": true}));
        let mut docs = java_lang();
        docs.push(with(
            class(
                "p.I",
                "java",
                &[],
                vec![
                    method("a", &["T"], "void"),
                    with(
                        method("b", &[], "java.lang.String"),
                        json!({"is_default": true}),
                    ),
                    method("toString", &[], "java.lang.String"),
                ],
            ),
            json!({"class_type": 1, "type_parameters": ["T"]}),
        ));
        docs.push(with(
            class(
                "p.Base",
                "java",
                &[],
                vec![abstract_(method("x", &[], "int")), method("y", &[], "int")],
            ),
            json!({"class_type": 2}),
        ));
        // `x` implemented, `y` declared abstract again below its implementation
        docs.push(with(
            class(
                "p.Sub",
                "java",
                &[],
                vec![method("x", &[], "int"), abstract_(method("y", &[], "int"))],
            ),
            json!({"class_type": 2, "inherits": ["p.Base"],
                   "implements": ["p.I<java.lang.String>"]}),
        ));
        docs.push(with(
            class(
                "p.Eq",
                "java",
                &[],
                vec![abstract_(method(
                    "equals",
                    &["java.lang.Object"],
                    "boolean",
                ))],
            ),
            json!({"class_type": 2}),
        ));
        docs.push(with(
            class(
                "p.G",
                "java",
                &[],
                vec![with(
                    abstract_(method("g", &["U"], "U")),
                    json!({"type_parameters": ["U"]}),
                )],
            ),
            json!({"class_type": 2}),
        ));
        let mut fx = Fixture::of(docs, None);
        let (sub, i, string, int) = (
            fx.ty("p.Sub"),
            fx.ty("p.I<java.lang.String>"),
            fx.ty("java.lang.String"),
            fx.ty("int"),
        );
        let (eq, g, v) = (fx.ty("p.Eq"), fx.ty("p.G"), fx.ty("void"));
        let mut t = fx.typing(Language::Java);
        let sigs = |ms: Vec<AbstractMethod>| {
            ms.into_iter()
                .map(|m| (m.name, m.params, m.ret))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            sigs(t.abstract_methods(sub).expect("writable")),
            vec![("y".into(), vec![], int), ("a".into(), vec![string], v)]
        );
        assert_eq!(
            sigs(t.abstract_methods(i).expect("writable")),
            vec![("a".into(), vec![string], v)]
        );
        // Object's methods declared abstract again, and generic ones, are not written
        assert!(t.abstract_methods(eq).is_none());
        assert!(t.abstract_methods(g).is_none());
    }

    #[test]
    fn kotlin_retypes_a_member_on_a_receiver_whose_class_is_also_a_map() {
        // commons-collections4: `Get<K, V>.remove(Object)`, overridden by a class that is
        // also a `java.util.Map` (Kotlin's `remove(key: K)` there)
        let mut docs = java_lang();
        docs.push(with(
            class(
                "java.util.Map",
                "java",
                &[],
                vec![method("remove", &["java.lang.Object"], "V")],
            ),
            json!({"class_type": 1, "type_parameters": ["K", "V"]}),
        ));
        docs.push(with(
            class(
                "p.Get",
                "java",
                &[],
                vec![method("remove", &["java.lang.Object"], "V")],
            ),
            json!({"class_type": 1, "type_parameters": ["K", "V"]}),
        ));
        docs.push(with(
            class(
                "p.Decorator",
                "java",
                &[],
                vec![method("remove", &["java.lang.Object"], "V")],
            ),
            json!({"type_parameters": ["K", "V"],
                   "implements": ["p.Get<K,V>", "java.util.Map<K,V>"]}),
        ));
        docs.push(with(
            class("p.Plain", "java", &[], vec![]),
            json!({"type_parameters": ["K", "V"], "implements": ["p.Get<K,V>"]}),
        ));
        let mut fx = Fixture::of(docs, None);
        let remove = fx.member("V p.Get.remove(java.lang.Object)");
        let decorator = fx.ty("p.Decorator<java.lang.String, java.lang.Integer>");
        let plain = fx.ty("p.Plain<java.lang.String, java.lang.Integer>");
        let mut kotlin = fx.typing(Language::Kotlin);
        assert_eq!(kotlin.language_problem(remove), None);
        assert!(kotlin.retypes_collection_member_on(remove, decorator));
        assert!(!kotlin.retypes_collection_member_on(remove, plain));
        let mut java = fx.typing(Language::Java);
        assert!(!java.retypes_collection_member_on(remove, decorator));
    }

    #[test]
    fn an_override_that_clashes_with_another_inherited_method_is_not_written() {
        // `PrimitiveIterator<T, T_CONS>`: `forEachRemaining(T_CONS)` abstract beside
        // `Iterator`'s default `forEachRemaining(Consumer<? super T>)`; with `T_CONS` a
        // `Consumer<Integer>` the override erases like the default method (javac: "name
        // clash", kotlinc: "accidental override")
        let mut docs = java_lang();
        docs.push(with(
            class(
                "p.Consumer",
                "java",
                &[],
                vec![method("accept", &["T"], "void")],
            ),
            json!({"class_type": 1, "type_parameters": ["T"]}),
        ));
        docs.push(with(
            class(
                "p.Iter",
                "java",
                &[],
                vec![with(
                    method("each", &["p.Consumer<? super T>"], "void"),
                    json!({"is_default": true}),
                )],
            ),
            json!({"class_type": 1, "type_parameters": ["T"]}),
        ));
        docs.push(with(
            class("p.Prim", "java", &[], vec![method("each", &["C"], "void")]),
            json!({"class_type": 1, "type_parameters": ["T", "C"],
                   "implements": ["p.Iter<T>"]}),
        ));
        let mut fx = Fixture::of(docs, None);
        let clash = fx.ty("p.Prim<java.lang.String, p.Consumer<java.lang.Integer>>");
        let fine = fx.ty("p.Prim<java.lang.String, java.lang.Runnable>");
        let mut t = fx.typing(Language::Java);
        assert!(t.abstract_methods(clash).is_none());
        assert_eq!(t.abstract_methods(fine).expect("writable").len(), 1);
    }

    #[test]
    fn kotlin_declares_the_members_of_its_mapped_types_as_it_names_them() {
        let abstract_ = |m: Value| with(m, json!({"is_abstract": true}));
        let mut docs = java_lang();
        docs.retain(|d| d["name"] != "java.lang.Number");
        docs.push(with(
            class(
                "java.util.Collection",
                "java",
                &[],
                vec![
                    method("size", &[], "int"),
                    method("contains", &["java.lang.Object"], "boolean"),
                ],
            ),
            json!({"class_type": 1, "type_parameters": ["E"]}),
        ));
        docs.push(with(
            class(
                "java.util.AbstractCollection",
                "java",
                &[],
                vec![
                    abstract_(method("size", &[], "int")),
                    method("contains", &["java.lang.Object"], "boolean"),
                ],
            ),
            json!({"class_type": 2, "type_parameters": ["E"],
                   "implements": ["java.util.Collection<E>"]}),
        ));
        docs.push(with(
            class(
                "java.lang.Number",
                "java",
                &[],
                vec![
                    abstract_(method("intValue", &[], "int")),
                    method("byteValue", &[], "byte"),
                ],
            ),
            json!({"class_type": 2}),
        ));
        // `nextKey(Object)` implements `nextKey(K)`: the same erasure as its declaration's
        docs.push(with(
            class(
                "p.Ordered",
                "java",
                &[],
                vec![method("nextKey", &["K"], "K")],
            ),
            json!({"class_type": 1, "type_parameters": ["K"]}),
        ));
        docs.push(with(
            class(
                "p.Linked",
                "java",
                &[],
                vec![method("nextKey", &["java.lang.Object"], "K")],
            ),
            json!({"class_type": 2, "type_parameters": ["K"],
                   "implements": ["p.Ordered<K>"]}),
        ));
        // an abstract `contains(Object)` Kotlin shows as `contains(E)`
        docs.push(with(
            class(
                "p.Bag",
                "java",
                &[],
                vec![abstract_(method(
                    "contains",
                    &["java.lang.Object"],
                    "boolean",
                ))],
            ),
            json!({"class_type": 2, "type_parameters": ["E"],
                   "inherits": ["java.util.AbstractCollection<E>"]}),
        ));
        let mut fx = Fixture::of(docs, None);
        let coll = fx.ty("java.util.AbstractCollection<java.lang.String>");
        let number = fx.ty("java.lang.Number");
        let linked = fx.ty("p.Linked<java.lang.String>");
        let bag = fx.ty("p.Bag<java.lang.String>");
        let view = |ms: Vec<AbstractMethod>| {
            ms.into_iter()
                .map(|m| (m.name, m.kotlin.map(|k| (k.kotlin, k.property))))
                .collect::<Vec<_>>()
        };
        let mut java = fx.typing(Language::Java);
        assert_eq!(
            view(java.abstract_methods(coll).expect("writable")),
            vec![("size".to_string(), None)]
        );
        assert_eq!(
            view(java.abstract_methods(number).expect("writable")),
            vec![("intValue".to_string(), None)]
        );
        assert!(java.abstract_methods(linked).expect("writable").is_empty());
        assert!(java.abstract_methods(bag).is_some());
        let mut kotlin = fx.typing(Language::Kotlin);
        assert_eq!(
            view(kotlin.abstract_methods(coll).expect("writable")),
            vec![("size".to_string(), Some(("size", true)))]
        );
        assert_eq!(
            view(kotlin.abstract_methods(number).expect("writable")),
            vec![
                ("intValue".to_string(), Some(("toInt", false))),
                ("byteValue".to_string(), Some(("toByte", false))),
            ]
        );
        assert!(kotlin
            .abstract_methods(linked)
            .expect("writable")
            .is_empty());
        assert!(kotlin.abstract_methods(bag).is_none());
    }

    #[test]
    fn each_language_cannot_use_some_members_the_way_java_does() {
        let mut docs = java_lang();
        docs.push(with(
            class("java.util.List", "java", &[], vec![]),
            json!({"type_parameters": ["E"], "class_type": 1}),
        ));
        docs.push(with(
            class("java.lang.annotation.Annotation", "java", &[], vec![]),
            json!({"class_type": 1}),
        ));
        docs.push(class(
            "p.R",
            "java",
            &[],
            vec![
                method("raw", &["java.util.List"], "void"),
                method("typed", &["java.util.List<java.lang.String>"], "void"),
            ],
        ));
        docs.push(with(
            class("p.C", "java", &[], vec![method("clone", &[], "p.C")]),
            json!({"class_type": 1}),
        ));
        docs.push(with(
            class(
                "p.A",
                "java",
                &["java.lang.annotation.Annotation"],
                vec![method("value", &[], "int")],
            ),
            json!({"class_type": 1}),
        ));
        let mut fx = Fixture::of(docs, None);
        let raw = fx.member("void p.R.raw(java.util.List)");
        let typed = fx.member("void p.R.typed(java.util.List<java.lang.String>)");
        let clone = fx.member("p.C p.C.clone()");
        let element = fx.member("int p.A.value()");
        use SkipReason::{AnnotationElement, InterfaceClone, RawType};
        // (language, raw, interface clone, annotation element)
        for (lang, want) in [
            (Language::Java, [None, None, None]),
            (Language::Groovy, [None, None, None]),
            (
                Language::Kotlin,
                [Some(RawType), None, Some(AnnotationElement)],
            ),
            (Language::Scala3, [Some(RawType), None, None]),
            (
                Language::Scala2,
                [Some(RawType), Some(InterfaceClone), None],
            ),
        ] {
            let mut t = fx.typing(lang);
            let got = [raw, clone, element].map(|m| t.language_problem(m));
            assert_eq!(got, want, "{lang}");
            assert_eq!(t.language_problem(typed), None, "{lang}");
        }
    }

    #[test]
    fn a_receiver_lacks_a_member_only_where_its_whole_hierarchy_is_known() {
        let mut docs = java_lang();
        docs.push(class(
            "p.Known",
            "java",
            &[],
            vec![method("m", &[], "void")],
        ));
        docs.push(class("p.Partial", "java", &["q.Missing"], vec![]));
        let mut fx = Fixture::of(docs, None);
        let (known, partial) = (fx.ty("p.Known"), fx.ty("p.Partial"));
        let string = fx.ty("java.lang.String");
        let mut t = fx.typing(Language::Java);
        assert!(t.hierarchy_known(known));
        assert!(!t.hierarchy_known(partial));
        assert!(t.lacks_member(known, "zzz"));
        assert!(!t.lacks_member(known, "m"));
        // `q.Missing` may declare anything
        assert!(!t.lacks_member(partial, "zzz"));
        assert!(t.incompatible(known, string));
        assert!(!t.incompatible(partial, string));
        // no member class `p.Known.Inner`: `known.new Inner()` cannot resolve
        assert!(t.lacks_member_class(known, "Inner"));
    }

    #[test]
    fn scala_accepts_any_receiver_of_the_members_every_value_has() {
        let mut fx = Fixture::java_base();
        let equals = fx.member("boolean java.lang.Object.equals(java.lang.Object)");
        let length = fx.member("int java.lang.String.length()");
        let object = fx.ty("java.lang.Object");
        for (lang, any) in [(Language::Java, false), (Language::Scala3, true)] {
            let mut t = fx.typing(lang);
            let f = t.formal_under(equals, Subst::new());
            for pos in [Position::Receiver, Position::Arg(0)] {
                assert_eq!(
                    t.checker_accepts_any(equals, &f, pos, object),
                    any,
                    "{lang}: equals at {pos:?}"
                );
            }
            let f = t.formal_under(length, Subst::new());
            assert!(!t.checker_accepts_any(length, &f, Position::Receiver, object));
        }
    }

    #[test]
    fn a_functional_interface_has_one_abstract_method() {
        let mut fx = Fixture::java_base();
        let class = |fx: &Fixture, name: &str| fx.api.class_by_name(name).expect(name);
        let function = class(&fx, "java.util.function.Function");
        let comparator = class(&fx, "java.util.Comparator");
        let list = class(&fx, "java.util.List");
        let mut t = fx.typing(Language::Java);
        let sam =
            |t: &mut Typing<'_>, c| t.sam_method(c).map(|(m, _)| t.api.member(m).name.clone());
        assert_eq!(sam(&mut t, function).as_deref(), Some("apply"));
        // (`Comparator` redeclares `equals`, which is `Object`'s)
        assert_eq!(sam(&mut t, comparator).as_deref(), Some("compare"));
        assert_eq!(sam(&mut t, list), None);
    }

    #[test]
    fn invariant_arrays_keep_a_narrower_receiver_away_from_array_results() {
        let mut fx = Fixture::java_base();
        let m = fx.member(
            "java.lang.reflect.TypeVariable<?>[] java.lang.reflect.GenericDeclaration.getTypeParameters()",
        );
        for (lang, risk) in [(Language::Java, false), (Language::Scala2, true)] {
            assert_eq!(fx.typing(lang).covariant_array_risk(m), risk, "{lang}");
        }
    }
}
