//! The chrome ui-oracle planner: Chromium's own pages driven as a person would — Ctrl+L and a
//! `chrome://settings/…` address, the switch, radio button or dialog of the setting (Chromium's
//! UI and its WebUI pages are read through AT-SPI: the pack starts it with
//! `ACCESSIBILITY_ENABLED=1` and `--force-renderer-accessibility`), the bookmark manager for
//! bookmarks ([`super::bookmark_plan`]) and chrome://history's search and "Delete from history"
//! for history — each click checked against the tree (the switch now on, the dialog closed, the
//! row gone); then Ctrl+Shift+W closes the window, so Chromium writes its profile at exit (the screen's stop kills
//! it, and Chromium otherwise writes seconds after a change), checked against the disk.

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::ui_plan::{PlanStep, Target, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

const WAIT_MS: u64 = 20_000;
/// Preferences and Bookmarks reach the disk a few seconds after a change (Chromium batches writes).
const FLUSH_MS: u64 = 40_000;

pub(super) fn node(spec: &str) -> Target {
    Target::Role {
        role: "node".into(),
        name: spec.into(),
    }
}

pub(super) fn wait(target: Target) -> PlanStep {
    PlanStep::WaitFor {
        target,
        timeout_ms: WAIT_MS,
    }
}

pub(super) fn gone(spec: &str) -> PlanStep {
    wait(Target::Role {
        role: "no_node".into(),
        name: spec.into(),
    })
}

pub(super) fn click(spec: &str) -> PlanStep {
    PlanStep::Click { target: node(spec) }
}

pub(super) fn key(k: &str) -> PlanStep {
    PlanStep::Key { key: k.into() }
}

pub(super) fn typed(text: &str) -> PlanStep {
    PlanStep::Type { text: text.into() }
}

/// Ctrl+L, the address, Return, and the page's `ready` node on screen.
pub(super) fn go(url: &str, ready: &str) -> Vec<PlanStep> {
    vec![
        key("ctrl+l"),
        typed(url),
        key("Return"),
        wait(node(ready)),
    ]
}

fn saved(rel: &str) -> PlanStep {
    PlanStep::WaitFor {
        target: Target::Role {
            role: "saved".into(),
            name: format!(".config/chromium/Default/{rel}"),
        },
        timeout_ms: FLUSH_MS,
    }
}

/// Flip the switch `label` to `on`, checked before and after.
fn toggle(label: &str, on: bool) -> Vec<PlanStep> {
    let (from, to) = if on { ("!checked", "checked") } else { ("checked", "!checked") };
    vec![
        click(&format!("toggle button:{label}[{from}]")),
        wait(node(&format!("toggle button:{label}[{to}]"))),
    ]
}

fn radio(label: &str) -> Vec<PlanStep> {
    vec![
        click(&format!("radio button:{label}")),
        wait(node(&format!("radio button:{label}[checked]"))),
    ]
}

/// Chromium's font-size slider stops (Settings > Appearance > Customize fonts).
const FONT_SIZES: [i64; 24] = [
    9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 22, 24, 26, 28, 30, 32, 36, 40, 44, 48, 56, 64, 72,
];
const MIN_FONT_SIZES: [i64; 14] = [0, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24];

/// Click the slider, Home to its first stop, then Right to the stop of `value`.
fn slider(label: &str, stops: &[i64], value: &Value) -> Result<Vec<PlanStep>, String> {
    let v = value.as_i64().ok_or_else(|| format!("{label}: {value} is not a size"))?;
    let idx = stops
        .iter()
        .position(|s| *s == v)
        .ok_or_else(|| format!("{label}: {v} is not a stop of the slider"))?;
    let mut out = vec![click(&format!("slider:{label}")), key("Home")];
    out.extend((0..idx).map(|_| key("Right")));
    Ok(out)
}

const SETTINGS: &str = "chrome://settings";

/// The page and the steps of one preference (`None`: set together with another key).
fn pref(key_name: &str, value: &Value, changes: &Value) -> Result<Option<(String, Vec<PlanStep>)>, String> {
    let on = value.as_bool().unwrap_or(false);
    let n = value.as_i64().unwrap_or(-1);
    let page = |p: &str| format!("{SETTINGS}/{p}");
    let choice = |opts: &[(i64, &str)]| {
        opts.iter()
            .find(|(v, _)| *v == n)
            .map(|(_, l)| radio(l))
            .ok_or_else(|| format!("{key_name}: no choice means {value}"))
    };
    let dsp = "default_search_provider_data.template_url_data";
    Ok(Some(match key_name {
        "browser.show_home_button" => (page("appearance"), toggle("Show home button", on)),
        "homepage" => {
            let url = value.as_str().ok_or("homepage is not a URL")?;
            let steps = vec![
                PlanStep::Fill {
                    target: node("entry:Enter custom web address"),
                    text: url.into(),
                },
                key("Tab"),
                wait(node("radio button:New Tab page[!checked]")),
            ];
            (page("appearance"), steps)
        }
        "homepage_is_newtabpage" if !on && changes.get("homepage").is_some() => return Ok(None),
        "homepage_is_newtabpage" if on => (page("appearance"), radio("New Tab page")),
        "session.restore_on_startup" => (
            page("onStartup"),
            choice(&[
                (1, "Continue where you left off"),
                (4, "Open a specific page or set of pages"),
                (5, "Open the New Tab page"),
            ])?,
        ),
        "session.startup_urls" => {
            let mut steps = Vec::new();
            for url in value.as_array().ok_or("startup_urls is not a list")? {
                let url = url.as_str().ok_or("a startup URL is not a string")?;
                steps.extend([
                    click("link:Add a new page"),
                    wait(node("dialog:Add a new page")),
                    typed(url),
                    wait(node("push button:Add[enabled]")),
                    key("Return"),
                    gone("dialog:Add a new page"),
                ]);
            }
            (page("onStartup"), steps)
        }
        "download.default_directory" => {
            let dir = value.as_str().ok_or("default_directory is not a path")?;
            let steps = vec![
                click("push button:Change"),
                wait(Target::Role {
                    role: "focused_window".into(),
                    name: "Location".into(),
                }),
                key("ctrl+l"),
                typed(&format!("{}/", dir.trim_end_matches('/'))),
                key("alt+o"),
                wait(node(&format!("section:Location {dir}"))),
            ];
            (page("downloads"), steps)
        }
        "download.prompt_for_download" => (
            page("downloads"),
            toggle("Ask where to save each file before downloading", on),
        ),
        "webkit.webprefs.default_font_size" => (page("fonts"), slider("Font size", &FONT_SIZES, value)?),
        "webkit.webprefs.minimum_font_size" => (
            page("fonts"),
            slider("Minimum font size", &MIN_FONT_SIZES, value)?,
        ),
        // The keyboard shortcut of View > Always show bookmarks bar.
        "bookmark_bar.show_on_all_tabs" => (page("appearance"), vec![key("ctrl+shift+b")]),
        "enable_do_not_track" => {
            let label = "Send a \"Do Not Track\" request with your browsing traffic";
            let mut steps = vec![click(&format!("toggle button:{label}[{}checked]", if on { "!" } else { "" }))];
            if on {
                steps.extend([wait(node("dialog:Do Not Track")), click("push button:Confirm")]);
            }
            steps.push(wait(node(&format!("toggle button:{label}[{}checked]", if on { "" } else { "!" }))));
            (page("cookies"), steps)
        }
        "credentials_enable_service" => (
            "chrome://password-manager/settings".into(),
            toggle("Offer to save passwords and passkeys", on),
        ),
        "autofill.profile_enabled" => (page("addresses"), toggle("Save and fill addresses", on)),
        "autofill.credit_card_enabled" => (page("payments"), toggle("Save and fill payment methods", on)),
        "profile.cookie_controls_mode" => (
            page("cookies"),
            choice(&[(0, "Allow third-party cookies"), (1, "Block third-party cookies")])?,
        ),
        "profile.default_content_setting_values.notifications" => (
            page("content/notifications"),
            choice(&[
                (3, "Sites can ask to send notifications"),
                (2, "Don't allow sites to send notifications"),
            ])?,
        ),
        "profile.default_content_setting_values.popups" => (
            page("content/popups"),
            choice(&[
                (1, "Sites can send pop-ups and use redirects"),
                (2, "Don't allow sites to send pop-ups or use redirects"),
            ])?,
        ),
        "search.suggest_enabled" => (page("googleServices"), toggle("Improve search suggestions", on)),
        "browser.enable_spellchecking" => (
            page("languages"),
            toggle("Check for spelling errors when you type text on web pages", on),
        ),
        k if k == format!("{dsp}.short_name") => {
            let name = value.as_str().ok_or("short_name is not a string")?;
            let steps = vec![
                click(&format!("push button:More actions for {name}")),
                click("menu item:Make default"),
                wait(node(&format!("push button:More actions for {name} (Default)"))),
            ];
            (page("searchEngines"), steps)
        }
        k if k == format!("{dsp}.keyword") => return Ok(None),
        other => return Err(format!("chrome_prefs: {other} has no plan")),
    }))
}

/// Keys a plan must set before others (the Home button before its address, the startup mode
/// before its pages).
fn order(key_name: &str) -> u8 {
    match key_name {
        "browser.show_home_button" | "session.restore_on_startup" => 0,
        _ => 1,
    }
}

/// The plan of a `chrome_prefs` task.
fn prefs(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let changes = slots.get("changes").ok_or("chrome_prefs: slot `changes` missing")?;
    let map = changes.as_object().ok_or("chrome_prefs: `changes` is not an object")?;
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort_by_key(|k| order(k));
    let mut steps = Vec::new();
    let mut at = String::new();
    for k in keys {
        let Some((url, body)) = pref(k, &map[k.as_str()], changes)? else {
            continue;
        };
        if url != at {
            steps.extend(go(&url, "entry:Address and search bar"));
            // The page has loaded once its own first control shows.
            if let Some(PlanStep::Click { target }) = body.first() {
                steps.push(wait(target.clone()));
            }
            at = url;
        }
        steps.extend(body);
    }
    steps.push(saved("Preferences"));
    Ok(steps)
}

/// The plan of a `chrome_history` task: search each page by its title, delete it.
fn history(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let rows = slots
        .get("history")
        .and_then(Value::as_array)
        .ok_or("chrome_history: slot `history` missing")?;
    let delete = slots
        .get("delete")
        .and_then(Value::as_array)
        .ok_or("chrome_history: slot `delete` missing")?;
    let mut steps = go("chrome://history/", "entry:Search history");
    for url in delete {
        let title = rows
            .iter()
            .find(|r| r["url"] == *url)
            .and_then(|r| r["title"].as_str())
            .ok_or_else(|| format!("chrome_history: no title for {url}"))?;
        steps.extend([
            PlanStep::Fill {
                target: node("entry:Search history"),
                text: title.into(),
            },
            key("Return"),
            wait(node(&format!("link:{title}"))),
            click("push button:Actions"),
            click("menu item:Delete from history"),
            gone(&format!("link:{title}")),
        ]);
    }
    Ok(steps)
}

/// The whole plan of a chrome task: Chromium's window up, the template's steps.
pub fn chrome_plan(template: &str, slots: &Value) -> Result<Vec<PlanStep>, String> {
    let mut plan = vec![PlanStep::WaitFor {
        target: node("entry:Address and search bar"),
        timeout_ms: 60_000,
    }];
    plan.extend(match template {
        "chrome_prefs" => prefs(slots)?,
        "chrome_bookmarks" => {
            let mut steps = super::bookmark_plan::bookmarks(slots)?;
            steps.push(saved("Bookmarks"));
            steps
        }
        "chrome_history" => {
            let mut steps = history(slots)?;
            steps.push(saved("History"));
            steps
        }
        other => return Err(format!("template {other} has no Chromium plan")),
    });
    // Close the window (Ctrl+Shift+W; the last one quits) as a person makes sure the browser has
    // saved: Chromium writes its profile files seconds after a change and at exit, while the
    // screen's stop kills it.
    let last = plan.pop();
    plan.extend([key("ctrl+shift+w"), gone("entry:Address and search bar")]);
    plan.extend(last);
    Ok(plan)
}

/// Plans chrome tasks through Chromium's screen.
pub struct ChromePlanner;

impl UiPlanner for ChromePlanner {
    fn apps(&self) -> &[&'static str] {
        &["chrome"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let template = template.rsplit('/').next().unwrap_or(template);
        let slots = brief.structured.get("slots").cloned().unwrap_or_default();
        Ok(chrome_plan(template, &slots)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails on the old pack, which had no planner: every shipped task now has a plan.
    #[test]
    fn every_shipped_task_has_a_plan() {
        let tasks: Value = serde_json::from_str(include_str!("tasks.json")).unwrap();
        for t in tasks["tasks"].as_array().unwrap() {
            let plan = chrome_plan(t["template"].as_str().unwrap(), &t["slots"])
                .unwrap_or_else(|e| panic!("{}: {e}", t["task_id"]));
            assert!(plan.len() > 2, "{}", t["task_id"]);
        }
        let plan = chrome_plan(
            "chrome_prefs",
            &serde_json::json!({"changes": {"webkit.webprefs.minimum_font_size": 12}}),
        )
        .unwrap();
        let rights = plan.iter().filter(|s| **s == key("Right")).count();
        assert_eq!(rights, 7);
        assert!(chrome_plan("nope", &Value::Null).unwrap_err().contains("no Chromium plan"));
    }
}
