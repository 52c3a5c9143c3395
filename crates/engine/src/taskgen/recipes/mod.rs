//! Recipes: one per taxonomy leaf. A recipe draws slot values from the app seeds (so targets exist),
//! writes the goal sentence (never the method), the context (initial state, ground truth,
//! checkpoints) and the scripted `template` + `slots` that realise the task. Each app's recipes
//! are in its pack (`recipe.rs`), the cross-app ones in `crates/engine/src/apps/cross/recipe.rs`.

use rand::rngs::StdRng;
use rand::Rng;
use serde_json::Value;

use super::seeds::Seeds;

pub mod spec_apps;

/// What a recipe sees.
pub struct Ctx<'a> {
    /// The deterministic random source.
    pub rng: &'a mut StdRng,
    /// The app seeds.
    pub seeds: &'a Seeds,
    /// easy | medium | hard (easy <= 3 atomic actions, medium 3–10 steps, hard long-horizon).
    pub difficulty: &'a str,
    /// The domain category (phrasing::CATEGORIES).
    pub category: &'a str,
    /// A number unique within the batch (new record ids, file names).
    pub serial: u64,
}

/// A recipe's output before framing and checks.
#[derive(Debug, Clone)]
pub struct Draft {
    /// Which core phrasing was used (part of the instruction-template signature).
    pub variant: usize,
    /// The goal sentence.
    pub core: String,
    /// Initial state, ground truth, checkpoints.
    pub context: String,
    /// Scripted template name (`<name>` or `<dir>/<name>`).
    pub template: String,
    /// Template slots.
    pub slots: Value,
    /// Apps touched, web apps first.
    pub apps: Vec<&'static str>,
    /// The difficulty actually realised (a recipe may fall back when the seed cannot serve the asked one).
    pub difficulty: String,
    /// The recipe's own feasibility check (targets present, ground truth non-empty).
    pub feasible: bool,
}

impl Ctx<'_> {
    /// How many records / items the difficulty asks for.
    pub fn count(&mut self) -> usize {
        match self.difficulty {
            "easy" => 1,
            "medium" => self.rng.random_range(2..=3),
            _ => self.rng.random_range(4..=6),
        }
    }

    /// A random index below `n` (n > 0).
    pub fn idx(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n.max(1))
    }

    /// A draft with the common fields filled.
    pub fn draft(
        &self,
        variant: usize,
        core: String,
        context: String,
        template: &str,
        slots: Value,
        apps: Vec<&'static str>,
    ) -> Draft {
        Draft {
            variant,
            core,
            context,
            template: template.to_string(),
            slots,
            apps,
            difficulty: self.difficulty.to_string(),
            feasible: true,
        }
    }
}

/// Chooses `k` distinct items (order of the source kept).
pub fn choose<'v, T>(rng: &mut StdRng, items: &[&'v T], k: usize) -> Vec<&'v T> {
    let mut idx: Vec<usize> = (0..items.len()).collect();
    for i in 0..idx.len() {
        let j = rng.random_range(i..idx.len());
        idx.swap(i, j);
    }
    let mut chosen: Vec<usize> = idx.into_iter().take(k).collect();
    chosen.sort_unstable();
    chosen.into_iter().map(|i| items[i]).collect()
}

/// Joins names as English ("a, b and c").
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The difficulty implied by a number of target records.
pub fn difficulty_for(k: usize) -> String {
    match k {
        0 | 1 => "easy",
        2 | 3 => "medium",
        _ => "hard",
    }
    .into()
}

/// A subject line from a topic noun ("the budget review" -> "Budget review").
pub fn subject_of(noun: &str) -> String {
    let t = noun.trim_start_matches("the ");
    let mut c = t.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A recipe: draws one task draft, `None` when the seed cannot serve it.
pub type Recipe = fn(&mut Ctx<'_>) -> Option<Draft>;

/// The cross-app recipes (each app's own are in its pack, [`crate::apps::App::recipes`]).
const CROSS: &[(&str, Recipe)] = &[
    ("cross_csv_issues", crate::apps::cross::recipe::csv_issues),
    ("cross_issues_file", crate::apps::cross::recipe::issues_file),
    ("cross_file_chat", crate::apps::cross::recipe::file_chat),
    ("cross_file_mail", crate::apps::cross::recipe::file_mail),
    ("cross_chat_issue", crate::apps::cross::recipe::chat_issue),
];

/// The recipe names known to the generator: every pack's, then the cross-app ones.
pub fn recipe_names() -> Vec<&'static str> {
    crate::apps::all()
        .iter()
        .flat_map(|p| p.app.recipes().iter().map(|(n, _)| *n))
        .chain(CROSS.iter().map(|(n, _)| *n))
        .chain(spec_apps::names())
        .collect()
}

/// Runs a recipe; `None` when the name is unknown or the seed cannot serve it.
pub fn run(recipe: &str, ctx: &mut Ctx<'_>) -> Option<Draft> {
    if let Some(rest) = recipe.strip_prefix(spec_apps::PREFIX) {
        return spec_apps::run(rest, ctx);
    }
    let found = crate::apps::all()
        .iter()
        .flat_map(|p| p.app.recipes().iter())
        .chain(CROSS.iter())
        .find(|(n, _)| *n == recipe)?;
    (found.1)(ctx)
}
