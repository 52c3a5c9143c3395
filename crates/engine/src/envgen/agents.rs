//! The LLM path (`envgen plan` / `envgen build`): a **Plan agent** writes a spec, a seed and
//! design notes for a named product category; `envgen compile`'s refusals and `envgen check`'s
//! discrepancies go to a **Dev agent**, which revises the spec, until they agree or `rounds` are
//! spent. The agents write the *spec*, never code. Every round is stored in
//! `<out>/rounds/<n>/` (the spec, seed, design notes and what was found), and an accepted spec
//! is written into `<out>` with its derived files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::check::{check, CheckError, Discrepancy};
use super::model::Model;
use super::render::SpecUi;
use crate::screen::ScreenConfig;
use tuplewright_models::providers::{ChatProvider, ChatRequest, Message};

const LANGUAGE: &str = include_str!("../../../../docs/envgen.md");

/// The first registered spec pack's spec and seed: the worked example the agents are shown.
fn example() -> (&'static str, &'static str) {
    crate::apps::all()
        .iter()
        .find_map(|p| Some((p.app.spec_text()?, p.app.seed_text()?)))
        .unwrap_or(("", ""))
}

/// Errors of the LLM path (infrastructure; a bad spec is a round's finding, not an error).
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The provider failed.
    #[error("the model provider: {0}")]
    Provider(#[from] tuplewright_models::providers::ProviderError),
    /// Writing a round or the result.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The crawl could not run.
    #[error(transparent)]
    Check(#[from] CheckError),
    /// The state-API app could not be built from an accepted spec.
    #[error("the app: {0}")]
    App(#[from] crate::env::EnvError),
}

/// What a model answers: the spec (TOML text), the seed (JSON) and design notes.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    /// `app.spec.toml`.
    pub spec: String,
    /// `seed.json`.
    pub seed: String,
    /// `DESIGN.md`.
    pub design: String,
}

/// One stored round.
#[derive(Debug, Clone, Serialize)]
pub struct Round {
    /// 1-based.
    pub n: usize,
    /// `plan` or `dev`.
    pub agent: String,
    /// The compiler's refusal, if any (`path:line: problem: detail`).
    pub refused: Option<String>,
    /// The crawl's discrepancies (empty and `refused` none: agreed).
    pub discrepancies: Vec<Discrepancy>,
    /// Whether the app agreed with its spec.
    pub agreed: bool,
}

/// Parses a model's reply: one JSON object `{"spec": "...", "seed": {...}, "design": "..."}`,
/// optionally inside a fenced block.
pub fn parse_reply(text: &str) -> Result<Draft, String> {
    let start = text.find('{').ok_or("the reply holds no JSON object")?;
    let end = text.rfind('}').ok_or("the reply holds no JSON object")?;
    let v: Value = serde_json::from_str(&text[start..=end])
        .map_err(|e| format!("the reply is not JSON: {e}"))?;
    let spec = v["spec"]
        .as_str()
        .ok_or("the reply has no `spec` string")?
        .to_string();
    let seed = match &v["seed"] {
        Value::String(s) => s.clone(),
        Value::Null => return Err("the reply has no `seed`".into()),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    };
    Ok(Draft {
        spec,
        seed,
        design: v["design"].as_str().unwrap_or_default().to_string(),
    })
}

fn system() -> String {
    let (example_spec, example_seed) = example();
    format!("You design mock web applications for training computer-use agents, as declarative specs in the envgen language. You never write code, only the spec (TOML), its seed data (JSON) and short design notes. Model the layout and workflows on the reference product; never copy its text or trade dress.\n\n# The language\n\n{LANGUAGE}\n\n# A complete example\n\napp.spec.toml:\n```toml\n{example_spec}```\n\nseed.json:\n```json\n{example_seed}```\n\nReply with one JSON object only: {{\"spec\": \"<the TOML text>\", \"seed\": <the seed object>, \"design\": \"<design notes: theme, layout, the P0/P1 features>\"}}.")
}

fn ask(provider: &dyn ChatProvider, prompt: String) -> Result<Result<Draft, String>, AgentError> {
    let req = ChatRequest {
        system: system(),
        messages: vec![Message::User(prompt)],
        tools: Vec::new(),
    };
    Ok(parse_reply(&provider.chat(&req)?.text))
}

/// The Plan agent's prompt.
pub fn plan_prompt(name: &str, reference: &str) -> String {
    format!("Write the spec of a mock web app named `{name}` (its `[app] name`), modelled on: {reference}.\nGive it the views, entities and actions a person uses daily in such a product, realistic seed data (at least 8 records per main entity) and a category from the table.")
}

/// The Dev agent's prompt: the current spec and seed and what is wrong with them.
pub fn dev_prompt(d: &Draft, findings: &str) -> String {
    format!("Your spec does not yet agree with the app built from it. Revise the spec (and the seed if needed) so that every finding below disappears; change nothing else.\n\n# Findings\n\n{findings}\n\n# The current app.spec.toml\n\n```toml\n{}\n```\n\n# The current seed.json\n\n```json\n{}\n```", d.spec, d.seed)
}

fn write(path: &Path, text: &str) -> Result<(), AgentError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|source| AgentError::Io {
            path: path.to_path_buf(),
            source,
        })
}

fn mkdir(path: &Path) -> Result<(), AgentError> {
    std::fs::create_dir_all(path).map_err(|source| AgentError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// `envgen plan`: the Plan agent's draft, written into `out` (spec, seed, DESIGN.md).
pub fn plan(
    provider: &dyn ChatProvider,
    name: &str,
    reference: &str,
    out: &Path,
) -> Result<Result<Draft, String>, AgentError> {
    let draft = ask(provider, plan_prompt(name, reference))?;
    if let Ok(d) = &draft {
        mkdir(out)?;
        store_draft(out, d)?;
    }
    Ok(draft)
}

fn store_draft(dir: &Path, d: &Draft) -> Result<(), AgentError> {
    write(&dir.join("app.spec.toml"), &d.spec)?;
    write(&dir.join("seed.json"), &d.seed)?;
    write(&dir.join("DESIGN.md"), &d.design)
}

/// Compiles and crawls the draft stored in `dir`: the refusal or the discrepancies.
fn judge(
    dir: &Path,
    screen: &ScreenConfig,
) -> Result<(Option<String>, Vec<Discrepancy>), AgentError> {
    let (model, seed) = match super::compile::load_dir(dir) {
        Ok(x) => x,
        Err(e) => return Ok((Some(e.to_string()), vec![])),
    };
    let manifest = super::derive::manifest(&model);
    let app = crate::env::App::parse(model.name(), &manifest, Some(&seed.to_string()))?;
    let ui = SpecUi::leak(Model::new(model.spec.clone()));
    let report = check(Arc::new(app), ui, screen)?;
    Ok((None, report.discrepancies))
}

/// `envgen build`: plan, then at most `rounds` rounds of compile + check + Dev revision. Every
/// round is stored in `out/rounds/<n>/`; an agreed spec is compiled into `out`.
pub fn build(
    provider: &dyn ChatProvider,
    name: &str,
    reference: &str,
    out: &Path,
    rounds: usize,
    screen: &ScreenConfig,
) -> Result<Vec<Round>, AgentError> {
    let mut done = Vec::new();
    let mut reply = ask(provider, plan_prompt(name, reference))?;
    let mut last = Draft::default();
    for n in 1..=rounds.max(1) {
        let dir = out.join("rounds").join(format!("{n:03}"));
        mkdir(&dir)?;
        let agent = if n == 1 { "plan" } else { "dev" }.to_string();
        let (refused, discrepancies) = match &reply {
            Err(why) => (Some(format!("the reply: {why}")), vec![]),
            Ok(d) => {
                store_draft(&dir, d)?;
                last = d.clone();
                judge(&dir, screen)?
            }
        };
        let agreed = refused.is_none() && discrepancies.is_empty();
        let round = Round {
            n,
            agent,
            refused,
            discrepancies,
            agreed,
        };
        write(
            &dir.join("round.json"),
            &serde_json::to_string_pretty(&round).unwrap_or_default(),
        )?;
        let findings = round.refused.clone().unwrap_or_else(|| {
            round
                .discrepancies
                .iter()
                .map(|d| format!("- {d}"))
                .collect::<Vec<_>>()
                .join("\n")
        });
        done.push(round);
        if agreed {
            store_draft(out, &last)?;
            super::compile::compile(out).map_err(|e| AgentError::Io {
                path: out.to_path_buf(),
                source: std::io::Error::other(e.to_string()),
            })?;
            break;
        }
        if n < rounds {
            reply = ask(provider, dev_prompt(&last, &findings))?;
        }
    }
    Ok(done)
}
