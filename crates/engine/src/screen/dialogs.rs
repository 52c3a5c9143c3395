//! Modal dialogs left open on a desktop application's screen (issue #31): a "Save changes?",
//! "Keep current format?" or error box still showing when a trial ends means the application
//! is waiting for an answer and the document on disk is not what the screen shows. That is an
//! infrastructure failure naming the dialog and quoting its text, never a score.
//!
//! Found through the window list (`_NET_WM_STATE_MODAL`, cheap: one X round trip per window)
//! and, once one is found, quoted from the accessibility tree (the `alert`/`dialog` node's
//! labels); a tree that cannot be read leaves the window title alone as the quote.

use serde_json::Value;

use super::{DesktopWindows, Screen, ScreenConfig, ScreenError};

/// A modal dialog showing on a screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModalDialog {
    /// Its window title (`Save Document?`).
    pub title: String,
    /// Its window's `WM_CLASS` class (`Soffice`).
    pub class: String,
    /// The text it shows (its labels, from the accessibility tree), one line each.
    pub text: Vec<String>,
}

/// Most characters of a dialog's text quoted in an error.
const QUOTE_CHARS: usize = 400;

impl ModalDialog {
    /// `"Save Document?" (Soffice): Save changes to … | Your changes will be lost …`.
    pub fn describe(&self) -> String {
        let mut text = self.text.join(" | ");
        if let Some((cut, _)) = text.char_indices().nth(QUOTE_CHARS) {
            text.truncate(cut);
            text.push('…');
        }
        if text.is_empty() {
            format!("{:?} ({})", self.title, self.class)
        } else {
            format!("{:?} ({}): {text}", self.title, self.class)
        }
    }
}

impl DesktopWindows {
    /// The managed windows in the modal state (`_NET_WM_STATE_MODAL`), in mapping order.
    pub fn modal_windows(&self) -> Result<Vec<super::DesktopWindow>, ScreenError> {
        let state = self.atom("_NET_WM_STATE")?;
        let modal = self.atom("_NET_WM_STATE_MODAL")?;
        let mut out = Vec::new();
        for w in self.list()? {
            let raw = self.property(w.id, state, x11rb::protocol::xproto::AtomEnum::ATOM.into())?;
            let atoms = raw
                .chunks_exact(4)
                .map(|a| u32::from_le_bytes([a[0], a[1], a[2], a[3]]));
            if atoms.into_iter().any(|a| a == modal) {
                out.push(w);
            }
        }
        Ok(out)
    }
}

/// The text of the modal `alert`/`dialog` nodes of an accessibility tree (`tw_atspi.py`'s
/// output), one entry per dialog, in tree order: the names and texts of the nodes under it.
pub fn dialog_texts(tree: &Value) -> Vec<Vec<String>> {
    let nodes = tree["nodes"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut inside: Option<u64> = None;
    for n in nodes {
        let depth = n["depth"].as_u64().unwrap_or(0);
        if inside.is_some_and(|d| depth <= d) {
            inside = None;
        }
        let role = n["role"].as_str().unwrap_or("");
        let modal = n["states"]
            .as_array()
            .is_some_and(|s| s.iter().any(|x| x == "modal"));
        if inside.is_none() && modal && matches!(role, "alert" | "dialog" | "file chooser") {
            inside = Some(depth);
            out.push(Vec::new());
            continue;
        }
        if inside.is_none() || !matches!(role, "label" | "text" | "static") {
            continue;
        }
        let line = n["text"]
            .as_str()
            .filter(|t| !t.trim().is_empty())
            .or_else(|| n["name"].as_str())
            .unwrap_or("")
            .trim();
        if let Some(lines) = out.last_mut() {
            if !line.is_empty() && !lines.iter().any(|l| l == line) {
                lines.push(line.to_string());
            }
        }
    }
    out
}

impl Screen {
    /// The modal dialogs showing now, each quoted from the accessibility tree when this
    /// screen runs desktop applications (their session is up) and the tree can be read.
    pub fn modal_dialogs(&self, cfg: &ScreenConfig) -> Result<Vec<ModalDialog>, ScreenError> {
        let windows = DesktopWindows::connect(&self.display_name())?.modal_windows()?;
        if windows.is_empty() {
            return Ok(Vec::new());
        }
        let texts = match self.session_dir() {
            Some(_) => self
                .a11y_reader(cfg)
                .and_then(|r| r.read())
                .map(|t| dialog_texts(&t))
                .unwrap_or_default(),
            None => Vec::new(),
        };
        Ok(windows
            .into_iter()
            .enumerate()
            .map(|(i, w)| ModalDialog {
                title: w.title,
                class: w.class,
                text: texts.get(i).cloned().unwrap_or_default(),
            })
            .collect())
    }

    /// `Ok` when no modal dialog shows; else [`ScreenError::DialogLeftOpen`] naming each one
    /// and quoting its text (the end of a trial on a desktop application, before its state is
    /// read: an application waiting for an answer has not written what the screen shows).
    pub fn ensure_no_modal_dialog(&self, cfg: &ScreenConfig) -> Result<(), ScreenError> {
        let open = self.modal_dialogs(cfg)?;
        if open.is_empty() {
            return Ok(());
        }
        Err(ScreenError::DialogLeftOpen(
            open.iter()
                .map(ModalDialog::describe)
                .collect::<Vec<_>>()
                .join("; "),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_labels_under_a_modal_alert_are_its_text_and_other_nodes_are_not() {
        let tree = serde_json::json!({"nodes": [
            {"depth": 0, "role": "application", "name": "soffice", "states": []},
            {"depth": 1, "role": "frame", "name": "a.xlsx - LibreOffice Calc", "states": []},
            {"depth": 6, "role": "label", "name": "", "text": "Sheet 1 of 1", "states": []},
            {"depth": 1, "role": "alert", "name": "Warning", "states": ["active", "modal"]},
            {"depth": 5, "role": "label", "name": "Save changes to document “a.xlsx”?",
             "text": "Save changes to document “a.xlsx”?", "states": []},
            {"depth": 5, "role": "push button", "name": "Save", "states": []},
            {"depth": 5, "role": "label", "name": "Your changes will be lost.", "states": []},
            {"depth": 1, "role": "dialog", "name": "Find and Replace", "states": ["enabled"]},
            {"depth": 3, "role": "label", "name": "Find:", "states": []}
        ]});
        let got = dialog_texts(&tree);
        assert_eq!(
            got,
            vec![vec![
                "Save changes to document “a.xlsx”?".to_string(),
                "Your changes will be lost.".to_string()
            ]]
        );
        let d = ModalDialog {
            title: "Save Document?".into(),
            class: "Soffice".into(),
            text: got[0].clone(),
        };
        let s = d.describe();
        assert!(
            s.starts_with("\"Save Document?\" (Soffice): Save changes"),
            "{s}"
        );
        let long = ModalDialog {
            text: vec!["x".repeat(1000)],
            ..d
        };
        assert!(long.describe().chars().count() < 450);
    }
}
