//! The state API server: one axum router per app, each on its own port (served by
//! [`conn::serve`] with a connection cap and header/idle timeouts), plus the garbage collector. [`spawn`] starts it embedded (the engine uses loopback ephemeral ports);
//! `tuplewright env serve` uses the same function.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use axum::extract::DefaultBodyLimit;
use axum::routing::{delete, get, post};
use axum::Router;
use serde::Serialize;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::apps::App;
use super::conn::{self, ConnLimits, ConnStats};
use super::handlers;
use super::store::SessionStore;
use super::{EnvError, ServerConfig};
use tuplewright_base::access::{self, Access};

/// A write refused because of the caller's role.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Refusal {
    /// App whose server refused.
    pub app: String,
    /// Role header value.
    pub role: String,
    /// HTTP method.
    pub method: String,
    /// Path.
    pub path: String,
    /// The `/post` action, when one was parsed.
    pub action: Option<String>,
    /// When (RFC 3339, UTC).
    pub at: String,
}

/// Counter and bounded log of refused writes, shared by all apps of one server.
#[derive(Debug, Default)]
pub struct Audit {
    count: AtomicU64,
    log: Mutex<VecDeque<Refusal>>,
}

/// How many refusals the in-memory log keeps.
const AUDIT_KEEP: usize = 256;

impl Audit {
    /// Records a refusal (also logged with `tracing::warn`).
    pub fn refuse(&self, app: &str, role: &str, method: &str, path: &str, action: Option<&str>) {
        self.count.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(
            app,
            role,
            method,
            path,
            action,
            "state API refused a write for this role"
        );
        let mut log = self.log.lock().unwrap_or_else(|p| p.into_inner());
        if log.len() == AUDIT_KEEP {
            log.pop_front();
        }
        log.push_back(Refusal {
            app: app.into(),
            role: role.into(),
            method: method.into(),
            path: path.into(),
            action: action.map(str::to_string),
            at: chrono::Utc::now().to_rfc3339(),
        });
    }

    /// Total refusals since start.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The most recent refusals (up to 256), oldest first.
    pub fn recent(&self) -> Vec<Refusal> {
        self.log
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .cloned()
            .collect()
    }
}

/// Shared state of one app's router.
pub struct AppState {
    /// The app.
    pub app: Arc<App>,
    /// Its sessions.
    pub store: Arc<SessionStore>,
    /// Refusal log shared across apps.
    pub audit: Arc<Audit>,
    /// Body limit in bytes.
    pub body_limit: usize,
    /// The listener's connection counters.
    pub conns: Arc<ConnStats>,
    /// The configuration the server was started with (`/health` reports it).
    pub config: Arc<ServerConfig>,
    /// Who may call (token, allow list) and its counters, shared by all apps of one server.
    pub access: Arc<Access>,
}

/// The router of one app (exposed for tests and for embedding in another server).
pub fn router(state: Arc<AppState>) -> Router {
    let limit = state.body_limit;
    let access = state.access.clone();
    Router::new()
        .route("/health", get(handlers::health))
        .route("/go", get(handlers::go))
        .route("/state", get(handlers::state))
        .route("/post", post(handlers::post))
        .route("/upload", post(handlers::upload))
        .route("/files/{sid}/{name}", get(handlers::file))
        .route("/session", delete(handlers::delete_session))
        .fallback(handlers::not_found)
        .method_not_allowed_fallback(handlers::method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn_with_state(access, access::guard))
        .with_state(state)
}

/// One app being served.
pub struct ServedApp {
    /// App name.
    pub name: String,
    /// The bound address.
    pub addr: SocketAddr,
    /// Its session store (create, reset and read sessions from Rust).
    pub store: Arc<SessionStore>,
    /// Its listener's connection counters.
    pub conns: Arc<ConnStats>,
}

/// A running server: its apps' addresses, stores and the shutdown switch.
pub struct ServerHandle {
    /// The apps served, in the order given.
    pub apps: Vec<ServedApp>,
    /// Refused writes across all apps.
    pub audit: Arc<Audit>,
    /// The access control in force (and its counters).
    pub access: Arc<Access>,
    /// The token generated at start (`generate_token`), to show once.
    pub generated_token: Option<String>,
    shutdown: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl ServerHandle {
    /// The served app of that name.
    pub fn app(&self, name: &str) -> Option<&ServedApp> {
        self.apps.iter().find(|a| a.name == name)
    }

    /// The bound address of an app.
    pub fn addr(&self, name: &str) -> Option<SocketAddr> {
        self.app(name).map(|a| a.addr)
    }

    /// `http://<addr>` of an app (`https://` with TLS).
    pub fn url(&self, name: &str) -> Option<String> {
        let scheme = self.access.scheme();
        self.addr(name).map(|a| format!("{scheme}://{a}"))
    }

    /// The session store of an app.
    pub fn store(&self, name: &str) -> Option<Arc<SessionStore>> {
        self.app(name).map(|a| a.store.clone())
    }

    /// Stops accepting, lets in-flight requests finish, and waits for every task.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        for task in self.tasks {
            let _ = task.await;
        }
    }
}

/// Binds every app (ports per [`ServerConfig::port`]) and serves them until shutdown. Refuses a
/// non-loopback [`ServerConfig::host`] without access control (a token and/or `allow_from`).
pub async fn spawn(cfg: ServerConfig, apps: Vec<Arc<App>>) -> Result<ServerHandle, EnvError> {
    let (access, generated_token) =
        Access::resolve("the state API", cfg.host, &cfg.access_settings())?;
    let audit = Arc::new(Audit::default());
    let (tx, rx) = watch::channel(false);
    let mut served = Vec::new();
    let mut tasks = Vec::new();
    let config = Arc::new(cfg.clone());
    for (i, app) in apps.into_iter().enumerate() {
        let port = match cfg.port {
            Some(0) => 0,
            Some(p) => p.saturating_add(i as u16),
            None => app.manifest.port.unwrap_or(0),
        };
        let bind = SocketAddr::new(cfg.host, port);
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .map_err(|e| EnvError::io("bind", format!("{bind} (app {})", app.name()), e))?;
        let addr = listener
            .local_addr()
            .map_err(|e| EnvError::io("bind", bind.to_string(), e))?;
        let store = Arc::new(SessionStore::open(app.clone(), &cfg)?);
        let conns = Arc::new(ConnStats::default());
        let state = Arc::new(AppState {
            app: app.clone(),
            store: store.clone(),
            audit: audit.clone(),
            body_limit: cfg.body_limit_bytes,
            conns: conns.clone(),
            config: config.clone(),
            access: access.clone(),
        });
        let limits = ConnLimits {
            max_connections: cfg.max_connections,
            header_timeout: Duration::from_millis(cfg.header_timeout_ms.max(1)),
            idle_timeout: Duration::from_millis(cfg.idle_timeout_ms.max(1)),
        };
        tasks.push(tokio::spawn(conn::serve_with(
            listener,
            router(state),
            limits,
            conns.clone(),
            rx.clone(),
            access.tls(),
        )));
        tasks.push(tokio::spawn(gc_loop(
            store.clone(),
            cfg.gc_interval_secs,
            rx.clone(),
        )));
        served.push(ServedApp {
            name: app.name().to_string(),
            addr,
            store,
            conns,
        });
    }
    Ok(ServerHandle {
        apps: served,
        audit,
        access,
        generated_token,
        shutdown: tx,
        tasks,
    })
}

async fn gc_loop(store: Arc<SessionStore>, every_secs: u64, mut stop: watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(Duration::from_secs(every_secs.max(1)));
    loop {
        tokio::select! {
            _ = tick.tick() => {
                let s = store.clone();
                match tokio::task::spawn_blocking(move || s.gc(SystemTime::now())).await {
                    Ok(Ok(report)) if report.expired > 0 => {
                        tracing::info!(app = store.app().name(), expired = report.expired, alive = report.alive, "expired sessions collected");
                    }
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => tracing::error!(error = %e, "session garbage collection failed"),
                    Err(e) => tracing::error!(error = %e, "session garbage collection panicked"),
                }
            }
            changed = stop.changed() => {
                if changed.is_err() || *stop.borrow() {
                    break;
                }
            }
        }
    }
}
