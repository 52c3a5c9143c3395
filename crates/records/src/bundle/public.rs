//! Reading one bundle directory in the public layout (either `config.json` variant).

use std::path::Path;

use serde_json::{json, Value};

use super::layout::{self, classify_config};
use super::nofollow::{foreign_entries, read_limited, refusal, InputError};
use super::sizes::Limit;
use super::taskgen::{check_task_id, parse_task, Fields};
use super::{json_type, Problem};
use crate::scan::scan_source;
use tuplewright_base::store::{Labels, RoundRecord, Scripts, TaskRecord, TupleStatus};

/// A bundle read from disk, ready to store.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicBundle {
    /// The task (from `task_config.json` when present, else from `config.json`).
    pub task: TaskRecord,
    /// The bundle's scripts and review as one imported round.
    pub round: RoundRecord,
    /// Always `imported`: unverified until `verify` replays it (a `reject: true` in config.json
    /// is kept in the stored original and applied when the tuple is promoted).
    pub status: TupleStatus,
}

/// The directories a bundle's files are read from: the bundle itself, then — in the public
/// three-stage layout, where `output/final/<id>/` holds config.json and `output/adversarial/<id>/`
/// the scripts — the matching adversarial directory.
pub fn source_dirs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut dirs = vec![dir.to_path_buf()];
    let parent = dir.parent();
    if let (Some(name), Some(stage)) = (dir.file_name(), parent.and_then(Path::file_name)) {
        if stage == "final" {
            if let Some(root) = parent.and_then(Path::parent) {
                let adv = root.join("adversarial").join(name);
                // Present at all (a link too, so that read_bundle refuses it rather than
                // following it or silently ignoring it).
                if adv.symlink_metadata().is_ok() {
                    dirs.push(adv);
                }
            }
        }
    }
    dirs
}

/// Reads `name` from the first of `dirs` that has it.
fn read_first(dirs: &[std::path::PathBuf], name: &str) -> Result<Option<String>, Problem> {
    for d in dirs {
        if let Some(t) = read_text(d, name)? {
            return Ok(Some(t));
        }
    }
    Ok(None)
}

/// The highest `# Round N` heading of a REVIEW.md.
pub fn review_round(review: &str) -> Option<i64> {
    review
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("# Round ")?;
            rest.split_whitespace().next()?.parse::<i64>().ok()
        })
        .filter(|n| *n >= 1)
        .max()
}

/// `adversarial_rounds`: an integer, or the decimal string the public orchestrator template
/// writes (`"3"`); absent or null = unknown.
fn adversarial_rounds(v: Option<&Value>, loc: &str) -> Result<Option<i64>, Problem> {
    let bad = |got: String| {
        Problem::field(
            loc,
            "adversarial_rounds",
            format!("expected a non-negative integer (or its decimal string), got {got}"),
        )
    };
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_i64()
            .filter(|n| *n >= 0)
            .map(Some)
            .ok_or_else(|| bad(n.to_string())),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => s
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .map(Some)
            .ok_or_else(|| bad(format!("{s:?}"))),
        Some(v) => Err(bad(json_type(v).to_string())),
    }
}

fn read_text(dir: &Path, name: &str) -> Result<Option<String>, Problem> {
    let path = dir.join(name);
    match read_limited(&path, Limit::for_bundle_file(name)) {
        Ok(t) => Ok(Some(t)),
        Err(InputError::NotFound) => Ok(None),
        Err(e) => Err(Problem::item(path.display().to_string(), e.to_string())),
    }
}

/// The bundle directory itself is a real directory and holds no link, FIFO or device anywhere:
/// nothing it names outside itself is ever read.
fn check_tree(dir: &Path) -> Result<(), Problem> {
    let loc = dir.display().to_string();
    match dir.symlink_metadata() {
        Ok(m) if m.is_dir() => {}
        Ok(m) => {
            let why = refusal(dir, &m).unwrap_or_else(|| "is not a directory".to_string());
            return Err(Problem::item(loc, format!("bundle directory {why}")));
        }
        Err(e) => return Err(Problem::item(loc, format!("cannot read: {e}"))),
    }
    match foreign_entries(dir).into_iter().next() {
        None => Ok(()),
        Some((path, why)) => Err(Problem::item(
            path.display().to_string(),
            format!("{why} (bundle refused; nothing in it was read)"),
        )),
    }
}

fn read_json(dir: &Path, name: &str) -> Result<Option<Value>, Problem> {
    let loc = dir.join(name).display().to_string();
    read_text(dir, name)?
        .map(|t| {
            serde_json::from_str(&t).map_err(|e| {
                Problem::item(
                    &loc,
                    format!(
                        "not valid JSON (line {}, column {}): {e}",
                        e.line(),
                        e.column()
                    ),
                )
            })
        })
        .transpose()
}

/// Reads the bundle in `dir`, refusing it whole if it holds a symbolic link or anything else that
/// is not a regular file or directory ([`super::nofollow`]).
pub fn read_bundle(dir: &Path) -> Result<PublicBundle, Problem> {
    check_tree(dir)?;
    let cfg_loc = dir.join(layout::CONFIG_JSON).display().to_string();
    let config = read_json(dir, layout::CONFIG_JSON)?
        .ok_or_else(|| Problem::item(dir.display().to_string(), "missing config.json"))?;
    let Value::Object(obj) = &config else {
        return Err(Problem::item(
            &cfg_loc,
            format!("expected an object, got {}", json_type(&config)),
        ));
    };
    let f = Fields {
        obj,
        location: &cfg_loc,
    };
    let id = f.required("id")?;
    check_task_id(&id, &cfg_loc, "id")?;
    let instruction = f.required("instruction")?;
    let app_type = f.optional("app_type")?;
    let generated_at = f.optional("generated_at")?;
    match obj.get("config") {
        Some(c) => {
            classify_config(c).map_err(|(field, msg)| Problem::field(&cfg_loc, &field, msg))?
        }
        None => return Err(Problem::field(&cfg_loc, "config", "missing")),
    };
    match obj.get("evaluator") {
        Some(Value::Object(ev)) if ev.get("url").is_some_and(Value::is_string) => {}
        Some(Value::Object(_)) => {
            return Err(Problem::field(
                &cfg_loc,
                "evaluator.url",
                "missing or not a string",
            ))
        }
        Some(v) => {
            return Err(Problem::field(
                &cfg_loc,
                "evaluator",
                format!("expected an object, got {}", json_type(v)),
            ))
        }
        None => return Err(Problem::field(&cfg_loc, "evaluator", "missing")),
    }
    let rounds = adversarial_rounds(obj.get("adversarial_rounds"), &cfg_loc)?;
    match obj.get("reject") {
        None | Some(Value::Null) | Some(Value::Bool(_)) => {}
        Some(v) => {
            return Err(Problem::field(
                &cfg_loc,
                "reject",
                format!("expected a boolean, got {}", json_type(v)),
            ))
        }
    };
    let dirs = source_dirs(dir);
    // The adversarial half of a three-stage bundle is held to the same rule as the bundle.
    for d in dirs.iter().skip(1) {
        check_tree(d)?;
    }
    // Every missing script is named, not only the first.
    let names = [layout::SETUP_PY, layout::GOLDEN_PY, layout::REWARD_PY];
    let mut found = Vec::with_capacity(names.len());
    for name in names {
        found.push(read_first(&dirs, name)?);
    }
    let missing: Vec<&str> = names
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(n, _)| *n)
        .collect();
    if !missing.is_empty() {
        let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        return Err(Problem::item(
            dir.display().to_string(),
            format!(
                "missing {} (looked in {})",
                missing.join(", "),
                looked.join(" and ")
            ),
        ));
    }
    let [setup, golden, reward] = <[Option<String>; 3]>::try_from(found)
        .map_err(|_| Problem::item(dir.display().to_string(), "internal: script count"))?;

    let tc_dir = dirs
        .iter()
        .find(|d| d.join(layout::TASK_CONFIG_JSON).is_file())
        .unwrap_or(&dirs[0]);
    let task_config = read_json(tc_dir, layout::TASK_CONFIG_JSON)?;
    let tc_loc = tc_dir.join(layout::TASK_CONFIG_JSON).display().to_string();
    let mut task = match &task_config {
        Some(tc) => {
            let task = parse_task(tc, &tc_loc, &tc_loc, false)?;
            if task.task_id != id {
                return Err(Problem::field(
                    &tc_loc,
                    "task_id",
                    format!("{:?} differs from config.json id {id:?}", task.task_id),
                ));
            }
            task
        }
        None => TaskRecord {
            task_id: id.clone(),
            instruction: instruction.clone(),
            context: String::new(),
            labels: Labels {
                apps: app_type.clone().into_iter().collect(),
                ..Labels::default()
            },
            app_type: None,
            original_json: Value::Null,
            origin: String::new(),
        },
    };
    // Our own exports carry the full labels in meta.json: keep them on re-import.
    if let Some(meta) = read_json(dir, layout::META_JSON)? {
        if let Some(labels) = meta.get("labels") {
            task.labels = serde_json::from_value(labels.clone()).map_err(|e| {
                Problem::field(
                    dir.join(layout::META_JSON).display().to_string(),
                    "labels",
                    e.to_string(),
                )
            })?;
        }
    }
    task.app_type = app_type;
    // Never relative to the current directory: the same bundle has one origin wherever it is read from.
    task.origin = std::path::absolute(dir)
        .unwrap_or_else(|_| dir.to_path_buf())
        .display()
        .to_string();
    task.original_json = json!({
        layout::CONFIG_JSON: config,
        layout::TASK_CONFIG_JSON: task_config,
    });

    let scripts = Scripts {
        setup,
        golden,
        reward,
    };
    let review_md = read_first(&dirs, layout::REVIEW_MD)?.unwrap_or_default();
    let rounds = rounds.or_else(|| review_round(&review_md)).unwrap_or(1);
    // The round's times (empty = unknown; the store stamps the import time). The exported
    // `generated_at` comes from the stored original config.json, never from these.
    let time = generated_at.unwrap_or_default();
    // What the scanner finds in the published reward, recorded as the loop records it (the
    // bundle's claim of a clean reward is not taken on trust).
    let scan_findings = scripts.reward.as_deref().map_or_else(
        || json!([]),
        |r| serde_json::to_value(scan_source("reward.py", r).findings).unwrap_or_default(),
    );
    let round = RoundRecord {
        task_id: id,
        round_no: Some(rounds.max(1)),
        // The bundle's own claim, not a verdict of this harness.
        verdict: "imported".into(),
        source: "import".into(),
        scripts,
        review_md,
        scan_findings,
        generator_model: None,
        discriminator_model: None,
        started_at: time.clone(),
        finished_at: time,
        script_runs: Vec::new(),
        reward_runs: Vec::new(),
        usage: Vec::new(),
    };
    Ok(PublicBundle {
        task,
        round,
        status: TupleStatus::Imported,
    })
}
