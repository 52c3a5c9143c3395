//! Rendering a template body into a standalone script: a header, the shared prelude, the slot values
//! as ONE JSON document inside a Python string literal (`S = json.loads("…")`), then the body.
//!
//! Slot values never reach Python source as raw text: they are serialised with serde_json, and that
//! JSON text is itself emitted as a JSON string literal, which is also a valid Python string literal
//! (JSON's escapes `\" \\ \n \r \t \b \f \uXXXX` are all Python escapes). A quote, a newline or
//! `"""` in a slot therefore stays data.

use serde_json::Value;

use super::templates::PRELUDE;

/// The Python statement binding `S` to `slots`.
pub fn slots_statement(slots: &Value) -> String {
    let json = serde_json::to_string(slots).unwrap_or_else(|_| "{}".to_string());
    let literal =
        serde_json::to_string(&Value::String(json)).unwrap_or_else(|_| "\"{}\"".to_string());
    format!("S = json.loads({literal})\n")
}

/// Keeps a header comment on one line of printable text.
fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The prelude with its `APP_PORTS` line made from the packs' manifests ([`crate::apps`]): every
/// app with a conventional port, in registry order.
pub fn prelude() -> String {
    let ports: Vec<String> = crate::apps::all()
        .iter()
        .filter_map(|p| Some(format!("\"{}\": {}", p.name(), p.manifest.port?)))
        .collect();
    let line = format!("APP_PORTS = {{{}}}", ports.join(", "));
    PRELUDE
        .lines()
        .map(|l| {
            if l.starts_with("APP_PORTS = ") {
                line.as_str()
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + if PRELUDE.ends_with('\n') { "\n" } else { "" }
}

/// A full script: header comment, prelude, `S = …`, body.
pub fn script(role: &str, template_id: &str, slots: &Value, body: &str) -> String {
    let mut out = String::with_capacity(PRELUDE.len() + body.len() + 512);
    out.push_str("#!/usr/bin/env python3\n");
    out.push_str(&format!(
        "# {role} written by tuplewright's scripted agent: a procedural generator that fills the\n# template `{}` with the task's structured slots (no language model involved).\n",
        comment_text(template_id)
    ));
    out.push_str(&prelude());
    out.push_str(&slots_statement(slots));
    out.push_str(body);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Appends a second body (with its own slots) to a rendered script.
pub fn append(script: &mut String, slots: &Value, body: &str) {
    script.push('\n');
    script.push_str(&slots_statement(slots));
    script.push_str(body);
    if !script.ends_with('\n') {
        script.push('\n');
    }
}
