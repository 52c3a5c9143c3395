//! The fixture store (built once per test binary by the real loop with scripted agents, one job so
//! the event order is deterministic) and helpers that drive a model synchronously.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tuplewright::engine::store::{Event, Store};
use tuplewright::tui::data::{DataUpdate, EngineCommand};
use tuplewright::tui::keymap::{parse_keys, Keymap};
use tuplewright::tui::matcher::{compute_view, new_matcher};
use tuplewright::tui::model::{Model, Msg};
use tuplewright::tui::theme::Theme;
use tuplewright::tui::view;
use tuplewright::tui::worker::{handle, poll_events};

static FIXTURE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();

/// Tasks taken from crates/engine/src/apps/team_chat/tasks.json for the fixture.
const TASKS: usize = 4;

/// The fixture store path: the first tasks of team-chat.json run through `tuplewright run`.
pub fn store_path() -> &'static Path {
    let (_, path) = FIXTURE.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let all: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("crates/engine/src/apps/team_chat/tasks.json"))
                .expect("read tasks"),
        )
        .expect("parse tasks");
        let tasks: Vec<_> = all["tasks"]
            .as_array()
            .expect("tasks array")
            .iter()
            .take(TASKS)
            .cloned()
            .collect();
        let file = dir.path().join("fixture-tasks.json");
        std::fs::write(&file, serde_json::json!({ "tasks": tasks }).to_string())
            .expect("write tasks");
        let store = dir.path().join("fixture.db");
        let out = assert_cmd::Command::cargo_bin("tuplewright")
            .expect("binary")
            .args(["--no-tui", "--store"])
            .arg(&store)
            .args(["run", "--jobs", "1", "--no-export"])
            .arg(&file)
            .timeout(Duration::from_secs(300))
            .output()
            .expect("run the loop");
        assert!(
            out.status.success(),
            "fixture run failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (dir, store)
    });
    path
}

/// Opens the fixture store.
pub fn open() -> Store {
    Store::open(store_path(), Duration::from_secs(5)).expect("open fixture store")
}

/// Runs commands as the workers would, feeding every result back, until nothing is left.
pub fn pump(model: &mut Model, store: &Store, cmds: Vec<EngineCommand>) {
    let mut queue = cmds;
    let mut matcher = new_matcher();
    while let Some(cmd) = (!queue.is_empty()).then(|| queue.remove(0)) {
        let updates = match &cmd {
            EngineCommand::View(spec) => vec![DataUpdate::View(compute_view(spec, &mut matcher))],
            other => handle(store, other),
        };
        for u in updates {
            queue.extend(model.update(Msg::Data(u)));
        }
    }
}

/// Reads the whole event log into the model (as the store worker's polling does).
pub fn pump_events(model: &mut Model, store: &Store) {
    let mut seq = 0;
    loop {
        let (update, next) = poll_events(store, seq);
        let Some(u) = update else { break };
        seq = next;
        let cmds = model.update(Msg::Data(u));
        pump(model, store, cmds);
    }
}

/// A model loaded from the fixture store (rows, view, stats, events).
pub fn loaded_model() -> (Model, Store) {
    let store = open();
    let mut model = Model::new(Keymap::default(), false);
    let init = model.init();
    pump(&mut model, &store, init);
    pump_events(&mut model, &store);
    (model, store)
}

/// Feeds a key string (`"2 j enter"`, keys separated by spaces) and pumps the commands.
pub fn keys(model: &mut Model, store: &Store, seq: &str) -> Vec<EngineCommand> {
    let mut all = Vec::new();
    for k in parse_keys(seq).expect("valid key string") {
        let cmds = model.update(Msg::Key(k));
        all.extend(cmds.clone());
        pump(model, store, cmds);
    }
    all
}

/// An event at `secs` seconds after 10:00 on 2026-01-01.
pub fn ev(
    seq: i64,
    secs: u32,
    kind: &str,
    task: Option<&str>,
    payload: serde_json::Value,
) -> Event {
    Event {
        seq,
        time: format!("2026-01-01T10:{:02}:{:02}Z", secs / 60, secs % 60),
        kind: kind.into(),
        task_id: task.map(str::to_string),
        payload,
    }
}

/// Feeds events to the model.
pub fn feed(m: &mut Model, events: Vec<Event>) {
    m.update(Msg::Data(DataUpdate::Events(events)));
}

/// The screen as text (dark theme, no colour).
pub fn screen_text(m: &Model, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    let theme = Theme::builtin("dark", true).expect("theme");
    term.draw(|f| view::draw(f, m, &theme, "t.db"))
        .expect("draw");
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}
