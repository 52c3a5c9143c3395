//! Insta snapshots of the panes issue 15 added: the Inspector's runs pane, a wrapped script,
//! a script scrolled sideways, and the help overlay searched (80×24 and 160×48, colour and
//! NO_COLOR, as every other screen).

use super::snapshots::snap_all;

#[test]
fn snapshot_inspector_runs_pane() {
    snap_all("inspector_runs", "enter t t t t");
}

#[test]
fn snapshot_inspector_wrapped_and_scrolled_sideways() {
    snap_all("inspector_wrap", "enter t t t w");
    snap_all("inspector_hscroll", "enter t t t z l z l");
}

#[test]
fn snapshot_help_searched_on_the_inspector() {
    snap_all("help_search", "enter ? / w r a p");
}
