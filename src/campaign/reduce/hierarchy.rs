//! The JDK supertypes of a program's library classes, read from the class files of the
//! finding's classpath: what reduction may put in place of a library type.

use std::collections::BTreeSet;
use std::io::Read;

use thalia_extractors::bytecode::extract_class;

use super::passes::{is_platform, Hierarchy};

/// How far up a library class's supertypes are followed.
const MAX_DEPTH: usize = 8;

/// The largest class file read (bytes).
const MAX_CLASS_BYTES: u64 = 4 << 20;

/// The jars of a classpath that are files.
fn jars(classpath: &str) -> Vec<zip::ZipArchive<std::fs::File>> {
    std::env::split_paths(classpath)
        .filter(|p| p.extension().is_some_and(|e| e == "jar"))
        .filter_map(|p| crate::rundir::open_regular(&p).ok())
        .filter_map(|f| zip::ZipArchive::new(f).ok())
        .collect()
}

/// The class-file entry names a dotted class name may have (`a.b.C.D` is `a/b/C$D.class`
/// or `a/b/C/D.class`), outermost package split first.
fn entry_names(class: &str) -> Vec<String> {
    let parts: Vec<&str> = class.split('.').collect();
    (1..=parts.len())
        .rev()
        .map(|k| {
            let (pkg, nested) = parts.split_at(k.min(parts.len()));
            let mut name = pkg.join("/");
            if !nested.is_empty() {
                name.push('$');
                name.push_str(&nested.join("$"));
            }
            name + ".class"
        })
        .collect()
}

/// The direct supertypes of `class` (dotted), from the first jar that has it.
fn direct_supers(jars: &mut [zip::ZipArchive<std::fs::File>], class: &str) -> Vec<String> {
    for jar in jars.iter_mut() {
        for entry in entry_names(class) {
            let Ok(file) = jar.by_name(&entry) else {
                continue;
            };
            let mut bytes = Vec::new();
            if file.take(MAX_CLASS_BYTES).read_to_end(&mut bytes).is_err() {
                continue;
            }
            let Ok(Some(raw)) = extract_class(&bytes, &entry) else {
                continue;
            };
            return raw
                .superclass
                .iter()
                .chain(&raw.interfaces)
                .filter_map(|t| match t {
                    thalia_extractors::bytecode::signature::JType::Class(c) => {
                        Some(c.name.replace(['/', '$'], "."))
                    }
                    _ => None,
                })
                .collect();
        }
    }
    Vec::new()
}

/// The JDK supertypes of each of `classes` (library classes), nearest first, as far as the
/// classpath's jars show them; classes it does not have are left out.
pub fn of(classes: &BTreeSet<String>, classpath: Option<&str>) -> Hierarchy {
    let mut out = Hierarchy::new();
    let Some(cp) = classpath else {
        return out;
    };
    let mut jars = jars(cp);
    if jars.is_empty() {
        return out;
    }
    for class in classes {
        let mut found: Vec<String> = Vec::new();
        let mut frontier = vec![class.clone()];
        let mut seen = BTreeSet::new();
        for _ in 0..MAX_DEPTH {
            let mut next = Vec::new();
            for c in frontier {
                if !seen.insert(c.clone()) {
                    continue;
                }
                for s in direct_supers(&mut jars, &c) {
                    if is_platform(&s) {
                        if s != "java.lang.Object" && !found.contains(&s) {
                            found.push(s);
                        }
                    } else {
                        next.push(s);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        if !found.is_empty() {
            out.insert(class.clone(), found);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_classes_are_looked_up_under_each_split() {
        assert_eq!(
            entry_names("a.b.C.D"),
            vec![
                "a/b/C/D.class",
                "a/b/C$D.class",
                "a/b$C$D.class",
                "a$b$C$D.class"
            ]
        );
    }
}
