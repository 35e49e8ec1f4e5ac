//! thalia's client-program IR ([`ir`]) and the translators that turn it into compilable source
//! for the JVM languages under test.
//!
//! Each translator emits one self-contained file per [`Program`]: its own package, a single
//! class and one test function holding the program's statements, with fully-qualified names so
//! that hundreds of files can be compiled in one compiler invocation without clashes.
//!
//! ```
//! use thalia_translators::{ir::*, translator, Language};
//!
//! let p = Program::new("p000001", vec![Stmt::local(
//!     "x",
//!     Ty::class("java.util.List", vec![Ty::string()]),
//!     Expr::static_call("java.util.Collections", "emptyList", vec![Ty::string()], vec![]),
//! )]);
//! let java = translator(Language::Java).expect("Java is supported");
//! assert_eq!(java.file_name(&p), "Test_p000001.java");
//! let src = java.translate(&p).expect("translates");
//! assert!(src.contains("java.util.Collections.<java.lang.String>emptyList()"));
//!
//! let kotlin = translator(Language::Kotlin).expect("Kotlin is supported");
//! assert_eq!(kotlin.file_name(&p), "Test_p000001.kt");
//! let src = kotlin.translate(&p).expect("translates");
//! assert!(src.contains("val x: MutableList<String> = java.util.Collections.emptyList<String>()"));
//! ```
//!
//! Translators: [`java`], [`kotlin`] (Java types in Kotlin's view of them), [`scala`] (Scala 3
//! and 2.13) and [`groovy`] (`@CompileStatic` or `@TypeChecked`). Each module's documentation
//! lists how the IR is written and what it cannot express; `tests/targets.rs` shows how to
//! run the real compilers on the output.

#![deny(missing_docs)]

mod common;
pub mod groovy;
pub mod ir;
pub mod java;
pub mod kotlin;
pub mod scala;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use groovy::{GroovyMode, GroovyTranslator};
pub use ir::Program;
pub use java::JavaTranslator;
pub use kotlin::KotlinTranslator;
pub use scala::{ScalaTranslator, ScalaVersion};

/// A target language (and dialect) of the translators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Language {
    /// Java (javac).
    #[serde(rename = "java")]
    Java,
    /// Kotlin (kotlinc).
    #[serde(rename = "kotlin")]
    Kotlin,
    /// Scala 3 (scalac 3.x).
    #[serde(rename = "scala")]
    Scala3,
    /// Scala 2.13 (scalac 2.13).
    #[serde(rename = "scala2")]
    Scala2,
    /// Groovy (groovyc, statically checked).
    #[serde(rename = "groovy")]
    Groovy,
}

impl Language {
    /// Every language, in declaration order.
    pub const ALL: [Language; 5] = [
        Language::Java,
        Language::Kotlin,
        Language::Scala3,
        Language::Scala2,
        Language::Groovy,
    ];

    /// The short name used on the command line and in files (`"java"`, `"scala2"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Language::Java => "java",
            Language::Kotlin => "kotlin",
            Language::Scala3 => "scala",
            Language::Scala2 => "scala2",
            Language::Groovy => "groovy",
        }
    }

    /// The source file extension, without the dot (`"java"`, `"kt"`, `"scala"`, `"groovy"`).
    pub fn extension(self) -> &'static str {
        match self {
            Language::Java => "java",
            Language::Kotlin => "kt",
            Language::Scala3 | Language::Scala2 => "scala",
            Language::Groovy => "groovy",
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error of parsing a [`Language`] from a string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown language {0:?} (expected one of: java, kotlin, scala, scala2, groovy)")]
pub struct UnknownLanguage(pub String);

impl FromStr for Language {
    type Err = UnknownLanguage;

    /// Parses the short name (`"scala3"` is accepted as an alias of `"scala"`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "scala3" => Ok(Language::Scala3),
            _ => Language::ALL
                .into_iter()
                .find(|l| l.name() == s)
                .ok_or_else(|| UnknownLanguage(s.to_owned())),
        }
    }
}

/// Why a program cannot be translated to a language.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TranslateError {
    /// The program id cannot be used to build package and class names.
    #[error("invalid program id {id:?}: {reason}")]
    InvalidProgramId {
        /// The offending id.
        id: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A name (local, member, class segment) is not an identifier of the language.
    #[error("{name:?} is not a valid {language} identifier")]
    InvalidIdentifier {
        /// Target language.
        language: Language,
        /// The offending name.
        name: String,
    },
    /// A name is a reserved word of the language.
    #[error("{name:?} is a reserved word in {language}")]
    ReservedWord {
        /// Target language.
        language: Language,
        /// The offending name.
        name: String,
    },
    /// A local or lambda parameter is declared while a variable of that name is in scope.
    #[error("local {name:?} is declared while a variable of that name is already in scope")]
    DuplicateLocal {
        /// The local's name.
        name: String,
    },
    /// A local is referenced where no variable of that name is in scope.
    #[error(
        "local {name:?} is used where it is not in scope (undeclared, or in its own initializer)"
    )]
    UndeclaredLocal {
        /// The local's name.
        name: String,
    },
    /// A local's name equals the first segment of a class name the program uses, which would
    /// make that qualified name resolve to the variable.
    #[error("local {name:?} would shadow the qualified name {class:?}")]
    ShadowsQualifiedName {
        /// The local's name.
        name: String,
        /// The class name it would shadow.
        class: String,
    },
    /// A local is declared with type `void`.
    #[error("local {name:?} cannot have type void")]
    VoidLocal {
        /// The local's name.
        name: String,
    },
    /// The language has no syntax for a construct of the program.
    #[error("{language} cannot express {what}")]
    Unsupported {
        /// Target language.
        language: Language,
        /// The construct, described for a person.
        what: String,
    },
}

impl TranslateError {
    /// A short, stable label of the error's kind (for counting reasons over many programs).
    pub fn reason(&self) -> &'static str {
        match self {
            TranslateError::InvalidProgramId { .. } => "invalid program id",
            TranslateError::InvalidIdentifier { .. } => "invalid identifier",
            TranslateError::ReservedWord { .. } => "reserved word",
            TranslateError::DuplicateLocal { .. } => "duplicate local",
            TranslateError::UndeclaredLocal { .. } => "undeclared local",
            TranslateError::ShadowsQualifiedName { .. } => "local shadows a qualified name",
            TranslateError::VoidLocal { .. } => "void local",
            TranslateError::Unsupported { .. } => "construct the language cannot express",
        }
    }
}

/// Turns IR programs into source files of one language.
pub trait Translator {
    /// The language this translator writes.
    fn language(&self) -> Language;

    /// The file name (relative, no directories) under which `p`'s translation must be written:
    /// `Test_<id>.<extension>`.
    fn file_name(&self, p: &Program) -> String {
        common::file_name(&p.id, self.language())
    }

    /// The complete source file for `p`.
    fn translate(&self, p: &Program) -> Result<String, TranslateError>;

    /// The lines (1-based, inclusive) of the last statement of the test function in a source
    /// this translator wrote: the statement of the call under test, where an ill-typed
    /// program's broken position is.
    fn call_lines(&self, source: &str) -> Option<LineSpan> {
        call_lines(source)
    }
}

/// A range of source lines, 1-based and inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineSpan {
    /// The first line.
    pub first: u32,
    /// The last line.
    pub last: u32,
}

impl LineSpan {
    /// Whether `line` is in the span.
    pub fn contains(self, line: u32) -> bool {
        (self.first..=self.last).contains(&line)
    }
}

/// The lines of the last statement of the test function in a source written by any of the
/// translators: every translator writes the function's header on a line of its own (`void
/// test()`, `fun test()`, `def test()`), each statement starting on a new line at the body's
/// indentation (lambda bodies deeper), and the closing brace at the header's indentation.
pub fn call_lines(source: &str) -> Option<LineSpan> {
    let lines: Vec<&str> = source.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let header = lines.iter().position(|l| {
        let t = l.trim_start();
        (t.contains(" test(") || t.starts_with("test(")) && !t.starts_with("//")
    })?;
    let header_indent = indent(lines[header]);
    let body_indent = lines
        .get(header + 1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| indent(l))?;
    if body_indent <= header_indent {
        return None;
    }
    let end = (header + 1..lines.len())
        .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]) <= header_indent)?;
    let last = end.checked_sub(1).filter(|&i| i > header)?;
    let first = (header + 1..=last)
        .rev()
        .find(|&i| indent(lines[i]) == body_indent)?;
    Some(LineSpan {
        first: u32::try_from(first + 1).ok()?,
        last: u32::try_from(last + 1).ok()?,
    })
}

/// The translator for `lang`, or `None` if that language has no translator yet (every
/// language has one now; the `Option` leaves room for languages to come). Groovy's is the
/// `@CompileStatic` one; build a [`GroovyTranslator`] for `@TypeChecked`.
pub fn translator(lang: Language) -> Option<Box<dyn Translator + Send + Sync>> {
    Some(match lang {
        Language::Java => Box::new(JavaTranslator),
        Language::Kotlin => Box::new(KotlinTranslator),
        Language::Scala3 => Box::new(ScalaTranslator::SCALA3),
        Language::Scala2 => Box::new(ScalaTranslator::SCALA2),
        Language::Groovy => Box::new(GroovyTranslator::default()),
    })
}

/// The translator of `lang`; Groovy programs are checked in `groovy` mode
/// (`@CompileStatic` or `@TypeChecked`), the other languages ignore it.
pub fn translator_with(lang: Language, groovy: GroovyMode) -> Box<dyn Translator + Send + Sync> {
    match lang {
        Language::Groovy => Box::new(GroovyTranslator { mode: groovy }),
        Language::Java => Box::new(JavaTranslator),
        Language::Kotlin => Box::new(KotlinTranslator),
        Language::Scala3 => Box::new(ScalaTranslator::SCALA3),
        Language::Scala2 => Box::new(ScalaTranslator::SCALA2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_call_under_test_is_the_last_statement_of_every_layout() {
        let java = "package thalia.p3;\n\npublic final class Test_p3 {\n    public static void test() throws Throwable {\n        long a0 = 20L;\n        T res = new T(a0,\n            x -> {\n                return 1;\n            });\n    }\n}\n";
        assert_eq!(call_lines(java), Some(LineSpan { first: 6, last: 9 }));
        let kotlin = "package thalia.p7\n\nobject Test_p7 {\n    fun test() {\n        val res: A = B.C\n    }\n}\n";
        assert_eq!(call_lines(kotlin), Some(LineSpan { first: 5, last: 5 }));
        let scala = "package thalia.p7\n\nobject Test_p7 {\n    def test(): Unit = {\n        val a1: Int = 33\n        val res: Int = java.lang.Integer.parseInt(a1)\n    }\n}\n";
        assert_eq!(call_lines(scala), Some(LineSpan { first: 6, last: 6 }));
        let groovy = "package thalia.p3\n\n@groovy.transform.CompileStatic\nfinal class Test_p3 {\n    static void test() {\n        M r = M.getInstance('x1')\n        ((M) r).init()\n    }\n}\n";
        let span = call_lines(groovy).expect("a span");
        assert_eq!(span, LineSpan { first: 7, last: 7 });
        assert!(span.contains(7) && !span.contains(6));
        assert_eq!(call_lines("class X {}\n"), None);
    }

    #[test]
    fn language_names_round_trip() {
        for l in Language::ALL {
            assert_eq!(l.to_string().parse::<Language>(), Ok(l));
            let json = serde_json::to_string(&l).expect("serializes");
            assert_eq!(json, format!("\"{l}\""));
        }
        assert_eq!("scala3".parse::<Language>(), Ok(Language::Scala3));
        assert!("Java".parse::<Language>().is_err());
        assert_eq!(Language::Kotlin.extension(), "kt");
        assert_eq!(Language::Scala2.extension(), "scala");
    }

    #[test]
    fn every_language_has_a_translator() {
        let p = Program::new("p1", vec![]);
        for l in Language::ALL {
            let t = translator(l).expect("every language has a translator");
            assert_eq!(t.language(), l);
            assert_eq!(t.file_name(&p), format!("Test_p1.{}", l.extension()));
            assert!(t.translate(&p).is_ok(), "{l}");
        }
        let groovy = translator(Language::Groovy).expect("Groovy has a translator");
        let src = groovy.translate(&p).expect("translates");
        assert!(src.contains("@groovy.transform.CompileStatic"), "{src}");
    }
}
