//! One adversarial round (paper A.1 lines 5–14, A.3): Generator → setup on V_init, setup + golden
//! patch on V_gold → Discriminator (reading only t, c, skills, the previous REVIEW.md and a read-only
//! probe) → scan → reward twice on each endpoint → C1–C5 → REVIEW.md → one atomic store record.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::json;

use crate::agents::{
    AgentError, Discriminator, DiscriminatorInput, Generator, GeneratorInput, TaskBrief, Usage,
};
use crate::sandbox::{Limits, Role};
use tuplewright_base::agreement::{
    evaluate, judge_probes, render_review, ConditionId, ConditionStatus, RewardRun as Scored,
    RoundObservation, RoundVerdict, ScanFindingRef, ScriptRun as Ran,
};
use tuplewright_base::store::{
    now, sha256_hex, RoundRecord, Scripts, StateEndpoint, StateSnapshot, Usage as StoredUsage,
};
use tuplewright_records::scan::scan_source;

use super::envs::Fleet;
use super::execute::{reward_run, script_run, Runner};
use super::probe::RoundProbe;
use super::probes::{check_fit, ProbeSite};
use super::snapshot::{capture, has_files};
use super::{HarnessError, LoopConfig};

/// Everything a round needs.
pub struct RoundCtx<'a> {
    /// Sandbox access.
    pub runner: Runner<'a>,
    /// Servers and work dir.
    pub fleet: &'a Fleet,
    /// Loop settings.
    pub cfg: &'a LoopConfig,
    /// The Generator.
    pub generator: &'a dyn Generator,
    /// The Discriminator.
    pub discriminator: &'a dyn Discriminator,
    /// The task as both agents may see it.
    pub brief: &'a TaskBrief,
    /// Set by Ctrl-C.
    pub cancel: &'a AtomicBool,
    /// Progress hook: (phase, detail). Called before each step, and with `check` when one of
    /// C1–C5 is settled (`{round, check, status, pass, detail}`) and `scored` when a reward run
    /// finished (`{round, endpoint, run, reward, error}`) — both before the round's atomic write.
    pub phase: &'a (dyn Fn(&str, serde_json::Value) + Sync),
}

/// What one round produced.
pub struct RoundOutcome {
    /// C1–C5.
    pub verdict: RoundVerdict,
    /// The record to store (scripts, runs, review, usage).
    pub record: RoundRecord,
    /// Token accounting of both agents.
    pub usage: Usage,
    /// Environment states read after setup on V_init and after the golden patch on V_gold
    /// (stored with the round through `Tx::record_round_with_states`).
    pub states: Vec<StateSnapshot>,
}

fn agent_err(e: AgentError) -> Result<String, HarnessError> {
    match e {
        AgentError::Infra(m) => Err(HarnessError::Infra(m)),
        AgentError::Cancelled => Err(HarnessError::Cancelled),
        AgentError::Malformed(m) | AgentError::MalformedAfter { why: m, .. } => Ok(m),
    }
}

/// Longest `detail` of a `check` progress call (the full text is in REVIEW.md).
const CHECK_DETAIL_MAX: usize = 160;

fn short(s: &str) -> String {
    match s.char_indices().nth(CHECK_DETAIL_MAX) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

impl RoundCtx<'_> {
    /// Reports the conditions `ids` as settled by what `obs` holds so far (the same evaluation as
    /// the round's verdict, so the progress calls always agree with the stored REVIEW.md).
    fn settle(&self, obs: &RoundObservation, ids: &[ConditionId]) {
        let verdict = evaluate(obs);
        for c in verdict.conditions.iter().filter(|c| ids.contains(&c.id)) {
            let status = match c.status {
                ConditionStatus::Pass => "pass",
                ConditionStatus::Fail => "fail",
                ConditionStatus::NotRun => "not_run",
            };
            (self.phase)(
                "check",
                json!({"round": obs.round, "check": format!("{:?}", c.id), "status": status,
                       "pass": c.status == ConditionStatus::Pass, "detail": short(&c.details)}),
            );
        }
    }

    fn check_cancel(&self) -> Result<(), HarnessError> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(HarnessError::Cancelled);
        }
        Ok(())
    }

    fn limits(&self, secs: f64) -> Limits {
        Limits {
            wall_seconds: secs,
            ..self.runner.cfg.limits.clone()
        }
    }

    /// Runs round `round` given the previous REVIEW.md.
    pub fn run(
        &self,
        round: u32,
        previous_review: Option<&str>,
    ) -> Result<RoundOutcome, HarnessError> {
        let started_at = now();
        let mut usage = Usage::default();
        let mut gen_usage = Usage::default();
        let disc_usage;
        self.check_cancel()?;
        (self.phase)("generate", json!({"round": round}));
        let gen_input = GeneratorInput {
            brief: self.brief,
            round,
            previous_review,
        };
        let generated = match self.generator.generate(&gen_input) {
            Ok(g) => Ok(g),
            Err(e) => {
                gen_usage = e.usage();
                usage.add(&gen_usage);
                Err(agent_err(e)?)
            }
        };
        let script_limits = self.limits(self.cfg.script_timeout_secs);
        let apps = &self.brief.apps;
        let (init, gold) = self.fleet.provision_pair(&self.brief.task_id, apps)?;
        let mut scripts = Scripts::default();
        let mut script_runs = Vec::new();
        let mut states = Vec::new();
        let (setup_ok, golden_ok, setup_obs, golden_obs) = match &generated {
            Err(msg) => {
                let ran = Ran {
                    ok: false,
                    failure: Some(format!("the Generator produced no usable scripts: {msg}")),
                };
                (false, false, ran, None)
            }
            Ok(g) => {
                usage.add(&g.usage);
                gen_usage = g.usage.clone();
                scripts.setup = Some(g.initial_setup.clone());
                scripts.golden = Some(g.golden_patch.clone());
                self.check_cancel()?;
                (self.phase)("setup", json!({"round": round}));
                let r = self.runner.run(
                    &init,
                    Role::Setup,
                    "initial_setup.py",
                    &g.initial_setup,
                    &script_limits,
                )?;
                let (rec, mut setup_obs) = script_run("setup", &r);
                script_runs.push(rec);
                let resolver = self.fleet.resolver();
                if setup_obs.ok {
                    let fit = check_fit(&init, resolver, self.brief, "initial_setup.py")?;
                    if let Some(why) = fit {
                        setup_obs = Ran {
                            ok: false,
                            failure: Some(why),
                        };
                    }
                }
                let mut golden_obs = None;
                if setup_obs.ok {
                    states.extend(capture(
                        self.fleet.registry(),
                        apps,
                        &init,
                        StateEndpoint::Initial,
                    )?);
                    self.check_cancel()?;
                    (self.phase)("golden", json!({"round": round}));
                    let r = self.runner.run(
                        &gold,
                        Role::Setup,
                        "initial_setup.py",
                        &g.initial_setup,
                        &script_limits,
                    )?;
                    let (rec, pre) = script_run("setup_on_gold", &r);
                    script_runs.push(rec);
                    golden_obs = Some(if pre.ok {
                        let r = self.runner.run(
                            &gold,
                            Role::Golden,
                            "golden_patch.py",
                            &g.golden_patch,
                            &script_limits,
                        )?;
                        let (rec, mut ran) = script_run("golden", &r);
                        script_runs.push(rec);
                        if ran.ok {
                            let fit = check_fit(&gold, resolver, self.brief, "golden_patch.py")?;
                            if let Some(why) = fit {
                                ran = Ran {
                                    ok: false,
                                    failure: Some(why),
                                };
                            }
                        }
                        if ran.ok {
                            states.extend(capture(
                                self.fleet.registry(),
                                apps,
                                &gold,
                                StateEndpoint::Golden,
                            )?);
                        }
                        ran
                    } else {
                        Ran {
                            ok: false,
                            failure: Some(format!(
                                "initial_setup.py failed on V_gold before the patch ({}): setup is not reproducible",
                                pre.failure.unwrap_or_default()
                            )),
                        }
                    });
                }
                let golden_ok = golden_obs.as_ref().is_some_and(|g| g.ok);
                (setup_obs.ok, golden_ok, setup_obs, golden_obs)
            }
        };
        self.settle(
            &RoundObservation {
                round,
                setup: setup_obs.clone(),
                golden: golden_obs.clone(),
                scan: vec![],
                gold_runs: vec![],
                init_runs: vec![],
                probes: vec![],
                probe_threshold: self.cfg.probe_threshold,
            },
            &[ConditionId::C1, ConditionId::C2],
        );
        // The Discriminator: task text, skills, previous review and a read-only probe only.
        self.check_cancel()?;
        (self.phase)("discriminate", json!({"round": round}));
        let probe = RoundProbe {
            rt: self.runner.rt.clone(),
            init: &init,
            gold: &gold,
            sandbox: self.runner.cfg,
            limits: self.limits(self.cfg.reward_timeout_secs),
            isolation: self.runner.isolation,
        };
        let d_input = DiscriminatorInput {
            brief: self.brief,
            round,
            previous_review,
        };
        let reward = match self.discriminator.write_reward(&d_input, &probe) {
            Ok(d) => {
                disc_usage = d.usage.clone();
                Ok(d.reward)
            }
            Err(e) => {
                disc_usage = e.usage();
                Err(agent_err(e)?)
            }
        };
        usage.add(&disc_usage);
        let mut obs = RoundObservation {
            round,
            setup: setup_obs,
            golden: golden_obs,
            scan: vec![],
            gold_runs: vec![],
            init_runs: vec![],
            probes: vec![],
            probe_threshold: self.cfg.probe_threshold,
        };
        let mut reward_runs = Vec::new();
        let mut findings = serde_json::Value::Array(vec![]);
        match &reward {
            Err(msg) => {
                let err = Scored::Error(format!(
                    "the Discriminator produced no usable reward.py: {msg}"
                ));
                if setup_ok {
                    obs.init_runs.push(err.clone());
                }
                if golden_ok {
                    obs.gold_runs.push(err);
                }
                self.settle(&obs, &[ConditionId::C3, ConditionId::C4, ConditionId::C5]);
            }
            Ok(text) => {
                scripts.reward = Some(text.clone());
                (self.phase)("scan", json!({"round": round}));
                let report = scan_source("reward.py", text);
                findings = serde_json::to_value(&report.findings).unwrap_or_default();
                obs.scan = report
                    .findings
                    .iter()
                    .map(|f| ScanFindingRef {
                        rule: f.rule.to_string(),
                        line: f.line,
                        reason: f.reason.clone(),
                    })
                    .collect();
                self.settle(&obs, &[ConditionId::C5]);
                let limits = self.limits(self.cfg.reward_timeout_secs);
                for (env, ok, label, key, cond) in [
                    (&gold, golden_ok, "golden", "gold", ConditionId::C3),
                    (&init, setup_ok, "initial", "init", ConditionId::C4),
                ] {
                    for i in (0..self.cfg.reward_runs).filter(|_| ok) {
                        self.check_cancel()?;
                        (self.phase)("reward", json!({"round": round, "env": key, "run": i + 1}));
                        let r = self
                            .runner
                            .run(env, Role::Reader, "reward.py", text, &limits)?;
                        let (rec, scored) = reward_run(label, &r);
                        let (reward, error) = match &scored {
                            Scored::Scored { score, .. } => (Some(*score), None),
                            Scored::Error(e) => (None, Some(short(e))),
                        };
                        (self.phase)(
                            "scored",
                            json!({"round": round, "endpoint": key, "run": i + 1,
                                   "reward": reward, "error": error}),
                        );
                        reward_runs.push(rec);
                        if key == "gold" {
                            obs.gold_runs.push(scored);
                        } else {
                            obs.init_runs.push(scored);
                        }
                    }
                    self.settle(&obs, &[cond]);
                }
                // The probes, once C1–C5 hold: on the round's own environments.
                if evaluate(&obs).pass {
                    self.check_cancel()?;
                    (self.phase)("probes", json!({"round": round}));
                    let site = ProbeSite {
                        runner: &self.runner,
                        fleet: self.fleet,
                        task_id: &self.brief.task_id,
                        apps,
                        files: has_files(self.fleet.registry(), apps),
                        init: &init,
                        gold: &gold,
                        limits: &limits,
                    };
                    for (rec, probe) in site.run(text)? {
                        reward_runs.push(rec);
                        obs.probes.push(probe);
                    }
                    let judged = judge_probes(&obs.probes, obs.probe_threshold);
                    for p in judged {
                        (self.phase)(
                            "check",
                            json!({"round": round, "check": p.condition(),
                                   "status": if p.pass { "pass" } else { "fail" },
                                   "pass": p.pass, "detail": short(&p.details)}),
                        );
                    }
                }
            }
        }
        let judge_usage = super::execute::judge_usage(&[&init, &gold]);
        usage.add(&judge_usage);
        drop(init);
        drop(gold);
        let verdict = evaluate(&obs);
        let review_md = render_review(
            &obs,
            &verdict,
            &scripts
                .reward
                .as_deref()
                .map(sha256_hex)
                .unwrap_or_default(),
        );
        let usage_rows = [
            ("generator", self.generator.name(), &gen_usage),
            ("discriminator", self.discriminator.name(), &disc_usage),
            ("judge", judge_usage.model.clone(), &judge_usage),
        ]
        .into_iter()
        .filter(|(stage, _, u)| *stage != "judge" || u.calls > 0)
        .map(|(stage, name, u)| StoredUsage {
            stage: stage.into(),
            model: if u.model.is_empty() {
                name
            } else {
                u.model.clone()
            },
            input_tokens: u.input_tokens as i64,
            output_tokens: u.output_tokens as i64,
            cost_usd: Some(u.cost_usd),
        })
        .collect::<Vec<_>>();
        let record = RoundRecord {
            task_id: self.brief.task_id.clone(),
            round_no: None,
            verdict: if verdict.pass { "pass" } else { "fail" }.into(),
            source: "loop".into(),
            scripts,
            review_md,
            scan_findings: findings,
            generator_model: Some(self.generator.name()),
            discriminator_model: Some(self.discriminator.name()),
            started_at,
            finished_at: now(),
            script_runs,
            reward_runs,
            usage: usage_rows,
        };
        Ok(RoundOutcome {
            verdict,
            record,
            usage,
            states,
        })
    }
}
