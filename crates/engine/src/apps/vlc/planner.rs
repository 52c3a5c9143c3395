//! The vlc ui-oracle planner, keyboard-first: `Ctrl+O` and a file's path per track to open media
//! (when the task starts with nothing open), `Ctrl+Y` (Media > Save Playlist to File…) with the
//! target path typed into Qt's file dialog — VLC picks the format from the extension — each dialog
//! waited for by its title and the save waited on until the file is on disk.
//!
//! Playlist edits: the playlist view (`Ctrl+L`), a row picked by its title and `Delete`; an item
//! added (or moved to the end, as a reorder) is opened with `Ctrl+O`, which appends it.
//! Preferences: [`super::prefs_plan`].

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::plan_steps::{key, role, typed, wait_desk as wait};
use crate::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

const HOME: &str = "/home/user";
const OPEN_TITLE: &str = "Select one or more files to open";
const SAVE_TITLE: &str = "Save playlist as...";

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// The entries VLC's playlist holds after the setup: the opened files, or the entries of an
/// opened playlist the setup wrote.
fn opened(slots: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for o in strings(slots.get("open")) {
        match slots.get("playlists").and_then(|p| p.get(&o)) {
            Some(pl) => out.extend(strings(pl.get("entries"))),
            None => out.push(o),
        }
    }
    out
}

/// The title VLC's playlist shows for a file without tags: its name.
fn title(entry: &str) -> &str {
    entry.rsplit('/').next().unwrap_or(entry)
}

/// How `have` becomes `want`: the entries to delete (all but the longest start of `want` found
/// in order in `have`) and those appended after (the rest of `want`, opened one by one).
fn edits<'a>(have: &'a [String], want: &'a [String]) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut kept = vec![false; have.len()];
    let mut k = 0;
    for (i, h) in have.iter().enumerate() {
        if k < want.len() && *h == want[k] {
            kept[i] = true;
            k += 1;
        }
    }
    let drop = have
        .iter()
        .zip(&kept)
        .filter(|(_, keep)| !**keep)
        .map(|(h, _)| h.as_str())
        .collect();
    (drop, want[k..].iter().map(String::as_str).collect())
}

/// The plan of a `vlc_playlist` task.
fn playlist(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let target = slots.get("target").ok_or("vlc_playlist: slot `target` missing")?;
    let path = target
        .get("path")
        .and_then(Value::as_str)
        .ok_or("vlc_playlist: target.path missing")?;
    let want = strings(target.get("entries"));
    let have = opened(slots);
    // The main window's title follows the media playing; its menu bar does not.
    let mut steps = vec![wait(role("node", "menu item:Media"))];
    let (drop, add) = edits(&have, &want);
    if !drop.is_empty() {
        // The playlist view (Ctrl+L): each dropped row picked by its title, then Delete.
        steps.push(key("ctrl+l"));
        for e in drop {
            let row = format!("table cell:{}", title(e));
            steps.extend([
                wait(role("node", &row)),
                PlanStep::Click {
                    target: role("shown", &row),
                },
                key("Delete"),
                wait(role("no_node", &row)),
            ]);
        }
    }
    // One Open File per added track, in order: each one is appended to the playlist (several
    // quoted names in one dialog keep only the last).
    for e in add {
        steps.extend([
            key("ctrl+o"),
            wait(role("focused_window", OPEN_TITLE)),
            typed(&format!("{HOME}/{e}")),
            key("Return"),
            wait(role("no_node", &format!("dialog:{OPEN_TITLE}"))),
        ]);
    }
    steps.extend([
        key("ctrl+y"),
        wait(role("focused_window", SAVE_TITLE)),
        typed(&format!("{HOME}/{path}")),
        key("Return"),
        wait(role("saved", path)),
    ]);
    Ok(steps)
}

/// Plans vlc tasks through VLC's own window.
pub struct VlcPlanner;

impl UiPlanner for VlcPlanner {
    fn apps(&self) -> &[&'static str] {
        &["vlc"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let slots = brief.structured.get("slots").cloned().unwrap_or(Value::Null);
        match template.rsplit('/').next().unwrap_or(template) {
            "vlc_playlist" => playlist(&slots),
            "vlc_prefs" => super::prefs_plan::prefs(&slots),
            other => Err(format!("template {other} has no VLC plan yet")),
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_opened_playlist_counts_as_its_entries_and_edits_delete_then_append() {
        let slots = json!({"open": ["Music/mix.m3u"],
            "playlists": {"Music/mix.m3u": {"format": "m3u", "entries": ["Music/a.wav", "Music/b.wav"]}},
            "target": {"path": "Music/mix.xspf", "format": "xspf", "entries": ["Music/a.wav", "Music/b.wav"]}});
        let steps = playlist(&slots).unwrap();
        assert!(steps.contains(&typed("/home/user/Music/mix.xspf")));
        assert!(!steps.contains(&key("ctrl+o")));
        // Fails on the old planner, which refused every edit: b is kept, a is deleted and re-added.
        let mut edit = slots.clone();
        edit["target"]["entries"] = json!(["Music/b.wav", "Music/a.wav"]);
        let steps = playlist(&edit).unwrap();
        assert!(steps.contains(&key("ctrl+l")) && steps.contains(&key("Delete")));
        assert!(steps.contains(&wait(role("no_node", "table cell:a.wav"))));
        assert!(steps.contains(&typed("/home/user/Music/a.wav")));
        let (have, want) = (
            ["a", "b", "c", "d"].map(String::from),
            ["a", "b", "c", "x"].map(String::from),
        );
        assert_eq!(edits(&have, &want), (vec!["d"], vec!["x"]));
        let mut build = slots;
        build["open"] = json!([]);
        let steps = playlist(&build).unwrap();
        let opened: Vec<&PlanStep> = steps.iter().filter(|s| **s == key("ctrl+o")).collect();
        assert_eq!(opened.len(), 2);
        assert!(steps.contains(&typed("/home/user/Music/b.wav")));
    }
}
