//! The files domain's desktop: openbox (window manager), pcmanfm (file manager), xterm (terminal)
//! and mousepad (text editor, opened from either), all Debian packages, drawing on the screen.
//!
//! Every desktop program runs in a bubblewrap namespace of its own, started the way Chromium is
//! (the screen's app uid, its process group, killed with it): the environment's home is bound at
//! `/home/user` — the same directory, at the same path, that the scripts and the reward see — and
//! is the only writable host directory; the system is read-only, `/tmp` private, the network
//! absent, and only this screen's X socket is visible. The programs keep their own settings,
//! caches and shell history out of the home (`XDG_*` and `HISTFILE` point into the private
//! `/tmp`), so using the desktop changes nothing in the home but what the person or agent does.
//!
//! Layout (known to planners, see [`DesktopLayout`]): the file manager fills the top half, the
//! terminal the bottom half, the editor opens over the top half.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, Window};
use x11rb::rust_connection::RustConnection;

use super::{ScreenConfig, ScreenError, Shot};

/// The desktop's programs (`[screen.desktop]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DesktopPrograms {
    /// bubblewrap, which gives the programs their view of the machine.
    pub bwrap: PathBuf,
    /// The window manager.
    pub openbox: PathBuf,
    /// The file manager.
    pub pcmanfm: PathBuf,
    /// The terminal.
    pub xterm: PathBuf,
    /// The text editor.
    pub mousepad: PathBuf,
    /// Limits of every desktop program (`[screen.desktop.limits]`).
    pub limits: super::DesktopLimits,
}

impl Default for DesktopPrograms {
    fn default() -> Self {
        Self {
            bwrap: "bwrap".into(),
            openbox: "openbox".into(),
            pcmanfm: "pcmanfm".into(),
            xterm: "xterm".into(),
            mousepad: "mousepad".into(),
            limits: super::DesktopLimits::default(),
        }
    }
}

/// What a desktop shows.
#[derive(Debug, Clone)]
pub struct DesktopSpec {
    /// The environment's home on the host (shown at `/home/user`).
    pub home: PathBuf,
}

/// How [`super::Screen::start_desktop`] sets the desktop up (the default: the files desktop
/// alone on the whole screen).
#[derive(Debug, Clone, Default)]
pub(super) struct DeskPlan {
    /// Pixels kept free at the top (a taskbar's strip).
    pub top: i32,
    /// Window classes placed over the whole area below `top` (a combined screen's browsers).
    pub apps: Vec<String>,
    /// Only the window manager: no file manager, no terminal (a screen without the files app).
    pub no_programs: bool,
}

/// A rectangle in screen pixels (left, top, width, height).
pub type Area = (i32, i32, i32, i32);

/// Where the desktop puts its windows on a screen of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DesktopLayout {
    /// The file manager's window (client area).
    pub file_manager: Area,
    /// The terminal's window (client area).
    pub terminal: Area,
}

/// Height of openbox's title bar and top border in the default theme, pixels.
const TITLE: i32 = 18;

impl DesktopLayout {
    /// The layout on a `width`×`height` screen.
    pub fn for_size(width: u32, height: u32) -> Self {
        Self::below(width, height, 0)
    }

    /// The layout in the part of a `width`×`height` screen below `top` (a taskbar's strip).
    pub fn below(width: u32, height: u32, top: i32) -> Self {
        let (w, h) = (width as i32, height as i32 - top);
        let half = h / 2;
        DesktopLayout {
            file_manager: (0, top + TITLE, w, half - 2 * TITLE),
            terminal: (0, top + half + TITLE, w, h - half - TITLE),
        }
    }

    /// The client area of an app window filling the screen below `top` (under its title bar).
    pub fn app_window(width: u32, height: u32, top: i32) -> Area {
        let (w, h) = (width as i32, height as i32);
        (0, top + TITLE, w, h - top - TITLE)
    }
}

/// One window the window manager manages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesktopWindow {
    /// The X window id (for [`DesktopWindows::activate`] and [`DesktopWindows::close`]).
    pub id: u32,
    /// WM_CLASS class (`XTerm`, `Pcmanfm`, `Mousepad`).
    pub class: String,
    /// The title (`_NET_WM_NAME`, else `WM_NAME`).
    pub title: String,
    /// Client area on the screen.
    pub area: Area,
    /// Whether it has the input focus (`_NET_ACTIVE_WINDOW`).
    pub focused: bool,
}

/// A connection that reads the managed windows of a display (the desktop's own "accessibility
/// tree": classes, titles and places of windows).
pub struct DesktopWindows {
    conn: RustConnection,
    root: Window,
}

fn died(e: impl std::fmt::Display) -> ScreenError {
    ScreenError::DisplayDied(e.to_string())
}

impl DesktopWindows {
    /// Connects to `display` (e.g. `:3`).
    pub fn connect(display: &str) -> Result<Self, ScreenError> {
        let (conn, n) = x11rb::connect(Some(display)).map_err(died)?;
        let root = conn.setup().roots[n].root;
        Ok(DesktopWindows { conn, root })
    }

    pub(super) fn atom(&self, name: &str) -> Result<u32, ScreenError> {
        Ok(self
            .conn
            .intern_atom(false, name.as_bytes())
            .map_err(died)?
            .reply()
            .map_err(died)?
            .atom)
    }

    pub(super) fn property(&self, w: Window, prop: u32, ty: u32) -> Result<Vec<u8>, ScreenError> {
        let reply = self
            .conn
            .get_property(false, w, prop, ty, 0, 1 << 16)
            .map_err(died)?
            .reply();
        // A window that vanished between the list and this read has no properties.
        Ok(reply.map(|r| r.value).unwrap_or_default())
    }

    /// Whether a window manager runs (`_NET_SUPPORTING_WM_CHECK` on the root).
    pub fn manager_running(&self) -> Result<bool, ScreenError> {
        let check = self.atom("_NET_SUPPORTING_WM_CHECK")?;
        Ok(!self
            .property(self.root, check, AtomEnum::WINDOW.into())?
            .is_empty())
    }

    /// Every managed window (`_NET_CLIENT_LIST`), in mapping order.
    pub fn list(&self) -> Result<Vec<DesktopWindow>, ScreenError> {
        let clients = self.atom("_NET_CLIENT_LIST")?;
        let net_name = self.atom("_NET_WM_NAME")?;
        let utf8 = self.atom("UTF8_STRING")?;
        let raw = self.property(self.root, clients, AtomEnum::WINDOW.into())?;
        let active = self.atom("_NET_ACTIVE_WINDOW")?;
        let active = self.property(self.root, active, AtomEnum::WINDOW.into())?;
        let active = (active.len() >= 4)
            .then(|| u32::from_le_bytes([active[0], active[1], active[2], active[3]]));
        let mut out = Vec::new();
        for id in raw.chunks_exact(4) {
            let w = u32::from_le_bytes([id[0], id[1], id[2], id[3]]);
            let class = self.property(w, AtomEnum::WM_CLASS.into(), AtomEnum::STRING.into())?;
            let class = class
                .split(|b| *b == 0)
                .nth(1)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .unwrap_or_default();
            let mut title = self.property(w, net_name, utf8)?;
            if title.is_empty() {
                title = self.property(w, AtomEnum::WM_NAME.into(), AtomEnum::STRING.into())?;
            }
            let Ok(cookie) = self.conn.get_geometry(w) else {
                continue;
            };
            let Ok(g) = cookie.reply() else { continue };
            let Ok(t) = self
                .conn
                .translate_coordinates(w, self.root, 0, 0)
                .map_err(died)?
                .reply()
            else {
                continue;
            };
            out.push(DesktopWindow {
                id: w,
                class,
                title: String::from_utf8_lossy(&title).into_owned(),
                area: (
                    t.dst_x.into(),
                    t.dst_y.into(),
                    g.width.into(),
                    g.height.into(),
                ),
                focused: active == Some(w),
            });
        }
        Ok(out)
    }
}

impl DesktopWindows {
    fn ask_manager(
        &self,
        window: Window,
        message: &str,
        data: [u32; 5],
    ) -> Result<(), ScreenError> {
        use x11rb::protocol::xproto::{ClientMessageEvent, EventMask};
        let kind = self.atom(message)?;
        let event = ClientMessageEvent::new(32, window, kind, data);
        self.conn
            .send_event(
                false,
                self.root,
                EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY,
                event,
            )
            .map_err(died)?;
        self.conn.flush().map_err(died)?;
        self.conn
            .get_input_focus()
            .map_err(died)?
            .reply()
            .map_err(died)?;
        Ok(())
    }

    /// Asks the window manager to raise and focus window `id` (`_NET_ACTIVE_WINDOW`, as a pager).
    pub fn activate(&self, id: u32) -> Result<(), ScreenError> {
        self.ask_manager(id, "_NET_ACTIVE_WINDOW", [2, 0, 0, 0, 0])
    }

    /// Asks the window manager to put window `id` on top of the others without focusing it
    /// (`_NET_RESTACK_WINDOW`, source pager, no sibling, `Above`).
    pub fn raise_above(&self, id: u32) -> Result<(), ScreenError> {
        self.ask_manager(id, "_NET_RESTACK_WINDOW", [2, 0, 0, 0, 0])
    }

    /// Asks the window manager to close window `id` (`_NET_CLOSE_WINDOW`, as a pager).
    pub fn close(&self, id: u32) -> Result<(), ScreenError> {
        self.ask_manager(id, "_NET_CLOSE_WINDOW", [0, 2, 0, 0, 0])
    }
}

/// Mouse bindings: a click focuses and raises the window under it, a title bar drags the window.
/// No close/iconify buttons (the title shows the icon and name only): closing a program of the
/// desktop is not an action the tasks need, and a program that exits is an infrastructure failure.
const MOUSE: &str = "<mouse><dragThreshold>4</dragThreshold><doubleClickTime>400</doubleClickTime>\
    <context name=\"Client\">\
    <mousebind button=\"Left\" action=\"Press\"><action name=\"Focus\"/><action name=\"Raise\"/></mousebind>\
    <mousebind button=\"Middle\" action=\"Press\"><action name=\"Focus\"/><action name=\"Raise\"/></mousebind>\
    <mousebind button=\"Right\" action=\"Press\"><action name=\"Focus\"/><action name=\"Raise\"/></mousebind>\
    </context><context name=\"Titlebar\">\
    <mousebind button=\"Left\" action=\"Press\"><action name=\"Focus\"/><action name=\"Raise\"/></mousebind>\
    <mousebind button=\"Left\" action=\"Drag\"><action name=\"Move\"/></mousebind>\
    </context></mouse>";

/// Openbox's keyboard bindings: Alt+Tab focuses and raises the most recently used other window
/// (no switcher popup), as a person switches between two applications on one screen.
const KEYBOARD: &str = "<keyboard><keybind key=\"A-Tab\"><action name=\"NextWindow\">\
    <dialog>no</dialog><interactive>no</interactive><finalactions><action name=\"Focus\"/><action name=\"Raise\"/>\
    <action name=\"Unshade\"/></finalactions></action></keybind></keyboard>";

/// The openbox configuration: one desktop, click-to-focus, and the layout's placement rules;
/// windows of the `apps` classes (a combined screen's browsers) fill `app_area`.
fn openbox_rc(layout: &DesktopLayout, apps: &[String], app_area: Area) -> String {
    let rule = |class: &str, (x, y, w, h): Area, focus: &str| {
        format!(
            "<application class=\"{class}\" type=\"normal\"><decor>yes</decor>\
             <position force=\"yes\"><x>{x}</x><y>{}</y></position>\
             <size><width>{w}</width><height>{h}</height></size><focus>{focus}</focus>\
             </application>",
            y - TITLE
        )
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <openbox_config xmlns=\"http://openbox.org/3.4/rc\">\
         <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>\
         <placement><policy>Smart</policy></placement>\
         <desktops><number>1</number></desktops>\
         <theme><titleLayout>NL</titleLayout></theme>{MOUSE}{KEYBOARD}\
         <applications>{}{}{}{}</applications></openbox_config>\n",
        rule("Pcmanfm", layout.file_manager, "no"),
        rule("XTerm", layout.terminal, "yes"),
        rule("Mousepad", layout.file_manager, "yes"),
        apps.iter()
            .map(|class| rule(class, app_area, "yes"))
            .collect::<String>(),
    )
}

/// `bwrap … -- program args`: the desktop programs' view of the machine (see the module doc).
pub fn desktop_command(
    cfg: &ScreenConfig,
    home: &Path,
    display: u32,
    uid: u32,
    binds: &[(&Path, &str)],
    program: &Path,
    args: &[&str],
) -> Command {
    let view = DesktopView {
        home,
        display,
        uid,
        binds,
        session: None,
        env: &[],
    };
    desktop_command_in(cfg, &view, program, args)
}

/// How a desktop program sees the machine: [`desktop_command`]'s view, optionally with a
/// shared session directory as `/tmp` (a desktop application's D-Bus, AT-SPI bus and profile,
/// shared with the accessibility reader) and extra environment variables.
#[derive(Debug, Clone, Copy)]
pub struct DesktopView<'a> {
    /// The environment's home (bound writable at `/home/user`).
    pub home: &'a Path,
    /// The display number (only its X socket is visible).
    pub display: u32,
    /// The uid the program runs as.
    pub uid: u32,
    /// Read-only binds (host path, path inside).
    pub binds: &'a [(&'a Path, &'a str)],
    /// A host directory bound writable at `/tmp` instead of a private tmpfs; with it the
    /// program talks to the session bus at `/tmp/bus` and may load the accessibility bridge.
    pub session: Option<&'a Path>,
    /// Extra environment variables.
    pub env: &'a [(String, String)],
}

/// `bwrap … -- program args` for `view` (see [`DesktopView`]).
pub fn desktop_command_in(
    cfg: &ScreenConfig,
    view: &DesktopView<'_>,
    program: &Path,
    args: &[&str],
) -> Command {
    let mut cmd = Command::new(&cfg.desktop.bwrap);
    let uid = view.uid.to_string();
    cmd.args([
        "--unshare-all",
        "--unshare-user",
        "--uid",
        &uid,
        "--gid",
        &uid,
    ]);
    cmd.args(["--die-with-parent", "--hostname", "desktop"]);
    cmd.args(["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]);
    for top in ["bin", "sbin", "lib", "lib32", "lib64", "libx32"] {
        let host = Path::new("/").join(top);
        match std::fs::read_link(&host) {
            Ok(target) => {
                cmd.arg("--symlink").arg(target).arg(format!("/{top}"));
            }
            Err(_) if host.is_dir() => {
                cmd.arg("--ro-bind").arg(&host).arg(format!("/{top}"));
            }
            Err(_) => {}
        }
    }
    let socket = format!("/tmp/.X11-unix/X{}", view.display);
    cmd.args(["--dev", "/dev", "--proc", "/proc"]);
    match view.session {
        Some(dir) => cmd.arg("--bind").arg(dir).arg("/tmp"),
        None => cmd.args(["--tmpfs", "/tmp"]),
    };
    cmd.args(["--ro-bind", &socket, &socket])
        .arg("--bind")
        .arg(view.home)
        .arg("/home/user")
        .args(["--chdir", "/home/user", "--setenv", "HOME", "/home/user"])
        .args(["--setenv", "USER", "user", "--setenv", "SHELL", "/bin/bash"])
        .args(["--setenv", "XDG_RUNTIME_DIR", "/tmp"])
        .args(["--setenv", "XDG_CONFIG_HOME", "/tmp/.config"])
        .args(["--setenv", "XDG_CACHE_HOME", "/tmp/.cache"])
        .args(["--setenv", "XDG_DATA_HOME", "/tmp/.local/share"])
        .args(["--setenv", "XDG_STATE_HOME", "/tmp/.local/state"])
        .args(["--setenv", "HISTFILE", "/dev/null"])
        .args(["--setenv", "LANG", "C.UTF-8", "--setenv", "TZ", "UTC"])
        .args(["--setenv", "GTK_USE_PORTAL", "0"]);
    if view.session.is_some() {
        cmd.args(["--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/bus"]);
    } else {
        cmd.args(["--setenv", "NO_AT_BRIDGE", "1"]);
    }
    for (k, v) in view.env {
        cmd.arg("--setenv").arg(k).arg(v);
    }
    for (host, inside) in view.binds {
        cmd.arg("--ro-bind").arg(host).arg(inside);
    }
    cmd.arg("--").arg(program).args(args);
    cfg.desktop.limits.apply(&mut cmd);
    cmd
}

impl super::Screen {
    /// Starts the desktop on this screen with `spec.home` as `/home/user` and waits until the
    /// window manager manages the file manager and the terminal and the screen is drawn (the
    /// pre-rollout gate). A program that dies is [`ScreenError::AppDied`] with its last log lines.
    pub fn open_desktop(
        &mut self,
        cfg: &ScreenConfig,
        spec: &DesktopSpec,
    ) -> Result<Shot, ScreenError> {
        let deadline = Instant::now() + Duration::from_millis(cfg.ready_timeout_ms);
        self.start_desktop(cfg, spec, &DeskPlan::default(), deadline)?;
        let left = deadline.saturating_duration_since(Instant::now());
        self.wait_drawn(left.max(Duration::from_millis(500)))
    }

    /// Starts openbox and (when `plan.programs`) the file manager and the terminal, and waits
    /// until they are managed; no gate.
    pub(super) fn start_desktop(
        &mut self,
        cfg: &ScreenConfig,
        spec: &DesktopSpec,
        plan: &DeskPlan,
        deadline: Instant,
    ) -> Result<(), ScreenError> {
        // The home becomes the app uid's, as it becomes each script's (the reward takes it back).
        // SAFETY: geteuid has no preconditions.
        let uid = self.app_uid.unwrap_or(unsafe { libc::geteuid() });
        if self.app_uid.is_some() {
            let mut notes = Vec::new();
            crate::sandbox::hand_home_to(&spec.home, uid, &mut notes)
                .map_err(|e| ScreenError::Io(format!("handing the home to the desktop: {e}")))?;
        }
        let (w, h) = (self.width.into(), self.height.into());
        let layout = DesktopLayout::below(w, h, plan.top);
        let rc_dir = self.private_dir("openbox")?;
        let rc = rc_dir.join("rc.xml");
        let app_area = DesktopLayout::app_window(w, h, plan.top);
        std::fs::write(&rc, openbox_rc(&layout, &plan.apps, app_area))
            .map_err(|e| ScreenError::Io(format!("writing {}: {e}", rc.display())))?;
        let windows = DesktopWindows::connect(&self.display_name())?;
        let d = cfg.desktop.clone();
        let (home, display) = (spec.home.as_path(), self.display);
        let wm = desktop_command(
            cfg,
            home,
            display,
            uid,
            &[(&rc_dir, "/tmp/openbox")],
            &d.openbox,
            &["--config-file", "/tmp/openbox/rc.xml"],
        );
        self.launch("openbox", wm)?;
        self.wait_for(deadline, "openbox", || windows.manager_running())?;
        if plan.no_programs {
            return Ok(());
        }
        let fm = desktop_command(cfg, home, display, uid, &[], &d.pcmanfm, &["/home/user"]);
        self.launch("pcmanfm", fm)?;
        let term = desktop_command(
            cfg,
            home,
            display,
            uid,
            &[],
            &d.xterm,
            &[
                "-fa",
                "DejaVu Sans Mono",
                "-fs",
                "11",
                "-bg",
                "white",
                "-fg",
                "black",
                "-title",
                "Terminal",
                "-e",
                "/bin/bash",
                "--noprofile",
                "--norc",
            ],
        );
        self.launch("xterm", term)?;
        self.wait_for(deadline, "the file manager and the terminal", || {
            let classes: Vec<String> = windows.list()?.into_iter().map(|w| w.class).collect();
            Ok(["Pcmanfm", "XTerm"]
                .iter()
                .all(|c| classes.iter().any(|k| k == c)))
        })
    }

    /// Polls `ready` every 50 ms until it holds; a dead program or the deadline is an error.
    pub(crate) fn wait_for(
        &mut self,
        deadline: Instant,
        what: &str,
        mut ready: impl FnMut() -> Result<bool, ScreenError>,
    ) -> Result<(), ScreenError> {
        loop {
            if let Err(e @ ScreenError::AppDied { .. }) = self.check_alive() {
                return Err(e);
            }
            if ready()? {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(ScreenError::Blank(format!("{what} did not appear in time")));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `Ok` while the screen's programs run; one that exited is [`ScreenError::AppDied`]
    /// quoting its last output lines (other failures of the check pass through).
    pub(super) fn check_alive(&mut self) -> Result<(), ScreenError> {
        match self.check() {
            Err(ScreenError::AppDied { program, detail }) => Err(ScreenError::AppDied {
                detail: format!("{detail}: {}", self.log_tail(&program, 3)),
                program,
            }),
            other => other,
        }
    }
}
