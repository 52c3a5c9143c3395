//! The HTML shell every page shares: doctype, title, stylesheet, the flash banner.

use maud::{html, Markup, DOCTYPE};

/// The banner shown once after an operation (kept in server memory, never in the state).
#[derive(Debug, Clone, PartialEq)]
pub struct Flash {
    /// Whether the operation failed.
    pub error: bool,
    /// The text.
    pub text: String,
    /// The operation it reports (`data-op` on the banner, so a plan can wait for its outcome).
    pub op: String,
}

/// A whole page: `title`, the app's stylesheet, an optional banner and the body; `path` is
/// carried as `body[data-path]` so a plan can tell a navigation has landed.
pub fn document(path: &str, title: &str, flash: Option<&Flash>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (title) }
                link rel="stylesheet" href="/style.css";
            }
            body data-path=(path) {
                @if let Some(f) = flash {
                    div.flash.error[f.error] data-op=(f.op) role=(if f.error { "alert" } else { "status" }) {
                        (f.text)
                    }
                }
                (body)
            }
        }
    }
}

/// The hidden `back` field that returns a form's submitter to the page it was on.
pub fn back(path: &str) -> Markup {
    html! { input type="hidden" name="back" value=(path); }
}

/// A page for a path the app does not have.
pub fn not_found(path: &str) -> Markup {
    document(
        path,
        "Not found",
        None,
        html! {
            main.notfound {
                h1 { "Nothing here" }
                p { "There is no page " code { (path) } "." }
                a href="/" { "Back to the start page" }
            }
        },
    )
}
