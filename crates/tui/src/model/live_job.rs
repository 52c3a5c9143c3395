//! The job header of the Live screen, built from `job.*` events only (so a headless run of another
//! process shows exactly like a job this workbench drives), and the Live job keys: start a run on
//! the pending tuples of the Tuples view, pause, resume, cancel, and the quit guard while a job of
//! this workbench runs.

use chrono::DateTime;

use crate::action::Action;
use crate::data::EngineCommand;
use crate::jobs::JobUpdate;
use tuplewright_base::store::Event;

use super::Model;

/// Where a job is, as its events tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobState {
    /// Starting tasks.
    Running,
    /// Finishing the tasks in flight, starting none.
    Paused,
    /// Cancel requested; tasks in flight are being abandoned.
    Cancelling,
    /// Ended (`job.finished`).
    Finished,
}

impl JobState {
    /// Label with a glyph (usable without colour).
    pub fn label(self) -> &'static str {
        match self {
            JobState::Running => "▶ running",
            JobState::Paused => "‖ paused",
            JobState::Cancelling => "■ cancelling",
            JobState::Finished => "✓ finished",
        }
    }
}

/// The latest job of the event log.
#[derive(Debug, Clone, PartialEq)]
pub struct JobView {
    /// Job id (`run-…`, `rollout-…`).
    pub id: String,
    /// `run` or `rollout`.
    pub kind: String,
    /// State.
    pub state: JobState,
    /// Tasks in the job.
    pub total: usize,
    /// Tasks finished (any outcome).
    pub done: usize,
    /// Parallelism (worker threads).
    pub jobs: usize,
    /// Time of `job.started` (RFC 3339).
    pub started: String,
    /// Time of the latest `job.*` event.
    pub last: String,
    /// Wall seconds of each finished task (accepted or rejected; not cancelled or infra).
    pub task_secs: Vec<f64>,
    /// Set by `job.cancelled`.
    pub cancelled: bool,
    /// Tasks abandoned in flight by a cancel (`job.task` outcome `cancelled`): not done.
    pub cancelled_tasks: usize,
    /// The outcome counts of `job.finished` (`accepted`, `rejected`, `cancelled`, `leased`, …).
    pub outcomes: Vec<(String, usize)>,
}

/// The outcome words a `job.finished` payload counts, in the order they are shown (a run's
/// `accepted`…, a rollout's `ok`…, a vote's `kept`…, a verification's `passed`…).
pub const OUTCOME_KEYS: [&str; 13] = [
    "accepted",
    "ok",
    "kept",
    "modified",
    "passed",
    "rejected",
    "undecided",
    "failed",
    "infra",
    "invalid",
    "leased",
    "skipped",
    "cancelled",
];

/// `ok 3 · failed 1`: the non-zero outcome counts of a `job.finished` payload (never a count the
/// job's kind does not have, such as "rejected 0" for rollouts).
pub fn outcome_words(p: &serde_json::Value) -> String {
    let words: Vec<String> = OUTCOME_KEYS
        .iter()
        .filter_map(|k| {
            p[*k]
                .as_u64()
                .filter(|v| *v > 0)
                .map(|v| format!("{k} {v}"))
        })
        .collect();
    if words.is_empty() {
        "nothing done".into()
    } else {
        words.join(" · ")
    }
}

fn secs_between(a: &str, b: &str) -> Option<f64> {
    let (a, b) = (
        DateTime::parse_from_rfc3339(a).ok()?,
        DateTime::parse_from_rfc3339(b).ok()?,
    );
    Some((b - a).num_milliseconds() as f64 / 1000.0)
}

impl JobView {
    /// Applies a `job.*` event; returns false for events of another (older) job.
    pub fn apply(job: &mut Option<JobView>, e: &Event) -> bool {
        let p = &e.payload;
        let id = p["job"].as_str().unwrap_or("").to_string();
        let n = |k: &str| p[k].as_u64().unwrap_or(0) as usize;
        if e.kind == "job.started" {
            *job = Some(JobView {
                id,
                kind: p["kind"].as_str().unwrap_or("run").to_string(),
                state: JobState::Running,
                total: n("total"),
                done: 0,
                jobs: n("jobs").max(1),
                started: e.time.clone(),
                last: e.time.clone(),
                task_secs: Vec::new(),
                cancelled: false,
                cancelled_tasks: 0,
                outcomes: Vec::new(),
            });
            return true;
        }
        let Some(j) = job.as_mut().filter(|j| j.id == id) else {
            return false;
        };
        j.last = e.time.clone();
        match e.kind.as_str() {
            "job.paused" if j.state == JobState::Running => j.state = JobState::Paused,
            "job.resumed" if j.state == JobState::Paused => j.state = JobState::Running,
            "job.cancelled" => {
                j.cancelled = true;
                if j.state != JobState::Finished {
                    j.state = JobState::Cancelling;
                }
            }
            "job.task" if p["outcome"] == "cancelled" => j.cancelled_tasks += 1,
            "job.task" => {
                // `done` in the payload counts the cancelled ones too; they are not done.
                j.done = n("done").saturating_sub(j.cancelled_tasks).max(j.done);
                let finished =
                    matches!(p["outcome"].as_str(), Some("accepted" | "rejected" | "ok"));
                if let (true, Some(s)) = (finished, p["secs"].as_f64()) {
                    j.task_secs.push(s);
                }
            }
            "job.finished" => {
                j.state = JobState::Finished;
                j.outcomes = OUTCOME_KEYS
                    .iter()
                    .filter(|k| p[**k].as_u64().is_some_and(|v| v > 0))
                    .map(|k| (k.to_string(), n(k)))
                    .collect();
                // Everything not cancelled (never started, or abandoned in flight) was done.
                j.done = j.total.saturating_sub(n("cancelled"));
            }
            _ => {}
        }
        true
    }

    /// Median wall seconds of the finished tasks.
    pub fn median_task_secs(&self) -> Option<f64> {
        let mut v = self.task_secs.clone();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        Some(v[v.len() / 2])
    }

    /// Seconds left: median task time × remaining tasks / parallelism (None before a task finished).
    pub fn eta_secs(&self) -> Option<f64> {
        if self.state == JobState::Finished {
            return Some(0.0);
        }
        let remaining = self.total.saturating_sub(self.done);
        Some(self.median_task_secs()? * remaining as f64 / self.jobs.max(1) as f64)
    }

    /// Seconds between `job.started` and the latest job event.
    pub fn elapsed(&self) -> f64 {
        secs_between(&self.started, &self.last).unwrap_or(0.0)
    }

    /// Finished tasks per minute between `job.started` and the latest job event.
    pub fn per_minute(&self) -> Option<f64> {
        let s = secs_between(&self.started, &self.last)?;
        (s > 0.0 && self.done > 0).then(|| self.done as f64 * 60.0 / s)
    }
}

/// `1h02m`, `3m05s`, `42s`.
pub fn fmt_duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}

impl Model {
    /// An update from the job runner.
    pub(super) fn job_update(&mut self, u: JobUpdate) {
        match u {
            JobUpdate::Started(id) => {
                self.notice = Some(format!("started job {id}"));
                self.live.own_job = Some(id);
            }
            JobUpdate::Finished(line) => {
                self.live.own_job = None;
                self.live.confirm = None;
                self.notice = Some(line);
            }
            JobUpdate::Notice(n) => self.notice = Some(n),
        }
    }

    /// Live: opens the selected timeline row's tuple in the Inspector (and moves the Tuples
    /// cursor onto it when it is in the view, so `n`/`N` go on from there).
    pub(super) fn open_live_selection(&mut self) -> Vec<EngineCommand> {
        let Some(id) = self.live.selected.clone() else {
            self.say(
                super::notice::Level::Warning,
                "no task selected: n/N select a row of the timeline",
            );
            return Vec::new();
        };
        self.tuples.select_id(&id);
        self.screen = crate::action::Screen::Inspector;
        self.inspector.task_id = Some(id.clone());
        vec![EngineCommand::LoadDetail(id)]
    }

    /// Task ids the run key would start: the pending (or interrupted `in_loop`) tuples of the
    /// Tuples view, in view order.
    pub fn run_candidates(&self) -> Vec<String> {
        let t = &self.tuples;
        t.view
            .iter()
            .filter_map(|&i| t.rows.get(i as usize))
            .filter(|r| r.status == "pending" || r.status == "in_loop")
            .map(|r| r.id.clone())
            .collect()
    }

    /// True when quitting may proceed; otherwise asks for confirmation first.
    pub(super) fn quit_confirmed(&mut self) -> bool {
        if self.live.own_job.is_none() || self.live.confirm == Some(Action::Quit) {
            return true;
        }
        self.live.confirm = Some(Action::Quit);
        self.notice = Some(
            "a job of this workbench is running: q again cancels it (tasks in flight back to \
             pending) and quits; X cancels, p pauses, any other key keeps it"
                .into(),
        );
        false
    }

    /// Live: start / pause / resume / cancel.
    pub(super) fn job_action(&mut self, a: Action) -> Vec<EngineCommand> {
        let confirmed = self.live.confirm.take() == Some(a);
        if self.readonly {
            self.notice = Some("read-only mode: jobs cannot be started or steered".into());
            return Vec::new();
        }
        match a {
            Action::JobStart => {
                let ids = self.run_candidates();
                if ids.is_empty() {
                    self.notice = Some(
                        "no pending tuple in the Tuples view (filter the Tuples screen, then ctrl-s here)"
                            .into(),
                    );
                    return Vec::new();
                }
                if !confirmed {
                    self.live.confirm = Some(a);
                    self.notice = Some(format!(
                        "run the loop (scripted agents) on the {} pending tuples of the Tuples view? \
                         ctrl-s again to start",
                        ids.len()
                    ));
                    return Vec::new();
                }
                vec![EngineCommand::StartRun(ids)]
            }
            Action::JobPause => {
                let paused = self
                    .live
                    .job
                    .as_ref()
                    .is_some_and(|j| j.state == JobState::Paused);
                vec![if paused {
                    EngineCommand::ResumeJob
                } else {
                    EngineCommand::PauseJob
                }]
            }
            Action::JobResume => vec![EngineCommand::ResumeJob],
            Action::JobCancel => vec![EngineCommand::CancelJob],
            _ => Vec::new(),
        }
    }
}
