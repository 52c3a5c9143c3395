//! The files desktop pack: its manifest, shipped tasks, SKILL.md, taxonomy and scripted
//! templates, its task-generation recipes (`recipe.rs`), and the seed home directory (`home/`)
//! every environment's home starts from.

pub mod planner;
mod recipe;

use crate::apps::App;
use crate::rollout::ui_plan::UiPlanner;
use crate::taskgen::recipes::Recipe;

/// Embeds `home/<path>` for each listed path.
macro_rules! seed_files {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/files/home/", $path)) as &[u8])),*]
    };
}

/// The embedded seed home: (relative path, contents).
const HOME: &[(&str, &[u8])] = seed_files![
    "Documents/meeting-notes-2026-03-02.md",
    "Documents/project-plan.md",
    "Documents/budget-q1.csv",
    "Documents/vendors.json",
    "Documents/reports/sales-2025.csv",
    "Documents/reports/summary.md",
    "Downloads/invoice-10442.txt",
    "Downloads/customers-export.csv",
    "Desktop/todo.md",
    "Desktop/contacts.csv",
    "Pictures/README.md",
    "Projects/website/config.json",
    "Projects/website/CHANGELOG.md",
    "Projects/analytics/events.json",
    ".config/app-settings.json",
];

/// The pack, as listed in the registry ([`crate::apps`]).
pub struct Pack;

impl App for Pack {
    fn recipes(&self) -> &'static [(&'static str, Recipe)] {
        recipe::RECIPES
    }

    pack_files!(
        "files",
        no_seed,
        ["csv_extract", "json_edit", "md_checklist", "move_files", "write_report"]
    );

    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        Some(&planner::FilesPlanner)
    }

    fn home(&self) -> &'static [(&'static str, &'static [u8])] {
        HOME
    }
}
