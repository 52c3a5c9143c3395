//! The tools each LLM agent may call. The Generator can only write its two scripts; the
//! Discriminator can only write reward.py and reach the environments through its [`EnvProbe`]. No
//! tool reads files: nothing of the Generator's can flow to the Discriminator through here.

use std::collections::BTreeMap;

use serde_json::json;

use super::reply::extract_files;
use super::session::{str_arg, ToolOutcome, Toolbox};
use crate::agents::{AgentError, Endpoint, EnvProbe};
use tuplewright_models::providers::{head_tail, ToolCall, ToolSpec};

/// The Generator's files.
pub const GENERATOR_FILES: [&str; 2] = ["initial_setup.py", "golden_patch.py"];
/// The Discriminator's file.
pub const DISCRIMINATOR_FILES: [&str; 1] = ["reward.py"];

fn write_file_spec(allowed: &[&str]) -> ToolSpec {
    ToolSpec {
        name: "write_file".into(),
        description: format!(
            "Save the full text of one of your files ({}). Writing a file again replaces it.",
            allowed.join(", ")
        ),
        parameters: json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "enum": allowed},
                "content": {"type": "string", "description": "the complete file text"}
            },
            "required": ["path", "content"]
        }),
    }
}

fn env_param() -> serde_json::Value {
    json!({"type": "string", "enum": ["init", "gold"],
           "description": "init = V_init after initial_setup.py; gold = V_gold after golden_patch.py"})
}

/// Files written so far, by name, restricted to `allowed`.
#[derive(Debug, Default)]
pub struct FileSet {
    allowed: Vec<&'static str>,
    files: BTreeMap<String, String>,
}

impl FileSet {
    fn new(allowed: &[&'static str]) -> Self {
        Self {
            allowed: allowed.to_vec(),
            files: BTreeMap::new(),
        }
    }

    fn missing(&self) -> Vec<&'static str> {
        self.allowed
            .iter()
            .copied()
            .filter(|n| !self.files.contains_key(*n))
            .collect()
    }

    fn write(&mut self, call: &ToolCall) -> ToolOutcome {
        let (path, content) = match (str_arg(call, "path"), str_arg(call, "content")) {
            (Ok(p), Ok(c)) => (p.trim().trim_start_matches("./"), c),
            (Err(e), _) | (_, Err(e)) => return e,
        };
        if !self.allowed.contains(&path) {
            return ToolOutcome::err(format!(
                "refused: you may only write {} (got {path:?})",
                self.allowed.join(", ")
            ));
        }
        if content.trim().is_empty() {
            return ToolOutcome::err(format!("refused: {path} would be empty"));
        }
        self.files.insert(path.to_string(), content.to_string());
        let missing = self.missing();
        ToolOutcome::ok(if missing.is_empty() {
            format!(
                "saved {path} ({} bytes); all files are written",
                content.len()
            )
        } else {
            format!(
                "saved {path} ({} bytes); still to write: {}",
                content.len(),
                missing.join(", ")
            )
        })
    }

    fn finish(&mut self, text: &str, single_fallback: bool) -> Result<(), String> {
        // An unnamed block is only taken when nothing was saved: once a file exists, a stray
        // snippet in the closing message must not replace it.
        let single_fallback = single_fallback && self.files.is_empty();
        for (name, body) in extract_files(text, &self.allowed, single_fallback)? {
            if body.trim().is_empty() {
                return Err(format!("the block {name} is empty"));
            }
            self.files.insert(name, body);
        }
        let missing = self.missing();
        if missing.is_empty() {
            return Ok(());
        }
        let examples: Vec<String> = missing.iter().map(|n| format!("```{n}")).collect();
        Err(format!(
            "missing {}: write it with the write_file tool or as a fenced block opened by {}",
            missing.join(" and "),
            examples.join(" / ")
        ))
    }

    /// Takes a written file.
    pub fn take(&mut self, name: &str) -> String {
        self.files.remove(name).unwrap_or_default()
    }
}

fn unknown_tool(call: &ToolCall, available: &[&str]) -> ToolOutcome {
    ToolOutcome::err(format!(
        "unknown tool `{}`; available tools: {}",
        call.name,
        available.join(", ")
    ))
}

/// The Generator's toolbox: `write_file` for its two scripts, nothing else.
#[derive(Debug)]
pub struct GeneratorTools {
    /// The scripts written so far.
    pub files: FileSet,
}

impl Default for GeneratorTools {
    fn default() -> Self {
        Self {
            files: FileSet::new(&GENERATOR_FILES),
        }
    }
}

impl Toolbox for GeneratorTools {
    fn specs(&self) -> Vec<ToolSpec> {
        vec![write_file_spec(&GENERATOR_FILES)]
    }

    fn call(&mut self, call: &ToolCall) -> Result<ToolOutcome, AgentError> {
        Ok(match call.name.as_str() {
            "write_file" => self.files.write(call),
            _ => unknown_tool(call, &["write_file"]),
        })
    }

    fn finish(&mut self, text: &str) -> Result<(), String> {
        self.files.finish(text, false)
    }
}

/// The Discriminator's toolbox: `write_file` (reward.py only), `read_state` and `dry_run_reward`,
/// both of which go through the probe and nowhere else.
pub struct DiscriminatorTools<'p> {
    /// reward.py once written.
    pub files: FileSet,
    probe: &'p dyn EnvProbe,
    max_output: usize,
}

impl<'p> DiscriminatorTools<'p> {
    /// A toolbox over `probe`; tool outputs are cut to `max_output` characters.
    pub fn new(probe: &'p dyn EnvProbe, max_output: usize) -> Self {
        Self {
            files: FileSet::new(&DISCRIMINATOR_FILES),
            probe,
            max_output,
        }
    }

    fn endpoint(call: &ToolCall) -> Result<Endpoint, ToolOutcome> {
        match str_arg(call, "env")? {
            "init" => Ok(Endpoint::Init),
            "gold" => Ok(Endpoint::Gold),
            other => Err(ToolOutcome::err(format!(
                "`env` must be \"init\" or \"gold\", got {other:?}"
            ))),
        }
    }

    /// Probe failures the model can act on become tool errors; infrastructure failures and
    /// cancellation end the call.
    fn probe_result(&self, r: Result<String, AgentError>) -> Result<ToolOutcome, AgentError> {
        match r {
            Ok(text) => Ok(ToolOutcome::ok(head_tail(&text, self.max_output))),
            Err(AgentError::Malformed(why)) => Ok(ToolOutcome::err(why)),
            Err(e) => Err(e),
        }
    }
}

impl Toolbox for DiscriminatorTools<'_> {
    fn specs(&self) -> Vec<ToolSpec> {
        vec![
            write_file_spec(&DISCRIMINATOR_FILES),
            ToolSpec {
                name: "read_state".into(),
                description: "Read the current state of one environment through its state API \
                              (read-only)."
                    .into(),
                parameters: json!({"type": "object", "properties": {"env": env_param()},
                                   "required": ["env"]}),
            },
            ToolSpec {
                name: "dry_run_reward".into(),
                description: "Run a draft reward.py on one environment in the reader role and see \
                              its stdout. `content` defaults to the reward.py saved with write_file."
                    .into(),
                parameters: json!({"type": "object", "properties": {
                    "env": env_param(),
                    "content": {"type": "string", "description": "draft reward.py text"}},
                    "required": ["env"]}),
            },
        ]
    }

    fn call(&mut self, call: &ToolCall) -> Result<ToolOutcome, AgentError> {
        match call.name.as_str() {
            "write_file" => Ok(self.files.write(call)),
            "read_state" => {
                let which = match Self::endpoint(call) {
                    Ok(w) => w,
                    Err(e) => return Ok(e),
                };
                let state = self
                    .probe
                    .read_state(which)
                    .map(|v| serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string()));
                self.probe_result(state)
            }
            "dry_run_reward" => {
                let which = match Self::endpoint(call) {
                    Ok(w) => w,
                    Err(e) => return Ok(e),
                };
                let draft =
                    match call.arguments.get("content").and_then(|v| v.as_str()) {
                        Some(c) => c.to_string(),
                        None => match self.files.files.get("reward.py") {
                            Some(saved) => saved.clone(),
                            None => return Ok(ToolOutcome::err(
                                "no draft: pass `content` or save reward.py with write_file first",
                            )),
                        },
                    };
                let out = self.probe.dry_run_reward(which, &draft);
                self.probe_result(out)
            }
            _ => Ok(unknown_tool(
                call,
                &["write_file", "read_state", "dry_run_reward"],
            )),
        }
    }

    fn finish(&mut self, text: &str) -> Result<(), String> {
        self.files.finish(text, true)
    }
}
