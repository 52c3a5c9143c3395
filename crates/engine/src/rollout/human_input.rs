//! A person's raw device events as `computer_use` actions (the ones ui-oracle trials store):
//! a press and release in place is a click (two or three quick left clicks in place are
//! `double_click`/`triple_click`), a left press that moves is `left_click_drag`, wheel clicks
//! are `scroll`/`hscroll` (merged while they keep coming in one direction at one point),
//! printable keys are `type` runs, special keys and modifier chords are `key` (`Return`,
//! `ctrl+a`). An action is final once the next gesture begins or input pauses for [`GAP`].

use std::time::{Duration, Instant};

use super::screen::ComputerAction;
use crate::screen::{RawInput, Recorded};

/// Input pause that ends a pending gesture (a click that could still become a double click,
/// a typed run, wheel clicks).
pub const GAP: Duration = Duration::from_millis(500);
/// The most time between a click's release and the next press for a multi-click.
const MULTI_CLICK: Duration = Duration::from_millis(400);
/// Pixels a click may move and still be a click (and a multi-click's clicks apart).
const SLOP: i32 = 3;
/// The most wheel clicks of one scroll action (as ui-oracle's).
const MAX_WHEEL: i32 = 10;

/// A finished action and when its input began and ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Gesture {
    /// The action.
    pub action: ComputerAction,
    /// Its first event.
    pub start: Instant,
    /// Its last event.
    pub end: Instant,
}

#[derive(Debug, Clone)]
enum Pending {
    Clicks {
        x: i32,
        y: i32,
        count: u8,
        start: Instant,
        end: Instant,
    },
    Text {
        text: String,
        start: Instant,
        end: Instant,
    },
    Wheel {
        horizontal: bool,
        x: i32,
        y: i32,
        amount: i32,
        start: Instant,
        end: Instant,
    },
}

#[derive(Debug, Clone, Copy)]
struct Held {
    button: u8,
    x: i32,
    y: i32,
    at: Instant,
    /// The press continues a pending click (a multi-click).
    again: bool,
}

/// Turns recorded events into actions.
#[derive(Debug, Default)]
pub struct Gestures {
    pointer: (i32, i32),
    held: Option<Held>,
    /// Held modifiers: keysym, name, and whether nothing else was pressed while held.
    mods: Vec<(u32, &'static str, bool)>,
    pending: Option<Pending>,
    last: Option<Instant>,
    done: Vec<Gesture>,
}

/// The name a chord uses for a modifier keysym (`None`: not a modifier).
fn modifier(keysym: u32) -> Option<&'static str> {
    Some(match keysym {
        0xffe1 | 0xffe2 => "shift",
        0xffe3 | 0xffe4 => "ctrl",
        0xffe7 | 0xffe8 => "meta",
        0xffe9 | 0xffea => "alt",
        0xffeb | 0xffec => "super",
        _ => return None,
    })
}

/// The character a keysym types, if it is printable.
fn printable(keysym: u32) -> Option<char> {
    let c = match keysym {
        0x20..=0x7e | 0xa0..=0xff => char::from_u32(keysym),
        k if k & 0xff00_0000 == 0x0100_0000 => char::from_u32(k & 0x00ff_ffff),
        k if k < 0xff00 => x11_keysymdef::lookup_by_keysym(k).map(|r| r.unicode),
        _ => None,
    };
    c.filter(|c| !c.is_control() && *c != '\0')
}

/// The keysym's name as `key` actions write it (`Return`, `a`, `comma`, `F5`).
fn key_name(keysym: u32) -> String {
    match x11_keysymdef::lookup_by_keysym(keysym).and_then(|r| r.names.first()) {
        Some(name) => (*name).to_string(),
        None => printable(keysym).map_or_else(|| format!("0x{keysym:x}"), String::from),
    }
}

fn near(a: (i32, i32), b: (i32, i32)) -> bool {
    (a.0 - b.0).abs() <= SLOP && (a.1 - b.1).abs() <= SLOP
}

impl Gestures {
    /// Feeds one recorded event.
    pub fn feed(&mut self, ev: &Recorded) {
        self.last = Some(ev.at);
        match ev.input {
            RawInput::Motion { x, y } => self.pointer = (x, y),
            RawInput::ButtonPress { button, x, y } => {
                self.pointer = (x, y);
                self.touch_mods();
                match button {
                    4..=7 => self.wheel(button, x, y, ev.at),
                    _ => self.press(button, x, y, ev.at),
                }
            }
            RawInput::ButtonRelease { button, x, y } => {
                self.pointer = (x, y);
                self.release(button, x, y, ev.at);
            }
            RawInput::KeyPress { keysym, shifted } => self.key(keysym, shifted, ev.at),
            RawInput::KeyRelease { keysym } => self.key_up(keysym, ev.at),
        }
    }

    /// Finishes a pending gesture once input has paused for [`GAP`] at `now`; true when
    /// nothing is held or pending (the person is between actions).
    pub fn tick(&mut self, now: Instant) -> bool {
        if self
            .last
            .is_some_and(|t| now.saturating_duration_since(t) >= GAP)
        {
            self.flush();
        }
        self.idle()
    }

    /// Nothing held (no button, no modifier) and nothing pending.
    pub fn idle(&self) -> bool {
        self.held.is_none() && self.mods.is_empty() && self.pending.is_none()
    }

    /// Finishes whatever is pending (the end of the trial).
    pub fn flush(&mut self) {
        let Some(p) = self.pending.take() else { return };
        let (action, start, end) = match p {
            Pending::Clicks {
                x,
                y,
                count,
                start,
                end,
            } => {
                let action = match count {
                    1 => ComputerAction::LeftClick { x, y },
                    2 => ComputerAction::DoubleClick { x, y },
                    _ => ComputerAction::TripleClick { x, y },
                };
                (action, start, end)
            }
            Pending::Text { text, start, end } => (ComputerAction::Type { text }, start, end),
            Pending::Wheel {
                horizontal,
                x,
                y,
                amount,
                start,
                end,
            } => {
                let action = match horizontal {
                    true => ComputerAction::Hscroll { x, y, amount },
                    false => ComputerAction::Scroll { x, y, amount },
                };
                (action, start, end)
            }
        };
        self.done.push(Gesture { action, start, end });
    }

    /// The actions finished since the last call.
    pub fn take(&mut self) -> Vec<Gesture> {
        std::mem::take(&mut self.done)
    }

    fn emit(&mut self, action: ComputerAction, start: Instant, end: Instant) {
        self.flush();
        self.done.push(Gesture { action, start, end });
    }

    /// Something other than the modifiers themselves was pressed while they are held.
    fn touch_mods(&mut self) {
        for m in &mut self.mods {
            m.2 = false;
        }
    }

    fn press(&mut self, button: u8, x: i32, y: i32, at: Instant) {
        let again = button == 1
            && matches!(self.pending, Some(Pending::Clicks { x: px, y: py, count, end, .. })
                if count < 3 && near((px, py), (x, y))
                    && at.saturating_duration_since(end) <= MULTI_CLICK);
        if !again {
            self.flush();
        }
        self.held = Some(Held {
            button,
            x,
            y,
            at,
            again,
        });
    }

    fn release(&mut self, button: u8, x: i32, y: i32, at: Instant) {
        let Some(h) = self.held.filter(|h| h.button == button) else {
            return;
        };
        self.held = None;
        let (px, py) = (h.x, h.y);
        if button == 1 && !near((px, py), (x, y)) {
            let drag = ComputerAction::LeftClickDrag {
                x: px,
                y: py,
                to_x: x,
                to_y: y,
            };
            return self.emit(drag, h.at, at);
        }
        match (button, self.pending.as_mut()) {
            (1, Some(Pending::Clicks { count, end, .. })) if h.again => {
                *count += 1;
                *end = at;
            }
            (1, _) => {
                self.flush();
                self.pending = Some(Pending::Clicks {
                    x: px,
                    y: py,
                    count: 1,
                    start: h.at,
                    end: at,
                });
            }
            (3, _) => self.emit(ComputerAction::RightClick { x: px, y: py }, h.at, at),
            (2, _) => self.emit(ComputerAction::MiddleClick { x: px, y: py }, h.at, at),
            _ => {}
        }
    }

    fn wheel(&mut self, button: u8, x: i32, y: i32, at: Instant) {
        let horizontal = button >= 6;
        let step = if button % 2 == 1 { 1 } else { -1 };
        if let Some(Pending::Wheel {
            horizontal: h,
            x: px,
            y: py,
            amount,
            end,
            ..
        }) = self.pending.as_mut()
        {
            if *h == horizontal
                && near((*px, *py), (x, y))
                && amount.signum() == step
                && amount.abs() < MAX_WHEEL
            {
                *amount += step;
                *end = at;
                return;
            }
        }
        self.flush();
        self.pending = Some(Pending::Wheel {
            horizontal,
            x,
            y,
            amount: step,
            start: at,
            end: at,
        });
    }

    fn key(&mut self, keysym: u32, shifted: u32, at: Instant) {
        if let Some(name) = modifier(keysym) {
            self.touch_mods();
            if !self.mods.iter().any(|m| m.0 == keysym) {
                self.mods.push((keysym, name, true));
            }
            return;
        }
        self.touch_mods();
        let shift = self.mods.iter().any(|m| m.1 == "shift");
        let chord = self.mods.iter().any(|m| m.1 != "shift");
        let typed = match shift && shifted != 0 {
            true => shifted,
            false => keysym,
        };
        if let (false, Some(c)) = (chord, printable(typed)) {
            if let Some(Pending::Text { text, end, .. }) = self.pending.as_mut() {
                text.push(c);
                *end = at;
                return;
            }
            self.flush();
            self.pending = Some(Pending::Text {
                text: c.to_string(),
                start: at,
                end: at,
            });
            return;
        }
        let mut names: Vec<&str> = Vec::new();
        for (_, name, _) in &self.mods {
            if !names.contains(name) {
                names.push(name);
            }
        }
        let key = key_name(keysym);
        names.push(&key);
        let key = names.join("+");
        self.emit(ComputerAction::Key { key }, at, at);
    }

    fn key_up(&mut self, keysym: u32, at: Instant) {
        let Some(i) = self.mods.iter().position(|m| m.0 == keysym) else {
            return;
        };
        let (_, name, alone) = self.mods.remove(i);
        // A modifier tapped on its own (the Super key opens a menu); Shift alone does nothing.
        if alone && name != "shift" {
            self.emit(
                ComputerAction::Key {
                    key: name.to_string(),
                },
                at,
                at,
            );
        }
    }
}

#[cfg(test)]
#[path = "human_input_tests.rs"]
mod tests;
