//! Uploaded files of a session: safe stored names, atomic writes, content types.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::EnvError;

/// One stored upload, as reported by `POST /upload`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct UploadedFile {
    /// The name the client sent.
    pub original_name: String,
    /// The name it is stored and served under.
    pub stored_name: String,
    /// Size in bytes.
    pub size: u64,
    /// The content type the client sent (or guessed from the extension).
    pub content_type: String,
    /// Where it is served: `/files/<sid>/<stored_name>`.
    pub url: String,
}

/// Makes a stored name: a random prefix plus the original's base name reduced to
/// `[A-Za-z0-9._-]`, without leading dots, at most 100 characters.
pub fn stored_name(original: &str) -> String {
    let base = original.rsplit(['/', '\\']).next().unwrap_or_default();
    let mut clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    clean = clean.trim_start_matches('.').chars().take(100).collect();
    if clean.is_empty() {
        clean = "file".into();
    }
    let prefix = &uuid::Uuid::new_v4().simple().to_string()[..8];
    format!("{prefix}_{clean}")
}

/// Checks a name requested under `/files/<sid>/`: `[A-Za-z0-9._-]`, no leading dot.
pub fn validate_name(name: &str) -> Result<(), EnvError> {
    let ok = !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(EnvError::InvalidFileName(name.chars().take(160).collect()))
    }
}

/// Writes `data` to `dir/<name>` through a temp file and a rename.
pub fn write_atomic(dir: &Path, name: &str, data: &[u8]) -> Result<PathBuf, EnvError> {
    std::fs::create_dir_all(dir).map_err(|e| EnvError::io("create directory", dir, e))?;
    let dest = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        std::fs::rename(&tmp, &dest)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        EnvError::io("write upload", &dest, e)
    })?;
    Ok(dest)
}

/// A content type from a file extension (small table; `application/octet-stream` otherwise).
pub fn guess_content_type(name: &str) -> &'static str {
    let ext = name
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match ext.as_str() {
        "json" => "application/json",
        "csv" => "text/csv",
        "txt" | "log" => "text/plain; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "html" | "htm" => "text/html; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "pdf" => "application/pdf", // not the app: a file extension
        "zip" => "application/zip",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_names_are_safe() {
        for bad in [
            "../../etc/passwd",
            "..",
            ".hidden",
            "a b/c?.txt",
            "",
            "C:\\x\\y.pdf",
        ] {
            let n = stored_name(bad);
            assert!(validate_name(&n).is_ok(), "{bad:?} -> {n:?}");
            assert!(!n.contains('/') && !n.contains(".."), "{n}");
        }
        assert!(stored_name("report.pdf").ends_with("_report.pdf"));
        assert!(validate_name("..").is_err());
        assert!(validate_name("a/b").is_err());
    }
}
