//! The gimp desktop pack: GIMP 2.10 (Debian's `gimp`) on the environment's screen. Setups draw
//! pictures with Pillow under `~/Pictures`; the saved and exported images and GIMP's own settings
//! (`~/.config/GIMP/2.10/gimprc`) are the state. `home/` holds the fresh profile every environment
//! starts from (gimprc, sessionrc: no tips, single-window mode, a short window title).

pub mod planner;
mod prefs;
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
        Some(&planner::GimpPlanner)
    }

    pack_files!(
        "gimp",
        no_seed,
        ["image_edit", "gimp_pref"],
        reward_prelude: "gimp/common.py",
        setup_prelude: ["../../../../skills/_common/desktop.py", "gimp/common.py", "gimp/prelude.py"],
        golden_prelude: ["../../../../skills/_common/desktop.py", "gimp/common.py", "gimp/prelude.py"]
    );
    crate::apps::desktop_files!(
        "gimp",
        home: [".config/GIMP/2.10/gimprc", ".config/GIMP/2.10/sessionrc"],
        profile: []
    );
}
