//! The disagreement path of A.4.2: when reward and judge means differ by δ or more, the
//! Discriminator gets the disagreement as its feedback and rewrites reward.py; the stored setup and
//! golden patch are replayed through the same round harness (C1–C5, determinism, scan) and the
//! round is recorded with source `refine`. Only a passing round becomes the tuple's reward.

use serde_json::json;

use crate::agents::replay::StoredScripts;
use crate::agents::TaskBrief;
use crate::harness::execute::Runner;
use crate::harness::round::RoundCtx;
use crate::harness::task::LoopRuntime;
use crate::harness::Bus;
use tuplewright_base::store::Scripts;

use super::inclusion::Classified;
use super::stage::TrialSummary;
use super::RolloutError;

/// The feedback shown to the Discriminator: the means, each trial's scores and the judge's
/// findings. No Generator script is included (the information barrier holds).
pub fn disagreement_review(
    c: &Classified,
    trials: &[TrialSummary],
    details: &[serde_json::Value],
) -> String {
    let mut md = format!(
        "# Rollout disagreement\n\nTeacher rollouts scored the task differently with reward.py (mean {:.3}) \
         and with an independent judge of the final state (mean {:.3}). Revise reward.py so that it checks \
         exactly what the instruction asks, no more and no less.\n\n| trial | reward | judge |\n|---|---|---|\n",
        c.reward_mean, c.judge_mean
    );
    for t in trials {
        md.push_str(&format!(
            "| {} | {} | {} |\n",
            t.trial,
            t.reward.map_or("-".into(), |r| format!("{r:.3}")),
            t.judge.map_or("-".into(), |j| format!("{j:.3}"))
        ));
    }
    for (i, d) in details.iter().enumerate() {
        md.push_str(&format!(
            "\n## Trial {}\nreward components: {}\njudge checklist: {}\n",
            i + 1,
            d.get("components").unwrap_or(&json!(null)),
            d.pointer("/judge/checklist").unwrap_or(&json!(null))
        ));
    }
    md
}

/// One refinement pass. Returns whether the rewritten reward passed C1–C5 (and was recorded as the
/// tuple's latest passing round).
pub fn refine_reward(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    brief: &TaskBrief,
    scripts: &Scripts,
    feedback: &str,
) -> Result<bool, RolloutError> {
    let rounds = bus.read(|s| s.rounds(&brief.task_id))?;
    let generator = StoredScripts {
        scripts,
        name: "refine:stored",
    };
    let phase = |_: &str, _: serde_json::Value| {};
    let ctx = RoundCtx {
        runner: Runner {
            rt: &rt.rt,
            cfg: rt.sandbox,
            isolation: rt.isolation,
        },
        fleet: rt.fleet,
        cfg: rt.cfg,
        generator: &generator,
        discriminator: rt.discriminator,
        brief,
        cancel: rt.cancel,
        phase: &phase,
    };
    let mut outcome = ctx.run(rounds.len() as u32 + 1, Some(feedback))?;
    outcome.record.source = "refine".into();
    let pass = outcome.verdict.pass;
    bus.write(|tx| {
        tx.record_round_with_states(&outcome.record, &outcome.states)?;
        tx.append_event(
            "rollout.refined",
            Some(&brief.task_id),
            &json!({"pass": pass}),
        )
        .map(|_| ())
    })?;
    Ok(pass)
}
