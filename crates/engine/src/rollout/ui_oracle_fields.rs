//! Dialog fields checked through the accessibility tree (issue #31): what a plan waits on after
//! typing into a field (the field now shows the typed text), and the unnamed buttons and list
//! boxes of LibreOffice's dialogs found the way a person finds them, by the caption on their row
//! or the frame around them. Targets (`Target::Role { role, name }`, resolved by
//! [`super::ui_oracle_desktop::AppResolver`]):
//! - `labelled_shows`: `Caption=text`, the field on the row of the label `Caption` (see
//!   [`labelled`]) once its text is `text` (compared trimmed, without case);
//! - `focused_shows`: `text`, the focused editable node once its text is `text`;
//! - `labelled_button`: `Caption`, the enabled button (a list box's toggle, a push button) on the
//!   row of the label `Caption`, nearest to its right;
//! - `field_within`: `frame-spec>node-spec`, the first node matching `node-spec` among the descendants
//!   of the first node matching `frame-spec` (both `role:label[state]` specs, see [`find_node`]).

use serde_json::Value;

use super::ui_oracle_desktop::rect;
use super::ui_oracle_desktop::{find_node, labelled};
use super::ui_plan::Rect;

fn str_of<'a>(n: &'a Value, key: &str) -> &'a str {
    n.get(key).and_then(Value::as_str).unwrap_or("")
}

fn has_state(n: &Value, state: &str) -> bool {
    n["states"]
        .as_array()
        .is_some_and(|s| s.iter().any(|v| v == state))
}

/// Whether a field's text is `want` (trimmed, without case: a hex field shows `c9211e`).
fn shows(n: &Value, want: &str) -> bool {
    str_of(n, "text").trim().eq_ignore_ascii_case(want.trim())
}

/// The field on the row of the label before `=` once it shows the text after it.
pub fn labelled_shows<'a>(nodes: &'a [Value], spec: &str) -> Option<&'a Value> {
    let (caption, want) = spec.split_once('=')?;
    labelled(nodes, caption).filter(|n| shows(n, want))
}

/// The focused editable node once it shows `want`.
pub fn focused_shows<'a>(nodes: &'a [Value], want: &str) -> Option<&'a Value> {
    nodes
        .iter()
        .find(|n| has_state(n, "focused") && has_state(n, "editable"))
        .filter(|n| shows(n, want))
}

/// The enabled button on the row of the label `caption`, nearest to its right.
pub fn labelled_button<'a>(nodes: &'a [Value], caption: &str) -> Option<&'a Value> {
    let label = rect(find_node(nodes, &format!("label:{caption}"))?)?;
    let (_, cy) = label.centre();
    nodes
        .iter()
        .filter(|n| {
            matches!(
                str_of(n, "role"),
                "toggle button" | "push button" | "combo box"
            )
        })
        .filter(|n| has_state(n, "enabled"))
        .filter_map(|n| rect(n).map(|r| (n, r)))
        .filter(|(_, r)| r.y <= cy && cy <= r.y + r.h && r.x >= label.x + label.w - 2)
        .min_by_key(|(_, r)| r.x)
        .map(|(n, _)| n)
}

/// The first node matching the spec after `>` among the descendants of the first node matching
/// the spec before it (the nodes that follow it in the tree's pre-order, deeper than it).
pub fn within<'a>(nodes: &'a [Value], spec: &str) -> Option<&'a Value> {
    let (outer, inner) = spec.split_once('>')?;
    let frame = find_node(nodes, outer)?;
    let at = nodes.iter().position(|n| std::ptr::eq(n, frame))?;
    let depth = |n: &Value| n.get("depth").and_then(Value::as_u64).unwrap_or(0);
    let below = &nodes[at + 1..];
    let end = below
        .iter()
        .position(|n| depth(n) <= depth(frame))
        .unwrap_or(below.len());
    find_node(&below[..end], inner)
}

/// Resolves one of this module's targets: `Ok(None)` when `role` is not one of them.
pub fn resolve_field(nodes: &[Value], role: &str, name: &str) -> Option<Option<Rect>> {
    let node = match role {
        "labelled_shows" => labelled_shows(nodes, name),
        "focused_shows" => focused_shows(nodes, name),
        "labelled_button" => labelled_button(nodes, name),
        "field_within" => within(nodes, name),
        _ => return None,
    };
    Some(node.and_then(rect))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A Page Style dialog's rows as LibreOffice 7.4 shows them (unnamed fields and list boxes).
    fn page_dialog() -> Vec<Value> {
        vec![
            json!({"depth": 3, "role": "toggle button", "name": "", "states": ["enabled"], "x": 10, "y": 10, "w": 40, "h": 30}),
            json!({"depth": 3, "role": "panel", "name": "Paper Format", "states": ["enabled"], "x": 240, "y": 178, "w": 800, "h": 180}),
            json!({"depth": 4, "role": "toggle button", "name": "", "states": ["enabled"], "x": 337, "y": 201, "w": 256, "h": 34}),
            json!({"depth": 4, "role": "label", "name": "Format:", "text": "Format:", "states": ["enabled"], "x": 254, "y": 201, "w": 77, "h": 34}),
            json!({"depth": 3, "role": "panel", "name": "Margins", "states": ["enabled"], "x": 240, "y": 370, "w": 340, "h": 210}),
            json!({"depth": 4, "role": "label", "name": "Left:", "text": "Left:", "states": ["enabled"], "x": 254, "y": 402, "w": 77, "h": 17}),
            json!({"depth": 4, "role": "spin button", "name": "", "text": "2 cm", "states": ["editable", "enabled", "focused"], "x": 337, "y": 394, "w": 144, "h": 34}),
            json!({"depth": 3, "role": "push button", "name": "OK", "states": ["enabled"], "x": 900, "y": 600, "w": 80, "h": 34}),
        ]
    }

    /// Fails before these targets existed: a field is verified by what it shows, and an unnamed
    /// list box is found by its caption or its frame, never the first nameless button of the tree.
    #[test]
    fn fields_resolve_by_what_they_show_and_buttons_by_caption_or_frame() {
        let nodes = page_dialog();
        let at = |role: &str, name: &str| resolve_field(&nodes, role, name).flatten();
        assert_eq!(at("labelled_shows", "Left:=2 CM").map(|r| r.y), Some(394));
        assert!(at("labelled_shows", "Left:=2.5 cm").is_none());
        assert!(at("focused_shows", "2 cm").is_some());
        assert!(at("focused_shows", "2").is_none());
        assert_eq!(at("labelled_button", "Format:").map(|r| r.x), Some(337));
        assert!(at("labelled_button", "Paper tray:").is_none());
        assert_eq!(
            at("field_within", "panel:Paper Format>toggle button:").map(|r| r.x),
            Some(337)
        );
        assert!(at("field_within", "panel:Line Spacing>toggle button:").is_none());
        // Only descendants count: the Margins frame holds no button, and the OK after it is not in it.
        assert!(at("field_within", "panel:Margins>toggle button:").is_none());
        assert!(at("field_within", "panel:Margins>push button:OK").is_none());
        assert!(resolve_field(&nodes, "node", "x").is_none());
    }
}
