//! The API model: classes and members with parsed types, loaded from thalia's API JSON.

mod inherit;
pub mod library;
mod load;
mod show;
pub mod source;
mod write;

use std::path::PathBuf;

use rustc_hash::FxHashMap;
use thalia_extractors::{ClassDoc, DeprecationLevel, MethodMetadata, ParamDefaults};
use thalia_translators::ir::ArgLists;

use crate::types::{ParamType, Sym, Syntax, TypeId, TypeSystem, VarId};

pub use inherit::ResolvedMember;
pub use load::{IssueKind, LoadError, LoadIssue, LoadReport, Skipped};
pub use show::{show_class, similar_class_names};
pub use source::fetched_apis_dir;
/// One step of a path into a type (the bytecode extractor's `nullable_return_paths`).
pub use thalia_extractors::TypePathStep;

/// Index of a class in [`Api::classes`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ClassId(pub u32);

/// Index of a member in [`Api::members`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct MemberId(pub u32);

/// The kind of a class (`class_type` in API JSON).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ClassKind {
    /// A concrete class (code 0).
    Class,
    /// An interface (code 1).
    Interface,
    /// An abstract class (code 2).
    Abstract,
    /// An enum (code 3).
    Enum,
    /// A code this version does not know.
    Other(i64),
}

impl ClassKind {
    /// The kind for a `class_type` code.
    pub fn from_code(code: i64) -> Self {
        match code {
            0 => ClassKind::Class,
            1 => ClassKind::Interface,
            2 => ClassKind::Abstract,
            3 => ClassKind::Enum,
            n => ClassKind::Other(n),
        }
    }

    /// True when the class can be instantiated with a constructor call.
    pub fn is_instantiable(self) -> bool {
        matches!(self, ClassKind::Class)
    }
}

/// True when a document says its use is an error (Kotlin's `"deprecation_level": "error"`,
/// written by the metadata extractor for members and classes deprecated with level ERROR).
pub(crate) fn is_error_level(level: Option<DeprecationLevel>) -> bool {
    level == Some(DeprecationLevel::Error)
}

/// The key a context document (see [`Class::is_context`]) carries in memory.
pub const CONTEXT_KEY: &str = "thalia_context";

/// A class, interface, enum, object, or a file of top-level members.
#[derive(Clone, Debug)]
pub struct Class {
    /// Fully-qualified name.
    pub name: String,
    /// Interned name (the class's symbol in the type system).
    pub sym: Sym,
    /// The syntax of its type strings.
    pub syntax: Syntax,
    /// Class, interface, ...
    pub kind: ClassKind,
    /// False for a file of top-level members (Kotlin package facade).
    pub is_class: bool,
    /// Formal type parameters.
    pub type_params: Vec<VarId>,
    /// Parsed `inherits` entries.
    pub inherits: Vec<TypeId>,
    /// Parsed `implements` entries.
    pub implements: Vec<TypeId>,
    /// Enclosing class name.
    pub parent: Option<String>,
    /// A functional (SAM) interface.
    pub functional: bool,
    /// Declared members, in file order.
    pub members: Vec<MemberId>,
    /// The file it was loaded from.
    pub file: PathBuf,
    /// The document as read (keeps unknown fields for writing back); shared, so that a copy
    /// of a class (synthesis copies the ones it works on) does not copy its documents.
    pub doc: std::sync::Arc<ClassDoc>,
}

impl Class {
    /// The direct supertypes: `inherits` then the `implements` entries not already there.
    pub fn supertypes(&self) -> Vec<TypeId> {
        let mut seen: rustc_hash::FxHashSet<TypeId> = self.inherits.iter().copied().collect();
        let mut out = self.inherits.clone();
        for &t in &self.implements {
            if seen.insert(t) {
                out.push(t);
            }
        }
        out
    }

    /// True for a class of a context API (a dependency loaded for its types and
    /// inhabitants): programs use it, but its members are not the members under test.
    pub fn is_context(&self) -> bool {
        self.doc.extra.contains_key(CONTEXT_KEY)
    }

    /// True for a class deprecated with level ERROR (Kotlin): a program cannot name it.
    pub fn is_error_deprecated(&self) -> bool {
        is_error_level(self.doc.kotlin.deprecation_level)
    }

    /// True for a generic class (a type constructor).
    pub fn is_generic(&self) -> bool {
        !self.type_params.is_empty()
    }
}

/// What kind of API member.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MemberKind {
    /// A method or top-level function.
    Method,
    /// A constructor.
    Constructor,
    /// A field or property.
    Field,
}

/// What the nullability annotations Kotlin honours say of a Java member (recorded by the
/// bytecode extractor: `nullable_return`, `nullable_parameters`, `not_null_parameters`, a
/// field's `nullable`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JavaNullness {
    /// The result (a field's type) is nullable for Kotlin.
    pub nullable_ret: bool,
    /// Indices of the parameters that are nullable for Kotlin.
    pub nullable_params: Vec<usize>,
    /// Indices of the parameters that are not-null for Kotlin (a nullable argument is an
    /// error there).
    pub not_null_params: Vec<usize>,
    /// Parts of the result type annotated nullable (`Predicate<@Nullable T>`), each by its
    /// path from the result type.
    pub nullable_ret_paths: Vec<Vec<TypePathStep>>,
    /// Parts of parameter types annotated nullable: (parameter index, path).
    pub nullable_param_paths: Vec<(usize, Vec<TypePathStep>)>,
}

/// `t` with the part at `path` made nullable (`None` when the path does not fit the type).
fn nullable_at(
    a: &mut crate::types::TypeArena,
    t: TypeId,
    path: &[TypePathStep],
) -> Option<TypeId> {
    use crate::types::{Type, Wildcard};
    let ty = a.get(t).clone();
    if let Type::Nullable(inner) = ty {
        let inner = nullable_at(a, inner, path)?;
        return Some(a.nullable(inner));
    }
    let Some((&step, rest)) = path.split_first() else {
        return match ty {
            Type::Prim(_) | Type::Wildcard(_) => None,
            _ => Some(a.nullable(t)),
        };
    };
    match (step, ty) {
        (TypePathStep::Arg(i), Type::Class { name, args }) if i < args.len() => {
            let mut args = args.to_vec();
            args[i] = nullable_at(a, args[i], rest)?;
            Some(a.class(name, &args))
        }
        (TypePathStep::Element, Type::Array(e)) => {
            let e = nullable_at(a, e, rest)?;
            Some(a.array(e))
        }
        (TypePathStep::Bound, Type::Wildcard(Wildcard::Extends(b))) => {
            let b = nullable_at(a, b, rest)?;
            Some(a.wildcard(Wildcard::Extends(b)))
        }
        (TypePathStep::Bound, Type::Wildcard(Wildcard::Super(b))) => {
            let b = nullable_at(a, b, rest)?;
            Some(a.wildcard(Wildcard::Super(b)))
        }
        _ => None,
    }
}

impl JavaNullness {
    /// Reads a method document's `other_metadata`.
    pub fn of_method(meta: Option<&MethodMetadata>) -> JavaNullness {
        let Some(m) = meta else {
            return JavaNullness::default();
        };
        JavaNullness {
            nullable_ret: m.nullable_return == Some(true),
            nullable_params: m.nullable_parameters.clone().unwrap_or_default(),
            not_null_params: m.not_null_parameters.clone().unwrap_or_default(),
            nullable_ret_paths: m.nullable_return_paths.clone().unwrap_or_default(),
            nullable_param_paths: m.nullable_parameter_paths.clone().unwrap_or_default(),
        }
    }

    /// True when parameter `i` is annotated not-null.
    pub fn not_null_param(&self, i: usize) -> bool {
        self.not_null_params.contains(&i)
    }
}

/// What a Kotlin declaration says of its call forms (`other_metadata`'s `is_operator`,
/// `is_infix`, `defaults` and `parameter_names`; a Scala method's view has `defaults` too;
/// empty for other languages' members).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KotlinCallForms {
    /// Declared `operator`: callable as `a + b`, `a[i]`, `b in a`, ...
    pub is_operator: bool,
    /// Declared `infix`: callable as `a name b`.
    pub is_infix: bool,
    /// Indices of the parameters that declare a default value.
    pub defaults: Vec<usize>,
    /// The parameters' names (empty when unknown).
    pub parameter_names: Vec<String>,
}

impl KotlinCallForms {
    /// Reads a method document's `other_metadata`.
    pub fn of_method(meta: Option<&MethodMetadata>) -> KotlinCallForms {
        let Some(m) = meta else {
            return KotlinCallForms::default();
        };
        KotlinCallForms {
            is_operator: m.is_operator == Some(true),
            is_infix: m.is_infix == Some(true),
            // the Dokka reader's one flag per parameter is not read (as before: only
            // indices were)
            defaults: match &m.defaults {
                Some(ParamDefaults::Indices(d)) => d.clone(),
                Some(ParamDefaults::PerParameter(_)) | None => Vec::new(),
            },
            parameter_names: m.parameter_names.clone().unwrap_or_default(),
        }
    }
}

/// A method, constructor or field.
#[derive(Clone, Debug)]
pub struct Member {
    /// Method, constructor or field.
    pub kind: MemberKind,
    /// Simple name.
    pub name: String,
    /// The declaring class.
    pub owner: ClassId,
    /// The member's own type parameters.
    pub type_params: Vec<VarId>,
    /// Parameter types (empty for fields).
    pub params: Vec<ParamType>,
    /// Result type: the return type, the field type, or the class's self type for constructors.
    pub ret: TypeId,
    /// Extension receiver type (Kotlin extension members).
    pub receiver: Option<TypeId>,
    /// Static member (or a top-level function).
    pub is_static: bool,
    /// Java default method.
    pub is_default: bool,
    /// Declared `abstract` (a method of a class; an interface's abstract methods are those
    /// neither default nor static).
    pub is_abstract: bool,
    /// Kotlin `suspend` function.
    pub is_suspend: bool,
    /// Deprecated with level `ERROR` (Kotlin): a candidate of overload resolution whose
    /// call does not compile.
    pub call_is_error: bool,
    /// Nullability annotations of a Java member as Kotlin reads them.
    pub java_nullness: JavaNullness,
    /// A Kotlin member's operator, infix and default-value declarations.
    pub kotlin_forms: KotlinCallForms,
    /// Access modifier as written (`public`, `protected`).
    pub access: Option<String>,
    /// Parsed `throws` entries.
    pub throws: Vec<TypeId>,
    /// Position in the class document's `methods` or `fields` list.
    pub doc_index: usize,
    /// How a Scala method's `params` split into parameter lists, when not into one explicit
    /// list: `params` are then those of every explicit list in order (the later ones taken
    /// from the curried result type), then the implicit (`using`) parameters.
    pub scala_lists: Option<ArgLists>,
}

impl Member {
    /// The types of its signature: the extension receiver, the parameters, the result.
    pub fn signature_types(&self) -> impl Iterator<Item = TypeId> + '_ {
        self.receiver
            .into_iter()
            .chain(self.params.iter().map(|p| p.ty))
            .chain(std::iter::once(self.ret))
    }

    /// The types a call supplies: the extension receiver first, then the parameters.
    pub fn receiver_and_params(&self) -> Vec<TypeId> {
        self.receiver
            .into_iter()
            .chain(self.params.iter().map(|p| p.ty))
            .collect()
    }

    /// True for a polymorphic member (one with its own type parameters).
    pub fn is_polymorphic(&self) -> bool {
        !self.type_params.is_empty()
    }

    /// True when the member needs a receiver expression (an instance member of a class or an
    /// extension member).
    pub fn needs_receiver(&self) -> bool {
        self.receiver.is_some() || (!self.is_static && self.kind != MemberKind::Constructor)
    }
}

/// A loaded API: the type system, classes, members and the load report.
#[derive(Clone, Debug)]
pub struct Api {
    /// Types and the class hierarchy.
    pub ts: TypeSystem,
    /// All classes, in load order.
    pub classes: Vec<Class>,
    /// All members of all classes.
    pub members: Vec<Member>,
    /// Classes referenced (as supertypes or type arguments) but not defined here.
    pub external: Vec<Sym>,
    /// What was loaded, skipped and warned about.
    pub report: LoadReport,
    by_name: FxHashMap<String, ClassId>,
}

impl Api {
    /// The class with a fully-qualified name.
    pub fn class_by_name(&self, name: &str) -> Option<ClassId> {
        self.by_name.get(name).copied()
    }

    /// A class by id.
    pub fn class(&self, id: ClassId) -> &Class {
        &self.classes[id.0 as usize]
    }

    /// A member by id.
    pub fn member(&self, id: MemberId) -> &Member {
        &self.members[id.0 as usize]
    }

    /// The class that declares a member.
    pub fn owner(&self, id: MemberId) -> &Class {
        self.class(self.member(id).owner)
    }

    /// The class defining a class symbol, if it is part of this API.
    pub fn class_by_sym(&self, sym: Sym) -> Option<ClassId> {
        self.class_by_name(self.ts.arena.name(sym))
    }

    /// Gives Java members the types Kotlin sees where nullability annotations say so: an
    /// annotated-nullable result, field or parameter becomes `T?` (the rest stay platform
    /// types). For programs in Kotlin only: Java, Groovy and Scala ignore the annotations.
    /// Returns how many types changed.
    pub fn apply_kotlin_nullness(&mut self) -> usize {
        let mut changed = 0;
        for i in 0..self.members.len() {
            let owner = self.members[i].owner;
            if self.class(owner).syntax != crate::types::Syntax::Java {
                continue;
            }
            let n = self.members[i].java_nullness.clone();
            let is_ref = |a: &crate::types::TypeArena, t: TypeId| {
                !matches!(a.get(t), crate::types::Type::Prim(_))
            };
            if n.nullable_ret && self.members[i].kind != MemberKind::Constructor {
                let r = self.members[i].ret;
                if is_ref(&self.ts.arena, r) {
                    self.members[i].ret = self.ts.arena.nullable(r);
                    changed += 1;
                }
            }
            // nullable parts inside the types (`Predicate<@Nullable T>`); a path that does not
            // fit the type is ignored
            if self.members[i].kind != MemberKind::Constructor {
                for p in &n.nullable_ret_paths {
                    let r = self.members[i].ret;
                    if let Some(t) = nullable_at(&mut self.ts.arena, r, p) {
                        self.members[i].ret = t;
                        changed += 1;
                    }
                }
            }
            for (k, p) in &n.nullable_param_paths {
                let Some(ty) = self.members[i].params.get(*k).map(|p| p.ty) else {
                    continue;
                };
                if let Some(t) = nullable_at(&mut self.ts.arena, ty, p) {
                    self.members[i].params[*k].ty = t;
                    changed += 1;
                }
            }
            for &k in &n.nullable_params {
                // (a variable-arity parameter's annotation is its elements', which Kotlin
                // spreads from a non-null array)
                let Some(p) = self.members[i]
                    .params
                    .get(k)
                    .filter(|p| !p.vararg)
                    .map(|p| p.ty)
                else {
                    continue;
                };
                if is_ref(&self.ts.arena, p) {
                    self.members[i].params[k].ty = self.ts.arena.nullable(p);
                    changed += 1;
                }
            }
        }
        changed
    }

    /// Ids of all members.
    pub fn member_ids(&self) -> impl Iterator<Item = MemberId> {
        (0..self.members.len() as u32).map(MemberId)
    }

    /// Ids of all classes.
    pub fn class_ids(&self) -> impl Iterator<Item = ClassId> {
        (0..self.classes.len() as u32).map(ClassId)
    }

    /// The receiver type of a member: the extension receiver, or the declaring class's self
    /// type for instance members, or `None` for static members and constructors.
    pub fn receiver_type(&mut self, id: MemberId) -> Option<TypeId> {
        let m = self.member(id);
        if let Some(r) = m.receiver {
            return Some(r);
        }
        if !m.needs_receiver() {
            return None;
        }
        let owner = self.class(m.owner);
        if !owner.is_class {
            return None;
        }
        let sym = owner.sym;
        Some(self.ts.self_type(sym))
    }

    /// True for a signature-polymorphic method (JLS 15.12.3): declared in
    /// `java.lang.invoke.MethodHandle` or `VarHandle` with a single `Object...` parameter.
    /// Its argument types and (for `Object`) its result type are taken from the call site.
    pub fn is_signature_polymorphic(&self, id: MemberId) -> bool {
        let m = self.member(id);
        let owner = self.owner(id).name.as_str();
        m.kind == MemberKind::Method
            && matches!(
                owner,
                "java.lang.invoke.MethodHandle" | "java.lang.invoke.VarHandle"
            )
            && m.params.len() == 1
            && m.params[0].vararg
            && matches!(
                self.ts.arena.get(m.params[0].ty),
                crate::types::Type::Array(e)
                    if self.ts.arena.as_class(*e).is_some_and(|(n, _)| self.ts.arena.name(n) == "java.lang.Object")
            )
    }

    /// A readable one-line signature of a member in its class's syntax, e.g.
    /// `static <T> java.util.List<T> java.util.Collections.emptyList()`.
    pub fn signature(&self, id: MemberId) -> String {
        let m = self.member(id);
        let params: Vec<TypeId> = m.params.iter().map(|p| p.ty).collect();
        self.format_signature(id, m.receiver, &params, m.ret)
    }

    /// Formats a member signature from (possibly substituted) component types.
    pub(crate) fn format_signature(
        &self,
        id: MemberId,
        receiver: Option<TypeId>,
        params: &[TypeId],
        ret: TypeId,
    ) -> String {
        use crate::types::{print_param, print_type, print_type_param};
        let m = self.member(id);
        let owner = self.class(m.owner);
        let syn = owner.syntax;
        let a = &self.ts.arena;
        let mut out = String::new();
        if m.is_static && m.kind != MemberKind::Constructor {
            out.push_str("static ");
        }
        if m.is_default {
            out.push_str("default ");
        }
        if m.is_suspend {
            out.push_str("suspend ");
        }
        if !m.type_params.is_empty() {
            let tps: Vec<String> = m
                .type_params
                .iter()
                .map(|&v| print_type_param(a, syn, v))
                .collect();
            out.push('<');
            out.push_str(&tps.join(", "));
            out.push_str("> ");
        }
        match m.kind {
            MemberKind::Constructor => {
                out.push_str("new ");
                out.push_str(&print_type(a, syn, ret));
            }
            MemberKind::Method | MemberKind::Field => {
                out.push_str(&print_type(a, syn, ret));
                out.push(' ');
                if let Some(r) = receiver {
                    out.push_str(&print_type(a, syn, r));
                    out.push('.');
                } else {
                    out.push_str(&owner.name);
                    out.push('.');
                }
                out.push_str(&m.name);
            }
        }
        if m.kind != MemberKind::Field {
            let ps: Vec<String> = params
                .iter()
                .zip(&m.params)
                .map(|(&t, p)| print_param(a, syn, t, p.vararg))
                .collect();
            out.push('(');
            out.push_str(&ps.join(", "));
            out.push(')');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Prim, Type, TypeArena, Wildcard};

    #[test]
    fn a_type_path_makes_that_part_nullable_and_a_misfit_changes_nothing() {
        let mut a = TypeArena::new();
        let string = a.class_named("java.lang.String", &[]);
        let list = a.class_named("java.util.List", &[string]);
        let n_string = a.nullable(string);
        // List<@Nullable String>
        let got = nullable_at(&mut a, list, &[TypePathStep::Arg(0)]);
        let want = a.class_named("java.util.List", &[n_string]);
        assert_eq!(got, Some(want));
        // Map<String, ? extends String[]> with the array's element annotated, inside a
        // nullable result
        let arr = a.array(string);
        let w = a.wildcard(Wildcard::Extends(arr));
        let map = a.class_named("java.util.Map", &[string, w]);
        let n_map = a.nullable(map);
        let path = [
            TypePathStep::Arg(1),
            TypePathStep::Bound,
            TypePathStep::Element,
        ];
        let got = nullable_at(&mut a, n_map, &path).expect("the path fits");
        let n_arr = a.array(n_string);
        let n_w = a.wildcard(Wildcard::Extends(n_arr));
        let want = a.class_named("java.util.Map", &[string, n_w]);
        assert_eq!(got, a.nullable(want));
        // a path past the type's shape, or onto a primitive, is ignored
        assert_eq!(nullable_at(&mut a, list, &[TypePathStep::Arg(1)]), None);
        assert_eq!(nullable_at(&mut a, list, &[TypePathStep::Element]), None);
        let int = a.prim(Prim::Int);
        let ints = a.array(int);
        assert_eq!(nullable_at(&mut a, ints, &[TypePathStep::Element]), None);
        assert!(matches!(a.get(got), Type::Nullable(_)));
    }

    #[test]
    fn type_paths_are_read_from_json() {
        let meta: MethodMetadata = serde_json::from_value(serde_json::json!({
            "nullable_return_paths": [[0], [1, "?", "[]"]],
            "nullable_parameter_paths": [[2, [0]]]
        }))
        .unwrap();
        let n = JavaNullness::of_method(Some(&meta));
        assert_eq!(
            n.nullable_ret_paths,
            vec![
                vec![TypePathStep::Arg(0)],
                vec![
                    TypePathStep::Arg(1),
                    TypePathStep::Bound,
                    TypePathStep::Element
                ]
            ]
        );
        assert_eq!(
            n.nullable_param_paths,
            vec![(2, vec![TypePathStep::Arg(0)])]
        );
        // a step that is no index, `[]` or `?` is a malformed document
        for bad in [
            serde_json::json!({"nullable_return_paths": [["bad"]]}),
            serde_json::json!({"nullable_parameter_paths": [["x", [0]]]}),
        ] {
            assert!(serde_json::from_value::<MethodMetadata>(bad).is_err());
        }
    }

    #[test]
    fn call_forms_read_indices_and_not_dokkas_flags() {
        let read = |v: serde_json::Value| {
            let meta: MethodMetadata = serde_json::from_value(v).unwrap();
            KotlinCallForms::of_method(Some(&meta))
        };
        let forms = read(serde_json::json!({
            "is_operator": true, "is_infix": false, "defaults": [1, 2],
            "parameter_names": ["a", "b", "c"]
        }));
        assert!(forms.is_operator && !forms.is_infix);
        assert_eq!(forms.defaults, [1, 2]);
        assert_eq!(forms.parameter_names, ["a", "b", "c"]);
        assert!(read(serde_json::json!({"defaults": [false, true]}))
            .defaults
            .is_empty());
        assert_eq!(KotlinCallForms::of_method(None), KotlinCallForms::default());
    }
}
