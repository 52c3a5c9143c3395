//! Parity (issue 7): the same decisions made by a curator in the workbench (key sequences through
//! the model, commands executed by the real store-worker handler) and by the headless rules file
//! (`tuplewright override --rules`) on two copies of the same voted, loop-built store leave the
//! same decision records and the same effective outcomes.
//!
//! What differs by design is named and checked, not hidden: the actor and source (a person,
//! `human`, versus `rules:FILE`, `policy`), and where a reject sends the tuple — the engine's
//! `decide::target` sends a person's reject to `dropped` and a policy's to `vote_rejected`.

use std::time::Duration;

use tuplewright::engine::filter::effective_outcome;
use tuplewright::engine::store::{Decision, Store};

use super::filter_fixture::{keys_w, model_on, type_text, voted_copy};

const RULES: &str = r#"statuses = ["needs_human"]
[[rule]]
severity = ["P3"]
action = "keep"
[[rule]]
severity = ["P2"]
action = "reject"
"#;

/// A decision without its id, time, actor and source.
fn comparable(d: &Decision) -> (String, String, String, String, bool) {
    (
        d.task_id.clone(),
        d.before.clone(),
        d.after.clone(),
        d.reason.clone(),
        d.compensates.is_some(),
    )
}

fn all_decisions(store: &Store, ids: &[String]) -> Vec<Decision> {
    ids.iter()
        .flat_map(|id| store.decisions(id).expect("decisions"))
        .collect()
}

#[test]
fn tui_decisions_match_the_headless_rules_file() {
    let (_a, tui_path) = voted_copy();
    let (dir_b, rules_path) = voted_copy();
    let rules_file = dir_b.path().join("rules.toml");
    std::fs::write(&rules_file, RULES).expect("write rules");

    // Headless: the rules file through the CLI.
    let out = assert_cmd::Command::cargo_bin("tuplewright")
        .expect("binary")
        .args(["--no-tui", "--store"])
        .arg(&rules_path)
        .args(["override", "--rules"])
        .arg(&rules_file)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("run override --rules");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The workbench: a curator applies the same policy, reading each tuple's severity on the
    // Filter screen and typing the rules' reason; auto-advance walks the queue.
    let (mut m, mut store) = model_on(&tui_path, false);
    let ids: Vec<String> = m.tuples.rows.iter().map(|r| r.id.clone()).collect();
    let before_tui = all_decisions(&store, &ids).len();
    keys_w(&mut m, &mut store, "j 6");
    for _ in 0..ids.len() {
        let d = m.filter.current().expect("loaded").clone();
        assert_eq!(d.status, "needs_human", "auto-advance stays in the queue");
        let sev = d
            .outcome
            .as_ref()
            .and_then(|o| o.severity.clone())
            .expect("graded");
        let (key, rule) = match sev.as_str() {
            "P3" => ("K", 1),
            "P2" => ("R", 2),
            other => panic!("no rule for {other}"),
        };
        keys_w(&mut m, &mut store, key);
        type_text(
            &mut m,
            &mut store,
            &format!("rule {rule} matched severity {sev}"),
        );
        keys_w(&mut m, &mut store, "enter");
        if m.notice
            .as_deref()
            .is_some_and(|n| n.contains("no tuple left"))
        {
            break;
        }
    }
    drop(store);

    let tui = Store::open(&tui_path, Duration::from_secs(5)).expect("tui store");
    let headless = Store::open(&rules_path, Duration::from_secs(5)).expect("rules store");
    let (a, b) = (all_decisions(&tui, &ids), all_decisions(&headless, &ids));
    assert_eq!(a.len(), b.len(), "same number of decision records");
    assert_eq!(a.len() - before_tui, 2, "both queued tuples decided");
    let mut rejects = 0;
    for (t, h) in a.iter().zip(&b) {
        // The designed differences.
        if t.actor == "curator" {
            assert_eq!((t.source.as_str(), h.source.as_str()), ("human", "policy"));
            assert!(h.actor.starts_with("rules:"), "{}", h.actor);
        } else {
            assert_eq!((&t.actor, &t.source), (&h.actor, &h.source));
        }
        let (mut ct, ch) = (comparable(t), comparable(h));
        if t.actor == "curator" && t.reason.starts_with("reject:") {
            assert_eq!(
                (t.after.as_str(), h.after.as_str()),
                ("dropped", "vote_rejected")
            );
            ct.2 = h.after.clone();
            rejects += 1;
        }
        assert_eq!(ct, ch);
    }
    assert_eq!(rejects, 1, "one reject and one keep were made");
    for id in &ids {
        let (t, h) = (
            effective_outcome(&tui, id).expect("outcome"),
            effective_outcome(&headless, id).expect("outcome"),
        );
        let strip = |o: Option<tuplewright::engine::filter::FilterRecord>| {
            o.map(|o| (o.action, o.revised_query, o.severity, o.train_poor_fit))
        };
        assert_eq!(strip(t), strip(h), "effective outcome of {id}");
    }
}
