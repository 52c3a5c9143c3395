//! The one selection shared by every screen, and type-ahead that keeps key bursts honest.
//!
//! The selection is the tuple under the Tuples cursor ([`Model::selection`]); every screen shows
//! it, and when it changes under a screen (a new search result, a reload that drops the tuple) the
//! screen follows and an open decision prompt is cancelled — a prompt never outlives its tuple.
//!
//! Keys that arrive while the model is *settling* (a list view being computed, the Inspector's or
//! the Filter screen's tuple loading, a decision being recorded) wait in order and are replayed once the
//! data they depend on is drawn, so `/ invoice enter 6 K` typed in one burst decides on the tuple
//! the search found, never on the one selected before it.

use super::notice::Level;
use super::{filter, reward, rollouts, Model};
use crate::action::Screen;
use crate::data::EngineCommand;
use crate::keymap::{Code, Key};
use crate::model::filter_prompt::Prompt;

/// Keys kept while settling; more than this is a stuck load, and the burst is dropped.
pub const MAX_DEFERRED: usize = 256;

impl Model {
    /// The selected tuple: the one every screen shows and every decision applies to.
    pub fn selection(&self) -> Option<&str> {
        self.tuples.selected_id()
    }

    /// Keys waiting for the data they depend on.
    pub fn deferred_keys(&self) -> usize {
        self.deferred.len()
    }

    /// True while a key could act on data that is not drawn yet.
    pub(super) fn settling(&self) -> bool {
        let f = &self.filter;
        self.tuples.computing
            || self.tuples.want.is_some()
            || f.busy
            || (self.screen == Screen::Inspector && self.inspector.loading())
            || (self.screen == Screen::Filter
                && f.task_id.is_some()
                && f.current().is_none()
                && !f.load_failed)
    }

    /// Routes a key: straight to the model, or behind the keys already waiting.
    pub(super) fn key_in_order(&mut self, k: Key) -> Vec<EngineCommand> {
        if k.ctrl && k.code == Code::Char('c') {
            return self.key(k);
        }
        if !self.deferred.is_empty() {
            self.defer(k);
            return Vec::new();
        }
        self.key(k)
    }

    /// Keeps `k` for later (in arrival order).
    pub(super) fn defer(&mut self, k: Key) {
        if self.deferred.len() >= MAX_DEFERRED {
            self.deferred.clear();
            self.say(
                Level::Warning,
                format!("{MAX_DEFERRED} keys waited for the store and were dropped — nothing was decided"),
            );
            return;
        }
        let at = self.defer_at.unwrap_or(self.deferred.len());
        self.deferred.insert(at.min(self.deferred.len()), k);
        self.defer_at = self.defer_at.map(|i| i + 1);
    }

    /// Replays waiting keys while nothing is settling.
    pub(super) fn replay(&mut self) -> Vec<EngineCommand> {
        let mut cmds = Vec::new();
        while !self.settling() {
            let Some(k) = self.deferred.pop_front() else {
                break;
            };
            // A key deferred again while replaying goes back to the front, in order.
            self.defer_at = Some(0);
            cmds.extend(self.key(k));
            self.defer_at = None;
        }
        cmds
    }

    /// After a view arrived: a wanted tuple ([`super::tuples::TuplesState::want`]) the view holds is selected;
    /// one the view's filters or search hide has them cleared (said in a notice) and a new view
    /// requested; one no view can show (gone from the store) is given up with a warning.
    pub(super) fn land_wanted(&mut self) -> Vec<EngineCommand> {
        let Some(id) = self.tuples.want.take() else {
            return Vec::new();
        };
        if self.tuples.select_id(&id) {
            return Vec::new();
        }
        if self.tuples.computing || self.rows_loading {
            // Newer rows or a newer view are on their way: they will be judged.
            self.tuples.want = Some(id);
            return Vec::new();
        }
        let t = &mut self.tuples;
        let filtered = t.status.is_some()
            || t.difficulty.is_some()
            || t.app.is_some()
            || t.severity.is_some()
            || !t.query.is_empty();
        let in_rows = t.rows.iter().any(|r| r.id == id);
        if filtered && in_rows {
            (t.status, t.difficulty, t.app, t.severity) = (None, None, None, None);
            t.query.clear();
            t.want = Some(id.clone());
            let spec = t.request();
            self.say(
                Level::Info,
                format!("{id} is back in the list: the Tuples filters and search were cleared to show it"),
            );
            return vec![EngineCommand::View(spec)];
        }
        self.say(
            Level::Warning,
            format!("{id} is not in the Tuples list: the selection stays where it is"),
        );
        // The Filter screen shows the selection, never a tuple no other screen acts on.
        match self.screen {
            Screen::Filter => filter::enter(self),
            _ => Vec::new(),
        }
    }

    /// A store error: waiting keys are dropped (they may have depended on what failed).
    pub(super) fn drop_deferred(&mut self, why: &str) {
        self.tuples.want = None;
        if self.filter.task_id.is_some() && self.filter.current().is_none() {
            self.filter.load_failed = true;
        }
        if self.inspector.loading() {
            self.inspector.load_failed = true;
        }
        if !self.deferred.is_empty() {
            let n = self.deferred.len();
            self.deferred.clear();
            self.say(
                Level::Error,
                format!("{why} — {n} key(s) typed ahead were dropped, nothing decided"),
            );
        }
    }

    /// After the selection may have changed from `before`: the shown screen follows it and an
    /// open decision prompt for another tuple is cancelled.
    pub(super) fn follow_selection(&mut self, before: Option<String>) -> Vec<EngineCommand> {
        let now = self.selection().map(str::to_string);
        if now == before {
            return Vec::new();
        }
        if let Some(task) = prompt_task(&self.filter.prompt) {
            if now.as_deref() != Some(task) {
                let to = now.as_deref().unwrap_or("nothing");
                self.say(
                    Level::Warning,
                    format!("selection changed to {to}: the decision on {task} was cancelled — nothing recorded"),
                );
                self.filter.prompt = Prompt::None;
            }
        }
        match self.screen {
            Screen::Inspector => self.open_selected(),
            // After the last decision of the queue the screen stays on it (#33).
            Screen::Filter
                if self.filter.stay.is_some() && self.filter.stay == self.filter.task_id =>
            {
                Vec::new()
            }
            Screen::Filter => filter::enter(self),
            Screen::StateDiff => self.state_diff.open(now.as_deref()),
            Screen::Reward => reward::open(self),
            Screen::Rollouts => rollouts::open(self),
            _ => Vec::new(),
        }
    }
}

/// The tuple an open prompt decides on.
fn prompt_task(p: &Prompt) -> Option<&str> {
    match p {
        Prompt::None => None,
        Prompt::Reason { task_id, .. } | Prompt::Editor { task_id, .. } => Some(task_id),
    }
}
