//! What `run` shows: a progress bar on stderr (plain lines when stderr is not a terminal or NO_COLOR is
//! set), optional JSON-lines events, and the final summary.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::harness::batch::BatchSummary;
use crate::engine::harness::bus::Listener;
use crate::engine::harness::rerun::RunPlan;
use crate::engine::harness::TaskOutcome;
use crate::engine::store::{Event, TupleStatus};

/// Progress display of a run.
pub struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    done: Mutex<usize>,
}

impl Progress {
    /// A bar when stderr is an interactive terminal with colour allowed, else plain lines.
    pub fn new(total: usize, plain: bool) -> Progress {
        let fancy =
            !plain && std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        let bar = fancy.then(|| {
            let b = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} tasks (eta {eta}) {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        });
        Progress {
            bar,
            total,
            done: Mutex::new(0),
        }
    }

    /// A listener showing the latest phase as the bar's message.
    pub fn listener(self: &std::sync::Arc<Self>) -> Listener {
        let me = self.clone();
        Box::new(move |e: &Event| {
            if let (Some(bar), "round.phase") = (&me.bar, e.kind.as_str()) {
                let phase = e
                    .payload
                    .get("phase")
                    .and_then(|p| p.as_str())
                    .unwrap_or("");
                bar.set_message(format!("{} {phase}", e.task_id.as_deref().unwrap_or("")));
            }
        })
    }

    /// Called when a task ends; `stored` is the task's highest stored round number.
    pub fn task_done(&self, task: &str, outcome: &TaskOutcome, stored: Option<u32>) {
        let mut done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        *done += 1;
        let line = match outcome {
            TaskOutcome::Accepted { rounds } => {
                format!("accepted  {task} ({})", round_words(*rounds, stored))
            }
            TaskOutcome::Rejected { rounds, failing } => {
                let n = stored.filter(|&s| s > *rounds).map_or(String::new(), |s| {
                    format!(" (rounds {}-{s} of the task)", s - rounds + 1)
                });
                format!(
                    "rejected  {task} after {rounds} rounds{n}: failing {}",
                    failing.join(", ")
                )
            }
            TaskOutcome::Infra(m) => format!("INFRA     {task}: {m}"),
            TaskOutcome::Invalid(m) => format!("invalid   {task}: {m}"),
            TaskOutcome::Cancelled => format!("cancelled {task}"),
        };
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.println(line);
            }
            None => eprintln!("[{}/{}] {line}", *done, self.total),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `round N` of a task's only attempt; for a later attempt (a re-run) the stored round number
/// and the attempt's own count: `round 3 = round 1 of a new attempt`.
pub fn round_words(used: u32, stored: Option<u32>) -> String {
    match stored {
        Some(s) if s > used => format!("round {s} = round {used} of a new attempt"),
        _ => format!("round {used}"),
    }
}

/// A listener writing each event as one JSON line to `path` (`-` = stdout).
pub fn events_listener(path: &Path) -> anyhow::Result<Listener> {
    let sink: Box<dyn Write + Send> = if path == Path::new("-") {
        Box::new(std::io::stdout())
    } else {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| anyhow::anyhow!("opening --events-jsonl {}: {e}", path.display()))?;
        Box::new(std::io::BufWriter::new(f))
    };
    let sink = Mutex::new(sink);
    Ok(Box::new(move |e: &Event| {
        if let Ok(line) = serde_json::to_string(e) {
            let mut s = sink.lock().unwrap_or_else(|p| p.into_inner());
            let _ = writeln!(s, "{line}");
            let _ = s.flush();
        }
    }))
}

/// What the export step of a run did.
pub struct Exported {
    /// Output directory.
    pub out: PathBuf,
    /// Accepted tuples whose bundle is present (written or already identical).
    pub count: usize,
    /// Accepted tuples that could not be exported, with the reason.
    pub skipped: Vec<(String, String)>,
    /// Bundles removed because their tuple is out (rejected meanwhile), with the reason.
    pub withdrawn: Vec<(String, String)>,
    /// Tuples of the task files per exported status (verified, not out).
    pub by_status: Vec<(TupleStatus, usize)>,
}

/// Prints the end-of-run summary on stderr.
pub fn print_summary(
    s: &BatchSummary,
    plan: &RunPlan,
    exported: Option<&Exported>,
    cancelled: bool,
) {
    eprintln!();
    eprintln!("tasks            {}", s.tasks);
    eprintln!("accepted         {}", s.accepted.len());
    eprintln!("rejected         {}", s.rejected.len());
    for (cond, n) in &s.rejected_by_condition {
        eprintln!("  failing {cond}     {n}");
    }
    eprintln!("infra failures   {}", s.infra_failures.len());
    for (t, m) in &s.infra_failures {
        eprintln!("  {t}: {m}");
    }
    if !s.invalid.is_empty() {
        eprintln!("invalid tasks    {}", s.invalid.len());
        for (t, m) in &s.invalid {
            eprintln!("  {t}: {m}");
        }
    }
    if !s.leased.is_empty() {
        eprintln!(
            "leased elsewhere {} (skipped: another live process works on them)",
            s.leased.len()
        );
        for (t, holder) in &s.leased {
            eprintln!("  {t}: {holder}");
        }
    }
    if !s.skipped.is_empty() {
        eprintln!(
            "skipped          {} (no longer pending, or decided by another process meanwhile)",
            s.skipped.len()
        );
        for (t, status) in &s.skipped {
            eprintln!("  {t}: {status}");
        }
    }
    print_left_as_they_are(plan);
    if !s.cancelled.is_empty() || cancelled {
        eprintln!(
            "not finished     {} (resume with --resume)",
            s.cancelled.len()
        );
    }
    let hist: Vec<String> = s
        .rounds_to_accept
        .iter()
        .map(|(r, n)| format!("{r}:{n}"))
        .collect();
    eprintln!(
        "rounds to accept {} (rounds of each task's attempt)",
        if hist.is_empty() {
            "-".into()
        } else {
            hist.join("  ")
        }
    );
    let median = s
        .median_task_seconds()
        .map_or("-".into(), |m| format!("{m:.2}s"));
    eprintln!(
        "time             {:.1}s (median {median} per task)",
        s.elapsed_seconds
    );
    if let Some(x) = exported {
        eprintln!(
            "exported         {} verified tuple(s) to {} (what `tuplewright export` writes by default)",
            x.count,
            x.out.display()
        );
        for (status, n) in &x.by_status {
            eprintln!("  {n:>4} {:<14} {}", status.as_str(), status.meaning());
        }
        for (t, why) in &x.skipped {
            eprintln!("  not exported {t}: {why}");
        }
        for (t, why) in &x.withdrawn {
            eprintln!("  withdrawn    {t}: {why}");
        }
    }
}

/// The finished tasks a run left as they are, a line per status.
fn print_left_as_they_are(plan: &RunPlan) {
    if plan.skipped.is_empty() {
        return;
    }
    eprintln!(
        "skipped finished {} (left as they are; `--rerun ID` runs one again)",
        plan.skipped.len()
    );
    for (status, n, human) in plan.skipped_by_status() {
        let person = match human {
            0 => String::new(),
            h => format!("; {h} decided by a person"),
        };
        eprintln!(
            "  {n:>4} {:<16} {}{person}",
            status.as_str(),
            status.meaning()
        );
    }
}
