//! Namespace-agnostic helpers over `roxmltree`.

use roxmltree::{Document, Node, ParsingOptions};

/// Parses XML leniently (DTDs allowed, a byte-order mark or leading blanks skipped).
pub(crate) fn parse(text: &str) -> Result<Document<'_>, String> {
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let opts = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(text, opts).map_err(|e| e.to_string())
}

/// The first child element with this local name.
pub(crate) fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children()
        .find(|c| c.is_element() && c.tag_name().name() == name)
}

/// All child elements with this local name.
pub(crate) fn children<'a, 'i: 'a>(
    node: Node<'a, 'i>,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == name)
}

/// The element reached by following child names.
pub(crate) fn path<'a, 'i>(node: Node<'a, 'i>, names: &[&str]) -> Option<Node<'a, 'i>> {
    names.iter().try_fold(node, |n, name| child(n, name))
}

/// The trimmed text of an element (all text descendants), `None` when empty.
pub(crate) fn node_text(node: Node<'_, '_>) -> Option<String> {
    let s: String = node
        .descendants()
        .filter(|d| d.is_text())
        .filter_map(|d| d.text())
        .collect();
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// The trimmed text of the named child, `None` when absent or empty.
pub(crate) fn text(node: Node<'_, '_>, name: &str) -> Option<String> {
    child(node, name).and_then(node_text)
}
