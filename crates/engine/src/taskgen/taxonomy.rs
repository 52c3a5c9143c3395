//! Feature taxonomies (paper A.2.1): each pack's `taxonomy.toml` (or `skills/<app>/taxonomy.toml`), a tree of TOML tables whose leaves
//! (tables with a `description`) are atomic UI capabilities. Limits: depth <= 4, branching <= 12.

use std::path::{Path, PathBuf};

use super::TaskgenError;

/// Maximum depth of a taxonomy (a leaf's path length).
pub const MAX_DEPTH: usize = 4;
/// Maximum number of children of any node.
pub const MAX_BRANCHING: usize = 12;

/// One leaf: an atomic UI capability.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    /// The app whose taxonomy holds it.
    pub app: String,
    /// Dotted path from the root (`messaging.compose.post_message`).
    pub path: String,
    /// One-line description of the capability.
    pub description: String,
    /// UI elements involved.
    pub ui: Vec<String>,
    /// Scripted templates that can realise it.
    pub templates: Vec<String>,
    /// The taskgen recipe that generates tasks for it.
    pub recipe: String,
    /// Rare action primitives it stresses (drag, hotkey-chord, multi-window…); the edge pass targets them.
    pub primitives: Vec<String>,
}

/// A loaded, validated taxonomy.
#[derive(Debug, Clone)]
pub struct Taxonomy {
    /// The app.
    pub app: String,
    /// Leaves in file order.
    pub leaves: Vec<Leaf>,
}

/// Loads `<skills>/<app>/taxonomy.toml` when that file exists (a user's override), else the
/// taxonomy of the app's pack (`crates/engine/src/apps/<pack>/taxonomy.toml`, embedded).
pub fn load_app(skills: &Path, app: &str) -> Result<Taxonomy, TaskgenError> {
    let file = skills.join(app).join("taxonomy.toml");
    if !file.exists() {
        if let Some(pack) = crate::apps::get(app) {
            let file = Path::new(pack.app.dir()).join("taxonomy.toml");
            return parse(pack.app.taxonomy_text(), &file, app);
        }
    }
    let text = std::fs::read_to_string(&file).map_err(|e| TaskgenError::Io {
        path: file.clone(),
        source: e,
    })?;
    parse(&text, &file, app)
}

fn bad(file: &Path, node: &str, what: impl Into<String>) -> TaskgenError {
    TaskgenError::Taxonomy {
        file: file.to_path_buf(),
        node: if node.is_empty() {
            "(root)".into()
        } else {
            node.into()
        },
        what: what.into(),
    }
}

/// Parses and validates taxonomy text; `file` names the source in errors.
pub fn parse(text: &str, file: &Path, app: &str) -> Result<Taxonomy, TaskgenError> {
    let root: toml::Table =
        toml::from_str(text).map_err(|e| bad(file, "", format!("not valid TOML: {e}")))?;
    let mut leaves = Vec::new();
    walk(&root, "", 0, file, app, &mut leaves)?;
    if leaves.is_empty() {
        return Err(bad(file, "", "the taxonomy has no leaves"));
    }
    Ok(Taxonomy {
        app: app.to_string(),
        leaves,
    })
}

fn strings(
    t: &toml::Table,
    key: &str,
    file: &Path,
    node: &str,
    required: bool,
) -> Result<Vec<String>, TaskgenError> {
    match t.get(key) {
        None if required => Err(bad(
            file,
            node,
            format!("leaf lacks `{key}` (a list of strings)"),
        )),
        None => Ok(Vec::new()),
        Some(toml::Value::Array(items)) => {
            let out: Option<Vec<String>> = items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect();
            match out {
                Some(v) if required && v.is_empty() => {
                    Err(bad(file, node, format!("`{key}` is empty")))
                }
                Some(v) => Ok(v),
                None => Err(bad(file, node, format!("`{key}` must hold only strings"))),
            }
        }
        Some(_) => Err(bad(
            file,
            node,
            format!("`{key}` must be a list of strings"),
        )),
    }
}

fn walk(
    t: &toml::Table,
    path: &str,
    depth: usize,
    file: &Path,
    app: &str,
    out: &mut Vec<Leaf>,
) -> Result<(), TaskgenError> {
    if t.contains_key("description") {
        if depth == 0 {
            return Err(bad(file, path, "the root cannot be a leaf"));
        }
        return leaf(t, path, file, app, out);
    }
    if depth >= MAX_DEPTH {
        return Err(bad(
            file,
            path,
            format!(
                "its children would be at depth {}, exceeding the maximum depth {MAX_DEPTH}",
                depth + 1
            ),
        ));
    }
    if t.is_empty() {
        return Err(bad(
            file,
            path,
            "internal node with no children (a leaf needs `description`)",
        ));
    }
    if t.len() > MAX_BRANCHING {
        return Err(bad(
            file,
            path,
            format!(
                "{} children exceed the maximum branching {MAX_BRANCHING}",
                t.len()
            ),
        ));
    }
    for (key, value) in t {
        let child = if path.is_empty() {
            key.clone()
        } else {
            format!("{path}.{key}")
        };
        match value {
            toml::Value::Table(sub) => walk(sub, &child, depth + 1, file, app, out)?,
            _ => return Err(bad(
                file,
                &child,
                "internal nodes may hold only sub-tables (did you forget `description` on a leaf?)",
            )),
        }
    }
    Ok(())
}

fn leaf(
    t: &toml::Table,
    path: &str,
    file: &Path,
    app: &str,
    out: &mut Vec<Leaf>,
) -> Result<(), TaskgenError> {
    const KEYS: [&str; 5] = ["description", "ui", "templates", "recipe", "primitives"];
    for key in t.keys() {
        if !KEYS.contains(&key.as_str()) {
            return Err(bad(
                file,
                path,
                format!(
                    "unknown key `{key}` in a leaf (expected one of {})",
                    KEYS.join(", ")
                ),
            ));
        }
    }
    let description = match t.get("description") {
        Some(toml::Value::String(s)) if !s.trim().is_empty() && !s.contains('\n') => s.clone(),
        _ => {
            return Err(bad(
                file,
                path,
                "`description` must be a non-empty one-line string",
            ))
        }
    };
    let recipe = match t.get("recipe") {
        Some(toml::Value::String(s)) if !s.trim().is_empty() => s.clone(),
        _ => {
            return Err(bad(
                file,
                path,
                "leaf lacks `recipe` (the taskgen generator name)",
            ))
        }
    };
    out.push(Leaf {
        app: app.to_string(),
        path: path.to_string(),
        description,
        ui: strings(t, "ui", file, path, true)?,
        templates: strings(t, "templates", file, path, true)?,
        recipe,
        primitives: strings(t, "primitives", file, path, false)?,
    });
    Ok(())
}

/// The skills directory shipped with the crate.
pub fn default_skills_dir() -> PathBuf {
    crate::checkout_root().join("skills")
}
