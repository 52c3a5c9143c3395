//! The file routes of the guest server: `/setup/upload` (multipart `file_path` + `file_data`),
//! `/file` (form `file_path`) and `/list_directory` (JSON `path`). The bytes move through the
//! sandbox as the environment's uid, so a path means what it means to the guest and a link in the
//! home cannot reach the host.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Multipart, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Form, Json};
use base64::Engine as _;
use serde_json::{json, Value};

use super::command::{list_wrapper, read_wrapper, write_wrapper, NOT_FOUND_EXIT, WRONG_KIND_EXIT};
use super::guest::Guest;
use super::server::json_body;
use crate::sandbox::{Outcome, RunResult};

fn err(code: StatusCode, message: String) -> Response {
    (code, Json(json!({"error": message}))).into_response()
}

/// The run's failure as `{error}` with 500 (a script error, a timeout, the sandbox down).
fn run_failed(what: &str, r: Result<&RunResult, String>) -> Response {
    let why = match r {
        Ok(r) => format!(
            "{}; {}",
            crate::sandbox::describe(&r.outcome).unwrap_or_default(),
            crate::sandbox::tail(&r.stderr.text, 3)
        ),
        Err(e) => e,
    };
    err(StatusCode::INTERNAL_SERVER_ERROR, format!("{what}: {why}"))
}

fn code(r: &RunResult) -> Option<i32> {
    match r.outcome {
        Outcome::Ok => Some(0),
        Outcome::ExitCode { code } => Some(code),
        _ => None,
    }
}

/// `POST /setup/upload`.
pub async fn upload(State(g): State<Arc<Guest>>, mut form: Multipart) -> Response {
    let (mut path, mut data): (Option<String>, Option<Bytes>) = (None, None);
    loop {
        match form.next_field().await {
            Ok(Some(field)) => {
                let name = field.name().unwrap_or_default().to_string();
                let bytes = match field.bytes().await {
                    Ok(b) => b,
                    Err(e) => {
                        return err(StatusCode::BAD_REQUEST, format!("reading part {name}: {e}"))
                    }
                };
                match name.as_str() {
                    "file_path" => path = Some(String::from_utf8_lossy(&bytes).into_owned()),
                    "file_data" => data = Some(bytes),
                    _ => {}
                }
            }
            Ok(None) => break,
            Err(e) => return err(StatusCode::BAD_REQUEST, format!("bad multipart body: {e}")),
        }
    }
    let (Some(path), Some(data)) = (path.filter(|p| !p.is_empty()), data) else {
        return err(
            StatusCode::BAD_REQUEST,
            "file_path and file_data are required".into(),
        );
    };
    if data.len() > g.max_file_bytes() {
        return err(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "file_data is {} bytes, more than this guest accepts ({})",
                data.len(),
                g.max_file_bytes()
            ),
        );
    }
    let secs = g.timeouts().file_secs;
    match g
        .python("osworld_upload.py", write_wrapper(&path, &data), secs)
        .await
    {
        Ok(r) if r.succeeded() => {
            format!("File Uploaded: {} bytes", r.stdout.text.trim()).into_response()
        }
        Ok(r) => run_failed("Failed to upload file", Ok(&r)),
        Err(e) => run_failed("Failed to upload file", Err(e.to_string())),
    }
}

/// `POST /file`.
pub async fn file(
    State(g): State<Arc<Guest>>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let Some(path) = form.get("file_path").filter(|p| !p.is_empty()) else {
        return err(StatusCode::BAD_REQUEST, "file_path is required".into());
    };
    let secs = g.timeouts().file_secs;
    let r = match g.python("osworld_file.py", read_wrapper(path), secs).await {
        Ok(r) => r,
        Err(e) => return run_failed("Failed to serve file", Err(e.to_string())),
    };
    match code(&r) {
        Some(0) if !r.stdout.truncated => {
            match base64::engine::general_purpose::STANDARD.decode(r.stdout.text.trim()) {
                Ok(bytes) => {
                    let name = path.rsplit('/').next().unwrap_or("file").replace('"', "");
                    (
                        [
                            (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                            (
                                header::CONTENT_DISPOSITION,
                                format!("attachment; filename=\"{name}\""),
                            ),
                        ],
                        bytes,
                    )
                        .into_response()
                }
                Err(e) => run_failed("Failed to serve file", Err(e.to_string())),
            }
        }
        Some(0) => err(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "{path} is larger than this guest serves ({} bytes)",
                g.max_file_bytes()
            ),
        ),
        Some(NOT_FOUND_EXIT) => err(StatusCode::NOT_FOUND, "File not found".into()),
        Some(WRONG_KIND_EXIT) => err(StatusCode::BAD_REQUEST, format!("{path} is a directory")),
        _ => run_failed("Failed to serve file", Ok(&r)),
    }
}

/// `POST /list_directory`.
pub async fn list_directory(State(g): State<Arc<Guest>>, body: Bytes) -> Response {
    let body = match json_body(&body) {
        Ok(b) => b,
        Err(m) => return err(StatusCode::BAD_REQUEST, m),
    };
    let Some(path) = body.get("path").and_then(Value::as_str) else {
        return err(StatusCode::BAD_REQUEST, "Missing 'path' parameter".into());
    };
    let secs = g.timeouts().file_secs;
    let r = match g.python("osworld_list.py", list_wrapper(path), secs).await {
        Ok(r) => r,
        Err(e) => return run_failed("Failed to list the directory", Err(e.to_string())),
    };
    match code(&r) {
        Some(0) => match serde_json::from_str::<Value>(&r.stdout.text) {
            Ok(tree) => Json(json!({"directory_tree": tree})).into_response(),
            Err(e) => run_failed("Failed to list the directory", Err(e.to_string())),
        },
        Some(NOT_FOUND_EXIT) => err(
            StatusCode::BAD_REQUEST,
            "The provided path is not a directory".into(),
        ),
        _ => run_failed("Failed to list the directory", Ok(&r)),
    }
}
