//! Agreement-loop benchmark on the embedded default: scripted agents, built-in apps, real sandbox.
//!
//! Runs every shipped task (each pack's tasks.json and assets/tasks/*.json) through the loop with `--jobs 4` and reports
//! verified tuples per minute, the median wall time per verified tuple, and the median *engine
//! overhead* per verified tuple = its wall time minus the wall time of the sandboxed script runs
//! (setup, golden patch, rewards) recorded for it. Targets (issue 5): overhead ≤ 1 s (median),
//! ≥ 100 verified tuples per minute with 4 jobs on a 2-core machine.
//!
//! `cargo bench --bench loop` (release). `TW_BENCH_JOBS` overrides the job count.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tuplewright::engine::agents::scripted::{
    ScriptedConfig, ScriptedDiscriminator, ScriptedGenerator,
};
use tuplewright::engine::bundle::import::import_paths;
use tuplewright::engine::harness::task::LoopRuntime;
use tuplewright::engine::harness::{run_batch, BatchOptions, Bus, Fleet, LoopConfig};
use tuplewright::engine::sandbox::{Isolation, SandboxConfig};
use tuplewright::engine::store::{Store, TaskFilter};

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let jobs: usize = std::env::var("TW_BENCH_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or(4);
    let dir = tempfile::tempdir()?;
    let mut store = Store::open(&dir.path().join("bench.db"), Duration::from_secs(10))?;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<_> = tuplewright::apps::shipped_task_files(root)
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let summary = import_paths(&mut store, &files, &mut |_, _| {})?;
    anyhow::ensure!(
        summary.problems.is_empty(),
        "task files have problems: {:?}",
        summary.problems
    );
    let ids: Vec<String> = store
        .list_tasks(&TaskFilter::default())?
        .into_iter()
        .map(|t| t.task.task_id)
        .collect();
    let bus = Bus::new(store, vec![])?;
    let cfg = ScriptedConfig::default();
    let generator = ScriptedGenerator::new(cfg.clone())?;
    let discriminator = ScriptedDiscriminator::new(cfg)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let fleet = rt.block_on(Fleet::start(&dir.path().join("work")))?;
    let loop_cfg = LoopConfig {
        jobs,
        ..LoopConfig::default()
    };
    let sandbox = SandboxConfig::default();
    let cancel = AtomicBool::new(false);
    let runtime = LoopRuntime {
        rt: rt.handle().clone(),
        fleet: &fleet,
        cfg: &loop_cfg,
        sandbox: &sandbox,
        isolation: Isolation::Required,
        generator: &generator,
        discriminator: &discriminator,
        cancel: &cancel,
    };
    let s = run_batch(&runtime, &bus, &ids, &BatchOptions::jobs(jobs), &|_, _| {});
    rt.block_on(fleet.shutdown());
    let accepted = s.accepted.len();
    let per_min = accepted as f64 / s.elapsed_seconds * 60.0;
    // Per verified tuple: wall time, time inside sandboxed scripts, and the rest (engine overhead).
    let mut overhead = Vec::new();
    let mut in_scripts = Vec::new();
    for id in &s.accepted {
        let rounds = bus.read(|st| st.rounds(id))?;
        let script_ms: i64 = rounds
            .iter()
            .flat_map(|r| {
                r.round
                    .script_runs
                    .iter()
                    .map(|x| x.duration_ms)
                    .chain(r.round.reward_runs.iter().map(|x| x.duration_ms))
            })
            .sum();
        let wall = s.task_seconds.get(id).copied().unwrap_or(f64::NAN);
        in_scripts.push(script_ms as f64 / 1000.0);
        overhead.push(wall - script_ms as f64 / 1000.0);
    }
    println!(
        "tasks {} | accepted {accepted} | rejected {} | infra {} | jobs {jobs}",
        s.tasks,
        s.rejected.len(),
        s.infra_failures.len()
    );
    println!(
        "elapsed {:.1} s -> {per_min:.1} verified tuples/minute (target >= 100)",
        s.elapsed_seconds
    );
    println!(
        "median wall per tuple {:.3} s (jobs run concurrently)",
        median(s.task_seconds.values().copied().collect())
    );
    println!(
        "median time in sandboxed scripts per tuple {:.3} s",
        median(in_scripts)
    );
    println!(
        "median engine overhead per verified tuple {:.3} s (target <= 1 s)",
        median(overhead)
    );
    Ok(())
}
