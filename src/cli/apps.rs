//! `tuplewright apps list|check|new`: the environments (app packs and external apps), a pack's
//! conformance run for real, and a new pack copied from an existing one.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::apps::check::{static_checks, Failure};
use crate::apps::{list, new};

/// `tuplewright apps`.
#[derive(Debug, Args)]
pub struct AppsArgs {
    #[command(subcommand)]
    command: AppsCommand,
}

#[derive(Debug, Subcommand)]
enum AppsCommand {
    /// Every environment: name, kind (web|desktop), aliases, shipped tasks, taxonomy leaves,
    /// screen, origin (builtin|external|generated); `[[apps.external]]` apps too.
    List(ListArgs),
    /// A pack's conformance, run for real: files (manifest, seed, taxonomy, SKILL.md, tasks),
    /// the state API (or the desktop home), every shipped task accepted by the loop on the
    /// embedded default, ui-oracle solving a sample through the screen, `noop --screen` scoring
    /// 0. Exit 0 only when every check holds; each failure names the file to fix.
    Check(CheckArgs),
    /// A working copy of pack FROM named NAME: `crates/engine/src/apps/<name>/` plus its registry line, in the
    /// source checkout at --root (rebuild the binary to use it). Example:
    /// `tuplewright apps new calendar --from mail`.
    New(NewArgs),
}

#[derive(Debug, Args)]
struct ListArgs {
    /// One JSON array instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The apps to check.
    #[arg(required = true, value_name = "NAME")]
    names: Vec<String>,
    /// Tasks the ui-oracle and `noop --screen` checks roll out per app (evenly spread).
    #[arg(long, default_value_t = 3)]
    sample: usize,
    /// Only the checks that read the pack's files (no loop, no screens).
    #[arg(long)]
    files_only: bool,
    /// JSON output: one object per app with its failures.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct NewArgs {
    /// The new app's name (lowercase, dashes allowed).
    name: String,
    /// The pack to copy.
    #[arg(long, value_name = "PACK")]
    from: String,
    /// The source checkout to write into (default: the current directory); with --local, the
    /// project folder whose `apps/` gets the pack.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Make a local pack (`apps/NAME/`, spec packs only): loaded at start-up from `[apps]
    /// packs`, no checkout and no rebuild.
    #[arg(long)]
    local: bool,
}

/// Runs `tuplewright apps …`.
pub fn run(cli: &super::Cli, args: &AppsArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        AppsCommand::List(a) => list_cmd(cli, a),
        AppsCommand::Check(a) => check_cmd(a),
        AppsCommand::New(a) => {
            let (made, next) = if a.local {
                let made = crate::apps::new_local::create_local(&a.root, &a.name, &a.from)?;
                (made, "now (no rebuild)")
            } else {
                (new::create(&a.root, &a.name, &a.from)?, "after a rebuild")
            };
            println!(
                "created {} in {} (port {}); `tuplewright apps check {}` runs it {next}",
                made.name,
                made.dir.display(),
                made.port.map_or("-".into(), |p| p.to_string()),
                made.name
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn list_cmd(cli: &super::Cli, args: &ListArgs) -> anyhow::Result<ExitCode> {
    let cfg = super::context::load_config(cli)?;
    let rows = list::rows(&cfg.apps);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:<18} {:<8} {:<6} {:<7} {:<7} {:<10} aliases",
        "name", "kind", "tasks", "leaves", "screen", "origin"
    );
    for r in rows {
        println!(
            "{:<18} {:<8} {:<6} {:<7} {:<7} {:<10} {}",
            r.name,
            r.kind,
            r.tasks,
            r.leaves,
            if r.screen { "yes" } else { "no" },
            r.origin,
            r.aliases.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn check_cmd(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let mut all_ok = true;
    let mut report = Vec::new();
    for name in &args.names {
        let Some(pack) = crate::apps::get(name) else {
            anyhow::bail!(
                "no built-in app {name:?} (apps: {})",
                crate::apps::names().join(", ")
            );
        };
        let mut failures = static_checks(pack);
        if !args.files_only && failures.is_empty() {
            failures.extend(super::apps_check::run_checks(pack, args.sample)?);
        }
        all_ok &= failures.is_empty();
        if !args.json {
            print_failures(name, &failures);
        }
        report.push(
            serde_json::json!({"app": name, "ok": failures.is_empty(), "failures": failures}),
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_failures(name: &str, failures: &[Failure]) {
    if failures.is_empty() {
        println!("{name}: ok");
    }
    for f in failures {
        println!("{name}: FAIL {}: {}: {}", f.check, f.file, f.detail);
    }
}
