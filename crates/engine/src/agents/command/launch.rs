//! Starting one run of the CLI: the expanded argv, its environment (nothing of the host's but
//! the passed-through variables), the bubblewrap command (or the bare CLI when unsandboxed), and
//! how the run ended.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::process::{self, Ending, Finished};
use super::run::{infra, tail, Call};
use super::sandbox::{self, Plan, IN_HOME};
use super::template::{self, Values};
use super::workdir::WorkDir;
use crate::agents::llm::prompt::Role;
use crate::agents::AgentError;

/// Runs the CLI once in `wd`; `Err` when it could not start, timed out or was cancelled.
pub fn run_once(
    call: &Call<'_>,
    wd: &WorkDir,
    etc: &Path,
    values: &Values,
    home_files: &[(PathBuf, PathBuf)],
    (uid, switch): (u32, bool),
    egress: bool,
) -> Result<Finished, AgentError> {
    let cfg = call.cfg;
    let mut argv = Vec::new();
    let model_args = if cfg.model.is_empty() {
        &[][..]
    } else {
        &cfg.model_args[..]
    };
    for t in cfg.argv.iter().chain(model_args) {
        argv.push(template::expand(t, values).map_err(infra)?);
    }
    let stdin = match &cfg.stdin {
        Some(t) => Some(template::expand(t, values).map_err(infra)?),
        None => None,
    };
    let role = match call.role {
        Role::Generator => "generator",
        Role::Discriminator => "discriminator",
    };
    let sandboxed = !cfg.unsafe_no_sandbox;
    let mut path_var: Vec<String> = cfg
        .extra_ro_binds
        .iter()
        .map(|p| p.join("bin").display().to_string())
        .collect();
    path_var.extend(["/usr/local/bin", "/usr/bin", "/bin"].map(String::from));
    let home = if sandboxed {
        IN_HOME.to_string()
    } else {
        std::env::var("HOME").unwrap_or_default()
    };
    let mut env: Vec<(String, String)> = vec![
        ("HOME".into(), home),
        ("USER".into(), "agent".into()),
        ("PATH".into(), path_var.join(":")),
        ("LANG".into(), "C.UTF-8".into()),
        ("TERM".into(), "dumb".into()),
        ("NO_COLOR".into(), "1".into()),
        ("TW_ROLE".into(), role.into()),
        ("TW_WORKDIR".into(), values.workdir.clone()),
    ];
    if egress {
        let url = format!("http://127.0.0.1:{}", super::egress::IN_PORT);
        for k in [
            "HTTPS_PROXY",
            "https_proxy",
            "HTTP_PROXY",
            "http_proxy",
            "ALL_PROXY",
        ] {
            env.push((k.into(), url.clone()));
        }
    }
    for name in &cfg.env_passthrough {
        if let Ok(v) = std::env::var(name) {
            env.push((name.clone(), v));
        }
    }
    let status = etc.join("status.json");
    let (socket, shim) = (etc.join("egress.sock"), etc.join("shim.py"));
    let mut cmd = if sandboxed {
        let plan = Plan {
            workdir: wd.path(),
            etc_dir: etc,
            uid,
            network: cfg.network,
            egress: egress.then_some((socket.as_path(), shim.as_path())),
            ro_binds: &cfg.extra_ro_binds,
            home_files,
            env: &env,
            argv: &argv,
        };
        let mut c = Command::new(&cfg.bwrap_path);
        c.args(sandbox::bwrap_args(&plan));
        if switch {
            std::os::unix::process::CommandExt::uid(&mut c, uid);
            std::os::unix::process::CommandExt::gid(&mut c, uid);
        }
        c
    } else {
        let mut c = Command::new(&argv[0]);
        c.args(&argv[1..])
            .current_dir(wd.path())
            .env_clear()
            .envs(env.iter().cloned());
        c
    };
    cmd.current_dir(wd.path());
    let timeout = Duration::from_secs_f64(cfg.timeout_seconds);
    let status_path = sandboxed.then_some(status.as_path());
    let fin = process::run(
        cmd,
        stdin,
        timeout,
        cfg.capture_bytes,
        status_path,
        call.cancel,
    )
    .map_err(|e| {
        infra(format!(
            "cannot start agent CLI `{}` ({}): {e}",
            cfg.name, argv[0]
        ))
    })?;
    match fin.ending {
        Ending::TimedOut => Err(infra(format!(
            "agent CLI `{}` timed out after {} s; every process it started was killed; stderr \
             tail: {}",
            cfg.name,
            cfg.timeout_seconds,
            tail(&fin.stderr, 1500)
        ))),
        Ending::Cancelled => Err(AgentError::Cancelled),
        Ending::Exited(_) if fin.reported_exit.is_none() => Err(infra(format!(
            "the sandbox could not start agent CLI `{}`: {}",
            cfg.name,
            tail(&fin.stderr, 1500)
        ))),
        Ending::Exited(_) => Ok(fin),
    }
}
