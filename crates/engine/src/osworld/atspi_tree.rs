//! A desktop application's accessibility tree (AT-SPI, read by `tw_atspi.py`) as a guest's
//! `/accessibility` XML, in the shape OSWorld's Ubuntu server gives: `desktop-frame` >
//! `application` > `frame` > … with one element per showing node, the tag its role
//! (`push button` → `push-button`, `table cell` → `table-cell`), `name`, `st:*` states,
//! `cp:screencoord` / `cp:size`, and the node's text as the element's text.

use serde_json::Value;

use super::windows::escape;

const NS: &str = "xmlns:st=\"https://accessibility.ubuntu.example.org/ns/state\" \
    xmlns:attr=\"https://accessibility.ubuntu.example.org/ns/attributes\" \
    xmlns:cp=\"https://accessibility.ubuntu.example.org/ns/component\"";

/// An XML element name for an AT-SPI role (`push button` → `push-button`; anything unusable
/// becomes `unknown`).
fn tag(role: &str) -> String {
    let t: String = role
        .trim()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    match t.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => t,
        _ => "unknown".into(),
    }
}

fn open_tag(node: &Value) -> (String, String) {
    let name = tag(node["role"].as_str().unwrap_or(""));
    let mut s = format!(
        "<{name} name=\"{}\"",
        escape(node["name"].as_str().unwrap_or(""))
    );
    if let Some(d) = node["description"].as_str() {
        s.push_str(&format!(" description=\"{}\"", escape(d)));
    }
    s.push_str(" st:showing=\"true\" st:visible=\"true\"");
    for st in node["states"].as_array().into_iter().flatten() {
        if let Some(st) = st.as_str() {
            s.push_str(&format!(" st:{}=\"true\"", tag(st)));
        }
    }
    if let (Some(x), Some(y), Some(w), Some(h)) = (
        node["x"].as_i64(),
        node["y"].as_i64(),
        node["w"].as_i64(),
        node["h"].as_i64(),
    ) {
        s.push_str(&format!(
            " cp:screencoord=\"({x}, {y})\" cp:size=\"({w}, {h})\""
        ));
    }
    (name, s)
}

/// The `/accessibility` XML of `tree` (`{"nodes": [{depth, role, name, …}]}`, depth-first) on a
/// `width`×`height` screen.
pub fn atspi_xml(tree: &Value, width: u32, height: u32) -> String {
    let mut xml = format!(
        "<desktop-frame {NS} name=\"main\" cp:screencoord=\"(0, 0)\" cp:size=\"({width}, {height})\">\n"
    );
    // Open elements: (depth, tag).
    let mut open: Vec<(u64, String)> = Vec::new();
    let close_to = |xml: &mut String, open: &mut Vec<(u64, String)>, depth: u64| {
        while open.last().is_some_and(|(d, _)| *d >= depth) {
            if let Some((d, t)) = open.pop() {
                xml.push_str(&format!("{}</{t}>\n", "  ".repeat(d as usize + 1)));
            }
        }
    };
    for node in tree["nodes"].as_array().into_iter().flatten() {
        let depth = node["depth"].as_u64().unwrap_or(0);
        close_to(&mut xml, &mut open, depth);
        let (name, head) = open_tag(node);
        let pad = "  ".repeat(depth as usize + 1);
        match node["text"].as_str().filter(|t| !t.is_empty()) {
            Some(text) => xml.push_str(&format!("{pad}{head}>{}", escape(text))),
            None => xml.push_str(&format!("{pad}{head}>")),
        }
        xml.push('\n');
        open.push((depth, name));
    }
    close_to(&mut xml, &mut open, 0);
    xml.push_str("</desktop-frame>\n");
    xml
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_nest_by_depth_with_roles_as_tags_and_text_escaped() {
        let tree = serde_json::json!({"nodes": [
            {"depth": 0, "role": "application", "name": "soffice", "states": []},
            {"depth": 1, "role": "frame", "name": "a.xlsx - LibreOffice Calc",
             "states": ["active"], "x": 0, "y": 0, "w": 800, "h": 600},
            {"depth": 2, "role": "push button", "name": "Save", "states": ["enabled"]},
            {"depth": 2, "role": "text", "name": "", "text": "A1 <&>", "states": ["focused"]},
            {"depth": 0, "role": "application", "name": "other", "states": []}
        ]});
        let xml = atspi_xml(&tree, 800, 600);
        assert!(xml.contains("<push-button name=\"Save\""), "{xml}");
        assert!(xml.contains("st:focused=\"true\""), "{xml}");
        assert!(xml.contains(">A1 &lt;&amp;&gt;\n"), "{xml}");
        assert!(xml.contains("cp:screencoord=\"(0, 0)\" cp:size=\"(800, 600)\""));
        // Well nested: the first application closes before the second opens.
        let first_close = xml.find("</application>").unwrap();
        let second = xml.find("name=\"other\"").unwrap();
        assert!(
            first_close < second && xml.matches("</frame>").count() == 1,
            "{xml}"
        );
        assert_eq!(
            xml.matches("<application").count(),
            xml.matches("</application>").count()
        );
    }
}
