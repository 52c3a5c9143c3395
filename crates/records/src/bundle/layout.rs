//! The public bundle layout (paper A.6, OSWorld-RL style `config.json`).
//!
//! ```text
//! <task_id>/config.json        instruction, id, app_type, config[download, execute], evaluator, ...
//! <task_id>/task_config.json   task_id, domain, task_instruction, context, difficulty (+ optional)
//! <task_id>/initial_setup.py   -> s_init
//! <task_id>/golden_patch.py    -> s_gold
//! <task_id>/reward.py          -> r in [0, 1]
//! <task_id>/REVIEW.md          the final round's review
//! <task_id>/meta.json          tuplewright's labels, rounds, scores, votes, decisions, provenance
//! ```

use serde_json::{json, Map, Value};

/// `config.json`.
pub const CONFIG_JSON: &str = "config.json";
/// `task_config.json`.
pub const TASK_CONFIG_JSON: &str = "task_config.json";
/// `initial_setup.py`.
pub const SETUP_PY: &str = "initial_setup.py";
/// `golden_patch.py`.
pub const GOLDEN_PY: &str = "golden_patch.py";
/// `reward.py`.
pub const REWARD_PY: &str = "reward.py";
/// `REVIEW.md`.
pub const REVIEW_MD: &str = "REVIEW.md";
/// `meta.json` (ours).
pub const META_JSON: &str = "meta.json";
/// Where scripts live inside the environment.
pub const ENV_HOME: &str = "/home/user";

/// What `config.json` carries beyond the task itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConfigJson {
    /// The instruction.
    pub instruction: String,
    /// The task id.
    pub id: String,
    /// `app_type`.
    pub app_type: String,
    /// URL prefix for the scripts ("" = the original URLs, else relative names).
    pub url_prefix: String,
    /// The original bundle's script URLs (initial_setup.py's download URL, the evaluator URL),
    /// kept when no prefix is asked for.
    pub original_urls: (Option<String>, Option<String>),
    /// `generated_at` (`None` = unknown: the field is left out, never invented).
    pub generated_at: Option<String>,
    /// `adversarial_rounds` (the original value verbatim for an imported tuple, e.g. `"3"`).
    pub adversarial_rounds: Value,
    /// Filter output: `reject`, `train_poor_fit` (present only after the vote filter).
    pub filter: Option<(bool, bool)>,
    /// `revised_query` (only when the query was modified).
    pub revised_query: Option<String>,
}

impl ConfigJson {
    /// The exact public shape, fields in the public order.
    pub fn to_value(&self) -> Value {
        let prefix = self.url_prefix.replace("{task_id}", &self.id);
        let url = |original: &Option<String>, name: &str| match original {
            Some(u) if prefix.is_empty() => u.clone(),
            _ => format!("{prefix}{name}"),
        };
        let mut obj = Map::new();
        obj.insert("instruction".into(), json!(self.instruction));
        obj.insert("id".into(), json!(self.id));
        obj.insert("app_type".into(), json!(self.app_type));
        obj.insert(
            "config".into(),
            json!([
                {"type": "download", "parameters": {"files": [
                    {"url": url(&self.original_urls.0, SETUP_PY), "path": format!("{ENV_HOME}/{SETUP_PY}")}
                ]}},
                {"type": "execute", "parameters": {"command": format!("python3 {ENV_HOME}/{SETUP_PY}")}}
            ]),
        );
        obj.insert(
            "evaluator".into(),
            json!({"type": "python", "url": url(&self.original_urls.1, REWARD_PY)}),
        );
        if let Some(at) = &self.generated_at {
            obj.insert("generated_at".into(), json!(at));
        }
        obj.insert("adversarial_rounds".into(), json!(self.adversarial_rounds));
        if let Some((reject, poor)) = self.filter {
            obj.insert("reject".into(), json!(reject));
            obj.insert("train_poor_fit".into(), json!(poor));
        }
        if let Some(q) = &self.revised_query {
            obj.insert("revised_query".into(), json!(q));
        }
        Value::Object(obj)
    }
}

/// The script URLs of a `config.json`: the download URL of `initial_setup.py` and the evaluator's.
pub fn script_urls(config: &Value) -> (Option<String>, Option<String>) {
    let setup = config
        .get("config")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|step| step.pointer("/parameters/files").and_then(Value::as_array))
        .flatten()
        .find(|f| {
            f.get("path")
                .and_then(Value::as_str)
                .is_some_and(|p| p.ends_with(SETUP_PY))
        })
        .and_then(|f| f.get("url").and_then(Value::as_str))
        .map(str::to_string);
    let reward = config
        .pointer("/evaluator/url")
        .and_then(Value::as_str)
        .map(str::to_string);
    (setup, reward)
}

/// Which `config.json` variant a bundle uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigVariant {
    /// `config: [{type: download, parameters: {files}}, {type: execute, parameters: {command}}]`.
    Strict,
    /// `config: [{type: execute, command: ["python3", "initial_setup.py"]}]`.
    Loose,
}

/// Checks the `config` list of a `config.json`; returns the variant or the problem's field path.
pub fn classify_config(config: &Value) -> Result<ConfigVariant, (String, String)> {
    let Value::Array(steps) = config else {
        return Err(("config".into(), "expected a list of setup steps".into()));
    };
    let mut loose = false;
    for (i, step) in steps.iter().enumerate() {
        let field = |k: &str| format!("config[{i}].{k}");
        let kind = step
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| (field("type"), "missing or not a string".to_string()))?;
        match kind {
            "download" => {
                let files = step.pointer("/parameters/files").and_then(Value::as_array);
                if files.is_none() {
                    return Err((
                        field("parameters.files"),
                        "expected a list of {url, path}".into(),
                    ));
                }
            }
            "execute" => {
                if step.pointer("/parameters/command").is_some() {
                } else if step.get("command").is_some_and(Value::is_array) {
                    loose = true;
                } else {
                    return Err((
                        field("parameters.command"),
                        "an execute step needs parameters.command or a command list".into(),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(if loose {
        ConfigVariant::Loose
    } else {
        ConfigVariant::Strict
    })
}
