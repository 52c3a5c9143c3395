//! The LibreOffice Calc desktop pack: its manifest (`kind = "desktop"`, `[desktop]`), shipped
//! tasks, SKILL.md, taxonomy and scripted templates, its task-generation recipes
//! (`recipe.rs`), the seed home (`home/`), the per-environment profile (`profile/`) and the
//! state reader (`state.py`).

pub mod planner;
mod recipe;

use crate::apps::App;
use crate::rollout::ui_plan::UiPlanner;
use crate::taskgen::recipes::Recipe;

/// The pack, as listed in the registry ([`crate::apps`]).
pub struct Pack;

impl App for Pack {
    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        Some(&planner::CalcPlanner)
    }

    fn recipes(&self) -> &'static [(&'static str, Recipe)] {
        recipe::RECIPES
    }

    pack_files!(
        "libreoffice_calc",
        no_seed,
        [
            "fill_cells",
            "formula_total",
            "style_range",
            "number_format",
            "named_range",
            "sort_column",
            "rename_sheet",
            "freeze_row",
            "protect_sheet"
        ]
    );
    crate::apps::desktop_files!(
        "libreoffice_calc",
        home: ["Documents/sales-2025.xlsx"],
        profile: ["user/registrymodifications.xcu"]
    );
}
