//! Benchmark of the state server's limits (`cargo bench --bench env_limits [-- SECTION…]`, where
//! a section is `sync`, `writes`, `connections` or `memory`; all by default).
//!
//! 1. `sync`: what bounds a durable write on this disk: the latency of appending one 50 KB
//!    record and of one batch of 16 such records, each followed by `fdatasync`, in the same
//!    directory the server writes to. With one request in flight per connection, no server can
//!    acknowledge more than `connections / sync latency` durable writes per second.
//! 2. `writes`: `POST /post` `set_current` of a ~50 KB state at 16 keep-alive connections for
//!    a fixed time, to 16 sessions (one per connection) and to one shared session (writes to one
//!    session are ordered by its lock; the Hub's middleware keeps one JSON file per session and
//!    serves every request on one thread, so its rate does not depend on the shape). Each shape
//!    with fsync on (group commit; a write is acknowledged only once its journal record is
//!    synced) and off (the same work without the sync: the CPU ceiling of this machine).
//!    Successive states differ as a UI's do: one product's price edited per request, a
//!    different product each time (64 states per writer, cycled), so the journal logs
//!    patches; one more row changes the state's head and tail on every request, so every
//!    record is whole (the journal's worst case). Never the same state twice in a row, which
//!    would make every patch empty and flatter the server.
//!    Reported: requests/s and the ratio to the Hub's 653 req/s, latency percentiles, writes
//!    per journal sync, the largest batch, bytes logged per write, how busy the committer thread was, and the CPU per
//!    request of the server and of the load generator (`env_load.rs`: its own thread, requests
//!    built once, one write each; the same generator for every row).
//! 3. `memory`: 10,000 sessions of a ~50 KB state written and read (`/go`) over HTTP, first with
//!    a cache big enough for all of them (bytes held per session / its JSON size, from the
//!    server's accounting and from RSS), then with the default 256 MiB budget (RSS bounded).
//! 4. `connections`: 1,500 idle connections with a 1 s idle timeout and a cap of 1,000: the
//!    surplus answered 503, the rest closed after the timeout.

#[path = "env_load.rs"]
mod load;
#[path = "env_support.rs"]
mod support;

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use support::{bench_app, ms, percentile, state_of_size};
use tokio::io::AsyncReadExt;
use tuplewright::engine::env::{self, ServerConfig, ServerHandle};

const WRITERS: usize = 16;
const RUN: Duration = Duration::from_secs(5);
const BEFORE_REQ_S: f64 = 666.0;
const HUB_REQ_S: f64 = 653.0;

fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

fn mib(b: u64) -> String {
    format!("{:.1} MiB", b as f64 / (1 << 20) as f64)
}

async fn server(dir: &std::path::Path, tune: impl FnOnce(&mut ServerConfig)) -> ServerHandle {
    let mut cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.to_path_buf(),
        ..ServerConfig::default()
    };
    tune(&mut cfg);
    env::spawn(cfg, vec![bench_app()]).await.expect("spawn")
}

/// The median and 90th percentile of `reps` writes of `records` ~50 KB records to a file in
/// `dir`, each followed by `fdatasync` (what one journal batch costs on this disk): appended to
/// a growing file, or (`in_place`) written over blocks written before, as the journal does.
fn sync_latency(
    dir: &std::path::Path,
    records: usize,
    reps: usize,
    in_place: bool,
) -> (Duration, Duration) {
    use std::io::{Seek, Write};
    let path = dir.join("sync-probe.log");
    let mut f = std::fs::File::create(&path).expect("probe file");
    let chunk = vec![b'x'; 50 * 1024 * records];
    if in_place {
        for _ in 0..reps {
            f.write_all(&chunk).expect("probe preallocation");
        }
        f.sync_all().expect("probe sync");
        f.rewind().expect("probe rewind");
    }
    let mut lat: Vec<Duration> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f.write_all(&chunk).expect("probe write");
            f.sync_data().expect("probe sync");
            t.elapsed()
        })
        .collect();
    let _ = std::fs::remove_file(&path);
    lat.sort();
    (percentile(&lat, 0.5), percentile(&lat, 0.9))
}

/// Measures the sync latency and returns the median of a 16-record batch's written in place.
fn sync() -> Duration {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut median = Duration::ZERO;
    for in_place in [false, true] {
        let (one, one90) = sync_latency(dir.path(), 1, 300, in_place);
        let (batch, batch90) = sync_latency(dir.path(), WRITERS, 150, in_place);
        println!(
            "fdatasync after {} one 50 KB record: median {} p90 {}; a batch of {WRITERS} \
             (800 KB): median {} p90 {} -> at most {:.0} durable writes/s at {WRITERS} \
             connections (one request in flight each)",
            if in_place {
                "overwriting (in place)"
            } else {
                "appending"
            },
            ms(one),
            ms(one90),
            ms(batch),
            ms(batch90),
            WRITERS as f64 / batch.as_secs_f64().max(1e-9),
        );
        median = batch;
    }
    median
}

/// How successive states of a session differ in the `writes` rows.
#[derive(Clone, Copy)]
enum Edits {
    /// One product's price changes from one request to the next (a different product each
    /// time), as a UI edits one field: the journal logs patches of a few hundred bytes.
    OneField,
    /// A counter at the state's head and one at its tail change on every request, so the
    /// states share nothing but their ends: every record is the whole state.
    Whole,
}

/// The `set_current` bodies a writer cycles through (`VARIANTS` of them, each after the one
/// before it by the edit `edits` names).
fn write_bodies(edits: Edits) -> Vec<Vec<u8>> {
    const VARIANTS: usize = 64;
    let base = state_of_size(50 * 1024);
    (0..VARIANTS)
        .map(|k| {
            let mut state = base.clone();
            match edits {
                Edits::OneField => {
                    state["products"][k]["price"] = json!(1000 + k);
                }
                Edits::Whole => {
                    let mut whole = serde_json::Map::new();
                    whole.insert("a_rev".into(), json!(k));
                    whole.insert("products".into(), state["products"].take());
                    whole.insert("z_rev".into(), json!(k));
                    state = serde_json::Value::Object(whole);
                }
            }
            json!({"action": "set_current", "state": state})
                .to_string()
                .into_bytes()
        })
        .collect()
}

async fn writes(
    label: &str,
    shared_session: bool,
    fsync: bool,
    commit_delay_us: Option<u64>,
    edits: Edits,
) {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = server(dir.path(), |c| {
        c.fsync = fsync;
        if let Some(d) = commit_delay_us {
            c.commit_delay_us = d;
        }
    })
    .await;
    let label = match commit_delay_us {
        Some(d) => format!("{label}, commit delay {d} us"),
        None => label.to_string(),
    };
    let label = match edits {
        Edits::OneField => format!("{label}, one field edited per request"),
        Edits::Whole => format!("{label}, whole state changed per request"),
    };
    let addr = h.addr("ecommerce-admin").expect("addr");
    let store = h.store("ecommerce-admin").expect("store");
    let bodies = write_bodies(edits);
    let requests = (0..WRITERS)
        .map(|w| {
            let path = match shared_session {
                true => "/post?sid=shared".to_string(),
                false => format!("/post?sid=w{w}"),
            };
            // Each writer starts at another variant, so a shared session's successive states
            // come from different writers.
            (0..bodies.len())
                .map(|k| load::request(&path, &bodies[(k + w) % bodies.len()]))
                .collect()
        })
        .collect();
    let run = tokio::task::spawn_blocking(move || load::post_load(addr, requests, WRITERS, RUN))
        .await
        .expect("load");
    let (rate, all, secs) = (run.rate(), &run.lat, run.secs);
    let j = store.journal_stats();
    let get = |c: &std::sync::atomic::AtomicU64| c.load(Ordering::Relaxed);
    let (records, batches) = (get(&j.records), get(&j.batches));
    let per_record = get(&j.logged_bytes) / records.max(1);
    let busy = |nanos: u64| 100.0 * nanos as f64 / 1e9 / secs;
    println!(
        "POST set_current 50KB x{WRITERS} ({label}), fsync {}: {rate:.0} req/s = {:.1}x the Hub \
         ({HUB_REQ_S}), {:.1}x before ({BEFORE_REQ_S}); latency p50 {} p99 {}; {records} writes \
         in {batches} journal syncs ({:.1} per sync, largest batch {}, {per_record} bytes logged \
         per write), {} session files \
         written in {} flushes; committer busy {:.0}% syncing (mean {} per sync) + {:.0}% writing files, \
         {:.0}% waiting for arriving writers\n  {}",
        if fsync { "on" } else { "off" },
        rate / HUB_REQ_S,
        rate / BEFORE_REQ_S,
        ms(percentile(all, 0.5)),
        ms(percentile(all, 0.99)),
        records as f64 / batches.max(1) as f64,
        get(&j.max_batch),
        get(&j.files_written),
        get(&j.file_flushes),
        busy(get(&j.sync_nanos)),
        ms(Duration::from_nanos(get(&j.sync_nanos) / batches.max(1))),
        busy(get(&j.apply_nanos)),
        busy(get(&j.delay_nanos)),
        run.cpu_line(),
    );
    h.shutdown().await;
}

/// Writes and reads `sessions` sessions of the 50 KB state through 16 connections.
async fn fill(addr: SocketAddr, sessions: usize, prefix: &str) {
    let body = Arc::new(json!({"action": "set", "state": state_of_size(50 * 1024)}).to_string());
    load::fill(addr, WRITERS, sessions, prefix, body).await;
}

async fn memory() {
    let json_len = serde_json::to_vec(&state_of_size(50 * 1024)).map_or(0, |v| v.len()) as u64;
    let n = 10_000;
    for (label, budget) in [
        ("all cached", 4u64 << 30),
        ("default 256 MiB budget", 256 << 20),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let h = server(dir.path(), |c| {
            c.fsync = false;
            c.cache_capacity = 1_000_000;
            c.cache_bytes = budget;
        })
        .await;
        let addr = h.addr("ecommerce-admin").expect("addr");
        let store = h.store("ecommerce-admin").expect("store");
        let before = rss_bytes();
        let t = Instant::now();
        fill(addr, n, "m").await;
        let stats = store.cache_stats();
        let after = rss_bytes();
        let grown = after.saturating_sub(before);
        println!(
            "{n} sessions of a {} KB state ({label}), written and read in {:.1}s: {} cached \
             holding {} by the server's accounting ({:.2}x the JSON per cached session), \
             {} evicted; RSS {} -> {} (+{}, {:.2}x the JSON per cached session)",
            json_len / 1024,
            t.elapsed().as_secs_f64(),
            stats.sessions,
            mib(stats.bytes),
            stats.bytes as f64 / (stats.sessions.max(1) as u64 * json_len) as f64,
            stats.evictions,
            mib(before),
            mib(after),
            mib(grown),
            grown as f64 / (stats.sessions.max(1) as u64 * json_len) as f64,
        );
        h.shutdown().await;
    }
}

async fn connections() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = server(dir.path(), |c| {
        c.fsync = false;
        c.idle_timeout_ms = 1000;
        c.max_connections = 1000;
    })
    .await;
    let addr = h.addr("ecommerce-admin").expect("addr");
    let conns = h.app("ecommerce-admin").expect("app").conns.clone();
    let opened = Instant::now();
    let mut idle = Vec::new();
    for _ in 0..1500 {
        idle.push(tokio::net::TcpStream::connect(addr).await.expect("connect"));
    }
    // The 500 beyond the cap are answered 503 and closed; the 1,000 idle ones after 1 s.
    let (mut refused, mut dropped) = (0, 0);
    let mut closed_at = Vec::new();
    for mut s in idle {
        let mut buf = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut buf)).await;
        let at = opened.elapsed();
        if buf.starts_with(b"HTTP/1.1 503") {
            refused += 1;
        } else if at < Duration::from_millis(900) {
            dropped += 1;
        } else {
            closed_at.push(at);
        }
    }
    closed_at.sort();
    let c = conns.snapshot();
    println!(
        "1500 silent connections, cap 1000, idle timeout 1 s: {refused} answered 503 \
         too_many_connections, {dropped} over the cap closed unanswered (answerers busy); {} \
         closed idle (server count {}), the last {} after opening; open now {}",
        closed_at.len(),
        c.idle_closed,
        ms(closed_at.last().copied().unwrap_or_default()),
        c.open,
    );
    h.shutdown().await;
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument names a section to run.
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let run = |section: &str| wanted.is_empty() || wanted.iter().any(|w| w == section);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    println!(
        "machine: {} cores (server and load generator share them); load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        loadavg(),
    );
    if run("sync") {
        sync();
    }
    rt.block_on(async {
        if run("writes") {
            for fsync in [true, false] {
                writes("16 sessions", false, fsync, None, Edits::OneField).await;
                writes("one shared session", true, fsync, None, Edits::OneField).await;
            }
            // The worst case for the journal: no two states alike, every record whole.
            writes("16 sessions", false, true, None, Edits::Whole).await;
            // Group commit with arrival-side batching (the committer waits up to 1 ms for
            // writers still reading their request; off by default).
            writes("16 sessions", false, true, Some(1000), Edits::OneField).await;
        }
        if run("connections") {
            connections().await;
        }
        if run("memory") {
            memory().await;
        }
    });
    println!("load average at the end: {}", loadavg());
}
