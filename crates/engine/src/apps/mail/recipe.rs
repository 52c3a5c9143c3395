//! Task-generation recipes of this pack (one per taxonomy leaf `recipe`): mail.

use serde_json::{json, Value};

use crate::taskgen::recipes::{and_list, choose, Ctx, Draft, Recipe};
use crate::taskgen::recipes::{difficulty_for, subject_of};
use crate::taskgen::phrasing::{pick, topic, DAYS, TIMES};
use crate::taskgen::seeds::{list, s};

const FIRST: [&str; 10] = [
    "Priya", "Mateo", "Ines", "Kofi", "Lena", "Ravi", "Sofia", "Tomasz", "Yuki", "Amara",
];
const LAST: [&str; 10] = [
    "Natarajan",
    "Alvarez",
    "Duarte",
    "Mensah",
    "Vogel",
    "Iyer",
    "Marino",
    "Nowak",
    "Sato",
    "Eze",
];
const COMPANIES: [&str; 8] = [
    "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Acme", "Soylent",
];

pub fn send(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let contacts = list(ctx.seeds.of("mail"), "contacts");
    let k = match ctx.difficulty {
        "easy" => 1,
        "medium" => 2,
        _ => 3,
    };
    let chosen = choose(ctx.rng, &contacts, k);
    let to: Vec<&str> = chosen.iter().map(|c| s(c, "email")).collect();
    let names: Vec<String> = chosen.iter().map(|c| s(c, "name").to_string()).collect();
    let (noun, _) = topic(ctx.rng, ctx.category);
    let (day, time) = (*pick(ctx.rng, &DAYS), *pick(ctx.rng, &TIMES));
    let subject = format!("{} on {day}", subject_of(noun));
    let mut must = vec![day.to_string(), time.to_string()];
    let mut body = format!("Hello,\n\nConfirming {noun} on {day} at {time}.");
    let mut extra = String::new();
    if ctx.difficulty == "hard" {
        let n = 2 + ctx.serial % 7;
        body.push_str(&format!(" Please bring {n} printed copies."));
        extra = format!(", and ask them to bring {n} printed copies");
        must.push(format!("{n} printed copies"));
    }
    body.push_str("\n\nJordan");
    let v = ctx.idx(3);
    let core = match v {
        0 => format!("Email {} to confirm {noun} on {day} at {time}{extra}. Use the subject '{subject}'.", and_list(&names)),
        1 => format!("Send {} a message with the subject '{subject}' confirming {noun} for {day} at {time}{extra}.", and_list(&names)),
        _ => format!("Write to {} (subject '{subject}') that {noun} is confirmed for {day}, {time}{extra}.", and_list(&names)),
    };
    let context = format!("Mailbox of jordan.lee@northwind.io. Ground truth: a new sent message to exactly {}, subject containing '{subject}', body mentioning {}. Checkpoints: recipients (0.3), subject (0.3), body (0.4).", to.join(", "), must.join(", "));
    let slots = json!({"to": to, "subject": subject, "body": body, "must_include": must});
    Some(ctx.draft(v, core, context, "send_email", slots, vec!["mail"]))
}

/// Inbox messages grouped by sender name, as (name, messages).
fn by_sender<'v>(ctx: &Ctx<'v>, pred: impl Fn(&Value) -> bool) -> Vec<(String, Vec<&'v Value>)> {
    let mut out: Vec<(String, Vec<&Value>)> = Vec::new();
    for m in list(ctx.seeds.of("mail"), "messages") {
        if s(m, "folder") != "inbox" || !pred(m) {
            continue;
        }
        let name = s(&m["from"], "name").to_string();
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.push(m),
            None => out.push((name, vec![m])),
        }
    }
    out
}

fn sender_group<'v>(
    ctx: &mut Ctx<'v>,
    pred: impl Fn(&Value) -> bool,
) -> Option<(String, Vec<String>)> {
    let groups = by_sender(ctx, pred);
    if groups.is_empty() {
        return None;
    }
    let want = ctx.count();
    let best = groups
        .iter()
        .min_by_key(|(n, v)| (v.len().abs_diff(want), n.len() % 3))
        .map(|(_, v)| v.len())?;
    let close: Vec<&(String, Vec<&Value>)> =
        groups.iter().filter(|(_, v)| v.len() == best).collect();
    let (name, msgs) = close[ctx.idx(close.len())];
    Some((
        name.clone(),
        msgs.iter().map(|m| s(m, "id").to_string()).collect(),
    ))
}

pub fn move_(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (name, keys) = sender_group(ctx, |_| true)?;
    let folder = *pick(ctx.rng, &["archive", "trash"]);
    let v = ctx.idx(2);
    let core = match (v, folder) {
        (0, "archive") => format!("Archive every email from {name} that is in my inbox."),
        (0, _) => format!("Delete all the emails from {name} in my inbox."),
        (_, "archive") => format!("Clear {name}'s messages out of my inbox by archiving them."),
        _ => format!("Move all of {name}'s inbox messages to the trash."),
    };
    let context = format!("Inbox messages from {name}: {}. Ground truth: those have folder '{folder}'; nothing else changes. Checkpoints: folder (0.8), scope (0.2).", keys.join(", "));
    let k = keys.len();
    let slots = json!({"app": "mail", "collection": "messages", "key_field": "id", "keys": keys, "changes": {"folder": folder}});
    let mut d = ctx.draft(v, core, context, "update_records", slots, vec!["mail"]);
    d.difficulty = difficulty_for(k);
    Some(d)
}

pub fn star(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (name, keys) = sender_group(ctx, |_| true)?;
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Star every email from {name} in my inbox so I can find them later."),
        _ => format!("Flag all of {name}'s inbox messages with a star."),
    };
    let context = format!("Inbox messages from {name}: {} (the setup unstars them). Ground truth: isStarred true on each; nothing else changes. Checkpoints: starred (0.8), scope (0.2).", keys.join(", "));
    let k = keys.len();
    let slots = json!({"app": "mail", "collection": "messages", "key_field": "id", "keys": keys, "changes": {"isStarred": true}, "preset": {"isStarred": false}});
    let mut d = ctx.draft(v, core, context, "update_records", slots, vec!["mail"]);
    d.difficulty = difficulty_for(k);
    Some(d)
}

pub fn label(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let labels = list(ctx.seeds.of("mail"), "labels");
    let l = labels[ctx.idx(labels.len())];
    let (name, keys) = sender_group(ctx, |_| true)?;
    let lname = s(l, "name");
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Label all inbox emails from {name} as {lname}."),
        _ => format!(
            "Put the {lname} label on every message {name} sent me that is still in the inbox."
        ),
    };
    let context = format!("Inbox messages from {name}: {} (the setup clears their labels). Ground truth: each has label {} ({lname}). Checkpoints: label (0.8), scope (0.2).", keys.join(", "), s(l, "id"));
    let k = keys.len();
    let slots = json!({"app": "mail", "collection": "messages", "key_field": "id", "keys": keys, "changes": {"labels+": [s(l, "id")]}, "preset": {"labels": []}});
    let mut d = ctx.draft(v, core, context, "update_records", slots, vec!["mail"]);
    d.difficulty = difficulty_for(k);
    Some(d)
}

pub fn contact(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let name = format!("{} {}", pick(ctx.rng, &FIRST), pick(ctx.rng, &LAST));
    let company = *pick(ctx.rng, &COMPANIES);
    let email = format!(
        "{}.{}@{}.com",
        name.split(' ').next()?.to_lowercase(),
        name.split(' ').nth(1)?.to_lowercase(),
        company.to_lowercase()
    );
    let phone = format!("+1-555-{:04}", ctx.serial % 10_000);
    let mut expect = json!({"name": name, "company": company});
    let mut extra = String::new();
    if ctx.difficulty != "easy" {
        expect["phone"] = json!(phone);
        extra = format!(", phone {phone}");
    }
    if ctx.difficulty == "hard" {
        expect["starred"] = json!(true);
        extra.push_str(", and mark the contact as starred");
    }
    let record = json!({"id": format!("ct9{:04}", ctx.serial % 10_000), "email": email, "name": name, "company": company, "phone": phone, "starred": ctx.difficulty == "hard"});
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Add a new contact: {name} from {company}, {email}{extra}."),
        _ => format!("Save {name} ({company}, {email}) to my contacts{extra}."),
    };
    let context = format!("No contact with {email} exists. Ground truth: a new contact with that email and fields {expect}. Checkpoints: created (0.4), fields (0.6 split).");
    let slots = json!({"app": "mail", "collection": "contacts", "record": record, "identify": {"email": email}, "expect": expect});
    Some(ctx.draft(v, core, context, "create_record", slots, vec!["mail"]))
}

pub fn contact_edit(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let contacts = list(ctx.seeds.of("mail"), "contacts");
    let c = contacts[ctx.idx(contacts.len())];
    let phone = format!("+1-555-{:04}", 1000 + ctx.serial % 9000);
    let mut changes = json!({"phone": phone});
    let mut extra = String::new();
    if ctx.difficulty != "easy" {
        let company = COMPANIES
            .iter()
            .find(|x| **x != s(c, "company"))
            .copied()
            .unwrap_or("Globex");
        let company = if ctx.serial.is_multiple_of(2) {
            company
        } else {
            COMPANIES
                .iter()
                .rev()
                .find(|x| **x != s(c, "company"))
                .copied()
                .unwrap_or("Acme")
        };
        changes["company"] = json!(company);
        extra = format!(" and note that they now work at {company}");
    }
    let name = s(c, "name");
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Update {name}'s phone number to {phone}{extra}."),
        _ => format!("{name} has a new number, {phone}; fix the contact{extra}."),
    };
    let context = format!("Contact {} is {name}. Ground truth: fields {changes}. Checkpoints: one per field (0.8 split), others untouched (0.2).", s(c, "id"));
    let slots = json!({"app": "mail", "collection": "contacts", "key_field": "id", "keys": [s(c, "id")], "changes": changes});
    Some(ctx.draft(v, core, context, "update_records", slots, vec!["mail"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("mail_send", send),
    ("mail_move", move_),
    ("mail_star", star),
    ("mail_label", label),
    ("mail_contact", contact),
    ("mail_contact_edit", contact_edit),
];
