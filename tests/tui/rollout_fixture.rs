//! A copy of the loop-built fixture store with rollout trials, made by the real `tuplewright
//! rollout` code path: oracle × 2 and noop × 1 on every tuple, and on the first tuple a `command`
//! teacher that fails (exit 3) and one that does nothing (scores 0 twice). A screen-capable policy
//! does not exist yet, so one trial with a screenshot (a PNG drawn here) is written through the
//! store's public write API, where such a policy would put it (`detail.screenshot`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::json;
use tuplewright::engine::store::{Rollout, Store};
use tuplewright::tui::keymap::Keymap;
use tuplewright::tui::model::Model;

use super::fixture::{pump, pump_events, store_path};

static COPY: OnceLock<(tempfile::TempDir, PathBuf, String)> = OnceLock::new();

/// Model name of the screenshot trial.
pub const SCREEN_POLICY: &str = "screen-fixture";

fn rollout(store: &Path, args: &[&str]) {
    let out = assert_cmd::Command::cargo_bin("tuplewright")
        .expect("binary")
        .args(["--no-tui", "--store"])
        .arg(store)
        .arg("rollout")
        .args(args)
        .timeout(Duration::from_secs(300))
        .output()
        .expect("run rollout");
    // Exit 1 is expected for the failing command (a failed trial); 2 would be a usage error.
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "rollout {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A 320×192 PNG: four coloured quadrants.
pub fn write_png(path: &Path) {
    let img = image::RgbImage::from_fn(320, 192, |x, y| match (x < 160, y < 96) {
        (true, true) => image::Rgb([220, 40, 40]),
        (false, true) => image::Rgb([40, 200, 60]),
        (true, false) => image::Rgb([40, 80, 220]),
        (false, false) => image::Rgb([240, 240, 240]),
    });
    img.save(path).expect("write png");
}

/// The copy's path and the first task id.
pub fn copy_path() -> (&'static Path, &'static str) {
    let (_, path, first) = COPY.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let copy = dir.path().join("rollouts.db");
        let first: String = {
            let src = Store::open(store_path(), Duration::from_secs(5)).expect("open fixture");
            src.conn()
                .sqlite()
                .unwrap()
                .execute("VACUUM INTO ?1", [copy.to_string_lossy()])
                .expect("copy the fixture store");
            src.conn()
                .sqlite()
                .unwrap()
                .query_row(
                    "SELECT task_id FROM tasks ORDER BY task_id LIMIT 1",
                    [],
                    |r| r.get(0),
                )
                .expect("a task")
        };
        rollout(&copy, &["--policy", "oracle", "--trials", "2"]);
        rollout(&copy, &["--policy", "noop"]);
        let cmd_args = |cmd: &'static str, trials: &'static str| {
            [
                "--policy",
                "command",
                "--command",
                cmd,
                "--trials",
                trials,
                "--tasks",
            ]
        };
        let mut a = cmd_args("echo acting; exit 3", "1").to_vec();
        a.push(&first);
        rollout(&copy, &a);
        let mut a = cmd_args("echo looked around", "2").to_vec();
        a.push(&first);
        rollout(&copy, &a);
        write_png(&dir.path().join("shot.png"));
        let mut store = Store::open(&copy, Duration::from_secs(5)).expect("open copy");
        let r = Rollout {
            task_id: first.clone(),
            model: SCREEN_POLICY.into(),
            trial: 1,
            reward: Some(0.3),
            judge_verdict: None,
            failure: None,
            detail: json!({"policy": SCREEN_POLICY, "kind": "teacher", "duration_ms": 2500,
                "actions": [{"action": "left_click", "x": 120, "y": 48},
                            {"action": "type", "text": "Friday 3pm"}],
                "transcript": "clicked #general, typed the announcement",
                "components": [{"name": "message posted in #general", "weight": 0.3, "score": 1.0,
                                "details": "1 new message"},
                               {"name": "message content", "weight": 0.7, "score": 0.0,
                                "details": "mentions 0/2"}],
                "screenshot": "shot.png"}),
            created_at: None,
        };
        store
            .write(|tx| tx.record_rollout(&r))
            .expect("record the screenshot trial");
        (dir, copy, first)
    });
    (path.as_path(), first.as_str())
}

/// Opens the copy.
pub fn open_copy() -> Store {
    Store::open(copy_path().0, Duration::from_secs(5)).expect("open copy")
}

/// A model loaded from the copy (rows, view, stats, events), like `fixture::loaded_model`.
pub fn loaded_model_with_rollouts(readonly: bool) -> (Model, Store) {
    let store = open_copy();
    let mut model = Model::new(Keymap::default(), readonly);
    let init = model.init();
    pump(&mut model, &store, init);
    pump_events(&mut model, &store);
    (model, store)
}

fn scrub(text: &str) -> String {
    let rules = [
        (r"\d\d:\d\d:\d\d", "HH:MM:SS"),
        (r" *\d+\.\ds\b", " N.Ns"),
        (r" *\d+\.\d tasks/min", " N.N tasks/min"),
        (r" *\d+ ?ms\b", " N ms"),
    ];
    rules.iter().fold(text.to_string(), |t, (re, to)| {
        regex::Regex::new(re)
            .expect("regex")
            .replace_all(&t, *to)
            .into_owned()
    })
}

/// Renders the workbench to a string (text plus styles).
pub fn render(model: &Model, theme: &tuplewright::tui::theme::Theme, w: u16, h: u16) -> String {
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("term");
    term.draw(|f| tuplewright::tui::view::draw(f, model, theme, "fixture.db"))
        .expect("draw");
    format!("{:?}", term.backend().buffer())
}

/// Snapshots after `setup` keys at 80×24 and 160×48, colour and NO_COLOR, on the copy.
pub fn snap_all(name: &str, setup: &str) {
    snap_with(name, setup, loaded_model_with_rollouts);
}

/// [`snap_all`] on the model `load` gives.
pub fn snap_with(name: &str, setup: &str, load: fn(bool) -> (Model, Store)) {
    for (w, h) in [(80, 24), (160, 48)] {
        for no_color in [false, true] {
            let (mut m, store) = load(false);
            m.update(tuplewright::tui::model::Msg::Resize(w, h));
            super::fixture::keys(&mut m, &store, setup);
            let theme = tuplewright::tui::theme::Theme::builtin("dark", no_color).expect("theme");
            let text = scrub(&render(&m, &theme, w, h));
            let tag = if no_color { "nocolor" } else { "color" };
            insta::assert_snapshot!(format!("{name}_{w}x{h}_{tag}"), text);
        }
    }
}
