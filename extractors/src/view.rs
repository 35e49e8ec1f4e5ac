//! Which language's view of a library an extraction writes: Java (bytecode as javac sees
//! it), Kotlin (from `kotlin.Metadata`, see [`crate::kotlin`]) or Scala (from TASTy and Scala 2
//! signatures, see [`crate::scala`]).

use std::fmt;
use std::str::FromStr;

/// The view an extraction writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// Kotlin view when the classes carry `kotlin.Metadata`, Scala view when they carry TASTy
    /// or Scala 2 signatures, else Java view.
    #[default]
    Auto,
    /// The Java view (bytecode as javac sees it).
    Java,
    /// The Kotlin view (from `kotlin.Metadata`; classes without it keep their Java view).
    Kotlin,
    /// The Scala view (read by the Scala 3 compiler; Java classes keep their Java view).
    Scala,
}

impl View {
    /// The name used on the command line and in `fetch.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            View::Auto => "auto",
            View::Java => "java",
            View::Kotlin => "kotlin",
            View::Scala => "scala",
        }
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for View {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(View::Auto),
            "java" => Ok(View::Java),
            "kotlin" => Ok(View::Kotlin),
            "scala" => Ok(View::Scala),
            other => Err(format!(
                "unknown view `{other}` (expected auto, java, kotlin or scala)"
            )),
        }
    }
}

/// The views `auto` may choose besides Java's (a campaign's language narrows them: Kotlin
/// programs use a Kotlin view, Scala programs a Scala view, the others the Java view).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AutoViews {
    /// Auto may write the Kotlin view (classes with `kotlin.Metadata`).
    pub kotlin: bool,
    /// Auto may write the Scala view (a Scala library with TASTy or Scala 2 signatures).
    pub scala: bool,
}

impl AutoViews {
    /// Every view: what `thalia fetch --view auto` chooses from.
    pub const ALL: AutoViews = AutoViews {
        kotlin: true,
        scala: true,
    };
    /// The Java view only.
    pub const JAVA: AutoViews = AutoViews {
        kotlin: false,
        scala: false,
    };
}

impl Default for AutoViews {
    fn default() -> Self {
        AutoViews::ALL
    }
}
