//! A web environment with its screen: the app's UI origin for one session, an Xvfb display,
//! Chromium in kiosk mode on that origin (the only one it may reach), the pre-rollout gate, and a
//! DevTools session for the [`WebResolver`].
//!
//! [`WebScreen::start`] is blocking and usable from any thread that is not inside a tokio
//! runtime: the UI origin runs on a one-worker runtime of its own, stopped on drop together with
//! everything the screen started.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cdp::Cdp;
use super::resolver::WebResolver;
use super::{start, UiError, UiHandle, UiOptions};
use crate::env::SessionStore;
use crate::screen::{chromium_command, BrowserSpec, Screen, ScreenConfig, ScreenError, Shot};

/// Errors starting a web environment's screen (all infrastructure).
#[derive(Debug, thiserror::Error)]
pub enum WebScreenError {
    /// The UI origin.
    #[error(transparent)]
    Ui(#[from] UiError),
    /// The display or the browser.
    #[error(transparent)]
    Screen(#[from] ScreenError),
    /// The browser's DevTools session.
    #[error("Chromium's DevTools: {0}")]
    DevTools(#[from] super::cdp::CdpError),
    /// The DevTools session of one app's window (combined screen).
    #[error("Chromium's DevTools: {app}: {source}")]
    DevToolsOf {
        /// The app whose window it is.
        app: String,
        /// The cause.
        #[source]
        source: super::cdp::CdpError,
    },
    /// The page never got past its placeholder (an app shell, "Loading…") before the deadline.
    #[error(
        "the page {url} had not rendered by [screen] ready_timeout_ms: it still showed {seen}"
    )]
    NotRendered {
        /// The page.
        url: String,
        /// What it showed.
        seen: String,
    },
}

impl From<WebScreenError> for crate::act::RolloutError {
    fn from(e: WebScreenError) -> Self {
        crate::act::RolloutError::Infra(e.to_string())
    }
}

/// A UI origin served from a one-worker runtime of its own, for callers outside any tokio
/// runtime (a screen trial, a person's `env try`); dropping it stops the server and the runtime.
pub struct UiOrigin {
    ui: Option<UiHandle>,
    rt: Option<tokio::runtime::Runtime>,
}

impl UiOrigin {
    /// Serves the UI of `sid` in `store` on a fresh loopback port.
    pub fn start(
        store: Arc<SessionStore>,
        sid: &str,
        opts: UiOptions,
    ) -> Result<UiOrigin, WebScreenError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ui-origin")
            .enable_all()
            .build()
            .map_err(|e| ScreenError::Io(format!("starting the UI origin's runtime: {e}")))?;
        let ui = rt.block_on(start(store, sid, opts))?;
        Ok(UiOrigin {
            ui: Some(ui),
            rt: Some(rt),
        })
    }

    /// The agent-facing URL (what Chromium or a person opens).
    pub fn url(&self) -> String {
        self.ui.as_ref().map(UiHandle::url).unwrap_or_default()
    }

    /// `host:port`, the only origin a browser on it may reach.
    pub fn host_port(&self) -> String {
        self.ui
            .as_ref()
            .map(UiHandle::host_port)
            .unwrap_or_default()
    }
}

impl Drop for UiOrigin {
    fn drop(&mut self) {
        if let (Some(ui), Some(rt)) = (self.ui.take(), self.rt.take()) {
            rt.block_on(ui.shutdown());
            rt.shutdown_timeout(Duration::from_secs(2));
        }
    }
}

/// A live web environment on a screen. Drop order: browser and display, then the UI origin.
pub struct WebScreen {
    /// The display Chromium draws on (act and screenshot through it).
    pub screen: Screen,
    /// Finds targets on the page.
    pub resolver: WebResolver,
    /// The first screenshot that passed the gate.
    pub first: Shot,
    /// How long start-up took (display, origin, browser, page drawn).
    pub ready: Duration,
    profile: std::path::PathBuf,
    origin: UiOrigin,
}

impl WebScreen {
    /// Starts the UI origin of `sid` in `store`, a display sized for the app, Chromium on the
    /// origin, and waits until the page is drawn.
    pub fn start(
        cfg: &ScreenConfig,
        store: Arc<SessionStore>,
        sid: &str,
        opts: UiOptions,
    ) -> Result<WebScreen, WebScreenError> {
        let t0 = Instant::now();
        let app = store.app().name().to_string();
        let origin = UiOrigin::start(store, sid, opts)?;
        let mut screen = Screen::start(cfg, cfg.size_for(&app))?;
        let profile = screen.private_dir("chromium-profile")?;
        let spec = BrowserSpec {
            url: origin.url(),
            allow: origin.host_port(),
        };
        let mut cmd = chromium_command(cfg, &spec, &profile, screen.size());
        // No smooth scrolling: a wheel click moves the page at once, so a target's box read
        // after a scroll is where a click will land.
        cmd.args([
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            "--disable-smooth-scrolling",
        ]);
        screen.launch("chromium", cmd)?;
        let timeout = Duration::from_millis(cfg.ready_timeout_ms);
        let first = match screen.wait_drawn(timeout) {
            Err(ScreenError::AppDied { program, detail }) => {
                return Err(ScreenError::AppDied {
                    detail: format!("{detail}: {}", screen.log_tail(&program, 3)),
                    program,
                }
                .into())
            }
            other => other?,
        };
        let cdp = Cdp::connect(&profile, timeout).map_err(WebScreenError::DevTools)?;
        Ok(WebScreen {
            screen,
            resolver: WebResolver::new(cdp),
            first,
            ready: t0.elapsed(),
            profile,
            origin,
        })
    }

    /// The agent-facing URL (what a person would open).
    pub fn url(&self) -> String {
        self.origin.url()
    }

    /// A second DevTools session on the same page, for a watcher that runs beside the policy
    /// (a live viewer; a stand-in model finding on the page what a real one would see).
    pub fn attach_resolver(&self, timeout: Duration) -> Result<WebResolver, WebScreenError> {
        let cdp = Cdp::connect(&self.profile, timeout).map_err(WebScreenError::DevTools)?;
        Ok(WebResolver::new(cdp))
    }

    /// The display and the resolver, borrowed together (what an executor needs).
    pub fn parts(&mut self) -> (&mut Screen, &mut WebResolver) {
        (&mut self.screen, &mut self.resolver)
    }
}
