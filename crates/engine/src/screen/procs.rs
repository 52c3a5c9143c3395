//! The process group of one screen and the sweep of what a killed run left behind.
//!
//! Every program a screen starts joins the X server's process group and carries the environment
//! variable [`MARKER_VAR`] naming the screen's marker directory
//! (`/tmp/tuplewright-screen-<owner pid>-…`), which records the display number. A later run
//! finds directories whose owner is gone and kills the processes that carry the marker and the
//! members of their groups ([`screen_processes`]).

use std::path::{Path, PathBuf};

/// Prefix of a screen's marker directory; the owning process id follows it.
pub const SCREEN_PREFIX: &str = "tuplewright-screen-";
/// Environment variable naming the marker directory in every process of a screen.
pub const MARKER_VAR: &str = "TUPLEWRIGHT_SCREEN";

/// Whether a process exists (signal 0 sends nothing).
pub(super) fn alive(pid: i32) -> bool {
    // SAFETY: kill with signal 0 only asks whether the process exists.
    let exists = unsafe { libc::kill(pid, 0) == 0 };
    exists || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// The fields of a `/proc/PID/stat` line after the command name (which may hold spaces and
/// parentheses): the state first, then ppid, pgrp, … (`None`: no name found).
pub(super) fn stat_fields(line: &str) -> Option<Vec<&str>> {
    let (_, rest) = line.rsplit_once(')')?;
    Some(rest.split_whitespace().collect())
}

/// Kills a whole process group with SIGKILL.
pub(super) fn kill_group(pgid: i32) {
    if pgid > 1 {
        // SAFETY: kill(2) on a negative pid addresses a process group we created.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Writes the display number into the marker directory (atomic rename).
pub(super) fn record(marker: &Path, display: u32) -> std::io::Result<()> {
    let tmp = marker.join("display.tmp");
    std::fs::write(&tmp, format!("{display}\n"))?;
    std::fs::rename(tmp, marker.join("display"))
}

fn read_record(marker: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(marker.join("display")).ok()?;
    text.trim().parse().ok()
}

/// One process seen in /proc: pid, process group, whether it carries the marker, zombie.
struct Proc {
    pid: i32,
    pgrp: i32,
    marked: bool,
    zombie: bool,
}

fn scan(marker: &Path) -> Vec<Proc> {
    let needle = format!("{MARKER_VAR}={}", marker.display()).into_bytes();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // After the parenthesised command name: state ppid pgrp …
        let fields = stat_fields(&stat).unwrap_or_default();
        let (Some(state), Some(pgrp)) =
            (fields.first(), fields.get(2).and_then(|g| g.parse().ok()))
        else {
            continue;
        };
        let env = std::fs::read(e.path().join("environ")).unwrap_or_default();
        out.push(Proc {
            pid,
            pgrp,
            marked: env.split(|b| *b == 0).any(|kv| kv == needle.as_slice()),
            zombie: *state == "Z",
        });
    }
    out
}

/// The live (non-zombie) processes of a screen: those carrying `marker` in their environment and
/// every member of a process group whose *leader* carries it (Chromium's zygote and renderers
/// overwrite their environment block with their process title but stay in Xvfb's group; its
/// crash handler leaves the group but keeps the environment). A group led by anything else — a
/// recycled id, a shell that started a marked program — is never included.
pub fn screen_processes(marker: &Path) -> Vec<i32> {
    let procs = scan(marker);
    let groups: Vec<i32> = procs
        .iter()
        .filter(|p| p.marked && !p.zombie && p.pid == p.pgrp)
        .map(|p| p.pgrp)
        .collect();
    procs
        .iter()
        .filter(|p| !p.zombie && (p.marked || groups.contains(&p.pgrp)))
        .map(|p| p.pid)
        .collect()
}

/// Kills every process of the screen marked `marker` (see [`screen_processes`]); returns them.
pub(super) fn kill_members(marker: &Path) -> Vec<i32> {
    let killed = screen_processes(marker);
    for pid in &killed {
        // SAFETY: kill(2) of a process proven to belong to this screen.
        unsafe {
            libc::kill(*pid, libc::SIGKILL);
        }
    }
    killed
}

/// Serialises, across tuplewright processes, an X server's start (until it has reported its
/// display, so its socket listens) with the removal of a dead server's display files.
/// Without it a new Xvfb could take a just-freed display number between the read of the stale
/// lock and the removal of the socket, and lose its socket to that removal. `None` when the lock
/// file cannot be opened or locked (the removal then goes ahead unguarded, as before).
pub(super) fn display_files_guard() -> Option<std::fs::File> {
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open("/tmp/tuplewright-x-displays.lock")
        .ok()?;
    f.lock().ok()?;
    Some(f)
}

/// Removes the X server's lock file and socket of `display` when no live server owns them: the
/// lock's owner is gone or is one of `killed` (a killed server may linger as a zombie until its
/// parent reaps it), and nothing accepts a connection on the socket. The second check matters:
/// an Xvfb started with `-displayfd` writes no lock file, so a new server that took the number of
/// a just-killed one is only visible through its listening socket. Holds [`display_files_guard`]
/// meanwhile, so no server of ours is between binding its socket and reporting its display.
pub(super) fn remove_display_files(display: u32, killed: &[i32]) {
    let _guard = display_files_guard();
    let lock = PathBuf::from(format!("/tmp/.X{display}-lock"));
    let socket = PathBuf::from(format!("/tmp/.X11-unix/X{display}"));
    let owner = std::fs::read_to_string(&lock)
        .ok()
        .and_then(|s| s.trim().parse::<i32>().ok());
    if owner.is_some_and(|o| alive(o) && !killed.contains(&o)) || socket_listens(&socket) {
        return;
    }
    let _ = std::fs::remove_file(lock);
    let _ = std::fs::remove_file(socket);
}

/// Whether a server accepts connections on the Unix socket at `path` (a dead server's socket
/// refuses them).
fn socket_listens(path: &Path) -> bool {
    std::os::unix::net::UnixStream::connect(path).is_ok()
}

/// Kills the processes and removes the marker directories of screens whose owning process is
/// gone. Screens of live processes are left alone. Returns how many screens were swept.
pub fn sweep_stale_screens(tmp: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return 0;
    };
    let mut swept = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let Some(owner) = name
            .strip_prefix(SCREEN_PREFIX)
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if alive(owner) {
            continue;
        }
        let marker = e.path();
        let display = read_record(&marker);
        let killed = kill_members(&marker);
        if let Some(display) = display {
            remove_display_files(display, &killed);
        }
        if std::fs::remove_dir_all(&marker).is_ok() {
            swept += 1;
        }
    }
    swept
}
