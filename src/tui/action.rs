//! The one action registry: every user-facing action has a stable name, a description and default
//! keys. The keymap, the `?` help overlay and the command palette are all built from [`REGISTRY`].

use super::action_spec::spec;
pub use super::action_spec::ActionSpec;
pub use super::screen_tab::Screen;

/// Something the user can ask for. Screens interpret the movement actions for their own lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Leave the workbench.
    Quit,
    /// Show or hide the key help.
    Help,
    /// Open the command palette.
    Palette,
    /// Switch to a screen.
    Tab(Screen),
    /// Next screen.
    NextTab,
    /// Previous screen.
    PrevTab,
    /// Move down one row.
    Down,
    /// Move up one row.
    Up,
    /// Move down one page.
    PageDown,
    /// Move up one page.
    PageUp,
    /// First row.
    Top,
    /// Last row (and, on Live, resume following).
    Bottom,
    /// Start a fuzzy search.
    Search,
    /// Next tuple (auto-advance).
    NextItem,
    /// Previous tuple.
    PrevItem,
    /// Open the selected tuple in the Inspector.
    Open,
    /// Close an overlay, clear the search.
    Back,
    /// Cycle the sort column.
    SortNext,
    /// Reverse the sort order.
    SortReverse,
    /// Cycle the status filter.
    FilterStatus,
    /// Cycle the difficulty filter.
    FilterDifficulty,
    /// Cycle the app filter.
    FilterApp,
    /// Cycle the worst-severity filter (P0…P3).
    FilterSeverity,
    /// Clear every filter and the search.
    ClearFilters,
    /// Inspector: next round.
    NextRound,
    /// Inspector: previous round.
    PrevRound,
    /// Inspector: cycle setup / golden / reward / REVIEW.md.
    NextPane,
    /// Inspector: show the pane as a diff against the previous round.
    ToggleDiff,
    /// Inspector: wrap long lines / cut them and scroll sideways.
    ToggleWrap,
    /// Inspector: scroll sideways to the right (when not wrapping).
    ScrollRight,
    /// Inspector: scroll sideways to the left.
    ScrollLeft,
    /// Re-read the store now.
    Refresh,
    /// Release the mouse to the terminal (text selection) or capture it again.
    ToggleMouse,
    // filter screen
    /// Filter: keep the tuple (asks for a reason).
    DecideKeep,
    /// Filter: keep it with an edited instruction (editor, then a reason).
    DecideModify,
    /// Filter: reject the tuple (asks for a reason).
    DecideReject,
    /// Filter: undo the last decision.
    UndoDecision,
    // live jobs
    /// Live: run the loop on the pending tuples of the Tuples view (press twice to confirm).
    JobStart,
    /// Live: pause the workbench's job (or resume it when paused).
    JobPause,
    /// Live: resume the workbench's paused job.
    JobResume,
    /// Live: cancel the workbench's job.
    JobCancel,
    // states
    /// State diff: flat key-path table / JSON tree.
    StateView,
    /// State diff: unified / side-by-side.
    StateSplit,
    /// State diff: show / hide volatile (masked) keys.
    StateMasked,
    /// State diff: compare initial with golden or with a rollout trial's final state.
    StateCompare,
    /// State diff: fold / unfold the tree node under the cursor.
    StateFold,
    // reward & rollouts screens
    /// Reward: show or hide the raw reward output (stdout/stderr) of the focused card.
    RawOutput,
    /// Reward: focus the next card (columns scroll to it).
    CardNext,
    /// Reward: focus the previous card.
    CardPrev,
    /// Rollouts: open the launch form (policy, trials) for the selection.
    LaunchRollouts,
    /// Rollouts: list the selected tuple's trials or every trial in the store.
    ToggleScope,
    /// Rollouts: scroll the trial detail pane down.
    DetailDown,
    /// Rollouts: scroll the trial detail pane up.
    DetailUp,
    /// Rollouts: the filmstrip's next step.
    StepNext,
    /// Rollouts: the filmstrip's previous step.
    StepPrev,
    /// Rollouts: the filmstrip's first step.
    StepFirst,
    /// Rollouts: the filmstrip's last step.
    StepLast,
    /// Rollouts: watch the running trial live in the detail pane, or go back to the selection.
    WatchLive,
    // similar tuples
    /// Tuples: list the selected tuple's nearest neighbours in the store (embedding cosine).
    Similar,
    // bulk decisions (issue #33)
    /// Tuples: mark / unmark the selected tuple and move down (State diff: fold, as `z a`).
    Mark,
    /// Tuples: mark every tuple the current search and filters show.
    MarkAll,
    /// Tuples: invert the marks of the tuples shown.
    MarkInvert,
    // pipeline stages as workbench jobs (issue #33)
    /// Run the critic vote on the marked tuples (else the selected one), as a job.
    StageVote,
    /// Verify the marked tuples (else the selected one), as a job.
    StageVerify,
    /// Re-run the marked tuples (else the selected one) with other settings, as a run job.
    StageRerun,
    /// Generate tasks from the taxonomies (a line: apps, n, seed, pass, author), as a job.
    StageTaskgen,
    /// Preview `export` (what it writes, what it leaves out and why), then export.
    ExportPreview,
}

/// Every action, in help order.
pub const REGISTRY: &[ActionSpec] = &[
    spec(
        Action::Quit,
        "quit",
        "Quit the workbench (ctrl-c always quits)",
        &["q"],
    ),
    spec(Action::Help, "help", "Show or hide this help", &["?"]),
    spec(
        Action::Palette,
        "palette",
        "Command palette: run any action by name",
        &[":", "ctrl-p"],
    ),
    spec(
        Action::Tab(Screen::Live),
        "tab_live",
        "Screen: Live — runs followed from the event log",
        &["1"],
    ),
    spec(
        Action::Tab(Screen::Tuples),
        "tab_tuples",
        "Screen: Tuples — sortable, filterable list",
        &["2"],
    ),
    spec(
        Action::Tab(Screen::Inspector),
        "tab_inspector",
        "Screen: Inspector — rounds, scripts, review",
        &["3"],
    ),
    spec(
        Action::Tab(Screen::StateDiff),
        "tab_state_diff",
        "Screen: State diff — initial vs golden vs rollout state",
        &["4"],
    ),
    spec(
        Action::Tab(Screen::Reward),
        "tab_reward",
        "Screen: Reward — per-component breakdowns",
        &["5"],
    ),
    spec(
        Action::Tab(Screen::Filter),
        "tab_filter",
        "Screen: Filter — critic votes and curator decisions",
        &["6"],
    ),
    spec(
        Action::Tab(Screen::Rollouts),
        "tab_rollouts",
        "Screen: Rollouts — launch, watch and browse trials",
        &["7"],
    ),
    spec(
        Action::Tab(Screen::Stats),
        "tab_stats",
        "Screen: Stats — tables, histograms, coverage",
        &["8"],
    ),
    spec(Action::NextTab, "next_tab", "Next screen", &["tab"]),
    spec(Action::PrevTab, "prev_tab", "Previous screen", &["backtab"]),
    spec(Action::Down, "down", "Move down", &["j", "down"]),
    spec(Action::Up, "up", "Move up", &["k", "up"]),
    spec(
        Action::PageDown,
        "page_down",
        "Page down",
        &["ctrl-d", "pagedown"],
    ),
    spec(Action::PageUp, "page_up", "Page up", &["ctrl-u", "pageup"]),
    spec(Action::Top, "top", "Go to the top", &["g g", "home"]),
    spec(
        Action::Bottom,
        "bottom",
        "Go to the bottom (Live: resume following)",
        &["G", "end"],
    ),
    spec(
        Action::Search,
        "search",
        "Fuzzy search over instruction and id",
        &["/"],
    ),
    spec(
        Action::NextItem,
        "next_item",
        "Next tuple (Inspector follows)",
        &["n"],
    ),
    spec(
        Action::PrevItem,
        "prev_item",
        "Previous tuple (Inspector follows)",
        &["N"],
    ),
    spec(
        Action::Open,
        "open",
        "Open the selected tuple in the Inspector",
        &["enter"],
    ),
    spec(
        Action::Back,
        "back",
        "Close the overlay / clear the search",
        &["esc"],
    ),
    spec(
        Action::SortNext,
        "sort_next",
        "Sort by the next column",
        &["s"],
    ),
    spec(
        Action::SortReverse,
        "sort_reverse",
        "Reverse the sort order",
        &["S"],
    ),
    spec(
        Action::FilterStatus,
        "filter_status",
        "Cycle the status filter",
        &["f"],
    ),
    spec(
        Action::FilterDifficulty,
        "filter_difficulty",
        "Cycle the difficulty filter",
        &["d"],
    ),
    spec(
        Action::FilterApp,
        "filter_app",
        "Cycle the app filter",
        &["a"],
    ),
    spec(
        Action::FilterSeverity,
        "filter_severity",
        "Cycle the worst-critic-severity filter (P0…P3)",
        &["e"],
    ),
    spec(
        Action::ClearFilters,
        "clear_filters",
        "Clear filters and search",
        &["c"],
    ),
    spec(
        Action::NextRound,
        "next_round",
        "Inspector: next round",
        &["]", "right", "l"],
    ),
    spec(
        Action::PrevRound,
        "prev_round",
        "Inspector: previous round",
        &["[", "left", "h"],
    ),
    spec(
        Action::NextPane,
        "next_pane",
        "Inspector: REVIEW.md / setup / golden / reward / script runs",
        &["t"],
    ),
    spec(
        Action::ToggleDiff,
        "diff",
        "Inspector: diff the pane against the previous round",
        &["D"],
    ),
    spec(
        Action::ToggleWrap,
        "wrap",
        "Inspector: wrap long lines / cut them (then z l, z h scroll sideways)",
        &["w"],
    ),
    spec(
        Action::ScrollRight,
        "scroll_right",
        "Inspector: scroll sideways to the right",
        &["z l", "z right"],
    ),
    spec(
        Action::ScrollLeft,
        "scroll_left",
        "Inspector: scroll sideways to the left",
        &["z h", "z left"],
    ),
    spec(
        Action::Refresh,
        "refresh",
        "Re-read the store now",
        &["r", "ctrl-r"],
    ),
    spec(
        Action::ToggleMouse,
        "mouse",
        "Release the mouse for the terminal's text selection (again: capture)",
        &["m"],
    ),
    // filter screen (screen-local: other screens ignore these keys)
    spec(
        Action::DecideKeep,
        "decide_keep",
        "Filter: keep the tuple (asks for a reason); on Tuples: the marked tuples",
        &["K"],
    ),
    spec(
        Action::DecideModify,
        "decide_modify",
        "Filter: modify_query — edit the instruction, then a reason; on Tuples: the marked tuples",
        &["M"],
    ),
    spec(
        Action::DecideReject,
        "decide_reject",
        "Filter: reject the tuple (asks for a reason); on Tuples: the marked tuples",
        &["R"],
    ),
    spec(
        Action::UndoDecision,
        "undo_decision",
        "Filter: undo the last decision (a compensating record); on Tuples: the last bulk group",
        &["u"],
    ),
    // live jobs
    spec(
        Action::JobStart,
        "job_start",
        "Live: run the loop on pending tuples of the Tuples view",
        &["ctrl-s"],
    ),
    spec(
        Action::JobPause,
        "job_pause",
        "Live: pause after the tasks in flight (again: resume)",
        &["p"],
    ),
    spec(
        Action::JobResume,
        "job_resume",
        "Live: resume the paused job",
        &["P"],
    ),
    spec(
        Action::JobCancel,
        "job_cancel",
        "Live: cancel the job (tasks in flight back to pending)",
        &["X"],
    ),
    // states
    spec(
        Action::StateView,
        "state_view",
        "State diff: flat key-path table / JSON tree",
        &["v"],
    ),
    spec(
        Action::StateSplit,
        "state_split",
        "State diff: unified / side-by-side",
        &["|"],
    ),
    spec(
        Action::StateMasked,
        "state_masked",
        "State diff: show / hide volatile (masked) keys, dimmed",
        &["."],
    ),
    spec(
        Action::StateCompare,
        "state_compare",
        "State diff: initial vs golden, then vs each rollout trial's final state",
        &["C"],
    ),
    spec(
        Action::StateFold,
        "state_fold",
        "State diff: fold / unfold the tree node (space, enter too); / n N search here",
        &["z a"],
    ),
    // reward & rollouts screens
    spec(
        Action::RawOutput,
        "raw_output",
        "Reward: show/hide the focused card's raw output",
        &["o"],
    ),
    spec(
        Action::CardNext,
        "card_next",
        "Reward: focus the next card (r(init), r(gold), trials)",
        &[">"],
    ),
    spec(
        Action::CardPrev,
        "card_prev",
        "Reward: focus the previous card",
        &["<"],
    ),
    spec(
        Action::LaunchRollouts,
        "launch_rollouts",
        "Rollouts: launch rollouts (policy, trials) on the selection",
        &["L"],
    ),
    spec(
        Action::ToggleScope,
        "rollouts_scope",
        "Rollouts: the selected tuple's trials / every trial",
        &["A"],
    ),
    spec(
        Action::DetailDown,
        "detail_down",
        "Rollouts: scroll the trial detail down",
        &["}"],
    ),
    spec(
        Action::DetailUp,
        "detail_up",
        "Rollouts: scroll the trial detail up",
        &["{"],
    ),
    spec(
        Action::StepNext,
        "step_next",
        "Rollouts: filmstrip — next step of the trial",
        &[")"],
    ),
    spec(
        Action::StepPrev,
        "step_prev",
        "Rollouts: filmstrip — previous step",
        &["("],
    ),
    spec(
        Action::StepFirst,
        "step_first",
        "Rollouts: filmstrip — first step",
        &["0"],
    ),
    spec(
        Action::StepLast,
        "step_last",
        "Rollouts: filmstrip — last step",
        &["$"],
    ),
    spec(
        Action::WatchLive,
        "watch_live",
        "Rollouts: watch the running trial live / back to the selected trial",
        &["W"],
    ),
    // similar tuples
    spec(
        Action::Similar,
        "similar",
        "Tuples: nearest neighbours of the selected tuple (embedding cosine)",
        &["="],
    ),
    // bulk decisions
    spec(
        Action::Mark,
        "mark",
        "Tuples: mark / unmark the tuple for a bulk decision (K R M on the marked, u undoes the group, esc clears)",
        &["space"],
    ),
    spec(
        Action::MarkAll,
        "mark_all",
        "Tuples: mark every tuple the search and filters show",
        &["*"],
    ),
    spec(
        Action::MarkInvert,
        "mark_invert",
        "Tuples: invert the marks of the tuples shown",
        &["~"],
    ),
    spec(
        Action::StageVote,
        "vote",
        "Critic vote ([filter] voters) on the marked tuples, else the selected one — a job (press twice)",
        &["V"],
    ),
    spec(
        Action::StageVerify,
        "verify",
        "Verify (C1–C5, probes) the marked tuples, else the selected one — a job (press twice)",
        &["Y"],
    ),
    spec(
        Action::StageRerun,
        "rerun",
        "Re-run the marked tuples, else the selected one: rounds=K fault=F generator=SPEC (history kept)",
        &["!"],
    ),
    spec(
        Action::StageTaskgen,
        "taskgen",
        "Generate tasks: apps=A,B n=N seed=S pass=breadth|gapfill|edge author=SPEC — a job; new tasks are pending",
        &["T"],
    ),
    spec(
        Action::ExportPreview,
        "export",
        "Export preview: bundles to write, tuples left out and why; enter exports ([export] out_dir)",
        &["E"],
    ),
];

/// The registry entry named `name`.
pub fn by_name(name: &str) -> Option<&'static ActionSpec> {
    REGISTRY.iter().find(|s| s.name == name)
}

/// The registry entry of `action`.
pub fn spec_of(action: Action) -> Option<&'static ActionSpec> {
    REGISTRY.iter().find(|s| s.action == action)
}
