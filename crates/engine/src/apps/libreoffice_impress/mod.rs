//! The LibreOffice Impress desktop pack (issue #31): its manifest, shipped tasks, SKILL.md,
//! taxonomy and scripted templates. Decks are made by each task's setup (python-pptx).

mod dialogs;
pub mod planner;
mod recipe;
mod steps;

use crate::apps::App;
use crate::rollout::ui_plan::UiPlanner;
use crate::taskgen::recipes::Recipe;

/// The pack, as listed in the registry ([`crate::apps`]).
pub struct Pack;

impl App for Pack {
    fn recipes(&self) -> &'static [(&'static str, Recipe)] {
        recipe::RECIPES
    }

    crate::apps::office::office_pack_files!(
        "libreoffice_impress",
        "pptx_reward.py",
        [
            "add_shape",
            "add_slide",
            "background",
            "delete_slide",
            "edit_title",
            "export_pdf",
            "find_replace",
            "move_slide",
            "speaker_notes",
            "title_format",
            "transition"
        ]
    );
    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        Some(&planner::ImpressPlanner)
    }

    crate::apps::desktop_files!(
        "libreoffice_impress",
        home: ["Documents/README.txt"],
        profile: ["user/registrymodifications.xcu"]
    );
}
