//! `envgen compile DIR`: reads `DIR/app.spec.toml` and its seed, refuses a bad one before
//! anything is written, then writes every derived file atomically (a temporary file renamed
//! into place).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::error::SpecError;
use super::model::Model;

/// What a compile wrote.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The app's name.
    pub app: String,
    /// The files written.
    pub written: Vec<PathBuf>,
    /// How long parsing, checking, deriving and writing took.
    pub took: Duration,
}

/// The spec file of pack folder `dir`.
pub fn spec_path(dir: &Path) -> PathBuf {
    dir.join("app.spec.toml")
}

/// Loads and checks the spec of `dir` and its seed: the model and the seed (`map` entities seen
/// as lists, as derivation reads them).
pub fn load_dir(dir: &Path) -> Result<(Model, serde_json::Value), SpecError> {
    let spec = super::load(&spec_path(dir))?;
    let seed_path = dir.join(&spec.app.seed);
    let text = std::fs::read_to_string(&seed_path).map_err(|e| SpecError::io(&seed_path, e))?;
    let seed = super::seed::check(&spec, &seed_path, &text)?;
    let seed = super::shape::as_lists(&spec, &seed);
    Ok((Model::new(spec), seed))
}

/// Compiles the pack folder `dir`.
pub fn compile(dir: &Path) -> Result<Compiled, SpecError> {
    let t0 = Instant::now();
    let (model, seed) = load_dir(dir)?;
    let files = super::derive::files(&model, &seed);
    let mut written = Vec::new();
    for (name, text) in &files {
        let tmp = dir.join(format!(".{name}.tmp"));
        std::fs::write(&tmp, text).map_err(|e| SpecError::io(&tmp, e))?;
    }
    for (name, _) in &files {
        let (tmp, to) = (dir.join(format!(".{name}.tmp")), dir.join(name));
        std::fs::rename(&tmp, &to).map_err(|e| SpecError::io(&to, e))?;
        written.push(to);
    }
    Ok(Compiled {
        app: model.name().into(),
        written,
        took: t0.elapsed(),
    })
}
