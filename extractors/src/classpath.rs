//! Which classes a compile classpath (the JDK's modules and the fetched jars) provides, and
//! the pruning of a fetched API to them.
//!
//! A library's public signatures can name classes of dependencies that its POM does not
//! declare, or declares optional or `provided` (spring-orm's Hibernate and JPA types, a
//! servlet API): a program that names one does not compile, and a compiler that loads a class
//! whose supertype, or a type one of whose members (private ones too) names, is missing may
//! crash (groovyc: `NoClassDefFoundError`). Such rejections are the environment's, not the
//! checker's, so a fetched API leaves out the classes that are not usable with the classpath
//! and the members that name one; the fetch says so in a note.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use crate::bytecode::signature::JType;
use crate::bytecode::RawArchive;
use crate::ClassDoc;

/// The classes of a classpath with their direct supertypes and the classes their members
/// name, by dotted name (`a.b.Outer.Inner`: `/` and `$` both read as `.`, as API JSON writes
/// nested classes).
#[derive(Default)]
pub struct Availability {
    /// Each class's direct supertypes and the classes it names ([`crate::bytecode::RawClass::member_refs`]).
    classes: HashMap<String, (Vec<String>, Vec<String>)>,
    /// [`Self::has`] of the classes asked about.
    memo: RefCell<HashMap<String, bool>>,
    /// [`Self::missing_for`] of the classes asked about.
    usable_memo: RefCell<HashMap<String, Option<String>>>,
}

/// `a/b/Outer$Inner`, `a.b.Outer$Inner` and `a.b.Outer.Inner` alike as `a.b.Outer.Inner`.
fn dotted(name: &str) -> String {
    name.replace(['/', '$'], ".")
}

/// The class whose file holds the class of binary name `name`: its outermost enclosing
/// class for an anonymous or local class (`a/C$1`, `a/C$1Local`, which reading leaves out but
/// which ship in the same jar), else the class itself.
fn enclosing(name: &str) -> &str {
    match name.find("$") {
        Some(_) => {
            let mut end = name.len();
            let mut at = 0;
            for seg in name.split('$') {
                if at > 0 && seg.starts_with(|c: char| c.is_ascii_digit()) {
                    end = at - 1;
                    break;
                }
                at += seg.len() + 1;
            }
            &name[..end]
        }
        None => name,
    }
}

impl Availability {
    /// Adds every class of `archives`.
    pub fn add(&mut self, archives: &[RawArchive]) {
        for a in archives {
            for c in &a.classes {
                let supers = c
                    .superclass
                    .iter()
                    .chain(&c.interfaces)
                    .filter_map(|t| match t {
                        JType::Class(ct) => Some(dotted(&ct.name)),
                        _ => None,
                    })
                    .collect();
                let refs = c.member_refs.iter().map(|r| dotted(enclosing(r))).collect();
                self.classes
                    .entry(dotted(&c.name))
                    .or_insert((supers, refs));
            }
        }
    }

    /// True when the classpath has the class and, transitively, all its supertypes.
    pub fn has(&self, name: &str) -> bool {
        let name = dotted(name);
        if let Some(&known) = self.memo.borrow().get(&name) {
            return known;
        }
        // (assumed present while its supertypes are looked at: a cycle ends there)
        self.memo.borrow_mut().insert(name.clone(), true);
        let ok = match self.classes.get(&name) {
            Some((supers, _)) => supers.iter().all(|s| self.has(s)),
            None => false,
        };
        self.memo.borrow_mut().insert(name, ok);
        ok
    }

    /// The first class that keeps the class from being usable: the class itself or a
    /// supertype when the classpath lacks it, or a class that its members or its
    /// supertypes' members name (private ones' too) when the classpath lacks that; `None`
    /// when usable. A compiler that loads a class for a call may load all these (groovyc
    /// fails with `NoClassDefFoundError` when one is missing, javac with "class file for X
    /// not found" when an overload names it).
    pub fn missing_for(&self, name: &str) -> Option<String> {
        let name = dotted(name);
        if let Some(known) = self.usable_memo.borrow().get(&name) {
            return known.clone();
        }
        // (assumed usable while its supertypes are looked at: a cycle ends there)
        self.usable_memo.borrow_mut().insert(name.clone(), None);
        let missing = match self.classes.get(&name) {
            None => Some(name.clone()),
            Some((supers, refs)) => refs
                .iter()
                .find(|r| !self.has(r))
                .cloned()
                .or_else(|| supers.iter().find_map(|s| self.missing_for(s))),
        };
        self.usable_memo.borrow_mut().insert(name, missing.clone());
        missing
    }

    /// The first class named in a type string (`java.util.List<a.B>`, `? extends a.B...`) that
    /// the classpath lacks.
    fn missing_in(&self, ty: &str) -> Option<String> {
        ty.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
            .map(|t| t.trim_matches('.'))
            // a type variable or primitive has no dot
            .filter(|t| t.contains('.'))
            .find_map(|t| self.missing_for(t))
    }

    /// Leaves out of `docs` the classes that are not usable ([`Self::missing_for`]) or whose
    /// supertypes are not, and the members whose signature names a class that is not; the
    /// names of the missing classes, with how many classes and members were left out. Only
    /// documents in Java's syntax are judged: Kotlin and Scala name classes as their
    /// languages do, not as class files.
    pub fn prune(&self, docs: &mut Vec<ClassDoc>) -> Pruned {
        let mut out = Pruned::default();
        let java = |d: &ClassDoc| d.language.as_deref().is_none_or(|l| l == "java");
        docs.retain(|d| {
            if !java(d) {
                return true;
            }
            let supers = d.inherits.iter().chain(&d.implements).flatten();
            // (a class the classpath does not list at all is not judged)
            let own = if self.classes.contains_key(&dotted(&d.name)) {
                self.missing_for(&d.name)
            } else {
                None
            };
            match own.or_else(|| supers.filter_map(|s| self.missing_in(s)).next()) {
                Some(m) => {
                    out.missing.insert(m);
                    out.classes += 1;
                    false
                }
                None => true,
            }
        });
        for d in docs.iter_mut().filter(|d| java(d)) {
            if let Some(methods) = &mut d.methods {
                methods.retain(|m| {
                    let types = m
                        .parameters
                        .iter()
                        .chain(m.type_parameters.iter().flatten())
                        .chain(m.return_type.iter().flatten())
                        .chain(m.throws.iter().flatten());
                    keep(self, types, &mut out)
                });
            }
            if let Some(fields) = &mut d.fields {
                fields.retain(|f| keep(self, std::iter::once(&f.ty), &mut out));
            }
        }
        out
    }
}

/// True when no type of a member names a missing class; counts it out otherwise.
fn keep<'a>(
    avail: &Availability,
    mut types: impl Iterator<Item = &'a String>,
    out: &mut Pruned,
) -> bool {
    match types.find_map(|t| avail.missing_in(t)) {
        Some(m) => {
            out.missing.insert(m);
            out.members += 1;
            false
        }
        None => true,
    }
}

/// What [`Availability::prune`] left out.
#[derive(Debug, Default)]
pub struct Pruned {
    /// The missing classes the left-out classes and members name.
    pub missing: BTreeSet<String>,
    /// Classes left out.
    pub classes: usize,
    /// Members left out.
    pub members: usize,
}

impl Pruned {
    /// A one-line account for the user; `None` when nothing was left out.
    pub fn note(&self) -> Option<String> {
        if self.classes + self.members == 0 {
            return None;
        }
        const SHOWN: usize = 5;
        let mut names: Vec<&str> = self
            .missing
            .iter()
            .take(SHOWN)
            .map(String::as_str)
            .collect();
        if self.missing.len() > SHOWN {
            names.push("…");
        }
        Some(format!(
            "left out {} classes and {} members that name classes on no jar of the classpath \
             nor in the JDK ({} missing: {}); a program naming them could not compile",
            self.classes,
            self.members,
            self.missing.len(),
            names.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::signature::ClassType;
    use crate::bytecode::RawClass;

    fn class(name: &str, sup: Option<&str>) -> RawClass {
        RawClass {
            name: name.into(),
            superclass: sup.map(|s| {
                JType::Class(ClassType {
                    name: s.into(),
                    args: Vec::new(),
                    outer: None,
                })
            }),
            ..RawClass::default()
        }
    }

    #[test]
    fn members_and_classes_naming_missing_classes_are_left_out() {
        let mut avail = Availability::default();
        avail.add(&[RawArchive {
            classes: vec![
                class("java/lang/Object", None),
                class("java/lang/String", Some("java/lang/Object")),
                class("java/util/List", None),
                class("lib/Base", Some("java/lang/Object")),
                class("lib/Base$Inner", Some("java/lang/Object")),
                // its superclass is on no jar
                class("lib/Broken", Some("opt/Gone")),
                // a private member names a class on no jar
                RawClass {
                    // (`lib/Base$1`, an anonymous class, ships with `lib/Base`)
                    member_refs: vec!["opt/Other".into(), "lib/Base$1".into()],
                    ..class("lib/Leaky", Some("java/lang/Object"))
                },
            ],
            ..RawArchive::default()
        }]);
        assert!(avail.has("lib.Base.Inner") && avail.has("lib.Base$Inner"));
        assert!(!avail.has("lib.Broken"), "a missing supertype");
        assert!(!avail.has("opt.Gone"));
        assert!(avail.has("lib.Leaky"));
        assert_eq!(avail.missing_for("lib.Leaky").as_deref(), Some("opt.Other"));
        assert_eq!(avail.missing_for("lib.Base.Inner"), None);
        assert_eq!(enclosing("a/C$1"), "a/C");
        assert_eq!(enclosing("a/C$Inner$2Local"), "a/C$Inner");
        assert_eq!(enclosing("a/C$Inner"), "a/C$Inner");

        let mut docs: Vec<ClassDoc> = serde_json::from_value(serde_json::json!([
            {
                "name": "lib.Api",
                "inherits": ["lib.Base"],
                "methods": [
                    {"name": "ok", "parameters": ["java.util.List<? extends lib.Base.Inner>", "T"], "return_type": "int"},
                    {"name": "gone", "parameters": ["opt.Gone..."], "return_type": "void"},
                    {"name": "broken", "parameters": [], "return_type": "java.util.List<lib.Broken>"},
                    {"name": "leaky", "parameters": ["lib.Leaky"], "return_type": "void"}
                ],
                "fields": [{"name": "f", "type": "opt.Gone"}]
            },
            {"name": "lib.Sub", "inherits": ["lib.Broken"]}
        ]))
        .expect("documents");
        let pruned = avail.prune(&mut docs);
        assert_eq!(
            docs.len(),
            1,
            "the class extending a broken one is left out"
        );
        let names: Vec<&str> = docs[0]
            .methods
            .iter()
            .flatten()
            .map(|m| m.name.as_str())
            .collect();
        assert_eq!(names, ["ok"]);
        assert!(docs[0].fields.iter().flatten().next().is_none());
        assert_eq!((pruned.classes, pruned.members), (1, 4));
        // the classes on no jar, not those that name them
        assert_eq!(
            pruned.missing.iter().collect::<Vec<_>>(),
            ["opt.Gone", "opt.Other"]
        );
        assert!(pruned.note().is_some_and(|n| n.contains("opt.Gone")));
    }
}
