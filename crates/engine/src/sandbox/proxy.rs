//! The host-side forwarder: the only way a sandboxed script reaches the state API.
//!
//! It listens on a per-run Unix socket (bind-mounted into the sandbox, where the bootstrap relays
//! `127.0.0.1:<port>` to it) or, in unsafe mode, on an ephemeral loopback TCP port. Every request is
//! checked against [`policy::check`]; refused ones get `403 {"error","detail"}` and are recorded;
//! allowed ones are forwarded to the upstream server with `X-Tuplewright-Role` set (overwriting any
//! the script sent) and, for this process's own apps, its forwarder secret `X-Tuplewright-Forwarder`
//! (the server honours a role only with it, see `engine::access::forwarder`); a script's own
//! `X-Tuplewright-Forwarder` is removed.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode, Uri, Version};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream, UnixListener};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::policy::{self, RequestView, Role};
use super::result::RefusedRequest;

/// What the forwarder saw during one run.
#[derive(Debug, Default)]
pub struct ProxyLog {
    /// Requests refused.
    pub refused: Vec<RefusedRequest>,
    /// Number of requests forwarded upstream.
    pub forwarded: u64,
}

struct ProxyState {
    role: Role,
    sid: String,
    sid_file: Option<PathBuf>,
    headers: Vec<(String, String)>,
    upstream: SocketAddr,
    body_limit: usize,
    log: Arc<Mutex<ProxyLog>>,
}

/// A running forwarder; [`ProxyHandle::stop`] ends it and returns its log.
pub struct ProxyHandle {
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
    log: Arc<Mutex<ProxyLog>>,
}

impl ProxyHandle {
    /// Stop serving and return what was refused and forwarded.
    pub async fn stop(mut self) -> ProxyLog {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), &mut self.task).await;
        self.task.abort();
        let mut guard = self.log.lock().unwrap_or_else(|p| p.into_inner());
        std::mem::take(&mut *guard)
    }
}

/// Where the forwarder listens.
pub enum Listen<'a> {
    /// A Unix socket at this path (created world-connectable, 0666).
    Unix(&'a Path),
    /// An ephemeral port on 127.0.0.1 (unsafe mode); the bound address is returned.
    LoopbackTcp,
    /// A Unix socket (0666) whose connections speak TLS with this config (HTTPS a script sends
    /// to a public Hub host, see `localise`).
    UnixTls(&'a Path, Arc<rustls::ServerConfig>),
}

/// Options of a forwarder beyond its role and sid.
#[derive(Debug, Default, Clone)]
pub struct ProxyOptions {
    /// The run's `/tmp/task_web_sid` on the host: a request naming the sid written there (a public
    /// setup mints its own) is mapped to the environment's sid instead of refused.
    pub sid_file: Option<PathBuf>,
    /// Headers added to every forwarded request (replacing any the script sent).
    pub headers: Vec<(String, String)>,
}

/// Start a forwarder for `role` pinned to `sid`, relaying to `upstream`.
pub async fn start(
    listen: Listen<'_>,
    role: Role,
    sid: &str,
    upstream: SocketAddr,
    body_limit: usize,
    opts: ProxyOptions,
) -> std::io::Result<(ProxyHandle, Option<SocketAddr>)> {
    let log = Arc::new(Mutex::new(ProxyLog::default()));
    let state = Arc::new(ProxyState {
        role,
        sid: sid.to_string(),
        sid_file: opts.sid_file,
        headers: opts.headers,
        upstream,
        body_limit,
        log: log.clone(),
    });
    let app = Router::new().fallback(handle).with_state(state);
    let (tx, rx) = oneshot::channel::<()>();
    let shutdown = async move {
        let _ = rx.await;
    };
    let (task, addr) = match listen {
        Listen::Unix(path) => {
            let listener = UnixListener::bind(path)?;
            std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o666))?;
            let task = tokio::spawn(async move {
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(shutdown)
                    .await;
            });
            (task, None)
        }
        Listen::UnixTls(path, config) => {
            let listener = UnixListener::bind(path)?;
            std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o666))?;
            let tls = super::tls_listener::TlsUnixListener::new(listener, config);
            let task = tokio::spawn(async move {
                let _ = axum::serve(tls, app).with_graceful_shutdown(shutdown).await;
            });
            (task, None)
        }
        Listen::LoopbackTcp => {
            let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
            let addr = listener.local_addr()?;
            let task = tokio::spawn(async move {
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(shutdown)
                    .await;
            });
            (task, Some(addr))
        }
    };
    Ok((
        ProxyHandle {
            stop: Some(tx),
            task,
            log,
        },
        addr,
    ))
}

/// Read at most `limit` bytes of body; `None` if it is longer (or broken). An over-long body is
/// still drained (up to 16x the limit) so the client reads our 413 instead of a connection reset.
async fn read_body(mut body: Body, limit: usize) -> Option<Bytes> {
    let mut buf: Vec<u8> = Vec::new();
    let mut seen: usize = 0;
    let drain_cap = limit.saturating_mul(16);
    loop {
        let frame = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await;
        let frame = match frame {
            None => break,
            Some(Err(_)) => return None,
            Some(Ok(f)) => f,
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        seen = seen.saturating_add(data.len());
        if seen <= limit {
            buf.extend_from_slice(&data);
        } else if seen > drain_cap {
            return None;
        }
    }
    (seen <= limit).then(|| Bytes::from(buf))
}

fn json_error(status: StatusCode, error: &str, detail: &str) -> Response {
    (
        status,
        axum::Json(json!({"error": error, "detail": detail})),
    )
        .into_response()
}

fn query_sids(uri: &Uri) -> Vec<String> {
    let pairs: Vec<(String, String)> = Query::try_from_uri(uri)
        .map(|Query(q)| q)
        .unwrap_or_default();
    pairs
        .into_iter()
        .filter(|(k, _)| k == "sid")
        .map(|(_, v)| v)
        .collect()
}

/// The sid a public setup wrote to the run's `/tmp/task_web_sid`, when it differs from ours.
fn minted_sid(st: &ProxyState) -> Option<String> {
    let path = st.sid_file.as_ref()?;
    let mut text = String::new();
    let file = std::fs::File::open(path).ok()?;
    std::io::Read::read_to_string(&mut std::io::Read::take(file, 256), &mut text).ok()?;
    let sid = text.trim().to_string();
    (sid != st.sid && crate::env::validate_sid(&sid).is_ok()).then_some(sid)
}

/// `uri` with every `sid=<from>` query value and a `/files/<from>/` prefix naming `to` instead.
fn map_sid(uri: &Uri, from: &str, to: &str) -> Option<Uri> {
    let path = uri.path();
    let prefix = format!("/files/{from}/");
    let path = match path.strip_prefix(&prefix) {
        Some(rest) => format!("/files/{to}/{rest}"),
        None => path.to_string(),
    };
    let query = uri.query().map(|q| {
        q.split('&')
            .map(|pair| match pair.split_once('=') {
                Some(("sid", v)) if v == from => format!("sid={to}"),
                _ => pair.to_string(),
            })
            .collect::<Vec<_>>()
            .join("&")
    });
    let target = match query {
        Some(q) => format!("{path}?{q}"),
        None => path,
    };
    target.parse().ok()
}

async fn handle(State(st): State<Arc<ProxyState>>, req: Request) -> Response {
    let (mut parts, body) = req.into_parts();
    if let Some(minted) = minted_sid(&st) {
        if let Some(uri) = map_sid(&parts.uri, &minted, &st.sid) {
            parts.uri = uri;
        }
    }
    let bytes = match read_body(body, st.body_limit).await {
        Some(b) => b,
        None => {
            return json_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                &format!("request body over {} bytes", st.body_limit),
            )
        }
    };
    let method = parts.method.as_str().to_string();
    let path = parts.uri.path().to_string();
    let action = if method == "POST" && path == "/post" {
        match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Ok(v) => v.get("action").and_then(|a| a.as_str()).map(str::to_string),
            Err(e) => {
                return json_error(
                    StatusCode::BAD_REQUEST,
                    "malformed_json",
                    &format!("POST /post body is not JSON: {e}"),
                )
            }
        }
    } else {
        None
    };
    let sids = query_sids(&parts.uri);
    let view = RequestView {
        method: &method,
        path: &path,
        query_sids: &sids,
        action: action.as_deref(),
    };
    if let Err(reason) = policy::check(st.role, &st.sid, &view) {
        let target = parts
            .uri
            .path_and_query()
            .map(|p| p.as_str().to_string())
            .unwrap_or(path);
        st.log
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .refused
            .push(RefusedRequest {
                method,
                target,
                action,
                reason: reason.clone(),
            });
        return json_error(StatusCode::FORBIDDEN, "forbidden", &reason);
    }
    match forward(&st, parts, bytes).await {
        Ok(resp) => {
            st.log.lock().unwrap_or_else(|p| p.into_inner()).forwarded += 1;
            resp
        }
        Err(e) => json_error(
            StatusCode::BAD_GATEWAY,
            "upstream_unreachable",
            &format!("state API server at {} failed: {e}", st.upstream),
        ),
    }
}

const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

fn strip_hop_by_hop(headers: &mut HeaderMap) {
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
}

async fn forward(
    st: &ProxyState,
    parts: axum::http::request::Parts,
    bytes: Bytes,
) -> Result<Response, Box<dyn std::error::Error + Send + Sync>> {
    let stream = TcpStream::connect(st.upstream).await?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(conn);
    let target = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "/".to_string());
    let mut headers = parts.headers;
    strip_hop_by_hop(&mut headers);
    headers.remove(header::CONTENT_LENGTH);
    headers.insert(
        header::HOST,
        HeaderValue::from_str(&st.upstream.to_string())?,
    );
    headers.insert(
        HeaderName::from_static(tuplewright_base::access::forwarder::ROLE_HEADER),
        HeaderValue::from_static(st.role.as_str()),
    );
    // A header the script sent that only the forwarder may set (the secret comes with `headers`
    // for this process's own apps, see `WebApi::forward_headers`).
    headers.remove(tuplewright_base::access::forwarder::FORWARDER_HEADER);
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
    for (k, v) in &st.headers {
        headers.insert(
            HeaderName::from_bytes(k.as_bytes())?,
            HeaderValue::from_str(v)?,
        );
    }
    let mut builder = axum::http::Request::builder()
        .method(parts.method)
        .uri(target)
        .version(Version::HTTP_11);
    if let Some(h) = builder.headers_mut() {
        *h = headers;
    }
    let upstream_req = builder.body(Body::from(bytes))?;
    let resp = sender.send_request(upstream_req).await?;
    let (mut rparts, incoming) = resp.into_parts();
    strip_hop_by_hop(&mut rparts.headers);
    Ok(Response::from_parts(rparts, Body::new(incoming)))
}
