//! The HTTP handlers of the state API. Every error is JSON `{"error", "detail"}` with its
//! status; role checks happen here, before any state is touched.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Multipart, Path, Query, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

pub use super::api_error::ApiError;
use super::post_body::{BodyError, PostBody};
use super::role::{Role, ROLE_HEADER};
use super::server::AppState;
use super::session::Prepared;
use super::store::Encoding;
use super::uploads::{self, UploadedFile};
use super::{validate_sid, EnvError};

type ApiResult = Result<Response, ApiError>;
type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

fn json_bytes(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn sid_of(params: Params) -> Result<String, ApiError> {
    let Query(params) =
        params.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_query", e.body_text()))?;
    let sid = params.get("sid").ok_or_else(|| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "missing_sid",
            "the `sid` query parameter is required",
        )
    })?;
    validate_sid(sid)?;
    Ok(sid.clone())
}

fn role_of(
    st: &AppState,
    headers: &HeaderMap,
    method: &Method,
    path: &str,
) -> Result<Role, ApiError> {
    let raw = headers
        .get(ROLE_HEADER)
        .map(|v| v.to_str().unwrap_or("<non-ascii>"));
    Role::from_header(raw).ok_or_else(|| {
        st.audit.refuse(
            st.app.name(),
            raw.unwrap_or_default(),
            method.as_str(),
            path,
            None,
        );
        ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            format!(
                "unknown role {:?} in {ROLE_HEADER}",
                raw.unwrap_or_default()
            ),
        )
    })
}

fn refuse(
    st: &AppState,
    role: Role,
    method: &Method,
    path: &str,
    action: Option<&str>,
) -> ApiError {
    st.audit.refuse(
        st.app.name(),
        &role.to_string(),
        method.as_str(),
        path,
        action,
    );
    let what = action
        .map(|a| format!("action {a:?}"))
        .unwrap_or_else(|| format!("{method} {path}"));
    ApiError::new(
        StatusCode::FORBIDDEN,
        "forbidden",
        format!("role {role} may not perform {what}; the refusal was recorded"),
    )
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, EnvError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                format!("worker failed: {e}"),
            )
        })?
        .map_err(ApiError::from)
}

/// `GET /health`.
pub async fn health(State(st): State<Arc<AppState>>) -> Response {
    axum::Json(json!({
        "ok": true,
        "app": st.app.name(),
        "port": st.app.manifest.port,
        "refused_writes": st.audit.count(),
        "cached_sessions": st.store.cached_len(),
        "cache": st.store.cache_stats(),
        "journal": {
            "records": st.store.journal_stats().records.load(Ordering::Relaxed),
            "batches": st.store.journal_stats().batches.load(Ordering::Relaxed),
            "max_batch": st.store.journal_stats().max_batch.load(Ordering::Relaxed),
            "checkpoints": st.store.journal_stats().checkpoints.load(Ordering::Relaxed),
        },
        "connections": st.conns.snapshot(),
        "access": st.access.report(),
        "config": config_report(&st.config),
    }))
    .into_response()
}

/// The settings `/health` reports: what the server was started with (`[env]` and flags).
fn config_report(c: &crate::env::ServerConfig) -> serde_json::Value {
    json!({
        "host": c.host.to_string(),
        "state_dir": c.state_dir.display().to_string(),
        "body_limit_bytes": c.body_limit_bytes,
        "session_ttl_secs": c.session_ttl_secs,
        "gc_interval_secs": c.gc_interval_secs,
        "cache_bytes": c.cache_bytes,
        "cache_capacity": c.cache_capacity,
        "fsync": c.fsync,
        "checkpoint_bytes": c.checkpoint_bytes,
        "file_lag_ms": c.file_lag_ms,
        "commit_delay_us": c.commit_delay_us,
        "max_connections": c.max_connections,
        "header_timeout_ms": c.header_timeout_ms,
        "idle_timeout_ms": c.idle_timeout_ms,
    })
}

/// `GET /go?sid=` (gzip-encoded when the client's `Accept-Encoding` allows it).
pub async fn go(State(st): State<Arc<AppState>>, params: Params, headers: HeaderMap) -> ApiResult {
    let sid = sid_of(params)?;
    let encoding = if accepts_gzip(&headers) {
        Encoding::Gzip
    } else {
        Encoding::Identity
    };
    let body = match st.store.cached_go_body(&sid, encoding) {
        Some(body) => body,
        None => {
            let store = st.store.clone();
            blocking(move || store.go_body(&sid, encoding)).await?
        }
    };
    let body = Body::new(body);
    Ok(match encoding {
        Encoding::Identity => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Encoding::Gzip => (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CONTENT_ENCODING, "gzip"),
                (header::VARY, "accept-encoding"),
            ],
            body,
        )
            .into_response(),
    })
}

/// Whether `Accept-Encoding` lists `gzip` (or `*`) with a non-zero quality.
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or_default();
            let q_zero = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !q_zero
        })
}

/// `GET /state?sid=`.
pub async fn state(State(st): State<Arc<AppState>>, params: Params) -> ApiResult {
    let sid = sid_of(params)?;
    let store = st.store.clone();
    let snap = blocking({
        let sid = sid.clone();
        move || store.snapshot(&sid)
    })
    .await?;
    Ok(json_bytes(snap.state_body(&sid)))
}

/// `POST /post?sid=` with `{"action", "state", "merge"?}`.
pub async fn post(State(st): State<Arc<AppState>>, params: Params, req: Request) -> ApiResult {
    let sid = sid_of(params)?;
    let role = role_of(&st, req.headers(), req.method(), "/post")?;
    if role == Role::Reader {
        return Err(refuse(&st, role, &Method::POST, "/post", None));
    }
    // While this write is read and prepared, a journal sync may wait for it (group commit).
    let arrival = st.store.arrival();
    let body = read_body(req.into_body(), st.body_limit).await?;
    let parsed = PostBody::parse(&body).map_err(|e| match e {
        BodyError::Malformed(detail) => {
            ApiError::new(StatusCode::BAD_REQUEST, "malformed_json", detail)
        }
        BodyError::MissingAction => ApiError::new(
            StatusCode::BAD_REQUEST,
            "unknown_action",
            "missing `action`",
        ),
    })??;
    let action = parsed.action;
    if !role.may_post(action.as_str()) {
        return Err(refuse(
            &st,
            role,
            &Method::POST,
            "/post",
            Some(action.as_str()),
        ));
    }
    let prepared = Prepared::from_raw(&st.app, action, parsed.state, &body)?;
    // A cached session is written without a blocking thread (the sync is awaited), and the
    // arrival goes once its record is queued; otherwise (a file to read, or a reset's file
    // deletions) on the blocking pool, the arrival gone before.
    let state_id = match st.store.apply_cached(&sid, prepared, arrival).await {
        Ok(written) => written?,
        Err(prepared) => {
            let store = st.store.clone();
            blocking({
                let sid = sid.clone();
                move || store.apply_prepared(&sid, prepared)
            })
            .await?
        }
    };
    Ok(axum::Json(
        json!({"success": true, "sid": sid, "action": action.as_str(), "state_id": state_id}),
    )
    .into_response())
}

/// How much of an oversized body is read and discarded before answering 413, so that a client
/// still sending its body (Python `urllib`/`requests` do) reads the 413 instead of a reset.
const DRAIN_CAP: usize = 64 * 1024 * 1024;

async fn read_body(body: Body, limit: usize) -> Result<Bytes, ApiError> {
    use http_body_util::BodyExt;
    let mut body = body;
    // The exact size when the client sent a Content-Length: one allocation, no spare capacity
    // (a `set_current` snapshot may keep this buffer, see `post_body::compact_in`).
    let hint = http_body::Body::size_hint(&body).lower();
    let mut buf = Vec::with_capacity((hint as usize).min(limit));
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_body",
                format!("reading the body: {e}"),
            )
        })?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        total = total.saturating_add(data.len());
        if total > DRAIN_CAP.max(limit) {
            break;
        }
        if total <= limit {
            buf.extend_from_slice(&data);
        }
    }
    if total > limit {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("the body ({total} bytes or more) exceeds the limit of {limit} bytes"),
        ));
    }
    Ok(Bytes::from(buf))
}

/// `POST /upload?sid=` (multipart; every part with a file name is stored).
pub async fn upload(State(st): State<Arc<AppState>>, params: Params, req: Request) -> ApiResult {
    let sid = sid_of(params)?;
    let role = role_of(&st, req.headers(), &Method::POST, "/upload")?;
    if !role.may_upload() {
        return Err(refuse(&st, role, &Method::POST, "/upload", None));
    }
    let mut multipart = Multipart::from_request(req, &())
        .await
        .map_err(|e| ApiError::new(e.status(), code_for(e.status()), e.body_text()))?;
    let store = st.store.clone();
    blocking({
        let sid = sid.clone();
        move || store.ensure(&sid)
    })
    .await?;
    let dir = st.store.uploads_dir(&sid);
    let mut files: Vec<UploadedFile> = Vec::new();
    loop {
        let field = multipart
            .next_field()
            .await
            .map_err(|e| ApiError::new(e.status(), code_for(e.status()), e.body_text()))?;
        let Some(field) = field else { break };
        let Some(original) = field.file_name().map(str::to_string) else {
            continue;
        };
        let content_type = field
            .content_type()
            .map(str::to_string)
            .unwrap_or_else(|| uploads::guess_content_type(&original).to_string());
        let data = field
            .bytes()
            .await
            .map_err(|e| ApiError::new(e.status(), code_for(e.status()), e.body_text()))?;
        let stored = uploads::stored_name(&original);
        let size = data.len() as u64;
        let dir = dir.clone();
        let name = stored.clone();
        blocking(move || uploads::write_atomic(&dir, &name, &data)).await?;
        files.push(UploadedFile {
            url: format!("/files/{sid}/{stored}"),
            original_name: original,
            stored_name: stored,
            size,
            content_type,
        });
    }
    if files.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "no_files",
            "the multipart body holds no part with a file name",
        ));
    }
    Ok(axum::Json(json!({"success": true, "sid": sid, "files": files})).into_response())
}

fn code_for(status: StatusCode) -> &'static str {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        "payload_too_large"
    } else {
        "bad_multipart"
    }
}

/// `GET /files/<sid>/<name>`.
pub async fn file(
    State(st): State<Arc<AppState>>,
    Path((sid, name)): Path<(String, String)>,
) -> ApiResult {
    validate_sid(&sid)?;
    uploads::validate_name(&name)?;
    let path = st.store.uploads_dir(&sid).join(&name);
    match tokio::fs::read(&path).await {
        Ok(data) => Ok((
            [(header::CONTENT_TYPE, uploads::guess_content_type(&name))],
            data,
        )
            .into_response()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no file {name:?} in session {sid:?}"),
        )),
        Err(e) => Err(EnvError::io("read upload", path, e).into()),
    }
}

/// `DELETE /session?sid=`.
pub async fn delete_session(
    State(st): State<Arc<AppState>>,
    params: Params,
    headers: HeaderMap,
) -> ApiResult {
    let sid = sid_of(params)?;
    let role = role_of(&st, &headers, &Method::DELETE, "/session")?;
    if !role.may_delete() {
        return Err(refuse(&st, role, &Method::DELETE, "/session", None));
    }
    let store = st.store.clone();
    let existed = blocking({
        let sid = sid.clone();
        move || store.delete(&sid)
    })
    .await?;
    Ok(axum::Json(json!({"success": true, "sid": sid, "existed": existed})).into_response())
}

/// Any other path: 404 JSON (403, recorded, when a reader tries anything but a read).
pub async fn not_found(
    State(st): State<Arc<AppState>>,
    method: Method,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> ApiError {
    if let Ok(role) = role_of(&st, &headers, &method, uri.path()) {
        if role == Role::Reader && method != Method::GET && method != Method::HEAD {
            return refuse(&st, role, &method, uri.path(), None);
        }
    }
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no endpoint {method} {}", uri.path()),
    )
}

/// A known path with the wrong method: 405 JSON (and recorded when a reader tries to write).
pub async fn method_not_allowed(
    State(st): State<Arc<AppState>>,
    method: Method,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> ApiError {
    if let Ok(role) = role_of(&st, &headers, &method, uri.path()) {
        if role == Role::Reader && method != Method::GET && method != Method::HEAD {
            return refuse(&st, role, &method, uri.path(), None);
        }
    }
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{method} is not allowed on {}", uri.path()),
    )
}
