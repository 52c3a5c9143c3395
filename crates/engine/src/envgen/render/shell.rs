//! The frame of every page: the sidebar (the views with a `nav` label) beside the main area.

use maud::{html, Markup};

use super::super::model::Model;

/// The sidebar with `current` (a view name) marked, and `content` in the main area; the frame
/// carries `data-view=current`, so a plan (and `envgen check`) can tell which view a page is.
pub fn frame(model: &Model, current: &str, title: &str, content: Markup) -> Markup {
    html! {
        div.app data-view=(current) {
            nav.sidebar aria-label="Navigation" {
                div.workspace { (model.spec.app.title) }
                ul {
                    @for v in model.views().filter(|v| v.nav.is_some()) {
                        @let id = format!("nav-{}", v.name);
                        li {
                            a id=(id) data-el=(id) href=(v.route) class=(if v.name == current { "current" } else { "" })
                                aria-current=[(v.name == current).then_some("page")] { (v.nav.as_deref().unwrap_or_default()) }
                        }
                    }
                }
            }
            main aria-label=(title) {
                div.head { h1 { (title) } }
                div.scroll { (content) }
            }
        }
    }
}
