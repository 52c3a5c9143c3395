//! What a guest's screen shows ([`GuestDisplay`]), kept alive for as long as the guest serves.
//! The screen is opened above this area, by `rollout::guest_display::open_display` (it needs the
//! loop's environment and the trial's screen), and handed to the guest.
//!
//! What each kind of environment gets (the screens the screen policies start, `rollout --policy
//! ui-oracle`, `noop --screen`):
//!
//! - the files domain: the files desktop on the environment's home;
//! - one built-in web app (team-chat, mail, issue-tracker, ecommerce-admin): its agent-facing UI
//!   origin for the environment's session with Chromium in kiosk mode on it (`ui::WebScreen`);
//! - one `[[apps.external]]` app: Chromium on its UI address (`ui_url`), captured once rendered
//!   (`ui::open_page`);
//! - a task spanning apps: the combined screen (taskbar, the desktop when `files` is among them,
//!   a browser window per web app; `ui::CombinedScreen`).
//!
//! The web pages' DevTools sessions stay open, so `/accessibility` can list their widgets.

use crate::screen::Screen;
use crate::ui::{CombinedScreen, WebResolver, WebScreen};

/// A guest's display and whatever keeps it showing its environment.
pub enum GuestDisplay {
    /// A display that needs nothing else alive (the files desktop).
    Plain(Box<Screen>),
    /// Chromium in kiosk mode on a page (an external app's UI), with a DevTools session.
    Page {
        /// The display.
        screen: Box<Screen>,
        /// The page's DevTools session.
        page: Box<WebResolver>,
    },
    /// A built-in web app's UI origin with Chromium in kiosk mode on it.
    Web(Box<WebScreen>),
    /// A task spanning apps.
    Combined(Box<CombinedScreen>),
}

impl From<Screen> for GuestDisplay {
    fn from(s: Screen) -> Self {
        GuestDisplay::Plain(Box::new(s))
    }
}

impl GuestDisplay {
    /// The display (act, screenshot, launch on it).
    pub fn screen(&mut self) -> &mut Screen {
        match self {
            GuestDisplay::Plain(s) | GuestDisplay::Page { screen: s, .. } => s,
            GuestDisplay::Web(w) => &mut w.screen,
            GuestDisplay::Combined(c) => &mut c.screen,
        }
    }

    /// The display, read-only.
    pub fn screen_ref(&self) -> &Screen {
        match self {
            GuestDisplay::Plain(s) | GuestDisplay::Page { screen: s, .. } => s,
            GuestDisplay::Web(w) => &w.screen,
            GuestDisplay::Combined(c) => &c.screen,
        }
    }

    /// What kind of screen this is, for the announcement line (`desktop`, `web`, `page`,
    /// `combined`).
    pub fn kind(&self) -> &'static str {
        match self {
            GuestDisplay::Plain(_) => "desktop",
            GuestDisplay::Page { .. } => "page",
            GuestDisplay::Web(_) => "web",
            GuestDisplay::Combined(_) => "combined",
        }
    }

    /// The web pages on the screen with their DevTools sessions: `None` for the window class
    /// of a kiosk page (it fills the screen, no window manager lists it), else the class of its
    /// browser window.
    pub fn pages(&mut self) -> Vec<(Option<String>, &mut WebResolver)> {
        match self {
            GuestDisplay::Plain(_) => Vec::new(),
            GuestDisplay::Page { page, .. } => vec![(None, page.as_mut())],
            GuestDisplay::Web(w) => vec![(None, &mut w.resolver)],
            GuestDisplay::Combined(c) => c
                .parts()
                .1
                .pages_mut()
                .map(|(class, page)| (Some(class.clone()), page))
                .collect(),
        }
    }
}
