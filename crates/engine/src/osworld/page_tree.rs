//! The widgets of a web page in a guest's `/accessibility` tree. A guest whose screen shows a web
//! app (its UI in Chromium) reads the page through the DevTools session it keeps: every visible
//! element that is a control (button, link, text field, check box, select…), a heading, an image
//! or carries text of its own, with its accessible name, its place and size in **screen** pixels,
//! and its state — as elements inside the browser window's `frame`, in the tag and namespace
//! shape of OSWorld's Ubuntu trees (`push-button`, `entry`, `link`, `check-box`, `heading`,
//! `static`…), so a harness that clicks the centre of a node found by name clicks it here.

use serde::Deserialize;
use serde_json::json;

use super::{Guest, OsworldError};
use crate::screen::{DesktopWindow, DesktopWindows};
use crate::ui::Cdp;

/// At most this many nodes per page (a huge page is cut, in document order).
pub const MAX_NODES: usize = 2000;

/// One widget of a page.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PageNode {
    /// The ARIA role (explicit, or the element's implicit one; `text` for plain text).
    pub role: String,
    /// The accessible name (aria-label, alt, placeholder, or the text).
    pub name: String,
    /// A text field's value.
    #[serde(default)]
    pub value: Option<String>,
    /// Left edge, screen pixels.
    pub x: f64,
    /// Top edge, screen pixels.
    pub y: f64,
    /// Width, pixels.
    pub w: f64,
    /// Height, pixels.
    pub h: f64,
    /// Inside the viewport.
    pub showing: bool,
    /// Has the keyboard focus.
    pub focused: bool,
    /// A checked check box or radio button, a pressed toggle.
    pub checked: bool,
    /// A disabled control.
    pub disabled: bool,
}

/// A page: its title and its widgets.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct PageTree {
    /// `document.title`.
    pub title: String,
    /// Widgets in document order.
    pub nodes: Vec<PageNode>,
}

const WALK: &str = r#"(() => {
  const dpr = window.devicePixelRatio || 1;
  const ox = window.screenX + (window.outerWidth - window.innerWidth);
  const oy = window.screenY + (window.outerHeight - window.innerHeight);
  const fold = s => (s || '').replace(/\s+/g, ' ').trim();
  const roleOf = e => {
    const r = e.getAttribute('role');
    if (r) return r.split(' ')[0];
    const t = e.tagName.toLowerCase();
    if (t === 'a' && e.hasAttribute('href')) return 'link';
    if (t === 'button' || t === 'summary') return 'button';
    if (t === 'input') {
      const ty = (e.getAttribute('type') || 'text').toLowerCase();
      if (ty === 'hidden') return null;
      if (['button', 'submit', 'reset', 'image'].includes(ty)) return 'button';
      if (ty === 'checkbox') return 'checkbox';
      if (ty === 'radio') return 'radio';
      return 'textbox';
    }
    if (t === 'textarea') return 'textbox';
    if (t === 'select') return 'combobox';
    if (/^h[1-6]$/.test(t)) return 'heading';
    if (t === 'img') return 'img';
    if (t === 'label') return 'label';
    return null;
  };
  const own = e => fold([...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join(' '));
  const nodes = [];
  const all = document.body ? document.body.querySelectorAll('*') : [];
  for (const e of all) {
    if (nodes.length >= LIMIT) break;
    let role = roleOf(e);
    const text = own(e);
    if (!role && !text) continue;
    if (['script', 'style', 'noscript', 'template'].includes(e.tagName.toLowerCase())) continue;
    const r = e.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) continue;
    if (e.checkVisibility
        ? !e.checkVisibility({ opacityProperty: true, visibilityProperty: true })
        : getComputedStyle(e).visibility === 'hidden') continue;
    role = role || 'text';
    const field = role === 'textbox' || role === 'combobox' || role === 'searchbox';
    let name = fold(e.getAttribute('aria-label'))
      || (role === 'img' ? fold(e.getAttribute('alt')) : '')
      || (field && e.labels && e.labels.length ? fold(e.labels[0].innerText) : '')
      || (field ? fold(e.getAttribute('placeholder')) : '');
    if (!name && !field) name = role === 'text' ? text : fold(e.innerText || e.value);
    nodes.push({ role, name: name.slice(0, 300), value: field ? String(e.value ?? '') : null,
      x: (ox + r.left) * dpr, y: (oy + r.top) * dpr, w: r.width * dpr, h: r.height * dpr,
      showing: r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth,
      focused: document.activeElement === e,
      checked: e.checked === true || e.getAttribute('aria-pressed') === 'true' || e.getAttribute('aria-checked') === 'true',
      disabled: e.disabled === true || e.getAttribute('aria-disabled') === 'true' });
  }
  return { title: document.title || '', nodes };
})()"#;

/// Reads the page `cdp` is attached to.
pub fn read(cdp: &mut Cdp) -> Result<PageTree, OsworldError> {
    let expr = WALK.replace("LIMIT", &MAX_NODES.to_string());
    let r = cdp
        .call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true}),
        )
        .map_err(|e| OsworldError::Infra(format!("reading the page's widgets: {e}")))?;
    if r.get("exceptionDetails").is_some() {
        // The page is navigating: no widgets this time.
        return Ok(PageTree::default());
    }
    serde_json::from_value(r["result"]["value"].clone())
        .map_err(|e| OsworldError::Infra(format!("reading the page's widgets: {e}")))
}

/// The OSWorld (AT-SPI) tag of an ARIA role. Roles that name windows in OSWorld's trees
/// (`frame`, `window`, `dialog`) become `panel`, so readers of top-level windows
/// ([`super::a11y::windows_of`]) do not take a page's dialog for a window.
pub fn tag_of(role: &str) -> String {
    let tag = match role {
        "button" => "push-button",
        "link" => "link",
        "textbox" | "searchbox" => "entry",
        "checkbox" | "switch" => "check-box",
        "radio" => "radio-button",
        "combobox" | "listbox" => "combo-box",
        "heading" => "heading",
        "img" => "image",
        "label" => "label",
        "text" => "static",
        "listitem" => "list-item",
        "menuitem" => "menu-item",
        "tab" => "page-tab",
        "dialog" | "alertdialog" | "frame" | "window" => "panel",
        other => other,
    };
    let clean: String = tag
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect::<String>()
        .to_ascii_lowercase();
    if clean.is_empty() || !clean.starts_with(|c: char| c.is_ascii_alphabetic()) {
        "unknown".into()
    } else {
        clean
    }
}

/// The nodes as XML elements (one per line, indented by `indent`).
pub fn nodes_xml(nodes: &[PageNode], indent: &str) -> String {
    let mut xml = String::new();
    for n in nodes {
        let tag = tag_of(&n.role);
        let flag = |on: bool, name: &str| {
            if on {
                format!(" st:{name}=\"true\"")
            } else {
                String::new()
            }
        };
        let states = format!(
            "{}{}{}{}{}",
            flag(n.showing, "showing"),
            flag(n.showing, "visible"),
            flag(n.focused, "focused"),
            flag(n.checked, "checked"),
            flag(!n.disabled, "enabled"),
        );
        let (x, y, w, h) = (n.x.round(), n.y.round(), n.w.round(), n.h.round());
        let text = n.value.as_deref().unwrap_or_default();
        xml.push_str(&format!(
            "{indent}<{tag} name=\"{}\"{states} cp:screencoord=\"({x}, {y})\" cp:size=\"({w}, {h})\">{}</{tag}>\n",
            super::windows::escape(&n.name),
            super::windows::escape(text),
        ));
    }
    xml
}

/// The application name of a kiosk page (it fills the screen; no window manager lists it).
pub const KIOSK_CLASS: &str = "Chromium";

/// A guest's `/accessibility` XML: the window manager's windows, with the widgets of every web
/// page on the screen inside its browser window's `frame`; a kiosk page is one full-screen
/// `chromium` frame titled by the page.
pub fn accessibility(guest: &Guest) -> Result<String, OsworldError> {
    let (w, h) = guest.size()?;
    // A desktop application's screen: its own AT-SPI tree (read outside the screen's lock).
    let reader = {
        let mut display = guest.display()?;
        let screen = display.screen();
        match screen.session_dir() {
            Some(_) => Some(screen.a11y_reader(guest.screen_config())?),
            None => None,
        }
    };
    if let Some(reader) = reader {
        return Ok(super::atspi_tree::atspi_xml(&reader.read()?, w, h));
    }
    let mut windows = DesktopWindows::connect(&guest.display_name())?.list()?;
    let mut trees: Vec<(String, String)> = Vec::new();
    let mut display = guest.display()?;
    for (class, page) in display.pages() {
        let tree = read(page.cdp())?;
        let class = class.unwrap_or_else(|| {
            let fit = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
            windows.push(DesktopWindow {
                id: 0,
                class: KIOSK_CLASS.into(),
                title: tree.title.clone(),
                area: (0, 0, fit(w), fit(h)),
                focused: !windows.iter().any(|x| x.focused),
            });
            KIOSK_CLASS.to_string()
        });
        trees.push((class, nodes_xml(&tree.nodes, "      ")));
    }
    drop(display);
    Ok(super::windows::accessibility_xml_with(
        &windows,
        w,
        h,
        |win| {
            trees
                .iter()
                .find(|(c, _)| *c == win.class)
                .map(|(_, x)| x.clone())
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(role: &str, name: &str) -> PageNode {
        PageNode {
            role: role.into(),
            name: name.into(),
            value: None,
            x: 10.4,
            y: 20.6,
            w: 30.0,
            h: 40.0,
            showing: true,
            focused: false,
            checked: false,
            disabled: false,
        }
    }

    #[test]
    fn roles_become_osworld_tags_and_never_windows() {
        assert_eq!(tag_of("button"), "push-button");
        assert_eq!(tag_of("textbox"), "entry");
        assert_eq!(tag_of("dialog"), "panel");
        assert_eq!(tag_of("x\"><evil"), "xevil");
        assert_eq!(tag_of("9lives"), "unknown");
        let xml = nodes_xml(
            &[
                node("button", "Star \"Weekly\" <digest>"),
                node("dialog", "Confirm"),
            ],
            "  ",
        );
        assert!(
            xml.contains(
                "<push-button name=\"Star &quot;Weekly&quot; &lt;digest&gt;\" st:showing=\"true\""
            ),
            "{xml}"
        );
        assert!(xml.contains("cp:screencoord=\"(10, 21)\" cp:size=\"(30, 40)\""));
        // A page's dialog is not a window to the readers of top-level windows.
        let framed = format!(
            "<application name=\"chromium\"><frame name=\"Mail\" cp:screencoord=\"(0, 0)\" \
             cp:size=\"(1280, 800)\">{xml}</frame></application>"
        );
        assert_eq!(super::super::a11y::windows_of(&framed).len(), 1);
    }
}
