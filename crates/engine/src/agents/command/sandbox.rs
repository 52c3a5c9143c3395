//! The bubblewrap command line of an agent CLI run.
//!
//! Inside, the CLI sees: `/usr` (and the `/bin`, `/lib*`, `/sbin` links) read-only; a few `/etc`
//! files (linker cache, time zone, name resolution and TLS certificates when the network is on, a
//! generated `passwd`/`group`); the configured extra read-only binds; a private `/proc` (new pid
//! namespace), `/dev` and `/tmp`; a private tmpfs home `/home/agent` (with the configured
//! credential files bound read-only); and its working directory at `/home/agent/work`, the only
//! host directory it can write. With an egress allow-list the network namespace is private and
//! the only way out is the host-side CONNECT proxy (see [`super::egress`]). Nothing else of the host exists there: the other role's working
//! directory, the engine's store and `/root` are not mounted, so no path, `..`, symlink or
//! `/proc` walk can reach them.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

/// The private home inside the sandbox.
pub const IN_HOME: &str = "/home/agent";
/// The working directory inside the sandbox.
pub const IN_WORK: &str = "/home/agent/work";

/// The egress proxy socket inside the sandbox.
pub const IN_EGRESS_SOCKET: &str = "/tmp/.tw-egress/proxy.sock";
/// The egress shim inside the sandbox.
pub const IN_EGRESS_SHIM: &str = "/tmp/.tw-egress/shim.py";

/// Inputs to [`bwrap_args`].
pub struct Plan<'a> {
    /// The call's working directory on the host.
    pub workdir: &'a Path,
    /// Directory holding the generated `passwd` and `group`.
    pub etc_dir: &'a Path,
    /// uid/gid inside (and, when root, outside) the sandbox.
    pub uid: u32,
    /// Network access: the etc files for name resolution and TLS are bound when on.
    pub network: bool,
    /// `(socket, shim)` of the egress proxy: when set the network namespace stays private and the
    /// argv runs under the shim, which serves `127.0.0.1:IN_PORT` from the socket.
    pub egress: Option<(&'a Path, &'a Path)>,
    /// Host paths bound read-only at the same place.
    pub ro_binds: &'a [PathBuf],
    /// `(host file, path relative to the home)` bound read-only into the private home.
    pub home_files: &'a [(PathBuf, PathBuf)],
    /// Environment of the CLI.
    pub env: &'a [(String, String)],
    /// The expanded argv.
    pub argv: &'a [String],
}

fn push(a: &mut Vec<OsString>, items: &[&str]) {
    a.extend(items.iter().map(OsString::from));
}

fn bind(a: &mut Vec<OsString>, flag: &str, src: &Path, dst: &Path) {
    a.push(flag.into());
    a.push(src.as_os_str().to_owned());
    a.push(dst.as_os_str().to_owned());
}

/// The `/etc` files bound when present (resolved through symlinks such as systemd-resolved's).
fn etc_files(network: bool) -> Vec<&'static str> {
    let mut v = vec!["/etc/ld.so.cache", "/etc/localtime", "/etc/nsswitch.conf"];
    if network {
        v.extend([
            "/etc/resolv.conf",
            "/etc/hosts",
            "/etc/gai.conf",
            "/etc/ssl",
            "/etc/ca-certificates",
            "/etc/ca-certificates.conf",
            "/etc/pki",
        ]);
    }
    v
}

/// The arguments after the `bwrap` binary.
pub fn bwrap_args(plan: &Plan<'_>) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let uid = plan.uid.to_string();
    push(
        &mut a,
        &[
            "--unshare-all",
            "--unshare-user",
            "--uid",
            &uid,
            "--gid",
            &uid,
        ],
    );
    if plan.network && plan.egress.is_none() {
        push(&mut a, &["--share-net"]);
    }
    push(
        &mut a,
        &["--die-with-parent", "--new-session", "--hostname", "agent"],
    );
    bind(&mut a, "--ro-bind", Path::new("/usr"), Path::new("/usr"));
    for top in ["bin", "sbin", "lib", "lib32", "lib64", "libx32"] {
        let host = Path::new("/").join(top);
        match fs::read_link(&host) {
            Ok(target) => {
                a.push("--symlink".into());
                a.push(target.into_os_string());
                a.push(host.into_os_string());
            }
            Err(_) if host.is_dir() => bind(&mut a, "--ro-bind", &host, &host),
            Err(_) => {}
        }
    }
    for etc in etc_files(plan.network) {
        let src = fs::canonicalize(etc).unwrap_or_else(|_| PathBuf::from(etc));
        bind(&mut a, "--ro-bind-try", &src, Path::new(etc));
    }
    for f in ["passwd", "group"] {
        bind(
            &mut a,
            "--ro-bind",
            &plan.etc_dir.join(f),
            &Path::new("/etc").join(f),
        );
    }
    push(&mut a, &["--proc", "/proc", "--dev", "/dev"]);
    push(&mut a, &["--perms", "1777", "--tmpfs", "/tmp"]);
    // After /tmp: a bind under /tmp must not be hidden by the tmpfs.
    for p in plan.ro_binds {
        bind(&mut a, "--ro-bind", p, p);
    }
    push(&mut a, &["--perms", "0700", "--tmpfs", IN_HOME]);
    for (src, rel) in plan.home_files {
        bind(&mut a, "--ro-bind", src, &Path::new(IN_HOME).join(rel));
    }
    bind(&mut a, "--bind", plan.workdir, Path::new(IN_WORK));
    push(
        &mut a,
        &["--remount-ro", "/", "--chdir", IN_WORK, "--clearenv"],
    );
    for (k, v) in plan.env {
        push(&mut a, &["--setenv", k, v]);
    }
    if let Some((socket, shim)) = plan.egress {
        bind(&mut a, "--bind", socket, Path::new(IN_EGRESS_SOCKET));
        bind(&mut a, "--ro-bind", shim, Path::new(IN_EGRESS_SHIM));
    }
    push(&mut a, &["--json-status-fd", "3", "--"]);
    if plan.egress.is_some() {
        let port = super::egress::IN_PORT.to_string();
        push(
            &mut a,
            &["/usr/bin/python3", IN_EGRESS_SHIM, IN_EGRESS_SOCKET, &port],
        );
    }
    a.extend(plan.argv.iter().map(OsString::from));
    a
}

/// The generated `/etc/passwd` and `/etc/group` for `uid`.
pub fn write_etc(dir: &Path, uid: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
    let passwd = format!(
        "root:x:0:0:root:/root:/usr/sbin/nologin\nagent:x:{uid}:{uid}:coding agent:{IN_HOME}:/bin/sh\n"
    );
    for (name, text) in [
        ("passwd", passwd),
        ("group", format!("root:x:0:\nagent:x:{uid}:\n")),
    ] {
        let path = dir.join(name);
        fs::write(&path, text)?;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(egress: Option<(&Path, &Path)>, network: bool) -> Vec<String> {
        let binds = [PathBuf::from("/opt/tool")];
        let plan = Plan {
            workdir: Path::new("/tmp/agents/gen-x"),
            etc_dir: Path::new("/tmp/agents/etc-x"),
            uid: 65534,
            network,
            egress,
            ro_binds: &binds,
            home_files: &[],
            env: &[],
            argv: &["claude".to_string()],
        };
        bwrap_args(&plan)
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    fn writable_sources(a: &[String]) -> Vec<&str> {
        a.windows(2)
            .filter(|w| w[0] == "--bind")
            .map(|w| w[1].as_str())
            .collect()
    }

    #[test]
    fn the_working_directory_is_the_only_writable_host_bind() {
        let a = args(None, true);
        assert_eq!(writable_sources(&a), ["/tmp/agents/gen-x"]);
        assert!(a.contains(&"--share-net".to_string()));
        assert!(
            a.contains(&"--unshare-all".to_string())
                && a.contains(&"--die-with-parent".to_string())
        );
        assert_eq!(a.last().map(String::as_str), Some("claude"));
        let tmpfs = a.iter().position(|x| x == "/tmp").unwrap();
        let tool = a.iter().position(|x| x == "/opt/tool").unwrap();
        assert!(tool > tmpfs, "extra binds come after the /tmp tmpfs");
    }

    #[test]
    fn egress_keeps_the_network_private_and_wraps_the_cli() {
        let sock = Path::new("/tmp/agents/etc-x/egress.sock");
        let shim = Path::new("/tmp/agents/etc-x/shim.py");
        let a = args(Some((sock, shim)), true);
        assert!(!a.contains(&"--share-net".to_string()));
        assert_eq!(
            writable_sources(&a),
            ["/tmp/agents/gen-x", "/tmp/agents/etc-x/egress.sock"]
        );
        let sep = a.iter().position(|x| x == "--").unwrap();
        assert_eq!(a[sep + 1..sep + 3], ["/usr/bin/python3", IN_EGRESS_SHIM]);
        assert!(!args(None, false).contains(&"--share-net".to_string()));
    }
}
