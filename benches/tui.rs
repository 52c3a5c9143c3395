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

    // State diff (states): realistic stored states (the team-chat seed and a provisioned files home,
    // golden = a few edits) on the selected tuple, then frames of the table and the tree.
    state_frames(&path, &mut model, &store, &theme)?;
    // filter screen: votes and the decision history of the tuples stepped through.
    bench_filter(&path, &mut model, &store, &theme)?;

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
                severity: None,
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

/// Filter screen: five critic votes on each of the first 20 listed tuples, then 200×50 frames
/// while stepping through them (n) and scrolling (j); the worker's load time is printed too.
fn bench_filter(
    path: &std::path::Path,
    model: &mut Model,
    store: &Store,
    theme: &Theme,
) -> Result<(), Box<dyn std::error::Error>> {
    use tuplewright::engine::store::Vote;
    use tuplewright::tui::action::Screen;
    let ids: Vec<String> = model
        .tuples
        .view
        .iter()
        .take(20)
        .map(|&i| model.tuples.rows[i as usize].id.clone())
        .collect();
    let mut writer = Store::open(path, Duration::from_secs(5))?;
    writer.write(|tx| {
        for id in &ids {
            for (n, verdict) in ["keep", "modify_query", "reject", "keep", "modify_query"]
                .iter()
                .enumerate()
            {
                let vote = serde_json::json!({
                    "verdict": verdict, "severity": format!("P{}", n % 4),
                    "can_fix_with_query_only": true,
                    "query_issues": [{"type": "vague", "severity": "low", "evidence": "which file is meant is unclear"}],
                    "setup_reward_risks": [{"type": "unasked_check", "severity": "medium", "evidence": "the reward checks the modification time"}],
                    "training_pool_fit": "good", "confidence": 0.5 + n as f64 / 10.0,
                    "reasoning_summary": "bench vote: a synthetic critic opinion of moderate length",
                    "revised_query": if *verdict == "modify_query" { "Rename the report to final.pdf in Documents." } else { "" },
                    "heuristic": false, "attempts": 1
                });
                tx.record_vote(&Vote {
                    task_id: id.clone(),
                    critic: format!("bench-critic-{n}"),
                    model: Some(format!("bench-model-{n}")),
                    vote,
                    created_at: None,
                })?;
            }
        }
        Ok::<_, tuplewright::engine::store::StoreError>(())
    })?;
    drop(writer);
    model.tuples.selected = 0;
    let cmds = model.act(Action::Tab(Screen::Filter));
    pump(model, store, cmds);
    let mut term = Terminal::new(TestBackend::new(200, 50))?;
    let (mut frames, mut loads) = (Vec::new(), Vec::new());
    for i in 0..300 {
        if i % 15 == 0 {
            let cmds = model.act(if i % 300 < 285 {
                Action::NextItem
            } else {
                Action::Top
            });
            let t = Instant::now();
            pump(model, store, cmds);
            loads.push(t.elapsed());
        } else {
            model.act(Action::Down);
        }
        let t = Instant::now();
        term.draw(|f| view::draw(f, model, theme, "synth.db"))?;
        frames.push(t.elapsed());
    }
    assert!(
        model.filter.current().is_some_and(|d| d.votes.len() == 5),
        "the filter screen shows the bench votes"
    );
    let mut sorted = frames.clone();
    sorted.sort();
    println!(
        "frame 200x50 filter   : median {:.3} ms, p99 {:.3} ms, max {:.3} ms (target < 8 ms); \
         worker load of one tuple's votes/outcome/history: median {:.1} ms",
        ms(median(frames)),
        ms(sorted[sorted.len() * 99 / 100]),
        ms(sorted[sorted.len() - 1]),
        ms(median(loads))
    );
    Ok(())
}

/// Stores initial/golden states for the selected tuple's latest round and times State diff frames.
fn state_frames(
    path: &std::path::Path,
    model: &mut Model,
    store: &Store,
    theme: &Theme,
) -> Result<(), Box<dyn std::error::Error>> {
    use tuplewright::engine::store::{StateEndpoint, StateSnapshot};
    let id = model.tuples.selected_id().ok_or("no tuple")?.to_string();
    let round_id = store.rounds(&id)?.last().ok_or("no round")?.id;
    let registry = tuplewright::engine::env::AppRegistry::builtin()?;
    let chat = registry.get("team-chat")?;
    let init = (*chat.seed).clone();
    let mut gold = init.clone();
    if let Some(chans) = gold["channels"].as_array_mut() {
        for c in chans.iter_mut().take(3) {
            c["topic"] = serde_json::json!("Release 2.4 freeze");
        }
    }
    gold["ui"] = serde_json::json!({"lastViewedAt": "2026-01-02"});
    let home = tempfile::tempdir()?;
    let home = home.path().join("home");
    tuplewright::engine::env::files::provision_home(&home, None)?;
    let files = tuplewright::engine::harness::snapshot::home_state(&home);
    let mut files_gold = files.clone();
    files_gold["Desktop/todo.md"]["text"] = serde_json::json!("- [x] done");
    let snap = |endpoint, env: &str, v: &serde_json::Value, volatile: &[String]| StateSnapshot {
        endpoint,
        env: env.into(),
        json: v.to_string(),
        volatile: volatile.to_vec(),
    };
    let vol = chat.manifest.volatile.clone();
    let mut writer = Store::open(path, Duration::from_secs(5))?;
    writer.write(|tx| {
        tx.record_round_states(
            round_id,
            &[
                snap(StateEndpoint::Initial, "team-chat", &init, &vol),
                snap(StateEndpoint::Golden, "team-chat", &gold, &vol),
                snap(StateEndpoint::Initial, "files", &files, &[]),
                snap(StateEndpoint::Golden, "files", &files_gold, &[]),
            ],
        )
    })?;
    drop(writer);
    tuplewright::tui::highlight::warm_up();
    let cmds = model.act(Action::Tab(tuplewright::tui::action::Screen::StateDiff));
    pump(model, store, cmds);
    let mut term = Terminal::new(TestBackend::new(200, 50))?;
    for (name, toggles) in [
        ("diff table", vec![]),
        (
            "diff tree",
            vec![Action::StateView, Action::StateSplit, Action::StateMasked],
        ),
    ] {
        for a in toggles {
            model.act(a);
        }
        let t = Instant::now();
        term.draw(|f| view::draw(f, model, theme, "synth.db"))?;
        let cold = t.elapsed();
        let mut frames = Vec::new();
        for i in 0..300 {
            model.act(match i % 60 {
                0..25 => Action::Down,
                25..30 => Action::PageDown,
                30..55 => Action::Up,
                _ => Action::PageUp,
            });
            let t = Instant::now();
            term.draw(|f| view::draw(f, model, theme, "synth.db"))?;
            frames.push(t.elapsed());
        }
        let mut sorted = frames.clone();
        sorted.sort();
        let p99 = sorted[sorted.len() * 99 / 100];
        let max = sorted.last().copied().unwrap_or_default();
        println!(
            "frame 200x50 {name:<10}: median {:.3} ms, p99 {:.3} ms, max {:.3} ms, first (cold highlight) {:.3} ms; {} lines (target < 8 ms)",
            ms(median(frames)),
            ms(p99),
            ms(max),
            ms(cold),
            model.state_diff.lines.len()
        );
    }
    Ok(())
}
