//! The gimp ui-oracle planner: keyboard-only plans through GIMP's menus (their mnemonics: Alt+I
//! Image, T Transform, M Mode; Alt+C Colors), then File > Overwrite (Alt+F, W) or File > Export As
//! (Ctrl+Shift+E, the path typed, the format's own dialog confirmed), each step waited on in the
//! window titles (the profile's title format `%D*%f %wx%h`: dirty marker, name, size) and the
//! saved file on disk.
//!
//! Scaling, cropping, brightness and the Preferences dialog have no plan yet (refused by name).

use serde_json::Value;

use crate::engine::agents::TaskBrief;
use crate::engine::rollout::ui_plan::{PlanStep, Target, UiPlanner};

const HOME: &str = "/home/user";
const WAIT_MS: u64 = 30_000;

fn focused(name: String, timeout_ms: u64) -> PlanStep {
    PlanStep::WaitFor {
        target: Target::Role {
            role: "focused_window".into(),
            name,
        },
        timeout_ms,
    }
}

fn keys(chords: &[&str]) -> Vec<PlanStep> {
    chords
        .iter()
        .map(|k| PlanStep::Key {
            key: (*k).to_string(),
        })
        .collect()
}

fn saved(rel: &str) -> PlanStep {
    PlanStep::WaitFor {
        target: Target::Role {
            role: "saved".into(),
            name: rel.into(),
        },
        timeout_ms: WAIT_MS,
    }
}

/// The menu path (mnemonics) of an edit and whether it swaps width and height.
fn menu(op: &Value) -> Option<(&'static [&'static str], bool)> {
    Some(match op.as_str()? {
        "flip_h" => (&["alt+i", "t", "h"], false),
        "flip_v" => (&["alt+i", "t", "v"], false),
        "rot90" => (&["alt+i", "t", "c"], true),
        "rot270" => (&["alt+i", "t", "w"], true),
        "rot180" => (&["alt+i", "t", "1"], false),
        "gray" => (&["alt+i", "m", "g"], false),
        // "In_vert" and "_Value Invert" share V: the first press selects Invert, Return runs it.
        "invert" => (&["alt+c", "v", "Return"], false),
        _ => return None,
    })
}

/// The title of the format dialog GIMP shows after Export As, by the file's extension.
fn export_dialog(ext: &str) -> Option<&'static str> {
    Some(match ext {
        "png" => "Export Image as PNG",
        "jpg" | "jpeg" => "Export Image as JPEG",
        "bmp" => "Export Image as BMP",
        "tif" | "tiff" => "Export Image as TIFF",
        "gif" => "Export Image as GIF",
        "webp" => "Export Image as WebP",
        _ => return None,
    })
}

/// GIMP's title for a picture it imported: `[stem] (imported) WxH – GIMP`, `*` first once edited;
/// `(overwritten)` / `(exported)` once an export has finished writing.
fn title_as(stem: &str, how: &str, size: (u64, u64), dirty: bool) -> String {
    let star = if dirty { "*" } else { "" };
    format!("{star}[{stem}] ({how}) {}x{} – GIMP", size.0, size.1)
}

fn title(stem: &str, size: (u64, u64), dirty: bool) -> String {
    title_as(stem, "imported", size, dirty)
}

/// The plan of an `image_edit` task.
fn image_edit(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let src = slots["image"]["path"]
        .as_str()
        .ok_or("image_edit: slot image.path missing")?;
    let out = slots["out"].as_str().ok_or("image_edit: slot out missing")?;
    let size = &slots["image"]["size"];
    let (mut w, mut h) = (
        size[0].as_u64().ok_or("image_edit: image.size")?,
        size[1].as_u64().ok_or("image_edit: image.size")?,
    );
    let file = src.rsplit('/').next().unwrap_or(src);
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    let mut steps = vec![focused(title(stem, (w, h), false), 90_000)];
    let ops = slots["ops"].as_array().ok_or("image_edit: slot ops missing")?;
    for op in ops {
        let (chords, swaps) = menu(op).ok_or_else(|| format!("no GIMP plan for the edit {op}"))?;
        steps.extend(keys(chords));
        if swaps {
            std::mem::swap(&mut w, &mut h);
        }
        steps.push(focused(title(stem, (w, h), true), WAIT_MS));
    }
    if out == src {
        steps.extend(keys(&["alt+f", "w"]));
    } else {
        let ext = out.rsplit('.').next().unwrap_or_default().to_lowercase();
        let dialog = export_dialog(&ext).ok_or_else(|| format!("no GIMP export plan for .{ext}"))?;
        steps.extend(keys(&["ctrl+shift+e"]));
        steps.push(focused("Export Image".into(), WAIT_MS));
        steps.extend(keys(&["ctrl+a"]));
        steps.push(PlanStep::Type {
            text: format!("{HOME}/{out}"),
        });
        steps.extend(keys(&["Return"]));
        steps.push(focused(dialog.into(), WAIT_MS));
        steps.extend(keys(&["Return"]));
    }
    steps.push(saved(out));
    // The file's first write is not its last: wait until GIMP says the export is done (else the
    // screen stops GIMP halfway and the reward reads an empty file).
    let how = if out == src { "overwritten" } else { "exported" };
    steps.push(focused(
        title_as(stem, how, (w, h), !ops.is_empty()),
        WAIT_MS,
    ));
    Ok(steps)
}

/// Plans gimp tasks through GIMP's menus.
pub struct GimpPlanner;

impl UiPlanner for GimpPlanner {
    fn apps(&self) -> &[&'static str] {
        &["gimp"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, String> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let slots = brief.structured.get("slots").cloned().unwrap_or(Value::Null);
        match template.rsplit('/').next().unwrap_or(template) {
            "image_edit" => image_edit(&slots),
            other => Err(format!("template {other} has no GIMP plan yet")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_rotation_swaps_the_size_in_the_awaited_title_and_unplanned_edits_are_refused() {
        let slots = json!({"image": {"path": "Pictures/a.png", "size": [300, 200], "seed": 1},
                           "ops": ["rot90"], "out": "Pictures/a.png"});
        let steps = image_edit(&slots).unwrap();
        let want = title("a", (200, 300), true);
        assert!(steps.iter().any(|s| matches!(s, PlanStep::WaitFor { target: Target::Role { name, .. }, .. } if *name == want)));
        let scale = json!({"image": {"path": "Pictures/a.png", "size": [300, 200], "seed": 1},
                           "ops": [{"resize": [150, 100]}], "out": "Pictures/a.png"});
        assert!(image_edit(&scale).unwrap_err().contains("resize"));
        assert_eq!(export_dialog("jpg"), Some("Export Image as JPEG"));
    }
}
