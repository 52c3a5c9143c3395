//! The code_editor pack: Geany (Debian's `geany`) standing in for OSWorld's `vs_code` domain.
//! Its settings (`~/.config/geany/*.conf`), project files (`*.geany`) and the source files of
//! small projects under `~/projects` are the state; `home/` is the seed every environment starts
//! from (Geany's default `geany.conf` with a fixed author and window geometry); `state.py` reads
//! them into the state JSON.

pub mod planner;
mod pref_plan;
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
        Some(&planner::GeanyPlanner)
    }

    pack_files!(
        "code_editor",
        no_seed,
        ["geany_pref", "code_edit"],
        setup_prelude: ["../../../../skills/_common/desktop.py", "code_editor/prelude.py"],
        golden_prelude: ["../../../../skills/_common/desktop.py", "code_editor/prelude.py"]
    );
    crate::apps::desktop_files!(
        "code_editor",
        home: [".config/geany/geany.conf", "projects/README.md"],
        profile: []
    );
}
