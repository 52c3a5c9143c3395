//! Whether a program `/setup/launch` is asked to start exists where the desktop's programs run.
//! OSWorld's server starts it with `subprocess.Popen(command)`, which fails at once for a
//! program that is not there (`FileNotFoundError`) or cannot be executed (`PermissionError`);
//! the handler answers 500 with `{"status": "error", "message": str(e)}`. Here programs start
//! inside their bubblewrap view of the machine (`screen::desktop_command`), where starting the
//! sandbox always succeeds; so the program is looked up first, as `execvp` inside that view
//! would find it, and a miss is answered with Python's own message.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::command::GUEST_HOME;

/// Top-level directories of the host the desktop's programs see (read-only binds).
const BOUND: [&str; 8] = [
    "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The `PATH` a program is searched on when the environment names none (Python's
/// `os.defpath` with the usual local directories).
pub const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// The host file behind a path inside the desktop's view (`/home/user/…` is the environment's
/// home), or `None` when nothing is there (its private `/tmp`, unbound directories).
pub fn host_of(inside: &str, home: &Path) -> Option<PathBuf> {
    if inside.split('/').any(|c| c == "..") {
        return None;
    }
    if inside == GUEST_HOME {
        return Some(home.to_path_buf());
    }
    if let Some(rel) = inside.strip_prefix(&format!("{GUEST_HOME}/")) {
        return Some(home.join(rel));
    }
    BOUND
        .iter()
        .any(|b| inside == *b || inside.starts_with(&format!("{b}/")))
        .then(|| PathBuf::from(inside))
}

fn check(host: &Path, shown: &str) -> Result<(), String> {
    let meta = std::fs::metadata(host)
        .map_err(|_| format!("[Errno 2] No such file or directory: '{shown}'"))?;
    if meta.is_dir() || meta.permissions().mode() & 0o111 == 0 {
        return Err(format!("[Errno 13] Permission denied: '{shown}'"));
    }
    Ok(())
}

/// Finds `program` as `execvp` would in the desktop's view: a name with a `/` as that path
/// (relative ones from the home), a bare name on `path` (colon-separated). The error is the
/// message Python's `Popen` raises.
pub fn find_program(program: &str, home: &Path, path: &str) -> Result<PathBuf, String> {
    if program.contains('/') {
        let inside = if program.starts_with('/') {
            program.to_string()
        } else {
            format!("{GUEST_HOME}/{program}")
        };
        let host = host_of(&inside, home)
            .ok_or_else(|| format!("[Errno 2] No such file or directory: '{program}'"))?;
        check(&host, program)?;
        return Ok(host);
    }
    let mut denied = None;
    for dir in path.split(':').filter(|d| d.starts_with('/')) {
        let Some(host) = host_of(&format!("{}/{program}", dir.trim_end_matches('/')), home) else {
            continue;
        };
        match check(&host, program) {
            Ok(()) => return Ok(host),
            Err(e) if host.exists() => denied = Some(e),
            Err(_) => {}
        }
    }
    Err(denied.unwrap_or_else(|| format!("[Errno 2] No such file or directory: '{program}'")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_as_the_desktop_sees_them_and_misses_read_like_python() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        let sh = find_program("sh", h, DEFAULT_PATH).unwrap();
        assert!(sh.ends_with("sh") && sh.starts_with("/"), "{sh:?}");
        assert_eq!(
            find_program("no-such-program-here", h, DEFAULT_PATH).unwrap_err(),
            "[Errno 2] No such file or directory: 'no-such-program-here'"
        );
        // The host's /tmp, /opt or /root are not the desktop's.
        let outside = tempfile::NamedTempFile::new().unwrap();
        let p = outside.path().display().to_string();
        assert_eq!(
            find_program(&p, h, DEFAULT_PATH).unwrap_err(),
            format!("[Errno 2] No such file or directory: '{p}'")
        );
        // In the home: found when executable, refused like Python when not.
        std::fs::write(h.join("run.sh"), "#!/bin/sh\n").unwrap();
        assert_eq!(
            find_program("/home/user/run.sh", h, DEFAULT_PATH).unwrap_err(),
            "[Errno 13] Permission denied: '/home/user/run.sh'"
        );
        std::fs::set_permissions(h.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(
            find_program("/home/user/run.sh", h, DEFAULT_PATH).unwrap(),
            h.join("run.sh")
        );
        assert_eq!(
            find_program("run.sh", h, DEFAULT_PATH).unwrap_err(),
            "[Errno 2] No such file or directory: 'run.sh'"
        );
        assert!(host_of("/home/user/../../etc/shadow", h).is_none());
    }
}
