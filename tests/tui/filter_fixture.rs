//! A copy of the loop-built fixture store with critic votes, recorded through the engine's filter
//! path (`filter::filter_task`: every vote stored, the aggregate recorded as a decision). Voters:
//! the shipped scripted heuristic critic plus two local stand-ins for LLM critics — one proposing
//! a reworded instruction, one whose provider always fails — so the store holds every kind of
//! outcome: a modify_query majority, plain scripted votes, and two tuples queued for a human
//! (too few valid votes), one of them with a revised query to prefill the editor with.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tuplewright::engine::filter::aggregate::Ballot;
use tuplewright::engine::filter::critic::{Critic, CriticInput, Review};
use tuplewright::engine::filter::scripted::ScriptedCritic;
use tuplewright::engine::filter::vote::{CriticVote, PoolFit, Severity, Verdict};
use tuplewright::engine::filter::{filter_task, Quorum};
use tuplewright::engine::store::{Store, TaskFilter};
use tuplewright::tui::data::{DataUpdate, EngineCommand};
use tuplewright::tui::keymap::{parse_keys, Keymap};
use tuplewright::tui::matcher::{compute_view, new_matcher};
use tuplewright::tui::model::{Model, Msg};
use tuplewright::tui::worker::handle_write;

use super::fixture::store_path;

/// Stand-in for an LLM critic that asks to reword the instruction.
struct RewordStandIn(f64, Severity);

impl Critic for RewordStandIn {
    fn name(&self) -> String {
        format!("stand-in-llm-{:.0}", self.0 * 100.0)
    }
    fn is_heuristic(&self) -> bool {
        false
    }
    fn review(&self, input: &CriticInput) -> Review {
        let first = input.instruction.split('.').next().unwrap_or_default();
        Review {
            ballot: Ballot::Valid(CriticVote {
                verdict: Verdict::ModifyQuery,
                severity: self.1,
                can_fix_with_query_only: true,
                query_issues: vec![serde_json::from_value(serde_json::json!({
                    "type": "ambiguous_target", "severity": "medium",
                    "evidence": "the instruction does not say which message counts"
                }))
                .expect("issue")],
                setup_reward_risks: Vec::new(),
                training_pool_fit: PoolFit::Good,
                confidence: self.0,
                reasoning_summary: "clear once the target is named".into(),
                revised_query: format!("{first} (confidence {:.2} rewording).", self.0),
            }),
            raw: String::new(),
            attempts: 1,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
        }
    }
}

/// Stand-in for an LLM critic whose provider is down.
struct DownStandIn(usize);

impl Critic for DownStandIn {
    fn name(&self) -> String {
        format!("stand-in-down-{}", self.0)
    }
    fn is_heuristic(&self) -> bool {
        false
    }
    fn review(&self, _: &CriticInput) -> Review {
        Review {
            ballot: Ballot::Failed("provider unreachable (stand-in)".into()),
            raw: String::new(),
            attempts: 3,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
        }
    }
}

/// A fresh copy of the fixture store with votes; returns (dir, path) — keep the dir alive.
pub fn voted_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("voted.db");
    let src = Store::open(store_path(), Duration::from_secs(5)).expect("fixture");
    src.conn()
        .sqlite()
        .unwrap()
        .execute("VACUUM INTO ?1", [path.to_string_lossy().as_ref()])
        .expect("copy the fixture store");
    drop(src);
    let mut store = Store::open(&path, Duration::from_secs(5)).expect("copy");
    let ids: Vec<String> = store
        .list_tasks(&TaskFilter::default())
        .expect("tasks")
        .into_iter()
        .map(|t| t.task.task_id)
        .collect();
    assert_eq!(ids.len(), 4, "the fixture has four tuples");
    let s = || Box::new(ScriptedCritic) as Box<dyn Critic>;
    let panels: [Vec<Box<dyn Critic>>; 4] = [
        vec![
            s(),
            Box::new(RewordStandIn(0.7, Severity::P2)),
            Box::new(RewordStandIn(0.9, Severity::P2)),
        ],
        vec![s(), Box::new(DownStandIn(1)), Box::new(DownStandIn(2))],
        vec![
            s(),
            Box::new(RewordStandIn(0.8, Severity::P3)),
            Box::new(DownStandIn(1)),
            Box::new(DownStandIn(2)),
            Box::new(DownStandIn(3)),
        ],
        vec![s()],
    ];
    for (id, critics) in ids.iter().zip(panels) {
        filter_task(&mut store, &critics, Quorum::Strict, id).expect("filter");
    }
    (dir, path)
}

/// Runs commands through the real store worker handler (decisions included), feeding results back.
pub fn pump_write(model: &mut Model, store: &mut Store, cmds: Vec<EngineCommand>, readonly: bool) {
    let mut queue = cmds;
    let mut matcher = new_matcher();
    while let Some(cmd) = (!queue.is_empty()).then(|| queue.remove(0)) {
        let updates = match &cmd {
            EngineCommand::View(spec) => vec![DataUpdate::View(compute_view(spec, &mut matcher))],
            other => handle_write(store, other, readonly),
        };
        for u in updates {
            queue.extend(model.update(Msg::Data(u)));
        }
    }
}

/// Feeds a key string and runs the commands through [`pump_write`]; returns the commands sent.
pub fn keys_w(model: &mut Model, store: &mut Store, seq: &str) -> Vec<EngineCommand> {
    let mut all = Vec::new();
    for k in parse_keys(seq).expect("valid key string") {
        let cmds = model.update(Msg::Key(k));
        all.extend(cmds.clone());
        pump_write(model, store, cmds, model.readonly);
    }
    all
}

/// Types `text` (spaces included) into whatever has the keys.
pub fn type_text(model: &mut Model, store: &mut Store, text: &str) {
    for c in text.chars() {
        let k = tuplewright::tui::keymap::Key::ch(c);
        let cmds = model.update(Msg::Key(k));
        pump_write(model, store, cmds, model.readonly);
    }
}

/// A model on `path` (rows, view, stats loaded), deciding as `curator`.
pub fn model_on(path: &Path, readonly: bool) -> (Model, Store) {
    let mut store = Store::open(path, Duration::from_secs(5)).expect("open copy");
    let mut model = Model::new(Keymap::default(), readonly);
    model.filter.actor = "curator".into();
    let init = model.init();
    pump_write(&mut model, &mut store, init, readonly);
    (model, store)
}
