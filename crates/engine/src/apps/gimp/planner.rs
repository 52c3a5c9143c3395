//! The gimp ui-oracle planner: keyboard-only plans through GIMP's menus (their mnemonics: Alt+I
//! Image, T Transform, M Mode; Alt+C Colors), then File > Overwrite (Alt+F, W) or File > Export As
//! (Ctrl+Shift+E, the path typed, the format's own dialog confirmed), each step waited on in the
//! window titles (the profile's title format `%D*%f %wx%h`: dirty marker, name, size) and the
//! saved file on disk.
//!
//! Dialogs are driven through their fields, found in GIMP's accessibility tree (GTK 2's gail and
//! atk-bridge, loaded by the manifest's `GTK_MODULES`) by their captions: Image > Scale Image
//! (Width, the chain keeps the ratio), Image > Canvas Size (Width, Height, Offset X/Y: a crop),
//! Colors > Brightness-Contrast (the Brightness field). Preferences: [`super::prefs`].

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::ui_plan::{PlanStep, Target, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

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

/// The node `spec` (`role:name[state]`, see the desktop resolver) as a target.
pub(crate) fn node(spec: &str) -> Target {
    Target::Role {
        role: "node".into(),
        name: spec.into(),
    }
}

/// Waits until the node `spec` shows.
pub(crate) fn wait_node(spec: &str) -> PlanStep {
    PlanStep::WaitFor {
        target: node(spec),
        timeout_ms: WAIT_MS,
    }
}

/// Clicks the node `spec`.
pub(crate) fn click(spec: &str) -> PlanStep {
    PlanStep::Click { target: node(spec) }
}

/// Types `value` into the field captioned `caption`, leaves it with Tab and waits until a
/// spin button shows `shown` (what GIMP made of it).
fn field(caption: &str, value: i64, shown: i64) -> Vec<PlanStep> {
    vec![
        PlanStep::Fill {
            target: Target::Role {
                role: "labelled".into(),
                name: caption.into(),
            },
            text: value.to_string(),
        },
        PlanStep::Key { key: "Tab".into() },
        wait_node(&format!("spin button:{shown}")),
    ]
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

/// The numbers of a dict op's value (`{"resize": [w, h]}`).
fn numbers(v: &Value) -> Option<Vec<i64>> {
    v.as_array()?.iter().map(Value::as_i64).collect()
}

/// The plan of a dialog edit (scale, crop, brightness) on a `w`×`h` picture, and its new size.
fn dialog_edit(op: &Value, (w, h): (u64, u64)) -> Result<(Vec<PlanStep>, (u64, u64)), String> {
    let obj = op.as_object().ok_or_else(|| format!("no GIMP plan for the edit {op}"))?;
    let (name, arg) = obj
        .iter()
        .next()
        .ok_or_else(|| format!("empty edit {op}"))?;
    let (wi, hi) = (w as i64, h as i64);
    match name.as_str() {
        "resize" => {
            let [nw, nh] = numbers(arg).as_deref().and_then(|v| v.try_into().ok()).ok_or("resize: [w, h]")?;
            // The chain keeps the ratio: GIMP rounds the height it derives from the width.
            if nw <= 0 || ((nw * hi) as f64 / wi as f64).round() as i64 != nh {
                return Err(format!("no GIMP plan for a scale to {nw}x{nh} that changes the ratio"));
            }
            let mut steps = keys(&["alt+i", "s"]);
            steps.push(focused("Scale Image".into(), WAIT_MS));
            steps.extend(field("Width:", nw, nh));
            steps.push(click("push button:Scale"));
            Ok((steps, (nw as u64, nh as u64)))
        }
        "crop" => {
            let [l, t, r, b] = numbers(arg).as_deref().and_then(|v| v.try_into().ok()).ok_or("crop: [l, t, r, b]")?;
            if !(0 <= l && l < r && r <= wi && 0 <= t && t < b && b <= hi) {
                return Err(format!("crop box {arg} outside the {w}x{h} picture"));
            }
            // Canvas Size (Alt+I, V): the new size and the layer's offset in it crop on export.
            let mut steps = keys(&["alt+i", "v"]);
            steps.push(focused("Set Image Canvas Size".into(), WAIT_MS));
            steps.extend(field("Width:", r - l, r - l));
            steps.extend(field("Height:", b - t, b - t));
            steps.extend(field("X:", -l, -l));
            steps.extend(field("Y:", -t, -t));
            steps.push(click("push button:Resize"));
            Ok((steps, ((r - l) as u64, (b - t) as u64)))
        }
        "brightness" => {
            let f = arg.as_f64().ok_or("brightness: a factor")?;
            // Pillow's factor as GIMP's Brightness (-127..127, additive towards white): 1.3 -> 60.
            let value = (((f - 1.0) * 200.0).round() as i64).clamp(-127, 127);
            // Colors menu: Color Balance is first and selected; Brightness-Contrast is the 8th
            // item (its mnemonic B is Color Balance's too).
            let mut steps = keys(&["alt+c"]);
            steps.extend(keys(&["Down"; 7]));
            steps.extend(keys(&["Return"]));
            steps.push(focused("Brightness-Contrast".into(), WAIT_MS));
            // The Presets box has the focus; Tab reaches the Brightness field (no caption of
            // its own: the label is drawn inside the slider).
            steps.extend(keys(&["Tab"]));
            steps.push(wait_node("spin button:0[focused]"));
            steps.extend(keys(&["ctrl+a"]));
            steps.push(PlanStep::Type {
                text: value.to_string(),
            });
            steps.extend(keys(&["Tab"]));
            steps.push(wait_node(&format!("spin button:{value}")));
            steps.push(click("push button:OK"));
            Ok((steps, (w, h)))
        }
        _ => Err(format!("no GIMP plan for the edit {op}")),
    }
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
        if let Some((chords, swaps)) = menu(op) {
            steps.extend(keys(chords));
            if swaps {
                std::mem::swap(&mut w, &mut h);
            }
        } else {
            let (more, size) = dialog_edit(op, (w, h))?;
            steps.extend(more);
            (w, h) = size;
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

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let slots = brief.structured.get("slots").cloned().unwrap_or(Value::Null);
        match template.rsplit('/').next().unwrap_or(template) {
            "image_edit" => image_edit(&slots),
            "gimp_pref" => super::prefs::plan(&slots),
            other => Err(format!("template {other} has no GIMP plan yet")),
        }
        .map_err(PlanRefusal::new)
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
        let odd = json!({"image": {"path": "Pictures/a.png", "size": [300, 200], "seed": 1},
                           "ops": ["sharpen"], "out": "Pictures/a.png"});
        assert!(image_edit(&odd).unwrap_err().contains("sharpen"));
        assert_eq!(export_dialog("jpg"), Some("Export Image as JPEG"));
    }

    fn waits(steps: &[PlanStep]) -> Vec<String> {
        steps
            .iter()
            .filter_map(|s| match s {
                PlanStep::WaitFor {
                    target: Target::Role { name, .. },
                    ..
                } => Some(name.clone()),
                _ => None,
            })
            .collect()
    }

    /// Fails on the old planner, which refused scaling, cropping and brightness by name.
    #[test]
    fn scale_crop_and_brightness_go_through_their_dialogs_and_check_the_fields() {
        let slots = json!({"image": {"path": "Pictures/t.png", "size": [300, 300], "seed": 1},
                           "ops": [{"crop": [50, 50, 250, 250]}, {"resize": [100, 100]}, {"brightness": 1.3}],
                           "out": "Pictures/t.png"});
        let w = waits(&image_edit(&slots).unwrap());
        for want in ["Set Image Canvas Size", "spin button:-50", "*[t] (imported) 200x200 – GIMP",
                     "Scale Image", "*[t] (imported) 100x100 – GIMP", "Brightness-Contrast",
                     "spin button:60", "*[t] (overwritten) 100x100 – GIMP"] {
            assert!(w.iter().any(|n| n == want), "no wait for {want}: {w:?}");
        }
        let skew = json!({"image": {"path": "Pictures/a.png", "size": [300, 200], "seed": 1},
                          "ops": [{"resize": [150, 150]}], "out": "Pictures/a.png"});
        assert!(image_edit(&skew).unwrap_err().contains("ratio"));
        let outside = json!({"image": {"path": "Pictures/a.png", "size": [300, 200], "seed": 1},
                             "ops": [{"crop": [0, 0, 400, 100]}], "out": "Pictures/a.png"});
        assert!(image_edit(&outside).unwrap_err().contains("outside"));
    }
}
