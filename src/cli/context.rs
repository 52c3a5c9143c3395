//! Shared set-up for subcommands: load the configuration and open the store.

use std::path::Path;
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
