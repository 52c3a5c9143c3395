//! Task-generation benchmark (issue 8 speed target): generating and de-duplicating 10,000 tasks with
//! the scripted generator across all five apps under 30 s.
//!
//! Run with `cargo bench --bench taskgen`. `TW_BENCH_N` overrides the batch size (default 10000),
//! `TW_BENCH_RUNS` the number of runs (default 3). Prints the median wall time, the ratio to the
//! target, tasks produced, candidates generated and rejections per reason.

use std::time::{Duration, Instant};

use tuplewright::engine::taskgen::generate::{generate, Request};
use tuplewright::engine::taskgen::seeds::Seeds;
use tuplewright::engine::taskgen::taxonomy::{default_skills_dir, load_app};
use tuplewright::engine::taskgen::{TaskgenConfig, APPS};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let n = env("TW_BENCH_N", 10_000);
    let runs = env("TW_BENCH_RUNS", 3).max(1);
    let taxonomies: Vec<_> = APPS
        .iter()
        .map(|a| load_app(&default_skills_dir(), a).expect("built-in taxonomy"))
        .collect();
    let seeds = Seeds::builtin().expect("built-in seeds");
    let cfg = TaskgenConfig::default();
    let mut times = Vec::new();
    for run in 0..runs {
        let req = Request {
            apps: APPS.iter().map(|s| s.to_string()).collect(),
            n,
            pass: None,
            seed: run as u64,
        };
        let t = Instant::now();
        let batch = generate(&req, &cfg, &taxonomies, &seeds, &[]).expect("generate");
        let dt = t.elapsed();
        println!(
            "run {run}: {:.2} s, {} task(s) kept of {n} requested, {} candidate(s), {} exhausted slot(s), rejections {:?}",
            dt.as_secs_f64(),
            batch.tasks.len(),
            batch.candidates,
            batch.exhausted,
            batch.rejections
        );
        let share = |k: &str, v: &str| {
            batch.tasks.iter().filter(|t| t[k] == v).count() as f64 * 100.0
                / batch.tasks.len().max(1) as f64
        };
        println!(
            "       hard {:.1}% (target >= 40), cross-app {:.1}% (target >= 35)",
            share("difficulty", "hard"),
            share("task_type", "cross_app")
        );
        times.push(dt);
    }
    times.sort();
    let median: Duration = times[times.len() / 2];
    println!(
        "taskgen {n}: median {:.2} s over {runs} run(s); target 30 s; ratio {:.3}",
        median.as_secs_f64(),
        median.as_secs_f64() / 30.0
    );
}
