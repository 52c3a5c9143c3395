//! `tuplewright verify`: re-run the harness checks on tuples that already exist, no agent involved.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use clap::Args;

use super::context::{load_config, open_leases, open_store};
use super::loop_env::with_loop_runtime;
use super::Cli;
use crate::engine::agents::replay::NoAgent;
use crate::engine::bundle::import::import_paths;
use crate::engine::bundle::public::read_bundle;
use crate::engine::harness::verify::verify_task;
use crate::engine::harness::Bus;

/// Arguments of `verify`.
#[derive(Debug, Args)]
#[command(
    about = "Re-verify existing tuples: C1-C5, determinism and a noop probe, with no agent",
    long_about = "Replays the scripts of existing tuples through the harness: initial_setup.py on a fresh \
V_init, initial_setup.py + golden_patch.py on a fresh V_gold, the forbidden-pattern scan, reward.py twice \
on each endpoint, and a noop probe (the reward on an environment where nothing was set up must not score \
1.0). The replay is recorded in the store as a round with source `verify`; the tuple's status is not \
changed.\n\nBUNDLE_DIRs (public layout) are imported first. Exit status 0 when every tuple verifies, 1 when \
any fails or could not be run, 2 on usage errors.\n\nExamples:\n  tuplewright verify output/final/mail_archive_003\n  tuplewright verify --tasks mail_archive_003 team-chat_topic_001"
)]
pub struct VerifyArgs {
    /// Bundle directories in the public layout.
    pub bundles: Vec<PathBuf>,
    /// Stored task ids to verify.
    #[arg(long, num_args = 1..)]
    pub tasks: Vec<String>,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    /// Run scripts WITHOUT the bubblewrap sandbox (recorded). Dangerous.
    #[arg(long)]
    pub unsafe_no_sandbox: bool,
}

/// Runs `verify`.
pub fn run(cli: &Cli, args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    if args.bundles.is_empty() && args.tasks.is_empty() {
        anyhow::bail!("name bundle directories or --tasks ID…");
    }
    let config = load_config(cli)?;
    let mut store = open_store(cli, &config)?;
    let mut ids = args.tasks.clone();
    if !args.bundles.is_empty() {
        let summary = import_paths(&mut store, &args.bundles, &mut |_, _| {})?;
        for p in &summary.problems {
            eprintln!("skipped: {p}");
        }
        for dir in &args.bundles {
            match read_bundle(dir) {
                Ok(b) => ids.push(b.task.task_id.clone()),
                Err(p) => eprintln!("not a bundle: {p}"),
            }
        }
    }
    let leases = open_leases(cli, &config)?;
    let bus = Bus::new(store, vec![])?;
    let cancel = Arc::new(AtomicBool::new(false));
    let results = with_loop_runtime(
        &config,
        args.unsafe_no_sandbox,
        (&NoAgent, &NoAgent),
        &cancel,
        |rt| {
            ids.iter()
                .map(|id| {
                    let r = leases.run_claimed(id, "verify", None, || verify_task(rt, &bus, id));
                    (id.clone(), r)
                })
                .collect::<Vec<_>>()
        },
    )?;
    let mut all_ok = true;
    let mut json_rows = Vec::new();
    let mut leased = 0;
    for (id, r) in results {
        let r = match r {
            Ok(Ok(r)) => r,
            Ok(Err(refused)) => {
                all_ok = false;
                leased += 1;
                let why = refused.refusal().unwrap_or_default();
                eprintln!("{id}: skipped, {why}");
                json_rows.push(serde_json::json!({"task_id": id, "ok": false, "skipped": why}));
                continue;
            }
            Err(e) => Err(e.into()),
        };
        match r {
            Ok(v) => {
                all_ok &= v.ok;
                if !args.json {
                    let noop = v.noop_score.map_or("error".into(), |s| format!("{s:.2}"));
                    let verdict = if v.ok {
                        "VERIFIED".to_string()
                    } else {
                        format!("FAILED {}", v.failing.join(","))
                    };
                    println!("{id:40} {verdict:24} noop={noop}");
                }
                json_rows.push(serde_json::to_value(&v)?);
            }
            Err(e) => {
                all_ok = false;
                eprintln!("{id}: could not verify: {e}");
                json_rows
                    .push(serde_json::json!({"task_id": id, "ok": false, "error": e.to_string()}));
            }
        }
    }
    if leased > 0 {
        eprintln!("{leased} task(s) skipped: leased by another live process");
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json_rows)?);
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
