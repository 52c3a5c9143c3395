//! State of the Filter screen (critic votes and curator decisions) and its actions. A decision is
//! never written here: the model asks for a reason (and, for modify_query, the edited instruction),
//! then sends [`EngineCommand::Decide`] to the store worker, which applies it through the engine's
//! decision interface and answers with [`crate::data::DataUpdate::Decided`].

use crate::action::{Action, Screen};
use crate::data::EngineCommand;
use crate::filter_data::{needs_decision, DecideCmd, Decided, FilterData};
use crate::keymap::Key;
use crate::model::Model;
use tuplewright_base::store::Event;
use tuplewright_records::filter::decide::human_actor;
use tuplewright_records::filter::Action as Decision;

use super::filter_prompt::{Prompt, PromptOutcome};
use super::notice::Level;

/// Reason recorded for an undo from the workbench.
pub const UNDO_REASON: &str = "undone from the workbench";

/// Filter screen state.
#[derive(Debug)]
pub struct FilterState {
    /// Scroll offset, in lines.
    pub scroll: usize,
    /// The tuple shown (or being loaded).
    pub task_id: Option<String>,
    /// Its data, once loaded.
    pub data: Option<FilterData>,
    /// The reason line or the instruction editor, when open.
    pub prompt: Prompt,
    /// Who is recorded as deciding (the OS user).
    pub actor: String,
    /// True while a decision is with the worker.
    pub busy: bool,
    /// The load of the tuple shown failed (keys no longer wait for it).
    pub load_failed: bool,
    /// Tuples decided in this session, latest last (what undo undoes first).
    pub decided: Vec<String>,
    /// The curation guidelines shown beside the decision (`[curate] guidelines`): file name, text.
    pub guidelines: Option<(String, String)>,
    /// The tuple decided last when no tuple was left that needs a decision: the screen stays on
    /// it (its new outcome) while the reload's view, which may leave it out, comes in (#33).
    pub stay: Option<String>,
}

impl Default for FilterState {
    fn default() -> Self {
        FilterState {
            scroll: 0,
            task_id: None,
            data: None,
            prompt: Prompt::None,
            actor: human_actor(None),
            busy: false,
            load_failed: false,
            decided: Vec::new(),
            guidelines: None,
            stay: None,
        }
    }
}

impl FilterState {
    /// True while the prompt or the editor takes every key.
    pub fn capturing(&self) -> bool {
        !matches!(self.prompt, Prompt::None)
    }

    /// Takes loaded data if it is for the tuple shown.
    pub fn accept(&mut self, d: FilterData) {
        if self.task_id.as_deref() == Some(d.task_id.as_str()) {
            self.data = Some(d);
        }
    }

    /// The data of the tuple shown, when loaded.
    pub fn current(&self) -> Option<&FilterData> {
        self.data
            .as_ref()
            .filter(|d| self.task_id.as_deref() == Some(d.task_id.as_str()))
    }
}

/// Loads the selected tuple (on entering the screen and after moving).
pub fn enter(m: &mut Model) -> Vec<EngineCommand> {
    let Some(id) = m.tuples.selected_id().map(str::to_string) else {
        m.filter.task_id = None;
        return Vec::new();
    };
    if m.filter.task_id.as_deref() != Some(id.as_str()) {
        m.filter.scroll = 0;
    }
    m.filter.stay = None;
    m.filter.load_failed = false;
    m.filter.task_id = Some(id.clone());
    vec![EngineCommand::LoadFilter(id)]
}

/// Moves the shared selection onto `id` now if the view shown holds it, and again once the view
/// of the reloaded rows arrives ([`Model::land_wanted`]): a decision or its undo changes the
/// tuple's status, which can take it out of (or back into) a filtered view, and the selection must
/// end on it — never on the tuple selected before, which another screen would then act on.
fn select(m: &mut Model, id: &str) -> Vec<EngineCommand> {
    m.filter.stay = None;
    m.tuples.select_id(id);
    m.tuples.want = Some(id.to_string());
    m.filter.task_id = Some(id.to_string());
    m.filter.load_failed = false;
    m.filter.scroll = 0;
    vec![EngineCommand::LoadFilter(id.to_string())]
}

/// Applies a screen action.
pub fn act(m: &mut Model, a: Action, page: isize) -> Vec<EngineCommand> {
    let f = &mut m.filter;
    match a {
        Action::Down => f.scroll += 1,
        Action::Up => f.scroll = f.scroll.saturating_sub(1),
        Action::PageDown => f.scroll += page as usize,
        Action::PageUp => f.scroll = f.scroll.saturating_sub(page as usize),
        Action::Top => f.scroll = 0,
        Action::NextItem | Action::PrevItem => {
            m.tuples.move_by(if a == Action::NextItem { 1 } else { -1 });
            return enter(m);
        }
        Action::DecideKeep | Action::DecideReject | Action::DecideModify => return start(m, a),
        Action::UndoDecision => return undo(m),
        _ => {}
    }
    Vec::new()
}

/// Refuses in read-only mode or while a decision is in flight; else the tuple to decide.
fn decidable(m: &mut Model, what: &str) -> Option<String> {
    if m.readonly {
        m.notice = Some(format!(
            "read-only mode: {what} refused (restart without --readonly to change the store)"
        ));
        return None;
    }
    if m.filter.busy {
        m.notice = Some("a decision is still being recorded".into());
        return None;
    }
    let Some(d) = m.filter.current() else {
        m.notice = Some("no tuple loaded — pick one on the Tuples screen".into());
        return None;
    };
    Some(d.task_id.clone())
}

fn start(m: &mut Model, a: Action) -> Vec<EngineCommand> {
    let Some(task) = decidable(m, "decisions") else {
        return Vec::new();
    };
    // Refuse before asking for a reason a tuple the engine would refuse after (issue #33).
    let probe = if a == Action::DecideReject {
        Decision::Reject
    } else {
        Decision::Keep
    };
    let status = m
        .filter
        .current()
        .map(|d| d.status.clone())
        .unwrap_or_default();
    if !tuplewright_records::filter::decidable(&status, &probe) {
        m.say(
            Level::Warning,
            format!(
                "{task} has status {status}: only tuples past the agreement loop can be decided — nothing asked"
            ),
        );
        return Vec::new();
    }
    m.filter.prompt = match a {
        Action::DecideKeep => Prompt::reason(task, Decision::Keep),
        Action::DecideReject => Prompt::reason(task, Decision::Reject),
        _ => match m.filter.current() {
            Some(d) => Prompt::editor(d),
            None => return Vec::new(),
        },
    };
    Vec::new()
}

fn undo(m: &mut Model) -> Vec<EngineCommand> {
    if decidable(m, "undo").is_none() {
        return Vec::new();
    }
    // The latest decision of this session first; with none, the shown tuple's latest decision.
    let Some(task) = m
        .filter
        .decided
        .last()
        .cloned()
        .or_else(|| m.filter.task_id.clone())
    else {
        return Vec::new();
    };
    m.filter.busy = true;
    vec![EngineCommand::Decide(DecideCmd {
        task_id: task,
        action: Decision::Undo,
        reason: UNDO_REASON.into(),
        actor: m.filter.actor.clone(),
    })]
}

/// A key while the prompt or the editor is open.
pub fn input_key(m: &mut Model, k: Key) -> Vec<EngineCommand> {
    match m.filter.prompt.key(k) {
        PromptOutcome::Editing => Vec::new(),
        PromptOutcome::Notice(n) => {
            m.notice = Some(n);
            Vec::new()
        }
        PromptOutcome::Cancelled => {
            m.filter.prompt = Prompt::None;
            m.notice = Some("decision cancelled — nothing recorded".into());
            Vec::new()
        }
        PromptOutcome::Confirmed {
            task_id,
            action,
            reason,
        } => {
            m.filter.prompt = Prompt::None;
            m.filter.busy = true;
            vec![EngineCommand::Decide(DecideCmd {
                task_id,
                action,
                reason,
                actor: m.filter.actor.clone(),
            })]
        }
    }
}

/// The next tuple after the selection (in the Tuples list order, wrapping) that needs a decision.
fn next_in_queue(m: &Model, skip: &str) -> Option<String> {
    let view = &m.tuples.view;
    let n = view.len();
    (1..=n)
        .map(|step| &m.tuples.rows[view[(m.tuples.selected + step) % n] as usize])
        .find(|r| r.id != skip && needs_decision(&r.status) && !m.filter.decided.contains(&r.id))
        .map(|r| r.id.clone())
}

/// The worker's answer to a decision: a notice, then auto-advance (or back to an undone tuple).
pub fn decided(m: &mut Model, d: Decided) -> Vec<EngineCommand> {
    m.filter.busy = false;
    let task = d.cmd.task_id.clone();
    let dec = match d.result {
        Err(e) => {
            m.say(Level::Error, format!("{task}: {e} — nothing recorded"));
            return vec![EngineCommand::LoadFilter(task)];
        }
        Ok(dec) => dec,
    };
    m.rows_loading = true;
    let mut cmds = vec![EngineCommand::LoadRows];
    if d.cmd.action == Decision::Undo {
        if let Some(p) = m.filter.decided.iter().rposition(|t| *t == task) {
            m.filter.decided.remove(p);
        }
        m.notice = Some(format!(
            "{task}: undid decision #{} ({} → {})",
            dec.compensates.unwrap_or_default(),
            dec.before,
            dec.after
        ));
        cmds.extend(select(m, &task));
        return cmds;
    }
    m.filter.decided.push(task.clone());
    let done = format!(
        "{task}: {} recorded ({} → {}, #{})",
        d.cmd.action.name(),
        dec.before,
        dec.after,
        dec.id
    );
    match next_in_queue(m, &task) {
        Some(next) => {
            m.notice = Some(format!("{done} · next: {next}"));
            cmds.extend(select(m, &next));
        }
        None => {
            // The queue ran out: the screen stays on this tuple, whatever the reloaded view
            // (which may leave it out) selects, until the curator moves (#33).
            m.notice = Some(format!("{done} · no tuple left that needs a decision"));
            m.filter.stay = Some(task.clone());
            cmds.push(EngineCommand::LoadFilter(task));
        }
    }
    cmds
}

/// Reloads the shown tuple when the event log reports a vote or decision on it.
pub fn on_events(m: &Model, events: &[Event]) -> Vec<EngineCommand> {
    let Some(id) = m.filter.task_id.as_deref() else {
        return Vec::new();
    };
    let touched = events.iter().any(|e| {
        e.task_id.as_deref() == Some(id) && matches!(e.kind.as_str(), "decision" | "vote.recorded")
    });
    if m.screen == Screen::Filter && touched && !m.filter.busy {
        vec![EngineCommand::LoadFilter(id.to_string())]
    } else {
        Vec::new()
    }
}
