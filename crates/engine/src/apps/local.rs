//! Local packs: spec-built apps loaded when tuplewright starts, from the folders named by
//! `[apps] packs` in `tuplewright.toml` (default: `apps/` beside the config file, if present).
//! Where data suffices the pack is data: a folder holding `app.spec.toml` and its seed is a whole
//! environment — no Rust, no registry line, no rebuild. Every derived file (manifest, taxonomy,
//! SKILL.md, tasks) is derived in memory exactly as `tuplewright envgen compile` writes it, so a
//! local pack never runs on stale derived files; a pack whose spec keeps its curated tasks
//! (`derive_tasks = false`) reads its `tasks.json`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::spec_pack::SpecPack;
use super::App;
use crate::envgen::SpecError;

/// The local packs and their folders (absolute), set once before the registry is first read.
static LOCAL: OnceLock<(Vec<&'static dyn App>, Vec<PathBuf>)> = OnceLock::new();

/// The environment variable naming local pack folders (`std::env::split_paths` syntax); when
/// set it replaces `[apps] packs`. `apps check` passes the packs to the processes it starts so.
pub const PACKS_ENV: &str = "TUPLEWRIGHT_PACKS";

/// Why the local packs could not be loaded (the command stops: a configured environment is never
/// silently left out).
#[derive(Debug, thiserror::Error)]
pub enum LocalPackError {
    /// A configured folder does not exist or cannot be listed.
    #[error("[apps] packs: folder {path}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A pack's file could not be read.
    #[error("local pack {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A pack's spec or seed is refused (the error names the file and line).
    #[error("local pack {dir}")]
    Spec {
        /// The pack folder.
        dir: PathBuf,
        /// The refusal.
        source: SpecError,
    },
    /// The derived manifest does not parse (a defect of `envgen`'s derivation).
    #[error("local pack {dir}: derived manifest.toml: {detail}")]
    Manifest {
        /// The pack folder.
        dir: PathBuf,
        /// The parse error.
        detail: String,
    },
    /// Two packs (or a pack and a built-in app) share a name or an alias.
    #[error("local pack {dir}: app name or alias {name:?} is already taken by {other}")]
    Duplicate {
        /// The pack folder loaded second.
        dir: PathBuf,
        /// The shared name.
        name: String,
        /// The folder (or built-in pack) that has it.
        other: String,
    },
    /// The registry was read before the local packs were loaded (a defect in the caller).
    #[error("local packs must be loaded before the app registry is first used")]
    TooLate,
}

/// The local packs loaded so far (none until [`load`] ran).
pub(super) fn loaded() -> &'static [&'static dyn App] {
    LOCAL.get().map(|(p, _)| p.as_slice()).unwrap_or(&[])
}

/// The folders of the loaded local packs (absolute), for a child process's [`PACKS_ENV`].
pub fn loaded_dirs() -> &'static [PathBuf] {
    LOCAL.get().map(|(_, d)| d.as_slice()).unwrap_or(&[])
}

/// The pack folders under `dirs`: each entry is a pack (it holds `app.spec.toml`) or a folder of
/// packs (its sub-folders holding one), in name order. `required` entries must exist.
pub fn pack_dirs(dirs: &[(PathBuf, bool)]) -> Result<Vec<PathBuf>, LocalPackError> {
    let mut out = Vec::new();
    for (dir, required) in dirs {
        if dir.join("app.spec.toml").is_file() {
            out.push(dir.clone());
            continue;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(source) => {
                return Err(LocalPackError::Folder {
                    path: dir.clone(),
                    source,
                })
            }
        };
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("app.spec.toml").is_file())
            .collect();
        found.sort();
        out.extend(found);
    }
    Ok(out)
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn read(path: &Path) -> Result<String, LocalPackError> {
    std::fs::read_to_string(path).map_err(|source| LocalPackError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads and derives the pack in `dir` (nothing is registered).
pub fn read_pack(dir: &Path) -> Result<SpecPack, LocalPackError> {
    let spec_err = |source| LocalPackError::Spec {
        dir: dir.to_path_buf(),
        source,
    };
    let (model, seed) = crate::envgen::compile::load_dir(dir).map_err(spec_err)?;
    let derived = crate::envgen::derive::files(&model, &seed);
    let get = |name: &str| -> Result<&'static str, LocalPackError> {
        match derived.iter().find(|(n, _)| *n == name) {
            Some((_, text)) => Ok(leak(text.clone())),
            None => read(&dir.join(name)).map(leak),
        }
    };
    Ok(SpecPack {
        dir: leak(dir.display().to_string()),
        spec: leak(read(&dir.join("app.spec.toml"))?),
        seed: leak(read(&dir.join(&model.spec.app.seed))?),
        manifest: get("manifest.toml")?,
        tasks: get("tasks.json")?,
        skill: get("SKILL.md")?,
        taxonomy: get("taxonomy.toml")?,
        local: true,
        built: OnceLock::new(),
    })
}

/// Loads every pack under `dirs` (see [`pack_dirs`]) into the registry; returns their names.
/// Call once, before anything reads the registry.
pub fn load(dirs: &[(PathBuf, bool)]) -> Result<Vec<String>, LocalPackError> {
    // (pack, its name then aliases, its folder)
    let mut packs: Vec<(&'static dyn App, Vec<String>, PathBuf)> = Vec::new();
    for dir in pack_dirs(dirs)? {
        let pack: &'static SpecPack = Box::leak(Box::new(read_pack(&dir)?));
        let manifest: crate::env::apps::AppManifest =
            toml::from_str(pack.manifest).map_err(|e| LocalPackError::Manifest {
                dir: dir.clone(),
                detail: e.to_string(),
            })?;
        let words = std::iter::once(&manifest.name).chain(&manifest.aliases);
        for word in words {
            let taken = super::builtin_dir(word).map(str::to_string).or_else(|| {
                packs
                    .iter()
                    .find(|(_, w, _)| w.contains(word))
                    .map(|(_, _, d)| d.display().to_string())
            });
            if let Some(other) = taken {
                let name = word.clone();
                return Err(LocalPackError::Duplicate { dir, name, other });
            }
        }
        let name = std::iter::once(manifest.name.clone())
            .chain(manifest.aliases.iter().cloned())
            .collect::<Vec<_>>();
        packs.push((pack, name, dir));
    }
    let names = packs.iter().map(|(_, n, _)| n[0].clone()).collect();
    if super::registry_in_use() {
        return Err(LocalPackError::TooLate);
    }
    let dirs = packs
        .iter()
        .map(|(_, _, d)| std::path::absolute(d).unwrap_or_else(|_| d.clone()))
        .collect();
    let apps = packs.into_iter().map(|(p, _, _)| p).collect();
    LOCAL
        .set((apps, dirs))
        .map_err(|_| LocalPackError::TooLate)?;
    Ok(names)
}
