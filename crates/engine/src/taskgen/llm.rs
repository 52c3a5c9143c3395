//! The LLM task author: one chat call per candidate, given the taxonomy leaf, the matrix cell and
//! the app's SKILL.md (prompt: `prompts/taskgen.md`), answering one strict JSON object
//! `{"task_instruction", "context", "instruction_template"}`. A rejected candidate (rules,
//! repetition, unreadable answer) goes back in the next call with a "diversify" note naming the
//! reason.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::Deserialize;

use super::matrix::Cell;
use super::taxonomy::Leaf;
use super::TaskgenError;
use crate::agents::Usage;
use tuplewright_models::providers::{ChatProvider, ChatRequest, Message};

/// SKILL.md excerpts longer than this are cut (head and tail kept).
const SKILL_CHARS: usize = 12_000;

/// A candidate as the model wrote it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Authored {
    /// The instruction t.
    pub task_instruction: String,
    /// The context c (initial state and checkpoints).
    pub context: String,
    /// The instruction with its values replaced by slot names.
    pub instruction_template: String,
}

/// Parses the model's reply: one JSON object (optionally inside a single ```json fence), exactly
/// the three string fields, none empty. The error names what was wrong and where.
pub fn parse_answer(text: &str) -> Result<Authored, String> {
    let t = text.trim();
    let body = match t.strip_prefix("```") {
        Some(rest) => {
            let rest = rest.strip_prefix("json").unwrap_or(rest);
            rest.strip_suffix("```")
                .ok_or("a ``` fence is opened but not closed")?
                .trim()
        }
        None => t,
    };
    if !body.starts_with('{') {
        return Err(format!(
            "the reply must be one JSON object, it starts with {:?}",
            body.chars().take(30).collect::<String>()
        ));
    }
    let mut de = serde_json::Deserializer::from_str(body);
    let a: Authored = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        format!("at `{path}`: {}", e.inner())
    })?;
    de.end()
        .map_err(|e| format!("text after the JSON object: {e}"))?;
    for (name, v) in [
        ("task_instruction", &a.task_instruction),
        ("context", &a.context),
        ("instruction_template", &a.instruction_template),
    ] {
        if v.trim().is_empty() {
            return Err(format!("`{name}` is empty"));
        }
    }
    Ok(a)
}

/// Writes candidates with a chat provider.
pub struct LlmAuthor {
    provider: Arc<dyn ChatProvider>,
    system: String,
    skills_dir: PathBuf,
    skills: Mutex<HashMap<String, String>>,
    usage: Mutex<Vec<Usage>>,
}

/// What one candidate is for.
pub struct Brief<'a> {
    /// The taxonomy leaf.
    pub leaf: &'a Leaf,
    /// The apps the task uses.
    pub apps: &'a [&'a str],
    /// The matrix cell.
    pub cell: &'a Cell,
    /// Why the previous candidate was rejected (the "diversify" instruction), if it was.
    pub rejected: Option<&'a str>,
}

impl LlmAuthor {
    /// Reads `prompts_dir/taskgen.md`; SKILL.md files are read from `skills_dir/<app>/` on use.
    pub fn new(
        provider: Arc<dyn ChatProvider>,
        prompts_dir: &Path,
        skills_dir: &Path,
    ) -> Result<Self, TaskgenError> {
        let path = prompts_dir.join("taskgen.md");
        let system = std::fs::read_to_string(&path).map_err(|source| TaskgenError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(Self {
            provider,
            system,
            skills_dir: skills_dir.to_path_buf(),
            skills: Mutex::new(HashMap::new()),
            usage: Mutex::new(Vec::new()),
        })
    }

    /// `kind:model` of the provider.
    pub fn name(&self) -> String {
        self.provider.name()
    }

    /// Token usage of every call so far.
    pub fn usage(&self) -> Vec<Usage> {
        self.usage.lock().map(|u| u.clone()).unwrap_or_default()
    }

    fn skill(&self, app: &str) -> Result<String, TaskgenError> {
        let mut cache = self
            .skills
            .lock()
            .map_err(|_| TaskgenError::Request("SKILL.md cache poisoned".into()))?;
        if let Some(s) = cache.get(app) {
            return Ok(s.clone());
        }
        let path = self.skills_dir.join(app).join("SKILL.md");
        let text = match crate::apps::get(app) {
            Some(pack) if !path.exists() => pack.app.skill_text().to_string(),
            _ => std::fs::read_to_string(&path).map_err(|source| TaskgenError::Io {
                path: path.clone(),
                source,
            })?,
        };
        let text = tuplewright_models::providers::head_tail(&text, SKILL_CHARS);
        cache.insert(app.to_string(), text.clone());
        Ok(text)
    }

    /// The user message of one call.
    pub fn prompt(&self, b: &Brief<'_>) -> Result<String, TaskgenError> {
        let c = b.cell;
        let mut p = format!(
            "## Taxonomy leaf\n{}:{} — {}\nUI elements: {}\n",
            b.leaf.app,
            b.leaf.path,
            b.leaf.description,
            b.leaf.ui.join(", ")
        );
        if !b.leaf.primitives.is_empty() {
            p.push_str(&format!(
                "Action primitives to stress: {}\n",
                b.leaf.primitives.join(", ")
            ));
        }
        p.push_str(&format!(
            "\n## Matrix cell\nplatform: {}\ndomain category: {}\ndifficulty: {}\nscenario: {}\ntask type: {}\napps: {}\n",
            c.platform, c.category, c.difficulty, c.scenario, c.task_type, b.apps.join(", ")
        ));
        for app in b.apps {
            p.push_str(&format!("\n## SKILL.md of {app}\n{}\n", self.skill(app)?));
        }
        if let Some(why) = b.rejected {
            p.push_str(&format!(
                "\n## Diversify\nYour previous candidate was rejected: {why}. Write a different task \
                 (other entities, other goal, other sentence structure) that avoids this.\n"
            ));
        }
        p.push_str("\nReply with the JSON object only.");
        Ok(p)
    }

    /// One call. Outer error: infrastructure (the provider failed); inner error: the reply is not
    /// a valid answer (the reason, for the diversify note).
    pub fn author(&self, b: &Brief<'_>) -> Result<Result<Authored, String>, TaskgenError> {
        let req = ChatRequest {
            system: self.system.clone(),
            messages: vec![Message::User(self.prompt(b)?)],
            tools: Vec::new(),
        };
        let resp = self
            .provider
            .chat(&req)
            .map_err(|e| TaskgenError::Agent(e.to_string()))?;
        if let Ok(mut u) = self.usage.lock() {
            u.push(resp.usage.clone());
        }
        Ok(parse_answer(&resp.text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_answers_only() {
        let ok = r#"{"task_instruction": "Move WEB-105 to In Review.", "context": "c", "instruction_template": "Move ISSUE to STATUS."}"#;
        assert_eq!(parse_answer(ok).unwrap().context, "c");
        let fenced = format!("```json\n{ok}\n```");
        assert!(parse_answer(&fenced).is_ok());
        let extra = r#"{"task_instruction": "a", "context": "c", "instruction_template": "t", "steps": []}"#;
        assert!(parse_answer(extra).unwrap_err().contains("steps"));
        let missing = r#"{"task_instruction": "a", "context": "c"}"#;
        assert!(parse_answer(missing)
            .unwrap_err()
            .contains("instruction_template"));
        let wrong = r#"{"task_instruction": 3, "context": "c", "instruction_template": "t"}"#;
        assert!(parse_answer(wrong)
            .unwrap_err()
            .contains("at `task_instruction`"));
        assert!(parse_answer("Sure! Here it is: {}")
            .unwrap_err()
            .contains("one JSON object"));
        let empty = r#"{"task_instruction": " ", "context": "c", "instruction_template": "t"}"#;
        assert_eq!(
            parse_answer(empty).unwrap_err(),
            "`task_instruction` is empty"
        );
        assert!(parse_answer(&format!("{ok} more"))
            .unwrap_err()
            .contains("after the JSON"));
    }
}
