//! State of the Filter screen (critic votes and curator decisions).

use crate::tui::action::Action;
use crate::tui::data::EngineCommand;

/// Filter screen state.
#[derive(Debug, Default)]
pub struct FilterState {
    /// Scroll offset, in lines.
    pub scroll: usize,
}

impl FilterState {
    /// Applies a screen action; `page` is the rows a page moves.
    pub fn act(&mut self, a: Action, page: isize) -> Vec<EngineCommand> {
        match a {
            Action::Down => self.scroll += 1,
            Action::Up => self.scroll = self.scroll.saturating_sub(1),
            Action::PageDown => self.scroll += page as usize,
            Action::PageUp => self.scroll = self.scroll.saturating_sub(page as usize),
            Action::Top => self.scroll = 0,
            _ => {}
        }
        Vec::new()
    }
}
