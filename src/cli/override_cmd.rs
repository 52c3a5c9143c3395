//! `tuplewright override`: a person's decision on one tuple (or its undo), or a rules file deciding
//! the queue headlessly — all through the one decision interface of the engine.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::context::{load_config, open_existing_store};
use super::Cli;
use crate::engine::filter::rules::{decide_all, Rules};
use crate::engine::filter::{apply_in, Action, DecisionRequest};
use crate::engine::store::DecisionSource;

/// A person's choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Choice {
    /// Keep the tuple with its original instruction (status voted, or final after rollouts).
    Keep,
    /// Keep it with the instruction given by --query.
    #[value(name = "modify_query", alias = "modify-query")]
    ModifyQuery,
    /// Leave it out (status dropped).
    Reject,
}

/// Arguments of `override`.
#[derive(Debug, Args)]
#[command(
    about = "Decide a tuple by hand (keep / modify_query / reject), undo the last decision, or apply a rules file",
    long_about = "Every decision is appended to the tuple's audit trail (actor, source human, before, after, \
reason, time); nothing is overwritten. --undo appends a compensating decision that restores the exact \
previous status (and the previous released instruction).\n\n\
keep and modify_query move a tuple to voted (or to final when it was already past the rollouts); \
modify_query replaces the released instruction in export (the original stays in meta.json); reject moves it \
to dropped.\n\n\
--rules FILE decides every queued tuple (status needs_human by default) without a person, e.g.:\n\n\
  statuses = [\"needs_human\"]\n  [[rule]]\n  severity = [\"P0\"]\n  action = \"reject\"\n  [[rule]]\n  severity = [\"P3\"]\n  action = \"keep\"\n  # anything else stays queued\n\n\
Examples:\n  tuplewright override mail_archive_003 reject --reason \"reward checks the wrong folder\"\n  \
tuplewright override mail_archive_003 modify_query --query \"Archive every mail from Ana.\" --reason \"leaked method\"\n  \
tuplewright override mail_archive_003 --undo --reason \"misclick\"\n  tuplewright override --rules rules.toml\n  \
tuplewright override --where \"status:needs sev:P0\" reject --reason \"P0 finding\" --as ana\n  \
tuplewright override --undo-group g20261206T091500-3fa2c1"
)]
pub struct OverrideArgs {
    /// The task to decide (with --where: the decision).
    #[arg(required_unless_present_any = ["rules", "undo_group"])]
    pub task: Option<String>,
    /// The decision.
    #[arg(value_enum, required_unless_present_any = ["undo", "rules", "where_", "undo_group"])]
    pub choice: Option<Choice>,
    /// The new instruction (modify_query only).
    #[arg(long)]
    pub query: Option<String>,
    /// Why (recorded; required for a decision).
    #[arg(long, required_unless_present_any = ["undo", "rules", "undo_group"])]
    pub reason: Option<String>,
    /// Who decides, the curator (default: [curate] curator, else $USER).
    #[arg(long = "as", visible_alias = "actor", value_name = "NAME")]
    pub actor: Option<String>,
    /// Decide every tuple the workbench's search QUERY matches (`status:loop app:mail tag:x words`),
    /// as one group; prints what it will decide and asks unless --yes.
    #[arg(long = "where", value_name = "QUERY", conflicts_with_all = ["undo", "rules", "undo_group"])]
    pub where_: Option<String>,
    /// Undo every decision of a bulk group still in force (the group id `override --where` printed).
    #[arg(long, value_name = "ID", conflicts_with_all = ["choice", "undo", "rules"])]
    pub undo_group: Option<String>,
    /// Do not ask before a bulk decision.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Undo the task's latest decision not yet undone.
    #[arg(long, conflicts_with_all = ["choice", "rules"])]
    pub undo: bool,
    /// Decide the queue with this rules file instead of by hand.
    #[arg(long, conflicts_with_all = ["choice", "undo"])]
    pub rules: Option<PathBuf>,
}

/// Runs `override`.
pub fn run(cli: &Cli, args: &OverrideArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(cli)?;
    let mut store = open_existing_store(cli, &config)?;
    if args.where_.is_some() || args.undo_group.is_some() {
        return super::override_bulk::run(&mut store, &config.curate, args);
    }
    if let Some(path) = &args.rules {
        let rules = Rules::load(path)?;
        let tasks: Vec<String> = args.task.iter().cloned().collect();
        let actor = format!("rules:{}", path.display());
        let decided = decide_all(&mut store, &rules, &rules.statuses, &tasks, &actor)?;
        for d in &decided {
            println!(
                "{:40} {} -> {} ({})",
                d.task_id, d.before, d.after, d.reason
            );
        }
        println!("{} tuple(s) decided by {}", decided.len(), path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let task = args
        .task
        .as_deref()
        .ok_or_else(|| anyhow::anyhow!("name the TASK to decide"))?;
    let action = match (args.undo, args.choice) {
        (true, _) => Action::Undo,
        (false, Some(Choice::Keep)) => Action::Keep,
        (false, Some(Choice::Reject)) => Action::Reject,
        (false, Some(Choice::ModifyQuery)) => {
            Action::ModifyQuery(args.query.clone().ok_or_else(|| {
                anyhow::anyhow!("modify_query needs --query TEXT (the new instruction)")
            })?)
        }
        (false, None) => anyhow::bail!("give keep, modify_query or reject (or --undo)"),
    };
    if args.query.is_some() && !matches!(action, Action::ModifyQuery(_)) {
        anyhow::bail!("--query only goes with modify_query");
    }
    let actor = config.curate.curator(args.actor.as_deref());
    let reason = args
        .reason
        .clone()
        .unwrap_or_else(|| "undone by hand".into());
    let policy = config.curate.conflict;
    let req = DecisionRequest {
        task_id: task,
        action,
        actor: &actor,
        source: DecisionSource::Human,
        reason: &reason,
        aggregate: None,
    };
    let (d, queued) = store.write(|tx| -> anyhow::Result<_> {
        let d = apply_in(tx, &req)?;
        let queued = d.compensates.is_none()
            && crate::engine::curate::agreement::enforce_in(tx, policy, task, None)?;
        Ok((d, queued))
    })?;
    println!(
        "{task}: {} -> {} (decision #{}{}, by {actor})",
        d.before,
        d.after,
        d.id,
        d.compensates
            .map(|c| format!(", undoes #{c}"))
            .unwrap_or_default()
    );
    if queued {
        println!("{task}: another curator decided differently; back to needs_human for a third curator ([curate] conflict = third_decides)");
    }
    Ok(ExitCode::SUCCESS)
}
