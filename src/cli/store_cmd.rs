//! `tuplewright store copy FROM TO`: move a store between backends (SQLite file ↔ PostgreSQL URL),
//! verified table by table (see [`crate::engine::store::copy`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, Subcommand};

use super::context::load_config;
use super::Cli;
use crate::engine::store::copy::copy_store;
use crate::engine::store::db::redact;
use crate::engine::store::Store;

/// Store maintenance commands.
#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Copy every row of store FROM into the empty store TO (either may be a SQLite file or a
    /// postgres:// URL), then verify row counts and content hashes of every table.
    Copy(CopyArgs),
}

/// Arguments of `store copy`.
#[derive(Debug, Args)]
pub struct CopyArgs {
    /// The source store (read only).
    pub from: PathBuf,
    /// The target store: created if it does not exist, must hold no task.
    pub to: PathBuf,
}

/// Runs `store …`.
pub fn run(cli: &Cli, cmd: &StoreCommand) -> anyhow::Result<ExitCode> {
    let StoreCommand::Copy(args) = cmd;
    let config = load_config(cli)?;
    let timeout = Duration::from_millis(config.store.busy_timeout_ms);
    let from = Store::open_readonly(&args.from, timeout)
        .with_context(|| format!("opening the source store {}", redact(&args.from)))?;
    let mut to = Store::open(&args.to, timeout)
        .with_context(|| format!("opening the target store {}", redact(&args.to)))?;
    let report = copy_store(&from, &mut to)
        .with_context(|| format!("copying {} to {}", redact(&args.from), redact(&args.to)))?;
    for t in &report.tables {
        println!(
            "{:<16} {:>8} rows  sha256 {}  ok",
            t.table,
            t.rows,
            &t.sha256[..16]
        );
    }
    println!(
        "copied {} to {}: {} tables verified, {} screenshot file(s)",
        redact(&args.from),
        redact(&args.to),
        report.tables.len(),
        report.screenshot_files
    );
    Ok(ExitCode::SUCCESS)
}
