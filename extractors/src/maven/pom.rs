//! The POM model: parsing, inheritance, property interpolation, dependency management.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use roxmltree::Node;

use super::coordinate::Coordinate;
use super::error::{MavenError, Result};
use super::limits::{MAX_POM_EXPANSION_BYTES, MAX_POM_SUBSTITUTIONS, MAX_PROPERTY_EXPANSION_BYTES};
use super::xml;

/// An `<exclusion>`: `group:artifact`, where either part may be `*`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Exclusion {
    /// The group, or `*`.
    pub group: String,
    /// The artifact, or `*`.
    pub artifact: String,
}

impl Exclusion {
    /// Whether the exclusion matches `group:artifact`.
    pub fn matches(&self, group: &str, artifact: &str) -> bool {
        (self.group == "*" || self.group == group)
            && (self.artifact == "*" || self.artifact == artifact)
    }
}

/// A dependency as declared in a POM (after interpolation and dependency management).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    /// The group id.
    pub group: String,
    /// The artifact id.
    pub artifact: String,
    /// The version or version range (`None` when neither declared nor managed).
    pub version: Option<String>,
    /// The dependency type (`jar`, `pom`, `test-jar`, …).
    pub kind: String,
    /// The classifier.
    pub classifier: Option<String>,
    /// The scope as written (`None` when not given; that means `compile`).
    pub scope: Option<String>,
    /// Whether the dependency is optional.
    pub optional: bool,
    /// Its exclusions.
    pub exclusions: Vec<Exclusion>,
}

/// The file extension and default classifier of a dependency type (Maven's artifact handlers).
pub fn type_to_file(kind: &str) -> (&str, Option<&str>) {
    match kind {
        "jar" | "bundle" | "maven-plugin" | "ejb" => ("jar", None),
        "test-jar" => ("jar", Some("tests")),
        "ejb-client" => ("jar", Some("client")),
        "java-source" => ("jar", Some("sources")),
        "javadoc" => ("jar", Some("javadoc")),
        other => (other, None),
    }
}

/// The extension of the main artifact of a project with this packaging.
pub fn packaging_extension(packaging: &str) -> &str {
    match packaging {
        "pom" | "war" | "ear" | "rar" | "aar" | "zip" => packaging,
        _ => "jar",
    }
}

impl Dependency {
    /// The key under which dependency management matches it: `group:artifact:type[:classifier]`.
    pub fn management_key(&self) -> String {
        match &self.classifier {
            Some(c) => format!("{}:{}:{}:{}", self.group, self.artifact, self.kind, c),
            None => format!("{}:{}:{}", self.group, self.artifact, self.kind),
        }
    }

    /// The scope, `compile` when none was given.
    pub fn scope(&self) -> &str {
        self.scope.as_deref().unwrap_or("compile")
    }

    /// The artifact coordinate (the version may still be missing or a range).
    pub fn coordinate(&self) -> Coordinate {
        let (ext, default_classifier) = type_to_file(&self.kind);
        Coordinate {
            group: self.group.clone(),
            artifact: self.artifact.clone(),
            version: self.version.clone(),
            classifier: self
                .classifier
                .clone()
                .or_else(|| default_classifier.map(str::to_string)),
            extension: ext.to_string(),
        }
    }

    /// `group:artifact[:version]`, for messages.
    pub fn display(&self) -> String {
        self.coordinate().to_string()
    }
}

/// The effective POM: parents merged, properties interpolated, BOMs imported, and
/// dependency management applied to its own dependencies.
#[derive(Debug, Clone)]
pub struct Pom {
    /// The group id.
    pub group: String,
    /// The artifact id.
    pub artifact: String,
    /// The version.
    pub version: String,
    /// The packaging (`jar` when not given).
    pub packaging: String,
    /// The parent, `group:artifact:version`.
    pub parent: Option<String>,
    /// All properties, inherited ones included, interpolated.
    pub properties: BTreeMap<String, String>,
    /// The dependencies, in declaration order (own first, then inherited).
    pub dependencies: Vec<Dependency>,
    /// The dependency management section (imports expanded).
    pub managed: Vec<Dependency>,
    /// Where the artifact moved to, when the POM is a relocation.
    pub relocation: Option<Coordinate>,
    /// The repository URL the POM came from, or `None` when it was already cached.
    pub repository: Option<String>,
}

impl Pom {
    /// `group:artifact:version`.
    pub fn gav(&self) -> String {
        format!("{}:{}:{}", self.group, self.artifact, self.version)
    }

    /// The managed entry for a dependency, if any.
    pub fn managed_for(&self, dep: &Dependency) -> Option<&Dependency> {
        let key = dep.management_key();
        self.managed.iter().find(|m| m.management_key() == key)
    }
}

/// A dependency exactly as written.
#[derive(Debug, Clone, Default)]
pub(crate) struct RawDep {
    group: Option<String>,
    artifact: Option<String>,
    version: Option<String>,
    kind: Option<String>,
    classifier: Option<String>,
    scope: Option<String>,
    optional: Option<String>,
    exclusions: Vec<(String, String)>,
}

/// A POM file exactly as written (no inheritance, no interpolation).
#[derive(Debug, Clone, Default)]
pub(crate) struct RawPom {
    group: Option<String>,
    artifact: Option<String>,
    version: Option<String>,
    packaging: Option<String>,
    /// `(group, artifact, version)` of the parent.
    pub parent: Option<(String, String, String)>,
    properties: Vec<(String, String)>,
    managed: Vec<RawDep>,
    dependencies: Vec<RawDep>,
    relocation: Option<(Option<String>, Option<String>, Option<String>)>,
    /// Where the file came from: the repository URL, or `None` for the cache.
    pub repository: Option<String>,
    /// The file's URL or cache path, for messages.
    pub location: String,
}

fn parse_deps(list: Option<Node<'_, '_>>) -> Vec<RawDep> {
    let Some(list) = list else {
        return Vec::new();
    };
    xml::children(list, "dependency")
        .map(|d| RawDep {
            group: xml::text(d, "groupId"),
            artifact: xml::text(d, "artifactId"),
            version: xml::text(d, "version"),
            kind: xml::text(d, "type"),
            classifier: xml::text(d, "classifier"),
            scope: xml::text(d, "scope"),
            optional: xml::text(d, "optional"),
            exclusions: xml::child(d, "exclusions")
                .map(|ex| {
                    xml::children(ex, "exclusion")
                        .map(|e| {
                            (
                                xml::text(e, "groupId").unwrap_or_else(|| "*".into()),
                                xml::text(e, "artifactId").unwrap_or_else(|| "*".into()),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

fn parse_properties(node: Option<Node<'_, '_>>, into: &mut Vec<(String, String)>) {
    if let Some(props) = node {
        for p in props.children().filter(|c| c.is_element()) {
            into.push((
                p.tag_name().name().to_string(),
                xml::node_text(p).unwrap_or_default(),
            ));
        }
    }
}

impl RawPom {
    /// Parses a POM; `coordinate` and `location` name it in errors.
    pub(crate) fn parse(
        text: &str,
        coordinate: &str,
        location: &str,
        repository: Option<String>,
    ) -> Result<RawPom> {
        let bad = |reason: String| MavenError::Parse {
            coordinate: coordinate.to_string(),
            location: location.to_string(),
            reason,
        };
        let doc = xml::parse(text).map_err(|e| bad(format!("malformed POM: {e}")))?;
        let root = doc.root_element();
        if root.tag_name().name() != "project" {
            return Err(bad(format!(
                "not a POM: the root element is <{}>",
                root.tag_name().name()
            )));
        }
        let parent = match xml::child(root, "parent") {
            Some(p) => {
                let (Some(g), Some(a), Some(v)) = (
                    xml::text(p, "groupId"),
                    xml::text(p, "artifactId"),
                    xml::text(p, "version"),
                ) else {
                    return Err(bad(
                        "<parent> needs <groupId>, <artifactId> and <version>".into()
                    ));
                };
                Some((g, a, v))
            }
            None => None,
        };
        let mut pom = RawPom {
            group: xml::text(root, "groupId"),
            artifact: xml::text(root, "artifactId"),
            version: xml::text(root, "version"),
            packaging: xml::text(root, "packaging"),
            parent,
            properties: Vec::new(),
            managed: parse_deps(xml::path(root, &["dependencyManagement", "dependencies"])),
            dependencies: parse_deps(xml::child(root, "dependencies")),
            relocation: xml::path(root, &["distributionManagement", "relocation"]).map(|r| {
                (
                    xml::text(r, "groupId"),
                    xml::text(r, "artifactId"),
                    xml::text(r, "version"),
                )
            }),
            repository,
            location: location.to_string(),
        };
        parse_properties(xml::child(root, "properties"), &mut pom.properties);
        // Profiles active by default contribute like the main body.
        if let Some(profiles) = xml::child(root, "profiles") {
            for p in xml::children(profiles, "profile") {
                let on = xml::path(p, &["activation", "activeByDefault"])
                    .and_then(xml::node_text)
                    .is_some_and(|v| v == "true");
                if !on {
                    continue;
                }
                parse_properties(xml::child(p, "properties"), &mut pom.properties);
                pom.managed.extend(parse_deps(xml::path(
                    p,
                    &["dependencyManagement", "dependencies"],
                )));
                pom.dependencies
                    .extend(parse_deps(xml::child(p, "dependencies")));
            }
        }
        Ok(pom)
    }
}

/// Expands `${name}` references (nested ones too); unknown names are left as written. An
/// expansion longer than [`MAX_PROPERTY_EXPANSION_BYTES`] (or past the per-POM budgets) is an
/// error naming the reference being expanded.
pub fn interpolate(s: &str, props: &HashMap<String, String>) -> Result<String, String> {
    Budget::new().interpolate(s, props)
}

/// What is left of one effective POM's interpolation budget ([`MAX_POM_SUBSTITUTIONS`],
/// [`MAX_POM_EXPANSION_BYTES`]).
struct Budget {
    substitutions: usize,
    bytes: usize,
}

impl Budget {
    fn new() -> Budget {
        Budget {
            substitutions: MAX_POM_SUBSTITUTIONS,
            bytes: MAX_POM_EXPANSION_BYTES,
        }
    }

    fn interpolate(&mut self, s: &str, props: &HashMap<String, String>) -> Result<String, String> {
        self.expand(s, props, 0)
    }

    fn expand(
        &mut self,
        s: &str,
        props: &HashMap<String, String>,
        depth: usize,
    ) -> Result<String, String> {
        if depth > 32 || !s.contains("${") {
            return Ok(s.to_string());
        }
        let mut out = String::with_capacity(s.len());
        let mut rest = s;
        while let Some(i) = rest.find("${") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            match after.find('}') {
                Some(j) => {
                    let key = &after[..j];
                    match props.get(key) {
                        Some(v) => {
                            if self.substitutions == 0 {
                                return Err(format!(
                                    "expanding `${{{key}}}` passes MAX_POM_SUBSTITUTIONS = \
                                     {MAX_POM_SUBSTITUTIONS} substitutions for the POM"
                                ));
                            }
                            self.substitutions -= 1;
                            let value = self.expand(v, props, depth + 1)?;
                            if out.len() + value.len() > MAX_PROPERTY_EXPANSION_BYTES {
                                return Err(format!(
                                    "expanding `${{{key}}}` makes a value longer than \
                                     MAX_PROPERTY_EXPANSION_BYTES = \
                                     {MAX_PROPERTY_EXPANSION_BYTES} bytes"
                                ));
                            }
                            if value.len() > self.bytes {
                                return Err(format!(
                                    "expanding `${{{key}}}` passes MAX_POM_EXPANSION_BYTES = \
                                     {MAX_POM_EXPANSION_BYTES} bytes of expansions for the POM"
                                ));
                            }
                            self.bytes -= value.len();
                            out.push_str(&value);
                        }
                        None => {
                            out.push_str("${");
                            out.push_str(key);
                            out.push('}');
                        }
                    }
                    rest = &after[j + 1..];
                }
                None => {
                    out.push_str(&rest[i..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// Merges dependency lists child-first: an entry of an ancestor is kept only when no nearer
/// POM declares the same management key.
fn merge_raw(lists: impl Iterator<Item = Vec<RawDep>>) -> Vec<RawDep> {
    let mut out: Vec<RawDep> = Vec::new();
    let key = |d: &RawDep| {
        format!(
            "{}:{}:{}:{}",
            d.group.as_deref().unwrap_or(""),
            d.artifact.as_deref().unwrap_or(""),
            d.kind.as_deref().unwrap_or("jar"),
            d.classifier.as_deref().unwrap_or("")
        )
    };
    for list in lists {
        for d in list {
            let k = key(&d);
            if !out.iter().any(|o| key(o) == k) {
                out.push(d);
            }
        }
    }
    out
}

/// Builds the POM of `lineage[0]` from its lineage (the POM, its parent, its grandparent, …):
/// inheritance and interpolation, but no imports and no management injection yet.
pub(crate) fn assemble(
    lineage: &[Arc<RawPom>],
    requested: &Coordinate,
    location: &str,
) -> Result<Pom> {
    let Some(me) = lineage.first() else {
        return Err(MavenError::Parse {
            coordinate: requested.to_string(),
            location: location.to_string(),
            reason: "empty lineage".into(),
        });
    };
    let parent = me.parent.clone();
    let group = me
        .group
        .clone()
        .or_else(|| parent.as_ref().map(|p| p.0.clone()))
        .unwrap_or_else(|| requested.group.clone());
    let artifact = me
        .artifact
        .clone()
        .unwrap_or_else(|| requested.artifact.clone());
    let version = me
        .version
        .clone()
        .or_else(|| parent.as_ref().map(|p| p.2.clone()))
        .or_else(|| requested.version.clone())
        .unwrap_or_default();
    let packaging = me.packaging.clone().unwrap_or_else(|| "jar".into());

    let mut props: HashMap<String, String> = HashMap::new();
    for raw in lineage.iter().rev() {
        for (k, v) in &raw.properties {
            props.insert(k.clone(), v.clone());
        }
    }
    let mut builtins: Vec<(String, String)> = vec![
        ("groupId".into(), group.clone()),
        ("artifactId".into(), artifact.clone()),
        ("version".into(), version.clone()),
        ("packaging".into(), packaging.clone()),
    ];
    if let Some((pg, pa, pv)) = &parent {
        builtins.push(("parent.groupId".into(), pg.clone()));
        builtins.push(("parent.artifactId".into(), pa.clone()));
        builtins.push(("parent.version".into(), pv.clone()));
    }
    for (k, v) in &builtins {
        props.insert(format!("project.{k}"), v.clone());
        props.insert(format!("pom.{k}"), v.clone());
        props.entry(k.clone()).or_insert_with(|| v.clone());
    }
    let too_big = |what: String, reason: String| MavenError::Parse {
        coordinate: requested.to_string(),
        location: location.to_string(),
        reason: format!("{what}: {reason}"),
    };
    let mut budget = Budget::new();
    // The built-in values may themselves use properties (e.g. `<version>${revision}</version>`).
    let snapshot = props.clone();
    let mut keys: Vec<String> = props.keys().cloned().collect();
    keys.sort();
    for k in keys {
        if let Some(v) = props.get_mut(&k) {
            *v = budget
                .interpolate(v, &snapshot)
                .map_err(|e| too_big(format!("property `{k}`"), e))?;
        }
    }
    drop(snapshot);
    let budget = std::cell::RefCell::new(budget);
    let ip_str = |what: &str, v: &str| -> Result<String> {
        budget
            .borrow_mut()
            .interpolate(v, &props)
            .map_err(|e| too_big(what.to_string(), e))
    };
    let ip = |what: &str, s: &Option<String>| -> Result<Option<String>> {
        s.as_ref().map(|v| ip_str(what, v)).transpose()
    };

    let to_dep = |d: RawDep| -> Result<Dependency> {
        let what = |field: &str| {
            format!(
                "<{field}> of the dependency {}:{}",
                d.group.as_deref().unwrap_or("?"),
                d.artifact.as_deref().unwrap_or("?")
            )
        };
        let (Some(g), Some(a)) = (
            ip(&what("groupId"), &d.group)?,
            ip(&what("artifactId"), &d.artifact)?,
        ) else {
            return Err(MavenError::Parse {
                coordinate: requested.to_string(),
                location: location.to_string(),
                reason: format!(
                    "a dependency lacks <groupId> or <artifactId> ({}:{})",
                    d.group.as_deref().unwrap_or("?"),
                    d.artifact.as_deref().unwrap_or("?")
                ),
            });
        };
        Ok(Dependency {
            group: g,
            artifact: a,
            version: ip(&what("version"), &d.version)?,
            kind: ip(&what("type"), &d.kind)?.unwrap_or_else(|| "jar".into()),
            classifier: ip(&what("classifier"), &d.classifier)?,
            scope: ip(&what("scope"), &d.scope)?,
            optional: ip(&what("optional"), &d.optional)?.is_some_and(|o| o == "true"),
            exclusions: d
                .exclusions
                .iter()
                .map(|(g, a)| {
                    Ok(Exclusion {
                        group: ip_str(&what("exclusions"), g)?,
                        artifact: ip_str(&what("exclusions"), a)?,
                    })
                })
                .collect::<Result<Vec<_>>>()?,
        })
    };
    let managed = merge_raw(lineage.iter().map(|r| r.managed.clone()))
        .into_iter()
        .map(to_dep)
        .collect::<Result<Vec<_>>>()?;
    let dependencies = merge_raw(lineage.iter().map(|r| r.dependencies.clone()))
        .into_iter()
        .map(to_dep)
        .collect::<Result<Vec<_>>>()?;
    let relocation = match me.relocation.as_ref() {
        Some((g, a, v)) => Some(Coordinate {
            group: ip("<relocation><groupId>", g)?.unwrap_or_else(|| group.clone()),
            artifact: ip("<relocation><artifactId>", a)?.unwrap_or_else(|| artifact.clone()),
            version: Some(ip("<relocation><version>", v)?.unwrap_or_else(|| version.clone())),
            classifier: None,
            extension: "jar".into(),
        }),
        None => None,
    };
    let group = ip_str("<groupId>", &group)?;
    let artifact = ip_str("<artifactId>", &artifact)?;
    let version = ip_str("<version>", &version)?;
    Ok(Pom {
        parent: parent.map(|(g, a, v)| format!("{g}:{a}:{v}")),
        properties: props.into_iter().collect(),
        group,
        artifact,
        version,
        packaging,
        dependencies,
        managed,
        relocation,
        repository: me.repository.clone(),
    })
}

/// Applies the POM's dependency management to its own dependencies (version, scope,
/// exclusions when it has none), as Maven does when it builds the effective model.
pub(crate) fn inject_management(pom: &mut Pom) {
    let managed = std::mem::take(&mut pom.managed);
    for d in &mut pom.dependencies {
        let key = d.management_key();
        if let Some(m) = managed.iter().find(|m| m.management_key() == key) {
            if d.version.is_none() {
                d.version = m.version.clone();
            }
            if d.scope.is_none() {
                d.scope = m.scope.clone();
            }
            // Maven takes the managed exclusions only when the dependency declares none.
            if d.exclusions.is_empty() {
                d.exclusions = m.exclusions.clone();
            }
        }
    }
    pom.managed = managed;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_nests_and_stops() {
        let mut p = HashMap::new();
        p.insert("a".to_string(), "${b}-x".to_string());
        p.insert("b".to_string(), "1.${c}".to_string());
        p.insert("c".to_string(), "2".to_string());
        p.insert("loop".to_string(), "${loop}".to_string());
        assert_eq!(interpolate("v${a}", &p).unwrap(), "v1.2-x");
        assert_eq!(interpolate("${missing}", &p).unwrap(), "${missing}");
        assert_eq!(interpolate("${loop}", &p).unwrap(), "${loop}");
        assert_eq!(interpolate("${unclosed", &p).unwrap(), "${unclosed");
    }

    #[test]
    fn exponential_properties_are_bounded() {
        let mut p = HashMap::new();
        p.insert("p0".to_string(), "xxxxxxxxxxxxxxxx".to_string());
        for i in 1..=40 {
            p.insert(format!("p{i}"), format!("${{p{}}}${{p{}}}", i - 1, i - 1));
        }
        // many short values: the substitution budget runs out first
        let err = interpolate("${p40}", &p).unwrap_err();
        assert!(err.contains("MAX_POM_SUBSTITUTIONS"), "{err}");
        // few long values: the length limit
        p.insert("p0".to_string(), "x".repeat(64 * 1024));
        let err = interpolate("${p10}", &p).unwrap_err();
        assert!(err.contains("MAX_PROPERTY_EXPANSION_BYTES"), "{err}");
    }

    #[test]
    fn parses_namespace_agnostic() {
        let text = r#"<?xml version="1.0"?>
<project xmlns="urn:example:pom">
  <parent><groupId>g</groupId><artifactId>p</artifactId><version>1</version></parent>
  <artifactId>child</artifactId>
  <properties><x.version>2.0</x.version></properties>
  <dependencies>
    <dependency><groupId>g</groupId><artifactId>x</artifactId><version>${x.version}</version>
      <exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>
    </dependency>
  </dependencies>
</project>"#;
        let raw = RawPom::parse(text, "g:child:1", "test", None).unwrap();
        let req = Coordinate::new("g", "child", Some("1"));
        let pom = assemble(&[Arc::new(raw)], &req, "test").unwrap();
        assert_eq!(pom.group, "g");
        assert_eq!(pom.version, "1");
        assert_eq!(pom.dependencies[0].version.as_deref(), Some("2.0"));
        assert!(pom.dependencies[0].exclusions[0].matches("any", "thing"));
    }
}
