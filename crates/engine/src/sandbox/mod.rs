//! The sandboxed script runner: runs agent-written Python (setup, golden patch, reward) against one
//! environment under bubblewrap, with resource limits, a role-enforcing state-API forwarder and a
//! typed result. See [`run_script`].
//!
//! Access matrix (paper A.3.2): `setup` and `golden` scripts write the environment (home bound
//! read-write, state-API writes allowed per role); `reader` (reward scripts, the Discriminator side)
//! reads only: the state API's read endpoints, and the home directory bound READ-ONLY so the files
//! domain reward can inspect the artifacts it scores. The Discriminator's own working directory, the
//! Generator's scripts and every other environment are never mounted.

mod capture;
pub mod cgroup;
pub mod config;
pub mod layout;
pub mod localise;
mod outcome;
mod ownership;
pub mod policy;
mod process;
pub(crate) use process::set_limit;
pub mod proxy;
pub mod result;
pub mod reward;
mod run;
pub mod seccomp;
pub mod setup;
mod tls_listener;
mod uids;

pub use config::{Limits, SandboxConfig};
pub use layout::sweep_abandoned;
pub use localise::Localise;
pub use ownership::hand_home_to;
pub use policy::Role;
pub use result::{
    describe, tail, Captured, LimitKind, LogLine, LogSink, Outcome, RefusedRequest, RunResult,
    Stream,
};
pub use reward::{parse_reward, reward_from_run, RewardError, RewardReport};
pub use run::{
    app_url_var, run_script, run_script_judged, run_script_streaming, ExtraApi, Isolation,
    SandboxError, SandboxSpec, Script,
};
