//! Drawing the model into a `TestBackend` and reading the screen back (text, and the buffer for
//! styles), for tests that assert on what a user sees.

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use tuplewright::tui::model::Model;
use tuplewright::tui::theme::Theme;
use tuplewright::tui::view;

/// Draws `model` at `w`×`h`; returns the rows of text and the buffer.
pub fn draw(model: &Model, w: u16, h: u16, no_color: bool) -> (Vec<String>, Buffer) {
    let theme = Theme::builtin("dark", no_color).expect("theme");
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| view::draw(f, model, &theme, "fixture.db"))
        .expect("draw");
    let buf = term.backend().buffer().clone();
    let rows = (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect();
    (rows, buf)
}

/// Draws `model` and returns the screen as one string.
pub fn text(model: &Model, w: u16, h: u16) -> String {
    draw(model, w, h, true).0.join("\n")
}
