//! Chromium on a screen: app/kiosk mode filling the display, a fresh profile per environment,
//! every origin but the environment's own app unreachable.
//!
//! Network: all traffic goes to a dead proxy (`127.0.0.1:9`) except the app origin, which is the
//! only bypass; `<-loopback>` removes Chromium's implicit loopback bypass, so the state API and
//! every other local port stay out of reach of the page. Sandboxing: Chromium's own sandbox needs
//! user namespaces or a setuid helper, which this machine's containers do not grant, so it runs
//! with `--no-sandbox` — as an unprivileged uid (`[screen] app_uid`) when the engine is root, in the
//! screen's process group, killed with it.

use std::process::Command;
use std::time::Duration;

use super::{ScreenConfig, ScreenError, Shot};

/// What one browser shows.
#[derive(Debug, Clone)]
pub struct BrowserSpec {
    /// The page to open, e.g. `http://127.0.0.1:41234/` (the agent-facing origin).
    pub url: String,
    /// `host:port` of the only origin the page may reach (normally the URL's).
    pub allow: String,
}

impl BrowserSpec {
    /// A page that may reach only its own origin (`host:port` of an `http://` URL).
    pub fn at(url: String) -> BrowserSpec {
        let allow = url
            .trim_start_matches("http://")
            .split(['/', '?', '#'])
            .next()
            .unwrap_or_default()
            .to_string();
        BrowserSpec { url, allow }
    }
}

/// The flags that make headless-machine Chromium start quickly and quietly (see
/// docs/screens.md), plus kiosk mode on `spec.url` at the display's size.
pub fn chromium_command(
    cfg: &ScreenConfig,
    spec: &BrowserSpec,
    profile: &std::path::Path,
    (width, height): (u32, u32),
) -> Command {
    let mut cmd = quiet_chromium(cfg, spec, profile);
    cmd.args(["--kiosk", "--window-position=0,0"])
        // With no window manager Chromium shrinks a window of the display's size by one pixel
        // each way (leaving a black line); one pixel more fills the display exactly.
        .arg(format!("--window-size={},{}", width + 1, height + 1));
    cmd
}

/// Chromium as one app window among others on a combined screen: app mode (no tabs or address
/// bar, the window manager's title bar shows the page title), window class `class` (what the
/// window manager's placement rule and the taskbar know it by), client area `area`.
pub fn chromium_window_command(
    cfg: &ScreenConfig,
    spec: &BrowserSpec,
    profile: &std::path::Path,
    (x, y, w, h): super::Area,
    class: &str,
) -> Command {
    let mut cmd = quiet_chromium(cfg, spec, profile);
    // `--test-type` drops the "unsupported command-line flag: --no-sandbox" bar a window shows
    // (kiosk mode shows none).
    cmd.arg("--test-type")
        .arg(format!("--class={class}"))
        .arg(format!("--window-position={x},{y}"))
        .arg(format!("--window-size={w},{h}"));
    cmd
}

/// The flags every screen's Chromium gets: quiet start, fixed rendering, the origin lock, the
/// profile, app mode on `spec.url`.
fn quiet_chromium(cfg: &ScreenConfig, spec: &BrowserSpec, profile: &std::path::Path) -> Command {
    let mut cmd = Command::new(&cfg.chromium);
    cmd.args([
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--disable-extensions",
        "--disable-default-apps",
        "--disable-breakpad",
        "--no-default-browser-check",
        "--mute-audio",
        "--force-color-profile=srgb",
        "--force-device-scale-factor=1",
        "--password-store=basic",
        "--use-mock-keychain",
        "--disable-features=Translate,MediaRouter,OptimizationHints",
        "--disable-session-crashed-bubble",
        "--hide-scrollbars",
        "--lang=en-US",
        "--proxy-server=127.0.0.1:9",
    ])
    .arg(format!("--proxy-bypass-list=<-loopback>;{}", spec.allow))
    .arg(format!("--user-data-dir={}", profile.display()))
    .arg(format!("--app={}", spec.url))
    .env("HOME", profile)
    .env("LANG", "en_US.UTF-8")
    .env("TZ", "UTC");
    cmd
}

impl super::Screen {
    /// Opens `spec` in a fresh Chromium profile and waits until the page is drawn (the
    /// pre-rollout gate): a browser that dies is [`ScreenError::AppDied`] with its last log
    /// lines, a screen still blank at the deadline [`ScreenError::Blank`].
    pub fn open_browser(
        &mut self,
        cfg: &ScreenConfig,
        spec: &BrowserSpec,
    ) -> Result<Shot, ScreenError> {
        let profile = self.private_dir("chromium-profile")?;
        let cmd = chromium_command(cfg, spec, &profile, self.size());
        self.launch("chromium", cmd)?;
        match self.wait_drawn(Duration::from_millis(cfg.ready_timeout_ms)) {
            Err(ScreenError::AppDied { program, detail }) => Err(ScreenError::AppDied {
                detail: format!("{detail}: {}", self.log_tail(&program, 3)),
                program,
            }),
            other => other,
        }
    }
}
