//! Task-generation JSON: a list of task objects, or `{"tasks": [...]}`.
//!
//! Required: `task_id` (`<domain>_<topic>_<NNN>`, used as a directory name), `task_instruction`,
//! `context`, `difficulty` (easy|medium|hard). Optional and kept: `domain`, `domains` (mock apps),
//! `mock`, `port`, and our labels `platform`, `apps`, `scenario`, `task_type`, `source_pass`.
//! Every other field is kept verbatim in the stored original JSON.

use serde_json::{Map, Value};

use super::{json_type, valid_task_id, Problem};
use tuplewright_base::store::{Labels, TaskRecord};

/// The accepted difficulties.
pub const DIFFICULTIES: [&str; 3] = ["easy", "medium", "hard"];

/// Reads fields of one JSON object, naming the item in every problem.
pub struct Fields<'a> {
    pub obj: &'a Map<String, Value>,
    pub location: &'a str,
}

impl Fields<'_> {
    /// A required non-empty string.
    pub fn required(&self, key: &str) -> Result<String, Problem> {
        match self.obj.get(key) {
            None => Err(Problem::field(self.location, key, "missing")),
            Some(Value::String(s)) if s.trim().is_empty() => {
                Err(Problem::field(self.location, key, "is empty"))
            }
            Some(Value::String(s)) => Ok(s.clone()),
            Some(v) => Err(Problem::field(
                self.location,
                key,
                format!("expected a string, got {}", json_type(v)),
            )),
        }
    }

    /// An optional string (null = absent).
    pub fn optional(&self, key: &str) -> Result<Option<String>, Problem> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(Problem::field(
                self.location,
                key,
                format!("expected a string, got {}", json_type(v)),
            )),
        }
    }

    /// An optional list of strings.
    pub fn string_list(&self, key: &str) -> Result<Option<Vec<String>>, Problem> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(Problem::field(
                        self.location,
                        &format!("{key}[{i}]"),
                        format!("expected a string, got {}", json_type(other)),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(v) => Err(Problem::field(
                self.location,
                key,
                format!("expected a list of strings, got {}", json_type(v)),
            )),
        }
    }
}

/// Validates a task id.
pub fn check_task_id(id: &str, location: &str, key: &str) -> Result<(), Problem> {
    if valid_task_id(id) {
        Ok(())
    } else {
        Err(Problem::field(
            location,
            key,
            format!("{id:?} is not a valid task id (letters, digits, `_`, `-`, `.`; starts with a letter or digit)"),
        ))
    }
}

/// Validates an optional difficulty.
pub fn check_difficulty(d: &str, location: &str) -> Result<(), Problem> {
    if DIFFICULTIES.contains(&d) {
        Ok(())
    } else {
        Err(Problem::field(
            location,
            "difficulty",
            format!("expected one of easy|medium|hard, got {d:?}"),
        ))
    }
}

/// Parses a whole task-generation file. `Err` = the file as a whole is unusable; otherwise one
/// result per item, so one bad task does not stop the others.
pub fn parse_file(text: &str, file: &str) -> Result<Vec<Result<TaskRecord, Problem>>, Problem> {
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        Problem::item(
            file,
            format!(
                "not valid JSON (line {}, column {}): {e}",
                e.line(),
                e.column()
            ),
        )
    })?;
    let (items, prefix) = match &doc {
        Value::Array(items) => (items, ""),
        Value::Object(obj) => match obj.get("tasks") {
            Some(Value::Array(items)) => (items, "tasks"),
            Some(v) => {
                return Err(Problem::field(
                    file,
                    "tasks",
                    format!("expected a list of tasks, got {}", json_type(v)),
                ))
            }
            None => {
                return Err(Problem::item(
                    file,
                    "expected a list of tasks or an object with a \"tasks\" list",
                ))
            }
        },
        v => {
            return Err(Problem::item(
                file,
                format!(
                    "expected a list of tasks or {{\"tasks\": [...]}}, got {}",
                    json_type(v)
                ),
            ))
        }
    };
    if items.is_empty() {
        let list = if prefix.is_empty() {
            "[]"
        } else {
            "\"tasks\": []"
        };
        return Err(Problem::item(
            file,
            format!("no task in it (an empty list, {list}); a task file holds at least one task"),
        ));
    }
    let mut parsed: Vec<Result<TaskRecord, Problem>> = items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_task(item, &format!("{file}: {prefix}[{i}]"), file, true))
        .collect();
    reject_duplicates(&mut parsed, &|i| format!("{file}: {prefix}[{i}]"));
    Ok(parsed)
}

/// Every task whose id another item of the same file also uses becomes a problem naming all the
/// places: merging them silently would keep one and lose the other without saying which.
fn reject_duplicates(parsed: &mut [Result<TaskRecord, Problem>], place: &dyn Fn(usize) -> String) {
    let mut by_id: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for (i, t) in parsed.iter().enumerate() {
        if let Ok(t) = t {
            by_id.entry(t.task_id.clone()).or_default().push(i);
        }
    }
    for (id, at) in by_id.into_iter().filter(|(_, at)| at.len() > 1) {
        for &i in &at {
            let others: Vec<String> = at.iter().filter(|&&j| j != i).map(|&j| place(j)).collect();
            parsed[i] = Err(Problem::field(
                place(i),
                "task_id",
                format!(
                    "{id:?} is also the id of {}; task ids must be unique in a file",
                    others.join(", ")
                ),
            ));
        }
    }
}

/// Parses one task object. `require_difficulty`: task-generation input must label the difficulty;
/// a bundle's `task_config.json` may leave it out or null (bundles in the wild do).
pub fn parse_task(
    item: &Value,
    location: &str,
    origin_file: &str,
    require_difficulty: bool,
) -> Result<TaskRecord, Problem> {
    let Value::Object(obj) = item else {
        return Err(Problem::item(
            location,
            format!("expected a task object, got {}", json_type(item)),
        ));
    };
    let f = Fields { obj, location };
    let task_id = f.required("task_id")?;
    check_task_id(&task_id, location, "task_id")?;
    let instruction = f.required("task_instruction")?;
    let context = match obj.get("context") {
        Some(Value::String(s)) => s.clone(),
        Some(v @ (Value::Object(_) | Value::Array(_))) => v.to_string(),
        None => return Err(Problem::field(location, "context", "missing")),
        Some(v) => {
            return Err(Problem::field(
                location,
                "context",
                format!("expected a string, got {}", json_type(v)),
            ))
        }
    };
    let difficulty = if require_difficulty {
        Some(f.required("difficulty")?)
    } else {
        f.optional("difficulty")?
    };
    if let Some(d) = &difficulty {
        check_difficulty(d, location)?;
    }
    if let Some(v) = obj.get("port") {
        if !(v.is_u64() || v.is_null()) {
            return Err(Problem::field(location, "port", "expected a port number"));
        }
    }
    let domain = f.optional("domain")?;
    let mock = f.optional("mock")?;
    let apps = match (f.string_list("apps")?, f.string_list("domains")?) {
        (Some(apps), _) | (None, Some(apps)) => apps,
        (None, None) => mock.or_else(|| domain.clone()).into_iter().collect(),
    };
    let task_type = f.optional("task_type")?.or_else(|| {
        Some(
            if apps.len() > 1 {
                "cross_app"
            } else {
                "single_app"
            }
            .to_string(),
        )
    });
    let labels = Labels {
        platform: f.optional("platform")?,
        domain,
        apps,
        difficulty,
        scenario: f.optional("scenario")?,
        task_type,
        source_pass: f.optional("source_pass")?,
    };
    Ok(TaskRecord {
        task_id,
        instruction,
        context,
        labels,
        app_type: None,
        original_json: item.clone(),
        origin: format!(
            "{origin_file}#{}",
            location.rsplit(' ').next().unwrap_or("")
        ),
    })
}
