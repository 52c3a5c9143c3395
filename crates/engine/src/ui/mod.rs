//! Agent-facing web UIs of the built-in apps (each in its pack, `crates/engine/src/apps/<pack>/ui/`):
//! server-rendered HTML over one state-API session.
//!
//! [`start`] binds a loopback port of its own for one session of one app — the **agent-facing
//! origin** of an environment. It serves the app's pages (rendered with maud from the session's
//! current state), its stylesheet, and `POST /op/<name>` form submissions; nothing else. There is
//! no `/go`, `/post` or `/state` on it and no sid in any URL: the origin is bound to its session
//! when it starts, so a page (or an agent) cannot read the diff or write the state behind the UI.
//!
//! Every UI action is a **semantic mutation**: the form names an operation (`rename_channel`,
//! `send_message`, …) whose handler edits the session's current document through
//! [`SessionStore::update`] — the same journal, `state_id` and persistence as a `set_current`
//! on the state API, so rewards and the state diff see it. Transient UI state (the flash banner
//! after an action) lives in this server's memory, never in the document.
//!
//! The pages are deterministic: same state, same fixed "today" ([`Today`]), same HTML.

mod cdp;
pub(crate) mod clock;
mod combined_resolver;
mod combined_screen;
mod desktop_resolver;
mod form;
pub mod kit;
pub(crate) mod page;
mod rendered;
mod resolver;
mod server;
mod web_screen;

#[cfg(test)]
pub(crate) mod test_forms;
#[cfg(test)]
pub(crate) mod tests;

pub use cdp::Cdp;
pub use cdp::CdpError;
pub use clock::Today;
pub use combined_resolver::{CombinedResolver, FOCUSED_APP, TASKBAR_BUTTON};
pub use combined_screen::{app_class, app_label, CombinedScreen, WebApp};
pub use desktop_resolver::{DesktopResolver, WindowList};
pub use form::{FormData, OpError};
pub use page::Flash;
pub use rendered::{is_placeholder, open_page, wait_rendered, RenderState, DOM_QUIET};
pub use resolver::WebResolver;
pub use server::{start, UiHandle, UiOptions};
pub use web_screen::{UiOrigin, WebScreen, WebScreenError};

use maud::Markup;
use serde_json::Value;

/// What a successful operation did: the banner text and the page to show next.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    /// One line for the flash banner ("Renamed #random to #watercooler").
    pub message: String,
    /// Local path to redirect to; `None` = back where the form was.
    pub go: Option<String>,
}

/// Context every page and operation sees.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The environment's fixed clock.
    pub today: Today,
}

/// The web UI of one app. Pages and operations are pure functions of the state document.
pub trait AppUi: Send + Sync {
    /// The app this UI draws (`team-chat`).
    fn app(&self) -> &'static str;
    /// The app's stylesheet (served at `/style.css`).
    fn css(&self) -> &'static str;
    /// The page at `path` (e.g. `/c/C01`) for the current state, or `None` when there is none.
    fn page(&self, path: &str, state: &Value, ctx: &Ctx) -> Option<(String, Markup)>;
    /// Performs the operation `op` on the state; an error leaves the state untouched.
    fn apply(
        &self,
        op: &str,
        form: &FormData,
        ctx: &Ctx,
        state: &mut Value,
    ) -> Result<Done, OpError>;
    /// Every operation [`AppUi::apply`] knows, with the state paths (`collection.field`) it can
    /// write; forms may only name these.
    fn ops(&self) -> &'static [(&'static str, &'static [&'static str])];

    /// Whether `op` is one of [`AppUi::ops`].
    fn knows(&self, op: &str) -> bool {
        self.ops().iter().any(|(name, _)| *name == op)
    }
}

/// The UI registered at run time for `app` with [`register_ui`] (a spec being checked), else
/// the built-in app's (from its pack, [`crate::apps`]), or `None` for an app without one.
pub fn app_ui(app: &str) -> Option<&'static dyn AppUi> {
    let extra = extra_uis()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .rev()
        .find(|u| u.app() == app)
        .copied();
    extra.or_else(|| crate::apps::ui(app))
}

fn extra_uis() -> &'static std::sync::Mutex<Vec<&'static dyn AppUi>> {
    static EXTRA: std::sync::OnceLock<std::sync::Mutex<Vec<&'static dyn AppUi>>> =
        std::sync::OnceLock::new();
    EXTRA.get_or_init(Default::default)
}

/// Registers the UI of an app that is not a built-in pack (a spec being checked by `envgen
/// check` or built by `envgen build`), so [`start`] can serve it; it wins over a built-in app
/// of the same name, and a later one over an earlier one.
pub fn register_ui(ui: &'static dyn AppUi) {
    extra_uis()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(ui);
}

/// Errors starting or serving a UI origin (infrastructure, never a score).
#[derive(Debug, thiserror::Error)]
pub enum UiError {
    /// The app has no web UI.
    #[error("app {0:?} has no web UI (apps with one: {apps})", apps = crate::apps::with_ui().join(", "))]
    NoUi(String),
    /// The loopback port could not be bound.
    #[error("binding the UI origin: {0}")]
    Bind(std::io::Error),
}
