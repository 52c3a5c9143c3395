//! Task-generation recipes of this pack (one per taxonomy leaf `recipe`): issue-tracker.

use serde_json::{json, Value};

use crate::taskgen::recipes::{and_list, choose, Ctx, Draft, Recipe};
use crate::taskgen::phrasing::pick;
use crate::taskgen::seeds::{list, s};

const PLATFORMS: [&str; 6] = [
    "Safari 17",
    "Chrome 124",
    "Firefox 126",
    "Android 14",
    "iOS 17.4",
    "Edge 124",
];
const STATUSES: [&str; 4] = ["To Do", "In Progress", "In Review", "Done"];
const PRIORITIES: [&str; 5] = ["Highest", "High", "Medium", "Low", "Lowest"];
const AREAS: [&str; 8] = [
    "Checkout",
    "Search",
    "Login",
    "Cart",
    "Invoice export",
    "Profile page",
    "Order history",
    "Push notifications",
];
const PROBLEMS: [&str; 8] = [
    "times out under load",
    "shows stale prices",
    "ignores the saved locale",
    "fails on slow networks",
    "drops the last item",
    "renders blank on first visit",
    "double-counts discounts",
    "loses unsaved edits",
];

fn issues<'v>(ctx: &Ctx<'v>, pred: impl Fn(&Value) -> bool) -> Vec<&'v Value> {
    list(ctx.seeds.of("issue-tracker"), "issues")
        .into_iter()
        .filter(|i| pred(i))
        .collect()
}

fn user_name(ctx: &Ctx<'_>, id: &str) -> String {
    list(ctx.seeds.of("issue-tracker"), "users")
        .into_iter()
        .find(|u| s(u, "id") == id)
        .map(|u| s(u, "name").to_string())
        .unwrap_or_else(|| id.to_string())
}

fn keys_of(items: &[&Value]) -> Vec<String> {
    items.iter().map(|i| s(i, "key").to_string()).collect()
}

fn update(ctx: &Ctx<'_>, keys: &[String], changes: Value, preset: Option<Value>) -> Value {
    let _ = ctx;
    let mut slots = json!({"app": "issue-tracker", "collection": "issues", "key_field": "key", "keys": keys, "changes": changes});
    if let Some(p) = preset {
        slots["preset"] = p;
    }
    slots
}

pub fn comment(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let all = issues(ctx, |_| true);
    let i = all[ctx.idx(all.len())];
    let platform = *pick(ctx.rng, &PLATFORMS);
    let build = format!("build {}", 1000 + ctx.serial % 9000);
    let mut text = format!("Reproduced on {platform} with {build}.");
    let mut must = vec![platform.to_string(), build.clone()];
    let mut extra = String::new();
    if ctx.difficulty != "easy" {
        let pct = 5 + ctx.serial % 90;
        text.push_str(&format!(" It affects about {pct}% of sessions."));
        extra = format!(" and that it affects about {pct}% of sessions");
        must.push(format!("{pct}%"));
    }
    let key = s(i, "key");
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Comment on {key} that it reproduces on {platform} with {build}{extra}."),
        _ => format!("Let the {key} watchers know in a comment that you reproduced it on {platform}, {build}{extra}."),
    };
    let context = format!("{key} '{}'. Ground truth: a new comment by u1 mentioning {}. Checkpoints: comment added (0.3), content (0.7).", s(i, "summary"), must.join(", "));
    Some(ctx.draft(
        v,
        core,
        context,
        "add_comment",
        json!({"issue": key, "text": text, "must_include": must}),
        vec!["issue-tracker"],
    ))
}

pub fn transition(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let target = *pick(ctx.rng, &STATUSES);
    let users = list(ctx.seeds.of("issue-tracker"), "users");
    let assignee = s(users[ctx.idx(users.len())], "id").to_string();
    let with_assignee = ctx.difficulty != "easy";
    let pool = issues(ctx, |i| {
        s(i, "status") != target && (!with_assignee || s(i, "assignee") != assignee)
    });
    let k = ctx.count();
    let chosen = choose(ctx.rng, &pool, k);
    let keys = keys_of(&chosen);
    let mut changes = json!({"status": target});
    let mut extra = String::new();
    if with_assignee {
        changes["assignee"] = json!(assignee);
        extra = format!(
            " and assign {} to {}",
            if k == 1 { "it" } else { "them" },
            user_name(ctx, &assignee)
        );
    }
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Move {} to {target}{extra}.", and_list(&keys)),
        _ => format!(
            "Update the workflow: {} should be {target}{extra}.",
            and_list(&keys)
        ),
    };
    let context = format!("Issues {} are not in {target}. Ground truth: changes {changes} on each; no other issue changed. Checkpoints: one per field (0.8 split), others untouched (0.2).", keys.join(", "));
    Some(ctx.draft(
        v,
        core,
        context,
        "update_records",
        update(ctx, &keys, changes, None),
        vec!["issue-tracker"],
    ))
}

pub fn priority(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let target = *pick(ctx.rng, &PRIORITIES);
    let pool = issues(ctx, |i| s(i, "priority") != target);
    let k = ctx.count();
    let keys = keys_of(&choose(ctx.rng, &pool, k));
    let mut changes = json!({"priority": target});
    let mut extra = String::new();
    if ctx.difficulty == "hard" {
        changes["labels+"] = json!(["triaged"]);
        extra = " and label them triaged".into();
    }
    let v = ctx.idx(2);
    let core = match v {
        0 => format!(
            "Set the priority of {} to {target}{extra}.",
            and_list(&keys)
        ),
        _ => format!("Re-prioritise {} as {target}{extra}.", and_list(&keys)),
    };
    let context = format!("Issues {} have another priority (the setup removes any 'triaged' label). Ground truth: {changes}. Checkpoints: one per field (0.8 split), others untouched (0.2).", keys.join(", "));
    let preset = (ctx.difficulty == "hard").then(|| json!({"labels": []}));
    Some(ctx.draft(
        v,
        core,
        context,
        "update_records",
        update(ctx, &keys, changes, preset),
        vec!["issue-tracker"],
    ))
}

/// The next free key of a project (`WEB-132`).
pub fn next_key(ctx: &Ctx<'_>, project_key: &str) -> String {
    let max = issues(ctx, |i| s(i, "key").starts_with(&format!("{project_key}-")))
        .iter()
        .filter_map(|i| s(i, "key").rsplit('-').next()?.parse::<u32>().ok())
        .max()
        .unwrap_or(100);
    format!("{project_key}-{}", max + 1)
}

pub fn create(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let projects = list(ctx.seeds.of("issue-tracker"), "projects");
    let p = projects[ctx.idx(projects.len())];
    let users = list(ctx.seeds.of("issue-tracker"), "users");
    let assignee = s(users[ctx.idx(users.len())], "id").to_string();
    let summary = format!(
        "{} {} ({})",
        pick(ctx.rng, &AREAS),
        pick(ctx.rng, &PROBLEMS),
        pick(ctx.rng, &PLATFORMS)
    );
    let kind = *pick(ctx.rng, &["bug", "task", "story"]);
    let prio = *pick(ctx.rng, &PRIORITIES);
    let pkey = s(p, "key");
    let record = json!({"id": format!("i9{:04}", ctx.serial % 10_000), "key": next_key(ctx, pkey), "projectId": s(p, "id"), "type": kind,
        "summary": summary, "description": "", "status": "To Do", "priority": prio, "assignee": assignee, "reporter": "u1",
        "sprintId": null, "storyPoints": null, "labels": [], "comments": [], "created": "2026-03-05T10:00:00Z", "updated": "2026-03-05T10:00:00Z"});
    let mut expect = json!({"projectId": s(p, "id"), "type": kind, "priority": prio});
    let mut extra = String::new();
    if ctx.difficulty != "easy" {
        expect["assignee"] = json!(assignee);
        extra = format!(", assigned to {}", user_name(ctx, &assignee));
    }
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("File a {kind} in the {pkey} project: '{summary}', {prio} priority{extra}."),
        _ => format!("Create a {prio}-priority {kind} '{summary}' in {pkey}{extra}."),
    };
    let context = format!("Project {pkey} is {}. Ground truth: a new issue with that summary and {expect}. Checkpoints: created (0.4), fields (0.6 split).", s(p, "id"));
    let slots = json!({"app": "issue-tracker", "collection": "issues", "record": record, "identify": {"summary": summary}, "expect": expect});
    Some(ctx.draft(
        v,
        core,
        context,
        "create_record",
        slots,
        vec!["issue-tracker"],
    ))
}

pub fn sprint(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let sprints: Vec<&Value> = list(ctx.seeds.of("issue-tracker"), "sprints")
        .into_iter()
        .filter(|s_| s(s_, "state") != "closed")
        .collect();
    let sp = sprints[ctx.idx(sprints.len())];
    let pid = s(sp, "projectId").to_string();
    let sid = s(sp, "id").to_string();
    let pool = issues(ctx, |i| {
        s(i, "projectId") == pid && i["sprintId"] != json!(sid) && s(i, "status") != "Done"
    });
    let k = ctx.count();
    let keys = keys_of(&choose(ctx.rng, &pool, k));
    if keys.is_empty() {
        return None;
    }
    let name = s(sp, "name");
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Plan {} into {name}.", and_list(&keys)),
        _ => format!("Put {} in the {name} sprint.", and_list(&keys)),
    };
    let context = format!("{name} is sprint {sid}. Ground truth: sprintId = {sid} on {}. Checkpoints: sprint (0.8), others untouched (0.2).", keys.join(", "));
    Some(ctx.draft(
        v,
        core,
        context,
        "update_records",
        update(ctx, &keys, json!({"sprintId": sid}), None),
        vec!["issue-tracker"],
    ))
}

pub fn points(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let pts = *pick(ctx.rng, &[1, 2, 3, 5, 8, 13]);
    let pool = issues(ctx, |i| i["storyPoints"] != json!(pts));
    let k = ctx.count();
    let keys = keys_of(&choose(ctx.rng, &pool, k));
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Estimate {} at {pts} story points.", and_list(&keys)),
        _ => format!(
            "After refinement, {} {} worth {pts} points; record that.",
            and_list(&keys),
            if keys.len() == 1 { "is" } else { "are each" }
        ),
    };
    let context = format!("Ground truth: storyPoints = {pts} on {}. Checkpoints: points (0.8), others untouched (0.2).", keys.join(", "));
    Some(ctx.draft(
        v,
        core,
        context,
        "update_records",
        update(ctx, &keys, json!({"storyPoints": pts}), None),
        vec!["issue-tracker"],
    ))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("tracker_comment", comment),
    ("tracker_transition", transition),
    ("tracker_priority", priority),
    ("tracker_create", create),
    ("tracker_sprint", sprint),
    ("tracker_points", points),
];
