//! Recipes: one per taxonomy leaf. A recipe draws slot values from the app seeds (so targets exist),
//! writes the goal sentence (never the method), the context (initial state, ground truth,
//! checkpoints) and the scripted `template` + `slots` that realise the task.

mod chat;
mod cross;
mod files;
mod mail;
mod shop;
mod tracker;

use rand::rngs::StdRng;
use rand::Rng;
use serde_json::Value;

use super::seeds::Seeds;

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

/// The recipe names known to the generator.
pub const RECIPES: [&str; 35] = [
    "chat_post",
    "chat_reply",
    "chat_react",
    "chat_topic",
    "chat_create",
    "chat_archive",
    "chat_invite",
    "mail_send",
    "mail_move",
    "mail_star",
    "mail_label",
    "mail_contact",
    "mail_contact_edit",
    "tracker_comment",
    "tracker_transition",
    "tracker_priority",
    "tracker_create",
    "tracker_sprint",
    "tracker_points",
    "shop_price",
    "shop_inventory",
    "shop_status",
    "shop_vendor",
    "shop_discount",
    "shop_customer_tag",
    "files_json",
    "files_todo",
    "files_report",
    "files_move",
    "files_csv",
    "cross_csv_issues",
    "cross_issues_file",
    "cross_file_chat",
    "cross_file_mail",
    "cross_chat_issue",
];

/// Runs a recipe; `None` when the name is unknown or the seed cannot serve it.
pub fn run(recipe: &str, ctx: &mut Ctx<'_>) -> Option<Draft> {
    match recipe {
        "chat_post" => chat::post(ctx),
        "chat_reply" => chat::reply(ctx),
        "chat_react" => chat::react(ctx),
        "chat_topic" => chat::set_topic(ctx),
        "chat_create" => chat::create(ctx),
        "chat_archive" => chat::archive(ctx),
        "chat_invite" => chat::invite(ctx),
        "mail_send" => mail::send(ctx),
        "mail_move" => mail::move_(ctx),
        "mail_star" => mail::star(ctx),
        "mail_label" => mail::label(ctx),
        "mail_contact" => mail::contact(ctx),
        "mail_contact_edit" => mail::contact_edit(ctx),
        "tracker_comment" => tracker::comment(ctx),
        "tracker_transition" => tracker::transition(ctx),
        "tracker_priority" => tracker::priority(ctx),
        "tracker_create" => tracker::create(ctx),
        "tracker_sprint" => tracker::sprint(ctx),
        "tracker_points" => tracker::points(ctx),
        "shop_price" => shop::price(ctx),
        "shop_inventory" => shop::inventory(ctx),
        "shop_status" => shop::status(ctx),
        "shop_vendor" => shop::vendor(ctx),
        "shop_discount" => shop::discount(ctx),
        "shop_customer_tag" => shop::customer_tag(ctx),
        "files_json" => files::json(ctx),
        "files_todo" => files::todo(ctx),
        "files_report" => files::report(ctx),
        "files_move" => files::move_files(ctx),
        "files_csv" => files::csv(ctx),
        "cross_csv_issues" => cross::csv_issues(ctx),
        "cross_issues_file" => cross::issues_file(ctx),
        "cross_file_chat" => cross::file_chat(ctx),
        "cross_file_mail" => cross::file_mail(ctx),
        "cross_chat_issue" => cross::chat_issue(ctx),
        _ => None,
    }
}
