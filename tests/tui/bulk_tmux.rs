//! Issue 33 end to end in a real terminal (tmux): on a voted copy of the fixture store the
//! workbench marks every tuple with `*`, rejects the marked set with one reason typed at the
//! prompt, and `u` undoes the group — the store holds one decision per tuple under one group id,
//! then one compensating decision each. Skipped (with a message) without tmux.

use std::time::Duration;

use tuplewright::engine::store::Store;

use super::filter_fixture::voted_copy;
use super::tmux::{available, Workbench};

#[test]
fn tmux_bulk_reject_of_marked_tuples_and_group_undo() {
    if !available("tmux_bulk_reject_of_marked_tuples_and_group_undo") {
        return;
    }
    let (dir, path) = voted_copy();
    let read = || {
        let s = Store::open(&path, Duration::from_secs(5)).expect("open");
        let mut v: Vec<(String, String)> = s.statuses().expect("statuses").into_iter().collect();
        v.sort();
        let groups: Vec<String> = v
            .iter()
            .filter_map(|(id, _)| s.decisions(id).expect("decisions").pop()?.group_id)
            .collect();
        (v, groups)
    };
    let (before, _) = read();
    let wb = Workbench::start(&path, "", "bulk", dir.path(), (120, 30));
    wb.wait_for("Tuples 4/4");
    wb.keys(&["*"]);
    wb.wait_for("● 4 marked");
    wb.keys(&["R"]);
    wb.wait_for("reject 4 marked tuple(s)");
    wb.keys(&["-l", "tmux batch"]);
    wb.keys(&["Enter"]);
    let screen = wb.wait_for("decided (");
    assert!(screen.contains("u undoes"), "{screen}");
    let (after, groups) = read();
    let decided = after.iter().filter(|(_, s)| s == "dropped").count();
    assert!(decided >= 1, "{after:?}");
    assert_eq!(
        groups.len(),
        decided,
        "each decided tuple's latest decision is in the group"
    );
    assert!(groups.iter().all(|g| *g == groups[0]));
    assert!(screen.contains(&format!("{decided} decided (")), "{screen}");
    wb.keys(&["u"]);
    wb.wait_for("undone:");
    wb.quit_cleanly();
    drop(wb);
    let (end, _) = read();
    assert_eq!(end, before, "the group undo restored every tuple");
}
