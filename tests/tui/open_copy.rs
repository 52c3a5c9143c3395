//! Issue 33, open and copy: through the action registry (keys and the palette), the workbench asks
//! the event loop to copy the id / bundle path / the Inspector's script (OSC 52), and to open the
//! Inspector's pane or the tuple's meta.json (as `export` writes it) in `$EDITOR` / `$PAGER`.

use tuplewright::engine::bundle::export::render;
use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::external::{osc52, External, Opener};
use tuplewright::tui::model::Model;

use super::filter_fixture::{keys_w, model_on, type_text};
use super::fixture::store_path;

fn yanked(m: &mut Model) -> String {
    match m.external.take() {
        Some(External::Yank { text }) => text,
        other => panic!("expected a copy, got {other:?}"),
    }
}

#[test]
fn yank_and_open_go_through_the_registry() {
    let (mut m, mut store) = model_on(store_path(), true);
    let id = m.tuples.selected_id().expect("a tuple").to_string();
    keys_w(&mut m, &mut store, "y y");
    assert_eq!(yanked(&mut m), id);
    assert!(osc52(&id).starts_with("\x1b]52;c;"));
    // The palette reaches the same action by name.
    keys_w(&mut m, &mut store, ":");
    type_text(&mut m, &mut store, "yank_path");
    keys_w(&mut m, &mut store, "enter");
    let path = yanked(&mut m);
    assert!(
        std::path::Path::new(&path).is_absolute() && path.ends_with(&format!("/{id}")),
        "{path}"
    );
    // On the Inspector: the reward script of the round shown, in $EDITOR, and copied.
    keys_w(&mut m, &mut store, "enter t t t");
    let d = m.inspector.detail.clone().expect("detail loaded");
    let reward = d.rounds[m.inspector.round].round.scripts.reward.clone();
    keys_w(&mut m, &mut store, "O");
    match m.external.take() {
        Some(External::Open(t)) => {
            assert_eq!(t.opener, Opener::Editor);
            assert!(t.name.ends_with("reward.py"), "{}", t.name);
            assert_eq!(Some(t.text), reward);
            assert_eq!(t.task_id, id);
        }
        other => panic!("expected an open, got {other:?}"),
    }
    keys_w(&mut m, &mut store, "y s");
    assert_eq!(Some(yanked(&mut m)), reward);
    // Elsewhere: meta.json built by the store worker, as export renders it, in $PAGER.
    keys_w(&mut m, &mut store, "esc");
    let cmds = keys_w(&mut m, &mut store, "g p");
    assert!(
        cmds.contains(&EngineCommand::LoadMeta(id.clone(), Opener::Pager)),
        "{cmds:?}"
    );
    let task = store.task(&id).unwrap();
    let files = render(&store, &task, "").unwrap().unwrap();
    let meta = files.iter().find(|(n, _)| *n == "meta.json").unwrap();
    match m.external.take() {
        Some(External::Open(t)) => {
            assert_eq!(t.opener, Opener::Pager);
            assert_eq!(t.name, "meta.json");
            assert_eq!(t.text.as_bytes(), meta.1.as_slice());
        }
        other => panic!("expected meta.json, got {other:?}"),
    }
}
