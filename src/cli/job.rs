//! `tuplewright job pause|resume|cancel|status|budget|cap`: the store's controls every worker on it
//! obeys (see [`crate::engine::worker::control`]); the workbench's pause and cancel write the same
//! control when its store is shared.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::context::{load_config, open_store};
use super::Cli;
use crate::engine::limits;
use crate::engine::worker::control::{self, JobState};

/// `job` subcommands.
#[derive(Debug, Subcommand)]
pub enum JobCommand {
    /// Pause every worker of the store: tasks in flight finish, none is claimed until `resume`.
    Pause,
    /// Let the workers claim again after `pause` or `cancel`.
    Resume,
    /// Cancel for every worker: tasks in flight are abandoned like Ctrl-C (left pending, no
    /// partial round stored, leases released) and the workers exit (status 3); workers started
    /// later exit at once until `resume`.
    Cancel,
    /// The store's job state, budgets and what was spent, endpoint caps and task leases held, as
    /// JSON.
    Status,
    /// Set or clear the global budgets: tokens (input + output over all usage rows) and/or US
    /// dollars (the cost recorded with each usage row): when one is spent, workers claim nothing
    /// more, finish what is in flight and exit (status 4).
    Budget(BudgetArgs),
    /// Cap the calls to one LLM endpoint (`kind:model`, as the providers name themselves) across
    /// every worker of the store: in flight at once (`--calls`) and/or started per minute
    /// (`--per-minute`); `--clear` removes both.
    Cap(CapArgs),
}

/// Arguments of `job cap`.
#[derive(Debug, Args)]
pub struct CapArgs {
    /// The endpoint, `kind:model` (e.g. `openai:gpt-4.1-mini`).
    #[arg(long)]
    pub endpoint: String,
    /// Calls in flight at once, all workers together (at least 1).
    #[arg(long, conflicts_with = "clear")]
    pub calls: Option<u32>,
    /// Calls started per minute (a sliding 60 s window), all workers together (at least 1).
    #[arg(long, conflicts_with = "clear")]
    pub per_minute: Option<u32>,
    /// Remove both caps.
    #[arg(long)]
    pub clear: bool,
}

/// Arguments of `job budget`.
#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// The budget in tokens (all stages, all workers, counted from the store's usage rows).
    #[arg(long, conflicts_with = "clear")]
    pub tokens: Option<i64>,
    /// The budget in US dollars (all stages, all workers, the costs recorded with the usage rows
    /// at the configured prices).
    #[arg(long, conflicts_with = "clear")]
    pub usd: Option<f64>,
    /// Remove both budgets.
    #[arg(long)]
    pub clear: bool,
}

/// Runs `job …`.
pub fn run(cli: &Cli, cmd: &JobCommand) -> anyhow::Result<ExitCode> {
    let config = load_config(cli)?;
    let mut store = open_store(cli, &config)?;
    let (to, verb) = match cmd {
        JobCommand::Pause => (JobState::Paused, "paused"),
        JobCommand::Resume => (JobState::Running, "resumed"),
        JobCommand::Cancel => (JobState::Cancelled, "cancelled"),
        JobCommand::Status => {
            let mut v = serde_json::to_value(control::status(store.conn())?)?;
            let caps: serde_json::Map<String, serde_json::Value> = limits::caps(store.conn())?
                .into_iter()
                .map(|(e, n)| (e, n.into()))
                .collect();
            v["endpoint_caps"] = caps.into();
            let rates: serde_json::Map<String, serde_json::Value> =
                limits::rate::rates(store.conn())?
                    .into_iter()
                    .map(|(e, n)| (e, n.into()))
                    .collect();
            v["endpoint_rates_per_minute"] = rates.into();
            println!("{}", serde_json::to_string_pretty(&v)?);
            return Ok(ExitCode::SUCCESS);
        }
        JobCommand::Cap(c) => {
            if c.calls.is_none() && c.per_minute.is_none() && !c.clear {
                anyhow::bail!("job cap: give --calls N, --per-minute N or --clear");
            }
            let by = control::requester("job cap");
            store.write(|tx| {
                if c.clear || c.calls.is_some() {
                    limits::set_cap(tx, &c.endpoint, c.calls, &by)?;
                }
                if c.clear || c.per_minute.is_some() {
                    limits::rate::set_rate(tx, &c.endpoint, c.per_minute, &by)?;
                }
                Ok::<_, crate::engine::store::StoreError>(())
            })?;
            if let Some(n) = c.calls {
                println!(
                    "{}: at most {n} call(s) at once over every worker",
                    c.endpoint
                );
            }
            if let Some(n) = c.per_minute {
                println!(
                    "{}: at most {n} call(s) started per minute over every worker",
                    c.endpoint
                );
            }
            if c.clear {
                println!("{}: caps removed", c.endpoint);
            }
            return Ok(ExitCode::SUCCESS);
        }
        JobCommand::Budget(b) => {
            if b.tokens.is_none() && b.usd.is_none() && !b.clear {
                anyhow::bail!("job budget: give --tokens N, --usd X or --clear");
            }
            let by = control::requester("job budget");
            store.write(|tx| {
                if b.clear || b.tokens.is_some() {
                    control::set_token_budget(tx, b.tokens, &by)?;
                }
                if b.clear || b.usd.is_some() {
                    control::set_usd_budget(tx, b.usd, &by)?;
                }
                Ok::<_, crate::engine::store::StoreError>(())
            })?;
            let used = control::tokens_used(store.conn())?;
            let usd = control::usd_used(store.conn())?;
            if let Some(n) = b.tokens {
                println!("token budget set to {n} ({used} used so far)");
            }
            if let Some(x) = b.usd {
                println!("cost budget set to ${x:.4} (${usd:.4} used so far)");
            }
            if b.clear {
                println!("budgets removed ({used} tokens, ${usd:.4} used so far)");
            }
            return Ok(ExitCode::SUCCESS);
        }
    };
    let by = control::requester(&format!("job {}", to_verb(to)));
    match store.write(|tx| control::set_job_state(tx, to, &by))? {
        Some(from) => println!(
            "job {verb} for every worker of the store (was {})",
            from.as_str()
        ),
        None => println!(
            "nothing to do: the store's job is already {}",
            control::job_state(store.conn())?.as_str()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn to_verb(s: JobState) -> &'static str {
    match s {
        JobState::Running => "resume",
        JobState::Paused => "pause",
        JobState::Cancelled => "cancel",
    }
}
