//! Parsing one documentation page into a DOM in bounded time: html5ever's tokenizer and tree
//! builder, guarded against the inputs that make them quadratic.
//!
//! html5ever follows the HTML standard, whose algorithms scan lists that hostile markup can
//! grow with the page:
//!
//! - the tokenizer compares each attribute's name with every earlier one of the same tag, so a
//!   tag with *k* attributes costs *k*²/2 comparisons (40,000 attributes: 12 s; times measured
//!   on the dev profile, before these bounds). A linear pre-scan ([`max_tag_attributes`])
//!   bounds the attributes of every tag the tokenizer can see by [`MAX_TAG_ATTRIBUTES`];
//! - the tree builder scans the stack of open elements and the list of active formatting
//!   elements ("has an element in scope", the adoption agency, "reconstruct the active
//!   formatting elements"), and misnested formatting tags (`<b><i><u><s>x</b>`, repeated) or
//!   deep `<div>` nesting grow both with every tag, so the work is quadratic in the page
//!   (`<b><i><u><s>x</b>` ×50,000: 11 s; 50,000 nested `<div>`s: 41 s). Every step of those
//!   scans goes through the tree sink (`elem_name`, `same_node`), so a counting sink
//!   measures the work, and the page is fed in [`CHUNK_BYTES`] pieces, stopped once the work
//!   passes [`TREE_WORK_PER_BYTE`] units per byte of the page (plus [`TREE_WORK_FLOOR`]);
//! - the layouts' readers match CSS selectors, whose descendant combinators walk an element's
//!   ancestors: a DOM deeper than [`MAX_DOM_DEPTH`] is refused after parsing.
//!
//! A page past any bound is a problem naming the bound; real pages stay far below all three
//! (see the constants).

use std::borrow::Cow;
use std::cell::{Cell, Ref};
use std::rc::Rc;

use ego_tree::NodeId;
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, QualName};
use scraper::{Html, HtmlTreeSink};

/// The most attributes one tag may have. The tokenizer's duplicate check makes a tag's cost
/// quadratic in its attributes; with this bound a page of *n* bytes costs at most
/// `n / 2 × MAX_TAG_ATTRIBUTES` comparisons. The pages of the JDK's javadoc (JDK 8 to 25),
/// Scaladoc 3 and Dokka have at most 8 (a `.woff` font read as HTML: 100).
pub const MAX_TAG_ATTRIBUTES: usize = 64;

/// Units of tree-building work allowed per byte of a page. A unit is one look at an element
/// of the stack of open elements or of the list of active formatting elements, or one call
/// into the tree. The JDK 25 javadoc of `java.base` (1,800 pages, up to 8 MiB), and the JDK 8
/// to 17, Scaladoc 3 and Dokka pages of the tests need at most 0.8 per byte; the quadratic
/// pages need thousands. A unit takes 2-50 ns (the most when a stack millions deep misses the
/// cache), so the budget adds at most about 0.4 µs per byte to the parse.
pub const TREE_WORK_PER_BYTE: u64 = 8;

/// Units of tree-building work any page may use, however small.
pub const TREE_WORK_FLOOR: u64 = 1 << 20;

/// The page is fed to the parser in pieces of this many bytes, the work checked in between:
/// a piece can overshoot the budget by at most its tags (21 of 3 bytes) times a few scans of
/// the stack.
pub const CHUNK_BYTES: usize = 64;

/// The deepest element nesting a page may have once parsed (a selector's descendant
/// combinator walks up to this many ancestors per element). The pages measured for
/// [`TREE_WORK_PER_BYTE`] nest at most 26 deep.
pub const MAX_DOM_DEPTH: usize = 256;

/// The scraper tree sink, counting its calls and the elements they look at.
struct Counting {
    inner: HtmlTreeSink,
    work: Rc<Cell<u64>>,
}

impl Counting {
    fn add(&self, n: u64) {
        self.work.set(self.work.get().saturating_add(n));
    }
}

impl TreeSink for Counting {
    type Handle = NodeId;
    type Output = Html;
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) -> Html {
        self.inner.finish()
    }
    fn parse_error(&self, msg: Cow<'static, str>) {
        self.add(1);
        self.inner.parse_error(msg)
    }
    fn get_document(&self) -> NodeId {
        self.inner.get_document()
    }
    fn elem_name<'a>(&'a self, target: &'a NodeId) -> Ref<'a, QualName> {
        self.add(1);
        self.inner.elem_name(target)
    }
    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> NodeId {
        self.add(1 + attrs.len() as u64);
        self.inner.create_element(name, attrs, flags)
    }
    fn create_comment(&self, text: StrTendril) -> NodeId {
        self.add(1);
        self.inner.create_comment(text)
    }
    fn create_pi(&self, target: StrTendril, data: StrTendril) -> NodeId {
        self.add(1);
        self.inner.create_pi(target, data)
    }
    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        self.add(1);
        self.inner.append(parent, child)
    }
    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        self.add(1);
        self.inner
            .append_based_on_parent_node(element, prev_element, child)
    }
    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.add(1);
        self.inner
            .append_doctype_to_document(name, public_id, system_id)
    }
    fn mark_script_already_started(&self, node: &NodeId) {
        self.inner.mark_script_already_started(node)
    }
    fn pop(&self, node: &NodeId) {
        self.add(1);
        self.inner.pop(node)
    }
    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        self.add(1);
        self.inner.get_template_contents(target)
    }
    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        self.add(1);
        self.inner.same_node(x, y)
    }
    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.inner.set_quirks_mode(mode)
    }
    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        self.add(1);
        self.inner.append_before_sibling(sibling, new_node)
    }
    fn add_attrs_if_missing(&self, target: &NodeId, attrs: Vec<Attribute>) {
        // each attribute is a binary search and an insertion into the element's sorted list
        let existing = self
            .inner
            .0
            .borrow()
            .tree
            .get(*target)
            .and_then(|n| n.value().as_element().map(|e| e.attrs().count()))
            .unwrap_or(0);
        self.add((attrs.len() as u64).saturating_mul(existing as u64 + 1));
        self.inner.add_attrs_if_missing(target, attrs)
    }
    fn associate_with_form(
        &self,
        target: &NodeId,
        form: &NodeId,
        nodes: (&NodeId, Option<&NodeId>),
    ) {
        self.add(1);
        self.inner.associate_with_form(target, form, nodes)
    }
    fn remove_from_parent(&self, target: &NodeId) {
        self.add(1);
        self.inner.remove_from_parent(target)
    }
    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        self.add(1);
        self.inner.reparent_children(node, new_parent)
    }
    fn is_mathml_annotation_xml_integration_point(&self, handle: &NodeId) -> bool {
        self.add(1);
        self.inner
            .is_mathml_annotation_xml_integration_point(handle)
    }
    fn set_current_line(&self, line_number: u64) {
        self.inner.set_current_line(line_number)
    }
    fn allow_declarative_shadow_roots(&self, intended_parent: &NodeId) -> bool {
        self.inner.allow_declarative_shadow_roots(intended_parent)
    }
    fn attach_declarative_shadow(
        &self,
        location: &NodeId,
        template: &NodeId,
        attrs: &[Attribute],
    ) -> bool {
        self.add(1);
        self.inner
            .attach_declarative_shadow(location, template, attrs)
    }
}

/// The tokenizer's states inside a tag (HTML standard §13.2.5.8-13.2.5.40), the only ones in
/// which attributes are made.
#[derive(Clone, Copy)]
enum St {
    TagName,
    BeforeAttrName,
    AttrName,
    AfterAttrName,
    BeforeAttrValue,
    ValueDouble,
    ValueSingle,
    ValueUnquoted,
    AfterValueQuoted,
    SelfClosing,
}

const STATES: usize = 10;

const ALL: [St; STATES] = [
    St::TagName,
    St::BeforeAttrName,
    St::AttrName,
    St::AfterAttrName,
    St::BeforeAttrValue,
    St::ValueDouble,
    St::ValueSingle,
    St::ValueUnquoted,
    St::AfterValueQuoted,
    St::SelfClosing,
];

/// The bytes the tag states tell apart.
#[derive(Clone, Copy)]
enum Class {
    /// `\t`, `\n`, `\x0C`, `\r` (which the tokenizer sees as `\n`) and space.
    Space,
    Slash,
    Gt,
    Eq,
    DoubleQuote,
    SingleQuote,
    Other,
}

const CLASSES: usize = 7;

fn class_of(b: u8) -> Class {
    match b {
        b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' => Class::Space,
        b'/' => Class::Slash,
        b'>' => Class::Gt,
        b'=' => Class::Eq,
        b'"' => Class::DoubleQuote,
        b'\'' => Class::SingleQuote,
        _ => Class::Other,
    }
}

/// What a byte of class `c` does in state `s`: the attributes it starts and the state that
/// reads the next byte (`None`: the tag ends). A byte reconsumed in another state recurses
/// at most twice.
fn step(s: St, c: Class) -> (u32, Option<St>) {
    use Class::*;
    use St::*;
    match (s, c) {
        (TagName, Space) => (0, Some(BeforeAttrName)),
        (TagName, Slash) => (0, Some(SelfClosing)),
        (TagName, Gt) => (0, None),
        (TagName, _) => (0, Some(TagName)),
        (BeforeAttrName, Space) => (0, Some(BeforeAttrName)),
        (BeforeAttrName, Slash | Gt) => step(AfterAttrName, c),
        // `=` starts a name (a parse error), consumed as its first character
        (BeforeAttrName, Eq) => (1, Some(AttrName)),
        (BeforeAttrName, _) => {
            let (n, t) = step(AttrName, c);
            (n + 1, t)
        }
        (AttrName, Space | Slash | Gt) => step(AfterAttrName, c),
        (AttrName, Eq) => (0, Some(BeforeAttrValue)),
        (AttrName, _) => (0, Some(AttrName)),
        (AfterAttrName, Space) => (0, Some(AfterAttrName)),
        (AfterAttrName, Slash) => (0, Some(SelfClosing)),
        (AfterAttrName, Eq) => (0, Some(BeforeAttrValue)),
        (AfterAttrName, Gt) => (0, None),
        (AfterAttrName, _) => {
            let (n, t) = step(AttrName, c);
            (n + 1, t)
        }
        (BeforeAttrValue, Space) => (0, Some(BeforeAttrValue)),
        (BeforeAttrValue, DoubleQuote) => (0, Some(ValueDouble)),
        (BeforeAttrValue, SingleQuote) => (0, Some(ValueSingle)),
        (BeforeAttrValue, Gt) => (0, None),
        (BeforeAttrValue, _) => step(ValueUnquoted, c),
        (ValueDouble, DoubleQuote) => (0, Some(AfterValueQuoted)),
        (ValueDouble, _) => (0, Some(ValueDouble)),
        (ValueSingle, SingleQuote) => (0, Some(AfterValueQuoted)),
        (ValueSingle, _) => (0, Some(ValueSingle)),
        (ValueUnquoted, Space) => (0, Some(BeforeAttrName)),
        (ValueUnquoted, Gt) => (0, None),
        (ValueUnquoted, _) => (0, Some(ValueUnquoted)),
        (AfterValueQuoted, Space) => (0, Some(BeforeAttrName)),
        (AfterValueQuoted, Slash) => (0, Some(SelfClosing)),
        (AfterValueQuoted, Gt) => (0, None),
        (AfterValueQuoted, _) => step(BeforeAttrName, c),
        (SelfClosing, Gt) => (0, None),
        (SelfClosing, _) => step(BeforeAttrName, c),
    }
}

/// An upper bound on the attributes of any tag html5ever's tokenizer can read in `text`, in
/// one backward pass over the bytes.
///
/// The tokenizer's states outside tags depend on the tree builder (comments, `<script>` and
/// `<title>` text, foreign content), but inside a tag they depend on the bytes alone, and
/// every tag starts at a `<` or `</` followed by an ASCII letter. So the attributes a tag
/// would have are computed for *every* such position, whatever the tokenizer's state there:
/// `f[p][s]`, the attributes started from state `s` at byte `p` until the tag ends, is a
/// function of `f[p + 1]` (see `step`), and a tag opening at `p` has `f[p + 1][TagName]` (or
/// `f[p + 2]` for an end tag). The bytes that delimit names and values are ASCII, so the
/// UTF-8 text is scanned byte by byte.
pub fn max_tag_attributes(text: &str) -> usize {
    let mut table = [[(0u32, None::<St>); CLASSES]; STATES];
    for s in ALL {
        for c in [
            Class::Space,
            Class::Slash,
            Class::Gt,
            Class::Eq,
            Class::DoubleQuote,
            Class::SingleQuote,
            Class::Other,
        ] {
            table[s as usize][c as usize] = step(s, c);
        }
    }
    let bytes = text.as_bytes();
    let mut next = [0u32; STATES];
    let mut max = 0u32;
    // attributes from state TagName at p + 1 and p + 2 (for `<x` and `</x` at p)
    let mut tag_at = [0u32; 2];
    let mut after_other = false;
    for p in (0..bytes.len()).rev() {
        let b = bytes[p];
        let class = class_of(b);
        let other = matches!(class, Class::Other);
        // an `Other` byte leads every state to one that an `Other` byte keeps, adding nothing
        // there: in a run of them, `f` is the same at every byte but the last
        let cur = if other && after_other {
            next
        } else {
            let mut cur = [0u32; STATES];
            for (s, out) in cur.iter_mut().enumerate() {
                let (n, t) = table[s][class as usize];
                *out = t.map_or(0, |t| next[t as usize]).saturating_add(n);
            }
            cur
        };
        after_other = other;
        if b == b'<' {
            let letter = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_alphabetic);
            if letter(p + 1) {
                max = max.max(tag_at[0]);
            } else if bytes.get(p + 1) == Some(&b'/') && letter(p + 2) {
                max = max.max(tag_at[1]);
            }
        }
        tag_at = [cur[St::TagName as usize], tag_at[0]];
        next = cur;
    }
    max as usize
}

/// The deepest nesting of the tree (the document node is depth 0), walked without recursion.
fn dom_depth(html: &Html) -> usize {
    let mut depth = 0usize;
    let mut max = 0usize;
    for edge in html.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(_) => {
                depth += 1;
                max = max.max(depth);
            }
            ego_tree::iter::Edge::Close(_) => depth = depth.saturating_sub(1),
        }
    }
    max.saturating_sub(1)
}

/// What parsing one page cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseCost {
    /// Units of tree-building work (see [`TREE_WORK_PER_BYTE`]).
    pub work: u64,
    /// The deepest element nesting.
    pub depth: usize,
    /// The most attributes a tag could have ([`max_tag_attributes`]).
    pub attributes: usize,
}

/// The tree-building budget of a page of `len` bytes.
pub fn tree_work_budget(len: usize) -> u64 {
    TREE_WORK_FLOOR.saturating_add(TREE_WORK_PER_BYTE.saturating_mul(len as u64))
}

/// Parses a page as [`Html::parse_document`] does, within the bounds of this module; a page
/// past one is an error saying which.
pub fn parse_page(text: &str) -> Result<Html, String> {
    parse_page_measured(text).0
}

/// [`parse_page`], and what the parse cost (up to where it stopped).
pub fn parse_page_measured(text: &str) -> (Result<Html, String>, ParseCost) {
    let mut cost = ParseCost {
        attributes: max_tag_attributes(text),
        ..ParseCost::default()
    };
    if cost.attributes > MAX_TAG_ATTRIBUTES {
        let reason = format!(
            "a tag with {} attributes, more than MAX_TAG_ATTRIBUTES = {MAX_TAG_ATTRIBUTES}; \
             not parsed",
            cost.attributes
        );
        return (Err(reason), cost);
    }
    let budget = tree_work_budget(text.len());
    let work = Rc::new(Cell::new(0u64));
    let sink = Counting {
        inner: HtmlTreeSink::new(Html::new_document()),
        work: Rc::clone(&work),
    };
    let mut parser = html5ever::driver::parse_document(sink, Default::default());
    let over = |done: usize| {
        format!(
            "HTML tree building passed its budget of TREE_WORK_PER_BYTE = {TREE_WORK_PER_BYTE} \
             units per byte ({budget} units) after {done} of {} bytes (misnested or deeply \
             nested tags); not parsed",
            text.len()
        )
    };
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + CHUNK_BYTES).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        parser.process(StrTendril::from_slice(&text[at..end]));
        at = end;
        if work.get() > budget {
            cost.work = work.get();
            return (Err(over(at)), cost);
        }
    }
    let html = parser.finish();
    cost.work = work.get();
    if cost.work > budget {
        return (Err(over(text.len())), cost);
    }
    cost.depth = dom_depth(&html);
    if cost.depth > MAX_DOM_DEPTH {
        let reason = format!(
            "elements nested {} deep, more than MAX_DOM_DEPTH = {MAX_DOM_DEPTH}; not read",
            cost.depth
        );
        return (Err(reason), cost);
    }
    (Ok(html), cost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_bound_follows_the_tokenizer() {
        assert_eq!(max_tag_attributes("<p>text</p>"), 0);
        assert_eq!(max_tag_attributes("<a href=x title='y z' id=\"q\">"), 3);
        // a value's quotes hide `>` and whitespace
        assert_eq!(max_tag_attributes("<a x=\"> b c\" d e>"), 3);
        // attributes without whitespace after a quoted value, `=` as a name, self-closing
        assert_eq!(max_tag_attributes("<a x='1'y='2'/z =w =v>"), 4);
        assert_eq!(max_tag_attributes("<a ==b>"), 1);
        // an end tag's attributes are read (and dropped) too
        assert_eq!(max_tag_attributes("</a b c>"), 2);
        // not a tag: `<` and a digit, `< a`
        assert_eq!(max_tag_attributes("<1 a b c> < a b c>"), 0);
        // inside a comment the tokenizer sees no tag, but the scan still counts it (an upper
        // bound that does not depend on the tokenizer's state)
        assert_eq!(max_tag_attributes("<!-- <a b c> -->"), 2);
        // a quote in a comment cannot hide a later tag from the scan
        assert_eq!(max_tag_attributes("<!-- <x a=\" --><div b c d>"), 3);
        // an unterminated tag counts to the end
        assert_eq!(max_tag_attributes("<a b c d"), 3);
    }

    #[test]
    fn attribute_bound_matches_html5ever_on_the_attributes_it_keeps() {
        for page in [
            "<div a b c d e f></div>",
            "<div a='1' b=\"2\" c=3 d></div>",
            "<div a=\">\"b='<' c></div>",
        ] {
            let html = Html::parse_document(page);
            let kept = html
                .tree
                .root()
                .descendants()
                .filter_map(|n| n.value().as_element().map(|e| e.attrs().count()))
                .max()
                .unwrap_or(0);
            assert!(max_tag_attributes(page) >= kept, "{page}");
            assert_eq!(max_tag_attributes(page), kept, "{page}");
        }
    }

    #[test]
    fn ordinary_markup_parses_like_scraper() {
        let page =
            "<html><body><div class=a><p>x<b>y</b></p><ul><li>1<li>2</ul></div></body></html>";
        let (ours, cost) = parse_page_measured(page);
        let ours = ours.unwrap();
        assert_eq!(ours.html(), Html::parse_document(page).html());
        assert!(cost.work > 0 && cost.work < tree_work_budget(page.len()));
        assert_eq!(cost.depth, 6, "html body div p b + text");
    }

    #[test]
    fn misnested_formatting_passes_the_budget() {
        let page = "<b><i><u><s>x</b>".repeat(20_000);
        let err = parse_page(&page).unwrap_err();
        assert!(err.contains("TREE_WORK_PER_BYTE"), "{err}");
    }

    #[test]
    fn deep_divs_pass_the_budget() {
        let page = format!("{}x{}", "<div>".repeat(20_000), "</div>".repeat(20_000));
        let err = parse_page(&page).unwrap_err();
        assert!(err.contains("TREE_WORK_PER_BYTE"), "{err}");
    }

    #[test]
    fn deep_spans_are_built_then_refused_for_depth() {
        let spans = |k: usize| format!("{}x{}", "<span>".repeat(k), "</span>".repeat(k));
        let err = parse_page(&spans(100_000)).unwrap_err();
        assert!(err.contains("MAX_DOM_DEPTH"), "{err}");
        // html, body, the spans, the text
        let (ok, cost) = parse_page_measured(&spans(MAX_DOM_DEPTH - 3));
        assert!(ok.is_ok());
        assert_eq!(cost.depth, MAX_DOM_DEPTH);
        let err = parse_page(&spans(MAX_DOM_DEPTH - 2)).unwrap_err();
        assert!(err.contains("MAX_DOM_DEPTH"), "{err}");
    }

    #[test]
    fn many_attributes_are_refused_before_parsing() {
        let attrs: Vec<String> = (0..=MAX_TAG_ATTRIBUTES).map(|i| format!("a{i}")).collect();
        let page = format!("<span {}>x</span>", attrs.join(" "));
        let err = parse_page(&page).unwrap_err();
        assert!(err.contains("MAX_TAG_ATTRIBUTES"), "{err}");
    }
}
