//! Reading one bundle directory in the public layout (either `config.json` variant).

use std::path::Path;

use serde_json::{json, Value};

use super::layout::{self, classify_config};
use super::nofollow::{foreign_entries, read_regular, refusal, InputError};
use super::taskgen::{check_task_id, parse_task, Fields};
use super::{json_type, Problem};
use crate::engine::store::{Labels, RoundRecord, Scripts, TaskRecord, TupleStatus};

/// A bundle read from disk, ready to store.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicBundle {
    /// The task (from `task_config.json` when present, else from `config.json`).
    pub task: TaskRecord,
    /// The bundle's scripts and review as one imported round.
    pub round: RoundRecord,
    /// `final`, or `vote_rejected` when `config.json` says `reject: true`.
    pub status: TupleStatus,
}

fn read_text(dir: &Path, name: &str) -> Result<Option<String>, Problem> {
    let path = dir.join(name);
    match read_regular(&path) {
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

fn required_script(dir: &Path, name: &str) -> Result<String, Problem> {
    read_text(dir, name)?
        .ok_or_else(|| Problem::item(dir.display().to_string(), format!("missing {name}")))
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
    let rounds = match obj.get("adversarial_rounds") {
        None | Some(Value::Null) => 1,
        Some(v) => v.as_i64().filter(|n| *n >= 0).ok_or_else(|| {
            Problem::field(
                &cfg_loc,
                "adversarial_rounds",
                "expected a non-negative integer",
            )
        })?,
    };
    let reject = match obj.get("reject") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(Problem::field(
                &cfg_loc,
                "reject",
                format!("expected a boolean, got {}", json_type(v)),
            ))
        }
    };

    let task_config = read_json(dir, layout::TASK_CONFIG_JSON)?;
    let tc_loc = dir.join(layout::TASK_CONFIG_JSON).display().to_string();
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
    task.origin = dir.display().to_string();
    task.original_json = json!({
        layout::CONFIG_JSON: config,
        layout::TASK_CONFIG_JSON: task_config,
    });

    let scripts = Scripts {
        setup: Some(required_script(dir, layout::SETUP_PY)?),
        golden: Some(required_script(dir, layout::GOLDEN_PY)?),
        reward: Some(required_script(dir, layout::REWARD_PY)?),
    };
    let review_md = read_text(dir, layout::REVIEW_MD)?.unwrap_or_default();
    let time = generated_at.unwrap_or_default();
    let round = RoundRecord {
        task_id: id,
        round_no: Some(rounds.max(1)),
        verdict: "pass".into(),
        source: "import".into(),
        scripts,
        review_md,
        scan_findings: json!([]),
        generator_model: None,
        discriminator_model: None,
        started_at: time.clone(),
        finished_at: time,
        script_runs: Vec::new(),
        reward_runs: Vec::new(),
        usage: Vec::new(),
    };
    let status = if reject {
        TupleStatus::VoteRejected
    } else {
        TupleStatus::Final
    };
    Ok(PublicBundle {
        task,
        round,
        status,
    })
}
