//! The files a spec yields, written into its pack by `envgen compile`: `manifest.toml`,
//! `layout.json`, `CHANGES.md` (the observable-state-change table), `taxonomy.toml`,
//! `tasks.json` and a `SKILL.md` draft in the paper's six sections.

use std::fmt::Write as _;

use serde_json::Value;

use super::layout::{layout, ElementKind};
use super::model::{label, Model};
use super::spec::{ActionOn, EntityKind};

/// Every derived file: (name in the pack, contents).
pub fn files(model: &Model, seed: &Value) -> Vec<(&'static str, String)> {
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
    let tree = serde_json::to_value(layout(model)).unwrap_or(Value::Null);
    let mut out = vec![
        ("manifest.toml", manifest(model)),
        ("layout.json", pretty(&tree)),
        ("CHANGES.md", changes(model)),
        ("taxonomy.toml", taxonomy(model, seed)),
        ("SKILL.md", skill(model)),
    ];
    // `derive_tasks = false`: the pack's curated tasks.json is kept as it is.
    if model.spec.app.derive_tasks {
        out.insert(
            4,
            ("tasks.json", pretty(&super::tasks::derive(model, seed))),
        );
    }
    out
}

fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn toml_list(items: &[String]) -> String {
    format!(
        "[{}]",
        items
            .iter()
            .map(|s| toml_str(s))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The derived `manifest.toml`.
pub fn manifest(model: &Model) -> String {
    let app = &model.spec.app;
    let mut out = String::from("# Derived from app.spec.toml by `tuplewright envgen compile`; edit the spec, not this file.\n");
    let _ = writeln!(
        out,
        "name = {}\ntitle = {}\nkind = \"state-api\"\ncategory = {}\nspec = \"app.spec.toml\"",
        toml_str(&app.name),
        toml_str(&app.title),
        toml_str(&app.category)
    );
    let _ = writeln!(out, "aliases = {}", toml_list(&app.aliases));
    let _ = writeln!(out, "port = {}", port(model));
    let _ = writeln!(out, "description = {}", toml_str(&app.description));
    let mut volatile = vec!["**.lastViewedAt".to_string()];
    volatile.extend(app.volatile.iter().cloned());
    let _ = writeln!(out, "volatile = {}", toml_list(&volatile));
    for e in model.spec.entities.iter().map(toml::Spanned::get_ref) {
        let fields: Vec<String> = e
            .fields
            .iter()
            .map(|f| format!("{}: {}", f.get_ref().name, f.get_ref().ty))
            .collect();
        let notes = match (&e.notes, fields.is_empty()) {
            (Some(n), _) => n.clone(),
            (None, false) => format!("{{{}}}", fields.join(", ")),
            (None, true) => format!("a {}", e.value_type.as_deref().unwrap_or("value")),
        };
        let _ = writeln!(
            out,
            "\n[[entities]]\nkey = {}\nnotes = {}",
            toml_str(&e.name),
            toml_str(&notes)
        );
    }
    out.push_str("\n[state]\n");
    for e in model.spec.entities.iter().map(toml::Spanned::get_ref) {
        let kind = match e.kind {
            EntityKind::List => "list",
            EntityKind::Map => "map",
            _ => "config",
        };
        let _ = writeln!(out, "{} = \"{kind}\"", toml_str(&e.name));
    }
    out
}

/// The app's conventional port: `[app] port`, else 3300 + a stable hash of its name (< 3800).
pub fn port(model: &Model) -> u16 {
    model.spec.app.port.unwrap_or_else(|| {
        let h = model
            .name()
            .bytes()
            .fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
        3300 + (h % 500) as u16
    })
}

/// `CHANGES.md`: the observable state changes (element → action → state field, op).
pub fn changes(model: &Model) -> String {
    let mut out = format!("# Observable state changes of {}\n\nDerived from app.spec.toml: every element that changes state, the fields it changes (what rewards read), and how.\n\n| element | view | action | state change | effects |\n|---|---|---|---|---|\n", model.name());
    for el in layout(model)
        .elements
        .iter()
        .filter(|e| e.kind == ElementKind::Action)
    {
        let Some(a) = el.action.as_deref().and_then(|n| model.action(n)) else {
            continue;
        };
        let ops: Vec<String> = a
            .effects
            .iter()
            .map(|e| {
                format!("{:?} {}", e.op, e.field.as_deref().unwrap_or(""))
                    .trim()
                    .to_lowercase()
            })
            .collect();
        let _ = writeln!(
            out,
            "| `{}` \"{}\" | {} | {} | {} | {} |",
            el.id,
            el.label,
            el.view,
            a.name,
            a.changes.join(", "),
            ops.join("; ")
        );
    }
    out
}

/// `taxonomy.toml`: entity → action leaves (the actions that yield tasks over the seed), each
/// with the views offering it.
pub fn taxonomy(model: &Model, seed: &Value) -> String {
    let mut out = format!(
        "# Feature taxonomy of {} (derived from app.spec.toml).\n",
        model.name()
    );
    let yields =
        |a: &&super::spec::Action| !super::tasks::for_action(model, seed, &a.name).is_empty();
    for a in model.actions().filter(yields) {
        let views: Vec<String> = model
            .views()
            .filter(|v| v.actions.contains(&a.name))
            .map(|v| v.title.clone())
            .collect();
        let template = match a.on {
            ActionOn::Collection => "create_record",
            _ => "update_records",
        };
        let _ = writeln!(
            out,
            "\n[{}.{}.{}]\ndescription = {}\nui = {}\ntemplates = [\"{template}\"]\nrecipe = {}",
            toml_key(&a.entity),
            toml_key(&format!("{:?}", a.on).to_lowercase()),
            toml_key(&a.name),
            toml_str(&format!("{} ({})", a.label, a.changes.join(", "))),
            toml_list(&[views, vec![a.label.clone()]].concat()),
            toml_str(&format!("envgen:{}:{}", model.name(), a.name))
        );
    }
    out
}

fn toml_key(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        s.to_string()
    } else {
        toml_str(s)
    }
}

/// The SKILL.md draft in the six sections.
pub fn skill(model: &Model) -> String {
    let app = &model.spec.app;
    let mut out = format!("---\nname: {}\ndescription: Tasks on the spec-built {} app through the tuplewright state API.\napp: {}\n", app.name, app.title, app.name);
    if let Some(p) = app.port {
        let _ = writeln!(out, "port: {p}");
    }
    let _ = write!(
        out,
        "---\n\n# {}\n\n{}\n\n## 1. Concepts and libraries\n\n",
        app.name, app.description
    );
    for v in model.views() {
        let _ = writeln!(
            out,
            "- **{}** (`{}`, {:?}){}",
            v.title,
            v.route,
            v.kind,
            v.entity
                .as_deref()
                .map(|e| format!(" shows `{e}`"))
                .unwrap_or_default()
        );
    }
    out.push_str("\nEvery page is server-rendered; every change is a form posted to `/op/<action>` whose declared effects the server applies.\n\n## 2. State layout\n\n");
    for e in model.spec.entities.iter().map(toml::Spanned::get_ref) {
        let fields: Vec<String> = e
            .fields
            .iter()
            .map(|f| format!("`{}` ({})", f.get_ref().name, f.get_ref().ty))
            .collect();
        let _ = writeln!(
            out,
            "- `{}` ({:?}): {}",
            e.name,
            e.kind,
            if fields.is_empty() {
                e.value_type.clone().unwrap_or_default()
            } else {
                fields.join(", ")
            }
        );
    }
    out.push_str("\n## 3. initial_setup.py templates\n\nUse `update_records` / `create_record` (skills/_common): `preset` the target records, or append `seed_records`, through `api_post(app, \"/post\", {\"action\": \"set\", ...})`. Keep every record within the schema above (enum values, ids that exist).\n\n## 4. golden_patch.py templates\n\nRead `/go`, change exactly the fields the task names on the target records, `set_current` the result. What the UI does for each action:\n\n");
    for a in model.actions() {
        let _ = writeln!(
            out,
            "- `{}` \"{}\": {}",
            a.name,
            a.label,
            a.changes.join(", ")
        );
    }
    out.push_str("\n## 5. reward.py patterns (partial credit)\n\nCompare `initial_state` and `current_state` of `/go`: credit each requested field on each target record (changed by the task, not before), and that no other record of the collection changed; for a create, find the new record by its identifying field and check the expected fields.\n\n## 6. Bitter lessons\n\n");
    let _ = writeln!(out, "- Fields are typed: an enum takes only its values, a ref only an existing id. The UI refuses anything else with an error banner and the state stays unchanged.");
    let volatile: Vec<&str> = app.volatile.iter().map(String::as_str).collect();
    if !volatile.is_empty() {
        let _ = writeln!(
            out,
            "- Volatile fields ({}) change with every save; never reward on them.",
            volatile.join(", ")
        );
    }
    let labels: Vec<String> = model
        .spec
        .entities
        .iter()
        .map(|e| label_of(e.get_ref()))
        .collect();
    let _ = writeln!(
        out,
        "- Records are named to people by their title field ({}).",
        labels.join(", ")
    );
    out
}

fn label_of(e: &super::spec::Entity) -> String {
    match e.kind {
        EntityKind::List | EntityKind::Map => format!("{}: `{}`", e.name, Model::title_field(e)),
        _ => e.name.clone(),
    }
}

#[allow(dead_code)]
fn field_label(f: &super::spec::Field) -> String {
    label(f)
}
