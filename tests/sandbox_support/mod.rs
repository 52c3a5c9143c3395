//! Shared helpers for the sandbox integration tests: a recording stand-in for the state API server
//! (a small axum app — NOT the real server, which the integrator's end-to-end test uses), and
//! helpers to build environments and run scripts.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::Router;
use tuplewright::engine::sandbox::{
    run_script, Isolation, Limits, Role, RunResult, SandboxConfig, SandboxSpec, Script,
};

/// One request the stand-in upstream received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub target: String,
    pub role: Option<String>,
    pub body: String,
}

/// A recording stand-in for the state API server on an ephemeral loopback port.
pub struct StandIn {
    pub addr: SocketAddr,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl StandIn {
    pub async fn start() -> Self {
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let rec = seen.clone();
        let app = Router::new().fallback(move |req: Request| {
            let rec = rec.clone();
            async move {
                let (parts, body) = req.into_parts();
                let bytes = axum::body::to_bytes(body, 1 << 24)
                    .await
                    .unwrap_or_default();
                let role = parts
                    .headers
                    .get_all("x-tuplewright-role")
                    .iter()
                    .map(|v| v.to_str().unwrap_or("?").to_string())
                    .collect::<Vec<_>>()
                    .join(",");
                let target = parts.uri.path_and_query().unwrap().as_str().to_string();
                rec.lock().unwrap().push(Seen {
                    target: target.clone(),
                    role: (!role.is_empty()).then_some(role),
                    body: String::from_utf8_lossy(&bytes).into_owned(),
                });
                let big = if target.contains("big=1") {
                    "x".repeat(2 << 20)
                } else {
                    String::new()
                };
                axum::Json(serde_json::json!({
                    "success": true, "standin": true, "target": target,
                    "body_len": bytes.len(), "big": big,
                }))
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Self { addr, seen }
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// A scratch environment: a home dir inside a temp dir traversable by the sandbox uid.
pub struct Env {
    pub root: tempfile::TempDir,
    pub home: PathBuf,
}

impl Env {
    pub fn new() -> Self {
        let root = tempfile::Builder::new()
            .prefix("tw-env-test-")
            .tempdir()
            .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let home = root.path().join("home");
        std::fs::create_dir(&home).unwrap();
        Self { root, home }
    }

    pub fn spec(&self, sid: &str, upstream: Option<SocketAddr>) -> SandboxSpec {
        SandboxSpec {
            home: self.home.clone(),
            sid: sid.to_string(),
            app: "team-chat".to_string(),
            upstream,
            api_port: 3000,
            extra_apis: vec![],
            hand_home_to_reader: true,
            localise: Default::default(),
            forward_headers: Default::default(),
            display: None,
            run_as: None,
        }
    }
}

/// The default config, asserting bubblewrap is installed (CI installs it; see .ci/setup).
pub fn config() -> SandboxConfig {
    let cfg = SandboxConfig::default();
    assert!(
        cfg.bwrap_path.exists(),
        "these tests need bubblewrap at {} (apt-get install bubblewrap)",
        cfg.bwrap_path.display()
    );
    cfg
}

pub fn limits(wall: f64) -> Limits {
    Limits {
        wall_seconds: wall,
        ..Limits::default()
    }
}

pub async fn run(spec: &SandboxSpec, role: Role, source: &str, limits: &Limits) -> RunResult {
    let script = Script {
        name: "script.py".into(),
        source: source.into(),
    };
    run_script(&config(), spec, role, &script, limits, Isolation::Required)
        .await
        .unwrap()
}

/// Live (non-zombie) processes whose environment says they belong to the run with this sid.
/// (Matching on the sid, not the uid: other sessions on a shared machine may run sandboxes too.)
pub fn processes_of_sid(sid: &str) -> Vec<u32> {
    let needle = format!("TW_SID={sid}\0");
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
        let env = std::fs::read(e.path().join("environ")).unwrap_or_default();
        if !zombie && String::from_utf8_lossy(&env).contains(&needle) {
            out.push(pid);
        }
    }
    out
}

/// A sid unique to this test run.
pub fn unique_sid(prefix: &str) -> String {
    format!("{prefix}-{}", uuid::Uuid::new_v4().simple())
}

/// Run a trivial script and assert it works: the engine still serves after a hostile run.
pub async fn assert_still_healthy(env: &Env) {
    let r = run(
        &env.spec("healthy", None),
        Role::Reader,
        "print('alive')",
        &limits(30.0),
    )
    .await;
    assert_eq!(
        r.outcome,
        tuplewright::engine::sandbox::Outcome::Ok,
        "{r:?}"
    );
    assert_eq!(r.stdout.text.trim(), "alive");
}

pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}
