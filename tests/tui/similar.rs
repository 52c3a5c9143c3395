//! The Tuples screen's similar-tuples panel (`=`): the nearest neighbours of the selected tuple by
//! the real all-MiniLM-L6-v2 (installed by `.ci/setup`), answered as the similar-tuples worker does,
//! in insta snapshots; moving in the panel, selecting a neighbour, closing it.

use tuplewright::engine::embedder::{select, Backend, Selected};
use tuplewright::engine::sandbox::SandboxConfig;
use tuplewright::engine::taskgen::embed::EmbeddingsConfig;
use tuplewright::tui::action::Screen;
use tuplewright::tui::data::{DataUpdate, EngineCommand};
use tuplewright::tui::keymap::parse_keys;
use tuplewright::tui::model::{Model, Msg};
use tuplewright::tui::similar_data::answer;
use tuplewright::tui::theme::Theme;

use super::fixture::{keys, loaded_model, open};
use super::snapshots::{render, scrub};

fn model_embedder() -> Selected {
    select(
        &EmbeddingsConfig::default(),
        Backend::Model,
        &SandboxConfig::default().venv_dir,
    )
    .unwrap_or_else(|e| panic!("{e} (run `bash .ci/setup`)"))
}

/// Presses `=` and answers the request as the worker would (nothing cached into the fixture).
fn open_panel(m: &mut Model, sel: &Selected) -> String {
    let key = parse_keys("=").expect("key")[0];
    let cmds = m.update(Msg::Key(key));
    let id = cmds
        .iter()
        .find_map(|c| match c {
            EngineCommand::LoadSimilar(id) => Some(id.clone()),
            _ => None,
        })
        .expect("`=` asks for the neighbours");
    assert!(m.similar.loading());
    let mut st = open();
    let u = answer(&mut st, sel, &id, false);
    m.update(Msg::Data(DataUpdate::Similar(Box::new(u))));
    id
}

#[test]
fn snapshot_similar_panel() {
    let sel = model_embedder();
    for (w, h) in [(80, 24), (160, 48)] {
        for no_color in [false, true] {
            let (mut m, _store) = loaded_model();
            m.update(Msg::Resize(w, h));
            open_panel(&mut m, &sel);
            let theme = Theme::builtin("dark", no_color).expect("theme");
            let tag = if no_color { "nocolor" } else { "color" };
            insta::assert_snapshot!(
                format!("similar_{w}x{h}_{tag}"),
                scrub(&render(&m, &theme, w, h))
            );
        }
    }
}

#[test]
fn the_panel_lists_neighbours_by_cosine_and_enter_selects_one() {
    let sel = model_embedder();
    let (mut m, store) = loaded_model();
    let id = open_panel(&mut m, &sel);
    let s = m.similar.result.clone().expect("neighbours");
    assert_eq!(s.task_id, id);
    assert_eq!(s.neighbours.len(), m.tuples.rows.len() - 1);
    assert!(s.neighbours.windows(2).all(|w| w[0].cosine >= w[1].cosine));
    assert!(s.neighbours.iter().all(|n| n.task_id != id));
    // j moves in the panel, not in the list; enter selects that tuple in the list and closes it.
    let before = m.tuples.selected;
    keys(&mut m, &store, "j");
    assert_eq!(m.similar.selected, 1);
    assert_eq!(m.tuples.selected, before);
    keys(&mut m, &store, "enter");
    assert!(!m.similar.open);
    assert_eq!(m.screen, Screen::Tuples);
    assert_eq!(
        m.tuples.selected_id(),
        Some(s.neighbours[1].task_id.as_str())
    );
    // `=` twice on the same tuple closes the panel again; esc closes it too.
    open_panel(&mut m, &sel);
    assert!(m.similar.open);
    let eq = parse_keys("=").expect("key")[0];
    m.update(Msg::Key(eq));
    assert!(!m.similar.open);
    open_panel(&mut m, &sel);
    keys(&mut m, &store, "esc");
    assert!(!m.similar.open);
}

#[test]
fn an_error_is_shown_in_the_panel() {
    let (mut m, store) = loaded_model();
    // The fixture pump answers LoadSimilar like a workbench without the similar worker.
    keys(&mut m, &store, "=");
    let id = m.similar.task_id.clone().expect("asked");
    m.update(Msg::Data(DataUpdate::Similar(Box::new(
        tuplewright::tui::similar_data::SimilarUpdate {
            task_id: id,
            result: Err("sentence-embedding model /x: broken".into()),
        },
    ))));
    let theme = Theme::builtin("dark", true).expect("theme");
    let text = render(&m, &theme, 100, 30);
    assert!(text.contains("cannot list neighbours"), "{text}");
}
