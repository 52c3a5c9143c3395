//! Configuration of the `command` agents: the argv template of an external coding-agent CLI, what
//! it may see and how long it may run, with presets for Claude Code, Codex and Kimi.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Settings of one external coding-agent CLI (shared by the Generator and the Discriminator).
///
/// Templates may use these placeholders (each expands inside one argument, never splits it):
/// `{prompt}` (a short kick-off message telling the agent to read `PROMPT.md`), `{prompt_file}`
/// (path of `PROMPT.md`), `{workdir}` (the agent's private working directory), `{output_file}`
/// (where the CLI may write its last message), `{model}` and `{max_turns}`. Paths are those seen
/// inside the sandbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CommandAgentConfig {
    /// Short name recorded as the agent's provider (`command:<name>`).
    pub name: String,
    /// The command line: program (absolute, or looked up on the sandbox `PATH`) and arguments.
    pub argv: Vec<String>,
    /// Arguments appended only when `model` is set, e.g. `["--model", "{model}"]`.
    pub model_args: Vec<String>,
    /// Text written to the CLI's standard input (e.g. `{prompt}` for `codex exec … -`); `None` =
    /// empty stdin.
    pub stdin: Option<String>,
    /// Model name for `{model}`; empty = the CLI's default (and `model_args` are left out).
    pub model: String,
    /// Value of `{max_turns}`.
    pub max_turns: u32,
    /// Names of host environment variables passed through (API keys, base URLs). Unset ones are
    /// skipped. Nothing else of the host environment reaches the CLI.
    pub env_passthrough: Vec<String>,
    /// Wall-clock limit of one CLI run in seconds; on expiry every process it started is killed.
    pub timeout_seconds: f64,
    /// Host paths bound read-only at the same path inside the sandbox (where the CLI and its
    /// runtime live when outside `/usr`, e.g. `/opt/node`). Must be readable by `run_as_uid`.
    pub extra_ro_binds: Vec<PathBuf>,
    /// Host files bound read-only into the sandbox's private home, at the same path relative to
    /// `$HOME` (e.g. `.codex/auth.json` for a logged-in Codex). Relative to the host's `$HOME`.
    pub home_ro_files: Vec<PathBuf>,
    /// Whether the CLI may use the network (it must reach its model API). Off = a private network
    /// namespace with no route out.
    pub network: bool,
    /// With `network` on: the hosts the CLI may reach, through an HTTP CONNECT proxy
    /// (`HTTPS_PROXY` inside; entries `host` = port 443, `host:port`, `*.domain`). The sandbox
    /// then has a private network namespace: no host loopback, so the engine's state-API servers
    /// and other local services are unreachable. Empty = share the host's network namespace
    /// (loopback included; weaker, for CLIs that ignore `HTTPS_PROXY`).
    pub egress_allow: Vec<String>,
    /// Path of the bubblewrap binary.
    pub bwrap_path: PathBuf,
    /// Non-root uid (and gid) the CLI runs as when the engine runs as root; `None` = the engine's
    /// own uid.
    pub run_as_uid: Option<u32>,
    /// Where the per-call working directories are created (made 0711; each one is 0700).
    pub work_parent: PathBuf,
    /// Bytes of stdout (and separately of stderr) kept; the rest is counted and dropped.
    pub capture_bytes: usize,
    /// Largest output file accepted (bytes).
    pub max_file_bytes: u64,
    /// Run the CLI WITHOUT bubblewrap (no isolation, no information barrier). Recorded in the
    /// agent's name (`…+UNSANDBOXED`) and logged on every call.
    pub unsafe_no_sandbox: bool,
    /// Keep working directories after the call (debugging); they are removed by default.
    pub keep_workdirs: bool,
}

impl Default for CommandAgentConfig {
    fn default() -> Self {
        Self {
            name: "generic".into(),
            argv: Vec::new(),
            model_args: Vec::new(),
            stdin: None,
            model: String::new(),
            max_turns: 30,
            env_passthrough: Vec::new(),
            timeout_seconds: 1800.0,
            extra_ro_binds: Vec::new(),
            home_ro_files: Vec::new(),
            network: true,
            egress_allow: Vec::new(),
            bwrap_path: PathBuf::from("/usr/bin/bwrap"),
            run_as_uid: Some(65534),
            work_parent: std::env::temp_dir().join("tuplewright-agents"),
            capture_bytes: 4 << 20,
            max_file_bytes: 1 << 20,
            unsafe_no_sandbox: false,
            keep_workdirs: false,
        }
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

impl CommandAgentConfig {
    /// Claude Code: `claude -p {prompt} --output-format stream-json --verbose --max-turns N`.
    /// Permission prompts are skipped: the sandbox, not the CLI, is the guard.
    pub fn claude() -> Self {
        Self {
            name: "claude".into(),
            argv: strings(&[
                "claude",
                "-p",
                "{prompt}",
                "--output-format",
                "stream-json",
                "--verbose",
                "--max-turns",
                "{max_turns}",
                "--dangerously-skip-permissions",
            ]),
            model_args: strings(&["--model", "{model}"]),
            env_passthrough: strings(&[
                "ANTHROPIC_API_KEY",
                "ANTHROPIC_AUTH_TOKEN",
                "ANTHROPIC_BASE_URL",
                "ANTHROPIC_MODEL",
                "CLAUDE_CODE_USE_BEDROCK",
                "CLAUDE_CODE_USE_VERTEX",
            ]),
            egress_allow: strings(&["api.anthropic.com"]),
            ..Self::default()
        }
    }

    /// Codex: `codex exec --json --cd {workdir} --output-last-message {output_file} -` with the
    /// prompt on stdin. Codex's own sandbox is bypassed: it runs inside ours.
    pub fn codex() -> Self {
        Self {
            name: "codex".into(),
            argv: strings(&[
                "codex",
                "exec",
                "--json",
                "--cd",
                "{workdir}",
                "--output-last-message",
                "{output_file}",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                "-",
            ]),
            model_args: strings(&["--model", "{model}"]),
            stdin: Some("{prompt}".into()),
            env_passthrough: strings(&["OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_API_KEY"]),
            egress_allow: strings(&["api.openai.com", "chatgpt.com"]),
            ..Self::default()
        }
    }

    /// Kimi CLI: `kimi --prompt {prompt} --output-format stream-json`, run in the working directory.
    pub fn kimi() -> Self {
        Self {
            name: "kimi".into(),
            argv: strings(&[
                "kimi",
                "--prompt",
                "{prompt}",
                "--output-format",
                "stream-json",
            ]),
            model_args: strings(&["--model", "{model}"]),
            env_passthrough: strings(&["KIMI_API_KEY", "MOONSHOT_API_KEY", "KIMI_BASE_URL"]),
            egress_allow: strings(&["api.moonshot.ai", "api.moonshot.cn", "api.kimi.com"]),
            ..Self::default()
        }
    }

    /// A generic command line (already split into words).
    pub fn generic(argv: Vec<String>) -> Self {
        let name = argv
            .first()
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
            .unwrap_or_else(|| "generic".into());
        Self {
            name,
            argv,
            ..Self::default()
        }
    }

    /// Like [`Self::from_spec`], but `command:<name>` first looks `<name>` up in the user's named
    /// configurations (e.g. `[agents.command.myclaude]` in `tuplewright.toml`, composed by the
    /// caller), which win over the built-in presets.
    pub fn from_spec_with(spec: &str, named: &NamedConfigs) -> Result<Self, SpecError> {
        let key = spec.strip_prefix("command:").map(str::trim);
        if let Some(cfg) = key.and_then(|k| named.get(k)) {
            let mut cfg = cfg.clone();
            if cfg.name == Self::default().name {
                cfg.name = key.unwrap_or_default().to_string();
            }
            cfg.validate()?;
            return Ok(cfg);
        }
        Self::from_spec(spec)
    }

    /// Parses the part after `command:` of an agent spec: `claude`, `codex`, `kimi`, or a command
    /// line split like a shell would (`/path/to/agent --flag {prompt_file}`).
    pub fn from_spec(spec: &str) -> Result<Self, SpecError> {
        let rest = spec
            .strip_prefix("command:")
            .ok_or_else(|| SpecError(format!("`{spec}` does not start with `command:`")))?;
        match rest.trim() {
            "claude" => Ok(Self::claude()),
            "codex" => Ok(Self::codex()),
            "kimi" => Ok(Self::kimi()),
            "" => Err(SpecError(format!(
                "`{spec}` names no command: use command:claude, command:codex, command:kimi or \
                 command:<program> <args…>"
            ))),
            line => {
                let words = shlex::split(line).ok_or_else(|| {
                    SpecError(format!(
                        "cannot split `{line}` into words (unbalanced quote?)"
                    ))
                })?;
                let cfg = Self::generic(words);
                cfg.validate()?;
                Ok(cfg)
            }
        }
    }

    /// Checks the templates: a program, known placeholders only, a positive timeout.
    pub fn validate(&self) -> Result<(), SpecError> {
        if self.argv.first().is_none_or(|p| p.trim().is_empty()) {
            return Err(SpecError(format!(
                "agent `{}`: argv is empty (it needs at least the program)",
                self.name
            )));
        }
        let templates = self
            .argv
            .iter()
            .chain(&self.model_args)
            .chain(self.stdin.as_ref());
        for t in templates {
            super::template::check(t)
                .map_err(|e| SpecError(format!("agent `{}`: template `{t}`: {e}", self.name)))?;
        }
        if !(self.timeout_seconds > 0.0 && self.timeout_seconds.is_finite()) {
            return Err(SpecError(format!(
                "agent `{}`: timeout_seconds must be a positive number, got {}",
                self.name, self.timeout_seconds
            )));
        }
        Ok(())
    }
}

/// User-defined command agents by name (`command:<name>` specs resolve here first).
pub type NamedConfigs = std::collections::BTreeMap<String, CommandAgentConfig>;

/// An agent spec or template that cannot be used, with what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid command agent: {0}")]
pub struct SpecError(pub String);
