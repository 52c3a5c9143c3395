//! Cross-application recipes (files + web app, web + web).

use serde_json::{json, Value};

use crate::taskgen::phrasing::{pick, topic, DAYS, TIMES};
use crate::taskgen::recipes::{and_list, choose, Ctx, Draft};
use crate::taskgen::seeds::{list, s};

/// The apps a cross-app recipe's tasks span (web apps first), `None` for any other recipe.
pub fn apps_of(recipe: &str) -> Option<Vec<&'static str>> {
    Some(match recipe {
        "cross_csv_issues" | "cross_issues_file" => vec!["issue-tracker", "files"],
        "cross_file_chat" => vec!["team-chat", "files"],
        "cross_file_mail" => vec!["mail", "files"],
        "cross_chat_issue" => vec!["issue-tracker", "team-chat"],
        _ => return None,
    })
}

const ROWS: [(&str, &str, &str); 10] = [
    ("Checkout total ignores gift cards", "bug", "High"),
    ("Add order notes to the packing slip", "story", "Medium"),
    ("Slow product search on mobile", "bug", "Highest"),
    ("Export invoices as PDF", "story", "Low"),
    ("Password reset email arrives late", "bug", "High"),
    ("Dark mode for the dashboard", "story", "Lowest"),
    ("Retry failed webhook deliveries", "task", "Medium"),
    ("Typo on the pricing page", "bug", "Low"),
    ("Archive old sprint reports", "task", "Lowest"),
    ("Cart badge shows wrong count", "bug", "Medium"),
];

fn platform(d: &mut Draft) {
    d.difficulty = if d.difficulty == "easy" {
        "medium".into()
    } else {
        d.difficulty.clone()
    };
}

pub fn csv_issues(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let projects = ["WEB", "API", "MOB"];
    let project = *pick(ctx.rng, &projects);
    let k = match ctx.difficulty {
        "easy" | "medium" => 2,
        _ => 4,
    };
    let refs: Vec<&(&str, &str, &str)> = ROWS.iter().collect();
    let rows = choose(ctx.rng, &refs, k);
    let tag = ctx.serial % 1000;
    let mut csv = String::from("summary,type,priority\n");
    let mut slot_rows = Vec::new();
    for &(sum, t, p) in rows {
        let sum = format!("{sum} [{tag}]");
        csv.push_str(&format!("{sum},{t},{p}\n"));
        slot_rows.push(json!({"summary": sum, "type": t, "priority": p}));
    }
    let path = format!(
        "{}/triage-{tag}.csv",
        pick(ctx.rng, &["Documents", "Desktop", "Downloads"])
    );
    let v = ctx.idx(4);
    let core = match v {
        0 => format!("File every row of {path} as an issue in the {project} project, keeping each row's type and priority."),
        1 => format!("Turn the {k} reports listed in {path} into {project} issues with the type and priority given there."),
        2 => format!("Our triage sheet {path} lists {k} problems; create one {project} issue for each, with the type and priority from the sheet."),
        _ => format!("Log each entry of {path} in {project} as its own issue (same summary, type and priority)."),
    };
    let context = format!("The setup writes /home/user/{path} with {k} rows. Ground truth: {k} new {project} issues with those summaries, types and priorities. Checkpoints: one per row.");
    let slots = json!({"csv_path": path, "csv_text": csv, "project": project, "rows": slot_rows});
    let mut d = ctx.draft(
        v,
        core,
        context,
        "csv_to_issues",
        slots,
        vec!["issue-tracker", "files"],
    );
    platform(&mut d);
    Some(d)
}

pub fn issues_file(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let projects = list(ctx.seeds.of("issue-tracker"), "projects");
    let p = projects[ctx.idx(projects.len())];
    let (pid, pkey) = (s(p, "id").to_string(), s(p, "key").to_string());
    let status = *pick(ctx.rng, &["In Progress", "In Review"]);
    let issues: Vec<&Value> = list(ctx.seeds.of("issue-tracker"), "issues")
        .into_iter()
        .filter(|i| s(i, "projectId") == pid)
        .collect();
    let others: Vec<&Value> = issues
        .iter()
        .copied()
        .filter(|i| s(i, "status") != status)
        .collect();
    let n_preset = match ctx.difficulty {
        "easy" => 0,
        "medium" => 1,
        _ => 3,
    };
    let preset: Vec<String> = choose(ctx.rng, &others, n_preset)
        .iter()
        .map(|i| s(i, "key").to_string())
        .collect();
    let mut expected: Vec<(String, String)> = issues
        .iter()
        .filter(|i| s(i, "status") == status || preset.iter().any(|k| k == s(i, "key")))
        .map(|i| (s(i, "key").to_string(), s(i, "summary").to_string()))
        .collect();
    expected.sort();
    let out = format!(
        "Documents/{}-{}-{}.md",
        pkey.to_lowercase(),
        status.to_lowercase().replace(' ', "-"),
        ctx.serial % 1000
    );
    let v = ctx.idx(4);
    let core = match v {
        0 => format!("Write a Markdown list of every {pkey} issue that is currently {status} to {out}, one line per issue with its key and summary."),
        1 => format!("Make {out}: one line per {pkey} issue in {status}, giving key and summary."),
        2 => format!("List every {pkey} issue with status {status} in a new Markdown file {out}, key and summary on each line."),
        _ => format!("I need {out} to show which {pkey} issues sit in {status}: one line each with the key and the summary."),
    };
    let keys: Vec<&String> = expected.iter().map(|(k, _)| k).collect();
    let context = format!("The setup moves {} to {status}. Ground truth: the {pkey} issues in {status} are {}. Checkpoints: keys (0.6), no others (0.2), summaries (0.2).", if preset.is_empty() { "nothing".to_string() } else { preset.join(", ") }, keys.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", "));
    let slots = json!({"project": pkey, "status": status, "preset_keys": preset, "output": out,
        "expected_keys": keys, "expected_summaries": expected.iter().map(|(_, s)| s).collect::<Vec<_>>()});
    let mut d = ctx.draft(
        v,
        core,
        context,
        "issues_to_file",
        slots,
        vec!["issue-tracker", "files"],
    );
    d.feasible = !expected.is_empty();
    d.difficulty = if expected.len() >= 5 {
        "hard".into()
    } else {
        "medium".into()
    };
    Some(d)
}

fn facts(ctx: &mut Ctx<'_>) -> (String, String, String, Vec<String>, String) {
    let (noun, kw) = topic(ctx.rng, ctx.category);
    let (day, time) = (*pick(ctx.rng, &DAYS), *pick(ctx.rng, &TIMES));
    let room = 100 + ctx.serial % 400;
    let path = format!(
        "Documents/{}-{}.txt",
        kw.replace(' ', "-"),
        ctx.serial % 1000
    );
    let note = format!("{noun}: {day} at {time}, room {room}.\n");
    let mut must = vec![day.to_string(), time.to_string()];
    if ctx.difficulty != "easy" {
        must.push(format!("room {room}"));
    }
    (
        noun.to_string(),
        path,
        note,
        must,
        format!("{noun} is on {day} at {time} in room {room}."),
    )
}

pub fn file_chat(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (noun, path, note, must, text) = facts(ctx);
    let chans: Vec<&Value> = list(ctx.seeds.of("team-chat"), "channels")
        .into_iter()
        .filter(|c| c["isArchived"] != json!(true))
        .collect();
    let ch = s(chans[ctx.idx(chans.len())], "name").to_string();
    let v = ctx.idx(4);
    let core = match v {
        0 => format!(
            "Share the schedule of {noun} from {path} in #{ch}: day, time{}.",
            if must.len() > 2 { " and room" } else { "" }
        ),
        2 => format!(
            "{path} has the plan for {noun}; pass the day, time{} on to #{ch}.",
            if must.len() > 2 { " and room" } else { "" }
        ),
        3 => format!(
            "Let #{ch} know the details of {noun} noted in {path} (day, time{}).",
            if must.len() > 2 { " and room" } else { "" }
        ),
        _ => format!(
            "Post in #{ch} when {noun} happens{}, as written in {path}.",
            if must.len() > 2 {
                " and in which room"
            } else {
                ""
            }
        ),
    };
    let context = format!("The setup writes /home/user/{path}. Ground truth: a new message in #{ch} by U01 mentioning {}. Checkpoints: posted (0.3), phrases (0.7).", must.join(", "));
    let slots = json!({"channel": ch, "text": text, "must_include": must, "sources": {path: note}});
    let mut d = ctx.draft(
        v,
        core,
        context,
        "post_message",
        slots,
        vec!["team-chat", "files"],
    );
    platform(&mut d);
    Some(d)
}

pub fn file_mail(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (noun, path, note, must, text) = facts(ctx);
    let contacts = list(ctx.seeds.of("mail"), "contacts");
    let k = if ctx.difficulty == "hard" { 2 } else { 1 };
    let chosen = choose(ctx.rng, &contacts, k);
    let to: Vec<&str> = chosen.iter().map(|c| s(c, "email")).collect();
    let names: Vec<String> = chosen.iter().map(|c| s(c, "name").to_string()).collect();
    let subject = crate::taskgen::recipes::subject_of(&noun);
    let v = ctx.idx(4);
    let core = match v {
        0 => format!(
            "Email {} the details of {noun} from {path} (subject '{subject}').",
            and_list(&names)
        ),
        1 => format!(
            "Send {} a mail titled '{subject}' with the schedule of {noun} written in {path}.",
            and_list(&names)
        ),
        2 => format!(
            "Forward what {path} says about {noun} to {} by email, subject '{subject}'.",
            and_list(&names)
        ),
        _ => format!(
            "Mail {} the day and time of {noun} as noted in {path}, with subject '{subject}'.",
            and_list(&names)
        ),
    };
    let context = format!("The setup writes /home/user/{path}. Ground truth: a sent message to exactly {}, subject '{subject}', body mentioning {}. Checkpoints: recipients (0.3), subject (0.3), body (0.4).", to.join(", "), must.join(", "));
    let slots = json!({"to": to, "subject": subject, "body": format!("Hello,\n\n{text}\n\nJordan"), "must_include": must, "sources": {path: note}});
    let mut d = ctx.draft(v, core, context, "send_email", slots, vec!["mail", "files"]);
    platform(&mut d);
    Some(d)
}

pub fn chat_issue(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let issues = list(ctx.seeds.of("issue-tracker"), "issues");
    let i = issues[ctx.idx(issues.len())];
    let key = s(i, "key").to_string();
    let status = ["To Do", "In Progress", "In Review", "Done"]
        .into_iter()
        .find(|x| *x != s(i, "status") && ctx.serial.is_multiple_of(2))
        .unwrap_or(if s(i, "status") == "In Review" {
            "Done"
        } else {
            "In Review"
        });
    let prio = ["Highest", "High", "Medium", "Low"]
        .into_iter()
        .find(|x| *x != s(i, "priority"))?;
    let users: Vec<&Value> = list(ctx.seeds.of("team-chat"), "users")
        .into_iter()
        .filter(|u| s(u, "id") != "U01" && u["isBot"] != json!(true))
        .collect();
    let asker = users[ctx.idx(users.len())];
    let chans = [
        "engineering",
        "support-escalations",
        "product-launch",
        "deploys",
    ];
    let ch = *pick(ctx.rng, &chans);
    let mut changes = json!({"status": status});
    let mut msg = format!("Can someone move {key} to {status}?");
    if ctx.difficulty != "easy" {
        changes["priority"] = json!(prio);
        msg = format!("Can someone move {key} to {status} and make it {prio} priority?");
    }
    let who = s(asker, "displayName");
    let v = ctx.idx(4);
    let core = match v {
        0 => format!(
            "{who} asked for an issue change in #{ch}; make that change in the issue tracker."
        ),
        1 => format!("Do what {who}'s latest request in #{ch} asks for on the issue it mentions."),
        2 => format!("Act on the issue-tracker request {who} posted in #{ch}."),
        _ => format!("{who} posted in #{ch} asking for an update to an issue; apply it."),
    };
    let context = format!("The setup posts in #{ch} by {}: {msg:?}. Ground truth: {key} has {changes}. Checkpoints: one per requested field.", s(asker, "id"));
    let slots = json!({"channel": ch, "message": {"user": s(asker, "id"), "text": msg}, "issue": key, "changes": changes});
    let mut d = ctx.draft(
        v,
        core,
        context,
        "chat_to_issue",
        slots,
        vec!["issue-tracker", "team-chat"],
    );
    platform(&mut d);
    Some(d)
}
