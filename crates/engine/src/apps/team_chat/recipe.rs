//! Task-generation recipes of this pack (one per taxonomy leaf `recipe`): team-chat.

use serde_json::{json, Value};

use crate::taskgen::recipes::{and_list, choose, Ctx, Draft, Recipe};
use crate::taskgen::recipes::difficulty_for;
use crate::taskgen::phrasing::{pick, topic, DAYS, TIMES};
use crate::taskgen::seeds::{list, s};

const EMOJIS: [&str; 6] = [
    "thumbsup",
    "eyes",
    "tada",
    "white_check_mark",
    "heart",
    "rocket",
];

fn channels<'v>(ctx: &Ctx<'v>) -> Vec<&'v Value> {
    list(ctx.seeds.of("team-chat"), "channels")
        .into_iter()
        .filter(|c| c["isArchived"] != json!(true))
        .collect()
}

fn people<'v>(ctx: &Ctx<'v>) -> Vec<&'v Value> {
    list(ctx.seeds.of("team-chat"), "users")
        .into_iter()
        .filter(|u| u["isBot"] != json!(true) && s(u, "id") != "U01")
        .collect()
}

pub fn post(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let chans = channels(ctx);
    let ch = s(chans[ctx.idx(chans.len())], "name").to_string();
    let (noun, kw) = topic(ctx.rng, ctx.category);
    let (day, time) = (*pick(ctx.rng, &DAYS), *pick(ctx.rng, &TIMES));
    let room = 100 + ctx.serial % 400;
    let mut text = format!("Heads up: {noun} is now on {day} at {time}");
    let mut must = vec![kw.to_string(), day.to_string(), time.to_string()];
    let mut extra = String::new();
    if ctx.difficulty != "easy" {
        text.push_str(&format!(" in room {room}"));
        extra.push_str(&format!(" in room {room}"));
        must.push(format!("room {room}"));
    }
    if ctx.difficulty == "hard" {
        let (noun2, kw2) = topic(ctx.rng, "Operations");
        text.push_str(&format!("; {noun2} is cancelled this week"));
        extra.push_str(&format!(", and that {noun2} is cancelled this week"));
        must.push(kw2.to_string());
        must.push("cancelled".into());
    }
    text.push('.');
    let v = ctx.idx(3);
    let core = match v {
        0 => format!("Let everyone in #{ch} know that {noun} moves to {day} at {time}{extra}."),
        1 => format!("Post in #{ch} that {noun} now happens on {day} at {time}{extra}."),
        _ => {
            format!("Tell the #{ch} channel that {noun} is rescheduled to {time} on {day}{extra}.")
        }
    };
    let context = format!(
        "Team chat Northwind, signed in as U01. Ground truth: a new top-level message in #{ch} by the current user mentioning {}. Checkpoints: message posted in #{ch} (0.3), required phrases (0.7).",
        must.join(", ")
    );
    let slots = json!({"channel": ch, "text": text, "must_include": must});
    Some(ctx.draft(v, core, context, "post_message", slots, vec!["team-chat"]))
}

pub fn reply(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let chans = channels(ctx);
    let ch = s(chans[ctx.idx(chans.len())], "name").to_string();
    let users = people(ctx);
    let asker = users[ctx.idx(users.len())];
    let (noun, _) = topic(ctx.rng, ctx.category);
    let (day, time) = (*pick(ctx.rng, &DAYS), *pick(ctx.rng, &TIMES));
    let id = format!("MG{:05}", ctx.serial % 100_000);
    let question = format!("Does anyone know when {noun} takes place?");
    let mut text = format!("{noun} is on {day} at {time}.");
    let mut must = vec![day.to_string(), time.to_string()];
    let mut extra = String::new();
    if ctx.difficulty != "easy" {
        let owner = s(users[ctx.idx(users.len())], "displayName").to_string();
        text.push_str(&format!(" {owner} is running it."));
        extra = format!(" and that {owner} is running it");
        must.push(owner);
    }
    let who = s(asker, "displayName");
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Answer {who}'s question in #{ch} about when {noun} takes place: it is on {day} at {time}{extra}. Reply in the thread."),
        _ => format!("In the thread under {who}'s message in #{ch}, reply that {noun} is on {day} at {time}{extra}."),
    };
    let context = format!(
        "The setup posts message {id} by {} in #{ch}: {question:?}. Ground truth: a thread reply by U01 under {id} mentioning {}; the parent's replyCount goes up by one. Checkpoints: reply in thread (0.4), content (0.4), reply count (0.2).",
        s(asker, "id"),
        must.join(", ")
    );
    let slots = json!({"channel": ch, "parent_id": id, "text": text, "must_include": must,
        "seed_messages": [{"id": id, "user": s(asker, "id"), "text": question}]});
    Some(ctx.draft(v, core, context, "thread_reply", slots, vec!["team-chat"]))
}

pub fn react(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let emoji = *pick(ctx.rng, &EMOJIS);
    let chans = channels(ctx);
    let ch = chans[ctx.idx(chans.len())];
    let name = s(ch, "name").to_string();
    let msgs: Vec<&Value> = ctx.seeds.of("team-chat")["messages"][s(ch, "id")]
        .as_array()?
        .iter()
        .filter(|m| {
            !m["reactions"]
                .as_array()
                .is_some_and(|r| r.iter().any(|x| x["emoji"] == json!(emoji)))
        })
        .collect();
    if msgs.is_empty() {
        return None;
    }
    let k = ctx.count().min(msgs.len());
    let chosen = choose(ctx.rng, &msgs, k);
    let ids: Vec<String> = chosen.iter().map(|m| s(m, "id").to_string()).collect();
    let quotes: Vec<String> = chosen
        .iter()
        .map(|m| format!("\"{}\"", s(m, "text")))
        .collect();
    let v = ctx.idx(2);
    let core = match v {
        0 => format!(
            "React with :{emoji}: to these messages in #{name}: {}.",
            quotes.join("; ")
        ),
        _ => format!(
            "Add a :{emoji}: reaction in #{name} to {}.",
            and_list(&quotes)
        ),
    };
    let context = format!(
        "#{name} messages {} have no :{emoji}: reaction. Ground truth: each gains a '{emoji}' reaction whose users include U01. Checkpoints: reaction added (0.6), by the current user (0.4).",
        ids.join(", ")
    );
    let mut d = ctx.draft(
        v,
        core,
        context,
        "add_reaction",
        json!({"channel": name, "message_ids": ids, "emoji": emoji}),
        vec!["team-chat"],
    );
    d.difficulty = difficulty_for(k);
    Some(d)
}

pub fn set_topic(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let chans = channels(ctx);
    let k = if ctx.difficulty == "hard" { 3 } else { 1 };
    let chosen = choose(ctx.rng, &chans, k);
    let (noun, _) = topic(ctx.rng, ctx.category);
    let day = *pick(ctx.rng, &DAYS);
    let new_topic = format!("Focus: {noun} on {day} (#{})", 10 + ctx.serial % 90);
    let names: Vec<String> = chosen
        .iter()
        .map(|c| format!("#{}", s(c, "name")))
        .collect();
    let keys: Vec<&str> = chosen.iter().map(|c| s(c, "id")).collect();
    let mut changes = json!({"topic": new_topic});
    let mut core_extra = String::new();
    if ctx.difficulty != "easy" {
        let purpose = format!("Coordination for {noun}");
        core_extra = format!(" and the purpose to '{purpose}'");
        changes["purpose"] = json!(purpose);
    }
    let v = ctx.idx(2);
    let core = match v {
        0 => format!(
            "Change the topic of {} to '{new_topic}'{core_extra}.",
            and_list(&names)
        ),
        _ => format!(
            "Set the channel topic of {} to '{new_topic}'{core_extra}.",
            and_list(&names)
        ),
    };
    let context = format!("Channels {} ({}). Ground truth: the requested fields equal the new strings; no other channel changes. Checkpoints: one per field (0.8 split), others untouched (0.2).", names.join(", "), keys.join(", "));
    let slots = json!({"app": "team-chat", "collection": "channels", "key_field": "id", "keys": keys, "changes": changes});
    Some(ctx.draft(v, core, context, "update_records", slots, vec!["team-chat"]))
}

pub fn create(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let users = people(ctx);
    let (noun, kw) = topic(ctx.rng, ctx.category);
    let name = format!("{}-{}", kw.replace(' ', "-"), 100 + ctx.serial % 900);
    let k = match ctx.difficulty {
        "easy" => 1,
        "medium" => 2,
        _ => 4,
    };
    let chosen = choose(ctx.rng, &users, k);
    let mut members = vec!["U01".to_string()];
    members.extend(chosen.iter().map(|u| s(u, "id").to_string()));
    let who: Vec<String> = chosen
        .iter()
        .map(|u| s(u, "displayName").to_string())
        .collect();
    let private = ctx.difficulty == "hard";
    let topic = format!("Everything about {noun}");
    let record = json!({"id": format!("C9{:04}", ctx.serial % 10_000), "name": name, "topic": topic, "purpose": topic,
        "isPrivate": private, "isArchived": false, "createdBy": "U01", "createdAt": "2026-03-05T10:00:00Z", "members": members});
    let v = ctx.idx(2);
    let kind = if private { "private" } else { "public" };
    let core = match v {
        0 => format!(
            "Create a {kind} channel #{name} with the topic '{topic}' for me and {}.",
            and_list(&who)
        ),
        _ => format!(
            "Set up a new {kind} channel called #{name} (topic '{topic}') that includes me and {}.",
            and_list(&who)
        ),
    };
    let context = format!("No channel named {name} exists. Ground truth: a new channel '{name}', {kind}, topic as given, members include {}. Checkpoints: created (0.4), topic, privacy, members (0.6 split).", members.join(", "));
    let slots = json!({"app": "team-chat", "collection": "channels", "record": record, "identify": {"name": name},
        "expect": {"topic": topic, "isPrivate": private, "members+": members}});
    Some(ctx.draft(v, core, context, "create_record", slots, vec!["team-chat"]))
}

pub fn archive(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let chans: Vec<&Value> = channels(ctx)
        .into_iter()
        .filter(|c| s(c, "name") != "general")
        .collect();
    let k = match ctx.difficulty {
        "easy" => 1,
        "medium" => 2,
        _ => 4,
    };
    let chosen = choose(ctx.rng, &chans, k);
    let names: Vec<String> = chosen
        .iter()
        .map(|c| format!("#{}", s(c, "name")))
        .collect();
    let keys: Vec<&str> = chosen.iter().map(|c| s(c, "id")).collect();
    let v = ctx.idx(2);
    let core = match v {
        0 => format!(
            "Archive {} now that the work there is finished.",
            and_list(&names)
        ),
        _ => format!("We no longer use {}; archive them.", and_list(&names)),
    };
    let context = format!("{} are active channels ({}). Ground truth: isArchived is true on each; no other channel changes. Checkpoints: archived (0.8), others untouched (0.2).", names.join(", "), keys.join(", "));
    let slots = json!({"app": "team-chat", "collection": "channels", "key_field": "id", "keys": keys, "changes": {"isArchived": true}});
    Some(ctx.draft(v, core, context, "update_records", slots, vec!["team-chat"]))
}

pub fn invite(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let chans = channels(ctx);
    let ch = chans[ctx.idx(chans.len())];
    let members: Vec<&Value> = ch["members"].as_array()?.iter().collect();
    let outside: Vec<&Value> = people(ctx)
        .into_iter()
        .filter(|u| !members.contains(&&u["id"]))
        .collect();
    if outside.is_empty() {
        return None;
    }
    let k = ctx.count().min(outside.len());
    let chosen = choose(ctx.rng, &outside, k);
    let ids: Vec<&str> = chosen.iter().map(|u| s(u, "id")).collect();
    let who: Vec<String> = chosen
        .iter()
        .map(|u| s(u, "displayName").to_string())
        .collect();
    let name = s(ch, "name");
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Add {} to #{name}.", and_list(&who)),
        _ => format!(
            "Make sure {} can follow #{name} by adding them as members.",
            and_list(&who)
        ),
    };
    let context = format!("#{name} ({}) does not include {}. Ground truth: its members include {}. Checkpoints: members (0.8), others untouched (0.2).", s(ch, "id"), ids.join(", "), ids.join(", "));
    let slots = json!({"app": "team-chat", "collection": "channels", "key_field": "id", "keys": [s(ch, "id")], "changes": {"members+": ids}});
    let mut d = ctx.draft(v, core, context, "update_records", slots, vec!["team-chat"]);
    d.difficulty = difficulty_for(k);
    Some(d)
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("chat_post", post),
    ("chat_reply", reply),
    ("chat_react", react),
    ("chat_topic", set_topic),
    ("chat_create", create),
    ("chat_archive", archive),
    ("chat_invite", invite),
];
