//! Saved views of the tuple list (issue #33): a named search + filters + sort, and the Tuples
//! column layout, kept in one TOML file (`views.toml`) that the workbench and `tasks list --view`
//! both read. The file is replaced atomically (written beside it, then renamed), so a crash never
//! leaves half a file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::query::matcher::{compute_view, new_matcher, SortKey, ViewSpec};
use super::rows::TaskRow;

/// Errors reading or writing the views file.
#[derive(Debug, thiserror::Error)]
pub enum ViewsError {
    /// The file exists but cannot be read.
    #[error("views file {path}: cannot read: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid views TOML.
    #[error("views file {path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and what.
        source: toml::de::Error,
    },
    /// Writing (or renaming into place) failed; the old file is untouched.
    #[error("views file {path}: cannot write: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Serialising failed.
    #[error("views file: cannot serialise: {0}")]
    Serialise(#[from] toml::ser::Error),
    /// Bad input, named.
    #[error("{0}")]
    Invalid(String),
}

/// One saved view: what the Tuples list shows and in which order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SavedView {
    /// Its name (one word or more; unique in the file).
    pub name: String,
    /// The search (the workbench's search language: text and `field:value` terms).
    pub query: String,
    /// Status filter.
    pub status: Option<String>,
    /// Difficulty filter.
    pub difficulty: Option<String>,
    /// App filter.
    pub app: Option<String>,
    /// Worst-severity filter.
    pub severity: Option<String>,
    /// Sort column label (`id`, `status`, `app`, `difficulty`, `rounds`, `r(gold)`, `r(init)`,
    /// `severity`).
    pub sort: String,
    /// Descending.
    pub reverse: bool,
}

/// The Tuples screen's columns: their order, and the ones hidden.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ColumnLayout {
    /// Column names in display order (unknown names are ignored, missing ones appended).
    pub order: Vec<String>,
    /// Column names not shown.
    pub hidden: Vec<String>,
}

/// The whole views file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ViewsFile {
    /// The saved views, in the order they were first saved.
    #[serde(rename = "view")]
    pub views: Vec<SavedView>,
    /// The Tuples column layout (none = the default).
    pub columns: Option<ColumnLayout>,
}

/// The sort column named `label` (as [`SortKey::label`] writes it; `gold`/`init` accepted).
pub fn sort_key(label: &str) -> Option<SortKey> {
    let l = label.trim();
    if l.is_empty() {
        return Some(SortKey::Id);
    }
    let alias = match l {
        "gold" | "r_gold" => "r(gold)",
        "init" | "r_init" => "r(init)",
        "diff" => "difficulty",
        "sev" => "severity",
        other => other,
    };
    SortKey::ALL.into_iter().find(|k| k.label() == alias)
}

impl SavedView {
    /// The sort column, or an error naming the view and the bad label.
    pub fn sort_key(&self) -> Result<SortKey, ViewsError> {
        sort_key(&self.sort).ok_or_else(|| {
            ViewsError::Invalid(format!(
                "view `{}`: unknown sort `{}` (one of: {})",
                self.name,
                self.sort,
                SortKey::ALL.map(|k| k.label()).join(", ")
            ))
        })
    }

    /// The tuples this view shows, in its order (the workbench's own view computation).
    pub fn apply(&self, rows: Vec<TaskRow>) -> Result<Vec<TaskRow>, ViewsError> {
        let rows = Arc::new(rows);
        let spec = ViewSpec {
            generation: 0,
            rows: Arc::clone(&rows),
            query: self.query.clone(),
            status: self.status.clone(),
            difficulty: self.difficulty.clone(),
            app: self.app.clone(),
            severity: self.severity.clone(),
            sort: self.sort_key()?,
            reverse: self.reverse,
        };
        let view = compute_view(&spec, &mut new_matcher());
        Ok(view
            .indices
            .iter()
            .map(|&i| rows[i as usize].clone())
            .collect())
    }

    /// One line: the search, the filters and the sort.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.query.is_empty() {
            parts.push(format!("/{}", self.query));
        }
        for (k, v) in [
            ("status", &self.status),
            ("diff", &self.difficulty),
            ("app", &self.app),
            ("sev", &self.severity),
        ] {
            if let Some(v) = v {
                parts.push(format!("{k}={v}"));
            }
        }
        let sort = if self.sort.is_empty() {
            "id"
        } else {
            &self.sort
        };
        parts.push(format!(
            "sort:{sort}{}",
            if self.reverse { "↓" } else { "↑" }
        ));
        parts.join(" ")
    }
}

impl ViewsFile {
    /// The view named `name`.
    pub fn get(&self, name: &str) -> Option<&SavedView> {
        self.views.iter().find(|v| v.name == name)
    }

    /// Adds `view`, or replaces the one of the same name (keeping its place); refuses an empty
    /// name.
    pub fn upsert(&mut self, view: SavedView) -> Result<(), ViewsError> {
        let name = view.name.trim();
        if name.is_empty() {
            return Err(ViewsError::Invalid("a saved view needs a name".into()));
        }
        let view = SavedView {
            name: name.to_string(),
            ..view
        };
        match self.views.iter_mut().find(|v| v.name == view.name) {
            Some(v) => *v = view,
            None => self.views.push(view),
        }
        Ok(())
    }

    /// Removes the view named `name`; false when there is none.
    pub fn remove(&mut self, name: &str) -> bool {
        let before = self.views.len();
        self.views.retain(|v| v.name != name);
        self.views.len() != before
    }
}

/// Where the views file is: `$TUPLEWRIGHT_VIEWS`, else `$XDG_CONFIG_HOME/tuplewright/views.toml`,
/// else `$HOME/.config/tuplewright/views.toml`; `None` without any of them.
pub fn default_path(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |k: &str| env(k).filter(|v| !v.is_empty());
    if let Some(p) = set("TUPLEWRIGHT_VIEWS") {
        return Some(PathBuf::from(p));
    }
    let base = set("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|h| Path::new(&h).join(".config")))?;
    Some(base.join("tuplewright").join("views.toml"))
}

/// Reads the views file; a missing file is an empty one.
pub fn load(path: &Path) -> Result<ViewsFile, ViewsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ViewsFile::default()),
        Err(source) => {
            return Err(ViewsError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let file: ViewsFile = toml::from_str(&text).map_err(|source| ViewsError::Parse {
        path: path.to_path_buf(),
        source,
    })?;
    for v in &file.views {
        v.sort_key()
            .map_err(|e| ViewsError::Invalid(format!("views file {}: {e}", path.display())))?;
    }
    Ok(file)
}

/// Writes the views file atomically (a temporary file in the same folder, then a rename).
pub fn save(path: &Path, file: &ViewsFile) -> Result<(), ViewsError> {
    let text = toml::to_string_pretty(file)?;
    let werr = |source| ViewsError::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(werr)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(werr)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(werr)?;
    tmp.as_file().sync_all().map_err(werr)?;
    tmp.persist(path).map_err(|e| werr(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_replace_remove_and_bad_sort_named() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("sub").join("views.toml");
        assert_eq!(load(&path).expect("missing is empty"), ViewsFile::default());
        let mut f = ViewsFile::default();
        let v = SavedView {
            name: "leaks".into(),
            query: "tag:leak".into(),
            sort: "r(gold)".into(),
            reverse: true,
            ..Default::default()
        };
        f.upsert(v.clone()).expect("named");
        f.upsert(SavedView {
            status: Some("final".into()),
            ..v.clone()
        })
        .expect("replaced");
        assert_eq!(f.views.len(), 1, "same name replaces");
        assert!(f.upsert(SavedView::default()).is_err(), "no name refused");
        save(&path, &f).expect("saved");
        assert_eq!(load(&path).expect("read"), f);
        assert!(f.remove("leaks") && !f.remove("leaks"));
        std::fs::write(&path, "[[view]]\nname = \"x\"\nsort = \"colour\"\n").expect("w");
        let e = load(&path).expect_err("bad sort").to_string();
        assert!(e.contains("colour") && e.contains("view `x`"), "{e}");
    }

    #[test]
    fn default_path_order() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let p = default_path(env(&[("TUPLEWRIGHT_VIEWS", "/a/v.toml"), ("HOME", "/h")]));
        assert_eq!(p, Some(PathBuf::from("/a/v.toml")));
        let p = default_path(env(&[("HOME", "/h")]));
        assert_eq!(p, Some(PathBuf::from("/h/.config/tuplewright/views.toml")));
        assert_eq!(default_path(env(&[])), None);
    }
}
