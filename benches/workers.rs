//! Scale-out (issue 20): throughput of 1, 2 and 4 `tuplewright worker` processes draining one
//! PostgreSQL store (tuples per minute; the scripted agents, the real sandbox, the same task set
//! each time), and the claim overhead per task — what a worker pays to read the queue and take the
//! next task's lease — on PostgreSQL (`SELECT … FOR UPDATE SKIP LOCKED`) and on SQLite, with one
//! claimer and with four racing ones.
//!
//! Run with `cargo bench --bench workers` (needs the PostgreSQL of `.ci/setup`; skipped with a
//! message without one). `TW_BENCH_N` sets the tasks of the claim measurement (default 300),
//! `TW_BENCH_TASKS` those of the throughput runs (default 24), `TW_BENCH_WORKERS` the worker
//! counts (default `1,2,4`). Prints medians and p90s in microseconds, and tuples per minute.

use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use tuplewright::engine::harness::Bus;
use tuplewright::engine::lease::{LeaseKeeper, LeaseSettings};
use tuplewright::engine::store::db::params;
use tuplewright::engine::store::testdb::TestDb;
use tuplewright::engine::store::{Labels, Store, StoreError, TaskRecord, TupleStatus};
use tuplewright::engine::worker::queue;

#[path = "../tests/pg_support/mod.rs"]
mod pg_support;
#[path = "../tests/run_support/mod.rs"]
mod run_support;
use pg_support::{config, count, many_tasks, ok, spawn_worker, tw, BUSY};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn pct_us(v: &mut [Duration], p: usize) -> f64 {
    v.sort();
    v[(v.len() * p / 100).min(v.len() - 1)].as_secs_f64() * 1e6
}

fn seed(path: &Path, n: usize) -> Result<Vec<String>, StoreError> {
    let ids: Vec<String> = (0..n).map(|i| format!("bench_task_{i:05}")).collect();
    let mut store = Store::open(path, BUSY)?;
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
    Ok(ids)
}

/// One claimer's samples: (queue read, claim) per task taken.
type Samples = (Vec<Duration>, Vec<Duration>);

/// A worker's claim path without the loop: read the queue, claim the first free task, mark it
/// done (as the loop's decision would), release; until the queue is empty.
fn drain(path: &Path) -> Result<Samples, StoreError> {
    let keeper = LeaseKeeper::open(path, BUSY, LeaseSettings::default())?;
    let bus = Bus::new(Store::open(path, BUSY)?, Vec::new())?;
    let statuses = [TupleStatus::Pending, TupleStatus::InLoop];
    let (mut reads, mut claims) = (Vec::new(), Vec::new());
    loop {
        let t = Instant::now();
        let q = queue(&bus, 3)?;
        let read = t.elapsed();
        if q.is_empty() {
            return Ok((reads, claims));
        }
        let t = Instant::now();
        let Some(task) = keeper.claim_first(&q, "loop", Some(&statuses))? else {
            continue; // everything left is leased by the other claimers right now
        };
        claims.push(t.elapsed());
        reads.push(read);
        bus.write(|tx| {
            tx.conn().execute(
                "UPDATE tuples SET status = 'loop_accepted' WHERE task_id = ?1",
                params![task],
            )
        })?;
        keeper.release(&task)?;
    }
}

fn claim_overhead(label: &str, path: &Path, n: usize) -> Result<(), Box<dyn std::error::Error>> {
    for claimers in [1usize, 4] {
        let ids = seed(path, n)?;
        let mut store = Store::open(path, BUSY)?;
        store.write(|tx| {
            tx.conn()
                .execute("UPDATE tuples SET status = 'pending'", [])
                .map(|_| ())
        })?;
        let results: Vec<Result<Samples, StoreError>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..claimers).map(|_| s.spawn(|| drain(path))).collect();
            hs.into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(StoreError::Invalid("claimer panicked".into())))
                })
                .collect()
        });
        let (mut reads, mut claims) = (Vec::new(), Vec::new());
        for r in results {
            let (a, b) = r?;
            reads.extend(a);
            claims.extend(b);
        }
        assert_eq!(claims.len(), ids.len(), "every task claimed exactly once");
        println!(
            "{label:<10} {claimers} claimer(s): claim median {:>7.0} us  p90 {:>7.0} us | queue read \
             median {:>7.0} us  p90 {:>7.0} us  ({} tasks)",
            pct_us(&mut claims, 50),
            pct_us(&mut claims, 90),
            pct_us(&mut reads, 50),
            pct_us(&mut reads, 90),
            ids.len()
        );
    }
    Ok(())
}

fn wait_all(ws: &mut [Child]) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(1800);
    for w in ws {
        loop {
            if let Some(st) = w.try_wait().map_err(|e| e.to_string())? {
                if !st.success() {
                    return Err(format!("a worker failed: {st}"));
                }
                break;
            }
            if Instant::now() > deadline {
                return Err("workers did not drain the queue in 30 minutes".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Ok(())
}

fn throughput(tasks: usize, counts: &[usize]) -> Result<(), Box<dyn std::error::Error>> {
    for &workers in counts {
        let Some(db) = TestDb::create("bench_workers_throughput") else {
            return Ok(());
        };
        let dir = tempfile::tempdir()?;
        let (cfg, url) = (config(dir.path()), db.path());
        let mut import = tw(&cfg, &url);
        import.arg("import").arg(many_tasks(dir.path(), tasks));
        ok(import);
        let started = Instant::now();
        let logs: Vec<_> = (0..workers)
            .map(|i| dir.path().join(format!("w{i}.log")))
            .collect();
        let mut ws: Vec<Child> = logs.iter().map(|l| spawn_worker(&cfg, &url, l)).collect();
        wait_all(&mut ws)?;
        let secs = started.elapsed().as_secs_f64();
        let store = Store::open(&url, BUSY)?;
        let accepted = count(
            &store,
            "SELECT COUNT(*) FROM tuples WHERE status = 'loop_accepted'",
        );
        let rounds = count(&store, "SELECT COUNT(*) FROM rounds");
        let (mut claims, mut claim_secs) = (0.0, 0.0);
        for l in &logs {
            let out = std::fs::read_to_string(l.with_extension("out"))?;
            let v: serde_json::Value = serde_json::from_str(out.trim())?;
            claims += v["claims"].as_f64().unwrap_or(0.0);
            claim_secs += v["claim_seconds"].as_f64().unwrap_or(0.0);
        }
        println!(
            "{workers} worker(s): {accepted}/{tasks} accepted ({rounds} rounds) in {secs:>6.1} s \
             = {:>6.1} tuples/min; mean claim in the workers {:>6.0} us",
            accepted as f64 * 60.0 / secs,
            claim_secs / claims.max(1.0) * 1e6
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = env_or("TW_BENCH_N", 300);
    let tasks = env_or("TW_BENCH_TASKS", 24);
    let counts: Vec<usize> = std::env::var("TW_BENCH_WORKERS")
        .unwrap_or_else(|_| "1,2,4".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let dir = tempfile::tempdir()?;
    claim_overhead("sqlite", &dir.path().join("claims.db"), n)?;
    let Some(db) = TestDb::create("bench_workers_claims") else {
        println!("no PostgreSQL reachable: the PostgreSQL figures are skipped");
        return Ok(());
    };
    claim_overhead("postgresql", &db.path(), n)?;
    drop(db);
    throughput(tasks, &counts)
}
