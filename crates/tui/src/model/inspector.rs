//! State of the Inspector: the tuple shown, the round, the pane (a script, REVIEW.md or the
//! round's script runs), and how long lines are fitted (wrapped or scrolled sideways).

use std::cell::Cell;

use crate::action::{Action, Screen};
use crate::data::{EngineCommand, TaskDetail};

use super::Model;

/// Columns one sideways scroll step moves.
pub const HSTEP: usize = 8;

/// What the right-hand pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pane {
    /// REVIEW.md of the round.
    #[default]
    Review,
    /// initial_setup.py.
    Setup,
    /// golden_patch.py.
    Golden,
    /// reward.py (with scan findings at their lines).
    Reward,
    /// Every script run of the round: role, environment, exit code, duration, stdout, stderr.
    Runs,
}

impl Pane {
    /// Cycle order.
    pub const ALL: [Pane; 5] = [
        Pane::Review,
        Pane::Setup,
        Pane::Golden,
        Pane::Reward,
        Pane::Runs,
    ];
    /// Label.
    pub fn label(self) -> &'static str {
        match self {
            Pane::Review => "REVIEW.md",
            Pane::Setup => "initial_setup.py",
            Pane::Golden => "golden_patch.py",
            Pane::Reward => "reward.py",
            Pane::Runs => "runs",
        }
    }
    /// The next pane.
    pub fn next(self) -> Pane {
        let i = Pane::ALL.iter().position(|p| *p == self).unwrap_or(0);
        Pane::ALL[(i + 1) % Pane::ALL.len()]
    }
}

/// Inspector state.
#[derive(Debug, Default)]
pub struct InspectorState {
    /// The task requested (its detail may still be loading).
    pub task_id: Option<String>,
    /// The loaded detail.
    pub detail: Option<TaskDetail>,
    /// Index into the rounds.
    pub round: usize,
    /// The pane.
    pub pane: Pane,
    /// Scroll of the pane, in lines.
    pub scroll: usize,
    /// Show the pane as a diff against the previous round.
    pub diff: bool,
    /// Long lines wrap (true) or are cut and scrolled sideways.
    pub wrap: bool,
    /// Sideways scroll, in columns (when not wrapping).
    pub hscroll: usize,
    /// The largest useful `scroll` for the pane as last drawn (kept by the renderer; `None`
    /// until drawn).
    pub scroll_max: Cell<Option<usize>>,
    /// The load of the requested tuple failed (keys no longer wait for it).
    pub load_failed: bool,
    /// The widest line of the pane as last drawn, gutter excluded (kept by the renderer; `None`
    /// until drawn).
    pub widest: Cell<Option<usize>>,
}

impl InspectorState {
    /// True while the requested tuple's detail is not the one drawn.
    pub fn loading(&self) -> bool {
        let shown = self.detail.as_ref().map(|d| d.task.task.task_id.as_str());
        self.task_id.is_some() && shown != self.task_id.as_deref() && !self.load_failed
    }

    /// Takes a loaded detail if it is the one requested; shows its latest round.
    pub fn accept(&mut self, detail: TaskDetail) {
        if self.task_id.as_deref() != Some(detail.task.task.task_id.as_str()) {
            return;
        }
        let same = self
            .detail
            .as_ref()
            .is_some_and(|d| d.task.task.task_id == detail.task.task.task_id);
        if !same {
            self.round = detail.rounds.len().saturating_sub(1);
            self.scroll = 0;
            self.hscroll = 0;
        }
        self.round = self.round.min(detail.rounds.len().saturating_sub(1));
        self.detail = Some(detail);
    }

    /// Moves to another round.
    pub fn move_round(&mut self, delta: isize) {
        let n = self.detail.as_ref().map_or(0, |d| d.rounds.len());
        self.round = self
            .round
            .saturating_add_signed(delta)
            .min(n.saturating_sub(1));
        self.scroll = 0;
    }

    /// Scrolls down, no further than the last page.
    fn down(&mut self, n: usize) {
        let max = self.scroll_max.get().unwrap_or(usize::MAX);
        self.scroll = self.scroll.saturating_add(n).min(max.max(self.scroll));
    }
}

/// Applies an Inspector action.
pub fn act(m: &mut Model, a: Action, page: isize) -> Vec<EngineCommand> {
    let page = page.max(1) as usize;
    let ins = &mut m.inspector;
    match a {
        Action::NextItem | Action::PrevItem => {
            m.tuples.move_by(if a == Action::NextItem { 1 } else { -1 });
            return m.open_selected();
        }
        Action::ToggleDiff => {
            ins.diff = !ins.diff;
            ins.scroll = 0;
        }
        Action::NextRound => ins.move_round(1),
        Action::PrevRound => ins.move_round(-1),
        Action::NextPane => {
            ins.pane = ins.pane.next();
            ins.scroll = 0;
            ins.hscroll = 0;
        }
        Action::ToggleWrap => {
            ins.wrap = !ins.wrap;
            ins.hscroll = 0;
            m.notice = Some(if ins.wrap {
                "wrap on: long lines continue on the next row (w: off)".into()
            } else {
                "wrap off: long lines end in › — z l / z h scroll sideways".into()
            });
        }
        Action::ScrollRight if !ins.wrap => {
            // No further than the widest line's last step.
            let widest = ins.widest.get().unwrap_or(usize::MAX);
            let next = ins.hscroll.saturating_add(HSTEP);
            ins.hscroll = next.min(widest.saturating_sub(HSTEP).max(ins.hscroll));
        }
        Action::ScrollLeft => ins.hscroll = ins.hscroll.saturating_sub(HSTEP),
        Action::Down => ins.down(1),
        Action::Up => ins.scroll = ins.scroll.saturating_sub(1),
        Action::PageDown => ins.down(page),
        Action::PageUp => ins.scroll = ins.scroll.saturating_sub(page),
        Action::Top => ins.scroll = 0,
        Action::Bottom => ins.scroll = ins.scroll_max.get().unwrap_or(ins.scroll),
        Action::Back => m.screen = Screen::Tuples,
        _ => {}
    }
    Vec::new()
}
