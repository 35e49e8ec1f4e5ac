//! `maven-metadata.xml`: the versions a repository has of an artifact.

use super::error::{MavenError, Result};
use super::version::{compare_versions, is_snapshot};
use super::xml;

/// What the repositories' `maven-metadata.xml` files say about an artifact (merged).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The `<release>` values found.
    pub releases: Vec<String>,
    /// All `<version>` values, ascending by Maven's ordering, without duplicates.
    pub versions: Vec<String>,
    /// The URLs the metadata was read from.
    pub sources: Vec<String>,
}

impl Metadata {
    /// Parses one `maven-metadata.xml` and merges it into `self`.
    pub(crate) fn merge_file(
        &mut self,
        text: &str,
        coordinate: &str,
        location: &str,
    ) -> Result<()> {
        let bad = |reason: String| MavenError::Parse {
            coordinate: coordinate.to_string(),
            location: location.to_string(),
            reason,
        };
        let doc =
            xml::parse(text).map_err(|e| bad(format!("malformed maven-metadata.xml: {e}")))?;
        let root = doc.root_element();
        if root.tag_name().name() != "metadata" {
            return Err(bad(format!(
                "not a maven-metadata.xml: the root element is <{}>",
                root.tag_name().name()
            )));
        }
        if let Some(versioning) = xml::child(root, "versioning") {
            if let Some(r) = xml::text(versioning, "release") {
                self.releases.push(r);
            }
            if let Some(vs) = xml::child(versioning, "versions") {
                for v in xml::children(vs, "version").filter_map(xml::node_text) {
                    if !self.versions.contains(&v) {
                        self.versions.push(v);
                    }
                }
            }
        }
        // Very old metadata may carry a lone <version>.
        if let Some(v) = xml::text(root, "version") {
            if !self.versions.contains(&v) {
                self.versions.push(v);
            }
        }
        self.versions.sort_by(|a, b| compare_versions(a, b));
        self.sources.push(location.to_string());
        Ok(())
    }

    /// The latest release: the highest `<release>`, else the highest non-snapshot version.
    pub fn latest_release(&self) -> Option<&str> {
        fn pick(list: &[String]) -> Option<&str> {
            list.iter()
                .filter(|v| !is_snapshot(v))
                .max_by(|a, b| compare_versions(a, b))
                .map(String::as_str)
        }
        pick(&self.releases).or_else(|| pick(&self.versions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_or_highest() {
        let mut m = Metadata::default();
        m.merge_file(
            "<metadata><versioning><versions><version>1.9</version><version>1.10</version>\
             <version>2.0-SNAPSHOT</version></versions></versioning></metadata>",
            "g:a",
            "x",
        )
        .unwrap();
        assert_eq!(m.latest_release(), Some("1.10"));
        m.merge_file(
            "<metadata><versioning><release>1.5</release></versioning></metadata>",
            "g:a",
            "y",
        )
        .unwrap();
        assert_eq!(m.latest_release(), Some("1.5"));
    }
}
