//! The taskbar of a combined screen: an always-visible strip along the top of the display with
//! one labelled button per app ("Files", "Issue tracker", …). Clicking a button raises and
//! focuses that app's windows (through the window manager, as a pager does); the button of the
//! app that has the focus is drawn highlighted. It is how an agent switches between the apps of
//! a cross-app task with `computer_use` clicks only — visible on every screenshot, unlike a key
//! binding a model would have to be told about.
//!
//! The strip is an override-redirect X window drawn by a thread of the engine (no extra program
//! on the display); its buttons have fixed places ([`button_area`]), which planners use as the
//! strip's accessibility tree. Dropping the [`Taskbar`] stops the thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{
    AtomEnum, ChangeWindowAttributesAux, ConfigureWindowAux, ConnectionExt as _, CreateGCAux,
    CreateWindowAux, EventMask, Rectangle, StackMode, Window, WindowClass,
};
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::{Area, DesktopWindows, ScreenError};

/// Height of the strip, pixels; app windows are placed below it.
pub const TASKBAR_HEIGHT: i32 = 28;
/// Width of one button.
const BUTTON_W: i32 = 168;
/// Space before and between buttons.
const GAP: i32 = 6;
/// Colours (24-bit TrueColor pixels, as Xvfb's default visual).
const BAR: u32 = 0x2d_31_3a;
const BUTTON: u32 = 0x4b_52_60;
const ACTIVE: u32 = 0x2f_6f_d0;
const TEXT: u32 = 0xff_ff_ff;

/// One button: its label and the window classes (`WM_CLASS`) it brings forward, in order (the
/// last one gets the focus).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskbarEntry {
    /// What the button says.
    pub label: String,
    /// The classes of the windows it raises.
    pub classes: Vec<String>,
}

/// Where button `i` (0-based, left to right) lies on the screen.
pub fn button_area(i: usize) -> Area {
    let i = i32::try_from(i).unwrap_or(i32::MAX / BUTTON_W);
    (GAP + i * (BUTTON_W + GAP), 3, BUTTON_W, TASKBAR_HEIGHT - 6)
}

/// Raises every window of `entry`'s classes through the window manager, the last one focused
/// (what a click on its button does).
///
/// Only the last window is asked for the focus; the others are restacked without it. Asking for
/// each in turn made the window manager hand the focus to every one of them, and a program that
/// answered its focus offer late (pcmanfm under load) took the focus back from the last one.
pub fn raise(windows: &DesktopWindows, entry: &TaskbarEntry) -> Result<(), ScreenError> {
    let list = windows.list()?;
    let ids: Vec<u32> = entry
        .classes
        .iter()
        .flat_map(|class| list.iter().filter(move |w| &w.class == class))
        .map(|w| w.id)
        .collect();
    let Some((last, rest)) = ids.split_last() else {
        return Ok(());
    };
    for id in rest {
        windows.raise_above(*id)?;
    }
    windows.activate(*last)
}

/// A running taskbar; dropping it stops its thread (the window goes with the display).
pub struct Taskbar {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

fn died(e: impl std::fmt::Display) -> ScreenError {
    ScreenError::DisplayDied(format!("taskbar: {e}"))
}

struct Bar {
    conn: RustConnection,
    win: Window,
    gc: u32,
    width: u16,
    entries: Vec<TaskbarEntry>,
    windows: DesktopWindows,
    active_atom: u32,
}

impl Taskbar {
    /// Draws the strip on `display` (`width` pixels wide) with `entries` and starts serving clicks.
    pub fn start(
        display: &str,
        width: u32,
        entries: Vec<TaskbarEntry>,
    ) -> Result<Taskbar, ScreenError> {
        let (conn, n) = x11rb::connect(Some(display)).map_err(died)?;
        let screen = conn.setup().roots[n].clone();
        let width = u16::try_from(width).unwrap_or(u16::MAX);
        let win = conn.generate_id().map_err(died)?;
        conn.create_window(
            screen.root_depth,
            win,
            screen.root,
            0,
            0,
            width,
            TASKBAR_HEIGHT as u16,
            0,
            WindowClass::INPUT_OUTPUT,
            screen.root_visual,
            &CreateWindowAux::new()
                .background_pixel(BAR)
                .override_redirect(1)
                .event_mask(EventMask::EXPOSURE | EventMask::BUTTON_PRESS),
        )
        .map_err(died)?;
        conn.change_property8(
            x11rb::protocol::xproto::PropMode::REPLACE,
            win,
            AtomEnum::WM_NAME,
            AtomEnum::STRING,
            b"Taskbar",
        )
        .map_err(died)?;
        // The focus changes are what the highlight follows.
        conn.change_window_attributes(
            screen.root,
            &ChangeWindowAttributesAux::new().event_mask(EventMask::PROPERTY_CHANGE),
        )
        .map_err(died)?;
        let font = conn.generate_id().map_err(died)?;
        conn.open_font(font, b"fixed").map_err(died)?;
        let gc = conn.generate_id().map_err(died)?;
        conn.create_gc(gc, win, &CreateGCAux::new().font(font).foreground(TEXT))
            .map_err(died)?;
        conn.map_window(win).map_err(died)?;
        let active_atom = conn
            .intern_atom(false, b"_NET_ACTIVE_WINDOW")
            .map_err(died)?
            .reply()
            .map_err(died)?
            .atom;
        conn.flush().map_err(died)?;
        let bar = Bar {
            conn,
            win,
            gc,
            width,
            entries,
            windows: DesktopWindows::connect(display)?,
            active_atom,
        };
        bar.draw()?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("taskbar".into())
            .spawn(move || bar.serve(&flag))
            .map_err(|e| ScreenError::Io(format!("starting the taskbar thread: {e}")))?;
        Ok(Taskbar {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Taskbar {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Bar {
    /// The entry whose windows have the focus now.
    fn active(&self) -> Option<usize> {
        let focused = self.windows.list().ok()?.into_iter().find(|w| w.focused)?;
        self.entries
            .iter()
            .position(|e| e.classes.contains(&focused.class))
    }

    fn draw(&self) -> Result<(), ScreenError> {
        let c = &self.conn;
        let active = self.active();
        let fill = |pixel: u32, (x, y, w, h): Area| -> Result<(), ScreenError> {
            c.change_gc(
                self.gc,
                &x11rb::protocol::xproto::ChangeGCAux::new().foreground(pixel),
            )
            .map_err(died)?;
            let r = Rectangle {
                x: x as i16,
                y: y as i16,
                width: w as u16,
                height: h as u16,
            };
            c.poly_fill_rectangle(self.win, self.gc, &[r])
                .map_err(died)?;
            Ok(())
        };
        fill(BAR, (0, 0, self.width.into(), TASKBAR_HEIGHT))?;
        for (i, e) in self.entries.iter().enumerate() {
            let area = button_area(i);
            let bg = if active == Some(i) { ACTIVE } else { BUTTON };
            fill(bg, area)?;
            c.change_gc(
                self.gc,
                &x11rb::protocol::xproto::ChangeGCAux::new()
                    .foreground(TEXT)
                    .background(bg),
            )
            .map_err(died)?;
            let label: Vec<u8> = e.label.bytes().filter(u8::is_ascii).take(26).collect();
            // "fixed" is 6x13: centre the label in the button.
            let x = area.0 + (area.2 - 6 * label.len() as i32) / 2;
            let y = area.1 + area.3 / 2 + 4;
            c.image_text8(self.win, self.gc, x as i16, y as i16, &label)
                .map_err(died)?;
        }
        c.configure_window(
            self.win,
            &ConfigureWindowAux::new().stack_mode(StackMode::ABOVE),
        )
        .map_err(died)?;
        c.flush().map_err(died)?;
        Ok(())
    }

    /// Raises every window of entry `i`'s classes, the last one focused.
    fn switch(&self, i: usize) -> Result<(), ScreenError> {
        match self.entries.get(i) {
            Some(entry) => raise(&self.windows, entry),
            None => Ok(()),
        }
    }

    fn serve(self, stop: &AtomicBool) {
        while !stop.load(Ordering::Relaxed) {
            let mut redraw = false;
            loop {
                match self.conn.poll_for_event() {
                    Ok(Some(Event::Expose(_))) => redraw = true,
                    Ok(Some(Event::PropertyNotify(p))) if p.atom == self.active_atom => {
                        redraw = true
                    }
                    Ok(Some(Event::ButtonPress(b))) => {
                        let (x, y) = (i32::from(b.event_x), i32::from(b.event_y));
                        let hit = (0..self.entries.len()).find(|i| {
                            let (bx, by, bw, bh) = button_area(*i);
                            x >= bx && x < bx + bw && y >= by && y < by + bh
                        });
                        if let Some(i) = hit {
                            if self.switch(i).is_err() {
                                return;
                            }
                        }
                        redraw = true;
                    }
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    // The display went away: the screen is being torn down.
                    Err(_) => return,
                }
            }
            if redraw && self.draw().is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(15));
        }
    }
}
