//! Re-running finished tuples (failed, rejected, decided) with other settings: more rounds, another
//! Generator, a different fault rate of the scripted agents. The same for `run --rerun ID…
//! --max-rounds K` and the workbench's `rerun` action: each re-run is first recorded as the
//! curator's decision back to `pending` naming what it overrides ([`record_rerun`]: the decision
//! history keeps everything, the stored rounds continue after the tuple's last one), then the
//! tuples go through the ordinary [`super::run`] job with the settings applied to the config.

use std::collections::BTreeSet;

use crate::agents::spec::AgentSpec;
use crate::config::Config;
use crate::harness::rerun::{plan, record_rerun, Override};
use crate::harness::Bus;

use super::JobError;

/// Settings a re-run changes (`None` keeps the config's).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RerunSettings {
    /// Most rounds of the agreement loop (`[loop] max_rounds`).
    pub max_rounds: Option<u32>,
    /// The scripted agents' fault rate in [0, 1] (`[agents.scripted] fault_rate`).
    pub fault_rate: Option<f64>,
    /// The Generator (`[agents] generator`).
    pub generator: Option<AgentSpec>,
}

impl RerunSettings {
    /// Parses `rounds=K fault=F generator=SPEC` (any subset, any order; `max_rounds=` and
    /// `fault_rate=` are accepted too). The error names the bad word.
    pub fn parse(line: &str) -> Result<Self, JobError> {
        let mut s = RerunSettings::default();
        for word in line.split_whitespace() {
            let (k, v) = word.split_once('=').ok_or_else(|| {
                JobError::Spec(format!(
                    "`{word}`: expected key=value (rounds=K fault=F generator=SPEC)"
                ))
            })?;
            let bad = |why: &str| JobError::Spec(format!("`{word}`: {why}"));
            match k {
                "rounds" | "max_rounds" => {
                    let n: u32 = v.parse().map_err(|_| bad("not a whole number"))?;
                    if !(1..=50).contains(&n) {
                        return Err(bad("rounds must be 1..=50"));
                    }
                    s.max_rounds = Some(n);
                }
                "fault" | "fault_rate" => {
                    let f: f64 = v.parse().map_err(|_| bad("not a number"))?;
                    if !(0.0..=1.0).contains(&f) {
                        return Err(bad("the fault rate must be in 0..=1"));
                    }
                    s.fault_rate = Some(f);
                }
                "generator" | "agent" => {
                    s.generator = Some(
                        v.parse()
                            .map_err(
                                |e: crate::agents::spec::AgentSpecError| bad(&e.to_string()),
                            )?,
                    );
                }
                _ => return Err(bad("unknown setting (rounds, fault, generator)")),
            }
        }
        Ok(s)
    }

    /// The line [`Self::parse`] reads, for `config`'s current settings (a form's starting text):
    /// one round more than configured.
    pub fn suggested(config: &Config) -> String {
        format!(
            "rounds={} fault={} generator={}",
            config.agreement.max_rounds + 1,
            config.agents.scripted.fault_rate,
            config.agents.generator
        )
    }

    /// `base` with these settings.
    pub fn apply(&self, base: &Config) -> Config {
        let mut c = base.clone();
        if let Some(k) = self.max_rounds {
            c.agreement.max_rounds = k;
        }
        if let Some(f) = self.fault_rate {
            c.agents.scripted.fault_rate = f;
        }
        if let Some(g) = &self.generator {
            c.agents.generator = g.clone();
        }
        c
    }
}

/// What preparing a re-run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prepared {
    /// Tuples to run now (re-opened ones and those still unfinished), in the order asked.
    pub run: Vec<String>,
    /// Finished tuples re-opened: what each re-run overrides.
    pub reopened: Vec<Override>,
    /// Tuples not re-run, with why (unknown, or decided by someone else meanwhile).
    pub refused: Vec<(String, String)>,
}

/// Records the re-runs of `ids` by `actor` (one transaction per tuple; a tuple someone decided
/// meanwhile is refused and left as it is). Unfinished tuples need no record and simply run.
pub fn prepare(bus: &Bus, ids: &[String], actor: &str) -> Result<Prepared, JobError> {
    let store_err = |e: tuplewright_base::store::StoreError| JobError::Spec(format!("store: {e}"));
    let mut known = Vec::new();
    let mut p = Prepared::default();
    for id in ids {
        match bus.read(|s| s.effective_status(id)) {
            Ok(_) => known.push(id.clone()),
            Err(e) => p.refused.push((id.clone(), e.to_string())),
        }
    }
    let all: BTreeSet<String> = known.iter().cloned().collect();
    let planned = bus.read(|s| plan(s, &known, &all)).map_err(store_err)?;
    let reopen: BTreeSet<&str> = planned.reruns.iter().map(|o| o.task_id.as_str()).collect();
    for id in &planned.run {
        if !reopen.contains(id.as_str()) {
            p.run.push(id.clone());
            continue;
        }
        let Some(o) = planned.reruns.iter().find(|o| &o.task_id == id) else {
            continue;
        };
        match bus.write(|tx| record_rerun(tx, o, actor)) {
            Ok(_) => {
                p.run.push(id.clone());
                p.reopened.push(o.clone());
            }
            Err(e) => p.refused.push((id.clone(), e.to_string())),
        }
    }
    Ok(p)
}
