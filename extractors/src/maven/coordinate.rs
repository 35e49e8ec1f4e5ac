//! Maven coordinates (`group:artifact[:extension[:classifier]]:version`) and repository layout.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use super::error::MavenError;
use super::limits::MAX_COORDINATE_PART_LEN;

/// A Maven artifact coordinate.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coordinate {
    /// The group id, e.g. `org.apache.commons`.
    pub group: String,
    /// The artifact id, e.g. `commons-lang3`.
    pub artifact: String,
    /// The version, a version range, or `None` for "the latest release".
    pub version: Option<String>,
    /// The classifier, e.g. `javadoc`.
    pub classifier: Option<String>,
    /// The file extension, `jar` unless told otherwise.
    pub extension: String,
}

const EXPECTED: &str = "expected group:artifact[:version], group:artifact:extension:version \
                        or group:artifact:extension:classifier:version";

fn bad(input: &str, reason: impl Into<String>) -> MavenError {
    MavenError::BadCoordinate {
        input: input.to_string(),
        reason: format!("{}; {EXPECTED}", reason.into()),
    }
}

/// Why `value` cannot be one segment of a repository path (`None` when it can): empty, `.` or
/// `..`, too long, or containing a path separator, a control character, whitespace or a
/// character file systems refuse.
pub(crate) fn unsafe_segment(value: &str) -> Option<String> {
    if value.is_empty() {
        return Some("is empty".into());
    }
    if value == "." || value == ".." {
        return Some(format!("`{value}` is not a file name"));
    }
    if value.len() > MAX_COORDINATE_PART_LEN {
        return Some(format!(
            "is {} bytes long (the limit is MAX_COORDINATE_PART_LEN = {MAX_COORDINATE_PART_LEN})",
            value.len()
        ));
    }
    if let Some(c) = value.chars().find(|c| {
        c.is_control()
            || c.is_whitespace()
            || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
    }) {
        return Some(format!("`{}` contains {c:?}", value.escape_debug()));
    }
    None
}

fn check_id(input: &str, what: &str, value: &str) -> Result<(), MavenError> {
    if value.is_empty() {
        return Err(bad(input, format!("empty {what}")));
    }
    if let Some(c) = value
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '+')))
    {
        return Err(bad(input, format!("{what} `{value}` contains {c:?}")));
    }
    if value.starts_with('.') {
        return Err(bad(input, format!("{what} `{value}` is not a valid name")));
    }
    Ok(())
}

fn check_version(input: &str, value: &str) -> Result<(), MavenError> {
    if value.is_empty() {
        return Err(bad(input, "empty version"));
    }
    if let Some(c) = value
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '/' | '\\' | ':'))
    {
        return Err(bad(input, format!("version `{value}` contains {c:?}")));
    }
    if value == "." || value == ".." {
        return Err(bad(input, format!("version `{value}` is not a valid name")));
    }
    Ok(())
}

impl Coordinate {
    /// A `jar` coordinate with the given version.
    pub fn new(group: &str, artifact: &str, version: Option<&str>) -> Coordinate {
        Coordinate {
            group: group.to_string(),
            artifact: artifact.to_string(),
            version: version.map(str::to_string),
            classifier: None,
            extension: "jar".to_string(),
        }
    }

    /// This coordinate with another version.
    pub fn with_version(&self, version: &str) -> Coordinate {
        Coordinate {
            version: Some(version.to_string()),
            ..self.clone()
        }
    }

    /// This coordinate with another extension and classifier.
    pub fn with_file(&self, extension: &str, classifier: Option<&str>) -> Coordinate {
        Coordinate {
            extension: extension.to_string(),
            classifier: classifier.map(str::to_string),
            ..self.clone()
        }
    }

    /// The coordinate of this artifact's POM.
    pub fn pom(&self) -> Coordinate {
        self.with_file("pom", None)
    }

    /// `group:artifact`.
    pub fn ga(&self) -> String {
        format!("{}:{}", self.group, self.artifact)
    }

    /// `group:artifact:version` (`group:artifact` when there is no version).
    pub fn gav(&self) -> String {
        match &self.version {
            Some(v) => format!("{}:{}:{}", self.group, self.artifact, v),
            None => self.ga(),
        }
    }

    /// The key Maven uses to detect two versions of the same artifact:
    /// `group:artifact:extension[:classifier]`.
    pub fn conflict_key(&self) -> String {
        match &self.classifier {
            Some(c) => format!("{}:{}:{}:{}", self.group, self.artifact, self.extension, c),
            None => format!("{}:{}:{}", self.group, self.artifact, self.extension),
        }
    }

    /// The group as a path: `org/apache/commons`.
    pub fn group_path(&self) -> String {
        self.group.replace('.', "/")
    }

    /// The artifact directory: `org/apache/commons/commons-lang3`.
    pub fn artifact_dir(&self) -> String {
        format!("{}/{}", self.group_path(), self.artifact)
    }

    /// The repository path of the artifact's `maven-metadata.xml`; an error when the group or
    /// artifact cannot be a path (see [`Coordinate::validate`]).
    pub fn metadata_path(&self) -> Result<String, MavenError> {
        Coordinate {
            version: None,
            ..self.clone()
        }
        .validate()?;
        Ok(format!("{}/maven-metadata.xml", self.artifact_dir()))
    }

    /// Checks that every part can become a repository path segment (see
    /// [`Coordinate::repo_path`]): group segments (between dots), artifact, version (unless a
    /// range or absent), classifier and extension are not empty, not `.` or `..`, at most
    /// [`MAX_COORDINATE_PART_LEN`] bytes, and free of path separators, control characters,
    /// whitespace and characters file systems refuse.
    pub fn validate(&self) -> Result<(), MavenError> {
        let fail = |part: &str, reason: String| MavenError::InvalidCoordinate {
            coordinate: self.to_string(),
            reason: format!("the {part} {reason}"),
        };
        if self.group.len() > MAX_COORDINATE_PART_LEN {
            return Err(fail(
                "group",
                format!(
                    "is {} bytes long (the limit is MAX_COORDINATE_PART_LEN = \
                     {MAX_COORDINATE_PART_LEN})",
                    self.group.len()
                ),
            ));
        }
        for seg in self.group.split('.') {
            if let Some(r) = unsafe_segment(seg) {
                return Err(fail(
                    &format!("group `{}`: segment", self.group.escape_debug()),
                    r,
                ));
            }
        }
        if let Some(r) = unsafe_segment(&self.artifact) {
            return Err(fail("artifact", r));
        }
        if let Some(r) = unsafe_segment(&self.extension) {
            return Err(fail("extension", r));
        }
        if let Some(c) = &self.classifier {
            if let Some(r) = unsafe_segment(c) {
                return Err(fail("classifier", r));
            }
        }
        if let Some(v) = self
            .version
            .as_deref()
            .filter(|v| !super::version::is_range(v))
        {
            if let Some(r) = unsafe_segment(v) {
                return Err(fail("version", r));
            }
        }
        Ok(())
    }

    fn require_version(&self) -> Result<&str, MavenError> {
        match self.version.as_deref() {
            Some(v) if !super::version::is_range(v) => Ok(v),
            Some(v) => Err(MavenError::Unresolved {
                coordinate: self.to_string(),
                reason: format!("version range `{v}` must be resolved first"),
            }),
            None => Err(MavenError::Unresolved {
                coordinate: self.to_string(),
                reason: "no version given".to_string(),
            }),
        }
    }

    /// The file name: `artifact-version[-classifier].extension`.
    pub fn file_name(&self) -> Result<String, MavenError> {
        let v = self.require_version()?;
        Ok(match &self.classifier {
            Some(c) => format!("{}-{}-{}.{}", self.artifact, v, c, self.extension),
            None => format!("{}-{}.{}", self.artifact, v, self.extension),
        })
    }

    /// The repository path of the file, with `/` separators:
    /// `org/apache/commons/commons-lang3/3.12.0/commons-lang3-3.12.0.jar`; an error when a part
    /// cannot be a path segment (see [`Coordinate::validate`]).
    pub fn repo_path(&self) -> Result<String, MavenError> {
        let v = self.require_version()?;
        self.validate()?;
        Ok(format!(
            "{}/{}/{}",
            self.artifact_dir(),
            v,
            self.file_name()?
        ))
    }

    /// The file's location under a Maven-layout directory.
    pub fn local_path(&self, root: &std::path::Path) -> Result<PathBuf, MavenError> {
        let rel = self.repo_path()?;
        Ok(rel.split('/').fold(root.to_path_buf(), |p, c| p.join(c)))
    }
}

impl fmt::Display for Coordinate {
    /// `group:artifact[:extension[:classifier]]:version`; the extension is shown only when it is
    /// not `jar` or a classifier is present.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.group, self.artifact)?;
        if self.classifier.is_some() || self.extension != "jar" {
            write!(f, ":{}", self.extension)?;
        }
        if let Some(c) = &self.classifier {
            write!(f, ":{c}")?;
        }
        if let Some(v) = &self.version {
            write!(f, ":{v}")?;
        }
        Ok(())
    }
}

impl FromStr for Coordinate {
    type Err = MavenError;

    fn from_str(input: &str) -> Result<Coordinate, MavenError> {
        if input.trim().is_empty() {
            return Err(bad(input, "empty coordinate"));
        }
        if input.chars().any(char::is_whitespace) {
            return Err(bad(input, "coordinates may not contain spaces"));
        }
        let parts: Vec<&str> = input.split(':').collect();
        let (group, artifact, extension, classifier, version) = match parts.as_slice() {
            [g, a] => (*g, *a, "jar", None, None),
            [g, a, v] => (*g, *a, "jar", None, Some(*v)),
            [g, a, e, v] => (*g, *a, *e, None, Some(*v)),
            [g, a, e, c, v] => (*g, *a, *e, Some(*c), Some(*v)),
            [_] => return Err(bad(input, "missing `:` between group and artifact")),
            _ => return Err(bad(input, format!("too many `:` ({})", parts.len() - 1))),
        };
        check_id(input, "group", group)?;
        check_id(input, "artifact", artifact)?;
        check_id(input, "extension", extension)?;
        if let Some(c) = classifier {
            check_id(input, "classifier", c)?;
        }
        if let Some(v) = version {
            check_version(input, v)?;
        }
        let c = Coordinate {
            group: group.to_string(),
            artifact: artifact.to_string(),
            version: version.map(str::to_string),
            classifier: classifier.map(str::to_string),
            extension: extension.to_string(),
        };
        c.validate().map_err(|e| match e {
            MavenError::InvalidCoordinate { reason, .. } => bad(input, reason),
            other => other,
        })?;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_rejects_path_tricks_in_every_part() {
        let ok = Coordinate::new("org.example", "lib", Some("1.0"));
        assert!(ok.validate().is_ok());
        let cases = [
            Coordinate {
                classifier: Some("x/../../PWNED".into()),
                ..ok.clone()
            },
            Coordinate {
                group: "org..example".into(),
                ..ok.clone()
            },
            Coordinate {
                group: "org.ex/ample".into(),
                ..ok.clone()
            },
            Coordinate {
                artifact: "..".into(),
                ..ok.clone()
            },
            Coordinate {
                version: Some("../1".into()),
                ..ok.clone()
            },
            Coordinate {
                version: Some(r"1\0".into()),
                ..ok.clone()
            },
            Coordinate {
                extension: "ja\u{0}r".into(),
                ..ok.clone()
            },
            Coordinate {
                extension: String::new(),
                ..ok.clone()
            },
            Coordinate {
                artifact: "a".repeat(MAX_COORDINATE_PART_LEN + 1),
                ..ok.clone()
            },
        ];
        for c in cases {
            let err = c.validate().expect_err("must be rejected").to_string();
            assert!(err.contains("invalid coordinate"), "{err}");
            assert!(c.repo_path().is_err());
        }
    }

    #[test]
    fn parses_forms() {
        let c: Coordinate = "org.example:lib:1.0".parse().unwrap();
        assert_eq!(c.version.as_deref(), Some("1.0"));
        assert_eq!(c.extension, "jar");
        assert_eq!(c.repo_path().unwrap(), "org/example/lib/1.0/lib-1.0.jar");
        let c: Coordinate = "org.example:lib".parse().unwrap();
        assert!(c.version.is_none());
        let c: Coordinate = "org.example:lib:pom:1.0".parse().unwrap();
        assert_eq!(c.repo_path().unwrap(), "org/example/lib/1.0/lib-1.0.pom");
        let c: Coordinate = "org.example:lib:jar:javadoc:1.0".parse().unwrap();
        assert_eq!(c.file_name().unwrap(), "lib-1.0-javadoc.jar");
        assert_eq!(c.to_string(), "org.example:lib:jar:javadoc:1.0");
        let c: Coordinate = "org.example:lib:[1.0,2.0)".parse().unwrap();
        assert_eq!(c.version.as_deref(), Some("[1.0,2.0)"));
        assert!(c.repo_path().is_err());
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "commons-lang3",
            "a::b",
            "a:b:",
            ":b:1",
            "a b:c:1",
            "a:b:1 ",
            "",
            "a:b:c:d:e:f",
            "a/b:c:1",
            "a:b:../x",
            "a..b:c:1",
            "a.:c:1",
        ] {
            let err = bad.parse::<Coordinate>().unwrap_err().to_string();
            assert!(err.contains("expected group:artifact"), "{bad}: {err}");
        }
    }
}
