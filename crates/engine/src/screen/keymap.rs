//! The display's keyboard mapping: which keycode (and whether Shift) produces a keysym, and a few
//! spare keycodes that are remapped on the fly for keysyms the keymap lacks (any Unicode
//! character, the way xdotool types text the layout cannot).

use std::collections::HashMap;

use x11rb::connection::Connection;
use x11rb::protocol::xproto::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;

use super::ScreenError;

/// Where a keysym lives on the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct KeyPos {
    /// The keycode.
    pub code: u8,
    /// Whether Shift must be held (the keysym is on the second level).
    pub shift: bool,
}

/// The keyboard mapping plus the spare keycodes in use.
pub(super) struct Keymap {
    by_keysym: HashMap<u32, KeyPos>,
    spare: Vec<u8>,
    /// Keysym currently assigned to each spare keycode, in `spare` order.
    assigned: Vec<Option<u32>>,
    next: usize,
    per_code: u8,
    /// Keycode of Shift_L.
    pub shift: u8,
}

fn x_err(e: impl std::fmt::Display) -> ScreenError {
    ScreenError::DisplayDied(e.to_string())
}

impl Keymap {
    /// Reads the mapping of the display.
    pub fn load(conn: &RustConnection) -> Result<Keymap, ScreenError> {
        let setup = conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let reply = conn
            .get_keyboard_mapping(min, max - min + 1)
            .map_err(x_err)?
            .reply()
            .map_err(x_err)?;
        let per = reply.keysyms_per_keycode as usize;
        let mut by_keysym = HashMap::new();
        let mut spare = Vec::new();
        for (i, syms) in reply.keysyms.chunks(per.max(1)).enumerate() {
            let code = min as usize + i;
            let Ok(code) = u8::try_from(code) else {
                continue;
            };
            if syms.iter().all(|s| *s == 0) {
                spare.push(code);
                continue;
            }
            for (level, sym) in syms.iter().take(2).enumerate() {
                if *sym != 0 {
                    by_keysym.entry(*sym).or_insert(KeyPos {
                        code,
                        shift: level == 1,
                    });
                }
            }
        }
        // Keep a few spare keycodes, taken from the top (the least likely to matter).
        spare.reverse();
        spare.truncate(8);
        if spare.len() < 2 {
            return Err(ScreenError::Unsupported(
                "the keyboard map has no spare keycodes for typing arbitrary characters".into(),
            ));
        }
        let shift = by_keysym
            .get(&0xffe1)
            .map(|p| p.code)
            .ok_or_else(|| ScreenError::Unsupported("the keyboard map has no Shift_L".into()))?;
        Ok(Keymap {
            by_keysym,
            assigned: vec![None; spare.len()],
            spare,
            next: 0,
            per_code: reply.keysyms_per_keycode.max(1),
            shift,
        })
    }

    /// The position of `keysym`, remapping a spare keycode if the keymap lacks it.
    pub fn position(&mut self, conn: &RustConnection, keysym: u32) -> Result<KeyPos, ScreenError> {
        if let Some(p) = self.by_keysym.get(&keysym) {
            return Ok(*p);
        }
        if let Some(i) = self.assigned.iter().position(|a| *a == Some(keysym)) {
            return Ok(KeyPos {
                code: self.spare[i],
                shift: false,
            });
        }
        // Round-robin over the spares so a just-typed key is never remapped before its release
        // has been processed.
        let i = self.next;
        self.next = (self.next + 1) % self.spare.len();
        let code = self.spare[i];
        let syms = vec![keysym; self.per_code as usize];
        conn.change_keyboard_mapping(1, code, self.per_code, &syms)
            .map_err(x_err)?;
        // A round trip makes sure clients get the MappingNotify before the key event.
        conn.get_input_focus()
            .map_err(x_err)?
            .reply()
            .map_err(x_err)?;
        self.assigned[i] = Some(keysym);
        Ok(KeyPos { code, shift: false })
    }
}
