//! The Inspector's rounds list marks where a re-run of the loop starts (`── run N · source ──`), and
//! the round numbers there are the store's.

use tuplewright::tui::action::Screen;
use tuplewright::tui::data::load_detail;

use super::fixture::{loaded_model, screen_text};

#[test]
fn inspector_rounds_list_draws_a_line_at_each_run_boundary() {
    let (mut m, store) = loaded_model();
    let id = store.list_tasks(&Default::default()).unwrap()[0]
        .task
        .task_id
        .clone();
    let mut detail = load_detail(&store, &id).unwrap();
    assert_eq!(detail.runs, [1], "one run in the fixture");
    // The same round replayed by a second run (as a re-run stores it: round 2, run 2).
    let mut again = detail.rounds[0].clone();
    again.round.round_no = Some(2);
    detail.rounds.push(again);
    detail.runs.push(2);
    m.screen = Screen::Inspector;
    m.inspector.task_id = Some(id.clone());
    m.inspector.accept(detail);
    let text = screen_text(&m, 160, 48);
    let list: Vec<&str> = text
        .lines()
        .map(|l| {
            l.get(..l.char_indices().nth(24).map_or(l.len(), |(i, _)| i))
                .unwrap_or(l)
        })
        .collect();
    let boundary = list.iter().position(|l| l.contains("── run 2 · loop"));
    let r1 = list.iter().position(|l| l.contains(" r1 "));
    let r2 = list.iter().position(|l| l.contains(" r2 "));
    assert!(
        matches!((r1, boundary, r2), (Some(a), Some(b), Some(c)) if a < b && b < c),
        "{text}"
    );
    assert!(
        !text.contains("── run 1"),
        "no line before the first run: {text}"
    );
}
