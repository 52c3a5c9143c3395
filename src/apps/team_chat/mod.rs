//! The team-chat pack: its manifest, seed, shipped tasks, SKILL.md, taxonomy and scripted templates
//! (embedded below), its web UI ([`ui`]) and ui-oracle planner ([`ui::planner`]).

pub mod ui;

use crate::apps::App;
use crate::engine::rollout::ui_plan::UiPlanner;
use crate::engine::ui::AppUi;

/// The pack, as listed in the registry ([`crate::apps`]).
pub struct Pack;

impl App for Pack {
    pack_files!("team_chat", seed, ["add_reaction", "post_message", "thread_reply"]);

    fn ui(&self) -> Option<&'static dyn AppUi> {
        Some(&ui::TeamChat)
    }

    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        Some(&ui::planner::TeamChatPlanner)
    }
}
