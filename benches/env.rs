//! Benchmark of the state API server (`cargo bench --bench env`).
//!
//! 1. `GET /go` on a ~50 KB state with 64 concurrent keep-alive connections for a fixed time:
//!    requests/s and latency percentiles (target ≥ 20,000 req/s, p99 < 10 ms). The load
//!    generator runs in the same process and shares the machine's cores with the server.
//!    Measured plain and with `Accept-Encoding: gzip` (cached compressed body per state), plus
//!    `/health` as a reference for the per-request ceiling without the 100 KB body copies.
//! 2. `GET /go` on a ~1 MB state, one request at a time: cold (diff computed after a write)
//!    and warm (cached per state) latency medians (target < 20 ms).

#[path = "../tests/common/http.rs"]
mod http;
#[path = "env_support.rs"]
mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use support::{bench_app, ms, percentile, state_of_size};
use tuplewright::engine::env::{self, ServerConfig};

const CONNECTIONS: usize = 64;
const RUN: Duration = Duration::from_secs(5);

async fn throughput(addr: std::net::SocketAddr, label: &str, path: &str, gzip: bool) {
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    let path = path.to_string();
    for _ in 0..CONNECTIONS {
        let stop = stop.clone();
        let path = path.clone();
        tasks.push(tokio::spawn(async move {
            let mut conn = http::Conn::connect(addr).await.expect("connect");
            let mut lat = Vec::with_capacity(100_000);
            let mut bytes = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                let (status, len) = conn
                    .send_len(
                        "GET",
                        &path,
                        if gzip {
                            &[("Accept-Encoding", "gzip")]
                        } else {
                            &[]
                        },
                    )
                    .await
                    .expect("request");
                lat.push(t.elapsed());
                assert_eq!(status, 200);
                bytes = len;
            }
            (lat, bytes)
        }));
    }
    let start = Instant::now();
    tokio::time::sleep(RUN).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    let mut body = 0;
    for t in tasks {
        let (lat, bytes) = t.await.expect("task");
        all.extend(lat);
        body = bytes;
    }
    let secs = start.elapsed().as_secs_f64();
    all.sort();
    println!(
        "{label} x{CONNECTIONS} keep-alive: {:.0} req/s over {secs:.1}s ({} requests, response {} KB); \
latency p50 {} p90 {} p99 {} max {}",
        all.len() as f64 / secs,
        all.len(),
        body / 1024,
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.9)),
        ms(percentile(&all, 0.99)),
        ms(percentile(&all, 1.0)),
    );
}

async fn large(addr: std::net::SocketAddr, store: Arc<env::SessionStore>) {
    let big = state_of_size(1 << 20);
    store
        .apply("big", env::session::Action::Set, Some(big))
        .expect("set 1 MB state");
    let mut conn = http::Conn::connect(addr).await.expect("connect");
    let (mut cold, mut warm) = (Vec::new(), Vec::new());
    let mut size = 0;
    for i in 0..15 {
        // A small real change so the diff is non-empty and the cache is invalidated.
        let body = json!({"action": "merge", "state": {"store": {"name": format!("Bench {i}")}}})
            .to_string();
        let r = conn
            .send("POST", "/post?sid=big", &[], body.as_bytes())
            .await
            .expect("post");
        assert_eq!(r.status, 200);
        let t = Instant::now();
        let r = conn.send("GET", "/go?sid=big", &[], b"").await.expect("go");
        cold.push(t.elapsed());
        size = r.body.len();
        let t = Instant::now();
        let r = conn.send("GET", "/go?sid=big", &[], b"").await.expect("go");
        warm.push(t.elapsed());
        assert_eq!(r.status, 200);
    }
    cold.sort();
    warm.sort();
    println!(
        "GET /go 1MB-state (response {} KB): cold median {} (p90 {}), warm median {} (p90 {})",
        size / 1024,
        ms(percentile(&cold, 0.5)),
        ms(percentile(&cold, 0.9)),
        ms(percentile(&warm, 0.5)),
        ms(percentile(&warm, 0.9)),
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let dir = tempfile::tempdir().expect("tempdir");
        let cfg = ServerConfig {
            port: Some(0),
            state_dir: dir.path().to_path_buf(),
            ..ServerConfig::default()
        };
        let handle = env::spawn(cfg, vec![bench_app()]).await.expect("spawn");
        let addr = handle.addr("ecommerce-admin").expect("addr");
        let store = handle.store("ecommerce-admin").expect("store");
        println!(
            "machine: {} cores (server and load generator share them)",
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
        let state = state_of_size(50 * 1024);
        store
            .apply("bench", env::session::Action::Set, Some(state))
            .expect("set");
        store
            .apply(
                "bench",
                env::session::Action::Merge,
                Some(json!({"store": {"name": "Changed"}})),
            )
            .expect("merge");
        throughput(addr, "GET /go 50KB-state", "/go?sid=bench", false).await;
        // What clients such as Python `requests` get (they send Accept-Encoding: gzip).
        throughput(
            addr,
            "GET /go 50KB-state, Accept-Encoding: gzip",
            "/go?sid=bench",
            true,
        )
        .await;
        // Reference: the same load on a tiny response shows the per-request ceiling of
        // server + load generator on this machine, without the 100 KB body copies.
        throughput(addr, "GET /health (reference, tiny body)", "/health", false).await;
        large(addr, store).await;
        handle.shutdown().await;
    });
}
