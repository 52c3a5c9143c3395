//! The files desktop domain: provisions a fresh per-environment home directory from the seed
//! tree (`assets/apps/files/home/`, embedded), or from an override directory.

use std::path::{Path, PathBuf};

use super::EnvError;

macro_rules! seed_files {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_bytes!(concat!("../../../assets/apps/files/home/", $path)) as &[u8])),*]
    };
}

/// The embedded seed home: (relative path, contents).
pub const SEED_HOME: &[(&str, &[u8])] = seed_files![
    "Documents/meeting-notes-2026-03-02.md",
    "Documents/project-plan.md",
    "Documents/budget-q1.csv",
    "Documents/vendors.json",
    "Documents/reports/sales-2025.csv",
    "Documents/reports/summary.md",
    "Downloads/invoice-10442.txt",
    "Downloads/customers-export.csv",
    "Desktop/todo.md",
    "Desktop/contacts.csv",
    "Pictures/README.md",
    "Projects/website/config.json",
    "Projects/website/CHANGELOG.md",
    "Projects/analytics/events.json",
    ".config/app-settings.json",
];

/// Creates `dest` (which must not exist) holding the seed home; built in a temp sibling and
/// renamed into place, so `dest` is either complete or absent. With `override_dir`, that
/// directory's tree is copied instead of the embedded one. Returns the number of files.
pub fn provision_home(dest: &Path, override_dir: Option<&Path>) -> Result<usize, EnvError> {
    if dest.exists() {
        return Err(EnvError::io(
            "provision home",
            dest,
            std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "destination already exists",
            ),
        ));
    }
    let parent = dest
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| EnvError::io("create directory", parent, e))?;
    let tmp = tempfile::Builder::new()
        .prefix(".home-provision-")
        .tempdir_in(parent)
        .map_err(|e| EnvError::io("create temp directory in", parent, e))?;
    let count = match override_dir {
        Some(src) => copy_tree(src, tmp.path())?,
        None => {
            for (rel, data) in SEED_HOME {
                let path = tmp.path().join(rel);
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| EnvError::io("create directory", dir, e))?;
                }
                std::fs::write(&path, data).map_err(|e| EnvError::io("write", &path, e))?;
            }
            SEED_HOME.len()
        }
    };
    let tmp_path: PathBuf = tmp.keep();
    std::fs::rename(&tmp_path, dest).map_err(|e| {
        let _ = std::fs::remove_dir_all(&tmp_path);
        EnvError::io("rename provisioned home to", dest, e)
    })?;
    Ok(count)
}

fn copy_tree(src: &Path, dst: &Path) -> Result<usize, EnvError> {
    let mut count = 0;
    for entry in walkdir::WalkDir::new(src).follow_links(false) {
        let entry = entry.map_err(|e| EnvError::io("walk", src, std::io::Error::other(e)))?;
        let rel = entry.path().strip_prefix(src).unwrap_or(entry.path());
        let target = dst.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)
                .map_err(|e| EnvError::io("create directory", &target, e))?;
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target)
                .map_err(|e| EnvError::io("copy to", &target, e))?;
            count += 1;
        }
    }
    Ok(count)
}
