//! The script templates of the scripted agents: `skills/<dir>/templates/<name>/{initial_setup.py,
//! golden_patch.py,reward.py,template.toml}` for cross-app ones and `crates/engine/src/apps/<pack>/templates/`
//! for each app's, embedded in the binary, with an optional override
//! directory of the same layout (read at call time, so users can edit templates without recompiling).

use std::path::Path;

use serde::Deserialize;

/// The prelude prepended to every rendered script (state-API helpers and the partial-credit rubric).
pub const PRELUDE: &str = include_str!("../../../../../skills/_common/prelude.py");

/// One template: the three script bodies and its metadata.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// `<dir>/<name>`, e.g. `team-chat/post_message`.
    pub id: String,
    /// initial_setup.py body (reads its slots from `S`).
    pub setup: String,
    /// golden_patch.py body.
    pub golden: String,
    /// reward.py body.
    pub reward: String,
    /// Parsed `template.toml`.
    pub meta: TemplateMeta,
}

/// `template.toml`: what the template does and where a copy-paste regression can hit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateMeta {
    /// What the template realises and its slots.
    pub description: String,
    /// The slot whose golden value the reward verifies (a regression there fails C3).
    pub fault_slot: String,
    /// Optional neighbouring slot whose value a copy-paste regression pastes into `fault_slot`.
    #[serde(default)]
    pub fault_source: Option<String>,
}

macro_rules! embedded {
    ($(($dir:literal, $name:literal)),* $(,)?) => {
        &[$((
            concat!($dir, "/", $name),
            include_str!(concat!("../../../../../skills/", $dir, "/templates/", $name, "/initial_setup.py")),
            include_str!(concat!("../../../../../skills/", $dir, "/templates/", $name, "/golden_patch.py")),
            include_str!(concat!("../../../../../skills/", $dir, "/templates/", $name, "/reward.py")),
            include_str!(concat!("../../../../../skills/", $dir, "/templates/", $name, "/template.toml")),
        )),*]
    };
}

/// Embedded cross-app templates (`_common`, `cross`): (id, setup, golden, reward, template.toml).
/// Each app's own templates are in its pack ([`crate::apps::template`]).
pub const EMBEDDED: &[(&str, &str, &str, &str, &str)] = embedded![
    ("_common", "update_records"),
    ("_common", "create_record"),
    ("cross", "csv_to_issues"),
    ("cross", "issues_to_file"),
    ("cross", "chat_to_issue"),
    ("cross", "sheet_to_report"),
    ("cross", "pdf_to_report"),
    ("cross", "bookmarks_to_sheet"),
    ("cross", "outline_to_slides"),
];

/// Why a template could not be found or read.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// No template of that name under any of the searched directories.
    #[error("no template `{name}` (searched {searched})")]
    NotFound {
        /// The requested name.
        name: String,
        /// The `<dir>/<name>` ids tried.
        searched: String,
    },
    /// An override file could not be read.
    #[error("template file {path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// `template.toml` is malformed.
    #[error("template `{id}`: bad template.toml: {detail}")]
    BadMeta {
        /// The template id.
        id: String,
        /// The parse error.
        detail: String,
    },
}

fn parse_meta(id: &str, text: &str) -> Result<TemplateMeta, TemplateError> {
    toml::from_str(text).map_err(|e| TemplateError::BadMeta {
        id: id.to_string(),
        detail: e.to_string(),
    })
}

fn from_dir(id: &str, dir: &Path) -> Result<Template, TemplateError> {
    let read = |file: &str| {
        let path = dir.join(file);
        std::fs::read_to_string(&path).map_err(|source| TemplateError::Io { path, source })
    };
    Ok(Template {
        id: id.to_string(),
        setup: read("initial_setup.py")?,
        golden: read("golden_patch.py")?,
        reward: read("reward.py")?,
        meta: parse_meta(id, &read("template.toml")?)?,
    })
}

/// `t` with the shared Python its folder's bodies rely on joined in front of them (the cross
/// desktop templates' preludes, [`crate::apps::cross::preludes`]), embedded or overridden alike.
fn with_preludes(mut t: Template) -> Template {
    let (setup, rest) = crate::apps::cross::preludes::preludes(&t.id);
    t.setup.insert_str(0, setup);
    t.golden.insert_str(0, rest);
    t.reward.insert_str(0, rest);
    t
}

/// The candidate ids for a template reference: `dir/name` as given, else `<app>/<name>` for each of
/// the task's apps, then `cross/<name>` and `_common/<name>`.
pub fn candidates(reference: &str, apps: &[String]) -> Vec<String> {
    if reference.contains('/') {
        return vec![reference.to_string()];
    }
    let mut ids: Vec<String> = apps.iter().map(|a| format!("{a}/{reference}")).collect();
    ids.push(format!("cross/{reference}"));
    ids.push(format!("_common/{reference}"));
    ids
}

/// Finds a template: the override directory (`<dir>/<app>/templates/<name>/`) first, then the
/// embedded set.
pub fn lookup(
    reference: &str,
    apps: &[String],
    override_dir: Option<&Path>,
) -> Result<Template, TemplateError> {
    let ids = candidates(reference, apps);
    for id in &ids {
        let Some((dir, name)) = id.split_once('/') else {
            continue;
        };
        if name.is_empty() || name.contains(['/', '.']) || dir.contains('.') {
            continue;
        }
        if let Some(root) = override_dir {
            let path = root.join(dir).join("templates").join(name);
            if path.join("template.toml").is_file() {
                return from_dir(id, &path).map(with_preludes);
            }
        }
        let embedded = EMBEDDED
            .iter()
            .find(|t| t.0 == id)
            .map(|t| (t.1, t.2, t.3, t.4))
            .or_else(|| crate::apps::template(dir, name).map(|t| (t.1, t.2, t.3, t.4)));
        if let Some((setup, golden, reward, meta)) = embedded {
            return Ok(with_preludes(Template {
                id: id.clone(),
                setup: (*setup).to_string(),
                golden: (*golden).to_string(),
                reward: (*reward).to_string(),
                meta: parse_meta(id, meta)?,
            }));
        }
    }
    Err(TemplateError::NotFound {
        name: reference.to_string(),
        searched: ids.join(", "),
    })
}

/// The slots a template's bodies read unconditionally (`S["name"]`), minus those it also reads
/// defensively somewhere (`S.get("name"…)` or `"name" in S`): a task lacking one of them can
/// never run, whatever the round.
pub fn required_slots(tpl: &Template) -> std::collections::BTreeSet<String> {
    static INDEXED: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let Some(indexed) = INDEXED
        .get_or_init(|| regex::Regex::new(r#"(?:^|[^A-Za-z0-9_.])S\["([A-Za-z0-9_]+)"\]"#).ok())
    else {
        return Default::default();
    };
    let bodies = [&tpl.setup, &tpl.golden, &tpl.reward];
    let optional = |key: &str| {
        bodies.iter().any(|b| {
            b.contains(&format!("S.get(\"{key}\"")) || b.contains(&format!("\"{key}\" in S"))
        })
    };
    bodies
        .iter()
        .flat_map(|b| indexed.captures_iter(b).map(|c| c[1].to_string()))
        .filter(|k| !optional(k))
        .collect()
}

/// Ids of every embedded template (cross-app ones, then each pack's).
pub fn embedded_ids() -> Vec<String> {
    EMBEDDED
        .iter()
        .map(|t| t.0.to_string())
        .chain(crate::apps::template_ids())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_template_parses_and_references_resolve() {
        for id in embedded_ids() {
            let t = lookup(&id, &[], None).unwrap();
            assert!(!t.meta.fault_slot.is_empty(), "{id}");
            assert!(t.reward.contains("rubric.finish()"), "{id}");
        }
        let apps = vec!["team-chat".to_string()];
        assert_eq!(
            lookup("post_message", &apps, None).unwrap().id,
            "team-chat/post_message"
        );
        assert_eq!(
            lookup("update_records", &apps, None).unwrap().id,
            "_common/update_records"
        );
        let err = lookup("nope", &apps, None).unwrap_err().to_string();
        assert!(
            err.contains("team-chat/nope") && err.contains("_common/nope"),
            "{err}"
        );
        assert!(lookup("../etc", &apps, None).is_err());
    }

    #[test]
    fn override_directory_wins_and_bad_meta_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("team-chat/templates/post_message");
        std::fs::create_dir_all(&t).unwrap();
        for f in ["initial_setup.py", "golden_patch.py", "reward.py"] {
            std::fs::write(t.join(f), format!("# custom {f}\n")).unwrap();
        }
        std::fs::write(
            t.join("template.toml"),
            "description = \"x\"\nfault_slot = \"text\"\n",
        )
        .unwrap();
        let apps = vec!["team-chat".to_string()];
        let got = lookup("post_message", &apps, Some(dir.path())).unwrap();
        assert_eq!(got.reward, "# custom reward.py\n");
        std::fs::write(t.join("template.toml"), "fault_slot = 3\n").unwrap();
        let err = lookup("post_message", &apps, Some(dir.path())).unwrap_err();
        assert!(err.to_string().contains("team-chat/post_message"), "{err}");
    }
}
