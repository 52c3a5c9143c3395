//! System prompts (read from the prompts directory on every call, so users can edit them without
//! recompiling) and the user message built from the task brief.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::agents::TaskBrief;

/// A prompt file could not be read.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot read prompt file {path}: {source} (set the prompts directory in the agents config)"
)]
pub struct PromptError {
    /// The file that was looked for.
    pub path: PathBuf,
    /// Why it could not be read.
    #[source]
    pub source: std::io::Error,
}

/// Which agent a system prompt is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `generator.md`.
    Generator,
    /// `discriminator.md`.
    Discriminator,
}

impl Role {
    fn file(self) -> &'static str {
        match self {
            Role::Generator => "generator.md",
            Role::Discriminator => "discriminator.md",
        }
    }
}

fn read(path: PathBuf) -> Result<String, PromptError> {
    std::fs::read_to_string(&path).map_err(|source| PromptError { path, source })
}

/// `orchestrator.md` followed by the role's prompt, both from `dir`.
pub fn system_prompt(dir: &Path, role: Role) -> Result<String, PromptError> {
    let notes = read(dir.join("orchestrator.md"))?;
    let own = read(dir.join(role.file()))?;
    Ok(format!("{}\n\n{}\n", notes.trim_end(), own.trim_end()))
}

/// The first user message of a call: the task, its skills, the previous review, and what to do.
pub fn user_message(
    brief: &TaskBrief,
    round: u32,
    previous_review: Option<&str>,
    role: Role,
) -> String {
    let mut m = String::new();
    let _ = writeln!(
        m,
        "# Task {} — round {round} (difficulty: {})\n",
        brief.task_id, brief.difficulty
    );
    let _ = writeln!(m, "Apps: {}\n", brief.apps.join(", "));
    let _ = writeln!(m, "## Instruction t\n\n{}\n", brief.instruction.trim());
    let _ = writeln!(m, "## Context c\n\n{}\n", brief.context.trim());
    if !brief.structured.is_null() {
        let fields = serde_json::to_string_pretty(&brief.structured).unwrap_or_default();
        let _ = writeln!(m, "## Structured task fields\n\n```json\n{fields}\n```\n");
    }
    for (app, skill) in &brief.skills {
        let _ = writeln!(m, "## SKILL.md — {app}\n\n{}\n", skill.trim());
    }
    match previous_review {
        Some(review) => {
            let _ = writeln!(
                m,
                "## REVIEW.md of round {}\n\n{}\n",
                round.saturating_sub(1),
                review.trim()
            );
        }
        None => m.push_str("This is the first round: there is no previous REVIEW.md.\n\n"),
    }
    m.push_str("## What to do now\n\n");
    m.push_str(match role {
        Role::Generator => {
            "Write `initial_setup.py` and `golden_patch.py`: call the `write_file` tool once per \
file, then reply with a short final message; or reply with the two fenced blocks \
(```initial_setup.py and ```golden_patch.py)."
        }
        Role::Discriminator => {
            "Write `reward.py`. You may inspect the two environments with `read_state` and \
dry-run drafts with `dry_run_reward` (`env`: \"init\" or \"gold\"). Save the final version with \
`write_file` (path `reward.py`) and reply with a short final message, or reply with one fenced \
block ```reward.py."
        }
    });
    m.push('\n');
    m
}
