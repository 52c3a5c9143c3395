//! The LibreOffice Writer desktop pack (issue #31): its manifest, shipped tasks, SKILL.md,
//! taxonomy and scripted templates. Documents are made by each task's setup (python-docx), so
//! the seed home is empty.

pub mod planner;
mod planner_dialogs;
mod planner_find;
pub(crate) mod recipe;

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
        "libreoffice_writer",
        "docx_reward.py",
        [
            "apply_style",
            "char_format",
            "delete_paragraph",
            "find_replace",
            "header_footer",
            "insert_paragraph",
            "insert_table",
            "make_list",
            "page_break",
            "page_setup",
            "para_format",
            "table_fill"
        ]
    );
    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        Some(&planner::WriterPlanner)
    }

    crate::apps::desktop_files!(
        "libreoffice_writer",
        home: ["Documents/README.txt"],
        profile: ["user/registrymodifications.xcu"]
    );
}
