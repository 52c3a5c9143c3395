//! thunderbird recipes: organising a generated Inbox, drafts, preferences and message filters.

use serde_json::{json, Value};

use crate::taskgen::recipes::{and_list, Ctx, Draft, Recipe};

/// (sender, subject, body) of the generated Inbox.
const MESSAGES: [(&str, &str, &str); 8] = [
    ("Priya Shah <priya@northwind.test>", "Quarterly budget draft", "The draft is ready for review."),
    ("Leo Park <leo@harbor.test>", "Team offsite dates", "Please vote for the offsite dates."),
    ("Accounts <billing@northwind.test>", "Invoice 5120", "Invoice 5120 is attached."),
    ("Maya Chen <maya@harbor.test>", "Pallet audit results", "Audit results for March."),
    ("Omar Haddad <omar@lakeside.test>", "Signed agreement", "The signed agreement is attached."),
    ("IT Desk <it@harbor.test>", "Password expiry notice", "Your password expires in 7 days."),
    ("Nina Rossi <nina@harbor.test>", "Visitor badges", "Badges for Thursday's visitors."),
    ("Shipping Weekly <news@shipping-weekly.test>", "Weekly freight digest", "Freight rates this week."),
];

/// (op, keyword, phrase): what a person does to one message.
const OPS: [(&str, &str, &str); 6] = [
    ("flag", "", "star"),
    ("tag", "$label1", "tag as Important"),
    ("tag", "$label2", "tag as Work"),
    ("tag", "$label4", "tag as To Do"),
    ("delete", "", "delete"),
    ("move", "", "move to the Archive folder"),
];

fn inbox(serial: u64) -> Vec<Value> {
    MESSAGES
        .iter()
        .enumerate()
        .map(|(i, (from, subject, body))| {
            json!({"id": format!("<g{serial}-{i}@mail.harbor.test>"), "from": from,
                   "to": "Dana Ruiz <dana@harbor.test>", "subject": subject,
                   "date": format!("Mon, {:02} Mar 2025 09:{:02}:00 +0000", 3 + i, i * 5), "body": body})
        })
        .collect()
}

/// Stars, tags, deletes or moves one (easy) to several (hard) messages of a generated Inbox.
pub fn organise(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let msgs = inbox(ctx.serial);
    let n = ctx.count().min(MESSAGES.len());
    let start = ctx.idx(MESSAGES.len());
    let mut ops = Vec::new();
    let mut said = Vec::new();
    for k in 0..n {
        let m = &msgs[(start + k) % msgs.len()];
        let (op, tag, phrase) = OPS[ctx.idx(OPS.len())];
        let subject = m["subject"].as_str().unwrap_or_default();
        let mut o = json!({"op": op, "id": m["id"], "folder": "Inbox", "subject": subject,
                           "say": format!("{subject:?}: {phrase}")});
        if op == "tag" {
            o["tag"] = json!(tag);
        }
        if op == "move" {
            o["to"] = json!("Archive");
        }
        ops.push(o);
        said.push(format!("{phrase} \"{subject}\""));
    }
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("In Thunderbird, {}.", and_list(&said)),
        _ => format!("Tidy up the Inbox in Thunderbird: {}.", and_list(&said)),
    };
    let context = "The setup writes an Inbox of 8 messages and an empty Archive folder (mbox files) and opens Thunderbird. Checkpoints: one per change (0.8 split), other messages untouched (0.2).".to_string();
    let slots = json!({"folders": {"Inbox": msgs, "Archive": []}, "ops": ops});
    Some(ctx.draft(v, core, context, "tb_mail", slots, vec!["thunderbird"]))
}

/// Composes a message and saves it as a draft.
pub fn draft(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let msgs = inbox(ctx.serial);
    let (from, subject, _) = MESSAGES[ctx.idx(MESSAGES.len())];
    let addr = from
        .split_once('<')
        .map(|(_, a)| a.trim_end_matches('>'))
        .unwrap_or(from);
    let subject = format!("Re: {subject}");
    let body = "Thanks, I will get back to you tomorrow.";
    let core = format!(
        "Write a message to {addr} with the subject \"{subject}\" saying \"{body}\" and save it as a draft."
    );
    let context = format!("The setup writes the Inbox and opens Thunderbird. Ground truth: a draft in Local Folders/Drafts to {addr}. Checkpoints: subject (0.25), recipients (0.375), body (0.375).");
    let slots = json!({"folders": {"Inbox": msgs}, "draft": {"to": [addr], "subject": subject, "body": body}});
    Some(ctx.draft(0, core, context, "tb_draft", slots, vec!["thunderbird"]))
}

/// (pref, default, goal, phrase) of the Settings tab.
pub(super) const PREFS: [(&str, bool, &str); 5] = [
    ("mailnews.mark_message_read.auto", true, "stop marking displayed messages as read"),
    ("mail.SpellCheckBeforeSend", false, "check spelling before sending"),
    ("mail.phishing.detection.enabled", true, "turn scam detection off"),
    ("mail.compose.attachment_reminder", true, "turn the attachment reminder off"),
    ("mail.collect_email_address_outgoing", true, "stop collecting outgoing addresses"),
];

/// Flips one (easy) to several Settings check boxes.
pub fn pref(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let n = ctx.count().min(PREFS.len());
    let start = ctx.idx(PREFS.len());
    let (mut preset, mut changes, mut said) = (json!({}), json!({}), Vec::new());
    for k in 0..n {
        let (name, default, phrase) = PREFS[(start + k) % PREFS.len()];
        preset[name] = json!(default);
        changes[name] = json!(!default);
        said.push(phrase.to_string());
    }
    let core = format!("In Thunderbird's settings, {}.", and_list(&said));
    let context = format!("The setup writes {preset} into prefs.js and opens Thunderbird. Ground truth: {changes}. Checkpoints: one per preference (0.8 split), account kept (0.2).");
    let keep = json!({"mail.identity.id1.useremail": "dana@harbor.test", "mail.server.server1.type": "none"});
    let slots = json!({"preset": preset, "changes": changes, "keep": keep});
    Some(ctx.draft(0, core, context, "tb_prefs", slots, vec!["thunderbird"]))
}

/// A filter moving a sender's messages to a folder.
pub fn filter(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (from, _, _) = MESSAGES[ctx.idx(MESSAGES.len())];
    let addr = from
        .split_once('<')
        .map(|(_, a)| a.trim_end_matches('>'))
        .unwrap_or(from);
    let name = format!("From {addr}");
    let core = format!("Create a Thunderbird message filter named \"{name}\" that moves messages from {addr} to the Archive folder.");
    let context = "The setup writes the Inbox and Archive and opens Thunderbird. Checkpoints: name (0.2), condition (0.4), actions (0.3), enabled (0.1).".to_string();
    let slots = json!({"folders": {"Inbox": inbox(ctx.serial), "Archive": []}, "existing": [],
        "filter": {"name": name, "condition": format!("AND (from,contains,{addr})"),
                   "actions": [["Move to folder", "mailbox://nobody@Local%20Folders/Archive"]]}});
    Some(ctx.draft(0, core, context, "tb_filter", slots, vec!["thunderbird"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("thunderbird_organise", organise),
    ("thunderbird_draft", draft),
    ("thunderbird_pref", pref),
    ("thunderbird_filter", filter),
];
