//! Two more desktop targets, added for the Thunderbird and VLC planners (issue #31):
//! - `shown`: a node (spec as for `node`) whose centre lies inside every ancestor's extents — not
//!   scrolled out of a settings page's viewport (Qt and GTK report such nodes as showing, at
//!   coordinates under whatever covers them). A clipped one yields a scroll hint at the clipping
//!   container, so a click on it first wheels it into view.
//! - `above`: the editable text field right above the node `name` (an unnamed search box over
//!   a tree: VLC's preferences filter above "Only show current");
//! - `within`: `outer>>inner` or `outer>>inner#n` — the (n-th, from 1) node matching `inner`
//!   among the descendants of the first node matching `outer` (an unnamed combo box of one row
//!   of Thunderbird's filter editor);
//! - `contains`: `path::text` — the file `path` (relative to the home) holds `text`: a settings
//!   file (vlcrc, prefs.js, msgFilterRules.dat) has received the value a plan set.

use std::path::Path;

use serde_json::Value;

use super::ui_oracle_desktop::find_node;
use super::ui_oracle_desktop::rect;
use super::ui_plan::{Rect, ScrollHint};

fn inside(r: &Rect, (x, y): (i32, i32)) -> bool {
    x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h
}

/// The extents of the nodes enclosing `nodes[at]` (its ancestors by depth, innermost first),
/// those that have extents.
fn ancestors(nodes: &[Value], at: usize) -> Vec<Rect> {
    let depth = |n: &Value| n.get("depth").and_then(Value::as_i64).unwrap_or(0);
    let mut want = depth(&nodes[at]);
    let mut out = Vec::new();
    for n in nodes[..at].iter().rev() {
        if want <= 0 {
            break;
        }
        if depth(n) < want {
            want = depth(n);
            if let Some(r) = rect(n) {
                out.push(r);
            }
        }
    }
    out
}

/// Where the node matching `spec` is, and the innermost ancestor that clips its centre (`None`:
/// fully in view). `None` when no node matches.
pub fn clipped(nodes: &[Value], spec: &str) -> Option<(Rect, Option<Rect>)> {
    let node = find_node(nodes, spec)?;
    let at = nodes.iter().position(|n| std::ptr::eq(n, node))?;
    let r = rect(node)?;
    let clip = ancestors(nodes, at)
        .into_iter()
        .find(|a| !inside(a, r.centre()));
    Some((r, clip))
}

/// The node matching `spec` when it is in view.
pub fn shown(nodes: &[Value], spec: &str) -> Option<Rect> {
    match clipped(nodes, spec)? {
        (r, None) => Some(r),
        _ => None,
    }
}

/// How to wheel the node matching `spec` into its container's view (`None`: in view or absent).
pub fn scroll_hint(nodes: &[Value], spec: &str) -> Option<ScrollHint> {
    let (r, clip) = clipped(nodes, spec)?;
    let clip = clip.filter(|c| c.w > 0 && c.h > 0)?;
    let (cx, cy) = clip.centre();
    Some(ScrollHint {
        x: cx,
        y: cy,
        dy: r.centre().1 - cy,
    })
}

/// The editable text field nearest above the node matching `spec`, overlapping it horizontally.
pub fn above(nodes: &[Value], spec: &str) -> Option<Rect> {
    let anchor = rect(find_node(nodes, spec)?)?;
    nodes
        .iter()
        .filter(|n| n.get("role").and_then(Value::as_str) == Some("text"))
        .filter(|n| {
            n["states"]
                .as_array()
                .is_some_and(|s| s.iter().any(|v| v == "editable"))
        })
        .filter_map(rect)
        .filter(|r| r.y + r.h <= anchor.y && r.x < anchor.x + anchor.w && anchor.x < r.x + r.w)
        .max_by_key(|r| r.y)
}

/// The node `outer>>inner[#n]` names (see the module's doc).
pub fn within(nodes: &[Value], spec: &str) -> Option<Rect> {
    let (outer, inner) = spec.split_once(">>")?;
    let (inner, nth) = match inner.rsplit_once('#') {
        Some((i, n)) => (i, n.parse::<usize>().ok()?),
        None => (inner, 1),
    };
    let depth = |n: &Value| n.get("depth").and_then(Value::as_i64).unwrap_or(0);
    let top = find_node(nodes, outer)?;
    let at = nodes.iter().position(|n| std::ptr::eq(n, top))?;
    let below: Vec<Value> = nodes[at + 1..]
        .iter()
        .take_while(|n| depth(n) > depth(top))
        .cloned()
        .collect();
    let mut seen = 0;
    for (i, n) in below.iter().enumerate() {
        if find_node(&below[i..=i], inner).is_some() {
            seen += 1;
            if seen == nth {
                return rect(n);
            }
        }
    }
    None
}

/// Whether `spec` = `path::text` holds: the file `path` under `home` contains `text`.
pub fn contains(home: &Path, spec: &str) -> bool {
    let Some((path, text)) = spec.split_once("::") else {
        return false;
    };
    std::fs::read_to_string(home.join(path)).is_ok_and(|s| s.contains(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A settings page scrolled in a viewport: the check box at y 815 lies under the dialog's
    /// buttons (viewport ends at 678), so it is not shown and the hint wheels down at the viewport.
    #[test]
    fn a_node_outside_its_viewport_is_not_shown_and_hints_a_scroll() {
        let nodes = vec![
            json!({"depth": 0, "role": "dialog", "name": "Prefs", "states": [], "x": 240, "y": 50, "w": 800, "h": 700}),
            json!({"depth": 1, "role": "filler", "name": "", "states": [], "x": 571, "y": 124, "w": 444, "h": 554}),
            json!({"depth": 2, "role": "filler", "name": "", "states": [], "x": 571, "y": 124, "w": 444, "h": 800}),
            json!({"depth": 3, "role": "check box", "name": "Near", "states": [], "x": 580, "y": 134, "w": 100, "h": 21}),
            json!({"depth": 3, "role": "spin button", "name": "Far", "states": [], "x": 960, "y": 815, "w": 90, "h": 26}),
            json!({"depth": 1, "role": "push button", "name": "Save", "states": [], "x": 865, "y": 716, "w": 80, "h": 25}),
        ];
        assert!(shown(&nodes, "check box:Near").is_some());
        assert!(scroll_hint(&nodes, "check box:Near").is_none());
        assert!(shown(&nodes, "spin button:Far").is_none());
        let hint = scroll_hint(&nodes, "spin button:Far").unwrap();
        assert_eq!((hint.x, hint.y, hint.dy), (793, 401, 828 - 401));
        assert!(shown(&nodes, "push button:Save").is_some());
        assert!(shown(&nodes, "push button:Gone").is_none());
        let tree = vec![
            json!({"depth": 0, "role": "text", "name": "Keystore", "states": ["editable"], "x": 866, "y": 298, "w": 142, "h": 25}),
            json!({"depth": 0, "role": "text", "name": "", "states": ["editable"], "x": 258, "y": 68, "w": 298, "h": 23}),
            json!({"depth": 0, "role": "check box", "name": "Only show current", "states": [], "x": 258, "y": 98, "w": 141, "h": 21}),
        ];
        assert_eq!(above(&tree, "check box:Only show current").unwrap().y, 68);
        assert!(above(&tree, "text:Keystore").is_none());
        let rows = vec![
            json!({"depth": 0, "role": "combo box", "name": "", "states": [], "x": 1, "y": 1, "w": 5, "h": 5}),
            json!({"depth": 0, "role": "list item", "name": "From contains + −", "states": [], "x": 0, "y": 50, "w": 900, "h": 30}),
            json!({"depth": 1, "role": "combo box", "name": "", "states": [], "x": 10, "y": 50, "w": 200, "h": 30}),
            json!({"depth": 1, "role": "combo box", "name": "", "states": [], "x": 300, "y": 50, "w": 200, "h": 30}),
            json!({"depth": 0, "role": "combo box", "name": "", "states": [], "x": 9, "y": 99, "w": 5, "h": 5}),
        ];
        assert_eq!(
            within(&rows, "list item:*contains + −>>combo box:")
                .unwrap()
                .x,
            10
        );
        assert_eq!(
            within(&rows, "list item:*contains + −>>combo box:#2")
                .unwrap()
                .x,
            300
        );
        assert!(within(&rows, "list item:*contains + −>>combo box:#3").is_none());
        assert!(within(&rows, "list item:nothing>>combo box:").is_none());
    }

    #[test]
    fn contains_reads_the_file_under_the_home() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".config/vlc")).unwrap();
        std::fs::write(dir.path().join(".config/vlc/vlcrc"), "#loop=0\nloop=1\n").unwrap();
        assert!(contains(dir.path(), ".config/vlc/vlcrc::\nloop=1"));
        assert!(!contains(dir.path(), ".config/vlc/vlcrc::random=1"));
        assert!(!contains(dir.path(), "missing::x"));
        assert!(!contains(dir.path(), "no separator"));
    }
}
