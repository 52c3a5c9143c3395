//! The thunderbird pack: Thunderbird (Debian's `thunderbird`) with a Local Folders profile made
//! fresh for each environment (`home/.thunderbird`: profiles.ini, prefs.js with one account and
//! one identity, user.js turning first-run pages, updates, telemetry and the network off). Its mbox
//! folders, prefs.js and msgFilterRules.dat are the state; `state.py` reads them.

pub mod planner;
mod filter_plan;
mod recipe;
mod settings_plan;

use crate::apps::App;
use crate::engine::rollout::ui_plan::UiPlanner;
use crate::engine::taskgen::recipes::Recipe;

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
        ["tb_mail", "tb_draft", "tb_prefs", "tb_filter"]
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
