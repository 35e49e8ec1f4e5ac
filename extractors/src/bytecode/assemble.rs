//! From the raw classes of an extraction set to API documents: accessibility, printing, the
//! public API inherited through non-public supertypes, and functional interfaces.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use rayon::prelude::*;

use super::class::{RawClass, RawField, RawMethod, ACC_ENUM, ACC_FINAL, ACC_PROTECTED, ACC_STATIC};
use super::signature::{
    erased_descriptor, subst, subst_for, subst_param, JType, NameMap, Printer, Subst, TypeParam,
};
use super::ExtractOptions;
use crate::schema::{ClassDoc, FieldDoc, MethodDoc, MethodMetadata, TypePathStep};

/// The classes an extraction can see, by binary name: the set being extracted, then the
/// context (classes consulted, not emitted).
pub(crate) struct Lookup<'a> {
    pub local: HashMap<&'a str, &'a RawClass>,
    /// Binary names of local classes in packages their module does not export.
    pub hidden: HashSet<&'a str>,
    pub context: Option<&'a super::ClassPool>,
    /// Packages whose `package-info` carries JSpecify's `@NullMarked` (true) or
    /// `@NullUnmarked` (false).
    pub null_marked_packages: HashMap<&'a str, bool>,
}

impl<'a> Lookup<'a> {
    pub fn get(&self, name: &str) -> Option<&'a RawClass> {
        self.local
            .get(name)
            .copied()
            .or_else(|| self.context.and_then(|c| c.get(name)))
    }

    fn is_hidden(&self, name: &str) -> bool {
        if self.local.contains_key(name) {
            self.hidden.contains(name)
        } else {
            self.context.is_some_and(|c| c.is_hidden(name))
        }
    }

    /// The access a client has to a class: `public`, `protected` (a protected member class of
    /// an accessible class), or none.
    pub fn access(&self, c: &RawClass, include_protected: bool) -> Option<&'static str> {
        let mut cur = c;
        let mut result = "public";
        for _ in 0..64 {
            let own = if cur.is_public() {
                "public"
            } else if cur.outer.is_some() && cur.is_protected() && include_protected {
                "protected"
            } else {
                return None;
            };
            if std::ptr::eq(cur, c) {
                result = own;
            }
            match cur.outer.as_deref().and_then(|o| self.get(o)) {
                Some(o) => cur = o,
                None => return Some(result),
            }
        }
        Some(result)
    }

    /// True when a supertype is part of the emitted API (so it is kept as a supertype rather
    /// than flattened into its subtypes).
    fn nameable(&self, c: &RawClass, include_protected: bool) -> bool {
        !self.is_hidden(&c.name) && self.access(c, include_protected).is_some()
    }
}

const OBJECT_METHODS: [&str; 3] = ["equals(Ljava/lang/Object;)", "hashCode()", "toString()"];

/// An instance method of an interface after override resolution, in that interface's terms.
#[derive(Clone)]
struct IMethod {
    key: String,
    is_abstract: bool,
    declarer: String,
    type_params: Vec<TypeParam>,
    params: Vec<JType>,
    name: String,
}

/// Computes which interfaces are functional (JLS §9.8).
pub(crate) struct Functional<'l, 'a> {
    lookup: &'l Lookup<'a>,
    methods: HashMap<String, Rc<Vec<IMethod>>>,
    ancestors: HashMap<String, Rc<HashSet<String>>>,
}

fn method_key(
    name: &str,
    params: &[JType],
    method_tps: &[TypeParam],
    class_tps: &[TypeParam],
) -> String {
    let mut key = String::with_capacity(name.len() + 16);
    key.push_str(name);
    key.push('(');
    for p in params {
        erased_descriptor(&mut key, p, &[method_tps, class_tps]);
    }
    key.push(')');
    key
}

/// Substitutes into a method, leaving its own type variables alone.
fn subst_method(m: &RawMethod, s: &Subst) -> RawMethod {
    let mut s = s.clone();
    for tp in &m.type_params {
        s.remove(&tp.name);
    }
    RawMethod {
        name: m.name.clone(),
        access: m.access,
        type_params: m.type_params.iter().map(|p| subst_param(p, &s)).collect(),
        params: m.params.iter().map(|t| subst(t, &s)).collect(),
        ret: subst(&m.ret, &s),
        throws: m.throws.iter().map(|t| subst(t, &s)).collect(),
        erased_params: m.erased_params.clone(),
        deprecated: m.deprecated,
        preview: m.preview,
        nullness: m.nullness.clone(),
        null_marked: m.null_marked,
        nullable_bounds: m.nullable_bounds.clone(),
    }
}

impl<'l, 'a> Functional<'l, 'a> {
    pub fn new(lookup: &'l Lookup<'a>) -> Self {
        Functional {
            lookup,
            methods: HashMap::new(),
            ancestors: HashMap::new(),
        }
    }

    /// Whether an interface is functional: exactly one abstract method that is not a public
    /// method of `Object`, counting those inherited from super-interfaces the lookup knows.
    pub fn is_functional(&mut self, c: &RawClass) -> bool {
        if !c.is_interface() || c.is_annotation() || c.sealed {
            return false;
        }
        let ms = self.methods_of(&c.name, 0);
        ms.iter()
            .filter(|m| m.is_abstract && !OBJECT_METHODS.contains(&m.key.as_str()))
            .count()
            == 1
    }

    fn ancestors_of(&mut self, name: &str, depth: usize) -> Rc<HashSet<String>> {
        if let Some(a) = self.ancestors.get(name) {
            return a.clone();
        }
        let mut set = HashSet::new();
        if let Some(c) = self.lookup.get(name) {
            if depth < 64 {
                for i in &c.interfaces {
                    if let Some(n) = i.class_name() {
                        set.insert(n.to_string());
                        let up = self.ancestors_of(n, depth + 1);
                        set.extend(up.iter().cloned());
                    }
                }
            }
        }
        let rc = Rc::new(set);
        self.ancestors.insert(name.to_string(), rc.clone());
        rc
    }

    fn methods_of(&mut self, name: &str, depth: usize) -> Rc<Vec<IMethod>> {
        if let Some(m) = self.methods.get(name) {
            return m.clone();
        }
        let Some(c) = self.lookup.get(name) else {
            let rc = Rc::new(Vec::new());
            self.methods.insert(name.to_string(), rc.clone());
            return rc;
        };
        let mut list: Vec<IMethod> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for m in &c.methods {
            if m.is_static() || m.is_constructor() || m.is_bridge() || !m.is_public() {
                continue;
            }
            let key = format!("{}{}", m.name, m.erased_params);
            if index.contains_key(&key) {
                continue;
            }
            index.insert(key.clone(), list.len());
            list.push(IMethod {
                key,
                is_abstract: m.is_abstract(),
                declarer: c.name.clone(),
                type_params: m.type_params.clone(),
                params: m.params.clone(),
                name: m.name.clone(),
            });
        }
        if depth < 64 {
            for sup in &c.interfaces {
                let JType::Class(ct) = sup else { continue };
                let inherited = self.methods_of(&ct.name, depth + 1);
                let s = match self.lookup.get(&ct.name) {
                    Some(sc) => subst_for(&sc.type_params, &ct.args),
                    None => Subst::new(),
                };
                for im in inherited.iter() {
                    let mut s2 = s.clone();
                    for tp in &im.type_params {
                        s2.remove(&tp.name);
                    }
                    let type_params: Vec<TypeParam> =
                        im.type_params.iter().map(|p| subst_param(p, &s2)).collect();
                    let params: Vec<JType> = im.params.iter().map(|t| subst(t, &s2)).collect();
                    let key = method_key(&im.name, &params, &type_params, &c.type_params);
                    let new = IMethod {
                        key: key.clone(),
                        is_abstract: im.is_abstract,
                        declarer: im.declarer.clone(),
                        type_params,
                        params,
                        name: im.name.clone(),
                    };
                    match index.get(&key) {
                        None => {
                            index.insert(key, list.len());
                            list.push(new);
                        }
                        Some(&i) => {
                            let old = &list[i];
                            if old.declarer == c.name {
                                continue;
                            }
                            // a default method wins over an abstract one it overrides; an
                            // abstract one wins over an unrelated default
                            let replace = if old.is_abstract && !new.is_abstract {
                                self.ancestors_of(&new.declarer, 0).contains(&old.declarer)
                            } else if !old.is_abstract && new.is_abstract {
                                !self.ancestors_of(&old.declarer, 0).contains(&new.declarer)
                            } else {
                                false
                            };
                            if replace {
                                list[i] = new;
                            }
                        }
                    }
                }
            }
        }
        let rc = Rc::new(list);
        self.methods.insert(name.to_string(), rc.clone());
        rc
    }
}

/// Members gathered from non-public supertypes, and the supertypes that replace them.
struct Flattened {
    methods: Vec<RawMethod>,
    fields: Vec<RawField>,
    keys: HashSet<String>,
    field_names: HashSet<String>,
}

pub(crate) struct Builder<'l, 'a> {
    pub lookup: &'l Lookup<'a>,
    pub names: &'l NameMap,
    pub opts: &'l ExtractOptions,
}

impl Builder<'_, '_> {
    /// Whether `m`, a method of `c` (or copied into it), is in a JSpecify `@NullMarked`
    /// scope: its own or its class's annotation, else the enclosing classes', else its
    /// package's.
    fn null_marked(&self, c: &RawClass, m: &RawMethod) -> bool {
        match m.null_marked {
            Some(v) => v,
            None => self.enclosing_null_marked(c),
        }
    }

    /// Whether class `c` is in a JSpecify `@NullMarked` scope: its own annotation, else its
    /// enclosing classes', else its package's.
    fn class_null_marked(&self, c: &RawClass) -> bool {
        match c.null_marked {
            Some(v) => v,
            None => self.enclosing_null_marked(c),
        }
    }

    /// The scope around class `c`: its enclosing classes', else its package's.
    fn enclosing_null_marked(&self, c: &RawClass) -> bool {
        let mut outer = c.outer.as_deref();
        // (an enclosing chain is short; the bound guards against a cyclic `InnerClasses`)
        for _ in 0..16 {
            let Some(o) = outer.and_then(|o| self.lookup.get(o)) else {
                break;
            };
            if let Some(v) = o.null_marked {
                return v;
            }
            outer = o.outer.as_deref();
        }
        self.lookup
            .null_marked_packages
            .get(c.package())
            .copied()
            .unwrap_or(false)
    }

    fn copy_members(
        &self,
        c: &RawClass,
        from: &RawClass,
        s: &Subst,
        interface: bool,
        acc: &mut Flattened,
    ) {
        for m in &from.methods {
            if m.is_constructor() || m.is_bridge() || (interface && m.is_static()) {
                continue;
            }
            let m2 = subst_method(m, s);
            let key = method_key(&m2.name, &m2.params, &m2.type_params, &c.type_params);
            if acc.keys.insert(key) {
                acc.methods.push(m2);
            }
        }
        for f in &from.fields {
            if acc.field_names.insert(f.name.clone()) {
                acc.fields.push(RawField {
                    name: f.name.clone(),
                    access: f.access,
                    ty: subst(&f.ty, s),
                    deprecated: f.deprecated,
                    nullable: f.nullable,
                });
            }
        }
    }

    fn flatten_iface(
        &self,
        c: &RawClass,
        t: JType,
        out: &mut Vec<JType>,
        acc: &mut Flattened,
        depth: usize,
    ) {
        if let JType::Class(ct) = &t {
            if let Some(s) = self.lookup.get(&ct.name) {
                if self.opts.flatten_non_public
                    && depth < 32
                    && !self.lookup.nameable(s, self.opts.include_protected)
                {
                    let sb = subst_for(&s.type_params, &ct.args);
                    self.copy_members(c, s, &sb, true, acc);
                    for i in &s.interfaces {
                        self.flatten_iface(c, subst(i, &sb), out, acc, depth + 1);
                    }
                    return;
                }
            }
        }
        out.push(t);
    }

    /// The document of an accessible class.
    pub fn build(&self, c: &RawClass, access: &str, functional: bool) -> ClassDoc {
        let p = Printer { names: self.names };
        let mut acc = Flattened {
            methods: Vec::new(),
            fields: Vec::new(),
            // bridges are left out: javac's visibility bridges (public copies of a non-public
            // superclass's methods) would otherwise hide the very methods to copy
            keys: c
                .methods
                .iter()
                .filter(|m| !m.is_bridge())
                .map(|m| format!("{}{}", m.name, m.erased_params))
                .collect(),
            field_names: c.fields.iter().map(|f| f.name.clone()).collect(),
        };
        let mut inherits = Vec::new();
        let mut implements = Vec::new();
        if c.is_interface() {
            for i in &c.interfaces {
                self.flatten_iface(c, i.clone(), &mut inherits, &mut acc, 0);
            }
        } else {
            let mut sup = c.superclass.clone();
            let mut extra = Vec::new();
            let mut depth = 0;
            while let Some(JType::Class(ct)) = &sup {
                let Some(s) = self.lookup.get(&ct.name) else {
                    break;
                };
                if !self.opts.flatten_non_public
                    || depth > 32
                    || self.lookup.nameable(s, self.opts.include_protected)
                {
                    break;
                }
                let sb = subst_for(&s.type_params, &ct.args);
                self.copy_members(c, s, &sb, false, &mut acc);
                extra.extend(s.interfaces.iter().map(|i| subst(i, &sb)));
                sup = s.superclass.as_ref().map(|t| subst(t, &sb));
                depth += 1;
            }
            inherits.extend(sup);
            for i in c.interfaces.iter().cloned().chain(extra) {
                self.flatten_iface(c, i, &mut implements, &mut acc, 0);
            }
        }
        let dedup = |ts: Vec<JType>| {
            let mut out: Vec<String> = Vec::new();
            for t in ts {
                let s = p.ty(&t);
                if !out.contains(&s) {
                    out.push(s);
                }
            }
            out
        };
        let inherits = dedup(inherits);
        let implements = dedup(implements);

        let simple = c
            .simple_name
            .clone()
            .unwrap_or_else(|| c.name.rsplit('/').next().unwrap_or(&c.name).to_string());
        let mut methods: Vec<MethodDoc> = c
            .methods
            .iter()
            .chain(acc.methods.iter())
            .filter(|m| !m.is_bridge() && self.member_visible(m.access))
            .map(|m| self.method_doc(&p, c, m, &simple))
            .collect();
        methods.sort_by(|a, b| {
            a.name
                .cmp(&b.name)
                .then(a.parameters.len().cmp(&b.parameters.len()))
        });
        let copied: Vec<&str> = acc.fields.iter().map(|f| f.name.as_str()).collect();
        let fields: Vec<FieldDoc> = c
            .fields
            .iter()
            .chain(acc.fields.iter())
            .filter(|f| self.member_visible(f.access))
            .map(|f| FieldDoc {
                name: f.name.clone(),
                ty: p.ty(&f.ty),
                is_final: Some(f.access & ACC_FINAL != 0),
                is_override: None,
                receiver: None,
                type_parameters: None,
                access_mod: Some(access_mod(f.access).into()),
                is_static: Some(f.access & ACC_STATIC != 0),
                deprecated: f.deprecated.then_some(true),
                is_enum_constant: (f.access & ACC_ENUM != 0).then_some(true),
                deprecation_level: None,
                other_metadata: None,
                scala: Default::default(),
                // a static field copied from a non-public supertype: Java reaches it through the
                // subclass, Scala does not inherit statics
                static_from_hidden_supertype: (f.access & ACC_STATIC != 0
                    && copied.contains(&f.name.as_str()))
                .then_some(true),
                // annotated nullable for Kotlin (see `Nullness`)
                nullable: f.nullable.then_some(true),
                extra: Default::default(),
            })
            .collect();
        let class_type = if c.is_interface() {
            1
        } else if c.is_enum() {
            3
        } else if c.access & super::class::ACC_ABSTRACT != 0 {
            2
        } else {
            0
        };
        ClassDoc {
            name: self.names.source_name(&c.name),
            type_parameters: Some(c.type_params.iter().map(|t| p.type_param(t)).collect()),
            implements: Some(implements),
            inherits: Some(inherits),
            class_type: Some(class_type),
            methods: Some(methods),
            fields: Some(fields),
            functional_interface: Some(functional),
            parent: Some(c.outer.as_deref().map(|o| self.names.source_name(o))),
            access_mod: Some(access.to_string()),
            language: Some("java".into()),
            is_class: None,
            deprecated: c.deprecated.then_some(true),
            is_kotlin: c.is_kotlin.then_some(true),
            is_inner: c.is_inner().then_some(true),
            is_sealed: c.sealed.then_some(true),
            preview: c.preview.then_some(true),
            kotlin: Default::default(),
            scala: Default::default(),
            not_null_type_parameters: {
                let names = not_null_type_params(
                    &c.type_params,
                    &c.nullable_bounds,
                    self.class_null_marked(c),
                );
                (!names.is_empty()).then_some(names)
            },
            extra: Default::default(),
        }
    }

    fn member_visible(&self, access: u16) -> bool {
        access & super::class::ACC_PUBLIC != 0
            || (self.opts.include_protected && access & ACC_PROTECTED != 0)
    }

    fn method_doc(&self, p: &Printer<'_>, c: &RawClass, m: &RawMethod, simple: &str) -> MethodDoc {
        let ctor = m.is_constructor();
        let varargs = m.is_varargs() && matches!(m.params.last(), Some(JType::Array(_)));
        let n = m.params.len();
        MethodDoc {
            name: if ctor {
                simple.to_string()
            } else {
                m.name.clone()
            },
            parameters: m
                .params
                .iter()
                .enumerate()
                .map(|(i, t)| p.param(t, varargs && i + 1 == n))
                .collect(),
            type_parameters: Some(m.type_params.iter().map(|t| p.type_param(t)).collect()),
            return_type: Some(if ctor { None } else { Some(p.ty(&m.ret)) }),
            receiver: None,
            is_static: Some(m.is_static()),
            is_constructor: Some(ctor),
            access_mod: Some(access_mod(m.access).into()),
            is_default: Some(c.is_interface() && !m.is_abstract() && !m.is_static() && !ctor),
            throws: Some(m.throws.iter().map(|t| p.ty(t)).collect()),
            other_metadata: {
                let marked = self.null_marked(c, m);
                let mut meta = nullness_metadata(&m.nullness, &m.params, marked);
                let names = not_null_type_params(&m.type_params, &m.nullable_bounds, marked);
                if !names.is_empty() {
                    meta.get_or_insert_with(MethodMetadata::default)
                        .not_null_type_parameters = Some(names);
                }
                meta
            },
            deprecated: m.deprecated.then_some(true),
            is_abstract: m.is_abstract().then_some(true),
            is_varargs: varargs.then_some(true),
            preview: m.preview.then_some(true),
            deprecation_level: None,
            scala: Default::default(),
            parameter_names: None,
            extra: Default::default(),
        }
    }
}

/// The names of the type parameters that are not-null in a JSpecify `@NullMarked` scope: all
/// but those with a bound annotated nullable (`<T extends @Nullable Object>`); none outside
/// such a scope.
fn not_null_type_params(
    params: &[super::signature::TypeParam],
    nullable_bounds: &[usize],
    null_marked: bool,
) -> Vec<String> {
    if !null_marked {
        return Vec::new();
    }
    params
        .iter()
        .enumerate()
        .filter(|(i, _)| !nullable_bounds.contains(i))
        .map(|(_, p)| p.name.clone())
        .collect()
}

/// The `other_metadata` that records a method's nullability annotations as Kotlin reads them
/// (`nullable_return`, `nullable_parameters` and `not_null_parameters`, indices; the parts of
/// types annotated nullable by their paths), or `None` when it has none. In a JSpecify
/// `@NullMarked` scope (`null_marked`) an unannotated parameter of a class or array type is
/// not-null (one of a type variable's type keeps the nullness of the type argument, and is
/// left unannotated).
fn nullness_metadata(
    n: &super::class::Nullness,
    params: &[JType],
    null_marked: bool,
) -> Option<MethodMetadata> {
    let of = |i: usize, v: Option<bool>| match v {
        None if null_marked => params
            .get(i)
            .is_some_and(|t| matches!(t, JType::Class(_) | JType::Array(_)))
            .then_some(false),
        v => v,
    };
    let pick = |want: bool| -> Vec<usize> {
        n.params
            .iter()
            .enumerate()
            .filter(|(i, v)| of(*i, **v) == Some(want))
            .map(|(i, _)| i)
            .collect()
    };
    let (nullable, not_null) = (pick(true), pick(false));
    if !n.nullable_ret
        && nullable.is_empty()
        && not_null.is_empty()
        && n.ret_paths.is_empty()
        && n.param_paths.is_empty()
    {
        return None;
    }
    fn some<T>(v: Vec<T>) -> Option<Vec<T>> {
        (!v.is_empty()).then_some(v)
    }
    Some(MethodMetadata {
        nullable_return: n.nullable_ret.then_some(true),
        nullable_return_paths: some(n.ret_paths.iter().map(|p| type_path(p)).collect()),
        nullable_parameter_paths: some(
            n.param_paths
                .iter()
                .map(|(i, p)| (*i, type_path(p)))
                .collect(),
        ),
        nullable_parameters: some(nullable),
        not_null_parameters: some(not_null),
        ..MethodMetadata::default()
    })
}

/// A type-use annotation's path in the schema's terms (written as a type argument's index,
/// `"[]"` for an array's element, `"?"` for a wildcard's bound: `[0, "?"]` is the bound of
/// the first type argument).
fn type_path(p: &[super::class::PathStep]) -> Vec<TypePathStep> {
    use super::class::PathStep;
    p.iter()
        .map(|s| match s {
            PathStep::Arg(i) => TypePathStep::Arg(usize::from(*i)),
            PathStep::Element => TypePathStep::Element,
            PathStep::Bound => TypePathStep::Bound,
        })
        .collect()
}

fn access_mod(access: u16) -> &'static str {
    if access & super::class::ACC_PUBLIC != 0 {
        "public"
    } else {
        "protected"
    }
}

/// Builds the documents of `targets` (sorted by name).
pub(crate) fn assemble(
    targets: &[&RawClass],
    lookup: &Lookup<'_>,
    names: &NameMap,
    opts: &ExtractOptions,
) -> Vec<ClassDoc> {
    let mut functional = Functional::new(lookup);
    let plan: Vec<(&RawClass, &'static str, bool)> = targets
        .iter()
        .filter_map(|c| {
            let access = lookup.access(c, opts.include_protected)?;
            let f = functional.is_functional(c);
            Some((*c, access, f))
        })
        .collect();
    drop(functional);
    let builder = Builder {
        lookup,
        names,
        opts,
    };
    let mut docs: Vec<ClassDoc> = plan
        .par_iter()
        .map(|(c, access, f)| builder.build(c, access, *f))
        .collect();
    docs.sort_by(|a, b| a.name.cmp(&b.name));
    docs
}
