//! The `scripted` agents: the embedded, offline default Generator and Discriminator.
//!
//! **This is a procedural generator, not a model.** It builds `initial_setup.py`, `golden_patch.py`
//! and `reward.py` from hand-written templates under `skills/<app>/templates/<name>/` (embedded in
//! the binary; an override directory of the same layout wins), filled with the task's structured
//! slots. The scripts are real Python and are really executed by the harness; what is canned is the
//! authorship. Output is deterministic for a seed and uses no network.
//!
//! A task file selects a template with two extra fields (kept verbatim in [`TaskBrief::structured`]):
//!
//! ```json
//! {"task_id": "team-chat_announce_001", "task_instruction": "…", "context": "…", "difficulty": "easy",
//!  "template": "post_message", "slots": {"channel": "general", "text": "…", "must_include": ["…"]}}
//! ```
//!
//! `template` is `<name>` (looked up under each of the task's apps, then `cross/`, then `_common/`)
//! or an explicit `<dir>/<name>`. Each template's `template.toml` documents its slots.
//!
//! The Discriminator renders `reward.py` from the task's slots only; it never sees Generator output.
//! With `fault_rate > 0` the Generator makes realistic first-attempt mistakes and fixes the one a
//! previous REVIEW.md names ([`faults`]).

pub mod faults;
pub mod render;
pub mod templates;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    AgentError, Discriminator, DiscriminatorInput, DiscriminatorOutput, EnvProbe, Generator,
    GeneratorInput, GeneratorOutput, TaskBrief, Usage,
};
use faults::FaultKind;
use templates::Template;

/// Configuration of the scripted agents (`[agents.scripted]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScriptedConfig {
    /// Seed of every pseudo-random decision (which tasks get a mistake, and which kind).
    pub seed: u64,
    /// Probability in [0, 1] that a task's first Generator attempt contains a realistic mistake.
    pub fault_rate: f64,
    /// Most mistakes per task (1–3). Above 1, a mistake whose condition a earlier failure masks
    /// (NOT RUN) surfaces only in a later round, so convergences take up to 3 rounds.
    pub fault_depth: u32,
    /// Directory overriding the embedded templates (`<dir>/<app>/templates/<name>/…`).
    pub templates_dir: Option<PathBuf>,
}

impl Default for ScriptedConfig {
    fn default() -> Self {
        Self {
            seed: 0,
            fault_rate: 0.0,
            fault_depth: 1,
            templates_dir: None,
        }
    }
}

impl ScriptedConfig {
    /// Checks the fields; the error names the bad one.
    pub fn validate(&self) -> Result<(), AgentError> {
        if !(0.0..=1.0).contains(&self.fault_rate) {
            return Err(AgentError::Malformed(format!(
                "scripted agent: fault_rate must be in [0, 1], got {}",
                self.fault_rate
            )));
        }
        if !(1..=3).contains(&self.fault_depth) {
            return Err(AgentError::Malformed(format!(
                "scripted agent: fault_depth must be 1, 2 or 3, got {}",
                self.fault_depth
            )));
        }
        Ok(())
    }
}

/// The task's `template` and `slots`, read from [`TaskBrief::structured`].
#[derive(Debug, Clone, PartialEq)]
pub struct TaskSpec {
    /// The template reference.
    pub template: String,
    /// The slot object.
    pub slots: Value,
}

impl TaskSpec {
    /// Reads the structured fields; the error names the task and the missing or bad field.
    pub fn from_brief(brief: &TaskBrief) -> Result<TaskSpec, AgentError> {
        let bad = |what: &str| {
            AgentError::Malformed(format!(
                "task {}: the scripted agent needs {what} in the task file",
                brief.task_id
            ))
        };
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| bad("a string field `template`"))?;
        let slots = brief
            .structured
            .get("slots")
            .filter(|v| v.is_object())
            .ok_or_else(|| bad("an object field `slots`"))?;
        Ok(TaskSpec {
            template: template.to_string(),
            slots: slots.clone(),
        })
    }

    fn template(&self, brief: &TaskBrief, cfg: &ScriptedConfig) -> Result<Template, AgentError> {
        templates::lookup(&self.template, &brief.apps, cfg.templates_dir.as_deref())
            .map_err(|e| AgentError::Malformed(format!("task {}: {e}", brief.task_id)))
    }
}

/// What both scripted agents check before the first round: the structured fields are there, the
/// template exists, and the slots hold every slot the template reads unconditionally.
fn preflight(brief: &TaskBrief, cfg: &ScriptedConfig) -> Result<(), String> {
    let bad = |e: AgentError| match e {
        AgentError::Malformed(m) => m,
        e => e.to_string(),
    };
    let spec = TaskSpec::from_brief(brief).map_err(bad)?;
    let tpl = spec.template(brief, cfg).map_err(bad)?;
    let missing: Vec<String> = templates::required_slots(&tpl)
        .into_iter()
        .filter(|k| spec.slots.get(k).is_none())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "task {}: template `{}` needs slot(s) {} that `slots` lacks",
        brief.task_id,
        tpl.id,
        missing.join(", ")
    ))
}

fn usage() -> Usage {
    Usage {
        model: "scripted".into(),
        calls: 1,
        ..Usage::default()
    }
}

/// The scripted Generator: setup and golden patch from the task's template.
#[derive(Debug, Clone, Default)]
pub struct ScriptedGenerator {
    cfg: ScriptedConfig,
}

impl ScriptedGenerator {
    /// A Generator with this configuration (validated).
    pub fn new(cfg: ScriptedConfig) -> Result<Self, AgentError> {
        cfg.validate()?;
        Ok(Self { cfg })
    }

    /// The mistake this Generator makes in the given attempt, if any.
    pub fn fault_for(&self, task_id: &str, previous_review: Option<&str>) -> Option<FaultKind> {
        self.faults_for(task_id, previous_review).into_iter().next()
    }

    /// Every mistake still present in this attempt (see [`ScriptedConfig::fault_depth`]).
    pub fn faults_for(&self, task_id: &str, previous_review: Option<&str>) -> Vec<FaultKind> {
        let planned = faults::planned_all(
            self.cfg.seed,
            task_id,
            self.cfg.fault_rate,
            self.cfg.fault_depth,
        );
        planned
            .into_iter()
            .filter(|kind| faults::still_present(*kind, previous_review))
            .collect()
    }
}

impl Generator for ScriptedGenerator {
    fn name(&self) -> String {
        "scripted".into()
    }

    fn preflight(&self, brief: &TaskBrief) -> Result<(), String> {
        preflight(brief, &self.cfg)
    }

    fn generate(&self, input: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        let brief = input.brief;
        let spec = TaskSpec::from_brief(brief)?;
        let tpl = spec.template(brief, &self.cfg)?;
        let mut setup_slots = spec.slots.clone();
        let mut golden_slots = spec.slots.clone();
        let faults = self.faults_for(&brief.task_id, input.previous_review);
        for fault in &faults {
            match fault {
                FaultKind::SetupCrash => {
                    if let (Some(key), Value::Object(map)) =
                        (faults::first_setup_key(&tpl.setup), &mut setup_slots)
                    {
                        if let Some(v) = map.remove(&key) {
                            map.insert(faults::typo(&key), v);
                        }
                    }
                }
                FaultKind::GoldenRegression => {
                    let source = tpl
                        .meta
                        .fault_source
                        .as_deref()
                        .and_then(|s| spec.slots.get(s));
                    if let Some(map) = golden_slots.as_object_mut() {
                        if let Some(v) = map.get(&tpl.meta.fault_slot) {
                            let wrong = faults::mutate(v, source);
                            map.insert(tpl.meta.fault_slot.clone(), wrong);
                        }
                    }
                }
                FaultKind::PreComplete => {}
            }
        }
        let mut initial_setup =
            render::script("initial_setup.py", &tpl.id, &setup_slots, &tpl.setup);
        if faults.contains(&FaultKind::PreComplete) {
            render::append(&mut initial_setup, &spec.slots, &tpl.golden);
        }
        let golden_patch = render::script("golden_patch.py", &tpl.id, &golden_slots, &tpl.golden);
        Ok(GeneratorOutput {
            initial_setup,
            golden_patch,
            usage: usage(),
        })
    }
}

/// The scripted Discriminator: reward.py from the task's template and slots only.
#[derive(Debug, Clone, Default)]
pub struct ScriptedDiscriminator {
    cfg: ScriptedConfig,
}

impl ScriptedDiscriminator {
    /// A Discriminator with this configuration (validated).
    pub fn new(cfg: ScriptedConfig) -> Result<Self, AgentError> {
        cfg.validate()?;
        Ok(Self { cfg })
    }
}

impl Discriminator for ScriptedDiscriminator {
    fn name(&self) -> String {
        "scripted".into()
    }

    fn preflight(&self, brief: &TaskBrief) -> Result<(), String> {
        preflight(brief, &self.cfg)
    }

    fn write_reward(
        &self,
        input: &DiscriminatorInput<'_>,
        _probe: &dyn EnvProbe,
    ) -> Result<DiscriminatorOutput, AgentError> {
        let brief = input.brief;
        let spec = TaskSpec::from_brief(brief)?;
        let tpl = spec.template(brief, &self.cfg)?;
        Ok(DiscriminatorOutput {
            reward: render::script("reward.py", &tpl.id, &spec.slots, &tpl.reward),
            usage: usage(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief(structured: Value) -> TaskBrief {
        TaskBrief {
            task_id: "teamchat_x_001".into(),
            instruction: "i".into(),
            context: "c".into(),
            difficulty: "easy".into(),
            apps: vec!["team-chat".into()],
            skills: Vec::new(),
            structured,
        }
    }

    #[test]
    fn missing_structured_fields_are_named() {
        let g = ScriptedGenerator::default();
        let input = |b| GeneratorInput {
            brief: b,
            round: 1,
            previous_review: None,
        };
        let b = brief(Value::Null);
        let err = g.generate(&input(&b)).unwrap_err().to_string();
        assert!(
            err.contains("teamchat_x_001") && err.contains("`template`"),
            "{err}"
        );
        let b = brief(serde_json::json!({"template": "post_message", "slots": []}));
        let err = g.generate(&input(&b)).unwrap_err().to_string();
        assert!(err.contains("`slots`"), "{err}");
        let b = brief(serde_json::json!({"template": "zzz", "slots": {}}));
        assert!(g
            .generate(&input(&b))
            .unwrap_err()
            .to_string()
            .contains("no template `zzz`"));
    }

    #[test]
    fn fault_rate_outside_unit_interval_is_refused() {
        let cfg = ScriptedConfig {
            fault_rate: 1.5,
            ..ScriptedConfig::default()
        };
        assert!(ScriptedGenerator::new(cfg)
            .unwrap_err()
            .to_string()
            .contains("fault_rate"));
    }

    #[test]
    fn scripts_name_their_procedural_origin() {
        let b = brief(serde_json::json!({"template": "post_message",
            "slots": {"channel": "general", "text": "hi", "must_include": ["hi"]}}));
        let out = ScriptedGenerator::default()
            .generate(&GeneratorInput {
                brief: &b,
                round: 1,
                previous_review: None,
            })
            .unwrap();
        assert!(out.initial_setup.contains("procedural generator"));
        assert_eq!(out.usage.model, "scripted");
        assert!(out.golden_patch.contains("S = json.loads("));
    }
}
