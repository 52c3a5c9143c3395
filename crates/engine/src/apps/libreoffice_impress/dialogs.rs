//! Impress plans through dialogs and sidebar decks, each step checked in the accessibility tree:
//! File > Export As > Export as PDF (creating a missing target folder with the file dialog's
//! Create New Folder button, as a person would), Slide > Slide Properties > Background (the
//! colour's Hex field), Slide > Slide Transition (the sidebar deck's effect list).

use serde_json::Value;

use super::steps::{doc_title, goto_keys, menu_until, page_node, show_slide, wait_node};
use crate::apps::office::{focused, list_slot, node, text_slot, LoPlan};
use crate::rollout::ui_plan::{PlanStep, Target};

/// The home as the application sees it.
const HOME: &str = "/home/user";

/// The folder part of `path` (relative to the home), `""` for the home itself.
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The folders to create, outermost first, for a file at `target` when only `existing` (and
/// its ancestors) exist: `(folder it goes in, its name)`.
pub(crate) fn missing_folders<'a>(existing: &str, target: &'a str) -> Vec<(String, &'a str)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for part in parent(target).split('/').filter(|p| !p.is_empty()) {
        let next = if cur.is_empty() {
            part.to_string()
        } else {
            format!("{cur}/{part}")
        };
        let exists = existing == next || existing.starts_with(&format!("{next}/"));
        if !exists {
            out.push((cur.clone(), part));
        }
        cur = next;
    }
    out
}

/// The absolute path of `rel` (under the home) as the application sees it.
fn abs(rel: &str) -> String {
    if rel.is_empty() {
        HOME.to_string()
    } else {
        format!("{HOME}/{rel}")
    }
}

/// File > Export As > Export as PDF…, the PDF Options' Export, then in the file dialog: each
/// folder of `pdf` the setup did not make (only the deck's folder exists) created with Create
/// New Folder unless the dialog lists it already, and the full path typed as the file name.
pub(crate) fn export_pdf(plan: &mut LoPlan, deck: &str, pdf: &str) {
    menu_until(
        plan,
        "File",
        &["Export As", "Export as PDF..."],
        focused("PDF Options"),
    );
    plan.click("push button:Export").wait_window("Export");
    let name_field = Target::Role {
        role: "labelled".into(),
        name: "File name:".into(),
    };
    for (inside, folder) in missing_folders(parent(deck), pdf) {
        // Into the folder that will hold the new one: its path typed as the file name.
        plan.steps.push(PlanStep::Fill {
            target: name_field.clone(),
            text: abs(&inside),
        });
        // The field completes a typed path (`/home/user` → `…/Documents/deck.pptx`, the
        // completion selected): Delete drops the completion before Return.
        plan.keys("Delete Return");
        plan.steps.push(wait_node(&format!("text:{}", abs(&inside))));
        plan.steps.push(PlanStep::UnlessPresent {
            target: node(&format!("table cell:{folder}")),
            steps: vec![
                PlanStep::Click {
                    target: node("push button:Create New Folder"),
                },
                wait_node("label:Create New Folder"),
                PlanStep::Type {
                    text: folder.to_string(),
                },
                PlanStep::Key {
                    key: "Return".into(),
                },
            ],
        });
        plan.wait_window("Export");
        plan.steps.push(wait_node(&format!("table cell:{folder}")));
    }
    plan.steps.push(PlanStep::Fill {
        target: name_field,
        text: abs(pdf),
    });
    plan.keys("Delete Return");
}

/// The slide titles of the deck (`slides` slot), in order.
fn titles<'a>(s: &'a Value, template: &str) -> Result<Vec<&'a str>, String> {
    Ok(list_slot(s, "slides", template)?
        .iter()
        .map(|sl| sl.get("title").and_then(Value::as_str).unwrap_or(""))
        .collect())
}

/// The 1-based slide numbers of the `targets` slot, each checked against the deck.
fn targets(s: &Value, template: &str, count: usize) -> Result<Vec<usize>, String> {
    list_slot(s, "targets", template)?
        .iter()
        .map(|v| {
            v.as_u64()
                .map(|n| n as usize)
                .filter(|n| (1..=count).contains(n))
                .ok_or_else(|| format!("template {template}: target {v} is not a slide of the deck"))
        })
        .collect()
}

/// Shows slide `n` (titled `title`) by clicking it in the Slides pane, checked in the tree.
fn click_slide(plan: &mut LoPlan, title: &str) {
    plan.click(&format!("panel:{title}"));
    plan.steps.push(wait_node(&page_node(title, false)));
}

/// Each target slide's background a solid colour: Slide > Slide Properties…, the Background
/// tab, Color, the new colour's Hex field, OK.
pub(crate) fn background(plan: &mut LoPlan, s: &Value, template: &str) -> Result<(), String> {
    let color = text_slot(s, "color", template)?.to_lowercase();
    let titles = titles(s, template)?;
    let doc = doc_title(text_slot(s, "deck", template)?);
    for n in targets(s, template, titles.len())? {
        // By keys in the slide (the document keeps the focus across the dialog; the Slides
        // pane's entries were gone from the tree after it, measured).
        show_slide(plan, &goto_keys(n), &page_node(titles[n - 1], false));
        menu_until(
            plan,
            "Slide",
            &["Slide Properties..."],
            focused("Slide Properties"),
        );
        plan.click("page tab:Background")
            .click("toggle button:Color");
        plan.steps.push(PlanStep::Fill {
            target: Target::Role {
                role: "labelled".into(),
                name: "Hex".into(),
            },
            text: color.clone(),
        });
        plan.keys("Tab");
        plan.steps.push(wait_node(&format!("text:{color}")));
        plan.click("push button:OK").wait_window(&doc);
    }
    Ok(())
}

/// Effects the Slide Transition deck shows without scrolling, clicked by their list item.
const SHOWN_EFFECTS: &[&str] = &[
    "Wipe", "Wheel", "Uncover", "Bars", "Checkers", "Shape", "Box", "Wedge", "Venetian", "Fade",
    "Cut",
];

/// The list's items after Random, in order: drawn (the list scrolls to them) but absent from
/// LibreOffice 7.4's accessibility tree, which holds the first 15 items only (measured).
const HIDDEN_EFFECTS: &[&str] = &["Comb", "Push", "Split", "Diagonal", "Tiles", "Cube"];

/// The item a person starts from to reach a hidden effect by keyboard, and the one after it.
const ANCHOR: &str = "list item:Dissolve";
const LAST_SHOWN: &str = "list item:Random";

/// How the plan picks an effect in the deck's list.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Pick {
    /// Clicked by its list item (`Fade`).
    Shown(&'static str),
    /// Reached by keyboard: the anchor clicked, Right onto Random, then Right this many times
    /// more (the list's cursor runs along the rows, whatever the deck's width).
    Hidden(usize),
}

fn pick_of(effect: &str) -> Option<Pick> {
    if let Some(e) = SHOWN_EFFECTS.iter().find(|e| e.eq_ignore_ascii_case(effect)) {
        return Some(Pick::Shown(e));
    }
    let i = HIDDEN_EFFECTS.iter().position(|e| e.eq_ignore_ascii_case(effect))?;
    Some(Pick::Hidden(i + 1))
}

/// Selects the effect in the deck's list (which applies it to the slide shown), each step
/// checked in the tree: a shown item clicked until it is selected; a hidden one by keyboard
/// from Dissolve, Random checked selected, then no item of the tree selected once the cursor
/// is past Random.
fn pick_effect(plan: &mut LoPlan, pick: Pick) {
    let (item, rights) = match pick {
        Pick::Shown(label) => (format!("list item:{label}"), 0),
        Pick::Hidden(n) => (ANCHOR.to_string(), n),
    };
    let selected = format!("{item}[selected]");
    plan.steps.push(PlanStep::Retry {
        until: node(&selected),
        tries: super::steps::TRIES,
        timeout_ms: super::steps::SHOW_MS,
        steps: vec![PlanStep::Click { target: node(&item) }],
    });
    if rights == 0 {
        return;
    }
    plan.keys("Right");
    plan.steps.push(wait_node(&format!("{LAST_SHOWN}[selected]")));
    plan.keys("Right");
    plan.steps.push(PlanStep::WaitFor {
        target: Target::Role {
            role: "no_node".into(),
            name: "list item:[selected]".into(),
        },
        timeout_ms: super::steps::SHOW_MS,
    });
    if rights > 1 {
        plan.keys(&vec!["Right"; rights - 1].join(" "));
    }
}

/// A transition on the target slides: Slide > Slide Transition opens the sidebar deck; the
/// effect is picked on each target slide, or once and applied to all slides when every slide
/// is a target.
pub(crate) fn transition(plan: &mut LoPlan, s: &Value, template: &str) -> Result<(), String> {
    let effect = text_slot(s, "effect", template)?;
    let pick = pick_of(effect).ok_or_else(|| {
        format!("template {template}: effect {effect} has no plan (not in the deck's list)")
    })?;
    let titles = titles(s, template)?;
    let targets = targets(s, template, titles.len())?;
    if targets.is_empty() {
        return Err(format!("template {template}: slot `targets` names no slide"));
    }
    let all = targets.len() == titles.len();
    let each: Vec<usize> = if all { vec![targets[0]] } else { targets };
    // The first slide by keys while the document has the focus, then the deck (the sidebar
    // takes the focus); further slides by their Slides pane entry.
    show_slide(plan, &goto_keys(each[0]), &page_node(titles[each[0] - 1], false));
    menu_until(plan, "Slide", &["Slide Transition"], node(ANCHOR));
    for (i, n) in each.into_iter().enumerate() {
        if i > 0 {
            click_slide(plan, titles[n - 1]);
        }
        pick_effect(plan, pick);
    }
    if all {
        plan.click("push button:Apply Transition to All Slides");
    }
    Ok(())
}

/// Palette colours a plan can pick by name in a colour drop-down (the Standard palette).
const PALETTE: &[(&str, &str)] = &[("C9211E", "Dark Red 2"), ("2A6099", "Dark Blue 2"), ("FF0000", "Red")];

/// The font colour of the selected object's text: Format > Character…, the Font Effects tab,
/// the Font color drop-down (showing the title's Black), the palette colour, OK; the deck's
/// window `doc` has the focus again after.
pub(crate) fn font_color(plan: &mut LoPlan, color: &str, doc: &str, template: &str) -> Result<(), String> {
    let name = PALETTE
        .iter()
        .find(|(hex, _)| hex.eq_ignore_ascii_case(color))
        .map(|(_, name)| *name)
        .ok_or_else(|| format!("template {template}: colour {color} has no plan (not a Standard palette colour)"))?;
    menu_until(plan, "Format", &["Character..."], focused("Character"));
    plan.click("page tab:Font Effects")
        .click("toggle button:Black")
        .click(&format!("list item:{name}"));
    plan.steps.push(wait_node(&format!("toggle button:{name}")));
    plan.click("push button:OK").wait_window(doc);
    Ok(())
}

/// A shape kind's tool: (toolbar's first button, the tool's button, the new object's name).
fn shape_tool(kind: &str) -> Option<(&'static str, &'static str, &'static str)> {
    match kind {
        "rectangle" => Some(("Select", "Rectangle", "Rectangle")),
        "ellipse" => Some(("Select", "Ellipse", "Ellipse")),
        "textbox" => Some(("New", "Text Box", "Text Frame")),
        _ => None,
    }
}

/// Steps tried until `until` shows, each try short (a key moving the keyboard focus).
fn press_until(plan: &mut LoPlan, chord: &str, until: &str, tries: u32) {
    plan.steps.push(PlanStep::Retry {
        until: node(until),
        tries,
        timeout_ms: 1_500,
        steps: vec![PlanStep::Key { key: chord.into() }],
    });
}

/// A shape with text on a slide, by keyboard as LibreOffice documents it: F6 until the tool's
/// toolbar has the focus (Drawing: rectangle, ellipse; Standard: text box), Right until the
/// tool's button does, Ctrl+Enter inserts the shape at its default size, selected; Escape back
/// to the slide, F2 until its text is in edit mode, type, checked in the tree.
pub(crate) fn add_shape(plan: &mut LoPlan, s: &Value, template: &str) -> Result<(), String> {
    let kind = text_slot(s, "kind", template)?;
    let (first, tool, object) = shape_tool(kind)
        .ok_or_else(|| format!("template {template}: shape kind {kind} has no plan"))?;
    let n = s
        .get("slide")
        .and_then(Value::as_u64)
        .map(|n| n as usize)
        .ok_or_else(|| format!("template {template}: slot `slide` is not a number"))?;
    let titles = titles(s, template)?;
    let title = titles
        .get(n.wrapping_sub(1))
        .ok_or_else(|| format!("template {template}: no slide {n} in `slides`"))?;
    let text = text_slot(s, "text", template)?;
    show_slide(plan, &goto_keys(n), &page_node(title, false));
    press_until(plan, "F6", &format!("push button:{first}[focused]"), 8);
    press_until(plan, "Right", &format!("push button:{tool}[focused]"), 40);
    plan.keys("ctrl+Return");
    plan.steps.push(wait_node(&format!("panel:{object}[selected]")));
    plan.keys("Escape");
    press_until(plan, "F2", "paragraph:[focused]", 4);
    plan.text(text);
    plan.steps.push(wait_node(&format!("paragraph:{text}")));
    plan.keys("Escape");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the folders the setup did not make are created: the deck's folder and its
    /// ancestors exist, anything else (Desktop/, Documents/handouts/) does not.
    #[test]
    fn missing_folders_are_those_outside_the_decks_folder() {
        assert!(missing_folders("Documents", "Documents/q.pdf").is_empty());
        assert_eq!(missing_folders("Documents", "Desktop/l.pdf"), vec![(String::new(), "Desktop")]);
        assert_eq!(
            missing_folders("Documents", "Documents/handouts/o.pdf"),
            vec![("Documents".to_string(), "handouts")]
        );
        assert_eq!(
            missing_folders("Documents", "a/b/c.pdf"),
            vec![(String::new(), "a"), ("a".to_string(), "b")]
        );
        assert!(missing_folders("Documents", "top.pdf").is_empty());
    }
}
