//! `run_script`: run one agent-written Python script against one environment, sandboxed.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::cgroup::MemoryCgroup;
use super::config::{Limits, SandboxConfig};
use super::layout::{self, BwrapPlan, RunDir, RunExtras};
use super::localise::{self, Localise};
use super::policy::Role;
use super::process::{Handoff, FIRST_HANDOFF_FD};
use super::proxy::{self, Listen, ProxyOptions};
use super::result::{LogSink, RunResult};
use super::uids;
use super::{outcome, ownership, process, seccomp};
use crate::openenv::judge::JudgeLink;

/// The environment a script runs against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SandboxSpec {
    /// The environment's home directory on the host (seen as `/home/user`).
    pub home: PathBuf,
    /// The environment's state-API session id (`[A-Za-z0-9_-]{1,128}`).
    pub sid: String,
    /// The app name (`TW_APP`), e.g. `team-chat`; empty for a files-only environment.
    pub app: String,
    /// The host-side state API server; `None` = no state API for this environment.
    pub upstream: Option<SocketAddr>,
    /// The app's conventional port: inside the sandbox the API answers at `http://localhost:<port>`.
    pub api_port: u16,
    /// Further apps of a cross-app task, each reachable at `http://localhost:<its port>` with the same
    /// sid, role rules and sid pinning as the primary one.
    #[serde(default)]
    pub extra_apis: Vec<ExtraApi>,
    /// Give the home to the sandbox uid for `reader` runs too (engine-made homes: files a setup
    /// script made 0600 stay readable by the reward). False for a person's own directory
    /// (`sandbox run --home DIR`): a reader never changes its owner and reads what the sandbox
    /// uid may read. Writing roles always get the home, since they must write it.
    #[serde(default)]
    pub hand_home_to_reader: bool,
    /// How the Hub hosts and ports public scripts hard-code reach this environment's apps.
    #[serde(default)]
    pub localise: Localise,
    /// Headers the forwarder adds to what scripts send an app (by app name): an external app's
    /// admin token, which the script never sees.
    #[serde(default)]
    pub forward_headers: std::collections::BTreeMap<String, Vec<(String, String)>>,
    /// An X display the script may draw on and drive (its number: `/tmp/.X11-unix/X<n>` is bound
    /// into the sandbox and `DISPLAY=:<n>` set). `None` = no display (the usual case).
    #[serde(default)]
    pub display: Option<u32>,
    /// Run as this uid instead of one of the pool's: an environment whose desktop programs run as
    /// that uid too (the OSWorld guest), so both write the home without handing it back and forth.
    /// `RLIMIT_NPROC` then counts that uid's desktop programs as well.
    #[serde(default)]
    pub run_as: Option<u32>,
}

/// A further state API reachable from the sandbox (cross-app tasks).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtraApi {
    /// App name, e.g. `issue-tracker` (also `TW_STATE_URL_ISSUE_TRACKER`).
    pub app: String,
    /// Host-side address of its server.
    pub upstream: SocketAddr,
    /// Its conventional port inside the sandbox.
    pub port: u16,
}

/// The environment variable naming an app's state API URL, e.g. `TW_STATE_URL_ISSUE_TRACKER`.
pub fn app_url_var(app: &str) -> String {
    let up: String = app
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("TW_STATE_URL_{up}")
}

/// A script to run: its file name (for tracebacks) and its source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// File name, e.g. `reward.py` (`[A-Za-z0-9_.-]`, ends in `.py`).
    pub name: String,
    /// Python source.
    pub source: String,
}

/// Whether running without bubblewrap is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Isolation {
    /// Sandbox required: a missing bubblewrap is an error.
    #[default]
    Required,
    /// `--unsafe-no-sandbox`: run without isolation; recorded on the result.
    UnsafeNoSandbox,
}

/// Infrastructure failures: never a script outcome, never a reward.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// bubblewrap is not installed (or not at the configured path).
    #[error("sandbox unavailable: bubblewrap not found at {path}. Install it with `apt-get install bubblewrap` (Debian/Ubuntu) or `dnf install bubblewrap`, or set `bwrap_path` in the sandbox config; to run WITHOUT isolation pass --unsafe-no-sandbox")]
    Unavailable {
        /// The path that was tried.
        path: PathBuf,
    },
    /// The request itself is invalid (bad sid, script name, home...).
    #[error("invalid sandbox request: {0}")]
    Invalid(String),
    /// bubblewrap could not build the sandbox (its own message follows).
    #[error("sandbox set-up failed: {0}")]
    Setup(String),
    /// Host-side I/O failed.
    #[error("sandbox I/O error while {what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
}

fn io_err(what: &str) -> impl FnOnce(std::io::Error) -> SandboxError + '_ {
    move |source| SandboxError::Io {
        what: what.to_string(),
        source,
    }
}

fn validate(spec: &SandboxSpec, script: &Script) -> Result<(), SandboxError> {
    let sid_ok = !spec.sid.is_empty()
        && spec.sid.len() <= 128
        && spec
            .sid
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !sid_ok {
        return Err(SandboxError::Invalid(format!(
            "sid `{}` is not [A-Za-z0-9_-]{{1,128}}",
            spec.sid
        )));
    }
    let name_ok = script.name.ends_with(".py")
        && !script.name.starts_with('.')
        && script
            .name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
    if !name_ok {
        return Err(SandboxError::Invalid(format!(
            "script name `{}` must be a plain file name ending in .py",
            script.name
        )));
    }
    if !spec.home.is_dir() {
        return Err(SandboxError::Invalid(format!(
            "environment home {} is not a directory",
            spec.home.display()
        )));
    }
    let mut ports = vec![spec.api_port];
    for x in &spec.extra_apis {
        if spec.upstream.is_none() {
            return Err(SandboxError::Invalid(
                "extra_apis need a primary upstream".to_string(),
            ));
        }
        if x.port == 0 || ports.contains(&x.port) {
            return Err(SandboxError::Invalid(format!(
                "extra API {} needs its own port in 1..65535, got {}",
                x.app, x.port
            )));
        }
        ports.push(x.port);
    }
    if spec.upstream.is_some() && spec.api_port == 0 {
        return Err(SandboxError::Invalid(
            "api_port must be 1..65535".to_string(),
        ));
    }
    Ok(())
}

/// Run `script` in `role` against the environment `spec`, under `limits`.
///
/// Script failures (non-zero exit, timeout, limits) are [`Outcome`]s in an `Ok` result;
/// `Err` means the sandbox itself could not run ([`SandboxError`]).
pub async fn run_script(
    cfg: &SandboxConfig,
    spec: &SandboxSpec,
    role: Role,
    script: &Script,
    limits: &Limits,
    isolation: Isolation,
) -> Result<RunResult, SandboxError> {
    run_script_streaming(cfg, spec, role, script, limits, isolation, None).await
}

/// [`run_script`], also sending every output line to `live` as it is printed (for a face that
/// shows logs while the script runs). The result is the same.
pub async fn run_script_streaming(
    cfg: &SandboxConfig,
    spec: &SandboxSpec,
    role: Role,
    script: &Script,
    limits: &Limits,
    isolation: Isolation,
    live: Option<LogSink>,
) -> Result<RunResult, SandboxError> {
    run_script_judged(cfg, spec, role, script, limits, isolation, live, None).await
}

/// [`run_script_streaming`] with the `reward_judge` helper answered by `judge` (a channel served
/// for this run only; a failed call makes the result's `infra_failure`).
#[allow(clippy::too_many_arguments)]
pub async fn run_script_judged(
    cfg: &SandboxConfig,
    spec: &SandboxSpec,
    role: Role,
    script: &Script,
    limits: &Limits,
    isolation: Isolation,
    live: Option<LogSink>,
    judge: Option<&JudgeLink>,
) -> Result<RunResult, SandboxError> {
    validate(spec, script)?;
    if !(limits.wall_seconds.is_finite() && limits.wall_seconds > 0.0) {
        return Err(SandboxError::Invalid(format!(
            "limits.wall_seconds must be a positive number of seconds, got {}",
            limits.wall_seconds
        )));
    }
    let started = Instant::now();
    let sandboxed = is_executable(&cfg.bwrap_path);
    if !sandboxed && isolation == Isolation::Required {
        return Err(SandboxError::Unavailable {
            path: cfg.bwrap_path.clone(),
        });
    }
    // SAFETY: geteuid has no preconditions.
    let as_root = unsafe { libc::geteuid() } == 0;
    let mut notes = Vec::new();
    let (python, fallback_note) = cfg.python();
    notes.extend(fallback_note);
    let venv = python
        .starts_with(&cfg.venv_dir)
        .then_some(cfg.venv_dir.as_path());
    let lease = uids::lease(cfg.sandbox_uid, cfg.uid_pool);
    let uid = spec.run_as.unwrap_or(lease.uid());
    if !lease.exclusive() && spec.run_as.is_none() {
        notes.push(format!(
            "all {} sandbox uids are busy: this run shares uid {uid} (and its process budget)",
            cfg.uid_pool
        ));
    }
    // One forwarder per state API: the primary app, then the extra apps of a cross-app task.
    let mut apis: Vec<(String, SocketAddr, u16)> = Vec::new();
    if let Some(upstream) = spec.upstream {
        apis.push((spec.app.clone(), upstream, spec.api_port));
        for x in &spec.extra_apis {
            apis.push((x.app.clone(), x.upstream, x.port));
        }
    }
    let loc = &spec.localise;
    let hub_tls = if sandboxed && apis.iter().any(|(a, _, _)| loc.has_hub_host(a)) {
        match crate::openenv::tls::hub_tls() {
            Ok(t) => Some(t),
            Err(e) => {
                notes.push(format!(
                    "no HTTPS for the Hub hosts ({e}): only http:// reaches them"
                ));
                None
            }
        }
    } else {
        None
    };
    let extras = RunExtras {
        hosts: if sandboxed {
            localise::hosts(loc)
        } else {
            String::new()
        },
        ca_pem: hub_tls.map(|t| t.ca_pem.clone()),
    };
    let urls: Vec<(String, String)> = apis
        .iter()
        .map(|(a, _, p)| (a.clone(), format!("http://localhost:{p}")))
        .collect();
    let source = localise::substitute(&script.source, &spec.sid, loc, &urls);
    // The host's cap on sandbox runs at once (`[worker] sandboxes`), held until the run ends.
    let _host_slot =
        tuplewright_base::hostcap::take_async(tuplewright_base::hostcap::Kind::Sandbox)
            .await
            .map_err(io_err("taking a sandbox slot of this host"))?;
    let run = RunDir::create(
        &cfg.run_dir_parent,
        &spec.sid,
        uid,
        &script.name,
        &source,
        &extras,
    )
    .map_err(io_err("creating the per-run directory"))?;
    if sandboxed && (role.writes_home() || spec.hand_home_to_reader) {
        // Every role of the loop gets the home as its own (read-only for `reader` via the bind),
        // so files a setup script created with mode 0600 stay readable by the reward's uid.
        ownership::hand_home_to(&spec.home, uid, &mut notes)
            .map_err(io_err("giving the home directory to the sandbox uid"))?;
    }
    let mut env: Vec<(String, String)> = vec![
        ("HOME".into(), layout::IN_HOME.into()),
        ("USER".into(), "user".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PYTHONUNBUFFERED".into(), "1".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
        ("TW_SID".into(), spec.sid.clone()),
        ("TW_APP".into(), spec.app.clone()),
        ("TW_ROLE".into(), role.as_str().into()),
    ];
    let gui_bin = if sandboxed {
        format!("{}/bin:", layout::IN_TW_DIR)
    } else {
        String::new()
    };
    let path_var = match venv {
        Some(v) => format!(
            "{gui_bin}{}:/usr/local/bin:/usr/bin:/bin",
            v.join("bin").display()
        ),
        None => format!("{gui_bin}/usr/local/bin:/usr/bin:/bin"),
    };
    env.push(("PATH".into(), path_var));
    if let Some(n) = spec.display {
        env.push(("DISPLAY".into(), format!(":{n}")));
    }
    let mut proxies = Vec::new();
    let mut sockets = Vec::new();
    let mut extra_forwards = Vec::new();
    let mut tls_ports: Vec<(String, u16, Option<u16>)> = Vec::new();
    for (i, (app, upstream, port)) in apis.iter().enumerate() {
        let sock_name = if i == 0 {
            "api.sock".to_string()
        } else {
            format!("api{i}.sock")
        };
        let sock_path = run.path(&sock_name);
        let listen = if sandboxed {
            Listen::Unix(&sock_path)
        } else {
            Listen::LoopbackTcp
        };
        let opts = ProxyOptions {
            sid_file: sandboxed.then(|| run.path("task_web_sid")),
            headers: spec.forward_headers.get(app).cloned().unwrap_or_default(),
        };
        let (handle, addr) = proxy::start(
            listen,
            role,
            &spec.sid,
            *upstream,
            limits.request_body_bytes,
            opts.clone(),
        )
        .await
        .map_err(io_err("starting the state-API forwarder"))?;
        proxies.push(handle);
        let tls = hub_tls
            .filter(|_| loc.has_hub_host(app))
            .zip(localise::tls_port(*port));
        if let Some((tls, tls_port)) = tls {
            let name = format!("api{i}-tls.sock");
            let path = run.path(&name);
            let (handle, _) = proxy::start(
                Listen::UnixTls(&path, tls.server.clone()),
                role,
                &spec.sid,
                *upstream,
                limits.request_body_bytes,
                opts,
            )
            .await
            .map_err(io_err("starting the HTTPS forwarder"))?;
            proxies.push(handle);
            if as_root {
                ownership::restrict_socket(&path, uid)
                    .map_err(io_err("restricting the HTTPS forwarder socket"))?;
            }
            extra_forwards.push(format!("{tls_port}={}/{name}", layout::IN_TW_DIR));
            sockets.push(name);
            tls_ports.push((app.clone(), *port, Some(tls_port)));
        } else {
            tls_ports.push((app.clone(), *port, None));
        }
        if sandboxed && as_root {
            // Only the sandbox uid (and root) may connect to the forwarder socket.
            ownership::restrict_socket(&sock_path, uid)
                .map_err(io_err("restricting the forwarder socket"))?;
        }
        let url = match addr {
            Some(addr) => {
                notes.push(format!(
                    "unsandboxed: the {app} state API is at http://{addr}, not at localhost:{port}"
                ));
                format!("http://{addr}")
            }
            None => {
                let inside = format!("{}/{sock_name}", layout::IN_TW_DIR);
                if i == 0 {
                    env.push(("TW_FORWARD_PORT".into(), port.to_string()));
                    env.push(("TW_FORWARD_SOCKET".into(), inside));
                } else {
                    extra_forwards.push(format!("{port}={inside}"));
                }
                sockets.push(sock_name);
                format!("http://localhost:{port}")
            }
        };
        if i == 0 {
            env.push(("TW_STATE_URL".into(), url.clone()));
        }
        env.push((app_url_var(app), url));
    }
    if !extra_forwards.is_empty() {
        env.push(("TW_FORWARD_EXTRA".into(), extra_forwards.join(",")));
    }
    if sandboxed && !loc.is_empty() {
        env.push(("TW_NETMAP".into(), localise::netmap(loc, &tls_ports)));
    }
    if extras.ca_pem.is_some() {
        let ca = format!("{}/lib/tw_ca.pem", layout::IN_TW_DIR);
        for var in ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"] {
            env.push((var.into(), ca.clone()));
        }
    }
    let judge = match judge {
        Some(link) => {
            let ch = localise::judge_channel(link, &run, sandboxed, as_root.then_some(uid))
                .map_err(io_err("starting the reward judge channel"))?;
            env.extend(ch.env.iter().cloned());
            sockets.extend(ch.socket.clone());
            Some(ch)
        }
        None => None,
    };
    let mut cgroup = None;
    let exit = if sandboxed {
        env.push(("PYTHONPATH".into(), format!("{}/lib", layout::IN_TW_DIR)));
        let mut handoff = Handoff::default();
        match seccomp::program_files() {
            Ok(files) => handoff.fds = files,
            Err(e) => notes.push(format!("{e}: the script runs without a system-call filter")),
        }
        let seccomp_fds: Vec<i32> = (0..handoff.fds.len() as i32)
            .map(|i| FIRST_HANDOFF_FD + i)
            .collect();
        if limits.memory_bytes > 0 && as_root {
            match MemoryCgroup::create(limits.memory_bytes) {
                Ok(mut cg) => {
                    handoff.cgroup_procs = cg.take_procs();
                    cgroup = Some(cg);
                }
                Err(why) => notes.push(format!(
                    "no memory cgroup ({why}): memory is bounded per process by RLIMIT_AS and \
                     the tmpfs mounts by their sizes"
                )),
            }
        }
        let plan = BwrapPlan {
            run: &run,
            home: &spec.home,
            role,
            uid,
            python: &python,
            venv,
            script_name: &script.name,
            sockets: &sockets,
            env: &env,
            tmp_bytes: limits.tmp_bytes,
            shm_bytes: limits.shm_bytes,
            seccomp_fds: &seccomp_fds,
            display: spec.display,
        };
        let mut cmd = tokio::process::Command::new(&cfg.bwrap_path);
        cmd.args(layout::bwrap_args(&plan));
        if as_root {
            cmd.uid(uid).gid(uid);
        } else {
            notes.push(format!(
                "the engine is not root: the script runs as the engine's uid (uid {} inside); \
                 RLIMIT_NPROC counts all of that user's processes",
                uid
            ));
        }
        process::execute(cmd, limits, Some(&run.path("status.json")), handoff, live).await
    } else {
        notes.push(
            "UNSANDBOXED: ran without bubblewrap (--unsafe-no-sandbox): no file-system, network \
             or uid isolation; RLIMIT_NPROC is not enforced for root; processes that leave the \
             process group survive a timeout"
                .to_string(),
        );
        env.push(("PYTHONPATH".into(), run.path("lib").display().to_string()));
        write_host_sid(&spec.sid, &mut notes);
        let mut cmd = tokio::process::Command::new(&python);
        cmd.arg(run.path("lib/tw_boot.py"))
            .arg(run.path(&format!("script/{}", script.name)));
        cmd.current_dir(&spec.home)
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k, v)));
        process::execute(cmd, limits, None, Handoff::default(), live).await
    };
    let mut log = proxy::ProxyLog::default();
    for p in proxies {
        let l = p.stop().await;
        log.refused.extend(l.refused);
        log.forwarded += l.forwarded;
    }
    let judged = judge.map(|j| j.channel.stop());
    let mut exit = exit.map_err(io_err("running the script"))?;
    if let Some(cg) = cgroup {
        exit.oom_killed = cg.oom_kills() > 0;
        if let Some(peak) = cg.peak() {
            notes.push(format!(
                "memory cgroup peak: {} MiB of {} MiB",
                peak >> 20,
                limits.memory_bytes >> 20
            ));
        }
        cg.release().await;
    }
    notes.extend(exit.notes.iter().cloned());
    notes.extend(gui_launch_notes(&run));
    notes.extend(judged.iter().map(localise::judge_note));
    let outcome = outcome::classify(&exit, limits, sandboxed)?;
    Ok(RunResult {
        outcome,
        role,
        stdout: exit.stdout,
        stderr: exit.stderr,
        wall_seconds: started.elapsed().as_secs_f64(),
        refused: log.refused,
        forwarded: log.forwarded,
        sandbox_pid: exit.sandbox_pid,
        unsandboxed: !sandboxed,
        python,
        notes,
        infra_failure: judged.and_then(|l| l.failures.into_iter().next()),
    })
}

/// The GUI launches the run's stubs recorded (at most 20, 64 KiB read).
fn gui_launch_notes(run: &RunDir) -> Vec<String> {
    use std::io::Read;
    let mut text = String::new();
    if let Ok(f) = std::fs::File::open(run.path("gui/launches")) {
        let _ = f.take(64 << 10).read_to_string(&mut text);
    }
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .map(|l| format!("{}{l}", localise::GUI_NOTE))
        .collect()
}

fn write_host_sid(sid: &str, notes: &mut Vec<String>) {
    match std::fs::write("/tmp/task_web_sid", sid) {
        Ok(()) => {
            notes.push("unsandboxed: wrote the sid to the host's /tmp/task_web_sid".to_string())
        }
        Err(e) => notes.push(format!(
            "unsandboxed: could not write /tmp/task_web_sid: {e}"
        )),
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The wall timeout of `limits` as a `Duration` (at least 1 ms, at most a year).
pub(crate) fn wall_timeout(limits: &Limits) -> Duration {
    const YEAR: Duration = Duration::from_secs(365 * 24 * 3600);
    Duration::try_from_secs_f64(limits.wall_seconds.max(0.001))
        .unwrap_or(YEAR)
        .min(YEAR)
}
