//! The launch form of the Rollouts screen: a policy (as `tuplewright rollout --policy` lists
//! them), the number of trials, the agent command for `command`, and the scope (the selected tuple
//! or every tuple in the Tuples view). Submitting yields one `EngineCommand::StartRollouts`.
//!
//! Keys while the form is open: tab / down / up move between fields; left / right (or h / l) change
//! the policy or the scope; digits and backspace edit the trials and the command; enter launches;
//! esc cancels.

use crate::tui::data::EngineCommand;
use crate::tui::keymap::{Code, Key};

/// The policies the form offers (`tuplewright rollout --help`).
pub const POLICIES: [&str; 3] = ["oracle", "noop", "command"];
/// Most trials per tuple the form accepts.
pub const MAX_TRIALS: u32 = 100;

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
    /// The selected tuple or every tuple in view.
    Scope,
}

/// The form's state.
#[derive(Debug, Clone, PartialEq)]
pub struct LaunchForm {
    /// Index into [`POLICIES`].
    pub policy: usize,
    /// Trials as typed.
    pub trials: String,
    /// The agent command for `command`.
    pub command: String,
    /// The field being edited.
    pub field: Field,
    /// Launch on every tuple of the Tuples view instead of the selected one.
    pub all_in_view: bool,
    /// Why the last submit was refused.
    pub error: Option<String>,
}

impl Default for LaunchForm {
    fn default() -> Self {
        LaunchForm {
            policy: 0,
            trials: "1".into(),
            command: String::new(),
            field: Field::Policy,
            all_in_view: false,
            error: None,
        }
    }
}

/// What a key did to the form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormOutcome {
    /// Still editing.
    Editing,
    /// Closed without launching.
    Cancelled,
    /// Launch: the policy string (`oracle`, `noop`, `command:<shell command>`) and trials.
    Launch(String, u32),
}

impl LaunchForm {
    /// The fields shown, in order (Command only for the command policy).
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![Field::Policy, Field::Trials];
        if POLICIES[self.policy] == "command" {
            f.push(Field::Command);
        }
        f.push(Field::Scope);
        f
    }

    fn move_field(&mut self, delta: isize) {
        let f = self.fields();
        let i = f.iter().position(|x| *x == self.field).unwrap_or(0) as isize;
        self.field = f[(i + delta).rem_euclid(f.len() as isize) as usize];
    }

    /// The policy string sent to the engine, or why the form cannot launch.
    pub fn validate(&self) -> Result<(String, u32), String> {
        let trials: u32 = self
            .trials
            .parse()
            .map_err(|_| format!("trials: `{}` is not a whole number", self.trials))?;
        if !(1..=MAX_TRIALS).contains(&trials) {
            return Err(format!("trials: must be 1..={MAX_TRIALS}, got {trials}"));
        }
        let policy = match POLICIES[self.policy] {
            "command" if self.command.trim().is_empty() => {
                return Err("command: the agent command is empty".into())
            }
            "command" => format!("command:{}", self.command.trim()),
            p => p.to_string(),
        };
        Ok((policy, trials))
    }

    /// Applies one key.
    pub fn key(&mut self, k: Key) -> FormOutcome {
        let typing = self.field == Field::Command;
        match k.code {
            Code::Esc => return FormOutcome::Cancelled,
            Code::Enter => match self.validate() {
                Ok((p, n)) => return FormOutcome::Launch(p, n),
                Err(e) => self.error = Some(e),
            },
            Code::Tab | Code::Down => self.move_field(1),
            Code::BackTab | Code::Up => self.move_field(-1),
            Code::Backspace if typing => {
                self.command.pop();
            }
            Code::Backspace if self.field == Field::Trials => {
                self.trials.pop();
            }
            Code::Char(c) if typing && !k.ctrl && !k.alt => self.command.push(c),
            Code::Char(c) if self.field == Field::Trials && c.is_ascii_digit() => {
                if self.trials == "0" {
                    self.trials.clear();
                }
                if self.trials.len() < 3 {
                    self.trials.push(c);
                }
            }
            Code::Left | Code::Right | Code::Char('h') | Code::Char('l') | Code::Char(' ') => {
                let right = matches!(k.code, Code::Right | Code::Char('l') | Code::Char(' '));
                match self.field {
                    Field::Policy => {
                        let n = POLICIES.len();
                        self.policy = (self.policy + if right { 1 } else { n - 1 }) % n;
                    }
                    Field::Scope => self.all_in_view = !self.all_in_view,
                    Field::Trials => {
                        let n: u32 = self.trials.parse().unwrap_or(1);
                        let n = if right { n + 1 } else { n.saturating_sub(1) };
                        self.trials = n.clamp(1, MAX_TRIALS).to_string();
                    }
                    Field::Command => {}
                }
            }
            _ => {}
        }
        FormOutcome::Editing
    }
}

/// The engine command of a launch.
pub fn command(task_ids: Vec<String>, policy: String, trials: u32) -> EngineCommand {
    EngineCommand::StartRollouts {
        task_ids,
        policy,
        trials,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(f: &mut LaunchForm, keys: &[Key]) -> FormOutcome {
        let mut out = FormOutcome::Editing;
        for k in keys {
            out = f.key(*k);
        }
        out
    }

    #[test]
    fn command_policy_needs_a_command_and_trials_are_bounded() {
        let mut f = LaunchForm::default();
        let right = Key::plain(Code::Right);
        let down = Key::plain(Code::Down);
        let enter = Key::plain(Code::Enter);
        feed(&mut f, &[right, right]);
        assert_eq!(POLICIES[f.policy], "command");
        assert_eq!(feed(&mut f, &[enter]), FormOutcome::Editing);
        assert!(f.error.as_deref().is_some_and(|e| e.contains("command")));
        feed(
            &mut f,
            &[down, down, Key::ch('a'), Key::ch(' '), Key::ch('b')],
        );
        assert_eq!(
            f.command, "a b",
            "space and letters are typed in the command"
        );
        assert_eq!(
            feed(&mut f, &[enter]),
            FormOutcome::Launch("command:a b".into(), 1)
        );
        let mut f = LaunchForm::default();
        feed(&mut f, &[down, Key::plain(Code::Backspace), Key::ch('0')]);
        assert_eq!(feed(&mut f, &[enter]), FormOutcome::Editing);
        assert!(f.error.as_deref().is_some_and(|e| e.contains("1..=100")));
    }
}
