//! `command`: any external agent harness, started once per trial with `sh -c COMMAND` and these
//! environment variables (the way to plug a real computer-use agent in today):
//!
//! | variable | value |
//! |---|---|
//! | `TW_TASK_ID` | the task id |
//! | `TW_INSTRUCTION` | the instruction (the released one, if the filter revised it) |
//! | `TW_TRIAL` | trial number, from 1 |
//! | `TW_HOME` | host path of the environment's home directory (`/home/user` inside scripts) |
//! | `TW_SID` | the web-app session id |
//! | `TW_APP`, `TW_STATE_URL` | the primary web app and its state API base URL (host side) |
//! | `TW_APPS_JSON` | every web app: `[{"app", "url"}]` |
//!
//! The command runs on the host (it is the user's own trusted harness, not agent-written code) in
//! its own process group; on timeout the whole group is killed. A non-zero exit or a timeout is a
//! policy failure (never a score). Its stdout and stderr form the transcript.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use super::policy::{Policy, PolicyCtx, PolicyKind, PolicyRun};
use super::RolloutError;

/// An external agent command.
pub struct CommandPolicy {
    /// The shell command.
    pub command: String,
    /// Wall-clock limit.
    pub timeout: Duration,
}

fn drain(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    })
}

impl Policy for CommandPolicy {
    fn name(&self) -> String {
        format!(
            "command:{}",
            tuplewright_models::providers::excerpt(&self.command, 60)
        )
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Teacher
    }
    fn act(&self, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        use std::os::unix::process::CommandExt;
        let env = ctx.env;
        let apps: Vec<_> = env
            .web
            .iter()
            .map(|w| json!({"app": w.app, "url": format!("http://{}", w.addr)}))
            .collect();
        let primary = env.web.first();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .env("TW_TASK_ID", &ctx.brief.task_id)
            .env("TW_INSTRUCTION", &ctx.brief.instruction)
            .env("TW_TRIAL", ctx.trial.to_string())
            .env("TW_HOME", &env.home)
            .env("TW_SID", &env.sid)
            .env("TW_APP", primary.map(|w| w.app.clone()).unwrap_or_default())
            .env(
                "TW_STATE_URL",
                primary
                    .map(|w| format!("http://{}", w.addr))
                    .unwrap_or_default(),
            )
            .env("TW_APPS_JSON", serde_json::Value::Array(apps).to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| RolloutError::Policy(format!("cannot start `{}`: {e}", self.command)))?;
        let out = child.stdout.take().map(drain);
        let err = child.stderr.take().map(drain);
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if start.elapsed() >= self.timeout => break None,
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => {
                    return Err(RolloutError::Policy(format!(
                        "waiting for the command: {e}"
                    )))
                }
            }
        };
        if status.is_none() {
            // SAFETY: signalling our own child's process group (pgid = its pid).
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL);
            }
            let _ = child.wait();
        }
        let stdout = out.and_then(|h| h.join().ok()).unwrap_or_default();
        let stderr = err.and_then(|h| h.join().ok()).unwrap_or_default();
        let transcript = tuplewright_models::providers::head_tail(
            &format!("{stdout}\n--- stderr ---\n{stderr}"),
            8000,
        );
        match status {
            None => Err(RolloutError::Policy(format!(
                "the command timed out after {:.0}s",
                self.timeout.as_secs_f64()
            ))),
            Some(s) if !s.success() => Err(RolloutError::Policy(format!(
                "the command exited with {s}: {}",
                crate::harness::execute::tail(&stderr, 3)
            ))),
            Some(_) => Ok(PolicyRun {
                actions: vec![json!({"command": self.command})],
                transcript,
                usage: Default::default(),
                steps: Vec::new(),
            }),
        }
    }
}
