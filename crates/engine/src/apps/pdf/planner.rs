//! The pdf ui-oracle planner: Evince's default view settings with its keyboard shortcuts (C
//! continuous, D dual page, Ctrl+I inverted colours, F9 side pane, F/W/A fit page, fit width,
//! automatic zoom), then Ctrl+T ("Save Current Settings as Default"), waited on in the window
//! title and in the settings key file on disk.
//!
//! Page export goes through Print (Ctrl+P): Down selects "Print to File", the file button opens
//! "Select a filename" (the path typed), the "Pages:" radio focuses its range entry, then Print;
//! the new PDF on disk, whole (`saved_pdf`: it ends with `%%EOF`), ends the plan.
//!
//! Forms: each field on the page (an unnamed `entry` / `check box` in Evince's accessibility
//! tree, found by its order among the form's fields) is clicked and typed into, then Ctrl+S
//! ("Save As…"), the path typed, Replace when the form is saved in place. Annotations: see
//! [`super::annotate`]. Text extraction into a PDF of the page goes out as an export of that page;
//! into a .txt file it is refused (no text editor on the screen).

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::ui_plan::{PlanStep, Target, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

/// Where GSettings' key-file backend keeps Evince's defaults (relative to the home).
pub const KEYFILE: &str = ".config/glib-2.0/settings/keyfile";

pub(super) fn key(k: &str) -> PlanStep {
    PlanStep::Key { key: k.into() }
}

/// The shortcut that turns `key` from `from` to `to` (booleans toggle; zoom modes are set).
fn shortcut(key: &str, from: &str, to: &str) -> Result<Option<&'static str>, String> {
    let toggle = |k: &'static str| Ok((from != to).then_some(k));
    match key {
        "continuous" => toggle("c"),
        "dual-page" => toggle("d"),
        "inverted-colors" => toggle("ctrl+i"),
        "show-sidebar" => toggle("F9"),
        "sizing-mode" => match to.trim_matches('\'') {
            "fit-page" => Ok(Some("f")),
            "fit-width" => Ok(Some("w")),
            "automatic" => Ok(Some("a")),
            other => Err(format!("no Evince shortcut for sizing-mode {other}")),
        },
        other => Err(format!("no Evince shortcut for {other}")),
    }
}

/// The plan of an `evince_pref` task.
fn evince_pref(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let path = slots["pdf"]["path"]
        .as_str()
        .ok_or("evince_pref: slot pdf.path missing")?;
    let file = path.rsplit('/').next().unwrap_or(path);
    let changes = slots["changes"]
        .as_object()
        .ok_or("evince_pref: slot changes missing")?;
    let mut steps = vec![PlanStep::WaitFor {
        target: Target::Role {
            role: "focused_window".into(),
            name: file.into(),
        },
        timeout_ms: 60_000,
    }];
    for (name, to) in changes {
        let from = slots["preset"][name].as_str().unwrap_or_default();
        if let Some(k) = shortcut(name, from, to.as_str().unwrap_or_default())? {
            steps.push(key(k));
        }
    }
    steps.push(key("ctrl+t"));
    steps.push(PlanStep::WaitFor {
        target: Target::Role {
            role: "saved".into(),
            name: KEYFILE.into(),
        },
        timeout_ms: 20_000,
    });
    Ok(steps)
}

pub(super) fn focused(name: &str, timeout_ms: u64) -> PlanStep {
    PlanStep::WaitFor {
        target: Target::Role {
            role: "focused_window".into(),
            name: name.into(),
        },
        timeout_ms,
    }
}

pub(super) fn click(node: &str) -> PlanStep {
    PlanStep::Click {
        target: Target::Role {
            role: "node".into(),
            name: node.into(),
        },
    }
}

/// The plan of a `pdf_export` task: Print > Print to File with a page range.
fn pdf_export(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let path = slots["pdf"]["path"]
        .as_str()
        .ok_or("pdf_export: slot pdf.path missing")?;
    let out = slots["out"].as_str().ok_or("pdf_export: slot out missing")?;
    let pages = slots["pages"].as_array().ok_or("pdf_export: slot pages missing")?;
    let (first, last) = match pages.as_slice() {
        [a, b] => (a.as_u64().unwrap_or(1), b.as_u64().unwrap_or(1)),
        _ => return Err("pdf_export: pages must be [first, last]".into()),
    };
    let file = path.rsplit('/').next().unwrap_or(path);
    let range = if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}")
    };
    Ok(vec![
        focused(file, 60_000),
        key("ctrl+p"),
        focused("Print", 20_000),
        key("Down"),
        // The output file button shows the default name, `~/<document>.pdf`.
        click(&format!("push button:~/{file}")),
        focused("Select a filename", 20_000),
        key("ctrl+a"),
        PlanStep::Type {
            text: format!("/home/user/{out}"),
        },
        key("Return"),
        focused("Print", 20_000),
        click("radio button:Pages:"),
        PlanStep::Type { text: range },
        click("push button:Print"),
        // The print job creates the file first and writes the document later: wait for a
        // whole PDF, not the first write.
        saved_pdf(out),
        focused(file, 20_000),
    ])
}

/// The plan of a `pdf_extract` task: a `.pdf` output is the page printed to a file (as
/// `pdf_export` with the page as the range); a `.txt` one needs a text editor on the screen,
/// which the pdf screen does not have.
fn pdf_extract(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let out = slots["out"].as_str().ok_or("pdf_extract: slot out missing")?;
    if !out.ends_with(".pdf") {
        return Err(format!(
            "pdf_extract: {out} is a text file; Evince writes only PDFs and no text editor is on the pdf screen"
        ));
    }
    let page = slots["page"].as_u64().ok_or("pdf_extract: slot page missing")?;
    let mut export = slots.clone();
    export["pages"] = serde_json::json!([page, page]);
    pdf_export(&export)
}

/// Save As `/home/user/<out>` (Ctrl+S in Evince), confirming the replace when `out` is the open
/// file `path`, then waiting until the saved PDF is on disk.
pub(super) fn save_as(steps: &mut Vec<PlanStep>, out: &str, path: &str) {
    steps.extend([
        key("ctrl+s"),
        focused("Save As…", 20_000),
        key("ctrl+a"),
        PlanStep::Type {
            text: format!("/home/user/{out}"),
        },
        key("Return"),
    ]);
    if out == path {
        steps.push(PlanStep::WaitFor {
            target: Target::Role {
                role: "node".into(),
                name: "push button:Replace".into(),
            },
            timeout_ms: 20_000,
        });
        steps.push(click("push button:Replace"));
    }
    steps.push(saved_pdf(out));
}

pub(super) fn saved_pdf(out: &str) -> PlanStep {
    PlanStep::WaitFor {
        target: Target::Role {
            role: "saved_pdf".into(),
            name: out.into(),
        },
        timeout_ms: 60_000,
    }
}

/// The `n`th node of `role` on the page (form fields have no names).
fn nth(role: &str, n: usize) -> Target {
    Target::Role {
        role: "nth_node".into(),
        name: format!("{role}#{n}"),
    }
}

/// The plan of a `pdf_form` task: every asked field filled on the page, then Save As.
fn pdf_form(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let path = slots["pdf"]["path"]
        .as_str()
        .ok_or("pdf_form: slot pdf.path missing")?;
    let out = slots["out"].as_str().ok_or("pdf_form: slot out missing")?;
    let fields = slots["pdf"]["fields"]
        .as_array()
        .ok_or("pdf_form: slot pdf.fields missing")?;
    let values = slots["values"]
        .as_object()
        .ok_or("pdf_form: slot values missing")?;
    let file = path.rsplit('/').next().unwrap_or(path);
    // F (fit page): the whole form on screen, so every field is on screen to click.
    let mut steps = vec![focused(file, 60_000), key("f")];
    let (mut texts, mut boxes) = (0, 0);
    for f in fields {
        let name = f["name"].as_str().unwrap_or_default();
        let check = f["kind"] == "checkbox";
        let role = if check { "check box" } else { "entry" };
        let index = if check { &mut boxes } else { &mut texts };
        let target = nth(role, *index);
        *index += 1;
        if values.contains_key(name) {
            steps.push(PlanStep::WaitFor {
                target: target.clone(),
                timeout_ms: 20_000,
            });
        }
        match values.get(name) {
            None => {}
            // Check boxes start unchecked: a click sets one.
            Some(Value::Bool(true)) => steps.push(PlanStep::Click { target }),
            Some(Value::Bool(false)) => {}
            Some(Value::String(text)) => {
                steps.push(PlanStep::Click { target });
                steps.push(PlanStep::Type { text: text.clone() });
                // Leaving the field commits its value.
                steps.push(key("Tab"));
            }
            Some(other) => return Err(format!("pdf_form: no plan for the value {other} of {name}")),
        }
    }
    save_as(&mut steps, out, path);
    steps.push(focused(file, 20_000));
    Ok(steps)
}

/// Plans pdf tasks through Evince.
pub struct EvincePlanner;

impl UiPlanner for EvincePlanner {
    fn apps(&self) -> &[&'static str] {
        &["pdf"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let slots = brief.structured.get("slots").cloned().unwrap_or(Value::Null);
        match template.rsplit('/').next().unwrap_or(template) {
            "evince_pref" => evince_pref(&slots),
            "pdf_export" => pdf_export(&slots),
            "pdf_form" => pdf_form(&slots),
            "pdf_annotate" => super::annotate::pdf_annotate(&slots),
            "pdf_extract" => pdf_extract(&slots),
            other => Err(format!("template {other} has no Evince plan yet")),
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn toggles_only_what_changes_then_saves_the_defaults() {
        let slots = json!({"pdf": {"path": "Documents/g.pdf"},
            "preset": {"dual-page": "false", "sizing-mode": "'fit-width'"},
            "changes": {"dual-page": "true", "sizing-mode": "'fit-page'"}});
        let steps = evince_pref(&slots).unwrap();
        let keys: Vec<&str> = steps
            .iter()
            .filter_map(|s| match s {
                PlanStep::Key { key } => Some(key.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(keys, ["d", "f", "ctrl+t"]);
        assert!(shortcut("zoom", "1", "2").is_err());
    }

    /// Fails on the old planner, which refused forms by name and ended an export on the print
    /// job's first write.
    #[test]
    fn form_fields_are_found_by_their_order_and_saves_wait_for_a_whole_pdf() {
        let slots = json!({"pdf": {"path": "Documents/f.pdf", "fields": [
                {"name": "full_name"}, {"name": "email"}, {"name": "news", "kind": "checkbox"}]},
            "values": {"email": "a@b.test", "news": true}, "out": "Documents/f.pdf"});
        let text = format!("{:?}", pdf_form(&slots).unwrap());
        for want in ["Key { key: \"f\" }", "entry#1", "a@b.test", "check box#0", "Save As…", "push button:Replace", "saved_pdf"] {
            assert!(text.contains(want), "no {want} in {text}");
        }
        assert!(!text.contains("entry#0"), "{text}");
        let export = json!({"pdf": {"path": "Documents/b.pdf"}, "pages": [2, 2], "out": "Documents/p2.pdf"});
        // Fails on the old planner, which refused extraction by name: a page extracted into a
        // PDF prints that page alone; a .txt output is refused with the reason.
        let extract = json!({"pdf": {"path": "Documents/b.pdf"}, "page": 3, "out": "Documents/b-page3.pdf"});
        let text = format!("{:?}", pdf_extract(&extract).unwrap());
        assert!(text.contains("Type { text: \"3\" }") && text.contains("b-page3.pdf"), "{text}");
        let txt = json!({"pdf": {"path": "Documents/b.pdf"}, "page": 3, "out": "Documents/b.txt"});
        assert!(pdf_extract(&txt).unwrap_err().contains("text editor"));
        assert!(format!("{:?}", pdf_export(&export).unwrap()).contains("saved_pdf"));
    }
}
