//! The plan of a `vlc_prefs` task, as a person sets VLC's preferences: Tools > Preferences
//! (`Ctrl+P`); a key the Simple view shows is set on its page (Interface, Audio, Video,
//! Subtitles / OSD) by its control's label; the others in the All view, after typing the
//! section's name into the tree's filter and picking the section. Check boxes are clicked only
//! when not already as wanted; combo boxes are opened and moved with the arrow keys; text fields
//! and spin buttons are filled. Each round ends with Save, waited on until vlcrc holds every
//! `key=value` it set.

use serde_json::Value;

use crate::rollout::plan_steps::{click, key, node, role, wait_desk as wait};
use crate::rollout::ui_plan::PlanStep;

const VLCRC: &str = ".config/vlc/vlcrc";

/// Where a key's control lives.
#[derive(Clone, Copy)]
enum Place {
    /// The Simple view's page (its tab's label, its heading).
    Simple(&'static str, &'static str),
    /// The All view's section: the filter typed, the tree cell picked.
    All(&'static str, &'static str),
}

/// The control a key is set with.
#[derive(Clone, Copy)]
enum Control {
    /// A check box by its label: checked when the value is `1`.
    Check(&'static str),
    /// A text field or spin button (a node spec) filled with the value.
    Field(&'static str),
    /// A combo box: its items in order, indexed by the value (a number or the item's text).
    Combo(&'static [&'static str]),
}

const PLAYLIST: Place = Place::All("Playlist", "table cell:Playlist[expanded]");
const QT: Place = Place::All("Qt", "table cell:Qt");
const VIDEO: Place = Place::Simple("Video", "Video Settings");
const IFACE: Place = Place::Simple("Interface", "Interface Settings");

/// Where and how each vlcrc key is set.
fn route(key: &str) -> Option<(Place, Control)> {
    use Control::*;
    Some(match key {
        "snapshot-format" => (VIDEO, Combo(&["png", "jpg", "tiff"])),
        "snapshot-path" => (VIDEO, Field("text:Directory")),
        "snapshot-prefix" => (VIDEO, Field("text:Prefix")),
        "fullscreen" => (VIDEO, Check("Fullscreen")),
        "one-instance" => (IFACE, Check("Allow only one instance")),
        "qt-continue" => (IFACE, Combo(&["Never", "Ask", "Always"])),
        "video-title-show" => (
            Place::Simple("Subtitles / OSD", "Subtitle & On Screen Display Settings"),
            Check("Show media title on video start"),
        ),
        "audio-language" => (
            Place::Simple("Audio", "Audio Settings"),
            Field("text:Preferred audio language:"),
        ),
        "loop" => (PLAYLIST, Check("Repeat all")),
        "random" => (PLAYLIST, Check("Play files randomly forever")),
        "start-paused" => (PLAYLIST, Check("Start paused")),
        "volume-save" => (
            Place::All("Audio", "table cell:Audio[expanded]"),
            Check("Remember the audio volume"),
        ),
        "qt-recentplay" => (QT, Check("Save the recently played items in the menu")),
        "qt-max-volume" => (QT, Field("spin button:Maximum Volume displayed")),
        _ => return None,
    })
}

/// The index of `value` among a combo's items (a number is an index, else the item's text).
fn item(items: &[&str], value: &str) -> Option<usize> {
    value
        .parse::<usize>()
        .ok()
        .filter(|i| *i < items.len())
        .or_else(|| items.iter().position(|i| i.eq_ignore_ascii_case(value)))
}

/// The steps setting one control from `default` to `value`.
fn set(control: Control, default: &str, value: &str) -> Result<Vec<PlanStep>, String> {
    Ok(match control {
        Control::Check(label) => {
            let want = if value == "1" { "checked" } else { "!checked" };
            let done = node(&format!("check box:{label}[{want}]"));
            vec![
                PlanStep::UnlessPresent {
                    target: done.clone(),
                    steps: vec![click(role("shown", &format!("check box:{label}")))],
                },
                wait(done),
            ]
        }
        Control::Field(spec) => vec![
            PlanStep::Fill {
                target: role("shown", spec),
                text: value.into(),
            },
            key("Tab"),
        ],
        Control::Combo(items) => {
            let from = item(items, default).ok_or(format!("combo item {default:?} unknown"))?;
            let to = item(items, value).ok_or(format!("combo item {value:?} unknown"))?;
            let arrow = if to > from { "Down" } else { "Up" };
            let mut steps = vec![
                click(role("shown", &format!("combo box:{}", items[from]))),
                // Its popup is open once the current item has extents inside the list.
                wait(role("shown", &format!("list item:{}", items[from]))),
            ];
            steps.extend((0..from.abs_diff(to)).map(|_| key(arrow)));
            steps.extend([key("Return"), wait(node(&format!("combo box:{}", items[to])))]);
            steps
        }
    })
}

/// One round in the dialog: open it in `all` (or Simple) view, set `keys`, save, wait for vlcrc.
fn round(all: bool, keys: &[(&str, &str, &str)]) -> Result<Vec<PlanStep>, String> {
    let (radio, title) = if all {
        ("All", "Advanced Preferences")
    } else {
        ("Simple", "Simple Preferences")
    };
    let mut steps = vec![
        key("ctrl+p"),
        wait(node("push button:Reset Preferences")),
        click(node(&format!("radio button:{radio}"))),
        wait(node(&format!("dialog:{title}"))),
    ];
    for (k, default, value) in keys {
        let (place, control) = route(k).ok_or(format!("vlcrc key {k} has no route"))?;
        match place {
            Place::Simple(tab, heading) => steps.extend([
                click(node(&format!("check box:{tab}"))),
                wait(node(&format!("label:{heading}"))),
            ]),
            Place::All(filter, cell) => steps.extend([
                PlanStep::Fill {
                    target: role("above", "check box:Only show current"),
                    text: filter.into(),
                },
                // The section's controls are waited for by the steps setting them.
                click(role("shown", cell)),
            ]),
        }
        steps.extend(set(control, default, value)?);
    }
    steps.extend([
        click(node("push button:Save")),
        wait(role("no_node", &format!("dialog:{title}"))),
    ]);
    for (k, _, value) in keys {
        steps.push(wait(role("contains", &format!("{VLCRC}::\n{k}={value}\n"))));
    }
    Ok(steps)
}

/// The plan of a `vlc_prefs` task: a Simple round for the keys it shows, an All round for the rest.
pub fn prefs(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let changes = slots
        .get("changes")
        .and_then(Value::as_object)
        .ok_or("vlc_prefs: slot `changes` missing")?;
    let defaults = slots.get("defaults").cloned().unwrap_or(Value::Null);
    let (mut simple, mut all) = (Vec::new(), Vec::new());
    for (k, v) in changes {
        let value = v.as_str().ok_or(format!("vlc_prefs: {k} is not a string"))?;
        let default = defaults.get(k).and_then(Value::as_str).unwrap_or("");
        match route(k).ok_or(format!("vlcrc key {k} has no VLC plan yet"))?.0 {
            Place::Simple(..) => simple.push((k.as_str(), default, value)),
            Place::All(..) => all.push((k.as_str(), default, value)),
        }
    }
    let mut steps = vec![wait(node("menu item:Media"))];
    if !simple.is_empty() {
        steps.extend(round(false, &simple)?);
    }
    if !all.is_empty() {
        steps.extend(round(true, &all)?);
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Fails on the old planner, which refused every preference task.
    #[test]
    fn simple_keys_and_all_keys_get_a_round_each_saved_and_waited_on_in_vlcrc() {
        let slots = json!({"defaults": {"snapshot-format": "png", "loop": "0", "qt-continue": "1"},
            "changes": {"snapshot-format": "jpg", "loop": "1", "qt-continue": "2"}});
        let steps = prefs(&slots).unwrap();
        let saves = steps
            .iter()
            .filter(|s| **s == click(node("push button:Save")))
            .count();
        assert_eq!(saves, 2);
        assert!(steps.contains(&click(node("radio button:All"))));
        assert!(steps.contains(&wait(role("contains", &format!("{VLCRC}::\nloop=1\n")))));
        assert!(steps.contains(&wait(node("combo box:jpg"))));
        assert!(steps.contains(&wait(node("combo box:Always"))));
        let bad = json!({"changes": {"no-such-key": "1"}});
        assert!(prefs(&bad).unwrap_err().contains("no-such-key"));
        // Every key a shipped or generated task sets has a route.
        for k in [
            "snapshot-path", "snapshot-prefix", "random", "video-title-show", "qt-recentplay",
            "one-instance", "fullscreen", "audio-language", "volume-save", "qt-max-volume",
            "start-paused",
        ] {
            assert!(route(k).is_some(), "{k}");
        }
    }
}
