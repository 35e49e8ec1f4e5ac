//! Writing the model back out as thalia API JSON.

use std::path::{Path, PathBuf};

use thalia_extractors::ClassDoc;

use super::{Api, Class, MemberKind};
use crate::types::{print_param, print_type, print_type_param, TypeId};

impl Api {
    /// The model as API JSON documents, one per class. Type strings are printed from the
    /// parsed types; unknown fields, and entries that did not load, are kept as read.
    pub fn to_docs(&self) -> Vec<ClassDoc> {
        self.classes.iter().map(|c| self.class_doc(c)).collect()
    }

    /// Writes every class into `dir` under its encoded name
    /// ([`thalia_extractors::io::file_name_for`]: `/../x` is `%2F..%2Fx.json`); returns the
    /// files written. A class whose encoded name were still not a plain file name would not be
    /// written: the others still are, and the error names every such class.
    pub fn write_dir(&self, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        let mut written = Vec::new();
        let mut refused = Vec::new();
        for d in self.to_docs() {
            match thalia_extractors::write_class_doc(dir, &d) {
                Ok(p) => written.push(p),
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => refused.push(e),
                Err(e) => return Err(e),
            }
        }
        if refused.is_empty() {
            return Ok(written);
        }
        let reasons: Vec<String> = refused.iter().map(ToString::to_string).collect();
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{}; the other {} classes were written",
                reasons.join("; "),
                written.len()
            ),
        ))
    }

    fn class_doc(&self, c: &Class) -> ClassDoc {
        let a = &self.ts.arena;
        let syn = c.syntax;
        let print = |t: TypeId| print_type(a, syn, t);
        let mut doc = ClassDoc::clone(&c.doc);
        // a Kotlin or Scala document's model holds the JVM view of its types
        // (`types::kotlin_view`, `types::scala_view`), which is not the language's: its own
        // strings are written back as they were
        if syn != crate::types::Syntax::Java {
            return doc;
        }
        if doc.type_parameters().len() == c.type_params.len() {
            if let Some(tps) = doc.type_parameters.as_mut() {
                *tps = c
                    .type_params
                    .iter()
                    .map(|&v| print_type_param(a, syn, v))
                    .collect();
            }
        }
        // lists with entries that failed to parse are kept verbatim
        if let Some(list) = doc.inherits.as_mut() {
            if list.len() == c.inherits.len() {
                *list = c.inherits.iter().map(|&t| print(t)).collect();
            }
        }
        if let Some(list) = doc.implements.as_mut() {
            if list.len() == c.implements.len() {
                *list = c.implements.iter().map(|&t| print(t)).collect();
            }
        }
        for &mid in &c.members {
            let m = self.member(mid);
            let tps: Vec<String> = m
                .type_params
                .iter()
                .map(|&v| print_type_param(a, syn, v))
                .collect();
            let receiver = m.receiver.map(print);
            if m.kind == MemberKind::Field {
                let Some(f) = doc.fields.as_mut().and_then(|fs| fs.get_mut(m.doc_index)) else {
                    continue;
                };
                f.ty = print(m.ret);
                if f.type_parameters.is_some() {
                    f.type_parameters = Some(tps);
                }
                if f.receiver.is_some() {
                    f.receiver = Some(receiver);
                }
            } else {
                let Some(md) = doc.methods.as_mut().and_then(|ms| ms.get_mut(m.doc_index)) else {
                    continue;
                };
                md.parameters = m
                    .params
                    .iter()
                    .map(|p| print_param(a, syn, p.ty, p.vararg))
                    .collect();
                if md.type_parameters.is_some() {
                    md.type_parameters = Some(tps);
                }
                if m.kind == MemberKind::Method {
                    md.return_type = Some(Some(print(m.ret)));
                }
                if md.receiver.is_some() {
                    md.receiver = Some(receiver);
                }
            }
        }
        doc
    }
}
