//! Mouse input on the model: the wheel scrolls whatever the screen scrolls, a click on a tab,
//! a row, a round, a pane or a button acts on what was drawn there (see [`crate::mouse`]),
//! and one key hands the mouse back to the terminal for its own text selection.

use super::{Model, Overlay};
use crate::action::Action;
use crate::data::EngineCommand;
use crate::mouse::{Mouse, MouseKind, Target};

/// Rows one wheel notch moves.
pub const WHEEL_ROWS: usize = 3;

impl Model {
    /// Applies a mouse event (ignored while released, while typing, or while keys wait).
    pub(super) fn mouse(&mut self, m: Mouse) -> Vec<EngineCommand> {
        if !self.mouse_captured || self.typing() || self.settling() {
            return Vec::new();
        }
        if !self.deferred.is_empty() {
            return Vec::new();
        }
        let repeat = |model: &mut Model, a: Action, n: usize| {
            (0..n).flat_map(|_| model.act(a)).collect::<Vec<_>>()
        };
        match m.kind {
            MouseKind::WheelDown => repeat(self, Action::Down, WHEEL_ROWS),
            MouseKind::WheelUp => repeat(self, Action::Up, WHEEL_ROWS),
            MouseKind::WheelRight => self.act(Action::ScrollRight),
            MouseKind::WheelLeft => self.act(Action::ScrollLeft),
            MouseKind::Click => match self.hits.at(m.col, m.row) {
                Some(t) => self.click(t),
                None if matches!(self.overlay, Overlay::Palette(_) | Overlay::Help(_)) => {
                    // A click outside an overlay closes it.
                    self.overlay = Overlay::None;
                    Vec::new()
                }
                None => Vec::new(),
            },
        }
    }

    fn click(&mut self, t: Target) -> Vec<EngineCommand> {
        match t {
            Target::Tab(s) => {
                self.overlay = Overlay::None;
                self.act(Action::Tab(s))
            }
            Target::Row(i) if i == self.tuples.selected => self.act(Action::Open),
            Target::Row(i) => {
                self.tuples.selected = i.min(self.tuples.view.len().saturating_sub(1));
                Vec::new()
            }
            Target::Round(i) => {
                let ins = &mut self.inspector;
                ins.move_round(i as isize - ins.round as isize);
                Vec::new()
            }
            Target::Pane(p) => {
                self.inspector.pane = p;
                self.inspector.scroll = 0;
                self.inspector.hscroll = 0;
                Vec::new()
            }
            Target::Button(a) => self.act(a),
        }
    }

    /// Releases the mouse to the terminal (text selection works) or captures it again.
    pub(super) fn toggle_mouse(&mut self) {
        self.mouse_captured = !self.mouse_captured;
        let key = self
            .keymap
            .keys_of(Action::ToggleMouse)
            .first()
            .cloned()
            .unwrap_or_else(|| "m".into());
        self.notice = Some(if self.mouse_captured {
            format!("mouse captured: wheel scrolls, clicks select ({key}: release it)")
        } else {
            format!("mouse released: select text with the terminal ({key}: capture it again)")
        });
    }
}
