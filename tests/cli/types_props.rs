//! Property tests of the type language (`thalia::types`): hash-consing, printing/parsing round
//! trips in the three syntaxes, reflexivity and transitivity of subtyping over a small class
//! hierarchy, unification, substitution validity/subsumption, and decomposition.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

use thalia::types::{
    parse_type, print_type, subsumes, ClassSig, Prim, Subst, Syntax, Type, TypeArena, TypeId,
    TypeSystem, UnifyMode, VarId, Variance, Wildcard,
};

// =============================================================================================
// Free-form type trees (interning and print/parse round trips)
// =============================================================================================

/// A type as a plain Rust tree, mirroring `thalia::types::Type`. Wildcards only occur as class
/// arguments (`Arg`).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tree {
    Prim(Prim),
    Class(&'static str, Vec<Arg>),
    /// Index into the variable pool / scope.
    Var(usize),
    Array(Box<Tree>),
    Nullable(Box<Tree>),
    Function {
        receiver: Option<Box<Tree>>,
        params: Vec<Tree>,
        ret: Box<Tree>,
        suspend: bool,
    },
    ByName(Box<Tree>),
    Top,
    Bottom,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Arg {
    Ty(Tree),
    Extends(Tree),
    Super(Tree),
    Star,
}

/// Default case count; failures are not persisted to a regressions file.
fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn bx(t: Tree) -> Box<Tree> {
    Box::new(t)
}

/// Interns a tree node by node with `TypeArena::intern` (no normalisation at all).
fn intern_raw(a: &mut TypeArena, vars: &[VarId], t: &Tree) -> TypeId {
    let ty = match t {
        Tree::Prim(p) => Type::Prim(*p),
        Tree::Class(n, args) => {
            let args: Vec<TypeId> = args.iter().map(|x| intern_arg_raw(a, vars, x)).collect();
            Type::Class {
                name: a.sym(n),
                args: args.into(),
            }
        }
        Tree::Var(i) => Type::Var(vars[*i]),
        Tree::Array(e) => Type::Array(intern_raw(a, vars, e)),
        Tree::Nullable(e) => Type::Nullable(intern_raw(a, vars, e)),
        Tree::Function {
            receiver,
            params,
            ret,
            suspend,
        } => {
            let receiver = receiver.as_ref().map(|r| intern_raw(a, vars, r));
            let params: Vec<TypeId> = params.iter().map(|p| intern_raw(a, vars, p)).collect();
            Type::Function {
                receiver,
                params: params.into(),
                ret: intern_raw(a, vars, ret),
                suspend: *suspend,
            }
        }
        Tree::ByName(e) => Type::ByName(intern_raw(a, vars, e)),
        Tree::Top => Type::Top,
        Tree::Bottom => Type::Bottom,
    };
    a.intern(ty)
}

fn intern_arg_raw(a: &mut TypeArena, vars: &[VarId], x: &Arg) -> TypeId {
    let w = match x {
        Arg::Ty(t) => return intern_raw(a, vars, t),
        Arg::Extends(t) => Wildcard::Extends(intern_raw(a, vars, t)),
        Arg::Super(t) => Wildcard::Super(intern_raw(a, vars, t)),
        Arg::Star => Wildcard::Star,
    };
    a.intern(Type::Wildcard(w))
}

/// Builds a tree with the arena's public constructors (`class_named`, `nullable`, ...).
fn build(a: &mut TypeArena, vars: &[VarId], t: &Tree) -> TypeId {
    match t {
        Tree::Prim(p) => a.prim(*p),
        Tree::Class(n, args) => {
            let args: Vec<TypeId> = args.iter().map(|x| build_arg(a, vars, x)).collect();
            a.class_named(n, &args)
        }
        Tree::Var(i) => a.var_type(vars[*i]),
        Tree::Array(e) => {
            let e = build(a, vars, e);
            a.array(e)
        }
        Tree::Nullable(e) => {
            let e = build(a, vars, e);
            a.nullable(e)
        }
        Tree::Function {
            receiver,
            params,
            ret,
            suspend,
        } => {
            let receiver = receiver.as_ref().map(|r| build(a, vars, r));
            let params: Vec<TypeId> = params.iter().map(|p| build(a, vars, p)).collect();
            let ret = build(a, vars, ret);
            a.function(receiver, &params, ret, *suspend)
        }
        Tree::ByName(e) => {
            let e = build(a, vars, e);
            a.intern(Type::ByName(e))
        }
        Tree::Top => a.top(),
        Tree::Bottom => a.bottom(),
    }
}

fn build_arg(a: &mut TypeArena, vars: &[VarId], x: &Arg) -> TypeId {
    let w = match x {
        Arg::Ty(t) => return build(a, vars, t),
        Arg::Extends(t) => Wildcard::Extends(build(a, vars, t)),
        Arg::Super(t) => Wildcard::Super(build(a, vars, t)),
        Arg::Star => Wildcard::Star,
    };
    a.wildcard(w)
}

/// Reads an interned type back into a tree (names must come from `names`).
fn unintern(a: &TypeArena, vars: &[VarId], names: &[&'static str], id: TypeId) -> Tree {
    let ty = |x: TypeId| unintern(a, vars, names, x);
    match a.get(id).clone() {
        Type::Prim(p) => Tree::Prim(p),
        Type::Class { name, args } => {
            let n = names
                .iter()
                .copied()
                .find(|n| *n == a.name(name))
                .expect("known class name");
            let args = args
                .iter()
                .map(|&x| match *a.get(x) {
                    Type::Wildcard(Wildcard::Extends(b)) => Arg::Extends(ty(b)),
                    Type::Wildcard(Wildcard::Super(b)) => Arg::Super(ty(b)),
                    Type::Wildcard(Wildcard::Star) => Arg::Star,
                    _ => Arg::Ty(ty(x)),
                })
                .collect();
            Tree::Class(n, args)
        }
        Type::Var(v) => Tree::Var(vars.iter().position(|&x| x == v).expect("pool var")),
        Type::Wildcard(_) => panic!("wildcard outside a class argument"),
        Type::Array(e) => Tree::Array(bx(ty(e))),
        Type::Nullable(e) => Tree::Nullable(bx(ty(e))),
        Type::Function {
            receiver,
            params,
            ret,
            suspend,
        } => Tree::Function {
            receiver: receiver.map(|r| bx(ty(r))),
            params: params.iter().map(|&p| ty(p)).collect(),
            ret: bx(ty(ret)),
            suspend,
        },
        Type::ByName(e) => Tree::ByName(bx(ty(e))),
        // (higher-kinded applications are covered by `types::subst`'s unit tests)
        Type::Applied { .. } => panic!("the generator builds no applied variable"),
        Type::Top => Tree::Top,
        Type::Bottom => Tree::Bottom,
    }
}

fn wild_args(inner: BoxedStrategy<Tree>) -> BoxedStrategy<Arg> {
    prop_oneof![
        4 => inner.clone().prop_map(Arg::Ty),
        1 => inner.clone().prop_map(Arg::Extends),
        1 => inner.prop_map(Arg::Super),
        1 => Just(Arg::Star),
    ]
    .boxed()
}

// ---- interning -------------------------------------------------------------------------------

/// Small pools so that independently drawn trees are often equal.
const INTERN_NAMES: [&str; 3] = ["java.util.List", "a.b.C", "Foo"];
/// Two variables share the name `T` but are distinct declarations.
const INTERN_VARS: [(&str, &str); 3] = [("T", "A"), ("T", "B"), ("U", "A")];

fn intern_vars(a: &mut TypeArena) -> Vec<VarId> {
    INTERN_VARS.iter().map(|(n, o)| a.new_var(n, o)).collect()
}

fn any_tree(depth: u32) -> BoxedStrategy<Tree> {
    let leaf = prop_oneof![
        select(Prim::ALL.to_vec()).prop_map(Tree::Prim),
        select(INTERN_NAMES.to_vec()).prop_map(|n| Tree::Class(n, vec![])),
        (0..INTERN_VARS.len()).prop_map(Tree::Var),
        Just(Tree::Top),
        Just(Tree::Bottom),
    ];
    leaf.prop_recursive(depth, 24, 3, |inner| {
        let arg = wild_args(inner.clone());
        prop_oneof![
            3 => (select(INTERN_NAMES.to_vec()), vec(arg, 0..=2))
                .prop_map(|(n, a)| Tree::Class(n, a)),
            1 => inner.clone().prop_map(|t| Tree::Array(bx(t))),
            1 => inner.clone().prop_map(|t| Tree::Nullable(bx(t))),
            1 => inner.clone().prop_map(|t| Tree::ByName(bx(t))),
            1 => (
                option::of(inner.clone()),
                vec(inner.clone(), 0..=2),
                inner,
                any::<bool>()
            )
                .prop_map(|(r, p, ret, suspend)| Tree::Function {
                    receiver: r.map(bx),
                    params: p,
                    ret: bx(ret),
                    suspend,
                }),
        ]
    })
    .boxed()
}

/// Pairs of trees that are equal, independent, or drawn from a tiny space (often equal).
fn tree_pair() -> impl Strategy<Value = (Tree, Tree)> {
    prop_oneof![
        any_tree(3).prop_map(|t| (t.clone(), t)),
        (any_tree(3), any_tree(3)),
        (any_tree(1), any_tree(1)),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn interning_ids_equal_iff_trees_equal((t1, t2) in tree_pair()) {
        let mut a = TypeArena::new();
        let vars = intern_vars(&mut a);
        let id1 = intern_raw(&mut a, &vars, &t1);
        let id2 = intern_raw(&mut a, &vars, &t2);
        prop_assert_eq!(id1 == id2, t1 == t2, "{:?} / {:?}", id1, id2);
        // interning again is stable and reading back gives the tree
        prop_assert_eq!(intern_raw(&mut a, &vars, &t1), id1);
        prop_assert_eq!(&unintern(&a, &vars, &INTERN_NAMES, id1), &t1);
        prop_assert_eq!(&unintern(&a, &vars, &INTERN_NAMES, id2), &t2);
    }

    #[test]
    fn interning_many_trees_in_one_arena(ts in vec(any_tree(2), 2..10)) {
        let mut a = TypeArena::new();
        let vars = intern_vars(&mut a);
        let ids: Vec<TypeId> = ts.iter().map(|t| intern_raw(&mut a, &vars, t)).collect();
        for i in 0..ts.len() {
            for j in 0..ts.len() {
                prop_assert_eq!(ids[i] == ids[j], ts[i] == ts[j], "{} vs {}", i, j);
            }
            prop_assert_eq!(a.lookup(a.get(ids[i])), Some(ids[i]));
        }
    }

    /// The public constructors agree with raw interning, except that `nullable` is idempotent.
    #[test]
    fn constructors_agree_with_raw_interning(t in any_tree(3)) {
        fn has_double_nullable(t: &Tree) -> bool {
            match t {
                Tree::Nullable(e) => matches!(**e, Tree::Nullable(_)) || has_double_nullable(e),
                Tree::Class(_, args) => args.iter().any(|x| match x {
                    Arg::Ty(t) | Arg::Extends(t) | Arg::Super(t) => has_double_nullable(t),
                    Arg::Star => false,
                }),
                Tree::Array(e) | Tree::ByName(e) => has_double_nullable(e),
                Tree::Function { receiver, params, ret, .. } => {
                    receiver.as_deref().is_some_and(has_double_nullable)
                        || params.iter().any(has_double_nullable)
                        || has_double_nullable(ret)
                }
                _ => false,
            }
        }
        let mut a = TypeArena::new();
        let vars = intern_vars(&mut a);
        let raw = intern_raw(&mut a, &vars, &t);
        let built = build(&mut a, &vars, &t);
        prop_assert_eq!(raw == built, !has_double_nullable(&t));
        let n = a.nullable(built);
        prop_assert_eq!(a.nullable(n), n);
    }
}

// ---- print / parse round trips -----------------------------------------------------------------

const ROUND_TRIP_VARS: [&str; 3] = ["T", "U", "Elem"];

fn scope(a: &mut TypeArena) -> Vec<VarId> {
    ROUND_TRIP_VARS
        .iter()
        .map(|n| a.new_var(n, "rt.Owner"))
        .collect()
}

const JAVA_NAMES: [&str; 5] = [
    "java.util.List",
    "java.util.Map",
    "a.b.C",
    "Foo",
    "java.lang.String",
];
const KOTLIN_NAMES: [&str; 5] = [
    "kotlin.collections.List",
    "kotlin.collections.Map",
    "a.b.C",
    "Foo",
    "kotlin.String",
];
const SCALA_NAMES: [&str; 5] = [
    "scala.collection.immutable.List",
    "scala.Option",
    "a.b.C",
    "Foo",
    "scala.Predef.String",
];
const TUPLE_NAMES: [&str; 2] = ["scala.Tuple2", "scala.Tuple3"];
const ALL_NAMES: [&str; 13] = [
    "java.util.List",
    "java.util.Map",
    "a.b.C",
    "Foo",
    "java.lang.String",
    "kotlin.collections.List",
    "kotlin.collections.Map",
    "kotlin.String",
    "scala.collection.immutable.List",
    "scala.Option",
    "scala.Predef.String",
    "scala.Tuple2",
    "scala.Tuple3",
];

fn var_leaf() -> BoxedStrategy<Tree> {
    (0..ROUND_TRIP_VARS.len()).prop_map(Tree::Var).boxed()
}

/// Java: primitives (`void` only at the top), classes with (wildcard) arguments, vars, arrays.
fn java_type() -> BoxedStrategy<Tree> {
    let non_void: Vec<Prim> = Prim::ALL.into_iter().filter(|p| *p != Prim::Void).collect();
    let leaf = prop_oneof![
        select(non_void).prop_map(Tree::Prim),
        select(JAVA_NAMES.to_vec()).prop_map(|n| Tree::Class(n, vec![])),
        var_leaf(),
    ];
    let t = leaf.prop_recursive(4, 32, 3, |inner| {
        prop_oneof![
            3 => (select(JAVA_NAMES.to_vec()), vec(wild_args(inner.clone()), 1..=3))
                .prop_map(|(n, a)| Tree::Class(n, a)),
            1 => inner.prop_map(|t| Tree::Array(bx(t))),
        ]
    });
    prop_oneof![9 => t, 1 => Just(Tree::Prim(Prim::Void))].boxed()
}

/// Kotlin: classes with `out`/`in`/`*` arguments, vars, nullable types, function types with
/// and without receiver, `suspend`.
fn kotlin_type() -> BoxedStrategy<Tree> {
    let leaf = prop_oneof![
        select(KOTLIN_NAMES.to_vec()).prop_map(|n| Tree::Class(n, vec![])),
        var_leaf(),
    ];
    leaf.prop_recursive(4, 32, 3, |inner| {
        prop_oneof![
            3 => (select(KOTLIN_NAMES.to_vec()), vec(wild_args(inner.clone()), 1..=3))
                .prop_map(|(n, a)| Tree::Class(n, a)),
            2 => inner.clone().prop_map(|t| Tree::Nullable(bx(t))),
            2 => (
                option::of(inner.clone()),
                vec(inner.clone(), 0..=2),
                inner,
                any::<bool>()
            )
                .prop_map(|(r, p, ret, suspend)| Tree::Function {
                    receiver: r.map(bx),
                    params: p,
                    ret: bx(ret),
                    suspend,
                }),
        ]
    })
    .boxed()
}

/// Scala: classes with `_ <: T`/`_ >: T`/`_` arguments, vars, tuples, function types; by-name
/// types only at the top or as function parameters.
fn scala_inner() -> BoxedStrategy<Tree> {
    let leaf = prop_oneof![
        select(SCALA_NAMES.to_vec()).prop_map(|n| Tree::Class(n, vec![])),
        var_leaf(),
    ];
    leaf.prop_recursive(4, 32, 3, |inner| {
        let param = prop_oneof![
            3 => inner.clone(),
            1 => inner.clone().prop_map(|t| Tree::ByName(bx(t))),
        ];
        prop_oneof![
            3 => (select(SCALA_NAMES.to_vec()), vec(wild_args(inner.clone()), 1..=3))
                .prop_map(|(n, a)| Tree::Class(n, a)),
            1 => vec(inner.clone(), 2..=3).prop_map(|ts| {
                let name = TUPLE_NAMES[ts.len() - 2];
                Tree::Class(name, ts.into_iter().map(Arg::Ty).collect())
            }),
            2 => (vec(param, 0..=3), inner).prop_map(|(p, ret)| Tree::Function {
                receiver: None,
                params: p,
                ret: bx(ret),
                suspend: false,
            }),
        ]
    })
    .boxed()
}

fn scala_type() -> BoxedStrategy<Tree> {
    prop_oneof![
        5 => scala_inner(),
        1 => scala_inner().prop_map(|t| Tree::ByName(bx(t))),
    ]
    .boxed()
}

fn round_trip(syntax: Syntax, t: &Tree) -> Result<(), TestCaseError> {
    let mut a = TypeArena::new();
    let vars = scope(&mut a);
    let id = build(&mut a, &vars, t);
    let text = print_type(&a, syntax, id);
    let back = parse_type(&mut a, syntax, &text, &vars)
        .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(
        back,
        id,
        "{} printed as `{}` parses back as `{}`",
        syntax,
        text,
        print_type(&a, syntax, back)
    );
    prop_assert_eq!(&unintern(&a, &vars, &ALL_NAMES, back), t);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn java_parse_print_round_trip(t in java_type()) {
        round_trip(Syntax::Java, &t)?;
    }

    #[test]
    fn kotlin_parse_print_round_trip(t in kotlin_type()) {
        // `T??` is `T?`: compare with the normalised tree
        let mut a = TypeArena::new();
        let vars = scope(&mut a);
        let id = build(&mut a, &vars, &t);
        let norm = unintern(&a, &vars, &ALL_NAMES, id);
        round_trip(Syntax::Kotlin, &norm)?;
    }

    #[test]
    fn scala_parse_print_round_trip(t in scala_type()) {
        round_trip(Syntax::Scala, &t)?;
    }
}

#[test]
fn round_trip_examples() {
    let mut a = TypeArena::new();
    let vars = scope(&mut a);
    for (syntax, text) in [
        (
            Syntax::Java,
            "java.util.Map<T,? extends java.util.List<int[]>>[]",
        ),
        (Syntax::Java, "java.util.List<? super T>"),
        (Syntax::Kotlin, "suspend a.b.C<out T>.(U?) -> kotlin.String"),
        (Syntax::Kotlin, "((T) -> U)?"),
        (Syntax::Kotlin, "(() -> T).(U) -> Elem"),
        (Syntax::Kotlin, "kotlin.collections.Map<*, in (T) -> U>"),
        (Syntax::Scala, "(=> T, (U, Elem)) => scala.Option[_ <: T]"),
        (Syntax::Scala, "=> (T) => (U, U, T)"),
        (Syntax::Scala, "a.b.C[_, _ >: T]"),
    ] {
        let t = parse_type(&mut a, syntax, text, &vars).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(print_type(&a, syntax, t), text);
    }
}

// =============================================================================================
// A small class hierarchy for subtyping, unification and decomposition
// =============================================================================================

const OBJ: usize = 0;
const COLL: usize = 1;
const LST: usize = 2;
const ARRLST: usize = 3;
const CMP: usize = 4;
const STR: usize = 5;
const NUM: usize = 6;
const INT: usize = 7;
const PROD: usize = 8;
const PAIR2: usize = 9;
const NODE: usize = 10;
const SINK: usize = 11;
/// (name, arity); the index is the class constant above.
const CLASSES: [(&str, usize); 12] = [
    ("java.lang.Object", 0),
    ("h.Coll", 1),
    ("h.Lst", 1),
    ("h.ArrLst", 1),
    ("h.Cmp", 1),
    ("h.Str", 0),
    ("h.Num", 0),
    ("h.Int", 0),
    ("h.Prod", 1),
    ("h.Pair2", 2),
    ("h.Node", 1),
    ("h.Sink", 1),
];
const GENERIC: [usize; 8] = [COLL, LST, ARRLST, CMP, PROD, PAIR2, NODE, SINK];
const PLAIN: [usize; 4] = [OBJ, STR, NUM, INT];

/// The hierarchy:
///
/// ```text
/// interface Coll<E>; interface Lst<E> extends Coll<E>; class ArrLst<E> implements Lst<E>
/// interface Cmp<T>; class Str implements Cmp<Str>; class Num; class Int extends Num implements Cmp<Int>
/// interface Prod<out A>; interface Pair2<out A, out B> : Prod<A>
/// class Node<E> implements Cmp<Node<E>>; interface Sink<in A>
/// <T extends Num>, <U extends Cmp<U>>, and unbounded X1..X4
/// ```
struct Hier {
    ts: TypeSystem,
    /// Class parameters, per class index.
    params: Vec<Vec<VarId>>,
    /// `T extends Num`.
    t_var: VarId,
    /// `U extends Cmp<U>`.
    u_var: VarId,
    /// Unbounded variables for unification.
    xs: Vec<VarId>,
}

impl Hier {
    fn new() -> Hier {
        let mut ts = TypeSystem::new();
        let params: Vec<Vec<VarId>> = CLASSES
            .iter()
            .map(|(name, arity)| {
                let names = ["A", "B"];
                (0..*arity)
                    .map(|i| {
                        let n = if *arity == 1 && !matches!(*name, "h.Prod" | "h.Sink") {
                            "E"
                        } else {
                            names[i]
                        };
                        ts.arena.new_var(n, name)
                    })
                    .collect()
            })
            .collect();
        for &v in params[PROD].iter().chain(&params[PAIR2]) {
            ts.arena.var_mut(v).variance = Variance::Covariant;
        }
        ts.arena.var_mut(params[SINK][0]).variance = Variance::Contravariant;
        let t_var = ts.arena.new_var("T", "h.m");
        let u_var = ts.arena.new_var("U", "h.m");
        let xs = (1..=4)
            .map(|i| ts.arena.new_var(&format!("X{i}"), "h.u"))
            .collect();
        let mut h = Hier {
            ts,
            params,
            t_var,
            u_var,
            xs,
        };
        let obj = h.class(OBJ, &[]);
        let num = h.class(NUM, &[]);
        let str_ = h.class(STR, &[]);
        let int = h.class(INT, &[]);
        let cmp_str = h.class(CMP, &[str_]);
        let cmp_int = h.class(CMP, &[int]);
        // the parameters as seen from inside each class body
        let lst_e = h.pvar(LST, 0);
        let arrlst_e = h.pvar(ARRLST, 0);
        let pair_a = h.pvar(PAIR2, 0);
        let node_e = h.pvar(NODE, 0);
        let coll_of_lst_e = h.class(COLL, &[lst_e]); // Lst<E> extends Coll<E>
        let lst_of_arrlst_e = h.class(LST, &[arrlst_e]); // ArrLst<E> implements Lst<E>
        let prod_of_pair_a = h.class(PROD, &[pair_a]); // Pair2<A, B> : Prod<A>
        let node_of_node_e = h.class(NODE, &[node_e]);
        let cmp_node = h.class(CMP, &[node_of_node_e]); // Node<E> implements Cmp<Node<E>>
        let supers: [Vec<TypeId>; 12] = [
            vec![],
            vec![obj],
            vec![coll_of_lst_e],
            vec![lst_of_arrlst_e],
            vec![obj],
            vec![obj, cmp_str],
            vec![obj],
            vec![num, cmp_int],
            vec![obj],
            vec![prod_of_pair_a],
            vec![obj, cmp_node],
            vec![obj],
        ];
        for (c, sup) in supers.into_iter().enumerate() {
            let sym = h.ts.arena.sym(CLASSES[c].0);
            let params = h.params[c].clone();
            h.ts.declare_class(
                sym,
                ClassSig {
                    params,
                    supers: sup,
                },
            );
        }
        h.ts.arena.var_mut(t_var).upper = vec![num];
        let u = h.ts.arena.var_type(u_var);
        let cmp_u = h.class(CMP, &[u]);
        h.ts.arena.var_mut(u_var).upper = vec![cmp_u];
        h
    }

    fn class(&mut self, c: usize, args: &[TypeId]) -> TypeId {
        self.ts.arena.class_named(CLASSES[c].0, args)
    }

    fn pvar(&mut self, c: usize, i: usize) -> TypeId {
        let v = self.params[c][i];
        self.ts.arena.var_type(v)
    }

    fn var(&mut self, v: VarId) -> TypeId {
        self.ts.arena.var_type(v)
    }

    fn ext(&mut self, t: TypeId) -> TypeId {
        self.ts.arena.wildcard(Wildcard::Extends(t))
    }

    fn sup(&mut self, t: TypeId) -> TypeId {
        self.ts.arena.wildcard(Wildcard::Super(t))
    }

    fn star(&mut self) -> TypeId {
        self.ts.arena.wildcard(Wildcard::Star)
    }

    fn sub(&mut self, s: TypeId, t: TypeId) -> bool {
        self.ts.is_subtype(s, t)
    }

    fn show(&self, t: TypeId) -> String {
        print_type(&self.ts.arena, Syntax::Java, t)
    }

    fn show_subst(&self, s: &Subst) -> String {
        s.display(&self.ts.arena, Syntax::Java)
    }

    /// Builds a hierarchy type; `Var(i)` means `vars[i]`.
    fn build(&mut self, t: &HTy, vars: &[VarId]) -> TypeId {
        match t {
            HTy::Class(c, args) => {
                let args: Vec<TypeId> = args.iter().map(|x| self.build_arg(x, vars)).collect();
                self.class(*c, &args)
            }
            HTy::Var(i) => self.var(vars[*i]),
            HTy::Array(e) => {
                let e = self.build(e, vars);
                self.ts.arena.array(e)
            }
            HTy::Prim(p) => self.ts.arena.prim(*p),
        }
    }

    fn build_arg(&mut self, x: &HArg, vars: &[VarId]) -> TypeId {
        match x {
            HArg::Ty(t) => self.build(t, vars),
            HArg::Ext(t) => {
                let t = self.build(t, vars);
                self.ext(t)
            }
            HArg::Sup(t) => {
                let t = self.build(t, vars);
                self.sup(t)
            }
            HArg::Star => self.star(),
        }
    }

    /// `t` itself, all its supertypes, and for each of them the variants with one non-wildcard
    /// argument `X` widened to `?`, `? super X`, `? super Y` (Y <: X from a small pool),
    /// `? extends X'` (X' a supertype of X or the root), `X'` at a covariant position, or `Y`
    /// at a contravariant position. Every result should be a supertype of `t`.
    fn widened_supertypes(&mut self, t: TypeId) -> Vec<TypeId> {
        let mut out = Vec::new();
        let obj = self.class(OBJ, &[]);
        let mut pool: Vec<TypeId> = PLAIN.iter().map(|&c| self.class(c, &[])).collect();
        pool.push(self.var(self.t_var));
        for u in self.ts.all_supertypes(t) {
            out.push(u);
            let Some((name, args)) = self.ts.arena.as_class(u) else {
                continue;
            };
            let args = args.to_vec();
            let params = self.ts.class_params(name).unwrap_or(&[]).to_vec();
            for (i, &x) in args.iter().enumerate() {
                if matches!(self.ts.arena.get(x), Type::Wildcard(_)) {
                    continue;
                }
                let variance = params
                    .get(i)
                    .map_or(Variance::Invariant, |&p| self.ts.arena.var(p).variance);
                let mut repl = vec![self.star()];
                repl.push(self.sup(x));
                let mut uppers = self.ts.all_supertypes(x);
                uppers.push(obj);
                for x2 in uppers {
                    repl.push(self.ext(x2));
                    if variance == Variance::Covariant {
                        repl.push(x2);
                    }
                }
                for &y in &pool {
                    if self.ts.is_subtype(y, x) {
                        repl.push(self.sup(y));
                        if variance == Variance::Contravariant {
                            repl.push(y);
                        }
                    }
                }
                for r in repl {
                    let mut a2 = args.clone();
                    a2[i] = r;
                    let w = self.ts.arena.class(name, &a2);
                    if !out.contains(&w) {
                        out.push(w);
                    }
                }
            }
        }
        out
    }
}

/// A type over the hierarchy.
#[derive(Clone, Debug)]
enum HTy {
    Class(usize, Vec<HArg>),
    Var(usize),
    Array(Box<HTy>),
    Prim(Prim),
}

#[derive(Clone, Debug)]
enum HArg {
    Ty(HTy),
    Ext(HTy),
    Sup(HTy),
    Star,
}

/// Reference types over the hierarchy of nesting depth ≤ 3, mentioning variables `0..nvars`.
fn href(nvars: usize) -> BoxedStrategy<HTy> {
    let plain = select(PLAIN.to_vec()).prop_map(|c| HTy::Class(c, vec![]));
    let leaf = if nvars == 0 {
        plain.boxed()
    } else {
        prop_oneof![3 => plain, 2 => (0..nvars).prop_map(HTy::Var)].boxed()
    };
    leaf.prop_recursive(3, 24, 2, |inner| {
        let arg = prop_oneof![
            4 => inner.clone().prop_map(HArg::Ty),
            1 => inner.clone().prop_map(HArg::Ext),
            1 => inner.clone().prop_map(HArg::Sup),
            1 => Just(HArg::Star),
        ];
        prop_oneof![
            6 => (select(GENERIC.to_vec()), arg.clone(), arg).prop_map(|(c, a, b)| {
                let mut args = vec![a, b];
                args.truncate(CLASSES[c].1);
                HTy::Class(c, args)
            }),
            1 => inner.prop_map(|t| HTy::Array(Box::new(t))),
        ]
    })
    .boxed()
}

/// Any hierarchy type: mostly references, sometimes primitives or primitive arrays.
fn hty(nvars: usize) -> BoxedStrategy<HTy> {
    let prims: Vec<Prim> = Prim::ALL.into_iter().filter(|p| *p != Prim::Void).collect();
    prop_oneof![
        8 => href(nvars),
        1 => select(prims.clone()).prop_map(HTy::Prim),
        1 => select(prims).prop_map(|p| HTy::Array(Box::new(HTy::Prim(p)))),
    ]
    .boxed()
}

fn tu(h: &Hier) -> Vec<VarId> {
    vec![h.t_var, h.u_var]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn subtyping_is_reflexive(t in hty(2)) {
        let mut h = Hier::new();
        let vars = tu(&h);
        let t = h.build(&t, &vars);
        prop_assert!(h.sub(t, t));
        prop_assert!(h.ts.is_equivalent(t, t));
        prop_assert_eq!(h.ts.all_supertypes(t).first().copied(), Some(t));
        if h.ts.is_reference(t) {
            // containment is reflexive too: C<X> <: C<? extends X>, C<? super X>, C<?>
            let plain = h.class(COLL, &[t]);
            let e = h.ext(t);
            let s = h.sup(t);
            let star = h.star();
            for arg in [e, s, star] {
                let w = h.class(COLL, &[arg]);
                prop_assert!(h.sub(plain, w), "{} <: {}", h.show(plain), h.show(w));
                prop_assert!(h.sub(w, w));
            }
        }
    }

    #[test]
    fn subtyping_is_transitive_on_random_triples(a in hty(2), b in hty(2), c in hty(2)) {
        let mut h = Hier::new();
        let vars = tu(&h);
        let (a, b, c) = (h.build(&a, &vars), h.build(&b, &vars), h.build(&c, &vars));
        for (x, y, z) in [(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)] {
            if h.sub(x, y) && h.sub(y, z) {
                prop_assert!(h.sub(x, z), "{} <: {} <: {}", h.show(x), h.show(y), h.show(z));
            }
        }
    }

    #[test]
    fn subtyping_is_transitive_along_supertype_chains(t in hty(2)) {
        let mut h = Hier::new();
        let vars = tu(&h);
        let t = h.build(&t, &vars);
        let us = h.ts.all_supertypes(t);
        for &u in &us {
            prop_assert!(h.sub(t, u), "{} <: {} (from all_supertypes)", h.show(t), h.show(u));
        }
        for &u in us.iter().chain(h.widened_supertypes(t).iter()) {
            for w in h.widened_supertypes(u) {
                if h.sub(t, u) && h.sub(u, w) {
                    prop_assert!(
                        h.sub(t, w),
                        "{} <: {} <: {} but not {} <: {}",
                        h.show(t), h.show(u), h.show(w), h.show(t), h.show(w)
                    );
                }
            }
        }
    }

    /// Widening one argument of a supertype gives a supertype.
    #[test]
    fn widened_supertypes_are_supertypes(t in href(2)) {
        let mut h = Hier::new();
        let vars = tu(&h);
        let t = h.build(&t, &vars);
        for w in h.widened_supertypes(t) {
            prop_assert!(h.sub(t, w), "{} <: {}", h.show(t), h.show(w));
        }
    }
}

#[test]
fn subtyping_examples() {
    let mut h = Hier::new();
    let obj = h.class(OBJ, &[]);
    let num = h.class(NUM, &[]);
    let int = h.class(INT, &[]);
    let str_ = h.class(STR, &[]);
    let t = h.var(h.t_var);
    let u = h.var(h.u_var);
    let ext_num = h.ext(num);
    let sup_int = h.sup(int);
    let star = h.star();
    let arrlst_int = h.class(ARRLST, &[int]);
    let lst_int = h.class(LST, &[int]);
    let lst_num = h.class(LST, &[num]);
    let coll_num = h.class(COLL, &[num]);
    let coll_ext_num = h.class(COLL, &[ext_num]);
    let coll_sup_int = h.class(COLL, &[sup_int]);
    let coll_star = h.class(COLL, &[star]);
    let prod_int = h.class(PROD, &[int]);
    let prod_num = h.class(PROD, &[num]);
    let pair_int_str = h.class(PAIR2, &[int, str_]);
    let cmp_str = h.class(CMP, &[str_]);
    let sup_str = h.sup(str_);
    let cmp_sup_str = h.class(CMP, &[sup_str]);
    let cmp_star = h.class(CMP, &[star]);
    let ext_cmp_star = h.ext(cmp_star);
    let prod_ext_cmp = h.class(PROD, &[ext_cmp_star]);
    let node_int = h.class(NODE, &[int]);
    let cmp_node_int = h.class(CMP, &[node_int]);
    let cmp_u = h.class(CMP, &[u]);
    let sink_int = h.class(SINK, &[int]);
    let sink_num = h.class(SINK, &[num]);
    let sink_sup_int = h.class(SINK, &[sup_int]);
    let arr_int = h.ts.arena.array(int);
    let arr_num = h.ts.arena.array(num);
    let p_int = h.ts.arena.prim(Prim::Int);
    let p_long = h.ts.arena.prim(Prim::Long);
    let p_bool = h.ts.arena.prim(Prim::Boolean);
    let p_arr_int = h.ts.arena.array(p_int);
    let p_arr_long = h.ts.arena.array(p_long);

    let yes = [
        (arrlst_int, coll_ext_num),
        (arrlst_int, lst_int),
        (arrlst_int, coll_star),
        (arrlst_int, obj),
        (lst_num, coll_sup_int),
        (coll_num, coll_ext_num),
        (prod_int, prod_num),
        (pair_int_str, prod_num),
        (pair_int_str, prod_ext_cmp),
        (str_, cmp_str),
        (str_, cmp_sup_str),
        (node_int, cmp_node_int),
        (sink_num, sink_int),
        (sink_num, sink_sup_int),
        (int, num),
        (t, num),
        (t, obj),
        (u, cmp_u),
        (p_int, p_long),
        (arr_int, arr_num),
        (arr_int, obj),
        (p_arr_int, obj),
    ];
    for (s, t) in yes {
        assert!(h.sub(s, t), "expected {} <: {}", h.show(s), h.show(t));
    }
    let no = [
        (arrlst_int, coll_num),
        (lst_int, lst_num),
        (coll_ext_num, coll_num),
        (prod_num, prod_int),
        (sink_int, sink_num),
        (num, int),
        (num, t),
        (int, t),
        (t, int),
        (str_, num),
        (p_long, p_int),
        (p_bool, p_int),
        (int, p_int),
        (p_int, int),
        (p_arr_int, p_arr_long),
        (arr_num, arr_int),
        (obj, arr_int),
    ];
    for (s, t) in no {
        assert!(!h.sub(s, t), "expected not {} <: {}", h.show(s), h.show(t));
    }
}

// =============================================================================================
// Substitutions and unification
// =============================================================================================

/// A pattern over X1..X4 and a ground substitution for all four variables.
fn pattern_and_subst() -> impl Strategy<Value = (HTy, Vec<HTy>)> {
    (href(4), vec(href(0), 4))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn unify_equal_recovers_the_substitution((p, sigma) in pattern_and_subst()) {
        let mut h = Hier::new();
        let xs = h.xs.clone();
        let t = h.build(&p, &xs);
        let ground: Vec<TypeId> = sigma.iter().map(|g| h.build(g, &[])).collect();
        let s = Subst::from_pairs(&xs, &ground);
        let target = h.ts.arena.subst(t, &s);
        prop_assert!(h.ts.arena.is_ground(target));
        let fv = h.ts.arena.free_vars(t);
        let got = h.ts.unify_with(t, target, &fv, UnifyMode::Equal, &Subst::new());
        let Some(got) = got else {
            return Err(TestCaseError::fail(format!(
                "no unifier of {} with {}", h.show(t), h.show(target)
            )));
        };
        prop_assert_eq!(h.ts.arena.subst(t, &got), target);
        // exactly σ restricted to the pattern's variables
        let restricted: Subst = s.iter().filter(|(v, _)| fv.contains(v)).collect();
        prop_assert_eq!(&got, &restricted, "{}", h.show_subst(&got));
        prop_assert!(subsumes(&s, &got));
        // a seed that agrees with σ is kept
        let seed: Subst = s.iter().take(2).collect();
        let got2 = h.ts.unify_with(t, target, &fv, UnifyMode::Equal, &seed);
        prop_assert!(got2.as_ref().is_some_and(|g| subsumes(g, &seed)));
    }

    #[test]
    fn unify_subtype_is_sound_and_finds_the_instance((p, sigma) in pattern_and_subst()) {
        let mut h = Hier::new();
        let xs = h.xs.clone();
        let t = h.build(&p, &xs);
        let ground: Vec<TypeId> = sigma.iter().map(|g| h.build(g, &[])).collect();
        let s = Subst::from_pairs(&xs, &ground);
        let target = h.ts.arena.subst(t, &s);
        let fv = h.ts.arena.free_vars(t);
        let got = h.ts.unify_with(t, target, &fv, UnifyMode::Subtype, &Subst::new());
        let Some(got) = got else {
            return Err(TestCaseError::fail(format!(
                "no unifier of {} <: {}", h.show(t), h.show(target)
            )));
        };
        if fv.iter().all(|v| got.contains(*v)) {
            let inst = h.ts.arena.subst(t, &got);
            prop_assert!(h.sub(inst, target), "{} </: {}", h.show(inst), h.show(target));
        }
        // the paper's `unify` too
        prop_assert!(h.ts.unify(t, target).is_some());
    }

    /// Unifying against a supertype of an instance: whatever is found must be sound.
    #[test]
    fn unify_subtype_against_supertypes_is_sound((p, sigma) in pattern_and_subst()) {
        let mut h = Hier::new();
        let xs = h.xs.clone();
        let t = h.build(&p, &xs);
        let ground: Vec<TypeId> = sigma.iter().map(|g| h.build(g, &[])).collect();
        let s = Subst::from_pairs(&xs, &ground);
        let inst = h.ts.arena.subst(t, &s);
        let fv = h.ts.arena.free_vars(t);
        for w in h.widened_supertypes(inst) {
            if let Some(got) = h.ts.unify_with(t, w, &fv, UnifyMode::Subtype, &Subst::new()) {
                if fv.iter().all(|v| got.contains(*v)) {
                    let i2 = h.ts.arena.subst(t, &got);
                    prop_assert!(
                        h.sub(i2, w),
                        "unify({} <: {}) = {} but {} </: {}",
                        h.show(t), h.show(w), h.show_subst(&got), h.show(i2), h.show(w)
                    );
                }
            }
        }
    }

    #[test]
    fn subsumption_laws(sigma in vec(href(0), 4), k in 0usize..=4) {
        let mut h = Hier::new();
        let xs = h.xs.clone();
        let ground: Vec<TypeId> = sigma.iter().map(|g| h.build(g, &[])).collect();
        let s = Subst::from_pairs(&xs, &ground);
        let part: Subst = s.iter().take(k).collect();
        prop_assert!(subsumes(&s, &s));
        prop_assert!(subsumes(&s, &Subst::new()));
        prop_assert!(subsumes(&s, &part));
        prop_assert_eq!(subsumes(&part, &s), k == 4);
        prop_assert!(subsumes(&Subst::new(), &Subst::new()));
    }
}

#[test]
fn valid_substitutions_respect_bounds() {
    let mut h = Hier::new();
    let (tv, uv) = (h.t_var, h.u_var);
    let int = h.class(INT, &[]);
    let num = h.class(NUM, &[]);
    let str_ = h.class(STR, &[]);
    let star = h.star();
    let node_int = h.class(NODE, &[int]);
    let arrlst_int = h.class(ARRLST, &[int]);
    let tt = h.var(tv);
    let cases = [
        (tv, int, true),
        (tv, num, true),
        (tv, str_, false),
        (tv, star, false),
        (uv, str_, true),
        (uv, int, true),
        (uv, node_int, true), // Node<Int> implements Cmp<Node<Int>>
        (uv, arrlst_int, false),
        (uv, num, false),
        (h.xs[0], str_, true),
        (h.xs[0], star, false),
        (h.xs[0], tt, true),
    ];
    for (v, t, valid) in cases {
        let s = Subst::from_pairs(&[v], &[t]);
        assert_eq!(h.ts.is_valid_subst(&s), valid, "{}", h.show_subst(&s));
    }
    let both = Subst::from_pairs(&[tv, uv], &[int, str_]);
    assert!(h.ts.is_valid_subst(&both));
    let bad = Subst::from_pairs(&[tv, uv], &[int, num]);
    assert!(!h.ts.is_valid_subst(&bad));
    assert!(h.ts.is_valid_subst(&Subst::new()));
}

// =============================================================================================
// Decomposition (Definition 3.3)
// =============================================================================================

#[test]
fn decompose_examples() {
    let mut h = Hier::new();
    let str_ = h.class(STR, &[]);
    let arrlst_str = h.class(ARRLST, &[str_]);
    let (ctor, s) = h.ts.decompose(arrlst_str);
    let e = h.pvar(ARRLST, 0);
    assert_eq!(ctor, h.class(ARRLST, &[e]));
    assert_eq!(s, Subst::from_pairs(&[h.params[ARRLST][0]], &[str_]));
    // identity mappings are left out
    let (ctor2, s2) = h.ts.decompose(ctor);
    assert_eq!((ctor2, s2), (ctor, Subst::new()));
    // non-generic types
    let p = h.ts.arena.prim(Prim::Int);
    let arr = h.ts.arena.array(arrlst_str);
    let t = h.var(h.t_var);
    let raw = h.class(ARRLST, &[]);
    for x in [str_, p, arr, t, raw] {
        assert_eq!(h.ts.decompose(x), (x, Subst::new()), "{}", h.show(x));
    }
    // nullability is kept outside
    let n = h.ts.arena.nullable(arrlst_str);
    let nctor = h.ts.arena.nullable(ctor);
    assert_eq!(
        h.ts.decompose(n),
        (nctor, Subst::from_pairs(&[h.params[ARRLST][0]], &[str_]))
    );
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn decompose_splits_instances(t in href(2)) {
        let mut h = Hier::new();
        let vars = tu(&h);
        let t = h.build(&t, &vars);
        let (ctor, s) = h.ts.decompose(t);
        prop_assert_eq!(h.ts.arena.subst(ctor, &s), t);
        match h.ts.arena.as_class(t) {
            Some((name, args)) if !args.is_empty() => {
                let args = args.to_vec();
                prop_assert_eq!(ctor, h.ts.self_type(name));
                let params = h.ts.class_params(name).unwrap().to_vec();
                let own: Vec<TypeId> = params.iter().map(|&p| h.ts.arena.var_type(p)).collect();
                let expected: Subst = params
                    .iter()
                    .zip(&args)
                    .zip(&own)
                    .filter(|((_, a), o)| a != o)
                    .map(|((&p, &a), _)| (p, a))
                    .collect();
                prop_assert_eq!(&s, &expected);
            }
            _ => {
                prop_assert_eq!(ctor, t);
                prop_assert!(s.is_empty());
            }
        }
    }
}

// =============================================================================================
// Minimal cases of the bugs the properties above found (each fails until fixed in src/types)
// =============================================================================================

/// `suspend (A?).() -> R` and `suspend (() -> A).() -> R` are printed for suspend function
/// types whose receiver is nullable or a function type; they must parse back.
#[test]
fn kotlin_suspend_function_with_parenthesised_receiver_round_trips() {
    let mut a = TypeArena::new();
    let vars = scope(&mut a);
    let t = a.var_type(vars[0]);
    let u = a.var_type(vars[1]);
    let t_null = a.nullable(t);
    let fn_t = a.function(None, &[], t, false);
    for recv in [t_null, fn_t] {
        let f = a.function(Some(recv), &[u], t, true);
        let text = print_type(&a, Syntax::Kotlin, f);
        let back = parse_type(&mut a, Syntax::Kotlin, &text, &vars);
        assert_eq!(back, Ok(f), "`{text}`");
    }
}

/// `scala.Tuple2[_, T]` is printed as `(_, T)`; it must not come back as a tuple of a class
/// named `_` (nor fail to parse, as `(_ <: T, T)` does).
#[test]
fn scala_tuple_with_wildcard_arguments_round_trips() {
    let mut a = TypeArena::new();
    let vars = scope(&mut a);
    let t = a.var_type(vars[0]);
    let star = a.wildcard(Wildcard::Star);
    let ext = a.wildcard(Wildcard::Extends(t));
    for args in [vec![star, t], vec![ext, t]] {
        let tup = a.class_named("scala.Tuple2", &args);
        let text = print_type(&a, Syntax::Scala, tup);
        let back = parse_type(&mut a, Syntax::Scala, &text, &vars);
        assert_eq!(back, Ok(tup), "`{text}`");
    }
}

/// A use-site wildcard against the opposite declaration-site variance (`Prod<out A>` used as
/// `Prod<? super X>`, `Sink<in A>` used as `Sink<? extends X>`) must not break transitivity.
#[test]
fn conflicting_use_site_projection_keeps_subtyping_transitive() {
    let mut h = Hier::new();
    let str_ = h.class(STR, &[]);
    let obj = h.class(OBJ, &[]);
    let int = h.class(INT, &[]);
    let num = h.class(NUM, &[]);
    let prod_str = h.class(PROD, &[str_]);
    let prod_obj = h.class(PROD, &[obj]);
    let sup_obj = h.sup(obj);
    let prod_sup_obj = h.class(PROD, &[sup_obj]);
    let sink_num = h.class(SINK, &[num]);
    let sink_int = h.class(SINK, &[int]);
    let ext_int = h.ext(int);
    let sink_ext_int = h.class(SINK, &[ext_int]);
    for (a, b, c) in [
        (prod_str, prod_obj, prod_sup_obj),
        (sink_num, sink_int, sink_ext_int),
    ] {
        assert!(h.sub(a, b) && h.sub(b, c));
        assert!(
            h.sub(a, c),
            "{} <: {} <: {} but not {} <: {}",
            h.show(a),
            h.show(b),
            h.show(c),
            h.show(a),
            h.show(c)
        );
    }
}

/// `Node<E> implements Cmp<Node<E>>`: `Node<?>` is a `Cmp<? extends Node<?>>` but not a
/// `Cmp<Node<?>>` (Java: capture gives `Cmp<Node<CAP#1>>`); substituting the wildcard into the
/// nested position makes subtyping non-transitive, since `Node<Object> <: Node<?>` while
/// `Node<Object>` is not a `Cmp<Node<?>>`.
#[test]
fn wildcards_are_not_substituted_into_nested_supertype_arguments() {
    let mut h = Hier::new();
    let obj = h.class(OBJ, &[]);
    let star = h.star();
    let node_obj = h.class(NODE, &[obj]);
    let node_star = h.class(NODE, &[star]);
    let ext_node_star = h.ext(node_star);
    let cmp_ext_node_star = h.class(CMP, &[ext_node_star]);
    assert!(h.sub(node_obj, node_star));
    assert!(h.sub(node_star, cmp_ext_node_star));
    assert!(h.sub(node_obj, cmp_ext_node_star));
    for u in h.ts.all_supertypes(node_star) {
        assert!(
            h.sub(node_obj, u),
            "{} is listed as a supertype of {}, but {} </: {}",
            h.show(u),
            h.show(node_star),
            h.show(node_obj),
            h.show(u)
        );
    }
    let cmp_node_star = h.class(CMP, &[node_star]);
    assert!(!h.sub(node_star, cmp_node_star));
}
