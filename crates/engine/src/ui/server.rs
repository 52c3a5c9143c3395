//! The agent-facing origin: one loopback port bound to one session of one app.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::page::{document, not_found, Flash};
use super::{app_ui, AppUi, Ctx, FormData, Today, UiError};
use crate::env::conn::{self, ConnLimits, ConnStats};
use crate::env::SessionStore;

/// How a UI origin is started.
#[derive(Debug, Clone)]
pub struct UiOptions {
    /// The environment's fixed clock.
    pub today: Today,
}

struct UiState {
    ui: &'static dyn AppUi,
    store: Arc<SessionStore>,
    sid: String,
    ctx: Ctx,
    flash: Mutex<Option<Flash>>,
}

/// A running UI origin; dropping it stops the server.
pub struct UiHandle {
    /// The bound loopback address.
    pub addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl UiHandle {
    /// `http://127.0.0.1:<port>/`, the page Chromium opens.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// `127.0.0.1:<port>`, the only origin the browser may reach.
    pub fn host_port(&self) -> String {
        self.addr.to_string()
    }

    /// Stops accepting and waits for the server task.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for UiHandle {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// Serves the UI of the store's app for session `sid` on a fresh loopback port (must be called
/// inside a tokio runtime).
pub async fn start(
    store: Arc<SessionStore>,
    sid: &str,
    opts: UiOptions,
) -> Result<UiHandle, UiError> {
    let app = store.app().name().to_string();
    let ui = app_ui(&app).ok_or(UiError::NoUi(app))?;
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .map_err(UiError::Bind)?;
    let addr = listener.local_addr().map_err(UiError::Bind)?;
    let state = Arc::new(UiState {
        ui,
        store,
        sid: sid.to_string(),
        ctx: Ctx { today: opts.today },
        flash: Mutex::new(None),
    });
    let router = Router::new()
        .route("/style.css", get(style))
        .route("/op/{name}", post(op))
        .fallback(get(page))
        .with_state(state);
    let (stop, rx) = watch::channel(false);
    let limits = ConnLimits {
        max_connections: 64,
        header_timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(60),
    };
    let task = tokio::spawn(conn::serve(
        listener,
        router,
        limits,
        Arc::new(ConnStats::default()),
        rx,
    ));
    Ok(UiHandle {
        addr,
        stop,
        task: Some(task),
    })
}

async fn style(State(st): State<Arc<UiState>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        st.ui.css(),
    )
        .into_response()
}

fn html(status: StatusCode, body: maud::Markup) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.into_string(),
    )
        .into_response()
}

fn infra(detail: String) -> Response {
    tracing::error!(detail, "UI origin failed");
    html(
        StatusCode::INTERNAL_SERVER_ERROR,
        document(
            "/",
            "Error",
            None,
            maud::html! { main.notfound { h1 { "The server failed" } p { (detail) } } },
        ),
    )
}

async fn page(State(st): State<Arc<UiState>>, uri: Uri) -> Response {
    let path = uri.path().to_string();
    let s = st.clone();
    let current = tokio::task::spawn_blocking(move || {
        s.store
            .snapshot(&s.sid)
            .and_then(|snap| snap.current.value())
    })
    .await;
    let state = match current {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => return infra(e.to_string()),
        Err(e) => return infra(format!("worker failed: {e}")),
    };
    let Some((title, body)) = st.ui.page(&path, &state, &st.ctx) else {
        return html(StatusCode::NOT_FOUND, not_found(&path));
    };
    let flash = st.flash.lock().unwrap_or_else(|p| p.into_inner()).take();
    html(
        StatusCode::OK,
        document(&path, &title, flash.as_ref(), body),
    )
}

/// A local path to return to: absolute, not protocol-relative, no scheme.
fn local(path: Option<&str>) -> String {
    match path {
        Some(p) if p.starts_with('/') && !p.starts_with("//") && !p.contains('\\') => p.into(),
        _ => "/".into(),
    }
}

async fn op(
    State(st): State<Arc<UiState>>,
    Path(name): Path<String>,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    if !st.ui.knows(&name) {
        return html(StatusCode::NOT_FOUND, not_found(&format!("/op/{name}")));
    }
    let form = FormData(pairs);
    let back = local(form.get("back"));
    let s = st.clone();
    let op = name.clone();
    let result = tokio::task::spawn_blocking(move || {
        s.store
            .update(&s.sid, |state| s.ui.apply(&name, &form, &s.ctx, state))
    })
    .await;
    let (flash, go) = match result {
        Ok(Ok(Ok((_, done)))) => (
            Flash {
                error: false,
                text: done.message,
                op,
            },
            done.go.unwrap_or(back),
        ),
        Ok(Ok(Err(e))) => (
            Flash {
                error: true,
                text: e.0,
                op,
            },
            back,
        ),
        Ok(Err(e)) => return infra(e.to_string()),
        Err(e) => return infra(format!("worker failed: {e}")),
    };
    *st.flash.lock().unwrap_or_else(|p| p.into_inner()) = Some(flash);
    Redirect::to(&go).into_response()
}
