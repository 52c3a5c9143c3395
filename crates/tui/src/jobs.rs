//! The workbench's job runner: executes `StartRun` (the agreement loop with the embedded scripted
//! agents, as `tuplewright run` does by default), `StartRollouts` (the rollout stage, as
//! `tuplewright rollout`) and `PauseJob` / `ResumeJob` / `CancelJob`, one job at a time, each on its
//! own thread with the engine's runtime. The UI never waits on it: it only sends commands, and the
//! Live screen shows the job from the `job.*` events it writes to the store — exactly as it shows a
//! headless run of another process.
//!
//! A run only takes tasks that are `pending` (or left `in_loop` by an interrupted run) and not
//! leased by another live process (a headless run elsewhere); others are skipped and counted in
//! the notice, and the batch claims each task's lease before starting it. Cancel abandons a run's rounds in flight (task back to
//! `pending`, no partial round); a rollout job finishes the tuple in flight (see
//! [`tuplewright_engine::rollout::batch`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tuplewright_base::lease::LeaseKeeper;
use tuplewright_base::store::{Store, TupleStatus};
use tuplewright_engine::config::Config;
use tuplewright_engine::harness::{Bus, JobControl};
use tuplewright_engine::jobs::rollout::{RolloutEnv, RolloutSpec};
use tuplewright_engine::jobs::run::{RunEnv, RunResult, RunSpec};
use tuplewright_engine::rollout::batch::TupleResult;
use tuplewright_engine::rollout::spec::PolicySpec;
use tuplewright_engine::rollout::Policy;
use tuplewright_engine::sandbox::Isolation;

use super::data::{DataUpdate, EngineCommand};
use super::model::launch::VlmOverrides;

/// What the runner tells the model (besides the events it writes to the store).
#[derive(Debug, Clone, PartialEq)]
pub enum JobUpdate {
    /// A job of this workbench started (id).
    Started(String),
    /// The job ended; a one-line summary.
    Finished(String),
    /// A notice for the status line (refusals, errors, confirmations).
    Notice(String),
}

/// How the runner runs jobs.
#[derive(Debug, Clone)]
pub struct JobSettings {
    /// The store the workbench shows.
    pub store: PathBuf,
    /// `tuplewright.toml` (loop, sandbox and store settings).
    pub config: Config,
    /// Sandbox isolation of the scripts (always required from the workbench).
    pub isolation: Isolation,
    /// Seed of the scripted agents.
    pub seed: u64,
}

pub(super) struct Running {
    pub(super) control: Arc<JobControl>,
    pub(super) bus: Arc<Bus>,
    pub(super) thread: JoinHandle<()>,
    /// Set by the job thread before it reports `Finished` (the thread may still be exiting).
    pub(super) ended: Arc<AtomicBool>,
}

/// Handle on the runner thread.
pub struct JobRunner {
    tx: Sender<EngineCommand>,
    handle: JoinHandle<Option<String>>,
}

impl JobRunner {
    /// Starts the runner; updates arrive on `out` as [`DataUpdate::Job`].
    pub fn start(settings: JobSettings, out: Sender<DataUpdate>) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel();
        let handle = std::thread::Builder::new()
            .name("tw-jobs".into())
            .spawn(move || runner_loop(&settings, &rx, &out))?;
        Ok(JobRunner { tx, handle })
    }

    /// Sends a job command (start, pause, resume, cancel).
    pub fn send(&self, cmd: EngineCommand) {
        let _ = self.tx.send(cmd);
    }

    /// Stops the runner: a job still running is cancelled cleanly and waited for. Returns what
    /// happened to it, for the terminal after the workbench closed.
    pub fn stop(self) -> Option<String> {
        let _ = self.tx.send(EngineCommand::Quit);
        self.handle.join().ok().flatten()
    }
}

pub(super) fn notice(out: &Sender<DataUpdate>, s: impl Into<String>) {
    let _ = out.send(DataUpdate::Job(JobUpdate::Notice(s.into())));
}

fn runner_loop(
    settings: &JobSettings,
    rx: &Receiver<EngineCommand>,
    out: &Sender<DataUpdate>,
) -> Option<String> {
    let mut cur: Option<Running> = None;
    loop {
        let cmd = rx.recv().unwrap_or(EngineCommand::Quit);
        if cur
            .as_ref()
            .is_some_and(|r| r.thread.is_finished() || r.ended.load(Ordering::SeqCst))
        {
            if let Some(r) = cur.take() {
                let _ = r.thread.join();
            }
        }
        let id = cur.as_ref().map(|r| r.control.id().to_string());
        match (cmd, &cur) {
            (EngineCommand::Quit, None) => return None,
            (EngineCommand::Quit, Some(r)) => {
                let _ = r.control.cancel(&r.bus);
                let (done, total, in_flight) = r.control.counts();
                eprintln!("waiting for job {} to stop cleanly…", r.control.id());
                let r = cur.take()?;
                let _ = r.thread.join();
                return Some(format!(
                    "cancelled job {} on quit: {done}/{total} tasks done, {in_flight} in flight \
                     abandoned (left pending, resumable)",
                    r.control.id()
                ));
            }
            (
                EngineCommand::StartRun(_)
                | EngineCommand::StartRollouts { .. }
                | EngineCommand::StartVote(_)
                | EngineCommand::StartVerify(_)
                | EngineCommand::StartRerun(_)
                | EngineCommand::StartTaskgen(_),
                Some(_),
            ) => {
                notice(
                    out,
                    format!(
                        "job {} is still running: pause, cancel or wait for it before starting another",
                        id.unwrap_or_default()
                    ),
                );
            }
            (EngineCommand::StartRun(ids), None) => {
                match start_run(settings, &settings.config, ids, out) {
                    Ok(r) => cur = Some(r),
                    Err(e) => notice(out, format!("cannot start the run: {e}")),
                }
            }
            (
                cmd @ (EngineCommand::StartVote(_)
                | EngineCommand::StartVerify(_)
                | EngineCommand::StartRerun(_)
                | EngineCommand::StartTaskgen(_)),
                None,
            ) => match super::jobs_stages::start(settings, cmd, out) {
                Ok(r) => cur = r,
                Err(e) => notice(out, format!("cannot start the job: {e}")),
            },
            (
                EngineCommand::StartRollouts {
                    task_ids,
                    policy,
                    trials,
                    vlm,
                },
                None,
            ) => match start_rollouts(settings, task_ids, (&policy, vlm), trials, out) {
                Ok(r) => cur = Some(r),
                Err(e) => notice(out, format!("cannot start the rollouts: {e}")),
            },
            (
                cmd @ (EngineCommand::PauseJob
                | EngineCommand::ResumeJob
                | EngineCommand::CancelJob),
                None,
            ) => match super::jobs_store::apply(settings, &cmd) {
                Some(n) => notice(out, n),
                None => notice(out, "no job of this workbench is running"),
            },
            (cmd, Some(r)) => {
                // On a shared store the workers' job control follows the workbench's own job.
                if let Some(n) = super::jobs_store::apply(settings, &cmd) {
                    notice(out, n);
                }
                let (result, done, refused, verb) = match cmd {
                    EngineCommand::PauseJob => (
                        r.control.pause(&r.bus),
                        "pausing: the tasks in flight finish, no new task starts",
                        "the job is not running (already paused or cancelled)",
                        "pausing",
                    ),
                    EngineCommand::ResumeJob => (
                        r.control.resume(&r.bus),
                        "resumed",
                        "the job is not paused",
                        "resuming",
                    ),
                    EngineCommand::CancelJob => (
                        r.control.cancel(&r.bus),
                        "cancelling: tasks in flight are abandoned and left pending",
                        "the job is already cancelled",
                        "cancelling",
                    ),
                    _ => continue,
                };
                match result {
                    Ok(true) => notice(out, done),
                    Ok(false) => notice(out, refused),
                    Err(e) => notice(out, format!("store error while {verb}: {e}")),
                }
            }
            (_, _) => {}
        }
    }
}

pub(super) fn open_bus(settings: &JobSettings) -> anyhow::Result<Bus> {
    let timeout = Duration::from_millis(settings.config.store.busy_timeout_ms);
    let store = Store::open(&settings.store, timeout)?;
    Ok(Bus::new(store, vec![])?)
}

pub(super) fn open_leases(settings: &JobSettings) -> anyhow::Result<Arc<LeaseKeeper>> {
    let lease = settings
        .config
        .store
        .lease_settings()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let timeout = Duration::from_millis(settings.config.store.busy_timeout_ms);
    Ok(Arc::new(LeaseKeeper::open(
        &settings.store,
        timeout,
        lease,
    )?))
}

/// Starts the run job of `config` on the pending (or interrupted) tasks of `ids`.
pub(super) fn start_run(
    settings: &JobSettings,
    config: &Config,
    ids: Vec<String>,
    out: &Sender<DataUpdate>,
) -> anyhow::Result<Running> {
    let bus = Arc::new(open_bus(settings)?);
    let leases = open_leases(settings)?;
    let wanted = [TupleStatus::Pending.as_str(), TupleStatus::InLoop.as_str()];
    let total = ids.len();
    let ids: Vec<String> = ids
        .into_iter()
        .filter(|id| {
            bus.read(|s| s.effective_status(id))
                .is_ok_and(|s| wanted.contains(&s.as_str()))
        })
        .collect();
    let not_pending = total - ids.len();
    let held: std::collections::BTreeSet<String> = leases
        .held_elsewhere(&ids)?
        .into_iter()
        .map(|l| l.task_id)
        .collect();
    let ids: Vec<String> = ids.into_iter().filter(|id| !held.contains(id)).collect();
    if ids.is_empty() {
        anyhow::bail!(
            "none of the {total} selected tasks is pending and free ({not_pending} not pending, \
             {} leased by another process)",
            held.len()
        );
    }
    let skipped = total - ids.len();
    let count = ids.len();
    let flag = Arc::new(AtomicBool::new(false));
    // The run job of `--no-tui run`: the agents of `[agents]` (scripted by default) with the
    // job's seed, each accepted tuple delivered to `[export] out_dir`.
    let mut spec = RunSpec::from_config(config, ids);
    spec.scripted.seed = settings.seed;
    spec.isolation = settings.isolation;
    // A spec that names no usable agent is refused before the job starts.
    drop(tuplewright_engine::agents::build::build(
        &spec.generator,
        &spec.discriminator,
        &spec.scripted,
        flag.clone(),
    )?);
    // The runtime's flag is the job's: cancel stops the rounds in flight at their next step.
    let control = Arc::new(JobControl::new(JobControl::new_id("run"), flag));
    let (c2, b2, cfg, o2) = (control.clone(), bus.clone(), config.clone(), out.clone());
    let ended = Arc::new(AtomicBool::new(false));
    let e2 = ended.clone();
    let thread = std::thread::Builder::new()
        .name("tw-job".into())
        .spawn(move || {
            let env = RunEnv {
                config: &cfg,
                bus: &b2,
                leases,
                control: &c2,
                on_start: &|_| {},
            };
            let res = tuplewright_engine::jobs::run::run(&spec, &env, &|_| {});
            let line = match res {
                Ok(r) => {
                    finished_line(c2.id(), &r, spec.delivery.as_ref().map(|d| d.out.as_path()))
                }
                Err(e) => format!("job {} could not run: {e}", c2.id()),
            };
            e2.store(true, Ordering::SeqCst);
            let _ = o2.send(DataUpdate::Job(JobUpdate::Finished(line)));
        })?;
    let _ = out.send(DataUpdate::Job(JobUpdate::Started(control.id().into())));
    if skipped > 0 {
        notice(
            out,
            format!(
                "started {} on {} pending tasks ({skipped} skipped: {not_pending} not pending, \
                 {} leased by another process)",
                control.id(),
                count,
                held.len()
            ),
        );
    }
    Ok(Running {
        control,
        bus,
        thread,
        ended,
    })
}

/// The line a finished run job leaves on the status line: the loop's counts and the delivery.
fn finished_line(id: &str, r: &RunResult, out: Option<&std::path::Path>) -> String {
    let s = &r.summary;
    let delivered = match &r.delivery {
        Some(Ok(d)) => format!(
            "; {} bundle(s) in {}",
            d.present,
            out.map_or_else(|| "the output folder".into(), |p| p.display().to_string())
        ),
        Some(Err(e)) => format!("; delivering bundles failed: {e}"),
        None => String::new(),
    };
    format!(
        "job {id} finished: {} accepted, {} rejected, {} infra failures, {} cancelled{delivered}",
        s.accepted.len(),
        s.rejected.len(),
        s.infra_failures.len(),
        s.cancelled.len()
    )
}

/// `oracle`, `noop`, `command:CMD` or a VLM spec (see [`PolicySpec`]).
pub fn parse_policy(spec: &str) -> anyhow::Result<Box<dyn Policy + Send>> {
    let cfg = tuplewright_engine::config::Config::default();
    let spec: PolicySpec = spec.parse()?;
    Ok(spec.build(&cfg.rollout, &cfg.screen)?)
}

/// The rollout job of `tuplewright rollout`, on the selection, one tuple at a time.
fn start_rollouts(
    settings: &JobSettings,
    ids: Vec<String>,
    (policy, vlm): (&PolicySpec, Option<VlmOverrides>),
    trials: u32,
    out: &Sender<DataUpdate>,
) -> anyhow::Result<Running> {
    if ids.is_empty() {
        anyhow::bail!("no tuple selected");
    }
    let mut spec = RolloutSpec::from_config(&settings.config, ids, policy.clone());
    // The launch form's temperature and max turns over `[rollout.vlm]`.
    if let Some(o) = vlm {
        spec.rollout = o.apply(&settings.config.rollout);
    }
    spec.trials = trials.max(1);
    spec.isolation = settings.isolation;
    // Refused before the job starts: a policy or judge that cannot be built.
    spec.build_policy(&settings.config)?;
    spec.build_judge()?;
    let bus = Arc::new(open_bus(settings)?);
    let leases = open_leases(settings)?;
    // A flag of the job's own: cancel takes effect between tuples (trials are never abandoned).
    let control = Arc::new(JobControl::new(
        JobControl::new_id("rollout"),
        Arc::new(AtomicBool::new(false)),
    ));
    let (c2, b2, s2, o2) = (control.clone(), bus.clone(), settings.clone(), out.clone());
    let ended = Arc::new(AtomicBool::new(false));
    let e2 = ended.clone();
    let thread = std::thread::Builder::new()
        .name("tw-job".into())
        .spawn(move || {
            let rt_cancel = Arc::new(AtomicBool::new(false));
            let env = RolloutEnv {
                config: &s2.config,
                bus: &b2,
                leases: &leases,
                control: &c2,
                cancel: &rt_cancel,
                on_start: &|_| {},
            };
            let line = match tuplewright_engine::jobs::rollout::run(&spec, &env, &|_| {}) {
                Ok(r) => rollouts_line(c2.id(), &r, spec.tasks.len()),
                Err(e) => format!("job {} could not run: {e}", c2.id()),
            };
            e2.store(true, Ordering::SeqCst);
            let _ = o2.send(DataUpdate::Job(JobUpdate::Finished(line)));
        })?;
    let _ = out.send(DataUpdate::Job(JobUpdate::Started(control.id().into())));
    Ok(Running {
        control,
        bus,
        thread,
        ended,
    })
}

/// The line a finished rollout job leaves: only the counts that are not zero, so a job whose
/// tuples all rolled out is a success (no "0 failed" read as an error).
pub fn rollouts_line(id: &str, r: &[(String, TupleResult)], total: usize) -> String {
    let n = |f: &dyn Fn(&TupleResult) -> bool| r.iter().filter(|(_, x)| f(x)).count();
    super::jobs_stages::counts_line(
        id,
        &[
            (
                "tuple(s) rolled out",
                n(&|x| matches!(x, TupleResult::Done(Ok(_)))),
            ),
            (
                "failed",
                n(&|x| matches!(x, TupleResult::Done(Err(_)) | TupleResult::ClaimFailed(_))),
            ),
            (
                "leased elsewhere",
                n(&|x| matches!(x, TupleResult::Skipped(_))),
            ),
            ("cancelled", total - r.len()),
        ],
    )
}
