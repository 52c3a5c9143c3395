//! Recording the input devices of a display with the X RECORD extension (Xvfb has it): every
//! key, button and pointer motion the server processes — a person's through a VNC server, which
//! injects with XTEST like [`super::Screen::act`] does — whoever sent it. A background thread
//! reads the recording connection and hands each event, with the server's time of it and the
//! keysyms of its key, to a channel; [`Drop`] disables the recording and joins the thread.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::record::{self, ConnectionExt as _, ExtRange, Range, Range16, Range8};
use x11rb::protocol::xproto::{self, ConnectionExt as _};
use x11rb::rust_connection::RustConnection;

use super::ScreenError;

/// One input device event as the server processed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawInput {
    /// A key went down: its keysyms without and with Shift (0 = none on that level).
    KeyPress {
        /// Keysym of the first level.
        keysym: u32,
        /// Keysym of the shifted level.
        shifted: u32,
    },
    /// A key went up (first-level keysym).
    KeyRelease {
        /// Keysym of the first level.
        keysym: u32,
    },
    /// A pointer button went down at a root-window point (4–7 are wheel clicks).
    ButtonPress {
        /// Button number.
        button: u8,
        /// Root x.
        x: i32,
        /// Root y.
        y: i32,
    },
    /// A pointer button went up.
    ButtonRelease {
        /// Button number.
        button: u8,
        /// Root x.
        x: i32,
        /// Root y.
        y: i32,
    },
    /// The pointer moved to a root-window point.
    Motion {
        /// Root x.
        x: i32,
        /// Root y.
        y: i32,
    },
}

/// A recorded event and when the server processed it (its timestamp, on this clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recorded {
    /// When the server processed it.
    pub at: Instant,
    /// The event.
    pub input: RawInput,
}

fn died(e: impl std::fmt::Display) -> ScreenError {
    ScreenError::DisplayDied(format!("recording the display's input: {e}"))
}

/// Records a display's input devices until dropped.
pub struct InputRecorder {
    control: Arc<RustConnection>,
    context: record::Context,
    events: Receiver<Recorded>,
    presses: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl InputRecorder {
    /// Starts recording every key, button and motion event of `display`. A server without the
    /// RECORD extension is [`ScreenError::Unsupported`].
    pub fn start(display: &str) -> Result<InputRecorder, ScreenError> {
        let (control, _) = x11rb::connect(Some(display)).map_err(died)?;
        if control
            .extension_information(record::X11_EXTENSION_NAME)
            .map_err(died)?
            .is_none()
        {
            return Err(ScreenError::Unsupported(
                "the X server has no RECORD extension".into(),
            ));
        }
        control
            .record_query_version(1, 13)
            .map_err(died)?
            .reply()
            .map_err(died)?;
        let context = control.generate_id().map_err(died)?;
        let none8 = Range8 { first: 0, last: 0 };
        let none_ext = ExtRange {
            major: none8,
            minor: Range16 { first: 0, last: 0 },
        };
        let range = Range {
            core_requests: none8,
            core_replies: none8,
            ext_requests: none_ext,
            ext_replies: none_ext,
            delivered_events: none8,
            device_events: Range8 {
                first: xproto::KEY_PRESS_EVENT,
                last: xproto::MOTION_NOTIFY_EVENT,
            },
            errors: none8,
            client_started: false,
            client_died: false,
        };
        let all = u32::from(record::CS::ALL_CLIENTS);
        control
            .record_create_context(context, 0, &[all], &[range])
            .map_err(died)?
            .check()
            .map_err(died)?;
        let control = Arc::new(control);
        let (data, _) = x11rb::connect(Some(display)).map_err(died)?;
        let (tx, events) = channel();
        let presses = Arc::new(AtomicU64::new(0));
        let (keys, count) = (control.clone(), presses.clone());
        let (started_tx, started) = channel();
        let thread = std::thread::spawn(move || {
            let Ok(cookie) = data.record_enable_context(context) else {
                return;
            };
            // Event times are the server's (milliseconds), placed on this clock by the server
            // time of the start of data: gaps between events are the person's, not this
            // thread's scheduling.
            let mut anchor = (Instant::now(), 0u32);
            for reply in cookie {
                let Ok(reply) = reply else { return };
                if reply.category == 4 {
                    anchor = (Instant::now(), reply.server_time);
                    let _ = started_tx.send(());
                }
                if reply.category != 0 {
                    continue;
                }
                for ev in reply.data.chunks_exact(32) {
                    if let Some(input) = parse(ev, &keys) {
                        if !matches!(input, RawInput::Motion { .. }) {
                            count.fetch_add(1, Ordering::SeqCst);
                        }
                        let time = u32::from_ne_bytes([ev[4], ev[5], ev[6], ev[7]]);
                        let at = anchor.0
                            + std::time::Duration::from_millis(u64::from(
                                time.wrapping_sub(anchor.1),
                            ));
                        // Never later than now (a server clock running ahead of this one).
                        let _ = tx.send(Recorded {
                            at: at.min(Instant::now()),
                            input,
                        });
                    }
                }
            }
        });
        let recorder = InputRecorder {
            control,
            context,
            events,
            presses,
            thread: Some(thread),
        };
        // Recording has begun once the server says "start of data".
        started
            .recv_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| died(format!("the recording did not start: {e}")))?;
        Ok(recorder)
    }

    /// The events recorded since the last call, oldest first.
    pub fn drain(&self) -> Result<Vec<Recorded>, ScreenError> {
        let mut out = Vec::new();
        loop {
            match self.events.try_recv() {
                Ok(ev) => out.push(ev),
                Err(TryRecvError::Empty) => return Ok(out),
                Err(TryRecvError::Disconnected) => {
                    return match out.is_empty() {
                        true => Err(died("the recording connection closed")),
                        false => Ok(out),
                    }
                }
            }
        }
    }

    /// How many key and button events (motion left out) were recorded so far: an unchanged
    /// count across a screenshot means no input landed while it was taken.
    pub fn presses(&self) -> u64 {
        self.presses.load(Ordering::SeqCst)
    }
}

impl Drop for InputRecorder {
    fn drop(&mut self) {
        let stopped = self
            .control
            .record_disable_context(self.context)
            .map(|c| c.ignore_error())
            .and_then(|_| self.control.flush());
        if stopped.is_ok() {
            if let Some(thread) = self.thread.take() {
                let _ = thread.join();
            }
        }
        let _ = self
            .control
            .record_free_context(self.context)
            .map(|c| c.ignore_error());
        let _ = self.control.flush();
    }
}

/// One 32-byte core device event from the recording.
fn parse(ev: &[u8], keys: &RustConnection) -> Option<RawInput> {
    let i16_at = |i: usize| i32::from(i16::from_ne_bytes([ev[i], ev[i + 1]]));
    let (detail, x, y) = (ev[1], i16_at(20), i16_at(22));
    Some(match ev[0] & 0x7f {
        xproto::KEY_PRESS_EVENT => {
            let (keysym, shifted) = keysyms(keys, detail);
            RawInput::KeyPress { keysym, shifted }
        }
        xproto::KEY_RELEASE_EVENT => RawInput::KeyRelease {
            keysym: keysyms(keys, detail).0,
        },
        xproto::BUTTON_PRESS_EVENT => RawInput::ButtonPress {
            button: detail,
            x,
            y,
        },
        xproto::BUTTON_RELEASE_EVENT => RawInput::ButtonRelease {
            button: detail,
            x,
            y,
        },
        xproto::MOTION_NOTIFY_EVENT => RawInput::Motion { x, y },
        _ => return None,
    })
}

/// The first two keysyms of `code` as mapped now (a VNC server may remap spare keycodes on the
/// fly); zeros when the mapping cannot be read.
fn keysyms(conn: &RustConnection, code: u8) -> (u32, u32) {
    let reply = conn
        .get_keyboard_mapping(code, 1)
        .ok()
        .and_then(|c| c.reply().ok());
    match reply {
        Some(r) => (
            r.keysyms.first().copied().unwrap_or(0),
            r.keysyms.get(1).copied().unwrap_or(0),
        ),
        None => (0, 0),
    }
}
