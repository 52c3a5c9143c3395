//! Shared set-up for subcommands: load the configuration and open the store.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;

use super::Cli;
use crate::engine::config::Config;
use crate::engine::lease::LeaseKeeper;
use crate::engine::store::db::redact;
use crate::engine::store::Store;

/// Loads `--config` (a missing file is an error only when a non-default path was given).
pub fn load_config(cli: &Cli) -> anyhow::Result<Config> {
    let explicit = cli.config != Path::new("tuplewright.toml");
    Ok(Config::load(&cli.config, explicit)?)
}

/// The `--config` file the command line names (as clap will parse it: `--config X`,
/// `--config=X`, else `$TUPLEWRIGHT_CONFIG`, else `tuplewright.toml`), read before the
/// command line is parsed.
pub fn config_path_from_args(args: impl Iterator<Item = std::ffi::OsString>) -> PathBuf {
    let mut args = args.take_while(|a| a != "--");
    while let Some(arg) = args.next() {
        if arg == "--config" {
            if let Some(v) = args.next() {
                return PathBuf::from(v);
            }
        } else if let Some(v) = arg.to_str().and_then(|a| a.strip_prefix("--config=")) {
            return PathBuf::from(v);
        }
    }
    std::env::var_os("TUPLEWRIGHT_CONFIG")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("tuplewright.toml"))
}

/// Loads the local packs of `[apps] packs` into the app registry, before anything reads it —
/// the full configuration cannot be loaded first, since checking it (aliases, ports) reads the
/// registry. Only that key is read here; a file that is not TOML is left for the command to
/// report. `$TUPLEWRIGHT_PACKS` replaces the key when set. A pack that does not load stops the command, naming its folder and file.
pub fn load_local_packs(config: &Path) -> anyhow::Result<()> {
    let base = config
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let packs = std::fs::read_to_string(config)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|t| t.get("apps")?.get("packs").cloned());
    let from_env = std::env::var_os(crate::apps::local::PACKS_ENV);
    let dirs: Vec<(std::path::PathBuf, bool)> = match packs {
        _ if from_env.is_some() => from_env
            .iter()
            .flat_map(std::env::split_paths)
            .map(|d| (d, true))
            .collect(),
        None => vec![(base.join("apps"), false)],
        Some(v) => {
            let dirs: Vec<std::path::PathBuf> = v.try_into().with_context(|| {
                format!(
                    "{}: [apps] packs must be a list of folders",
                    config.display()
                )
            })?;
            dirs.iter().map(|d| (base.join(d), true)).collect()
        }
    };
    crate::apps::local::load(&dirs)?;
    Ok(())
}

/// Opens `--store` with the configured busy timeout.
pub fn open_store(cli: &Cli, config: &Config) -> anyhow::Result<Store> {
    let timeout = Duration::from_millis(config.store.busy_timeout_ms);
    let store = Store::open(&cli.store, timeout)
        .with_context(|| format!("opening the store {}", redact(&cli.store)))?;
    let from = store.upgraded_from();
    if from > 0 && from < crate::engine::store::SCHEMA_VERSION {
        eprintln!(
            "upgraded store {} from schema version {from} to {}",
            redact(&cli.store),
            crate::engine::store::SCHEMA_VERSION
        );
    }
    Ok(store)
}

/// Opens `--store` for a command that reads what is already there (`tasks`, `stats`, `export`…):
/// a SQLite file that does not exist is refused, naming the path, and not created (a mistyped
/// path must not answer "no tasks"). With `--readonly` the store is opened read-only at the SQLite
/// level (also on read-only media).
pub fn open_existing_store(cli: &Cli, config: &Config) -> anyhow::Result<Store> {
    if !crate::engine::store::db::is_url(&cli.store) && !cli.store.exists() {
        anyhow::bail!(
            "no store at {}: nothing to read (not created) — pass --store PATH, or create one \
             with `tuplewright import` or `tuplewright run`",
            cli.store.display()
        );
    }
    if !cli.readonly {
        return open_store(cli, config);
    }
    let timeout = Duration::from_millis(config.store.busy_timeout_ms);
    Store::open_readonly(&cli.store, timeout)
        .with_context(|| format!("opening the store {} read-only", redact(&cli.store)))
}

/// This process's task-lease keeper on `--store` (`[store] lease_ttl_ms`, `lease_heartbeat_ms`).
pub fn open_leases(cli: &Cli, config: &Config) -> anyhow::Result<Arc<LeaseKeeper>> {
    let settings = config
        .store
        .lease_settings()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let timeout = Duration::from_millis(config.store.busy_timeout_ms);
    let keeper = LeaseKeeper::open(&cli.store, timeout, settings)
        .with_context(|| format!("task leases on {}", redact(&cli.store)))?;
    Ok(Arc::new(keeper))
}
