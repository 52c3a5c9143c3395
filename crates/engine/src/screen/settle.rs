//! Waiting for the display to settle after an action, so the frame captured next shows what the
//! action did (a browser repaints a few milliseconds to a few frames after its input arrives).
//!
//! On an X server with the DAMAGE extension (Xvfb has it) a second connection subscribes to
//! damage of the root window (every window drawn on the display reports there): the display has
//! settled once no `DamageNotify` arrived for [`Settle::quiet`]. Without the extension, successive
//! captures are compared instead: settled once the frame has not changed for the quiet period.
//! Either way the wait is bounded by [`Settle::max`] (a page animating for ever, a blinking caret
//! slower than the quiet period is not a problem) and reported as a [`Settled`].

use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::damage::{self, ConnectionExt as _, ReportLevel};
use x11rb::protocol::xproto::Window;
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::ScreenError;

/// How long to wait for a display to settle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settle {
    /// No change for this long = settled (zero: do not wait at all).
    pub quiet: Duration,
    /// Never wait longer than this (the frame is then captured as it is).
    pub max: Duration,
    /// The action always draws (typing text): the quiet period starts only once something has
    /// been drawn since the action began (DAMAGE only), so a browser that has not yet read its
    /// input on a loaded machine is not taken for a settled screen.
    pub expect_change: bool,
}

impl Default for Settle {
    fn default() -> Self {
        Settle {
            quiet: Duration::from_millis(200),
            max: Duration::from_secs(3),
            expect_change: false,
        }
    }
}

impl Settle {
    /// These bounds, waiting for a first drawing when `action` always draws (text typed).
    pub fn for_action(self, action: &super::ComputerAction) -> Settle {
        use super::ComputerAction as A;
        Settle {
            expect_change: matches!(action, A::Type { text } if !text.is_empty()),
            ..self
        }
    }
}

/// How a display was found settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettleMethod {
    /// No DamageNotify of the root window for the quiet period.
    Damage,
    /// Successive captures equal for the quiet period.
    Compare,
    /// Not waited for (a quiet period of zero).
    None,
}

/// What a settle wait found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settled {
    /// How long it waited (quiet period included).
    pub waited: Duration,
    /// The display still changed at [`Settle::max`].
    pub timed_out: bool,
    /// How it watched.
    pub method: SettleMethod,
}

impl Settled {
    /// The wait in whole milliseconds (what a step records as `settle_ms`).
    pub fn ms(&self) -> u64 {
        u64::try_from(self.waited.as_millis()).unwrap_or(u64::MAX)
    }
}

fn died(e: impl std::fmt::Display) -> ScreenError {
    ScreenError::DisplayDied(format!("watching the display's damage: {e}"))
}

/// A connection subscribed to the root window's damage (DAMAGE, report level non-empty: one
/// notify each time the damage region goes from empty to non-empty; every notify is answered by
/// emptying the region again).
pub(super) struct DamageWatch {
    conn: RustConnection,
    damage: damage::Damage,
}

impl DamageWatch {
    /// Connects to `display` and subscribes to its root window's damage; `Ok(None)` when the
    /// server has no DAMAGE extension.
    pub(super) fn open(display: &str) -> Result<Option<DamageWatch>, ScreenError> {
        let (conn, screen_num) = x11rb::connect(Some(display)).map_err(died)?;
        if conn
            .extension_information(damage::X11_EXTENSION_NAME)
            .map_err(died)?
            .is_none()
        {
            return Ok(None);
        }
        conn.damage_query_version(1, 1)
            .map_err(died)?
            .reply()
            .map_err(died)?;
        let root: Window = conn.setup().roots[screen_num].root;
        let damage = conn.generate_id().map_err(died)?;
        conn.damage_create(damage, root, ReportLevel::NON_EMPTY)
            .map_err(died)?
            .check()
            .map_err(died)?;
        Ok(Some(DamageWatch { conn, damage }))
    }

    /// Empties the damage region (re-arming the notify) and reads every event queued; true when
    /// one of them was a DamageNotify.
    fn drain(&self) -> Result<bool, ScreenError> {
        let mut seen = false;
        while let Some(ev) = self.conn.poll_for_event().map_err(died)? {
            if matches!(ev, Event::DamageNotify(_)) {
                seen = true;
            }
        }
        if seen {
            self.conn
                .damage_subtract(self.damage, x11rb::NONE, x11rb::NONE)
                .map_err(died)?;
            self.conn.flush().map_err(died)?;
        }
        Ok(seen)
    }

    /// Forgets the damage so far (called as an action begins): [`DamageWatch::wait`] then knows
    /// whether anything was drawn since.
    pub(super) fn mark(&self) -> Result<(), ScreenError> {
        self.drain()?;
        self.conn
            .damage_subtract(self.damage, x11rb::NONE, x11rb::NONE)
            .map_err(died)?;
        self.conn.sync().map_err(died)?;
        self.drain()?;
        Ok(())
    }

    /// Waits until no damage arrived for `s.quiet`, at most `s.max`; with `s.expect_change`,
    /// the quiet period starts at the first damage since the last [`DamageWatch::mark`].
    pub(super) fn wait(&self, s: Settle) -> Result<Settled, ScreenError> {
        let start = Instant::now();
        if s.quiet.is_zero() {
            return Ok(unwaited());
        }
        // Whatever was drawn since the action began counts as drawn now; re-arm the notify.
        let mut drawn = self.drain()?;
        self.conn
            .damage_subtract(self.damage, x11rb::NONE, x11rb::NONE)
            .map_err(died)?;
        self.conn.sync().map_err(died)?;
        drawn |= self.drain()?;
        let mut last = start;
        let fd = self.conn.stream().as_raw_fd();
        loop {
            let now = Instant::now();
            let waiting_first = s.expect_change && !drawn;
            let quiet_until = last + s.quiet;
            let deadline = start + s.max;
            if (now >= quiet_until && !waiting_first) || now >= deadline {
                return Ok(Settled {
                    waited: now - start,
                    timed_out: now < quiet_until || waiting_first,
                    method: SettleMethod::Damage,
                });
            }
            let until = if waiting_first {
                deadline
            } else {
                quiet_until.min(deadline)
            };
            if poll_readable(fd, until - now) && self.drain()? {
                drawn = true;
                last = Instant::now();
            }
        }
    }
}

/// A wait that did not happen (quiet period zero).
pub(super) fn unwaited() -> Settled {
    Settled {
        waited: Duration::ZERO,
        timed_out: false,
        method: SettleMethod::None,
    }
}

/// How often captures are compared when there is no DAMAGE: a quarter of the quiet period,
/// between 10 and 100 ms.
pub fn compare_interval(s: Settle) -> Duration {
    (s.quiet / 4).clamp(Duration::from_millis(10), Duration::from_millis(100))
}

/// The fallback: captures `grab` until one has equalled its predecessors for `s.quiet`, at most
/// `s.max`. Works for anything that can be captured (a remote guest's screenshots too).
pub fn settle_by_compare<F, E>(s: Settle, mut grab: F) -> Result<Settled, E>
where
    F: FnMut() -> Result<Vec<u8>, E>,
{
    let start = Instant::now();
    if s.quiet.is_zero() {
        return Ok(unwaited());
    }
    let mut last_frame = grab()?;
    let mut changed = start;
    loop {
        let now = Instant::now();
        if now - changed >= s.quiet || now - start >= s.max {
            return Ok(Settled {
                waited: now - start,
                timed_out: now - changed < s.quiet,
                method: SettleMethod::Compare,
            });
        }
        let left = (changed + s.quiet).min(start + s.max) - now;
        std::thread::sleep(compare_interval(s).min(left));
        let frame = grab()?;
        if frame != last_frame {
            changed = Instant::now();
            last_frame = frame;
        }
    }
}

/// Waits for `fd` to become readable, at most `timeout`.
fn poll_readable(fd: i32, timeout: Duration) -> bool {
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = i32::try_from(timeout.as_millis())
        .unwrap_or(i32::MAX)
        .max(1);
    // SAFETY: one valid pollfd for the duration of the call.
    unsafe { libc::poll(&mut pfd, 1, ms) > 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn compare_waits_for_the_quiet_period_after_the_last_change() {
        let s = Settle {
            quiet: Duration::from_millis(80),
            max: Duration::from_secs(5),
            expect_change: false,
        };
        let calls = Cell::new(0u32);
        let changed_until = Duration::from_millis(150);
        let start = Instant::now();
        let r = settle_by_compare::<_, ()>(s, || {
            calls.set(calls.get() + 1);
            // A frame that changes on every capture for the first 150 ms, then stays.
            Ok(if start.elapsed() < changed_until {
                calls.get().to_le_bytes().to_vec()
            } else {
                vec![0]
            })
        })
        .unwrap();
        assert_eq!(r.method, SettleMethod::Compare);
        assert!(!r.timed_out, "{r:?}");
        assert!(
            r.waited >= changed_until + s.quiet - Duration::from_millis(5),
            "{r:?}"
        );
        assert!(calls.get() >= 3, "{}", calls.get());
    }

    #[test]
    fn compare_gives_up_at_the_bound_on_a_frame_that_never_stops_changing() {
        let s = Settle {
            quiet: Duration::from_millis(60),
            max: Duration::from_millis(300),
            expect_change: false,
        };
        let n = Cell::new(0u32);
        let r = settle_by_compare::<_, ()>(s, || {
            n.set(n.get() + 1);
            Ok(n.get().to_le_bytes().to_vec())
        })
        .unwrap();
        assert!(r.timed_out, "{r:?}");
        assert!(r.waited >= s.max && r.waited < s.max * 3, "{r:?}");
        let none = settle_by_compare::<_, ()>(
            Settle {
                quiet: Duration::ZERO,
                ..s
            },
            || Ok(vec![]),
        )
        .unwrap();
        assert_eq!(none.method, SettleMethod::None);
        assert_eq!(none.ms(), 0);
    }
}
