//! Java types as the class file spells them: a parser for generic signatures (JVMS §4.7.9.1)
//! and descriptors (§4.3), substitution and erasure, and a printer into thalia's Java syntax.
//!
//! Class names are kept in binary form (`java/util/Map$Entry`) until printing, because whether a
//! `$` separates a nested class from its outer class is only known from `InnerClasses`
//! attributes, which a [`NameMap`] collects over a whole extraction set.

use std::collections::HashMap;
use std::fmt::Write as _;

/// A Java type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum JType {
    /// A primitive type, by its descriptor letter (`I`, `Z`, ...).
    Base(u8),
    /// `void` (method results only).
    Void,
    /// A class or interface type.
    Class(ClassType),
    /// A type variable.
    Var(String),
    /// An array of the element type.
    Array(Box<JType>),
}

/// A class type: binary name, type arguments, and the enclosing type when the signature spells
/// one (`Lpkg/Outer<TA;>.Inner<TB;>;`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClassType {
    /// Binary name with slashes (`pkg/Outer$Inner`).
    pub name: String,
    /// Type arguments of this (innermost) class.
    pub args: Vec<TypeArg>,
    /// The enclosing class type as written in a signature (`Outer<A>` in `Outer<A>.Inner`).
    pub outer: Option<Box<ClassType>>,
}

/// A type argument.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeArg {
    /// `?`
    Any,
    /// `? extends T`
    Extends(JType),
    /// `? super T`
    Super(JType),
    /// `T`
    Exact(JType),
}

/// A type-parameter declaration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeParam {
    /// The variable's name.
    pub name: String,
    /// The class bound (absent when the first bound is an interface).
    pub class_bound: Option<JType>,
    /// The interface bounds.
    pub interface_bounds: Vec<JType>,
}

/// A parsed class signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassSig {
    /// Type parameters.
    pub type_params: Vec<TypeParam>,
    /// The superclass.
    pub superclass: JType,
    /// The super-interfaces.
    pub interfaces: Vec<JType>,
}

/// A parsed method signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodSig {
    /// Type parameters.
    pub type_params: Vec<TypeParam>,
    /// Parameter types.
    pub params: Vec<JType>,
    /// Result type ([`JType::Void`] for `void`).
    pub ret: JType,
    /// Thrown types from the signature (empty when it has none).
    pub throws: Vec<JType>,
}

/// `java/lang/Object`.
pub const OBJECT: &str = "java/lang/Object";

/// Adds to `out` the binary names of the classes `t` names (its type arguments, enclosing
/// types and array elements included; a name may be added more than once).
pub fn class_names(t: &JType, out: &mut Vec<String>) {
    match t {
        JType::Class(c) => class_type_names(c, out),
        JType::Array(e) => class_names(e, out),
        JType::Base(_) | JType::Void | JType::Var(_) => {}
    }
}

fn class_type_names(c: &ClassType, out: &mut Vec<String>) {
    out.push(c.name.clone());
    for a in &c.args {
        if let TypeArg::Extends(t) | TypeArg::Super(t) | TypeArg::Exact(t) = a {
            class_names(t, out);
        }
    }
    if let Some(o) = &c.outer {
        class_type_names(o, out);
    }
}

/// Adds to `out` the classes that type parameters' bounds name.
pub fn bound_class_names(params: &[TypeParam], out: &mut Vec<String>) {
    for p in params {
        for b in p.class_bound.iter().chain(&p.interface_bounds) {
            class_names(b, out);
        }
    }
}

/// The deepest nesting of reference types (type arguments, array elements, bounds) a
/// signature may have. Real signatures nest a few levels; the JVM allows 255 array
/// dimensions; anything deeper is refused rather than parsed (and printed, substituted and
/// dropped) recursively.
pub const MAX_SIGNATURE_DEPTH: usize = 256;

impl JType {
    /// A non-generic class type.
    pub fn class(name: impl Into<String>) -> JType {
        JType::Class(ClassType {
            name: name.into(),
            args: Vec::new(),
            outer: None,
        })
    }

    /// True for the plain `java.lang.Object` type.
    pub fn is_object(&self) -> bool {
        matches!(self, JType::Class(c) if c.name == OBJECT && c.args.is_empty())
    }

    /// The class name of a class type.
    pub fn class_name(&self) -> Option<&str> {
        match self {
            JType::Class(c) => Some(&c.name),
            _ => None,
        }
    }
}

/// Why a signature did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SigError {
    /// Byte offset of the problem.
    pub at: usize,
    /// What was expected.
    pub message: &'static str,
}

impl std::fmt::Display for SigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.message, self.at)
    }
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: usize,
}

type PResult<T> = Result<T, SigError>;

impl<'a> Parser<'a> {
    fn new(s: &'a str) -> Self {
        Parser {
            s,
            b: s.as_bytes(),
            i: 0,
            depth: 0,
        }
    }

    fn err<T>(&self, message: &'static str) -> PResult<T> {
        Err(SigError {
            at: self.i,
            message,
        })
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8, message: &'static str) -> PResult<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(message)
        }
    }

    fn at_end(&self) -> bool {
        self.i >= self.b.len()
    }

    /// An identifier: bytes up to one of `stops` (never empty).
    fn ident(&mut self, stops: &[u8]) -> PResult<&'a str> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if stops.contains(&c) {
                break;
            }
            self.i += 1;
        }
        if self.i == start {
            return self.err("expected an identifier");
        }
        Ok(&self.s[start..self.i])
    }

    fn java_type(&mut self) -> PResult<JType> {
        match self.peek() {
            Some(c @ (b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z')) => {
                self.i += 1;
                Ok(JType::Base(c))
            }
            _ => self.reference_type(),
        }
    }

    fn reference_type(&mut self) -> PResult<JType> {
        if self.depth >= MAX_SIGNATURE_DEPTH {
            return self.err("types nested deeper than MAX_SIGNATURE_DEPTH (256)");
        }
        self.depth += 1;
        let t = self.reference_type_inner();
        self.depth -= 1;
        t
    }

    fn reference_type_inner(&mut self) -> PResult<JType> {
        match self.peek() {
            Some(b'L') => Ok(JType::Class(self.class_type()?)),
            Some(b'T') => {
                self.i += 1;
                let name = self.ident(b";<>.:/[")?;
                self.expect(b';', "expected ';' after a type variable")?;
                Ok(JType::Var(name.to_string()))
            }
            Some(b'[') => {
                self.i += 1;
                Ok(JType::Array(Box::new(self.java_type()?)))
            }
            _ => self.err("expected a reference type"),
        }
    }

    fn class_type(&mut self) -> PResult<ClassType> {
        self.expect(b'L', "expected 'L'")?;
        let name = self.ident(b";<>.:[")?;
        let mut ct = ClassType {
            name: name.to_string(),
            args: self.type_args()?,
            outer: None,
        };
        while self.eat(b'.') {
            let simple = self.ident(b";<>.:/[")?;
            let args = self.type_args()?;
            let name = format!("{}${}", ct.name, simple);
            ct = ClassType {
                name,
                args,
                outer: Some(Box::new(ct)),
            };
        }
        self.expect(b';', "expected ';' after a class type")?;
        Ok(ct)
    }

    fn type_args(&mut self) -> PResult<Vec<TypeArg>> {
        let mut args = Vec::new();
        if !self.eat(b'<') {
            return Ok(args);
        }
        loop {
            let arg = match self.peek() {
                Some(b'*') => {
                    self.i += 1;
                    TypeArg::Any
                }
                Some(b'+') => {
                    self.i += 1;
                    TypeArg::Extends(self.reference_type()?)
                }
                Some(b'-') => {
                    self.i += 1;
                    TypeArg::Super(self.reference_type()?)
                }
                _ => TypeArg::Exact(self.reference_type()?),
            };
            args.push(arg);
            if self.eat(b'>') {
                break;
            }
            if self.at_end() {
                return self.err("unterminated type arguments");
            }
        }
        Ok(args)
    }

    fn type_params(&mut self) -> PResult<Vec<TypeParam>> {
        let mut params = Vec::new();
        if !self.eat(b'<') {
            return Ok(params);
        }
        loop {
            let name = self.ident(b":;<>./[")?.to_string();
            self.expect(b':', "expected ':' after a type parameter name")?;
            let class_bound = match self.peek() {
                Some(b'L' | b'T' | b'[') => Some(self.reference_type()?),
                _ => None,
            };
            let mut interface_bounds = Vec::new();
            while self.eat(b':') {
                interface_bounds.push(self.reference_type()?);
            }
            params.push(TypeParam {
                name,
                class_bound,
                interface_bounds,
            });
            if self.eat(b'>') {
                break;
            }
            if self.at_end() {
                return self.err("unterminated type parameters");
            }
        }
        if params.is_empty() {
            return self.err("empty type parameters");
        }
        Ok(params)
    }

    fn finish(&self) -> PResult<()> {
        if self.at_end() {
            Ok(())
        } else {
            self.err("trailing characters")
        }
    }
}

/// Parses a class signature (`<T:Ljava/lang/Object;>Ljava/lang/Object;Ljava/util/List<TT;>;`).
pub fn parse_class_signature(s: &str) -> Result<ClassSig, SigError> {
    let mut p = Parser::new(s);
    let type_params = p.type_params()?;
    let superclass = JType::Class(p.class_type()?);
    let mut interfaces = Vec::new();
    while !p.at_end() {
        interfaces.push(JType::Class(p.class_type()?));
    }
    Ok(ClassSig {
        type_params,
        superclass,
        interfaces,
    })
}

/// Parses a method signature or a method descriptor.
pub fn parse_method_signature(s: &str) -> Result<MethodSig, SigError> {
    let mut p = Parser::new(s);
    let type_params = p.type_params()?;
    p.expect(b'(', "expected '('")?;
    let mut params = Vec::new();
    while !p.eat(b')') {
        if p.at_end() {
            return p.err("unterminated parameter list");
        }
        params.push(p.java_type()?);
    }
    let ret = if p.eat(b'V') {
        JType::Void
    } else {
        p.java_type()?
    };
    let mut throws = Vec::new();
    while p.eat(b'^') {
        throws.push(p.reference_type()?);
    }
    p.finish()?;
    Ok(MethodSig {
        type_params,
        params,
        ret,
        throws,
    })
}

/// Parses a field signature or a field descriptor.
pub fn parse_field_signature(s: &str) -> Result<JType, SigError> {
    let mut p = Parser::new(s);
    let t = p.java_type()?;
    p.finish()?;
    Ok(t)
}

/// Binary-name → source-name knowledge from `InnerClasses` attributes.
///
/// A member class `pkg/Outer$Inner` is printed `pkg.Outer.Inner`; a name the map does not know
/// is printed with its slashes turned into dots and any `$` kept (it may be part of the name).
#[derive(Clone, Debug, Default)]
pub struct NameMap {
    nested: HashMap<String, (String, String)>,
    resolved: HashMap<String, String>,
}

impl NameMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that `inner` is the member class `simple` of `outer` (binary names).
    pub fn add(&mut self, inner: &str, outer: &str, simple: &str) {
        self.nested
            .entry(inner.to_string())
            .or_insert_with(|| (outer.to_string(), simple.to_string()));
    }

    /// Resolves every recorded name once; call after the last [`NameMap::add`].
    pub fn freeze(&mut self) {
        let keys: Vec<String> = self.nested.keys().cloned().collect();
        let mut resolved = HashMap::with_capacity(keys.len());
        for k in keys {
            let mut chain = Vec::new();
            let mut cur = k.as_str();
            // walk outwards (bounded against cycles in malformed input)
            while let Some((outer, simple)) = self.nested.get(cur) {
                chain.push(simple.as_str());
                cur = outer.as_str();
                if chain.len() > 64 {
                    break;
                }
            }
            let mut s = cur.replace('/', ".");
            for simple in chain.iter().rev() {
                s.push('.');
                s.push_str(simple);
            }
            resolved.insert(k, s);
        }
        self.resolved = resolved;
    }

    /// The source name of a binary class name.
    pub fn source_name(&self, binary: &str) -> String {
        match self.resolved.get(binary) {
            Some(s) => s.clone(),
            None => binary.replace('/', "."),
        }
    }

    /// The enclosing class of a member class, if known.
    pub fn outer_of(&self, binary: &str) -> Option<&str> {
        self.nested.get(binary).map(|(o, _)| o.as_str())
    }
}

/// Prints types in thalia's Java syntax.
///
/// The type arguments of an enclosing class (`Outer<A>` in `Outer<A>.Inner<B>`) cannot be
/// written in that syntax and are dropped: the type prints as `pkg.Outer.Inner<B>`.
pub struct Printer<'a> {
    /// Name knowledge for nested classes.
    pub names: &'a NameMap,
}

impl Printer<'_> {
    /// A type.
    pub fn ty(&self, t: &JType) -> String {
        let mut s = String::new();
        self.write_ty(&mut s, t);
        s
    }

    /// A parameter type; a variable-arity one prints its last array level as `...`.
    pub fn param(&self, t: &JType, varargs: bool) -> String {
        match t {
            JType::Array(e) if varargs => {
                let mut s = self.ty(e);
                s.push_str("...");
                s
            }
            _ => self.ty(t),
        }
    }

    /// A type-parameter declaration (`T`, `T extends A & B`).
    pub fn type_param(&self, p: &TypeParam) -> String {
        let mut s = p.name.clone();
        let mut bounds: Vec<&JType> = Vec::new();
        if let Some(cb) = &p.class_bound {
            if !(cb.is_object() && p.interface_bounds.is_empty()) {
                bounds.push(cb);
            }
        }
        bounds.extend(p.interface_bounds.iter());
        for (i, b) in bounds.iter().enumerate() {
            s.push_str(if i == 0 { " extends " } else { " & " });
            self.write_ty(&mut s, b);
        }
        s
    }

    fn write_ty(&self, s: &mut String, t: &JType) {
        match t {
            JType::Base(c) => s.push_str(base_name(*c)),
            JType::Void => s.push_str("void"),
            JType::Var(v) => s.push_str(v),
            JType::Array(e) => {
                self.write_ty(s, e);
                s.push_str("[]");
            }
            JType::Class(c) => self.write_class(s, c),
        }
    }

    fn write_class_name(&self, s: &mut String, c: &ClassType) {
        match &c.outer {
            Some(o) if c.name.len() > o.name.len() + 1 && c.name.starts_with(o.name.as_str()) => {
                self.write_class_name(s, o);
                s.push('.');
                s.push_str(&c.name[o.name.len() + 1..]);
            }
            _ => s.push_str(&self.names.source_name(&c.name)),
        }
    }

    fn write_class(&self, s: &mut String, c: &ClassType) {
        self.write_class_name(s, c);
        if !c.args.is_empty() {
            s.push('<');
            for (i, a) in c.args.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                match a {
                    TypeArg::Any => s.push('?'),
                    TypeArg::Extends(t) => {
                        s.push_str("? extends ");
                        self.write_ty(s, t);
                    }
                    TypeArg::Super(t) => {
                        s.push_str("? super ");
                        self.write_ty(s, t);
                    }
                    TypeArg::Exact(t) => self.write_ty(s, t),
                }
            }
            s.push('>');
        }
    }
}

/// The Java name of a primitive descriptor letter.
pub fn base_name(c: u8) -> &'static str {
    match c {
        b'B' => "byte",
        b'C' => "char",
        b'D' => "double",
        b'F' => "float",
        b'I' => "int",
        b'J' => "long",
        b'S' => "short",
        b'Z' => "boolean",
        _ => "void",
    }
}

/// A substitution of type variables.
pub type Subst = HashMap<String, JType>;

/// The substitution `params[i] := args[i]` for a parameterized supertype; wildcard arguments
/// (which a supertype cannot have in valid Java) stand for their bound, or `Object`. A raw
/// supertype (no arguments) substitutes the erasure of each parameter.
pub fn subst_for(params: &[TypeParam], args: &[TypeArg]) -> Subst {
    let mut m = Subst::new();
    if args.is_empty() {
        for p in params {
            m.insert(p.name.clone(), erasure_of_param(p));
        }
        return m;
    }
    for (p, a) in params.iter().zip(args) {
        let t = match a {
            TypeArg::Exact(t) | TypeArg::Extends(t) => t.clone(),
            TypeArg::Super(_) | TypeArg::Any => JType::class(OBJECT),
        };
        m.insert(p.name.clone(), t);
    }
    m
}

fn erasure_of_param(p: &TypeParam) -> JType {
    match p.class_bound.as_ref().or(p.interface_bounds.first()) {
        Some(JType::Class(c)) => JType::class(c.name.clone()),
        _ => JType::class(OBJECT),
    }
}

/// Applies a substitution.
pub fn subst(t: &JType, s: &Subst) -> JType {
    if s.is_empty() {
        return t.clone();
    }
    match t {
        JType::Var(v) => s.get(v).cloned().unwrap_or_else(|| t.clone()),
        JType::Array(e) => JType::Array(Box::new(subst(e, s))),
        JType::Class(c) => JType::Class(subst_class(c, s)),
        JType::Base(_) | JType::Void => t.clone(),
    }
}

fn subst_class(c: &ClassType, s: &Subst) -> ClassType {
    ClassType {
        name: c.name.clone(),
        args: c
            .args
            .iter()
            .map(|a| match a {
                TypeArg::Any => TypeArg::Any,
                TypeArg::Extends(t) => TypeArg::Extends(subst(t, s)),
                TypeArg::Super(t) => TypeArg::Super(subst(t, s)),
                TypeArg::Exact(t) => TypeArg::Exact(subst(t, s)),
            })
            .collect(),
        outer: c.outer.as_ref().map(|o| Box::new(subst_class(o, s))),
    }
}

/// Applies a substitution to type-parameter bounds.
pub fn subst_param(p: &TypeParam, s: &Subst) -> TypeParam {
    TypeParam {
        name: p.name.clone(),
        class_bound: p.class_bound.as_ref().map(|b| subst(b, s)),
        interface_bounds: p.interface_bounds.iter().map(|b| subst(b, s)).collect(),
    }
}

/// The descriptor of a type's erasure; `scopes` give the bounds of the type variables in scope
/// (innermost first).
pub fn erased_descriptor(out: &mut String, t: &JType, scopes: &[&[TypeParam]]) {
    erase_into(out, t, scopes, 0);
}

fn erase_into(out: &mut String, t: &JType, scopes: &[&[TypeParam]], depth: usize) {
    match t {
        JType::Base(c) => out.push(*c as char),
        JType::Void => out.push('V'),
        JType::Array(e) => {
            out.push('[');
            erase_into(out, e, scopes, depth);
        }
        JType::Class(c) => {
            let _ = write!(out, "L{};", c.name);
        }
        JType::Var(v) => {
            let bound = scopes
                .iter()
                .flat_map(|sc| sc.iter())
                .find(|p| &p.name == v)
                .and_then(|p| p.class_bound.as_ref().or(p.interface_bounds.first()));
            match bound {
                Some(b) if depth < 16 => erase_into(out, b, scopes, depth + 1),
                _ => {
                    let _ = write!(out, "L{OBJECT};");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(t: &JType) -> String {
        let names = NameMap::new();
        Printer { names: &names }.ty(t)
    }

    #[test]
    fn parses_and_prints_method_signatures() {
        let m = parse_method_signature(
            "<T:Ljava/lang/Object;:Ljava/lang/Comparable<-TT;>;>(Ljava/util/Collection<+TT;>;)TT;",
        )
        .unwrap();
        let names = NameMap::new();
        let p = Printer { names: &names };
        assert_eq!(
            p.type_param(&m.type_params[0]),
            "T extends java.lang.Object & java.lang.Comparable<? super T>"
        );
        assert_eq!(p.ty(&m.params[0]), "java.util.Collection<? extends T>");
        assert_eq!(p.ty(&m.ret), "T");
        let m =
            parse_method_signature("<X:Ljava/lang/Throwable;>([[I[TX;)V^TX;^Ljava/io/IOException;")
                .unwrap();
        assert_eq!(p.param(&m.params[1], true), "X...");
        assert_eq!(p.ty(&m.params[0]), "int[][]");
        assert_eq!(m.throws.len(), 2);
        assert_eq!(
            p.type_param(&m.type_params[0]),
            "X extends java.lang.Throwable"
        );
    }

    #[test]
    fn inner_class_types_drop_outer_arguments() {
        let t = parse_field_signature("Lp/Outer<TA;>.Inner<TB;*>;").unwrap();
        assert_eq!(show(&t), "p.Outer.Inner<B,?>");
        let mut names = NameMap::new();
        names.add("java/util/Map$Entry", "java/util/Map", "Entry");
        names.add("a/b$c$D", "a/b$c", "D");
        names.freeze();
        let p = Printer { names: &names };
        let t = parse_field_signature("Ljava/util/Map$Entry<TK;TV;>;").unwrap();
        assert_eq!(p.ty(&t), "java.util.Map.Entry<K,V>");
        assert_eq!(p.ty(&JType::class("a/b$c$D")), "a.b$c.D");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        assert!(
            SigError {
                at: 0,
                message: "types nested deeper than MAX_SIGNATURE_DEPTH (256)"
            }
            .message
            .contains(&MAX_SIGNATURE_DEPTH.to_string()),
            "the message names the limit's value"
        );
        let deep = |n: usize| format!("{}TT;{}", "Ljava/util/List<".repeat(n), ">;".repeat(n));
        let err = parse_field_signature(&deep(5000)).unwrap_err();
        assert!(err.message.contains("MAX_SIGNATURE_DEPTH"), "{err}");
        assert!(parse_field_signature(&deep(MAX_SIGNATURE_DEPTH - 1)).is_ok());
        let arrays = format!("({}I)V", "[".repeat(100_000));
        assert!(parse_method_signature(&arrays).is_err());
        let bounds = format!("<T:{}TT;{}>()V", "Lp/C<".repeat(5000), ">;".repeat(5000));
        assert!(parse_method_signature(&bounds).is_err());
    }

    #[test]
    fn rejects_malformed() {
        assert!(parse_method_signature("(Ljava/lang/String").is_err());
        assert!(parse_class_signature("<T>Ljava/lang/Object;").is_err());
        assert!(parse_field_signature("Q").is_err());
        assert!(parse_field_signature("II").is_err());
    }
}
