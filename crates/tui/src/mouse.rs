//! Mouse input, independent of the terminal backend, and the map of what was drawn where.
//!
//! Every frame the views record their clickable regions (tabs, rows, rounds, panes, buttons) in a
//! [`HitMap`]; a click is resolved against the regions of the frame the user saw, so the model
//! never guesses the layout.

use std::cell::RefCell;

use super::action::{Action, Screen};
use super::model::inspector::Pane;

/// What the mouse did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MouseKind {
    /// Left button pressed.
    Click,
    /// Wheel towards the user (content moves up: scroll down).
    WheelDown,
    /// Wheel away from the user.
    WheelUp,
    /// Horizontal wheel / shift-wheel to the right.
    WheelRight,
    /// Horizontal wheel / shift-wheel to the left.
    WheelLeft,
}

/// One mouse event at a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mouse {
    /// What happened.
    pub kind: MouseKind,
    /// Column (0-based).
    pub col: u16,
    /// Row (0-based).
    pub row: u16,
}

/// Something a click can land on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A tab of the tab bar.
    Tab(Screen),
    /// A row of the Tuples list (position in the view).
    Row(usize),
    /// A round in the Inspector's rounds list (index into the rounds).
    Round(usize),
    /// A pane tab of the Inspector.
    Pane(Pane),
    /// A button that performs an action.
    Button(Action),
}

/// A clickable rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// Left column.
    pub x: u16,
    /// Top row.
    pub y: u16,
    /// Width in columns.
    pub w: u16,
    /// Height in rows.
    pub h: u16,
    /// What it is.
    pub target: Target,
}

impl Hit {
    fn contains(&self, col: u16, row: u16) -> bool {
        col >= self.x && col < self.x + self.w && row >= self.y && row < self.y + self.h
    }
}

/// The clickable regions of the last frame (written by the views, read by the model).
#[derive(Debug, Default)]
pub struct HitMap(RefCell<Vec<Hit>>);

impl HitMap {
    /// Forgets the previous frame's regions.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// Records a region.
    pub fn add(&self, x: u16, y: u16, w: u16, h: u16, target: Target) {
        self.0.borrow_mut().push(Hit { x, y, w, h, target });
    }

    /// What is at a cell (the region drawn last wins: overlays are drawn over screens).
    pub fn at(&self, col: u16, row: u16) -> Option<Target> {
        self.0
            .borrow()
            .iter()
            .rev()
            .find(|h| h.contains(col, row))
            .map(|h| h.target)
    }

    /// The regions recorded (for tests).
    pub fn all(&self) -> Vec<Hit> {
        self.0.borrow().clone()
    }
}
