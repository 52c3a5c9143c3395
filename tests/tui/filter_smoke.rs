//! The Filter screen in a real terminal (tmux): on a voted copy of the fixture store, `--readonly`
//! (store opened read-only by SQLite) browses the votes and refuses a decision; without it, a keep
//! typed with its reason is recorded by the engine. Skipped (with a message) without tmux.

use std::time::Duration;

use tuplewright::engine::store::Store;

use super::filter_fixture::voted_copy;
use super::tmux::{available, Workbench};

#[test]
fn tmux_filter_readonly_refuses_and_writable_records_a_keep() {
    if !available("tmux_filter_readonly_refuses_and_writable_records_a_keep") {
        return;
    }
    let (dir, path) = voted_copy();
    let id = {
        let store = Store::open(&path, Duration::from_secs(5)).expect("open");
        let mut ids: Vec<String> = store
            .list_tasks(&Default::default())
            .expect("tasks")
            .into_iter()
            .map(|t| t.task.task_id)
            .collect();
        ids.sort();
        ids[1].clone()
    };
    let count = || {
        let s = Store::open(&path, Duration::from_secs(5)).expect("open");
        s.decisions(&id).expect("decisions").len()
    };
    let before = count();

    let wb = Workbench::start(&path, "--readonly", "filter-ro", dir.path(), (100, 30));
    wb.wait_for("Tuples 4/4");
    wb.keys(&["j", "6"]);
    wb.wait_for(&format!("Filter · {id}"));
    wb.wait_for("Votes (3)");
    wb.keys(&["K"]);
    wb.wait_for("read-only mode: decisions refused");
    wb.quit_cleanly();
    drop(wb);
    assert_eq!(count(), before, "nothing written in read-only mode");

    let wb = Workbench::start(&path, "", "filter-rw", dir.path(), (100, 30));
    wb.wait_for("Tuples 4/4");
    wb.keys(&["j", "6"]);
    wb.wait_for("Votes (3)");
    wb.keys(&["K"]);
    wb.wait_for("reason");
    wb.keys(&["-l", "smoke keep"]);
    wb.keys(&["Enter"]);
    wb.wait_for("keep recorded");
    wb.quit_cleanly();
    drop(wb);
    let store = Store::open(&path, Duration::from_secs(5)).expect("open");
    let last = store.decisions(&id).expect("decisions").pop().expect("one");
    assert_eq!(count(), before + 1);
    assert_eq!(last.reason, "keep: smoke keep");
    assert_eq!(last.source, "human");
    assert_eq!(
        last.actor,
        tuplewright::engine::filter::decide::human_actor(None)
    );
}
