//! Task-generation benchmark (issue 8 speed target): generating and de-duplicating 10,000 tasks with
//! the scripted generator across all five apps under 30 s — with the near-duplicate check taskgen
//! uses by default: the local all-MiniLM-L6-v2 when installed (issue 19), else char 3-grams only.
//!
//! Run with `cargo bench --bench taskgen`. `TW_BENCH_N` overrides the batch size (default 10000),
//! `TW_BENCH_RUNS` the number of runs (default 3), `TW_BENCH_EMBEDDER` the embedder (`auto`,
//! `model`, `ngram`). Prints the median wall time, the ratio to the target, tasks produced,
//! candidates generated, rejections per reason, and for the model the texts embedded, tokens run and
//! the share of the time spent in the forward pass. No cache: every candidate is embedded afresh.

use std::time::{Duration, Instant};

use tuplewright::engine::embedder::{select, Backend, LocalEmbedder};
use tuplewright::engine::sandbox::SandboxConfig;
use tuplewright::engine::taskgen::embed::{Embedder, OnError};
use tuplewright::engine::taskgen::generate::{generate_with, Hooks, Request};
use tuplewright::engine::taskgen::seeds::Seeds;
use tuplewright::engine::taskgen::taxonomy::{default_skills_dir, load_app};
use tuplewright::engine::taskgen::{apps, TaskgenConfig};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let n = env("TW_BENCH_N", 10_000);
    let runs = env("TW_BENCH_RUNS", 3).max(1);
    let taxonomies: Vec<_> = apps()
        .iter()
        .map(|a| load_app(&default_skills_dir(), a).expect("built-in taxonomy"))
        .collect();
    let seeds = Seeds::builtin().expect("built-in seeds");
    let cfg = TaskgenConfig::default();
    let backend: Backend = std::env::var("TW_BENCH_EMBEDDER")
        .unwrap_or_else(|_| "auto".into())
        .parse()
        .expect("TW_BENCH_EMBEDDER");
    let venv = SandboxConfig::default().venv_dir;
    let chosen = select(&cfg.embeddings, backend, &venv).expect("embedder");
    println!(
        "near-duplicate embedder: {}{}",
        chosen.label,
        chosen
            .degraded
            .as_ref()
            .map_or(String::new(), |w| format!(" ({w})"))
    );
    // The model's own counters (tokens, forward time): a second instance of the same directory.
    let counted = (chosen.kind == tuplewright::engine::embedder::Kind::Model).then(|| {
        let dir = tuplewright::engine::embedder::locate::model_dir(&cfg.embeddings, &venv)
            .expect("model dir");
        LocalEmbedder::load(&dir, cfg.embeddings.batch_size).expect("model")
    });
    let embedder: Option<&dyn Embedder> = counted.as_ref().map(|m| m as &dyn Embedder);
    let mut times = Vec::new();
    for run in 0..runs {
        let req = Request {
            apps: apps().iter().map(|s| s.to_string()).collect(),
            n,
            pass: None,
            seed: run as u64,
        };
        let t = Instant::now();
        let before = counted.as_ref().map(LocalEmbedder::work);
        let hooks = Hooks {
            author: None,
            embedder,
            on_embed_error: OnError::Fail,
        };
        let batch = generate_with(&req, &cfg, &taxonomies, &seeds, &[], hooks).expect("generate");
        let dt = t.elapsed();
        if let (Some(m), Some(b)) = (&counted, before) {
            let w = m.work();
            let fwd = (w.forward_ns - b.forward_ns) as f64 / 1e9;
            println!(
                "       model: {} text(s), {} token(s) through the forward pass, {:.2} s of {:.2} s ({:.0}%) in it",
                w.texts - b.texts,
                w.tokens - b.tokens,
                fwd,
                dt.as_secs_f64(),
                fwd * 100.0 / dt.as_secs_f64()
            );
        }
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
