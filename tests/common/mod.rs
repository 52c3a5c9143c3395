//! Helpers shared by the integration tests: a small HTTP client and state-API shortcuts.

pub mod http;

/// Held by the tests that load the whole machine (real desktop applications, `apps check` over
/// every pack, a rebuild of the source tree): the one test binary runs two tests at a time, and
/// two such tests at once starve each other's applications past their ready timeouts. With this
/// guard one heavy test runs beside light ones, as when each area was its own binary.
pub fn one_heavy_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    HEAVY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A TCP port on 127.0.0.1 that is free now and lies below the kernel's ephemeral range
/// (`net.ipv4.ip_local_port_range`), so neither another test's `bind(0)` nor any outgoing
/// connection of the one test binary can take it before the test binds it (a guest restarted
/// on its fixed port) or while it must stay dead (a port nobody listens on). Each call in the
/// process gets a different port.
pub fn quiet_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u32>().ok())
        .unwrap_or(32768)
        .clamp(12000, 65535);
    let span = low - 10000;
    let start = std::process::id().wrapping_mul(7919) % span;
    loop {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        assert!(n < span, "no free port below {low}");
        let port = 10000 + (start + n * 97) % span;
        if std::net::TcpListener::bind(("127.0.0.1", port as u16)).is_ok() {
            return port as u16;
        }
    }
}

use std::net::SocketAddr;

use http::call;
use serde_json::Value;
use tuplewright::engine::env::{self, AppRegistry, ServerConfig, ServerHandle};

/// A test configuration: ephemeral ports, the given state directory, no fsync.
pub fn config(dir: &std::path::Path) -> ServerConfig {
    ServerConfig {
        port: Some(0),
        state_dir: dir.to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    }
}

/// Starts a server for the named built-in apps.
pub async fn start(cfg: ServerConfig, names: &[&str]) -> ServerHandle {
    let reg = AppRegistry::builtin().unwrap();
    let apps = names.iter().map(|n| reg.get(n).unwrap()).collect();
    env::spawn(cfg, apps).await.unwrap()
}

/// The role headers the sandbox's forwarder (of this process) sends: the role and the forwarder
/// secret, without which the server ignores the role.
pub fn role_headers(role: &str) -> [(&'static str, String); 2] {
    tuplewright::engine::access::forwarder::role_headers(role)
}

/// `headers` (from [`role_headers`]) as `call` takes them.
pub fn pairs<'a>(headers: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    headers.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// `POST /post?sid=` with an optional role (sent as the forwarder sends it).
pub async fn post(addr: SocketAddr, sid: &str, body: Value, role: Option<&str>) -> http::Resp {
    let mut headers = vec![("Content-Type", "application/json")];
    let trusted = role.map(role_headers);
    if let Some(t) = &trusted {
        headers.extend(pairs(t));
    }
    call(
        addr,
        "POST",
        &format!("/post?sid={sid}"),
        &headers,
        body.to_string().as_bytes(),
    )
    .await
}

/// GET expecting 200 JSON.
pub async fn get_json(addr: SocketAddr, path: &str) -> Value {
    let r = call(addr, "GET", path, &[], b"").await;
    assert_eq!(
        r.status,
        200,
        "{path}: {}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(r.header("content-type"), Some("application/json"));
    r.json()
}

/// Asserts a JSON error `{error: code, detail}` with the status.
pub fn assert_error(r: &http::Resp, status: u16, code: &str) {
    assert_eq!(
        r.status,
        status,
        "body: {}",
        String::from_utf8_lossy(&r.body)
    );
    let v = r.json();
    assert_eq!(v["error"], code, "{v}");
    assert!(v["detail"].as_str().is_some_and(|d| !d.is_empty()), "{v}");
}
