//! What the workbench reads from the store, and the messages between the model and the workers.
//! Every function here runs on a worker thread, never on the draw path.

use std::sync::Arc;

pub use tuplewright_records::curate::rows::{load_rows, load_rows_page, TaskRow};

use tuplewright_base::store::{Event, Store, StoreError, StoredRound, StoredTask};
use tuplewright_engine::config::StatsConfig;
use tuplewright_engine::stats::{self, Population, Stats};

/// A tuple with its rounds, for the Inspector.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskDetail {
    /// The task and its status.
    pub task: StoredTask,
    /// Its rounds, oldest first.
    pub rounds: Vec<StoredRound>,
    /// The run each round came from (parallel to `rounds`; a change is a run boundary).
    pub runs: Vec<u32>,
}

/// C1–C5 and rewards of a finished round, parsed from its record (for Live).
#[derive(Debug, Clone, PartialEq)]
pub struct RoundChecks {
    /// The task.
    pub task_id: String,
    /// Round number.
    pub round: i64,
    /// C1..C5: pass, fail, or not reported.
    pub checks: [Option<bool>; 5],
    /// Highest r(init).
    pub r_init: Option<f64>,
    /// Lowest r(gold).
    pub r_gold: Option<f64>,
}

/// A request from the model to the store worker.
#[derive(Debug, Clone, PartialEq)]
pub enum EngineCommand {
    /// Re-read the tuple list.
    LoadRows,
    /// Read the first `n` tuples quickly (no rewards) so the first frame is not empty.
    LoadRowsPage(usize),
    /// Load one tuple for the Inspector.
    LoadDetail(String),
    /// Recompute the statistics.
    LoadStats,
    /// Load C1–C5 of a recorded round (task, round).
    LoadChecks(String, i64),
    /// Read the Live header's counts from the store; with `true` also the latest job's events.
    LoadLive(bool),
    /// Recompute the visible tuple list (off the UI thread).
    View(super::matcher::ViewSpec),
    /// Start an agreement-loop run over these tasks, driven by the workbench.
    StartRun(Vec<String>),
    /// Launch teacher rollouts on these tasks with this policy and number of trials.
    StartRollouts {
        /// The tasks.
        task_ids: Vec<String>,
        /// The policy (as `tuplewright rollout --policy`), parsed.
        policy: tuplewright_engine::rollout::spec::PolicySpec,
        /// Trials per task.
        trials: u32,
        /// Temperature and max turns typed in the launch form, for a VLM policy.
        vlm: Option<super::model::launch::VlmOverrides>,
    },
    /// Run the critic vote (`[filter]` voters) on these tuples, as a job.
    StartVote(Vec<String>),
    /// Verify these tuples (C1–C5, probes), as a job.
    StartVerify(Vec<String>),
    /// Generate tasks from the taxonomies (`apps=… n=… seed=… pass=… author=…`), as a job.
    StartTaskgen(String),
    /// Re-run these tuples with other settings, as a run job (each re-run recorded first).
    StartRerun(super::jobs_stages::RerunCmd),
    /// Compute what `export` with these options would write and leave out (writes nothing).
    PreviewExport(tuplewright_records::bundle::export::ExportOptions),
    /// Export with these options (the output folder only; the store is read).
    Export(tuplewright_records::bundle::export::ExportOptions),
    /// Pause the job the workbench is driving (after the tasks in flight).
    PauseJob,
    /// Resume a paused job.
    ResumeJob,
    /// Cancel the job (tasks in flight go back to pending; nothing partial is stored).
    CancelJob,
    /// Leave.
    Quit,
    // states
    /// Load a tuple's stored states for the State diff screen.
    LoadStates(String),
    // filter screen
    /// Load the Filter screen's data (votes, aggregate, outcome, history) for one tuple.
    LoadFilter(String),
    /// Apply a curator's decision or undo through the engine's decision interface.
    Decide(super::filter_data::DecideCmd),
    /// Decide the marked tuples as one group (issue #33).
    DecideBulk(super::bulk_data::BulkCmd),
    /// Undo a bulk decision group.
    UndoGroup(super::bulk_data::UndoGroupCmd),
    /// Read the statuses of these rows again after a bulk command's answer (#33).
    PatchRows(Arc<Vec<TaskRow>>),
    // reward & rollouts screens
    /// Load the reward breakdowns of one tuple (Reward screen).
    LoadRewards(String),
    /// Load the rollout trials of one tuple, or of the whole store (`None`).
    LoadTrials(Option<String>),
    /// Load one trial's detail and screenshot (by rollouts row id).
    LoadTrial(i64),
    /// Load one filmstrip or live frame (a step's screenshot with its action marked).
    LoadFrame(super::filmstrip_data::FrameRequest),
    // similar tuples
    /// List the nearest neighbours of one tuple (the similar-tuples worker).
    LoadSimilar(String),
    /// Build a tuple's meta.json to open it (issue #33).
    LoadMeta(String, super::external::Opener),
    /// Write the saved views and column layout (a local file, not the store; issue #33).
    SaveViews(Box<super::note_data::SaveViews>),
    /// Read a tuple's notes for the note editor.
    LoadNotes(String),
    /// Append a note (text and tag changes) to a tuple.
    AddNote(Box<super::note_data::NoteCmd>),
}

/// A result from a worker to the model.
#[derive(Debug, Clone)]
pub enum DataUpdate {
    /// The tuple list; `complete` is false for a first page without rewards.
    Rows(Arc<Vec<TaskRow>>, bool),
    /// One tuple.
    Detail(Box<TaskDetail>),
    /// Statistics.
    Stats(Box<Stats>),
    /// New events from the log (in order).
    Events(Vec<Event>),
    /// C1–C5 of a recorded round.
    Checks(RoundChecks),
    /// The Live header's store counts (and the latest job's events).
    Live(Box<super::live_data::LiveSummary>),
    /// A computed list view.
    View(super::matcher::ViewResult),
    /// A store error to show in the status line.
    Error(String),
    // states
    /// A tuple's stored states.
    States(Box<super::state_data::TupleStates>),
    // filter screen
    /// The Filter screen's data for one tuple.
    Filter(Box<super::filter_data::FilterData>),
    /// The result of a decision or undo.
    Decided(Box<super::filter_data::Decided>),
    /// The result of a bulk decision or group undo.
    Bulk(Box<super::bulk_data::BulkDone>),
    /// The rows a bulk answer asked to patch, and the patched rows.
    RowsPatched(Box<super::bulk_data::PatchedRows>),
    /// A tuple's notes (oldest first), for the note editor.
    Notes(String, Vec<tuplewright_base::store::Note>),
    /// A note was appended (the note) or refused (why).
    Noted(Box<Result<tuplewright_base::store::Note, String>>),
    /// An export preview or an export's result.
    Export(Box<super::export_data::ExportUpdate>),
    // live jobs
    /// From the job runner: a job of this workbench started or finished, or a notice.
    Job(super::jobs::JobUpdate),
    // reward & rollouts screens
    /// Reward breakdowns of one tuple.
    Rewards(Box<super::reward_data::RewardView>),
    /// A trial list.
    Trials(Box<super::rollouts_data::TrialList>),
    /// One trial in full.
    Trial(Box<super::rollouts_data::TrialDetail>),
    /// A filmstrip or live frame, decoded and marked.
    Frame(Box<super::filmstrip_data::Frame>),
    /// A screenshot finished encoding in the background (redraw).
    ScreenshotReady,
    // similar tuples
    /// The nearest neighbours of one tuple.
    Similar(Box<super::similar_data::SimilarUpdate>),
    /// A text to open outside the workbench (issue #33: meta.json).
    OpenText(Box<super::external::OpenText>),
}

/// One tuple with its rounds.
pub fn load_detail(store: &Store, task_id: &str) -> Result<TaskDetail, StoreError> {
    Ok(TaskDetail {
        task: store.task(task_id)?,
        rounds: store.rounds(task_id)?,
        runs: store.round_runs(task_id)?,
    })
}

/// The statistics over every task (the workbench shows the whole store).
pub fn load_stats(store: &Store) -> Result<Stats, StoreError> {
    stats::compute(store, &StatsConfig::default(), Population::Auto)
}

/// C1–C5 of round `round` of `task_id`, read from its REVIEW.md condition table and reward runs.
pub fn load_checks(
    store: &Store,
    task_id: &str,
    round: i64,
) -> Result<Option<RoundChecks>, StoreError> {
    let rounds = store.rounds(task_id)?;
    let Some(r) = rounds.iter().find(|r| r.round.round_no == Some(round)) else {
        return Ok(None);
    };
    let (r_init, r_gold) = rewards(r);
    Ok(Some(RoundChecks {
        task_id: task_id.to_string(),
        round,
        checks: parse_conditions(&r.round.review_md),
        r_init,
        r_gold,
    }))
}

/// Highest r(init) and lowest r(gold) of a round.
pub fn rewards(r: &StoredRound) -> (Option<f64>, Option<f64>) {
    let pick = |ep: &'static str| {
        r.round
            .reward_runs
            .iter()
            .filter(move |w| w.endpoint == ep)
            .filter_map(|w| w.reward)
    };
    (
        pick("initial").reduce(f64::max),
        pick("golden").reduce(f64::min),
    )
}

/// Reads the `| C1 | ... | PASS |` rows of a REVIEW.md condition table.
pub fn parse_conditions(review: &str) -> [Option<bool>; 5] {
    let mut out = [None; 5];
    for line in review.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 {
            continue;
        }
        let Some(n) = cells[1]
            .strip_prefix('C')
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        if (1..=5).contains(&n) {
            let status = cells[3].to_ascii_uppercase();
            out[n - 1] = match status.as_str() {
                "PASS" => Some(true),
                "FAIL" => Some(false),
                _ => None,
            };
        }
    }
    out
}
