//! The API graph of Section 3.2: nodes for type constructors and API members, edges labelled
//! with the substitutions that type decomposition yields.
//!
//! * receiver edge `type(C) → m` for each instance member `m` of class `C` (for a Kotlin
//!   extension member, from its receiver's type constructor, labelled by the receiver's
//!   decomposition);
//! * result edge `m → t'` where `⟨t', σ⟩ = decompose(result type of m)`, labelled `σ`
//!   (members returning `void`/`Unit` have none);
//! * subtyping edge `type(C) → t'` for each declared supertype `S` of `C`, where
//!   `⟨t', σ⟩ = decompose(S)`, labelled `σ`.

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use rustc_hash::FxHashMap;

use crate::api::{Api, MemberId};
use crate::types::{Prim, Subst, Type, TypeId};

/// A node: a type (constructor) or an API member.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    /// A type node, keyed by its decomposed type constructor (`List<E>`, `int`, `T`).
    Type(TypeId),
    /// An API member (method, constructor, field).
    Member(MemberId),
}

/// The role of an edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EdgeKind {
    /// Receiver type → member.
    Receiver,
    /// Member → result type constructor.
    Result,
    /// Type → declared supertype constructor.
    Subtype,
}

/// An edge with its substitution label.
#[derive(Clone, Debug)]
pub struct Edge {
    /// Receiver, result or subtyping edge.
    pub kind: EdgeKind,
    /// The substitution from decomposition (empty for plain types).
    pub label: Subst,
}

/// The API graph.
#[derive(Clone, Debug, Default)]
pub struct ApiGraph {
    /// The underlying petgraph graph.
    pub graph: DiGraph<Node, Edge>,
    type_nodes: FxHashMap<TypeId, NodeIndex>,
    member_nodes: FxHashMap<MemberId, NodeIndex>,
}

impl ApiGraph {
    /// Builds the graph of an API (classes in inheritance order, then their members).
    pub fn build(api: &mut Api) -> ApiGraph {
        let mut g = ApiGraph::default();
        for cid in api.classes_in_inheritance_order() {
            let class = api.class(cid).clone();
            if class.is_class {
                // type nodes are created on first use, so a class seen only through its
                // static members (`Utils`) is not a node of its own
                let self_ty = api.ts.self_type(class.sym);
                for sup in class.supertypes() {
                    let from = g.type_node(self_ty);
                    let (ctor, label) = key_of(api, sup);
                    let to = g.type_node(ctor);
                    g.graph.add_edge(
                        from,
                        to,
                        Edge {
                            kind: EdgeKind::Subtype,
                            label,
                        },
                    );
                }
            }
            for &mid in &class.members {
                let m = g.member_node(mid);
                if let Some(recv) = api.receiver_type(mid) {
                    let (ctor, label) = key_of(api, recv);
                    let r = g.type_node(ctor);
                    g.graph.add_edge(
                        r,
                        m,
                        Edge {
                            kind: EdgeKind::Receiver,
                            label,
                        },
                    );
                }
                let ret = api.member(mid).ret;
                if !is_unit(api, ret) {
                    let (ctor, label) = key_of(api, ret);
                    let t = g.type_node(ctor);
                    g.graph.add_edge(
                        m,
                        t,
                        Edge {
                            kind: EdgeKind::Result,
                            label,
                        },
                    );
                }
            }
        }
        g
    }

    fn type_node(&mut self, t: TypeId) -> NodeIndex {
        if let Some(&n) = self.type_nodes.get(&t) {
            return n;
        }
        let n = self.graph.add_node(Node::Type(t));
        self.type_nodes.insert(t, n);
        n
    }

    fn member_node(&mut self, m: MemberId) -> NodeIndex {
        if let Some(&n) = self.member_nodes.get(&m) {
            return n;
        }
        let n = self.graph.add_node(Node::Member(m));
        self.member_nodes.insert(m, n);
        n
    }

    /// The node of a type constructor (as returned by [`ApiGraph::key`]), if present.
    pub fn node_of_type(&self, ctor: TypeId) -> Option<NodeIndex> {
        self.type_nodes.get(&ctor).copied()
    }

    /// The node of a member.
    pub fn node_of_member(&self, m: MemberId) -> Option<NodeIndex> {
        self.member_nodes.get(&m).copied()
    }

    /// The node key and substitution of a type: its decomposition without nullability.
    pub fn key(api: &mut Api, t: TypeId) -> (TypeId, Subst) {
        key_of(api, t)
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// The type nodes.
    pub fn type_nodes(&self) -> impl Iterator<Item = (TypeId, NodeIndex)> + '_ {
        self.type_nodes.iter().map(|(&t, &n)| (t, n))
    }

    /// Outgoing edges of a node: (edge, target, weight).
    pub fn out_edges(&self, n: NodeIndex) -> impl Iterator<Item = (EdgeIndex, NodeIndex, &Edge)> {
        self.graph
            .edges_directed(n, Direction::Outgoing)
            .map(|e| (e.id(), e.target(), e.weight()))
    }

    /// Incoming edges of a node: (edge, source, weight).
    pub fn in_edges(&self, n: NodeIndex) -> impl Iterator<Item = (EdgeIndex, NodeIndex, &Edge)> {
        self.graph
            .edges_directed(n, Direction::Incoming)
            .map(|e| (e.id(), e.source(), e.weight()))
    }
}

fn key_of(api: &mut Api, t: TypeId) -> (TypeId, Subst) {
    let t = match api.ts.arena.get(t) {
        Type::Nullable(inner) => *inner,
        _ => t,
    };
    api.ts.decompose(t)
}

/// True for result types that carry no value (`void`, `kotlin.Unit`, `scala.Unit`).
fn is_unit(api: &Api, t: TypeId) -> bool {
    match api.ts.arena.get(t) {
        Type::Prim(Prim::Void) => true,
        Type::Class { name, args } if args.is_empty() => {
            matches!(api.ts.arena.name(*name), "kotlin.Unit" | "scala.Unit")
        }
        _ => false,
    }
}

impl Api {
    /// Class ids ordered so that each class comes after its supertypes defined in the API
    /// (ties broken by load order; cycles broken arbitrarily but deterministically).
    /// Iterative, so a hierarchy of any height is fine.
    pub fn classes_in_inheritance_order(&self) -> Vec<crate::api::ClassId> {
        use crate::api::ClassId;
        let n = self.classes.len();
        let mut state = vec![0u8; n]; // 0 new, 1 visiting, 2 done
        let mut out = Vec::with_capacity(n);
        let supers = |c: ClassId| -> Vec<ClassId> {
            self.class(c)
                .supertypes()
                .iter()
                .filter_map(|&s| match self.ts.arena.get(s) {
                    Type::Class { name, .. } => self.class_by_sym(*name),
                    _ => None,
                })
                .collect()
        };
        for root in 0..n {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            let first = ClassId(root as u32);
            let mut stack: Vec<(ClassId, Vec<ClassId>, usize)> = vec![(first, supers(first), 0)];
            while let Some((c, sups, k)) = stack.last_mut() {
                if let Some(&p) = sups.get(*k) {
                    *k += 1;
                    if state[p.0 as usize] == 0 {
                        state[p.0 as usize] = 1;
                        stack.push((p, supers(p), 0));
                    }
                } else {
                    state[c.0 as usize] = 2;
                    out.push(*c);
                    stack.pop();
                }
            }
        }
        out
    }
}
