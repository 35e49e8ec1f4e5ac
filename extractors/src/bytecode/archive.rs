//! Reading class files out of containers: jars (zip), jmods, directories, `ct.sym`, and the
//! runtime image (`lib/modules`, the jimage format) of a JDK without jmods.
//!
//! Class files are parsed in parallel (rayon); results keep the container's entry order.

use std::collections::{HashMap, HashSet};
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::class::{
    extract_class, module_exports, package_null_marked, RawClass, MAX_CLASS_FILE_BYTES,
};
use super::{ExtractError, ExtractProblem};
use crate::files::InputFileError;

/// The classes read from one container.
#[derive(Clone, Debug, Default)]
pub struct RawArchive {
    /// The container.
    pub path: PathBuf,
    /// Classes in entry order (anonymous, local, synthetic, `module-info` and `package-info`
    /// class files left out).
    pub classes: Vec<RawClass>,
    /// Entries that could not be read or parsed.
    pub problems: Vec<ExtractProblem>,
    /// Packages exported to everyone (binary form), from the `module-info` of a jmod, of a
    /// module in the runtime image or in `ct.sym`; `None` when there is no module descriptor
    /// (a jar on the class path exposes every package).
    pub exports: Option<HashSet<String>>,
    /// Number of class files seen.
    pub class_files: usize,
    /// Packages (binary form) whose `package-info` carries JSpecify's `@NullMarked` (true) or
    /// `@NullUnmarked` (false).
    pub null_marked_packages: HashMap<String, bool>,
}

/// The most bytes of class files read out of one container (after decompression): far above
/// any real jar or JDK module, low enough that a zip bomb ends in seconds.
pub const MAX_ARCHIVE_CLASS_BYTES: u64 = 2 << 30;

/// The most bytes of one container file (a jar, jmod or `ct.sym`), which is read whole: the
/// bound on the class files read out of it.
pub const MAX_CONTAINER_BYTES: u64 = MAX_ARCHIVE_CLASS_BYTES;

/// Reads at most [`MAX_CLASS_FILE_BYTES`] from `r`, never trusting a declared size (a zip
/// entry may claim gigabytes); `total` counts the bytes read from the container so far,
/// against [`MAX_ARCHIVE_CLASS_BYTES`].
fn read_class_bytes(r: impl Read, total: &AtomicU64) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    r.take(MAX_CLASS_FILE_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| e.to_string())?;
    if buf.len() as u64 > MAX_CLASS_FILE_BYTES {
        return Err(format!(
            "larger than MAX_CLASS_FILE_BYTES = {MAX_CLASS_FILE_BYTES} bytes"
        ));
    }
    count_class_bytes(buf, total)
}

/// Adds a class file's bytes to the container's `total`, against [`MAX_ARCHIVE_CLASS_BYTES`].
fn count_class_bytes(buf: Vec<u8>, total: &AtomicU64) -> Result<Vec<u8>, String> {
    let before = total.fetch_add(buf.len() as u64, Ordering::Relaxed);
    if before + buf.len() as u64 > MAX_ARCHIVE_CLASS_BYTES {
        return Err(format!(
            "the container's class files pass MAX_ARCHIVE_CLASS_BYTES = \
             {MAX_ARCHIVE_CLASS_BYTES} bytes"
        ));
    }
    Ok(buf)
}

/// What a selected entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Class,
    ModuleInfo,
}

fn io_err(path: &Path, source: std::io::Error) -> ExtractError {
    ExtractError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads a whole container file, which must be a regular file (a FIFO or a device would
/// hang or never end) of at most [`MAX_CONTAINER_BYTES`].
pub(crate) fn read_container(path: &Path) -> Result<Vec<u8>, ExtractError> {
    crate::files::read_regular(path, MAX_CONTAINER_BYTES, "MAX_CONTAINER_BYTES").map_err(
        |e| match e {
            InputFileError::Io { path, source } => ExtractError::Io { path, source },
            other => ExtractError::NotAnArchive {
                path: other.path().to_path_buf(),
                reason: other.reason(),
            },
        },
    )
}

/// Parses selected class files in parallel, in order, into `out`.
fn parse_all(
    path: &Path,
    items: Vec<(String, Kind, Result<Vec<u8>, String>)>,
    out: &mut RawArchive,
) {
    let results: Vec<Parsed> = items
        .into_par_iter()
        .map(|(entry, kind, bytes)| parse_one(entry, kind, bytes))
        .collect();
    finish(path, results, out);
}

fn parse_one(entry: String, kind: Kind, bytes: Result<Vec<u8>, String>) -> Parsed {
    match bytes {
        Err(reason) => (entry, kind, Err(reason), None, None),
        Ok(bytes) => match kind {
            Kind::ModuleInfo => {
                let ex = module_exports(&bytes);
                (entry, kind, Ok(None), ex, None)
            }
            Kind::Class => {
                if entry.ends_with("package-info.class") {
                    return (entry, kind, Ok(None), None, package_null_marked(&bytes));
                }
                let r = extract_class(&bytes, &entry).map_err(|e| match e {
                    ExtractError::Class { reason, .. } => reason,
                    other => other.to_string(),
                });
                (entry, kind, r, None, None)
            }
        },
    }
}

/// What a module-info file gives: the exported packages.
type Exports = Option<Vec<String>>;

/// A parsed entry: the class, or a module's exports, or a package's JSpecify scope.
type Parsed = (
    String,
    Kind,
    Result<Option<RawClass>, String>,
    Exports,
    Option<(String, bool)>,
);

fn finish(path: &Path, results: Vec<Parsed>, out: &mut RawArchive) {
    for (entry, kind, r, exports, marked) in results {
        if let Some((package, m)) = marked {
            out.null_marked_packages.insert(package, m);
        }
        if kind == Kind::Class {
            out.class_files += 1;
        }
        if let Some(ex) = exports {
            out.exports.get_or_insert_with(HashSet::new).extend(ex);
        }
        match r {
            Ok(Some(c)) => {
                for w in &c.warnings {
                    out.problems.push(ExtractProblem {
                        jar: path.to_path_buf(),
                        entry: entry.clone(),
                        reason: w.clone(),
                    });
                }
                out.classes.push(c);
            }
            Ok(None) => {}
            Err(reason) => out.problems.push(ExtractProblem {
                jar: path.to_path_buf(),
                entry,
                reason,
            }),
        }
    }
}

/// Reads the class files of zip data. `select` maps an entry name to what it is (or `None` to
/// skip it).
fn read_zip_data(
    path: &Path,
    data: &[u8],
    select: &(dyn Fn(&str) -> Option<Kind> + Sync),
) -> Result<RawArchive, ExtractError> {
    let archive =
        zip::ZipArchive::new(Cursor::new(data)).map_err(|e| ExtractError::NotAnArchive {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
    let selected: Vec<(usize, String, Kind)> = (0..archive.len())
        .filter_map(|i| {
            let name = archive.name_for_index(i)?;
            select(name).map(|k| (i, name.to_string(), k))
        })
        .collect();
    let total = AtomicU64::new(0);
    let results: Vec<Parsed> = selected
        .into_par_iter()
        .map_init(
            || archive.clone(),
            |ar, (i, entry, kind)| {
                let bytes = ar
                    .by_index(i)
                    .map_err(|e| e.to_string())
                    .and_then(|f| read_class_bytes(f, &total));
                parse_one(
                    entry,
                    kind,
                    bytes.map_err(|r| format!("cannot read entry: {r}")),
                )
            },
        )
        .collect();
    let mut out = RawArchive {
        path: path.to_path_buf(),
        ..RawArchive::default()
    };
    finish(path, results, &mut out);
    Ok(out)
}

/// Reads a jar (or any zip of class files). Entries under `META-INF/` (including the
/// versioned entries of multi-release jars) are skipped, and a `module-info.class` is not
/// used to hide packages: on the class path every package is visible.
pub fn read_jar(path: &Path) -> Result<RawArchive, ExtractError> {
    read_jar_data(path, &read_container(path)?)
}

fn read_jar_data(path: &Path, data: &[u8]) -> Result<RawArchive, ExtractError> {
    let select = |name: &str| {
        if name.ends_with(".class")
            && !name.starts_with("META-INF/")
            && !name.ends_with("module-info.class")
        {
            Some(Kind::Class)
        } else {
            None
        }
    };
    read_zip_data(path, data, &select)
}

/// The 4-byte header of a jmod file.
pub const JMOD_MAGIC: [u8; 4] = *b"JM\x01\x00";

/// Reads a jmod: a `JM\x01\x00` header, then zip data whose `classes/` folder holds the class
/// files; its `module-info` gives the exported packages.
pub fn read_jmod(path: &Path) -> Result<RawArchive, ExtractError> {
    read_jmod_data(path, &read_container(path)?)
}

fn read_jmod_data(path: &Path, data: &[u8]) -> Result<RawArchive, ExtractError> {
    if data.len() < 4 || data[..4] != JMOD_MAGIC {
        return Err(ExtractError::NotAnArchive {
            path: path.to_path_buf(),
            reason: "not a jmod file (no JM\\x01\\x00 header)".into(),
        });
    }
    let select = |name: &str| {
        let rest = name.strip_prefix("classes/")?;
        if rest == "module-info.class" {
            Some(Kind::ModuleInfo)
        } else if rest.ends_with(".class") && !rest.starts_with("META-INF/") {
            Some(Kind::Class)
        } else {
            None
        }
    };
    read_zip_data(path, &data[4..], &select)
}

/// Reads the `.class` files under a directory (a compiler's output folder). Symbolic links
/// are followed to regular files only (not to directories); a `.class` that is not a regular
/// file (a FIFO, a device, a socket) or is larger than [`MAX_CLASS_FILE_BYTES`] is a problem
/// naming it, not read.
pub fn read_dir(path: &Path) -> Result<RawArchive, ExtractError> {
    let mut items = Vec::new();
    let total = AtomicU64::new(0);
    for e in walkdir::WalkDir::new(path).sort_by_file_name() {
        let e = e.map_err(|e| ExtractError::Io {
            path: e.path().unwrap_or(path).to_path_buf(),
            source: e
                .into_io_error()
                .unwrap_or_else(|| std::io::Error::other("walk error")),
        })?;
        let p = e.path();
        if e.file_type().is_dir() || p.extension().is_none_or(|x| x != "class") {
            continue;
        }
        let entry = p
            .strip_prefix(path)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/");
        let kind = if entry == "module-info.class" {
            continue;
        } else {
            Kind::Class
        };
        let bytes = crate::files::read_regular(p, MAX_CLASS_FILE_BYTES, "MAX_CLASS_FILE_BYTES")
            .map_err(|e| e.reason())
            .and_then(|b| count_class_bytes(b, &total));
        items.push((entry, kind, bytes));
    }
    let mut out = RawArchive {
        path: path.to_path_buf(),
        ..RawArchive::default()
    };
    parse_all(path, items, &mut out);
    Ok(out)
}

/// Reads a jar, a jmod or a directory of class files, by looking at it.
pub fn read_path(path: &Path) -> Result<RawArchive, ExtractError> {
    if path.is_dir() {
        return read_dir(path);
    }
    let data = read_container(path)?;
    if data.starts_with(&JMOD_MAGIC) {
        read_jmod_data(path, &data)
    } else {
        read_jar_data(path, &data)
    }
}

/// The letter `ct.sym` uses for a Java release (`8` → `'8'`, `10` → `'A'`, `17` → `'H'`).
pub fn ct_sym_release_letter(release: u32) -> Option<char> {
    match release {
        0..=9 => char::from_digit(release, 10),
        10..=35 => char::from_u32('A' as u32 + release - 10),
        _ => None,
    }
}

/// Reads the classes of one earlier Java release from a JDK's `lib/ct.sym` (what
/// `javac --release N` compiles against). Entries are `<releases>/<module>/<path>.sig`, where
/// `<releases>` lists every release the file is valid for; only modules in `modules` are read
/// (all when empty). A JDK's `ct.sym` describes the releases before its own (the current
/// release comes from its runtime image).
pub fn read_ct_sym(
    ct_sym: &Path,
    release: u32,
    modules: &[&str],
) -> Result<RawArchive, ExtractError> {
    let letter = ct_sym_release_letter(release).ok_or_else(|| ExtractError::NotAnArchive {
        path: ct_sym.to_path_buf(),
        reason: format!("release {release} cannot be named in ct.sym"),
    })?;
    let data = read_container(ct_sym)?;
    let modules: Vec<String> = modules.iter().map(|m| m.to_string()).collect();
    let select = move |name: &str| {
        let (rels, rest) = name.split_once('/')?;
        if !rels.contains(letter) {
            return None;
        }
        let (module, file) = rest.split_once('/')?;
        if !modules.is_empty() && !modules.iter().any(|m| m == module) {
            return None;
        }
        if file == "module-info.sig" {
            Some(Kind::ModuleInfo)
        } else if file.ends_with(".sig") {
            Some(Kind::Class)
        } else {
            None
        }
    };
    read_zip_data(ct_sym, &data, &select)
}

/// A runtime-image entry: name, kind, and its byte range in the file (or why not).
type Located = (String, Kind, Result<(usize, usize), String>);

/// Reads classes of the given modules (all when empty) from a runtime image (`lib/modules`,
/// the jimage format of JDK 9+). Compressed resources (images made with
/// `jlink --compress`) are reported as problems, not read.
pub fn read_jimage(image: &Path, modules: &[&str]) -> Result<RawArchive, ExtractError> {
    use std::io::{Seek, SeekFrom};
    let bad = |reason: &str| ExtractError::NotAnArchive {
        path: image.to_path_buf(),
        reason: format!("not a jimage file: {reason}"),
    };
    let (mut file, _) = crate::files::open_regular(image).map_err(|e| match e {
        InputFileError::Io { path, source } => ExtractError::Io { path, source },
        other => bad(&other.reason()),
    })?;
    let mut head = [0u8; 28];
    file.read_exact(&mut head).map_err(|_| bad("too short"))?;
    let le = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) == 0xCAFE_DADA;
    let be = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) == 0xCAFE_DADA;
    if !le && !be {
        return Err(bad("bad magic"));
    }
    let u32_in = |data: &[u8], off: usize| -> Option<u32> {
        let b: [u8; 4] = data.get(off..off + 4)?.try_into().ok()?;
        Some(if le {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    };
    let field = |i: usize| u32_in(&head, i * 4).unwrap_or(0) as usize;
    let version = field(1);
    if version >> 16 != 1 {
        return Err(bad(&format!(
            "unsupported version {}.{}",
            version >> 16,
            version & 0xffff
        )));
    }
    let (table_len, locations_size, strings_size) = (field(4), field(5), field(6));
    let offsets_at = 28 + table_len * 4;
    let locations_at = offsets_at + table_len * 4;
    let strings_at = locations_at + locations_size;
    let index_size = strings_at + strings_size;
    let file_len = file.metadata().map_err(|e| io_err(image, e))?.len() as usize;
    if index_size > file_len {
        return Err(bad("index larger than the file"));
    }
    let mut index = vec![0u8; index_size];
    index[..28].copy_from_slice(&head);
    file.read_exact(&mut index[28..])
        .map_err(|e| io_err(image, e))?;
    let locations = &index[locations_at..strings_at];
    let strings = &index[strings_at..index_size];
    let string = |off: u64| -> Option<&str> {
        let s = strings.get(off as usize..)?;
        let end = s.iter().position(|&b| b == 0)?;
        std::str::from_utf8(&s[..end]).ok()
    };
    // (entry, kind, file range of the resource or why not)
    let mut found: Vec<Located> = Vec::new();
    for i in 0..table_len {
        let Some(loc_off) = u32_in(&index, offsets_at + i * 4) else {
            continue;
        };
        // attributes: a byte (kind << 3 | (len - 1)) then len big-endian value bytes
        let mut attrs = [0u64; 8];
        let mut p = loc_off as usize;
        while let Some(&b) = locations.get(p) {
            let kind = (b >> 3) as usize;
            if kind == 0 {
                break;
            }
            let len = (b & 7) as usize + 1;
            let mut v = 0u64;
            for j in 0..len {
                v = (v << 8) | *locations.get(p + 1 + j).unwrap_or(&0) as u64;
            }
            if kind < 8 {
                attrs[kind] = v;
            }
            p += 1 + len;
        }
        let (Some(module), Some(parent), Some(base), Some(ext)) = (
            string(attrs[1]),
            string(attrs[2]),
            string(attrs[3]),
            string(attrs[4]),
        ) else {
            continue;
        };
        if ext != "class" || module.is_empty() || module == "modules" || module == "packages" {
            continue;
        }
        if !modules.is_empty() && !modules.contains(&module) {
            continue;
        }
        let kind = if base == "module-info" && parent.is_empty() {
            Kind::ModuleInfo
        } else {
            Kind::Class
        };
        let entry = if parent.is_empty() {
            format!("/{module}/{base}.class")
        } else {
            format!("/{module}/{parent}/{base}.class")
        };
        let (offset, compressed, size) = (attrs[5] as usize, attrs[6] as usize, attrs[7] as usize);
        let range = if compressed != 0 {
            Err("compressed jimage resource (not supported)".to_string())
        } else if size as u64 > MAX_CLASS_FILE_BYTES {
            Err(format!(
                "a resource of {size} bytes, more than MAX_CLASS_FILE_BYTES = \
                 {MAX_CLASS_FILE_BYTES}"
            ))
        } else {
            match index_size.checked_add(offset) {
                Some(start) if start.checked_add(size).is_some_and(|e| e <= file_len) => {
                    Ok((start, size))
                }
                _ => Err("resource outside the image".to_string()),
            }
        };
        found.push((entry, kind, range));
    }
    // read the span holding the selected resources in one go
    let lo = found
        .iter()
        .filter_map(|f| f.2.as_ref().ok().map(|r| r.0))
        .min()
        .unwrap_or(0);
    let hi = found
        .iter()
        .filter_map(|f| f.2.as_ref().ok().map(|r| r.0 + r.1))
        .max()
        .unwrap_or(0);
    let mut span = vec![0u8; hi.saturating_sub(lo)];
    if !span.is_empty() {
        file.seek(SeekFrom::Start(lo as u64))
            .and_then(|_| file.read_exact(&mut span))
            .map_err(|e| io_err(image, e))?;
    }
    let mut items: Vec<(String, Kind, Result<Vec<u8>, String>)> = found
        .into_iter()
        .map(|(entry, kind, range)| {
            let bytes = range.map(|(start, size)| span[start - lo..start - lo + size].to_vec());
            (entry, kind, bytes)
        })
        .collect();
    // the image's table is in hash order: sort by entry for a stable, readable order
    items.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = RawArchive {
        path: image.to_path_buf(),
        ..RawArchive::default()
    };
    parse_all(image, items, &mut out);
    Ok(out)
}
