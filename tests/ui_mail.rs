//! The mail UI on a real screen (Xvfb + Debian Chromium, installed by .ci/setup): the mail
//! planner's plans for shipped tasks, performed only as computer_use actions on one screen,
//! reach each task's ground truth; and `rollout --policy ui-oracle` / `noop --screen` score a
//! shipped mail task 1.0 / 0.0 through the CLI.

use crate::shipped_support;

use std::sync::Arc;

use serde_json::Value;
use shipped_support::{store_of, tw};
use tuplewright::apps::mail::ui::planner::MailPlanner;
use tuplewright::engine::agents::TaskBrief;
use tuplewright::engine::env::{AppRegistry, ServerConfig, SessionStore};
use tuplewright::engine::rollout::screen::ComputerAction;
use tuplewright::engine::rollout::ui_exec::Executor;
use tuplewright::engine::rollout::ui_plan::UiPlanner;
use tuplewright::engine::screen::ScreenConfig;
use tuplewright::engine::ui::{Today, UiOptions, WebScreen};

fn norm(v: &Value) -> String {
    v.as_str().unwrap_or_default().trim().to_lowercase()
}

/// Whether `state` holds what the shipped mail task asks for (its ground truth from the slots),
/// or what is missing. `seed` is the state the plan started from.
fn meets(task: &Value, seed: &Value, state: &Value) -> Result<(), String> {
    let slots = &task["slots"];
    let coll = slots["collection"].as_str().unwrap_or_default();
    let records = |s: &Value| s[coll].as_array().cloned().unwrap_or_default();
    match task["template"].as_str().unwrap() {
        "send_email" => {
            let old: Vec<Value> = seed["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["id"].clone())
                .collect();
            let mut want: Vec<String> = slots["to"].as_array().unwrap().iter().map(norm).collect();
            want.sort();
            let ok = state["messages"].as_array().unwrap().iter().any(|m| {
                let mut to: Vec<String> = m["to"].as_array().unwrap().iter().map(norm).collect();
                to.sort();
                !old.contains(&m["id"])
                    && m["folder"] == "sent"
                    && to == want
                    && norm(&m["subject"]).contains(&norm(&slots["subject"]))
                    && slots["must_include"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|p| norm(&m["body"]).contains(&norm(p)))
            });
            ok.then_some(())
                .ok_or("no new sent message as asked".into())
        }
        "update_records" => {
            for key in slots["keys"].as_array().unwrap() {
                let r = records(state)
                    .into_iter()
                    .find(|r| r["id"] == *key)
                    .ok_or(format!("no {key}"))?;
                for (field, want) in slots["changes"].as_object().unwrap() {
                    let ok = match field.strip_suffix('+') {
                        Some(list) => r[list].as_array().unwrap().contains(want),
                        None => r[field] == *want,
                    };
                    if !ok {
                        return Err(format!(
                            "{key}.{field} is {} not {want}",
                            r[field.trim_end_matches('+')]
                        ));
                    }
                }
            }
            Ok(())
        }
        "create_record" => {
            let found = records(state).into_iter().find(|r| {
                slots["identify"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .all(|(k, v)| r[k] == *v)
                    && slots["expect"]
                        .as_object()
                        .unwrap()
                        .iter()
                        .all(|(k, v)| r[k] == *v)
            });
            found
                .map(|_| ())
                .ok_or(format!("no new {coll} record as asked"))
        }
        other => Err(format!("no check for template {other}")),
    }
}

/// The mail planner's plans for 12 shipped tasks (bulk moves, stars, labels, read flags,
/// contacts, a label, a filter, a draft, a folder and a sent message), one after another on one
/// screen through the UI only, leave each task's ground truth; rows far down "All messages"
/// must be scrolled to, and two plans run twice change nothing the second time.
#[test]

fn mail_planner_plans_for_shipped_tasks_reach_their_ground_truth_through_the_screen() {
    let tasks: Value =
        serde_json::from_str(include_str!("../crates/engine/src/apps/mail/tasks.json")).unwrap();
    let task = |id: &str| {
        tasks["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["task_id"] == id)
            .unwrap()
            .clone()
    };
    let brief = |t: &Value| TaskBrief {
        task_id: t["task_id"].as_str().unwrap().into(),
        instruction: String::new(),
        context: String::new(),
        difficulty: String::new(),
        apps: vec!["mail".into()],
        skills: Vec::new(),
        structured: t.clone(),
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.path().to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    };
    let reg = AppRegistry::builtin().unwrap();
    let store = Arc::new(SessionStore::open(reg.get("mail").unwrap(), &cfg).unwrap());
    let opts = UiOptions {
        today: Today::parse("2026-03-05T10:00:00Z").unwrap(),
    };
    let mut web = WebScreen::start(&ScreenConfig::default(), store.clone(), "m1", opts).unwrap();
    let current = || store.snapshot("m1").unwrap().current.value().unwrap();
    let mut scrolled = 0;
    for id in [
        "mail_archive_001",
        "mail_star_001",
        "mail_label_001",
        "mail_receipts_001",
        "mail_spam_001",
        "mail_contact-star_001",
        "mail_contact-update_001",
        "mail_new-label_001",
        "mail_filter_001",
        "mail_draft_001",
        "mail_folder_001",
        "mail_offsite_001",
    ] {
        let t = task(id);
        let seed = current();
        let plan = MailPlanner.plan(&brief(&t)).unwrap();
        let (screen, resolver) = web.parts();
        let outcome = Executor::new(screen, resolver, false).run(&plan).unwrap();
        assert_eq!(outcome.miss, None, "{id}: {:?}", outcome.steps);
        scrolled += outcome
            .steps
            .iter()
            .filter(|s| matches!(s.action, ComputerAction::Scroll { .. }))
            .count();
        if let Err(e) = meets(&t, &seed, &current()) {
            panic!("{id}: {e}");
        }
        if id == "mail_star_001" || id == "mail_contact-star_001" {
            let before = current();
            let (screen, resolver) = web.parts();
            let again = Executor::new(screen, resolver, false).run(&plan).unwrap();
            assert_eq!(again.miss, None, "{id} again");
            let after = current();
            let coll = t["slots"]["collection"].as_str().unwrap();
            assert_eq!(after[coll], before[coll], "{id} again changes nothing");
        }
    }
    assert!(scrolled > 0, "some row had to be scrolled into view");
}

#[test]
fn ui_oracle_does_a_shipped_mail_task_through_its_web_ui_and_noop_on_that_screen_scores_0() {
    let dir = tempfile::tempdir().unwrap();
    let id = "mail_receipts_001";
    let store = store_of(dir.path(), "mail.json", id);
    let (code, out, err) = tw(&store, &["rollout", "--policy", "ui-oracle", "--json"]);
    assert_eq!(code, 0, "ui-oracle scores 1.0: {out}\n{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    let trial = &rows[0]["trials"][0];
    assert_eq!(trial["reward"], 1.0, "{rows}");
    let steps = trial["steps"].as_array().unwrap();
    assert!(steps.len() >= 10, "{rows}");
    assert_eq!(
        steps[0]["action"]["action"], "screenshot",
        "the first observation (#36)"
    );
    assert!(steps[1..].iter().all(|s| {
        let kind = s["action"]["action"].as_str().unwrap_or_default();
        ["left_click", "type", "key", "scroll"].contains(&kind)
    }));
    assert!(steps.iter().all(|s| s["screenshot"]["sha256"].is_string()));

    let (code, out, err) = tw(
        &store,
        &["rollout", "--policy", "noop", "--screen", "--json"],
    );
    assert_eq!(
        code, 0,
        "noop through the mail screen scores 0.0: {out}\n{err}"
    );
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["trials"][0]["reward"], 0.0, "{rows}");
}

/// issue #28: every after-frame of a ui-oracle trial is taken once the display has settled (the
/// wait stored with the step): a step that types into the compose form (To, Subject, the mail
/// body) is stored with a frame that differs from the one before it, and the OSWorld export of
/// the trial ends on the sent mail, not on the form before Send was drawn.
#[test]
fn ui_oracle_after_frames_show_what_typing_did_and_the_export_ends_on_the_sent_mail() {
    use tuplewright::engine::store::Store;
    let dir = tempfile::tempdir().unwrap();
    let id = "mail_send_001";
    let store = store_of(dir.path(), "mail.json", id);
    let (code, out, err) = tw(&store, &["rollout", "--policy", "ui-oracle", "--json"]);
    assert_eq!(code, 0, "ui-oracle scores 1.0: {out}\n{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert!(
        rows[0]["trials"][0]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["settle_ms"].is_u64()),
        "the JSON shows each step's wait: {rows}"
    );
    let s = Store::open_readonly(&store, std::time::Duration::from_secs(5)).unwrap();
    let rid = s.rollout_ids(id).unwrap()[0];
    let steps = s.trial_steps(rid).unwrap();
    let sha = |i: usize| steps[i].screenshot.as_ref().unwrap().sha256.clone();
    let mut typed = 0;
    for (i, step) in steps.iter().enumerate() {
        let ms = step.settle_ms.expect("every step records its settle wait");
        assert!(ms <= 3_000 + 500, "bounded by settle_max_ms: {ms}");
        if step.action["action"] == "type" && i > 0 {
            typed += 1;
            assert_ne!(
                sha(i),
                sha(i - 1),
                "step {i} typed {} and its stored frame is the frame before it",
                step.action["text"]
            );
        }
    }
    assert!(typed >= 3, "To, Subject and body are typed: {steps:?}");

    let export = dir.path().join("traj");
    let (code, out, err) = tw(
        &store,
        &[
            "export-trajectories",
            "--format",
            "osworld",
            "--out",
            export.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let trial = export
        .join("ui-oracle")
        .join(id)
        .join(format!("trial_1_{rid}"));
    let traj = std::fs::read_to_string(trial.join("traj.jsonl")).unwrap();
    let lines: Vec<Value> = traj
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let frame = |l: &Value| std::fs::read(trial.join(l["screenshot_file"].as_str().unwrap()));
    let (last, before) = (&lines[lines.len() - 1], &lines[lines.len() - 2]);
    assert!(last["settle_ms"].is_u64(), "{last}");
    assert_ne!(
        frame(last).unwrap(),
        frame(before).unwrap(),
        "the last exported frame shows what the last action ({}) did",
        last["action"]
    );
    // The last frame is the sent mail's page: the compose form is gone (its frame differs from
    // every frame that showed the form filled in).
    let filled = lines
        .iter()
        .rposition(|l| l["action"]["action"] == "type")
        .unwrap();
    assert_ne!(frame(last).unwrap(), frame(&lines[filled]).unwrap());
}
