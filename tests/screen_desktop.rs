//! The files desktop on a real Xvfb (Debian openbox, pcmanfm, xterm, mousepad; .ci/setup): its
//! home is the environment's home at `/home/user`, its windows sit where the layout says, its
//! terminal takes typed commands through XTEST, using it leaves nothing else in the home, a dying
//! program is a typed infrastructure failure, and dropping the screen kills every program.

use crate::screen_support;

use std::collections::BTreeSet;
use std::path::Path;

use screen_support::{eventually, marker_processes};
use tuplewright::engine::env::files::provision_home;
use tuplewright::engine::screen::{
    is_blank, ComputerAction as A, DesktopLayout, DesktopSpec, DesktopWindows, Screen,
    ScreenConfig, ScreenError, ScreenSize,
};

/// A seeded home in a directory the desktop's uid can traverse.
fn home() -> (tempfile::TempDir, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let home = dir.path().join("home");
    provision_home(&home, None).unwrap();
    (dir, home)
}

fn files_of(home: &Path) -> BTreeSet<String> {
    walkdir::WalkDir::new(home)
        .into_iter()
        .flatten()
        .filter(|e| !e.file_type().is_dir())
        .map(|e| e.path().strip_prefix(home).unwrap().display().to_string())
        .collect()
}

fn desktop(cfg: &ScreenConfig, home: &Path) -> Result<Screen, ScreenError> {
    let mut s = Screen::start(cfg, ScreenSize::default())?;
    s.open_desktop(
        cfg,
        &DesktopSpec {
            home: home.to_path_buf(),
        },
    )?;
    Ok(s)
}

/// Clicks the middle of the desktop's terminal, types `command` and presses Return. Keys go to
/// the window that has the focus, and the window manager moves it on the click in its own time
/// (on a loaded machine, after keys sent at once: they reached the file manager, only Return the
/// terminal), so typing starts once the terminal is the active window, as a person would wait.
fn run_in_terminal(s: &mut Screen, command: &str) {
    let (x, y, w, h) = DesktopLayout::for_size(1280, 800).terminal;
    s.act(&A::LeftClick {
        x: x + w / 2,
        y: y + h / 2,
    })
    .unwrap();
    let windows = DesktopWindows::connect(&s.display_name()).unwrap();
    assert!(
        eventually(30, || windows
            .list()
            .is_ok_and(|l| l.iter().any(|w| w.class == "XTerm" && w.focused))),
        "the click gave the terminal the focus: {:?}",
        windows.list()
    );
    s.act(&A::Type {
        text: command.into(),
    })
    .unwrap();
    s.act(&A::Key {
        key: "Return".into(),
    })
    .unwrap();
}

#[test]
fn the_files_desktop_shows_the_home_and_its_terminal_writes_there() {
    let (_dir, home) = home();
    let before = files_of(&home);
    let cfg = ScreenConfig::default();
    let mut s = desktop(&cfg, &home).expect("the desktop comes up");
    let shot = s.screenshot().unwrap();
    let img = image::load_from_memory(&shot.png).unwrap().to_rgb8();
    assert!(!is_blank(img.as_raw()));
    if let Ok(out) = std::env::var("TW_DESKTOP_SHOT") {
        std::fs::write(out, &shot.png).unwrap();
    }
    let layout = DesktopLayout::for_size(1280, 800);
    let windows = DesktopWindows::connect(&s.display_name()).unwrap();
    let list = windows.list().unwrap();
    // Each window covers most of its half (sizes snap to character cells and the theme's frame).
    let placed = |class: &str, (rx, ry, rw, rh): (i32, i32, i32, i32)| {
        list.iter().any(|w| {
            let (x, y, ww, wh) = w.area;
            w.class == class
                && (x - rx).abs() <= 8
                && (y - ry).abs() <= 12
                && ww * 10 >= rw * 9
                && wh * 10 >= rh * 9
        })
    };
    assert!(placed("XTerm", layout.terminal), "{list:?}");
    assert!(placed("Pcmanfm", layout.file_manager), "{list:?}");
    // The file manager shows the environment's home as /home/user.
    assert!(
        list.iter()
            .any(|w| w.class == "Pcmanfm" && w.title.contains("user")),
        "{list:?}"
    );
    run_in_terminal(
        &mut s,
        "echo \"$HOME $(id -u)\" > /home/user/Desktop/from-terminal.txt",
    );
    let out = home.join("Desktop/from-terminal.txt");
    assert!(
        eventually(30, || std::fs::read_to_string(&out)
            .is_ok_and(|t| t.starts_with("/home/user "))),
        "the terminal's command wrote into the environment's home"
    );
    // Nothing else appeared in the home: settings, caches and history stay out of it.
    let mut expected = before;
    expected.insert("Desktop/from-terminal.txt".into());
    assert_eq!(files_of(&home), expected);
    let marker = s.work_dir().to_path_buf();
    assert!(
        marker_processes(&marker) >= 4,
        "Xvfb and the desktop's programs"
    );
    drop(s);
    assert!(eventually(20, || marker_processes(&marker) == 0));
}

#[test]
fn a_desktop_program_that_cannot_run_is_a_typed_infrastructure_failure() {
    let (_dir, home) = home();
    let mut cfg = ScreenConfig::default();
    cfg.desktop.pcmanfm = "/nonexistent/pcmanfm".into();
    match desktop(&cfg, &home) {
        Err(ScreenError::AppDied { program, detail }) => {
            assert_eq!(program, "pcmanfm");
            assert!(detail.contains("nonexistent"), "{detail}");
        }
        Err(e) => panic!("expected AppDied, got {e}"),
        Ok(_) => panic!("a desktop without its file manager must not come up"),
    }
}

#[test]
fn a_command_typed_in_the_desktops_terminal_runs_under_the_desktop_limits() {
    let (_dir, home) = home();
    let mut cfg = ScreenConfig::default();
    cfg.desktop.limits.file_size_bytes = 1 << 20;
    cfg.desktop.limits.open_files = 200;
    let mut s = desktop(&cfg, &home).expect("the desktop comes up");
    // A 4 MiB write stops at the 1 MiB file-size limit; the limits are read from the kernel.
    run_in_terminal(
        &mut s,
        "head -c 4194304 /dev/zero > ~/big.bin; cat /proc/self/limits > ~/limits.txt",
    );
    let limits = home.join("limits.txt");
    assert!(
        eventually(30, || std::fs::read_to_string(&limits)
            .is_ok_and(|t| t.contains("Max open files"))),
        "the terminal's command ran"
    );
    let text = std::fs::read_to_string(&limits).unwrap();
    let row = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .map(|l| {
                l.split_whitespace()
                    .skip(name.split(' ').count())
                    .take(2)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    assert_eq!(row("Max file size"), ["1048576", "1048576"], "{text}");
    assert_eq!(row("Max open files"), ["200", "200"], "{text}");
    assert_eq!(row("Max core file size"), ["0", "0"], "{text}");
    assert_eq!(row("Max data size"), ["4294967296", "4294967296"], "{text}");
    assert_eq!(row("Max cpu time"), ["3600", "3601"], "{text}");
    assert_eq!(
        std::fs::metadata(home.join("big.bin")).unwrap().len(),
        1 << 20,
        "the write stopped at the limit"
    );
}
