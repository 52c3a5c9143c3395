//! State of the Rollouts screen: the trial list (the selected tuple's, or every trial), the trial
//! shown in the detail pane with its screenshot, the launch form, and the progress of a launch read
//! from the `rollout.recorded` events as they arrive.

use ratatui_image::picker::Picker;

use crate::action::{Action, Screen};
use crate::data::EngineCommand;
use crate::filmstrip_data::Frame;
use crate::graphics::ImageCache;
use crate::keymap::Key;
use crate::rollouts_data::{TrialDetail, TrialList, TrialRow};
use tuplewright_base::store::Event;
use tuplewright_engine::rollout::spec::PolicySpec;

use super::launch::{self, FormOutcome, LaunchForm};
use super::live_trial::{self, LiveTrial};
use super::Model;

/// A launch being watched.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// Policy string sent.
    pub policy: String,
    /// The name its trials are recorded under (`command:` + an excerpt; a VLM spec without URL).
    pub name: String,
    /// The tuples.
    pub task_ids: Vec<String>,
    /// Trials per tuple.
    pub trials: u32,
    /// Trials recorded since the launch.
    pub recorded: usize,
    /// Of which failed (no score).
    pub failed: usize,
}

impl Progress {
    /// Trials expected in total.
    pub fn expected(&self) -> usize {
        self.task_ids.len() * self.trials as usize
    }
}

/// Rollouts screen state.
#[derive(Debug, Default)]
pub struct RolloutsState {
    /// List every trial of the store instead of the selected tuple's.
    pub all: bool,
    /// The tuple whose trials are listed (when not `all`).
    pub task_id: Option<String>,
    /// The loaded list.
    pub list: Option<TrialList>,
    /// Selected row.
    pub selected: usize,
    /// First visible row (kept by the renderer).
    pub offset: std::cell::Cell<usize>,
    /// The selected trial in full (may lag the selection while loading).
    pub detail: Option<TrialDetail>,
    /// Scroll of the detail pane.
    pub detail_scroll: usize,
    /// The launch form, when open.
    pub form: Option<LaunchForm>,
    /// The launch being watched.
    pub progress: Option<Progress>,
    /// The graphics protocol picker, queried once from the real terminal (`None`: half-blocks).
    pub picker: Option<Picker>,
    /// Screenshot render cache.
    pub image: ImageCache,
    /// Filmstrip: the step shown (of the detail's steps; the last one when a trial opens).
    pub step: usize,
    /// The frame loaded for the step shown, or for the live trial.
    pub frame: Option<Frame>,
    /// The trial running now, followed from the event log.
    pub live: Option<LiveTrial>,
    /// Show the live trial in the detail pane (toggled by `watch_live`, set by a launch).
    pub watch: bool,
    /// The `[rollout]` and `[screen]` settings the launch form offers and validates with.
    pub launch_cfg: launch::LaunchConfig,
    /// The frame is drawn over the whole screen (`F`; issue #33).
    pub full: bool,
    /// Zoom of the frame: 1, 2 or 4 (`+` / `-`: the centre of the screenshot, magnified).
    pub zoom: u8,
}

impl RolloutsState {
    /// The scope to load: the tuple, or `None` for every trial.
    fn scope(&self) -> Option<String> {
        if self.all {
            None
        } else {
            self.task_id.clone()
        }
    }

    /// The selected row.
    pub fn selected_row(&self) -> Option<&TrialRow> {
        self.list.as_ref().and_then(|l| l.rows.get(self.selected))
    }

    fn load_selected(&mut self) -> Vec<EngineCommand> {
        self.detail_scroll = 0;
        match self.selected_row() {
            Some(r) if self.detail.as_ref().map(|d| d.id) != Some(r.id) => {
                vec![EngineCommand::LoadTrial(r.id)]
            }
            _ => Vec::new(),
        }
    }

    fn move_by(&mut self, delta: isize) -> Vec<EngineCommand> {
        let n = self.list.as_ref().map_or(0, |l| l.rows.len());
        self.selected = self
            .selected
            .saturating_add_signed(delta)
            .min(n.saturating_sub(1));
        self.load_selected()
    }

    /// Takes a loaded detail if it is the selected trial (the filmstrip opens on its last step)
    /// and asks for the frame it shows.
    pub fn accept_trial(&mut self, d: TrialDetail) -> Vec<EngineCommand> {
        if self.selected_row().map(|r| r.id) != Some(d.id) {
            return Vec::new();
        }
        let same = self.detail.as_ref().map(|x| x.id) == Some(d.id);
        if !same {
            self.step = d.steps.len().saturating_sub(1);
        }
        self.detail = Some(d);
        self.want_frame()
    }
}

/// (Re)loads the list for the current scope, following the Tuples selection.
pub fn open(m: &mut Model) -> Vec<EngineCommand> {
    let id = m.tuples.selected_id().map(str::to_string);
    if m.rollouts.task_id != id {
        m.rollouts.task_id = id;
        if !m.rollouts.all {
            m.rollouts.selected = 0;
        }
    }
    // A live frame that arrived while another screen was shown.
    let mut cmds = if m.rollouts.watching() {
        m.rollouts.want_frame()
    } else {
        Vec::new()
    };
    if !m.rollouts.all && m.rollouts.task_id.is_none() {
        return cmds;
    }
    cmds.push(EngineCommand::LoadTrials(m.rollouts.scope()));
    cmds
}

/// Takes a loaded list if it is for the current scope; loads the selected trial's detail.
pub fn accept_list(m: &mut Model, list: TrialList) -> Vec<EngineCommand> {
    let r = &mut m.rollouts;
    if list.scope != r.scope() {
        return Vec::new();
    }
    r.selected = r.selected.min(list.rows.len().saturating_sub(1));
    r.list = Some(list);
    r.load_selected()
}

/// Screen actions.
pub fn act(m: &mut Model, a: Action, page: isize) -> Vec<EngineCommand> {
    let r = &mut m.rollouts;
    match a {
        Action::Down => r.move_by(1),
        Action::Up => r.move_by(-1),
        Action::PageDown => r.move_by(page),
        Action::PageUp => r.move_by(-page),
        Action::Top => r.move_by(isize::MIN / 2),
        Action::Bottom => r.move_by(isize::MAX / 2),
        Action::DetailDown => {
            r.detail_scroll += 1;
            Vec::new()
        }
        Action::DetailUp => {
            r.detail_scroll = r.detail_scroll.saturating_sub(1);
            Vec::new()
        }
        Action::ToggleScope => {
            r.all = !r.all;
            r.selected = 0;
            r.list = None;
            open(m)
        }
        Action::StepNext
        | Action::StepPrev
        | Action::StepFirst
        | Action::StepLast
        | Action::WatchLive => r.film_act(a),
        Action::FrameFull => {
            r.full = !r.full;
            Vec::new()
        }
        Action::ZoomIn | Action::ZoomOut => {
            let z = r.zoom.max(1);
            r.zoom = if a == Action::ZoomIn {
                (z * 2).min(4)
            } else {
                (z / 2).max(1)
            };
            Vec::new()
        }
        Action::NextItem | Action::PrevItem => {
            m.tuples.move_by(if a == Action::NextItem { 1 } else { -1 });
            open(m)
        }
        Action::LaunchRollouts if m.readonly => {
            m.notice =
                Some("read-only (--readonly): launching rollouts is disabled for observers".into());
            Vec::new()
        }
        Action::LaunchRollouts if m.tuples.selected_id().is_none() => {
            m.notice = Some("no tuple selected: pick one on the Tuples screen (2)".into());
            Vec::new()
        }
        Action::LaunchRollouts => {
            m.rollouts.form = Some(LaunchForm::new(&m.rollouts.launch_cfg));
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// A key while the launch form is open: edits it, or launches (exactly one `StartRollouts`).
pub fn form_key(m: &mut Model, k: Key) -> Vec<EngineCommand> {
    let Some(form) = m.rollouts.form.as_mut() else {
        return Vec::new();
    };
    match form.key(k, &m.rollouts.launch_cfg) {
        FormOutcome::Editing => Vec::new(),
        FormOutcome::Cancelled => {
            m.rollouts.form = None;
            Vec::new()
        }
        FormOutcome::Launch(launch) => {
            let all_in_view = form.all_in_view;
            m.rollouts.form = None;
            if m.readonly {
                m.notice = Some("read-only (--readonly): nothing launched".into());
                return Vec::new();
            }
            let task_ids: Vec<String> = if all_in_view {
                let t = &m.tuples;
                t.view
                    .iter()
                    .filter_map(|&i| t.rows.get(i as usize).map(|r| r.id.clone()))
                    .collect()
            } else {
                m.tuples
                    .selected_id()
                    .map(str::to_string)
                    .into_iter()
                    .collect()
            };
            if task_ids.is_empty() {
                m.notice = Some("no tuple to launch on".into());
                return Vec::new();
            }
            m.notice = Some(format!(
                "launched {} × {} on {} tuple(s)",
                launch.policy,
                launch.trials,
                task_ids.len()
            ));
            let name = match &launch.policy {
                PolicySpec::Command(cmd) => {
                    format!(
                        "command:{}",
                        tuplewright_models::providers::excerpt(cmd, 60)
                    )
                }
                _ => launch.name.clone(),
            };
            m.rollouts.progress = Some(Progress {
                policy: launch.policy.to_string(),
                name,
                task_ids: task_ids.clone(),
                trials: launch.trials,
                recorded: 0,
                failed: 0,
            });
            vec![launch::command(task_ids, &launch)]
        }
    }
}

/// New events: counts the launch's recorded trials and reloads the Rollouts and Reward screens
/// when a trial or round of the tuple they show arrives.
pub fn on_events(m: &mut Model, events: &[Event]) -> Vec<EngineCommand> {
    let mut cmds = Vec::new();
    if live_trial::apply(&mut m.rollouts.live, events) {
        // A trial this workbench launched is watched as soon as it starts.
        let launched = m.rollouts.live.as_ref().is_some_and(|l| {
            l.steps.is_empty()
                && l.recorded.is_none()
                && m.rollouts
                    .progress
                    .as_ref()
                    .is_some_and(|p| p.task_ids.contains(&l.task_id))
        });
        if launched {
            m.rollouts.watch = true;
        }
        if m.screen == Screen::Rollouts && m.rollouts.watching() {
            cmds.extend(m.rollouts.want_frame());
        }
    }
    if let Some(p) = m.rollouts.progress.as_mut() {
        let name = p.name.clone();
        for e in events.iter().filter(|e| e.kind == "rollout.recorded") {
            let ours = e.task_id.as_ref().is_some_and(|t| p.task_ids.contains(t))
                && e.payload.get("model").and_then(|v| v.as_str()) == Some(name.as_str());
            if ours {
                p.recorded += 1;
                if e.payload.get("reward").is_none_or(|v| v.is_null()) {
                    p.failed += 1;
                }
            }
        }
    }
    let touches = |id: &Option<String>, kinds: &[&str]| {
        events
            .iter()
            .any(|e| kinds.contains(&e.kind.as_str()) && (id.is_none() || e.task_id == *id))
    };
    let scope = m.rollouts.scope();
    if m.screen == Screen::Rollouts
        && m.rollouts.list.is_some()
        && touches(&scope, &["rollout.recorded"])
    {
        cmds.push(EngineCommand::LoadTrials(scope));
    }
    if m.screen == Screen::Reward
        && m.reward.task_id.is_some()
        && touches(&m.reward.task_id, &["rollout.recorded", "round.recorded"])
    {
        cmds.extend(m.reward.task_id.clone().map(EngineCommand::LoadRewards));
    }
    cmds
}
