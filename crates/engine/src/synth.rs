//! Synthetic, clearly-marked data for benchmarks and tests: a store of labelled tuples shaped like
//! the paper's corpus (Tables 9–13), or a directory of public-layout bundles.
//!
//! Every synthetic task is marked three ways: its id starts with `synth_`, its origin starts with
//! `synthetic:` (counted and announced by `stats`), and its original JSON has `"synthetic": true`.
//! Generation is deterministic for a given seed.

use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

use tuplewright_base::store::{
    DecisionSource, Labels, RewardRun, RoundRecord, Scripts, Store, StoreError, TaskRecord,
    TupleStatus, Usage,
};
use tuplewright_records::bundle::layout::{self, ConfigJson};

/// Table 10 (domain, easy, medium, hard): the sampling weights of the domain × difficulty cells.
const DOMAINS: &[(&str, u32, u32, u32)] = &[
    ("Cross-Desktop", 300, 1198, 6030),
    ("Spreadsheet", 993, 2627, 1952),
    ("Document Editing", 881, 2070, 1165),
    ("Presentation", 889, 1541, 737),
    ("System & OS", 1110, 1388, 311),
    ("Code Editing", 690, 1130, 660),
    ("Desktop x Web", 0, 84, 1917),
    ("PDF", 113, 946, 757),
    ("Cross-Web", 0, 53, 376),
    ("E-Commerce", 166, 191, 27),
    ("Communication", 65, 120, 37),
    ("Project Management", 82, 135, 58),
    ("Business & CRM", 37, 87, 71),
    ("Media", 80, 68, 2),
];

/// Table 11 verbs with their counts as weights.
const VERBS: &[(&str, u32)] = &[
    ("open", 4585),
    ("create", 2728),
    ("set", 1448),
    ("add", 1028),
    ("use", 906),
    ("extract", 891),
    ("configure", 728),
    ("apply", 605),
    ("insert", 562),
    ("build", 440),
    ("read", 427),
    ("change", 361),
    ("write", 290),
    ("convert", 265),
    ("remove", 227),
    ("export", 183),
    ("check", 170),
    ("find", 139),
    ("merge", 40),
    ("normalize", 30),
];

/// Table 13 length buckets (lo, hi exclusive, weight).
const LENGTHS: &[(usize, usize, u32)] = &[
    (8, 30, 10988),
    (30, 60, 11010),
    (60, 100, 6073),
    (100, 150, 2775),
    (150, 250, 1042),
    (250, 390, 234),
];

const DESKTOP_APPS: &[&str] = &[
    "calc", "writer", "impress", "pdf", // not the app: an OSWorld category
    "terminal", "vscode", "files", // not the app: an OSWorld category
];
const WEB_APPS: &[&str] = &[
    "slack",
    "gmail",
    "notion",
    "jira",
    "salesforce",
    "shopify_admin",
];

fn pick<'a, T>(rng: &mut StdRng, items: &'a [T], weight: impl Fn(&T) -> u32) -> &'a T {
    let total: u32 = items.iter().map(&weight).sum();
    let mut x = rng.random_range(0..total.max(1));
    for it in items {
        let w = weight(it);
        if x < w {
            return it;
        }
        x -= w;
    }
    &items[items.len() - 1]
}

/// (scenario, platform, apps) for a domain.
fn scenario_and_apps(rng: &mut StdRng, domain: &str) -> (&'static str, &'static str, Vec<String>) {
    let one = |a: &str| vec![a.to_string()];
    let some = |rng: &mut StdRng, pool: &[&str], k: usize| {
        let mut v: Vec<String> = Vec::new();
        while v.len() < k {
            let a = pool[rng.random_range(0..pool.len())].to_string();
            if !v.contains(&a) {
                v.push(a);
            }
        }
        v.sort();
        v
    };
    match domain {
        // The spreadsheet pack, found by its `calc` alias (no file outside a pack names it).
        "Spreadsheet" => (
            "Spreadsheet & Data",
            "desktop",
            one(crate::apps::find("calc").map_or("calc", |p| p.name())),
        ),
        "Document Editing" => (
            "Document Writing",
            "desktop",
            one(crate::apps::find("writer").map_or("writer", |p| p.name())),
        ),
        "Presentation" => (
            "Presentation Design",
            "desktop",
            one(crate::apps::find("impress").map_or("impress", |p| p.name())),
        ),
        "System & OS" => ("System Administration", "desktop", one("terminal")),
        "Code Editing" => ("Software Engineering", "desktop", one("vscode")),
        "PDF" => ("PDF & Publishing", "desktop", one("pdf")), // not the app: a category
        "Communication" => ("Communication & Email", "web", one("slack")),
        "Project Management" => ("Project & Task Management", "web", one("jira")),
        "E-Commerce" | "Business & CRM" => ("Business Operations", "web", one("shopify_admin")),
        "Media" => ("Creative & Media", "web", one("youtube")),
        "Cross-Web" => ("Communication & Email", "web", some(rng, WEB_APPS, 2)),
        "Desktop x Web" => {
            let mut v = some(rng, DESKTOP_APPS, 1);
            v.extend(some(rng, WEB_APPS, 1));
            ("Business Operations", "cross", v)
        }
        _ => {
            let k = rng.random_range(2..=3);
            let apps = some(rng, DESKTOP_APPS, k);
            let scen = match apps[0].as_str() {
                "calc" => "Spreadsheet & Data",
                "impress" => "Presentation Design",
                _ => "Document Writing",
            };
            (scen, "desktop", apps)
        }
    }
}

/// One synthetic task with its scripts.
pub fn synthetic_task(rng: &mut StdRng, i: usize) -> (TaskRecord, Scripts) {
    let (domain, e, m, h) = *pick(rng, DOMAINS, |d| d.1 + d.2 + d.3);
    let x = rng.random_range(0..(e + m + h));
    let difficulty = if x < e {
        "easy"
    } else if x < e + m {
        "medium"
    } else {
        "hard"
    };
    let (scenario, platform, apps) = scenario_and_apps(rng, domain);
    let verb = pick(rng, VERBS, |v| v.1).0;
    let (lo, hi, _) = *pick(rng, LENGTHS, |l| l.2);
    let words = rng.random_range(lo..hi);
    let mut instruction = format!(
        "{} {verb} the {} file",
        if rng.random_bool(0.2) { "Please" } else { "" },
        apps.join(" and ")
    );
    for k in 0..words.saturating_sub(6) {
        instruction.push_str(if k % 7 == 6 { " then" } else { " step" });
    }
    let instruction = instruction.trim().to_string();
    let task_id = format!(
        "synth_{}_{i:06}",
        domain
            .to_lowercase()
            .replace([' ', '&'], "")
            .replace('-', "_")
    );
    let task = TaskRecord {
        task_id: task_id.clone(),
        instruction: instruction.clone(),
        context: "SYNTHETIC task generated by `tuplewright synth` for benchmarks and tests; not real data.".into(),
        labels: Labels {
            platform: Some(platform.into()),
            domain: Some(domain.into()),
            task_type: Some(if apps.len() > 1 { "cross_app" } else { "single_app" }.into()),
            apps,
            difficulty: Some(difficulty.into()),
            scenario: Some(scenario.into()),
            source_pass: Some(["breadth", "gap_fill", "edge_case"][i % 3].into()),
        },
        app_type: None,
        original_json: json!({"task_id": task_id, "task_instruction": instruction, "difficulty": difficulty, "synthetic": true}),
        origin: "synthetic:tuplewright synth".into(),
    };
    let scripts = Scripts {
        setup: Some(format!("# SYNTHETIC\nopen('/home/user/{task_id}.txt', 'w').write('init')\n")),
        golden: Some(format!("# SYNTHETIC\nopen('/home/user/{task_id}.txt', 'w').write('gold')\n")),
        reward: Some(format!("# SYNTHETIC\nok = open('/home/user/{task_id}.txt').read() == 'gold'\nprint('PASS: a' if ok else 'FAIL: a')\nprint('REWARD: %.1f' % (1.0 if ok else 0.0))\n")),
    };
    (task, scripts)
}

fn reward_run(endpoint: &str, reward: f64) -> RewardRun {
    RewardRun {
        endpoint: endpoint.into(),
        reward: Some(reward),
        components: json!([{"name": "a", "points": 1.0, "status": if reward > 0.0 { "PASS" } else { "FAIL" }}]),
        exit_code: Some(0),
        stdout: format!("REWARD: {reward:.1}\n"),
        stderr: String::new(),
        duration_ms: 40,
        failure: None,
    }
}

/// Writes `n` final synthetic tuples into the store, plus vote- and rollout-rejected ones in the
/// paper's A.4.3 proportions (3,100 and 1,278 per 32,112). Returns the number of tasks written.
pub fn populate(store: &mut Store, n: usize, seed: u64) -> Result<usize, StoreError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let vote_rej = n * 3100 / 32112;
    let roll_rej = n * 1278 / 32112;
    let total = n + vote_rej + roll_rej;
    let at = "2026-01-01T00:00:00.000Z";
    for chunk_start in (0..total).step_by(4096) {
        store.write(|tx| {
            for i in chunk_start..(chunk_start + 4096).min(total) {
                let (task, scripts) = synthetic_task(&mut rng, i);
                tx.upsert_task(&task)?;
                let round = RoundRecord {
                    task_id: task.task_id.clone(),
                    round_no: Some(1 + (i % 3) as i64),
                    verdict: "pass".into(),
                    source: "synthetic".into(),
                    scripts,
                    review_md: "# Round 1 Review\n\n## Verdict: PASS\n\n(SYNTHETIC)\n".into(),
                    scan_findings: json!([]),
                    generator_model: Some("synthetic-generator".into()),
                    discriminator_model: Some("synthetic-discriminator".into()),
                    started_at: at.into(),
                    finished_at: at.into(),
                    script_runs: Vec::new(),
                    reward_runs: vec![reward_run("initial", 0.0), reward_run("golden", 1.0)],
                    usage: vec![
                        Usage {
                            stage: "generator".into(),
                            model: "synthetic-model".into(),
                            input_tokens: 5_000,
                            output_tokens: 2_000,
                            cost_usd: None,
                        },
                        Usage {
                            stage: "discriminator".into(),
                            model: "synthetic-model".into(),
                            input_tokens: 5_000,
                            output_tokens: 3_000,
                            cost_usd: None,
                        },
                    ],
                };
                tx.record_round(&round)?;
                let status = if i < n {
                    TupleStatus::Final
                } else if i < n + vote_rej {
                    TupleStatus::VoteRejected
                } else {
                    TupleStatus::RolloutRejected
                };
                tx.record_decision(
                    &task.task_id,
                    status,
                    "synth",
                    DecisionSource::Policy,
                    "synthetic data",
                    Some(at),
                )?;
            }
            tx.append_event(
                "synth.batch",
                None,
                &json!({"from": chunk_start, "total": total}),
            )?;
            Ok::<_, StoreError>(())
        })?;
    }
    Ok(total)
}

/// Writes `n` synthetic bundles in the public layout under `dir` (for import benchmarks).
pub fn write_bundles(dir: &Path, n: usize, seed: u64) -> std::io::Result<()> {
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..n {
        let (task, scripts) = synthetic_task(&mut rng, i);
        let b = dir.join(&task.task_id);
        std::fs::create_dir_all(&b)?;
        let config = ConfigJson {
            instruction: task.instruction.clone(),
            id: task.task_id.clone(),
            app_type: task.labels.platform.clone().unwrap_or_default(),
            generated_at: Some("2026-01-01T00:00:00.000Z".into()),
            adversarial_rounds: 1.into(),
            ..ConfigJson::default()
        };
        let tc = json!({"task_id": task.task_id, "domain": task.labels.domain, "task_instruction": task.instruction,
            "context": task.context, "difficulty": task.labels.difficulty, "domains": task.labels.apps, "synthetic": true});
        std::fs::write(
            b.join(layout::CONFIG_JSON),
            serde_json::to_vec_pretty(&config.to_value())?,
        )?;
        std::fs::write(
            b.join(layout::TASK_CONFIG_JSON),
            serde_json::to_vec_pretty(&tc)?,
        )?;
        std::fs::write(b.join(layout::SETUP_PY), scripts.setup.unwrap_or_default())?;
        std::fs::write(
            b.join(layout::GOLDEN_PY),
            scripts.golden.unwrap_or_default(),
        )?;
        std::fs::write(
            b.join(layout::REWARD_PY),
            scripts.reward.unwrap_or_default(),
        )?;
        std::fs::write(
            b.join(layout::REVIEW_MD),
            "# Round 1 Review\n\n## Verdict: PASS\n\n(SYNTHETIC)\n",
        )?;
    }
    Ok(())
}
