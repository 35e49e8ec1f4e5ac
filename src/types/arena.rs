//! The hash-consed type arena: every distinct type gets one small integer id.

use std::fmt;

use rustc_hash::FxHashMap;

/// Id of an interned type; equal ids mean structurally equal types.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

impl fmt::Debug for TypeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

/// Id of a declared type variable (a type parameter of a class or a member).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct VarId(pub u32);

/// Id of an interned name (class names, type-variable names).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Sym(pub u32);

/// Primitive types of the JVM languages (Java's view; Kotlin and Scala name them as classes).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Prim {
    /// `boolean`.
    Boolean,
    /// `byte`.
    Byte,
    /// `char`.
    Char,
    /// `short`.
    Short,
    /// `int`.
    Int,
    /// `long`.
    Long,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `void`.
    Void,
}

impl Prim {
    /// Every primitive, in a fixed order.
    pub const ALL: [Prim; 9] = [
        Prim::Boolean,
        Prim::Byte,
        Prim::Char,
        Prim::Short,
        Prim::Int,
        Prim::Long,
        Prim::Float,
        Prim::Double,
        Prim::Void,
    ];

    /// The Java keyword of this primitive.
    pub fn keyword(self) -> &'static str {
        match self {
            Prim::Boolean => "boolean",
            Prim::Byte => "byte",
            Prim::Char => "char",
            Prim::Short => "short",
            Prim::Int => "int",
            Prim::Long => "long",
            Prim::Float => "float",
            Prim::Double => "double",
            Prim::Void => "void",
        }
    }

    /// The primitive named by a Java keyword.
    pub fn from_keyword(s: &str) -> Option<Prim> {
        Prim::ALL.into_iter().find(|p| p.keyword() == s)
    }
}

/// Declaration-site (Kotlin `out`/`in`, Scala `+`/`-`) or use-site variance.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub enum Variance {
    /// No variance: `List<T>`.
    #[default]
    Invariant,
    /// `out T`, `+T`, `? extends T`.
    Covariant,
    /// `in T`, `-T`, `? super T`.
    Contravariant,
}

/// A wildcard type argument: `? extends T` / `out T`, `? super T` / `in T`, `?` / `*`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Wildcard {
    /// `? extends T` / `out T` / `_ <: T`.
    Extends(TypeId),
    /// `? super T` / `in T` / `_ >: T`.
    Super(TypeId),
    /// `?` / `*` / `_`.
    Star,
}

/// One node of the type language.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Type {
    /// A JVM primitive (`int`, `boolean`, `void`, ...).
    Prim(Prim),
    /// A class type, possibly with type arguments (a type instance when it has them).
    Class {
        /// The class's name.
        name: Sym,
        /// Its type arguments (empty for a non-generic class or a raw type).
        args: Box<[TypeId]>,
    },
    /// A type variable.
    Var(VarId),
    /// A wildcard; only meaningful as a type argument.
    Wildcard(Wildcard),
    /// A Java array `T[]`.
    Array(TypeId),
    /// A Kotlin nullable type `T?`.
    Nullable(TypeId),
    /// A function type `(A, B) -> R`, with an optional Kotlin receiver `X.(A) -> R`.
    Function {
        /// The Kotlin receiver type of `X.(A) -> R`.
        receiver: Option<TypeId>,
        /// Parameter types.
        params: Box<[TypeId]>,
        /// Result type.
        ret: TypeId,
        /// A Kotlin `suspend` function type.
        suspend: bool,
    },
    /// A Scala by-name parameter type `=> T`.
    ByName(TypeId),
    /// A higher-kinded type variable applied to type arguments (Scala `CC[B]` of a `CC[_]`
    /// parameter); substituting a type constructor for the variable makes it a class type.
    Applied {
        /// The higher-kinded variable.
        head: VarId,
        /// Its type arguments.
        args: Box<[TypeId]>,
    },
    /// The top type (supertype of every type).
    Top,
    /// The bottom type (subtype of every type).
    Bottom,
}

/// A declared type variable with its bounds.
#[derive(Clone, Debug)]
pub struct TypeVar {
    /// The variable's source name (`T`, `E`).
    pub name: Sym,
    /// Human-readable declaration site (`java.util.List`, `java.util.Collections.sort`).
    pub owner: Sym,
    /// Upper bounds; several form an intersection (`T extends A & B`); empty means the root.
    pub upper: Vec<TypeId>,
    /// Lower bound (Scala `B >: A`).
    pub lower: Option<TypeId>,
    /// Declaration-site variance (Kotlin `out`/`in`, Scala `+`/`-`).
    pub variance: Variance,
    /// Kotlin `reified`.
    pub reified: bool,
    /// Scala higher-kinded parameter (`CC[_]`): a type constructor, not a type.
    pub higher_kinded: bool,
    /// For a higher-kinded parameter, the declared variances of its own parameters (`[+_]`
    /// gives one covariant); empty when its shape is not plain (bounded or higher-kinded own
    /// parameters, or a bound on the constructor), which synthesis then never draws alone.
    pub constructor_params: Vec<Variance>,
    /// Its values are never null: a Kotlin type parameter with a non-null bound (`T : Any`,
    /// `T : Comparable<T>`), which no nullable type instantiates (Java's `Object` bound
    /// admits null as a platform type, so the bounds alone do not say it).
    pub not_null: bool,
}

/// Deepest type any operation of the arena builds: a substitution whose result would be
/// deeper yields the top type instead (see [`TypeArena::subst`]). Parsed types are bounded
/// far below this by [`crate::types::MAX_TYPE_DEPTH`]; the margin covers what synthesis
/// stacks on them (substitution chains along inhabitant paths and supertypes), so that no
/// recursive traversal of a type can be driven deeper than this by input.
pub const MAX_DERIVED_TYPE_DEPTH: usize = 1024;

/// The arena that interns types, names and type variables.
#[derive(Clone, Default)]
pub struct TypeArena {
    types: Vec<Type>,
    /// Nesting depth of each interned type (same index as `types`).
    depths: Vec<u32>,
    map: FxHashMap<Type, TypeId>,
    vars: Vec<TypeVar>,
    syms: Vec<Box<str>>,
    sym_map: FxHashMap<Box<str>, Sym>,
    /// The class type without arguments of each symbol interned so far (by symbol index):
    /// synthesis asks for these all the time, and a lookup in `map` compares whole types.
    plain: Vec<Option<TypeId>>,
}

impl fmt::Debug for TypeArena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypeArena")
            .field("types", &self.types.len())
            .field("vars", &self.vars.len())
            .field("syms", &self.syms.len())
            .finish()
    }
}

impl TypeArena {
    /// A new arena with the primitives, top and bottom pre-interned.
    pub fn new() -> Self {
        let mut a = TypeArena::default();
        for p in Prim::ALL {
            a.intern(Type::Prim(p));
        }
        a.intern(Type::Top);
        a.intern(Type::Bottom);
        a
    }

    /// Interns a type, returning the id shared by all equal types.
    pub fn intern(&mut self, t: Type) -> TypeId {
        if let Some(&id) = self.map.get(&t) {
            return id;
        }
        let id = TypeId(self.types.len() as u32);
        let mut d = 0;
        self.for_each_child_of(&t, |c| d = d.max(self.depths[c.0 as usize] + 1));
        self.depths.push(d);
        self.types.push(t.clone());
        self.map.insert(t, id);
        id
    }

    /// The id of a type if it was interned already.
    pub fn lookup(&self, t: &Type) -> Option<TypeId> {
        self.map.get(t).copied()
    }

    /// The type behind an id.
    #[inline]
    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id.0 as usize]
    }

    /// Number of interned types.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// True when no type is interned (never, after `new`).
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// Interns a name.
    pub fn sym(&mut self, s: &str) -> Sym {
        if let Some(&id) = self.sym_map.get(s) {
            return id;
        }
        let id = Sym(self.syms.len() as u32);
        self.syms.push(s.into());
        self.sym_map.insert(s.into(), id);
        id
    }

    /// The symbol of a name if it was interned already.
    pub fn find_sym(&self, s: &str) -> Option<Sym> {
        self.sym_map.get(s).copied()
    }

    /// The text of a name.
    #[inline]
    pub fn name(&self, s: Sym) -> &str {
        &self.syms[s.0 as usize]
    }

    /// Declares a fresh type variable (bounds may be set later, which allows recursive bounds).
    pub fn new_var(&mut self, name: &str, owner: &str) -> VarId {
        let name = self.sym(name);
        let owner = self.sym(owner);
        let id = VarId(self.vars.len() as u32);
        self.vars.push(TypeVar {
            name,
            owner,
            upper: Vec::new(),
            lower: None,
            variance: Variance::Invariant,
            reified: false,
            higher_kinded: false,
            constructor_params: Vec::new(),
            not_null: false,
        });
        id
    }

    /// The declaration of a type variable.
    #[inline]
    pub fn var(&self, v: VarId) -> &TypeVar {
        &self.vars[v.0 as usize]
    }

    /// Mutable access to a type variable's declaration (to set bounds).
    pub fn var_mut(&mut self, v: VarId) -> &mut TypeVar {
        &mut self.vars[v.0 as usize]
    }

    /// Number of declared type variables.
    pub fn var_count(&self) -> usize {
        self.vars.len()
    }

    /// The source name of a type variable.
    pub fn var_name(&self, v: VarId) -> &str {
        self.name(self.var(v).name)
    }

    // ---- constructors -------------------------------------------------------------------

    /// A primitive type.
    pub fn prim(&mut self, p: Prim) -> TypeId {
        self.intern(Type::Prim(p))
    }

    /// The top type.
    pub fn top(&mut self) -> TypeId {
        self.intern(Type::Top)
    }

    /// The bottom type.
    pub fn bottom(&mut self) -> TypeId {
        self.intern(Type::Bottom)
    }

    /// A class type `name<args>`.
    pub fn class(&mut self, name: Sym, args: &[TypeId]) -> TypeId {
        if !args.is_empty() {
            return self.intern(Type::Class {
                name,
                args: args.into(),
            });
        }
        let i = name.0 as usize;
        if let Some(Some(id)) = self.plain.get(i) {
            return *id;
        }
        let id = self.intern(Type::Class {
            name,
            args: Box::new([]),
        });
        if self.plain.len() <= i {
            self.plain.resize(i + 1, None);
        }
        self.plain[i] = Some(id);
        id
    }

    /// A class type named by a string.
    pub fn class_named(&mut self, name: &str, args: &[TypeId]) -> TypeId {
        let s = self.sym(name);
        self.class(s, args)
    }

    /// A higher-kinded variable applied to arguments (`CC[B]`).
    pub fn applied(&mut self, head: VarId, args: &[TypeId]) -> TypeId {
        self.intern(Type::Applied {
            head,
            args: args.into(),
        })
    }

    /// A type-variable type.
    pub fn var_type(&mut self, v: VarId) -> TypeId {
        self.intern(Type::Var(v))
    }

    /// An array type.
    pub fn array(&mut self, elem: TypeId) -> TypeId {
        self.intern(Type::Array(elem))
    }

    /// A nullable type (idempotent: `T??` is `T?`).
    pub fn nullable(&mut self, t: TypeId) -> TypeId {
        if matches!(self.get(t), Type::Nullable(_)) {
            return t;
        }
        self.intern(Type::Nullable(t))
    }

    /// A wildcard.
    pub fn wildcard(&mut self, w: Wildcard) -> TypeId {
        self.intern(Type::Wildcard(w))
    }

    /// A function type.
    pub fn function(
        &mut self,
        receiver: Option<TypeId>,
        params: &[TypeId],
        ret: TypeId,
        suspend: bool,
    ) -> TypeId {
        self.intern(Type::Function {
            receiver,
            params: params.into(),
            ret,
            suspend,
        })
    }

    // ---- queries ------------------------------------------------------------------------

    /// The class name and arguments of a class type.
    pub fn as_class(&self, t: TypeId) -> Option<(Sym, &[TypeId])> {
        match self.get(t) {
            Type::Class { name, args } => Some((*name, args)),
            _ => None,
        }
    }

    /// The variable of a type-variable type.
    pub fn as_var(&self, t: TypeId) -> Option<VarId> {
        match self.get(t) {
            Type::Var(v) => Some(*v),
            _ => None,
        }
    }

    /// True for primitives other than `void`.
    pub fn is_primitive(&self, t: TypeId) -> bool {
        matches!(self.get(t), Type::Prim(p) if *p != Prim::Void)
    }

    /// Calls `f` on every direct component of a type.
    pub fn for_each_child(&self, t: TypeId, f: impl FnMut(TypeId)) {
        self.for_each_child_of(self.get(t), f)
    }

    /// Calls `f` on every direct component of a type node.
    fn for_each_child_of(&self, t: &Type, mut f: impl FnMut(TypeId)) {
        match t {
            Type::Class { args, .. } | Type::Applied { args, .. } => {
                args.iter().for_each(|&a| f(a))
            }
            Type::Wildcard(Wildcard::Extends(b) | Wildcard::Super(b)) => f(*b),
            Type::Array(e) | Type::Nullable(e) | Type::ByName(e) => f(*e),
            Type::Function {
                receiver,
                params,
                ret,
                ..
            } => {
                if let Some(r) = receiver {
                    f(*r);
                }
                params.iter().for_each(|&p| f(p));
                f(*ret);
            }
            Type::Prim(_) | Type::Var(_) | Type::Wildcard(Wildcard::Star) | Type::Top => {}
            Type::Bottom => {}
        }
    }

    /// The type variables occurring in a type, in order of first occurrence.
    pub fn free_vars(&self, t: TypeId) -> Vec<VarId> {
        let mut out = Vec::new();
        self.collect_vars(t, &mut out);
        out
    }

    /// Appends the type variables of `t` not yet in `out`.
    pub fn collect_vars(&self, t: TypeId, out: &mut Vec<VarId>) {
        match self.get(t) {
            Type::Var(v) => {
                if !out.contains(v) {
                    out.push(*v);
                }
                return;
            }
            Type::Applied { head, .. } if !out.contains(head) => out.push(*head),
            _ => {}
        }
        self.for_each_child(t, |c| self.collect_vars(c, out));
    }

    /// True when the type mentions no type variable.
    pub fn is_ground(&self, t: TypeId) -> bool {
        match self.get(t) {
            Type::Var(_) | Type::Applied { .. } => false,
            _ => {
                let mut ground = true;
                self.for_each_child(t, |c| ground &= self.is_ground(c));
                ground
            }
        }
    }

    /// Nesting depth of a type: 0 for atoms, 1 + max over type arguments/components
    /// (recorded when the type was interned, so constant time).
    #[inline]
    pub fn depth(&self, t: TypeId) -> usize {
        self.depths[t.0 as usize] as usize
    }

    /// Number of array dimensions of a type (`int[][]` has 2; a non-array 0).
    pub fn array_dims(&self, mut t: TypeId) -> usize {
        let mut n = 0;
        while let Type::Array(e) = self.get(t) {
            n += 1;
            t = *e;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_shares_ids() {
        let mut a = TypeArena::new();
        let s = a.class_named("java.lang.String", &[]);
        let l1 = a.class_named("java.util.List", &[s]);
        let l2 = a.class_named("java.util.List", &[s]);
        assert_eq!(l1, l2);
        let o = a.class_named("java.lang.Object", &[]);
        let l3 = a.class_named("java.util.List", &[o]);
        assert_ne!(l1, l3);
        assert_eq!(a.prim(Prim::Int), a.prim(Prim::Int));
    }

    #[test]
    fn depth_is_recorded_at_interning() {
        let mut a = TypeArena::new();
        let s = a.class_named("java.lang.String", &[]);
        assert_eq!(a.depth(s), 0);
        let mut t = s;
        for k in 1..=10_000 {
            t = a.array(t);
            assert_eq!(a.depth(t), k);
        }
        assert_eq!(a.array_dims(t), 10_000);
        let l = a.class_named("java.util.Map", &[s, t]);
        assert_eq!(a.depth(l), 10_001);
    }

    #[test]
    fn vars_are_distinct_per_declaration() {
        let mut a = TypeArena::new();
        let t1 = a.new_var("T", "A");
        let t2 = a.new_var("T", "B");
        assert_ne!(a.var_type(t1), a.var_type(t2));
        assert_eq!(a.var_name(t1), a.var_name(t2));
    }
}
