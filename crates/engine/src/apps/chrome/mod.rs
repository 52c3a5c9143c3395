//! The chrome pack: the installed Chromium as a desktop application with a per-environment
//! profile (`~/.config/chromium`). Its Preferences, Bookmarks and History are the state; `home/`
//! is the seed profile every environment starts from (first-run pages off, fixed fonts);
//! `state.py` reads preferences, bookmarks, history and open tabs into the state JSON.

mod bookmark_plan;
pub mod planner;
mod recipe;

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
        Some(&planner::ChromePlanner)
    }

    pack_files!(
        "chrome",
        no_seed,
        ["chrome_prefs", "chrome_bookmarks", "chrome_history"],
        setup_prelude: ["../../../../skills/_common/desktop.py", "chrome/prelude.py"],
        golden_prelude: ["../../../../skills/_common/desktop.py", "chrome/prelude.py"]
    );

    crate::apps::desktop_files!(
        "chrome",
        home: [".config/chromium/Default/Preferences"],
        profile: []
    );
}
