//! The per-tuple stages as workbench jobs (issue #33): the critic vote, verify and re-runs, started
//! on the marked tuples (or the selection) and steered like runs — pause / resume / cancel between
//! tuples, `job.*` events the Live screen follows. Each calls the engine's job (the same code as
//! `tuplewright filter`, `verify` and `run --rerun`) on a thread of its own.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use tuplewright_base::store::Store;
use tuplewright_engine::harness::JobControl;
use tuplewright_engine::jobs::filter::FilterSpec;
use tuplewright_engine::jobs::rerun::{prepare, RerunSettings};
use tuplewright_engine::jobs::verify::{Verified, VerifyEnv, VerifySpec};

use super::data::{DataUpdate, EngineCommand};
use super::jobs::{notice, open_bus, open_leases, start_run, JobSettings, JobUpdate, Running};

/// A re-run asked for from the workbench.
#[derive(Debug, Clone, PartialEq)]
pub struct RerunCmd {
    /// The tuples (marked, else the selection).
    pub task_ids: Vec<String>,
    /// What changes (rounds, fault rate, Generator).
    pub settings: RerunSettings,
    /// The curator recorded as asking for the re-runs.
    pub actor: String,
}

/// The summary of a finished job: the non-zero counts, in the order given.
pub fn counts_line(id: &str, counts: &[(&str, usize)]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(w, n)| format!("{n} {w}"))
        .collect();
    let body = if parts.is_empty() {
        "nothing done".to_string()
    } else {
        parts.join(", ")
    };
    format!("job {id} finished: {body}")
}

/// Starts a vote, verify or re-run job.
pub(super) fn start(
    settings: &JobSettings,
    cmd: EngineCommand,
    out: &Sender<DataUpdate>,
) -> anyhow::Result<Option<Running>> {
    match cmd {
        EngineCommand::StartVote(ids) => start_vote(settings, ids, out).map(Some),
        EngineCommand::StartVerify(ids) => start_verify(settings, ids, out).map(Some),
        EngineCommand::StartRerun(r) => start_rerun(settings, r, out),
        EngineCommand::StartTaskgen(line) => start_taskgen(settings, &line, out).map(Some),
        _ => Ok(None),
    }
}

fn spawn(
    control: Arc<JobControl>,
    bus: Arc<tuplewright_engine::harness::Bus>,
    out: &Sender<DataUpdate>,
    body: impl FnOnce(&JobControl, &tuplewright_engine::harness::Bus) -> String + Send + 'static,
) -> anyhow::Result<Running> {
    let (c2, b2, o2) = (control.clone(), bus.clone(), out.clone());
    let ended = Arc::new(AtomicBool::new(false));
    let e2 = ended.clone();
    let thread = std::thread::Builder::new()
        .name("tw-job".into())
        .spawn(move || {
            let line = body(&c2, &b2);
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

fn start_vote(
    settings: &JobSettings,
    ids: Vec<String>,
    out: &Sender<DataUpdate>,
) -> anyhow::Result<Running> {
    if ids.is_empty() {
        anyhow::bail!("no tuple to vote on");
    }
    let spec = FilterSpec::from_config(&settings.config, ids);
    // Refused before the job starts: a quorum the voters cannot reach, a voter that cannot be built.
    spec.quorum()?;
    drop(spec.build_critics()?);
    let timeout = Duration::from_millis(settings.config.store.busy_timeout_ms);
    let mut store = Store::open(&settings.store, timeout)?;
    let bus = Arc::new(open_bus(settings)?);
    let control = Arc::new(JobControl::new(
        JobControl::new_id("filter"),
        Arc::new(AtomicBool::new(false)),
    ));
    spawn(
        control,
        bus,
        out,
        move |c, b| match tuplewright_engine::jobs::filter::run(&spec, &mut store, b, c, &|_| {}) {
            Ok(r) => {
                let n = |w: &str| {
                    r.iter()
                        .filter(|(_, x)| tuplewright_engine::jobs::filter::outcome_word(x) == w)
                        .count()
                };
                counts_line(
                    c.id(),
                    &[
                        ("kept", n("kept")),
                        ("modified", n("modified")),
                        ("rejected", n("rejected")),
                        ("undecided (needs a person)", n("undecided")),
                        ("not voted (not loop-accepted)", n("skipped")),
                        ("failed", n("failed")),
                        ("cancelled", spec.tasks.len() - r.len()),
                    ],
                )
            }
            Err(e) => format!("job {} could not run: {e}", c.id()),
        },
    )
}

fn start_verify(
    settings: &JobSettings,
    ids: Vec<String>,
    out: &Sender<DataUpdate>,
) -> anyhow::Result<Running> {
    if ids.is_empty() {
        anyhow::bail!("no tuple to verify");
    }
    let bus = Arc::new(open_bus(settings)?);
    let leases = open_leases(settings)?;
    let control = Arc::new(JobControl::new(
        JobControl::new_id("verify"),
        Arc::new(AtomicBool::new(false)),
    ));
    let spec = VerifySpec {
        tasks: ids,
        isolation: settings.isolation,
    };
    let config = settings.config.clone();
    spawn(control, bus, out, move |c, b| {
        let rt_cancel = Arc::new(AtomicBool::new(false));
        let env = VerifyEnv {
            config: &config,
            bus: b,
            leases: &leases,
            cancel: &rt_cancel,
            control: c,
            on_start: &|_| {},
        };
        match tuplewright_engine::jobs::verify::run(&spec, &env, &|_| {}) {
            Ok(r) => {
                let n = |f: &dyn Fn(&Verified) -> bool| r.iter().filter(|(_, v)| f(v)).count();
                counts_line(
                    c.id(),
                    &[
                        ("passed", n(&|v| matches!(v, Verified::Done(Ok(x)) if x.ok))),
                        (
                            "failed verification",
                            n(&|v| matches!(v, Verified::Done(Ok(x)) if !x.ok)),
                        ),
                        (
                            "could not run (infrastructure, nothing recorded)",
                            n(&|v| matches!(v, Verified::Done(Err(_)))),
                        ),
                        (
                            "leased elsewhere",
                            n(&|v| matches!(v, Verified::Skipped(_))),
                        ),
                        ("cancelled", spec.tasks.len() - r.len()),
                    ],
                )
            }
            Err(e) => format!("job {} could not run: {e}", c.id()),
        }
    })
}

fn start_rerun(
    settings: &JobSettings,
    r: RerunCmd,
    out: &Sender<DataUpdate>,
) -> anyhow::Result<Option<Running>> {
    let config = r.settings.apply(&settings.config);
    config
        .agreement
        .validate()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    // A Generator that cannot be built is refused before anything is recorded.
    drop(tuplewright_engine::agents::build::build(
        &config.agents.generator,
        &config.agents.discriminator,
        &config.agents.scripted,
        Arc::new(AtomicBool::new(false)),
    )?);
    let bus = open_bus(settings)?;
    let p = prepare(&bus, &r.task_ids, &r.actor)?;
    drop(bus);
    if let Some((id, why)) = p.refused.first() {
        notice(out, format!("{} not re-run ({id}: {why})", p.refused.len()));
    }
    if p.run.is_empty() {
        anyhow::bail!("none of the {} tuple(s) can be re-run", r.task_ids.len());
    }
    let run = start_run(settings, &config, p.run, out)?;
    notice(
        out,
        format!(
            "re-running {} tuple(s) ({} re-opened, recorded by {}) with max {} rounds — job {}",
            p.reopened.len().max(r.task_ids.len() - p.refused.len()),
            p.reopened.len(),
            r.actor,
            config.agreement.max_rounds,
            run.control.id()
        ),
    );
    Ok(Some(run))
}

/// Taskgen from the workbench: the line parsed with the config's `[taskgen]`, the batch generated
/// and upserted into the store in one transaction (as `tuplewright taskgen`), framed by `job.*`
/// events. One batch: pause and cancel take effect only once it is written.
fn start_taskgen(
    settings: &JobSettings,
    line: &str,
    out: &Sender<DataUpdate>,
) -> anyhow::Result<Running> {
    let spec = tuplewright_engine::jobs::taskgen_line::parse(&settings.config, line)?;
    let timeout = Duration::from_millis(settings.config.store.busy_timeout_ms);
    let mut store = Store::open(&settings.store, timeout)?;
    let bus = Arc::new(open_bus(settings)?);
    let control = Arc::new(JobControl::new(
        JobControl::new_id("taskgen"),
        Arc::new(AtomicBool::new(false)),
    ));
    spawn(control, bus, out, move |c, b| {
        let _ = b.emit(
            "job.started",
            None,
            serde_json::json!({"job": c.id(), "kind": "taskgen", "total": spec.n, "jobs": 1,
                               "apps": spec.apps, "agent": spec.author.to_string()}),
        );
        let r = tuplewright_engine::jobs::taskgen::run(&spec, Some(&mut store));
        let generated = r.as_ref().map_or(0, |r| r.batch.tasks.len());
        let _ = b.emit(
            "job.finished",
            None,
            serde_json::json!({"job": c.id(), "kind": "taskgen", "total": spec.n,
                               "ok": generated, "skipped": spec.n - generated.min(spec.n),
                               "failed": usize::from(r.is_err()), "cancelled": 0}),
        );
        match r {
            Ok(_) => counts_line(
                c.id(),
                &[
                    ("task(s) generated and stored (pending)", generated),
                    (
                        "not generated (slots exhausted or near-duplicates)",
                        spec.n - generated.min(spec.n),
                    ),
                ],
            ),
            Err(e) => format!("job {} could not run: {e}", c.id()),
        }
    })
}
