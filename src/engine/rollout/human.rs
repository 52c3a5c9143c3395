//! A person tries a task (`tuplewright env try`): the task's screen on V_init, shared over VNC on
//! loopback (x11vnc from Debian) for a desktop, or the UI's URL for a web app; when the person is
//! done (the `done` flag, Ctrl-C, or the `until` file appears) the harness scores the final state
//! with reward.py like any trial, recorded as policy `human`. On a screen, the person's input is
//! recorded ([`super::human_record`]) as the trial's `computer_use` steps, with the first
//! observation and after-frames, so the trial exports as SFT data (issue #36).

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::human_record::InputLog;
use super::policy::{Policy, PolicyCtx, PolicyKind, PolicyRun};
use super::screen::ComputerAction;
use super::screen_env::{open_screen, screen_kind, ScreenKind};
use super::RolloutError;
use crate::engine::screen::ScreenConfig;

/// How the person reaches the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TryAccess {
    /// A VNC server on `127.0.0.1:port` (loopback only, no password).
    Vnc {
        /// The TCP port.
        port: u16,
        /// The X display it shows.
        display: String,
    },
    /// The web app's agent-facing URL, to open in one's own browser.
    Url(String),
}

/// A person acting on the task's screen.
pub struct HumanPolicy {
    /// `[screen]` settings.
    pub screen: ScreenConfig,
    /// The VNC server program.
    pub x11vnc: PathBuf,
    /// Set when the person says they are done (Enter).
    pub done: Arc<AtomicBool>,
    /// A file whose appearance means done (non-interactive use).
    pub until: Option<PathBuf>,
    /// Told how to reach the screen once it is ready.
    pub announce: Box<dyn Fn(&TryAccess) + Send + Sync>,
}

/// A free TCP port on loopback (bound and released; the VNC server takes it right after).
fn free_port() -> Result<u16, RolloutError> {
    let l = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| RolloutError::Infra(format!("finding a free loopback port: {e}")))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| RolloutError::Infra(format!("finding a free loopback port: {e}")))
}

/// Whether something listens on `127.0.0.1:port`.
fn listening(port: u16) -> bool {
    std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_millis(200),
    )
    .is_ok()
}

impl HumanPolicy {
    fn finished(&self, ctx: &PolicyCtx<'_>) -> bool {
        self.done.load(Ordering::SeqCst)
            || ctx.cancel.load(Ordering::SeqCst)
            || self.until.as_ref().is_some_and(|p| p.exists())
    }
}

impl Policy for HumanPolicy {
    fn name(&self) -> String {
        "human".into()
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Teacher
    }
    fn act(&self, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        let started = Instant::now();
        if let [only] = ctx.brief.apps.as_slice() {
            if crate::engine::ui::app_ui(only).is_some() {
                // A built-in app with a UI: its agent-facing origin for this environment's
                // session, opened by the person in their own browser.
                let (store, opts) = super::ui_oracle_web::session_of(only, ctx)?;
                let origin = crate::engine::ui::UiOrigin::start(store, &ctx.env.sid, opts)?;
                (self.announce)(&TryAccess::Url(origin.url()));
                while !self.finished(ctx) {
                    std::thread::sleep(Duration::from_millis(100));
                }
                drop(origin);
                return Ok(PolicyRun {
                    actions: vec![serde_json::json!({"human": "done", "ui": only})],
                    transcript: format!("a person used the {only} web UI"),
                    ..Default::default()
                });
            }
        }
        let single_app = ctx.brief.apps.len() == 1;
        let web_url = match single_app {
            true => match screen_kind(&ctx.brief.apps, ctx.env)? {
                ScreenKind::Web { url, .. } => Some(url),
                _ => None,
            },
            false => None,
        };
        if let Some(url) = web_url {
            // The person uses their own browser on the agent-facing origin.
            (self.announce)(&TryAccess::Url(url));
            while !self.finished(ctx) {
                std::thread::sleep(Duration::from_millis(100));
            }
            return Ok(PolicyRun {
                actions: vec![serde_json::json!({"human": "done"})],
                transcript: "a person used the web UI".into(),
                ..Default::default()
            });
        }
        // A task spanning apps gets the combined screen (taskbar, desktop, a window per web app).
        let (mut combined, mut single) = (None, None);
        let screen = if !single_app {
            let c = combined.insert(super::ui_oracle_cross::open_combined(&self.screen, ctx)?);
            c.parts().0
        } else {
            &mut single
                .insert(open_screen(&self.screen, &ctx.brief.apps, ctx.env)?)
                .0
        };
        // The person's input is recorded from before the first frame on.
        let mut log = InputLog::start(&screen.display_name(), started)?;
        log.observe_first(screen)?;
        let port = free_port()?;
        let mut vnc = Command::new(&self.x11vnc);
        vnc.args([
            "-localhost",
            "-nopw",
            "-forever",
            "-shared",
            "-quiet",
            "-noxdamage",
        ])
        .args(["-rfbport", &port.to_string()])
        .args(["-display", &screen.display_name()]);
        screen.launch("x11vnc", vnc)?;
        let deadline = Instant::now() + Duration::from_millis(self.screen.ready_timeout_ms);
        while !listening(port) {
            screen.check()?;
            if Instant::now() >= deadline {
                return Err(RolloutError::Infra(format!(
                    "x11vnc did not listen on 127.0.0.1:{port}: {}",
                    screen.log_tail("x11vnc", 3)
                )));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        (self.announce)(&TryAccess::Vnc {
            port,
            display: screen.display_name(),
        });
        while !self.finished(ctx) {
            // A dead display or desktop program is infrastructure, never the person's score.
            screen.check()?;
            let idle = log.poll()?;
            log.capture_after(screen, idle)?;
            std::thread::sleep(Duration::from_millis(50));
        }
        let at = started.elapsed();
        // The person's last input may still be drawing: `finish` settles before the last frame.
        let steps = log.finish(screen)?;
        let mut actions: Vec<serde_json::Value> = steps
            .iter()
            .filter(|s| s.action != ComputerAction::Screenshot)
            .map(|s| serde_json::to_value(&s.action).unwrap_or(serde_json::Value::Null))
            .collect();
        actions.push(serde_json::json!({"human": "done", "after_ms": at.as_millis() as u64}));
        Ok(PolicyRun {
            transcript: format!(
                "a person used the screen for {:.0} s ({} action(s) recorded)",
                at.as_secs_f64(),
                actions.len() - 1
            ),
            actions,
            usage: Default::default(),
            steps,
        })
    }
}
