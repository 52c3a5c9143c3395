//! Every shipped app spec parses, its seed fits, and together they cover the breadth.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tuplewright::engine::envgen;

/// Every pack folder holding an `app.spec.toml`.
pub fn spec_dirs() -> Vec<PathBuf> {
    let apps = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/apps");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&apps)
        .expect("crates/engine/src/apps")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("app.spec.toml").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// Parses a pack's spec and checks its seed, panicking with the compiler's `path:line` error.
pub fn load(dir: &Path) -> (envgen::Spec, serde_json::Value) {
    let spec = envgen::load(&dir.join("app.spec.toml")).unwrap_or_else(|e| panic!("{e}"));
    let seed_path = dir.join(&spec.app.seed);
    let text = std::fs::read_to_string(&seed_path).expect("seed file");
    let seed = envgen::seed::check(&spec, &seed_path, &text).unwrap_or_else(|e| panic!("{e}"));
    (spec, seed)
}

#[test]
fn every_shipped_spec_parses_and_its_seed_fits() {
    let dirs = spec_dirs();
    assert!(dirs.len() >= 22, "{} spec packs", dirs.len());
    let mut names = BTreeSet::new();
    let mut ports = BTreeSet::new();
    for dir in &dirs {
        let (spec, _) = load(dir);
        assert!(
            names.insert(spec.app.name.clone()),
            "two specs are named {}",
            spec.app.name
        );
        if let Some(p) = spec.app.port {
            assert!(ports.insert(p), "{}: port {p} is taken", spec.app.name);
        }
        assert!(
            !spec.app.reference.is_empty(),
            "{}: no reference product kind",
            spec.app.name
        );
    }
}

#[test]
fn the_new_apps_cover_at_least_twelve_categories() {
    let cats: BTreeSet<String> = spec_dirs().iter().map(|d| load(d).0.app.category).collect();
    assert!(cats.len() >= 12, "{} categories: {cats:?}", cats.len());
}

#[test]
fn every_list_entity_is_reachable_and_editable_from_the_ui() {
    use envgen::spec::{ActionOn, ViewKind};
    for dir in spec_dirs() {
        let (spec, _) = load(&dir);
        let views: Vec<_> = spec.views.iter().map(|v| v.get_ref()).collect();
        for e in spec.entities.iter().map(|e| e.get_ref()) {
            let acted = spec.actions.iter().any(|a| a.get_ref().entity == e.name);
            if !e.kind.is_collection() || !acted {
                continue;
            }
            // What the ui-oracle navigates by: a sidebar list of every record (no filter)
            // whose rows open a record page.
            let listed = views.iter().any(|v| {
                v.entity.as_deref() == Some(&e.name)
                    && v.nav.is_some()
                    && v.open.is_some()
                    && v.filter.is_none()
                    && matches!(
                        v.kind,
                        ViewKind::Table | ViewKind::List | ViewKind::Inbox | ViewKind::Board
                    )
            });
            assert!(
                listed,
                "{}: {} has actions but no unfiltered sidebar view opening its records",
                spec.app.name, e.name
            );
            let record_actions = spec
                .actions
                .iter()
                .map(|a| a.get_ref())
                .filter(|a| a.entity == e.name && a.on == ActionOn::Record);
            for a in record_actions {
                let offered = views
                    .iter()
                    .any(|v| v.kind.is_record() && v.actions.contains(&a.name))
                    || views
                        .iter()
                        .any(|v| v.kind != ViewKind::Form && v.actions.contains(&a.name));
                assert!(
                    offered,
                    "{}: action {} is offered on no view",
                    spec.app.name, a.name
                );
            }
        }
    }
}

/// Every shipped `create_record` task fills every input its create action requires (an input
/// that is neither optional nor backed by a field default), so the ui-oracle's form can be
/// submitted. Failed before derivation knew date-times (calendar events were created without
/// start and end).
#[test]
fn every_create_task_fills_the_inputs_its_form_requires() {
    for dir in spec_dirs() {
        let (spec, _) = load(&dir);
        let text = std::fs::read_to_string(dir.join("tasks.json")).expect("tasks.json");
        let tasks: serde_json::Value = serde_json::from_str(&text).expect("json");
        for t in tasks["tasks"].as_array().expect("tasks") {
            if t["template"] != "create_record" {
                continue;
            }
            let context = t["context"].as_str().unwrap_or_default();
            // A derived task names its action; a curated one (a re-expressed app's) is done by
            // the collection action creating its collection.
            let actions = || spec.actions.iter().map(|a| a.get_ref());
            let action = actions()
                .find(|a| context.contains(&format!("(action {})", a.name)))
                .or_else(|| {
                    actions().find(|a| {
                        a.on == envgen::spec::ActionOn::Collection
                            && t["slots"]["collection"] == a.entity.as_str()
                    })
                })
                .unwrap_or_else(|| panic!("{}: no action in {context:?}", t["task_id"]));
            let ent = spec
                .entities
                .iter()
                .map(|e| e.get_ref())
                .find(|e| e.name == action.entity)
                .expect("entity");
            for input in action.inputs.iter().filter(|i| !i.optional) {
                let Some(name) = input.field.as_deref() else {
                    continue;
                };
                let field = ent
                    .fields
                    .iter()
                    .map(|f| f.get_ref())
                    .find(|f| f.name == name)
                    .expect("field");
                if field.optional || field.default.is_some() || field.ty == "bool" {
                    continue;
                }
                assert!(
                    t["slots"]["record"].get(name).is_some(),
                    "{}: {} requires {name}, which the task does not fill",
                    t["task_id"],
                    action.name
                );
            }
        }
    }
}

/// An entity people create records of is titled by a text field: the row link shows it, and a
/// derived create task names the new record by it (a title that is a date, an enum or a ref
/// made create tasks the form refuses, e.g. a tour titled by its date).
#[test]
fn every_created_entity_is_titled_by_a_text_field() {
    use envgen::spec::ActionOn;
    for dir in spec_dirs() {
        let (spec, _) = load(&dir);
        for a in spec
            .actions
            .iter()
            .map(|a| a.get_ref())
            .filter(|a| a.on == ActionOn::Collection)
        {
            let e = spec
                .entities
                .iter()
                .map(|e| e.get_ref())
                .find(|e| e.name == a.entity)
                .expect("entity");
            let title = e.title.as_deref().unwrap_or("id");
            let f = e
                .fields
                .iter()
                .map(|f| f.get_ref())
                .find(|f| f.name == title)
                .expect("title field");
            assert!(
                f.ty == "string" || f.ty == "text",
                "{}: {} is titled by {title}, a {} field",
                spec.app.name,
                e.name,
                f.ty
            );
            assert!(
                a.inputs
                    .iter()
                    .any(|i| i.field.as_deref() == Some(title) && !i.optional),
                "{}: {} creates {} without asking its title {title}",
                spec.app.name,
                a.name,
                e.name
            );
        }
    }
}
