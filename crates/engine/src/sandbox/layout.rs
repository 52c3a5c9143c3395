//! The per-run scratch directory on the host and the bubblewrap command line built from it.
//!
//! Inside the sandbox the script sees: `/usr` (and the `/bin`, `/lib*`, `/sbin` links) read-only;
//! a handful of `/etc` files (the dynamic-linker cache, time zone, MIME types and a generated
//! `passwd`, `group`, `hosts`); the script virtualenv read-only; a private `/proc`, `/dev` and
//! `/tmp` (size-limited tmpfs), a read-only `/dev` whose `/dev/shm` is a size-limited tmpfs;
//! `/tmp/task_web_sid` (writable: public setups mint their own sid) and `/tmp/reward_judge.py`;
//! `/tmp/.tw/` with the bootstrap, `tw_reward.py`, the GUI stubs (`bin/`), the script and the
//! forwarder socket; and the environment's home at `/home/user` (writable for setup/golden,
//! read-only for reader). Nothing else of the host exists there: other environments' homes, the
//! engine's store and `/root` are simply not mounted. Network: a private namespace whose only
//! reachable service is the forwarder. Scripts cannot create nested user namespaces
//! (`--disable-userns`), inherit no engine file descriptor (see `process`), and run under the
//! seccomp filter of `seccomp`.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::localise;
use super::policy::Role;
use tuplewright_base::scratch::{self, DirLock};

/// The bootstrap run inside the sandbox before the script.
pub const BOOT_PY: &str = include_str!("../../../../assets/python/tw_boot.py");
/// The reward helper module importable inside the sandbox.
pub const REWARD_PY: &str = include_str!("../../../../assets/python/tw_reward.py");

/// Where things live inside the sandbox.
pub const IN_TW_DIR: &str = "/tmp/.tw";
/// The forwarder socket inside the sandbox.
pub const IN_SOCKET: &str = "/tmp/.tw/api.sock";
/// The environment's home inside the sandbox.
pub const IN_HOME: &str = "/home/user";

/// Prefix of a run directory; the owning process id and a random part follow it.
pub const RUN_DIR_PREFIX: &str = "tw-sandbox-";

/// Files written for one run (removed with the directory). Only the run's uid (and root) can read
/// them: the directory is 0700 and, when the engine is root, owned by the sandbox uid — another
/// sandbox uid on the machine never sees this run's script.
pub struct RunDir {
    /// The temporary directory (0700, files 0600).
    pub dir: tempfile::TempDir,
    /// Held while the run lives, so [`sweep_abandoned`] leaves the directory alone.
    _lock: DirLock,
}

/// What a run adds for public scripts ([`super::localise`]).
#[derive(Debug, Default)]
pub struct RunExtras {
    /// Lines appended to the sandbox's `/etc/hosts`.
    pub hosts: String,
    /// The CA certificate scripts trust for HTTPS to the Hub hosts (`lib/tw_ca.pem`).
    pub ca_pem: Option<String>,
}

impl RunDir {
    /// Create the scratch directory with the sid file, bootstrap, helpers, GUI stubs and script.
    pub fn create(
        parent: &Path,
        sid: &str,
        uid: u32,
        script_name: &str,
        script: &str,
        extras: &RunExtras,
    ) -> std::io::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix(&format!("{RUN_DIR_PREFIX}{}-", std::process::id()))
            .permissions(fs::Permissions::from_mode(0o700))
            .tempdir_in(parent)?;
        let _lock = DirLock::acquire(dir.path())?;
        let me = Self { dir, _lock };
        me.write("task_web_sid", sid)?;
        me.write(
            "passwd",
            &format!("root:x:0:0:root:/root:/usr/sbin/nologin\nuser:x:{uid}:{uid}:sandbox user:{IN_HOME}:/bin/sh\n"),
        )?;
        me.write("group", &format!("root:x:0:\nuser:x:{uid}:\n"))?;
        me.write("hosts", &format!("127.0.0.1\tlocalhost\n{}", extras.hosts))?;
        me.mkdir("lib")?;
        me.write("lib/tw_boot.py", BOOT_PY)?;
        me.write("lib/tw_reward.py", REWARD_PY)?;
        me.write("lib/sitecustomize.py", localise::SITE_PY)?;
        me.write("lib/reward_judge.py", localise::JUDGE_PY)?;
        if let Some(pem) = &extras.ca_pem {
            me.write("lib/tw_ca.pem", pem)?;
        }
        me.mkdir("bin")?;
        for name in localise::gui_programs() {
            me.write_mode(&format!("bin/{name}"), localise::GUI_STUB, 0o700)?;
        }
        me.mkdir("gui")?;
        me.mkdir("script")?;
        me.write(&format!("script/{script_name}"), script)?;
        me.hand_to(uid)?;
        Ok(me)
    }

    /// Path of a file in the scratch directory.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn mkdir(&self, rel: &str) -> std::io::Result<()> {
        fs::DirBuilder::new().mode(0o700).create(self.path(rel))
    }

    fn write(&self, rel: &str, text: &str) -> std::io::Result<()> {
        self.write_mode(rel, text, 0o600)
    }

    fn write_mode(&self, rel: &str, text: &str, mode: u32) -> std::io::Result<()> {
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(self.path(rel))?;
        f.write_all(text.as_bytes())
    }

    /// As root, gives the directory and everything in it to `uid` (the script reads them as
    /// that uid); otherwise the engine's own uid runs the script and already owns them.
    fn hand_to(&self, uid: u32) -> std::io::Result<()> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Ok(());
        }
        for entry in walkdir::WalkDir::new(self.dir.path()).follow_links(false) {
            let entry = entry.map_err(std::io::Error::other)?;
            std::os::unix::fs::lchown(entry.path(), Some(uid), Some(uid))?;
        }
        Ok(())
    }
}

/// Removes the run directories in `parent` left by processes that died without cleaning up
/// (`kill -9`): nobody holds their lock and their pid is gone. Returns how many.
pub fn sweep_abandoned(parent: &Path) -> usize {
    scratch::sweep(parent, RUN_DIR_PREFIX, |n| {
        scratch::pid_after_prefix(n, RUN_DIR_PREFIX)
    })
    .len()
}

/// Inputs to [`bwrap_args`].
pub struct BwrapPlan<'a> {
    /// The scratch directory.
    pub run: &'a RunDir,
    /// The environment's home on the host.
    pub home: &'a Path,
    /// The role (decides whether home is writable).
    pub role: Role,
    /// Sandbox uid/gid.
    pub uid: u32,
    /// Interpreter (absolute path, visible inside).
    pub python: &'a Path,
    /// Script virtualenv to bind read-only, if used.
    pub venv: Option<&'a Path>,
    /// The script's file name (under `script/`).
    pub script_name: &'a str,
    /// Forwarder socket file names in the run directory, bound under `/tmp/.tw/` (one per state API).
    pub sockets: &'a [String],
    /// Environment variables for the script.
    pub env: &'a [(String, String)],
    /// Size of the private `/tmp` tmpfs in bytes.
    pub tmp_bytes: u64,
    /// Size of the private `/dev/shm` tmpfs in bytes.
    pub shm_bytes: u64,
    /// Descriptors (in the bwrap process) holding seccomp programs to install.
    pub seccomp_fds: &'a [i32],
    /// An X display whose socket is bound in (`/tmp/.X11-unix/X<n>`), if the run has one.
    pub display: Option<u32>,
}

fn push(args: &mut Vec<OsString>, items: &[&str]) {
    args.extend(items.iter().map(OsString::from));
}

fn push_bind(args: &mut Vec<OsString>, flag: &str, src: &Path, dst: &str) {
    args.push(flag.into());
    args.push(src.as_os_str().to_owned());
    args.push(dst.into());
}

/// The bubblewrap arguments (everything after the `bwrap` binary).
pub fn bwrap_args(plan: &BwrapPlan<'_>) -> Vec<OsString> {
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
    push(
        &mut a,
        &[
            "--disable-userns",
            // The script is the namespace's pid 1, the direct child of the outer bwrap, which
            // reaps it. Without this, bwrap's own init is left a zombie of the host's init
            // after every run, and zombies count against the sandbox uid's RLIMIT_NPROC.
            "--as-pid-1",
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "sandbox",
        ],
    );
    push_bind(&mut a, "--ro-bind", Path::new("/usr"), "/usr");
    for top in ["bin", "sbin", "lib", "lib32", "lib64", "libx32"] {
        let host = Path::new("/").join(top);
        match fs::read_link(&host) {
            Ok(target) => {
                a.push("--symlink".into());
                a.push(target.into_os_string());
                a.push(format!("/{top}").into());
            }
            Err(_) if host.is_dir() => push_bind(&mut a, "--ro-bind", &host, &format!("/{top}")),
            Err(_) => {}
        }
    }
    for etc in [
        "/etc/ld.so.cache",
        "/etc/localtime",
        "/etc/mime.types",
        "/etc/nsswitch.conf",
    ] {
        push_bind(&mut a, "--ro-bind-try", Path::new(etc), etc);
    }
    push_bind(&mut a, "--ro-bind", &plan.run.path("passwd"), "/etc/passwd");
    push_bind(&mut a, "--ro-bind", &plan.run.path("group"), "/etc/group");
    push_bind(&mut a, "--ro-bind", &plan.run.path("hosts"), "/etc/hosts");
    if let Some(venv) = plan.venv {
        if let Some(v) = venv.to_str() {
            push_bind(&mut a, "--ro-bind", venv, v);
        }
    }
    // The private /dev is a tmpfs too: read-only, with a size-limited /dev/shm on it, so no
    // writable mount in the sandbox is bounded only by the host's RAM.
    push(
        &mut a,
        &["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev"],
    );
    for (bytes, dir) in [(plan.shm_bytes, "/dev/shm"), (plan.tmp_bytes, "/tmp")] {
        let size = bytes.max(1 << 20).to_string();
        push(
            &mut a,
            &["--perms", "1777", "--size", &size, "--tmpfs", dir],
        );
    }
    // Writable: a public setup mints its own sid and writes it here (the forwarder maps it).
    push_bind(
        &mut a,
        "--bind",
        &plan.run.path("task_web_sid"),
        "/tmp/task_web_sid",
    );
    push_bind(
        &mut a,
        "--ro-bind",
        &plan.run.path("lib/reward_judge.py"),
        "/tmp/reward_judge.py",
    );
    push_bind(
        &mut a,
        "--ro-bind",
        &plan.run.path("bin"),
        &format!("{IN_TW_DIR}/bin"),
    );
    push_bind(
        &mut a,
        "--bind",
        &plan.run.path("gui"),
        &format!("{IN_TW_DIR}/gui"),
    );
    push_bind(
        &mut a,
        "--ro-bind",
        &plan.run.path("lib"),
        &format!("{IN_TW_DIR}/lib"),
    );
    push_bind(
        &mut a,
        "--ro-bind",
        &plan.run.path("script"),
        &format!("{IN_TW_DIR}/script"),
    );
    if let Some(n) = plan.display {
        // The display's socket only (not the whole X11 directory): other screens stay invisible.
        let socket = format!("/tmp/.X11-unix/X{n}");
        push_bind(&mut a, "--ro-bind", Path::new(&socket), &socket);
    }
    for name in plan.sockets {
        push_bind(
            &mut a,
            "--bind",
            &plan.run.path(name),
            &format!("{IN_TW_DIR}/{name}"),
        );
    }
    let home_flag = if plan.role.writes_home() {
        "--bind"
    } else {
        "--ro-bind"
    };
    push_bind(&mut a, home_flag, plan.home, IN_HOME);
    push(
        &mut a,
        &["--remount-ro", "/", "--chdir", IN_HOME, "--clearenv"],
    );
    for (k, v) in plan.env {
        push(&mut a, &["--setenv", k, v]);
    }
    for fd in plan.seccomp_fds {
        push(&mut a, &["--add-seccomp-fd", &fd.to_string()]);
    }
    push(&mut a, &["--json-status-fd", "3", "--"]);
    a.push(plan.python.as_os_str().to_owned());
    a.push(format!("{IN_TW_DIR}/lib/tw_boot.py").into());
    a.push(format!("{IN_TW_DIR}/script/{}", plan.script_name).into());
    a
}
