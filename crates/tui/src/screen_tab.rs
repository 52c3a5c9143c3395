//! The workbench's screens (tabs): their order and titles.

/// The screens (tabs) that are built, in tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    /// Runs in progress, followed from the event log.
    Live,
    /// The tuple list.
    Tuples,
    /// One tuple in depth.
    Inspector,
    /// Initial vs golden (vs rollout final) state of the selected tuple.
    StateDiff,
    /// Per-component reward breakdowns.
    Reward,
    /// Critic votes and the curator's decision.
    Filter,
    /// Teacher rollouts: launch, watch, browse trials.
    Rollouts,
    /// Dataset statistics.
    Stats,
}

impl Screen {
    /// Every screen in tab order.
    pub const ALL: [Screen; 8] = [
        Screen::Live,
        Screen::Tuples,
        Screen::Inspector,
        Screen::StateDiff,
        Screen::Reward,
        Screen::Filter,
        Screen::Rollouts,
        Screen::Stats,
    ];

    /// Title shown in the tab bar.
    pub fn title(self) -> &'static str {
        match self {
            Screen::Live => "Live",
            Screen::Tuples => "Tuples",
            Screen::Inspector => "Inspector",
            Screen::StateDiff => "State diff",
            Screen::Reward => "Reward",
            Screen::Filter => "Filter",
            Screen::Rollouts => "Rollouts",
            Screen::Stats => "Stats",
        }
    }

    /// Short title for narrow terminals (the tab bar must fit 80 columns).
    pub fn short_title(self) -> &'static str {
        match self {
            Screen::Inspector => "Insp",
            Screen::StateDiff => "Diff",
            other => other.title(),
        }
    }

    /// Position in [`Screen::ALL`].
    pub fn index(self) -> usize {
        Screen::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }
}
