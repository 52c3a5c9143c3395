//! Targets on a document viewer's pages (issue #31, the pdf pack's annotations), resolved by
//! [`super::ui_oracle_desktop::AppResolver`]:
//! - `page_point`: `HEADING@x,y/WxH` — the screen point of (`x`, `y`), in points from the top
//!   left of a `W`×`H`-point page, on the page whose accessible text begins with `HEADING`,
//!   while it is the one page shown (Evince exposes each page it shows as a `page` node with its
//!   text). Evince 43's page nodes report wrong extents (scaled by neither the zoom nor the
//!   screen's DPI, and without the view's scroll offset), so the page's place is taken from what
//!   the screen shows instead: the zoom box (`59.3%`; Evince's 100 % is 96 px per inch, 4/3 px per
//!   point) gives the page's size on screen, and a page shown alone sits centred in the
//!   document view (Evince's layout of a single page). A point outside the view is not on screen;
//! - `popup`: `role:label[state]` — the first matching node in a window an application opened
//!   after its first one (Evince's note window, whose title is the author's name);
//! - `pdf_has`: `path::bytes` — the PDF `path` (relative to the home) holds `bytes`, e.g.
//!   `/Subtype /Highlight`: the annotation a plan added reached the saved file.

use std::path::Path;

use serde_json::Value;

use super::ui_oracle_desktop::{find_node, rect};
use super::ui_plan::Rect;

fn text(n: &Value, key: &str) -> String {
    n.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

fn depth(n: &Value) -> i64 {
    n.get("depth").and_then(Value::as_i64).unwrap_or(0)
}

/// Screen pixels per point at 100 % zoom (Evince: 96 px per inch).
const PX_PER_PT: f64 = 96.0 / 72.0;

/// A `page_point` spec: the heading, the point and the page size, in points.
struct PageSpec<'a> {
    heading: &'a str,
    at: (f64, f64),
    size: (f64, f64),
}

fn parse(spec: &str) -> Option<PageSpec<'_>> {
    let (heading, rest) = spec.rsplit_once('@')?;
    let (at, size) = rest.split_once('/')?;
    let (x, y) = at.split_once(',')?;
    let (w, h) = size.split_once('x')?;
    let num = |v: &str| {
        v.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
    };
    let (x, y, w, h) = (num(x)?, num(y)?, num(w)?, num(h)?);
    (x <= w && y <= h && w > 0.0 && h > 0.0).then_some(PageSpec {
        heading,
        at: (x, y),
        size: (w, h),
    })
}

/// Whether the one page shown is the page whose text's first line is `heading` (whitespace
/// and case aside).
fn shows_page(nodes: &[Value], heading: &str) -> bool {
    let key = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let pages: Vec<&Value> = nodes.iter().filter(|n| text(n, "role") == "page").collect();
    matches!(pages.as_slice(), [p] if key(text(p, "text").lines().next().unwrap_or_default()) == key(heading))
}

/// The zoom the viewer's zoom box shows, as a factor (`59.3%` = 0.593).
fn zoom(nodes: &[Value]) -> Option<f64> {
    let node = find_node(nodes, "text:*%")?;
    let z: f64 = text(node, "text")
        .trim()
        .trim_end_matches('%')
        .trim()
        .parse()
        .ok()?;
    (z > 0.0).then_some(z / 100.0)
}

/// The point `spec` names, as a 1×1 rectangle, while its page is shown alone and the point is
/// in the document's view.
pub fn page_point(nodes: &[Value], spec: &str) -> Option<Rect> {
    let spec = parse(spec)?;
    if !shows_page(nodes, spec.heading) {
        return None;
    }
    let view = rect(find_node(nodes, "document frame")?)?;
    let scale = zoom(nodes)? * PX_PER_PT;
    let (w, h) = (spec.size.0 * scale, spec.size.1 * scale);
    let left = f64::from(view.x) + (f64::from(view.w) - w).max(0.0) / 2.0;
    let top = f64::from(view.y) + (f64::from(view.h) - h).max(0.0) / 2.0;
    let x = (left + spec.at.0 * scale).round() as i32;
    let y = (top + spec.at.1 * scale).round() as i32;
    inside(&view, (x, y)).then_some(Rect { x, y, w: 1, h: 1 })
}

fn inside(r: &Rect, (x, y): (i32, i32)) -> bool {
    x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h
}

/// The first node matching `spec` in a window opened after its application's first one.
pub fn popup(nodes: &[Value], spec: &str) -> Option<Rect> {
    let mut seen_first = false;
    let mut i = 0;
    while i < nodes.len() {
        let n = &nodes[i];
        let end = nodes[i + 1..]
            .iter()
            .position(|m| depth(m) <= depth(n))
            .map_or(nodes.len(), |p| i + 1 + p);
        match depth(n) {
            0 => seen_first = false,
            1 if !seen_first => seen_first = true,
            1 => {
                if let Some(found) = find_node(&nodes[i..end], spec).and_then(rect) {
                    return Some(found);
                }
            }
            _ => {}
        }
        i = if depth(n) == 1 { end } else { i + 1 };
    }
    None
}

/// Whether `spec` = `path::bytes` holds: the file `path` under `home` contains `bytes`.
pub fn pdf_has(home: &Path, spec: &str) -> bool {
    let Some((path, needle)) = spec.split_once("::") else {
        return false;
    };
    let needle = needle.as_bytes();
    std::fs::read(home.join(path))
        .is_ok_and(|b| !needle.is_empty() && b.windows(needle.len()).any(|w| w == needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tree() -> Vec<Value> {
        vec![
            json!({"depth": 0, "role": "application", "name": "evince", "states": []}),
            json!({"depth": 1, "role": "frame", "name": "b.pdf", "states": [], "x": 0, "y": 0, "w": 1280, "h": 800}),
            json!({"depth": 2, "role": "text", "name": "page-label-entry", "text": "1", "states": ["editable"], "x": 50, "y": 5, "w": 30, "h": 40}),
            json!({"depth": 2, "role": "text", "name": "", "text": "59.3%", "states": ["editable"], "x": 970, "y": 5, "w": 90, "h": 40}),
            json!({"depth": 2, "role": "document frame", "name": "Document View", "states": [], "x": 5, "y": 92, "w": 1270, "h": 685}),
            json!({"depth": 3, "role": "page", "name": "", "text": "Budget - Part 2\nSection 2.1", "states": [], "x": 708, "y": 98, "w": 282, "h": 400}),
            json!({"depth": 3, "role": "page", "name": "", "text": "Budget - Part 3\nSection 3.1", "states": [], "x": 708, "y": 600, "w": 282, "h": 400}),
            json!({"depth": 1, "role": "frame", "name": "nobody", "states": [], "x": 600, "y": 300, "w": 266, "h": 200}),
            json!({"depth": 2, "role": "text", "name": "", "text": "", "states": ["editable"], "x": 602, "y": 336, "w": 262, "h": 154}),
            json!({"depth": 2, "role": "push button", "name": "Close", "states": [], "x": 830, "y": 302, "w": 34, "h": 34}),
        ]
    }

    /// Fails on the old resolver, which had no way to point at a place on a page. The numbers
    /// are Evince's on this screen: at 59.3 % an A4 page is 470×666 px, centred in the view; the
    /// page node's own extents (708, 98, 282×400) are wrong and unused.
    #[test]
    fn a_place_on_a_page_shown_alone_maps_through_the_zoom_into_the_view() {
        let both = tree();
        // Two pages shown (a continuous view): no point.
        assert!(page_point(&both, "Budget - Part 2@72,145/595x842").is_none());
        let mut nodes = both.clone();
        nodes.remove(6);
        let r = page_point(&nodes, "Budget - Part 2@72,145/595x842").unwrap();
        // 5 + (1270 - 470.5) / 2 = 404.8 left, 92 + (685 - 665.8) / 2 = 101.6 top.
        assert_eq!((r.x, r.y), (462, 216));
        assert!(page_point(&nodes, "budget -  part 2@0,0/595x842").is_some());
        assert!(page_point(&nodes, "Budget - Part 3@72,145/595x842").is_none());
        assert!(page_point(&nodes, "Budget - Part 2@700,145/595x842").is_none());
        assert!(parse("Budget@1,2").is_none() && parse("B@1,2/0x5").is_none());
        let mut big = nodes.clone();
        big[3]["text"] = json!("400%");
        // The point falls below the view at 400 %: not on screen.
        assert!(page_point(&big, "Budget - Part 2@72,400/595x842").is_none());
    }

    /// Fails on the old resolver: the note window's field is told from the main window's.
    #[test]
    fn nodes_of_a_later_window_and_bytes_of_a_saved_pdf_resolve() {
        let nodes = tree();
        assert_eq!(popup(&nodes, "text:[editable]").unwrap().y, 336);
        assert_eq!(popup(&nodes, "push button:Close").unwrap().x, 830);
        assert!(popup(&nodes[..6], "text:[editable]").is_none());
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.pdf"),
            b"%PDF\x00\xff<</Subtype /Highlight>>",
        )
        .unwrap();
        assert!(pdf_has(dir.path(), "a.pdf::/Subtype /Highlight"));
        assert!(!pdf_has(dir.path(), "a.pdf::/Subtype /Text"));
        assert!(!pdf_has(dir.path(), "missing.pdf::x") && !pdf_has(dir.path(), "a.pdf"));
    }
}
