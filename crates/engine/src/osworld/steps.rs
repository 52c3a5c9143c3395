//! A task's `config` steps (OSWorld's `{type, parameters}` list, and CUA-Gym's loose
//! `{type: execute, command: […]}`) run on a guest: `download` (fetched here — a URL whose file
//! name the bundle directory holds is taken from the bundle — then uploaded), `upload_file`,
//! `execute` / `command`, `launch`, `open`, `sleep`, `activate_window`, `close_window`.
//! Any other type is refused by name. A failing step is [`OsworldError::Task`] naming its index.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use super::client::GuestClient;
use super::OsworldError;

/// Step types this provider runs.
pub const SUPPORTED: [&str; 9] = [
    "download",
    "upload_file",
    "execute",
    "command",
    "launch",
    "open",
    "sleep",
    "activate_window",
    "close_window",
];

/// Where steps run and with what deadlines.
pub struct StepCtx<'a> {
    /// The guest.
    pub client: &'a GuestClient,
    /// The bundle directory (local copies of downloaded files, `upload_file` sources).
    pub bundle_dir: &'a Path,
    /// Deadline of one step.
    pub step_timeout: Duration,
    /// Guest-side timeout of an `execute` step, seconds (run through `/run_bash_script`).
    pub script_timeout_secs: f64,
    /// The guest's screen size, for `{SCREEN_WIDTH}`-style placeholders.
    pub screen: (u32, u32),
}

fn task(i: usize, msg: impl std::fmt::Display) -> OsworldError {
    OsworldError::Task(format!("config[{i}]: {msg}"))
}

fn files(i: usize, params: &Value) -> Result<Vec<(String, String)>, OsworldError> {
    let list = params
        .get("files")
        .and_then(Value::as_array)
        .ok_or_else(|| task(i, "parameters.files must be a list"))?;
    list.iter()
        .enumerate()
        .map(|(j, f)| {
            let src = f
                .get("url")
                .or_else(|| f.get("local_path"))
                .and_then(Value::as_str);
            let dst = f.get("path").and_then(Value::as_str);
            src.zip(dst)
                .map(|(s, d)| (s.to_string(), d.to_string()))
                .ok_or_else(|| task(i, format!("files[{j}] needs url (or local_path) and path")))
        })
        .collect()
}

/// The bytes behind a `download` URL: the bundle's own file of that name, else a fetch.
fn fetch(i: usize, ctx: &StepCtx<'_>, url: &str) -> Result<Vec<u8>, OsworldError> {
    let name = url.rsplit('/').next().unwrap_or_default();
    let local = ctx.bundle_dir.join(name);
    if !name.is_empty() && !name.contains("..") {
        if let Ok(text) = tuplewright_records::bundle::nofollow::read_regular(&local) {
            return Ok(text.into_bytes());
        }
    }
    let r = reqwest::blocking::Client::new()
        .get(url)
        .timeout(ctx.step_timeout)
        .send()
        .and_then(|r| r.error_for_status())
        .and_then(|r| r.bytes())
        .map_err(|e| {
            OsworldError::Infra(format!(
                "config[{i}] download {url}: {e} (the bundle directory has no file {name:?} either)"
            ))
        })?;
    Ok(r.to_vec())
}

fn placeholders(text: &str, (w, h): (u32, u32)) -> String {
    text.replace("{SCREEN_WIDTH}", &w.to_string())
        .replace("{SCREEN_HEIGHT}", &h.to_string())
        .replace("{SCREEN_WIDTH_HALF}", &(w / 2).to_string())
        .replace("{SCREEN_HEIGHT_HALF}", &(h / 2).to_string())
}

/// The command of an execute/launch step as one shell line (placeholders filled).
fn command_line(i: usize, cmd: &Value, screen: (u32, u32)) -> Result<String, OsworldError> {
    match cmd {
        Value::String(s) => Ok(placeholders(s, screen)),
        Value::Array(items) => {
            let words: Vec<String> = items
                .iter()
                .filter_map(Value::as_str)
                .map(|w| placeholders(w, screen))
                .collect();
            if words.len() != items.len() || words.is_empty() {
                return Err(task(
                    i,
                    "command must be a non-empty list of strings or a string",
                ));
            }
            shlex::try_join(words.iter().map(String::as_str))
                .map_err(|e| task(i, format!("command cannot be quoted: {e}")))
        }
        _ => Err(task(i, "command must be a list of strings or a string")),
    }
}

/// Runs one step.
pub fn run_step(ctx: &StepCtx<'_>, i: usize, step: &Value) -> Result<(), OsworldError> {
    let kind = step
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| task(i, "type is missing"))?;
    let params = step.get("parameters").cloned().unwrap_or_else(|| json!({}));
    let c = ctx.client;
    match kind {
        "download" | "upload_file" => {
            for (src, dst) in files(i, &params)? {
                let bytes = if kind == "download" {
                    fetch(i, ctx, &src)?
                } else {
                    let p = ctx.bundle_dir.join(&src);
                    std::fs::read(&p)
                        .map_err(|e| task(i, format!("reading {}: {e}", p.display())))?
                };
                c.upload(&dst, bytes, ctx.step_timeout)?;
            }
        }
        "execute" | "command" => {
            let cmd = params
                .get("command")
                .or_else(|| step.get("command"))
                .ok_or_else(|| task(i, "an execute step needs parameters.command"))?;
            let line = command_line(i, cmd, ctx.screen)?;
            let r = c.run_bash(&line, ctx.script_timeout_secs, Some("~"))?;
            if r.returncode != 0 {
                let tail: Vec<&str> = r.output.lines().rev().take(5).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                return Err(task(
                    i,
                    format!("`{line}` exited {}: {}", r.returncode, tail.join(" / ")),
                ));
            }
        }
        "launch" => {
            let cmd = params
                .get("command")
                .ok_or_else(|| task(i, "launch needs command"))?;
            let shell = params
                .get("shell")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            c.setup_call(
                "launch",
                json!({"command": cmd, "shell": shell}),
                ctx.step_timeout,
            )?;
        }
        "open" => {
            let path = params
                .get("path")
                .and_then(Value::as_str)
                .ok_or_else(|| task(i, "open needs path"))?;
            c.setup_call("open_file", json!({"path": path}), ctx.step_timeout)?;
        }
        "sleep" => {
            let s = params.get("seconds").and_then(Value::as_f64).unwrap_or(1.0);
            std::thread::sleep(Duration::from_secs_f64(s.clamp(0.0, 600.0)));
        }
        "activate_window" | "close_window" => {
            c.setup_call(kind, params.clone(), ctx.step_timeout)?;
        }
        other => {
            return Err(task(
                i,
                format!(
                    "step type {other:?} is not run by the OSWorld provider (it runs: {})",
                    SUPPORTED.join(", ")
                ),
            ))
        }
    }
    Ok(())
}

/// Runs every step of `config` in order; the first failure stops.
pub fn run_steps(ctx: &StepCtx<'_>, config: &Value) -> Result<usize, OsworldError> {
    let steps = config
        .as_array()
        .ok_or_else(|| OsworldError::Task("config must be a list of steps".into()))?;
    for (i, step) in steps.iter().enumerate() {
        run_step(ctx, i, step).map_err(|e| match e {
            OsworldError::BadRequest(m) | OsworldError::NotFound(m) => task(i, m),
            other => other,
        })?;
    }
    Ok(steps.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn execute_commands_are_quoted_and_placeholders_filled() {
        let l = command_line(
            0,
            &json!(["python3", "/home/user/a b.py", "{SCREEN_WIDTH}"]),
            (1280, 800),
        )
        .unwrap();
        assert_eq!(l, "python3 '/home/user/a b.py' 1280");
        assert!(command_line(3, &json!([1]), (1, 1))
            .unwrap_err()
            .to_string()
            .starts_with("config[3]"));
    }
}
