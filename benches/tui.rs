//! Workbench render benchmark on a synthetic store of 100,000 tuples (`TW_BENCH_TUI_N` overrides):
//! - first frame: open the store, load the rows, compute the view, draw the Tuples screen;
//! - frame time: 200×50 `TestBackend` draws of each screen while the selection moves;
//! - fuzzy filter latency: the view computation for typed queries.
//!
//! Targets (issue 7): first frame < 300 ms, any frame < 8 ms, fuzzy results < 50 ms. Prints medians.

use std::time::{Duration, Instant};

// reward & rollouts screens
#[path = "tui/reward_rollouts.rs"]
mod reward_rollouts;

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tuplewright::engine::store::Store;
use tuplewright::engine::synth;
use tuplewright::tui::action::Action;
use tuplewright::tui::data::{DataUpdate, EngineCommand};
use tuplewright::tui::keymap::Keymap;
use tuplewright::tui::matcher::{compute_view, new_matcher, ViewSpec};
use tuplewright::tui::model::{Model, Msg, FIRST_PAGE};
use tuplewright::tui::theme::Theme;
use tuplewright::tui::view;
use tuplewright::tui::worker::{handle, history_start, poll_events};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Feeds worker results into the model, running view and store commands synchronously.
fn pump(model: &mut Model, store: &Store, cmds: Vec<EngineCommand>) {
    let mut queue = cmds;
    let mut matcher = new_matcher();
    while !queue.is_empty() {
        let cmd = queue.remove(0);
        let updates = match &cmd {
            EngineCommand::View(spec) => vec![DataUpdate::View(compute_view(spec, &mut matcher))],
            EngineCommand::LoadStats => Vec::new(), // off the first-frame path (its own thread)
            other => handle(store, other),
        };
        for u in updates {
            queue.extend(model.update(Msg::Data(u)));
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::var("TW_BENCH_TUI_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("synth.db");
    let t = Instant::now();
    let mut store = Store::open(&path, Duration::from_secs(5))?;
    let written = synth::populate(&mut store, n, 7)?;
    drop(store);
    println!(
        "synthetic store: {written} tuples written in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let theme = Theme::builtin("dark", false)?;

    // First frame: start-up to the first drawn tuple list (the model's first command is a page of
    // rows; the whole list follows from the worker thread).
    let mut firsts = Vec::new();
    let mut fulls = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let store = Store::open(&path, Duration::from_secs(5))?;
        let mut model = Model::new(Keymap::default(), false);
        model.update(Msg::Resize(200, 50));
        pump(
            &mut model,
            &store,
            vec![EngineCommand::LoadRowsPage(FIRST_PAGE)],
        );
        let mut term = Terminal::new(TestBackend::new(200, 50))?;
        term.draw(|f| view::draw(f, &model, &theme, "synth.db"))?;
        firsts.push(t.elapsed());
        assert_eq!(
            model.tuples.view.len(),
            FIRST_PAGE.min(written),
            "first frame shows rows"
        );
        let t = Instant::now();
        pump(&mut model, &store, vec![EngineCommand::LoadRows]);
        fulls.push(t.elapsed());
    }
    println!(
        "first frame (open + first page + view + draw): median {:.1} ms (target < 300 ms)",
        ms(median(firsts))
    );
    println!(
        "whole list with rewards + view (worker threads): median {:.1} ms",
        ms(median(fulls))
    );

    // Steady-state frames on every screen.
    let store = Store::open(&path, Duration::from_secs(5))?;
    let mut model = Model::new(Keymap::default(), false);
    model.update(Msg::Resize(200, 50));
    let init = model.init();
    pump(&mut model, &store, init);
    if let Ok(stats) = tuplewright::tui::data::load_stats(&store) {
        model.update(Msg::Data(DataUpdate::Stats(Box::new(stats))));
    }
    let (events, _) = poll_events(&store, history_start(&store));
    if let Some(e) = events {
        let cmds = model.update(Msg::Data(e));
        pump(&mut model, &store, cmds);
    }
    let open = model.act(Action::Open);
    pump(&mut model, &store, open);
    let mut term = Terminal::new(TestBackend::new(200, 50))?;
    for (name, screen) in [
        (
            "tuples",
            Action::Tab(tuplewright::tui::action::Screen::Tuples),
        ),
        (
            "inspector",
            Action::Tab(tuplewright::tui::action::Screen::Inspector),
        ),
        ("live", Action::Tab(tuplewright::tui::action::Screen::Live)),
        (
            "stats",
            Action::Tab(tuplewright::tui::action::Screen::Stats),
        ),
    ] {
        model.act(screen);
        let mut frames = Vec::new();
        for i in 0..300 {
            model.act(if i % 50 < 25 {
                Action::Down
            } else {
                Action::PageDown
            });
            let t = Instant::now();
            term.draw(|f| view::draw(f, &model, &theme, "synth.db"))?;
            frames.push(t.elapsed());
        }
        let max = frames.iter().max().copied().unwrap_or_default();
        let mut sorted = frames.clone();
        sorted.sort();
        let p99 = sorted[sorted.len() * 99 / 100];
        println!(
            "frame 200x50 {name:<9}: median {:.3} ms, p99 {:.3} ms, max {:.3} ms (target < 8 ms)",
            ms(median(frames)),
            ms(p99),
            ms(max)
        );
    }

    // Fuzzy filter latency over every tuple.
    let mut matcher = new_matcher();
    let rows = model.tuples.rows.clone();
    for q in ["open", "spreadsheet sum", "synth_004242", "xyzzy"] {
        let mut times = Vec::new();
        let mut hits = 0;
        for g in 0..7 {
            let spec = ViewSpec {
                generation: g,
                rows: rows.clone(),
                query: q.into(),
                status: None,
                difficulty: None,
                app: None,
                sort: Default::default(),
                reverse: false,
            };
            let t = Instant::now();
            hits = compute_view(&spec, &mut matcher).indices.len();
            times.push(t.elapsed());
        }
        println!(
            "fuzzy {q:<16} over {} rows: median {:.1} ms, {hits} hits (target < 50 ms)",
            rows.len(),
            ms(median(times))
        );
    }
    // reward & rollouts screens
    reward_rollouts::run(&path, &theme)?;
    Ok(())
}
