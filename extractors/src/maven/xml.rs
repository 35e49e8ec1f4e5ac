//! Namespace-agnostic helpers over `roxmltree`.

use roxmltree::{Document, Node, ParsingOptions};

use super::limits::{MAX_XML_BYTES, MAX_XML_DEPTH, MAX_XML_NODES};

/// Parses XML leniently (DTDs allowed, a byte-order mark or leading blanks skipped), within
/// [`MAX_XML_BYTES`], [`MAX_XML_DEPTH`] and [`MAX_XML_NODES`]. The parser recurses once per
/// nesting level, so the depth is measured before it runs.
pub(crate) fn parse(text: &str) -> Result<Document<'_>, String> {
    if text.len() as u64 > MAX_XML_BYTES {
        return Err(format!(
            "the file has {} bytes, more than MAX_XML_BYTES = {MAX_XML_BYTES}",
            text.len()
        ));
    }
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let depth = max_depth(text);
    if depth > MAX_XML_DEPTH {
        return Err(format!(
            "elements nest {depth} deep or more, deeper than MAX_XML_DEPTH = {MAX_XML_DEPTH}"
        ));
    }
    let opts = ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_XML_NODES,
    };
    Document::parse_with_options(text, opts).map_err(|e| match e {
        roxmltree::Error::NodesLimitReached => {
            format!("more than MAX_XML_NODES = {MAX_XML_NODES} nodes")
        }
        other => other.to_string(),
    })
}

/// An upper bound of the element nesting of `text` (it stops counting past the limit).
///
/// Comments, CDATA sections and processing instructions are skipped; quoted attribute values
/// are skipped inside tags. Inside a `<!DOCTYPE …>`, each quoted literal (an entity's
/// replacement text may hold markup, and the parser expands entities up to 10 levels) is
/// measured as a fragment, and ten times the deepest literal counts toward the total.
fn max_depth(text: &str) -> usize {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut max = 0usize;
    let mut literal_max = 0usize;
    let mut i = 0;
    let find = |from: usize, pat: &[u8]| -> usize {
        b.get(from..)
            .and_then(|rest| rest.windows(pat.len()).position(|w| w == pat))
            .map_or(b.len(), |p| from + p + pat.len())
    };
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            i = find(i + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = find(i + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = find(i + 2, b"?>");
        } else if rest.starts_with(b"<!") {
            // a declaration: up to the `>` outside brackets and quotes
            let mut j = i + 2;
            let mut brackets = 0usize;
            while j < b.len() {
                match b[j] {
                    q @ (b'"' | b'\'') => {
                        let end = b[j + 1..]
                            .iter()
                            .position(|&c| c == q)
                            .map_or(b.len(), |p| j + 1 + p);
                        let literal = &text[j + 1..end.min(text.len())];
                        if literal.contains('<') && !literal.contains("<!") {
                            literal_max = literal_max.max(max_depth(literal));
                        } else if literal.contains('<') {
                            literal_max = literal_max.max(literal.matches('<').count());
                        }
                        j = end + 1;
                        continue;
                    }
                    b'[' => brackets += 1,
                    b']' => brackets = brackets.saturating_sub(1),
                    // a comment inside the internal subset
                    b'<' if brackets > 0 && b[j..].starts_with(b"<!--") => {
                        j = find(j + 4, b"-->");
                        continue;
                    }
                    b'>' if brackets == 0 => break,
                    _ => {}
                }
                j += 1;
            }
            i = j + 1;
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i = find(i + 2, b">");
        } else {
            // a start tag: up to its `>` outside quoted attribute values
            let mut j = i + 1;
            let mut empty = false;
            while j < b.len() {
                match b[j] {
                    q @ (b'"' | b'\'') => {
                        j = b[j + 1..]
                            .iter()
                            .position(|&c| c == q)
                            .map_or(b.len(), |p| j + 1 + p);
                    }
                    b'>' => {
                        empty = b[j - 1] == b'/';
                        break;
                    }
                    _ => {}
                }
                j += 1;
            }
            if !empty {
                depth += 1;
                max = max.max(depth);
                if max > MAX_XML_DEPTH {
                    break;
                }
            }
            i = j + 1;
        }
    }
    max.saturating_add(literal_max.saturating_mul(10))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_elements_only() {
        assert_eq!(max_depth("<a><b/><c x='>' y=\"/>\"><d></d></c></a>"), 3);
        assert_eq!(
            max_depth("<a><!-- <b><b><b> --><![CDATA[<c><c>]]><?p <e>?></a>"),
            1
        );
        let dtd = "<!DOCTYPE a [<!ENTITY e \"<x><x><x></x></x></x>\">]><a>&e;</a>";
        assert_eq!(max_depth(dtd), 31);
    }

    #[test]
    fn deep_nesting_is_refused_before_the_parser_recurses() {
        let n = 200_000;
        let text = format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
        let err = parse(&text).expect_err("too deep");
        assert!(err.contains("MAX_XML_DEPTH"), "{err}");
        let ok = format!(
            "{}{}",
            "<a>".repeat(MAX_XML_DEPTH),
            "</a>".repeat(MAX_XML_DEPTH)
        );
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn entity_markup_counts_toward_the_depth() {
        let inner = format!("{}{}", "<x>".repeat(20), "</x>".repeat(20));
        let text = format!("<!DOCTYPE a [<!ENTITY e \"{inner}\">]><a>&e;</a>");
        let err = parse(&text).expect_err("too deep through an entity");
        assert!(err.contains("MAX_XML_DEPTH"), "{err}");
    }
}
