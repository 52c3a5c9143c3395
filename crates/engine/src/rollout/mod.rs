//! Teacher rollouts (paper A.4.2): a policy acts on a fresh V_init, the harness scores the final
//! state with reward.py in the reader role (components kept) and, when configured, a judge scores
//! it from the instruction, a checklist distilled from it and the final state. Each trial is stored.
//!
//! - [`policy`]: the [`Policy`] trait, `oracle` (the golden patch: proves the reward is reachable),
//!   `noop` (does nothing: must score 0) and the screen-driving interface to come ([`screen`]).
//! - [`command`]: an external agent harness started with the instruction and environment handles.
//! - [`trial`]: one trial; [`judge`]: the optional LLM judge; [`inclusion`]: the A.4.2 rule;
//!   [`stage`]: N trials of one tuple, stored, and the stage's decision.
//! - [`live_steps`]: a running trial's steps published as they happen (`rollout.step`).
//! - [`vlm`]: VLM teachers through a screen (action formats, coordinate spaces, the step loop,
//!   three wire formats); [`spec`]: policy spec strings.
//! - [`ui_plan`]: the `ui-oracle` probe's declarative plans, target resolution and recorded steps;
//!   [`ui_exec`]: performs such a plan on a live screen; [`screen_env`]: a trial's screen (the
//!   files desktop, a web app's UI); [`ui_oracle`]: the `ui-oracle` and `noop --screen` probes,
//!   with the files planner in [`ui_oracle_files`].

pub mod batch;
pub mod command;
pub mod desktop_apps;
pub mod drive;
pub mod export;
pub mod guest_display;
pub mod human;
pub mod human_input;
pub mod human_record;
pub mod inclusion;
pub mod judge;
pub mod live_steps;
pub mod plan_steps;
pub mod policy;
pub mod refine;
/// What a screen-driving policy sees and does (in the area `act`, below `ui` and `osworld`).
pub use crate::act::screen;
pub mod screen_env;
pub mod spec;
pub mod stage;
pub mod step_miss;
pub mod task_screen;
pub mod trial;
pub mod ui_exec;
pub mod ui_oracle;
pub mod ui_oracle_cross;
pub mod ui_oracle_desktop;
pub mod ui_oracle_fields;
pub mod ui_oracle_files;
pub mod ui_oracle_page;
pub mod ui_oracle_shown;
pub mod ui_oracle_web;
/// The `ui-oracle` plan vocabulary (in the area `act`, so `ui`'s resolvers implement it).
pub use crate::act::ui_plan;
pub mod vlm;

use serde::{Deserialize, Serialize};

pub use crate::act::RolloutError;
pub use inclusion::{classify, Inclusion};
pub use policy::{NoopPolicy, OraclePolicy, Policy, PolicyCtx, PolicyKind, PolicyRun};
pub use stage::{rollout_task, TaskRollouts};

impl From<crate::harness::HarnessError> for RolloutError {
    fn from(e: crate::harness::HarnessError) -> Self {
        use crate::harness::HarnessError as H;
        match e {
            H::Task(m) => RolloutError::Task(m),
            H::Infra(m) => RolloutError::Infra(m),
            H::Cancelled => RolloutError::Infra("cancelled".into()),
        }
    }
}

/// `[rollout]` settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RolloutConfig {
    /// Trials per tuple (N_teach).
    pub trials: u32,
    /// δ: reward and judge means closer than this agree.
    pub delta: f64,
    /// Share of trivial tuples kept (deterministic by task id); the rest are rejected.
    pub trivial_keep_fraction: f64,
    /// Wall-clock limit of a `command` policy run, seconds.
    pub command_timeout_secs: f64,
    /// Judge spec; `""` in the file = no judge (reward alone). `openai:MODEL[@URL]` reads the
    /// final state; `vlm:openai:MODEL[@URL]`, `anthropic:MODEL[@URL]` and
    /// `openai-responses:MODEL[@URL]` look at the trial's last screenshots (a trial without a
    /// screen: its final state). Parsed when the configuration loads.
    #[serde(with = "spec::judge_field")]
    pub judge: Option<spec::JudgeSpec>,
    /// How many of a trial's last screenshots a judge on screenshots sees (the final one last).
    pub judge_screenshots: u32,
    /// Policy specs the workbench's launch form offers after the built-in ones (e.g.
    /// `vlm:openai:Qwen/Qwen2.5-VL-7B@http://127.0.0.1:8000/v1`, `anthropic:MODEL`).
    /// Parsed when the configuration loads.
    pub policies: Vec<spec::PolicySpec>,
    /// VLM policies (`vlm:openai:…`, `anthropic:…`, `openai-responses:…`): `[rollout.vlm]`.
    pub vlm: vlm::VlmConfig,
}

impl Default for RolloutConfig {
    fn default() -> Self {
        Self {
            trials: 3,
            delta: 0.25,
            trivial_keep_fraction: 0.0,
            command_timeout_secs: 1800.0,
            judge: None,
            judge_screenshots: 1,
            policies: Vec::new(),
            vlm: vlm::VlmConfig::default(),
        }
    }
}
