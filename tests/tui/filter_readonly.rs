//! `--readonly` on the Filter screen: the model refuses every writing command with a notice, the
//! store worker refuses them again (its handler and its threads), and SQLite refuses a write on the
//! read-only connection; a read-only open never upgrades or creates a store.

use std::sync::mpsc;
use std::time::Duration;

use tuplewright::engine::filter::Action as Decision;
use tuplewright::engine::store::Store;
use tuplewright::tui::data::{DataUpdate, EngineCommand};
use tuplewright::tui::filter_data::DecideCmd;
use tuplewright::tui::worker::{handle_write, Workers};

use super::filter_fixture::{keys_w, model_on, voted_copy};

fn ids(m: &tuplewright::tui::model::Model) -> Vec<String> {
    m.tuples.rows.iter().map(|r| r.id.clone()).collect()
}

#[test]
fn readonly_refuses_writes_in_the_model_in_the_worker_and_in_sqlite() {
    let (_d, p) = voted_copy();
    let (mut m, mut store) = model_on(&p, true);
    let ids = ids(&m);
    let count = |s: &Store| s.decisions(&ids[1]).expect("decisions").len();
    let before = count(&store);
    let cmds = keys_w(&mut m, &mut store, "j 6");
    assert_eq!(
        cmds,
        vec![EngineCommand::LoadFilter(ids[1].clone())],
        "browsing works"
    );
    for k in ["K", "M", "R", "u"] {
        let cmds = keys_w(&mut m, &mut store, k);
        assert!(cmds.is_empty(), "{k} sent {cmds:?}");
        assert!(!m.filter.capturing());
        assert!(m
            .notice
            .as_deref()
            .is_some_and(|n| n.starts_with("read-only mode")));
    }
    // The model drops any writing command another screen might produce.
    let (kept, notice) = tuplewright::tui::readonly::guard(
        true,
        vec![
            EngineCommand::StartRun(vec![ids[1].clone()]),
            EngineCommand::LoadRows,
        ],
    );
    assert_eq!(kept, vec![EngineCommand::LoadRows]);
    assert!(notice.is_some_and(|n| n.contains("starting a run")));
    // The worker refuses too (defence in depth), through its handler and through its threads.
    let decide = EngineCommand::Decide(DecideCmd {
        task_id: ids[1].clone(),
        action: Decision::Keep,
        reason: "sneaky".into(),
        actor: "observer".into(),
    });
    let res = handle_write(&mut store, &decide, true);
    assert!(matches!(&res[..], [DataUpdate::Error(e)] if e.contains("read-only")));
    drop(store);
    let ro = Store::open_readonly(&p, Duration::from_secs(5)).expect("read-only open");
    let (tx, rx) = mpsc::channel();
    let workers = Workers::start_with(ro, tx, true).expect("workers");
    let writes = vec![
        decide.clone(),
        EngineCommand::StartRun(vec![ids[1].clone()]),
        EngineCommand::StartRollouts {
            task_ids: vec![ids[1].clone()],
            policy: "oracle".parse().expect("spec"),
            trials: 1,
            vlm: None,
        },
        EngineCommand::PauseJob,
        EngineCommand::ResumeJob,
        EngineCommand::CancelJob,
    ];
    for c in writes {
        workers.send(c);
        let reply = loop {
            match rx.recv_timeout(Duration::from_secs(10)).expect("a reply") {
                DataUpdate::Error(e) => break e,
                _ => continue, // event history
            }
        };
        assert!(reply.contains("read-only mode"), "{reply}");
    }
    workers.stop();
    // SQLite itself refuses a write on the read-only connection, and nothing is half-written.
    let mut ro = Store::open_readonly(&p, Duration::from_secs(5)).expect("read-only open");
    let res = handle_write(&mut ro, &decide, false);
    assert!(
        matches!(&res[..], [DataUpdate::Decided(d)] if d.result.as_ref().is_err_and(|e| e.contains("readonly"))),
        "{res:?}"
    );
    assert_eq!(count(&ro), before);
}

#[test]
fn readonly_open_refuses_a_store_that_needs_an_upgrade_and_creates_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let old = dir.path().join("old.db");
    let conn = rusqlite::Connection::open(&old).expect("sqlite");
    conn.execute_batch("PRAGMA user_version = 1; CREATE TABLE t (x);")
        .expect("old store");
    drop(conn);
    let err = Store::open_readonly(&old, Duration::from_secs(1))
        .err()
        .expect("refused");
    assert!(
        err.to_string().contains("open it once without --readonly"),
        "{err}"
    );
    let missing = dir.path().join("missing.db");
    assert!(Store::open_readonly(&missing, Duration::from_secs(1)).is_err());
    assert!(!missing.exists(), "a read-only open never creates a store");
}
