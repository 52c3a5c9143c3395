//! The OSWorld guest-server routes over a [`Guest`], with the request and response shapes of
//! OSWorld's `desktop_env/server/main.py` (status codes included). Screen and window calls run on
//! blocking threads; commands run in the sandbox.

use std::future::Future;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::command::{exec_wrapper, GuestCommand};
use super::guest::Guest;
use super::server_files;
use super::windows::{self, Match, KEPT_CLASSES};
use super::OsworldError;
use crate::sandbox::{Outcome, RunResult};
use crate::screen::DesktopWindows;
use tuplewright_base::access::{guard, Access, GuardedListener, Peer};

type Shared = State<Arc<Guest>>;

/// The router of every endpoint.
pub fn router(guest: Arc<Guest>) -> Router {
    let limit = guest.max_file_bytes() + (1 << 20);
    Router::new()
        .route("/screenshot", get(screenshot))
        .route("/execute", post(execute))
        .route("/setup/execute", post(execute))
        .route("/run_python", post(run_python))
        .route("/run_bash_script", post(run_bash_script))
        .route("/setup/upload", post(server_files::upload))
        .route("/file", post(server_files::file))
        .route("/list_directory", post(server_files::list_directory))
        .route("/accessibility", get(accessibility))
        .route("/screen_size", post(screen_size))
        .route("/terminal", get(terminal))
        .route("/platform", get(|| async { "Linux" }))
        .route("/setup/launch", post(launch))
        .route("/setup/open_file", post(open_file))
        .route("/setup/activate_window", post(activate_window))
        .route("/setup/close_window", post(close_window))
        .layer(DefaultBodyLimit::max(limit))
        .with_state(guest)
}

/// Serves `guest` on `listener` behind `access` (token, allow list, TLS; every endpoint) until
/// `shutdown` resolves.
pub async fn serve(
    guest: Arc<Guest>,
    listener: tokio::net::TcpListener,
    access: Arc<Access>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = GuardedListener::new(listener, &access)?;
    let report = access.clone();
    // Not in OSWorld's protocol: the access counters, as the state API's /health has them.
    let health = move || {
        let r = report.report();
        async move { Json(json!({"ok": true, "access": r})) }
    };
    let app = router(guest)
        .route("/health", get(health))
        .layer(axum::middleware::from_fn_with_state(access, guard));
    axum::serve(listener, app.into_make_service_with_connect_info::<Peer>())
        .with_graceful_shutdown(shutdown)
        .await
}

/// `{status: error, message}` with `code`.
pub(super) fn error(code: StatusCode, message: impl Into<String>) -> Response {
    (
        code,
        Json(json!({"status": "error", "message": message.into()})),
    )
        .into_response()
}

/// The status an error answers with.
pub(super) fn status_of(e: &OsworldError) -> StatusCode {
    match e {
        OsworldError::BadRequest(_) => StatusCode::BAD_REQUEST,
        OsworldError::NotFound(_) => StatusCode::NOT_FOUND,
        OsworldError::Task(_) | OsworldError::Infra(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

fn fail(e: OsworldError) -> Response {
    error(status_of(&e), e.to_string())
}

/// The body as JSON whatever its content type (Flask's `request.json` with the clients' header).
pub(super) fn json_body(body: &Bytes) -> Result<Value, String> {
    if body.is_empty() {
        return Ok(json!({}));
    }
    serde_json::from_slice(body).map_err(|e| format!("the request body is not JSON: {e}"))
}

/// Runs `f` with the guest on a blocking thread.
pub(super) async fn blocking<T: Send + 'static>(
    guest: &Arc<Guest>,
    f: impl FnOnce(&Guest) -> Result<T, OsworldError> + Send + 'static,
) -> Result<T, OsworldError> {
    let g = guest.clone();
    tokio::task::spawn_blocking(move || f(&g))
        .await
        .map_err(|e| OsworldError::Infra(format!("a guest task failed: {e}")))?
}

async fn screenshot(State(g): Shared) -> Response {
    match blocking(&g, |g| g.screenshot()).await {
        Ok(shot) => ([(header::CONTENT_TYPE, "image/png")], shot.png).into_response(),
        Err(e) => fail(e),
    }
}

fn exit_code(r: &RunResult) -> Option<i32> {
    match r.outcome {
        Outcome::Ok => Some(0),
        Outcome::ExitCode { code } => Some(code),
        _ => None,
    }
}

/// Why a run has no exit code (timeout, limit, signal), in OSWorld's words where it has some.
fn abnormal(r: &RunResult) -> String {
    crate::sandbox::describe(&r.outcome).unwrap_or_default()
}

async fn execute(State(g): Shared, body: Bytes) -> Response {
    let body = match json_body(&body) {
        Ok(b) => b,
        Err(m) => return error(StatusCode::BAD_REQUEST, m),
    };
    let cmd = match GuestCommand::from_request(&body) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let secs = g.timeouts().execute_secs;
    match g
        .python(
            "osworld_execute.py",
            exec_wrapper(&cmd.argv(), None, false),
            secs,
        )
        .await
    {
        Ok(r) => match exit_code(&r) {
            Some(code) => Json(json!({"status": "success", "output": r.stdout.text,
                "error": r.stderr.text, "returncode": code}))
            .into_response(),
            None => error(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("Command {:?} did not finish: {}", cmd.argv(), abnormal(&r)),
            ),
        },
        Err(e) => fail(e),
    }
}

async fn run_python(State(g): Shared, body: Bytes) -> Response {
    let body = match json_body(&body) {
        Ok(b) => b,
        Err(m) => return error(StatusCode::BAD_REQUEST, m),
    };
    let Some(code) = body
        .get("code")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
    else {
        return error(StatusCode::BAD_REQUEST, "Code not supplied!");
    };
    let secs = g.timeouts().python_secs;
    let r = match g.python("python_exec.py", code.to_string(), secs).await {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let Some(rc) = exit_code(&r) else {
        let timeout = matches!(r.outcome, Outcome::Timeout { .. });
        let message = if timeout {
            "Execution timeout: Code took too long to execute".to_string()
        } else {
            format!("Execution error: {}", abnormal(&r))
        };
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"status": "error", "message": message,
                "error": if timeout { "TimeoutExpired".to_string() } else { r.stderr.text.clone() },
                "need_more": false, "output": null})),
        )
            .into_response();
    };
    let (out, mut err) = (r.stdout.text, r.stderr.text);
    if rc != 0 && err.is_empty() {
        err = format!("Process exited with code {rc}");
    }
    let message = match (out.is_empty(), err.is_empty()) {
        (_, true) => out.clone(),
        (true, false) => err.clone(),
        (false, false) => format!("{out}\n{err}"),
    };
    Json(
        json!({"status": if rc == 0 { "success" } else { "error" }, "message": message,
        "need_more": false, "output": out, "error": err, "return_code": rc}),
    )
    .into_response()
}

/// Exit code of the wrapper when the working directory is missing.
const NO_CWD_EXIT: i32 = 125;

async fn run_bash_script(State(g): Shared, body: Bytes) -> Response {
    let body = match json_body(&body) {
        Ok(b) => b,
        Err(m) => return error(StatusCode::BAD_REQUEST, m),
    };
    let bash_error = |code: StatusCode, output: String| {
        (
            code,
            Json(json!({"status": "error", "output": output, "error": "", "returncode": -1})),
        )
            .into_response()
    };
    let Some(script) = body
        .get("script")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    else {
        return bash_error(StatusCode::BAD_REQUEST, "Script not supplied!".into());
    };
    let timeout = body
        .get("timeout")
        .and_then(Value::as_f64)
        .unwrap_or(100.0)
        .clamp(1.0, g.timeouts().max_script_secs);
    let cwd = body
        .get("working_dir")
        .and_then(Value::as_str)
        .map(super::command::expand_home);
    let argv = vec![
        "/bin/bash".to_string(),
        "-c".to_string(),
        script.to_string(),
    ];
    let r = match g
        .python(
            "osworld_bash.py",
            exec_wrapper(&argv, cwd.as_deref(), true),
            timeout,
        )
        .await
    {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    match exit_code(&r) {
        Some(NO_CWD_EXIT)
            if r.stderr
                .text
                .starts_with("working directory does not exist") =>
        {
            bash_error(
                StatusCode::BAD_REQUEST,
                format!(
                    "Working directory does not exist: {}",
                    cwd.unwrap_or_default()
                ),
            )
        }
        Some(rc) => Json(json!({"status": if rc == 0 { "success" } else { "error" },
            "output": r.stdout.text, "error": "", "returncode": rc}))
        .into_response(),
        None if matches!(r.outcome, Outcome::Timeout { .. }) => bash_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("Script execution timed out after {timeout} seconds"),
        ),
        None => bash_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("Script did not finish: {}", abnormal(&r)),
        ),
    }
}

async fn accessibility(State(g): Shared) -> Response {
    let r = blocking(&g, super::page_tree::accessibility).await;
    match r {
        Ok(xml) => Json(json!({"AT": xml})).into_response(),
        Err(e) => fail(e),
    }
}

async fn screen_size(State(g): Shared) -> Response {
    match blocking(&g, |g| g.size()).await {
        Ok((w, h)) => Json(json!({"width": w, "height": h})).into_response(),
        Err(e) => fail(e),
    }
}

/// The liveness probe: the screen answers. This desktop's terminal (xterm) exposes no text, so
/// `output` is null, as OSWorld's server answers when no terminal is focused.
async fn terminal(State(g): Shared) -> Response {
    match blocking(&g, |g| g.size().and_then(|_| g.screenshot().map(|_| ()))).await {
        Ok(()) => Json(json!({"output": null, "status": "success"})).into_response(),
        Err(e) => fail(e),
    }
}

async fn launch(State(g): Shared, body: Bytes) -> Response {
    let body = match json_body(&body) {
        Ok(b) => b,
        Err(m) => return error(StatusCode::BAD_REQUEST, m),
    };
    let cmd = match GuestCommand::from_request(&body) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let text = cmd.argv().join(" ");
    match blocking(&g, move |g| g.launch(&cmd)).await {
        Ok(()) => format!("{text} launched successfully").into_response(),
        Err(e) => fail(e),
    }
}

/// How long `/setup/open_file` waits for the window (OSWorld waits up to 1800 s).
const OPEN_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

async fn open_file(State(g): Shared, body: Bytes) -> Response {
    let body = match json_body(&body) {
        Ok(b) => b,
        Err(m) => return error(StatusCode::BAD_REQUEST, m),
    };
    let Some(path) = body
        .get("path")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
    else {
        return (StatusCode::BAD_REQUEST, "Path not supplied!").into_response();
    };
    let path = super::command::expand_home(path);
    let r = blocking(&g, move |g| {
        let exists = g.host_path(&path).is_some_and(|p| p.exists());
        let (argv, name) = match g.opener(&path).filter(|_| exists) {
            Some(prog) => {
                let name = path.rsplit('/').next().unwrap_or(&path).to_string();
                (vec![prog.display().to_string(), path.clone()], name)
            }
            None if !path.contains('/') => (vec![path.clone()], path.clone()),
            None => {
                return Err(OsworldError::NotFound(format!(
                    "Application/file not found: {path}"
                )))
            }
        };
        g.launch(&GuestCommand::Argv(argv))?;
        let stem = name
            .rsplit_once('.')
            .map_or(name.as_str(), |(s, _)| s)
            .to_string();
        let windows = DesktopWindows::connect(&g.display_name())?;
        let mut found = None;
        g.wait_until(OPEN_WAIT, || {
            found = windows::find(&windows, &stem, Match::default())?;
            Ok(found.is_some())
        })?;
        match found {
            Some(w) => Ok(windows.activate(w.id)?),
            None => Err(OsworldError::Task(format!(
                "Failed to find window for {name} within {} seconds.",
                OPEN_WAIT.as_secs()
            ))),
        }
    })
    .await;
    match r {
        Ok(()) => "File opened and window activated successfully".into_response(),
        Err(e) => (status_of(&e), e.to_string()).into_response(),
    }
}

/// `/setup/activate_window` and `/setup/close_window`.
async fn window_op(g: Arc<Guest>, body: Bytes, close: bool) -> Response {
    let body = match json_body(&body) {
        Ok(b) => b,
        Err(m) => return error(StatusCode::BAD_REQUEST, m),
    };
    let Some(name) = body
        .get("window_name")
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return (StatusCode::BAD_REQUEST, "window_name required").into_response();
    };
    let how = Match {
        strict: body.get("strict").and_then(Value::as_bool).unwrap_or(false),
        by_class: body
            .get("by_class")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    };
    let r = blocking(&g, move |g| {
        let windows = DesktopWindows::connect(&g.display_name())?;
        let w = windows::find(&windows, &name, how)?
            .ok_or_else(|| OsworldError::NotFound(format!("Window {name} not found")))?;
        if !close {
            return Ok(windows.activate(w.id)?);
        }
        if KEPT_CLASSES.contains(&w.class.as_str()) {
            return Err(OsworldError::BadRequest(format!(
                "window {:?} is the desktop's own {} (it stays open for the environment's life)",
                w.title, w.class
            )));
        }
        Ok(windows.close(w.id)?)
    })
    .await;
    match r {
        Ok(()) if close => "Window closed successfully.".into_response(),
        Ok(()) => "Window activated successfully".into_response(),
        Err(e) => (status_of(&e), e.to_string()).into_response(),
    }
}

async fn activate_window(State(g): Shared, body: Bytes) -> Response {
    window_op(g, body, false).await
}

async fn close_window(State(g): Shared, body: Bytes) -> Response {
    window_op(g, body, true).await
}
