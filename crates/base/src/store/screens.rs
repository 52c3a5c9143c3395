//! The screenshot directory beside the store file: `<store>.screens/<aa>/<sha256>.png`.
//!
//! Screenshots are kept out of the SQLite file (measured in docs/screens.md: a 100-step trial
//! inserts faster and the database stays small, so scans, backups and the WAL do not carry
//! megabytes of PNG). A file is written to a temporary name, fsynced and renamed into place (and
//! flushed) *before* the row naming it commits; a row is deleted *before* its file.
//! Both happen while holding the store's write lock, so a concurrent writer and a collector never
//! race, and a crash leaves at worst an unreferenced file that [`super::Store::gc_screenshots`]
//! removes.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::{Result, StoreError};

/// Where a store keeps its screenshots.
#[derive(Debug, Clone)]
pub struct ScreenshotDir {
    root: PathBuf,
}

/// Whether `sha` is a lower-case hex sha256 (never a path a tampered row could smuggle in).
fn valid_sha(sha: &str) -> bool {
    sha.len() == 64 && sha.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn io<'p>(what: &str, path: &'p Path) -> impl FnOnce(std::io::Error) -> StoreError + 'p {
    let what = what.to_string();
    move |e| StoreError::Invalid(format!("{what} {}: {e}", path.display()))
}

impl ScreenshotDir {
    /// The directory beside the store file `store` (`<store>.screens`).
    pub(super) fn beside(store: &Path) -> Self {
        let mut name = store.as_os_str().to_os_string();
        name.push(".screens");
        ScreenshotDir {
            root: PathBuf::from(name),
        }
    }

    /// The directory `root` (a PostgreSQL store has no file to sit beside).
    pub(super) fn at(root: PathBuf) -> Self {
        ScreenshotDir { root }
    }

    /// The directory itself (it may not exist yet).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file of screenshot `sha`.
    pub fn path_of(&self, sha: &str) -> Result<PathBuf> {
        if !valid_sha(sha) {
            return Err(StoreError::Invalid(format!(
                "screenshot key `{sha}` is not a sha256"
            )));
        }
        Ok(self.root.join(&sha[..2]).join(format!("{sha}.png")))
    }

    /// Makes sure the file of each `(sha, png)` holds its bytes: complete existing files are kept
    /// (content addressed); the others are written to temporary names, flushed, renamed into
    /// place and the renames flushed — all before this returns. The flushes are one `syncfs(2)`
    /// per batch rather than an `fsync` per file and directory (measured: 100 new 100 KiB
    /// screenshots in ≈ 60 ms instead of ≈ 1.1 s). Returns how many files were written.
    pub(super) fn put_all(&self, items: &[(&str, &[u8])]) -> Result<usize> {
        let mut pending = Vec::new();
        for (sha, png) in items {
            let path = self.path_of(sha)?;
            if std::fs::metadata(&path).is_ok_and(|m| m.len() == png.len() as u64) {
                continue;
            }
            let dir = path.parent().unwrap_or(&self.root).to_path_buf();
            std::fs::create_dir_all(&dir).map_err(io("creating", &dir))?;
            let mut tmp = tempfile::Builder::new()
                .prefix(".tmp-")
                .suffix(".png")
                .tempfile_in(&dir)
                .map_err(io("creating a temporary file in", &dir))?;
            tmp.write_all(png).map_err(io("writing", tmp.path()))?;
            pending.push((tmp, path));
        }
        if pending.is_empty() {
            return Ok(0);
        }
        self.sync()?;
        let n = pending.len();
        for (tmp, path) in pending {
            tmp.persist(&path).map_err(|e| {
                StoreError::Invalid(format!("renaming into {}: {e}", path.display()))
            })?;
        }
        self.sync()?;
        Ok(n)
    }

    /// Flushes the file system holding the directory (data and metadata) to the disk.
    fn sync(&self) -> Result<()> {
        let dir = std::fs::File::open(&self.root).map_err(io("opening", &self.root))?;
        // SAFETY: syncfs only reads the descriptor, which `dir` keeps open for the call.
        if unsafe { libc::syncfs(std::os::fd::AsRawFd::as_raw_fd(&dir)) } != 0 {
            return Err(io("syncing the file system of", &self.root)(
                std::io::Error::last_os_error(),
            ));
        }
        Ok(())
    }

    /// The PNG bytes of `sha`.
    pub(super) fn read(&self, sha: &str) -> Result<Vec<u8>> {
        let path = self.path_of(sha)?;
        std::fs::read(&path).map_err(io("reading screenshot", &path))
    }

    /// Deletes the file of `sha`; a file already gone is fine.
    pub(super) fn remove(&self, sha: &str) -> Result<bool> {
        let path = self.path_of(sha)?;
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io("deleting", &path)(e)),
        }
    }

    /// Every file under the directory: `Ok(sha)` for a screenshot, `Err(path)` for anything else
    /// (a temporary file left by a crash).
    pub(super) fn entries(&self) -> Result<Vec<std::result::Result<String, PathBuf>>> {
        let mut out = Vec::new();
        if !self.root.exists() {
            return Ok(out);
        }
        for e in walkdir::WalkDir::new(&self.root).min_depth(1) {
            let e = e.map_err(|e| StoreError::Invalid(format!("listing screenshots: {e}")))?;
            if !e.file_type().is_file() {
                continue;
            }
            let name = e.file_name().to_string_lossy();
            match name.strip_suffix(".png").filter(|s| valid_sha(s)) {
                Some(sha) => out.push(Ok(sha.to_string())),
                None => out.push(Err(e.path().to_path_buf())),
            }
        }
        Ok(out)
    }
}
