//! Kotlin's view of Java members: the mapped types whose members it shows with its own
//! signatures, names or nullability (so that a callable reference cannot name them, and no
//! nullable declaration is made around them), and where its null-safety makes a nullable
//! value break a call.

use super::checker::Typing;
use super::sequence::{Position, Task};
use crate::api::{MemberId, MemberKind};
use crate::types::{Prim, Type, TypeArena, TypeId};

/// Classes (with their subtypes) whose members Kotlin shows with its own signatures or
/// names (its mapped types: collections, maps, strings, numbers, throwables, enums), or on
/// which the Kotlin translator rewrites calls (casts to the Java class, properties): no
/// nullable declaration is made around their members.
const KOTLIN_MAPPED_ROOTS: [&str; 13] = [
    "java.lang.CharSequence",
    "java.lang.Number",
    "java.lang.Throwable",
    "java.lang.Enum",
    "java.lang.Boolean",
    "java.lang.Character",
    "java.lang.Comparable",
    "java.lang.Iterable",
    "java.util.Iterator",
    "java.util.Map",
    "java.util.Map.Entry",
    "java.lang.annotation.Annotation",
    "java.lang.Cloneable",
];

/// Java classes Kotlin maps to its own besides [`KOTLIN_MAPPED_ROOTS`] (the boxes, which
/// are its primitives, and the collection interfaces): a reference through one of them names
/// Kotlin's member, not Java's.
const KOTLIN_MAPPED_CLASSES: [&str; 13] = [
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Short",
    "java.lang.Byte",
    "java.lang.Double",
    "java.lang.Float",
    "java.util.Collection",
    "java.util.List",
    "java.util.Set",
    "java.util.ListIterator",
    "java.lang.Class",
    "java.lang.Object",
    "java.lang.String",
];

/// Packages and classes of the JDK whose signatures Kotlin enhances with built-in
/// nullability information (its predefined enhancements: `Optional.ifPresent` takes a
/// non-null `Consumer`), or that it maps: no nullable argument is passed to their members.
const KOTLIN_ENHANCED_PREFIXES: [&str; 7] = [
    "java.util.function.",
    "java.util.stream.",
    "java.util.Optional",
    "java.lang.ref.",
    "java.util.Spliterator",
    "java.util.PrimitiveIterator",
    "java.lang.Iterable",
];

/// Packages whose classes carry no nullability annotations Kotlin reads as errors (libraries
/// annotated with JSpecify make a nullable argument an error, and the API does not record
/// annotations): nullable arguments are passed to members of these packages only.
const KOTLIN_UNANNOTATED_PACKAGES: [&str; 2] = ["java.", "javax."];

/// Methods that the Kotlin translator writes differently on any receiver (properties, a cast
/// to `java.lang.Object`, `!!`): a nullable receiver could be hidden by the rewrite.
const KOTLIN_REWRITTEN_METHODS: [&str; 20] = [
    "equals",
    "hashCode",
    "toString",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
    "getMessage",
    "getLocalizedMessage",
    "getCause",
    "get",
    "put",
    "remove",
    "merge",
    "compute",
    "computeIfPresent",
    "putIfAbsent",
    "replace",
];

/// True for a type variable whose values are never null (`TypeVar::not_null`: a Kotlin one
/// with a non-null bound, a Java one of a JSpecify `@NullMarked` scope), so that a parameter
/// of that type takes no nullable argument.
pub fn is_not_null_var(a: &TypeArena, t: TypeId) -> bool {
    matches!(a.get(t), Type::Var(v) if a.var(*v).not_null)
}

impl Typing<'_> {
    /// The positions of `task`'s member that a nullable local breaks in Kotlin, with the
    /// formal type there.
    pub(crate) fn nullable_breaks(&mut self, task: &Task) -> Vec<(Position, TypeId)> {
        let m = task.member;
        let mem = self.api.member(m).clone();
        let mut out = Vec::new();
        if mem.kind == MemberKind::Method && !mem.is_static {
            if let Some(r) = task.formal.receiver {
                let plain_class = self.api.ts.arena.as_class(r).is_some();
                if plain_class
                    && !KOTLIN_REWRITTEN_METHODS.contains(&mem.name.as_str())
                    && !self.kotlin_retypes_member(task, false)
                {
                    out.push((Position::Receiver, r));
                }
            }
        }
        let static_like =
            mem.kind == MemberKind::Constructor || mem.kind == MemberKind::Method && mem.is_static;
        if static_like && !self.is_overloaded(m) {
            for (i, p) in mem.params.iter().enumerate() {
                if p.vararg {
                    continue;
                }
                if let Some(&f) = task.formal.params.get(i) {
                    // a primitive, or a reference that a nullability annotation makes not-null
                    let breaks = match self.api.ts.arena.get(f) {
                        Type::Prim(q) => *q != Prim::Void,
                        Type::Class { .. } => {
                            mem.java_nullness.not_null_param(i)
                                || is_not_null_var(&self.api.ts.arena, p.ty)
                        }
                        _ => false,
                    };
                    if breaks {
                        out.push((Position::Arg(i), f));
                    }
                }
            }
        }
        out
    }

    /// True when Kotlin may see the member of `task` with its own signature or the Kotlin
    /// translator rewrites its calls: its class, its receiver's class or a class that
    /// declares it is one of Kotlin's mapped types (or a subtype), or with `enhanced` one
    /// whose signatures Kotlin enhances ([`KOTLIN_ENHANCED_PREFIXES`]).
    pub(crate) fn kotlin_retypes_member(&mut self, task: &Task, enhanced: bool) -> bool {
        self.kotlin_retypes(task.member, task.seq.receiver, enhanced)
    }

    /// True when a Kotlin callable reference to member `m` (on a receiver of type
    /// `receiver`) may not name the Java member as Java declares it: its class or the
    /// receiver's is itself one of Kotlin's mapped classes (`String`, a box, `Number`, a
    /// collection interface, ...), or a class that declares the method (its override chain)
    /// is mapped or has signatures Kotlin enhances. Narrower than [`Self::kotlin_retypes`]:
    /// a member declared only by a Java class below a mapped type (`ArrayList.trimToSize`,
    /// `LocalDate.plusDays`) keeps its Java signature in Kotlin.
    pub(crate) fn kotlin_reference_retypes(
        &mut self,
        m: MemberId,
        receiver: Option<TypeId>,
    ) -> bool {
        let mem = self.api.member(m).clone();
        let owner_sym = self.api.class(mem.owner).sym;
        let owner = self.api.ts.self_type(owner_sym);
        let exactly_mapped = |w: &Self, t: TypeId| {
            let t = match *w.api.ts.arena.get(t) {
                Type::Nullable(i) => i,
                _ => t,
            };
            w.api.ts.arena.as_class(t).is_some_and(|(n, _)| {
                let name = w.api.ts.arena.name(n);
                KOTLIN_MAPPED_ROOTS.contains(&name) || KOTLIN_MAPPED_CLASSES.contains(&name)
            })
        };
        if std::iter::once(owner)
            .chain(receiver)
            .any(|t| exactly_mapped(self, t))
        {
            return true;
        }
        if mem.kind != MemberKind::Method || mem.is_static {
            return false;
        }
        // only a declaration in a mapped class (the override chain reaches it from any
        // subclass) or in a package whose signatures Kotlin enhances changes what Kotlin shows
        let enhanced = |w: &Self, t: TypeId| {
            w.api.ts.arena.as_class(t).is_some_and(|(n, _)| {
                let name = w.api.ts.arena.name(n);
                KOTLIN_ENHANCED_PREFIXES.iter().any(|p| name.starts_with(p))
            })
        };
        // the receiver's class may override the member for a mapped interface that the
        // member's own class does not implement (`aDefaultMapEntry::getValue`, declared by
        // `AbstractKeyValue` and, below it, by `Map.Entry`: Kotlin's `value`)
        let receiver_class = receiver.and_then(|r| {
            let r = match *self.api.ts.arena.get(r) {
                Type::Nullable(i) => i,
                _ => r,
            };
            let (sym, _) = self.api.ts.arena.as_class(r)?;
            Some(self.api.ts.self_type(sym))
        });
        for from in std::iter::once(owner).chain(receiver_class.filter(|&r| r != owner)) {
            let Some(declaring) = self.declaring_types(from, &mem.name, mem.params.len(), false)
            else {
                return true;
            };
            if declaring
                .into_iter()
                .any(|t| exactly_mapped(self, t) || enhanced(self, t))
            {
                return true;
            }
        }
        false
    }

    /// The self types of the classes that declare an instance method `name` of `arity`
    /// parameters seen from `owner` ([`Self::declarers`]), the root class left out with
    /// `skip_root`; `None` when one of them lies outside the API (its signatures unknown).
    fn declaring_types(
        &mut self,
        owner: TypeId,
        name: &str,
        arity: usize,
        skip_root: bool,
    ) -> Option<Vec<TypeId>> {
        let mut out = Vec::new();
        for c in self.declarers(owner, name, arity) {
            let root = self
                .api
                .ts
                .arena
                .find_sym(&c)
                .is_some_and(|s| self.api.ts.is_root_class(s));
            if skip_root && root {
                continue;
            }
            let id = self.api.class_by_name(&c)?;
            let sym = self.api.class(id).sym;
            out.push(self.api.ts.self_type(sym));
        }
        Some(out)
    }

    /// [`Self::kotlin_retypes_member`] for member `m` on a receiver of type `receiver`.
    pub(crate) fn kotlin_retypes(
        &mut self,
        m: MemberId,
        receiver: Option<TypeId>,
        enhanced: bool,
    ) -> bool {
        let mem = self.api.member(m).clone();
        let owner_sym = self.api.class(mem.owner).sym;
        let owner = self.api.ts.self_type(owner_sym);
        let mut types = vec![owner];
        types.extend(receiver);
        if mem.kind == MemberKind::Method && !mem.is_static {
            match self.declaring_types(owner, &mem.name, mem.params.len(), true) {
                Some(ts) => types.extend(ts),
                None => return true,
            }
        }
        types.into_iter().any(|t| self.kotlin_mapped(t, enhanced))
    }

    /// True when a nullable argument may be passed to the member of `task` in Kotlin: it is
    /// declared in a package without nullability annotations
    /// ([`KOTLIN_UNANNOTATED_PACKAGES`]) and Kotlin does not enhance or map its signature.
    pub(crate) fn kotlin_accepts_null_arguments(&mut self, task: &Task) -> bool {
        let mem = self.api.member(task.member);
        let owner = self.api.class(mem.owner).name.clone();
        KOTLIN_UNANNOTATED_PACKAGES
            .iter()
            .any(|p| owner.starts_with(p))
            && !self.kotlin_retypes_member(task, true)
    }

    /// True when `t` is a subtype of one of [`KOTLIN_MAPPED_ROOTS`], of `String` or of a
    /// class of [`KOTLIN_ENHANCED_PREFIXES`].
    fn kotlin_mapped(&mut self, t: TypeId, enhanced: bool) -> bool {
        let t = match *self.api.ts.arena.get(t) {
            Type::Nullable(i) => i,
            _ => t,
        };
        let sups = self.api.ts.all_supertypes(t);
        sups.iter().any(|&s| {
            self.api.ts.arena.as_class(s).is_some_and(|(n, _)| {
                let name = self.api.ts.arena.name(n);
                name == "java.lang.String"
                    || KOTLIN_MAPPED_ROOTS.contains(&name)
                    || enhanced && KOTLIN_ENHANCED_PREFIXES.iter().any(|p| name.starts_with(p))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::testing::Fixture;

    #[test]
    fn kotlin_references_name_members_that_only_java_classes_below_mapped_types_declare() {
        let mut fx = Fixture::java_base();
        for (sig, retyped) in [
            // `LocalDate` is a `Comparable`, but Kotlin maps only `compareTo`
            (
                "java.time.LocalDate java.time.LocalDate.plusDays(long)",
                false,
            ),
            ("void java.util.ArrayList.trimToSize()", false),
            // `Collection.size()` is Kotlin's property `size`
            ("int java.util.ArrayList.size()", true),
            // `Optional`'s signatures carry Kotlin's nullability enhancements
            ("T java.util.Optional.get()", true),
        ] {
            let m = fx.member(sig);
            let got = fx
                .typing(Language::Kotlin)
                .kotlin_reference_retypes(m, None);
            assert_eq!(got, retyped, "{sig}");
        }
    }

    #[test]
    fn a_kotlin_reference_is_retyped_where_its_receivers_class_overrides_a_mapped_member() {
        use crate::synth::typing::testing::{class, java_lang, method, with};
        // `Value.getValue()` is Java's; `Entry`, a subclass that also implements
        // `Map.Entry`, overrides it for Kotlin's property `value`
        let mut docs = java_lang();
        docs.push(with(
            class(
                "java.util.Map.Entry",
                "java",
                &[],
                vec![method("getValue", &[], "java.lang.Object")],
            ),
            serde_json::json!({"class_type": 1}),
        ));
        docs.push(class(
            "p.Value",
            "java",
            &[],
            vec![method("getValue", &[], "java.lang.Object")],
        ));
        docs.push(class(
            "p.Entry",
            "java",
            &["p.Value", "java.util.Map.Entry"],
            vec![],
        ));
        docs.push(class("p.Plain", "java", &["p.Value"], vec![]));
        let mut fx = Fixture::of(docs, None);
        let m = fx.member("java.lang.Object p.Value.getValue()");
        let (entry, plain) = (fx.ty("p.Entry"), fx.ty("p.Plain"));
        let mut t = fx.typing(Language::Kotlin);
        assert!(!t.kotlin_reference_retypes(m, None));
        assert!(!t.kotlin_reference_retypes(m, Some(plain)));
        assert!(t.kotlin_reference_retypes(m, Some(entry)));
    }

    #[test]
    fn a_nullable_value_breaks_a_primitive_parameter_and_a_dotted_receiver() {
        let mut fx = Fixture::java_base();
        // an overloaded static method: a nullable argument could pick another overload
        let parse = fx.member("static int java.lang.Integer.parseInt(java.lang.String, int)");
        let spin = fx.member("static void java.lang.Thread.onSpinWait()");
        let binary = fx.member("static java.lang.String java.lang.Integer.toBinaryString(int)");
        // `LocalDate` is a `Comparable`, which Kotlin maps; `CRC32` only a `Checksum`
        let plus = fx.member("java.time.LocalDate java.time.LocalDate.plusDays(long)");
        let value = fx.member("long java.util.zip.CRC32.getValue()");
        let mut t = fx.typing(Language::Kotlin);
        let breaks = |t: &mut Typing<'_>, m: MemberId| {
            let f = t.formal_under(m, crate::types::Subst::new());
            let task = Task {
                member: m,
                seq: crate::synth::typing::TypingSequence {
                    receiver: f.receiver,
                    args: f.params.clone(),
                    result: f.ret,
                },
                formal: f,
                broken: None,
            };
            t.nullable_breaks(&task)
                .into_iter()
                .map(|(p, _)| p)
                .collect::<Vec<_>>()
        };
        assert!(
            breaks(&mut t, parse).is_empty(),
            "an overloaded static method"
        );
        assert!(breaks(&mut t, spin).is_empty(), "no parameter");
        // a primitive parameter of a lone static method
        assert_eq!(breaks(&mut t, binary), [Position::Arg(0)]);
        // the receiver of an instance method, unless Kotlin may see it as its own
        assert!(breaks(&mut t, plus).is_empty(), "a Comparable");
        assert_eq!(breaks(&mut t, value), [Position::Receiver]);
        let v = t.api.ts.arena.new_var("T", "m");
        t.api.ts.arena.var_mut(v).not_null = true;
        let var = t.api.ts.arena.var_type(v);
        assert!(is_not_null_var(&t.api.ts.arena, var));
    }
}
