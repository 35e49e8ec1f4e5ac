//! The API graphs of the paper's Figure 5 and Figure 7 (Section 3.2), built from API JSON
//! fixtures, with their nodes and labelled edges asserted.

use std::collections::BTreeSet;
use std::path::PathBuf;

use thalia::api::Api;
use thalia::graph::{ApiGraph, EdgeKind, Node};
use thalia::types::{print_type, Syntax};

fn load(fig: &str) -> (Api, ApiGraph) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/paper")
        .join(fig);
    let mut api = Api::load_dir(&dir).expect("fixture loads");
    assert_eq!(api.report.error_count(), 0, "{}", api.report.summary());
    let g = ApiGraph::build(&mut api);
    (api, g)
}

fn node_name(api: &Api, n: Node) -> String {
    match n {
        Node::Type(t) => format!("type {}", print_type(&api.ts.arena, Syntax::Java, t)),
        Node::Member(m) => {
            let mem = api.member(m);
            format!("member {}.{}", api.class(mem.owner).name, mem.name)
        }
    }
}

fn nodes(api: &Api, g: &ApiGraph) -> BTreeSet<String> {
    g.graph.node_weights().map(|&n| node_name(api, n)).collect()
}

fn edges(api: &Api, g: &ApiGraph) -> BTreeSet<String> {
    g.graph
        .edge_indices()
        .map(|e| {
            let (a, b) = g.graph.edge_endpoints(e).unwrap();
            let w = &g.graph[e];
            let kind = match w.kind {
                EdgeKind::Receiver => "receiver",
                EdgeKind::Result => "result",
                EdgeKind::Subtype => "subtype",
            };
            format!(
                "{} -> {} ({kind}) {}",
                node_name(api, g.graph[a]),
                node_name(api, g.graph[b]),
                w.label.display(&api.ts.arena, Syntax::Java)
            )
        })
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn figure5_graph() {
    let (api, g) = load("figure5");
    assert_eq!(
        nodes(&api, &g),
        set(&[
            "member List.List",
            "member List.add",
            "member List.toSet",
            "member Set.Set",
            "member Set.contains",
            "member Set.isEmpty",
            "member Utils.createList",
            "type List<K>",
            "type Set<V>",
            "type boolean",
        ])
    );
    assert_eq!(
        edges(&api, &g),
        set(&[
            "member Utils.createList -> type List<K> (result) [K ↦ T]",
            "member List.List -> type List<K> (result) []",
            "type List<K> -> member List.add (receiver) []",
            "member List.add -> type boolean (result) []",
            "type List<K> -> member List.toSet (receiver) []",
            "member List.toSet -> type Set<V> (result) [V ↦ K]",
            "member Set.Set -> type Set<V> (result) []",
            "type Set<V> -> member Set.contains (receiver) []",
            "member Set.contains -> type boolean (result) []",
            "type Set<V> -> member Set.isEmpty (receiver) []",
            "member Set.isEmpty -> type boolean (result) []",
        ])
    );
    // the three definitions without a receiver: both constructors and the static method
    let sources: BTreeSet<String> = g
        .graph
        .node_indices()
        .filter(|&n| matches!(g.graph[n], Node::Member(_)))
        .filter(|&n| g.in_edges(n).next().is_none())
        .map(|n| node_name(&api, g.graph[n]))
        .collect();
    assert_eq!(
        sources,
        set(&[
            "member List.List",
            "member Set.Set",
            "member Utils.createList"
        ])
    );
}

#[test]
fn figure7_graph() {
    let (api, g) = load("figure7");
    assert_eq!(
        nodes(&api, &g),
        set(&[
            "member Map.keySet",
            "member Utils.mapOf",
            "member Utils.mapOfStrs",
            "type Map<K,V>",
            "type Set<E>",
        ])
    );
    assert_eq!(
        edges(&api, &g),
        set(&[
            "member Utils.mapOfStrs -> type Map<K,V> (result) [K ↦ java.lang.String, V ↦ java.lang.String]",
            "member Utils.mapOf -> type Map<K,V> (result) [K ↦ X, V ↦ Y]",
            "type Map<K,V> -> member Map.keySet (receiver) []",
            "member Map.keySet -> type Set<E> (result) [E ↦ K]",
        ])
    );
}

#[test]
fn subtyping_edges_carry_the_supertype_substitution() {
    let (api, g) = load("../api-samples/java");
    let e = edges(&api, &g);
    assert!(
        e.contains("type java.util.ArrayList<E> -> type java.util.List<T0> (subtype) [T0 ↦ E]"),
        "{e:#?}"
    );
    assert!(e.contains(
        "type java.lang.String -> type java.lang.Comparable<T0> (subtype) [T0 ↦ java.lang.String]"
    ));
}
