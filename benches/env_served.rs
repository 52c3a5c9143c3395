//! Benchmark of the shipped command (`cargo bench --bench env_served`): the state server as a
//! user starts it, `tuplewright env serve --config FILE`, measured from outside over HTTP.
//!
//! 1. `memory`: 10,000 sessions of a ~50 KB state written (`set`) and read (`/go`) through 16
//!    connections, with `[env] cache_bytes` large enough for all of them: the server process's
//!    RSS growth per cached session, divided by the state's JSON size (goal ≤ 1.3x).
//! 2. `cold`: 8 sessions of a ~1 MB state written and read, then 600 other 1 MB sessions written
//!    and read (the default 256 MiB budget evicts the first ones), then the first `/go` of each
//!    of the 8: the cold read's median against the Hub's uncached 35–61 ms (goal ≤ 20 ms), and
//!    the warm `/go` of the same sessions right after for comparison.
//!
//! Run after `cargo build --release` (the bench starts the release binary it was built with).

#[path = "env_load.rs"]
mod load;
#[path = "env_support.rs"]
mod support;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use load::http::Conn;
use serde_json::{json, Value};
use support::{ms, percentile, state_of_size};

const WRITERS: usize = 16;
const HUB_COLD_MS: (f64, f64) = (35.0, 61.0);

/// `tuplewright --config <dir>/tw.toml env serve --app ecommerce-admin --port 0`.
fn serve(dir: &std::path::Path, env_table: &str) -> (Child, SocketAddr) {
    let cfg = dir.join("tw.toml");
    let state = dir.join("state");
    std::fs::write(
        &cfg,
        format!(
            "[env]\nstate_dir = {:?}\n{env_table}",
            state.display().to_string()
        ),
    )
    .expect("config");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .arg("--config")
        .arg(&cfg)
        .args(["env", "serve", "--app", "ecommerce-admin", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn tuplewright env serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("announce");
    let v: Value = serde_json::from_str(&line).expect("announce line");
    let url = v["url"]
        .as_str()
        .expect("url")
        .trim_start_matches("http://");
    (child, url.parse().expect("addr"))
}

fn rss_of(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            let l = s.lines().find(|l| l.starts_with("VmRSS:"))?;
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

async fn health(addr: SocketAddr) -> Value {
    let mut c = Conn::connect(addr).await.expect("connect");
    c.send("GET", "/health", &[], b"")
        .await
        .expect("health")
        .json()
}

/// Writes (`set`) and reads (`/go`) sessions `prefix0..n` of `body` through 16 connections.
async fn fill(addr: SocketAddr, n: usize, prefix: &str, body: Arc<String>) {
    load::fill(addr, WRITERS, n, prefix, body).await;
}

/// Compact JSON size of a session's stored state.
async fn stored_len(addr: SocketAddr, sid: &str) -> u64 {
    let mut c = Conn::connect(addr).await.expect("connect");
    let st = c
        .send("GET", &format!("/state?sid={sid}"), &[], b"")
        .await
        .expect("state")
        .json();
    serde_json::to_vec(&st["stored_state"]).map_or(0, |v| v.len() as u64)
}

async fn memory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut child, addr) = serve(dir.path(), "cache_bytes = 4294967296\nfsync = false\n");
    let n = 10_000;
    let body = Arc::new(json!({"action": "set", "state": state_of_size(50 * 1024)}).to_string());
    let before = rss_of(child.id());
    let t = Instant::now();
    fill(addr, n, "m", body).await;
    let after = rss_of(child.id());
    let h = health(addr).await;
    let json_len = stored_len(addr, "m0").await;
    let cached = h["cache"]["sessions"].as_u64().unwrap_or(0);
    let grown = after.saturating_sub(before);
    println!(
        "memory: {n} sessions of a {} KB state through `env serve --config`, written and read in \
         {:.1}s: {cached} cached, {} evicted; server RSS {:.1} -> {:.1} MiB: {:.2}x the JSON per \
         cached session (goal <= 1.3x; the accounting says {:.2}x)",
        json_len / 1024,
        t.elapsed().as_secs_f64(),
        h["cache"]["evictions"],
        before as f64 / 1048576.0,
        after as f64 / 1048576.0,
        grown as f64 / (cached.max(1) * json_len) as f64,
        h["cache"]["bytes"].as_u64().unwrap_or(0) as f64 / (cached.max(1) * json_len) as f64,
    );
    let _ = child.kill();
    let _ = child.wait();
}

async fn timed_go(addr: SocketAddr, sid: &str) -> Duration {
    let mut c = Conn::connect(addr).await.expect("connect");
    let t = Instant::now();
    let (status, len) = c
        .send_len("GET", &format!("/go?sid={sid}"), &[])
        .await
        .expect("go");
    let d = t.elapsed();
    assert!(status == 200 && len > 1 << 20, "{sid}: {status} {len}");
    d
}

async fn cold() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut child, addr) = serve(dir.path(), "");
    let mut state = state_of_size(1 << 20);
    let body = Arc::new(json!({"action": "set", "state": state}).to_string());
    fill(addr, 8, "cold", body).await;
    // A UI's edit, so /go carries a real diff.
    state["store"]["name"] = json!("Edited");
    let edit = json!({"action": "set_current", "state": state}).to_string();
    for i in 0..8 {
        let mut c = Conn::connect(addr).await.expect("connect");
        let r = c
            .send("POST", &format!("/post?sid=cold{i}"), &[], edit.as_bytes())
            .await
            .expect("edit");
        assert_eq!(r.status, 200);
        timed_go(addr, &format!("cold{i}")).await;
    }
    let others = Arc::new(json!({"action": "set", "state": state_of_size(1 << 20)}).to_string());
    fill(addr, 600, "other", others).await;
    let h = health(addr).await;
    let mut cold = Vec::new();
    for i in 0..8 {
        cold.push(timed_go(addr, &format!("cold{i}")).await);
    }
    let mut warm = Vec::new();
    for i in 0..8 {
        warm.push(timed_go(addr, &format!("cold{i}")).await);
    }
    cold.sort();
    warm.sort();
    let median = percentile(&cold, 0.5);
    println!(
        "cold: a 1 MB session's first /go after 600 other 1 MB sessions ({} evictions, default \
         256 MiB budget): median {} (min {}, max {}) = {:.1}x-{:.1}x faster than the Hub's \
         uncached {}-{} ms (goal <= 20 ms); warm /go of the same sessions median {}",
        h["cache"]["evictions"],
        ms(median),
        ms(cold[0]),
        ms(cold[cold.len() - 1]),
        HUB_COLD_MS.0 / (median.as_secs_f64() * 1e3),
        HUB_COLD_MS.1 / (median.as_secs_f64() * 1e3),
        HUB_COLD_MS.0,
        HUB_COLD_MS.1,
        ms(percentile(&warm, 0.5)),
    );
    let _ = child.kill();
    let _ = child.wait();
}

fn main() {
    let sections: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |s: &str| sections.is_empty() || sections.iter().any(|a| a == s);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    if wants("memory") {
        rt.block_on(memory());
    }
    if wants("cold") {
        rt.block_on(cold());
    }
}
