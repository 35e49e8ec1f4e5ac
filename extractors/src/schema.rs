//! thalia's API JSON format: one file per class, `<fully.qualified.Name>.json`.
//!
//! Every field that real files may omit is an `Option`, and `null` is told apart from absence
//! where files use both, so that reading and writing a file keeps it as it was. Fields this
//! schema does not know are kept in `extra`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_with::rust::double_option;

/// One API JSON document: a class, interface, enum, object or a package of top-level members.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassDoc {
    /// Fully-qualified name (`java.util.Map`, `kotlin.concurrent` for top-level members).
    pub name: String,
    /// Type-parameter declarations in the file's syntax (`T extends Comparable<? super T>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_parameters: Option<Vec<String>>,
    /// Implemented interfaces (as written by the extractor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implements: Option<Vec<String>>,
    /// Direct supertypes (superclass first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inherits: Option<Vec<String>>,
    /// Kind code: 0 class, 1 interface, 2 abstract class, 3 enum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_type: Option<i64>,
    /// Methods and constructors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub methods: Option<Vec<MethodDoc>>,
    /// Fields and properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<FieldDoc>>,
    /// True for a functional (SAM) interface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub functional_interface: Option<bool>,
    /// Enclosing class of a nested class (`null` or absent for top-level classes).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    pub parent: Option<Option<String>>,
    /// `public` or `protected`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_mod: Option<String>,
    /// Syntax of the type strings: `java`, `kotlin` or `scala`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// False for a file of top-level members (a Kotlin package facade).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_class: Option<bool>,
    /// Deprecated (`@Deprecated` or the `Deprecated` attribute); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<bool>,
    /// Compiled from Kotlin (carries `kotlin.Metadata`); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_kotlin: Option<bool>,
    /// A non-static member class (an inner class, whose instances need an enclosing
    /// instance); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_inner: Option<bool>,
    /// A sealed class or interface (clients cannot implement it, not even with a lambda);
    /// written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_sealed: Option<bool>,
    /// A preview API of the JDK (unusable without `--enable-preview`); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<bool>,
    /// Fields this schema does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A method or constructor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodDoc {
    /// Simple name (for a constructor, the class's simple name).
    pub name: String,
    /// Parameter types; varargs as `T...` (Java), `vararg T` (Kotlin), `T*` (Scala).
    #[serde(default)]
    pub parameters: Vec<String>,
    /// Type-parameter declarations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_parameters: Option<Vec<String>>,
    /// Return type; `null` for constructors.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    pub return_type: Option<Option<String>>,
    /// Extension receiver type (Kotlin), or `null`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    pub receiver: Option<Option<String>>,
    /// Static member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_static: Option<bool>,
    /// Constructor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_constructor: Option<bool>,
    /// `public` or `protected`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_mod: Option<String>,
    /// Java default method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_default: Option<bool>,
    /// Declared exceptions (free text as extracted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throws: Option<Vec<String>>,
    /// Language-specific flags (`is_suspend`, `is_inline`, ...), kept verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_metadata: Option<Value>,
    /// Deprecated; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<bool>,
    /// Abstract method (no body); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_abstract: Option<bool>,
    /// Variable-arity method (its last parameter is written `T...`); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_varargs: Option<bool>,
    /// A preview API of the JDK; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<bool>,
    /// Fields this schema does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A field or property.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldDoc {
    /// Simple name.
    pub name: String,
    /// The field's type.
    #[serde(rename = "type")]
    pub ty: String,
    /// Final (`val`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_final: Option<bool>,
    /// Overrides an inherited property (Kotlin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_override: Option<bool>,
    /// Extension receiver type (Kotlin), or `null`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    pub receiver: Option<Option<String>>,
    /// Type-parameter declarations (Kotlin extension properties).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_parameters: Option<Vec<String>>,
    /// `public` or `protected`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_mod: Option<String>,
    /// Static field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_static: Option<bool>,
    /// Deprecated; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<bool>,
    /// An enum constant; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_enum_constant: Option<bool>,
    /// Fields this schema does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ClassDoc {
    /// A minimal document with only a name and a language.
    pub fn new(name: impl Into<String>, language: impl Into<String>) -> Self {
        ClassDoc {
            name: name.into(),
            type_parameters: Some(Vec::new()),
            implements: Some(Vec::new()),
            inherits: Some(Vec::new()),
            class_type: Some(0),
            methods: Some(Vec::new()),
            fields: Some(Vec::new()),
            functional_interface: None,
            parent: Some(None),
            access_mod: Some("public".into()),
            language: Some(language.into()),
            is_class: Some(true),
            deprecated: None,
            is_kotlin: None,
            is_inner: None,
            is_sealed: None,
            preview: None,
            extra: Map::new(),
        }
    }

    /// The methods (empty when absent).
    pub fn methods(&self) -> &[MethodDoc] {
        self.methods.as_deref().unwrap_or(&[])
    }

    /// The fields (empty when absent).
    pub fn fields(&self) -> &[FieldDoc] {
        self.fields.as_deref().unwrap_or(&[])
    }

    /// The type-parameter declarations (empty when absent).
    pub fn type_parameters(&self) -> &[String] {
        self.type_parameters.as_deref().unwrap_or(&[])
    }

    /// The direct supertypes: `inherits` followed by any `implements` entries not already
    /// listed there.
    pub fn supertypes(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in self
            .inherits
            .iter()
            .flatten()
            .chain(self.implements.iter().flatten())
        {
            if !out.contains(&s.as_str()) {
                out.push(s);
            }
        }
        out
    }

    /// The enclosing class, if any.
    pub fn parent(&self) -> Option<&str> {
        self.parent.as_ref().and_then(|p| p.as_deref())
    }
}

impl MethodDoc {
    /// The type-parameter declarations (empty when absent).
    pub fn type_parameters(&self) -> &[String] {
        self.type_parameters.as_deref().unwrap_or(&[])
    }

    /// The return type (`None` for constructors).
    pub fn return_type(&self) -> Option<&str> {
        self.return_type.as_ref().and_then(|r| r.as_deref())
    }

    /// The extension receiver type.
    pub fn receiver(&self) -> Option<&str> {
        self.receiver.as_ref().and_then(|r| r.as_deref())
    }

    /// A boolean flag of `other_metadata` (`is_suspend`, `is_inline`, ...).
    pub fn metadata_flag(&self, key: &str) -> bool {
        self.other_metadata
            .as_ref()
            .and_then(|m| m.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
}

impl FieldDoc {
    /// The type-parameter declarations (empty when absent).
    pub fn type_parameters(&self) -> &[String] {
        self.type_parameters.as_deref().unwrap_or(&[])
    }

    /// The extension receiver type.
    pub fn receiver(&self) -> Option<&str> {
        self.receiver.as_ref().and_then(|r| r.as_deref())
    }
}
