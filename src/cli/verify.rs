//! `tuplewright verify`: re-run the harness checks on tuples that already exist, no agent involved.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use clap::Args;

use super::context::{load_config, open_leases, open_store};
use super::Cli;
use crate::engine::bundle::import::import_paths;
use crate::engine::bundle::public::read_bundle;
use crate::engine::harness::verify::Verification;
use crate::engine::harness::Bus;
use crate::engine::jobs::verify::{Verified, VerifyEnv, VerifySpec};
use crate::engine::store::Store;

/// Arguments of `verify`.
#[derive(Debug, Args)]
#[command(
    about = "Re-verify existing tuples: C1-C5, determinism and the reward probes, with no agent",
    long_about = "Replays the scripts of existing tuples through the harness: initial_setup.py on a fresh \
V_init, initial_setup.py + golden_patch.py on a fresh V_gold, the forbidden-pattern scan, reward.py twice \
on each endpoint, and — once C1-C5 hold — three probes the reward must score at most [loop] \
probe_threshold (default 0.0) on: noop (a fresh environment, nothing set up: every app at its default \
state, an external app's declared `seed` included), empty_state (every data collection of the app's \
state schema emptied, configuration as in V_init, an empty home) and destructive (V_init with every \
collection the golden diff touches wiped, nothing else). A probe above the threshold fails verification \
as `probe:<name>`. A setup whose state does not fit the declared schema of the app it runs on (e.g. a \
calendar aliased to the issue tracker) is an invalid task.\n\n\
The replay is recorded as a round with source `verify` and its outcome as a decision: an imported \
(unverified) tuple that passes becomes `final` (or `vote_rejected` when its bundle says reject: true); \
a tuple that fails becomes `verify_failed` with the failing checks as the reason. An infrastructure \
failure changes nothing.\n\n\
BUNDLE_DIRs (public layout) are imported first; a bundle whose id is already stored with different \
scripts is refused unless --replace is given. Exit status 0 when every tuple verifies, 1 when any fails \
or could not be run, 2 on usage errors.\n\nExamples:\n  tuplewright verify output/final/mail_archive_003\n  \
tuplewright verify --tasks mail_archive_003 team-chat_topic_001 --json"
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
    /// Let a bundle replace the stored scripts of a task with the same id.
    #[arg(long)]
    pub replace: bool,
    /// Run scripts WITHOUT the bubblewrap sandbox (recorded). Dangerous.
    #[arg(long)]
    pub unsafe_no_sandbox: bool,
}

/// Refuses bundles whose id is stored with other scripts (unless `replace`); returns their ids.
fn check_bundles(store: &Store, dirs: &[PathBuf], replace: bool) -> anyhow::Result<Vec<String>> {
    let mut ids = Vec::new();
    let mut clashes = Vec::new();
    for dir in dirs {
        let b = read_bundle(dir).map_err(|p| anyhow::anyhow!("not a bundle: {p}"))?;
        let id = b.task.task_id.clone();
        let stored = store.rounds(&id).unwrap_or_default();
        let latest = stored
            .iter()
            .rev()
            .find(|r| r.round.scripts.reward.is_some());
        if latest.is_some_and(|r| r.round.scripts != b.round.scripts) && !replace {
            clashes.push(format!("{id} (from {})", dir.display()));
        }
        ids.push(id);
    }
    if !clashes.is_empty() {
        anyhow::bail!(
            "already in the store with different scripts: {}; verify the stored tuple with --tasks ID, or pass --replace to import the bundle's scripts over it",
            clashes.join(", ")
        );
    }
    Ok(ids)
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
        ids.extend(check_bundles(&store, &args.bundles, args.replace)?);
        let summary = import_paths(&mut store, &args.bundles, &mut |_, _| {})?;
        for p in summary.problems.iter().chain(&summary.skipped) {
            eprintln!("skipped: {p}");
        }
    }
    let leases = open_leases(cli, &config)?;
    let bus = Bus::new(store, vec![])?;
    let cancel = Arc::new(AtomicBool::new(false));
    let spec = VerifySpec {
        tasks: ids,
        isolation: super::loop_env::isolation(args.unsafe_no_sandbox),
    };
    let on_start = |rt: &tokio::runtime::Runtime| {
        super::loop_env::on_start(rt, &cancel, args.unsafe_no_sandbox)
    };
    let control = crate::engine::harness::JobControl::new(
        crate::engine::harness::JobControl::new_id("verify"),
        cancel.clone(),
    );
    let env = VerifyEnv {
        config: &config,
        bus: &bus,
        leases: &leases,
        cancel: &cancel,
        control: &control,
        on_start: &on_start,
    };
    let results = crate::engine::jobs::verify::run(&spec, &env, &|_| {})?;
    let mut all_ok = true;
    let mut json_rows = Vec::new();
    let mut leased = 0;
    for (id, r) in results {
        let r = match r {
            Verified::Done(r) => r,
            Verified::Skipped(why) => {
                all_ok = false;
                leased += 1;
                eprintln!("{id}: skipped, {why}");
                json_rows.push(serde_json::json!({"task_id": id, "ok": false, "skipped": why}));
                continue;
            }
        };
        match r {
            Ok(v) => {
                all_ok &= v.ok;
                if !args.json {
                    print_human(&v);
                }
                json_rows.push(serde_json::to_value(&v)?);
            }
            Err(e) => {
                all_ok = false;
                eprintln!("{id}: could not verify (status unchanged): {e}");
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

fn print_human(v: &Verification) {
    let verdict = if v.ok {
        "VERIFIED".to_string()
    } else {
        format!("FAILED {}", v.failing.join(","))
    };
    let status = if v.status == v.status_before {
        v.status.clone()
    } else {
        format!("{} -> {}", v.status_before, v.status)
    };
    println!("{:40} {verdict:24} {status}", v.task_id);
    for p in &v.probes {
        let word = if p.pass { "pass" } else { "FAIL" };
        println!("  probe:{:<12} {word}  {}", p.probe, p.details);
    }
}
