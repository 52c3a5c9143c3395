//! A copy of the rollouts fixture with one screen trial of a VLM teacher stored the way the stage
//! stores it (`record_rollout` + `record_steps` in one transaction, screenshots content-addressed
//! beside the store): the first observation, a click and a typed text ending turn 1, a click
//! outside the screen failing turn 2, and `terminate` in turn 3; the detail carries the turns'
//! replies, tokens and cost, and a judge verdict with its reasoning.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::json;
use tuplewright::engine::rollout::screen::ComputerAction;
use tuplewright::engine::rollout::trial::record_steps;
use tuplewright::engine::rollout::ui_plan::Step;
use tuplewright::engine::store::{Rollout, Store};
use tuplewright::tui::keymap::Keymap;
use tuplewright::tui::model::Model;

use super::fixture::{pump, pump_events};
use super::rollout_fixture::{copy_path, open_copy};

/// Model name of the filmstrip trial.
pub const FILM_POLICY: &str = "vlm:openai:stand-in";
/// Where step 1 clicked (screen pixels of the 320×192 frames).
pub const CLICK: (i32, i32) = (160, 96);

static FILM: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();

/// A 320×192 PNG of one colour.
pub fn png(rgb: [u8; 3]) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(320, 192, image::Rgb(rgb));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("encode png");
    out.into_inner()
}

fn step(action: ComputerAction, at_ms: u64, error: Option<&str>, shot: Option<[u8; 3]>) -> Step {
    Step {
        action,
        at_ms,
        duration_ms: 40,
        error: error.map(str::to_string),
        settle_ms: None,
        screenshot_png: shot.map(png),
    }
}

/// The copy's path.
pub fn film_path() -> &'static Path {
    let (_, path) = FILM.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("film.db");
        open_copy()
            .conn()
            .sqlite()
            .expect("sqlite")
            .execute("VACUUM INTO ?1", [path.to_string_lossy()])
            .expect("copy");
        let (_, first) = copy_path();
        let (x, y) = CLICK;
        let click = ComputerAction::LeftClick { x, y };
        let typed = ComputerAction::Type {
            text: "Friday 3pm".into(),
        };
        let outside = ComputerAction::LeftClick { x: 5000, y: 10 };
        let done = ComputerAction::Terminate { success: true };
        let steps = vec![
            step(ComputerAction::Screenshot, 0, None, Some([240, 240, 240])),
            step(click.clone(), 1200, None, None),
            step(typed.clone(), 1300, None, Some([40, 80, 220])),
            step(
                outside.clone(),
                2500,
                Some("coordinate outside the screen"),
                Some([40, 200, 60]),
            ),
            step(done.clone(), 3100, None, None),
        ];
        let turn = |n: u32, reply: &str, actions: Vec<&ComputerAction>, error: Option<&str>| {
            json!({"turn": n, "reply": reply, "actions": actions, "error": error,
                   "input_tokens": 1000 * n, "output_tokens": 50, "cost_usd": 0.002,
                   "model": "stand-in"})
        };
        let detail = json!({"policy": FILM_POLICY, "kind": "teacher", "duration_ms": 3300,
            "actions": [
                turn(1, "Thought: open #general and type.", vec![&click, &typed], None),
                turn(2, "Thought: press send.", vec![&outside],
                     Some("Action 1 failed: coordinate outside the screen")),
                turn(3, "Thought: done.", vec![&done], None),
            ],
            "transcript": "Thought: open #general and type.\n---\nThought: press send.\n---\nThought: done.",
            "policy_usage": {"model": "stand-in", "input_tokens": 6000, "output_tokens": 150,
                             "cost_usd": 0.006},
            "judge": {"score": 0.8, "reasoning": "The message is in #general.\nIt was not sent.",
                      "model": "judge-stand-in", "cost_usd": 0.001, "checklist": [],
                      "screenshots": 1}});
        let r = Rollout {
            task_id: first.to_string(),
            model: FILM_POLICY.into(),
            trial: 1,
            reward: Some(1.0),
            judge_verdict: Some("0.8000".into()),
            failure: None,
            detail,
            created_at: None,
        };
        let mut store = Store::open(&path, Duration::from_secs(5)).expect("open");
        store
            .write(|tx| {
                let id = tx.record_rollout(&r)?;
                record_steps(tx, id, &steps)
            })
            .expect("record the filmstrip trial");
        (dir, path)
    });
    path.as_path()
}

/// A model loaded from the filmstrip copy.
pub fn loaded_film_model(readonly: bool) -> (Model, Store) {
    let store = Store::open(film_path(), Duration::from_secs(5)).expect("open film copy");
    let mut model = Model::new(Keymap::default(), readonly);
    let init = model.init();
    pump(&mut model, &store, init);
    pump_events(&mut model, &store);
    (model, store)
}
