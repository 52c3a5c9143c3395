//! Benchmark of the state server's limits (`cargo bench --bench env_limits`).
//!
//! 1. Durable writes: `POST /post` `set_current` of a ~50 KB state at 16 keep-alive connections
//!    for a fixed time, fsync on (group commit), to one shared session and to 16 sessions:
//!    requests/s, latency percentiles, and writes per journal sync. Compared with the figures
//!    the issue measured before (666 req/s, every write fsynced alone) and for the Hub's Node
//!    middleware (653 req/s).
//! 2. Memory: 10,000 sessions of a ~50 KB state written and read (`/go`) over HTTP, first with
//!    a cache big enough for all of them (bytes held per session / its JSON size, from the
//!    server's accounting and from RSS), then with the default 256 MiB budget (RSS bounded).
//! 3. Connections: 2,000 idle connections with a 1 s idle timeout: how long until the server
//!    has closed them all; then the cap (1,000) answering the surplus with 503.

#[path = "../tests/common/http.rs"]
mod http;
#[path = "env_support.rs"]
mod support;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
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

async fn writes(label: &str, shared_session: bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = server(dir.path(), |c| c.fsync = true).await;
    let addr = h.addr("ecommerce-admin").expect("addr");
    let store = h.store("ecommerce-admin").expect("store");
    let body =
        Arc::new(json!({"action": "set_current", "state": state_of_size(50 * 1024)}).to_string());
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let (stop, body) = (stop.clone(), body.clone());
        let path = if shared_session {
            "/post?sid=shared".to_string()
        } else {
            format!("/post?sid=w{w}")
        };
        tasks.push(tokio::spawn(async move {
            let mut conn = http::Conn::connect(addr).await.expect("connect");
            let mut lat = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                let r = conn
                    .send("POST", &path, &[], body.as_bytes())
                    .await
                    .expect("post");
                assert_eq!(r.status, 200);
                lat.push(t.elapsed());
            }
            lat
        }));
    }
    let start = Instant::now();
    tokio::time::sleep(RUN).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("writer"));
    }
    let secs = start.elapsed().as_secs_f64();
    all.sort();
    let rate = all.len() as f64 / secs;
    let j = store.journal_stats();
    let (records, batches) = (
        j.records.load(Ordering::Relaxed),
        j.batches.load(Ordering::Relaxed),
    );
    println!(
        "POST set_current 50KB x{WRITERS} ({label}), fsync on: {rate:.0} req/s = {:.1}x before \
         ({BEFORE_REQ_S}), {:.1}x the Hub ({HUB_REQ_S}); latency p50 {} p99 {}; {records} writes \
         in {batches} journal syncs ({:.1} per sync)",
        rate / BEFORE_REQ_S,
        rate / HUB_REQ_S,
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.99)),
        records as f64 / batches.max(1) as f64,
    );
    h.shutdown().await;
}

/// Writes and reads `sessions` sessions of the 50 KB state through 16 connections.
async fn fill(addr: SocketAddr, sessions: usize, prefix: &str) {
    let body = Arc::new(json!({"action": "set", "state": state_of_size(50 * 1024)}).to_string());
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let (body, prefix) = (body.clone(), prefix.to_string());
        tasks.push(tokio::spawn(async move {
            let mut conn = http::Conn::connect(addr).await.expect("connect");
            for i in (w..sessions).step_by(WRITERS) {
                let r = conn
                    .send(
                        "POST",
                        &format!("/post?sid={prefix}{i}"),
                        &[],
                        body.as_bytes(),
                    )
                    .await
                    .expect("post");
                assert_eq!(r.status, 200);
                let (status, _) = conn
                    .send_len("GET", &format!("/go?sid={prefix}{i}"), &[])
                    .await
                    .expect("go");
                assert_eq!(status, 200);
            }
        }));
    }
    for t in tasks {
        t.await.expect("filler");
    }
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

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        println!(
            "machine: {} cores (server and load generator share them)",
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
        writes("one shared session", true).await;
        writes("16 sessions", false).await;
        connections().await;
        memory().await;
    });
}
