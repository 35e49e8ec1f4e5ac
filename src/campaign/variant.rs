//! Compiler variants for differential runs: the same compiler release run another way
//! (`--against kotlin@2.1.21:k1`, or `--against :type-checked` for the compiler under test),
//! so that two frontends or two checking modes of one release judge every program.
//!
//! | variant | compiler | what changes |
//! | --- | --- | --- |
//! | `k1` | kotlin | `-language-version 1.9`: the K1 frontend (kotlinc 2.0 to 2.2 still have it) |
//! | `k2` | kotlin | `-language-version 2.0`: the K2 frontend (a preview in kotlinc 1.9) |
//! | `type-checked` | groovy | `@TypeChecked` instead of `@CompileStatic` |
//! | `compile-static` | groovy | `@CompileStatic` instead of `@TypeChecked` |
//!
//! Scala 3's LTS against its newest release needs no variant: `--against scala3@3.3` is the
//! newest 3.3.x (the LTS series).

use crate::profile::Tool;

/// One way to run a compiler differently.
#[derive(Debug, PartialEq, Eq)]
pub struct Variant {
    /// Its name, after the `:` of a compiler spec.
    pub name: &'static str,
    /// The compiler it applies to.
    pub tool: Tool,
    /// Flags added to every compilation (before the source files).
    pub flags: &'static [&'static str],
    /// A text replaced in every source file before it is compiled (`from`, `to`).
    pub rewrite: Option<(&'static str, &'static str)>,
    /// What it is, for people.
    pub about: &'static str,
}

const GROOVY_STATIC: &str = "@groovy.transform.CompileStatic";
const GROOVY_CHECKED: &str = "@groovy.transform.TypeChecked";

/// Every variant.
pub const VARIANTS: [Variant; 4] = [
    Variant {
        name: "k1",
        tool: Tool::Kotlin,
        flags: &["-language-version", "1.9"],
        rewrite: None,
        about: "the K1 frontend (kotlinc 2.0 to 2.2)",
    },
    Variant {
        name: "k2",
        tool: Tool::Kotlin,
        flags: &["-language-version", "2.0"],
        rewrite: None,
        about: "the K2 frontend",
    },
    Variant {
        name: "type-checked",
        tool: Tool::Groovy,
        flags: &[],
        rewrite: Some((GROOVY_STATIC, GROOVY_CHECKED)),
        about: "@TypeChecked instead of @CompileStatic",
    },
    Variant {
        name: "compile-static",
        tool: Tool::Groovy,
        flags: &[],
        rewrite: Some((GROOVY_CHECKED, GROOVY_STATIC)),
        about: "@CompileStatic instead of @TypeChecked",
    },
];

/// A problem with a variant in a compiler spec.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// No variant has this name.
    #[error("unknown compiler variant `{name}` (known: {known})")]
    Unknown {
        /// The name given.
        name: String,
        /// The known names.
        known: String,
    },
    /// The variant is for another compiler.
    #[error("variant `{name}` is for {for_tool}, not {tool}")]
    OtherTool {
        /// The variant.
        name: String,
        /// Its compiler.
        for_tool: String,
        /// The compiler of the spec.
        tool: String,
    },
}

impl Variant {
    /// The variant called `name`, for compiler `tool`.
    pub fn find(name: &str, tool: Tool) -> Result<&'static Variant, VariantError> {
        let v = VARIANTS
            .iter()
            .find(|v| v.name == name)
            .ok_or_else(|| VariantError::Unknown {
                name: name.to_string(),
                known: VARIANTS
                    .iter()
                    .map(|v| v.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        if v.tool != tool {
            return Err(VariantError::OtherTool {
                name: name.to_string(),
                for_tool: v.tool.name().to_string(),
                tool: tool.name().to_string(),
            });
        }
        Ok(v)
    }

    /// `source` as this variant compiles it.
    pub fn apply(&self, source: &str) -> String {
        match self.rewrite {
            Some((from, to)) => source.replacen(from, to, 1),
            None => source.to_string(),
        }
    }

    /// The variant's flags as owned strings.
    pub fn flag_list(&self) -> Vec<String> {
        self.flags.iter().map(|f| f.to_string()).collect()
    }
}

/// Splits `NAME@VERSION:VARIANT` into the compiler spec (empty: the compiler under test) and
/// the variant's name.
pub fn split_spec(spec: &str) -> (&str, Option<&str>) {
    match spec.rsplit_once(':') {
        Some((c, v)) if !v.is_empty() => (c, Some(v)),
        _ => (spec, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_split_into_compiler_and_variant() {
        assert_eq!(
            split_spec("kotlin@2.1.21:k1"),
            ("kotlin@2.1.21", Some("k1"))
        );
        assert_eq!(split_spec(":type-checked"), ("", Some("type-checked")));
        assert_eq!(split_spec("groovy@4.0.11"), ("groovy@4.0.11", None));
    }

    #[test]
    fn a_variant_belongs_to_one_compiler() {
        assert!(Variant::find("k1", Tool::Kotlin).is_ok());
        let e = Variant::find("k1", Tool::Groovy).expect_err("k1 is Kotlin's");
        assert!(e.to_string().contains("kotlin"), "{e}");
        let e = Variant::find("k3", Tool::Kotlin).expect_err("unknown");
        assert!(e.to_string().contains("type-checked"), "{e}");
    }

    #[test]
    fn the_groovy_variants_swap_the_annotation() {
        let v = Variant::find("type-checked", Tool::Groovy).expect("a variant");
        let src = "@groovy.transform.CompileStatic\nfinal class T {}\n";
        assert_eq!(
            v.apply(src),
            "@groovy.transform.TypeChecked\nfinal class T {}\n"
        );
    }
}
