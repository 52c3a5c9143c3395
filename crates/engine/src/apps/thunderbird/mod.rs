//! The thunderbird pack: Thunderbird (Debian's `thunderbird`) with a Local Folders profile made
//! fresh for each environment (`home/.thunderbird`: profiles.ini, prefs.js with one account and
//! one identity, user.js turning first-run pages, updates, telemetry and the network off). Its mbox
//! folders, prefs.js and msgFilterRules.dat are the state; `state.py` reads them.

pub mod planner;
mod filter_plan;
mod recipe;
mod settings_plan;

use crate::apps::App;
use crate::rollout::ui_plan::UiPlanner;
use crate::taskgen::recipes::Recipe;

/// The pack, as listed in the registry ([`crate::apps`]).
pub struct Pack;

impl App for Pack {
    fn recipes(&self) -> &'static [(&'static str, Recipe)] {
        recipe::RECIPES
    }

    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        Some(&planner::ThunderbirdPlanner)
    }

    pack_files!(
        "thunderbird",
        no_seed,
        ["tb_mail", "tb_draft", "tb_prefs", "tb_filter"],
        setup_prelude: ["../../../../skills/_common/desktop.py", "thunderbird/prelude.py"],
        golden_prelude: ["../../../../skills/_common/desktop.py", "thunderbird/prelude.py"]
    );
    crate::apps::desktop_files!(
        "thunderbird",
        home: [
            ".thunderbird/profiles.ini",
            ".thunderbird/tw/prefs.js",
            ".thunderbird/tw/user.js",
            ".thunderbird/tw/xulstore.json",
            ".thunderbird/tw/Mail/Local Folders/Inbox"
        ],
        profile: []
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// Thunderbird's built-in defaults, read from the installed program's omni.ja the way it
    /// loads them: greprefs.js, then defaults/pref/*.js in reverse name order (a later file wins).
    const DEFAULTS_PY: &str = r#"
import json, re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = sorted((n for n in z.namelist() if re.fullmatch(r"defaults/pref/[^/]+\.js", n)), reverse=True)
out = {}
for n in ["greprefs.js"] + names:
    text = z.read(n).decode("utf-8", "replace")
    for m in re.finditer(r'^\s*(?:sticky_)?pref\("([^"]+)",\s*(.+?)\s*(?:,\s*\w+\s*)?\);', text, re.M):
        try:
            out[m.group(1)] = json.loads(m.group(2))
        except ValueError:
            pass
print(json.dumps(out))
"#;

    /// Fails on the old tasks.json, whose `thunderbird_forward_inline` set
    /// `mail.forward_message_mode` from 0 to 2 — Thunderbird's own default (all-thunderbird.js
    /// overrides mailnews.js's 0) — so Thunderbird dropped the line from prefs.js and the reward
    /// read the preset back: no run through the screen could score. Every preference a shipped
    /// or generated `tb_prefs` task changes starts at Thunderbird's default (an absent line reads
    /// as the preset, rightly) and ends elsewhere (a line prefs.js keeps).
    #[test]
    fn every_pref_task_starts_at_thunderbirds_default_and_leaves_it() {
        let out = std::process::Command::new("python3")
            .args(["-c", DEFAULTS_PY, "/usr/lib/thunderbird/omni.ja"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let defaults: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(defaults["mail.forward_message_mode"], 2, "read the defaults");
        let tasks: Value = serde_json::from_str(Pack.tasks_text()).unwrap();
        let mut seen = 0;
        for t in tasks["tasks"].as_array().unwrap() {
            if t["template"] != "tb_prefs" {
                continue;
            }
            for (name, goal) in t["slots"]["changes"].as_object().unwrap() {
                let Some(default) = defaults.get(name) else {
                    continue;
                };
                let id = &t["task_id"];
                assert_eq!(&t["slots"]["preset"][name], default, "{id}: {name}'s preset");
                assert_ne!(goal, default, "{id}: {name}'s goal is the default");
                seen += 1;
            }
        }
        assert!(seen >= 9, "{seen} preferences checked");
        for (name, default, _) in recipe::PREFS {
            assert_eq!(defaults[name], Value::Bool(default), "recipe default of {name}");
        }
    }
}
