//! The typed error of the spec compiler: what was wrong, in which file, at which line.

use std::path::PathBuf;

/// The class of a refused spec (what tests and the Dev agent match on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Problem {
    /// The file is not valid TOML / JSON, or has an unknown key.
    Syntax,
    /// A field (or input, or value entity) names a type the language does not have.
    UnknownFieldType,
    /// A view, field, metric or action names an entity the spec does not declare.
    MissingEntity,
    /// A name refers to a field the entity does not have.
    MissingField,
    /// A name refers to a view the spec does not declare.
    MissingView,
    /// A view names an action the spec does not declare, or one it cannot offer.
    MissingAction,
    /// An action's declared `changes` differ from what its `effects` write, or an effect does
    /// not fit its field.
    EffectMismatch,
    /// Two things share a name or a route.
    Duplicate,
    /// Something else about the spec's structure (a route without its key segment, …).
    Invalid,
    /// The seed data violates the schema the entities declare.
    SeedViolation,
    /// A file could not be read or written.
    Io,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        f.write_str(&s)
    }
}

/// A refused spec: `path:line: problem: detail`.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {problem}: {detail}", path.display())]
pub struct SpecError {
    /// The file at fault (the spec or its seed).
    pub path: PathBuf,
    /// 1-based line (0 when the whole file is at fault).
    pub line: usize,
    /// The class.
    pub problem: Problem,
    /// What was wrong, naming the construct.
    pub detail: String,
    /// The underlying cause, if any (I/O).
    #[source]
    pub source: Option<std::io::Error>,
}

impl SpecError {
    /// An error at `line` of `path`.
    pub fn at(path: &std::path::Path, line: usize, problem: Problem, detail: String) -> Self {
        SpecError {
            path: path.to_path_buf(),
            line,
            problem,
            detail,
            source: None,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, e: std::io::Error) -> Self {
        SpecError {
            path: path.to_path_buf(),
            line: 0,
            problem: Problem::Io,
            detail: e.to_string(),
            source: Some(e),
        }
    }
}

/// The 1-based line of byte offset `at` in `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}
