//! The launch form of the Rollouts screen: a policy (the built-in probes, `command`, and the VLM
//! teachers configured in `[rollout] policies`), the number of trials, the agent command for
//! `command`, temperature and max turns for a VLM policy, and the scope (the selected tuple or
//! every tuple in the Tuples view). Submitting validates the policy with the engine's own spec
//! parser (with the project's `[rollout]` and `[screen]` and the typed overrides) and yields one
//! `EngineCommand::StartRollouts`.
//!
//! Keys while the form is open: tab / down / up move between fields; left / right (or h / l) change
//! the policy or the scope; digits, `.` and backspace edit the numbers and the command; enter
//! launches; esc cancels.

use crate::data::EngineCommand;
use crate::keymap::{Code, Key};
use tuplewright_engine::rollout::spec::{PolicySpec, PolicySpecError};
use tuplewright_engine::rollout::vlm::is_vlm_spec;
use tuplewright_engine::rollout::RolloutConfig;
use tuplewright_engine::screen::ScreenConfig;

/// The built-in policies the form always offers (`tuplewright rollout --help`).
pub const BUILTIN: [&str; 4] = ["oracle", "noop", "ui-oracle", "command"];
/// Most trials per tuple the form accepts.
pub const MAX_TRIALS: u32 = 100;
/// Most model turns per trial the form accepts.
pub const MAX_TURNS: u32 = 1000;

/// What the form offers and validates with: the project's `[rollout]` and `[screen]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LaunchConfig {
    /// `[rollout]` (its `policies` are offered after the built-ins).
    pub rollout: RolloutConfig,
    /// `[screen]`.
    pub screen: ScreenConfig,
}

/// Decoding and budget typed in the form for a VLM policy (over `[rollout.vlm]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VlmOverrides {
    /// Sampling temperature.
    pub temperature: f64,
    /// Model turns per trial.
    pub max_turns: u32,
}

impl VlmOverrides {
    /// `cfg` with these values.
    pub fn apply(&self, cfg: &RolloutConfig) -> RolloutConfig {
        let mut c = cfg.clone();
        c.vlm.temperature = self.temperature;
        c.vlm.max_turns = self.max_turns;
        c
    }
}

/// A field of the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Field {
    /// The policy.
    #[default]
    Policy,
    /// Trials per tuple.
    Trials,
    /// The shell command (policy `command` only).
    Command,
    /// Sampling temperature (VLM policies only).
    Temperature,
    /// Model turns per trial (VLM policies only).
    MaxTurns,
    /// The selected tuple or every tuple in view.
    Scope,
}

/// The form's state.
#[derive(Debug, Clone, PartialEq)]
pub struct LaunchForm {
    /// The policies offered: [`BUILTIN`], then `[rollout] policies`.
    pub policies: Vec<String>,
    /// Index into `policies`.
    pub policy: usize,
    /// Trials as typed.
    pub trials: String,
    /// The agent command for `command`.
    pub command: String,
    /// Temperature as typed.
    pub temperature: String,
    /// Max turns as typed.
    pub max_turns: String,
    /// The field being edited.
    pub field: Field,
    /// Launch on every tuple of the Tuples view instead of the selected one.
    pub all_in_view: bool,
    /// Why the last submit was refused.
    pub error: Option<String>,
}

impl Default for LaunchForm {
    fn default() -> Self {
        LaunchForm::new(&LaunchConfig::default())
    }
}

/// A validated launch.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    /// The policy sent to the engine (`oracle`, `command:<cmd>`, `vlm:openai:M@URL`…), parsed.
    pub policy: PolicySpec,
    /// The name its trials are recorded under (a VLM spec without its URL).
    pub name: String,
    /// Trials per tuple.
    pub trials: u32,
    /// Temperature and max turns, for a VLM policy.
    pub vlm: Option<VlmOverrides>,
}

/// What a key did to the form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormOutcome {
    /// Still editing.
    Editing,
    /// Closed without launching.
    Cancelled,
    /// Launch.
    Launch(Launch),
}

impl LaunchForm {
    /// A form offering the built-ins and `cfg`'s configured policies, with its VLM defaults.
    pub fn new(cfg: &LaunchConfig) -> Self {
        let mut policies: Vec<String> = BUILTIN.iter().map(|p| p.to_string()).collect();
        for p in cfg.rollout.policies.iter().map(ToString::to_string) {
            if !policies.contains(&p) {
                policies.push(p);
            }
        }
        LaunchForm {
            policies,
            policy: 0,
            trials: "1".into(),
            command: String::new(),
            temperature: format!("{}", cfg.rollout.vlm.temperature),
            max_turns: cfg.rollout.vlm.max_turns.to_string(),
            field: Field::Policy,
            all_in_view: false,
            error: None,
        }
    }

    /// The policy selected.
    pub fn selected(&self) -> &str {
        self.policies
            .get(self.policy)
            .map_or("oracle", String::as_str)
    }

    /// The fields shown, in order.
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![Field::Policy, Field::Trials];
        if self.selected() == "command" {
            f.push(Field::Command);
        }
        if is_vlm_spec(self.selected()) {
            f.extend([Field::Temperature, Field::MaxTurns]);
        }
        f.push(Field::Scope);
        f
    }

    fn move_field(&mut self, delta: isize) {
        let f = self.fields();
        let i = f.iter().position(|x| *x == self.field).unwrap_or(0) as isize;
        self.field = f[(i + delta).rem_euclid(f.len() as isize) as usize];
    }

    fn overrides(&self) -> Result<VlmOverrides, String> {
        let temperature: f64 = self
            .temperature
            .parse()
            .map_err(|_| format!("temperature: `{}` is not a number", self.temperature))?;
        if !(0.0..=2.0).contains(&temperature) {
            return Err(format!("temperature: must be 0..=2, got {temperature}"));
        }
        let max_turns: u32 = self
            .max_turns
            .parse()
            .map_err(|_| format!("max turns: `{}` is not a whole number", self.max_turns))?;
        if !(1..=MAX_TURNS).contains(&max_turns) {
            return Err(format!(
                "max turns: must be 1..={MAX_TURNS}, got {max_turns}"
            ));
        }
        Ok(VlmOverrides {
            temperature,
            max_turns,
        })
    }

    /// The launch, or why the form cannot launch; the policy is built once with the engine's
    /// spec parser so a bad spec, format or coordinate space is refused here.
    pub fn validate(&self, cfg: &LaunchConfig) -> Result<Launch, String> {
        let trials: u32 = self
            .trials
            .parse()
            .map_err(|_| format!("trials: `{}` is not a whole number", self.trials))?;
        if !(1..=MAX_TRIALS).contains(&trials) {
            return Err(format!("trials: must be 1..={MAX_TRIALS}, got {trials}"));
        }
        let policy = match self.selected() {
            "command" if self.command.trim().is_empty() => {
                return Err("command: the agent command is empty".into())
            }
            "command" => format!("command:{}", self.command.trim()),
            p => p.to_string(),
        };
        let policy: PolicySpec = policy.parse().map_err(|e: PolicySpecError| e.to_string())?;
        let vlm = policy.is_vlm().then(|| self.overrides()).transpose()?;
        let rollout = vlm.map_or_else(|| cfg.rollout.clone(), |o| o.apply(&cfg.rollout));
        let name = policy
            .build(&rollout, &cfg.screen)
            .map_err(|e| e.to_string())?
            .name();
        Ok(Launch {
            policy,
            name,
            trials,
            vlm,
        })
    }

    fn text_field(&mut self) -> Option<&mut String> {
        match self.field {
            Field::Command => Some(&mut self.command),
            Field::Trials => Some(&mut self.trials),
            Field::Temperature => Some(&mut self.temperature),
            Field::MaxTurns => Some(&mut self.max_turns),
            Field::Policy | Field::Scope => None,
        }
    }

    /// Applies one key.
    pub fn key(&mut self, k: Key, cfg: &LaunchConfig) -> FormOutcome {
        let field = self.field;
        match k.code {
            Code::Esc => return FormOutcome::Cancelled,
            Code::Enter => match self.validate(cfg) {
                Ok(l) => return FormOutcome::Launch(l),
                Err(e) => self.error = Some(e),
            },
            Code::Tab | Code::Down => self.move_field(1),
            Code::BackTab | Code::Up => self.move_field(-1),
            Code::Backspace => {
                if let Some(t) = self.text_field() {
                    t.pop();
                }
            }
            Code::Char(c) if field == Field::Command && !k.ctrl && !k.alt => self.command.push(c),
            Code::Char(c)
                if matches!(field, Field::Trials | Field::MaxTurns | Field::Temperature)
                    && (c.is_ascii_digit() || (c == '.' && field == Field::Temperature)) =>
            {
                if let Some(t) = self.text_field() {
                    if *t == "0" && c != '.' && field != Field::Temperature {
                        t.clear();
                    }
                    if t.len() < 5 {
                        t.push(c);
                    }
                }
            }
            Code::Left | Code::Right | Code::Char('h') | Code::Char('l') | Code::Char(' ') => {
                let right = matches!(k.code, Code::Right | Code::Char('l') | Code::Char(' '));
                match field {
                    Field::Policy => {
                        let n = self.policies.len().max(1);
                        self.policy = (self.policy + if right { 1 } else { n - 1 }) % n;
                    }
                    Field::Scope => self.all_in_view = !self.all_in_view,
                    Field::Trials => {
                        let n: u32 = self.trials.parse().unwrap_or(1);
                        let n = if right { n + 1 } else { n.saturating_sub(1) };
                        self.trials = n.clamp(1, MAX_TRIALS).to_string();
                    }
                    Field::Command | Field::Temperature | Field::MaxTurns => {}
                }
            }
            _ => {}
        }
        FormOutcome::Editing
    }
}

/// The engine command of a launch.
pub fn command(task_ids: Vec<String>, launch: &Launch) -> EngineCommand {
    EngineCommand::StartRollouts {
        task_ids,
        policy: launch.policy.clone(),
        trials: launch.trials,
        vlm: launch.vlm,
    }
}

#[cfg(test)]
#[path = "launch_tests.rs"]
mod tests;
