//! The judge behind the public `reward_judge` helper, end to end through `tuplewright verify`: an
//! OSWorld-style `os` bundle whose reward scores one component with `call_llm_judge` (both
//! published call shapes), answered by a local stand-in speaking the OpenAI chat-completions
//! protocol (no paid API is reachable here; the provider code path is the one used against real
//! endpoints). The sandbox has no network: the calls travel over the per-run judge socket.

use crate::open_envs_support;
use crate::providers::standin;

use std::path::Path;
use std::time::Duration;

use open_envs_support::{status, tw, write_bundle, PublicBundle};
use standin::{openai_text, Reply, StandIn};
use tuplewright::engine::store::Store;

const SETUP: &str = r#"import os
os.makedirs('/home/user/Documents', exist_ok=True)
with open('/home/user/Documents/figures.txt', 'w') as f:
    f.write('20\n22\n')
"#;

const GOLDEN: &str = r#"with open('/home/user/Documents/total.txt', 'w') as f:
    f.write('total: 42\n')
"#;

/// A published-shape reward: half for the file, half for the judge's view of it (asked only
/// when the file is there, as published rewards gate their judged components). `CALL` is the
/// judge call; `CALLS` how many times it is made.
const REWARD: &str = r#"import os, sys
sys.path.insert(0, '/tmp')
from reward_judge import call_llm_judge
base = '/home/user/Documents'
total = ''
if os.path.isfile(os.path.join(base, 'total.txt')):
    total = open(os.path.join(base, 'total.txt')).read()
score = 0.0
ok = 'total: 42' in total
print(('PASS' if ok else 'FAIL') + ': total written')
score += 0.5 if ok else 0.0
if ok:
    judged = 0.0
    for _ in range(CALLS):
        try:
            judged = CALL
        except Exception as e:
            print('ERROR: judge component:', e)
    print('LLM JUDGE: %.2f' % judged)
    score += 0.5 * judged
print('REWARD: ' + str(score))
"#;

const KEYWORDS: &str = "call_llm_judge(task_instruction='Write the total of the figures', \
     success_criteria='total.txt states their sum, 42', state_excerpt=total)";
const POSITIONAL: &str =
    "call_llm_judge('Write the total of the figures', 'total.txt states their sum, 42', total)";

/// Writes the bundle and a tuplewright.toml with `judge` lines next to the store; returns
/// (store, bundle path).
fn setup(
    dir: &Path,
    id: &str,
    call: &str,
    calls: u32,
    judge: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let reward = REWARD
        .replace("CALLS", &calls.to_string())
        .replace("CALL", call);
    let b = PublicBundle {
        id,
        app_type: "os",
        domain: None,
        setup: SETUP,
        golden: GOLDEN,
        reward: &reward,
    };
    let path = write_bundle(&dir.join("in"), &b);
    std::fs::write(dir.join("tuplewright.toml"), format!("[judge]\n{judge}\n")).unwrap();
    (dir.join("s.db"), path)
}

fn judge_lines(base: &str, extra: &str) -> String {
    format!("model = \"openai:standin-judge@{base}/v1\"\ncall_timeout_secs = 30.0\n{extra}")
}

/// The `judge` usage rows of the task's last round: (model, input tokens, output tokens).
fn judge_usage(db: &Path, id: &str) -> Vec<(String, i64, i64)> {
    let store = Store::open(db, Duration::from_secs(10)).unwrap();
    let rounds = store.rounds(id).unwrap();
    rounds
        .last()
        .map(|r| {
            r.round
                .usage
                .iter()
                .filter(|u| u.stage == "judge")
                .map(|u| (u.model.clone(), u.input_tokens, u.output_tokens))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn reward_judge_standin_answering_yes_verifies_the_bundle_and_records_judge_usage() {
    let judge = StandIn::start(
        vec![],
        Some(Reply::json(openai_text(
            "{\"score\": 1, \"reasoning\": \"yes, the total is right\"}",
            40,
            7,
        ))),
    );
    let dir = tempfile::tempdir().unwrap();
    let id = "os_judged_total_001";
    let (db, path) = setup(dir.path(), id, KEYWORDS, 1, &judge_lines(&judge.base, ""));
    let a = tw(&db).arg("verify").arg(&path).assert();
    let out = open_envs_support::output(&a);
    assert!(a.get_output().status.success(), "{out}");
    assert_eq!(status(&db, id), "final", "{out}");
    // The judge was asked (V_gold's reward runs; V_init has no total.txt and never asks), with
    // the script's three fields in the prompt.
    let asked = judge.requests();
    assert!(!asked.is_empty(), "{out}");
    let body = asked[0].body.to_string();
    for part in [
        "Write the total of the figures",
        "their sum, 42",
        "total: 42",
    ] {
        assert!(body.contains(part), "{body}");
    }
    assert_eq!(asked[0].body["model"], "standin-judge");
    // Each answered call is usage under the `judge` stage of the round.
    let rows = judge_usage(&db, id);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let n = asked.len() as i64;
    assert_eq!(rows[0], ("openai:standin-judge".into(), 40 * n, 7 * n));
    // Rollouts reach the judge too: the oracle's trials score 1 with the judge's half.
    let a = tw(&db)
        .args(["rollout", "--policy", "oracle", "--tasks", id])
        .assert();
    let out = open_envs_support::output(&a);
    assert!(a.get_output().status.success(), "{out}");
    let store = Store::open(&db, Duration::from_secs(10)).unwrap();
    let trials = store.rollouts(id).unwrap();
    assert!(!trials.is_empty(), "{out}");
    for t in &trials {
        assert_eq!(t.reward, Some(1.0), "{out}");
        assert_eq!(t.detail["reward_judge"]["calls"], 1, "{}", t.detail);
    }
    assert_eq!(judge.requests().len(), asked.len() + trials.len());
}

#[test]
fn reward_judge_standin_answering_no_fails_c3_and_is_not_an_infrastructure_failure() {
    let judge = StandIn::start(vec![], Some(Reply::json(openai_text("No.", 30, 2))));
    let dir = tempfile::tempdir().unwrap();
    let id = "os_judged_total_002";
    let (db, path) = setup(dir.path(), id, POSITIONAL, 1, &judge_lines(&judge.base, ""));
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let out = open_envs_support::output(&a);
    assert!(!out.contains("could not verify"), "{out}");
    assert!(out.contains("FAILED") && out.contains("C3"), "{out}");
    assert_ne!(status(&db, id), "final", "{out}");
    assert!(!judge.requests().is_empty());
    assert_eq!(judge_usage(&db, id).len(), 1);
}

#[test]
fn reward_judge_standin_down_is_an_infrastructure_failure_never_a_score() {
    // A port nobody listens on: the judge is down.
    let port = crate::common::quiet_port();
    let base = format!("http://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let id = "os_judged_total_003";
    let (db, path) = setup(
        dir.path(),
        id,
        KEYWORDS,
        1,
        &judge_lines(&base, "max_retries = 0"),
    );
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let out = open_envs_support::output(&a);
    assert!(out.contains("could not verify (status unchanged)"), "{out}");
    assert!(
        out.contains("the judge (openai:standin-judge) failed"),
        "{out}"
    );
    // The reward swallowed the exception and printed a REWARD; still no score was recorded.
    assert_eq!(status(&db, id), "imported", "{out}");
}

#[test]
fn reward_judge_standin_call_cap_holds_and_the_extra_call_is_an_infrastructure_failure() {
    let judge = StandIn::start(
        vec![],
        Some(Reply::json(openai_text("{\"score\": 1}", 10, 1))),
    );
    let dir = tempfile::tempdir().unwrap();
    let id = "os_judged_total_004";
    let (db, path) = setup(
        dir.path(),
        id,
        KEYWORDS,
        3,
        &judge_lines(&judge.base, "max_calls_per_run = 2"),
    );
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let out = open_envs_support::output(&a);
    assert!(out.contains("could not verify (status unchanged)"), "{out}");
    assert!(
        out.contains("more than 2 reward_judge calls in one run"),
        "{out}"
    );
    assert_eq!(status(&db, id), "imported", "{out}");
    // The first reward run reached the cap and ended the round: two calls reached the model.
    assert_eq!(judge.requests().len(), 2, "{out}");
}
