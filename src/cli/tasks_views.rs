//! `tasks views` and `tasks list --view NAME` (issue #33): the views saved in the workbench, and
//! the tuples one shows, computed by the workbench's own view code over the same rows.

use anyhow::Context;
use serde_json::json;

use crate::engine::curate::rows::load_rows;
use crate::engine::curate::views::{default_path, load, ViewsFile};
use crate::engine::store::Store;

fn file() -> anyhow::Result<(std::path::PathBuf, ViewsFile)> {
    let path = default_path(|k| std::env::var(k).ok())
        .context("no views file: set TUPLEWRIGHT_VIEWS or HOME")?;
    let f = load(&path)?;
    Ok((path, f))
}

/// Prints the saved views.
pub fn list() -> anyhow::Result<()> {
    let (path, f) = file()?;
    for v in &f.views {
        println!("{:<20} {}", v.name, v.summary());
    }
    println!("{} view(s) in {}", f.views.len(), path.display());
    Ok(())
}

/// Prints the tuples the view `name` shows, in its order (at most `limit`, 0 = all).
pub fn show(store: &Store, name: &str, limit: usize, json: bool) -> anyhow::Result<()> {
    let (path, f) = file()?;
    let Some(view) = f.get(name) else {
        let known: Vec<&str> = f.views.iter().map(|v| v.name.as_str()).collect();
        anyhow::bail!(
            "no view `{name}` in {} (saved: {})",
            path.display(),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        );
    };
    let mut rows = view.apply(load_rows(store)?)?;
    if limit > 0 {
        rows.truncate(limit);
    }
    if json {
        let out: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({"task_id": r.id, "status": r.status, "difficulty": r.difficulty,
                    "domain": r.domain, "app": r.app, "tags": r.tags, "r_gold": r.r_gold,
                    "r_init": r.r_init, "instruction": r.instruction})
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "{:<40} {:<16} {:<7} {:<20} INSTRUCTION",
        "TASK", "STATUS", "DIFF", "DOMAIN"
    );
    for r in &rows {
        let instr: String = r
            .instruction
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let instr: String = instr.chars().take(60).collect();
        println!(
            "{:<40} {:<16} {:<7} {:<20} {instr}",
            r.id, r.status, r.difficulty, r.domain
        );
    }
    println!(
        "{} task(s) in view `{name}`: {}",
        rows.len(),
        view.summary()
    );
    Ok(())
}
