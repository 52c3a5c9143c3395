//! Shared set-up of the command-agent tests: a world-readable copy of the fake agent CLI, a work
//! parent, a brief, and a fake [`EnvProbe`] standing in for the harness's state-API probe.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::json;
use tuplewright::engine::agents::command::CommandAgentConfig;
use tuplewright::engine::agents::{AgentError, Endpoint, EnvProbe, TaskBrief};

pub const INIT_MARKER: &str = "INIT-MARKER-5171";
pub const GOLD_MARKER: &str = "GOLD-MARKER-9283";

/// Temporary world-traversable directories for one test.
pub struct Rig {
    _tmp: tempfile::TempDir,
    /// Holds `fake_agent.py` and `bin/{claude,codex,kimi}` (0755).
    pub tools: PathBuf,
    /// Parent of the per-call working directories.
    pub work: PathBuf,
}

pub fn rig() -> Rig {
    let tmp = tempfile::Builder::new()
        .prefix("tw-cmd-test-")
        .tempdir_in("/tmp")
        .unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let tools = tmp.path().join("tools");
    std::fs::create_dir_all(tools.join("bin")).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent_cli/fake_agent.py");
    let text = std::fs::read_to_string(src).unwrap();
    for p in [
        tools.join("fake_agent.py"),
        tools.join("bin/claude"),
        tools.join("bin/codex"),
        tools.join("bin/kimi"),
    ] {
        std::fs::write(&p, &text).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let work = tmp.path().join("agents");
    Rig {
        _tmp: tmp,
        tools,
        work,
    }
}

impl Rig {
    /// A generic config running `fake_agent.py MODE ARGS…` in the sandbox.
    pub fn config(&self, mode: &str, args: &[&str]) -> CommandAgentConfig {
        let mut argv = vec![
            self.tools.join("fake_agent.py").display().to_string(),
            mode.to_string(),
        ];
        argv.extend(args.iter().map(|a| a.to_string()));
        CommandAgentConfig {
            extra_ro_binds: vec![self.tools.clone()],
            work_parent: self.work.clone(),
            timeout_seconds: 60.0,
            network: false,
            ..CommandAgentConfig::generic(argv)
        }
    }

    /// The working directories left in the work parent whose names start with `prefix`.
    pub fn dirs(&self, prefix: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&self.work)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        v.retain(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix))
        });
        v
    }
}

pub fn prompts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts")
}

pub fn brief() -> TaskBrief {
    TaskBrief {
        task_id: "chat_topic_007".into(),
        instruction: "Set the topic of #release to 'Release 2.4 freeze'.".into(),
        context: "Channel #release exists with topic 'Planning'.".into(),
        difficulty: "easy".into(),
        apps: vec!["team-chat".into(), "issue-tracker".into()],
        skills: vec![
            ("team-chat".into(), "# team-chat skill\n".into()),
            ("issue-tracker".into(), "# issue-tracker skill\n".into()),
        ],
        structured: serde_json::Value::Null,
    }
}

/// Answers `read_state` with a marker per endpoint.
pub struct FakeProbe;

impl EnvProbe for FakeProbe {
    fn read_state(&self, which: Endpoint) -> Result<serde_json::Value, AgentError> {
        let marker = match which {
            Endpoint::Init => INIT_MARKER,
            Endpoint::Gold => GOLD_MARKER,
        };
        Ok(json!({"apps": {"team-chat": {"current_state": {"topic": marker}}}, "home": []}))
    }

    fn dry_run_reward(&self, _: Endpoint, _: &str) -> Result<String, AgentError> {
        Err(AgentError::Infra("no dry runs in this test".into()))
    }
}

/// Host processes whose command line contains `token`.
pub fn processes_with(token: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if cmd.contains(token) {
            found.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
        }
    }
    found
}

/// The JSON after `# <TAG>: ` on the first line of a script written by the fake agent.
pub fn header_json(script: &str, tag: &str) -> serde_json::Value {
    let line = script
        .lines()
        .find_map(|l| l.strip_prefix(&format!("# {tag}: ")))
        .unwrap_or_else(|| panic!("no `# {tag}:` line in {script}"));
    serde_json::from_str(line).unwrap()
}

/// A probe whose state API is down.
pub struct DownProbe;

impl EnvProbe for DownProbe {
    fn read_state(&self, _: Endpoint) -> Result<serde_json::Value, AgentError> {
        Err(AgentError::Infra(
            "reading http://127.0.0.1:1/go: connection refused".into(),
        ))
    }

    fn dry_run_reward(&self, _: Endpoint, _: &str) -> Result<String, AgentError> {
        Err(AgentError::Infra("down".into()))
    }
}
