//! One class file → [`RawClass`]: the declarations that matter to a client, with generic types
//! parsed but class names still in binary form (printing needs the whole extraction set).

use cafebabe::attributes::{AttributeData, AttributeInfo};
use cafebabe::descriptors::{FieldDescriptor, FieldType};
use cafebabe::{ClassAccessFlags, ParseOptions};

use super::signature::{
    parse_class_signature, parse_field_signature, parse_method_signature, JType, TypeParam,
};
use super::ExtractError;

/// `ACC_PUBLIC`.
pub const ACC_PUBLIC: u16 = 0x0001;
/// `ACC_PRIVATE`.
pub const ACC_PRIVATE: u16 = 0x0002;
/// `ACC_PROTECTED`.
pub const ACC_PROTECTED: u16 = 0x0004;
/// `ACC_STATIC`.
pub const ACC_STATIC: u16 = 0x0008;
/// `ACC_FINAL`.
pub const ACC_FINAL: u16 = 0x0010;
/// `ACC_BRIDGE` (methods).
pub const ACC_BRIDGE: u16 = 0x0040;
/// `ACC_VARARGS` (methods).
pub const ACC_VARARGS: u16 = 0x0080;
/// `ACC_INTERFACE`.
pub const ACC_INTERFACE: u16 = 0x0200;
/// `ACC_ABSTRACT`.
pub const ACC_ABSTRACT: u16 = 0x0400;
/// `ACC_SYNTHETIC`.
pub const ACC_SYNTHETIC: u16 = 0x1000;
/// `ACC_ANNOTATION`.
pub const ACC_ANNOTATION: u16 = 0x2000;
/// `ACC_ENUM`.
pub const ACC_ENUM: u16 = 0x4000;

/// A class as read from its class file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawClass {
    /// Binary name with slashes (`java/util/Map$Entry`).
    pub name: String,
    /// Access flags; for a member class, those of its own `InnerClasses` entry (which carry
    /// `protected`, `private` and `static`).
    pub access: u16,
    /// Enclosing class of a member class (binary name).
    pub outer: Option<String>,
    /// Simple name of a member class.
    pub simple_name: Option<String>,
    /// Type parameters.
    pub type_params: Vec<TypeParam>,
    /// Superclass (absent for `java.lang.Object` and for modules).
    pub superclass: Option<JType>,
    /// Direct super-interfaces.
    pub interfaces: Vec<JType>,
    /// Public and protected methods and constructors, bridges included (flagged), synthetic
    /// ones and class initializers left out.
    pub methods: Vec<RawMethod>,
    /// Public and protected fields, synthetic ones left out.
    pub fields: Vec<RawField>,
    /// The classes (binary names) that its members name (descriptors, generic signatures,
    /// declared exceptions; private and synthetic members' too), its type parameters' bounds
    /// and supertypes' type arguments: a compiler that loads the class may load them all.
    pub member_refs: Vec<String>,
    /// `@Deprecated` or the `Deprecated` attribute.
    pub deprecated: bool,
    /// Carries `kotlin.Metadata`.
    pub is_kotlin: bool,
    /// Sealed (has a `PermittedSubclasses` attribute).
    pub sealed: bool,
    /// A JDK preview API (annotated `jdk.internal.javac.PreviewFeature`).
    pub preview: bool,
    /// Its own JSpecify scope annotation: `Some(true)` `@NullMarked`, `Some(false)`
    /// `@NullUnmarked`, `None` neither (the enclosing class's or package's scope applies).
    pub null_marked: Option<bool>,
    /// The indices of its type parameters with a bound annotated nullable
    /// (`<T extends @Nullable Object>`): in a `@NullMarked` scope the others are not-null.
    pub nullable_bounds: Vec<usize>,
    /// Member-class facts from this class's `InnerClasses` attribute:
    /// (inner binary name, outer binary name, simple name).
    pub member_classes: Vec<(String, String, String)>,
    /// Signatures that did not parse (the descriptor was used instead).
    pub warnings: Vec<String>,
}

/// A method or constructor.
#[derive(Clone, Debug, PartialEq)]
pub struct RawMethod {
    /// Name (`<init>` for constructors).
    pub name: String,
    /// Access flags.
    pub access: u16,
    /// Type parameters.
    pub type_params: Vec<TypeParam>,
    /// Parameter types as a client sees them (without an inner class's outer instance).
    pub params: Vec<JType>,
    /// Result type.
    pub ret: JType,
    /// Declared exceptions.
    pub throws: Vec<JType>,
    /// The parameter part of the descriptor, `(Ljava/lang/String;I)`: the erased signature
    /// used for override checks.
    pub erased_params: String,
    /// Deprecated.
    pub deprecated: bool,
    /// A JDK preview API.
    pub preview: bool,
    /// What the nullability annotations Kotlin honours say of its result and parameters.
    pub nullness: Nullness,
    /// The JSpecify scope annotation of the method, else of its class (see
    /// [`RawClass::null_marked`]).
    pub null_marked: Option<bool>,
    /// The indices of its own type parameters with a bound annotated nullable (see
    /// [`RawClass::nullable_bounds`]).
    pub nullable_bounds: Vec<usize>,
}

/// What the nullability annotations Kotlin honours (JetBrains, JSR-305's `javax.annotation`,
/// JSpecify, Checker Framework, Android, Eclipse, FindBugs, Lombok, RxJava) say of a method's
/// top-level result and parameter types: declaration annotations and type-use annotations on
/// the type itself (not on its type arguments or array elements).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Nullness {
    /// The result is annotated nullable (`@CheckForNull`, `@Nullable`).
    pub nullable_ret: bool,
    /// Per client-visible parameter: `Some(true)` nullable, `Some(false)` not-null (`@NotNull`,
    /// `@Nonnull`), `None` unannotated (a platform type).
    pub params: Vec<Option<bool>>,
    /// Type-use nullable annotations inside the result type (`Predicate<@Nullable T>`): the
    /// path to each annotated part.
    pub ret_paths: Vec<Vec<PathStep>>,
    /// The same inside parameter types: (parameter index, path).
    pub param_paths: Vec<(usize, Vec<PathStep>)>,
}

/// One step of a type-use annotation's path into a type (JVMS 4.7.20.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathStep {
    /// Type argument `i` of a parameterized type.
    Arg(u8),
    /// The element type of an array.
    Element,
    /// The bound of a wildcard (`? extends X`, `? super X`).
    Bound,
}

/// The steps of a type annotation's path, or `None` for a path into a nested type's
/// enclosing part (not followed).
fn path_steps(
    path: &[cafebabe::attributes::TypeAnnotationTargetPathEntry],
) -> Option<Vec<PathStep>> {
    use cafebabe::attributes::TypeAnnotationTargetPathKind as K;
    path.iter()
        .map(|e| match e.path_kind {
            K::TypeArgument => Some(PathStep::Arg(e.argument_index)),
            K::DeeperArray => Some(PathStep::Element),
            K::WildcardTypeArgument => Some(PathStep::Bound),
            K::DeeperNested => None,
        })
        .collect()
}

/// The paths, inside a method's result and parameter types, of the nullable type-use
/// annotations that are not on the type itself: (result paths, parameter paths).
type InnerPaths = (Vec<Vec<PathStep>>, Vec<(usize, Vec<PathStep>)>);

fn inner_nullable_paths(attrs: &[AttributeInfo<'_>], n: usize) -> InnerPaths {
    use cafebabe::attributes::TypeAnnotationTarget;
    let mut ret = Vec::new();
    let mut params = Vec::new();
    for t in type_annotations(attrs) {
        if t.target_path.is_empty() || annotation_nullness(&t.annotation) != Some(true) {
            continue;
        }
        let Some(steps) = path_steps(&t.target_path) else {
            continue;
        };
        match t.target_type {
            TypeAnnotationTarget::Empty => ret.push(steps),
            TypeAnnotationTarget::FormalParameter { index } if usize::from(index) < n => {
                params.push((usize::from(index), steps));
            }
            _ => {}
        }
    }
    (ret, params)
}

/// Annotations (binary names) that make a Java type nullable for Kotlin, at its default
/// strictness (errors, not warnings): Kotlin's `NULLABLE_ANNOTATIONS`, JSpecify and the Checker
/// Framework's `compatqual`. Android's `RecentlyNullable` only warns and is not here.
const NULLABLE_ANNOTATIONS: [&str; 18] = [
    "org/jetbrains/annotations/Nullable",
    "androidx/annotation/Nullable",
    "android/support/annotation/Nullable",
    "android/annotation/Nullable",
    "com/android/annotations/Nullable",
    "org/eclipse/jdt/annotation/Nullable",
    "org/checkerframework/checker/nullness/qual/Nullable",
    "org/checkerframework/checker/nullness/compatqual/NullableDecl",
    "org/checkerframework/checker/nullness/compatqual/NullableType",
    "javax/annotation/Nullable",
    "javax/annotation/CheckForNull",
    "edu/umd/cs/findbugs/annotations/CheckForNull",
    "edu/umd/cs/findbugs/annotations/Nullable",
    "edu/umd/cs/findbugs/annotations/PossiblyNull",
    "io/reactivex/annotations/Nullable",
    "io/reactivex/rxjava3/annotations/Nullable",
    "org/jspecify/annotations/Nullable",
    "org/jspecify/nullness/Nullable",
];

/// Annotations (binary names) that make a Java type not-null for Kotlin (a nullable argument
/// is an error): Kotlin's `NOT_NULL_ANNOTATIONS`, `javax.annotation.Nonnull` (without a
/// `when` other than `ALWAYS`), JSpecify and `compatqual`.
const NOT_NULL_ANNOTATIONS: [&str; 16] = [
    "org/jetbrains/annotations/NotNull",
    "edu/umd/cs/findbugs/annotations/NonNull",
    "androidx/annotation/NonNull",
    "android/support/annotation/NonNull",
    "android/annotation/NonNull",
    "com/android/annotations/NonNull",
    "org/eclipse/jdt/annotation/NonNull",
    "org/checkerframework/checker/nullness/qual/NonNull",
    "org/checkerframework/checker/nullness/compatqual/NonNullDecl",
    "org/checkerframework/checker/nullness/compatqual/NonNullType",
    "lombok/NonNull",
    "io/reactivex/annotations/NonNull",
    "io/reactivex/rxjava3/annotations/NonNull",
    "org/jspecify/annotations/NonNull",
    "org/jspecify/nullness/NonNull",
    "javax/annotation/Nonnull",
];

/// What one annotation says of nullability: `Some(true)` nullable, `Some(false)` not-null.
fn annotation_nullness(an: &cafebabe::attributes::Annotation<'_>) -> Option<bool> {
    let FieldType::Object(n) = &an.type_descriptor.field_type else {
        return None;
    };
    if an.type_descriptor.dimensions != 0 {
        return None;
    }
    let n = n.to_string();
    if NULLABLE_ANNOTATIONS.contains(&n.as_str()) {
        return Some(true);
    }
    if NOT_NULL_ANNOTATIONS.contains(&n.as_str()) {
        // `@Nonnull(when = MAYBE)` and the like are JSR-305 qualifiers Kotlin only warns on
        if n == "javax/annotation/Nonnull" && !an.elements.is_empty() {
            let always = an.elements.iter().all(|e| {
                matches!(&e.value, cafebabe::attributes::AnnotationElementValue::EnumConstant {
                    const_name, ..
                } if const_name.as_ref() == "ALWAYS")
            });
            if !always {
                return None;
            }
        }
        return Some(false);
    }
    None
}

/// The nullness that a list of annotations gives (nullable wins over not-null).
fn nullness_of<'a>(
    anns: impl IntoIterator<Item = &'a cafebabe::attributes::Annotation<'a>>,
) -> Option<bool> {
    let mut out = None;
    for an in anns {
        match annotation_nullness(an) {
            Some(true) => return Some(true),
            Some(false) => out = Some(false),
            None => {}
        }
    }
    out
}

/// The indices of the type parameters (of a class or method, whose attributes these are)
/// that have a bound annotated nullable by a type-use annotation on the bound itself.
fn nullable_bounds(attrs: &[AttributeInfo<'_>]) -> Vec<usize> {
    use cafebabe::attributes::TypeAnnotationTarget;
    let mut out = Vec::new();
    for t in type_annotations(attrs) {
        if let TypeAnnotationTarget::TypeParameterBound {
            type_parameter_index,
            ..
        } = t.target_type
        {
            let i = usize::from(type_parameter_index);
            if t.target_path.is_empty()
                && annotation_nullness(&t.annotation) == Some(true)
                && !out.contains(&i)
            {
                out.push(i);
            }
        }
    }
    out.sort_unstable();
    out
}

/// The type annotations (visible and invisible) among `attrs`.
fn type_annotations<'a, 'b>(
    attrs: &'a [AttributeInfo<'b>],
) -> impl Iterator<Item = &'a cafebabe::attributes::TypeAnnotation<'b>> {
    attrs.iter().flat_map(|a| match &a.data {
        AttributeData::RuntimeVisibleTypeAnnotations(v)
        | AttributeData::RuntimeInvisibleTypeAnnotations(v) => v.as_slice(),
        _ => &[],
    })
}

/// Declaration and top-level type-use annotations of a member: the nullness of its type (a
/// field's, or a method's result).
fn member_nullness(attrs: &[AttributeInfo<'_>]) -> Option<bool> {
    use cafebabe::attributes::TypeAnnotationTarget;
    let mut anns = Vec::new();
    for a in attrs {
        match &a.data {
            AttributeData::RuntimeVisibleAnnotations(v)
            | AttributeData::RuntimeInvisibleAnnotations(v) => anns.extend(v.iter()),
            AttributeData::RuntimeVisibleTypeAnnotations(v)
            | AttributeData::RuntimeInvisibleTypeAnnotations(v) => anns.extend(
                v.iter()
                    .filter(|t| {
                        // field type or method result (the parser folds the rare receiver
                        // annotation into the same target)
                        matches!(t.target_type, TypeAnnotationTarget::Empty)
                            && t.target_path.is_empty()
                    })
                    .map(|t| &t.annotation),
            ),
            _ => {}
        }
    }
    nullness_of(anns)
}

/// The nullness of each of a method's `n` client-visible parameters, from parameter
/// annotations (aligned at the end: a compiler may leave out an inner class's enclosing
/// instance) and top-level type-use annotations.
fn param_nullness(attrs: &[AttributeInfo<'_>], n: usize) -> Vec<Option<bool>> {
    use cafebabe::attributes::TypeAnnotationTarget;
    let mut out: Vec<Option<bool>> = vec![None; n];
    let mut set = |i: usize, v: Option<bool>| {
        if let (Some(slot), Some(v)) = (out.get_mut(i), v) {
            if *slot != Some(true) {
                *slot = Some(v);
            }
        }
    };
    for a in attrs {
        match &a.data {
            AttributeData::RuntimeVisibleParameterAnnotations(ps)
            | AttributeData::RuntimeInvisibleParameterAnnotations(ps) => {
                let skip = ps.len().saturating_sub(n);
                let shift = n.saturating_sub(ps.len());
                for (k, p) in ps.iter().enumerate().skip(skip) {
                    set(k - skip + shift, nullness_of(p.annotations.iter()));
                }
            }
            AttributeData::RuntimeVisibleTypeAnnotations(v)
            | AttributeData::RuntimeInvisibleTypeAnnotations(v) => {
                for t in v {
                    if let TypeAnnotationTarget::FormalParameter { index } = t.target_type {
                        if t.target_path.is_empty() {
                            set(usize::from(index), annotation_nullness(&t.annotation));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A field.
#[derive(Clone, Debug, PartialEq)]
pub struct RawField {
    /// Name.
    pub name: String,
    /// Access flags.
    pub access: u16,
    /// Type.
    pub ty: JType,
    /// Deprecated.
    pub deprecated: bool,
    /// Annotated nullable for Kotlin (see [`Nullness`]).
    pub nullable: bool,
}

impl RawClass {
    /// Declared `public`.
    pub fn is_public(&self) -> bool {
        self.access & ACC_PUBLIC != 0
    }
    /// Declared `protected` (member classes only).
    pub fn is_protected(&self) -> bool {
        self.access & ACC_PROTECTED != 0
    }
    /// An interface or annotation type.
    pub fn is_interface(&self) -> bool {
        self.access & ACC_INTERFACE != 0
    }
    /// An annotation type.
    pub fn is_annotation(&self) -> bool {
        self.access & ACC_ANNOTATION != 0
    }
    /// An enum class.
    pub fn is_enum(&self) -> bool {
        self.access & ACC_ENUM != 0
    }
    /// A non-static member class.
    pub fn is_inner(&self) -> bool {
        self.outer.is_some() && self.access & ACC_STATIC == 0
    }
    /// The package, in binary form (`java/util`; empty for the unnamed package).
    pub fn package(&self) -> &str {
        self.name.rsplit_once('/').map(|(p, _)| p).unwrap_or("")
    }
}

impl RawMethod {
    /// A constructor.
    pub fn is_constructor(&self) -> bool {
        self.name == "<init>"
    }
    /// Static.
    pub fn is_static(&self) -> bool {
        self.access & ACC_STATIC != 0
    }
    /// Abstract.
    pub fn is_abstract(&self) -> bool {
        self.access & ACC_ABSTRACT != 0
    }
    /// A bridge method.
    pub fn is_bridge(&self) -> bool {
        self.access & ACC_BRIDGE != 0
    }
    /// Variable arity.
    pub fn is_varargs(&self) -> bool {
        self.access & ACC_VARARGS != 0
    }
    /// `public`.
    pub fn is_public(&self) -> bool {
        self.access & ACC_PUBLIC != 0
    }
}

fn field_type(d: &FieldDescriptor<'_>) -> JType {
    let mut t = match &d.field_type {
        FieldType::Byte => JType::Base(b'B'),
        FieldType::Char => JType::Base(b'C'),
        FieldType::Double => JType::Base(b'D'),
        FieldType::Float => JType::Base(b'F'),
        FieldType::Integer => JType::Base(b'I'),
        FieldType::Long => JType::Base(b'J'),
        FieldType::Short => JType::Base(b'S'),
        FieldType::Boolean => JType::Base(b'Z'),
        FieldType::Object(n) => JType::class(n.to_string()),
    };
    for _ in 0..d.dimensions {
        t = JType::Array(Box::new(t));
    }
    t
}

/// JSpecify's scope annotations: in a `@NullMarked` scope (a package, class or method; the
/// innermost annotation wins, `@NullUnmarked` ends it) Kotlin reads an unannotated type as
/// not-null, strictly (errors) since Kotlin 2.1.
const NULL_MARKED: &str = "org/jspecify/annotations/NullMarked";
const NULL_UNMARKED: &str = "org/jspecify/annotations/NullUnmarked";

/// The JSpecify scope annotation among `attrs`: `Some(true)` `@NullMarked`, `Some(false)`
/// `@NullUnmarked`.
fn null_marked(attrs: &[AttributeInfo<'_>]) -> Option<bool> {
    if is_annotated(attrs, NULL_UNMARKED) {
        Some(false)
    } else if is_annotated(attrs, NULL_MARKED) {
        Some(true)
    } else {
        None
    }
}

/// The package (binary form) and JSpecify scope annotation of a `package-info` class file, or
/// `None` for another class file, one without that annotation, or one that does not parse
/// (the class files of the package report their own problems).
pub fn package_null_marked(bytes: &[u8]) -> Option<(String, bool)> {
    if bytes.len() as u64 > MAX_CLASS_FILE_BYTES
        || check_constant_pool(bytes).is_err()
        || check_annotation_depth(bytes).is_err()
    {
        return None;
    }
    catch_parser_panic(|| {
        let mut opts = ParseOptions::default();
        opts.parse_bytecode(false);
        let cf = cafebabe::parse_class_with_options(bytes, &opts).ok()?;
        let package = cf.this_class.strip_suffix("/package-info")?.to_string();
        Some((package, null_marked(&cf.attributes)?))
    })
    .ok()
    .flatten()
}

fn is_annotated(attrs: &[AttributeInfo<'_>], descriptor: &str) -> bool {
    attrs.iter().any(|a| match &a.data {
        AttributeData::RuntimeVisibleAnnotations(anns) => anns.iter().any(|an| {
            matches!(&an.type_descriptor.field_type,
                FieldType::Object(n) if an.type_descriptor.dimensions == 0 && n.to_string() == descriptor)
        }),
        _ => false,
    })
}

/// True for members of a JDK preview API: the `PreviewFeature` annotation has class retention,
/// so it is among the invisible annotations.
fn is_preview(attrs: &[AttributeInfo<'_>]) -> bool {
    const PREVIEW: [&str; 2] = [
        "jdk/internal/javac/PreviewFeature",
        "jdk/internal/PreviewFeature",
    ];
    attrs.iter().any(|a| match &a.data {
        AttributeData::RuntimeInvisibleAnnotations(anns)
        | AttributeData::RuntimeVisibleAnnotations(anns) => anns.iter().any(|an| {
            matches!(&an.type_descriptor.field_type,
                FieldType::Object(n) if an.type_descriptor.dimensions == 0
                    && PREVIEW.contains(&n.to_string().as_str()))
        }),
        _ => false,
    })
}

fn is_deprecated(attrs: &[AttributeInfo<'_>]) -> bool {
    attrs
        .iter()
        .any(|a| matches!(a.data, AttributeData::Deprecated))
        || is_annotated(attrs, "java/lang/Deprecated")
}

fn signature<'a>(attrs: &'a [AttributeInfo<'_>]) -> Option<&'a str> {
    attrs.iter().find_map(|a| match &a.data {
        AttributeData::Signature(s) => Some(s.as_ref()),
        _ => None,
    })
}

/// The largest class file read (bytes); class files are small (the format caps most
/// tables at 65535 entries), so anything larger is refused before it is held in memory.
pub const MAX_CLASS_FILE_BYTES: u64 = 64 << 20;

/// The longest binary class name accepted (bytes); it becomes a file name in the output.
pub const MAX_CLASS_NAME_LEN: usize = 1024;

thread_local! {
    /// Set while this thread runs the class-file parser under [`catch_parser_panic`]: the
    /// panic hook then keeps the message here instead of printing it.
    static QUIET_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Installs (once) a panic hook that stays silent for threads inside [`catch_parser_panic`]
/// and defers to the previous hook everywhere else.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = QUIET_PANIC
                .try_with(|q| {
                    let mut q = q.borrow_mut();
                    match q.as_mut() {
                        Some(slot) => {
                            let msg = info
                                .payload()
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "unknown panic".into());
                            *slot = match info.location() {
                                Some(l) => format!("{msg} (at {}:{})", l.file(), l.line()),
                                None => msg,
                            };
                            true
                        }
                        None => false,
                    }
                })
                .unwrap_or(false);
            if !quiet {
                previous(info);
            }
        }));
    });
}

/// Runs `f` (the class-file parser and what reads its result); a panic inside becomes an
/// error with the panic's message, printed nowhere.
fn catch_parser_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_quiet_hook();
    let outer = QUIET_PANIC.with(|q| q.borrow_mut().replace(String::new()));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    let msg = QUIET_PANIC.with(|q| std::mem::replace(&mut *q.borrow_mut(), outer));
    r.map_err(|_| msg.unwrap_or_default())
}

/// Whether `b` is Java's modified UTF-8 of a string Rust can hold (no NUL byte, no 4-byte
/// forms, surrogates only in pairs).
fn is_modified_utf8(b: &[u8]) -> bool {
    let mut units: Vec<u16> = Vec::with_capacity(b.len());
    let cont = |i: usize| {
        b.get(i)
            .filter(|&&c| c & 0xC0 == 0x80)
            .map(|&c| (c & 0x3F) as u16)
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            0x01..=0x7F => {
                units.push(c as u16);
                i += 1;
            }
            0xC0..=0xDF => {
                let Some(c1) = cont(i + 1) else { return false };
                units.push(((c & 0x1F) as u16) << 6 | c1);
                i += 2;
            }
            0xE0..=0xEF => {
                let (Some(c1), Some(c2)) = (cont(i + 1), cont(i + 2)) else {
                    return false;
                };
                units.push(((c & 0x0F) as u16) << 12 | c1 << 6 | c2);
                i += 3;
            }
            _ => return false,
        }
    }
    String::from_utf16(&units).is_ok()
}

/// Checks the constant pool ahead of the class-file parser, which panics (rather than fail)
/// on some malformed pools: every constant must have a known tag and fit in the file, and a
/// Utf8 constant used as a name or descriptor (not only as a string literal) must be valid
/// modified UTF-8.
fn check_constant_pool(bytes: &[u8]) -> Result<(), String> {
    let u16_at = |i: usize| -> Option<usize> {
        Some(u16::from_be_bytes([*bytes.get(i)?, *bytes.get(i + 1)?]) as usize)
    };
    let count = u16_at(8).ok_or("truncated constant pool")?;
    let mut utf8_ok: Vec<Option<bool>> = vec![None; count.max(1)];
    let mut named: Vec<usize> = Vec::new();
    let mut i = 10;
    let mut index = 1;
    while index < count {
        let tag = *bytes.get(i).ok_or("truncated constant pool")?;
        let (size, slots) = match tag {
            1 => {
                let len = u16_at(i + 1).ok_or("truncated constant pool")?;
                let data = bytes
                    .get(i + 3..i + 3 + len)
                    .ok_or("truncated constant pool")?;
                utf8_ok[index] = Some(is_modified_utf8(data));
                (3 + len, 1)
            }
            3 | 4 => (5, 1),
            5 | 6 => (9, 2),
            7 | 16 | 19 | 20 => {
                named.push(u16_at(i + 1).ok_or("truncated constant pool")?);
                (3, 1)
            }
            8 => (3, 1),
            12 => {
                named.push(u16_at(i + 1).ok_or("truncated constant pool")?);
                named.push(u16_at(i + 3).ok_or("truncated constant pool")?);
                (5, 1)
            }
            9 | 10 | 11 | 17 | 18 => (5, 1),
            15 => (4, 1),
            other => return Err(format!("constant #{index} has the unknown tag {other}")),
        };
        if bytes.len() < i + size {
            return Err("truncated constant pool".into());
        }
        i += size;
        index += slots;
    }
    for n in named {
        if utf8_ok.get(n).copied().flatten() == Some(false) {
            return Err(format!(
                "constant #{n}, used as a name or descriptor, is not valid modified UTF-8"
            ));
        }
    }
    Ok(())
}

/// The deepest nesting of annotation element values (`@A(x = {{@B(…)}})`) accepted in a class
/// file. The class-file parser reads them recursively, so a hostile nesting (3 bytes a level)
/// would overflow the stack; real annotations nest a few levels.
pub const MAX_ANNOTATION_DEPTH: usize = 64;

/// The deepest nesting of attributes inside attributes (`Code` and `Record` hold attributes)
/// accepted in a class file; the parser reads them recursively. Valid class files nest two
/// levels (a `Code` attribute's own attributes).
pub const MAX_ATTRIBUTE_DEPTH: usize = 8;

/// Why [`check_annotation_depth`] stopped.
enum Scan {
    /// Nesting beyond [`MAX_ANNOTATION_DEPTH`].
    Deep,
    /// Nesting beyond [`MAX_ATTRIBUTE_DEPTH`].
    DeepAttributes,
    /// Malformed or truncated: left to the class-file parser to report.
    Malformed,
}

/// A cursor over class-file bytes for [`check_annotation_depth`].
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn skip(&mut self, n: usize) -> Result<(), Scan> {
        self.i = self.i.checked_add(n).ok_or(Scan::Malformed)?;
        if self.i > self.b.len() {
            return Err(Scan::Malformed);
        }
        Ok(())
    }
    fn u1(&mut self) -> Result<usize, Scan> {
        let v = *self.b.get(self.i).ok_or(Scan::Malformed)?;
        self.i += 1;
        Ok(v as usize)
    }
    fn u2(&mut self) -> Result<usize, Scan> {
        Ok((self.u1()? << 8) | self.u1()?)
    }
    fn u4(&mut self) -> Result<usize, Scan> {
        Ok((self.u2()? << 16) | self.u2()?)
    }
}

/// Rejects a class file whose annotation element values nest deeper than
/// [`MAX_ANNOTATION_DEPTH`] (in class, field, method, parameter, type, record-component,
/// `Code` and default-value annotations) or whose attributes nest deeper than
/// [`MAX_ATTRIBUTE_DEPTH`]. Anything malformed is left to the parser.
fn check_annotation_depth(bytes: &[u8]) -> Result<(), String> {
    match scan_class(bytes) {
        Err(Scan::Deep) => Err(format!(
            "annotation values nested deeper than MAX_ANNOTATION_DEPTH = {MAX_ANNOTATION_DEPTH}"
        )),
        Err(Scan::DeepAttributes) => Err(format!(
            "attributes nested deeper than MAX_ATTRIBUTE_DEPTH = {MAX_ATTRIBUTE_DEPTH}"
        )),
        _ => Ok(()),
    }
}

fn scan_class(bytes: &[u8]) -> Result<(), Scan> {
    let mut c = Cursor { b: bytes, i: 8 };
    let count = c.u2()?;
    let mut utf8: Vec<&[u8]> = vec![&[]; count.max(1)];
    let mut index = 1;
    while index < count {
        let tag = c.u1()?;
        let slots = match tag {
            1 => {
                let len = c.u2()?;
                let start = c.i;
                c.skip(len)?;
                utf8[index] = &bytes[start..c.i];
                1
            }
            5 | 6 => {
                c.skip(8)?;
                2
            }
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => {
                c.skip(4)?;
                1
            }
            15 => {
                c.skip(3)?;
                1
            }
            _ => {
                c.skip(2)?;
                1
            }
        };
        index += slots;
    }
    c.skip(6)?;
    let interfaces = c.u2()?;
    c.skip(2 * interfaces)?;
    for _ in 0..2 {
        // fields, then methods
        for _ in 0..c.u2()? {
            c.skip(6)?;
            scan_attributes(&mut c, &utf8, 1)?;
        }
    }
    scan_attributes(&mut c, &utf8, 1)
}

fn scan_attributes(c: &mut Cursor<'_>, utf8: &[&[u8]], depth: usize) -> Result<(), Scan> {
    if depth > MAX_ATTRIBUTE_DEPTH {
        return Err(Scan::DeepAttributes);
    }
    for _ in 0..c.u2()? {
        let name = utf8.get(c.u2()?).copied().unwrap_or_default();
        let len = c.u4()?;
        let body =
            c.b.get(c.i..c.i.saturating_add(len))
                .ok_or(Scan::Malformed)?;
        c.skip(len)?;
        let mut a = Cursor { b: body, i: 0 };
        match name {
            b"RuntimeVisibleAnnotations" | b"RuntimeInvisibleAnnotations" => {
                scan_annotations(&mut a)?
            }
            b"RuntimeVisibleParameterAnnotations" | b"RuntimeInvisibleParameterAnnotations" => {
                for _ in 0..a.u1()? {
                    scan_annotations(&mut a)?;
                }
            }
            b"RuntimeVisibleTypeAnnotations" | b"RuntimeInvisibleTypeAnnotations" => {
                for _ in 0..a.u2()? {
                    scan_type_annotation(&mut a)?;
                }
            }
            b"AnnotationDefault" => scan_element_value(&mut a, 1)?,
            b"Code" => {
                a.skip(4)?;
                let code = a.u4()?;
                a.skip(code)?;
                let handlers = a.u2()?;
                a.skip(8 * handlers)?;
                scan_attributes(&mut a, utf8, depth + 1)?;
            }
            b"Record" => {
                for _ in 0..a.u2()? {
                    a.skip(4)?;
                    scan_attributes(&mut a, utf8, depth + 1)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn scan_annotations(c: &mut Cursor<'_>) -> Result<(), Scan> {
    for _ in 0..c.u2()? {
        scan_annotation(c, 1)?;
    }
    Ok(())
}

fn scan_type_annotation(c: &mut Cursor<'_>) -> Result<(), Scan> {
    // JVMS 4.7.20.1: target_info by target_type, then the type_path
    match c.u1()? {
        0x00 | 0x01 | 0x16 => c.skip(1)?,
        0x10 | 0x17 | 0x42..=0x46 => c.skip(2)?,
        0x11 | 0x12 => c.skip(2)?,
        0x13..=0x15 => {}
        0x40 | 0x41 => {
            let n = c.u2()?;
            c.skip(6 * n)?;
        }
        0x47..=0x4B => c.skip(3)?,
        _ => return Err(Scan::Malformed),
    }
    let path = c.u1()?;
    c.skip(2 * path)?;
    scan_annotation(c, 1)
}

fn scan_annotation(c: &mut Cursor<'_>, depth: usize) -> Result<(), Scan> {
    c.skip(2)?;
    for _ in 0..c.u2()? {
        c.skip(2)?;
        scan_element_value(c, depth)?;
    }
    Ok(())
}

fn scan_element_value(c: &mut Cursor<'_>, depth: usize) -> Result<(), Scan> {
    if depth > MAX_ANNOTATION_DEPTH {
        return Err(Scan::Deep);
    }
    match c.u1()? as u8 {
        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b's' | b'c' => c.skip(2),
        b'e' => c.skip(4),
        b'@' => scan_annotation(c, depth + 1),
        b'[' => {
            for _ in 0..c.u2()? {
                scan_element_value(c, depth + 1)?;
            }
            Ok(())
        }
        _ => Err(Scan::Malformed),
    }
}

/// Why a binary class name cannot be used (`None` when it can): it becomes a file name of
/// the output, so it must be non-empty, at most [`MAX_CLASS_NAME_LEN`] bytes, made of
/// non-empty `/`-separated segments without `.`, `;`, `[` (JVMS 4.2.1), backslashes or
/// control characters.
pub fn bad_class_name(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("empty class name".into());
    }
    if name.len() > MAX_CLASS_NAME_LEN {
        return Some(format!(
            "class name of {} bytes, longer than MAX_CLASS_NAME_LEN = {MAX_CLASS_NAME_LEN}",
            name.len()
        ));
    }
    // JVMS 4.2.1: no `.`, `;` or `[` in a segment (so no `.` or `..` path segment either)
    if let Some(c) = name
        .chars()
        .find(|c| c.is_control() || matches!(c, '\\' | '.' | ';' | '['))
    {
        return Some(format!("class name {name:?} contains {c:?}"));
    }
    if name.split('/').any(str::is_empty) {
        return Some(format!("class name {name:?} has an empty segment"));
    }
    None
}

/// Reads one class file. `entry_name` names it in errors and warnings.
///
/// Returns `Ok(None)` for class files that declare no type a client can name: `module-info`,
/// `package-info`, synthetic classes, and anonymous and local classes. A class file larger
/// than [`MAX_CLASS_FILE_BYTES`], with an unusable name (see [`bad_class_name`]) or on which
/// the class-file parser panics is malformed (an error, never a crash).
pub fn extract_class(bytes: &[u8], entry_name: &str) -> Result<Option<RawClass>, ExtractError> {
    let malformed = |reason: String| ExtractError::Class {
        entry: entry_name.to_string(),
        reason,
    };
    if bytes.len() as u64 > MAX_CLASS_FILE_BYTES {
        return Err(malformed(format!(
            "{} bytes, more than MAX_CLASS_FILE_BYTES = {MAX_CLASS_FILE_BYTES}",
            bytes.len()
        )));
    }
    if bytes.len() < 10 || bytes[..4] != [0xCA, 0xFE, 0xBA, 0xBE] {
        return Err(malformed("not a class file (no CAFEBABE header)".into()));
    }
    check_constant_pool(bytes).map_err(malformed)?;
    check_annotation_depth(bytes).map_err(malformed)?;
    catch_parser_panic(|| extract_class_unguarded(bytes, entry_name))
        .map_err(|m| malformed(format!("the class-file parser failed: {m}")))?
}

fn extract_class_unguarded(
    bytes: &[u8],
    entry_name: &str,
) -> Result<Option<RawClass>, ExtractError> {
    let mut opts = ParseOptions::default();
    opts.parse_bytecode(false);
    let cf = cafebabe::parse_class_with_options(bytes, &opts).map_err(|e| ExtractError::Class {
        entry: entry_name.to_string(),
        reason: e.to_string(),
    })?;
    if let Some(reason) = bad_class_name(&cf.this_class) {
        return Err(ExtractError::Class {
            entry: entry_name.to_string(),
            reason,
        });
    }
    if cf.access_flags.contains(ClassAccessFlags::MODULE)
        || cf.access_flags.contains(ClassAccessFlags::SYNTHETIC)
        || cf.this_class.ends_with("/package-info")
        || cf.this_class == "package-info"
    {
        return Ok(None);
    }
    let name = cf.this_class.to_string();
    let mut access = cf.access_flags.bits();
    let mut outer = None;
    let mut simple_name = None;
    let mut member_classes = Vec::new();
    let mut warnings = Vec::new();
    let mut unnameable: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for a in &cf.attributes {
        match &a.data {
            AttributeData::EnclosingMethod { .. } => return Ok(None),
            AttributeData::InnerClasses(entries) => {
                for e in entries {
                    let own = e.inner_class_info == cf.this_class;
                    match (&e.outer_class_info, &e.inner_name) {
                        (Some(o), Some(n)) => {
                            member_classes.push((
                                e.inner_class_info.to_string(),
                                o.to_string(),
                                n.to_string(),
                            ));
                            if own {
                                outer = Some(o.to_string());
                                simple_name = Some(n.to_string());
                                // the entry's flags carry protected/private/static; keep the
                                // header's kind bits
                                access = e.access_flags.bits()
                                    | (access & (ACC_INTERFACE | ACC_ANNOTATION | ACC_ENUM));
                            }
                        }
                        // anonymous or local
                        _ if own => return Ok(None),
                        _ => {
                            unnameable.insert(e.inner_class_info.as_ref());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // a member class of an anonymous or local class cannot be named either
    let mut up = outer.as_deref();
    let mut steps = 0;
    while let Some(o) = up {
        if unnameable.contains(o) || steps > 64 {
            return Ok(None);
        }
        up = member_classes
            .iter()
            .find(|(i, _, _)| i == o)
            .map(|(_, o, _)| o.as_str());
        steps += 1;
    }

    let class_sig = signature(&cf.attributes).and_then(|s| match parse_class_signature(s) {
        Ok(sig) => Some(sig),
        Err(e) => {
            warnings.push(format!("class signature {s:?}: {e}"));
            None
        }
    });
    let (type_params, superclass, interfaces) = match class_sig {
        Some(sig) => (
            sig.type_params,
            cf.super_class.as_ref().map(|_| sig.superclass),
            sig.interfaces,
        ),
        None => (
            Vec::new(),
            cf.super_class.as_ref().map(|s| JType::class(s.to_string())),
            cf.interfaces
                .iter()
                .map(|i| JType::class(i.to_string()))
                .collect(),
        ),
    };
    let is_inner_class = outer.is_some() && access & ACC_STATIC == 0;

    let class_marked = null_marked(&cf.attributes);
    let mut methods = Vec::new();
    // the classes every member names, private ones' too: its descriptor, the exceptions it
    // declares (`throws JspException`) and its generic signature (`Class<? extends
    // Missing>[]`, which groovyc resolves too; one that does not parse adds nothing); and the
    // class's own type parameters' bounds and supertypes' type arguments
    let mut member_refs: Vec<String> = Vec::new();
    let descriptor = |d: &FieldDescriptor<'_>, out: &mut Vec<String>| {
        if let FieldType::Object(n) = &d.field_type {
            out.push(n.to_string());
        }
    };
    for m in &cf.methods {
        for d in &m.descriptor.parameters {
            descriptor(d, &mut member_refs);
        }
        if let cafebabe::descriptors::ReturnDescriptor::Return(d) = &m.descriptor.return_type {
            descriptor(d, &mut member_refs);
        }
        for a in &m.attributes {
            if let AttributeData::Exceptions(ex) = &a.data {
                member_refs.extend(ex.iter().map(|e| e.to_string()));
            }
        }
        if let Some(Ok(sig)) = signature(&m.attributes).map(parse_method_signature) {
            for t in sig.params.iter().chain([&sig.ret]).chain(&sig.throws) {
                crate::bytecode::signature::class_names(t, &mut member_refs);
            }
            crate::bytecode::signature::bound_class_names(&sig.type_params, &mut member_refs);
        }
    }
    for f in &cf.fields {
        descriptor(&f.descriptor, &mut member_refs);
        if let Some(Ok(t)) = signature(&f.attributes).map(parse_field_signature) {
            crate::bytecode::signature::class_names(&t, &mut member_refs);
        }
    }
    for t in superclass.iter().chain(&interfaces) {
        crate::bytecode::signature::class_names(t, &mut member_refs);
    }
    crate::bytecode::signature::bound_class_names(&type_params, &mut member_refs);
    member_refs.sort_unstable();
    member_refs.dedup();
    for m in &cf.methods {
        let flags = m.access_flags.bits();
        if flags & (ACC_PUBLIC | ACC_PROTECTED) == 0
            || (flags & ACC_SYNTHETIC != 0 && flags & ACC_BRIDGE == 0)
            || m.name == "<clinit>"
        {
            continue;
        }
        let desc_params: Vec<JType> = m.descriptor.parameters.iter().map(field_type).collect();
        let mut erased_params = String::from("(");
        for p in &m.descriptor.parameters {
            erased_params.push_str(&p.to_string());
        }
        erased_params.push(')');
        let desc_ret = match &m.descriptor.return_type {
            cafebabe::descriptors::ReturnDescriptor::Void => JType::Void,
            cafebabe::descriptors::ReturnDescriptor::Return(d) => field_type(d),
        };
        let exceptions: Vec<JType> = m
            .attributes
            .iter()
            .find_map(|a| match &a.data {
                AttributeData::Exceptions(ex) => {
                    Some(ex.iter().map(|e| JType::class(e.to_string())).collect())
                }
                _ => None,
            })
            .unwrap_or_default();
        let is_ctor = m.name == "<init>";
        let sig = signature(&m.attributes).and_then(|s| match parse_method_signature(s) {
            Ok(sig) => Some(sig),
            Err(e) => {
                warnings.push(format!(
                    "method {}{}: signature {s:?}: {e}",
                    m.name, m.descriptor
                ));
                None
            }
        });
        let (type_params, mut params, ret, throws) = match sig {
            Some(sig) => {
                let throws = if sig.throws.is_empty() {
                    exceptions
                } else {
                    sig.throws
                };
                (sig.type_params, sig.params, sig.ret, throws)
            }
            None => (Vec::new(), desc_params.clone(), desc_ret, exceptions),
        };
        if is_ctor && is_inner_class {
            drop_outer_instance(&mut params, &desc_params, m, outer.as_deref());
        }
        methods.push(RawMethod {
            name: m.name.to_string(),
            access: flags,
            type_params,
            ret,
            throws,
            erased_params,
            deprecated: is_deprecated(&m.attributes),
            preview: is_preview(&m.attributes),
            null_marked: null_marked(&m.attributes).or(class_marked),
            nullable_bounds: nullable_bounds(&m.attributes),
            nullness: {
                let (ret_paths, param_paths) = inner_nullable_paths(&m.attributes, params.len());
                Nullness {
                    nullable_ret: member_nullness(&m.attributes) == Some(true),
                    params: param_nullness(&m.attributes, params.len()),
                    ret_paths,
                    param_paths,
                }
            },
            params,
        });
    }

    let mut fields = Vec::new();
    for f in &cf.fields {
        let flags = f.access_flags.bits();
        if flags & (ACC_PUBLIC | ACC_PROTECTED) == 0 || flags & ACC_SYNTHETIC != 0 {
            continue;
        }
        let ty = match signature(&f.attributes).map(|s| (s, parse_field_signature(s))) {
            Some((_, Ok(t))) => t,
            Some((s, Err(e))) => {
                warnings.push(format!("field {}: signature {s:?}: {e}", f.name));
                field_type(&f.descriptor)
            }
            None => field_type(&f.descriptor),
        };
        fields.push(RawField {
            name: f.name.to_string(),
            access: flags,
            ty,
            deprecated: is_deprecated(&f.attributes),
            nullable: member_nullness(&f.attributes) == Some(true),
        });
    }

    Ok(Some(RawClass {
        name,
        access,
        outer,
        simple_name,
        type_params,
        superclass,
        interfaces,
        methods,
        fields,
        member_refs,
        deprecated: is_deprecated(&cf.attributes),
        is_kotlin: is_annotated(&cf.attributes, "kotlin/Metadata"),
        null_marked: class_marked,
        nullable_bounds: nullable_bounds(&cf.attributes),
        sealed: cf
            .attributes
            .iter()
            .any(|a| matches!(a.data, AttributeData::PermittedSubclasses(_))),
        preview: is_preview(&cf.attributes),
        member_classes,
        warnings,
    }))
}

/// Removes the enclosing-instance parameter from an inner class's constructor.
///
/// A generic `Signature` already leaves it out (it has fewer parameters than the descriptor).
/// Otherwise a `MethodParameters` attribute marks it mandated or synthetic, and failing that
/// it is the descriptor's first parameter when that has the enclosing class's type.
fn drop_outer_instance(
    params: &mut Vec<JType>,
    desc_params: &[JType],
    m: &cafebabe::MethodInfo<'_>,
    outer: Option<&str>,
) {
    if params.len() < desc_params.len() || params.is_empty() {
        return;
    }
    let mp = m.attributes.iter().find_map(|a| match &a.data {
        AttributeData::MethodParameters(ps) => Some(ps),
        _ => None,
    });
    if let Some(ps) = mp {
        if ps.len() == params.len() {
            use cafebabe::attributes::MethodParameterAccessFlags as F;
            let keep: Vec<bool> = ps
                .iter()
                .map(|p| !p.access_flags.intersects(F::MANDATED | F::SYNTHETIC))
                .collect();
            let mut i = 0;
            params.retain(|_| {
                i += 1;
                keep[i - 1]
            });
            return;
        }
    }
    let first_is_outer = match (desc_params.first(), outer) {
        (Some(JType::Class(c)), Some(o)) => c.name == o,
        _ => false,
    };
    if first_is_outer {
        params.remove(0);
    }
}

/// The packages a `module-info` class exports to everyone (binary form, `java/util`), or
/// `None` when the bytes are not a module descriptor.
pub fn module_exports(bytes: &[u8]) -> Option<Vec<String>> {
    if bytes.len() as u64 > MAX_CLASS_FILE_BYTES || check_annotation_depth(bytes).is_err() {
        return None;
    }
    catch_parser_panic(|| module_exports_unguarded(bytes))
        .ok()
        .flatten()
}

fn module_exports_unguarded(bytes: &[u8]) -> Option<Vec<String>> {
    let mut opts = ParseOptions::default();
    opts.parse_bytecode(false);
    let cf = cafebabe::parse_class_with_options(bytes, &opts).ok()?;
    cf.attributes.iter().find_map(|a| match &a.data {
        AttributeData::Module(m) => Some(
            m.exports
                .iter()
                .filter(|e| e.exports_to.is_empty())
                .map(|e| e.package_name.to_string())
                .collect(),
        ),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_parser_becomes_an_error() {
        let r: Result<(), String> = catch_parser_panic(|| panic!("boom"));
        let msg = r.unwrap_err();
        assert!(msg.starts_with("boom (at "), "{msg}");
        // outside the guard, the thread is no longer quiet
        assert!(QUIET_PANIC.with(|q| q.borrow().is_none()));
        assert_eq!(catch_parser_panic(|| 7), Ok(7));
    }

    #[test]
    fn modified_utf8() {
        assert!(is_modified_utf8(b"java/lang/Object"));
        assert!(is_modified_utf8(&[0xC0, 0x80])); // NUL
        assert!(is_modified_utf8("é".as_bytes()));
        assert!(!is_modified_utf8(&[0x00]));
        assert!(!is_modified_utf8(&[0xFF]));
        assert!(!is_modified_utf8(&[0xC3, 0x28]));
        // a lone surrogate (U+D800)
        assert!(!is_modified_utf8(&[0xED, 0xA0, 0x80]));
    }

    #[test]
    fn class_names_that_could_be_paths_are_refused() {
        assert!(bad_class_name("java/util/Map$Entry").is_none());
        for bad in [
            "", "a//b", "../x", "a/../b", "a\\b", "/abs", "a/b/", "x\u{0}",
        ] {
            assert!(bad_class_name(bad).is_some(), "{bad:?}");
        }
    }
}
