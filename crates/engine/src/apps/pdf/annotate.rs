//! The plan of a `pdf_annotate` task: where the phrase is on its page comes from the task's own
//! data — the setup's layout (`make_pdf` in setup_prelude.py: A4 pages of 595×842 pt, the
//! heading at (72, 90) in 18 pt Helvetica, line `i` at (72, 130 + 20 i) in 11 pt) and
//! Helvetica's advance widths — in points on the page, which the `page_point` target maps onto
//! the page Evince shows (through the zoom it shows), shown alone (C: not continuous) and whole
//! (F: fit page), after the page number box took it to that page. A highlight is a drag over the phrase,
//! then "Highlight text" on Evince's annotation bar (it marks the selection); a note is "Note
//! text", a click right of the phrase, the text typed into the note's window, which is closed.
//! Then Save As, and the saved PDF is waited on until it holds the annotation.

use serde_json::Value;

use super::planner::{click, focused, key, save_as};
use crate::rollout::ui_plan::{PlanStep, Target};

/// A4, as `make_pdf` makes every page.
const PAGE: (f64, f64) = (595.0, 842.0);
/// Helvetica's advance widths (1/1000 em) of the printable ASCII characters, ' ' to '~'.
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// The width of `text` in Helvetica at `size` points (other characters count as an `n`).
fn width(text: &str, size: f64) -> f64 {
    let em: u32 = text
        .chars()
        .map(|c| {
            let i = (c as usize).wrapping_sub(32);
            u32::from(HELVETICA.get(i).copied().unwrap_or(556))
        })
        .sum();
    f64::from(em) * size / 1000.0
}

/// Where `phrase` is on the page `spec` (`{heading, lines}`) the setup draws, in points: its
/// left and right edges and the middle of its line — the first line holding it, the heading
/// first, as PyMuPDF's `search_for` finds it.
pub fn locate(spec: &Value, phrase: &str) -> Option<(f64, f64, f64)> {
    let heading = spec["heading"].as_str()?;
    let lines = spec["lines"].as_array()?;
    let rows = std::iter::once((heading, 18.0, 90.0)).chain(
        lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| Some((l.as_str()?, 11.0, 130.0 + 20.0 * i as f64))),
    );
    for (text, size, baseline) in rows {
        if let Some(at) = text.find(phrase) {
            let x0 = 72.0 + width(&text[..at], size);
            let x1 = x0 + width(phrase, size);
            return Some((x0, x1, baseline - 0.35 * size));
        }
    }
    None
}

/// The point (`x`, `y` in points) on the page headed `heading`.
fn on_page(heading: &str, x: f64, y: f64) -> Target {
    Target::Role {
        role: "page_point".into(),
        name: format!("{heading}@{x:.2},{y:.2}/{}x{}", PAGE.0, PAGE.1),
    }
}

fn role(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.into(),
        name: name.into(),
    }
}

/// The plan of a `pdf_annotate` task.
pub fn pdf_annotate(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let path = slots["pdf"]["path"]
        .as_str()
        .ok_or("pdf_annotate: slot pdf.path missing")?;
    let out = slots["out"].as_str().ok_or("pdf_annotate: slot out missing")?;
    let n = slots["page"].as_u64().ok_or("pdf_annotate: slot page missing")?;
    let phrase = slots["phrase"].as_str().ok_or("pdf_annotate: slot phrase missing")?;
    let page = &slots["pdf"]["pages"][(n.max(1) - 1) as usize];
    let heading = page["heading"]
        .as_str()
        .ok_or_else(|| format!("pdf_annotate: no page {n} in pdf.pages"))?;
    let (x0, x1, y) =
        locate(page, phrase).ok_or_else(|| format!("pdf_annotate: {phrase:?} is not on page {n}"))?;
    let file = path.rsplit('/').next().unwrap_or(path);
    let mut steps = vec![
        focused(file, 60_000),
        // One page at a time (C: continuous off; the pack's defaults have it on), fitted to the
        // window (F): the page is then shown alone, whole and centred (see `page_point`).
        key("c"),
        key("f"),
        // The annotation bar ("Note text", "Highlight text") under the header bar.
        PlanStep::Retry {
            until: role("node", "toggle button:Highlight text"),
            tries: 3,
            timeout_ms: 10_000,
            steps: vec![click("toggle button:Annotate document")],
        },
    ];
    // Go to the page (the page number box in the header bar): Evince shows only the pages in
    // view, and the page's text must be on screen to be pointed at.
    steps.push(PlanStep::Retry {
        until: on_page(heading, x0, y),
        tries: 3,
        timeout_ms: 10_000,
        steps: vec![
            PlanStep::Fill {
                target: role("node", "text:page-label-entry"),
                text: n.to_string(),
            },
            key("Return"),
        ],
    });
    let subtype = match slots["kind"].as_str() {
        Some("highlight") => {
            steps.extend([
                PlanStep::Drag {
                    from: on_page(heading, x0 - 1.5, y),
                    to: on_page(heading, x1 + 1.5, y),
                },
                click("toggle button:Highlight text"),
            ]);
            "/Subtype /Highlight"
        }
        Some("note") => {
            let note = slots["note"].as_str().ok_or("pdf_annotate: slot note missing")?;
            steps.extend([
                click("toggle button:Note text"),
                PlanStep::Click {
                    target: on_page(heading, x1 + 8.0, y),
                },
                PlanStep::Retry {
                    until: role("focused_shows", note),
                    tries: 3,
                    timeout_ms: 10_000,
                    steps: vec![
                        PlanStep::Click {
                            target: role("popup", "text:[editable]"),
                        },
                        key("ctrl+a"),
                        PlanStep::Type { text: note.into() },
                    ],
                },
                // Closing the note's window writes its text into the annotation.
                PlanStep::Click {
                    target: role("popup", "push button:Close"),
                },
            ]);
            "/Subtype /Text"
        }
        other => return Err(format!("pdf_annotate: no plan for the kind {other:?}")),
    };
    save_as(&mut steps, out, path);
    steps.push(PlanStep::WaitFor {
        target: role("pdf_has", &format!("{out}::{subtype}")),
        timeout_ms: 10_000,
    });
    steps.push(focused(file, 20_000));
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Fails on the old planner, which refused annotations by name. The phrase's extents match
    /// PyMuPDF's `search_for` on the setup's PDF (x 72.0–192.44, y 138.2–153.3 for this line).
    #[test]
    fn a_phrase_is_found_on_its_page_and_highlighted_by_a_drag_over_it() {
        let page = json!({"heading": "Field Findings - Part 2", "lines": [
            "Section 2.1 covers the field findings figures for week 11.",
            "Reference code FIN-114 is filed with the records office."]});
        let (x0, x1, y) = locate(&page, "Reference code FIN-114").unwrap();
        assert!((x0 - 72.0).abs() < 0.01 && (x1 - 192.44).abs() < 0.05, "{x0} {x1}");
        assert!((138.2..153.3).contains(&y), "{y}");
        let (x0, _, _) = locate(&page, "figures").unwrap();
        assert!(x0 > 200.0, "{x0}");
        assert!(locate(&page, "absent").is_none());
        let slots = json!({"pdf": {"path": "Documents/f.pdf", "pages": [page.clone(), page]},
            "page": 2, "phrase": "Reference code FIN-114", "kind": "highlight",
            "out": "Documents/f-annotated.pdf"});
        let text = format!("{:?}", pdf_annotate(&slots).unwrap());
        for want in ["page-label-entry", "Drag", "Field Findings - Part 2@70.50,146.15/595x842", "Highlight text", "Save As…",
            "saved_pdf", "Documents/f-annotated.pdf::/Subtype /Highlight"] {
            assert!(text.contains(want), "no {want} in {text}");
        }
        let note = json!({"pdf": slots["pdf"], "page": 2, "phrase": "Reference code FIN-114",
            "kind": "note", "note": "Check", "out": "Documents/f.pdf"});
        let text = format!("{:?}", pdf_annotate(&note).unwrap());
        for want in ["Note text", "popup", "Check", "push button:Replace", "/Subtype /Text"] {
            assert!(text.contains(want), "no {want} in {text}");
        }
    }
}
