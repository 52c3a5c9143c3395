//! Writer's plans through its dialogs (issue #31): Format > Character (font family and size on
//! the Font tab, the font colour through Font Effects > Custom Color's Hex field, highlighting
//! through the Highlighting tab's Hex field), Format > Paragraph (Indents & Spacing: indents,
//! spacing, the line spacing list box) and Format > Page Style (Page tab: paper, orientation,
//! margins). Fields are found by their captions and each typed value is checked against what
//! the field shows before the dialog is closed with OK.

use serde_json::Value;

use crate::apps::office::plan_writer_dialogs::field_target;
use crate::apps::office::LoPlan;

/// The hex colour LibreOffice's Highlighting tab is given for a Word highlight colour name.
fn highlight_hex(name: &str) -> Option<&'static str> {
    Some(match name {
        "yellow" => "FFFF00",
        "green" | "brightGreen" => "00FF00",
        "cyan" | "turquoise" => "00FFFF",
        "magenta" | "pink" => "FF00FF",
        "red" => "FF0000",
        "blue" => "0000FF",
        _ => return None,
    })
}

/// Whether a `char_format` property is set through the Character dialog.
pub(super) fn is_char_dialog_prop(prop: &str) -> bool {
    matches!(prop, "size" | "font" | "color" | "highlight")
}

/// Sets the dialog properties of one `char_format` target on the selection (one opening of
/// Format > Character).
pub(super) fn char_dialog(plan: &mut LoPlan, props: &[(&str, &Value)]) -> Result<(), String> {
    let refuse = |prop: &str, value: &Value| {
        format!("template char_format: `{prop}` = {value} has no keyboard plan")
    };
    plan.dialog("Format", &["Character"], "Character");
    let get = |key: &str| props.iter().find(|(p, _)| *p == key).map(|(_, v)| *v);
    if get("font").is_some() || get("size").is_some() {
        plan.tab("Font");
    }
    if let Some(v) = get("font") {
        plan.field("Family:", v.as_str().ok_or_else(|| refuse("font", v))?);
    }
    if let Some(v) = get("size") {
        let size = v.as_f64().ok_or_else(|| refuse("size", v))?;
        plan.field("Size:", &format!("{size} pt"));
    }
    if let Some(v) = get("color") {
        let hex = v.as_str().filter(|h| h.len() == 6).ok_or_else(|| refuse("color", v))?;
        plan.tab("Font Effects")
            .click_on(field_target("labelled_button", "Font color:"))
            .click("push button:Custom Color")
            .wait_window("Pick a Color")
            .field("Hex #:", hex)
            .click_on(field_target("field_within", "dialog:Pick a Color>push button:OK"))
            .wait_window("Character")
            .expect(&format!("toggle button:#{hex}"));
    }
    if let Some(v) = get("highlight") {
        let hex = v
            .as_str()
            .and_then(highlight_hex)
            .ok_or_else(|| refuse("highlight", v))?;
        plan.tab("Highlighting")
            .click("toggle button:Color")
            .expect("toggle button:Color[checked]")
            .field("Hex", hex);
    }
    plan.ok();
    Ok(())
}

/// The Paragraph dialog's field caption and the text typed for a paragraph property.
fn para_field(prop: &str, v: f64) -> Option<(&'static str, String)> {
    Some(match prop {
        "left_indent_cm" => ("Before text:", format!("{v} cm")),
        "first_line_indent_cm" => ("First line:", format!("{v} cm")),
        "space_after" => ("Below paragraph:", format!("{v} pt")),
        "space_before" => ("Above paragraph:", format!("{v} pt")),
        _ => return None,
    })
}

/// The line spacing list box's entry for a spacing in lines.
fn spacing_entry(lines: f64) -> Option<&'static str> {
    [(1.0, "Single"), (1.15, "1.15 Lines"), (1.5, "1.5 Lines"), (2.0, "Double")]
        .into_iter()
        .find(|(l, _)| (lines - l).abs() < 1e-6)
        .map(|(_, e)| e)
}

/// Sets paragraph properties without a shortcut through Format > Paragraph > Indents & Spacing.
pub(super) fn para_dialog(plan: &mut LoPlan, props: &[(&str, &Value)]) -> Result<(), String> {
    let refuse = |prop: &str, value: &Value| {
        format!("template para_format: `{prop}` = {value} has no keyboard plan")
    };
    plan.dialog("Format", &["Paragraph"], "Paragraph")
        .tab("Indents & Spacing");
    for (prop, value) in props {
        let v = value.as_f64().ok_or_else(|| refuse(prop, value))?;
        if *prop == "line_spacing" {
            let entry = spacing_entry(v).ok_or_else(|| refuse(prop, value))?;
            plan.choose(
                field_target("field_within", "panel:Line Spacing>toggle button:"),
                entry,
            );
            continue;
        }
        let (caption, text) = para_field(prop, v).ok_or_else(|| refuse(prop, value))?;
        plan.field(caption, &text);
    }
    plan.ok();
    Ok(())
}

/// Plans `page_setup`: Format > Page Style, the Page tab's paper list, orientation and margins.
pub(super) fn page_setup(plan: &mut LoPlan, s: &Value) -> Result<(), String> {
    plan.dialog(
        "Format",
        &["Page Style"],
        "Page Style: Default Page Style",
    )
    .tab("Page");
    if let Some(paper) = s.get("paper").and_then(Value::as_str) {
        plan.choose(field_target("labelled_button", "Format:"), paper);
    }
    match s.get("orientation").and_then(Value::as_str) {
        Some(o @ ("landscape" | "portrait")) => {
            let button = if o == "landscape" { "Landscape" } else { "Portrait" };
            plan.click(&format!("radio button:{button}"))
                .expect(&format!("radio button:{button}[checked]"));
        }
        Some(other) => return Err(format!("template page_setup: no plan for orientation {other}")),
        None => {}
    }
    let margins = s.get("margins_cm").and_then(Value::as_object);
    for (side, value) in margins.into_iter().flatten() {
        let caption = match side.as_str() {
            "left" => "Left:",
            "right" => "Right:",
            "top" => "Top:",
            "bottom" => "Bottom:",
            other => return Err(format!("template page_setup: no plan for the {other} margin")),
        };
        let cm = value
            .as_f64()
            .ok_or_else(|| format!("template page_setup: margin {side} = {value} is no number"))?;
        plan.field(caption, &format!("{cm} cm"));
    }
    plan.ok();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_spacings_and_highlights_map_to_the_dialogs_entries() {
        assert_eq!(spacing_entry(1.5), Some("1.5 Lines"));
        assert_eq!(spacing_entry(2.0), Some("Double"));
        assert_eq!(spacing_entry(1.25), None);
        assert_eq!(highlight_hex("yellow"), Some("FFFF00"));
        assert_eq!(highlight_hex("darkGray"), None);
    }
}
