//! Windows of the guest's screen as OSWorld's server sees them: finding one by name the way
//! `wmctrl -a/-c` does (title substring, case-insensitive; `strict`: the whole title, exact;
//! `by_class`: the WM_CLASS), and the `/accessibility` tree. The desktop here has no AT-SPI bus,
//! so the tree is the window manager's view — one `application` per window class with a `frame`
//! per window (name, focus, place and size) — in the element and namespace shape of OSWorld's
//! Ubuntu trees, so parsers of that XML read it.

use crate::screen::{DesktopWindow, DesktopWindows};

use super::OsworldError;

/// Window classes of the desktop's own programs: the screen keeps them running (closing one
/// would end the environment), so `/setup/close_window` refuses them.
pub const KEPT_CLASSES: [&str; 2] = ["XTerm", "Pcmanfm"];

/// How `/setup/activate_window` and `/setup/close_window` match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Match {
    /// The whole title (or class), case-sensitively.
    pub strict: bool,
    /// Match the WM_CLASS instead of the title.
    pub by_class: bool,
}

impl Match {
    /// Whether `w` is the window `name` names.
    pub fn hits(&self, w: &DesktopWindow, name: &str) -> bool {
        let field = if self.by_class { &w.class } else { &w.title };
        if self.strict {
            field == name
        } else {
            field.to_lowercase().contains(&name.to_lowercase())
        }
    }
}

/// The first window `name` matches, or `None`.
pub fn find(
    windows: &DesktopWindows,
    name: &str,
    how: Match,
) -> Result<Option<DesktopWindow>, OsworldError> {
    Ok(windows.list()?.into_iter().find(|w| how.hits(w, name)))
}

/// `s` escaped for an XML attribute or text.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

const NS: &str = "xmlns:st=\"https://accessibility.ubuntu.example.org/ns/state\" \
    xmlns:attr=\"https://accessibility.ubuntu.example.org/ns/attributes\" \
    xmlns:cp=\"https://accessibility.ubuntu.example.org/ns/component\"";

/// The `/accessibility` XML of these windows on a `width`×`height` screen.
pub fn accessibility_xml(windows: &[DesktopWindow], width: u32, height: u32) -> String {
    accessibility_xml_with(windows, width, height, |_| None)
}

/// [`accessibility_xml`] with the elements `inside` gives for a window (a page's widgets,
/// see `page_tree`) nested in its `frame`.
pub fn accessibility_xml_with(
    windows: &[DesktopWindow],
    width: u32,
    height: u32,
    inside: impl Fn(&DesktopWindow) -> Option<String>,
) -> String {
    let mut classes: Vec<&str> = Vec::new();
    for w in windows {
        if !classes.contains(&w.class.as_str()) {
            classes.push(&w.class);
        }
    }
    let mut xml = format!(
        "<desktop-frame {NS} name=\"main\" cp:screencoord=\"(0, 0)\" cp:size=\"({width}, {height})\">\n"
    );
    for class in classes {
        xml.push_str(&format!(
            "  <application name=\"{}\">\n",
            escape(&class.to_lowercase())
        ));
        for w in windows.iter().filter(|w| w.class == class) {
            let (x, y, wd, ht) = w.area;
            let focus = if w.focused {
                " st:active=\"true\" st:focused=\"true\""
            } else {
                ""
            };
            let open = format!(
                "    <frame name=\"{}\" st:showing=\"true\" st:visible=\"true\"{focus} \
                 cp:screencoord=\"({x}, {y})\" cp:size=\"({wd}, {ht})\"",
                escape(&w.title)
            );
            match inside(w) {
                Some(inner) => xml.push_str(&format!("{open}>\n{inner}    </frame>\n")),
                None => xml.push_str(&format!("{open}/>\n")),
            }
        }
        xml.push_str("  </application>\n");
    }
    xml.push_str("</desktop-frame>\n");
    xml
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(class: &str, title: &str, focused: bool) -> DesktopWindow {
        DesktopWindow {
            id: 1,
            class: class.into(),
            title: title.into(),
            area: (10, 20, 300, 200),
            focused,
        }
    }

    #[test]
    fn matching_follows_wmctrl() {
        let w = win("Mousepad", "notes.txt - Mousepad", false);
        assert!(Match::default().hits(&w, "NOTES"));
        assert!(!Match {
            strict: true,
            ..Default::default()
        }
        .hits(&w, "notes.txt"));
        assert!(Match {
            by_class: true,
            strict: true
        }
        .hits(&w, "Mousepad"));
        assert!(!Match {
            by_class: true,
            ..Default::default()
        }
        .hits(&w, "notes"));
    }

    #[test]
    fn the_tree_groups_frames_by_application_and_escapes_titles() {
        let xml = accessibility_xml(
            &[
                win("XTerm", "Terminal", true),
                win("Mousepad", "a<b> & \"c\"", false),
            ],
            1280,
            800,
        );
        assert!(xml.contains("<application name=\"xterm\">"), "{xml}");
        assert!(
            xml.contains("name=\"a&lt;b&gt; &amp; &quot;c&quot;\""),
            "{xml}"
        );
        assert!(xml.contains("st:focused=\"true\" cp:screencoord=\"(10, 20)\""));
        assert_eq!(xml.matches("<frame ").count(), 2);
    }
}
