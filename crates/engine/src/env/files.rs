//! The files desktop domain: provisions a fresh per-environment home directory from the seed
//! tree (the desktop pack's `home/`, embedded), or from an override directory.

use std::path::{Path, PathBuf};

use super::EnvError;

/// The embedded seed home of the built-in desktop pack: (relative path, contents).
pub fn seed_home() -> &'static [(&'static str, &'static [u8])] {
    crate::apps::desktop().map(|p| p.app.home()).unwrap_or(&[])
}

/// Creates `dest` (which must not exist) holding the seed home; built in a temp sibling and
/// renamed into place, so `dest` is either complete or absent. With `override_dir`, that
/// directory's tree is copied instead of the embedded one. Returns the number of files.
pub fn provision_home(dest: &Path, override_dir: Option<&Path>) -> Result<usize, EnvError> {
    provision(dest, override_dir, &[seed_home()])
}

/// The seed homes of the desktop packs among `apps` (the files desktop's, a desktop
/// application's documents), in the order given; a later pack's file replaces an earlier one's.
pub fn seeds_of(apps: &[String]) -> Vec<&'static [(&'static str, &'static [u8])]> {
    apps.iter()
        .filter_map(|a| crate::apps::get(a))
        .filter(|p| p.is_desktop())
        .map(|p| p.app.home())
        .collect()
}

/// [`provision_home`] from the seed homes of the desktop packs among `apps` ([`seeds_of`]).
pub fn provision_home_for(dest: &Path, apps: &[String]) -> Result<usize, EnvError> {
    provision(dest, None, &seeds_of(apps))
}

fn provision(
    dest: &Path,
    override_dir: Option<&Path>,
    seeds: &[&[(&str, &[u8])]],
) -> Result<usize, EnvError> {
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
            let mut n = 0;
            for (rel, data) in seeds.iter().flat_map(|s| s.iter()) {
                let path = tmp.path().join(rel);
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| EnvError::io("create directory", dir, e))?;
                }
                std::fs::write(&path, data).map_err(|e| EnvError::io("write", &path, e))?;
                n += 1;
            }
            n
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
