//! Checking that a downloaded jar is a whole zip archive (not truncated, not an error page),
//! also where the `zip` crate refuses an archive that Java, `unzip` and Maven read: the crate
//! rejects, for example, an Info-ZIP Unicode Path extra field (`0x7075`) whose checksum does not
//! match the entry's name (jna 5.6.0, a dependency of kotlinc before 1.9, has one), and reports it
//! as "Could not find EOCD". Such an archive is checked by its layout instead: the end of
//! central directory record, every central directory entry and every local header where the
//! central directory says it is.

use std::path::Path;

/// Size of the end of central directory record without its comment.
const EOCD_LEN: usize = 22;
/// The largest comment an end of central directory record can carry.
const MAX_COMMENT: usize = 0xFFFF;
/// Size of a central directory entry's fixed part.
const CD_ENTRY_LEN: usize = 46;
/// Size of a local file header's fixed part.
const LOCAL_LEN: usize = 30;
/// Size of the ZIP64 end of central directory locator.
const ZIP64_LOCATOR_LEN: usize = 20;

/// Checks that `path` is a whole zip archive: the `zip` crate reads its central directory and
/// every entry's header, or, where the crate refuses it, its layout is intact.
pub(crate) fn check_zip(path: &Path) -> Result<(), String> {
    let f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let crate_error = match zip::ZipArchive::new(f) {
        Ok(mut z) => {
            let mut failed = None;
            for i in 0..z.len() {
                if let Err(e) = z.by_index_raw(i) {
                    failed = Some(e.to_string());
                    break;
                }
            }
            match failed {
                None => return Ok(()),
                Some(e) => e,
            }
        }
        Err(e) => e.to_string(),
    };
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    check_layout(&bytes).map_err(|layout| format!("{crate_error} ({layout})"))
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    b.get(at..at + 2)
        .map(|s| usize::from(u16::from_le_bytes([s[0], s[1]])))
}

fn u32_at(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 4)
        .map(|s| u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]])))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    let s = b.get(at..at + 8)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(s);
    Some(u64::from_le_bytes(a))
}

/// Checks a zip archive's layout: the end of central directory record (ZIP64 too), every
/// central directory entry within the directory, and every entry's local header and data
/// within the file.
pub(crate) fn check_layout(b: &[u8]) -> Result<(), String> {
    let len = b.len();
    if len < EOCD_LEN {
        return Err("too short to be a zip archive".into());
    }
    // the end of central directory record: the last signature whose comment ends the file
    let lowest = len.saturating_sub(EOCD_LEN + MAX_COMMENT);
    let eocd = (lowest..=len - EOCD_LEN)
        .rev()
        .find(|&i| {
            b[i..i + 4] == *b"PK\x05\x06"
                && u16_at(b, i + 20).is_some_and(|c| i + EOCD_LEN + c == len)
        })
        .ok_or("no end of central directory record at the end of the file")?;
    let field = |at: usize| u32_at(b, eocd + at).ok_or("cut end of central directory record");
    let mut entries = u16_at(b, eocd + 10).ok_or("cut end of central directory record")? as u64;
    let mut cd_size = field(12)?;
    let mut cd_offset = field(16)?;
    if entries == 0xFFFF || cd_size == 0xFFFF_FFFF || cd_offset == 0xFFFF_FFFF {
        let loc = eocd
            .checked_sub(ZIP64_LOCATOR_LEN)
            .filter(|&l| b[l..l + 4] == *b"PK\x06\x07")
            .ok_or("no ZIP64 end of central directory locator")?;
        let z64 = u64_at(b, loc + 8).ok_or("cut ZIP64 locator")? as usize;
        if b.get(z64..z64 + 4) != Some(b"PK\x06\x06".as_slice()) {
            return Err("no ZIP64 end of central directory record where its locator says".into());
        }
        entries = u64_at(b, z64 + 32).ok_or("cut ZIP64 record")?;
        cd_size = u64_at(b, z64 + 40).ok_or("cut ZIP64 record")?;
        cd_offset = u64_at(b, z64 + 48).ok_or("cut ZIP64 record")?;
    }
    let cd_end = cd_offset
        .checked_add(cd_size)
        .filter(|&e| e <= eocd as u64)
        .ok_or("the central directory lies beyond the end of the file")?;
    let (mut at, cd_end) = (cd_offset as usize, cd_end as usize);
    let mut seen = 0u64;
    while at < cd_end {
        if b.get(at..at + 4) != Some(b"PK\x01\x02".as_slice()) || at + CD_ENTRY_LEN > cd_end {
            return Err(format!("central directory entry {seen} is damaged"));
        }
        let num = |o: usize| u32_at(b, at + o).unwrap_or(0);
        let short = |o: usize| u16_at(b, at + o).unwrap_or(0);
        let (compressed, local) = (num(20), num(42));
        let (name, extra, comment) = (short(28), short(30), short(32));
        let next = at + CD_ENTRY_LEN + name + extra + comment;
        if next > cd_end {
            return Err(format!(
                "central directory entry {seen} runs past the directory"
            ));
        }
        // ZIP64 sizes and offsets live in the extra field; the local header is checked
        // wherever the 32-bit fields are real
        if local != 0xFFFF_FFFF {
            let l = local as usize;
            if b.get(l..l + 4) != Some(b"PK\x03\x04".as_slice()) {
                return Err(format!("entry {seen} has no local header at offset {l}"));
            }
            let lname = u16_at(b, l + 26).ok_or("cut local header")?;
            let lextra = u16_at(b, l + 28).ok_or("cut local header")?;
            let data = l + LOCAL_LEN + lname + lextra;
            if compressed != 0xFFFF_FFFF && data as u64 + compressed > cd_offset {
                return Err(format!(
                    "entry {seen}'s data runs past the central directory"
                ));
            }
        }
        at = next;
        seen += 1;
    }
    if seen != entries {
        return Err(format!(
            "the central directory holds {seen} entries, the end record says {entries}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored one-entry archive `a/b/lib.so` = `hello`, with a Unicode Path extra field
    /// (`0x7075`) naming `lib.so` whose name checksum is wrong when `bad_crc`.
    pub(crate) fn archive(bad_crc: bool) -> Vec<u8> {
        let name = b"a/b/lib.so";
        let data = b"hello";
        let crc_data: u32 = 0x3610_a686; // CRC-32 of "hello"
        let crc_name: u32 = if bad_crc { 12345 } else { crc32(name) };
        let mut extra = vec![0x75, 0x70];
        extra.extend_from_slice(&(5u16 + 6).to_le_bytes());
        extra.push(1);
        extra.extend_from_slice(&crc_name.to_le_bytes());
        extra.extend_from_slice(b"lib.so");
        let mut out = Vec::new();
        let header = |sig: &[u8], out: &mut Vec<u8>, central: bool| {
            out.extend_from_slice(sig);
            if central {
                out.extend_from_slice(&0x0314u16.to_le_bytes()); // made by: Unix, 2.0
            }
            out.extend_from_slice(&20u16.to_le_bytes()); // needed
            out.extend_from_slice(&0u16.to_le_bytes()); // flags
            out.extend_from_slice(&0u16.to_le_bytes()); // stored
            out.extend_from_slice(&0x0021_0000u32.to_le_bytes()); // time, date (1980-01-01)
            out.extend_from_slice(&crc_data.to_le_bytes());
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&(extra.len() as u16).to_le_bytes());
            if central {
                out.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
                out.extend_from_slice(&0u32.to_le_bytes()); // external attributes
                out.extend_from_slice(&0u32.to_le_bytes()); // local header offset
            }
            out.extend_from_slice(name);
            out.extend_from_slice(&extra);
        };
        header(b"PK\x03\x04", &mut out, false);
        out.extend_from_slice(data);
        let cd = out.len();
        header(b"PK\x01\x02", &mut out, true);
        let cd_size = out.len() - cd;
        out.extend_from_slice(b"PK\x05\x06");
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&(cd_size as u32).to_le_bytes());
        out.extend_from_slice(&(cd as u32).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn the_zip_crate_refuses_a_unicode_path_field_with_a_wrong_checksum_and_the_layout_passes() {
        let bad = archive(true);
        let good = archive(false);
        assert!(zip::ZipArchive::new(std::io::Cursor::new(good.clone())).is_ok());
        assert!(
            zip::ZipArchive::new(std::io::Cursor::new(bad.clone())).is_err(),
            "the crate reads it now: the layout fallback may no longer be needed"
        );
        assert_eq!(check_layout(&bad), Ok(()));
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("jna-like.jar");
        std::fs::write(&p, &bad).expect("write");
        assert_eq!(check_zip(&p), Ok(()));
    }

    #[test]
    fn a_cut_or_damaged_archive_fails_the_layout_check() {
        let bad = archive(true);
        for cut in [1, 10, 22, bad.len() / 2] {
            assert!(check_layout(&bad[..bad.len() - cut]).is_err(), "cut {cut}");
        }
        let mut damaged = bad.clone();
        damaged[0] = b'X'; // the local header's signature
        assert!(check_layout(&damaged).is_err());
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("cut.jar");
        std::fs::write(&p, &bad[..bad.len() - 5]).expect("write");
        assert!(check_zip(&p).is_err());
    }
}
