//! Store benchmark on the synthetic 32,112-tuple corpus (issue 2 speed targets):
//! - `stats` (compute + JSON) under 300 ms;
//! - opening the store under 100 ms;
//! - importing 32,112 public-layout bundles under 60 s.
//!
//! Run with `cargo bench --bench store`. `TW_BENCH_N` overrides the corpus size (default 32112),
//! `TW_BENCH_IMPORT_RUNS` the number of import runs (default 3), `TW_BENCH_SKIP_IMPORT=1` skips the
//! import part. Prints medians, target ratios, and the CPU time of `stats` (wall time on a loaded
//! machine includes waiting for a core).

use std::time::{Duration, Instant};

use tuplewright::engine::bundle::import::import_paths;
use tuplewright::engine::config::StatsConfig;
use tuplewright::engine::stats::{compute, Population};
use tuplewright::engine::store::Store;
use tuplewright::engine::synth;

/// CPU time of this thread (user + system): separates our cost from waiting on a busy machine.
fn thread_cpu() -> Duration {
    // SAFETY: getrusage only writes into the zeroed struct we pass.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut u) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(u.ru_utime) + tv(u.ru_stime)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn report(name: &str, runs: Vec<Duration>, target: Duration) -> bool {
    let n = runs.len();
    let m = median(runs);
    let ok = m < target;
    println!(
        "{name:<34} median {:>10.3} ms over {n:>2} run(s)  target < {:>8.0} ms  ratio {:.3}  {}",
        m.as_secs_f64() * 1e3,
        target.as_secs_f64() * 1e3,
        m.as_secs_f64() / target.as_secs_f64(),
        if ok { "OK" } else { "MISSED" }
    );
    ok
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = env_usize("TW_BENCH_N", 32_112);
    let import_runs = env_usize("TW_BENCH_IMPORT_RUNS", 3).max(1);
    let dir = tempfile::tempdir()?;
    let timeout = Duration::from_secs(5);
    let mut all_ok = true;

    // Synthetic store (SYNTHETIC data: ids synth_*, origin synthetic:*).
    let db = dir.path().join("synth.db");
    let t = Instant::now();
    let total = synth::populate(&mut Store::open(&db, timeout)?, n, 7)?;
    println!(
        "built synthetic store: {total} tuples ({n} final) in {:.2} s",
        t.elapsed().as_secs_f64()
    );

    let opens: Vec<Duration> = (0..20)
        .map(|_| {
            let t = Instant::now();
            let s = Store::open(&db, timeout);
            let e = t.elapsed();
            s.map(|_| e)
        })
        .collect::<Result<_, _>>()?;
    all_ok &= report("open store", opens, Duration::from_millis(100));

    let store = Store::open(&db, timeout)?;
    let cfg = StatsConfig::default();
    let (mut stats_runs, mut stats_cpu) = (Vec::new(), Vec::new());
    for _ in 0..10 {
        let (t, c) = (Instant::now(), thread_cpu());
        let s = compute(&store, &cfg, Population::Auto)?;
        let json = serde_json::to_string(&s)?;
        stats_runs.push(t.elapsed());
        stats_cpu.push(thread_cpu() - c);
        assert_eq!(s.population_size, n, "stats over the final tuples");
        assert!(!json.is_empty());
    }
    all_ok &= report(
        "stats (compute + JSON)",
        stats_runs,
        Duration::from_millis(300),
    );
    println!(
        "  (stats CPU time median {:.3} ms; load average {})",
        median(stats_cpu).as_secs_f64() * 1e3,
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    if std::env::var_os("TW_BENCH_SKIP_IMPORT").is_some() {
        return Ok(());
    }

    let bundles = dir.path().join("bundles");
    let t = Instant::now();
    synth::write_bundles(&bundles, n, 11)?;
    println!(
        "wrote {n} synthetic bundles in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let mut import_times = Vec::new();
    for run in 0..import_runs {
        let idb = dir.path().join(format!("import{run}.db"));
        let mut store = Store::open(&idb, timeout)?;
        let t = Instant::now();
        let summary = import_paths(&mut store, std::slice::from_ref(&bundles), &mut |_, _| {})?;
        import_times.push(t.elapsed());
        assert_eq!(
            summary.inserted,
            n,
            "every bundle imported: {:?}",
            summary.problems.first()
        );
    }
    all_ok &= report(
        &format!("import {n} bundles"),
        import_times,
        Duration::from_secs(60),
    );

    // Re-import (idempotent, nothing written) for reference.
    let mut store = Store::open(&dir.path().join("import0.db"), timeout)?;
    let t = Instant::now();
    let summary = import_paths(&mut store, std::slice::from_ref(&bundles), &mut |_, _| {})?;
    assert_eq!(summary.unchanged, n);
    report(
        &format!("re-import {n} bundles (no-op)"),
        vec![t.elapsed()],
        Duration::from_secs(60),
    );

    println!(
        "{}",
        if all_ok {
            "all store targets met"
        } else {
            "SOME STORE TARGETS MISSED"
        }
    );
    Ok(())
}
