//! Target resolution on a desktop application's screen: windows by title (as on the files
//! desktop), and the application's own widgets through its accessibility tree (AT-SPI, read by
//! [`A11yReader`]), so every step of a keyboard-first plan is checked against what the screen
//! shows before the next one.
//!
//! Targets (`Target::Role { role, name }`):
//! - `window` / `focused_window`: a top-level window by title (X11 window list);
//! - `name_box`: a spreadsheet's Name Box (the editable text showing the cursor's cell reference);
//! - `cell`: the Name Box once it shows `name` (the cursor is on that cell or range);
//! - `node`: any showing accessible node, `name` = `role:name-or-text` (`push button:OK`), with
//!   an optional state that must hold (`check box:Show line numbers[checked]`) or not (`[!checked]`);
//! - `labelled`: the editable field (text, spin button) on the row of the label `name` (`Width:`),
//!   the nearest one to its right — how a person finds an unnamed field by its caption;
//! - `no_node`: present only while no such node shows (`dialog:` = no dialog open);
//! - `shown` / `above` / `within` / `contains`: a node in its viewport's view, a file holding a text
//!   ([`super::ui_oracle_shown`]);
//! - `saved`: the document `name` (relative to the home) has been written since the plan began
//!   and not touched for 1.5 s since — the save a `ctrl+s` step asked for has reached the disk;
//! - `saved_pdf`: as `saved` (by the later of mtime and ctime: a copy keeps its source's mtime),
//!   and the file is a whole PDF (it ends with `%%EOF`): a print job creates its file first and
//!   fills it later;
//! - `nth_node`: the `N`th (from 0, in tree order) node matching `role:label[state]#N` — form
//!   fields on a PDF page have neither names nor captions, only their order.
//! - `labelled_shows`, `focused_shows`, `labelled_button`, `field_within`: see `ui_oracle_fields`.
//! - `page_point`, `popup`, `pdf_has`: a place on a document's page, a node of a later window, a
//!   saved PDF's bytes: see `ui_oracle_page`.

use std::path::PathBuf;
use std::time::SystemTime;

use serde_json::Value;

use super::ui_oracle_fields::resolve_field;
use super::ui_oracle_files::DesktopResolver;
use super::ui_plan::{Rect, ScrollHint, Target, TargetResolver};
use super::RolloutError;
use crate::screen::A11yReader;

/// How long a saved document must stay unchanged before the save counts as done.
const SAVE_QUIET: std::time::Duration = std::time::Duration::from_millis(1500);

/// Resolves windows, accessible nodes and saved documents of a desktop application's screen.
pub struct AppResolver {
    windows: DesktopResolver,
    a11y: A11yReader,
    home: PathBuf,
    since: SystemTime,
}

impl AppResolver {
    /// A resolver for the screen on `display` whose applications `a11y` reads; documents are
    /// looked up under `home`.
    pub fn new(display: &str, a11y: A11yReader, home: PathBuf) -> Result<Self, RolloutError> {
        Ok(AppResolver {
            windows: DesktopResolver::connect(display)?,
            a11y,
            home,
            since: SystemTime::now(),
        })
    }

    fn nodes(&self) -> Result<Vec<Value>, RolloutError> {
        let tree = self.a11y.read()?;
        Ok(tree["nodes"].as_array().cloned().unwrap_or_default())
    }
}

/// Whether `text` is a cell reference or range (`E2`, `$A$1:B3`).
pub fn is_cell_ref(text: &str) -> bool {
    let part = |p: &str| {
        let p = p.replace('$', "");
        let letters = p.chars().take_while(char::is_ascii_uppercase).count();
        (1..=3).contains(&letters)
            && p.len() > letters
            && p[letters..].chars().all(|c| c.is_ascii_digit())
    };
    !text.is_empty() && text.split(':').count() <= 2 && text.split(':').all(part)
}

/// The screen rectangle of an accessible node, if it has one.
pub(super) fn rect(n: &Value) -> Option<Rect> {
    let get = |k: &str| n.get(k).and_then(Value::as_i64).map(|v| v as i32);
    Some(Rect {
        x: get("x")?,
        y: get("y")?,
        w: get("w")?,
        h: get("h")?,
    })
}

fn text(n: &Value, key: &str) -> String {
    n.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// The Name Box: the first editable text node showing a cell reference.
pub fn name_box(nodes: &[Value]) -> Option<&Value> {
    nodes.iter().find(|n| {
        text(n, "role") == "text"
            && n["states"]
                .as_array()
                .is_some_and(|s| s.iter().any(|v| v == "editable"))
            && is_cell_ref(&text(n, "text"))
    })
}

/// A label as compared: without mnemonics' `~`, a trailing ellipsis or spaces, lower case.
fn label_key(s: &str) -> String {
    s.replace('~', "")
        .trim_end_matches(['.', '…', ' '])
        .trim()
        .to_lowercase()
}

/// Whether node `n` holds `state` (`checked`), or lacks it when written `!checked`.
fn holds(n: &Value, state: &str) -> bool {
    let (want, name) = match state.strip_prefix('!') {
        Some(rest) => (false, rest),
        None => (true, state),
    };
    let has = n["states"]
        .as_array()
        .is_some_and(|s| s.iter().any(|v| v == name));
    has == want
}

/// The first node matching `role:label` (label = its name or its text; compared without case,
/// mnemonics or a trailing ellipsis; `role` may list alternatives: `menu item|check menu item`;
/// a label `*suffix` matches any label ending so: `text:* pt` is a font size field, and a label
/// `prefix*` any label starting so: `panel:Title *` is a title placeholder whatever its number),
/// optionally followed by `[state]` or `[!state]` that the node must (not) hold.
pub fn find_node<'a>(nodes: &'a [Value], spec: &str) -> Option<&'a Value> {
    nth_node(nodes, spec, 0)
}

/// The `n`th node (from 0, in tree order) matching `spec` as [`find_node`] reads it.
pub fn nth_node<'a>(nodes: &'a [Value], spec: &str, n: usize) -> Option<&'a Value> {
    let (spec, state) = match spec.strip_suffix(']').and_then(|s| s.rsplit_once('[')) {
        Some((rest, state)) => (rest, Some(state)),
        None => (spec, None),
    };
    let (role, label) = spec.split_once(':').unwrap_or((spec, ""));
    let want = label_key(label);
    let matches = |got: String| match (want.strip_prefix('*'), want.strip_suffix('*')) {
        (Some(suffix), _) => got.ends_with(suffix),
        (None, Some(prefix)) => got.starts_with(prefix),
        (None, None) => got == want,
    };
    nodes
        .iter()
        .filter(|n| {
            role.split('|').any(|r| text(n, "role") == r)
                && (want.is_empty()
                    || matches(label_key(&text(n, "name")))
                    || matches(label_key(&text(n, "text"))))
                && state.is_none_or(|s| holds(n, s))
        })
        .nth(n)
}

/// `spec#N` as (spec, N); a spec without `#N` is the first match.
fn split_index(spec: &str) -> (&str, usize) {
    spec.rsplit_once('#')
        .and_then(|(s, n)| Some((s, n.parse().ok()?)))
        .unwrap_or((spec, 0))
}

/// When the file's inode last changed (written, renamed into place or copied here).
fn changed_at(m: &std::fs::Metadata) -> SystemTime {
    use std::os::unix::fs::MetadataExt;
    let secs = u64::try_from(m.ctime()).unwrap_or(0);
    let nanos = u32::try_from(m.ctime_nsec()).unwrap_or(0);
    SystemTime::UNIX_EPOCH + std::time::Duration::new(secs, nanos)
}

/// Whether `bytes` is a whole PDF: its last non-blank bytes are `%%EOF`.
pub fn complete_pdf(bytes: &[u8]) -> bool {
    bytes.trim_ascii_end().ends_with(b"%%EOF")
}

/// Where a field is clicked to type into it: a spin button's text part (its left third; the −/+
/// buttons fill the rest of a narrow one), anything else whole.
fn field_rect(n: &Value) -> Option<Rect> {
    let r = rect(n)?;
    if text(n, "role") == "spin button" {
        return Some(Rect { w: r.w / 3, ..r });
    }
    Some(r)
}

/// The editable, enabled field (text or spin button) on the row of the label `caption`, nearest
/// to its right: the row is the label's vertical centre falling inside the field.
pub fn labelled<'a>(nodes: &'a [Value], caption: &str) -> Option<&'a Value> {
    let label = rect(find_node(nodes, &format!("label:{caption}"))?)?;
    let (_, cy) = label.centre();
    nodes
        .iter()
        .filter(|n| matches!(text(n, "role").as_str(), "text" | "spin button" | "entry"))
        .filter(|n| holds(n, "editable") && holds(n, "enabled"))
        .filter_map(|n| rect(n).map(|r| (n, r)))
        .filter(|(_, r)| r.y <= cy && cy <= r.y + r.h && r.x >= label.x + label.w - 2)
        .min_by_key(|(_, r)| r.x)
        .map(|(n, _)| n)
}

impl TargetResolver for AppResolver {
    fn scroll_hint(&mut self, target: &Target) -> Result<Option<ScrollHint>, RolloutError> {
        match target {
            Target::Role { role, name } if role == "shown" => {
                Ok(super::ui_oracle_shown::scroll_hint(&self.nodes()?, name))
            }
            _ => Ok(None),
        }
    }

    fn resolve(&mut self, target: &Target) -> Result<Option<Rect>, RolloutError> {
        let Target::Role { role, name } = target else {
            return self.windows.resolve(target);
        };
        match role.as_str() {
            "window" | "focused_window" => self.windows.resolve(target),
            "name_box" => Ok(name_box(&self.nodes()?).and_then(rect)),
            "cell" => {
                let nodes = self.nodes()?;
                Ok(name_box(&nodes)
                    .filter(|n| text(n, "text") == *name)
                    .and_then(rect))
            }
            "node" => Ok(find_node(&self.nodes()?, name).and_then(rect)),
            "nth_node" => {
                let (spec, n) = split_index(name);
                Ok(nth_node(&self.nodes()?, spec, n).and_then(rect))
            }
            "labelled" => Ok(labelled(&self.nodes()?, name).and_then(field_rect)),
            "shown" => Ok(super::ui_oracle_shown::shown(&self.nodes()?, name)),
            "above" => Ok(super::ui_oracle_shown::above(&self.nodes()?, name)),
            "within" => Ok(super::ui_oracle_shown::within(&self.nodes()?, name)),
            "contains" => Ok(
                super::ui_oracle_shown::contains(&self.home, name).then_some(Rect {
                    x: 0,
                    y: 0,
                    w: 1,
                    h: 1,
                }),
            ),
            "page_point" => Ok(super::ui_oracle_page::page_point(&self.nodes()?, name)),
            "popup" => Ok(super::ui_oracle_page::popup(&self.nodes()?, name)),
            "pdf_has" => Ok(
                super::ui_oracle_page::pdf_has(&self.home, name).then_some(Rect {
                    x: 0,
                    y: 0,
                    w: 1,
                    h: 1,
                }),
            ),
            "no_node" => Ok(find_node(&self.nodes()?, name).is_none().then_some(Rect {
                x: 0,
                y: 0,
                w: 1,
                h: 1,
            })),
            "saved" | "saved_pdf" => {
                // Written since the plan began, and then left alone for a moment: LibreOffice
                // writes a document in several steps, and one stopped half-way is unreadable.
                let path = self.home.join(name);
                let meta = std::fs::metadata(&path);
                let mut stamp = meta.as_ref().ok().and_then(|m| m.modified().ok());
                if role == "saved_pdf" {
                    // A copy keeps its source's mtime (Evince's Save As copies a temporary
                    // file): the inode's change time tells when it was written here.
                    stamp = stamp.max(meta.as_ref().ok().map(changed_at));
                }
                let written = stamp.is_some_and(|t| {
                    t > self.since && t.elapsed().is_ok_and(|age| age >= SAVE_QUIET)
                });
                let whole =
                    role != "saved_pdf" || std::fs::read(&path).is_ok_and(|b| complete_pdf(&b));
                Ok((written && whole).then_some(Rect {
                    x: 0,
                    y: 0,
                    w: 1,
                    h: 1,
                }))
            }
            // Dialog fields by what they show, unnamed buttons by caption or frame (#31).
            "labelled_shows" | "focused_shows" | "labelled_button" | "field_within" => {
                Ok(resolve_field(&self.nodes()?, role, name).flatten())
            }
            other => Err(RolloutError::Policy(format!(
                "a desktop application's screen resolves window, name_box, cell, node, nth_node, \
                 labelled, shown, above, within, contains, page_point, popup, pdf_has, no_node, \
                 saved, saved_pdf and field targets, not {other:?}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_name_box_is_the_editable_text_showing_a_cell_reference() {
        let nodes = vec![
            json!({"role": "text", "text": "Cambria", "states": ["editable"], "x": 1, "y": 1, "w": 9, "h": 9}),
            json!({"role": "text", "text": "E2", "states": ["editable"], "x": 5, "y": 6, "w": 10, "h": 4}),
            json!({"role": "push button", "name": "OK", "states": [], "x": 50, "y": 60, "w": 10, "h": 4}),
        ];
        assert_eq!(text(name_box(&nodes).unwrap(), "text"), "E2");
        assert_eq!(
            rect(find_node(&nodes, "push button:OK").unwrap())
                .unwrap()
                .x,
            50
        );
        assert!(find_node(&nodes, "dialog:").is_none());
        assert!(find_node(&nodes, "menu item|push button:ok...").is_some());
        // A `*suffix` label matches a field by how its text ends (a font size: `44 pt`).
        let size =
            json!({"role": "text", "text": "44 pt", "states": [], "x": 7, "y": 8, "w": 9, "h": 9});
        let nodes = [nodes, vec![size]].concat();
        assert_eq!(rect(find_node(&nodes, "text:* pt").unwrap()).unwrap().x, 7);
        assert!(find_node(&nodes, "text:* px").is_none());
        // A `prefix*` label matches by how it starts (a duplicated slide's `Title 2`).
        let title = json!({"role": "panel", "name": "Title 2", "states": ["selected"], "x": 3, "y": 8, "w": 9, "h": 9});
        let nodes = [nodes, vec![title]].concat();
        assert_eq!(
            rect(find_node(&nodes, "panel:Title *[selected]").unwrap())
                .unwrap()
                .x,
            3
        );
        assert!(find_node(&nodes, "panel:Subtitle *").is_none());
        assert!(is_cell_ref("$A$1:B3") && is_cell_ref("AB12") && !is_cell_ref("11 pt"));
    }

    /// Fails on the old resolver, which had neither states in a node spec nor captions.
    #[test]
    fn node_states_and_fields_by_their_caption_resolve() {
        let nodes = vec![
            json!({"role": "check box", "name": "Show white space", "states": ["enabled"], "x": 0, "y": 0, "w": 9, "h": 9}),
            json!({"role": "label", "name": "Width:", "text": "Width:", "states": [], "x": 10, "y": 100, "w": 50, "h": 17}),
            json!({"role": "spin button", "name": "", "text": "4", "states": ["editable", "enabled"], "x": 300, "y": 92, "w": 90, "h": 34}),
            json!({"role": "spin button", "name": "", "text": "8", "states": ["editable", "enabled"], "x": 80, "y": 92, "w": 90, "h": 34}),
            json!({"role": "spin button", "name": "", "text": "72", "states": ["editable", "enabled"], "x": 80, "y": 200, "w": 90, "h": 34}),
        ];
        assert!(find_node(&nodes, "check box:Show white space[!checked]").is_some());
        assert!(find_node(&nodes, "check box:Show white space[checked]").is_none());
        assert_eq!(text(labelled(&nodes, "Width:").unwrap(), "text"), "8");
        assert!(labelled(&nodes, "Column:").is_none());
        assert_eq!(
            field_rect(labelled(&nodes, "Width:").unwrap())
                .unwrap()
                .centre(),
            (95, 109)
        );
        assert!(!is_cell_ref("Cambria") && !is_cell_ref("A") && !is_cell_ref("ABCD1"));
    }

    /// Fails on the old resolver, which had no `nth_node` (unnamed form fields) and took a PDF
    /// still being printed for saved.
    #[test]
    fn the_nth_unnamed_field_and_a_whole_pdf_are_told_apart() {
        let field = |y: i64| json!({"role": "entry", "name": "", "states": ["editable"], "x": 5, "y": y, "w": 9, "h": 9});
        let nodes = vec![field(10), field(50), field(90)];
        let (spec, n) = split_index("entry#2");
        assert_eq!(rect(nth_node(&nodes, spec, n).unwrap()).unwrap().y, 90);
        assert!(nth_node(&nodes, "entry", 3).is_none());
        assert_eq!(split_index("push button:C#"), ("push button:C#", 0));
        assert!(complete_pdf(b"%PDF-1.7\n...\n%%EOF\n") && !complete_pdf(b"%PDF-1.7\n1 0 obj"));
        assert!(!complete_pdf(b""));
        // A file copied with its old mtime still shows when it was written here.
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.pdf");
        std::fs::write(&p, "%PDF\n%%EOF\n").unwrap();
        let old = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let m = std::fs::metadata(&p).unwrap();
        assert!(m.modified().unwrap() == old && changed_at(&m) > old);
    }
}
