//! The generator loop: pass → leaf → matrix cell → recipe → framing → rules → anti-repetition, with
//! up to `max_attempts` regenerations under a "diversify" instruction per slot.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde_json::{json, Value};

use super::books::{Books, Pending};
use super::dedup::{Dedup, Repeat};
use super::embed::{Embedder, OnError};
use super::llm::{Brief, LlmAuthor};
use super::matrix::{weighted, Cell, Matrix};
use super::phrasing::frame;
use super::quality::check;
use super::recipes::{run, Ctx};
use super::seeds::Seeds;
use super::taxonomy::{Leaf, Taxonomy};
use super::{Pass, TaskgenConfig, TaskgenError};

/// What to generate.
#[derive(Debug, Clone)]
pub struct Request {
    /// Apps whose taxonomies are sampled (cross-app leaves need all their apps requested).
    pub apps: Vec<String>,
    /// Tasks wanted.
    pub n: usize,
    /// One pass, or `None` for the default mix (30% breadth, 55% gap-fill, 15% edge).
    pub pass: Option<Pass>,
    /// Random seed.
    pub seed: u64,
}

/// Optional collaborators of [`generate_with`]: an LLM author instead of the scripted templates,
/// and an embeddings endpoint for the near-duplicate check.
#[derive(Default, Clone, Copy)]
pub struct Hooks<'a> {
    /// Writes (t, c) instead of the scripted recipes.
    pub author: Option<&'a LlmAuthor>,
    /// Embeds candidates for the cosine check (besides the offline vectors).
    pub embedder: Option<&'a dyn Embedder>,
    /// What to do when the embedder fails.
    pub on_embed_error: OnError,
}

/// A candidate before the checks.
struct Candidate {
    feasible: bool,
    instruction: String,
    context: String,
    template_sig: String,
    difficulty: String,
    apps: Vec<&'static str>,
    extra: Vec<(&'static str, Value)>,
}

/// A generated batch.
#[derive(Debug, Serialize)]
pub struct Batch {
    /// Task-gen JSON objects (with `template` and `slots`).
    pub tasks: Vec<Value>,
    /// Rejections per reason (rule violations and repetition checks).
    pub rejections: BTreeMap<String, usize>,
    /// Candidates generated in all.
    pub candidates: usize,
    /// Slots given up after `max_attempts` rejected candidates.
    pub exhausted: usize,
    /// The matrix counts after the batch (prior counts included).
    pub matrix: Matrix,
    /// Candidates checked offline only because the embeddings endpoint failed.
    pub embedding_fallbacks: usize,
}

fn leaf_apps(leaf: &Leaf) -> Vec<&'static str> {
    crate::apps::cross::recipe::apps_of(&leaf.recipe).unwrap_or_else(|| {
        super::apps()
            .iter()
            .copied()
            .filter(|a| *a == leaf.app)
            .collect()
    })
}

fn platform(apps: &[&str]) -> &'static str {
    match (apps.len(), apps.iter().any(|a| crate::apps::is_desktop(a))) {
        (1, true) => "desktop",
        (1, false) | (_, false) => "web",
        _ => "cross",
    }
}

fn pass_for(req: &Request, i: usize) -> Pass {
    req.pass.unwrap_or(match (i * 100) / req.n.max(1) {
        0..=29 => Pass::Breadth,
        30..=84 => Pass::GapFill,
        _ => Pass::Edge,
    })
}

fn difficulty_target(pass: Pass) -> [f64; 3] {
    match pass {
        Pass::Breadth => [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0],
        Pass::GapFill => [0.05, 0.3, 0.65],
        Pass::Edge => [0.0, 0.2, 0.8],
    }
}

/// Recipes whose largest instance is still a short task (one message, one record): never labelled
/// hard, since hard means long-horizon (A.2.2).
const SHORT: [&str; 8] = [
    "chat_post",
    "chat_reply",
    "chat_create",
    "mail_contact",
    "mail_contact_edit",
    "tracker_comment",
    "tracker_create",
    "shop_discount",
];

fn capped(mut target: [f64; 3], recipe: &str) -> [f64; 3] {
    if SHORT.contains(&recipe) {
        target[1] += target[2];
        target[2] = 0.0;
        if target[0] + target[1] <= 0.0 {
            target[1] = 1.0;
        }
    }
    target
}

/// Every list of targets the templates iterate over must be non-empty (an empty one = nothing to do).
fn targets_present(slots: &Value) -> bool {
    [
        "keys",
        "message_ids",
        "rows",
        "files", // not the app: a slot name
        "to",
        "expected_keys",
        "from_vendors",
        "check",
    ]
    .iter()
    .all(|k| {
        // A list, or a map such as the code editor's `files` {path: text}.
        slots.get(*k).is_none_or(|v| match v {
            Value::Array(a) => !a.is_empty(),
            Value::Object(o) => !o.is_empty(),
            _ => false,
        })
    })
}

/// Generates a batch with the scripted templates and the offline checks (see [`generate_with`]).
pub fn generate(
    req: &Request,
    cfg: &TaskgenConfig,
    taxonomies: &[Taxonomy],
    seeds: &Seeds,
    prior: &[Value],
) -> Result<Batch, TaskgenError> {
    generate_with(req, cfg, taxonomies, seeds, prior, Hooks::default())
}

fn bump(map: &mut BTreeMap<String, usize>, k: &str) {
    *map.entry(k.to_string()).or_insert(0) += 1;
}

/// Generates a batch. `prior` holds earlier tasks (task-gen JSON, e.g. the store's): their matrix
/// counts steer the draws (gap-fill re-samples what they lack) and the new tasks are checked for
/// repetition against them too.
pub fn generate_with(
    req: &Request,
    cfg: &TaskgenConfig,
    taxonomies: &[Taxonomy],
    seeds: &Seeds,
    prior: &[Value],
    hooks: Hooks<'_>,
) -> Result<Batch, TaskgenError> {
    let leaves: Vec<(&Leaf, Vec<&'static str>)> = taxonomies
        .iter()
        .flat_map(|t| t.leaves.iter())
        .map(|l| (l, leaf_apps(l)))
        .filter(|(_, apps)| {
            !apps.is_empty() && apps.iter().all(|a| req.apps.iter().any(|r| r == a))
        })
        .collect();
    if leaves.is_empty() {
        return Err(TaskgenError::Request(format!(
            "no taxonomy leaf serves the apps {:?}",
            req.apps
        )));
    }
    let mut rng = StdRng::seed_from_u64(req.seed);
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    for i in 0..order.len() {
        let j = rng.random_range(i..order.len());
        order.swap(i, j);
    }
    let mut books = Books::new(super::report::matrix_of(prior), leaves.len(), prior.len());
    let mut dedup = Dedup::new(cfg);
    for t in prior {
        let apps: Vec<&str> = t["domains"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(text) = t["task_instruction"].as_str() {
            dedup.preload(&apps, t["instruction_template"].as_str(), text);
        }
    }
    // Each app's floor share of the batch, at most half an even split: `min_app_share` (10 %)
    // over 33 apps would ask for 330 % of the batch, forcing nearly every draw and starving
    // breadth and the cross-app share.
    let share = cfg.min_app_share.min(0.5 / req.apps.len().max(1) as f64);
    let minimum = (share * req.n as f64).ceil() as u32;
    let (mut rejections, mut candidates, mut exhausted, mut serial) = (BTreeMap::new(), 0, 0, 0u64);
    // Candidates admitted by the cheap checks are embedded `window` at a time (one batched call);
    // an LLM author gets each verdict at once, so a near-duplicate feeds its next attempt.
    let window = match (hooks.embedder, hooks.author) {
        (Some(_), None) => cfg.embeddings.batch_size.max(1),
        _ => 1,
    };
    let mut slot = 0usize;
    loop {
        let full = books.len() >= req.n || slot >= req.n * 3;
        if full || dedup.unsettled() >= window {
            books.settle(&mut dedup, hooks.embedder, hooks.on_embed_error)?;
            if books.len() >= req.n || slot >= req.n * 3 {
                break;
            }
            continue;
        }
        let pass = pass_for(req, books.len());
        let deficit: Vec<&str> = req
            .apps
            .iter()
            .map(String::as_str)
            .filter(|a| books.batch_apps.get(a).copied().unwrap_or(0) < minimum)
            .collect();
        let need: u32 = deficit
            .iter()
            .map(|a| minimum - books.batch_apps.get(a).copied().unwrap_or(0))
            .sum();
        let forced = (req.n - books.len()) as u32 <= need;
        let eligible: Vec<usize> = (0..leaves.len())
            .filter(|&i| !forced || leaves[i].1.iter().any(|a| deficit.contains(a)))
            .filter(|&i| {
                pass != Pass::Edge || !leaves[i].0.primitives.is_empty() || leaves[i].1.len() > 1
            })
            .collect();
        // Gap-fill and edge first decide cross-app vs single-app (up-weighting cross-app, A.2.3),
        // then draw a leaf of that group by inverse frequency.
        let p_cross = match pass {
            Pass::Breadth => 0.0,
            Pass::GapFill => 0.7,
            Pass::Edge => 0.5,
        };
        let want_cross = rng.random_bool(p_cross);
        let group: Vec<usize> = eligible
            .iter()
            .copied()
            .filter(|&i| (leaves[i].1.len() > 1) == want_cross)
            .collect();
        let group = if group.is_empty() {
            eligible.clone()
        } else {
            group
        };
        let li = match pass {
            // Breadth: every leaf once before any twice — the next leaf of the shuffled order
            // not yet covered (one of the eligible when an app's floor forces the draw).
            Pass::Breadth => (0..order.len())
                .map(|k| order[(slot + k) % order.len()])
                .find(|&i| books.leaf_counts[i] == 0 && (!forced || eligible.contains(&i)))
                .unwrap_or(order[slot % order.len()]),
            _ => {
                let opts: Vec<(f64, usize)> = group
                    .iter()
                    .map(|&i| (1.0 / (1.0 + f64::from(books.leaf_counts[i])), i))
                    .collect();
                if opts.is_empty() {
                    order[slot % order.len()]
                } else {
                    weighted(&mut rng, opts)
                }
            }
        };
        slot += 1;
        let (leaf, apps) = &leaves[li];
        let task_type = if apps.len() > 1 {
            "cross_app"
        } else {
            "single_app"
        };
        let mut admitted = false;
        let mut rejected: Option<String> = None;
        for attempt in 0..cfg.max_attempts {
            candidates += 1;
            serial += 1;
            let cell = books.matrix.draw(
                &mut rng,
                platform(apps),
                task_type,
                capped(difficulty_target(pass), &leaf.recipe),
            );
            let cand = if let Some(author) = hooks.author {
                let brief = Brief {
                    leaf,
                    apps,
                    cell: &cell,
                    rejected: rejected.as_deref(),
                };
                match author.author(&brief)? {
                    Ok(a) => Candidate {
                        feasible: true,
                        template_sig: format!("llm:{}|{}", leaf.recipe, a.instruction_template),
                        instruction: a.task_instruction,
                        context: a.context,
                        difficulty: cell.difficulty.clone(),
                        apps: apps.clone(),
                        extra: vec![("generated_by", json!(author.name()))],
                    },
                    Err(why) => {
                        bump(&mut rejections, "invalid_answer");
                        rejected = Some(format!("the reply was not a valid answer ({why})"));
                        continue;
                    }
                }
            } else {
                let mut ctx = Ctx {
                    rng: &mut rng,
                    seeds,
                    difficulty: &cell.difficulty,
                    category: &cell.category,
                    serial: serial + req.seed % 1000 * 7919,
                };
                let Some(draft) = run(&leaf.recipe, &mut ctx) else {
                    bump(&mut rejections, "recipe_unavailable");
                    continue;
                };
                let (instruction, sig) = frame(
                    &mut rng,
                    &draft.core,
                    &cell.scenario,
                    &cell.category,
                    attempt,
                );
                Candidate {
                    feasible: draft.feasible && targets_present(&draft.slots),
                    instruction,
                    context: draft.context,
                    template_sig: format!("{}#{}|{sig}", leaf.recipe, draft.variant),
                    difficulty: draft.difficulty.clone(),
                    apps: draft.apps.clone(),
                    extra: vec![("template", json!(draft.template)), ("slots", draft.slots)],
                }
            };
            if let Err(v) = check(&cand.instruction, cand.feasible) {
                let name = format!("{v:?}").to_lowercase();
                bump(&mut rejections, &name);
                rejected = Some(format!(
                    "{name}: {:?} breaks the task-gen rules",
                    cand.instruction
                ));
                continue;
            }
            if let Err(r) = dedup.propose(&cand.apps, &cand.template_sig, &cand.instruction) {
                rejected = Some(format!("{} ({})", r.name(), repeat_hint(r)));
                continue;
            }
            let cell = Cell {
                difficulty: cand.difficulty.clone(),
                ..cell
            };
            let (domain, prefix) = if cand.apps.len() > 1 {
                ("cross_app".to_string(), "cross".to_string())
            } else {
                (cand.apps[0].to_string(), cand.apps[0].replace('-', ""))
            };
            let leaf_key = format!("{}:{}", leaf.app, leaf.path);
            let mut task = json!({
                "task_id": "",
                "task_instruction": cand.instruction,
                "context": cand.context,
                "difficulty": cell.difficulty,
                "domain": domain,
                "domains": cand.apps,
                "platform": cell.platform,
                "category": cell.category,
                "scenario": cell.scenario,
                "task_type": cell.task_type,
                "source_pass": pass.label(),
                "taxonomy_leaf": leaf_key,
                "instruction_template": cand.template_sig,
            });
            for (k, v) in cand.extra {
                task[k] = v;
            }
            books.add(Pending {
                task,
                id_stem: format!("{prefix}_{}-s{}", id_word(&leaf.recipe), req.seed),
                cell,
                apps: cand.apps,
                leaf: li,
                leaf_key,
            });
            if window == 1 && books.settle(&mut dedup, hooks.embedder, hooks.on_embed_error)? > 0 {
                let r = Repeat::NearDuplicate;
                rejected = Some(format!("{} ({})", r.name(), repeat_hint(r)));
                continue;
            }
            admitted = true;
            break;
        }
        if !admitted {
            exhausted += 1;
            // A saturated leaf: make inverse-frequency draws avoid it for a while.
            books.leaf_counts[li] += 4;
        }
    }
    for (k, v) in &dedup.rejections {
        *rejections.entry(k.clone()).or_insert(0) += v;
    }
    Ok(Batch {
        tasks: books.tasks,
        rejections,
        candidates,
        exhausted,
        matrix: books.matrix,
        embedding_fallbacks: dedup.embedding_fallbacks,
    })
}

fn repeat_hint(r: Repeat) -> &'static str {
    match r {
        Repeat::TemplateCap => {
            "that instruction template already has its maximum instances for this app"
        }
        Repeat::NgramOverlap => "more than half of its word 4-grams appear in one earlier task",
        Repeat::NearDuplicate => "its embedding is too close to an earlier task",
    }
}

/// A recipe name as a word of a task id: `_` and the `:` of generic recipes
/// (`envgen:<app>:<action>`) become `-`, so every generated id is a valid task id.
fn id_word(recipe: &str) -> String {
    recipe.replace(['_', ':'], "-")
}

#[cfg(test)]
mod id_word_tests {
    #[test]
    fn generic_recipe_names_become_valid_task_id_words() {
        assert_eq!(
            super::id_word("envgen:analytics:edit_alert"),
            "envgen-analytics-edit-alert"
        );
    }
}
