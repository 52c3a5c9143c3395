//! Where a SQLite store file lives: a read-only medium (a read-only mount, a snapshot, a CD) or a
//! directory this user cannot write is said as such before SQLite fails with a vaguer error, and
//! a read-only open there reads the file as immutable (SQLite's `immutable=1`), since SQLite cannot
//! create the WAL index (`-shm`) it would otherwise need beside it.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The directory holding `path` (`.` for a bare file name).
fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// True when the file system holding `path` is mounted read-only.
pub fn read_only_fs(path: &Path) -> bool {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated path; `st` is written by statvfs before being read.
    unsafe {
        let mut st: libc::statvfs = std::mem::zeroed();
        libc::statvfs(c.as_ptr(), &mut st) == 0 && st.f_flag & libc::ST_RDONLY != 0
    }
}

/// True when this process may write `path` (access(2) with the real ids).
fn writable(path: &Path) -> bool {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated path.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// Why a read-write open of the store at `path` cannot work, if it cannot: the store (or, for a
/// new store, its directory) is on a read-only file system, or not writable by this user.
pub fn unwritable(path: &Path) -> Option<String> {
    let dir = dir_of(path);
    let target = if path.exists() { path } else { dir.as_path() };
    if !target.exists() {
        return None; // SQLite names a missing directory itself.
    }
    if read_only_fs(target) {
        return Some(format!(
            "it is on a read-only file system ({} is mounted read-only); pass --readonly to read it",
            dir.display()
        ));
    }
    if !writable(target) {
        return Some(format!(
            "{} is not writable by this user; pass --readonly to read it",
            target.display()
        ));
    }
    // SQLite writes its journal and WAL index beside the file.
    if path.exists() && !writable(&dir) {
        return Some(format!(
            "its directory {} is not writable by this user (SQLite keeps its write-ahead log \
             beside the file); pass --readonly to read it",
            dir.display()
        ));
    }
    None
}

/// What a read-only open of the existing store at `path` should be given: `Ok(None)` = the path
/// itself (SQLite can keep its WAL index beside it), `Ok(Some(uri))` = an `immutable=1` URI (the
/// medium cannot hold a WAL index and no write-ahead log is pending), `Err` = why it cannot be read
/// here (a write-ahead log that only a writable copy could replay).
pub fn readonly_target(path: &Path) -> Result<Option<String>, String> {
    let dir = dir_of(path);
    let with = |ext: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(ext);
        PathBuf::from(p)
    };
    let (wal, shm) = (with("-wal"), with("-shm"));
    if shm.exists() || (writable(&dir) && !read_only_fs(&dir)) {
        return Ok(None);
    }
    if wal.metadata().is_ok_and(|m| m.len() > 0) {
        return Err(format!(
            "{} holds changes not yet written into the store, and its medium is read-only, so \
             they cannot be replayed here; copy the store with its -wal file to writable storage",
            wal.display()
        ));
    }
    let abs = std::path::absolute(path).map_err(|e| e.to_string())?;
    Ok(Some(format!("file:{}?immutable=1", uri_path(&abs))))
}

/// `path` percent-encoded for a `file:` URI (everything but unreserved characters and `/`).
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(*b))
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_paths_escape_what_a_uri_would_misread() {
        assert_eq!(
            uri_path(Path::new("/a b/x?y#z%.db")),
            "/a%20b/x%3Fy%23z%25.db"
        );
    }

    #[test]
    fn a_writable_directory_needs_nothing_special() {
        let d = tempfile::tempdir().unwrap();
        let db = d.path().join("s.db");
        std::fs::write(&db, b"").unwrap();
        assert_eq!(unwritable(&db), None);
        assert_eq!(readonly_target(&db), Ok(None));
    }
}
