//! One more cold start for an environment whose application never showed its document
//! ([`ScreenError::DocumentNotShown`]: a load that stalled on `Untitled 1` or an empty viewer).
//! The failed screen's programs are dead by then (dropping a screen kills and reaps them), and
//! what they wrote into the home — LibreOffice's `.~lock.<file>#` beside each document it
//! began to open, which would greet the next start with a "document in use" dialog — is
//! removed: the home is as the task's setup left it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::screen::ScreenError;

/// The files and folders under `home` (relative paths), to tell later what a start added.
pub fn listing(home: &Path) -> BTreeSet<PathBuf> {
    walkdir::WalkDir::new(home)
        .min_depth(1)
        .into_iter()
        .flatten()
        .filter_map(|e| e.path().strip_prefix(home).ok().map(Path::to_path_buf))
        .collect()
}

/// Removes what is under `home` now and was not in `before` (deepest first); entries that
/// cannot be removed are an error naming them: the home would not be the task's.
pub fn remove_added(home: &Path, before: &BTreeSet<PathBuf>) -> Result<(), ScreenError> {
    let added: Vec<PathBuf> = listing(home)
        .into_iter()
        .filter(|p| !before.iter().any(|b| b == p))
        .collect();
    // A folder the start made is removed with what is in it; its entries come after it.
    for rel in added.iter().rev() {
        let path = home.join(rel);
        let gone = match path.symlink_metadata() {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path),
            Ok(_) => std::fs::remove_file(&path),
            Err(_) => Ok(()),
        };
        gone.map_err(|e| {
            ScreenError::Io(format!(
                "removing {} that a failed start wrote into the home: {e}",
                path.display()
            ))
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_failed_start_wrote_is_removed_and_the_tasks_files_stay() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        std::fs::create_dir_all(h.join("Documents")).unwrap();
        std::fs::write(h.join("Documents/q3.xlsx"), b"book").unwrap();
        let before = listing(h);
        std::fs::write(h.join("Documents/.~lock.q3.xlsx#"), b"lock").unwrap();
        std::fs::create_dir_all(h.join(".cache/app/deep")).unwrap();
        std::fs::write(h.join(".cache/app/deep/x"), b"x").unwrap();
        remove_added(h, &before).unwrap();
        assert_eq!(listing(h), before);
        assert_eq!(std::fs::read(h.join("Documents/q3.xlsx")).unwrap(), b"book");
    }
}
