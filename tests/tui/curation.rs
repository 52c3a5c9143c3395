//! Issue 15's "misleading today" items on the fixture store: mouse, notices, search ranking and
//! highlighting, the help overlay, State diff's one change count, ids cut in the middle, and the
//! Reward header after modify_query.

use std::time::{Duration, Instant};

use ratatui::style::Modifier;
use tuplewright::tui::action::Screen;
use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::model::help::HelpRow;
use tuplewright::tui::model::inspector::Pane;
use tuplewright::tui::model::notice::Level;
use tuplewright::tui::model::{Msg, Overlay};
use tuplewright::tui::mouse::{Mouse, MouseKind, Target};
use tuplewright::tui::theme::{Role, Theme};

use super::fixture::{keys, loaded_model};
use super::screen::{draw, text};

fn click(m: &mut tuplewright::tui::model::Model, col: u16, row: u16) -> Vec<EngineCommand> {
    m.update(Msg::Mouse(Mouse {
        kind: MouseKind::Click,
        col,
        row,
    }))
}

fn wheel(m: &mut tuplewright::tui::model::Model, kind: MouseKind) {
    m.update(Msg::Mouse(Mouse {
        kind,
        col: 40,
        row: 10,
    }));
}

/// Where the last frame put `target`.
fn spot(m: &tuplewright::tui::model::Model, target: Target) -> (u16, u16) {
    let h = m
        .hits
        .all()
        .into_iter()
        .find(|h| h.target == target)
        .unwrap_or_else(|| panic!("{target:?} not drawn"));
    (h.x + h.w / 2, h.y)
}

#[test]
fn clicks_on_tabs_rows_panes_and_buttons_act_on_what_was_drawn_there() {
    let (mut m, store) = loaded_model();
    draw(&m, 120, 30, false);
    let (x, y) = spot(&m, Target::Tab(Screen::Stats));
    assert_eq!(y, 0, "tabs are on the first row");
    let cmds = click(&mut m, x, y);
    assert_eq!(m.screen, Screen::Stats);
    assert_eq!(cmds, vec![EngineCommand::LoadStats]);
    let (x, y) = spot(&m, Target::Tab(Screen::Tuples));
    click(&mut m, x, y);
    assert_eq!(m.screen, Screen::Tuples);
    // A row click selects; a click on the selected row opens it.
    draw(&m, 120, 30, false);
    let (x, y) = spot(&m, Target::Row(2));
    click(&mut m, x, y);
    assert_eq!(m.tuples.selected, 2);
    let cmds = click(&mut m, x, y);
    assert_eq!(m.screen, Screen::Inspector);
    super::fixture::pump(&mut m, &store, cmds);
    draw(&m, 120, 30, false);
    let (x, y) = spot(&m, Target::Pane(Pane::Runs));
    click(&mut m, x, y);
    assert_eq!(m.inspector.pane, Pane::Runs);
    // The status line's help hint is a button.
    let (x, y) = spot(&m, Target::Button(tuplewright::tui::action::Action::Help));
    assert_eq!(y, 29);
    click(&mut m, x, y);
    assert!(matches!(m.overlay, Overlay::Help(_)));
}

#[test]
fn the_wheel_scrolls_and_m_releases_the_mouse_for_text_selection() {
    let (mut m, store) = loaded_model();
    wheel(&mut m, MouseKind::WheelDown);
    assert_eq!(
        m.tuples.selected, 3,
        "three rows a notch, clamped to the list"
    );
    wheel(&mut m, MouseKind::WheelUp);
    assert_eq!(m.tuples.selected, 0);
    keys(&mut m, &store, "m");
    assert!(!m.mouse_captured);
    assert!(text(&m, 120, 30).contains("mouse released"));
    wheel(&mut m, MouseKind::WheelDown);
    assert_eq!(m.tuples.selected, 0, "a released mouse does nothing here");
    keys(&mut m, &store, "m");
    assert!(m.mouse_captured);
}

#[test]
fn notices_have_a_level_a_glyph_under_no_color_and_expire() {
    let (mut m, _store) = loaded_model();
    let t0 = Instant::now();
    m.set_time(t0);
    m.say(Level::Success, "t1: keep recorded (voted → final, #4)");
    m.update(Msg::Resize(120, 30));
    assert_eq!(m.notice_meta.level, Level::Success);
    let (rows, buf) = draw(&m, 120, 30, true);
    let status = &rows[29];
    assert!(status.contains("✔ t1: keep recorded"), "{status}");
    let x = status.chars().position(|c| c == '✔').expect("glyph") as u16;
    let (_, colour) = draw(&m, 120, 30, false);
    let theme = Theme::builtin("dark", false).expect("theme");
    assert_eq!(
        colour[(x, 29)].fg,
        theme.style(Role::Keep).fg.expect("keep colour")
    );
    assert_ne!(
        colour[(x, 29)].fg,
        theme.style(Role::Alert).fg.expect("alert colour")
    );
    let _ = buf;
    // An error set by a worker reads as one.
    m.update(Msg::Data(tuplewright::tui::data::DataUpdate::Error(
        "store error: database is locked".into(),
    )));
    assert_eq!(m.notice_meta.level, Level::Error);
    assert!(draw(&m, 120, 30, true).0[29].contains("✘ store error"));
    // Expiry: still there before its time, gone after.
    m.set_time(t0 + Level::Error.ttl() - Duration::from_secs(1));
    assert!(!m.expire_notice());
    m.set_time(t0 + Level::Error.ttl() + Duration::from_secs(1));
    assert!(m.expire_notice());
    assert!(m.notice.is_none());
}

#[test]
fn search_ranks_exact_and_prefix_ids_first_highlights_matches_and_reports_unknown_fields() {
    let (mut m, store) = loaded_model();
    let ids: Vec<String> = m.tuples.rows.iter().map(|r| r.id.clone()).collect();
    let target = ids[3].clone();
    let typed: Vec<String> = target.chars().map(|c| c.to_string()).collect();
    keys(&mut m, &store, &format!("/ {} enter", typed.join(" ")));
    assert_eq!(
        m.tuples.selected_id(),
        Some(target.as_str()),
        "the exact id first"
    );
    // A prefix common to every id lists them all, in id order, before any instruction match.
    let prefix: String = target.chars().take(4).collect();
    keys(&mut m, &store, "esc");
    let typed: Vec<String> = prefix.chars().map(|c| c.to_string()).collect();
    keys(&mut m, &store, &format!("/ {} enter", typed.join(" ")));
    let shown: Vec<&str> = m
        .tuples
        .view
        .iter()
        .map(|&i| m.tuples.rows[i as usize].id.as_str())
        .collect();
    let mut sorted = shown.clone();
    sorted.sort();
    assert_eq!(shown, sorted, "prefix matches rank by id");
    // The matched characters are drawn bold + underlined (NO_COLOR keeps modifiers).
    let (rows, buf) = draw(&m, 120, 30, true);
    let y = rows.iter().position(|r| r.contains(&ids[0])).expect("row") as u16;
    let row = &rows[y as usize];
    let x = row[..row.find(&ids[0]).expect("id")].chars().count() as u16;
    assert!(
        buf[(x, y)].modifier.contains(Modifier::UNDERLINED),
        "matched"
    );
    assert!(
        !buf[(x + 5, y)].modifier.contains(Modifier::UNDERLINED),
        "not matched"
    );
    // An unknown field term is reported, not silently searched.
    keys(&mut m, &store, "esc / s t a t u z : x enter");
    let screen = text(&m, 160, 30);
    assert!(screen.contains("unknown field statuz:x"), "{screen}");
}

#[test]
fn help_puts_the_screen_first_searches_and_scrolls_only_over_its_rows() {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, "enter ?");
    let Overlay::Help(h) = &m.overlay else {
        panic!("help not open")
    };
    let rows = tuplewright::tui::model::help::rows(m.screen, &m.keymap, &h.query);
    assert!(matches!(rows[0], HelpRow::Section(Some(Screen::Inspector))));
    assert!(text(&m, 120, 40).contains("── Inspector"));
    keys(&mut m, &store, "G j j j");
    let Overlay::Help(h) = &m.overlay else {
        panic!("help not open")
    };
    assert_eq!(
        h.scroll,
        h.max.get(),
        "G goes to the last row and j stops there"
    );
    let screen = text(&m, 120, 40);
    assert!(
        screen.contains("keys") && screen.contains("what it does"),
        "the header stays"
    );
    keys(&mut m, &store, "/ w r a p enter");
    let screen = text(&m, 120, 40);
    assert!(screen.contains("1 matching"), "{screen}");
    assert!(screen.contains("wrap") && !screen.contains("decide_keep"));
    keys(&mut m, &store, "esc");
    assert!(
        matches!(m.overlay, Overlay::Help(_)),
        "esc first clears the search"
    );
    keys(&mut m, &store, "esc");
    assert_eq!(m.overlay, Overlay::None);
}

#[test]
fn state_diff_counts_each_change_once_whatever_the_view() {
    let (mut m, store) = loaded_model();
    keys(&mut m, &store, "4");
    let count = m.state_diff.changes;
    assert!(count > 0, "the fixture's golden patch changes the state");
    let header = |m: &tuplewright::tui::model::Model| {
        let s = text(m, 160, 40);
        s.lines()
            .find(|l| l.contains(" changed"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    let want = format!("{count} changed");
    for k in ["v", "|", "v", "|", "."] {
        keys(&mut m, &store, k);
        assert_eq!(m.state_diff.changes, count, "after {k}");
        assert!(header(&m).contains(&want), "after {k}: {}", header(&m));
    }
}

#[test]
fn ids_are_cut_in_the_middle_keeping_their_distinguishing_end() {
    let (mut m, store) = loaded_model();
    m.update(Msg::Resize(80, 24));
    let id = m.tuples.rows[0].id.clone();
    let screen = text(&m, 80, 24);
    let tail: String = id
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if id.chars().count() > 22 {
        assert!(screen.contains('…') && screen.contains(&tail), "{screen}");
    } else {
        assert!(screen.contains(&id));
    }
    let cut = tuplewright::tui::view::clip_middle("cross_chat-to-issue_0017", 16);
    assert_eq!(cut, "cross…issue_0017");
    let _ = keys(&mut m, &store, "j");
}

#[test]
fn the_reward_header_shows_the_instruction_released_by_modify_query() {
    let (_d, p) = super::filter_fixture::voted_copy();
    let (mut m, mut store) = super::filter_fixture::model_on(&p, false);
    // The first tuple's votes are a modify_query majority: the revised query is in force.
    super::filter_fixture::keys_w(&mut m, &mut store, "5");
    let data = m.reward.data.as_ref().expect("rewards loaded");
    let revised = data
        .revised
        .clone()
        .expect("a modify_query outcome in force");
    assert_ne!(revised, data.instruction);
    let screen = text(&m, 160, 40);
    let head: String = revised.chars().take(30).collect();
    assert!(
        screen.contains("✎ modified:") && screen.contains(&head),
        "{screen}"
    );
    // A tuple without one shows its instruction as imported.
    super::filter_fixture::keys_w(&mut m, &mut store, "n n n");
    let data = m.reward.data.as_ref().expect("rewards loaded");
    assert_eq!(data.revised, None);
    assert!(!text(&m, 160, 40).contains("✎ modified:"));
}
