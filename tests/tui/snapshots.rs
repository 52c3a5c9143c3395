//! `TestBackend` + insta snapshots of every screen at 80×24 and 160×48, with colours (the buffer
//! with its styles) and under NO_COLOR (text + modifiers), on the fixture store. Times, elapsed
//! seconds and rates vary between runs and are blanked.

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use regex::Regex;
use tuplewright::tui::model::Model;
use tuplewright::tui::theme::Theme;
use tuplewright::tui::view;

use super::fixture::{keys, loaded_model};

pub fn scrub(text: &str) -> String {
    let rules = [
        (r"\d\d:\d\d:\d\d", "HH:MM:SS"),
        // A job's duration ends its header line: its padding depends on the digits, drop both.
        (r"took \d+\.\ds *", "took N.Ns "),
        (r" *\d+\.\ds\b", " N.Ns"),
        (r" *\d+\.\d tasks/min", " N.N tasks/min"),
        // The runs pane right-aligns durations: blank the padding with the digits.
        (r"· +\d+ ms\b", "· N ms"),
        (r"\d+ ?ms\b", "N ms"),
        // live jobs: job ids are random
        (r"\b(run|rollout)-[0-9a-f]{8}\b", "$1-JOBID"),
    ];
    let text = rules.iter().fold(text.to_string(), |t, (re, to)| {
        Regex::new(re)
            .expect("regex")
            .replace_all(&t, *to)
            .into_owned()
    });
    // A blanked number was one or more digits wide, so the padding after it on the same buffer
    // line varies between runs ("took 9.8s" vs "took 10.2s"): drop that line's trailing spaces.
    Regex::new(r#"(?m)^(\s*".*(?:N\.Ns|N\.N tasks/min|N ms).*?) +",$"#)
        .expect("regex")
        .replace_all(&text, "$1\",")
        .into_owned()
}

pub fn render(model: &Model, theme: &Theme, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| view::draw(f, model, theme, "fixture.db"))
        .expect("draw");
    // Text plus styles: under NO_COLOR only the modifiers that carry state remain.
    format!("{:?}", term.backend().buffer())
}

pub fn snap_all(name: &str, setup: &str) {
    for (w, h) in [(80, 24), (160, 48)] {
        for no_color in [false, true] {
            let (mut m, store) = loaded_model();
            m.update(tuplewright::tui::model::Msg::Resize(w, h));
            keys(&mut m, &store, setup);
            let theme = Theme::builtin("dark", no_color).expect("theme");
            let text = scrub(&render(&m, &theme, w, h));
            let tag = if no_color { "nocolor" } else { "color" };
            insta::assert_snapshot!(format!("{name}_{w}x{h}_{tag}"), text);
        }
    }
}

#[test]
fn snapshot_tuples() {
    snap_all("tuples", "j");
}

#[test]
fn snapshot_tuples_searching() {
    snap_all("tuples_search", "/ g e n e r a l");
}

#[test]
fn snapshot_inspector_review_and_reward_script() {
    snap_all("inspector_review", "enter");
    snap_all("inspector_reward", "enter t t t");
    snap_all("inspector_diff", "enter t D");
}

#[test]
fn snapshot_live() {
    snap_all("live", "1");
}

#[test]
fn snapshot_stats() {
    snap_all("stats", "8");
    snap_all("stats_bottom", "8 G");
}

#[test]
fn snapshot_help_and_palette() {
    snap_all("help", "?");
    snap_all("palette", ": t a b");
}
