//! One agent call: a fresh working directory with what the role may see, the CLI run under
//! bubblewrap (re-run once when it left files missing), and the files read back.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::config::CommandAgentConfig;
use super::files::{collect, prompt_md, LAST_MESSAGE};
use super::launch::run_once;
use super::sandbox::{self, IN_WORK};
use super::template::Values;
use super::workdir::WorkDir;
use crate::agents::llm::prompt::Role;
use crate::agents::{AgentError, TaskBrief, Usage};

/// Everything one call needs.
pub struct Call<'a> {
    /// The CLI settings.
    pub cfg: &'a CommandAgentConfig,
    /// Where `orchestrator.md`, `generator.md` and `discriminator.md` are.
    pub prompts_dir: &'a Path,
    /// Which agent.
    pub role: Role,
    /// The task.
    pub brief: &'a TaskBrief,
    /// Round number.
    pub round: u32,
    /// The previous REVIEW.md.
    pub previous_review: Option<&'a str>,
    /// Extra read-only files (the Discriminator's state snapshots).
    pub snapshots: Vec<(&'static str, String)>,
    /// The files the CLI must write.
    pub wanted: &'static [&'static str],
    /// Cancellation flag.
    pub cancel: Option<&'a AtomicBool>,
}

pub(super) fn infra(what: impl std::fmt::Display) -> AgentError {
    AgentError::Infra(what.to_string())
}

pub(super) fn tail(text: &str, chars: usize) -> String {
    let n = text.chars().count();
    let t: String = text.chars().skip(n.saturating_sub(chars)).collect();
    if t.trim().is_empty() {
        "(empty)".into()
    } else {
        t.trim().to_string()
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The uid the CLI runs as and whether the engine must switch to it.
fn run_uid(cfg: &CommandAgentConfig) -> (u32, bool) {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    match cfg.run_as_uid {
        Some(u) if me == 0 => (u, u != 0),
        _ => (me, false),
    }
}

/// Runs the call; returns the wanted files (name, text) in order and the usage.
pub fn execute(call: &Call<'_>) -> Result<(Vec<(String, String)>, Usage), AgentError> {
    let cfg = call.cfg;
    cfg.validate().map_err(infra)?;
    let sandboxed = !cfg.unsafe_no_sandbox;
    if sandboxed && !is_executable(&cfg.bwrap_path) {
        return Err(infra(format!(
            "the command agent needs bubblewrap, not found at {}. Install it with `apt-get install \
             bubblewrap` (Debian/Ubuntu) or `dnf install bubblewrap`, or set `bwrap_path`; \
             `unsafe_no_sandbox = true` runs the CLI WITHOUT isolation (recorded on every call)",
            cfg.bwrap_path.display()
        )));
    }
    if !sandboxed {
        tracing::warn!(agent = %cfg.name, "running the agent CLI UNSANDBOXED (unsafe_no_sandbox)");
    }
    let host_home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let mut home_files = Vec::new();
    for rel in &cfg.home_ro_files {
        let src = host_home.join(rel);
        let plain = rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain || !src.exists() {
            return Err(infra(format!(
                "home_ro_files: `{}` must be an existing file under $HOME, given relative to it                  without `..` (looked at {})",
                rel.display(),
                src.display()
            )));
        }
        home_files.push((src, rel.clone()));
    }
    if let Some(p) = cfg
        .extra_ro_binds
        .iter()
        .find(|p| !p.is_absolute() || !p.exists())
    {
        return Err(infra(format!(
            "extra_ro_binds: {} is not an existing absolute path",
            p.display()
        )));
    }
    let prefix = match call.role {
        Role::Generator => "gen-",
        Role::Discriminator => "disc-",
    };
    let io = |what: &'static str| move |e: std::io::Error| infra(format!("{what}: {e}"));
    let mut wd =
        WorkDir::create(&cfg.work_parent, prefix).map_err(io("creating the working directory"))?;
    let etc = tempfile::Builder::new()
        .prefix("etc-")
        .tempdir_in(&cfg.work_parent)
        .map_err(io("creating the sandbox /etc files"))?;
    let (uid, switch) = run_uid(cfg);
    sandbox::write_etc(etc.path(), uid).map_err(io("writing the sandbox /etc files"))?;
    let work = if sandboxed {
        IN_WORK.to_string()
    } else {
        wd.path().display().to_string()
    };
    let prompt = prompt_md(call, &work)?;
    wd.write_inputs(call.brief, call.previous_review, &prompt)
        .map_err(io("writing the agent's inputs"))?;
    for (name, text) in &call.snapshots {
        wd.write_readonly(name, text)
            .map_err(io("writing a state snapshot"))?;
    }
    if switch {
        wd.chown_to(uid)
            .map_err(io("giving the working directory to the agent uid"))?;
    }
    if cfg.keep_workdirs {
        wd.keep();
        tracing::info!(dir = %wd.path().display(), "keeping the agent working directory");
    }
    let proxy = match (sandboxed && cfg.network, cfg.egress_allow.is_empty()) {
        (true, false) => {
            std::fs::write(etc.path().join("shim.py"), super::egress::SHIM_PY)
                .map_err(io("writing the egress shim"))?;
            let p = super::egress::Proxy::start(
                &etc.path().join("egress.sock"),
                cfg.egress_allow.clone(),
            )
            .map_err(io("starting the egress proxy"))?;
            Some(p)
        }
        _ => None,
    };
    let refused_note = || match &proxy {
        Some(p) if !p.refused().is_empty() => format!(
            "; the egress proxy refused {} (add them to egress_allow if the CLI needs them)",
            p.refused().join(", ")
        ),
        _ => String::new(),
    };
    let mut usage = Usage::default();
    let mut note = String::new();
    for attempt in 1..=2 {
        let values = Values {
            prompt: format!(
                "Read {work}/PROMPT.md and do what it says: write {} in {work}.{note}",
                call.wanted.join(" and ")
            ),
            prompt_file: format!("{work}/PROMPT.md"),
            workdir: work.clone(),
            output_file: format!("{work}/{LAST_MESSAGE}"),
            model: cfg.model.clone(),
            max_turns: cfg.max_turns.to_string(),
        };
        let egress = proxy.is_some();
        let fin = run_once(
            call,
            &wd,
            etc.path(),
            &values,
            &home_files,
            (uid, switch),
            egress,
        )
        .map_err(|e| match e {
            AgentError::Infra(m) => AgentError::Infra(format!("{m}{}", refused_note())),
            other => other,
        })?;
        let mut u = super::stream::usage(&fin.stdout);
        u.calls = 1;
        usage.add(&u);
        let exit = fin.reported_exit.unwrap_or(-1);
        let files = collect(call, &wd, &fin.stdout)?;
        let missing: Vec<&str> = call
            .wanted
            .iter()
            .copied()
            .filter(|w| !files.iter().any(|(n, _)| n == w))
            .collect();
        if missing.is_empty() {
            if exit != 0 {
                tracing::warn!(agent = %cfg.name, exit, "agent CLI exited non-zero but wrote its files");
            }
            return Ok((files, usage));
        }
        if exit != 0 {
            return Err(infra(format!(
                "agent CLI `{}` exited with status {exit} without writing {}; stderr tail: {}{}",
                cfg.name,
                missing.join(", "),
                tail(&fin.stderr, 1500),
                refused_note()
            )));
        }
        if attempt == 2 {
            return Err(AgentError::MalformedAfter {
                why: format!(
                    "agent CLI `{}` did not write {} (missing or empty after a re-run with a note)",
                    cfg.name,
                    missing.join(", ")
                ),
                usage,
            });
        }
        note = format!(
            " Your previous run ended without writing {} (missing or empty): write them now.",
            missing.join(", ")
        );
        wd.append_prompt(&format!("\n## Note from the harness\n\n{}\n", note.trim()))
            .map_err(io("appending the re-run note"))?;
    }
    Err(AgentError::Malformed("no run".into()))
}
