//! Pipeline stages started from the workbench (issue #33): `V` runs the critic vote, `Y` verifies,
//! `!` re-runs — on the marked tuples, else the selected one — and `T` generates tasks, as jobs of
//! the job runner, steered from Live like runs (`p` pause, `P` resume, `X` cancel). The vote and
//! verify ask for a second press (they write to the store); a re-run first asks for its settings
//! on one line (`rounds=K fault=F generator=SPEC`, prefilled from the config with one round
//! more), taskgen for its batch (`apps=… n=… seed=… pass=… author=…`).

use crate::action::{Action, Screen};
use crate::data::EngineCommand;
use crate::jobs_stages::RerunCmd;
use crate::keymap::{Code, Key};
use tuplewright_engine::jobs::rerun::RerunSettings;

use super::notice::Level;
use super::Model;

/// The re-run settings line (or, with no tuples and `taskgen` set, the taskgen line).
#[derive(Debug, Clone, PartialEq)]
pub struct RerunPrompt {
    /// The tuples it re-runs.
    pub ids: Vec<String>,
    /// The taskgen line instead of a re-run.
    pub taskgen: bool,
    /// Typed so far (starts with the suggested settings).
    pub input: String,
    /// Why the last enter was refused.
    pub error: Option<String>,
}

impl RerunPrompt {
    /// What the line asks for.
    pub fn label(&self) -> String {
        if self.taskgen {
            return "generate tasks (enter starts, esc cancels)".into();
        }
        match &self.error {
            Some(e) => format!("re-run {} tuple(s): {e}", self.ids.len()),
            None => format!(
                "re-run {} tuple(s) with (enter starts, esc cancels)",
                self.ids.len()
            ),
        }
    }
}

/// The tuples a stage acts on: the marked ones (list order), else the selected one (the Tuples
/// cursor, or the tuple the Inspector / Filter screen shows).
pub fn targets(m: &Model) -> Vec<String> {
    let marked = super::bulk::marked_ids(m);
    if !marked.is_empty() {
        return marked;
    }
    let shown = match m.screen {
        Screen::Inspector => m.inspector.task_id.as_deref(),
        _ => None,
    };
    shown
        .or(m.tuples.selected_id())
        .map(|s| vec![s.to_string()])
        .unwrap_or_default()
}

/// `V`, `Y`, `!`.
pub fn act(m: &mut Model, a: Action) -> Vec<EngineCommand> {
    let confirmed = m.live.confirm.take() == Some(a);
    if m.readonly {
        m.say(
            Level::Warning,
            "read-only mode: stages cannot be started (restart without --readonly)",
        );
        return Vec::new();
    }
    if a == Action::StageTaskgen {
        m.tuples.rerun = Some(RerunPrompt {
            ids: Vec::new(),
            taskgen: true,
            input: m.tuples.taskgen_default.clone(),
            error: None,
        });
        m.screen = Screen::Tuples;
        return Vec::new();
    }
    let ids = targets(m);
    if ids.is_empty() {
        m.say(
            Level::Warning,
            "no tuple selected or marked (space marks, * marks every tuple shown)",
        );
        return Vec::new();
    }
    let what = match a {
        Action::StageVote => "run the critic vote ([filter] voters) on",
        Action::StageVerify => "verify (C1–C5, probes; no agent)",
        _ => {
            m.tuples.rerun = Some(RerunPrompt {
                ids,
                taskgen: false,
                input: m.tuples.rerun_default.clone(),
                error: None,
            });
            m.screen = Screen::Tuples;
            return Vec::new();
        }
    };
    if !confirmed {
        m.live.confirm = Some(a);
        let key = if a == Action::StageVote { "V" } else { "Y" };
        m.say(
            Level::Info,
            format!(
                "{what} {} tuple(s) ({})? {key} again to start",
                ids.len(),
                preview(&ids)
            ),
        );
        return Vec::new();
    }
    vec![if a == Action::StageVote {
        EngineCommand::StartVote(ids)
    } else {
        EngineCommand::StartVerify(ids)
    }]
}

fn preview(ids: &[String]) -> String {
    match ids {
        [one] => one.clone(),
        [first, ..] => format!("{first} and {} more", ids.len() - 1),
        [] => String::new(),
    }
}

/// A key while the re-run line is open.
pub fn prompt_key(m: &mut Model, k: Key) -> Vec<EngineCommand> {
    let Some(p) = m.tuples.rerun.as_mut() else {
        return Vec::new();
    };
    match k.code {
        Code::Esc => {
            m.tuples.rerun = None;
            m.say(Level::Info, "re-run cancelled — nothing recorded");
        }
        Code::Backspace => {
            p.input.pop();
            p.error = None;
        }
        Code::Char('u') if k.ctrl => {
            p.input.clear();
            p.error = None;
        }
        Code::Char(c) if !k.ctrl && !k.alt => {
            p.input.push(c);
            p.error = None;
        }
        Code::Enter if p.taskgen => {
            let line = p.input.trim().to_string();
            m.tuples.rerun = None;
            return vec![EngineCommand::StartTaskgen(line)];
        }
        Code::Enter => match RerunSettings::parse(&p.input) {
            Err(e) => p.error = Some(e.to_string()),
            Ok(settings) => {
                let ids = std::mem::take(&mut p.ids);
                m.tuples.rerun = None;
                m.tuples.marked.clear();
                return vec![EngineCommand::StartRerun(RerunCmd {
                    task_ids: ids,
                    settings,
                    actor: m.filter.actor.clone(),
                })];
            }
        },
        _ => {}
    }
    Vec::new()
}
