//! The Rollouts screen on the fixture copy with rollouts: the trial list and its outcomes, the
//! whole-store toggle, the detail pane with a screenshot (half-blocks, as in any test), the launch
//! form emitting exactly one `StartRollouts`, read-only refusing, and progress counted from the
//! `rollout.recorded` events; snapshots at 80×24 and 160×48, colour and NO_COLOR.

use std::time::Duration;

use serde_json::json;
use tuplewright::engine::store::{Rollout, Store};
use tuplewright::tui::action::Screen;
use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::model::Msg;
use tuplewright::tui::rollouts_data::{Outcome, Screenshot};
use tuplewright::tui::theme::Theme;
use tuplewright::tui::worker::poll_events;

use super::fixture::{keys, pump};
use super::rollout_fixture::{
    copy_path, loaded_model_with_rollouts, render, snap_all, write_png, SCREEN_POLICY,
};

#[test]
fn trials_of_the_selected_tuple_with_batch_outcomes_and_the_whole_store_toggle() {
    let (mut m, store) = loaded_model_with_rollouts(false);
    let (_, first) = copy_path();
    let cmds = keys(&mut m, &store, "7");
    assert_eq!(m.screen, Screen::Rollouts);
    assert_eq!(cmds[0], EngineCommand::LoadTrials(Some(first.to_string())));
    let list = m.rollouts.list.as_ref().expect("list loaded");
    let rows = &list.rows;
    assert!(rows.iter().all(|r| r.task_id == first));
    let by = |model: &'static str| rows.iter().filter(move |r| r.model.starts_with(model));
    assert_eq!(by("oracle").count(), 2);
    assert!(by("oracle").all(|r| r.outcome == Outcome::ProbeOk && r.reward == Some(1.0)));
    assert!(by("noop").all(|r| r.outcome == Outcome::ProbeOk && r.reward == Some(0.0)));
    let failed = by("command:echo acting").next().expect("failed trial");
    assert_eq!(
        (failed.reward, failed.outcome.clone()),
        (None, Outcome::Failed)
    );
    assert!(
        by("command:echo looked").all(|r| r.outcome.label().contains("unsolvable")),
        "two 0.0 teacher trials: both means 0"
    );
    assert!(by(SCREEN_POLICY).all(|r| r.has_screenshot));
    // The first trial's detail was loaded with the list.
    assert_eq!(m.rollouts.detail.as_ref().map(|d| d.id), Some(rows[0].id));
    let cmds = keys(&mut m, &store, "A");
    assert_eq!(cmds[0], EngineCommand::LoadTrials(None));
    let all = m.rollouts.list.as_ref().expect("all loaded");
    let tasks: std::collections::BTreeSet<_> = all.rows.iter().map(|r| &r.task_id).collect();
    assert_eq!(tasks.len(), 4, "every tuple's trials");
    keys(&mut m, &store, "A n");
    assert_ne!(
        m.rollouts.task_id.as_deref(),
        Some(first),
        "n follows the tuple list"
    );
}

#[test]
fn the_screenshot_trial_is_decoded_and_drawn_with_half_blocks() {
    let (mut m, store) = loaded_model_with_rollouts(false);
    m.update(Msg::Resize(160, 48));
    keys(&mut m, &store, "7 G");
    let row = m.rollouts.selected_row().expect("row").clone();
    assert_eq!(row.model, SCREEN_POLICY);
    let d = m.rollouts.detail.as_ref().expect("detail");
    assert_eq!(d.id, row.id);
    match &d.screenshot {
        Some(Screenshot::Image(_, img)) => assert_eq!((img.width(), img.height()), (320, 192)),
        other => panic!("expected the decoded PNG, got {other:?}"),
    }
    let theme = Theme::builtin("dark", false).expect("theme");
    let screen = render(&m, &theme, 160, 48);
    assert!(
        screen.contains("screenshot shot.png (320×192 px)"),
        "{screen}"
    );
    assert!(
        screen.contains('▀') || screen.contains('▄'),
        "half-blocks drawn"
    );
    assert!(screen.contains("left_click"), "actions listed");
    assert!(
        // The frame's key carries the zoom (step × 8 + zoom; the trial's own screenshot is step -1).
        m.rollouts.image.ready_key().map(|k| k.0) == Some((row.id, -8 + 1)),
        "the encoded image is cached"
    );
}

#[test]
fn an_unreadable_screenshot_is_reported_not_hidden() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.db");
    let (_, first) = copy_path();
    super::rollout_fixture::open_copy()
        .conn()
        .sqlite()
        .unwrap()
        .execute("VACUUM INTO ?1", [path.to_string_lossy()])
        .expect("copy");
    let mut store = Store::open(&path, Duration::from_secs(5)).expect("store");
    std::fs::write(dir.path().join("bad.png"), b"not a png").expect("write");
    write_png(&dir.path().join("good.png"));
    let mk = |trial, shot: &str| Rollout {
        task_id: first.to_string(),
        model: "screen".into(),
        trial,
        reward: Some(1.0),
        judge_verdict: None,
        failure: None,
        detail: json!({"screenshots": ["good.png", shot]}),
        created_at: None,
    };
    let (a, b) = store
        .write(|tx| {
            Ok::<_, tuplewright::engine::store::StoreError>((
                tx.record_rollout(&mk(1, "bad.png"))?,
                tx.record_rollout(&mk(2, "good.png"))?,
            ))
        })
        .expect("write");
    let bad = tuplewright::tui::rollouts_data::load_trial(&store, a).expect("load");
    assert!(
        matches!(bad.screenshot, Some(Screenshot::Error(..))),
        "the last path is shown: bad.png"
    );
    let good = tuplewright::tui::rollouts_data::load_trial(&store, b).expect("load");
    assert!(matches!(good.screenshot, Some(Screenshot::Image(..))));
}

#[test]
fn launching_emits_exactly_one_start_rollouts_with_the_form_values() {
    let (mut m, store) = loaded_model_with_rollouts(false);
    let (_, first) = copy_path();
    keys(&mut m, &store, "7 L");
    assert!(m.rollouts.form.is_some());
    // Keys go to the form while it is open: `j`, `q` and digits do not move or quit.
    let cmds = keys(&mut m, &store, "right tab backspace 3 enter");
    assert!(m.rollouts.form.is_none(), "enter closes the form");
    assert_eq!(
        cmds,
        vec![EngineCommand::StartRollouts {
            task_ids: vec![first.to_string()],
            policy: "noop".parse().expect("spec"),
            trials: 3,
            vlm: None,
        }]
    );
    assert!(!m.quit);
    // A command policy with every tuple in view.
    keys(&mut m, &store, "L right right right tab tab");
    let typed = "m y - a g e n t";
    keys(&mut m, &store, typed);
    let cmds = keys(&mut m, &store, "tab right enter");
    let [EngineCommand::StartRollouts {
        task_ids,
        policy,
        trials,
        vlm: None,
    }] = cmds.as_slice()
    else {
        panic!("one StartRollouts expected, got {cmds:?}");
    };
    assert_eq!(
        (policy.to_string().as_str(), *trials),
        ("command:my-agent", 1)
    );
    for p in ["oracle", "noop", policy.to_string().as_str()] {
        assert!(
            tuplewright::tui::jobs::parse_policy(p).is_ok(),
            "the job runner accepts the form's policy `{p}`"
        );
    }
    assert_eq!(task_ids.len(), 4, "every tuple in the Tuples view");
    // esc cancels without a command.
    assert!(keys(&mut m, &store, "L esc").is_empty());
    assert!(m.rollouts.form.is_none());
}

#[test]
fn readonly_refuses_to_launch_and_says_why() {
    let (mut m, store) = loaded_model_with_rollouts(true);
    let cmds = keys(&mut m, &store, "7 L");
    assert!(m.rollouts.form.is_none(), "no form in read-only mode");
    assert!(cmds
        .iter()
        .all(|c| !matches!(c, EngineCommand::StartRollouts { .. })));
    assert!(m.notice.as_deref().is_some_and(|n| n.contains("read-only")));
    let theme = Theme::builtin("dark", true).expect("theme");
    assert!(render(&m, &theme, 80, 24).contains("read-only: no launch"));
}

#[test]
fn progress_counts_the_launch_trials_from_the_event_log() {
    let (mut m, store) = loaded_model_with_rollouts(false);
    let (path, first) = copy_path();
    keys(&mut m, &store, "7 L enter");
    let p = m.rollouts.progress.clone().expect("progress");
    assert_eq!(
        (p.policy.as_str(), p.expected(), p.recorded),
        ("oracle", 1, 0)
    );
    // Another process (the job runner) records the trial; the worker's poll brings the event.
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("p.db");
    store
        .conn()
        .sqlite()
        .unwrap()
        .execute("VACUUM INTO ?1", [copy.to_string_lossy()])
        .expect("copy");
    let _ = path;
    let mut other = Store::open(&copy, Duration::from_secs(5)).expect("open");
    let seq = other.last_event_seq().expect("seq");
    other
        .write(|tx| {
            tx.record_rollout(&Rollout {
                task_id: first.to_string(),
                model: "oracle".into(),
                trial: 1,
                reward: Some(1.0),
                judge_verdict: None,
                failure: None,
                detail: json!({"kind": {"probe": {"expected": 1.0}}}),
                created_at: None,
            })
        })
        .expect("record");
    let (update, _) = poll_events(&other, seq);
    let cmds = m.update(Msg::Data(update.expect("the new event")));
    assert!(
        cmds.contains(&EngineCommand::LoadTrials(Some(first.to_string()))),
        "{cmds:?}"
    );
    pump(&mut m, &other, cmds);
    let p = m.rollouts.progress.as_ref().expect("progress");
    assert_eq!((p.recorded, p.failed), (1, 0));
    let n = m.rollouts.list.as_ref().map_or(0, |l| l.rows.len());
    assert_eq!(n, 8, "the new trial is listed");
}

#[test]
fn snapshot_rollouts_list_detail_screenshot_and_form() {
    snap_all("rollouts", "7");
    snap_all("rollouts_screenshot", "7 G");
    snap_all("rollouts_form", "7 L right right right");
}
