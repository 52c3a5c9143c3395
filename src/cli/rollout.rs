//! `tuplewright rollout`: teacher rollouts and the oracle/noop probes.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use clap::Args;

use super::context::{load_config, open_existing_store, open_leases};
use super::Cli;
use crate::engine::config::Config;
use crate::engine::harness::{Bus, JobControl};
use crate::engine::jobs::rollout::{RolloutEnv, RolloutSpec};
use crate::engine::jobs::{JobEvent, JobEventKind};
use crate::engine::rollout::batch::TupleResult;
use crate::engine::rollout::spec::PolicySpec;
use crate::engine::rollout::stage::Conclusion;
use crate::engine::rollout::PolicyKind;
use crate::engine::store::{TaskFilter, TupleStatus};

/// Arguments of `rollout`.
#[derive(Debug, Args)]
#[command(
    about = "Roll a policy out on tuples: oracle/noop probes of the reward, or a teacher deciding inclusion",
    long_about = "Each trial provisions a fresh V_init (initial_setup.py), lets the policy act, reads the final \
state (state diff of each web app, files of the home) and runs reward.py in the reader role; with --judge a \
judge also scores the trial against a checklist distilled from the instruction: openai:MODEL[@URL] reads the final \
state; vlm:openai:MODEL[@URL], anthropic:MODEL[@URL] and openai-responses:MODEL[@URL] look at the trial's last \
[rollout] judge_screenshots screenshots (the final screen last; the final state for a trial without a screen). \
Every trial is stored.\n\n\
Policies:\n  oracle   replays golden_patch.py: must score 1.0 on every tuple (a miss is a reward defect, listed)\n  \
noop     does nothing: must score 0.0 (with --screen: starts the task's screen, takes its screenshot, does nothing)\n  \
ui-oracle does each task through its screen only (files: the desktop's terminal), every step recorded: must score 1.0\n  command  runs --command on the host with TW_TASK_ID, TW_INSTRUCTION, TW_TRIAL, \
TW_HOME, TW_SID, TW_APP, TW_STATE_URL, TW_APPS_JSON set (plug in any computer-use agent)\n\n\
For command (a teacher), the A.4.2 rule decides tuples in status voted: both means in (0,1) and closer than \
delta -> final; both 0 -> rollout_rejected (unsolvable); 1.0 on the first trial -> trivial (rejected unless kept \
by --trivial-keep); disagreement -> with --discriminator, up to two refinement passes (the Discriminator rewrites \
reward.py from the disagreement, C1-C5 re-checked, trials re-rolled), then dropped if still disagreeing; without \
it, needs_human. Without --judge the reward score decides alone (said in the \
decision). A failed trial (agent, reward or judge error) means no decision, never a 0 score.\n\n\
Exit status: 0 all good, 1 a probe found a defect or a trial failed, 2 usage error.\n\n\
Examples:\n  tuplewright rollout --policy oracle\n  tuplewright rollout --policy noop --tasks mail_archive_003\n  tuplewright rollout --policy ui-oracle --jobs 4\n  \
tuplewright rollout --policy command --command 'my-agent --task \"$TW_INSTRUCTION\"' --trials 3 --judge anthropic:claude-sonnet-4-5\n  \
tuplewright rollout --policy vlm:openai:Qwen/Qwen2.5-VL-7B-Instruct@http://127.0.0.1:8000/v1 --trials 4"
)]
pub struct RolloutArgs {
    /// The policy: `oracle` (probe: golden patch, must score 1.0), `noop` (probe: must score 0.0),
    /// `ui-oracle` (probe: the task done through its screen only, must score 1.0),
    /// `command` (an external agent, --command), or a VLM teacher acting through a screen:
    /// `vlm:openai:MODEL[@BASE_URL]`, `anthropic:MODEL[@BASE_URL]`, `openai-responses:MODEL[@BASE_URL]`
    /// (settings in [rollout.vlm]).
    #[arg(long, default_value = "oracle")]
    pub policy: String,
    /// Trials per tuple (default: 1 for probes, 3 for command).
    #[arg(long)]
    pub trials: Option<u32>,
    /// Only these tasks (default: probes take every tuple past the loop and not rejected; command takes voted).
    #[arg(long, num_args = 1..)]
    pub tasks: Vec<String>,
    /// The external agent command (policy command), run with `sh -c`.
    #[arg(long)]
    pub command: Option<String>,
    /// Wall-clock limit of one command run, seconds (default: [rollout] command_timeout_secs, 1800).
    #[arg(long)]
    pub command_timeout: Option<f64>,
    /// Judge spec: openai:MODEL[@URL] (final state), or a judge on screenshots
    /// vlm:openai:MODEL[@URL], anthropic:MODEL[@URL], openai-responses:MODEL[@URL];
    /// none = [rollout] judge, empty = reward score alone.
    #[arg(long)]
    pub judge: Option<String>,
    /// Discriminator for refinement passes on reward/judge disagreement (openai:MODEL[@URL],
    /// anthropic:MODEL); without it a disagreeing tuple is queued for a human.
    #[arg(long)]
    pub discriminator: Option<String>,
    /// δ: reward and judge means closer than this agree (default: [rollout] delta, 0.25).
    #[arg(long)]
    pub delta: Option<f64>,
    /// Share of trivial tuples kept (0-1, deterministic per task; default: [rollout] trivial_keep_fraction, 0).
    #[arg(long)]
    pub trivial_keep: Option<f64>,
    /// Directory holding judge.md (default: ./prompts, else the bundled prompts).
    #[arg(long)]
    pub prompts: Option<PathBuf>,
    /// Give the policy the task's screen (noop: start it, take its screenshot, do nothing).
    #[arg(long)]
    pub screen: bool,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    /// Run scripts WITHOUT the bubblewrap sandbox (recorded). Dangerous.
    #[arg(long)]
    pub unsafe_no_sandbox: bool,
    /// Tuples rolled out at once, each with its own environment and screen (default 1). Screens
    /// still obey `[worker] screens` (a start waits while every host slot is held); the results
    /// are those of a serial run apart from timing.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,
    /// Where trials run: `local`, or `osworld` (a guest of the [osworld] pool per trial,
    /// reverted by its hook; noop and oracle policies). Overrides [loop] environments.
    #[arg(long = "env", value_name = "local|osworld")]
    pub environments: Option<String>,
}

/// The policy `--policy` names (`command` takes its command line from `--command`).
fn policy_spec(args: &RolloutArgs) -> anyhow::Result<PolicySpec> {
    if args.policy.trim() == "command" {
        let cmd = args
            .command
            .clone()
            .ok_or_else(|| anyhow::anyhow!("--policy command needs --command CMD"))?;
        return Ok(PolicySpec::Command(cmd));
    }
    args.policy
        .parse()
        .map_err(|e| anyhow::anyhow!("--policy: {e}"))
}

/// The rollout job `args` ask for (tasks resolved against `store`).
fn job_spec(
    args: &RolloutArgs,
    config: &Config,
    store: &crate::engine::store::Store,
) -> anyhow::Result<RolloutSpec> {
    let policy = policy_spec(args)?;
    if args.screen && policy != PolicySpec::Noop {
        anyhow::bail!("--screen applies to --policy noop (ui-oracle and the VLM teachers always use the screen)");
    }
    let mut spec = RolloutSpec::from_config(config, Vec::new(), policy);
    let r = &mut spec.rollout;
    r.delta = args.delta.unwrap_or(r.delta);
    r.trivial_keep_fraction = args.trivial_keep.unwrap_or(r.trivial_keep_fraction);
    r.command_timeout_secs = args.command_timeout.unwrap_or(r.command_timeout_secs);
    if !(0.0..=1.0).contains(&r.trivial_keep_fraction) || r.delta <= 0.0 {
        anyhow::bail!("--trivial-keep must be in [0, 1] and --delta above 0");
    }
    if let Some(j) = &args.judge {
        spec.judge = Some(j.trim().to_string()).filter(|j| !j.is_empty());
    }
    spec.noop_screen = args.screen;
    let teacher = spec.policy.is_teacher() && !spec.noop_screen;
    spec.trials = args
        .trials
        .unwrap_or(if teacher { spec.rollout.trials } else { 1 });
    spec.refiner = args.discriminator.clone();
    spec.prompts = args.prompts.clone();
    spec.jobs = args.jobs.into();
    spec.isolation = super::loop_env::isolation(args.unsafe_no_sandbox);
    let by_stage: &[TupleStatus] = if teacher {
        &[TupleStatus::Voted]
    } else {
        &[
            TupleStatus::LoopAccepted,
            TupleStatus::NeedsHuman,
            TupleStatus::Voted,
            TupleStatus::Final,
        ]
    };
    // Without --tasks the stage picks tuples by status, and the claim re-checks it.
    if args.tasks.is_empty() {
        spec.wanted = Some(by_stage.to_vec());
        spec.tasks = store
            .list_tasks(&TaskFilter::default())?
            .into_iter()
            .filter(|t| by_stage.iter().any(|w| w.as_str() == t.status))
            .map(|t| t.task.task_id)
            .collect();
    } else {
        spec.tasks = args.tasks.clone();
    }
    Ok(spec)
}

/// Runs `rollout`.
pub fn run(cli: &Cli, args: &RolloutArgs) -> anyhow::Result<ExitCode> {
    let mut config = load_config(cli)?;
    if let Some(e) = &args.environments {
        config.agreement.environments = e.parse().map_err(|m| anyhow::anyhow!("--env: {m}"))?;
    }
    let store = open_existing_store(cli, &config)?;
    let spec = job_spec(args, &config, &store)?;
    // Refused before anything runs: a policy, judge or refiner that cannot be built.
    let policy = spec.build_policy(&config)?;
    spec.build_judge()?;
    // Screens and sandbox runs of this process obey the host's caps, whatever --jobs asks.
    super::worker::install_host_caps(&config)?;
    let leases = open_leases(cli, &config)?;
    let screenshots_dir = store.screenshots().root().display().to_string();
    let bus = Bus::new(store, vec![])?;
    let cancel = Arc::new(AtomicBool::new(false));
    // Ctrl-C (the runtime's flag) stops starting tuples; the handle's own flag stays unset.
    let control = JobControl::new(JobControl::new_id("rollout"), Default::default());
    let on_start = |rt: &tokio::runtime::Runtime| {
        super::loop_env::on_start(rt, &cancel, args.unsafe_no_sandbox)
    };
    let env = RolloutEnv {
        config: &config,
        bus: &bus,
        leases: &leases,
        control: &control,
        cancel: &cancel,
        on_start: &on_start,
    };
    // One progress line per tuple as it finishes (stderr; the table comes at the end).
    let total = spec.tasks.len();
    let progress = |e: &JobEvent| {
        if let JobEventKind::TupleDone { task, outcome } = &e.kind {
            eprintln!("rollout {}/{total}: {task} {outcome}", e.seq);
        }
    };
    let results = crate::engine::jobs::rollout::run(&spec, &env, &progress)?;
    let mut ok = true;
    let mut rows = Vec::new();
    let mut refused = 0;
    for (id, r) in results {
        let r = match r {
            TupleResult::Done(r) => r,
            TupleResult::Skipped(why) => {
                refused += 1;
                eprintln!("{id}: skipped, {why}");
                rows.push(serde_json::json!({"task_id": id, "skipped": why}));
                continue;
            }
            TupleResult::ClaimFailed(e) => {
                ok = false;
                eprintln!("{id}: cannot claim the task: {e}");
                rows.push(serde_json::json!({"task_id": id, "error": e}));
                continue;
            }
        };
        match r {
            Ok(t) => {
                let line = match &t.conclusion {
                    Conclusion::Probe { expected, defects } if defects.is_empty() => {
                        format!("OK (every trial scored {expected})")
                    }
                    Conclusion::Probe { defects, .. } => {
                        ok = false;
                        // A screen probe's miss may be the planner's or the UI's, not the reward's.
                        let what = if policy.name() == "ui-oracle" {
                            "MISS (planner, UI or reward)"
                        } else {
                            "REWARD DEFECT"
                        };
                        format!("{what}: {}", defects.join("; "))
                    }
                    Conclusion::Teacher {
                        classified,
                        note,
                        decision,
                        ..
                    } => format!(
                        "{:?} reward={:.3} judge={:.3}{}{}",
                        classified.inclusion,
                        classified.reward_mean,
                        classified.judge_mean,
                        note.as_deref()
                            .map(|n| format!(" ({n})"))
                            .unwrap_or_default(),
                        decision
                            .as_ref()
                            .map(|d| format!(" -> {}", d.after))
                            .unwrap_or_default()
                    ),
                    Conclusion::Failed { failures } => {
                        ok = false;
                        let what = if matches!(policy.kind(), PolicyKind::Probe { .. }) {
                            "NOT SCORED (the trial failed; no verdict on the reward)"
                        } else {
                            "NO DECISION"
                        };
                        format!("{what}: {}", failures.join("; "))
                    }
                };
                if !args.json {
                    println!("{id:40} {line}");
                }
                let mut row = serde_json::to_value(&t)?;
                if t.trials.iter().any(|t| !t.steps.is_empty()) {
                    row["screenshots_dir"] = screenshots_dir.clone().into();
                }
                rows.push(row);
            }
            Err(e) => {
                ok = false;
                eprintln!("{id}: {e}");
                rows.push(serde_json::json!({"task_id": id, "error": e.to_string()}));
            }
        }
    }
    if refused > 0 {
        eprintln!(
            "{refused} tuple(s) skipped: leased by another live process or no longer eligible"
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
