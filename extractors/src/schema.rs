//! thalia's API JSON format: one file per class, `<fully.qualified.Name>.json`.
//!
//! Every field that real files may omit is an `Option`, and `null` is told apart from absence
//! where files use both, so that reading and writing a file keeps it as it was. Fields this
//! schema does not know are kept in `extra`.
//!
//! The facts only some views write (Kotlin's, Scala's, the Java view's nullability for
//! Kotlin) are typed too: [`KotlinClassFacts`], [`ScalaClassFacts`], [`ScalaMethodFacts`],
//! [`ScalaFieldFacts`] (flattened: their keys sit in the document itself), [`MethodMetadata`]
//! and [`FieldMetadata`] (a member's `other_metadata`). Each is written where it was written
//! before, in the order its extractor writes it, so a file reads and writes back unchanged.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use serde_with::rust::double_option;
use serde_with::serde_as;

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
    /// What the Kotlin view (and the Dokka reader) says of a Kotlin class.
    #[serde(flatten)]
    pub kotlin: KotlinClassFacts,
    /// What the Scala view says of a Scala class, trait or object.
    #[serde(flatten)]
    pub scala: ScalaClassFacts,
    /// The type parameters that are not-null for Kotlin: a Java class's in a JSpecify
    /// `@NullMarked` scope, but for those with a bound annotated nullable (bytecode view).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_null_type_parameters: Option<Vec<String>>,
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
    /// Language-specific facts (`is_suspend`, `defaults`, nullability, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_metadata: Option<MethodMetadata>,
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
    /// Kotlin's deprecation level, written only for `error` (the Kotlin view): a call does
    /// not compile, but overload resolution still sees the method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_level: Option<DeprecationLevel>,
    /// What the Scala view says of a Scala method's parameter lists.
    #[serde(flatten)]
    pub scala: ScalaMethodFacts,
    /// The parameters' names, where the source gives them (Scala signatures, javadoc pages;
    /// the Kotlin view writes them into `other_metadata`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_names: Option<Vec<String>>,
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
    /// Kotlin's deprecation level, written only for `error` (the Kotlin view): a read does
    /// not compile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_level: Option<DeprecationLevel>,
    /// What the Kotlin view says of a property (`const`, `lateinit`, bounds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_metadata: Option<FieldMetadata>,
    /// What the Scala view says of a `val` or `var`.
    #[serde(flatten)]
    pub scala: ScalaFieldFacts,
    /// A static field copied from a non-public supertype (bytecode view): Java reaches it
    /// through the subclass, Scala does not inherit statics; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_from_hidden_supertype: Option<bool>,
    /// Annotated nullable as Kotlin reads Java (bytecode view); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nullable: Option<bool>,
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
            kotlin: KotlinClassFacts::default(),
            scala: ScalaClassFacts::default(),
            not_null_type_parameters: None,
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

    /// True when `other_metadata` says `flag` of it (`|m| m.is_suspend`).
    pub fn metadata_says(&self, flag: impl Fn(&MethodMetadata) -> Option<bool>) -> bool {
        self.other_metadata.as_ref().and_then(flag) == Some(true)
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

/// What the Kotlin view says of a class (keys in the class document itself). The Kotlin view
/// writes the first eight, in this order; the Dokka reader writes `kotlin_object` and
/// `kotlin_data` instead.
#[serde_as]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KotlinClassFacts {
    /// Deprecated with a level (written only for `error`: a use of the name is an error; its
    /// members stay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_level: Option<DeprecationLevel>,
    /// An opt-in requirement marker (`@RequiresOptIn`); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_in_marker: Option<bool>,
    /// The opt-in markers the class is annotated with (dotted, sorted): a use of it, or of
    /// its members, needs `@OptIn` of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_in: Option<Vec<String>>,
    /// Read from a `.kotlin_builtins` file, without a class file (`kotlin.collections.List`,
    /// `kotlin.concurrent.atomics.AtomicLong`): Java names no such class, and the markers it
    /// needs are unknown; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kotlin_builtin: Option<bool>,
    /// The kind of class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kotlin_kind: Option<KotlinKind>,
    /// The simple name of its companion object, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companion: Option<String>,
    /// A `data` class; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_data: Option<bool>,
    /// A `value` (inline) class; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_value: Option<bool>,
    /// Every bound of each type parameter with more than one (`where T : A, T : B`; the
    /// type-parameter string keeps the first), by name, in declaration order.
    #[serde_as(as = "Option<serde_with::Map<_, _>>")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_bounds: Option<Vec<(String, Vec<String>)>>,
    /// The type aliases of a package (a document of top-level members); types elsewhere use
    /// their expansion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_aliases: Option<Vec<TypeAliasDoc>>,
    /// An object or companion object (the Dokka reader's mark).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kotlin_object: Option<KotlinObjectMark>,
    /// A `data` class (the Dokka reader's mark); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kotlin_data: Option<bool>,
}

/// What the Scala view (and the Scaladoc reader) says of a class, trait or object (keys in
/// the class document itself); each written only when true.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScalaClassFacts {
    /// An `object` without a companion class: its members are static, and it is no type a
    /// program can name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scala_object: Option<bool>,
    /// A `case` class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_case: Option<bool>,
    /// A class of a class or trait: path-dependent (`outer.Inner`), no program names it
    /// `Outer.Inner`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scala_inner: Option<bool>,
    /// An `implicit` class: its constructor converts its argument.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implicit: Option<bool>,
    /// Scala 3's `@experimental`: a use needs an experimental scope (the program's object is
    /// annotated so); written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<bool>,
}

/// What the Scala view says of a method (keys in the method document itself).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScalaMethodFacts {
    /// An `implicit` method (with one parameter: an implicit conversion); written only when
    /// true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implicit: Option<bool>,
    /// The types of its implicit (`using`) parameters and context bounds (`Ordering[A]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implicit_parameters: Option<Vec<String>>,
    /// The number of explicit parameter lists when not one (later lists are curried into the
    /// result type; 0: a parameterless `def`, called without parentheses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_lists: Option<usize>,
    /// Scala 3's `@experimental`; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<bool>,
}

/// What the Scala view says of a `val` or `var` (keys in the field document itself); each
/// written only when true.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScalaFieldFacts {
    /// A `var`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_var: Option<bool>,
    /// An `implicit` val (or parameterless def): an instance implicit search may find.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implicit: Option<bool>,
    /// Scala 3's `@experimental`; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<bool>,
}

/// A method's `other_metadata`: Kotlin's flags and defaults (the Kotlin view writes the first
/// nine in this order; Dokka the first five; the Scala view `defaults`), and the nullability
/// annotations Kotlin honours on a Java method (the bytecode view, the last six).
#[serde_as]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MethodMetadata {
    /// A `suspend` function.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_suspend: Option<bool>,
    /// An `inline` function.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_inline: Option<bool>,
    /// An `operator` function (`a + b`, `a[i]`, `b in a`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_operator: Option<bool>,
    /// An `infix` function (`a name b`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_infix: Option<bool>,
    /// The parameters that declare a default value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defaults: Option<ParamDefaults>,
    /// The parameters' names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_names: Option<Vec<String>>,
    /// Every bound of each type parameter with more than one, by name, in declaration order.
    #[serde_as(as = "Option<serde_with::Map<_, _>>")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_bounds: Option<Vec<(String, Vec<String>)>>,
    /// The opt-in markers the function is annotated with (dotted, sorted): a call needs
    /// `@OptIn` of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_in: Option<Vec<String>>,
    /// For a package function, the static method Java calls (`kotlin.text.StringsKt.trim`:
    /// its file or multi-file facade class and JVM name); absent where Java cannot call it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jvm_method: Option<String>,
    /// Overrides an inherited function; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_override: Option<bool>,
    /// A member the compiler synthesizes (an enum's `values()`, `valueOf`); written only when
    /// true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthesized: Option<bool>,
    /// The result is nullable for Kotlin; written only when true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nullable_return: Option<bool>,
    /// Parts of the result type annotated nullable (`Predicate<@Nullable T>`), each by its
    /// path from the result type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nullable_return_paths: Option<Vec<Vec<TypePathStep>>>,
    /// Parts of parameter types annotated nullable: (parameter index, path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nullable_parameter_paths: Option<Vec<(usize, Vec<TypePathStep>)>>,
    /// Indices of the parameters that are nullable for Kotlin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nullable_parameters: Option<Vec<usize>>,
    /// Indices of the parameters that are not-null for Kotlin (a nullable argument is an
    /// error there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_null_parameters: Option<Vec<usize>>,
    /// The method's type parameters that are not-null in a JSpecify `@NullMarked` scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_null_type_parameters: Option<Vec<String>>,
    /// Keys this schema does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A property's `other_metadata` (the Kotlin view).
#[serde_as]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FieldMetadata {
    /// Every bound of each type parameter with more than one (an extension property's), by
    /// name, in declaration order.
    #[serde_as(as = "Option<serde_with::Map<_, _>>")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_bounds: Option<Vec<(String, Vec<String>)>>,
    /// A `const val`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_const: Option<bool>,
    /// A `lateinit var`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_lateinit: Option<bool>,
    /// The opt-in markers the property is annotated with (dotted, sorted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_in: Option<Vec<String>>,
    /// Keys this schema does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A Kotlin type alias of a package (`type_aliases`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypeAliasDoc {
    /// Fully-qualified name.
    pub name: String,
    /// Type-parameter declarations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_parameters: Option<Vec<String>>,
    /// The expansion (aliases inside it expanded too).
    #[serde(rename = "type")]
    pub ty: String,
    /// The right-hand side as declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub underlying: Option<String>,
    /// `public` or `protected`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_mod: Option<String>,
    /// Fields this schema does not know, kept as they were.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Kotlin's deprecation levels (`"deprecation_level"`; the Kotlin view writes `error` only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeprecationLevel {
    /// A use is a warning.
    Warning,
    /// A use is an error (the declaration still takes part in overload resolution).
    Error,
    /// Invisible to clients.
    Hidden,
}

/// The kind of a Kotlin class (`"kotlin_kind"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KotlinKind {
    /// A class (also abstract, sealed, data or value).
    Class,
    /// An interface.
    Interface,
    /// An annotation class: no type of values.
    AnnotationClass,
    /// An enum class.
    EnumClass,
    /// An `object`.
    Object,
    /// A companion object.
    Companion,
}

/// The Dokka reader's mark of an object (`"kotlin_object"`): `true`, or `"companion"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KotlinObjectMark {
    /// An `object` (`true`).
    Object,
    /// A companion object (`"companion"`).
    Companion,
}

impl Serialize for KotlinObjectMark {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            KotlinObjectMark::Object => s.serialize_bool(true),
            KotlinObjectMark::Companion => s.serialize_str("companion"),
        }
    }
}

impl<'de> Deserialize<'de> for KotlinObjectMark {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Flag(bool),
            Name(String),
        }
        match Raw::deserialize(d)? {
            Raw::Flag(true) => Ok(KotlinObjectMark::Object),
            Raw::Name(n) if n == "companion" => Ok(KotlinObjectMark::Companion),
            _ => Err(serde::de::Error::custom(
                "expected `true` or \"companion\" for kotlin_object",
            )),
        }
    }
}

/// The parameters that declare a default value (`"defaults"`), in either of the two forms
/// the extractors write.
#[derive(Clone, Debug, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamDefaults {
    /// Their indices (the Kotlin and Scala views).
    Indices(Vec<usize>),
    /// One flag per parameter: it has a default value (the Dokka reader).
    PerParameter(Vec<bool>),
}

impl ParamDefaults {
    /// True when no parameter is listed (`[]`, which reads back as either form).
    pub fn is_empty(&self) -> bool {
        match self {
            ParamDefaults::Indices(v) => v.is_empty(),
            ParamDefaults::PerParameter(v) => v.is_empty(),
        }
    }
}

impl PartialEq for ParamDefaults {
    /// Equal when written alike: the same form and entries, or both empty (`[]`).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (ParamDefaults::Indices(a), ParamDefaults::Indices(b)) => a == b,
            (ParamDefaults::PerParameter(a), ParamDefaults::PerParameter(b)) => a == b,
            _ => self.is_empty() && other.is_empty(),
        }
    }
}

/// One step of a path into a type (`nullable_return_paths`): a type argument's index, `"[]"`
/// for an array's element, `"?"` for a wildcard's bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawPathStep", into = "RawPathStep")]
pub enum TypePathStep {
    /// Type argument `i`.
    Arg(usize),
    /// An array's element type.
    Element,
    /// A wildcard's bound.
    Bound,
}

/// A [`TypePathStep`] as JSON.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum RawPathStep {
    Arg(usize),
    Mark(String),
}

impl From<TypePathStep> for RawPathStep {
    fn from(s: TypePathStep) -> Self {
        match s {
            TypePathStep::Arg(i) => RawPathStep::Arg(i),
            TypePathStep::Element => RawPathStep::Mark("[]".into()),
            TypePathStep::Bound => RawPathStep::Mark("?".into()),
        }
    }
}

impl TryFrom<RawPathStep> for TypePathStep {
    type Error = String;

    fn try_from(r: RawPathStep) -> Result<Self, String> {
        match r {
            RawPathStep::Arg(i) => Ok(TypePathStep::Arg(i)),
            RawPathStep::Mark(m) if m == "[]" => Ok(TypePathStep::Element),
            RawPathStep::Mark(m) if m == "?" => Ok(TypePathStep::Bound),
            RawPathStep::Mark(m) => Err(format!("`{m}` is no step of a type path")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` as a `T` and writes it back: the same text (keys in the same places and
    /// order).
    fn round_trip<T: Serialize + for<'de> Deserialize<'de>>(text: &str) -> T {
        let v: T = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
        v
    }

    #[test]
    fn a_kotlin_class_with_every_fact_round_trips() {
        let d: ClassDoc = round_trip(concat!(
            r#"{"name":"a.Box","is_sealed":true,"deprecation_level":"error","#,
            r#""opt_in_marker":true,"kotlin_kind":"companion","companion":"Factory","#,
            r#""is_data":true,"is_value":true,"upper_bounds":{"T":["a.A","a.B<T>"],"#,
            r#""S":["kotlin.Any?","a.C"]},"type_aliases":[{"name":"a.N","type_parameters":[],"#,
            r#""type":"kotlin.Int","underlying":"a.M","access_mod":"public","x_alias":1}],"#,
            r#""x_unknown":{"k":[1]}}"#
        ));
        let k = &d.kotlin;
        assert_eq!(k.deprecation_level, Some(DeprecationLevel::Error));
        assert_eq!(k.opt_in_marker, Some(true));
        assert_eq!(k.kotlin_kind, Some(KotlinKind::Companion));
        assert_eq!(k.companion.as_deref(), Some("Factory"));
        assert_eq!((k.is_data, k.is_value), (Some(true), Some(true)));
        let bounds = k.upper_bounds.as_ref().unwrap();
        assert_eq!(bounds[0].0, "T");
        assert_eq!(
            bounds[1],
            ("S".into(), vec!["kotlin.Any?".into(), "a.C".into()])
        );
        let alias = &k.type_aliases.as_ref().unwrap()[0];
        assert_eq!(
            (alias.ty.as_str(), alias.underlying.as_deref()),
            ("kotlin.Int", Some("a.M"))
        );
        assert_eq!(alias.extra["x_alias"], 1);
        assert_eq!(d.extra.len(), 1);
        assert_eq!(d.extra["x_unknown"], serde_json::json!({"k": [1]}));
    }

    #[test]
    fn dokka_scala_and_java_class_facts_round_trip() {
        let d: ClassDoc = round_trip(r#"{"name":"a.O","kotlin_object":true,"kotlin_data":true}"#);
        assert_eq!(d.kotlin.kotlin_object, Some(KotlinObjectMark::Object));
        assert_eq!(d.kotlin.kotlin_data, Some(true));
        let d: ClassDoc = round_trip(r#"{"name":"a.O.Companion","kotlin_object":"companion"}"#);
        assert_eq!(d.kotlin.kotlin_object, Some(KotlinObjectMark::Companion));
        let d: ClassDoc = round_trip(concat!(
            r#"{"name":"s.C","scala_object":true,"is_case":true,"scala_inner":true,"#,
            r#""implicit":true}"#
        ));
        let s = &d.scala;
        assert_eq!(
            (s.scala_object, s.is_case, s.scala_inner, s.implicit),
            (Some(true), Some(true), Some(true), Some(true))
        );
        assert!(d.extra.is_empty());
        let d: ClassDoc = round_trip(r#"{"name":"j.C","not_null_type_parameters":["T"]}"#);
        assert_eq!(d.not_null_type_parameters, Some(vec!["T".to_string()]));
    }

    #[test]
    fn a_method_with_every_fact_round_trips() {
        let m: MethodDoc = round_trip(concat!(
            r#"{"name":"plus","parameters":["T","kotlin.Int"],"other_metadata":{"#,
            r#""is_suspend":false,"is_inline":true,"is_operator":true,"is_infix":false,"#,
            r#""defaults":[1],"parameter_names":["a","b"],"upper_bounds":{"T":["A","B"]},"#,
            r#""is_override":true,"synthesized":true,"nullable_return":true,"#,
            r#""nullable_return_paths":[[0,"?","[]"]],"nullable_parameter_paths":[[1,[2]]],"#,
            r#""nullable_parameters":[0],"not_null_parameters":[1],"#,
            r#""not_null_type_parameters":["T"],"x_meta":"kept"},"#,
            r#""deprecation_level":"error","implicit":true,"implicit_parameters":["Ordering[A]"],"#,
            r#""parameter_lists":0,"parameter_names":["x"],"x_method":[null]}"#
        ));
        let o = m.other_metadata.as_ref().unwrap();
        assert_eq!(
            (o.is_suspend, o.is_inline, o.is_operator, o.is_infix),
            (Some(false), Some(true), Some(true), Some(false))
        );
        assert!(m.metadata_says(|o| o.is_inline) && !m.metadata_says(|o| o.is_suspend));
        assert_eq!(o.defaults, Some(ParamDefaults::Indices(vec![1])));
        assert_eq!(o.parameter_names, Some(vec!["a".into(), "b".into()]));
        assert_eq!(
            o.upper_bounds,
            Some(vec![("T".into(), vec!["A".into(), "B".into()])])
        );
        assert_eq!((o.is_override, o.synthesized), (Some(true), Some(true)));
        assert_eq!(o.nullable_return, Some(true));
        use TypePathStep::{Arg, Bound, Element};
        assert_eq!(
            o.nullable_return_paths,
            Some(vec![vec![Arg(0), Bound, Element]])
        );
        assert_eq!(o.nullable_parameter_paths, Some(vec![(1, vec![Arg(2)])]));
        assert_eq!(o.nullable_parameters, Some(vec![0]));
        assert_eq!(o.not_null_parameters, Some(vec![1]));
        assert_eq!(o.not_null_type_parameters, Some(vec!["T".into()]));
        assert_eq!(o.extra["x_meta"], "kept");
        assert_eq!(m.deprecation_level, Some(DeprecationLevel::Error));
        assert_eq!(m.scala.implicit, Some(true));
        assert_eq!(
            m.scala.implicit_parameters,
            Some(vec!["Ordering[A]".into()])
        );
        assert_eq!(m.scala.parameter_lists, Some(0));
        assert_eq!(m.parameter_names, Some(vec!["x".into()]));
        assert_eq!(m.extra["x_method"], serde_json::json!([null]));
    }

    #[test]
    fn dokkas_per_parameter_defaults_round_trip_and_empty_lists_are_equal() {
        let m: MethodDoc = round_trip(concat!(
            r#"{"name":"f","parameters":["A","B"],"other_metadata":{"is_suspend":true,"#,
            r#""is_inline":false,"is_operator":false,"is_infix":true,"defaults":[false,true]}}"#
        ));
        let o = m.other_metadata.unwrap();
        assert_eq!(
            o.defaults,
            Some(ParamDefaults::PerParameter(vec![false, true]))
        );
        assert_eq!(
            ParamDefaults::PerParameter(vec![]),
            ParamDefaults::Indices(vec![])
        );
        assert_ne!(
            ParamDefaults::PerParameter(vec![true]),
            ParamDefaults::Indices(vec![0])
        );
    }

    #[test]
    fn a_field_with_every_fact_round_trips() {
        let f: FieldDoc = round_trip(concat!(
            r#"{"name":"x","type":"kotlin.Int","deprecation_level":"error","other_metadata":{"#,
            r#""upper_bounds":{"T":["A","B"]},"is_const":true,"is_lateinit":false,"x_meta":2},"#,
            r#""is_var":true,"implicit":true,"static_from_hidden_supertype":true,"#,
            r#""nullable":true,"x_field":"kept"}"#
        ));
        assert_eq!(f.deprecation_level, Some(DeprecationLevel::Error));
        let o = f.other_metadata.as_ref().unwrap();
        assert_eq!((o.is_const, o.is_lateinit), (Some(true), Some(false)));
        assert_eq!(o.upper_bounds.as_ref().map(Vec::len), Some(1));
        assert_eq!(o.extra["x_meta"], 2);
        assert_eq!((f.scala.is_var, f.scala.implicit), (Some(true), Some(true)));
        assert_eq!(f.static_from_hidden_supertype, Some(true));
        assert_eq!(f.nullable, Some(true));
        assert_eq!(f.extra["x_field"], "kept");
    }

    #[test]
    fn a_fact_of_the_wrong_shape_is_an_error() {
        for bad in [
            r#"{"name":"C","kotlin_kind":"trait"}"#,
            r#"{"name":"C","deprecation_level":"severe"}"#,
            r#"{"name":"C","kotlin_object":false}"#,
            r#"{"name":"C","scala_object":"yes"}"#,
            r#"{"name":"C","upper_bounds":["T"]}"#,
        ] {
            assert!(serde_json::from_str::<ClassDoc>(bad).is_err(), "{bad}");
        }
        for bad in [
            r#"{"name":"m","other_metadata":{"nullable_return_paths":[["*"]]}}"#,
            r#"{"name":"m","other_metadata":{"defaults":[1,true]}}"#,
            r#"{"name":"m","other_metadata":"flags"}"#,
            r#"{"name":"m","parameter_lists":-1}"#,
        ] {
            assert!(serde_json::from_str::<MethodDoc>(bad).is_err(), "{bad}");
        }
    }
}
