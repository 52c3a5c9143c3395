//! State of the Inspector: the tuple shown, the round and the pane (a script or REVIEW.md).

use crate::tui::data::TaskDetail;

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
}

impl Pane {
    /// Cycle order.
    pub const ALL: [Pane; 4] = [Pane::Review, Pane::Setup, Pane::Golden, Pane::Reward];
    /// Label.
    pub fn label(self) -> &'static str {
        match self {
            Pane::Review => "REVIEW.md",
            Pane::Setup => "initial_setup.py",
            Pane::Golden => "golden_patch.py",
            Pane::Reward => "reward.py",
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
}

impl InspectorState {
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
}
