//! Reading a guest's `/accessibility` tree back as windows: what a planner needs of a guest's
//! screen to find its targets (the [`crate::ui::DesktopResolver`]
//! of a guest, through [`WindowList`]). The tree is OSWorld's Ubuntu shape — `application` elements holding `frame`
//! (or `window`, `dialog`) elements with `name`, `st:focused`, `cp:screencoord="(x, y)"` and
//! `cp:size="(w, h)"` — which is what `env serve --osworld` answers
//! ([`super::windows::accessibility_xml`]) and what OSWorld's own server answers on Ubuntu
//! guests. Only the top-level windows are read (the planners target windows and points).

use std::sync::OnceLock;

use regex::Regex;

use crate::act::RolloutError;
use crate::screen::DesktopWindow;
use crate::ui::WindowList;

fn tags() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"<([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*\x22[^\x22]*\x22)*)\s*/?>").ok()
    })
    .as_ref()
}

fn attrs() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#"([\w:.-]+)\s*=\s*"([^"]*)""#).ok())
        .as_ref()
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// `"(a, b)"` as two integers.
fn pair(s: &str) -> Option<(i64, i64)> {
    let inner = s.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (a, b) = inner.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// The windows of an `/accessibility` tree: one per `frame`/`window`/`dialog` element with a
/// place and a size (`class` = its `application`'s name, `id` = 0). Other elements are skipped.
pub fn windows_of(xml: &str) -> Vec<DesktopWindow> {
    let (Some(tags), Some(attrs)) = (tags(), attrs()) else {
        return Vec::new();
    };
    let mut class = String::new();
    let mut out = Vec::new();
    for t in tags.captures_iter(xml) {
        let name = t.get(1).map_or("", |m| m.as_str());
        let body = t.get(2).map_or("", |m| m.as_str());
        let get = |key: &str| {
            attrs
                .captures_iter(body)
                .find(|a| a.get(1).is_some_and(|k| k.as_str() == key))
                .and_then(|a| a.get(2).map(|v| unescape(v.as_str())))
        };
        if name == "application" {
            class = get("name").unwrap_or_default();
            continue;
        }
        if !matches!(name, "frame" | "window" | "dialog") {
            continue;
        }
        let place = get("cp:screencoord").as_deref().and_then(pair);
        let size = get("cp:size").as_deref().and_then(pair);
        let (Some((x, y)), Some((w, h))) = (place, size) else {
            continue;
        };
        let fit = |v: i64| i32::try_from(v).unwrap_or(0);
        out.push(DesktopWindow {
            id: 0,
            class: class.clone(),
            title: get("name").unwrap_or_default(),
            area: (fit(x), fit(y), fit(w), fit(h)),
            focused: get("st:focused").as_deref() == Some("true"),
        });
    }
    out
}

/// A guest's windows for a [`crate::ui::DesktopResolver`]: its `/accessibility` tree,
/// read back; a guest that does not answer is an infrastructure failure.
impl WindowList for super::GuestClient {
    fn windows(&self) -> Result<Vec<DesktopWindow>, RolloutError> {
        match self.accessibility() {
            Ok(xml) => Ok(windows_of(&xml)),
            Err(e) => Err(RolloutError::Infra(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::osworld::windows::accessibility_xml;

    #[test]
    fn the_served_tree_reads_back_as_its_windows() {
        let wins = vec![
            DesktopWindow {
                id: 7,
                class: "XTerm".into(),
                title: "Terminal <a & \"b\">".into(),
                area: (10, 20, 300, 200),
                focused: true,
            },
            DesktopWindow {
                id: 8,
                class: "Pcmanfm".into(),
                title: "user".into(),
                area: (0, 0, 1280, 400),
                focused: false,
            },
        ];
        let back = windows_of(&accessibility_xml(&wins, 1280, 800));
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].title, "Terminal <a & \"b\">");
        assert_eq!(back[0].class, "xterm");
        assert_eq!((back[0].area, back[0].focused), ((10, 20, 300, 200), true));
        assert_eq!((back[1].area, back[1].focused), ((0, 0, 1280, 400), false));
    }

    #[test]
    fn elements_without_a_place_and_other_roles_are_skipped() {
        let xml = r#"<desktop-frame name="main" cp:screencoord="(0, 0)" cp:size="(9, 9)">
          <application name="gedit"><frame name="a.txt - gedit" cp:screencoord="(5, 6)" cp:size="(7, 8)">
          <push-button name="Save" cp:screencoord="(1, 1)" cp:size="(2, 2)"/></frame>
          <frame name="no place"/></application></desktop-frame>"#;
        let w = windows_of(xml);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(
            (w[0].title.as_str(), w[0].area),
            ("a.txt - gedit", (5, 6, 7, 8))
        );
    }
}
