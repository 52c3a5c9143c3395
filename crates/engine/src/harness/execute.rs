//! Running one script through the sandbox and converting the result for the store and for C1–C5.

use serde_json::json;
use tokio::runtime::Handle;

use crate::sandbox::{
    parse_reward, run_script_judged, Isolation, Limits, Outcome, Role, RunResult, SandboxConfig,
    Script,
};
use tuplewright_base::agreement::{ComponentScore, RewardRun as Scored, ScriptRun as Ran};
use tuplewright_base::store::{RewardRun, ScriptRun};

pub use crate::sandbox::{describe, tail};

use super::envs::TaskEnv;
use super::HarnessError;

/// How to reach the sandbox.
pub struct Runner<'a> {
    /// Runtime for the async runner.
    pub rt: &'a Handle,
    /// Sandbox settings.
    pub cfg: &'a SandboxConfig,
    /// Isolation mode.
    pub isolation: Isolation,
}

impl Runner<'_> {
    /// Runs `source` as `name` in `role` against `env`: in the sandbox, or on the OSWorld guest
    /// that backs `env`. Sandbox or guest failures are infra errors; nothing else is inspected.
    pub fn execute(
        &self,
        env: &TaskEnv,
        role: Role,
        name: &str,
        source: &str,
        limits: &Limits,
    ) -> Result<RunResult, HarnessError> {
        if let Some(remote) = &env.remote {
            return Ok(remote.run(role, name, source, limits)?);
        }
        let script = Script {
            name: name.to_string(),
            source: source.to_string(),
        };
        self.rt
            .block_on(run_script_judged(
                self.cfg,
                &env.spec(),
                role,
                &script,
                limits,
                self.isolation,
                None,
                env.judge.as_ref(),
            ))
            .map_err(|e| HarnessError::Infra(e.to_string()))
    }

    /// [`Runner::execute`], and a run our own helpers mark as failed for infrastructure reasons
    /// is an infra error too.
    pub fn run(
        &self,
        env: &TaskEnv,
        role: Role,
        name: &str,
        source: &str,
        limits: &Limits,
    ) -> Result<RunResult, HarnessError> {
        let r = self.execute(env, role, name, source, limits)?;
        // What a setup launched (`libreoffice --calc …`) opens when the environment gets a screen.
        env.record_launches(&crate::sandbox::localise::gui_launches(&r.notes));
        if let Some(why) = &r.infra_failure {
            return Err(HarnessError::Infra(format!("{name}: {why}")));
        }
        // The reward_judge shim (and any other helper of ours) marks what is not the script's
        // fault: an infrastructure failure, never a score or a failed condition.
        if let Some(why) = crate::sandbox::localise::infra_failure(&r.stderr.text) {
            return Err(HarnessError::Infra(format!("{name}: {why}")));
        }
        Ok(r)
    }
}

/// The `reward_judge` usage of the scripts run on `envs` (zero calls when no judge is set).
pub fn judge_usage(envs: &[&TaskEnv]) -> crate::agents::Usage {
    let mut u = crate::agents::Usage::default();
    for link in envs.iter().filter_map(|e| e.judge.as_ref()) {
        u.add(&link.usage());
    }
    u
}

fn exit_code(outcome: &Outcome) -> Option<i32> {
    match outcome {
        Outcome::Ok => Some(0),
        Outcome::ExitCode { code } => Some(*code),
        _ => None,
    }
}

/// Lines of stderr quoted as evidence of a failure.
const EVIDENCE_LINES: usize = 5;

/// The module a Python traceback says is missing (`ModuleNotFoundError: No module named 'x'`).
pub fn missing_module(stderr: &str) -> Option<String> {
    stderr.lines().rev().find_map(|l| {
        let rest = l.split("No module named ").nth(1)?;
        let name = rest.trim().trim_matches(|c| c == '\'' || c == '"');
        (!name.is_empty()).then(|| name.to_string())
    })
}

/// Why `script` failed, with its evidence: how it ended (exit code, signal, timeout, limit), the
/// missing module when a traceback names one, and the stderr tail.
pub fn evidence(script: &str, r: &RunResult) -> String {
    let how = describe(&r.outcome).unwrap_or_else(|| "exit code 0".into());
    let module = missing_module(&r.stderr.text)
        .map(|m| format!(", importing a module that is not available here (`{m}`)"))
        .unwrap_or_default();
    let stderr = tail(&r.stderr.text, EVIDENCE_LINES);
    let stderr = if stderr.is_empty() {
        "(empty)".to_string()
    } else {
        stderr
    };
    format!("{script} failed ({how}){module}; stderr tail: {stderr}")
}

/// Converts a setup/golden run into the store's record and the condition input.
pub fn script_run(label: &str, r: &RunResult) -> (ScriptRun, Ran) {
    let failure = describe(&r.outcome);
    let script = match label {
        "golden" => "golden_patch.py",
        _ => "initial_setup.py",
    };
    let ran = Ran {
        ok: r.succeeded(),
        failure: failure.as_ref().map(|_| evidence(script, r)),
    };
    let rec = ScriptRun {
        script: label.to_string(),
        exit_code: exit_code(&r.outcome),
        stdout: r.stdout.text.clone(),
        stderr: r.stderr.text.clone(),
        duration_ms: (r.wall_seconds * 1000.0) as i64,
        failure: failure.filter(|_| !matches!(r.outcome, Outcome::ExitCode { .. })),
    };
    (rec, ran)
}

/// Converts a reward run into the store's record and the condition input. A crash, a limit or a
/// missing/malformed `REWARD:` line is a reward error, never a score.
pub fn reward_run(endpoint: &str, r: &RunResult) -> (RewardRun, Scored) {
    let parsed = if r.succeeded() {
        parse_reward(&r.stdout.text).map_err(|e| {
            let stderr = tail(&r.stderr.text, EVIDENCE_LINES);
            let stderr = if stderr.is_empty() {
                "(empty)".into()
            } else {
                stderr
            };
            format!(
                "reward.py exited 0 but {e}; stdout tail: {}; stderr tail: {stderr}",
                tail(&r.stdout.text, 2)
            )
        })
    } else {
        Err(evidence("reward.py", r))
    };
    let (scored, reward, components) = match parsed {
        Ok(rep) => {
            let comps: Vec<ComponentScore> = rep
                .components
                .iter()
                .map(|c| ComponentScore {
                    name: c.name.clone(),
                    weight: c.weight.unwrap_or(0.0),
                    score: c.score,
                    detail: c.detail.clone(),
                })
                .collect();
            let json = comps
                .iter()
                .map(|c| {
                    json!({"name": c.name, "weight": c.weight, "score": c.score,
                    "points": c.weight * c.score,
                    "status": if c.score >= 1.0 - 1e-9 { "PASS" } else { "FAIL" },
                    "details": c.detail})
                })
                .collect();
            (
                Scored::Scored {
                    score: rep.score,
                    components: comps,
                },
                Some(rep.score),
                serde_json::Value::Array(json),
            )
        }
        Err(e) => (Scored::Error(e), None, serde_json::Value::Array(vec![])),
    };
    let failure = match &scored {
        Scored::Error(e) => Some(e.clone()),
        Scored::Scored { .. } => None,
    };
    let rec = RewardRun {
        endpoint: endpoint.to_string(),
        reward,
        components,
        exit_code: exit_code(&r.outcome),
        stdout: r.stdout.text.clone(),
        stderr: r.stderr.text.clone(),
        duration_ms: (r.wall_seconds * 1000.0) as i64,
        failure,
    };
    (rec, scored)
}
