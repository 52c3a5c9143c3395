//! `tuplewright filter`: the critic majority vote over loop-accepted tuples.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::context::{load_config, open_existing_store};
use super::Cli;
use crate::engine::filter::rules::{decide_all, Rules};
use crate::engine::filter::{Critic, Outcome};
use crate::engine::harness::{Bus, JobControl};
use crate::engine::jobs::filter::FilterSpec;

/// Arguments of `filter`.
#[derive(Debug, Args)]
#[command(
    about = "Critic majority vote over loop-accepted tuples (keep / modify_query / reject)",
    long_about = "Each voter reviews the instruction and the three scripts of every tuple in status \
loop_accepted and returns the JSON vote of prompts/critic.md (verdict, severity P0-P3, issues, pool fit, \
confidence, revised_query). Every vote is stored, failed ones included. A tuple is admitted (status voted) \
when at least the quorum of voters say keep or modify_query; a majority of modify_query releases the \
highest-confidence revised instruction; ties reject (vote_rejected). Fewer valid votes than the quorum \
leaves the tuple `undecided` in needs_human: never kept by default.\n\n\
Voters: `scripted` (explicit heuristic checks, no model, labelled as heuristics in their votes), \
`openai:MODEL[@BASE_URL]`, `anthropic:MODEL`; repeat or comma-separate for a heterogeneous ensemble.\n\n\
--rules FILE then decides the queued tuples headlessly (see `tuplewright override --help`).\n\n\
Examples:\n  tuplewright filter\n  tuplewright filter --voters scripted,openai:gpt-4.1-mini,anthropic:claude-sonnet-4-5 --quorum paper"
)]
pub struct FilterArgs {
    /// Voters (comma-separated or repeated): scripted, openai:MODEL[@URL], anthropic:MODEL.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub voters: Vec<String>,
    /// Admitting votes needed: strict (floor(V/2)+1), paper (ceil(V/2)+1) or a number (default: [filter] quorum, strict).
    #[arg(long)]
    pub quorum: Option<String>,
    /// Only these tasks (default: every tuple in loop_accepted).
    #[arg(long, num_args = 1..)]
    pub tasks: Vec<String>,
    /// Times an invalid critic reply is retried before the vote counts as failed (default: [filter] max_invalid_retries, 2).
    #[arg(long)]
    pub retries: Option<u32>,
    /// Directory holding critic.md (default: ./prompts, else the bundled prompts).
    #[arg(long)]
    pub prompts: Option<PathBuf>,
    /// A rules file deciding the tuples left undecided (TOML; see `override --help`).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}

fn prompts_dir(arg: &Option<PathBuf>) -> PathBuf {
    crate::engine::agents::build::prompts_dir(arg.as_deref(), "critic.md")
}

/// Builds the voters named on the command line (the filter job's own builder).
pub fn build_critics(
    voters: &[String],
    prompts: &std::path::Path,
    retries: u32,
) -> anyhow::Result<Vec<Box<dyn Critic>>> {
    Ok(crate::engine::jobs::filter::build_critics(
        voters, prompts, retries,
    )?)
}

/// Runs `filter`.
pub fn run(cli: &Cli, args: &FilterArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(cli)?;
    let mut store = open_existing_store(cli, &config)?;
    let voters = if args.voters.is_empty() {
        config.filter.voters.clone()
    } else {
        args.voters.clone()
    };
    let spec = FilterSpec {
        tasks: args.tasks.clone(),
        voters,
        quorum: args.quorum.clone().unwrap_or(config.filter.quorum.clone()),
        retries: args.retries.unwrap_or(config.filter.max_invalid_retries),
        prompts: prompts_dir(&args.prompts),
    };
    if let Err(e) = spec.quorum() {
        anyhow::bail!("--{e}");
    }
    // The job's events (`job.*`) go through a second connection, so the Live screen of a
    // workbench on this store follows the vote.
    let bus = Bus::new(open_existing_store(cli, &config)?, vec![])?;
    let control = JobControl::new(JobControl::new_id("filter"), Default::default());
    let results = crate::engine::jobs::filter::run(&spec, &mut store, &bus, &control, &|_| {})?;
    let ids: Vec<String> = results.iter().map(|(id, _)| id.clone()).collect();
    let mut rows = Vec::new();
    let mut failures = 0;
    for (id, r) in results {
        match r {
            Ok(v) => {
                if !args.json {
                    let what = match &v.aggregate.outcome {
                        Outcome::Keep => "KEEP".to_string(),
                        Outcome::ModifyQuery { revised_query } => {
                            format!("MODIFY_QUERY -> {revised_query:?}")
                        }
                        Outcome::Reject { why } => format!("REJECT ({why})"),
                        Outcome::Undecided => "UNDECIDED -> needs_human".to_string(),
                    };
                    let sev = v.aggregate.severity.map_or("-", |s| s.as_str());
                    println!(
                        "{id:40} {what}  severity={sev} votes={}/{} quorum={}",
                        v.aggregate.valid, v.aggregate.voters, v.aggregate.quorum
                    );
                }
                rows.push(serde_json::to_value(&v)?);
            }
            Err(e) => {
                failures += 1;
                eprintln!("{id}: {e}");
                rows.push(serde_json::json!({"task_id": id, "error": e.to_string()}));
            }
        }
    }
    if let Some(path) = &args.rules {
        let rules = Rules::load(path)?;
        let actor = format!("rules:{}", path.display());
        let decided = decide_all(&mut store, &rules, &rules.statuses, &ids, &actor)?;
        for d in &decided {
            if !args.json {
                println!(
                    "{:40} rules: {} -> {} ({})",
                    d.task_id, d.before, d.after, d.reason
                );
            }
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
