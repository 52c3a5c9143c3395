//! `tuplewright osworld …`: OSWorld guest endpoints (VMs) from `[osworld]` as environments.
//! `check` health-checks every endpoint; `verify BUNDLE_DIR` runs a public bundle on two of them
//! (V_init, V_gold) and prints the verdict. Exit codes: 0 verified, 1 not verified (the failing
//! checks are listed), 3 infrastructure failure (no verdict, never a score), 2 usage errors.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::context::load_config;
use super::Cli;
use crate::engine::osworld::{verify_bundle, GuestClient, OsworldError, Pool};

/// `tuplewright osworld`.
#[derive(Debug, Args)]
pub struct OsworldArgs {
    #[command(subcommand)]
    command: OsworldCommand,
}

#[derive(Debug, Subcommand)]
enum OsworldCommand {
    /// Probe every `[osworld]` endpoint (`GET /terminal`) and print which answer.
    Check {
        /// Print JSON lines.
        #[arg(long)]
        json: bool,
    },
    /// Verify a public bundle on two endpoints: config steps + initial_setup.py + reward.py on
    /// V_init (must score 0), the same + golden_patch.py on V_gold (must score 1).
    Verify {
        /// The bundle directory (config.json, initial_setup.py, golden_patch.py, reward.py).
        bundle: PathBuf,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Exit code of an infrastructure failure.
const INFRA_EXIT: u8 = 3;

/// Runs `tuplewright osworld …`.
pub fn run(cli: &Cli, args: &OsworldArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(cli)?;
    config.osworld.validate().map_err(anyhow::Error::msg)?;
    anyhow::ensure!(
        !config.osworld.endpoints.is_empty(),
        "no OSWorld endpoints: add [[osworld.endpoints]] url = \"http://HOST:5000\" to {}",
        cli.config.display()
    );
    match &args.command {
        OsworldCommand::Check { json } => {
            let mut down = 0;
            for e in &config.osworld.endpoints {
                let r = GuestClient::new(&e.url).and_then(|c| c.alive(Duration::from_secs(10)));
                down += usize::from(r.is_err());
                let err = r.err().map(|e| e.to_string());
                if *json {
                    println!(
                        "{}",
                        serde_json::json!({"url": e.url, "up": err.is_none(), "error": err})
                    );
                } else {
                    println!("{:<40} {}", e.url, err.as_deref().unwrap_or("up"));
                }
            }
            Ok(if down == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(INFRA_EXIT)
            })
        }
        OsworldCommand::Verify { bundle, json } => {
            let pool = Pool::new(config.osworld.clone())?;
            match verify_bundle(&pool, bundle) {
                Ok(v) => {
                    if *json {
                        println!("{}", serde_json::to_string(&v)?);
                    } else if v.ok {
                        println!("{}: verified (V_init 0, V_gold 1)", v.task_id);
                    } else {
                        println!("{}: NOT verified: {}", v.task_id, v.failing.join(", "));
                        for r in [&v.init, &v.gold] {
                            if let Some(f) = &r.failure {
                                println!("  {} ({}): {f}", r.endpoint, r.url);
                            }
                        }
                    }
                    Ok(if v.ok {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(1)
                    })
                }
                Err(OsworldError::Infra(m)) => {
                    if *json {
                        println!("{}", serde_json::json!({"ok": null, "infra_failure": m}));
                    }
                    eprintln!("could not verify (no verdict): infrastructure failure: {m}");
                    Ok(ExitCode::from(INFRA_EXIT))
                }
                Err(e) => Err(anyhow::anyhow!("osworld verify {}: {e}", bundle.display())),
            }
        }
    }
}
