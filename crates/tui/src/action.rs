//! The one action registry: every user-facing action has a stable name, a description and default
//! keys. The keymap, the `?` help overlay and the command palette are all built from [`REGISTRY`].

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
    // open and copy (issue #33)
    /// Open the Inspector's pane (a script, REVIEW.md) or the tuple's meta.json in `$EDITOR`.
    OpenEditor,
    /// The same in `$PAGER`.
    OpenPager,
    /// Copy the selected tuple's id to the clipboard (OSC 52).
    YankId,
    /// Copy the selected tuple's bundle path (`[export] out_dir`/id).
    YankPath,
    /// Copy the Inspector's pane (a script, REVIEW.md).
    YankScript,
    // saved views, columns, notes (issue #33)
    /// Tuples: save the current search, filters and sort under a name.
    SaveView,
    /// Tuples: list the saved views (enter applies one, x deletes it).
    ListViews,
    /// Tuples: choose, hide and reorder the columns.
    ChooseColumns,
    /// Add or edit a note and the tags of the selected tuple.
    EditNote,
    /// Rollouts: the filmstrip's frame over the whole screen, or back.
    FrameFull,
    /// Rollouts: zoom into the frame (2×, 4×: its centre).
    ZoomIn,
    /// Rollouts: zoom out.
    ZoomOut,
}

pub use super::action_registry::REGISTRY;

/// The registry entry named `name`.
pub fn by_name(name: &str) -> Option<&'static ActionSpec> {
    REGISTRY.iter().find(|s| s.name == name)
}

/// The registry entry of `action`.
pub fn spec_of(action: Action) -> Option<&'static ActionSpec> {
    REGISTRY.iter().find(|s| s.action == action)
}
