//! Helpers for the screen tests: a real Xvfb screen and a tiny X client that records the input
//! events XTEST delivers to it.

use std::time::{Duration, Instant};

use tuplewright::engine::screen::{Screen, ScreenConfig, ScreenSize};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    ConnectionExt as _, CreateWindowAux, EventMask, InputFocus, WindowClass,
};
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

/// A screen of the given size with the default configuration.
pub fn screen(width: u16, height: u16) -> Screen {
    Screen::start(&ScreenConfig::default(), ScreenSize { width, height }).expect("Xvfb starts")
}

/// A full-screen window of a second X client, focused, listening to pointer and key events.
pub struct Probe {
    pub conn: RustConnection,
    pub window: u32,
}

impl Probe {
    /// Opens the window on `screen` and waits until it is mapped.
    pub fn open(screen: &Screen) -> Probe {
        let (conn, n) = x11rb::connect(Some(&screen.display_name())).expect("connect");
        let root = conn.setup().roots[n].clone();
        let window = conn.generate_id().unwrap();
        let mask = EventMask::BUTTON_PRESS
            | EventMask::BUTTON_RELEASE
            | EventMask::KEY_PRESS
            | EventMask::KEY_RELEASE
            | EventMask::POINTER_MOTION
            | EventMask::STRUCTURE_NOTIFY;
        conn.create_window(
            0,
            window,
            root.root,
            0,
            0,
            root.width_in_pixels,
            root.height_in_pixels,
            0,
            WindowClass::INPUT_OUTPUT,
            0,
            &CreateWindowAux::new()
                .event_mask(mask)
                .background_pixel(root.white_pixel)
                .override_redirect(1),
        )
        .unwrap();
        conn.map_window(window).unwrap();
        conn.flush().unwrap();
        let probe = Probe { conn, window };
        probe.wait_for(|e| matches!(e, Event::MapNotify(_)), "MapNotify");
        probe
            .conn
            .set_input_focus(InputFocus::POINTER_ROOT, window, 0u32)
            .unwrap();
        probe.conn.sync().unwrap();
        probe
    }

    /// Next event, waiting up to 10 s.
    pub fn next(&self) -> Option<Event> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Some(e) = self.conn.poll_for_event().unwrap() {
                return Some(e);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }

    /// Skips events until `pred` holds; panics with `what` after 10 s.
    pub fn wait_for(&self, pred: impl Fn(&Event) -> bool, what: &str) -> Event {
        loop {
            match self.next() {
                Some(e) if pred(&e) => return e,
                Some(_) => continue,
                None => panic!("no {what} within 10 s"),
            }
        }
    }

    /// The next `n` button presses as (button, x, y).
    pub fn presses(&self, n: usize) -> Vec<(u8, i16, i16)> {
        (0..n)
            .map(
                |_| match self.wait_for(|e| matches!(e, Event::ButtonPress(_)), "ButtonPress") {
                    Event::ButtonPress(b) => (b.detail, b.event_x, b.event_y),
                    _ => unreachable!(),
                },
            )
            .collect()
    }

    /// The keysym of a key event under the current keyboard mapping (level 2 if Shift is held).
    pub fn keysym(&self, code: u8, shift: bool) -> u32 {
        let r = self
            .conn
            .get_keyboard_mapping(code, 1)
            .unwrap()
            .reply()
            .unwrap();
        let level = usize::from(shift && r.keysyms.get(1).is_some_and(|k| *k != 0));
        r.keysyms[level]
    }

    /// The keysyms of the next `n` key presses.
    pub fn typed(&self, n: usize) -> Vec<u32> {
        (0..n)
            .map(|_| {
                let e = self.wait_for(|e| matches!(e, Event::KeyPress(_)), "KeyPress");
                let Event::KeyPress(k) = e else {
                    unreachable!()
                };
                let shift = u16::from(k.state) & 1 != 0;
                self.keysym(k.detail, shift)
            })
            .collect()
    }
}

/// How many live processes belong to the screen with this work directory.
pub fn marker_processes(marker: &std::path::Path) -> usize {
    tuplewright::engine::screen::screen_processes(marker).len()
}

/// Polls `cond` until it holds or `secs` pass.
pub fn eventually(secs: u64, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cond()
}
