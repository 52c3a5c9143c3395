//! Point 3 of issue 15: nothing that explains a failure is cut off in the Inspector. A loaded
//! fixture tuple is given two rounds whose golden patches differ only at column ~220 and a failed
//! setup run with its stderr; the screen is drawn with `TestBackend` and read back cell by cell.

use ratatui::style::Modifier;
use tuplewright::engine::store::ScriptRun;
use tuplewright::tui::data::{load_detail, DataUpdate};
use tuplewright::tui::model::inspector::Pane;
use tuplewright::tui::model::{Model, Msg};

use super::fixture::{keys, loaded_model};

/// `x = 1; ` thirty-one times, then the part that changes (at column 217).
fn long_line(total: u32) -> String {
    format!("{}total = {total}", "x = 1; ".repeat(31))
}

/// The model on the Inspector with the first tuple as two crafted rounds.
fn crafted() -> (Model, tuplewright::engine::store::Store) {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, "enter");
    let id = m.inspector.task_id.clone().expect("opened");
    let mut d = load_detail(&store, &id).expect("detail");
    let mut r1 = d.rounds[0].clone();
    r1.round.round_no = Some(1);
    r1.round.scripts.golden = Some(format!("import json\n{}\nprint('done')\n", long_line(10)));
    let mut r2 = r1.clone();
    r2.round.round_no = Some(2);
    r2.round.scripts.golden = Some(format!("import json\n{}\nprint('done')\n", long_line(12)));
    r2.round.script_runs = vec![ScriptRun {
        script: "setup".into(),
        exit_code: Some(1),
        stdout: "seeding channels\n".into(),
        stderr: format!(
            "Traceback (most recent call last):\nKeyError: 'channels' {}\n",
            "while reading the seed state of the team-chat app ".repeat(4)
        ),
        duration_ms: 412,
        failure: None,
    }];
    d.rounds = vec![r1, r2];
    m.update(Msg::Data(DataUpdate::Detail(Box::new(d))));
    keys(&mut m, &store, "]");
    assert_eq!(m.inspector.round, 1);
    (m, store)
}

fn draw(m: &Model, w: u16, h: u16) -> (Vec<String>, ratatui::buffer::Buffer) {
    super::screen::draw(m, w, h, false)
}

/// The text of the right-hand pane (columns after the 24-column rounds list), wrapped rows
/// joined back to their line; the gutter (`+ `, `- `, `↪ `) is dropped.
fn pane_lines(rows: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in rows {
        let cells: Vec<char> = r.chars().collect();
        if cells.len() < 28 {
            continue;
        }
        let inner: String = cells[25..cells.len() - 1].iter().collect();
        let (gutter, body): (String, String) = (
            inner.chars().take(2).collect(),
            inner.chars().skip(2).collect(),
        );
        if gutter == "↪ " {
            if let Some(last) = out.last_mut() {
                last.push_str(&body);
                continue;
            }
        }
        out.push(body);
    }
    // A wrapped row is full to the edge; only a line's last row is padded.
    out.into_iter().map(|l| l.trim_end().to_string()).collect()
}

#[test]
fn a_change_at_column_220_is_reachable_by_wrap_and_by_sideways_scroll() {
    let (mut m, store) = crafted();
    keys(&mut m, &store, "t t D");
    assert_eq!(m.inspector.pane, Pane::Golden);
    let (rows, _) = draw(&m, 120, 30);
    let screen = rows.join("\n");
    assert!(
        !screen.contains("total = 1"),
        "cut off without wrap:\n{screen}"
    );
    assert!(screen.contains('›'), "a cut line says so");
    // Wrap: every character of both lines is on screen.
    keys(&mut m, &store, "w");
    assert!(m.inspector.wrap);
    let (rows, _) = draw(&m, 120, 30);
    let lines = pane_lines(&rows);
    assert!(lines.iter().any(|l| *l == long_line(10)), "{lines:#?}");
    assert!(lines.iter().any(|l| *l == long_line(12)), "{lines:#?}");
    // Sideways: z l until the change is in view; the gutter stays.
    keys(&mut m, &store, "w");
    for _ in 0..40 {
        let (rows, _) = draw(&m, 120, 30);
        if rows.join("\n").contains("total = 12") {
            break;
        }
        keys(&mut m, &store, "z l");
    }
    assert!(m.inspector.hscroll > 0);
    let (rows, buf) = draw(&m, 120, 30);
    let y = rows
        .iter()
        .position(|r| r.contains("total = 12"))
        .expect("the new line scrolled into view");
    assert!(
        rows[y][..].chars().nth(25) == Some('+'),
        "the +/- gutter stays: {}",
        rows[y]
    );
    assert!(rows.iter().any(|r| r.contains("total = 10")));
    // Word-level: only the changed word is emphasised.
    let x = rows[y].chars().collect::<Vec<_>>();
    let col = |needle: &str| -> u16 {
        let s: String = x.iter().collect();
        let byte = s.find(needle).expect("needle");
        s[..byte].chars().count() as u16
    };
    let at = |c: u16| buf[(c, y as u16)].modifier;
    let total = col("total = 12");
    assert!(
        at(total + 8).contains(Modifier::REVERSED),
        "the changed word"
    );
    assert!(!at(total).contains(Modifier::REVERSED), "an unchanged word");
    // Back to the left edge.
    for _ in 0..40 {
        keys(&mut m, &store, "z h");
    }
    assert_eq!(m.inspector.hscroll, 0);
}

#[test]
fn the_runs_pane_lists_every_run_with_role_env_exit_duration_and_output() {
    let (mut m, store) = crafted();
    keys(&mut m, &store, "t t t t");
    assert_eq!(m.inspector.pane, Pane::Runs);
    keys(&mut m, &store, "w");
    let (rows, _) = draw(&m, 120, 40);
    let text = rows.join("\n");
    for needle in [
        "initial_setup.py",
        "role setup",
        "env V_init",
        "exit 1",
        "412 ms",
        "stdout (1 line)",
        "seeding channels",
        "stderr (2 lines)",
        "KeyError: 'channels'",
    ] {
        assert!(text.contains(needle), "`{needle}` missing:\n{text}");
    }
    // The stderr line is longer than the pane: wrapped, it is there in full.
    let lines = pane_lines(&rows);
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("while reading the seed state of the team-chat app")),
        "{lines:#?}"
    );
}

#[test]
fn g_goes_to_the_last_page_of_the_pane_and_scrolling_stops_there() {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, "enter t t t");
    assert_eq!(m.inspector.pane, Pane::Reward);
    draw(&m, 80, 24);
    keys(&mut m, &store, "G");
    let max = m.inspector.scroll_max.get().expect("drawn");
    assert!(max > 0, "reward.py is longer than a 24-row screen");
    assert_eq!(m.inspector.scroll, max);
    keys(&mut m, &store, "j j ctrl-d");
    assert_eq!(m.inspector.scroll, max, "no scrolling into emptiness");
    let (rows, _) = draw(&m, 80, 24);
    let script = m.inspector.detail.as_ref().expect("detail").rounds[m.inspector.round]
        .round
        .scripts
        .reward
        .clone()
        .expect("reward.py");
    let n = script.lines().count();
    assert!(
        rows.iter().any(|r| r.contains(&format!("{n:>4} "))),
        "the last line ({n}) is drawn"
    );
    keys(&mut m, &store, "g g");
    assert_eq!(m.inspector.scroll, 0);
}
