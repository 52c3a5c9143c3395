//! Task-lease claim overhead (issue 15): what a stage pays per task to claim and release its lease
//! on the SQLite store, alone and with a second process-like owner racing for the same tasks, and
//! one heartbeat renewing the leases of a busy worker.
//!
//! Run with `cargo bench --bench lease`. `TW_BENCH_N` sets the number of tasks (default 2000).
//! Prints per-task medians in microseconds (each sample is one claim or one release, a whole
//! immediate transaction with its fsync-free WAL commit).

use std::time::{Duration, Instant};

use tuplewright::engine::lease::sqlite::SqliteLeases;
use tuplewright::engine::lease::{
    Claim, ClaimRequest, LeaseBackend, LeaseKeeper, LeaseSettings, Owner,
};
use tuplewright::engine::store::{Labels, Store, StoreError, TaskRecord};

fn median_us(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e6
}

fn p90_us(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() * 9 / 10].as_secs_f64() * 1e6
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::var("TW_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("lease.db");
    let ids: Vec<String> = (0..n).map(|i| format!("bench_task_{i:05}")).collect();
    let mut store = Store::open(&path, Duration::from_secs(10))?;
    store.write(|tx| {
        for id in &ids {
            tx.upsert_task(&TaskRecord {
                task_id: id.clone(),
                instruction: "benchmark task".into(),
                context: String::new(),
                labels: Labels::default(),
                app_type: None,
                original_json: serde_json::json!({"task_id": id}),
                origin: "bench".into(),
            })?;
        }
        Ok::<_, StoreError>(())
    })?;
    let settings = LeaseSettings::default();
    let busy = Duration::from_secs(10);

    // 1. One owner: claim then release every task.
    let k = LeaseKeeper::open(&path, busy, settings)?;
    let (mut claims, mut releases) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for id in &ids {
        let t = Instant::now();
        let c = k.claim(id, "loop", None, None)?;
        claims.push(t.elapsed());
        assert!(matches!(c, Claim::Taken { .. }));
        let t = Instant::now();
        k.release(id)?;
        releases.push(t.elapsed());
    }
    println!(
        "claim (uncontended)          median {:>8.1} us  p90 {:>8.1} us  over {n} tasks",
        median_us(claims.clone()),
        p90_us(claims.clone())
    );
    println!(
        "release                      median {:>8.1} us  p90 {:>8.1} us",
        median_us(releases.clone()),
        p90_us(releases.clone())
    );

    // 2. Two owners racing over the same task list (each task is won by exactly one).
    let mut store = Store::open(&path, busy)?;
    store.write(|tx| tx.conn().execute("DELETE FROM task_leases", []))?;
    let keepers = [
        LeaseKeeper::open(&path, busy, settings)?,
        LeaseKeeper::open(&path, busy, settings)?,
    ];
    let results: Vec<(Vec<Duration>, usize)> = std::thread::scope(|s| {
        let hs: Vec<_> = keepers
            .iter()
            .map(|k| {
                let ids = &ids;
                s.spawn(move || {
                    let mut times = Vec::with_capacity(ids.len());
                    let mut won = 0;
                    for id in ids {
                        let t = Instant::now();
                        if let Ok(Claim::Taken { .. }) = k.claim(id, "loop", None, None) {
                            won += 1;
                        }
                        times.push(t.elapsed());
                    }
                    (times, won)
                })
            })
            .collect();
        hs.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let won: usize = results.iter().map(|r| r.1).sum();
    assert_eq!(won, n, "every task claimed exactly once");
    let all: Vec<Duration> = results.into_iter().flat_map(|r| r.0).collect();
    println!(
        "claim attempt (2 racing)     median {:>8.1} us  p90 {:>8.1} us  won {}/{} ({} refused)",
        median_us(all.clone()),
        p90_us(all.clone()),
        won,
        n,
        2 * n - won
    );

    // 3. One heartbeat of a worker holding 8 leases (`--jobs 8`): one renew transaction.
    store.write(|tx| tx.conn().execute("DELETE FROM task_leases", []))?;
    let backend = SqliteLeases::open(&path, busy)?;
    let owner = Owner::current();
    let eight: Vec<String> = ids.iter().take(8).cloned().collect();
    for id in &eight {
        let req = ClaimRequest {
            task_id: id,
            stage: "loop",
            statuses: None,
            unchanged_since: None,
            ttl: settings.ttl,
        };
        backend.claim(&owner, &req)?;
    }
    let mut renews = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let lost = backend.renew(&owner, &eight, settings.ttl)?;
        renews.push(t.elapsed());
        assert!(lost.is_empty());
    }
    println!(
        "heartbeat renewing 8 leases  median {:>8.1} us  (every {} s by default)",
        median_us(renews),
        settings.heartbeat.as_secs()
    );
    Ok(())
}
