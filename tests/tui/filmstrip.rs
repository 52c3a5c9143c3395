//! The filmstrip of a stored screen trial: stepping with the registered actions, each step's frame
//! loaded by the store worker with the click drawn into it, the step's action, time, error and
//! the model's reply of its turn; the judge, tokens and cost and the batch's A.4.2 line; the live
//! trial followed from `rollout.step` events; snapshots at 80×24 and 160×48 (half-blocks).

use serde_json::json;
use tuplewright::engine::rollout::live_steps::STEP_EVENT;
use tuplewright::tui::action::{Action, Screen};
use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::filmstrip_data::LIVE;
use tuplewright::tui::model::Msg;
use tuplewright::tui::rollouts_data::Screenshot;
use tuplewright::tui::theme::Theme;

use super::film_fixture::{loaded_film_model, png, CLICK, FILM_POLICY};
use super::fixture::{ev, feed, keys, pump};
use super::rollout_fixture::{copy_path, render, snap_with};

fn text(m: &tuplewright::tui::model::Model, w: u16, h: u16) -> String {
    render(m, &Theme::builtin("dark", true).expect("theme"), w, h)
}

/// The frame held for the step shown, as an image.
fn frame_image(m: &tuplewright::tui::model::Model) -> image::RgbaImage {
    match m.rollouts.current_frame().map(|f| &f.shot) {
        Some(Screenshot::Image(_, img)) => img.to_rgba8(),
        other => panic!("expected a loaded frame, got {other:?}"),
    }
}

#[test]
fn stepping_through_a_stored_trial_loads_each_frame_with_its_action_marked() {
    let (mut m, store) = loaded_film_model(false);
    m.update(Msg::Resize(160, 48));
    keys(&mut m, &store, "7 G");
    assert_eq!(m.screen, Screen::Rollouts);
    let row = m.rollouts.selected_row().expect("row").clone();
    assert_eq!(row.model, FILM_POLICY);
    assert_eq!(m.rollouts.steps().len(), 5, "the trial's stored steps");
    assert_eq!(m.rollouts.step, 4, "the filmstrip opens on the last step");
    // terminate took no screenshot: its frame is the failed click's (green) screen.
    assert_eq!(frame_image(&m).get_pixel(10, 10).0[..3], [40, 200, 60]);
    assert!(text(&m, 160, 48).contains("step 5/5"));
    let cmds = keys(&mut m, &store, "0");
    assert_eq!(m.rollouts.step, 0);
    assert!(
        matches!(cmds.as_slice(), [EngineCommand::LoadFrame(r)] if r.key == (row.id, 0)),
        "one frame request: {cmds:?}"
    );
    let screen = text(&m, 160, 48);
    assert!(
        screen.contains("step 1/5") && screen.contains("screenshot"),
        "{screen}"
    );
    // Step 2: the click, shown on the screen it was made on (step 1's), marked where it clicked.
    keys(&mut m, &store, ")");
    let img = frame_image(&m);
    let (x, y) = (CLICK.0 as u32, CLICK.1 as u32);
    assert_eq!(
        img.get_pixel(x, y).0,
        [255, 0, 200, 255],
        "the crosshair's centre"
    );
    assert_eq!(
        img.get_pixel(10, 10).0[..3],
        [240, 240, 240],
        "the frame is step 1's"
    );
    let screen = text(&m, 160, 48);
    for want in [
        "step 2/5",
        "left_click (160, 96)",
        "at 1.2 s · 40 ms",
        "screen as of step 1",
        "model reply (turn 1)",
        "Thought: open #general and type.",
    ] {
        assert!(screen.contains(want), "`{want}` missing:\n{screen}");
    }
    // Step 4 failed: its error is shown with the reply of its turn.
    keys(&mut m, &store, ") )");
    let screen = text(&m, 160, 48);
    assert!(
        screen.contains("✗ error: coordinate outside the screen"),
        "{screen}"
    );
    assert!(screen.contains("model reply (turn 2)"), "{screen}");
    // Bounded at both ends; `$` is the last step.
    keys(&mut m, &store, ") ) ) )");
    assert_eq!(m.rollouts.step, 4);
    keys(&mut m, &store, "0 ( (");
    assert_eq!(m.rollouts.step, 0);
    keys(&mut m, &store, "$");
    assert_eq!(m.rollouts.step, 4);
    // The step actions are registered (help, palette, keymap files).
    for name in [
        "step_next",
        "step_prev",
        "step_first",
        "step_last",
        "watch_live",
    ] {
        assert!(tuplewright::tui::action::by_name(name).is_some(), "{name}");
    }
    assert_eq!(
        m.keymap.keys_of(Action::StepNext).to_vec(),
        vec![")".to_string()]
    );
}

#[test]
fn the_finished_trial_shows_the_judge_tokens_cost_and_the_batch_rule() {
    let (mut m, store) = loaded_film_model(false);
    keys(&mut m, &store, "7 G");
    // Wide enough that no line of the summary wraps; then scrolled past the filmstrip lines.
    let mut screen = text(&m, 300, 60);
    keys(&mut m, &store, "} } } } }");
    screen.push_str(&text(&m, 300, 60));
    for want in [
        "judge verdict 0.80 by judge-stand-in",
        "The message is in #general.",
        "tokens in 6000 · out 150 · policy $0.0060 · judge $0.0010 · total $0.0070",
        "batch of 1 trial(s): reward mean 1.00 · judge mean 0.80 · gap 0.20 vs δ 0.25",
        "turn 2: 1 action(s) · 2000/50 tokens · ✗ Action 1 failed",
    ] {
        assert!(screen.contains(want), "`{want}` missing:\n{screen}");
    }
}

#[test]
fn a_running_trial_is_watched_live_from_its_step_events() {
    let (mut m, mut store) = loaded_film_model(false);
    keys(&mut m, &store, "7");
    let (_, first) = copy_path();
    // A live step's screenshot is a file of the store's screenshot directory, written first.
    let sha = store
        .write(|tx| tx.put_screenshot_file(&png([40, 80, 220])))
        .expect("write the live screenshot");
    let step = |seq: u32, shot: Option<&str>, reply: Option<&str>, action: serde_json::Value| {
        json!({"policy": "vlm:openai:live", "trial": 1, "seq": seq, "action": action,
               "at_ms": 100 * seq, "duration_ms": 7, "error": null, "screenshot": shot,
               "reply": reply})
    };
    feed(
        &mut m,
        vec![ev(
            9001,
            0,
            "rollout.trial",
            Some(first),
            json!({"trial": 1, "of": 2, "policy": "vlm:openai:live"}),
        )],
    );
    assert!(m.rollouts.live.is_some());
    assert!(
        !m.rollouts.watching(),
        "not launched here: offered, not forced"
    );
    let screen = text(&m, 160, 48);
    assert!(
        screen.contains("● live") && screen.contains("(W watch)"),
        "{screen}"
    );
    keys(&mut m, &store, "W");
    assert!(m.rollouts.watching());
    let click = json!({"action": "left_click", "x": 20, "y": 30});
    let cmds = m.update(Msg::Data(tuplewright::tui::data::DataUpdate::Events(vec![
        ev(
            9002,
            1,
            STEP_EVENT,
            Some(first),
            step(0, Some(&sha), None, json!({"action": "screenshot"})),
        ),
        ev(
            9003,
            2,
            STEP_EVENT,
            Some(first),
            step(1, None, Some("Thought: click the field"), click),
        ),
    ])));
    assert!(
        cmds.iter().any(
            |c| matches!(c, EngineCommand::LoadFrame(r) if r.key == (LIVE, 9003) && r.sha == sha)
        ),
        "the latest screenshot with the latest action: {cmds:?}"
    );
    pump(&mut m, &store, cmds);
    assert_eq!(
        frame_image(&m).get_pixel(20, 30).0,
        [255, 0, 200, 255],
        "marked"
    );
    let screen = text(&m, 160, 48);
    for want in [
        "● live · vlm:openai:live #1/2",
        "step 2",
        "left_click (20, 30)",
        "model's last reply",
        "Thought: click the field",
        "actions (2, newest last)",
    ] {
        assert!(screen.contains(want), "`{want}` missing:\n{screen}");
    }
    feed(
        &mut m,
        vec![ev(
            9004,
            3,
            "rollout.recorded",
            Some(first),
            json!({"id": 77, "model": "vlm:openai:live", "trial": 1, "reward": 0.5}),
        )],
    );
    assert!(text(&m, 160, 48).contains("✔ recorded, reward 0.50"));
    keys(&mut m, &store, "W");
    assert!(!m.rollouts.watching(), "back to the selected trial");
}

/// Issue #33: a trial recorded before any screen step (an oracle trial acts through the state
/// API) no longer keeps the live pane's "waiting for the first step…".
#[test]
fn a_trial_finished_without_steps_does_not_wait_for_a_first_step() {
    let (mut m, store) = loaded_film_model(false);
    keys(&mut m, &store, "7");
    let (_, first) = copy_path();
    feed(
        &mut m,
        vec![ev(
            9101,
            0,
            "rollout.trial",
            Some(first),
            json!({"trial": 1, "of": 1, "policy": "oracle"}),
        )],
    );
    keys(&mut m, &store, "W");
    assert!(text(&m, 160, 48).contains("waiting for the first step"));
    feed(
        &mut m,
        vec![ev(
            9102,
            1,
            "rollout.recorded",
            Some(first),
            json!({"id": 78, "model": "oracle", "trial": 1, "reward": 1.0}),
        )],
    );
    let screen = text(&m, 160, 48);
    assert!(screen.contains("✔ recorded, reward 1.00"), "{screen}");
    assert!(!screen.contains("waiting for the first step"), "{screen}");
    assert!(
        screen.contains("finished with no step on the screen"),
        "{screen}"
    );
}

#[test]
fn snapshot_filmstrip_steps() {
    snap_with("filmstrip_last", "7 G", loaded_film_model);
    snap_with("filmstrip_click", "7 G 0 )", loaded_film_model);
    snap_with("filmstrip_error", "7 G 0 ) ) )", loaded_film_model);
}

/// #33: `F` draws the step's frame over the whole screen (half-blocks sized to it here, the
/// terminal's protocol in a real terminal), `+` / `-` zoom into its centre (a new encoding of the
/// cropped frame), `F` goes back to the pane.
#[test]
fn the_frame_goes_full_screen_and_zooms() {
    let (mut m, store) = loaded_film_model(false);
    m.update(Msg::Resize(160, 48));
    keys(&mut m, &store, "7 G");
    // The rows the encoded picture was sized for (the image cache's area).
    let rows = |m: &tuplewright::tui::model::Model| {
        text(m, 160, 48);
        m.rollouts.image.ready_key().expect("encoded").1 .1
    };
    let pane = rows(&m);
    assert!(pane > 0 && pane <= 16, "the pane's picture: {pane} rows");
    keys(&mut m, &store, "F");
    assert!(m.rollouts.full);
    let full = rows(&m);
    assert!(
        full > 30,
        "full screen: {full} rows of picture (pane: {pane})"
    );
    let full_text = text(&m, 160, 48);
    assert!(full_text.contains("zoom 1×"), "caption");
    keys(&mut m, &store, "+");
    assert_eq!(m.rollouts.zoom, 2);
    let zoomed = text(&m, 160, 48);
    assert!(zoomed.contains("zoom 2×"));
    let key = m.rollouts.image.ready_key().expect("encoded");
    assert_eq!(key.0 .1 % 8, 2, "the encoding is the 2× crop: {key:?}");
    assert_ne!(zoomed, full_text, "the zoomed picture differs");
    keys(&mut m, &store, "+ + - F");
    assert_eq!(m.rollouts.zoom, 2, "4× at most, then back to 2×");
    assert!(!m.rollouts.full);
}
