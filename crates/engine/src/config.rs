//! `tuplewright.toml`: the configuration file.
//!
//! Every section is its own `#[serde(default)]` struct, so a file only names what it overrides and
//! later areas add a section by adding one field to [`Config`]. Unknown keys are rejected with their
//! full dotted path (`stats.prices.models.x.inptu_per_mtok`), never silently ignored.

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
    pub agreement: crate::harness::LoopConfig,
    /// The script sandbox (bubblewrap, limits, Python).
    pub sandbox: crate::sandbox::SandboxConfig,
    /// The critic vote (`tuplewright filter`).
    pub filter: tuplewright_records::filter::FilterConfig,
    /// Teacher rollouts (`tuplewright rollout`).
    pub rollout: crate::rollout::RolloutConfig,
    /// Task generation (`tuplewright taskgen`).
    pub taskgen: crate::taskgen::TaskgenConfig,
    /// The agents of a run when the command line names none (`run`, the workbench's jobs).
    pub agents: crate::agents::build::AgentsConfig,
    /// The state API server of `tuplewright env serve` (its flags override the table).
    pub env: crate::env::ServerConfig,
    /// Screens of environments: display size, Chromium, deadlines.
    pub screen: crate::screen::ScreenConfig,
    /// More names for apps (public bundles' `gmail`, `os`, Hub hosts, self-hosted ports).
    pub apps: crate::openenv::AppsConfig,
    /// OSWorld guest endpoints (VMs) as environments: the pool, timeouts and revert hooks.
    pub osworld: crate::osworld::OsworldConfig,
    /// The model behind the public `reward_judge` helper of reward scripts.
    pub judge: crate::openenv::judge::JudgeConfig,
    /// Per-host caps of the worker processes (screens, sandboxes at once on one host).
    pub worker: tuplewright_base::hostcap::WorkerConfig,
    /// Desktop applications' environments (`[desktop] pool`: started ahead of their trials).
    pub desktop: crate::desktop::pool::DesktopConfig,
    /// Curation: the curator's name, note tags, guidelines, the two-curator conflict policy.
    pub curate: tuplewright_records::curate::CurateConfig,
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
    pub fn lease_settings(&self) -> Result<tuplewright_base::lease::LeaseSettings, String> {
        if self.lease_ttl_ms == 0 || self.lease_heartbeat_ms == 0 {
            return Err("[store] lease_ttl_ms and lease_heartbeat_ms must be above 0".into());
        }
        if self.lease_heartbeat_ms >= self.lease_ttl_ms {
            return Err(format!(
                "[store] lease_heartbeat_ms ({}) must be below lease_ttl_ms ({})",
                self.lease_heartbeat_ms, self.lease_ttl_ms
            ));
        }
        Ok(tuplewright_base::lease::LeaseSettings {
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
    /// Tuple statuses that are exported (default: verified and not out, see README "Words").
    pub statuses: Vec<String>,
}

impl Default for ExportConfig {
    fn default() -> Self {
        Self {
            out_dir: PathBuf::from("output/final"),
            url_prefix: String::new(),
            statuses: tuplewright_base::store::TupleStatus::exported_by_default()
                .into_iter()
                .map(|s| s.as_str().to_string())
                .collect(),
        }
    }
}

pub use crate::stats::StatsConfig;
pub use tuplewright_models::providers::prices::{Price, PricesConfig};

/// The documented default configuration, printed by `tuplewright config --default`.
/// A test checks that it parses to exactly [`Config::default`].
pub const DEFAULT_TOML: &str = include_str!("default_config.toml");

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
            crate::sandbox::Limits::default().processes
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
            crate::taskgen::embed::OnError::Fallback
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
