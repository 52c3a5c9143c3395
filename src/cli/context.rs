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
