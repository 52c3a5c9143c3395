//! The text files of a call: `PROMPT.md` written before the CLI runs, and the wanted outputs
//! collected after it (written files first, fenced blocks in its final answer as a fallback).

use std::fmt::Write as _;

use super::run::{infra, Call};
use super::stream;
use super::workdir::WorkDir;
use crate::agents::llm::prompt::{system_prompt, user_message};
use crate::agents::llm::reply::extract_files;
use crate::agents::AgentError;

/// File the CLI may write its last message to (`{output_file}`).
pub const LAST_MESSAGE: &str = "last_message.txt";

/// `PROMPT.md`: `orchestrator.md` + the role prompt + the brief (as the LLM agents send it), and
/// what is different for a command-line agent working in `work`.
pub fn prompt_md(call: &Call<'_>, work: &str) -> Result<String, AgentError> {
    let system = system_prompt(call.prompts_dir, call.role).map_err(infra)?;
    let user = user_message(call.brief, call.round, call.previous_review, call.role);
    let mut m = format!(
        "{}\n\n{}\n## You are a command-line agent\n\n",
        system.trim_end(),
        user
    );
    let _ = writeln!(
        m,
        "Your working directory is `{work}`; it holds `task_config.json` (the task's public \
         fields), the SKILL file(s){}{}. The tools named above (`write_file`, `read_state`, \
         `dry_run_reward`) do not exist here: write {} directly into `{work}` with your own file \
         tools, and finish. Nothing outside this directory is visible to you.",
        if call.previous_review.is_some() {
            ", `REVIEW.md` (the previous round)"
        } else {
            ""
        },
        if call.snapshots.is_empty() {
            String::new()
        } else {
            ", and read-only JSON snapshots of the two environments: `state_init.json` (V_init, \
             after setup) and `state_gold.json` (V_gold, after the golden patch)"
                .to_string()
        },
        call.wanted
            .iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(" and ")
    );
    Ok(m)
}

/// The wanted files: written into the working directory, or else fenced blocks in the last
/// message file or the CLI's final answer.
pub fn collect(
    call: &Call<'_>,
    wd: &WorkDir,
    stdout: &str,
) -> Result<Vec<(String, String)>, AgentError> {
    let mut found = Vec::new();
    for w in call.wanted {
        match wd.read_output(w, call.cfg.max_file_bytes) {
            Ok(Some(text)) => found.push((w.to_string(), text)),
            Ok(None) => {}
            Err(e) => return Err(AgentError::Malformed(e)),
        }
    }
    if found.len() == call.wanted.len() {
        return Ok(found);
    }
    let mut texts = Vec::new();
    if let Ok(Some(last)) = wd.read_output(LAST_MESSAGE, call.cfg.max_file_bytes) {
        texts.push(last);
    }
    texts.extend(stream::answer_texts(stdout));
    for text in texts {
        let Ok(blocks) = extract_files(&text, call.wanted, true) else {
            continue;
        };
        for (name, body) in blocks {
            if !found.iter().any(|(n, _)| *n == name) && !body.trim().is_empty() {
                found.push((name, body));
            }
        }
    }
    found.sort_by_key(|(n, _)| call.wanted.iter().position(|w| w == n));
    Ok(found)
}
