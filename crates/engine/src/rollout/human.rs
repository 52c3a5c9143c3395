//! A person tries a task (`tuplewright env try`): the task's screen on V_init — the one every
//! policy gets ([`super::task_screen::open_task_screen`]) — shared over VNC (x11vnc from Debian;
//! on loopback, or on another address with a VNC password) for a desktop, or the UI's URL for a
//! web app; when the person is done (the `done` flag, Ctrl-C, or the `until` file appears) the
//! harness scores the final state with reward.py like any trial, recorded as policy `human`. On
//! a screen, the person's input is recorded ([`super::human_record`]) as the trial's
//! `computer_use` steps, with the first observation and after-frames, so the trial exports as
//! SFT data (issue #36).

use std::net::{IpAddr, SocketAddr, TcpListener};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::human_record::InputLog;
use super::policy::{Policy, PolicyCtx, PolicyKind, PolicyRun};
use super::screen::ComputerAction;
use super::task_screen::open_task_screen;
use super::RolloutError;
use crate::screen::ScreenConfig;

/// How the person reaches the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TryAccess {
    /// A VNC server on `host:port` (on loopback without password; elsewhere with one).
    Vnc {
        /// The address it listens on.
        host: IpAddr,
        /// The TCP port.
        port: u16,
        /// The X display it shows.
        display: String,
        /// The VNC password (always set off loopback).
        password: Option<String>,
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
    /// The address the VNC server listens on (loopback by default).
    pub vnc_host: IpAddr,
    /// Its password (required off loopback: see `access::vnc::password_for`).
    pub vnc_password: Option<String>,
    /// Set when the person says they are done (Enter).
    pub done: Arc<AtomicBool>,
    /// A file whose appearance means done (non-interactive use).
    pub until: Option<PathBuf>,
    /// Told how to reach the screen once it is ready.
    pub announce: Box<dyn Fn(&TryAccess) + Send + Sync>,
}

/// A free TCP port on `host` (bound and released; the VNC server takes it right after).
fn free_port(host: IpAddr) -> Result<u16, RolloutError> {
    let err =
        |e: std::io::Error| RolloutError::Infra(format!("finding a free port on {host}: {e}"));
    let l = TcpListener::bind((host, 0)).map_err(err)?;
    l.local_addr().map(|a| a.port()).map_err(err)
}

/// Whether something listens on `host:port` (an unspecified address is reached on loopback).
fn listening(host: IpAddr, port: u16) -> bool {
    let to = if host.is_unspecified() {
        IpAddr::from([127, 0, 0, 1])
    } else {
        host
    };
    std::net::TcpStream::connect_timeout(&SocketAddr::new(to, port), Duration::from_millis(200))
        .is_ok()
}

/// x11vnc's access options: loopback without password, or `-listen HOST` with the password in a
/// file only the VNC server's uid reads (x11vnc deletes it once read: `rm:`).
fn vnc_access_args(
    screen: &crate::screen::Screen,
    host: IpAddr,
    password: Option<&str>,
) -> Result<Vec<String>, RolloutError> {
    let mut args = Vec::new();
    if tuplewright_base::access::is_loopback(host) {
        args.extend(["-localhost".to_string()]);
    } else {
        args.extend(["-listen".to_string(), host.to_string()]);
    }
    match password {
        None => args.push("-nopw".into()),
        Some(p) => {
            let dir = screen.private_dir("vnc")?;
            let file = dir.join("passwd");
            let io =
                |e: std::io::Error| RolloutError::Infra(format!("writing the VNC password: {e}"));
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&file)
                .map_err(io)?;
            std::io::Write::write_all(&mut f, format!("{p}\n").as_bytes()).map_err(io)?;
            let owner = std::fs::metadata(&dir).map_err(io)?;
            std::os::unix::fs::chown(&file, Some(owner.uid()), Some(owner.gid())).map_err(io)?;
            args.extend(["-passwdfile".to_string(), format!("rm:{}", file.display())]);
        }
    }
    Ok(args)
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
            if crate::ui::app_ui(only).is_some() {
                // A built-in app with a UI: its agent-facing origin for this environment's
                // session, opened by the person in their own browser.
                let (store, opts) = super::ui_oracle_web::session_of(only, ctx)?;
                let origin = crate::ui::UiOrigin::start(store, &ctx.env.sid, opts)?;
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
        let external = match ctx.brief.apps.as_slice() {
            [only] => super::screen_env::ui_url(only, ctx.env),
            _ => None,
        };
        if let Some(url) = external {
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
        // The task's screen as every policy gets it (per-app size, the cross desktop for several
        // desktop applications, the combined screen when a web app is among several apps).
        let mut live = open_task_screen(&self.screen, ctx)?;
        let screen = live.screen().ok_or_else(|| {
            RolloutError::Policy(
                "env try shares a screen of this machine over VNC, and this environment's \
                 screen is an OSWorld guest's: use [loop] environments = \"local\""
                    .into(),
            )
        })?;
        // The person's input is recorded from before the first frame on.
        let mut log = InputLog::start(&screen.display_name(), started)?;
        log.observe_first(screen)?;
        let port = free_port(self.vnc_host)?;
        let mut vnc = Command::new(&self.x11vnc);
        vnc.args(vnc_access_args(
            screen,
            self.vnc_host,
            self.vnc_password.as_deref(),
        )?);
        vnc.args(["-forever", "-shared", "-quiet", "-noxdamage"])
            .args(["-rfbport", &port.to_string()])
            .args(["-display", &screen.display_name()]);
        screen.launch("x11vnc", vnc)?;
        let deadline = Instant::now() + Duration::from_millis(self.screen.ready_timeout_ms);
        while !listening(self.vnc_host, port) {
            screen.check()?;
            if Instant::now() >= deadline {
                return Err(RolloutError::Infra(format!(
                    "x11vnc did not listen on {}:{port}: {}",
                    self.vnc_host,
                    screen.log_tail("x11vnc", 3)
                )));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        (self.announce)(&TryAccess::Vnc {
            host: self.vnc_host,
            port,
            display: screen.display_name(),
            password: self.vnc_password.clone(),
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
        // A dialog left open on a desktop application (`env try`): named, never a score.
        if screen.session_dir().is_some() {
            screen.ensure_no_modal_dialog(&self.screen)?;
        }
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
