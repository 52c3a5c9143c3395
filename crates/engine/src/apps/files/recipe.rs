//! files recipes (desktop home directory).

use serde_json::{json, Map, Value};

use crate::taskgen::recipes::{and_list, Ctx, Draft, Recipe};
use crate::taskgen::phrasing::{pick, topic, DAYS};

const PROJECTS: [&str; 6] = [
    "website",
    "field-app",
    "lab-pipeline",
    "course-site",
    "budget-tool",
    "newsletter",
];
const CHORES: [&str; 12] = [
    "Renew the PrintHub contract",
    "Book flights for the Berlin offsite",
    "Review Q1 budget variances",
    "Send invoice 10442",
    "Order lab reagents",
    "Grade the quiz submissions",
    "Call the landlord about the heater",
    "Update the onboarding deck",
    "Back up the survey data",
    "Schedule the dentist appointment",
    "Draft the grant summary",
    "Collect expense receipts",
];
const KINDS: [(&str, &str, &str); 4] = [
    ("pdf", "Documents/scans", "scan"), // not the app: a file extension
    ("jpg", "Pictures/photos", "photo"),
    ("csv", "Documents/data", "export"),
    ("docx", "Documents/letters", "letter"),
];
const REGIONS: [&str; 4] = ["North", "South", "East", "West"];

pub fn json(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let project = *pick(ctx.rng, &PROJECTS);
    let path = format!("Projects/{project}/config.json");
    let retries = 2 + ctx.serial % 5;
    let mut preset = Map::new();
    let mut changes = Map::new();
    let mut said = Vec::new();
    preset.insert("theme".into(), json!("light"));
    changes.insert("theme".into(), json!("dark"));
    said.push("switch the theme to dark".to_string());
    if ctx.difficulty != "easy" {
        preset.insert("features.beta".into(), json!(false));
        changes.insert("features.beta".into(), json!(true));
        said.push("turn on the beta features".into());
        preset.insert("network.retries".into(), json!(1));
        changes.insert("network.retries".into(), json!(retries));
        said.push(format!("allow {retries} network retries"));
    }
    if ctx.difficulty == "hard" {
        let port = 8000 + ctx.serial % 1000;
        preset.insert("server.port".into(), json!(80));
        changes.insert("server.port".into(), json!(port));
        said.push(format!("serve on port {port}"));
        preset.insert("logging.level".into(), json!("info"));
        changes.insert("logging.level".into(), json!("debug"));
        said.push("log at debug level".into());
    }
    let keep = json!({"name": project, "analytics.provider": "plausible"});
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("In the {project} config ({path}), {}.", and_list(&said)),
        _ => format!(
            "Adjust {path} so that we {}; keep every other setting.",
            and_list(&said)
        ),
    };
    let context = format!("/home/user/{path} is written by the setup with {} . Ground truth: {} ; other settings preserved. Checkpoints: one per key (0.8 split), others preserved (0.2).", Value::Object(preset.clone()), Value::Object(changes.clone()));
    let mut p = preset;
    if let Value::Object(k) = &keep {
        p.extend(k.clone());
    }
    let slots = json!({"path": path, "preset": p, "changes": changes, "keep": keep});
    Some(ctx.draft(v, core, context, "json_edit", slots, vec!["files"]))
}

pub fn todo(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let mut items: Vec<&str> = Vec::new();
    while items.len() < 5 {
        let c = *pick(ctx.rng, &CHORES);
        if !items.contains(&c) {
            items.push(c);
        }
    }
    let n_check = match ctx.difficulty {
        "easy" => 1,
        "medium" => 2,
        _ => 3,
    };
    let check: Vec<String> = items[..n_check].iter().map(|s| s.to_string()).collect();
    let (noun, _) = topic(ctx.rng, ctx.category);
    let day = *pick(ctx.rng, &DAYS);
    let add = vec![format!("Prepare {noun} for {day}")];
    let initial: String = items.iter().map(|i| format!("- [ ] {i}\n")).collect();
    let initial = format!("# To do\n\n{initial}");
    let path = format!("{}/todo.md", pick(ctx.rng, &["Desktop", "Documents"]));
    let ticks: Vec<String> = check.iter().map(|c| format!("'{c}'")).collect();
    let v = ctx.idx(2);
    let core = match v {
        0 => format!(
            "Tick off {} in my to-do list ({path}) and add '{}'.",
            and_list(&ticks),
            add[0]
        ),
        _ => format!(
            "I finished {}; mark that done in {path} and add a new item '{}'.",
            and_list(&ticks),
            add[0]
        ),
    };
    let context = format!("/home/user/{path} is a Markdown checklist with {} open items. Ground truth: ticked {}, a new unticked '{}', others still open. Checkpoints: ticked and added (0.8 split), others kept (0.2).", items.len(), check.join("; "), add[0]);
    let slots = json!({"path": path, "initial_text": initial, "check": check, "add": add});
    Some(ctx.draft(v, core, context, "md_checklist", slots, vec!["files"]))
}

pub fn report(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (noun, kw) = topic(ctx.rng, ctx.category);
    let n = match ctx.difficulty {
        "easy" => 2,
        "medium" => 3,
        _ => 4,
    };
    let regions = &REGIONS[..n];
    let mut facts = Vec::new();
    let mut source = format!("Notes on {noun}\n");
    for (i, r) in regions.iter().enumerate() {
        let val = 100 + (ctx.serial * 37 + i as u64 * 211) % 900;
        source.push_str(&format!("{r} team reported {val} participants.\n"));
        facts.push(format!("{r}: {val}"));
    }
    let src = format!(
        "Documents/notes/{}-{}.txt",
        kw.replace(' ', "-"),
        ctx.serial % 1000
    );
    let title = format!("{} summary", crate::taskgen::recipes::subject_of(noun));
    let out = format!(
        "Documents/reports/{}-summary-{}.md",
        kw.replace(' ', "-"),
        ctx.serial % 1000
    );
    let content = format!(
        "# {title}\n\n{}\n",
        facts
            .iter()
            .map(|f| format!("- {f}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Write {out} titled '{title}' listing the participant count per team from {src}, as 'Team: count' lines."),
        _ => format!("Summarise {src} in a new file {out}: first line '{title}', then one 'Team: count' line per team."),
    };
    let context = format!("The setup writes {src}. Ground truth: {out} starts with '{title}' and states {}. Checkpoints: title (0.2), facts (0.8).", facts.join(", "));
    let slots = json!({"path": out, "title": title, "content": content, "must_include": facts, "sources": {src.clone(): source}});
    Some(ctx.draft(v, core, context, "write_report", slots, vec!["files"]))
}

pub fn move_files(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (ext, to, stem) = *pick(ctx.rng, &KINDS);
    let from = *pick(ctx.rng, &["Desktop", "Downloads"]);
    let k = match ctx.difficulty {
        "easy" => 2,
        "medium" => 3,
        _ => 6,
    };
    let files: Vec<Value> = (0..k)
        .map(|i| json!({"name": format!("{stem}-{}-{i}.{ext}", ctx.serial % 1000), "from": from, "to": to, "content": format!("{stem} {i} placeholder {}", ctx.serial)}))
        .collect();
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Tidy my {from}: move all {k} .{ext} files there into {to}."),
        _ => format!("The .{ext} files in {from} belong in {to}; put all {k} of them there."),
    };
    let context = format!("The setup puts {k} .{ext} files in {from}. Ground truth: all in {to} with identical content, gone from {from}. Checkpoints: placed intact (0.6), removed (0.4).");
    Some(ctx.draft(
        v,
        core,
        context,
        "move_files",
        json!({"files": files}),
        vec!["files"],
    ))
}

pub fn csv(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let months = match ctx.difficulty {
        "easy" => 3,
        "medium" => 6,
        _ => 12,
    };
    let region = *pick(ctx.rng, &REGIONS);
    let mut text = String::from("month,region,units\n");
    let mut rows = Vec::new();
    for m in 1..=months {
        for (i, r) in REGIONS.iter().enumerate() {
            let units = (ctx.serial * 13 + m * 31 + i as u64 * 7) % 600;
            text.push_str(&format!("2025-{m:02},{r},{units}\n"));
            if *r == region {
                rows.push(json!([format!("2025-{m:02}"), r, units.to_string()]));
            }
        }
    }
    let src = format!("Documents/data/units-{}.csv", ctx.serial % 1000);
    let out = format!(
        "Documents/data/{}-{}.csv",
        region.to_lowercase(),
        ctx.serial % 1000
    );
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("From {src}, make {out} with only the {region} rows (same columns)."),
        _ => format!(
            "Extract the {region} region rows of {src} into a new CSV {out}, keeping the header."
        ),
    };
    let context = format!("The setup writes {src} ({months} months x 4 regions). Ground truth: {out} with header month,region,units and exactly the {months} {region} rows. Checkpoints: header (0.2), rows (0.6), no extra rows (0.2).");
    let slots = json!({"source": src, "source_text": text, "output": out, "columns": ["month", "region", "units"], "expected_rows": rows});
    Some(ctx.draft(v, core, context, "csv_extract", slots, vec!["files"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("files_json", json),
    ("files_todo", todo),
    ("files_report", report),
    ("files_move", move_files),
    ("files_csv", csv),
];
