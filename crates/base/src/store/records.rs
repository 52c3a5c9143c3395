//! Plain data types stored in and read from the store.

use serde::{Deserialize, Serialize};

/// The task labels of the paper's scenario matrix (A.2.2) plus where the task came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Labels {
    /// desktop | web | cross.
    pub platform: Option<String>,
    /// Domain label (e.g. `Spreadsheet`, `Cross-Desktop`).
    pub domain: Option<String>,
    /// Applications / mock apps the task uses.
    pub apps: Vec<String>,
    /// easy | medium | hard.
    pub difficulty: Option<String>,
    /// Scenario category (e.g. `Spreadsheet & Data`).
    pub scenario: Option<String>,
    /// single_app | cross_app.
    pub task_type: Option<String>,
    /// Generation pass: breadth | gap_fill | edge_case.
    pub source_pass: Option<String>,
}

/// A task as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// `<domain>_<topic>_<NNN>`.
    pub task_id: String,
    /// The task instruction t.
    pub instruction: String,
    /// Natural-language description of the initial state and checkpoints.
    pub context: String,
    /// Scenario-matrix labels.
    pub labels: Labels,
    /// `app_type` of an imported public `config.json`, kept for a faithful re-export.
    pub app_type: Option<String>,
    /// The original input object, verbatim (task-gen entry or `task_config.json`).
    pub original_json: serde_json::Value,
    /// Where it came from (file path and index).
    pub origin: String,
}

/// A stored task with its bookkeeping columns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredTask {
    /// The task itself.
    #[serde(flatten)]
    pub task: TaskRecord,
    /// Current tuple status (derived from the latest decision).
    pub status: String,
    /// When first stored.
    pub created_at: String,
    /// When last changed.
    pub updated_at: String,
}

/// What [`super::Tx::upsert_task`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upsert {
    /// A new task.
    Inserted,
    /// An existing task whose content changed.
    Updated,
    /// Identical to what was stored.
    Unchanged,
}

/// Tuple statuses in pipeline order. Stored as their `snake_case` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TupleStatus {
    /// Imported, not yet through the loop.
    Pending,
    /// The agreement loop is running.
    InLoop,
    /// The loop did not converge.
    LoopFailed,
    /// The loop accepted the tuple; awaiting the critic vote.
    LoopAccepted,
    /// Critics voted to reject.
    VoteRejected,
    /// Waiting for a human (e.g. every critic call failed: fail closed).
    NeedsHuman,
    /// Passed the vote; awaiting teacher rollouts.
    Voted,
    /// Teacher rollouts found it infeasible or trivial.
    RolloutRejected,
    /// Verified, kept by the filter and the teacher rollouts: the curated corpus.
    Final,
    /// Dropped by a person or a policy.
    Dropped,
    /// Imported from a bundle this harness has not verified yet (never counted as verified).
    Imported,
    /// `verify` replayed it and C1–C5 or a probe failed (the reason is in the decision).
    VerifyFailed,
}

impl TupleStatus {
    /// Every status, in pipeline order.
    pub const ALL: [TupleStatus; 12] = [
        Self::Pending,
        Self::InLoop,
        Self::LoopFailed,
        Self::LoopAccepted,
        Self::VoteRejected,
        Self::NeedsHuman,
        Self::Voted,
        Self::RolloutRejected,
        Self::Final,
        Self::Dropped,
        Self::Imported,
        Self::VerifyFailed,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::InLoop => "in_loop",
            Self::LoopFailed => "loop_failed",
            Self::LoopAccepted => "loop_accepted",
            Self::VoteRejected => "vote_rejected",
            Self::NeedsHuman => "needs_human",
            Self::Voted => "voted",
            Self::RolloutRejected => "rollout_rejected",
            Self::Final => "final",
            Self::Dropped => "dropped",
            Self::Imported => "imported",
            Self::VerifyFailed => "verify_failed",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|x| x.as_str() == s)
    }

    /// True for tuples this harness has not verified (imported, or failed `verify`).
    pub fn unverified(self) -> bool {
        matches!(self, Self::Imported | Self::VerifyFailed)
    }

    /// True when the tuple got past the agreement loop (whatever happened later).
    pub fn passed_loop(self) -> bool {
        matches!(
            self,
            Self::LoopAccepted
                | Self::VoteRejected
                | Self::NeedsHuman
                | Self::Voted
                | Self::RolloutRejected
                | Self::Final
        )
    }
}

/// Who made a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionSource {
    /// A person (TUI or CLI).
    Human,
    /// A rule (the loop, the vote aggregation, import).
    Policy,
    /// An LLM judge.
    Llm,
}

impl DecisionSource {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Human => "human",
            Self::Policy => "policy",
            Self::Llm => "llm",
        }
    }
}

/// A status change, as stored (append-only).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    /// Row id (increasing).
    pub id: i64,
    /// The task.
    pub task_id: String,
    /// Who: a user name, `loop`, `vote`, `import`...
    pub actor: String,
    /// human | policy | llm.
    pub source: String,
    /// Status before.
    pub before: String,
    /// Status after.
    pub after: String,
    /// Why.
    pub reason: String,
    /// When.
    pub created_at: String,
    /// The decision this one undoes, if it is an undo.
    pub compensates: Option<i64>,
    /// The bulk decision it belongs to (issue #33), if any.
    pub group_id: Option<String>,
}

/// The scripts of one round (texts; stored content-addressed).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Scripts {
    /// initial_setup.py.
    pub setup: Option<String>,
    /// golden_patch.py.
    pub golden: Option<String>,
    /// reward.py.
    pub reward: Option<String>,
}

/// One execution of initial_setup.py or golden_patch.py.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScriptRun {
    /// `setup` or `golden`.
    pub script: String,
    /// Exit code; `None` when it never exited (killed, infra failure).
    pub exit_code: Option<i32>,
    /// Captured stdout.
    pub stdout: String,
    /// Captured stderr.
    pub stderr: String,
    /// Wall-clock duration.
    pub duration_ms: i64,
    /// Typed infrastructure failure (`timeout`, `sandbox`, ...), never folded into a score.
    pub failure: Option<String>,
}

/// One execution of reward.py on an endpoint.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RewardRun {
    /// `initial` or `golden`.
    pub endpoint: String,
    /// The parsed `REWARD:` value; `None` if none was produced.
    pub reward: Option<f64>,
    /// Per-component breakdown (`[{name, status, points, details}]`).
    pub components: serde_json::Value,
    /// Exit code.
    pub exit_code: Option<i32>,
    /// Captured stdout.
    pub stdout: String,
    /// Captured stderr.
    pub stderr: String,
    /// Wall-clock duration.
    pub duration_ms: i64,
    /// Typed infrastructure failure.
    pub failure: Option<String>,
}

/// Tokens spent by one agent call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Usage {
    /// taskgen | generator | discriminator | critic | rollout | judge.
    pub stage: String,
    /// The model name.
    pub model: String,
    /// Input tokens.
    pub input_tokens: i64,
    /// Output tokens.
    pub output_tokens: i64,
    /// Cost in USD at the configured provider prices (`None`: unknown, as on rows before v11).
    pub cost_usd: Option<f64>,
}

/// Everything about one adversarial round, recorded atomically by [`super::Tx::record_round`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundRecord {
    /// The task.
    pub task_id: String,
    /// Round number; `None` = one more than the last stored round.
    pub round_no: Option<i64>,
    /// `pass`, `fail` or `error`.
    pub verdict: String,
    /// `loop` or `import`.
    pub source: String,
    /// The round's scripts.
    pub scripts: Scripts,
    /// The round's REVIEW.md.
    pub review_md: String,
    /// Static-scan findings (JSON array).
    pub scan_findings: serde_json::Value,
    /// Model behind the Generator.
    pub generator_model: Option<String>,
    /// Model behind the Discriminator.
    pub discriminator_model: Option<String>,
    /// Start time (RFC 3339).
    pub started_at: String,
    /// End time (RFC 3339).
    pub finished_at: String,
    /// setup/golden executions.
    pub script_runs: Vec<ScriptRun>,
    /// reward executions.
    pub reward_runs: Vec<RewardRun>,
    /// Tokens spent in the round.
    pub usage: Vec<Usage>,
}

/// A stored round (scripts resolved from their hashes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredRound {
    /// Row id.
    pub id: i64,
    /// The round as recorded (with `round_no` filled in).
    #[serde(flatten)]
    pub round: RoundRecord,
    /// sha256 of setup, golden, reward.
    pub script_shas: [Option<String>; 3],
}

/// One critic vote (the critic's JSON is kept verbatim).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Vote {
    /// The task.
    pub task_id: String,
    /// Critic name.
    pub critic: String,
    /// Model behind the critic.
    pub model: Option<String>,
    /// The vote JSON (verdict, severity, confidence, training_pool_fit, ...).
    pub vote: serde_json::Value,
    /// When (RFC 3339); `None` = now.
    pub created_at: Option<String>,
}

/// One teacher rollout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rollout {
    /// The task.
    pub task_id: String,
    /// Teacher model.
    pub model: String,
    /// Trial number.
    pub trial: i64,
    /// reward.py score of the rollout; `None` if none (see `failure`).
    pub reward: Option<f64>,
    /// VLM judge verdict.
    pub judge_verdict: Option<String>,
    /// Typed infrastructure failure.
    pub failure: Option<String>,
    /// Further detail (trajectory path, step count...).
    pub detail: serde_json::Value,
    /// When (RFC 3339); `None` = now.
    pub created_at: Option<String>,
}
