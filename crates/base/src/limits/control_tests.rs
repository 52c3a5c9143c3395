//! The store's controls on SQLite and on PostgreSQL: the job-state moves allowed and refused, each
//! with its event; the token and cost budgets over the usage rows; bad stored values named.

use std::path::Path;
use std::time::Duration;

use super::control::*;
use crate::store::db::params;
use crate::store::testdb::TestDb;
use crate::store::Store;

fn open(path: &Path) -> Store {
    Store::open(path, Duration::from_secs(10)).unwrap()
}

fn job_moves_are_checked_and_recorded(path: &Path) {
    let mut s = open(path);
    assert_eq!(job_state(s.conn()).unwrap(), JobState::Running);
    let mv = |s: &mut Store, to| s.write(|tx| set_job_state(tx, to, "test")).unwrap();
    assert_eq!(mv(&mut s, JobState::Running), None, "resume a running job");
    assert_eq!(mv(&mut s, JobState::Paused), Some(JobState::Running));
    assert_eq!(mv(&mut s, JobState::Paused), None, "pause twice");
    assert_eq!(mv(&mut s, JobState::Cancelled), Some(JobState::Paused));
    assert_eq!(mv(&mut s, JobState::Cancelled), None, "cancel twice");
    assert_eq!(mv(&mut s, JobState::Paused), None, "pause a cancelled job");
    assert_eq!(job_state(s.conn()).unwrap(), JobState::Cancelled);
    assert_eq!(mv(&mut s, JobState::Running), Some(JobState::Cancelled));
    let kinds: Vec<String> = s
        .events_after(0, 100)
        .unwrap()
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(
        kinds,
        ["workers.paused", "workers.cancelled", "workers.resumed"]
    );
    let st = status(s.conn()).unwrap();
    assert_eq!(st.state, JobState::Running);
    assert_eq!(st.updated.map(|u| u.0).as_deref(), Some("test"));
    // A value no binary wrote is named, not taken for a state.
    s.write(|tx| {
        tx.conn().execute(
            "UPDATE store_controls SET value = 'halted' WHERE name = ?1",
            params![JOB_KEY],
        )
    })
    .unwrap();
    let err = job_state(s.conn()).unwrap_err().to_string();
    assert!(
        err.contains("workers.job") && err.contains("halted"),
        "{err}"
    );
}

fn the_token_budget_counts_every_usage_row(path: &Path) {
    let mut s = open(path);
    assert_eq!(budget_spent(s.conn()).unwrap(), None, "no budget set");
    s.write(|tx| set_token_budget(tx, Some(100), "test"))
        .unwrap();
    assert_eq!(token_budget(s.conn()).unwrap(), Some(100));
    assert_eq!(budget_spent(s.conn()).unwrap(), None, "nothing spent");
    let spend = |s: &mut Store, i: i64, o: i64| {
        s.write(|tx| {
            tx.conn().execute(
                "INSERT INTO usage (task_id, round_id, stage, model, input_tokens, \
                 output_tokens, created_at) VALUES (NULL, NULL, 'loop', 'm', ?1, ?2, 'now')",
                params![i, o],
            )
        })
        .unwrap();
    };
    spend(&mut s, 40, 20);
    assert_eq!(tokens_used(s.conn()).unwrap(), 60);
    assert_eq!(budget_spent(s.conn()).unwrap(), None);
    spend(&mut s, 30, 10);
    assert_eq!(budget_spent(s.conn()).unwrap(), Some((100, 100)));
    assert!(s
        .write(|tx| set_token_budget(tx, Some(-1), "test"))
        .unwrap_err()
        .to_string()
        .contains("negative"));
    s.write(|tx| set_token_budget(tx, None, "test")).unwrap();
    assert_eq!(budget_spent(s.conn()).unwrap(), None, "budget removed");
}

#[test]
fn job_moves_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    job_moves_are_checked_and_recorded(&dir.path().join("tw.db"));
}

#[test]
fn job_moves_on_postgres() {
    if let Some(db) = TestDb::create("job_moves_on_postgres") {
        job_moves_are_checked_and_recorded(&db.path());
    }
}

#[test]
fn token_budget_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    the_token_budget_counts_every_usage_row(&dir.path().join("tw.db"));
}

#[test]
fn token_budget_on_postgres() {
    if let Some(db) = TestDb::create("token_budget_on_postgres") {
        the_token_budget_counts_every_usage_row(&db.path());
    }
}

fn the_cost_budget_sums_the_recorded_costs(path: &Path) {
    let mut s = open(path);
    assert_eq!(usd_budget_spent(s.conn()).unwrap(), None, "no budget set");
    assert_eq!(usd_used(s.conn()).unwrap(), 0.0, "nothing recorded");
    s.write(|tx| set_usd_budget(tx, Some(0.05), "test"))
        .unwrap();
    assert_eq!(usd_budget(s.conn()).unwrap(), Some(0.05));
    let spend = |s: &mut Store, usd: Option<f64>| {
        s.write(|tx| {
            tx.record_usage(
                None,
                None,
                &crate::store::Usage {
                    stage: "generator".into(),
                    model: "openai:m".into(),
                    input_tokens: 1000,
                    output_tokens: 100,
                    cost_usd: usd,
                },
            )
        })
        .unwrap();
    };
    spend(&mut s, Some(0.02));
    spend(&mut s, None); // a row without a cost counts 0
    assert!((usd_used(s.conn()).unwrap() - 0.02).abs() < 1e-12);
    assert_eq!(usd_budget_spent(s.conn()).unwrap(), None);
    spend(&mut s, Some(0.03));
    let (used, budget) = usd_budget_spent(s.conn()).unwrap().unwrap();
    assert!(
        (used - 0.05).abs() < 1e-12 && budget == 0.05,
        "{used} {budget}"
    );
    // The token budget is independent of it.
    assert_eq!(budget_spent(s.conn()).unwrap(), None);
    let st = status(s.conn()).unwrap();
    assert_eq!(st.budget_usd, Some(0.05));
    assert!((st.usd_used - 0.05).abs() < 1e-12);
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let err = s
            .write(|tx| set_usd_budget(tx, Some(bad), "test"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("US dollars"), "{err}");
    }
    s.write(|tx| {
        tx.conn().execute(
            "UPDATE store_controls SET value = 'cheap' WHERE name = ?1",
            params![BUDGET_USD_KEY],
        )
    })
    .unwrap();
    let err = usd_budget(s.conn()).unwrap_err().to_string();
    assert!(err.contains("budget.usd") && err.contains("cheap"), "{err}");
    s.write(|tx| set_usd_budget(tx, None, "test")).unwrap();
    assert_eq!(usd_budget_spent(s.conn()).unwrap(), None, "budget removed");
}

#[test]
fn cost_budget_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    the_cost_budget_sums_the_recorded_costs(&dir.path().join("tw.db"));
}

#[test]
fn cost_budget_on_postgres() {
    if let Some(db) = TestDb::create("cost_budget_on_postgres") {
        the_cost_budget_sums_the_recorded_costs(&db.path());
    }
}
