//! What the State diff screen reads from the store (on the store worker, never on the draw path):
//! every round of a tuple with its stored initial/golden states, and the final state of each
//! rollout trial.

use tuplewright_base::store::db::params;

use tuplewright_base::store::{RolloutStates, Store, StoreError, StoredState};

/// One round's stored states.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundStates {
    /// Round row id.
    pub round_id: i64,
    /// Round number.
    pub round_no: i64,
    /// Where the round came from (`loop`, `verify`, `refine`, `import`, `synthetic`).
    pub source: String,
    /// Whether initial_setup.py succeeded on V_init (`None` when it never ran).
    pub setup_ok: Option<bool>,
    /// Whether golden_patch.py succeeded on V_gold (`None` when it never ran).
    pub golden_ok: Option<bool>,
    /// Initial then golden states, environments by name (empty before schema v5).
    pub states: Vec<StoredState>,
}

/// Every stored state of one tuple.
#[derive(Debug, Clone, PartialEq)]
pub struct TupleStates {
    /// The task.
    pub task_id: String,
    /// Its rounds, oldest first.
    pub rounds: Vec<RoundStates>,
    /// Rollout trials that stored a final state, oldest first.
    pub trials: Vec<RolloutStates>,
}

/// Loads the rounds (with their states) and rollout final states of `task_id`.
pub fn load_states(store: &Store, task_id: &str) -> Result<TupleStates, StoreError> {
    // `MIN` over 0/1, not over booleans: PostgreSQL has no `min(boolean)`.
    let mut stmt = store.conn().prepare_cached(
        "SELECT r.id, r.round_no, r.source, \
           (SELECT MIN(CASE WHEN exit_code = 0 AND failure IS NULL THEN 1 ELSE 0 END) FROM script_runs s \
             WHERE s.round_id = r.id AND s.script = 'setup'), \
           (SELECT MIN(CASE WHEN exit_code = 0 AND failure IS NULL THEN 1 ELSE 0 END) FROM script_runs s \
             WHERE s.round_id = r.id AND s.script = 'golden') \
         FROM rounds r WHERE r.task_id = ?1 ORDER BY r.round_no",
    )?;
    type Head = (i64, i64, String, Option<bool>, Option<bool>);
    let heads: Vec<Head> = stmt
        .query_map(params![task_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<Result<_, tuplewright_base::store::StoreError>>()?;
    let mut rounds = Vec::with_capacity(heads.len());
    for (round_id, round_no, source, setup_ok, golden_ok) in heads {
        rounds.push(RoundStates {
            round_id,
            round_no,
            source,
            setup_ok,
            golden_ok,
            states: store.round_states(round_id)?,
        });
    }
    Ok(TupleStates {
        task_id: task_id.to_string(),
        rounds,
        trials: store.rollout_states(task_id)?,
    })
}
