//! gimp recipes: pictures drawn by the setup and edited in GIMP, exports to other formats, and
//! gimprc preferences.

use serde_json::{json, Map, Value};

use crate::taskgen::recipes::{and_list, Ctx, Draft, Recipe};

/// (op slot, what the instruction says).
const OPS: [(&str, &str); 7] = [
    ("flip_h", "flip it horizontally"),
    ("flip_v", "flip it vertically"),
    ("rot90", "rotate it 90° clockwise"),
    ("rot270", "rotate it 90° counter-clockwise"),
    ("rot180", "rotate it by 180°"),
    ("gray", "convert it to grayscale"),
    ("invert", "invert its colours"),
];

const NAMES: [&str; 8] = [
    "lake", "market", "station", "orchard", "quay", "studio", "canyon", "plaza",
];

/// (extension, format name).
const FORMATS: [(&str, &str); 5] = [
    ("jpg", "JPEG"),
    ("bmp", "BMP"),
    ("tif", "TIFF"),
    ("gif", "GIF"),
    ("webp", "WebP"),
];

fn picture(ctx: &mut Ctx<'_>) -> (String, Value) {
    let name = format!("{}-{}", NAMES[ctx.idx(NAMES.len())], ctx.serial % 1000);
    let w = 200 + 40 * ctx.idx(5);
    let h = 160 + 40 * ctx.idx(4);
    let path = format!("Pictures/{name}.png");
    let image = json!({"path": path, "size": [w, h], "seed": ctx.serial % 10_000});
    (path, image)
}

/// One to three edits of a picture, overwritten or exported to a new file.
pub fn transform(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let n = ctx.count().min(3);
    let (src, image) = picture(ctx);
    let start = ctx.idx(OPS.len());
    let ops: Vec<&str> = (0..n).map(|i| OPS[(start + 2 * i) % OPS.len()].0).collect();
    let said: Vec<String> = (0..n)
        .map(|i| OPS[(start + 2 * i) % OPS.len()].1.to_string())
        .collect();
    let v = ctx.idx(2);
    let (out, core) = match v {
        0 => (
            src.clone(),
            format!(
                "In GIMP, {} (the picture ~/{src} is open) and overwrite it with the result.",
                and_list(&said)
            ),
        ),
        _ => {
            let out = src.replace(".png", "-edited.png");
            let core = format!(
                "In GIMP, take ~/{src}, {}, and export the result as ~/{out}.",
                and_list(&said)
            );
            (out, core)
        }
    };
    let context = format!("The setup draws {image} with Pillow and opens it in GIMP. Ground truth: Pillow applies {ops:?}; the reward reads ~/{out}. Checkpoints: format (0.2), size (0.3), pixels (0.5).");
    let mut slots = json!({"image": image, "ops": ops, "out": out});
    if out != src {
        slots["remove"] = json!([out]);
    }
    Some(ctx.draft(v, core, context, "image_edit", slots, vec!["gimp"]))
}

/// Exports a picture to another format.
pub fn export(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (src, image) = picture(ctx);
    let (ext, name) = FORMATS[ctx.idx(FORMATS.len())];
    let out = src.replace(".png", &format!(".{ext}"));
    let core = format!("Open ~/{src} in GIMP and export it as a {name} file, ~/{out}.");
    let context = format!("The setup draws {image} with Pillow and opens it in GIMP. Ground truth: the same picture saved as {name} at ~/{out}. Checkpoints: format (0.2), size (0.3), pixels (0.5).");
    let slots = json!({"image": image, "ops": [], "out": out, "remove": [out]});
    Some(ctx.draft(0, core, context, "image_edit", slots, vec!["gimp"]))
}

/// (gimprc key, start value, goal value, what the instruction says).
const PREFS: [(&str, &str, &str, &str); 6] = [
    ("undo-levels", "5", "20", "keep at least 20 undo levels"),
    ("show-tooltips", "yes", "no", "hide tooltips"),
    ("layer-previews", "yes", "no", "turn layer previews off"),
    ("show-help-button", "yes", "no", "hide the help buttons in its dialogs"),
    ("save-document-history", "yes", "no", "keep no document history"),
    ("export-metadata-exif", "yes", "no", "export no Exif metadata by default"),
];

/// The undo levels a task may ask for (GIMP's default is 5).
const UNDO_LEVELS: [u32; 5] = [10, 20, 30, 50, 100];

/// One (easy) to several (hard) preferences in gimprc.
pub fn pref(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let n = ctx.count().min(3);
    let start = ctx.idx(PREFS.len());
    let (mut preset, mut changes, mut said) = (Map::new(), Map::new(), Vec::new());
    for i in 0..n {
        let (key, from, to, phrase) = PREFS[(start + i) % PREFS.len()];
        preset.insert(key.into(), json!(from));
        // The undo level is a number: any of a few, so the preference leaves draw distinct tasks.
        let (to, phrase) = if key == "undo-levels" {
            let levels = UNDO_LEVELS[ctx.idx(UNDO_LEVELS.len())];
            (levels.to_string(), format!("keep at least {levels} undo levels"))
        } else {
            (to.to_string(), phrase.to_string())
        };
        changes.insert(key.into(), json!(to));
        said.push(phrase);
    }
    // Settings GIMP writes back itself when it saves gimprc (it drops show-tips).
    let keep = json!({"restore-session": "no", "check-updates": "no"});
    let core = format!("Change GIMP's preferences so that it will {}.", and_list(&said));
    let context = format!("The setup writes gimprc with {} and starts GIMP. Ground truth: {} in ~/.config/GIMP/2.10/gimprc. Checkpoints: one per setting (0.8 split), other settings preserved (0.2).", Value::Object(preset.clone()), Value::Object(changes.clone()));
    let slots = json!({"preset": preset, "changes": changes, "keep": keep});
    Some(ctx.draft(0, core, context, "gimp_pref", slots, vec!["gimp"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("gimp_transform", transform),
    ("gimp_export", export),
    ("gimp_pref", pref),
];
