//! Chromium on any page (an external app's UI, e.g. a CUA-Gym-Hub site's Vite dev server) with a
//! DevTools session, captured only **once the page has rendered**: a single-page app first paints
//! its HTML shell (an empty `#root`, or "Loading…") and renders its content after its scripts
//! run and its state arrives, so a screen that merely stopped changing can still be the
//! placeholder. [`open_page`] waits, through the DevTools protocol and bounded by
//! `[screen] ready_timeout_ms`, for:
//!
//! 1. the document to have loaded (`document.readyState == "complete"`) and painted;
//! 2. a body that is not a placeholder ([`is_placeholder`]: no text and nothing visual, or a short
//!    "Loading…"-style text, or `aria-busy` on the body or the app root);
//! 3. the DOM to have been still for [`DOM_QUIET`] (a `MutationObserver` over the document);
//! 4. two animation frames (the compositor has the rendered DOM), then a settled screen.
//!
//! A page still on its placeholder at the deadline is [`WebScreenError::NotRendered`]
//! (infrastructure, never a score); a page with content that keeps changing (or still loading
//! a resource) is captured as last seen.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::cdp::Cdp;
use super::resolver::WebResolver;
use super::web_screen::WebScreenError;
use crate::screen::{chromium_command, BrowserSpec, Screen, ScreenConfig, ScreenError, Shot};

/// How long the DOM must stay unchanged before the page counts as rendered.
pub const DOM_QUIET: Duration = Duration::from_millis(400);

/// What the page reports about itself at one poll; installs the mutation observer on first use.
const RENDER_STATE: &str = r#"(() => {
  const w = window;
  if (!w.__twRender) {
    w.__twRender = { t: performance.now() };
    new MutationObserver(() => { w.__twRender.t = performance.now(); })
      .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  }
  const body = document.body;
  const text = body ? (body.innerText || '').replace(/\s+/g, ' ').trim() : '';
  const visual = body ? body.querySelectorAll('img,svg,canvas,video,input,textarea,select,button').length : 0;
  const root = document.getElementById('root') || document.getElementById('app');
  const busy = [body, root].some(e => e && e.getAttribute('aria-busy') === 'true');
  return { ready: document.readyState, painted: performance.getEntriesByType('paint').length > 0,
           text: text.slice(0, 200), visual, busy, quiet_ms: performance.now() - w.__twRender.t };
})()"#;

/// Resolves after two animation frames (the rendered DOM has reached the compositor).
const TWO_FRAMES: &str =
    "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))";

/// One poll of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderState {
    /// `document.readyState`.
    pub ready: String,
    /// A first paint happened.
    pub painted: bool,
    /// The body's visible text (whitespace folded, at most 200 characters).
    pub text: String,
    /// Images, canvases, form controls… in the body.
    pub visual: u64,
    /// `aria-busy="true"` on the body or the app root (`#root`, `#app`).
    pub busy: bool,
    /// Milliseconds since the DOM last changed.
    pub quiet_ms: f64,
}

impl RenderState {
    fn from_value(v: &Value) -> RenderState {
        RenderState {
            ready: v["ready"].as_str().unwrap_or_default().to_string(),
            painted: v["painted"].as_bool().unwrap_or(false),
            text: v["text"].as_str().unwrap_or_default().to_string(),
            visual: v["visual"].as_u64().unwrap_or(0),
            busy: v["busy"].as_bool().unwrap_or(false),
            quiet_ms: v["quiet_ms"].as_f64().unwrap_or(0.0),
        }
    }

    /// Loaded, painted, not a placeholder, and the DOM still for [`DOM_QUIET`].
    pub fn rendered(&self) -> bool {
        self.ready == "complete"
            && self.painted
            && !is_placeholder(self)
            && self.quiet_ms >= DOM_QUIET.as_millis() as f64
    }
}

/// Whether the page shows an app shell rather than its content: busy, or nothing to see (no text
/// and no visual element), or only a short loading text ("Loading…", "Loading...", "Please
/// wait", "Chargement…", a spinner's text).
pub fn is_placeholder(s: &RenderState) -> bool {
    if s.busy {
        return true;
    }
    let text = s.text.trim();
    if text.is_empty() {
        return s.visual == 0;
    }
    let lower = text.to_lowercase();
    let words = ["loading", "please wait", "chargement", "cargando", "laden"];
    text.chars().count() <= 40 && words.iter().any(|w| lower.starts_with(w))
}

fn devtools(e: super::cdp::CdpError) -> WebScreenError {
    WebScreenError::DevTools(e)
}

fn state(cdp: &mut Cdp) -> Result<Option<RenderState>, WebScreenError> {
    let r = cdp
        .call(
            "Runtime.evaluate",
            json!({"expression": RENDER_STATE, "returnByValue": true}),
        )
        .map_err(devtools)?;
    // A navigation between two polls destroys the context: not rendered yet.
    if r.get("exceptionDetails").is_some() {
        return Ok(None);
    }
    Ok(Some(RenderState::from_value(&r["result"]["value"])))
}

/// Polls the page until it has rendered (see the module doc) or `deadline` passes; returns the
/// last state seen. A page still on its placeholder at the deadline is an error naming `url`.
pub fn wait_rendered(
    cdp: &mut Cdp,
    url: &str,
    deadline: Instant,
) -> Result<RenderState, WebScreenError> {
    let mut last = None;
    loop {
        // A context destroyed by a navigation answers an error: the next poll sees the new page.
        let s = match state(cdp) {
            Ok(s) => s,
            Err(_) if Instant::now() < deadline => None,
            Err(e) => return Err(e),
        };
        if let Some(s) = s {
            if s.rendered() {
                return Ok(s);
            }
            last = Some(s);
        }
        if Instant::now() >= deadline {
            return match last {
                Some(s) if !is_placeholder(&s) => Ok(s),
                Some(s) => Err(WebScreenError::NotRendered {
                    url: url.to_string(),
                    seen: if s.text.is_empty() {
                        format!("an empty body (readyState {})", s.ready)
                    } else {
                        format!("{:?} (readyState {})", s.text, s.ready)
                    },
                }),
                None => Err(WebScreenError::NotRendered {
                    url: url.to_string(),
                    seen: "no document".into(),
                }),
            };
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Opens `spec` in Chromium (kiosk, a fresh profile, its origin only, a DevTools port) on
/// `screen`, waits until the page has rendered and the screen shows it, and returns that
/// screenshot with a resolver on the page.
pub fn open_page(
    screen: &mut Screen,
    cfg: &ScreenConfig,
    spec: &BrowserSpec,
) -> Result<(Shot, WebResolver), WebScreenError> {
    let deadline = Instant::now() + Duration::from_millis(cfg.ready_timeout_ms);
    let profile = screen.private_dir("chromium-profile")?;
    let mut cmd = chromium_command(cfg, spec, &profile, screen.size());
    cmd.args([
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        "--disable-smooth-scrolling",
    ]);
    screen.launch("chromium", cmd)?;
    let left = deadline.saturating_duration_since(Instant::now());
    let mut cdp = match Cdp::connect(&profile, left.max(Duration::from_secs(1))) {
        Ok(c) => c,
        Err(e) => {
            // A browser that died says why in its log.
            screen.check().map_err(|d| with_log(screen, d))?;
            return Err(devtools(e));
        }
    };
    wait_rendered(&mut cdp, &spec.url, deadline)?;
    cdp.call(
        "Runtime.evaluate",
        json!({"expression": TWO_FRAMES, "awaitPromise": true, "returnByValue": true}),
    )
    .map_err(devtools)?;
    let left = deadline.saturating_duration_since(Instant::now());
    let shot = screen
        .wait_drawn(left.max(Duration::from_millis(500)))
        .map_err(|e| with_log(screen, e))?;
    Ok((shot, WebResolver::new(cdp)))
}

fn with_log(screen: &Screen, e: ScreenError) -> WebScreenError {
    match e {
        ScreenError::AppDied { program, detail } => ScreenError::AppDied {
            detail: format!("{detail}: {}", screen.log_tail(&program, 3)),
            program,
        }
        .into(),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str, visual: u64) -> RenderState {
        RenderState {
            ready: "complete".into(),
            painted: true,
            text: text.into(),
            visual,
            busy: false,
            quiet_ms: 1000.0,
        }
    }

    #[test]
    fn an_app_shell_is_a_placeholder_and_content_is_not() {
        assert!(is_placeholder(&s("", 0)));
        assert!(is_placeholder(&s("Loading…", 0)));
        assert!(is_placeholder(&s("Loading...", 1)));
        assert!(is_placeholder(&s("Please wait", 0)));
        assert!(!is_placeholder(&s("", 2)), "a canvas-only page has content");
        assert!(!is_placeholder(&s("Roadmap Old notes", 0)));
        assert!(!is_placeholder(&s(
            "Loading dock schedule for the week of March 5, 2026 — 12 deliveries",
            0
        )));
        let busy = RenderState {
            busy: true,
            ..s("Inbox", 3)
        };
        assert!(is_placeholder(&busy));
    }

    #[test]
    fn rendered_needs_load_paint_content_and_a_quiet_dom() {
        assert!(s("Inbox", 0).rendered());
        let loading = RenderState {
            ready: "interactive".into(),
            ..s("Inbox", 0)
        };
        assert!(!loading.rendered());
        let moving = RenderState {
            quiet_ms: 50.0,
            ..s("Inbox", 0)
        };
        assert!(!moving.rendered());
        let unpainted = RenderState {
            painted: false,
            ..s("Inbox", 0)
        };
        assert!(!unpainted.rendered());
        assert!(!s("Loading…", 0).rendered());
    }
}
