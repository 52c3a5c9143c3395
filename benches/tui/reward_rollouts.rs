//! Frame times of the Reward and Rollouts screens (200×50 `TestBackend`) on the synthetic store,
//! after adding rollout trials: 5 per tuple (oracle ×2 and a teacher ×3 with four components,
//! one failed) for the first 400 tuples, 20,000 more spread over the store for the whole-store
//! list, and a 1280×800 PNG screenshot on the first tuple's teacher trials. Worker reads are not
//! timed (they run on the store thread); the first draw of a screenshot encodes it and is timed.

use std::path::Path;
use std::time::{Duration, Instant};

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::json;
use tuplewright::engine::store::{Rollout, Store, StoreError};
use tuplewright::tui::action::{Action, Screen};
use tuplewright::tui::keymap::Keymap;
use tuplewright::tui::model::{Model, Msg};
use tuplewright::tui::theme::Theme;
use tuplewright::tui::view;

use super::{median, ms, pump};

fn trial(task: &str, model: &str, n: i64, reward: Option<f64>, shot: Option<&Path>) -> Rollout {
    let comps: Vec<_> = (0..4)
        .map(|c| {
            json!({"name": format!("check {c} of the final state"), "weight": 0.25,
            "score": reward.unwrap_or(0.0), "details": "synthetic component detail text"})
        })
        .collect();
    let mut detail = json!({"policy": model, "duration_ms": 1234 + n,
        "actions": [{"action": "left_click", "x": 10, "y": 20}], "transcript": "synthetic\n".repeat(20),
        "components": comps, "reward_output": {"exit_code": 0, "stdout": "REWARD: 1.0\n", "stderr": ""}});
    if model == "oracle" {
        detail["kind"] = json!({"probe": {"expected": 1.0}});
    }
    if let Some(p) = shot {
        detail["screenshot"] = json!(p.display().to_string());
    }
    Rollout {
        task_id: task.into(),
        model: model.into(),
        trial: n,
        reward,
        judge_verdict: None,
        failure: reward
            .is_none()
            .then(|| "policy failed: synthetic".to_string()),
        detail,
        created_at: Some("2026-01-01T00:00:00.000Z".into()),
    }
}

/// Adds the trials described above; returns how many were written.
fn add_trials(path: &Path, shot: &Path) -> Result<usize, StoreError> {
    let mut store = Store::open(path, Duration::from_secs(5))?;
    let ids: Vec<String> = {
        let mut st = store
            .conn()
            .prepare("SELECT task_id FROM tasks ORDER BY task_id")?;
        let rows = st.query_map([], |r| r.get(0))?;
        rows.collect::<Result<_, StoreError>>()?
    };
    let mut n = 0;
    store.write(|tx| {
        for (i, id) in ids.iter().take(400).enumerate() {
            let s = (i == 0).then_some(shot);
            for t in 1..=2 {
                tx.record_rollout(&trial(id, "oracle", t, Some(1.0), None))?;
            }
            for t in 1..=3 {
                let r = if t == 3 { None } else { Some(0.5) };
                tx.record_rollout(&trial(id, "command:agent", t, r, s))?;
            }
            n += 5;
        }
        for i in 0..20_000 {
            let id = &ids[(i * 7919) % ids.len()];
            tx.record_rollout(&trial(id, "command:agent", 1, Some(0.25), None))?;
            n += 1;
        }
        Ok::<_, StoreError>(())
    })?;
    Ok(n)
}

fn report(name: &str, frames: Vec<Duration>) {
    let mut sorted = frames.clone();
    sorted.sort();
    let max = sorted.last().copied().unwrap_or_default();
    let p99 = sorted[sorted.len() * 99 / 100];
    println!(
        "frame 200x50 {name:<9}: median {:.3} ms, p99 {:.3} ms, max {:.3} ms (target < 8 ms)",
        ms(median(frames)),
        ms(p99),
        ms(max)
    );
}

/// Runs the Reward and Rollouts frame benchmarks on the synthetic store at `path`.
pub fn run(path: &Path, theme: &Theme) -> Result<(), Box<dyn std::error::Error>> {
    let shot = path.with_file_name("screenshot.png");
    image::RgbImage::from_fn(1280, 800, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    })
    .save(&shot)?;
    let t = Instant::now();
    let written = add_trials(path, &shot)?;
    println!(
        "rollout trials: {written} written in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let store = Store::open(path, Duration::from_secs(5))?;
    let mut model = Model::new(Keymap::default(), false);
    model.update(Msg::Resize(200, 50));
    // As in the real terminal: screenshots encode on their own thread.
    let (image_tx, image_rx) = std::sync::mpsc::channel();
    model.rollouts.image.start_background(image_tx)?;
    let init = model.init();
    pump(&mut model, &store, init);
    let mut term = Terminal::new(TestBackend::new(200, 50))?;

    // Reward: n through the first 300 tuples, focus moving across the cards.
    let cmds = model.act(Action::Tab(Screen::Reward));
    pump(&mut model, &store, cmds);
    let mut frames = Vec::new();
    for i in 0..300 {
        let a = match i % 3 {
            0 => Action::NextItem,
            1 => Action::CardNext,
            _ => Action::Down,
        };
        let cmds = model.act(a);
        pump(&mut model, &store, cmds);
        let t = Instant::now();
        term.draw(|f| view::draw(f, &model, theme, "synth.db"))?;
        frames.push(t.elapsed());
    }
    report("reward", frames);

    // Rollouts: back to the first tuple (screenshot), j/k through its trials, n to the next
    // tuples, then the whole-store list.
    let cmds = model.act(Action::Top);
    pump(&mut model, &store, cmds);
    model.tuples.jump(false);
    let cmds = model.act(Action::Tab(Screen::Rollouts));
    pump(&mut model, &store, cmds);
    let mut frames = Vec::new();
    let mut load = Vec::new();
    for i in 0..300 {
        let a = match i {
            150 => Action::ToggleScope,
            _ if i % 10 == 9 && i < 150 => Action::NextItem,
            _ if i % 10 < 5 => Action::Down,
            _ => Action::Up,
        };
        let t = Instant::now();
        let cmds = model.act(a);
        pump(&mut model, &store, cmds);
        if a == Action::ToggleScope {
            load.push(t.elapsed());
        }
        let t = Instant::now();
        term.draw(|f| view::draw(f, &model, theme, "synth.db"))?;
        frames.push(t.elapsed());
    }
    report("rollouts", frames);
    println!(
        "whole-store trial list ({} rows) load (store worker): {:.1} ms",
        model.rollouts.list.as_ref().map_or(0, |l| l.rows.len()),
        ms(median(load))
    );
    // The first draw of a screenshot encodes it (half-blocks here); later draws reuse it.
    model.tuples.jump(false);
    let cmds = model.act(Action::ToggleScope);
    pump(&mut model, &store, cmds);
    for a in [Action::Top, Action::Down, Action::Down] {
        let cmds = model.act(a);
        pump(&mut model, &store, cmds);
    }
    let has_shot = model
        .rollouts
        .detail
        .as_ref()
        .is_some_and(|d| d.screenshot.is_some());
    let (mut request, mut latency, mut cached) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..7 {
        model.rollouts.image.clear();
        while image_rx.try_recv().is_ok() {}
        let t = Instant::now();
        term.draw(|f| view::draw(f, &model, theme, "synth.db"))?;
        request.push(t.elapsed());
        image_rx.recv_timeout(Duration::from_secs(10))?;
        latency.push(t.elapsed());
        let t = Instant::now();
        term.draw(|f| view::draw(f, &model, theme, "synth.db"))?;
        cached.push(t.elapsed());
    }
    println!(
        "rollouts screenshot (1280x800 PNG, shown {has_shot}, half-blocks): frame requesting the \
         encoding median {:.3} ms, encoded in the background after {:.1} ms, frame with the \
         encoded image median {:.3} ms",
        ms(median(request)),
        ms(median(latency)),
        ms(median(cached))
    );
    Ok(())
}
