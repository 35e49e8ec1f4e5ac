//! The API-graph statistics of the paper's Table 1.

use serde::Serialize;

use crate::api::{Api, MemberKind};
use crate::graph::{ApiGraph, Node};
use crate::types::Type;

/// Table-1 figures of an API graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphStats {
    /// Classes in the API.
    pub classes: usize,
    /// Nodes of the API graph.
    pub nodes: usize,
    /// Edges of the API graph.
    pub edges: usize,
    /// Methods with their own type parameters.
    pub polymorphic_methods: usize,
    /// Methods (constructors and fields not included).
    pub methods: usize,
    /// Fields and properties.
    pub fields: usize,
    /// Constructors.
    pub constructors: usize,
    /// Type nodes that are type constructors (generic classes).
    pub type_constructors: usize,
    /// Type nodes.
    pub types: usize,
    /// Mean number of transitive proper supertypes of a class.
    pub mean_inheritance_chain: f64,
    /// Mean number of types in a member's signature (receiver, parameters and result).
    pub mean_signature_size: f64,
}

impl GraphStats {
    /// Computes the figures of an API and its graph.
    pub fn compute(api: &mut Api, graph: &ApiGraph) -> GraphStats {
        let mut s = GraphStats {
            classes: api.classes.len(),
            nodes: graph.node_count(),
            edges: graph.edge_count(),
            polymorphic_methods: 0,
            methods: 0,
            fields: 0,
            constructors: 0,
            type_constructors: 0,
            types: 0,
            mean_inheritance_chain: 0.0,
            mean_signature_size: 0.0,
        };
        for m in &api.members {
            match m.kind {
                MemberKind::Method => {
                    s.methods += 1;
                    if m.is_polymorphic() {
                        s.polymorphic_methods += 1;
                    }
                }
                MemberKind::Field => s.fields += 1,
                MemberKind::Constructor => s.constructors += 1,
            }
        }
        for n in graph.graph.node_weights() {
            if let Node::Type(t) = n {
                s.types += 1;
                if matches!(api.ts.arena.get(*t), Type::Class { args, .. } if !args.is_empty()) {
                    s.type_constructors += 1;
                }
            }
        }
        let mut chain_total = 0usize;
        let mut chain_classes = 0usize;
        for cid in api.class_ids().collect::<Vec<_>>() {
            let c = api.class(cid);
            if !c.is_class {
                continue;
            }
            let sym = c.sym;
            let self_ty = api.ts.self_type(sym);
            chain_total += api.ts.all_supertypes(self_ty).len() - 1;
            chain_classes += 1;
        }
        if chain_classes > 0 {
            s.mean_inheritance_chain = chain_total as f64 / chain_classes as f64;
        }
        let mut sig_total = 0usize;
        let ids: Vec<_> = api.member_ids().collect();
        for &mid in &ids {
            let m = api.member(mid);
            let params = m.params.len();
            let has_recv = api.receiver_type(mid).is_some();
            sig_total += params + 1 + usize::from(has_recv);
        }
        if !ids.is_empty() {
            s.mean_signature_size = sig_total as f64 / ids.len() as f64;
        }
        s
    }

    /// The figures as an aligned two-column table.
    pub fn table(&self) -> String {
        let rows: [(&str, String); 9] = [
            ("classes", self.classes.to_string()),
            ("nodes", self.nodes.to_string()),
            ("edges", self.edges.to_string()),
            (
                "polymorphic methods / methods",
                format!("{} / {}", self.polymorphic_methods, self.methods),
            ),
            ("fields", self.fields.to_string()),
            ("constructors", self.constructors.to_string()),
            (
                "type constructors / types",
                format!("{} / {}", self.type_constructors, self.types),
            ),
            (
                "mean inheritance-chain size",
                format!("{:.2}", self.mean_inheritance_chain),
            ),
            (
                "mean signature size",
                format!("{:.2}", self.mean_signature_size),
            ),
        ];
        let w = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        let mut out = String::new();
        for (k, v) in rows {
            out.push_str(&format!("{k:<w$}  {v:>12}\n"));
        }
        out
    }
}
