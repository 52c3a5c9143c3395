//! Sentence-embedding benchmark (issue 19): the per-sentence cost of the local all-MiniLM-L6-v2
//! one text per forward pass vs batched, on real taskgen instructions.
//!
//! Run with `cargo bench --bench embed`. `TW_BENCH_N` texts (default 512, taken from a scripted
//! taskgen batch), `TW_BENCH_RUNS` runs per setting (default 3), `TW_BENCH_BATCHES` the batch sizes
//! (default `1,8,16,32,64,128`). Prints, per batch size, the median milliseconds per sentence, the
//! speed-up over one text at a time, and the padding share of the tokens run. The thread count is
//! candle's (`RAYON_NUM_THREADS`, default: the physical cores); it is printed.

use std::time::Instant;

use tuplewright::engine::embedder::{locate, LocalEmbedder};
use tuplewright::engine::sandbox::SandboxConfig;
use tuplewright::engine::taskgen::embed::Embedder;
use tuplewright::engine::taskgen::generate::{generate, Request};
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
    let n = env("TW_BENCH_N", 512);
    let runs = env("TW_BENCH_RUNS", 3).max(1);
    let sizes: Vec<usize> = std::env::var("TW_BENCH_BATCHES")
        .unwrap_or_else(|_| "1,8,16,32,64,128".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .filter(|&b| b > 0)
        .collect();
    let taxonomies: Vec<_> = apps()
        .iter()
        .map(|a| load_app(&default_skills_dir(), a).expect("built-in taxonomy"))
        .collect();
    let seeds = Seeds::builtin().expect("built-in seeds");
    let cfg = TaskgenConfig::default();
    let req = Request {
        apps: apps().iter().map(|s| s.to_string()).collect(),
        n,
        pass: None,
        seed: 1,
    };
    let batch = generate(&req, &cfg, &taxonomies, &seeds, &[]).expect("generate");
    let texts: Vec<&str> = batch
        .tasks
        .iter()
        .filter_map(|t| t["task_instruction"].as_str())
        .collect();
    let dir = locate::model_dir(&cfg.embeddings, &SandboxConfig::default().venv_dir)
        .expect("the model (run `bash .ci/setup`)");
    let t = Instant::now();
    let model = LocalEmbedder::load(&dir, usize::MAX).expect("model");
    println!(
        "model loaded in {:.2} s; {} text(s); {} thread(s) (RAYON_NUM_THREADS={})",
        t.elapsed().as_secs_f64(),
        texts.len(),
        candle_core::utils::get_num_threads(),
        std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "unset".into())
    );
    let real: usize = texts
        .iter()
        .map(|t| model.token_ids(t).map_or(0, |ids| ids.len()))
        .sum();
    println!(
        "{:.1} token(s) per text on average",
        real as f64 / texts.len().max(1) as f64
    );
    let mut base = None;
    for &b in &sizes {
        let mut per = Vec::new();
        let mut padded = 0;
        for _ in 0..runs {
            let before = model.work();
            let t = Instant::now();
            for chunk in texts.chunks(b) {
                model.embed(chunk).expect("embed");
            }
            per.push(t.elapsed().as_secs_f64() * 1e3 / texts.len().max(1) as f64);
            padded = (model.work().tokens - before.tokens) as usize;
        }
        per.sort_by(f64::total_cmp);
        let median = per[per.len() / 2];
        let one = *base.get_or_insert(median);
        println!(
            "batch {b:>4}: median {median:.2} ms/sentence over {runs} run(s); {:.2}x vs the first size; padding {:.1}% of tokens",
            one / median,
            (padded.saturating_sub(real)) as f64 * 100.0 / padded.max(1) as f64
        );
    }
}
