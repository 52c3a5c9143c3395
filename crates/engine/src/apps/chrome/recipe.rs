//! chrome recipes (Chromium preferences and bookmarks).

use serde_json::{json, Map, Value};

use crate::taskgen::recipes::{and_list, Ctx, Draft, Recipe};

/// (Preferences key, start value, goal value, what the instruction says).
const PREFS: [(&str, bool, bool, &str); 7] = [
    ("browser.show_home_button", false, true, "show the Home button"),
    ("bookmark_bar.show_on_all_tabs", false, true, "always show the bookmarks bar"),
    ("enable_do_not_track", false, true, "send Do Not Track requests"),
    ("credentials_enable_service", true, false, "stop offering to save passwords"),
    ("autofill.profile_enabled", true, false, "stop saving and filling addresses"),
    ("download.prompt_for_download", false, true, "ask where to save each download"),
    ("search.suggest_enabled", true, false, "turn off search suggestions"),
];

/// On/off switches in Preferences: one (easy) to several (hard).
pub fn pref(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let n = ctx.count().min(PREFS.len());
    let start = ctx.idx(PREFS.len());
    let mut preset = Map::new();
    let mut changes = Map::new();
    let mut said = Vec::new();
    for i in 0..n {
        let (key, from, to, phrase) = PREFS[(start + i) % PREFS.len()];
        preset.insert(key.into(), json!(from));
        changes.insert(key.into(), json!(to));
        said.push(phrase.to_string());
    }
    let keep = json!({"intl.accept_languages": "en-US,en", "webkit.webprefs.default_fixed_font_size": 13});
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("In Chromium's settings, {}.", and_list(&said)),
        _ => format!("Set Chromium up to {}.", and_list(&said)),
    };
    let context = format!("The setup merges {} into the profile's Preferences and opens Chromium. Ground truth: {}. Checkpoints: one per key (0.8 split), other preferences preserved (0.2).", Value::Object(preset.clone()), Value::Object(changes.clone()));
    let slots = json!({"preset": preset, "changes": changes, "keep": keep, "open": ["chrome://newtab/"]});
    Some(ctx.draft(v, core, context, "chrome_prefs", slots, vec!["chrome"]))
}

/// Adds a bookmark to the bar or to a folder on it.
pub fn bookmark(ctx: &mut Ctx<'_>) -> Option<Draft> {
    const SITES: [(&str, &str); 6] = [
        ("Mail", "http://localhost:3102/"),
        ("Tracker", "http://localhost:3103/"),
        ("Shop admin", "http://localhost:3104/"),
        ("Chat", "http://localhost:3101/"),
        ("Python docs", "https://docs.python.org/3/"),
        ("MDN", "https://developer.mozilla.org/"),
    ];
    let (name, url) = SITES[ctx.idx(SITES.len())];
    let in_folder = ctx.difficulty != "easy";
    let folder = if in_folder {
        "bookmark_bar/Work"
    } else {
        "bookmark_bar"
    };
    let tree = json!({"bookmark_bar": [{"name": "News", "url": "https://news.example.test/"}, {"name": "Work", "children": []}]});
    let mut ops = Vec::new();
    ops.push(json!({"op": "add", "folder": folder, "name": name, "url": url}));
    let checks = json!([
        {"name": format!("{url} in {folder} named {name}"), "kind": "bookmark", "folder": folder, "name": name, "url": url},
        {"name": "News kept", "kind": "present", "url": "https://news.example.test/", "guard": true},
    ]);
    let v = ctx.idx(2);
    let place = if in_folder {
        "in the Work folder of the bookmarks bar"
    } else {
        "on the bookmarks bar"
    };
    let core = match v {
        0 => format!("Bookmark {url} {place} with the name {name}."),
        _ => format!("Add a bookmark called {name} for {url} {place}."),
    };
    let context = format!("The setup writes Bookmarks (bar: News, empty folder Work) and opens Chromium. Ground truth: {url} named {name} in {folder}. Checkpoints: bookmark (0.8), News kept (0.2).");
    let slots = json!({"tree": tree, "ops": ops, "checks": checks, "open": ["chrome://newtab/"]});
    Some(ctx.draft(v, core, context, "chrome_bookmarks", slots, vec!["chrome"]))
}

/// Deletes one site's pages from a generated browsing history.
pub fn history(ctx: &mut Ctx<'_>) -> Option<Draft> {
    const HOSTS: [&str; 5] = ["news", "shop", "social", "video", "boards"];
    let target = HOSTS[ctx.idx(HOSTS.len())];
    let pages = ctx.count().min(4);
    let mut history = Vec::new();
    let mut delete = Vec::new();
    let mut keep = Vec::new();
    for (i, host) in HOSTS.iter().enumerate() {
        let n = if *host == target { pages } else { 1 };
        for p in 0..n {
            let url = format!("https://{host}.example.test/page-{p}");
            history.push(json!({"url": url, "title": format!("Page {p} - {host}"), "days_ago": 1 + i}));
            if *host == target {
                delete.push(url);
            } else {
                keep.push(url);
            }
        }
    }
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("Delete every page of {target}.example.test from Chromium's history."),
        _ => format!("Remove all visits to {target}.example.test from the browsing history, keeping the rest."),
    };
    let context = format!("The setup writes History with {} pages over five sites and opens Chromium. Ground truth: no entries of {target}.example.test. Checkpoints: one per page (0.8 split), others kept (0.2).", history.len());
    let slots = json!({"history": history, "delete": delete, "keep": keep, "open": ["chrome://history/"]});
    Some(ctx.draft(v, core, context, "chrome_history", slots, vec!["chrome"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("chrome_pref", pref),
    ("chrome_bookmark", bookmark),
    ("chrome_history", history),
];
