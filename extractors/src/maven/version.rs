//! Maven version ordering (a port of Maven's `ComparableVersion`) and version ranges.

use std::cmp::Ordering;
use std::fmt;

/// A version that orders the way Maven orders versions (`1.9 < 1.10`, `1.0-alpha < 1.0 < 1.0-sp`).
#[derive(Debug, Clone)]
pub struct MavenVersion {
    text: String,
    items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    /// A number, kept as its decimal digits without leading zeros (so any length compares right).
    Int(String),
    /// A qualifier, already mapped to its comparable form.
    Str(String),
    /// A sub-list started by `-` or by a digit/letter transition.
    List(Vec<Item>),
}

/// Well-known qualifiers in increasing order; the empty string stands for a release.
const QUALIFIERS: [&str; 7] = ["alpha", "beta", "milestone", "rc", "snapshot", "", "sp"];
/// Index of the release qualifier (`""`) in [`QUALIFIERS`].
const RELEASE_INDEX: &str = "5";

fn comparable_qualifier(q: &str) -> String {
    match QUALIFIERS.iter().position(|k| *k == q) {
        Some(i) => i.to_string(),
        None => format!("{}-{}", QUALIFIERS.len(), q),
    }
}

fn string_item(value: &str, followed_by_digit: bool) -> Item {
    let mut v = value;
    if followed_by_digit && v.len() == 1 {
        v = match v {
            "a" => "alpha",
            "b" => "beta",
            "m" => "milestone",
            other => other,
        };
    }
    let v = match v {
        "ga" | "final" | "release" => "",
        "cr" => "rc",
        other => other,
    };
    Item::Str(comparable_qualifier(v))
}

fn parse_item(is_digit: bool, buf: &str) -> Item {
    if is_digit {
        let trimmed = buf.trim_start_matches('0');
        Item::Int(trimmed.to_string())
    } else {
        string_item(buf, false)
    }
}

impl Item {
    fn is_null(&self) -> bool {
        match self {
            Item::Int(v) => v.is_empty(),
            Item::Str(v) => v == RELEASE_INDEX,
            Item::List(l) => l.is_empty(),
        }
    }

    /// Compares `self` with `other`, where `None` stands for a missing item (padding).
    fn compare(&self, other: Option<&Item>) -> Ordering {
        match (self, other) {
            (Item::Int(v), None) => {
                if v.is_empty() {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
            (Item::Int(a), Some(Item::Int(b))) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
            (Item::Int(_), Some(_)) => Ordering::Greater,
            (Item::Str(v), None) => v.as_str().cmp(RELEASE_INDEX),
            (Item::Str(_), Some(Item::Int(_))) => Ordering::Less,
            (Item::Str(a), Some(Item::Str(b))) => a.cmp(b),
            (Item::Str(_), Some(Item::List(_))) => Ordering::Less,
            (Item::List(l), None) => match l.first() {
                None => Ordering::Equal,
                Some(first) => first.compare(None),
            },
            (Item::List(_), Some(Item::Int(_))) => Ordering::Less,
            (Item::List(_), Some(Item::Str(_))) => Ordering::Greater,
            (Item::List(a), Some(Item::List(b))) => compare_lists(a, b),
        }
    }
}

fn compare_lists(a: &[Item], b: &[Item]) -> Ordering {
    let n = a.len().max(b.len());
    for i in 0..n {
        let result = match (a.get(i), b.get(i)) {
            (None, None) => Ordering::Equal,
            (None, Some(r)) => r.compare(None).reverse(),
            (Some(l), r) => l.compare(r),
        };
        if result != Ordering::Equal {
            return result;
        }
    }
    Ordering::Equal
}

fn normalize(list: &mut Vec<Item>) {
    let mut i = list.len();
    while i > 0 {
        i -= 1;
        if list[i].is_null() {
            list.remove(i);
        } else if !matches!(list[i], Item::List(_)) {
            break;
        }
    }
}

/// Builds the item tree (Maven's `ComparableVersion.parseVersion`).
fn parse(version: &str) -> Vec<Item> {
    let version = version.to_lowercase();
    let chars: Vec<char> = version.chars().collect();
    // A stack of lists under construction; a finished sub-list is folded into its parent.
    let mut stack: Vec<Vec<Item>> = vec![Vec::new()];
    let mut is_digit = false;
    let mut start = 0usize;
    let slice = |from: usize, to: usize| chars[from..to].iter().collect::<String>();

    fn push(stack: &mut [Vec<Item>], item: Item) {
        if let Some(top) = stack.last_mut() {
            top.push(item);
        }
    }

    for (i, &c) in chars.iter().enumerate() {
        if c == '.' {
            if i == start {
                push(&mut stack, Item::Int(String::new()));
            } else {
                push(&mut stack, parse_item(is_digit, &slice(start, i)));
            }
            start = i + 1;
        } else if c == '-' {
            if i == start {
                push(&mut stack, Item::Int(String::new()));
            } else {
                push(&mut stack, parse_item(is_digit, &slice(start, i)));
            }
            start = i + 1;
            stack.push(Vec::new());
        } else if c.is_ascii_digit() {
            if !is_digit && i > start {
                push(&mut stack, string_item(&slice(start, i), true));
                start = i;
                stack.push(Vec::new());
            }
            is_digit = true;
        } else {
            if is_digit && i > start {
                push(&mut stack, parse_item(true, &slice(start, i)));
                start = i;
                stack.push(Vec::new());
            }
            is_digit = false;
        }
    }
    if chars.len() > start {
        push(&mut stack, parse_item(is_digit, &slice(start, chars.len())));
    }
    // Fold the open sub-lists into their parents, innermost first, normalizing each.
    while stack.len() > 1 {
        let mut inner = stack.pop().unwrap_or_default();
        normalize(&mut inner);
        push(&mut stack, Item::List(inner));
    }
    let mut root = stack.pop().unwrap_or_default();
    normalize(&mut root);
    root
}

impl MavenVersion {
    /// Parses a version string (never fails: any string is a version to Maven).
    pub fn new(text: &str) -> Self {
        MavenVersion {
            text: text.to_string(),
            items: parse(text),
        }
    }

    /// The original text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether this is a `-SNAPSHOT` version.
    pub fn is_snapshot(&self) -> bool {
        is_snapshot(&self.text)
    }
}

/// Whether a version string denotes a snapshot.
pub fn is_snapshot(version: &str) -> bool {
    version.to_ascii_uppercase().ends_with("SNAPSHOT")
}

impl PartialEq for MavenVersion {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for MavenVersion {}
impl PartialOrd for MavenVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for MavenVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        compare_lists(&self.items, &other.items)
    }
}
impl fmt::Display for MavenVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Compares two version strings by Maven's ordering.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    MavenVersion::new(a).cmp(&MavenVersion::new(b))
}

/// One bound of a version range.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Bound {
    version: String,
    inclusive: bool,
}

/// One interval of a version range, such as `[1.0,2.0)`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Interval {
    lower: Option<Bound>,
    upper: Option<Bound>,
}

impl Interval {
    fn contains(&self, v: &MavenVersion) -> bool {
        if let Some(lo) = &self.lower {
            let c = v.cmp(&MavenVersion::new(&lo.version));
            if c == Ordering::Less || (c == Ordering::Equal && !lo.inclusive) {
                return false;
            }
        }
        if let Some(hi) = &self.upper {
            let c = v.cmp(&MavenVersion::new(&hi.version));
            if c == Ordering::Greater || (c == Ordering::Equal && !hi.inclusive) {
                return false;
            }
        }
        true
    }
}

/// A Maven version range such as `[1.0,2.0)`, `[1.5]`, `(,1.0],[1.2,)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRange {
    text: String,
    intervals: Vec<Interval>,
}

/// Whether a version string is a range (starts with `[` or `(`).
pub fn is_range(version: &str) -> bool {
    let v = version.trim_start();
    v.starts_with('[') || v.starts_with('(')
}

impl VersionRange {
    /// Parses a range; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<VersionRange, String> {
        let mut intervals = Vec::new();
        let mut rest = text.trim();
        if rest.is_empty() {
            return Err("empty version range".into());
        }
        while !rest.is_empty() {
            let open = rest.chars().next().unwrap_or(' ');
            if open != '[' && open != '(' {
                return Err(format!("expected `[` or `(` at `{rest}`"));
            }
            let close_at = rest
                .find([']', ')'])
                .ok_or_else(|| format!("unclosed interval in `{text}`"))?;
            let close = rest[close_at..].chars().next().unwrap_or(')');
            let body = &rest[1..close_at];
            let interval = if let Some((lo, hi)) = body.split_once(',') {
                if hi.contains(',') {
                    return Err(format!("too many commas in interval `{body}`"));
                }
                let (lo, hi) = (lo.trim(), hi.trim());
                let lower = (!lo.is_empty()).then(|| Bound {
                    version: lo.to_string(),
                    inclusive: open == '[',
                });
                let upper = (!hi.is_empty()).then(|| Bound {
                    version: hi.to_string(),
                    inclusive: close == ']',
                });
                if let (Some(l), Some(u)) = (&lower, &upper) {
                    if compare_versions(&l.version, &u.version) == Ordering::Greater {
                        return Err(format!("lower bound above upper bound in `{text}`"));
                    }
                }
                Interval { lower, upper }
            } else {
                let v = body.trim();
                if open != '[' || close != ']' || v.is_empty() {
                    return Err(format!(
                        "a single version must be written `[v]`, got `{text}`"
                    ));
                }
                let b = Bound {
                    version: v.to_string(),
                    inclusive: true,
                };
                Interval {
                    lower: Some(b.clone()),
                    upper: Some(b),
                }
            };
            intervals.push(interval);
            rest = rest[close_at + 1..].trim_start();
            if let Some(r) = rest.strip_prefix(',') {
                rest = r.trim_start();
                if rest.is_empty() {
                    return Err(format!("trailing comma in `{text}`"));
                }
            } else if !rest.is_empty() {
                return Err(format!("expected `,` between intervals at `{rest}`"));
            }
        }
        Ok(VersionRange {
            text: text.to_string(),
            intervals,
        })
    }

    /// Whether `version` lies in the range.
    pub fn contains(&self, version: &str) -> bool {
        let v = MavenVersion::new(version);
        self.intervals.iter().any(|i| i.contains(&v))
    }

    /// The highest non-snapshot version among `candidates` that lies in the range.
    pub fn highest<'a>(&self, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
        candidates
            .into_iter()
            .filter(|v| !is_snapshot(v) && self.contains(v))
            .max_by(|a, b| compare_versions(a, b))
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lt(a: &str, b: &str) {
        assert_eq!(compare_versions(a, b), Ordering::Less, "{a} < {b}");
        assert_eq!(compare_versions(b, a), Ordering::Greater, "{b} > {a}");
    }
    fn eq(a: &str, b: &str) {
        assert_eq!(compare_versions(a, b), Ordering::Equal, "{a} == {b}");
    }

    #[test]
    fn ordering_follows_maven() {
        let ordered = [
            "1-alpha2snapshot",
            "1-alpha2",
            "1-alpha-123",
            "1-beta-2",
            "1-beta123",
            "1-m2",
            "1-m11",
            "1-rc",
            "1-cr2",
            "1-rc123",
            "1-SNAPSHOT",
            "1",
            "1-sp",
            "1-sp2",
            "1-sp123",
            "1-abc",
            "1-def",
            "1-pom-1",
            "1-1-snapshot",
            "1-1",
            "1-2",
            "1-123",
        ];
        for w in ordered.windows(2) {
            lt(w[0], w[1]);
        }
        lt("1.9", "1.10");
        lt("1.0", "1.0.1");
        lt("2.0-SNAPSHOT", "2.0");
        lt("1.0-alpha-1", "1.0");
        lt("1.0", "1.0-sp");
        lt("1.0.0.Final", "1.0.1");
        lt("3.12.0", "3.14.0");
        lt("99999999999999999999", "100000000000000000000");
    }

    #[test]
    fn equal_forms() {
        eq("1", "1.0");
        eq("1", "1.0.0");
        eq("1.0", "1-ga");
        eq("1.0", "1.0-final");
        eq("1a1", "1-alpha-1");
        eq("1.0-RC1", "1.0-cr1");
        eq("1.0", "1.0.0.0");
    }

    #[test]
    fn ranges() {
        let r = VersionRange::parse("[1.0,2.0)").unwrap();
        assert!(r.contains("1.0") && r.contains("1.5") && !r.contains("2.0"));
        let r = VersionRange::parse("(,1.0],[1.2,)").unwrap();
        assert!(r.contains("0.9") && !r.contains("1.1") && r.contains("5"));
        let r = VersionRange::parse("[1.5]").unwrap();
        assert!(r.contains("1.5") && !r.contains("1.6"));
        assert_eq!(
            VersionRange::parse("[1,2]")
                .unwrap()
                .highest(["1.0", "1.5", "2.1", "2.0-SNAPSHOT"]),
            Some("1.5")
        );
        assert!(VersionRange::parse("[2.0,1.0]").is_err());
        assert!(VersionRange::parse("[1.0").is_err());
        assert!(VersionRange::parse("(1.0)").is_err());
    }
}
