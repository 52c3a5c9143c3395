//! The mail pack: its manifest, seed, shipped tasks, SKILL.md, taxonomy and scripted templates
//! (embedded below), its task-generation recipes (`recipe.rs`), its web UI ([`ui`]) and ui-oracle
//! planner ([`ui::planner`]).

mod recipe;
pub mod ui;

use crate::apps::App;
use crate::taskgen::recipes::Recipe;
use crate::rollout::ui_plan::UiPlanner;
use crate::ui::AppUi;

/// The pack, as listed in the registry ([`crate::apps`]).
pub struct Pack;

impl App for Pack {
    fn recipes(&self) -> &'static [(&'static str, Recipe)] {
        recipe::RECIPES
    }

    pack_files!("mail", seed, ["send_email"]);

    fn ui(&self) -> Option<&'static dyn AppUi> {
        Some(&ui::Mail)
    }

    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        Some(&ui::planner::MailPlanner)
    }
}
