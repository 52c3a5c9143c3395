//! [`Screen::act`]: the `computer_use` primitives (paper C.1.1) as XTEST input. Coordinates are
//! screen pixels; scroll amounts are wheel clicks (positive = down / right); a model's mistake is
//! an [`ActionError::Invalid`] it can read.

use std::time::Duration;

use x11rb::protocol::xproto::{
    BUTTON_PRESS_EVENT, BUTTON_RELEASE_EVENT, KEY_PRESS_EVENT, KEY_RELEASE_EVENT,
    MOTION_NOTIFY_EVENT,
};
use x11rb::protocol::xtest::ConnectionExt as _;

use super::keys::{keysym_for_char, parse_chord, Chord};
use super::{ActionError, ActionOutcome, ComputerAction, Screen, ScreenError};

/// The longest `wait` a model may ask for, seconds.
pub const MAX_WAIT_SECS: f64 = 60.0;
/// The longest text one `type` action may carry, characters.
pub const MAX_TYPE_CHARS: usize = 20_000;
/// The most wheel clicks one scroll may ask for.
pub const MAX_SCROLL: i32 = 100;

const LEFT: u8 = 1;
const MIDDLE: u8 = 2;
const RIGHT: u8 = 3;

fn x_err(e: impl std::fmt::Display) -> ActionError {
    ActionError::Infra(ScreenError::DisplayDied(e.to_string()))
}

impl Screen {
    /// Performs one action and waits until the X server has processed it.
    pub fn act(&mut self, action: &ComputerAction) -> Result<ActionOutcome, ActionError> {
        use ComputerAction as A;
        self.check()?;
        self.mark_damage()?;
        match action {
            A::LeftClick { x, y } => self.click(*x, *y, LEFT, 1)?,
            A::RightClick { x, y } => self.click(*x, *y, RIGHT, 1)?,
            A::MiddleClick { x, y } => self.click(*x, *y, MIDDLE, 1)?,
            A::DoubleClick { x, y } => self.click(*x, *y, LEFT, 2)?,
            A::TripleClick { x, y } => self.click(*x, *y, LEFT, 3)?,
            A::LeftClickDrag { x, y, to_x, to_y } => self.drag((*x, *y), (*to_x, *to_y))?,
            A::MouseMove { x, y } => self.move_to(*x, *y)?,
            A::LeftMouseDown => self.input(BUTTON_PRESS_EVENT, LEFT)?,
            A::LeftMouseUp => self.input(BUTTON_RELEASE_EVENT, LEFT)?,
            A::Type { text } => self.type_text(text)?,
            A::Key { key } => {
                for chord in parse_chord(key).map_err(ActionError::Invalid)? {
                    self.chord(&chord, true)?;
                    self.chord(&chord, false)?;
                }
            }
            A::KeyDown { key } => self.hold(key, true)?,
            A::KeyUp { key } => self.hold(key, false)?,
            A::Scroll { x, y, amount } => self.wheel(*x, *y, *amount, (4, 5))?,
            A::Hscroll { x, y, amount } => self.wheel(*x, *y, *amount, (6, 7))?,
            A::Screenshot => return Ok(ActionOutcome::Screenshot(self.screenshot()?)),
            A::Wait { seconds } => {
                if !seconds.is_finite() || *seconds < 0.0 || *seconds > MAX_WAIT_SECS {
                    return Err(ActionError::Invalid(format!(
                        "wait seconds must be between 0 and {MAX_WAIT_SECS}, got {seconds}"
                    )));
                }
                std::thread::sleep(Duration::from_secs_f64(*seconds));
                self.check()?;
                return Ok(ActionOutcome::Done);
            }
            A::Terminate { success } => return Ok(ActionOutcome::Terminated { success: *success }),
            A::CallUser { .. } => {
                return Err(ActionError::Invalid(
                    "call_user is not available: no user is watching this screen".into(),
                ))
            }
        }
        self.sync()?;
        Ok(ActionOutcome::Done)
    }

    /// Checks a coordinate against the display.
    fn point(&self, x: i32, y: i32) -> Result<(i16, i16), ActionError> {
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        if !(0..w).contains(&x) || !(0..h).contains(&y) {
            return Err(ActionError::Invalid(format!(
                "coordinate ({x}, {y}) is outside the screen (0..{w}, 0..{h})"
            )));
        }
        // In range of u16 sizes ≤ 8192, so these fit.
        Ok((x as i16, y as i16))
    }

    /// One XTEST event (`detail` = button or keycode).
    fn input(&self, kind: u8, detail: u8) -> Result<(), ActionError> {
        self.conn
            .xtest_fake_input(kind, detail, 0, self.root, 0, 0, 0)
            .map_err(x_err)?;
        Ok(())
    }

    fn move_to(&self, x: i32, y: i32) -> Result<(), ActionError> {
        let (x, y) = self.point(x, y)?;
        self.conn
            .xtest_fake_input(MOTION_NOTIFY_EVENT, 0, 0, self.root, x, y, 0)
            .map_err(x_err)?;
        Ok(())
    }

    fn click(&self, x: i32, y: i32, button: u8, times: u32) -> Result<(), ActionError> {
        self.move_to(x, y)?;
        for _ in 0..times {
            self.input(BUTTON_PRESS_EVENT, button)?;
            self.input(BUTTON_RELEASE_EVENT, button)?;
        }
        Ok(())
    }

    /// Press at `from`, move in steps (so drag handlers see motion), release at `to`.
    fn drag(&self, from: (i32, i32), to: (i32, i32)) -> Result<(), ActionError> {
        self.point(to.0, to.1)?;
        self.move_to(from.0, from.1)?;
        self.input(BUTTON_PRESS_EVENT, LEFT)?;
        self.sync()?;
        const STEPS: i32 = 10;
        for i in 1..=STEPS {
            let x = from.0 + (to.0 - from.0) * i / STEPS;
            let y = from.1 + (to.1 - from.1) * i / STEPS;
            self.move_to(x, y)?;
        }
        self.input(BUTTON_RELEASE_EVENT, LEFT)
    }

    fn wheel(&self, x: i32, y: i32, amount: i32, (back, fwd): (u8, u8)) -> Result<(), ActionError> {
        if amount == 0 || amount.abs() > MAX_SCROLL {
            return Err(ActionError::Invalid(format!(
                "scroll amount must be between -{MAX_SCROLL} and {MAX_SCROLL} and not 0, got {amount}"
            )));
        }
        self.move_to(x, y)?;
        let button = if amount > 0 { fwd } else { back };
        for _ in 0..amount.abs() {
            self.input(BUTTON_PRESS_EVENT, button)?;
            self.input(BUTTON_RELEASE_EVENT, button)?;
        }
        Ok(())
    }

    /// Presses (or releases, in reverse) every key of a chord, adding Shift for keysyms on the
    /// second level unless Shift is part of the chord already.
    fn chord(&mut self, chord: &Chord, press: bool) -> Result<(), ActionError> {
        let mut codes = Vec::with_capacity(chord.keysyms.len() + 1);
        for ks in &chord.keysyms {
            let pos = self.keymap.position(&self.conn, *ks)?;
            if pos.shift && !codes.contains(&self.keymap.shift) {
                codes.push(self.keymap.shift);
            }
            codes.push(pos.code);
        }
        if press {
            for c in &codes {
                self.input(KEY_PRESS_EVENT, *c)?;
            }
        } else {
            for c in codes.iter().rev() {
                self.input(KEY_RELEASE_EVENT, *c)?;
            }
        }
        Ok(())
    }

    fn hold(&mut self, key: &str, press: bool) -> Result<(), ActionError> {
        let chords = parse_chord(key).map_err(ActionError::Invalid)?;
        if chords.len() != 1 {
            return Err(ActionError::Invalid(format!(
                "key_down and key_up take one key or chord, got \"{key}\""
            )));
        }
        self.chord(&chords[0], press)
    }

    /// Types text character by character (any Unicode: characters missing from the keymap are
    /// put on a spare keycode first).
    fn type_text(&mut self, text: &str) -> Result<(), ActionError> {
        if text.chars().count() > MAX_TYPE_CHARS {
            return Err(ActionError::Invalid(format!(
                "text is longer than {MAX_TYPE_CHARS} characters"
            )));
        }
        for c in text.chars() {
            let chord = Chord {
                keysyms: vec![keysym_for_char(c)],
            };
            self.chord(&chord, true)?;
            self.chord(&chord, false)?;
        }
        Ok(())
    }
}
