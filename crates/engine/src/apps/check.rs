//! `apps check`, the part that needs no running program: a pack's files parse and agree with
//! each other. Every failure names the check and the pack file to fix.

use std::path::Path;

use serde::Serialize;

use super::Pack;
use crate::agents::scripted::templates::{lookup, required_slots};
use crate::env::apps::App as EnvApp;
use crate::taskgen::{recipes::recipe_names, taxonomy};
use tuplewright_records::bundle::taskgen::parse_file;

/// The sections every SKILL.md has, in order (`## N. <title>`; the title starts with this).
pub const SKILL_SECTIONS: [&str; 6] = [
    "Concepts",
    "State",
    "initial_setup.py",
    "golden_patch.py",
    "reward.py",
    "Bitter lessons",
];

/// One failed check of a pack.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// The check (`manifest`, `seed`, `taxonomy`, `skill`, `tasks`, `ui`, `state-api`, `loop`,
    /// `ui-oracle`, `noop-screen`).
    pub check: String,
    /// The file to fix, relative to the crate root (`crates/engine/src/apps/mail/seed.json`).
    pub file: String,
    /// What is wrong.
    pub detail: String,
}

impl Failure {
    /// A failure of `check` in `pack`'s `file`.
    pub fn new(pack: &Pack, check: &str, file: &str, detail: impl Into<String>) -> Failure {
        Failure {
            check: check.into(),
            file: format!("{}/{file}", pack.app.dir()),
            detail: detail.into(),
        }
    }
}

/// Every check that reads the pack's files only: manifest, seed (and its fit to the declared
/// state schema), taxonomy (parse, limits, recipes and templates it names), SKILL.md sections,
/// shipped tasks (parse, app, template, slots) and the UI/planner pair.
pub fn static_checks(pack: &Pack) -> Vec<Failure> {
    let mut out = Vec::new();
    seed(pack, &mut out);
    taxonomy_check(pack, &mut out);
    skill(pack, &mut out);
    tasks(pack, &mut out);
    if pack.app.ui().is_some() && pack.app.planner().is_none() {
        out.push(Failure::new(
            pack,
            "ui",
            "mod.rs",
            "the pack has a web UI but no ui-oracle planner (App::planner)",
        ));
    }
    out
}

fn seed(pack: &Pack, out: &mut Vec<Failure>) {
    let app = pack.app;
    match EnvApp::parse(app.dir(), app.manifest_text(), app.seed_text()) {
        Err(e) => out.push(Failure::new(pack, "seed", "seed.json", e.to_string())),
        Ok(parsed) => {
            if let Some(misfit) = pack
                .manifest
                .state
                .as_ref()
                .and_then(|s| s.misfit(&parsed.seed))
            {
                out.push(Failure::new(
                    pack,
                    "seed",
                    "seed.json",
                    format!(
                        "`{}` does not fit the manifest's [state]: {}",
                        misfit.key, misfit.why
                    ),
                ));
            }
        }
    }
    if pack.is_desktop() && app.home().is_empty() {
        out.push(Failure::new(
            pack,
            "seed",
            "home/",
            "a desktop app needs a seed home",
        ));
    }
}

fn taxonomy_check(pack: &Pack, out: &mut Vec<Failure>) {
    let file = Path::new(pack.app.dir()).join("taxonomy.toml");
    let tax = match taxonomy::parse(pack.app.taxonomy_text(), &file, pack.name()) {
        Ok(t) => t,
        Err(e) => {
            return out.push(Failure::new(
                pack,
                "taxonomy",
                "taxonomy.toml",
                e.to_string(),
            ))
        }
    };
    let recipes = recipe_names();
    let apps = [pack.name().to_string()];
    for leaf in &tax.leaves {
        if !recipes.contains(&leaf.recipe.as_str()) {
            out.push(Failure::new(
                pack,
                "taxonomy",
                "taxonomy.toml",
                format!(
                    "leaf {}: no recipe `{}` (recipe.rs)",
                    leaf.path, leaf.recipe
                ),
            ));
        }
        for t in &leaf.templates {
            if let Err(e) = lookup(t, &apps, None) {
                out.push(Failure::new(
                    pack,
                    "taxonomy",
                    "taxonomy.toml",
                    format!("leaf {}: {e}", leaf.path),
                ));
            }
        }
    }
}

/// The `## ` headings of a markdown text outside fenced code.
fn headings(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            if let Some(h) = line.strip_prefix("## ") {
                out.push(h.trim());
            }
        }
    }
    out
}

fn skill(pack: &Pack, out: &mut Vec<Failure>) {
    let found = headings(pack.app.skill_text());
    for (i, want) in SKILL_SECTIONS.iter().enumerate() {
        let prefix = format!("{}. {want}", i + 1);
        if !found.iter().any(|h| h.starts_with(&prefix)) {
            out.push(Failure::new(
                pack,
                "skill",
                "SKILL.md",
                format!(
                    "no section `## {prefix}…` (the six sections: {})",
                    SKILL_SECTIONS.join(", ")
                ),
            ));
        }
    }
}

fn tasks(pack: &Pack, out: &mut Vec<Failure>) {
    let bad = |detail: String| Failure::new(pack, "tasks", "tasks.json", detail);
    let records = match parse_file(pack.app.tasks_text(), "tasks.json") {
        Ok(r) => r,
        Err(p) => return out.push(bad(p.to_string())),
    };
    if records.is_empty() {
        out.push(bad("no shipped task".into()));
    }
    for record in records {
        let task = match record {
            Ok(t) => t,
            Err(p) => {
                out.push(bad(p.to_string()));
                continue;
            }
        };
        let id = &task.task_id;
        let domains: Vec<String> = task
            .original_json
            .get("domains")
            .and_then(|d| d.as_array())
            .map(|d| {
                d.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        if !domains.iter().any(|d| d == pack.name()) {
            out.push(bad(format!(
                "task {id}: `domains` {domains:?} lacks {}",
                pack.name()
            )));
        }
        let template = task.original_json.get("template").and_then(|t| t.as_str());
        let Some(template) = template else { continue };
        match lookup(template, &domains, None) {
            Err(e) => out.push(bad(format!("task {id}: {e}"))),
            Ok(tpl) => {
                let slots = task.original_json.get("slots");
                for slot in required_slots(&tpl) {
                    if slots.and_then(|s| s.get(&slot)).is_none() {
                        out.push(bad(format!(
                            "task {id}: slot `{slot}` missing for {}",
                            tpl.id
                        )));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_pack_passes_the_static_checks() {
        // A pack whose manifest does not parse would be missing from `all()`.
        assert_eq!(
            super::super::all().len(),
            super::super::PACKS.len() + super::super::SPEC_PACKS.len()
        );
        for pack in super::super::all() {
            assert_eq!(static_checks(pack), vec![], "{}", pack.name());
        }
    }

    #[test]
    fn rendered_scripts_keep_the_shipped_app_ports_line_made_from_the_manifests() {
        let prelude = crate::agents::scripted::render::prelude();
        // The hand-written web apps first, then every spec-built app's manifest port.
        let line = "APP_PORTS = {\"team-chat\": 3101, \"mail\": 3102, \"issue-tracker\": 3103, \
                    \"ecommerce-admin\": 3104, ";
        assert!(prelude.contains(line), "{prelude}");
        for pack in super::super::all()
            .iter()
            .filter(|p| p.app.spec_text().is_some())
        {
            let port = pack.manifest.port.unwrap_or_default();
            assert!(
                prelude.contains(&format!("\"{}\": {port}", pack.name())),
                "{}",
                pack.name()
            );
        }
        assert_eq!(prelude.matches("APP_PORTS = ").count(), 1);
    }

    #[test]
    fn a_skill_without_its_bitter_lessons_is_named_with_its_file() {
        let text = "## 1. Concepts\n## 2. State\n## 3. initial_setup.py\n## 4. golden_patch.py\n\
                    ```\n## 6. Bitter lessons\n```\n## 5. reward.py\n";
        let found = headings(text);
        assert_eq!(found.len(), 5, "{found:?}");
        assert!(!found.iter().any(|h| h.starts_with("6. Bitter")));
    }
}
