//! vlc recipes: saving generated tones as a playlist, and vlcrc preferences.

use serde_json::{json, Map, Value};

use crate::taskgen::recipes::{and_list, Ctx, Draft, Recipe};

/// (file name, frequency) of the generated tones.
const TONES: [(&str, u32); 5] = [
    ("do-c262.wav", 262),
    ("re-d294.wav", 294),
    ("mi-e330.wav", 330),
    ("fa-f349.wav", 349),
    ("sol-g392.wav", 392),
];

/// VLC opens 1 (easy) to several tones; the task saves them as an XSPF or M3U playlist.
pub fn playlist(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let n = (ctx.count() + 1).min(TONES.len());
    let start = ctx.idx(TONES.len() - n + 1);
    let files: Vec<String> = TONES[start..start + n]
        .iter()
        .map(|(f, _)| format!("Music/{f}"))
        .collect();
    let media: Vec<Value> = TONES[start..start + n]
        .iter()
        .map(|(f, hz)| json!({"path": format!("Music/{f}"), "kind": "tone", "freq": hz, "seconds": 3}))
        .collect();
    let fmt = ["xspf", "m3u"][ctx.idx(2)];
    let target = format!("Music/set-{}.{fmt}", ctx.serial % 1000);
    let core = format!(
        "Save the playlist open in VLC as ~/{target} ({} format).",
        fmt.to_uppercase()
    );
    let context = format!("The setup generates {} and opens them in VLC. Ground truth: ~/{target} listing them in order. Checkpoints: format (0.2), every track (0.5), order (0.2), nothing else (0.1).", files.join(", "));
    let slots = json!({"media": media, "playlists": {}, "dirs": [], "open": files,
                       "target": {"path": target, "format": fmt, "entries": files}});
    Some(ctx.draft(0, core, context, "vlc_playlist", slots, vec!["vlc"]))
}

/// (vlcrc key, VLC's default, goal, phrase).
const PREFS: [(&str, &str, &str, &str); 6] = [
    ("snapshot-format", "png", "jpg", "save snapshots as JPG"),
    ("snapshot-prefix", "vlcsnap-", "still-", "name snapshots still-…"),
    ("loop", "0", "1", "loop the playlist"),
    ("random", "0", "1", "shuffle the playlist"),
    ("video-title-show", "1", "0", "hide the media title on video start"),
    ("qt-recentplay", "1", "0", "forget recently played media"),
];

/// One (easy) to several vlcrc preferences.
pub fn prefs(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let n = ctx.count().min(PREFS.len());
    let start = ctx.idx(PREFS.len());
    let keep = json!({"qt-privacy-ask": "0", "metadata-network-access": "0"});
    let mut defaults: Map<String, Value> = keep
        .as_object()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|(k, _)| {
            let d = if k == "qt-privacy-ask" { "1" } else { "0" };
            (k, json!(d))
        })
        .collect();
    let mut changes = Map::new();
    let mut said = Vec::new();
    for k in 0..n {
        let (key, default, goal, phrase) = PREFS[(start + k) % PREFS.len()];
        defaults.insert(key.into(), json!(default));
        changes.insert(key.into(), json!(goal));
        said.push(phrase.to_string());
    }
    let core = format!("In VLC's preferences, {}.", and_list(&said));
    let context = format!("The setup writes vlcrc (VLC's defaults) and starts VLC. Ground truth: {} in vlcrc. Checkpoints: one per key (0.8 split), first-run settings kept (0.2).", Value::Object(changes.clone()));
    let slots = json!({"seed": keep, "defaults": defaults, "changes": changes, "keep": keep, "dirs": []});
    Some(ctx.draft(0, core, context, "vlc_prefs", slots, vec!["vlc"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[("vlc_playlist", playlist), ("vlc_prefs", prefs)];
