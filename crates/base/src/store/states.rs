//! Stored environment states (schema v5): per round the initial and golden state of every
//! environment, per rollout trial its final state. The JSON text is content-addressed in `blobs`,
//! so a state that recurs (the seed, an unchanged app) is stored once.

use super::db::{params, Conn};

use super::blobs::get_blob;
use super::{Result, Store, StoreError, Tx};

/// Which point of a tuple's life a state was read at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StateEndpoint {
    /// After initial_setup.py on V_init (s_init).
    Initial,
    /// After initial_setup.py + golden_patch.py on V_gold (s_gold).
    Golden,
    /// After a rollout trial's policy acted.
    Final,
}

impl StateEndpoint {
    /// The stored name (`initial`, `golden`, `final`).
    pub fn as_str(self) -> &'static str {
        match self {
            StateEndpoint::Initial => "initial",
            StateEndpoint::Golden => "golden",
            StateEndpoint::Final => "final",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Result<Self> {
        Ok(match s {
            "initial" => StateEndpoint::Initial,
            "golden" => StateEndpoint::Golden,
            "final" => StateEndpoint::Final,
            other => {
                return Err(StoreError::Invalid(format!(
                    "state endpoint `{other}` (expected initial, golden or final)"
                )))
            }
        })
    }
}

/// One environment's state at one endpoint, as captured (before storing).
#[derive(Debug, Clone, PartialEq)]
pub struct StateSnapshot {
    /// The endpoint.
    pub endpoint: StateEndpoint,
    /// The environment: a web app's name, or `files` for the file-system domain.
    pub env: String,
    /// The state as compact JSON text.
    pub json: String,
    /// The environment's volatile (masked) key-path globs.
    pub volatile: Vec<String>,
}

/// One stored state, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredState {
    /// The endpoint.
    pub endpoint: StateEndpoint,
    /// The environment (app name or `files`).
    pub env: String,
    /// sha256 of the JSON text (the blob key).
    pub sha: String,
    /// The state.
    pub state: serde_json::Value,
    /// Volatile (masked) key-path globs.
    pub volatile: Vec<String>,
}

/// The final states of one rollout trial.
#[derive(Debug, Clone, PartialEq)]
pub struct RolloutStates {
    /// The rollout row id.
    pub rollout_id: i64,
    /// Teacher model (policy name).
    pub model: String,
    /// Trial number.
    pub trial: i64,
    /// One state per environment.
    pub states: Vec<StoredState>,
}

impl Tx<'_> {
    /// Stores the initial/golden states of round `round_id` (in this transaction, so together
    /// with the round itself). A `final` snapshot is refused: it belongs to a rollout.
    pub fn record_round_states(&self, round_id: i64, states: &[StateSnapshot]) -> Result<()> {
        for s in states {
            if s.endpoint == StateEndpoint::Final {
                return Err(StoreError::Invalid(format!(
                    "a round state must be initial or golden, got final for env `{}`",
                    s.env
                )));
            }
            self.insert_state(Some(round_id), None, s)?;
        }
        Ok(())
    }

    /// Stores the final states of rollout `rollout_id`. Only `final` snapshots are accepted.
    pub fn record_rollout_states(&self, rollout_id: i64, states: &[StateSnapshot]) -> Result<()> {
        for s in states {
            if s.endpoint != StateEndpoint::Final {
                return Err(StoreError::Invalid(format!(
                    "a rollout state must be final, got {} for env `{}`",
                    s.endpoint.as_str(),
                    s.env
                )));
            }
            self.insert_state(None, Some(rollout_id), s)?;
        }
        Ok(())
    }

    /// [`Tx::record_round`] followed by [`Tx::record_round_states`]: one round and its states.
    pub fn record_round_with_states(
        &self,
        round: &super::RoundRecord,
        states: &[StateSnapshot],
    ) -> Result<i64> {
        let id = self.record_round(round)?;
        self.record_round_states(id, states)?;
        Ok(id)
    }

    fn insert_state(
        &self,
        round_id: Option<i64>,
        rollout_id: Option<i64>,
        s: &StateSnapshot,
    ) -> Result<()> {
        let sha = self.put_blob(&s.json)?;
        self.tx
            .prepare_cached(
                "INSERT INTO state_snapshots (round_id, rollout_id, endpoint, env, state_sha, volatile) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                round_id,
                rollout_id,
                s.endpoint.as_str(),
                s.env,
                sha,
                serde_json::to_string(&s.volatile)?
            ])?;
        Ok(())
    }
}

impl Store {
    /// The stored states of a round (initial then golden, environments by name); empty for a
    /// round recorded before schema v5 or whose scripts failed before any state was read.
    pub fn round_states(&self, round_id: i64) -> Result<Vec<StoredState>> {
        load(
            &self.conn,
            "SELECT endpoint, env, state_sha, volatile FROM state_snapshots WHERE round_id = ?1 \
             ORDER BY endpoint = 'golden', env",
            round_id,
        )
    }

    /// The final states of every rollout trial of a task that has any, oldest trial first.
    pub fn rollout_states(&self, task_id: &str) -> Result<Vec<RolloutStates>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, model, trial FROM rollouts r WHERE task_id = ?1 AND EXISTS \
             (SELECT 1 FROM state_snapshots s WHERE s.rollout_id = r.id) ORDER BY id",
        )?;
        let heads: Vec<(i64, String, i64)> = stmt
            .query_map(params![task_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_>>()?;
        heads
            .into_iter()
            .map(|(rollout_id, model, trial)| {
                let states = load(
                    &self.conn,
                    "SELECT endpoint, env, state_sha, volatile FROM state_snapshots \
                     WHERE rollout_id = ?1 ORDER BY env",
                    rollout_id,
                )?;
                Ok(RolloutStates {
                    rollout_id,
                    model,
                    trial,
                    states,
                })
            })
            .collect()
    }
}

fn load(conn: &Conn, sql: &str, id: i64) -> Result<Vec<StoredState>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows: Vec<(String, String, String, String)> = stmt
        .query_map(params![id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?
        .collect::<Result<_>>()?;
    rows.into_iter()
        .map(|(endpoint, env, sha, volatile)| {
            let text = get_blob(conn, &sha)?
                .ok_or_else(|| StoreError::Invalid(format!("missing state blob {sha}")))?;
            Ok(StoredState {
                endpoint: StateEndpoint::parse(&endpoint)?,
                env,
                state: serde_json::from_str(&text)?,
                sha,
                volatile: serde_json::from_str(&volatile)?,
            })
        })
        .collect()
}
