//! [`Screen`]: one Xvfb display, the X connection that drives it and the programs drawing on it.

use std::io::Read;
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, Window};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;

use super::capture::{self, Shot};
use super::keymap::Keymap;
use super::procs::{self, MARKER_VAR, SCREEN_PREFIX};
use super::settle::{self, DamageWatch, Settle, Settled};
use super::{ScreenConfig, ScreenError, ScreenSize};

/// A live virtual display. Dropping it kills everything it started.
pub struct Screen {
    pub(super) conn: RustConnection,
    pub(super) root: Window,
    pub(super) width: u16,
    pub(super) height: u16,
    pub(super) keymap: Keymap,
    pub(super) display: u32,
    xvfb: Child,
    apps: Vec<(String, Child)>,
    /// Programs a person may close during a trial (a desktop application whose window has
    /// appeared: quitting it writes its settings): a clean exit (status 0) is not a death.
    closable: Vec<String>,
    pgid: i32,
    pub(super) app_uid: Option<u32>,
    marker: tempfile::TempDir,
    /// The root window's damage, when the server has DAMAGE ([`Screen::settle`]).
    damage: Option<DamageWatch>,
    /// How [`Screen::settle`] waits (`[screen] settle_quiet_ms`, `settle_max_ms`).
    settle: Settle,
    /// The host's screen slot (`[worker] screens`), given back after everything is killed.
    _host_slot: Option<tuplewright_base::hostcap::HostSlot>,
}

fn io(what: &str) -> impl Fn(std::io::Error) -> ScreenError + '_ {
    move |e| ScreenError::Io(format!("{what}: {e}"))
}

/// Waits for `fd` to become readable, at most `timeout`.
fn poll_readable(fd: i32, timeout: Duration) -> bool {
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
    // SAFETY: one valid pollfd for the duration of the call.
    unsafe { libc::poll(&mut pfd, 1, ms) > 0 }
}

/// Reads the display number Xvfb writes on its `-displayfd` pipe.
fn read_display(reader: &mut std::io::PipeReader, deadline: Instant) -> Option<u32> {
    let mut got = Vec::new();
    let mut buf = [0u8; 16];
    while !got.contains(&b'\n') {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || !poll_readable(reader.as_raw_fd(), left) {
            return None;
        }
        match reader.read(&mut buf) {
            Ok(0) | Err(_) => return None,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    std::str::from_utf8(&got).ok()?.trim().parse().ok()
}

/// How many colours a window's client area shows once drawn ([`Screen::area_drawn`]).
pub const DRAWN_COLOURS: usize = 24;

impl Screen {
    /// Starts an Xvfb display of `size` (after sweeping what killed runs left) and connects to it.
    pub fn start(cfg: &ScreenConfig, size: ScreenSize) -> Result<Screen, ScreenError> {
        if !(64..=8192).contains(&size.width) || !(64..=8192).contains(&size.height) {
            return Err(ScreenError::Start(format!(
                "display size {}x{}: each side must be between 64 and 8192 pixels",
                size.width, size.height
            )));
        }
        let host_slot = tuplewright_base::hostcap::take(tuplewright_base::hostcap::Kind::Screen)
            .map_err(|e| ScreenError::Start(format!("taking a screen slot of this host: {e}")))?;
        let tmp = std::env::temp_dir();
        procs::sweep_stale_screens(&tmp);
        let marker = tempfile::Builder::new()
            .prefix(&format!("{SCREEN_PREFIX}{}-", std::process::id()))
            .tempdir_in(&tmp)
            .map_err(io("creating the screen's marker directory"))?;
        // SAFETY: geteuid has no preconditions.
        let root_user = unsafe { libc::geteuid() } == 0;
        let app_uid = (root_user && cfg.app_uid != 0).then_some(cfg.app_uid);
        if app_uid.is_some() {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(marker.path(), std::fs::Permissions::from_mode(0o711))
                .map_err(io("opening the marker directory to the app uid"))?;
        }
        let (mut reader, writer) = std::io::pipe().map_err(io("creating the -displayfd pipe"))?;
        let wfd = writer.as_raw_fd();
        let log = std::fs::File::create(marker.path().join("xvfb.log"))
            .map_err(io("creating the X server's log"))?;
        let mut cmd = Command::new(&cfg.xvfb);
        cmd.arg("-displayfd")
            .arg(wfd.to_string())
            .arg("-screen")
            .arg("0")
            .arg(format!("{}x{}x24", size.width, size.height))
            .args(["-nolisten", "tcp", "-noreset", "-dpi", "96"])
            .env(MARKER_VAR, marker.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .process_group(0);
        if let Some(uid) = app_uid {
            cmd.uid(uid).gid(uid);
        }
        // SAFETY: fcntl is async-signal-safe; it clears close-on-exec on the pipe's write end so
        // the X server inherits it.
        unsafe {
            cmd.pre_exec(move || {
                if libc::fcntl(wfd, libc::F_SETFD, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        // Held until Xvfb reports its display (its lock and socket then exist); released before
        // any failure path below removes display files (that takes the same lock).
        let starting = procs::display_files_guard();
        let mut xvfb = cmd
            .spawn()
            .map_err(|e| ScreenError::Start(format!("running {}: {e}", cfg.xvfb.display())))?;
        drop(writer);
        let pgid = xvfb.id() as i32;
        let deadline = Instant::now() + Duration::from_millis(cfg.display_timeout_ms);
        let display = read_display(&mut reader, deadline);
        drop(starting);
        let Some(display) = display else {
            procs::kill_group(pgid);
            let _ = xvfb.wait();
            let log = std::fs::read_to_string(marker.path().join("xvfb.log")).unwrap_or_default();
            return Err(ScreenError::Start(format!(
                "Xvfb gave no display number within {} ms: {}",
                cfg.display_timeout_ms,
                log.lines().rev().take(3).collect::<Vec<_>>().join(" | ")
            )));
        };
        let fail = |e: String, xvfb: &mut Child| {
            procs::kill_group(pgid);
            let _ = xvfb.wait();
            procs::remove_display_files(display, &[pgid]);
            ScreenError::Start(e)
        };
        if let Err(e) = procs::record(marker.path(), display) {
            return Err(fail(format!("recording the display: {e}"), &mut xvfb));
        }
        let (conn, screen_num) = match x11rb::connect(Some(&format!(":{display}"))) {
            Ok(c) => c,
            Err(e) => return Err(fail(format!("connecting to :{display}: {e}"), &mut xvfb)),
        };
        let root = conn.setup().roots[screen_num].root;
        if let Err(e) = conn.xtest_get_version(2, 2).map(|c| c.reply()) {
            return Err(fail(
                format!("the XTEST extension is missing: {e}"),
                &mut xvfb,
            ));
        }
        let keymap = match Keymap::load(&conn) {
            Ok(k) => k,
            Err(e) => return Err(fail(e.to_string(), &mut xvfb)),
        };
        let damage = match DamageWatch::open(&format!(":{display}")) {
            Ok(d) => d,
            Err(e) => return Err(fail(e.to_string(), &mut xvfb)),
        };
        Ok(Screen {
            conn,
            root,
            width: size.width,
            height: size.height,
            keymap,
            display,
            xvfb,
            apps: Vec::new(),
            closable: Vec::new(),
            pgid,
            app_uid,
            marker,
            damage,
            settle: cfg.settle(),
            _host_slot: host_slot,
        })
    }

    /// The X display name, e.g. `:3`.
    pub fn display_name(&self) -> String {
        format!(":{}", self.display)
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width.into(), self.height.into())
    }

    /// A private directory of this screen (removed with it), for profiles and logs.
    pub fn work_dir(&self) -> &Path {
        self.marker.path()
    }

    /// Creates a directory under [`Screen::work_dir`] that the screen's programs may write.
    pub fn private_dir(&self, name: &str) -> Result<PathBuf, ScreenError> {
        let dir = self.marker.path().join(name);
        std::fs::create_dir_all(&dir).map_err(io("creating a directory for the screen"))?;
        if let Some(uid) = self.app_uid {
            std::os::unix::fs::chown(&dir, Some(uid), Some(uid))
                .map_err(io("handing the directory to the app uid"))?;
        }
        Ok(dir)
    }

    /// Starts `cmd` on this display: in the screen's process group, as the app uid, with
    /// `DISPLAY` and the marker set, stdout and stderr into `<work_dir>/<name>.log`.
    pub fn launch(&mut self, name: &str, mut cmd: Command) -> Result<(), ScreenError> {
        let log = std::fs::File::create(self.marker.path().join(format!("{name}.log")))
            .map_err(io("creating an app log"))?;
        let err = log.try_clone().map_err(io("creating an app log"))?;
        cmd.env("DISPLAY", self.display_name())
            .env(MARKER_VAR, self.marker.path())
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .process_group(self.pgid);
        if let Some(uid) = self.app_uid {
            cmd.uid(uid).gid(uid);
        }
        let child = cmd.spawn().map_err(|e| ScreenError::AppDied {
            program: name.to_string(),
            detail: format!("could not start: {e}"),
        })?;
        self.apps.push((name.to_string(), child));
        Ok(())
    }

    /// The last lines of a program's log (for error messages).
    pub fn log_tail(&self, name: &str, lines: usize) -> String {
        let text = std::fs::read_to_string(self.marker.path().join(format!("{name}.log")))
            .unwrap_or_default();
        let mut tail: Vec<&str> = text.lines().rev().take(lines).collect();
        tail.reverse();
        tail.join("\n")
    }

    /// Marks `program` as closable: from now on its clean exit is a person closing it (a
    /// desktop application once its window has appeared), not an infrastructure failure.
    pub(super) fn mark_closable(&mut self, program: &str) {
        self.closable.push(program.to_string());
    }

    /// Checks that the X server and every launched program still run.
    pub fn check(&mut self) -> Result<(), ScreenError> {
        if let Ok(Some(st)) = self.xvfb.try_wait() {
            return Err(ScreenError::DisplayDied(format!("Xvfb exited ({st})")));
        }
        for (name, child) in &mut self.apps {
            if let Ok(Some(st)) = child.try_wait() {
                if st.success() && self.closable.contains(name) {
                    continue; // closed by the person (or agent) using it
                }
                return Err(ScreenError::AppDied {
                    program: name.clone(),
                    detail: format!("exited ({st})"),
                });
            }
        }
        Ok(())
    }

    /// Reads the display and encodes it as PNG.
    pub fn screenshot(&mut self) -> Result<Shot, ScreenError> {
        self.check()?;
        capture::encode(&capture::grab(
            &self.conn,
            self.root,
            self.width,
            self.height,
        )?)
    }

    /// The pre-rollout screenshot gate: waits (up to `timeout`) until the display shows something
    /// other than a blank or uniform screen and two reads 50 ms apart agree (the first paint is
    /// over), then returns that screenshot. A screen still blank at the deadline is
    /// [`ScreenError::Blank`]; one that never settles is returned as last seen.
    pub fn wait_drawn(&mut self, timeout: Duration) -> Result<Shot, ScreenError> {
        let deadline = Instant::now() + timeout;
        let mut previous: Option<capture::Frame> = None;
        loop {
            self.check()?;
            let frame = capture::grab(&self.conn, self.root, self.width, self.height)?;
            let drawn = !capture::is_blank(&frame.rgb);
            let settled = previous.as_ref().is_some_and(|p| p.rgb == frame.rgb);
            if drawn && (settled || Instant::now() >= deadline) {
                return capture::encode(&frame);
            }
            if Instant::now() >= deadline {
                return Err(ScreenError::Blank(format!(
                    "still uniform after {} ms",
                    timeout.as_millis()
                )));
            }
            previous = drawn.then_some(frame);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// One read of the display, as a screenshot, when it shows something other than a blank or
    /// uniform screen (`None` otherwise): the ready gate's last step once the screen is known to
    /// be quiet, where [`Screen::wait_drawn`] would read it twice more.
    pub fn drawn_now(&mut self) -> Result<Option<Shot>, ScreenError> {
        self.check()?;
        let frame = capture::grab(&self.conn, self.root, self.width, self.height)?;
        if capture::is_blank(&frame.rgb) {
            return Ok(None);
        }
        capture::encode(&frame).map(Some)
    }

    /// Whether the rectangle `(x, y, w, h)` of the display (a window's client area) shows drawn
    /// contents: at least [`DRAWN_COLOURS`] colours (anti-aliased text, icons). A window that has
    /// mapped but not drawn yet shows its background and a separator line or two.
    pub fn area_drawn(&mut self, (x, y, w, h): super::Area) -> Result<bool, ScreenError> {
        self.check()?;
        let frame = capture::grab(&self.conn, self.root, self.width, self.height)?;
        let clamp = |v: i32, max: u32| usize::try_from(v.max(0)).unwrap_or(0).min(max as usize);
        let (x0, x1) = (clamp(x, frame.width), clamp(x + w, frame.width));
        let (y0, y1) = (clamp(y, frame.height), clamp(y + h, frame.height));
        let stride = frame.width as usize * 3;
        let mut seen = std::collections::HashSet::new();
        for row in y0..y1 {
            let line = frame.rgb.get(row * stride + x0 * 3..row * stride + x1 * 3);
            for px in line.unwrap_or_default().chunks_exact(3) {
                if seen.insert([px[0], px[1], px[2]]) && seen.len() >= DRAWN_COLOURS {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// How [`Screen::settle`] waits on this screen.
    pub fn settle_config(&self) -> Settle {
        self.settle
    }

    /// Waits until the display has settled after an action (no damage for the configured quiet
    /// period, bounded), so the next screenshot shows what the action did.
    pub fn settle(&mut self) -> Result<Settled, ScreenError> {
        self.settle_with(self.settle)
    }

    /// [`Screen::settle`] with explicit bounds: DAMAGE of the root window when the server has it,
    /// else successive captures compared.
    pub fn settle_with(&mut self, s: Settle) -> Result<Settled, ScreenError> {
        self.check()?;
        if let Some(watch) = &self.damage {
            return watch.wait(s);
        }
        self.settle_by_capture(s)
    }

    /// The fallback of [`Screen::settle_with`] (also for servers without DAMAGE): raw frames
    /// compared until one has stayed for the quiet period.
    pub fn settle_by_capture(&mut self, s: Settle) -> Result<Settled, ScreenError> {
        settle::settle_by_compare(s, || {
            capture::grab(&self.conn, self.root, self.width, self.height).map(|f| f.rgb)
        })
    }

    /// Marks the start of an action for [`Settle::expect_change`] (what was drawn before it
    /// does not count); [`Screen::act`] does it.
    pub(super) fn mark_damage(&mut self) -> Result<(), ScreenError> {
        match &self.damage {
            Some(watch) => watch.mark(),
            None => Ok(()),
        }
    }

    /// Whether this screen watches damage (the X server has DAMAGE).
    pub fn watches_damage(&self) -> bool {
        self.damage.is_some()
    }

    /// Sends the queued requests and waits until the X server has processed them.
    pub(super) fn sync(&self) -> Result<(), ScreenError> {
        self.conn
            .get_input_focus()
            .map_err(|e| ScreenError::DisplayDied(e.to_string()))?
            .reply()
            .map_err(|e| ScreenError::DisplayDied(e.to_string()))?;
        Ok(())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let killed = procs::kill_members(self.marker.path());
        procs::kill_group(self.pgid);
        let _ = self.xvfb.wait();
        for (_, child) in &mut self.apps {
            let _ = child.wait();
        }
        let mut gone = killed;
        gone.push(self.pgid);
        procs::remove_display_files(self.display, &gone);
    }
}
