//! `override --where QUERY keep|reject|modify_query …` and `override --undo-group ID`: the
//! workbench's bulk decision and group undo, headless, over the same engine functions
//! ([`crate::engine::curate::bulk`]). The query is the workbench's search syntax, matched by the
//! workbench's own matcher over the same rows.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

use super::override_cmd::{Choice, OverrideArgs};
use crate::engine::curate::bulk::{apply_group, preview, undo_group, BulkRequest, Skipped};
use crate::engine::curate::query::matcher::{compute_view, new_matcher, SortKey, ViewSpec};
use crate::engine::curate::rows::load_rows;
use crate::engine::curate::CurateConfig;
use crate::engine::filter::Action;
use crate::engine::store::Store;

/// How many ids a preview names before "and N more".
const PREVIEW_IDS: usize = 20;

/// The ids of the tuples the workbench's search `query` matches, in id order.
pub fn matching(store: &Store, query: &str) -> anyhow::Result<Vec<String>> {
    let rows = Arc::new(load_rows(store)?);
    let spec = ViewSpec {
        generation: 0,
        rows: Arc::clone(&rows),
        query: query.to_string(),
        status: None,
        difficulty: None,
        app: None,
        severity: None,
        sort: SortKey::Id,
        reverse: false,
    };
    let mut view = compute_view(&spec, &mut new_matcher()).indices.to_vec();
    view.sort_unstable();
    Ok(view.iter().map(|&i| rows[i as usize].id.clone()).collect())
}

/// Runs the bulk forms of `override`.
pub fn run(
    store: &mut Store,
    curate: &CurateConfig,
    args: &OverrideArgs,
) -> anyhow::Result<ExitCode> {
    let actor = curate.curator(args.actor.as_deref());
    if let Some(group) = &args.undo_group {
        let reason = args.reason.clone().unwrap_or_default();
        let out = undo_group(store, group, &actor, &reason)?;
        report_skipped(&out.skipped);
        println!(
            "group {group}: {} decision(s) undone, {} left as they are (by {actor})",
            out.undone.len(),
            out.skipped.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let query = args.where_.as_deref().unwrap_or_default();
    let action = bulk_action(args)?;
    let reason = args.reason.clone().unwrap_or_default();
    let ids = matching(store, query)?;
    if ids.is_empty() {
        anyhow::bail!("--where {query:?} matches no tuple; nothing decided");
    }
    let req = BulkRequest {
        task_ids: &ids,
        action,
        actor: &actor,
        reason: &reason,
        policy: curate.conflict,
    };
    let plan = preview(store, &req)?;
    print_plan(query, &req, &plan.decided, &plan.skipped);
    if plan.decided.is_empty() {
        anyhow::bail!("none of the {} matching tuple(s) can be decided", ids.len());
    }
    if !args.yes && !confirm(plan.decided.len())? {
        println!("nothing decided");
        return Ok(ExitCode::from(1));
    }
    let out = apply_group(store, &req)?;
    println!(
        "group {}: {} tuple(s) decided {} by {actor}, {} skipped; undo with `tuplewright override --undo-group {}`",
        out.group_id,
        out.decided.len(),
        req.action.name(),
        out.skipped.len(),
        out.group_id
    );
    Ok(ExitCode::SUCCESS)
}

/// The decision of `override --where`: the one positional word (`keep`, `reject`,
/// `modify_query`), which clap puts in `task` since no task is named.
fn bulk_action(args: &OverrideArgs) -> anyhow::Result<Action> {
    use clap::ValueEnum;
    let choice = match (args.choice, args.task.as_deref()) {
        (Some(_), Some(t)) => anyhow::bail!(
            "with --where name no task (got {t:?}): give only keep, reject or modify_query"
        ),
        (Some(c), None) => c,
        (None, Some(word)) => Choice::from_str(word, true).map_err(|_| {
            anyhow::anyhow!("--where takes keep, reject or modify_query, not {word:?}")
        })?,
        (None, None) => anyhow::bail!("give keep, reject or modify_query after --where QUERY"),
    };
    Ok(match choice {
        Choice::Keep => Action::Keep,
        Choice::Reject => Action::Reject,
        Choice::ModifyQuery => Action::ModifyQuery(args.query.clone().ok_or_else(|| {
            anyhow::anyhow!("modify_query needs --query TEXT (the new instruction)")
        })?),
    })
}

fn print_plan(query: &str, req: &BulkRequest<'_>, decide: &[String], skipped: &[Skipped]) {
    println!(
        "--where {query:?}: {} tuple(s) match; {} will be decided {} by {} (reason {:?}), {} skipped",
        req.task_ids.len(),
        decide.len(),
        req.action.name(),
        req.actor,
        req.reason,
        skipped.len()
    );
    for id in decide.iter().take(PREVIEW_IDS) {
        println!("  {id}");
    }
    if decide.len() > PREVIEW_IDS {
        println!("  … and {} more", decide.len() - PREVIEW_IDS);
    }
    report_skipped(skipped);
}

fn report_skipped(skipped: &[Skipped]) {
    for s in skipped.iter().take(PREVIEW_IDS) {
        println!("  skipped {}: {}", s.task_id, s.why);
    }
    if skipped.len() > PREVIEW_IDS {
        println!("  … and {} more skipped", skipped.len() - PREVIEW_IDS);
    }
}

/// Asks on the terminal; without a terminal on stdin, refuses (use --yes in scripts).
fn confirm(n: usize) -> anyhow::Result<bool> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        anyhow::bail!(
            "not deciding {n} tuple(s) without confirmation: stdin is not a terminal; pass --yes"
        );
    }
    print!("decide these {n} tuple(s)? [y/N] ");
    std::io::stdout().flush()?;
    let mut line = String::new();
    stdin.lock().read_line(&mut line)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes"))
}
