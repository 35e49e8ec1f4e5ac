//! Class files assembled byte by byte, for tests that need malformed or extreme ones (no
//! compiler involved): a public abstract class with abstract methods and fields, each with an
//! optional `Signature` attribute.

#![allow(dead_code)]

use std::io::Write;

/// A member: name, descriptor, optional generic signature.
#[derive(Clone, Debug)]
pub struct Member {
    /// Its name.
    pub name: String,
    /// Its descriptor.
    pub descriptor: String,
    /// Its `Signature` attribute.
    pub signature: Option<String>,
}

/// A class to assemble.
#[derive(Clone, Debug, Default)]
pub struct ClassSpec {
    /// Binary name (`p/Hostile`).
    pub name: String,
    /// Methods (public abstract).
    pub methods: Vec<Member>,
    /// Fields (public static).
    pub fields: Vec<Member>,
    /// An `EnclosingMethod` attribute naming this method (name, descriptor) of
    /// `java/lang/Object`: the class is then a local class.
    pub enclosing_method: Option<(String, String)>,
}

impl ClassSpec {
    /// A class with no members.
    pub fn new(name: &str) -> ClassSpec {
        ClassSpec {
            name: name.to_string(),
            ..ClassSpec::default()
        }
    }

    /// Adds a method.
    pub fn method(mut self, name: &str, descriptor: &str, signature: Option<&str>) -> Self {
        self.methods.push(Member {
            name: name.into(),
            descriptor: descriptor.into(),
            signature: signature.map(str::to_string),
        });
        self
    }

    /// Adds a field.
    pub fn field(mut self, name: &str, descriptor: &str, signature: Option<&str>) -> Self {
        self.fields.push(Member {
            name: name.into(),
            descriptor: descriptor.into(),
            signature: signature.map(str::to_string),
        });
        self
    }

    /// Makes the class local to a method (an `EnclosingMethod` attribute).
    pub fn enclosed_in(mut self, name: &str, descriptor: &str) -> Self {
        self.enclosing_method = Some((name.into(), descriptor.into()));
        self
    }

    /// The class file (Java 8 format).
    pub fn bytes(&self) -> Vec<u8> {
        fn utf8(s: &str, pool: &mut Vec<Vec<u8>>) -> u16 {
            let mut e = vec![1u8];
            let b = s.as_bytes();
            e.extend_from_slice(&(b.len() as u16).to_be_bytes());
            e.extend_from_slice(b);
            pool.push(e);
            pool.len() as u16
        }
        fn class(name: u16, pool: &mut Vec<Vec<u8>>) -> u16 {
            pool.push([vec![7u8], name.to_be_bytes().to_vec()].concat());
            pool.len() as u16
        }
        fn members(
            list: &[Member],
            access: u16,
            sig_attr: u16,
            pool: &mut Vec<Vec<u8>>,
        ) -> Vec<u8> {
            let mut out = Vec::new();
            out.extend_from_slice(&(list.len() as u16).to_be_bytes());
            for m in list {
                let n = utf8(&m.name, pool);
                let d = utf8(&m.descriptor, pool);
                out.extend_from_slice(&access.to_be_bytes());
                out.extend_from_slice(&n.to_be_bytes());
                out.extend_from_slice(&d.to_be_bytes());
                match &m.signature {
                    Some(s) => {
                        let si = utf8(s, pool);
                        out.extend_from_slice(&1u16.to_be_bytes());
                        out.extend_from_slice(&sig_attr.to_be_bytes());
                        out.extend_from_slice(&2u32.to_be_bytes());
                        out.extend_from_slice(&si.to_be_bytes());
                    }
                    None => out.extend_from_slice(&0u16.to_be_bytes()),
                }
            }
            out
        }
        let mut pool: Vec<Vec<u8>> = Vec::new();
        let this_name = utf8(&self.name, &mut pool);
        let this_class = class(this_name, &mut pool);
        let object = utf8("java/lang/Object", &mut pool);
        let super_class = class(object, &mut pool);
        let sig_attr = utf8("Signature", &mut pool);
        // ACC_PUBLIC | ACC_STATIC for fields, ACC_PUBLIC | ACC_ABSTRACT for methods
        let fields = members(&self.fields, 0x0009, sig_attr, &mut pool);
        let methods = members(&self.methods, 0x0401, sig_attr, &mut pool);
        let mut attrs: Vec<u8> = Vec::new();
        let mut attr_count = 0u16;
        if let Some((name, desc)) = &self.enclosing_method {
            let attr_name = utf8("EnclosingMethod", &mut pool);
            let n = utf8(name, &mut pool);
            let d = utf8(desc, &mut pool);
            pool.push(
                [
                    vec![12u8],
                    n.to_be_bytes().to_vec(),
                    d.to_be_bytes().to_vec(),
                ]
                .concat(),
            );
            let nat = pool.len() as u16;
            attrs.extend_from_slice(&attr_name.to_be_bytes());
            attrs.extend_from_slice(&4u32.to_be_bytes());
            attrs.extend_from_slice(&super_class.to_be_bytes());
            attrs.extend_from_slice(&nat.to_be_bytes());
            attr_count += 1;
        }
        let mut out = Vec::new();
        out.extend_from_slice(&[0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52]);
        out.extend_from_slice(&((pool.len() + 1) as u16).to_be_bytes());
        for e in &pool {
            out.extend_from_slice(e);
        }
        // ACC_PUBLIC | ACC_SUPER | ACC_ABSTRACT
        out.extend_from_slice(&0x0421u16.to_be_bytes());
        out.extend_from_slice(&this_class.to_be_bytes());
        out.extend_from_slice(&super_class.to_be_bytes());
        out.extend_from_slice(&0u16.to_be_bytes());
        out.extend_from_slice(&fields);
        out.extend_from_slice(&methods);
        out.extend_from_slice(&attr_count.to_be_bytes());
        out.extend_from_slice(&attrs);
        out
    }
}

/// A jar of `(entry name, bytes)` entries, stored (not compressed).
pub fn jar_of(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .large_file(false);
        for (name, bytes) in entries {
            z.start_file(*name, opts).expect("zip entry");
            z.write_all(bytes).expect("zip write");
        }
        z.finish().expect("zip finish");
    }
    buf.into_inner()
}

/// The position of `needle` in `hay` (first occurrence).
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
