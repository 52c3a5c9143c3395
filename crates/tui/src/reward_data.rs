//! What the Reward screen reads: every reward run of every round of one tuple, and the reward of
//! each rollout trial, as cards of per-component scores. Runs on the store worker.
//!
//! Components come as the harness stores them (`[{name, weight, score, points, status, details}]`,
//! see `engine::harness::execute::reward_run`); older or imported records with only `status`
//! (`PASS`/`FAIL`) are read as pass/fail components. A run that failed (infra, exit code, timeout,
//! protocol error) keeps `reward: None` and its `failure`: it is drawn as a failure, never as 0.

use serde_json::Value;

use tuplewright_base::store::{RewardRun, Rollout, Store, StoreError};
use tuplewright_engine::probes::ProbeKind;

/// One component of a reward.
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentBar {
    /// What was checked.
    pub name: String,
    /// Its weight (`None` when the script gave none).
    pub weight: Option<f64>,
    /// Its score in [0, 1].
    pub score: f64,
    /// Free text.
    pub detail: String,
}

/// One reward execution (or several identical ones), ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct RewardCard {
    /// `r(init)`, `r(gold) run 2`, `oracle #1`...
    pub label: String,
    /// The score; `None` when the run failed.
    pub reward: Option<f64>,
    /// Why there is no score.
    pub failure: Option<String>,
    /// Exit code of reward.py, when known.
    pub exit_code: Option<i32>,
    /// The breakdown.
    pub components: Vec<ComponentBar>,
    /// Raw stdout (empty when not stored).
    pub stdout: String,
    /// Raw stderr.
    pub stderr: String,
    /// Whether the raw output was stored at all (rollout trials before it was recorded lack it).
    pub raw_stored: bool,
    /// Wall-clock duration in ms, when known.
    pub duration_ms: Option<i64>,
    /// How many identical runs this card stands for (determinism: 2 = both runs agree).
    pub runs: usize,
    /// The runs of this endpoint disagree (each is then its own card).
    pub nondeterministic: bool,
    /// A rollout trial (its duration is the whole trial's, not reward.py's).
    pub is_trial: bool,
}

/// The reward runs of one round.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundRewards {
    /// Round number.
    pub round_no: i64,
    /// Round verdict (`pass`, `fail`, `error`).
    pub verdict: String,
    /// r(init) cards then r(gold) cards.
    pub cards: Vec<RewardCard>,
}

/// Everything the Reward screen shows for one tuple.
#[derive(Debug, Clone, PartialEq)]
pub struct RewardView {
    /// The task.
    pub task_id: String,
    /// Its instruction as imported.
    pub instruction: String,
    /// The instruction released by a modify_query decision in force, if any (what is trained on).
    pub revised: Option<String>,
    /// Rounds, oldest first.
    pub rounds: Vec<RoundRewards>,
    /// One card per rollout trial, oldest first.
    pub trials: Vec<RewardCard>,
}

/// Reads a stored components array (harness format, or pass/fail-only records).
pub fn parse_components(v: &Value) -> Vec<ComponentBar> {
    let Some(items) = v.as_array() else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|c| {
            let name = c.get("name")?.as_str()?.to_string();
            let status = c.get("status").and_then(Value::as_str).unwrap_or("");
            let score = c.get("score").and_then(Value::as_f64).unwrap_or(
                if status.eq_ignore_ascii_case("PASS") {
                    1.0
                } else {
                    0.0
                },
            );
            let detail = c
                .get("details")
                .or_else(|| c.get("detail"))
                .map(|d| match d {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    other => other.to_string(),
                })
                .unwrap_or_default();
            Some(ComponentBar {
                name,
                weight: c.get("weight").and_then(Value::as_f64),
                score,
                detail,
            })
        })
        .collect()
}

fn card_of_run(label: String, r: &RewardRun) -> RewardCard {
    RewardCard {
        label,
        reward: r.reward,
        failure: r.failure.clone(),
        exit_code: r.exit_code,
        components: parse_components(&r.components),
        stdout: r.stdout.clone(),
        stderr: r.stderr.clone(),
        raw_stored: true,
        duration_ms: Some(r.duration_ms),
        runs: 1,
        nondeterministic: false,
        is_trial: false,
    }
}

/// The status a REVIEW.md's probe table gives `probe` (`| probe:noop | FAIL | 1.00 | … |`).
pub fn probe_status(review: &str, probe: &str) -> Option<String> {
    review.lines().find_map(|line| {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        (cells.len() >= 4 && cells[1] == probe).then(|| match cells[2] {
            "FAIL" => "FAIL (above the threshold)".to_string(),
            other => other.to_string(),
        })
    })
}

/// Cards of one endpoint: one card when every run agrees, else one card per run, flagged.
fn endpoint_cards(name: &str, runs: &[&RewardRun]) -> Vec<RewardCard> {
    let Some(first) = runs.first() else {
        return Vec::new();
    };
    let same = runs.iter().all(|r| {
        r.reward == first.reward && r.failure == first.failure && r.components == first.components
    });
    if same {
        let mut c = card_of_run(name.to_string(), first);
        c.runs = runs.len();
        return vec![c];
    }
    runs.iter()
        .enumerate()
        .map(|(i, r)| {
            let mut c = card_of_run(format!("{name} run {}", i + 1), r);
            c.nondeterministic = true;
            c
        })
        .collect()
}

/// The card of one rollout trial (components and raw output from its `detail`).
pub fn trial_card(r: &Rollout) -> RewardCard {
    let d = &r.detail;
    let raw = d.get("reward_output");
    let text = |k: &str| {
        raw.and_then(|o| o.get(k))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    RewardCard {
        label: format!("{} #{}", r.model, r.trial),
        reward: r.reward,
        failure: r.failure.clone(),
        exit_code: raw
            .and_then(|o| o.get("exit_code"))
            .and_then(Value::as_i64)
            .map(|c| c as i32),
        components: d
            .get("components")
            .map(parse_components)
            .unwrap_or_default(),
        stdout: text("stdout"),
        stderr: text("stderr"),
        raw_stored: raw.is_some(),
        duration_ms: d.get("duration_ms").and_then(Value::as_i64),
        runs: 1,
        nondeterministic: false,
        is_trial: true,
    }
}

/// Loads the Reward screen's data for `task_id`.
pub fn load_rewards(store: &Store, task_id: &str) -> Result<RewardView, StoreError> {
    let task = store.task(task_id)?;
    let rounds = store
        .rounds(task_id)?
        .iter()
        .map(|r| {
            let of = |ep: &str| {
                r.round
                    .reward_runs
                    .iter()
                    .filter(|w| w.endpoint == ep)
                    .collect::<Vec<_>>()
            };
            let mut cards = endpoint_cards("r(init)", &of("initial"));
            cards.extend(endpoint_cards("r(gold)", &of("golden")));
            // The probes, labelled with the verdict the round's REVIEW.md records for them.
            for kind in ProbeKind::ALL {
                let ep = kind.endpoint();
                let label = match probe_status(&r.round.review_md, &ep) {
                    Some(status) => format!("{ep} {status}"),
                    None => ep.clone(),
                };
                cards.extend(endpoint_cards(&label, &of(&ep)));
            }
            RoundRewards {
                round_no: r.round.round_no.unwrap_or(0),
                verdict: r.round.verdict.clone(),
                cards,
            }
        })
        .collect();
    let trials = store.rollouts(task_id)?.iter().map(trial_card).collect();
    let revised = tuplewright_records::filter::effective_outcome(store, task_id)?
        .filter(|o| o.action == "modify_query")
        .and_then(|o| o.revised_query);
    Ok(RewardView {
        task_id: task_id.to_string(),
        instruction: task.task.instruction.clone(),
        revised,
        rounds,
        trials,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(reward: Option<f64>, comps: Value) -> RewardRun {
        RewardRun {
            endpoint: "golden".into(),
            reward,
            components: comps,
            exit_code: Some(0),
            stdout: String::new(),
            stderr: String::new(),
            duration_ms: 5,
            failure: reward.is_none().then(|| "timeout".to_string()),
        }
    }

    #[test]
    fn components_from_harness_and_pass_fail_records() {
        let v = json!([{"name": "a", "weight": 0.3, "score": 0.5, "details": "x"},
                       {"name": "b", "status": "PASS", "details": {"n": 1}},
                       {"name": "c", "status": "FAIL"}, {"weight": 1.0}]);
        let c = parse_components(&v);
        assert_eq!(c.len(), 3, "an item without a name is skipped");
        assert_eq!(
            (c[0].weight, c[0].score, c[0].detail.as_str()),
            (Some(0.3), 0.5, "x")
        );
        assert_eq!(
            (c[1].weight, c[1].score, c[1].detail.as_str()),
            (None, 1.0, "{\"n\":1}")
        );
        assert_eq!(c[2].score, 0.0);
    }

    #[test]
    fn identical_runs_fold_into_one_card_and_differing_runs_are_flagged() {
        let a = run(Some(1.0), json!([{"name": "a", "score": 1.0}]));
        let b = run(Some(0.5), json!([{"name": "a", "score": 0.5}]));
        let same = endpoint_cards("r(gold)", &[&a, &a]);
        assert_eq!(same.len(), 1);
        assert_eq!(same[0].runs, 2);
        assert!(!same[0].nondeterministic);
        let diff = endpoint_cards("r(gold)", &[&a, &b]);
        assert_eq!(diff.len(), 2);
        assert!(diff.iter().all(|c| c.nondeterministic));
        assert_eq!(diff[1].label, "r(gold) run 2");
        let failed = endpoint_cards("r(gold)", &[&run(None, json!([]))]);
        assert_eq!(failed[0].reward, None, "a failed run has no score");
        assert_eq!(failed[0].failure.as_deref(), Some("timeout"));
    }
}
