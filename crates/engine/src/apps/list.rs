//! `apps list`: one row per environment — the built-in packs, then `[[apps.external]]` apps.

use serde::Serialize;

use super::Pack;
use crate::openenv::AppsConfig;

/// One environment as `apps list` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Generic public name (`mail`).
    pub name: String,
    /// `web` or `desktop`.
    pub kind: String,
    /// Other names that reach it (`gmail`; for external apps the `[apps] aliases` naming it).
    pub aliases: Vec<String>,
    /// Shipped tasks.
    pub tasks: usize,
    /// Leaves of its taxonomy.
    pub leaves: usize,
    /// Whether it has a screen here (a web UI, a desktop, an external `ui_url`).
    pub screen: bool,
    /// `builtin`, `external` or `generated` (a pack made by `apps new`, or a local pack loaded
    /// from `[apps] packs`, whose `spec` is then the folder's spec file).
    pub origin: String,
    /// The paper's Table 3 category (`uncategorized` when the manifest names none).
    pub category: String,
    /// A spec-built app's spec file (`crates/engine/src/apps/<dir>/app.spec.toml`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
}

/// The row of a built-in pack.
pub fn pack_row(pack: &Pack) -> Row {
    let tasks = serde_json::from_str::<serde_json::Value>(pack.app.tasks_text())
        .ok()
        .and_then(|v| v.get("tasks").and_then(|t| t.as_array()).map(Vec::len))
        .unwrap_or(0);
    let file = std::path::Path::new(pack.app.dir()).join("taxonomy.toml");
    let leaves = crate::taskgen::taxonomy::parse(pack.app.taxonomy_text(), &file, pack.name())
        .map(|t| t.leaves.len())
        .unwrap_or(0);
    Row {
        name: pack.name().to_string(),
        kind: pack.kind().into(),
        aliases: pack.manifest.aliases.clone(),
        tasks,
        leaves,
        screen: pack.app.ui().is_some() || pack.is_desktop(),
        origin: if pack.manifest.generated_from.is_some() || pack.app.is_local() {
            "generated"
        } else {
            "builtin"
        }
        .into(),
        category: pack
            .manifest
            .category
            .clone()
            .unwrap_or_else(|| "uncategorized".into()),
        spec: pack
            .manifest
            .spec
            .as_ref()
            .map(|s| format!("{}/{s}", pack.app.dir())),
    }
}

/// Every environment: the packs in registry order, then the external apps of `cfg`.
pub fn rows(cfg: &AppsConfig) -> Vec<Row> {
    let mut out: Vec<Row> = super::all().iter().map(pack_row).collect();
    for ext in &cfg.external {
        out.push(Row {
            name: ext.name.clone(),
            kind: "web".into(),
            aliases: cfg
                .aliases
                .iter()
                .filter(|(_, to)| **to == ext.name)
                .map(|(from, _)| from.clone())
                .collect(),
            tasks: 0,
            leaves: 0,
            screen: ext.ui_url.is_some() || ext.url.is_some() || ext.command.is_some(),
            origin: "external".into(),
            category: "uncategorized".into(),
            spec: None,
        });
    }
    out
}
