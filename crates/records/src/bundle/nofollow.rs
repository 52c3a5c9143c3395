//! Reading input (task files, bundle files) without ever following a symbolic link.
//!
//! Bundles and task files come from other people. A `reward.py` that is a link to `/etc/shadow`, a
//! `config.json` pointing at `../../secret`, a FIFO that blocks the reader: each is refused with an
//! error naming the path and what it is, before a byte is read. Files are opened with `O_NOFOLLOW`
//! and checked on the open descriptor, so swapping a file for a link between the check and the read
//! does not help either.

use std::fs::{File, Metadata};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

use super::sizes::{self, Limit, TextError};

/// What is wrong with an input path.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Nothing there.
    #[error("no such file")]
    NotFound,
    /// A link, a directory, a device…: never read.
    #[error("{0}")]
    Refused(String),
    /// Reading failed.
    #[error("cannot read: {0}")]
    Io(std::io::Error),
    /// Too large, or not UTF-8 (with where).
    #[error("{0}")]
    Text(TextError),
}

impl From<TextError> for InputError {
    fn from(e: TextError) -> Self {
        match e {
            TextError::Io(e) => Self::Io(e),
            e => Self::Text(e),
        }
    }
}

/// Names what kind of thing `meta` describes, for an error message.
fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// Why `path` (already `lstat`ed as `meta`) may not be read, if it may not.
pub fn refusal(path: &Path, meta: &Metadata) -> Option<String> {
    if meta.file_type().is_file() {
        return None;
    }
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path)
            .map(|t| format!(" (to {})", t.display()))
            .unwrap_or_default();
        return Some(format!(
            "is a symbolic link{target}; links are refused, never followed"
        ));
    }
    Some(format!("is {}, not a regular file; refused", kind(meta)))
}

/// Opens `path` for reading if it is a regular file and not a link.
pub fn open_regular(path: &Path) -> Result<File, InputError> {
    let meta = match path.symlink_metadata() {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(InputError::NotFound),
        Err(e) => return Err(InputError::Io(e)),
    };
    if let Some(why) = refusal(path, &meta) {
        return Err(InputError::Refused(why));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => InputError::Refused(
                "became a symbolic link while being opened; refused".to_string(),
            ),
            _ => InputError::Io(e),
        })?;
    // The descriptor is what gets read: check it, not the name.
    let meta = file.metadata().map_err(InputError::Io)?;
    if !meta.file_type().is_file() {
        return Err(InputError::Refused(format!(
            "is {}, not a regular file; refused",
            kind(&meta)
        )));
    }
    Ok(file)
}

/// Reads `path` as UTF-8 text if it is a regular file, not a link, and not over the task-file
/// limit ([`sizes::TASK_FILE`]).
pub fn read_regular(path: &Path) -> Result<String, InputError> {
    read_limited(path, sizes::TASK_FILE)
}

/// Reads `path` as UTF-8 text if it is a regular file and not a link, refusing it from its
/// metadata, before reading, when it is over `limit`.
pub fn read_limited(path: &Path, limit: Limit) -> Result<String, InputError> {
    let file = open_regular(path)?;
    let size = file.metadata().map_err(InputError::Io)?.len();
    sizes::check(size, limit)?;
    Ok(sizes::read_text(file, limit)?)
}

/// Every entry under `dir` (not `dir` itself) that is neither a regular file nor a directory,
/// with why it is refused: a bundle holding one is refused as a whole.
pub fn foreign_entries(dir: &Path) -> Vec<(std::path::PathBuf, String)> {
    let mut bad = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .min_depth(1)
        .follow_links(false)
        .sort_by_file_name()
    {
        match entry {
            Ok(e) if e.file_type().is_dir() || e.file_type().is_file() => {}
            Ok(e) => {
                let why = e
                    .path()
                    .symlink_metadata()
                    .ok()
                    .and_then(|m| refusal(e.path(), &m))
                    .unwrap_or_else(|| "is not a regular file; refused".to_string());
                bad.push((e.path().to_path_buf(), why));
            }
            Err(e) => bad.push((
                e.path().map(Path::to_path_buf).unwrap_or_default(),
                e.to_string(),
            )),
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_fifos_and_directories_are_refused_and_named() {
        let d = tempfile::tempdir().unwrap();
        let secret = d.path().join("secret");
        std::fs::write(&secret, "TOP SECRET").unwrap();
        let link = d.path().join("reward.py");
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_regular(&link).unwrap_err().to_string();
        assert!(e.contains("symbolic link") && e.contains("secret"), "{e}");
        assert!(!e.contains("TOP SECRET"));
        // A FIFO would block a plain read forever.
        let e = read_regular(&fifo).unwrap_err().to_string();
        assert!(e.contains("FIFO"), "{e}");
        let e = read_regular(d.path()).unwrap_err().to_string();
        assert!(e.contains("directory"), "{e}");
        assert!(matches!(
            read_regular(&d.path().join("nope")),
            Err(InputError::NotFound)
        ));
        assert_eq!(read_regular(&secret).unwrap(), "TOP SECRET");
        let bad = foreign_entries(d.path());
        let names: Vec<_> = bad.iter().map(|(p, _)| p.file_name().unwrap()).collect();
        assert_eq!(names, ["fifo", "reward.py"]);
    }
}
