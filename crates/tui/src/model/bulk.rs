//! Bulk decisions on the Tuples screen (issue #33): `space` marks the selected tuple, `*` marks
//! every tuple the search and filters show, `~` inverts the marks shown, `esc` clears them; `K`,
//! `R`, `M` on marked tuples ask for one reason (and, for modify_query, the one new instruction)
//! and send the whole set to the store worker as one group; `u` undoes the curator's latest group.

use crate::action::Action;
use crate::bulk_data::{BulkCmd, BulkDone, BulkResult, PatchedRows, UndoGroupCmd};
use crate::data::EngineCommand;
use crate::keymap::{Code, Key};
use tuplewright_records::filter::Action as Decision;

use super::notice::Level;
use super::Model;

/// The one-line input of a bulk decision.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkPrompt {
    /// keep, reject or modify_query (its instruction once typed).
    pub action: Decision,
    /// True while typing modify_query's new instruction (before the reason).
    pub instruction: bool,
    /// Typed so far.
    pub input: String,
    /// How many tuples it decides.
    pub count: usize,
}

impl BulkPrompt {
    /// What the line asks for.
    pub fn label(&self) -> String {
        if self.instruction {
            format!(
                "modify_query on {} marked: the new instruction (enter, esc cancels)",
                self.count
            )
        } else {
            format!(
                "{} {} marked tuple(s) — reason (enter records, esc cancels)",
                self.action.name(),
                self.count
            )
        }
    }
}

/// The marked tuples in list order (the rows as loaded, by id).
pub fn marked_ids(m: &Model) -> Vec<String> {
    let t = &m.tuples;
    t.rows
        .iter()
        .filter(|r| t.marked.contains(&r.id))
        .map(|r| r.id.clone())
        .collect()
}

/// Handles a Tuples-screen action that belongs to bulk decisions; `None` for the others.
pub fn act(m: &mut Model, a: Action) -> Option<Vec<EngineCommand>> {
    let t = &mut m.tuples;
    match a {
        Action::Mark => {
            let id = t.selected_id()?.to_string();
            if !t.marked.remove(&id) {
                t.marked.insert(id);
            }
            t.move_by(1);
        }
        Action::MarkAll | Action::MarkInvert => {
            let ids: Vec<String> = t
                .view
                .iter()
                .map(|&i| t.rows[i as usize].id.clone())
                .collect();
            for id in ids {
                if a == Action::MarkAll || !t.marked.remove(&id) {
                    t.marked.insert(id);
                }
            }
            let n = t.marked.len();
            m.say(Level::Info, format!("{n} tuple(s) marked"));
        }
        Action::Back if t.query.is_empty() && !t.marked.is_empty() => {
            let n = t.marked.len();
            t.marked.clear();
            m.say(Level::Info, format!("{n} mark(s) cleared"));
        }
        Action::DecideKeep | Action::DecideReject | Action::DecideModify
            if !t.marked.is_empty() =>
        {
            start(m, a);
        }
        Action::DecideKeep | Action::DecideReject | Action::DecideModify => {
            m.say(
                Level::Warning,
                "no tuple marked: space marks one, * every tuple shown (or decide one on the Filter screen)",
            );
        }
        Action::UndoDecision => return Some(undo(m)),
        _ => return None,
    }
    Some(Vec::new())
}

fn writable(m: &mut Model, what: &str) -> bool {
    if m.readonly {
        m.say(
            Level::Warning,
            format!(
                "read-only mode: {what} refused (restart without --readonly to change the store)"
            ),
        );
        return false;
    }
    if m.tuples.bulk_busy {
        m.say(Level::Warning, "a bulk decision is still being recorded");
        return false;
    }
    true
}

fn start(m: &mut Model, a: Action) {
    if !writable(m, "decisions") {
        return;
    }
    let action = match a {
        Action::DecideKeep => Decision::Keep,
        Action::DecideReject => Decision::Reject,
        _ => Decision::ModifyQuery(String::new()),
    };
    m.tuples.bulk = Some(BulkPrompt {
        instruction: matches!(action, Decision::ModifyQuery(_)),
        action,
        input: String::new(),
        count: m.tuples.marked.len(),
    });
}

fn undo(m: &mut Model) -> Vec<EngineCommand> {
    if !writable(m, "undo") {
        return Vec::new();
    }
    m.tuples.bulk_busy = true;
    m.tuples.bulk_base = patchable(m);
    vec![EngineCommand::UndoGroup(UndoGroupCmd {
        group: None,
        actor: m.filter.actor.clone(),
    })]
}

/// A key while the bulk prompt is open.
pub fn prompt_key(m: &mut Model, k: Key) -> Vec<EngineCommand> {
    let Some(p) = m.tuples.bulk.as_mut() else {
        return Vec::new();
    };
    match k.code {
        Code::Esc => {
            m.tuples.bulk = None;
            m.say(Level::Info, "bulk decision cancelled — nothing recorded");
        }
        Code::Backspace => {
            p.input.pop();
        }
        Code::Char(c) if !k.ctrl && !k.alt => p.input.push(c),
        Code::Enter if p.input.trim().is_empty() => {
            let what = if p.instruction {
                "a new instruction"
            } else {
                "a reason"
            };
            m.say(Level::Warning, format!("{what} is required"));
        }
        Code::Enter if p.instruction => {
            p.action = Decision::ModifyQuery(p.input.trim().to_string());
            p.instruction = false;
            p.input.clear();
        }
        Code::Enter => {
            let (action, reason) = (p.action.clone(), p.input.trim().to_string());
            m.tuples.bulk = None;
            m.tuples.bulk_busy = true;
            m.tuples.bulk_base = patchable(m);
            return vec![EngineCommand::DecideBulk(BulkCmd {
                task_ids: marked_ids(m),
                action,
                reason,
                actor: m.filter.actor.clone(),
                policy: m.tuples.policy,
            })];
        }
        _ => {}
    }
    Vec::new()
}

impl Model {
    /// True while the tuple rows are being (re)loaded from the store.
    pub fn rows_loading(&self) -> bool {
        self.rows_loading
    }
}

/// The rows a bulk answer may patch: the complete list, when loaded and no reload is under way.
fn patchable(m: &Model) -> Option<std::sync::Arc<Vec<crate::data::TaskRow>>> {
    (m.tuples.complete && !m.rows_loading).then(|| std::sync::Arc::clone(&m.tuples.rows))
}

/// The worker's answer: a notice, marks cleared after a decision, then the rows patched (or
/// reloaded when they cannot be).
pub fn done(m: &mut Model, d: BulkDone) -> Vec<EngineCommand> {
    m.tuples.bulk_busy = false;
    let base = m.tuples.bulk_base.take();
    let ms = d.millis;
    let text = match d.result {
        Err(e) => {
            crate::retire::later(base);
            m.say(Level::Error, format!("bulk: {e} — nothing recorded"));
            return Vec::new();
        }
        Ok(BulkResult::Applied(o)) => {
            m.tuples.marked.clear();
            format!(
                "{} decided ({} skipped) · group {} · u undoes · {ms} ms{}",
                o.decided.len(),
                o.skipped.len(),
                o.group_id,
                o.skipped
                    .first()
                    .map(|s| format!(" · skipped {}: {}", s.task_id, s.why))
                    .unwrap_or_default()
            )
        }
        Ok(BulkResult::Undone(o)) => format!(
            "group {} undone: {} tuple(s) back, {} left as they are · {ms} ms",
            o.group_id,
            o.undone.len(),
            o.skipped.len()
        ),
    };
    m.say(Level::Success, text);
    // One reload for the whole decision: its own events (read later, in batches of thousands)
    // reload nothing again ([`crate::model::Model`]'s event handling skips them).
    m.tuples.bulk_echo = m.tuples.bulk_echo.max(d.last_event);
    let mut cmds = vec![EngineCommand::LoadLive(false)];
    match base {
        // The rows shown when it went out, patched with the new statuses (#33): no reload of
        // all of them, unless other rows came in meanwhile.
        Some(base) if std::sync::Arc::ptr_eq(&base, &m.tuples.rows) && !m.rows_loading => {
            cmds.push(EngineCommand::PatchRows(base));
        }
        // Rows that came in meanwhile: `base` may be the last reference to the old ones.
        other => {
            crate::retire::later(other);
            cmds.extend(reload(m));
        }
    }
    // The statistics are drawn only on Stats, which loads them again when opened: computed
    // over the whole store, they are not loaded beside the reload unless Stats is shown (#33).
    if m.screen == crate::action::Screen::Stats {
        cmds.push(EngineCommand::LoadStats);
    }
    cmds
}

/// The rows a bulk answer asked for, patched: shown (with a new view) while they are still the
/// rows shown; reloaded when the store's tuples changed; dropped when a reload is under way.
pub fn patched(m: &mut Model, (base, rows): PatchedRows) -> Vec<EngineCommand> {
    let still_shown = std::sync::Arc::ptr_eq(&base, &m.tuples.rows) && !m.rows_loading;
    crate::retire::later(base);
    match rows {
        Some(rows) if still_shown => {
            m.tuples.set_patched_rows(rows);
            vec![EngineCommand::View(m.tuples.request())]
        }
        _ => reload(m),
    }
}

/// A full reload of the rows, unless one is under way.
fn reload(m: &mut Model) -> Vec<EngineCommand> {
    if m.rows_loading {
        return Vec::new();
    }
    m.rows_loading = true;
    vec![EngineCommand::LoadRows]
}

/// Takes the curation settings: the curator recorded, the conflict policy, and the guidelines
/// file's text (an unreadable file is said in the status line, and no panel is shown).
pub fn configure(m: &mut Model, c: &tuplewright_records::curate::CurateConfig) {
    m.filter.actor = c.curator(None);
    m.tuples.policy = c.conflict;
    let path = c.guidelines.trim();
    if path.is_empty() {
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(text) => m.filter.guidelines = Some((path.to_string(), text)),
        Err(e) => m.say(
            Level::Warning,
            format!("[curate] guidelines {path}: {e} — no guidelines panel"),
        ),
    }
}
