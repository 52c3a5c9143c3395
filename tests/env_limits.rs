//! The state API server's limits over real HTTP on loopback: idle and slow connections are
//! closed, the connection cap is answered with a clear JSON error, many large sessions stay
//! within the byte budget (the server's own accounting, read from `/health`), and a write the
//! server acknowledged survives `kill -9` of the real `tuplewright env serve` process.

use crate::common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::http::{call, Conn};
use common::{assert_error, config, get_json, post, start};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tuplewright::engine::env::ServerConfig;

/// Waits (generous deadline) until the peer closes `s`: true if it did.
async fn closed_by_server(s: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 1024];
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
            Err(_) => return false,
        }
    }
}

async fn wait_for<T: std::fmt::Debug>(
    what: &str,
    mut probe: impl FnMut() -> T,
    ok: impl Fn(&T) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let seen = probe();
        if ok(&seen) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn idle_connections_and_slow_request_heads_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        idle_timeout_ms: 1500,
        header_timeout_ms: 300,
        ..config(dir.path())
    };
    let h = start(cfg, &["team-chat"]).await;
    let a = h.addr("team-chat").unwrap();
    let stats = h.app("team-chat").unwrap().conns.clone();
    // Connected, never a byte.
    let mut silent = TcpStream::connect(a).await.unwrap();
    // Keep-alive after one answered request.
    let mut kept = Conn::connect(a).await.unwrap();
    assert_eq!(
        kept.send("GET", "/health", &[], b"").await.unwrap().status,
        200
    );
    // Half a request head (slowloris).
    let mut slow = TcpStream::connect(a).await.unwrap();
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    assert!(closed_by_server(&mut silent, Duration::from_secs(20)).await);
    assert!(closed_by_server(&mut slow, Duration::from_secs(20)).await);
    // `kept` is still held here: the server, not the client, closes it.
    wait_for(
        "the counters",
        || stats.snapshot(),
        |c| c.idle_closed >= 2 && c.header_timeouts >= 1 && c.open == 0,
    )
    .await;
    drop(kept);
    // The server still serves new connections.
    assert_eq!(get_json(a, "/health").await["ok"], true);
    h.shutdown().await;
}

#[tokio::test]
async fn the_connection_cap_is_answered_with_a_clear_error_and_frees_up() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        max_connections: 4,
        ..config(dir.path())
    };
    let h = start(cfg, &["team-chat"]).await;
    let a = h.addr("team-chat").unwrap();
    let stats = h.app("team-chat").unwrap().conns.clone();
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut c = Conn::connect(a).await.unwrap();
        assert_eq!(
            c.send("GET", "/health", &[], b"").await.unwrap().status,
            200
        );
        held.push(c);
    }
    let r = call(a, "GET", "/health", &[], b"").await;
    assert_error(&r, 503, "too_many_connections");
    assert!(r.json()["detail"].as_str().unwrap().contains("limit of 4"));
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(stats.snapshot().refused, 1);
    drop(held.pop());
    wait_for(
        "a freed connection slot",
        || stats.snapshot(),
        |c| c.open == 3,
    )
    .await;
    assert_eq!(get_json(a, "/health").await["connections"]["limit"], 4);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_large_sessions_stay_within_the_servers_byte_budget() {
    let dir = tempfile::tempdir().unwrap();
    let budget: u64 = 16 << 20;
    let cfg = ServerConfig {
        cache_bytes: budget,
        cache_capacity: 100_000,
        body_limit_bytes: 4 << 20,
        ..config(dir.path())
    };
    let h = start(cfg, &["team-chat"]).await;
    let a = h.addr("team-chat").unwrap();
    let big = "x".repeat(1 << 20);
    let mut peak = 0;
    for i in 0..40 {
        let sid = format!("large-{i}");
        let body = json!({"action": "set_current", "state": {"blob": big, "n": i}});
        assert_eq!(post(a, &sid, body, None).await.status, 200);
        let go = call(a, "GET", &format!("/go?sid={sid}"), &[], b"").await;
        assert_eq!(go.status, 200);
        let cache = &get_json(a, "/health").await["cache"];
        let bytes = cache["bytes"].as_u64().unwrap();
        peak = peak.max(bytes);
        assert!(bytes <= budget, "session {i}: {cache}");
    }
    let health = get_json(a, "/health").await;
    assert!(
        health["cache"]["evictions"].as_u64().unwrap() >= 20,
        "{health}"
    );
    assert!(
        peak > budget / 2,
        "the load never filled the cache: peak {peak}"
    );
    // Evicted sessions are read back from disk.
    let st = get_json(a, "/state?sid=large-0").await;
    assert_eq!(st["stored_state"]["n"], 0);
    assert_eq!(st["stored_state"]["blob"].as_str().unwrap().len(), 1 << 20);
    // A state larger than the whole budget is refused, naming the limit.
    let huge = json!({"action": "set_current", "state": {"blob": "y".repeat(3 << 20)}});
    let small_budget = ServerConfig {
        cache_bytes: 2 << 20,
        body_limit_bytes: 8 << 20,
        ..config(dir.path())
    };
    h.shutdown().await;
    let h = start(small_budget, &["team-chat"]).await;
    let a = h.addr("team-chat").unwrap();
    let r = post(a, "huge", huge, None).await;
    assert_error(&r, 507, "over_budget");
    assert!(r.json()["detail"].as_str().unwrap().contains("cache_bytes"));
    h.shutdown().await;
}

fn spawn_server(state_dir: &std::path::Path) -> (std::process::Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .args([
            "env",
            "serve",
            "--app",
            "team-chat",
            "--port",
            "0",
            "--state-dir",
        ])
        .arg(state_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let mut line = String::new();
    BufReader::new(out).read_line(&mut line).unwrap();
    let v: Value = serde_json::from_str(&line).unwrap();
    let url = v["url"].as_str().unwrap();
    (child, url.trim_start_matches("http://").parse().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_acknowledged_write_survives_kill_9_of_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, a) = spawn_server(dir.path());
    // Concurrent writers, so acknowledgements come from shared journal syncs.
    let mut tasks = Vec::new();
    for w in 0..8 {
        tasks.push(tokio::spawn(async move {
            let mut conn = Conn::connect(a).await.unwrap();
            let mut last = 0;
            for i in 0..25 {
                let body = json!({"action": "set_current", "state": {"writer": w, "i": i}});
                let r = conn
                    .send(
                        "POST",
                        &format!("/post?sid=w{w}"),
                        &[],
                        body.to_string().as_bytes(),
                    )
                    .await
                    .unwrap();
                assert_eq!(r.status, 200);
                last = i;
            }
            last
        }));
    }
    let mut acked = Vec::new();
    for t in tasks {
        acked.push(t.await.unwrap());
    }
    // SIGKILL: no shutdown, no flush, no checkpoint.
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, a) = spawn_server(dir.path());
    for (w, last) in acked.iter().enumerate() {
        let st = get_json(a, &format!("/state?sid=w{w}")).await;
        assert_eq!(st["stored_state"], json!({"writer": w, "i": last}));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// `env serve` applies the config file's `[env]` table (each key reaching the running server, as
/// `/health` and the server's behaviour show), and a flag given on the command line overrides
/// its key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn env_serve_applies_the_env_table_of_the_config_file_and_flags_override_it() {
    let dir = tempfile::tempdir().unwrap();
    let state_dir = dir.path().join("from-config");
    let cfg = dir.path().join("tw.toml");
    std::fs::write(
        &cfg,
        format!(
            "[env]\nstate_dir = {:?}\ncache_bytes = 50331648\ncache_capacity = 0\n\
             max_connections = 77\nheader_timeout_ms = 4321\nidle_timeout_ms = 9876\n\
             session_ttl_secs = 99\nbody_limit_bytes = 2048\nfile_lag_ms = 250\n",
            state_dir.display().to_string()
        ),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .arg("--config")
        .arg(&cfg)
        .args(["env", "serve", "--app", "team-chat", "--port", "0"])
        .args(["--idle-timeout-ms", "12345"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
    let a: SocketAddr = v["url"]
        .as_str()
        .unwrap()
        .trim_start_matches("http://")
        .parse()
        .unwrap();
    let health = get_json(a, "/health").await;
    let c = &health["config"];
    assert_eq!(
        (
            c["cache_bytes"].as_u64(),
            health["cache"]["budget"].as_u64(),
            c["max_connections"].as_u64(),
            c["header_timeout_ms"].as_u64(),
            c["session_ttl_secs"].as_u64(),
            c["body_limit_bytes"].as_u64(),
            c["file_lag_ms"].as_u64(),
        ),
        (
            Some(50331648),
            Some(50331648),
            Some(77),
            Some(4321),
            Some(99),
            Some(2048),
            Some(250)
        ),
        "{health}"
    );
    assert_eq!(
        c["idle_timeout_ms"], 12345,
        "the flag overrides [env]: {health}"
    );
    assert_eq!(health["connections"]["limit"], 77, "{health}");
    // The body limit and the state directory are the config's, in what the server does.
    let big = json!({"action": "set_current", "state": {"blob": "z".repeat(4096)}});
    assert_eq!(post(a, "cfg", big, None).await.status, 413);
    let small = json!({"action": "set_current", "state": {"n": 1}});
    assert_eq!(post(a, "cfg", small, None).await.status, 200);
    assert!(
        state_dir.join("team-chat").is_dir(),
        "sessions not under [env] state_dir"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}
