//! Filter screen snapshots at 80×24 and 160×48, colour and NO_COLOR, on a voted copy of the
//! loop-built fixture store: the votes view, the modify_query editor, the reason prompt, and the
//! decision history after a decision and its undo (times blanked; the actor is `curator`).

use tuplewright::engine::store::Store;
use tuplewright::tui::model::{Model, Msg};
use tuplewright::tui::theme::Theme;

use super::filter_fixture::{keys_w, model_on, type_text, voted_copy};
use super::snapshots::{render, scrub};

fn snap_all(name: &str, setup: &dyn Fn(&mut Model, &mut Store, u16)) {
    for (w, h) in [(80, 24), (160, 48)] {
        for no_color in [false, true] {
            let (_dir, path) = voted_copy();
            let (mut m, mut store) = model_on(&path, false);
            m.update(Msg::Resize(w, h));
            setup(&mut m, &mut store, h);
            let theme = Theme::builtin("dark", no_color).expect("theme");
            let text = scrub(&render(&m, &theme, w, h));
            let tag = if no_color { "nocolor" } else { "color" };
            insta::assert_snapshot!(format!("{name}_{w}x{h}_{tag}"), text);
        }
    }
}

#[test]
fn snapshot_filter_votes() {
    snap_all("filter_votes", &|m, s, _| {
        keys_w(m, s, "6");
    });
}

#[test]
fn snapshot_filter_editor_and_reason() {
    snap_all("filter_editor", &|m, s, _| {
        keys_w(m, s, "j j 6 M");
    });
    snap_all("filter_reason", &|m, s, _| {
        keys_w(m, s, "j 6 R");
        type_text(m, s, "reward checks an unasked field");
    });
}

#[test]
fn snapshot_filter_history_after_decision_and_undo() {
    snap_all("filter_history", &|m, s, h| {
        keys_w(m, s, "j 6 K");
        type_text(m, s, "setup and reward agree");
        keys_w(m, s, "enter u");
        if h < 30 {
            // The history is below the fold at 80×24: scroll to it.
            keys_w(m, s, "ctrl-d");
        }
    });
}

#[test]
fn a_long_reason_scrolls_so_its_end_stays_visible_at_80_columns() {
    let (_dir, path) = voted_copy();
    let (mut m, mut store) = model_on(&path, false);
    m.update(Msg::Resize(80, 24));
    keys_w(&mut m, &mut store, "j 6 K");
    let reason = "the reward reads the message body but the instruction only asks for a post in the right channel END";
    type_text(&mut m, &mut store, reason);
    let theme = Theme::builtin("dark", true).expect("theme");
    let text = render(&m, &theme, 80, 24);
    assert!(
        text.contains("…") && text.contains("right channel END▏"),
        "{text}"
    );
}
