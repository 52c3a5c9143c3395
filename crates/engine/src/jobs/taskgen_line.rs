//! A taskgen job written on one line — `apps=team_chat,mail n=20 seed=7 pass=breadth
//! author=scripted` — for the workbench's taskgen action (the same [`TaskgenSpec`] the
//! `tuplewright taskgen` flags build). Any subset, any order; the rest comes from `[taskgen]`.

use crate::config::Config;
use crate::taskgen::Pass;

use super::taskgen::TaskgenSpec;
use super::JobError;

/// Most tasks one workbench batch asks for.
pub const MAX_N: usize = 10_000;

/// The line a form starts with: every known app, 10 tasks, seed 0, the configured author.
pub fn suggested(config: &Config) -> String {
    format!(
        "apps={} n=10 seed=0 author={}",
        crate::taskgen::apps().join(","),
        config.taskgen.agent
    )
}

/// Parses a taskgen line into a spec over `config` (`[taskgen]`, the script venv). The error names
/// the bad word.
pub fn parse(config: &Config, line: &str) -> Result<TaskgenSpec, JobError> {
    let known: Vec<String> = crate::taskgen::apps()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut spec = TaskgenSpec {
        apps: known.clone(),
        n: 10,
        pass: None,
        seed: 0,
        cfg: config.taskgen.clone(),
        author: config
            .taskgen
            .agent
            .parse()
            .map_err(|e| JobError::Spec(format!("[taskgen] agent: {e}")))?,
        prompts: crate::agents::build::prompts_dir(None, "taskgen.md"),
        out: None,
        venv: config.sandbox.venv_dir.clone(),
    };
    for word in line.split_whitespace() {
        let bad = |why: String| JobError::Spec(format!("`{word}`: {why}"));
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| bad("expected key=value (apps= n= seed= pass= author=)".into()))?;
        match k {
            "apps" | "app" => {
                let apps: Vec<String> = v
                    .split(',')
                    .filter(|a| !a.is_empty())
                    .map(String::from)
                    .collect();
                if let Some(a) = apps.iter().find(|a| !known.contains(a)) {
                    return Err(bad(format!(
                        "unknown app {a} (known: {})",
                        known.join(", ")
                    )));
                }
                if apps.is_empty() {
                    return Err(bad("no app named".into()));
                }
                spec.apps = apps;
            }
            "n" => {
                spec.n = v.parse().map_err(|_| bad("not a whole number".into()))?;
                if !(1..=MAX_N).contains(&spec.n) {
                    return Err(bad(format!("n must be 1..={MAX_N}")));
                }
            }
            "seed" => spec.seed = v.parse().map_err(|_| bad("not a whole number".into()))?,
            "pass" => {
                spec.pass = Some(match v {
                    "breadth" => Pass::Breadth,
                    "gapfill" | "gap-fill" => Pass::GapFill,
                    "edge" => Pass::Edge,
                    _ => return Err(bad("pass is breadth, gapfill or edge".into())),
                })
            }
            "author" | "agent" => {
                spec.author = v.parse().map_err(|e| bad(format!("{e}")))?;
                if matches!(spec.author, crate::agents::spec::AgentSpec::Command(_)) {
                    return Err(bad(
                        "a command agent cannot write tasks (scripted or a model)".into(),
                    ));
                }
            }
            _ => return Err(bad("unknown setting (apps, n, seed, pass, author)".into())),
        }
    }
    Ok(spec)
}
