//! State of the Live screen: the header's counts and the latest job come from the store
//! ([`crate::live_data`]); the event tail feeds a per-task round/phase timeline with C1–C5 as
//! they arrive (rows selectable with `n`/`N`, `Enter` opens the Inspector) and a log tail with
//! follow mode (scrolling up pauses it and counts the new events; `G` resumes).

use std::collections::{HashMap, VecDeque};

use crate::action::Action;
use crate::data::RoundChecks;
use crate::live_data::{LiveCounts, LiveSummary};
use tuplewright_base::store::Event;

use super::live_job::JobView;

/// Log lines kept in memory.
pub const LOG_CAP: usize = 5000;

/// One task as seen in the event log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskLive {
    /// Task id.
    pub task_id: String,
    /// Current round.
    pub round: i64,
    /// Current phase (`generate`, `setup`, ..., or the last decision's status).
    pub phase: String,
    /// Time of the first event of this task in the window (RFC 3339).
    pub started: String,
    /// Time of its latest event.
    pub last: String,
    /// C1–C5 of the current round, as the harness settles them (`round.check`).
    pub checks: [Option<bool>; 5],
    /// Highest r(init) of the current round so far.
    pub r_init: Option<f64>,
    /// Lowest r(gold) of the current round so far.
    pub r_gold: Option<f64>,
    /// Tuple status from the latest decision.
    pub status: String,
}

impl TaskLive {
    /// Moves to `round`, clearing the checklist and rewards of the previous one.
    fn enter_round(&mut self, round: i64) {
        if round != self.round {
            self.checks = [None; 5];
            self.r_init = None;
            self.r_gold = None;
        }
        self.round = round;
    }
}

/// One line of the log tail.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    /// Event sequence number.
    pub seq: i64,
    /// Event time (RFC 3339).
    pub time: String,
    /// Event kind.
    pub kind: String,
    /// Task id.
    pub task: String,
    /// Short detail.
    pub detail: String,
}

/// Live screen state.
#[derive(Debug, Default)]
pub struct LiveState {
    /// Tasks in first-seen order.
    pub tasks: Vec<TaskLive>,
    index: HashMap<String, usize>,
    /// The log tail.
    pub log: VecDeque<LogLine>,
    /// Highest seq seen.
    pub last_seq: i64,
    /// Following the tail.
    pub follow: bool,
    /// Lines scrolled up from the tail (0 when following).
    pub scroll_back: usize,
    /// Events that arrived while paused.
    pub new_while_paused: usize,
    /// Rounds recorded in the window.
    pub rounds_recorded: usize,
    /// The latest job of the event log (this workbench's or another process's).
    pub job: Option<JobView>,
    /// The job this workbench drives, while it runs.
    pub own_job: Option<String>,
    /// An action waiting for its key to be pressed again (start a run, quit during a job).
    pub confirm: Option<Action>,
    /// The header's counts, read from the store (None until the first read).
    pub counts: Option<LiveCounts>,
    /// The store read of the latest job covered the log up to this seq (its job events are not
    /// applied again from the tail).
    pub job_seq: i64,
    /// The selected timeline row (task id).
    pub selected: Option<String>,
}

fn short_detail(e: &Event) -> String {
    let p = &e.payload;
    match e.kind.as_str() {
        "round.phase" => {
            let d = &p["detail"];
            let mut s = format!("{} r{}", p["phase"].as_str().unwrap_or("?"), d["round"]);
            if let Some(env) = d["env"].as_str() {
                s.push_str(&format!(" {env}#{}", d["run"]));
            }
            s
        }
        "decision" => format!(
            "{} → {}",
            p["before"].as_str().unwrap_or("?"),
            p["after"].as_str().unwrap_or("?")
        ),
        "round.recorded" => format!(
            "round {} {}",
            p["round"],
            p["verdict"].as_str().unwrap_or("?")
        ),
        "task.interrupted" => p["reason"].as_str().unwrap_or("").to_string(),
        "round.check" => format!(
            "r{} {} {} {}",
            p["round"],
            p["check"].as_str().unwrap_or("?"),
            p["status"].as_str().unwrap_or("?"),
            p["detail"].as_str().unwrap_or("")
        ),
        "reward.scored" => match p["reward"].as_f64() {
            Some(r) => format!(
                "r{} {}#{} = {r:.3}",
                p["round"],
                p["endpoint"].as_str().unwrap_or("?"),
                p["run"]
            ),
            None => format!(
                "r{} {}#{} error {}",
                p["round"],
                p["endpoint"].as_str().unwrap_or("?"),
                p["run"],
                p["error"].as_str().unwrap_or("")
            ),
        },
        "job.started" => format!(
            "{} {} tasks ×{}",
            p["job"].as_str().unwrap_or("?"),
            p["total"],
            p["jobs"]
        ),
        "job.task" => format!(
            "{} task {} of {}: {}",
            p["job"].as_str().unwrap_or("?"),
            p["done"],
            p["total"],
            p["outcome"].as_str().unwrap_or("?")
        ),
        "job.finished" => format!(
            "{} {}/{} · {}",
            p["job"].as_str().unwrap_or("?"),
            p["total"].as_u64().unwrap_or(0) - p["cancelled"].as_u64().unwrap_or(0),
            p["total"],
            super::live_job::outcome_words(p)
        ),
        k if k.starts_with("job.") => format!(
            "{} done {}/{}",
            p["job"].as_str().unwrap_or("?"),
            p["done"],
            p["total"]
        ),
        _ => String::new(),
    }
}

impl LiveState {
    /// A state that follows the tail.
    pub fn new() -> Self {
        LiveState {
            follow: true,
            ..Default::default()
        }
    }

    fn task_mut(&mut self, id: &str, time: &str) -> &mut TaskLive {
        let i = match self.index.get(id) {
            Some(i) => *i,
            None => {
                self.tasks.push(TaskLive {
                    task_id: id.to_string(),
                    started: time.to_string(),
                    ..Default::default()
                });
                self.index.insert(id.to_string(), self.tasks.len() - 1);
                self.tasks.len() - 1
            }
        };
        &mut self.tasks[i]
    }

    /// Applies new events; returns the (task, round) pairs whose C1–C5 should be loaded.
    pub fn apply(&mut self, events: &[Event]) -> Vec<(String, i64)> {
        let mut recorded = Vec::new();
        for e in events {
            if e.seq <= self.last_seq {
                continue;
            }
            self.last_seq = e.seq;
            let task = e.task_id.clone().unwrap_or_default();
            self.log.push_back(LogLine {
                seq: e.seq,
                time: e.time.clone(),
                kind: e.kind.clone(),
                task: task.clone(),
                detail: short_detail(e),
            });
            if self.log.len() > LOG_CAP {
                self.log.pop_front();
            }
            if self.follow {
                self.scroll_back = 0;
            } else {
                self.new_while_paused += 1;
                self.scroll_back = (self.scroll_back + 1).min(self.log.len().saturating_sub(1));
            }
            if e.kind.starts_with("job.") {
                if e.seq > self.job_seq {
                    JobView::apply(&mut self.job, e);
                }
                continue;
            }
            if task.is_empty() || e.kind == "task.imported" {
                continue;
            }
            // A curator's decision on a tuple no run touched here (a bulk decision writes
            // thousands) changes nothing on the timeline, which follows the loop (#33).
            if e.kind == "decision" && !self.index.contains_key(&task) {
                continue;
            }
            let p = &e.payload;
            let t = self.task_mut(&task, &e.time);
            // The elapsed column is the loop's time on the task: a later vote, decision or
            // rollout does not stretch it (#33).
            if is_loop_event(&e.kind) {
                t.last = e.time.clone();
            }
            match e.kind.as_str() {
                "round.phase" => {
                    let round = p["detail"]["round"].as_i64().unwrap_or(t.round);
                    t.enter_round(round);
                    t.phase = p["phase"].as_str().unwrap_or("?").to_string();
                }
                "round.check" => {
                    t.enter_round(p["round"].as_i64().unwrap_or(t.round));
                    let n = p["check"].as_str().and_then(|c| c.strip_prefix('C'));
                    if let Some(i) = n
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|i| (1..=5).contains(i))
                    {
                        // `not_run` stays unknown, as in the REVIEW.md table.
                        t.checks[i - 1] = match p["status"].as_str() {
                            Some("pass") => Some(true),
                            Some("fail") => Some(false),
                            _ => None,
                        };
                    }
                }
                "reward.scored" => {
                    t.enter_round(p["round"].as_i64().unwrap_or(t.round));
                    if let Some(r) = p["reward"].as_f64() {
                        match p["endpoint"].as_str() {
                            // Lowest r(gold) and highest r(init), as the Tuples list shows them.
                            Some("gold") => t.r_gold = Some(t.r_gold.map_or(r, |g| g.min(r))),
                            Some("init") => t.r_init = Some(t.r_init.map_or(r, |i| i.max(r))),
                            _ => {}
                        }
                    }
                }
                "round.recorded" => {
                    let round = p["round"].as_i64().unwrap_or(t.round);
                    t.round = round;
                    t.phase = format!("recorded ({})", p["verdict"].as_str().unwrap_or("?"));
                    self.rounds_recorded += 1;
                    recorded.push((task.clone(), round));
                }
                "decision" => {
                    t.status = p["after"].as_str().unwrap_or("?").to_string();
                }
                "task.interrupted" => t.phase = "interrupted".into(),
                _ => {}
            }
        }
        recorded
    }

    /// Takes the store's counts and, when read, the latest job (rebuilt from all its events).
    pub fn accept_summary(&mut self, s: LiveSummary) {
        self.counts = Some(s.counts);
        if let Some((events, through)) = s.job {
            if through >= self.job_seq {
                let mut job = None;
                for e in &events {
                    JobView::apply(&mut job, e);
                }
                // Events after `through` reach the model after this read (one worker thread
                // reads both in order), so the rebuilt job is the current one.
                self.job = job;
                self.job_seq = through;
            }
        }
    }

    /// Timeline rows in display order: latest activity first, then by id.
    pub fn ordered(&self) -> Vec<&TaskLive> {
        let mut order: Vec<&TaskLive> = self.tasks.iter().collect();
        order.sort_by(|a, b| b.last.cmp(&a.last).then_with(|| a.task_id.cmp(&b.task_id)));
        order
    }

    /// Moves the timeline selection by `delta` rows (the first move selects the top row).
    pub fn select_by(&mut self, delta: isize) {
        let order = self.ordered();
        if order.is_empty() {
            return;
        }
        let at = self
            .selected
            .as_ref()
            .and_then(|id| order.iter().position(|t| &t.task_id == id));
        let next = match at {
            Some(i) => i.saturating_add_signed(delta).min(order.len() - 1),
            None => 0,
        };
        self.selected = Some(order[next].task_id.clone());
    }

    /// Fills in C1–C5 of a recorded round.
    pub fn apply_checks(&mut self, c: RoundChecks) {
        if let Some(&i) = self.index.get(&c.task_id) {
            let t = &mut self.tasks[i];
            if t.round == c.round {
                t.checks = c.checks;
                t.r_init = c.r_init;
                t.r_gold = c.r_gold;
            }
        }
    }

    /// Scrolls the log up (pauses following) or down (resumes at the tail).
    pub fn scroll(&mut self, delta: isize) {
        let max = self.log.len().saturating_sub(1);
        self.scroll_back = self.scroll_back.saturating_add_signed(-delta).min(max);
        if self.scroll_back == 0 {
            self.resume();
        } else {
            self.follow = false;
        }
    }

    /// Back to the tail, following.
    pub fn resume(&mut self) {
        self.follow = true;
        self.scroll_back = 0;
        self.new_while_paused = 0;
    }

    /// Tasks whose latest decision took them out of the loop.
    pub fn finished(&self) -> usize {
        self.tasks
            .iter()
            .filter(|t| !t.status.is_empty() && t.status != "in_loop" && t.status != "pending")
            .count()
    }
}

/// Whether an event is the agreement loop's own (rounds, checks, scores), which times a task.
fn is_loop_event(kind: &str) -> bool {
    kind.starts_with("round.") || kind.starts_with("reward.") || kind == "task.interrupted"
}
