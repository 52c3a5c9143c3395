//! The State diff screen: initial vs golden state of the selected tuple.

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::model::Model;
use crate::tui::theme::Theme;

/// Draws the State diff screen.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let text = match model.tuples.selected_id() {
        Some(id) => format!("{id}: loading…"),
        None => "no tuple selected — pick one on the Tuples screen (2)".to_string(),
    };
    super::hint(f, area, "State diff", &text, theme);
}
