//! Loading API JSON documents into the model, reporting what was skipped and why.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use rustc_hash::{FxHashMap, FxHashSet};
use thalia_extractors::{ClassDoc, SchemaError};

use super::{Api, Class, ClassId, ClassKind, Member, MemberId, MemberKind};
use crate::types::{kotlin_view, scala_view};
use crate::types::{
    parse_param, parse_type, parse_type_param, parse_type_param_head, ClassSig, ParamType,
    ParseError, Subst, Sym, Syntax, Type, TypeArena, TypeId, TypeSystem, VarId,
};
use thalia_translators::ir::ArgLists;

/// Why something was skipped or warned about.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum IssueKind {
    /// The file could not be read.
    Unreadable,
    /// The file is not valid API JSON.
    MalformedJson,
    /// The file's `language` names no known type syntax.
    UnknownSyntax,
    /// A second file defines a class already loaded.
    DuplicateClass,
    /// A type string (or type-parameter declaration) does not parse.
    BadTypeString,
    /// A method other than a constructor has no return type.
    MissingReturnType,
    /// A supertype names a class that is not part of the loaded API (kept as an opaque type).
    DanglingSupertype,
    /// A class is its own supertype through a chain of supertypes (the closing edge is
    /// dropped).
    CyclicInheritance,
    /// A type variable is its own bound through other variables' bare bounds
    /// (`T extends U`, `U extends T`); `T extends Comparable<T>` is not a cycle.
    CyclicBound,
    /// A member with the same kind, name, receiver and parameter types as an earlier one
    /// of its class (only the first is kept).
    DuplicateMember,
}

impl IssueKind {
    /// A short label for summaries.
    pub fn label(self) -> &'static str {
        match self {
            IssueKind::Unreadable => "unreadable file",
            IssueKind::MalformedJson => "malformed JSON",
            IssueKind::UnknownSyntax => "unknown type syntax",
            IssueKind::DuplicateClass => "duplicate class",
            IssueKind::BadTypeString => "unparsable type string",
            IssueKind::MissingReturnType => "missing return type",
            IssueKind::DanglingSupertype => "dangling supertype",
            IssueKind::CyclicInheritance => "cyclic inheritance",
            IssueKind::CyclicBound => "cyclic type-parameter bound",
            IssueKind::DuplicateMember => "duplicate member",
        }
    }
}

/// What an issue cost: a whole file, a class header entry, a member, or nothing (a warning).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Skipped {
    /// The whole file was skipped.
    File,
    /// One supertype or type-parameter bound of a class was dropped.
    HeaderEntry,
    /// One member was skipped.
    Member,
    /// Nothing was dropped; the problem is reported only.
    Nothing,
}

/// One problem met while loading.
#[derive(Clone, Debug)]
pub struct LoadIssue {
    /// What went wrong.
    pub kind: IssueKind,
    /// What was dropped because of it.
    pub skipped: Skipped,
    /// The file.
    pub file: PathBuf,
    /// The class and member concerned (`java.util.Map.put`), when known.
    pub item: Option<String>,
    /// The offending text, when there is one.
    pub text: Option<String>,
    /// The detailed reason.
    pub reason: String,
}

impl fmt::Display for LoadIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.file.display())?;
        if let Some(item) = &self.item {
            write!(f, "{}: ", crate::types::shorten(item))?;
        }
        write!(f, "{}", self.reason)?;
        if let Some(text) = &self.text {
            let shown = crate::types::shorten(text);
            if !self.reason.contains(shown.as_ref()) {
                write!(f, " (text: `{shown}`)")?;
            }
        }
        match self.skipped {
            Skipped::File => write!(f, " [file skipped]"),
            Skipped::Member => write!(f, " [member skipped]"),
            Skipped::HeaderEntry => write!(f, " [entry dropped]"),
            Skipped::Nothing => Ok(()),
        }
    }
}

/// The outcome of loading an API: counts and every problem met.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Files seen.
    pub files: usize,
    /// Classes loaded.
    pub classes: usize,
    /// Methods loaded.
    pub methods: usize,
    /// Constructors loaded.
    pub constructors: usize,
    /// Fields loaded.
    pub fields: usize,
    /// Members present in the files (loaded or skipped).
    pub members_seen: usize,
    /// Every problem, in the order met.
    pub issues: Vec<LoadIssue>,
}

impl LoadReport {
    /// Issues that dropped something (errors), as opposed to warnings.
    pub fn errors(&self) -> impl Iterator<Item = &LoadIssue> {
        self.issues.iter().filter(|i| i.skipped != Skipped::Nothing)
    }

    /// Issues that dropped nothing.
    pub fn warnings(&self) -> impl Iterator<Item = &LoadIssue> {
        self.issues.iter().filter(|i| i.skipped == Skipped::Nothing)
    }

    /// Number of issues that dropped something.
    pub fn error_count(&self) -> usize {
        self.errors().count()
    }

    /// A one-paragraph summary: what loaded, what was skipped and why.
    pub fn summary(&self) -> String {
        let count = |skipped: Skipped| -> (usize, BTreeMap<&'static str, usize>) {
            let mut by = BTreeMap::new();
            let mut n = 0;
            for i in self.issues.iter().filter(|i| i.skipped == skipped) {
                n += 1;
                *by.entry(i.kind.label()).or_insert(0) += 1;
            }
            (n, by)
        };
        let why = |by: &BTreeMap<&str, usize>| -> String {
            by.iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut s = format!(
            "loaded {} classes ({} methods, {} constructors, {} fields) from {} files",
            self.classes, self.methods, self.constructors, self.fields, self.files
        );
        let (nf, f) = count(Skipped::File);
        let (nm, m) = count(Skipped::Member);
        let (nh, h) = count(Skipped::HeaderEntry);
        let (nw, w) = count(Skipped::Nothing);
        if nf + nm + nh == 0 {
            s.push_str("; nothing skipped");
        } else {
            if nf > 0 {
                s.push_str(&format!(
                    "; skipped {nf} of {} files ({})",
                    self.files,
                    why(&f)
                ));
            }
            if nm > 0 {
                s.push_str(&format!(
                    "; skipped {nm} of {} members ({})",
                    self.members_seen,
                    why(&m)
                ));
            }
            if nh > 0 {
                s.push_str(&format!(
                    "; dropped {nh} class header entries ({})",
                    why(&h)
                ));
            }
        }
        if nw > 0 {
            s.push_str(&format!("; {nw} warnings ({})", why(&w)));
        }
        s
    }
}

/// A directory could not be loaded at all.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The path does not exist or is not a directory.
    #[error("{0}: not a directory of API JSON files")]
    NotADirectory(PathBuf),
    /// The directory holds no `*.json` file.
    #[error("{0}: no API JSON (*.json) files found")]
    Empty(PathBuf),
}

impl Api {
    /// Loads every `*.json` file under a directory. Bad files and members are skipped and
    /// reported in [`Api::report`]; only a missing or empty directory is an error.
    pub fn load_dir(dir: &Path) -> Result<Api, LoadError> {
        Api::load_dir_with_context(dir, |_| Vec::new())
    }

    /// [`Api::load_dir`] together with the context documents that `context` gives for the
    /// directory's documents (a dependency's API, e.g. the language's standard library): the
    /// context's classes give types, supertypes and inhabitants, but their members are not
    /// tested ([`super::Class::is_context`]), and a directory's class wins over a context
    /// class of the same name.
    pub fn load_dir_with_context(
        dir: &Path,
        context: impl FnOnce(&[(PathBuf, ClassDoc)]) -> Vec<(PathBuf, ClassDoc)>,
    ) -> Result<Api, LoadError> {
        if !dir.is_dir() {
            return Err(LoadError::NotADirectory(dir.to_path_buf()));
        }
        let (mut docs, errors) = thalia_extractors::read_api_dir(dir);
        if docs.is_empty() && errors.is_empty() {
            return Err(LoadError::Empty(dir.to_path_buf()));
        }
        let extra = context(&docs);
        if !extra.is_empty() {
            let own: FxHashSet<String> = docs.iter().map(|(_, d)| d.name.clone()).collect();
            for (path, mut d) in extra {
                if !own.contains(&d.name) {
                    d.extra
                        .insert(super::CONTEXT_KEY.into(), serde_json::Value::Bool(true));
                    docs.push((path, d));
                }
            }
        }
        Ok(Api::from_docs(docs, errors))
    }

    /// Builds the model from documents already read; `read_errors` are files that failed.
    pub fn from_docs(docs: Vec<(PathBuf, ClassDoc)>, read_errors: Vec<SchemaError>) -> Api {
        let mut b = Builder {
            ts: TypeSystem::new(),
            classes: Vec::new(),
            members: Vec::new(),
            by_name: FxHashMap::default(),
            report: LoadReport {
                files: docs.len() + read_errors.len(),
                ..LoadReport::default()
            },
            canonical_vars: Vec::new(),
        };
        for e in read_errors {
            let kind = match e {
                SchemaError::Malformed { .. } => IssueKind::MalformedJson,
                _ => IssueKind::Unreadable,
            };
            b.report.issues.push(LoadIssue {
                kind,
                skipped: Skipped::File,
                file: e.path().to_path_buf(),
                item: None,
                text: None,
                reason: e.to_string(),
            });
        }
        b.declare_classes(docs);
        b.parse_headers();
        b.link_read_only_collections();
        b.break_inheritance_cycles();
        b.parse_members();
        let external = b.declare_external_classes();
        b.report.classes = b.classes.len();
        Api {
            ts: b.ts,
            classes: b.classes,
            members: b.members,
            external,
            report: b.report,
            by_name: b.by_name,
        }
    }
}

struct Builder {
    ts: TypeSystem,
    classes: Vec<Class>,
    members: Vec<Member>,
    by_name: FxHashMap<String, ClassId>,
    report: LoadReport,
    /// Type variables standing for a member's own variables by position (duplicate check).
    canonical_vars: Vec<VarId>,
}

/// Builds an issue record.
fn issue(
    kind: IssueKind,
    skipped: Skipped,
    file: &Path,
    item: Option<String>,
    text: Option<&str>,
    reason: String,
) -> LoadIssue {
    LoadIssue {
        kind,
        skipped,
        file: file.to_path_buf(),
        item,
        text: text.map(str::to_string),
        reason,
    }
}

impl Builder {
    /// Phase 1: one class per document, with its type-parameter variables (bounds later).
    fn declare_classes(&mut self, docs: Vec<(PathBuf, ClassDoc)>) {
        for (file, doc) in docs {
            let syntax = match doc.language.as_deref() {
                None => Syntax::Java,
                Some(l) => match l.parse::<Syntax>() {
                    Ok(s) => s,
                    Err(reason) => {
                        self.report.issues.push(issue(
                            IssueKind::UnknownSyntax,
                            Skipped::File,
                            &file,
                            Some(doc.name.clone()),
                            Some(l),
                            reason,
                        ));
                        continue;
                    }
                },
            };
            if let Some(&prev) = self.by_name.get(&doc.name) {
                let prev_file = self.classes[prev.0 as usize].file.display().to_string();
                self.report.issues.push(issue(
                    IssueKind::DuplicateClass,
                    Skipped::File,
                    &file,
                    Some(doc.name.clone()),
                    None,
                    format!("class already defined by {prev_file}"),
                ));
                continue;
            }
            let mut heads = Vec::new();
            let mut bad = None;
            for tp in doc.type_parameters() {
                match parse_type_param_head(syntax, tp) {
                    Ok(h) => heads.push(h),
                    Err(e) => {
                        bad = Some((tp.clone(), e));
                        break;
                    }
                }
            }
            if let Some((tp, e)) = bad {
                self.report.issues.push(issue(
                    IssueKind::BadTypeString,
                    Skipped::File,
                    &file,
                    Some(format!("{} type parameter", doc.name)),
                    Some(&tp),
                    e.to_string(),
                ));
                continue;
            }
            let sym = self.ts.arena.sym(&doc.name);
            let type_params: Vec<VarId> = heads
                .iter()
                .map(|h| {
                    let v = self.ts.arena.new_var(&h.name, &doc.name);
                    let d = self.ts.arena.var_mut(v);
                    d.variance = h.variance;
                    d.reified = h.reified;
                    d.higher_kinded = h.higher_kinded;
                    v
                })
                .collect();
            mark_not_null(
                &mut self.ts.arena,
                &type_params,
                doc.not_null_type_parameters.as_deref(),
            );
            self.ts.declare_class(
                sym,
                ClassSig {
                    params: type_params.clone(),
                    supers: Vec::new(),
                },
            );
            let id = ClassId(self.classes.len() as u32);
            self.by_name.insert(doc.name.clone(), id);
            self.classes.push(Class {
                name: doc.name.clone(),
                sym,
                syntax,
                kind: ClassKind::from_code(doc.class_type.unwrap_or(0)),
                is_class: doc.is_class.unwrap_or(true),
                type_params,
                inherits: Vec::new(),
                implements: Vec::new(),
                parent: doc.parent().map(str::to_string),
                functional: doc.functional_interface.unwrap_or(false),
                members: Vec::new(),
                file,
                doc: std::sync::Arc::new(doc),
            });
        }
    }

    /// The type variables visible in a class body: its own and its enclosing classes'.
    fn class_scope(&self, id: ClassId) -> Vec<VarId> {
        let mut chain = Vec::new();
        let mut cur = Some(id);
        let mut guard = 0;
        while let Some(c) = cur {
            chain.push(c);
            guard += 1;
            let parent = self.classes[c.0 as usize].parent.as_deref();
            cur = parent.and_then(|p| self.by_name.get(p).copied());
            if guard > 32 || cur.is_some_and(|p| chain.contains(&p)) {
                break;
            }
        }
        // outermost first, so inner declarations shadow outer ones
        chain
            .iter()
            .rev()
            .flat_map(|c| self.classes[c.0 as usize].type_params.iter().copied())
            .collect()
    }

    /// Phase 2: type-parameter bounds and supertypes of every class.
    fn parse_headers(&mut self) {
        let mut dangling: FxHashSet<(ClassId, String)> = FxHashSet::default();
        for i in 0..self.classes.len() {
            let id = ClassId(i as u32);
            let scope = self.class_scope(id);
            let c = &self.classes[i];
            let (syntax, name, file) = (c.syntax, c.name.clone(), c.file.clone());
            let tps: Vec<(VarId, String)> = c
                .type_params
                .iter()
                .copied()
                .zip(c.doc.type_parameters().iter().cloned())
                .collect();
            for (v, text) in &tps {
                if let Err(e) = parse_type_param(&mut self.ts.arena, syntax, text, *v, &scope) {
                    self.report.issues.push(issue(
                        IssueKind::BadTypeString,
                        Skipped::HeaderEntry,
                        &file,
                        Some(format!("{name} type parameter bound")),
                        Some(text),
                        e.to_string(),
                    ));
                }
            }
            let vars: Vec<VarId> = tps.iter().map(|&(v, _)| v).collect();
            for cycle in bound_cycles(&self.ts.arena, &vars) {
                let text = tps
                    .iter()
                    .find(|(v, _)| *v == cycle.var)
                    .map(|(_, t)| t.as_str());
                let keep: Vec<TypeId> = self
                    .ts
                    .arena
                    .var(cycle.var)
                    .upper
                    .iter()
                    .copied()
                    .filter(|&b| cycle.lower || bare_var(&self.ts.arena, b) != Some(cycle.target))
                    .collect();
                let decl = self.ts.arena.var_mut(cycle.var);
                decl.upper = keep;
                if cycle.lower {
                    decl.lower = None;
                }
                self.report.issues.push(issue(
                    IssueKind::CyclicBound,
                    Skipped::HeaderEntry,
                    &file,
                    Some(format!("{name} type parameter bound")),
                    text,
                    format!(
                        "cyclic type-parameter bound {}; the {} bound of `{}` is dropped",
                        cycle.path,
                        if cycle.lower { "lower" } else { "upper" },
                        self.ts.arena.var_name(cycle.var)
                    ),
                ));
            }
            let parse_list = |list: &Option<Vec<String>>, what: &str, b: &mut Builder| {
                let mut out = Vec::new();
                for text in list.iter().flatten() {
                    match parse_type(&mut b.ts.arena, syntax, text, &scope) {
                        Ok(t) => out.push(t),
                        Err(e) => b.report.issues.push(issue(
                            IssueKind::BadTypeString,
                            Skipped::HeaderEntry,
                            &file,
                            Some(format!("{name} {what}")),
                            Some(text),
                            e.to_string(),
                        )),
                    }
                }
                out
            };
            let inherits_doc = self.classes[i].doc.inherits.clone();
            let implements_doc = self.classes[i].doc.implements.clone();
            let mut inherits = parse_list(&inherits_doc, "supertype", self);
            let mut implements = parse_list(&implements_doc, "interface", self);
            if syntax == Syntax::Kotlin {
                self.kotlin_extra_bounds(i, &tps, &scope);
            }
            if syntax != Syntax::Java {
                let a = &mut self.ts.arena;
                bounds_to_jvm(syntax, a, &vars);
                for t in inherits.iter_mut().chain(implements.iter_mut()) {
                    *t = view_to_jvm(syntax, a, *t, false);
                }
            }
            let c = &mut self.classes[i];
            c.inherits = inherits;
            c.implements = implements;
            let supers = c.supertypes();
            for &s in &supers {
                if let Type::Class { name: sn, .. } = self.ts.arena.get(s) {
                    let sname = self.ts.arena.name(*sn).to_string();
                    if !self.by_name.contains_key(&sname)
                        && !self.ts.is_root_class(*sn)
                        && dangling.insert((id, sname.clone()))
                    {
                        self.report.issues.push(issue(
                            IssueKind::DanglingSupertype,
                            Skipped::Nothing,
                            &file,
                            Some(name.clone()),
                            Some(&sname),
                            format!(
                                "supertype `{sname}` is not defined in this API; it is kept as an opaque type with no members"
                            ),
                        ));
                    }
                }
            }
            let sym = self.classes[i].sym;
            // a Scala trait that extends `Any` itself (the extractor writes `scala.Any` only
            // then) is a universal trait: its values are no `AnyRef`s
            let any = self.ts.arena.sym("scala.Any");
            if syntax == Syntax::Scala
                && self.classes[i].kind == ClassKind::Interface
                && supers.iter().any(
                    |&s| matches!(self.ts.arena.get(s), Type::Class { name, .. } if *name == any),
                )
            {
                self.ts.declare_universal(sym);
            }
            let params = self.classes[i].type_params.clone();
            self.ts.declare_class(sym, ClassSig { params, supers });
        }
    }

    /// Drops the supertype edges that close a cycle in the class hierarchy (`A extends B`,
    /// `B extends A`; `A extends A`), reporting each, so that no later stage loops.
    fn break_inheritance_cycles(&mut self) {
        let succ: Vec<Vec<usize>> = self
            .classes
            .iter()
            .map(|c| {
                let mut out: Vec<usize> = Vec::new();
                let mut seen: FxHashSet<usize> = FxHashSet::default();
                for &t in &c.supertypes() {
                    let Some((sym, _)) = self.ts.arena.as_class(t) else {
                        continue;
                    };
                    if let Some(id) = self.by_name.get(self.ts.arena.name(sym)) {
                        // one edge per class, however many instances name it
                        if seen.insert(id.0 as usize) {
                            out.push(id.0 as usize);
                        }
                    }
                }
                out
            })
            .collect();
        let mut changed = Vec::new();
        for back in back_edges(&succ) {
            let target = &self.classes[back.target].name.clone();
            let sym = self.classes[back.target].sym;
            let path = back.text(|c| self.classes[c].name.as_str());
            let c = &mut self.classes[back.from];
            let is_target = |t: &TypeId| self.ts.arena.as_class(*t).is_some_and(|(n, _)| n == sym);
            let dropped: Vec<String> = c
                .doc
                .inherits
                .iter()
                .flatten()
                .chain(c.doc.implements.iter().flatten())
                .filter(|text| {
                    let base = text.split(['<', '[']).next().unwrap_or_default().trim();
                    base == target.as_str()
                })
                .cloned()
                .collect();
            c.inherits.retain(|t| !is_target(t));
            c.implements.retain(|t| !is_target(t));
            self.report.issues.push(issue(
                IssueKind::CyclicInheritance,
                Skipped::HeaderEntry,
                &c.file,
                Some(c.name.clone()),
                Some(dropped.first().map_or(target.as_str(), String::as_str)),
                format!("cyclic inheritance {path}; the supertype `{target}` is dropped"),
            ));
            changed.push(back.from);
        }
        for i in changed {
            let c = &self.classes[i];
            let sig = ClassSig {
                params: c.type_params.clone(),
                supers: c.supertypes(),
            };
            self.ts.declare_class(c.sym, sig);
        }
    }

    /// Phase 3: methods, constructors and fields.
    fn parse_members(&mut self) {
        for i in 0..self.classes.len() {
            let id = ClassId(i as u32);
            let scope = self.class_scope(id);
            let doc = self.classes[i].doc.clone();
            let mut seen: FxHashSet<MemberKey> = FxHashSet::default();
            for (k, m) in doc.methods().iter().enumerate() {
                self.report.members_seen += 1;
                let kind = if m.is_constructor.unwrap_or(false) {
                    MemberKind::Constructor
                } else {
                    MemberKind::Method
                };
                let texts = MemberTexts {
                    name: &m.name,
                    type_params: m.type_parameters(),
                    params: &m.parameters,
                    ret: m.return_type(),
                    receiver: m.receiver(),
                    throws: m.throws.as_deref().unwrap_or(&[]),
                    lists: scala_list_texts(&m.scala),
                    extra_bounds: m
                        .other_metadata
                        .as_ref()
                        .and_then(|o| o.upper_bounds.as_deref()),
                };
                match self.parse_member(id, kind, &texts, &scope) {
                    Ok(p) if self.is_duplicate(&mut seen, id, kind, &texts, &p) => {}
                    Ok(p) => {
                        match kind {
                            MemberKind::Constructor => self.report.constructors += 1,
                            _ => self.report.methods += 1,
                        }
                        let is_static = m.is_static.unwrap_or(false)
                            || (!self.classes[i].is_class && p.receiver.is_none());
                        mark_not_null(
                            &mut self.ts.arena,
                            &p.type_params,
                            m.other_metadata
                                .as_ref()
                                .and_then(|o| o.not_null_type_parameters.as_deref()),
                        );
                        self.push_member(Member {
                            kind,
                            name: m.name.clone(),
                            owner: id,
                            type_params: p.type_params,
                            params: p.params,
                            ret: p.ret,
                            receiver: p.receiver,
                            is_static,
                            is_default: m.is_default.unwrap_or(false),
                            is_abstract: m.is_abstract == Some(true),
                            is_suspend: m.metadata_says(|o| o.is_suspend),
                            call_is_error: super::is_error_level(m.deprecation_level),
                            java_nullness: super::JavaNullness::of_method(
                                m.other_metadata.as_ref(),
                            ),
                            kotlin_forms: super::KotlinCallForms::of_method(
                                m.other_metadata.as_ref(),
                            ),
                            access: m.access_mod.clone(),
                            throws: p.throws,
                            doc_index: k,
                            scala_lists: p.lists,
                        });
                    }
                    Err(e) => self.report.issues.push(e),
                }
            }
            for (k, f) in doc.fields().iter().enumerate() {
                self.report.members_seen += 1;
                let texts = MemberTexts {
                    name: &f.name,
                    type_params: f.type_parameters(),
                    params: &[],
                    ret: Some(&f.ty),
                    receiver: f.receiver(),
                    throws: &[],
                    lists: None,
                    extra_bounds: None,
                };
                match self.parse_member(id, MemberKind::Field, &texts, &scope) {
                    Ok(p) if self.is_duplicate(&mut seen, id, MemberKind::Field, &texts, &p) => {}
                    Ok(p) => {
                        self.report.fields += 1;
                        let is_static = f.is_static.unwrap_or(false)
                            || (!self.classes[i].is_class && p.receiver.is_none());
                        self.push_member(Member {
                            kind: MemberKind::Field,
                            name: f.name.clone(),
                            owner: id,
                            type_params: p.type_params,
                            params: Vec::new(),
                            ret: p.ret,
                            receiver: p.receiver,
                            is_static,
                            is_default: false,
                            is_abstract: false,
                            is_suspend: false,
                            call_is_error: super::is_error_level(f.deprecation_level),
                            java_nullness: super::JavaNullness {
                                nullable_ret: f.nullable == Some(true),
                                ..Default::default()
                            },
                            kotlin_forms: super::KotlinCallForms::default(),
                            access: f.access_mod.clone(),
                            throws: Vec::new(),
                            doc_index: k,
                            scala_lists: None,
                        });
                    }
                    Err(e) => self.report.issues.push(e),
                }
            }
        }
    }

    /// True when a parsed member has the signature of an earlier member of its class (then
    /// a warning is reported and the caller drops it); otherwise records its signature.
    /// Member type variables are compared by position and bounds, so `<T> f(T)` twice is a
    /// duplicate.
    fn is_duplicate(
        &mut self,
        seen: &mut FxHashSet<MemberKey>,
        owner: ClassId,
        kind: MemberKind,
        t: &MemberTexts<'_>,
        p: &ParsedMember,
    ) -> bool {
        let n = p.type_params.len();
        while self.canonical_vars.len() < n {
            let k = self.canonical_vars.len();
            let v = self.ts.arena.new_var(&format!("#{k}"), "#duplicate-check");
            self.canonical_vars.push(v);
        }
        let a = &mut self.ts.arena;
        let canon: Vec<TypeId> = self.canonical_vars[..n]
            .iter()
            .map(|&v| a.var_type(v))
            .collect();
        let s = Subst::from_pairs(&p.type_params, &canon);
        let params = p
            .params
            .iter()
            .map(|x| (a.subst(x.ty, &s), x.vararg))
            .collect();
        let receiver = p.receiver.map(|r| a.subst(r, &s));
        let bounds = p
            .type_params
            .iter()
            .map(|&v| {
                let d = a.var(v).clone();
                let upper = d.upper.iter().map(|&b| a.subst(b, &s)).collect();
                (upper, d.lower.map(|l| a.subst(l, &s)))
            })
            .collect();
        let key = MemberKey {
            kind,
            name: t.name.to_string(),
            receiver,
            params,
            bounds,
        };
        if seen.insert(key) {
            return false;
        }
        let c = &self.classes[owner.0 as usize];
        let sig = format!("{}({})", t.name, t.params.join(", "));
        self.report.issues.push(issue(
            IssueKind::DuplicateMember,
            Skipped::Nothing,
            &c.file,
            Some(format!("{}.{sig}", c.name)),
            Some(&sig),
            "the same signature as an earlier member of the class; only the first is kept".into(),
        ));
        true
    }

    fn push_member(&mut self, m: Member) {
        let id = MemberId(self.members.len() as u32);
        self.classes[m.owner.0 as usize].members.push(id);
        self.members.push(m);
    }

    fn parse_member(
        &mut self,
        owner: ClassId,
        kind: MemberKind,
        t: &MemberTexts<'_>,
        class_scope: &[VarId],
    ) -> Result<ParsedMember, LoadIssue> {
        let class = &self.classes[owner.0 as usize];
        let (syntax, file, cname, csym) = (
            class.syntax,
            class.file.clone(),
            class.name.clone(),
            class.sym,
        );
        let item = format!(
            "{cname}.{}({})",
            t.name,
            if kind == MemberKind::Field {
                "field".to_string()
            } else {
                t.params.join(", ")
            }
        );
        let bad = |text: &str, e: ParseError| {
            issue(
                IssueKind::BadTypeString,
                Skipped::Member,
                &file,
                Some(item.clone()),
                Some(text),
                e.to_string(),
            )
        };
        let owner_name = format!("{cname}.{}", t.name);
        let mut heads = Vec::new();
        for tp in t.type_params {
            heads.push(parse_type_param_head(syntax, tp).map_err(|e| bad(tp, e))?);
        }
        let mut scope = class_scope.to_vec();
        let mut type_params = Vec::new();
        for h in &heads {
            let v = self.ts.arena.new_var(&h.name, &owner_name);
            type_params.push(v);
            scope.push(v);
        }
        for (&v, tp) in type_params.iter().zip(t.type_params) {
            parse_type_param(&mut self.ts.arena, syntax, tp, v, &scope).map_err(|e| bad(tp, e))?;
        }
        if syntax == Syntax::Kotlin {
            if let Some(bounds) = t.extra_bounds {
                add_extra_bounds(&mut self.ts.arena, bounds, &type_params, &scope);
            }
        }
        if let Some(cycle) = bound_cycles(&self.ts.arena, &type_params).first() {
            let text = t.type_params.join(", ");
            return Err(issue(
                IssueKind::CyclicBound,
                Skipped::Member,
                &file,
                Some(item.clone()),
                Some(&text),
                format!("cyclic type-parameter bound {}", cycle.path),
            ));
        }
        let a = &mut self.ts.arena;
        let mut params = Vec::new();
        for p in t.params {
            params.push(parse_param(a, syntax, p, &scope).map_err(|e| bad(p, e))?);
        }
        let receiver = match t.receiver {
            Some(r) => Some(parse_type(a, syntax, r, &scope).map_err(|e| bad(r, e))?),
            None => None,
        };
        let ret = match (kind, t.ret) {
            (MemberKind::Constructor, _) => self.ts.self_type(csym),
            (_, Some(r)) => {
                parse_type(&mut self.ts.arena, syntax, r, &scope).map_err(|e| bad(r, e))?
            }
            (_, None) => {
                return Err(issue(
                    IssueKind::MissingReturnType,
                    Skipped::Member,
                    &file,
                    Some(item.clone()),
                    None,
                    "method has no return type".into(),
                ))
            }
        };
        let (params, ret, lists) = match &t.lists {
            Some(l) if kind == MemberKind::Method => {
                self.scala_lists(l, params, ret, &scope, &bad)?
            }
            _ => (params, ret, None),
        };
        let (params, receiver, ret) = if syntax != Syntax::Java {
            self.native_to_jvm(syntax, &type_params, params, receiver, ret)
        } else {
            (params, receiver, ret)
        };
        // `throws` is free text in javadoc-derived files; unparsable entries are ignored
        let throws = t
            .throws
            .iter()
            .filter_map(|x| parse_type(&mut self.ts.arena, syntax, x, &scope).ok())
            .collect();
        Ok(ParsedMember {
            type_params,
            params,
            ret,
            receiver,
            throws,
            lists,
        })
    }

    /// A Scala method's parameters of every list: the first explicit list's (none when it
    /// has no explicit list), the later lists' from the curried result type (`(B, A) => B`
    /// unfolded once per list), then the implicit ones; the result after the last list.
    fn scala_lists(
        &mut self,
        l: &ListTexts,
        first: Vec<ParamType>,
        ret: TypeId,
        scope: &[VarId],
        bad: &dyn Fn(&str, ParseError) -> LoadIssue,
    ) -> Result<(Vec<ParamType>, TypeId, Option<ArgLists>), LoadIssue> {
        let a = &mut self.ts.arena;
        // without an explicit list, `parameters` is the first implicit list (or nothing)
        let mut params = if l.explicit == 0 { Vec::new() } else { first };
        let mut sizes = Vec::new();
        if l.explicit > 0 {
            sizes.push(params.len());
        }
        let mut ret = ret;
        for _ in 1..l.explicit {
            let Type::Function {
                receiver: None,
                params: ps,
                ret: r,
                ..
            } = a.get(ret).clone()
            else {
                let text = crate::types::print_type(a, Syntax::Scala, ret);
                let e = ParseError {
                    text: text.clone(),
                    syntax: Syntax::Scala,
                    column: 1,
                    message: format!(
                        "the result type of a method with {} parameter lists is no function \
                         type for its later lists",
                        l.explicit
                    ),
                };
                return Err(bad(&text, e));
            };
            sizes.push(ps.len());
            params.extend(ps.iter().map(|&ty| ParamType { ty, vararg: false }));
            ret = r;
        }
        for t in &l.implicit {
            params.push(parse_param(a, Syntax::Scala, t, scope).map_err(|e| bad(t, e))?);
        }
        let lists = ArgLists {
            explicit: sizes,
            implicit: l.implicit.len(),
            searched: 0,
        };
        Ok((params, ret, Some(lists)))
    }

    /// The bounds after the first of a Kotlin class's type parameters (`T : A, T : B` in a
    /// `where` clause), which the extractors list in `upper_bounds` (the type-parameter
    /// strings carry one bound); an unparsable one is dropped.
    fn kotlin_extra_bounds(&mut self, i: usize, tps: &[(VarId, String)], scope: &[VarId]) {
        let Some(bounds) = self.classes[i].doc.kotlin.upper_bounds.clone() else {
            return;
        };
        let vars: Vec<VarId> = tps.iter().map(|&(v, _)| v).collect();
        add_extra_bounds(&mut self.ts.arena, &bounds, &vars, scope);
    }

    /// A Kotlin or Scala member's parsed signature with the language's mapped types replaced
    /// by their JVM types (`types::kotlin_view`, `types::scala_view`), its type parameters'
    /// bounds included. A `vararg Int` (`Int*`) is an `int[]`.
    fn native_to_jvm(
        &mut self,
        syntax: Syntax,
        type_params: &[VarId],
        params: Vec<ParamType>,
        receiver: Option<TypeId>,
        ret: TypeId,
    ) -> (Vec<ParamType>, Option<TypeId>, TypeId) {
        let a = &mut self.ts.arena;
        bounds_to_jvm(syntax, a, type_params);
        let params = params
            .into_iter()
            .map(|p| {
                let ty = match (a.get(p.ty).clone(), p.vararg) {
                    (Type::Array(e), true) => {
                        let e = view_to_jvm(syntax, a, e, true);
                        a.array(e)
                    }
                    _ => view_to_jvm(syntax, a, p.ty, true),
                };
                ParamType { ty, ..p }
            })
            .collect();
        let receiver = receiver.map(|r| view_to_jvm(syntax, a, r, true));
        let ret = view_to_jvm(syntax, a, ret, true);
        (params, receiver, ret)
    }

    /// Adds the supertype edge from each of Java's collection interfaces to Kotlin's
    /// read-only interface of it (`java.util.List<E>` is a `kotlin.collections.List<E>`) when
    /// the API defines both, as Kotlin sees them.
    fn link_read_only_collections(&mut self) {
        for (ro, java) in kotlin_view::READ_ONLY_COLLECTIONS {
            let (Some(&r), Some(&j)) = (self.by_name.get(ro), self.by_name.get(java)) else {
                continue;
            };
            let (rsym, jsym) = (
                self.classes[r.0 as usize].sym,
                self.classes[j.0 as usize].sym,
            );
            let jparams = self.classes[j.0 as usize].type_params.clone();
            if jparams.len() != self.classes[r.0 as usize].type_params.len() {
                continue;
            }
            let args: Vec<TypeId> = jparams.iter().map(|&v| self.ts.arena.var_type(v)).collect();
            let sup = self.ts.arena.class(rsym, &args);
            let c = &mut self.classes[j.0 as usize];
            if !c.implements.contains(&sup) {
                c.implements.push(sup);
            }
            let supers = c.supertypes();
            self.ts.declare_class(
                jsym,
                ClassSig {
                    params: jparams,
                    supers,
                },
            );
        }
    }

    /// Declares an opaque signature for every generic class referenced but not defined, so
    /// that decomposition and the graph treat its instances uniformly. Returns their symbols.
    fn declare_external_classes(&mut self) -> Vec<Sym> {
        let mut arity: BTreeMap<Sym, usize> = BTreeMap::new();
        for i in 0..self.ts.arena.len() {
            if let Type::Class { name, args } = self.ts.arena.get(TypeId(i as u32)) {
                if !self.ts.has_class(*name) {
                    let e = arity.entry(*name).or_insert(0);
                    *e = (*e).max(args.len());
                }
            }
        }
        let mut out = Vec::new();
        for (sym, n) in arity {
            let owner = self.ts.arena.name(sym).to_string();
            let params = (0..n)
                .map(|k| self.ts.arena.new_var(&format!("T{k}"), &owner))
                .collect();
            self.ts.declare_class(
                sym,
                ClassSig {
                    params,
                    supers: Vec::new(),
                },
            );
            out.push(sym);
        }
        out
    }
}

/// What makes two members of a class the same: kind, name, receiver, parameter types and
/// the member type variables' bounds (variables renamed by position).
#[derive(PartialEq, Eq, Hash)]
struct MemberKey {
    kind: MemberKind,
    name: String,
    receiver: Option<TypeId>,
    params: Vec<(TypeId, bool)>,
    bounds: Vec<(Vec<TypeId>, Option<TypeId>)>,
}

/// Adds to each of `vars` the bounds after its first that `bounds` (a Kotlin declaration's
/// `upper_bounds`, by variable name) lists; an unparsable one is dropped.
fn add_extra_bounds(
    arena: &mut TypeArena,
    bounds: &[(String, Vec<String>)],
    vars: &[VarId],
    scope: &[VarId],
) {
    for &v in vars {
        let name = arena.var_name(v).to_string();
        // (the last entry of a name, as a JSON object reads)
        let Some((_, list)) = bounds.iter().rev().find(|(n, _)| *n == name) else {
            continue;
        };
        for b in list.iter().skip(1) {
            if let Ok(t) = parse_type(arena, Syntax::Kotlin, b, scope) {
                let not_null = !matches!(arena.get(t), Type::Nullable(_));
                let decl = arena.var_mut(v);
                decl.upper.push(t);
                decl.not_null |= not_null;
            }
        }
    }
}

struct MemberTexts<'a> {
    name: &'a str,
    type_params: &'a [String],
    params: &'a [String],
    ret: Option<&'a str>,
    receiver: Option<&'a str>,
    throws: &'a [String],
    lists: Option<ListTexts>,
    /// Every bound of each Kotlin type parameter with more than one (`upper_bounds`: `C :
    /// CharSequence, C : R` in a `where` clause); the type-parameter strings carry the first.
    extra_bounds: Option<&'a [(String, Vec<String>)]>,
}

/// A Scala method's parameter lists as its document gives them (`parameter_lists`,
/// `implicit_parameters`), when not one explicit list.
struct ListTexts {
    /// The number of explicit lists (the first is `parameters`, the later ones are curried
    /// into the result type).
    explicit: usize,
    /// The implicit parameters' types.
    implicit: Vec<String>,
}

/// Marks the variables among `vars` that `names` (a declaration's
/// `not_null_type_parameters`: a Java declaration's in a JSpecify `@NullMarked` scope) lists
/// as not-null ([`crate::types::TypeVar::not_null`]).
fn mark_not_null(a: &mut crate::types::TypeArena, vars: &[VarId], names: Option<&[String]>) {
    let Some(list) = names else {
        return;
    };
    for &v in vars {
        let name = a.var_name(v).to_string();
        if list.contains(&name) {
            a.var_mut(v).not_null = true;
        }
    }
}

/// The parameter lists of a method document that has other than one explicit list.
fn scala_list_texts(facts: &thalia_extractors::ScalaMethodFacts) -> Option<ListTexts> {
    let explicit = facts.parameter_lists;
    let implicit = facts.implicit_parameters.clone().unwrap_or_default();
    if explicit.is_none() && implicit.is_empty() {
        return None;
    }
    Some(ListTexts {
        explicit: explicit.unwrap_or(1),
        implicit,
    })
}

struct ParsedMember {
    type_params: Vec<VarId>,
    params: Vec<ParamType>,
    ret: TypeId,
    receiver: Option<TypeId>,
    throws: Vec<TypeId>,
    lists: Option<ArgLists>,
}

/// Kotlin's and Scala's mapped types replaced by their JVM types in the bounds of type variables.
fn bounds_to_jvm(syntax: Syntax, a: &mut crate::types::TypeArena, vars: &[VarId]) {
    for &v in vars {
        let d = a.var(v).clone();
        let upper: Vec<TypeId> = d
            .upper
            .iter()
            .map(|&b| view_to_jvm(syntax, a, b, false))
            .collect();
        let lower = d.lower.map(|l| view_to_jvm(syntax, a, l, false));
        // a Scala variable without a bound ranges over `Any`, not only `AnyRef`
        let upper = if syntax == Syntax::Scala && upper.is_empty() && !d.higher_kinded {
            vec![a.class_named("scala.Any", &[])]
        } else {
            upper
        };
        let m = a.var_mut(v);
        m.upper = upper;
        m.lower = lower;
    }
}

/// A type of a `syntax` signature in the JVM's terms (Kotlin's and Scala's mapped classes
/// replaced; Java's types as they are).
fn view_to_jvm(syntax: Syntax, a: &mut crate::types::TypeArena, t: TypeId, value: bool) -> TypeId {
    match syntax {
        Syntax::Java => t,
        Syntax::Kotlin => kotlin_view::to_jvm(a, t, value),
        Syntax::Scala => scala_view::to_jvm(a, t, value),
    }
}

/// Most names shown in the text of a cycle (longer cycles are elided in the middle).
const MAX_CYCLE_SHOWN: usize = 12;

/// An edge of a directed graph that closes a cycle, found by depth-first search.
struct BackEdge {
    /// The node the edge leaves.
    from: usize,
    /// The node it enters (on the search path, so a cycle closes).
    target: usize,
    /// The cycle, from `target` to `from` (shortened to [`MAX_CYCLE_SHOWN`] nodes).
    cycle: Vec<usize>,
    /// Nodes left out of the middle of `cycle`.
    elided: usize,
}

impl BackEdge {
    /// The cycle as text (`A → B → A`), naming nodes with `name`.
    fn text<'a>(&self, name: impl Fn(usize) -> &'a str) -> String {
        let mut parts: Vec<String> = self.cycle.iter().map(|&i| name(i).to_string()).collect();
        if self.elided > 0 {
            parts.insert(MAX_CYCLE_SHOWN / 2, format!("… ({} more)", self.elided));
        }
        parts.push(name(self.target).to_string());
        parts.join(" → ")
    }
}

/// The back edges of a depth-first search over `succ` (nodes and edges in order, so the
/// result is deterministic): removing them all leaves the graph acyclic. Iterative, so any
/// number of nodes is fine.
fn back_edges(succ: &[Vec<usize>]) -> Vec<BackEdge> {
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let mut color = vec![WHITE; succ.len()];
    // index on the current search path of each grey node
    let mut on_path = vec![0usize; succ.len()];
    let mut out = Vec::new();
    for root in 0..succ.len() {
        if color[root] != WHITE {
            continue;
        }
        let mut path: Vec<usize> = vec![root];
        let mut next: Vec<usize> = vec![0];
        color[root] = GREY;
        while let (Some(&node), Some(k)) = (path.last(), next.last_mut()) {
            let Some(&w) = succ[node].get(*k) else {
                color[node] = BLACK;
                path.pop();
                next.pop();
                continue;
            };
            *k += 1;
            match color.get(w).copied() {
                Some(WHITE) => {
                    color[w] = GREY;
                    on_path[w] = path.len();
                    path.push(w);
                    next.push(0);
                }
                Some(GREY) => {
                    let cyc = &path[on_path[w]..];
                    let (cycle, elided) = if cyc.len() > MAX_CYCLE_SHOWN {
                        let half = MAX_CYCLE_SHOWN / 2;
                        let ends = cyc[..half].iter().chain(&cyc[cyc.len() - half..]);
                        (ends.copied().collect(), cyc.len() - 2 * half)
                    } else {
                        (cyc.to_vec(), 0)
                    };
                    out.push(BackEdge {
                        from: node,
                        target: w,
                        cycle,
                        elided,
                    });
                }
                _ => {}
            }
        }
    }
    out
}

/// A bound that closes a cycle of type-variable bounds.
struct BoundCycle {
    /// The variable whose bound closes the cycle.
    var: VarId,
    /// The variable that bound is (the start of the cycle).
    target: VarId,
    /// True for a lower-bound cycle (Scala `>:`), false for upper bounds.
    lower: bool,
    /// The cycle as text (`T → U → T`).
    path: String,
}

/// The variable a bound is, through nullability and arrays (`U`, `U?`, `U[]`), if any.
fn bare_var(arena: &crate::types::TypeArena, mut t: TypeId) -> Option<VarId> {
    loop {
        match arena.get(t) {
            Type::Var(v) => return Some(*v),
            Type::Nullable(e) | Type::Array(e) => t = *e,
            _ => return None,
        }
    }
}

/// Cycles among the bare bounds of `vars` (upper bounds and lower bounds separately).
/// A variable inside a type argument of its own bound (`T extends Comparable<T>`) is legal
/// and not a cycle.
fn bound_cycles(arena: &crate::types::TypeArena, vars: &[VarId]) -> Vec<BoundCycle> {
    let index: FxHashMap<VarId, usize> = vars.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let mut out = Vec::new();
    for lower in [false, true] {
        let succ: Vec<Vec<usize>> = vars
            .iter()
            .map(|&v| {
                let d = arena.var(v);
                let bounds: Vec<TypeId> = if lower {
                    d.lower.into_iter().collect()
                } else {
                    d.upper.clone()
                };
                bounds
                    .into_iter()
                    .filter_map(|b| bare_var(arena, b))
                    .filter_map(|w| index.get(&w).copied())
                    .collect()
            })
            .collect();
        for back in back_edges(&succ) {
            let path = back.text(|i| arena.var_name(vars[i]));
            out.push(BoundCycle {
                var: vars[back.from],
                target: vars[back.target],
                lower,
                path,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removing_the_back_edges_leaves_a_dag() {
        // 0 → 1 → 2 → 0, 3 → 3, 4 → 1, and a long cycle 5 → 6 → … → 30 → 5
        let mut succ: Vec<Vec<usize>> = vec![vec![1], vec![2], vec![0], vec![3], vec![1]];
        for i in 5..=30 {
            succ.push(vec![if i == 30 { 5 } else { i + 1 }]);
        }
        let backs = back_edges(&succ);
        let name = |i: usize| ["a", "b", "c", "d", "e"].get(i).copied().unwrap_or("x");
        let found: Vec<(usize, usize, String)> = backs
            .iter()
            .map(|b| (b.from, b.target, b.text(name)))
            .collect();
        assert_eq!(found[0], (2, 0, "a → b → c → a".to_string()));
        assert_eq!(found[1], (3, 3, "d → d".to_string()));
        assert_eq!(found[2].0, 30);
        assert!(found[2].2.contains("… (14 more)"), "{}", found[2].2);
        assert_eq!(found.len(), 3);
        for b in &backs {
            succ[b.from].retain(|&t| t != b.target);
        }
        assert!(back_edges(&succ).is_empty());
    }

    #[test]
    fn a_kotlin_functions_where_clause_bounds_its_type_parameter() {
        // `fun <C, R> C.ifBlank(defaultValue: () -> R): R where C : CharSequence, C : R`
        let api = crate::embedded::embedded_corpus("kotlin-stdlib-2.4.21").expect("corpus");
        let c = api.class_by_name("kotlin.text").expect("the package class");
        let m = api
            .class(c)
            .members
            .iter()
            .map(|&m| api.member(m))
            .find(|m| m.name == "ifBlank")
            .expect("ifBlank");
        let (cv, rv) = (m.type_params[0], m.type_params[1]);
        let bounds = &api.ts.arena.var(cv).upper;
        assert_eq!(bounds.len(), 2, "C : CharSequence and C : R");
        assert!(
            bounds
                .iter()
                .any(|&b| matches!(api.ts.arena.get(b), Type::Var(v) if *v == rv)),
            "C is bounded by R"
        );
    }

    #[test]
    fn scala_parameter_lists_hold_every_lists_parameters() {
        let api = crate::embedded::embedded_corpus("scala-library-2.13.18").expect("corpus");
        let member = |class: &str, name: &str| {
            let c = api.class_by_name(class).expect("class");
            let m = api
                .class(c)
                .members
                .iter()
                .map(|&m| api.member(m))
                .find(|m| m.name == name)
                .expect("member");
            (m.params.len(), m.scala_lists.clone(), m.ret)
        };
        let lists = |explicit: &[usize], implicit| {
            Some(ArgLists {
                explicit: explicit.to_vec(),
                implicit,
                searched: 0,
            })
        };
        // `foldLeft[B](z: B)(op: (B, A) => B): B`: the curried list unfolded, the result `B`
        let (n, l, ret) = member("scala.collection.IterableOnceOps", "foldLeft");
        assert_eq!((n, l), (2, lists(&[1, 1], 0)));
        assert!(matches!(api.ts.arena.get(ret), Type::Var(_)));
        // `empty[A](implicit ord: Ordering[A])`: no explicit list, one implicit parameter
        let (n, l, _) = member("scala.collection.mutable.PriorityQueue", "empty");
        assert_eq!((n, l), (1, lists(&[], 1)));
        // `from[E](it: IterableOnce[E])(implicit ord: Ordering[E])`
        let (n, l, _) = member("scala.collection.mutable.PriorityQueue", "from");
        assert_eq!((n, l), (2, lists(&[1], 1)));
    }

    #[test]
    fn scala_universal_traits_value_classes_and_anyref_bounds_are_no_objects() {
        let mut api = crate::embedded::embedded_corpus("scala-library-2.13.18").expect("corpus");
        let object = api.ts.arena.class_named("java.lang.Object", &[]);
        let class = |api: &mut Api, name: &str| {
            let sym = api.ts.arena.sym(name);
            api.ts.self_type(sym)
        };
        // `trait Product extends Any with Equals`, `trait Equiv[T] extends Any with
        // Serializable`: universal; `Tuple2` extends `Product` but is a class, an `AnyRef`
        for (name, is_object) in [
            ("scala.Product", false),
            ("scala.Equals", false),
            ("scala.math.Equiv", false),
            ("scala.runtime.RichInt", false),
            ("scala.Tuple2", true),
            ("scala.collection.immutable.List", true),
        ] {
            let t = class(&mut api, name);
            assert_eq!(api.ts.is_subtype(t, object), is_object, "{name}");
        }
        let product = api.ts.arena.sym("scala.Product");
        assert!(api.ts.is_universal(product));
        // `ArraySeq.ofRef[T <: AnyRef]`: the bound is `Object`, which `Product` is not under
        let c = api
            .class_by_name("scala.collection.immutable.ArraySeq.ofRef")
            .expect("ofRef");
        let t = api.class(c).type_params[0];
        assert_eq!(api.ts.arena.var(t).upper, vec![object]);
        // `C <: BitSet & BitSetOps[C]`: both parts of the intersection bound
        let c = api
            .class_by_name("scala.collection.BitSetOps")
            .expect("BitSetOps");
        let t = api.class(c).type_params[0];
        assert_eq!(api.ts.arena.var(t).upper.len(), 2);
    }

    #[test]
    fn a_variable_inside_its_own_bound_is_not_a_cycle() {
        let mut a = crate::types::TypeArena::new();
        let t = a.new_var("T", "m");
        let u = a.new_var("U", "m");
        let tv = a.var_type(t);
        let uv = a.var_type(u);
        let cmp = a.class_named("java.lang.Comparable", &[tv]);
        a.var_mut(t).upper = vec![cmp];
        a.var_mut(u).upper = vec![tv];
        assert!(bound_cycles(&a, &[t, u]).is_empty());
        let nullable_u = a.nullable(uv);
        a.var_mut(t).upper = vec![cmp, nullable_u];
        let cycles = bound_cycles(&a, &[t, u]);
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].path, "T → U → T");
        assert_eq!((cycles[0].var, cycles[0].target), (u, t));
    }
}
