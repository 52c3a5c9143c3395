//! The Reward screen on the fixture copy with rollouts: cards for r(init), r(gold) and every trial,
//! failures as failures, n/N following the tuple list, round switching, card focus and the raw
//! reward output; snapshots at 80×24 and 160×48, colour and NO_COLOR.

use tuplewright::tui::action::{Action, Screen};
use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::model::reward::RewardState;
use tuplewright::tui::reward_data::{RewardCard, RewardView, RoundRewards};
use tuplewright::tui::theme::Theme;

use super::fixture::keys;
use super::rollout_fixture::{copy_path, loaded_model_with_rollouts, render, snap_all};

#[test]
fn reward_screen_lists_round_cards_then_every_trial_and_failures_have_no_score() {
    let (mut m, store) = loaded_model_with_rollouts(false);
    let (_, first) = copy_path();
    let cmds = keys(&mut m, &store, "5");
    assert_eq!(m.screen, Screen::Reward);
    assert_eq!(cmds, vec![EngineCommand::LoadRewards(first.to_string())]);
    let labels: Vec<String> = m.reward.cards().iter().map(|c| c.label.clone()).collect();
    assert_eq!(&labels[..2], ["r(init)", "r(gold)"], "{labels:?}");
    assert!(labels.contains(&"oracle #2".to_string()), "{labels:?}");
    assert!(labels.contains(&"noop #1".to_string()), "{labels:?}");
    let cards = m.reward.cards();
    assert_eq!(
        cards[0].runs, 2,
        "both r(init) runs agree and fold into one card"
    );
    assert_eq!(cards[1].reward, Some(1.0));
    assert!(
        cards[1].components.len() >= 2,
        "the fixture reward has components"
    );
    let failed = cards
        .iter()
        .find(|c| c.label.starts_with("command:echo acting"))
        .expect("the failing command trial");
    assert_eq!(failed.reward, None, "a failed trial has no score");
    assert!(failed
        .failure
        .as_deref()
        .is_some_and(|f| f.contains("exit")));
    let oracle = cards
        .iter()
        .find(|c| c.label == "oracle #1")
        .expect("oracle");
    assert!(
        oracle.raw_stored,
        "the real rollout path stores the raw reward output"
    );
    assert!(oracle.stdout.contains("REWARD:"), "{}", oracle.stdout);
}

#[test]
fn n_and_shift_n_follow_the_tuple_list() {
    let (mut m, store) = loaded_model_with_rollouts(false);
    keys(&mut m, &store, "5");
    let first = m.reward.task_id.clone();
    let cmds = keys(&mut m, &store, "n");
    let second = m.tuples.selected_id().map(str::to_string);
    assert_ne!(second, first);
    assert_eq!(m.reward.task_id, second);
    assert_eq!(
        cmds,
        vec![EngineCommand::LoadRewards(second.clone().expect("id"))]
    );
    assert_eq!(
        m.reward.data.as_ref().map(|d| Some(&d.task_id)),
        Some(second.as_ref())
    );
    keys(&mut m, &store, "N");
    assert_eq!(m.reward.task_id, first);
}

#[test]
fn card_focus_and_raw_output_on_demand() {
    let (mut m, store) = loaded_model_with_rollouts(false);
    m.update(tuplewright::tui::model::Msg::Resize(160, 48));
    keys(&mut m, &store, "5 > o");
    assert!(m.reward.raw);
    assert_eq!(
        m.reward.focused().map(|c| c.label.as_str()),
        Some("r(gold)")
    );
    let theme = Theme::builtin("dark", true).expect("theme");
    let screen = render(&m, &theme, 160, 48);
    assert!(screen.contains("raw output · r(gold)"), "{screen}");
    assert!(
        screen.contains("REWARD: 1.0"),
        "the golden run's stdout: {screen}"
    );
    keys(&mut m, &store, "esc");
    assert!(!m.reward.raw, "esc closes the raw output");
    keys(&mut m, &store, "< < <");
    assert_eq!(m.reward.focus, 0, "focus clamps at the first card");
    keys(&mut m, &store, "G G");
    let n = m.reward.cards().len();
    for _ in 0..n + 2 {
        keys(&mut m, &store, ">");
    }
    assert_eq!(m.reward.focus, n - 1, "focus clamps at the last card");
}

fn card(label: &str, reward: Option<f64>) -> RewardCard {
    RewardCard {
        label: label.into(),
        reward,
        failure: reward.is_none().then(|| "timeout".into()),
        exit_code: None,
        components: Vec::new(),
        stdout: String::new(),
        stderr: String::new(),
        raw_stored: true,
        duration_ms: None,
        runs: 1,
        nondeterministic: false,
        is_trial: false,
    }
}

#[test]
fn rounds_switch_with_brackets_and_a_new_tuple_opens_on_its_latest_round() {
    let mut st = RewardState::default();
    st.request("t1");
    let round = |n: i64, gold: Option<f64>| RoundRewards {
        round_no: n,
        verdict: "pass".into(),
        cards: vec![card("r(init)", Some(0.0)), card("r(gold)", gold)],
    };
    st.accept(RewardView {
        task_id: "t1".into(),
        revised: None,
        instruction: String::new(),
        rounds: vec![round(1, None), round(2, Some(1.0))],
        trials: vec![card("oracle #1", Some(1.0))],
    });
    assert_eq!(st.round, 1, "latest round first");
    assert_eq!(st.cards().len(), 3, "round cards then trials");
    st.act(Action::PrevRound, 10);
    assert_eq!(st.round, 0);
    assert_eq!(st.cards()[1].reward, None, "round 1's failed golden run");
    st.act(Action::PrevRound, 10);
    assert_eq!(st.round, 0, "clamped");
    st.act(Action::NextRound, 10);
    st.act(Action::NextRound, 10);
    assert_eq!(st.round, 1, "clamped");
    st.accept(RewardView {
        task_id: "other".into(),
        revised: None,
        instruction: String::new(),
        rounds: Vec::new(),
        trials: Vec::new(),
    });
    assert_eq!(
        st.data.as_ref().map(|d| d.task_id.as_str()),
        Some("t1"),
        "stale data ignored"
    );
}

#[test]
fn snapshot_reward_cards_and_raw_output() {
    snap_all("reward", "5");
    snap_all("reward_failed_trial", "5 > > > > >");
    snap_all("reward_raw", "5 > o");
}

/// A second round whose golden runs disagree and whose initial runs both time out, recorded
/// through the store's write API on a copy, read by the real loader and drawn.
#[test]
fn differing_runs_are_both_shown_and_timeouts_are_failures_not_zeros() {
    use serde_json::json;
    use tuplewright::engine::store::{RewardRun, RoundRecord, Scripts, Store};
    let (_, first) = copy_path();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("r.db");
    super::rollout_fixture::open_copy()
        .conn()
        .sqlite()
        .unwrap()
        .execute("VACUUM INTO ?1", [path.to_string_lossy()])
        .expect("copy");
    let mut store = Store::open(&path, std::time::Duration::from_secs(5)).expect("open");
    let run = |endpoint: &str, reward: Option<f64>, score: f64| RewardRun {
        endpoint: endpoint.into(),
        reward,
        components: if reward.is_some() {
            json!([{"name": "posted", "weight": 1.0, "score": score, "details": "d"}])
        } else {
            json!([])
        },
        exit_code: reward.map(|_| 0),
        stdout: String::new(),
        stderr: "killed".into(),
        duration_ms: 30,
        failure: reward.is_none().then(|| "timeout after 30 s".to_string()),
    };
    let round = RoundRecord {
        task_id: first.to_string(),
        round_no: None,
        verdict: "fail".into(),
        source: "loop".into(),
        scripts: Scripts::default(),
        review_md: String::new(),
        scan_findings: json!([]),
        generator_model: None,
        discriminator_model: None,
        started_at: "2026-01-01T00:00:00Z".into(),
        finished_at: "2026-01-01T00:00:01Z".into(),
        script_runs: Vec::new(),
        reward_runs: vec![
            run("initial", None, 0.0),
            run("initial", None, 0.0),
            run("golden", Some(1.0), 1.0),
            run("golden", Some(0.5), 0.5),
        ],
        usage: Vec::new(),
    };
    store.write(|tx| tx.record_round(&round)).expect("record");
    let (mut m, _) = loaded_model_with_rollouts(false);
    m.update(tuplewright::tui::model::Msg::Resize(160, 48));
    keys(&mut m, &store, "5");
    let data = m.reward.data.as_ref().expect("data");
    assert_eq!(data.rounds.len(), 2);
    assert_eq!(m.reward.round, 1, "opens on the latest round");
    let labels: Vec<&str> = m.reward.cards().iter().map(|c| c.label.as_str()).collect();
    assert_eq!(&labels[..3], ["r(init)", "r(gold) run 1", "r(gold) run 2"]);
    let cards = m.reward.cards();
    assert_eq!(
        (cards[0].reward, cards[0].runs),
        (None, 2),
        "two identical timeouts"
    );
    assert!(cards[1].nondeterministic && cards[2].nondeterministic);
    let theme = Theme::builtin("dark", true).expect("theme");
    let screen = render(&m, &theme, 160, 48);
    assert!(screen.contains("r(init) · FAILED"), "{screen}");
    assert!(screen.contains("timeout after 30 s"), "{screen}");
    assert!(
        screen.contains("r(gold) run 2 · 0.50 · ≠ runs differ"),
        "{screen}"
    );
    assert!(
        screen.contains("r(init)   –  ·"),
        "no r(init) score in the header: {screen}"
    );
    keys(&mut m, &store, "[");
    assert_eq!(m.reward.round, 0);
    assert_eq!(m.reward.cards()[1].label, "r(gold)", "round 1's runs agree");
}
