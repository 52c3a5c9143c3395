//! The `taskgen` job: (t, c) tasks generated from the taxonomies over the scenario matrix, checked
//! for near-duplicates, written atomically to a task file and upserted into the store.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::agents::spec::AgentSpec;
use crate::taskgen::embed::EmbedError;
use crate::taskgen::generate::{generate_with, Batch, Hooks, Request};
use crate::taskgen::llm::LlmAuthor;
use crate::taskgen::seeds::Seeds;
use crate::taskgen::taxonomy::{default_skills_dir, load_app};
use crate::taskgen::{Pass, TaskgenConfig, TaskgenError};
use tuplewright_base::store::{Store, StoreError, TaskFilter, Usage as StoredUsage};
use tuplewright_models::embedder::cache::{save, Cached};
use tuplewright_models::embedder::{select, Kind, Selected};
use tuplewright_models::providers::{provider_from_spec, ProviderConfig, ProviderError};
use tuplewright_records::bundle::taskgen::parse_task;

/// What a taskgen job does, typed.
#[derive(Debug, Clone)]
pub struct TaskgenSpec {
    /// The apps whose taxonomies are sampled.
    pub apps: Vec<String>,
    /// Tasks wanted.
    pub n: usize,
    /// Only this pass (`None` = the mix of the three).
    pub pass: Option<Pass>,
    /// Seed (same seed, same tasks).
    pub seed: u64,
    /// `[taskgen]` with the face's overrides.
    pub cfg: TaskgenConfig,
    /// Who writes the tasks: `scripted` or a provider spec.
    pub author: AgentSpec,
    /// Directory holding taskgen.md.
    pub prompts: PathBuf,
    /// The task-gen JSON file written (atomically), if any.
    pub out: Option<PathBuf>,
    /// The script virtualenv (the local embedding model lives there).
    pub venv: PathBuf,
}

/// Why a taskgen job could not run.
#[derive(Debug, thiserror::Error)]
pub enum TaskgenJobError {
    /// Taxonomies, seeds, the author or the generation failed.
    #[error(transparent)]
    Taskgen(#[from] TaskgenError),
    /// The author's provider spec is unusable.
    #[error("taskgen author: {0}")]
    Provider(#[from] ProviderError),
    /// A `command:` agent cannot write tasks.
    #[error("taskgen author `{0}`: use scripted, openai:MODEL[@URL] or anthropic:MODEL")]
    Author(String),
    /// No embedder could be set up.
    #[error(transparent)]
    Embed(#[from] EmbedError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Writing the task file failed.
    #[error("writing {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A generated task did not pass the importer's checks.
    #[error("generated task rejected by the importer: {0}")]
    Rejected(String),
}

/// What a taskgen job did.
pub struct TaskgenResult {
    /// The tasks, rejections and counts.
    pub batch: Batch,
    /// The embedder used for the near-duplicate check.
    pub chosen: Selected,
    /// The summary recorded as the `taskgen` event (and printed by `--json`).
    pub summary: Value,
}

/// Every stored task's original JSON (the prior counts of the matrix).
pub fn stored_tasks(store: &Store) -> Result<Vec<Value>, StoreError> {
    Ok(store
        .list_tasks(&TaskFilter::default())?
        .into_iter()
        .map(|t| t.task.original_json)
        .collect())
}

/// Generates `spec.n` tasks; with a store, counts its tasks as prior coverage and upserts the new
/// ones (with the `taskgen` event and the author's usage) in one transaction.
pub fn run(
    spec: &TaskgenSpec,
    store: Option<&mut Store>,
) -> Result<TaskgenResult, TaskgenJobError> {
    let skills = default_skills_dir();
    let taxonomies = spec
        .apps
        .iter()
        .map(|app| load_app(&skills, app))
        .collect::<Result<Vec<_>, _>>()?;
    let prior = match store.as_deref() {
        Some(s) => stored_tasks(s)?,
        None => Vec::new(),
    };
    let author = match &spec.author {
        AgentSpec::Scripted => None,
        AgentSpec::Provider(p) => Some(LlmAuthor::new(
            provider_from_spec(p, &ProviderConfig::default())?,
            &spec.prompts,
            &skills,
        )?),
        AgentSpec::Command(_) => return Err(TaskgenJobError::Author(spec.author.to_string())),
    };
    let embeddings = &spec.cfg.embeddings;
    let chosen = select(embeddings, embeddings.backend, &spec.venv)?;
    let cached = chosen.for_dedup().map(Cached::new);
    if let (Some(c), Some(s)) = (&cached, store.as_deref()) {
        let texts: Vec<&str> = prior
            .iter()
            .filter_map(|t| t["task_instruction"].as_str())
            .collect();
        c.preload(s, &chosen.key, &texts)?;
    }
    let hooks = Hooks {
        author: author.as_ref(),
        embedder: cached
            .as_ref()
            .map(|c| c as &dyn crate::taskgen::embed::Embedder),
        on_embed_error: embeddings.on_error,
    };
    let req = Request {
        apps: spec.apps.clone(),
        n: spec.n,
        pass: spec.pass,
        seed: spec.seed,
    };
    let batch = generate_with(
        &req,
        &spec.cfg,
        &taxonomies,
        &Seeds::builtin()?,
        &prior,
        hooks,
    )?;
    let llm_usage = author.as_ref().map(author_usage);
    if let Some(out) = &spec.out {
        write_atomically(out, &json!({"tasks": batch.tasks}))?;
    }
    let check = json!({"embedder": chosen.kind, "label": chosen.label, "degraded": chosen.degraded,
        "floor": "hashed character 3-grams",
        "cache_hits": cached.as_ref().map_or(0, Cached::hits),
        "computed": cached.as_ref().map_or(0, Cached::computed)});
    let summary = json!({"generated": batch.tasks.len(), "requested": spec.n, "candidates": batch.candidates,
        "exhausted_slots": batch.exhausted, "rejections": batch.rejections, "seed": spec.seed,
        "agent": spec.author.to_string(),
        "embeddings": (chosen.kind == Kind::Endpoint).then(|| embeddings.model.clone()),
        "near_duplicate_check": check,
        "embedding_fallbacks": batch.embedding_fallbacks,
        "llm_tokens": llm_usage.as_ref().map(|u| json!({"input": u.input_tokens, "output": u.output_tokens})),
        "out": spec.out.as_ref().map(|p| p.display().to_string())});
    if let Some(s) = store {
        let origin = spec
            .out
            .as_ref()
            .map_or("taskgen".to_string(), |p| p.display().to_string());
        let records = batch
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| parse_task(t, &format!("{origin}: tasks[{i}]"), &origin, true))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|p| TaskgenJobError::Rejected(p.to_string()))?;
        s.write(|tx| -> Result<(), StoreError> {
            for r in &records {
                tx.upsert_task(r)?;
            }
            if let Some(c) = &cached {
                let texts: Vec<&str> = records.iter().map(|r| r.instruction.as_str()).collect();
                save(tx, &chosen.key, &c.fresh_for(&texts))?;
            }
            tx.append_event("taskgen", None, &summary)?;
            if let Some(u) = &llm_usage {
                tx.record_usage(None, None, u)?;
            }
            Ok(())
        })?;
    }
    drop(cached);
    Ok(TaskgenResult {
        batch,
        chosen,
        summary,
    })
}

/// The author's token usage, stored under the `taskgen` stage (costed by `stats`).
fn author_usage(a: &LlmAuthor) -> StoredUsage {
    let mut total = crate::agents::Usage::default();
    for u in a.usage() {
        total.add(&u);
    }
    StoredUsage {
        stage: "taskgen".into(),
        model: a.name(),
        input_tokens: total.input_tokens as i64,
        output_tokens: total.output_tokens as i64,
        cost_usd: Some(total.cost_usd),
    }
}

fn write_atomically(out: &Path, doc: &Value) -> Result<(), TaskgenJobError> {
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let io = |source| TaskgenJobError::Io {
        path: out.to_path_buf(),
        source,
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    let text = serde_json::to_string_pretty(doc).map_err(|e| io(e.into()))?;
    tmp.write_all(text.as_bytes()).map_err(io)?;
    tmp.persist(out).map_err(|e| io(e.error))?;
    Ok(())
}
