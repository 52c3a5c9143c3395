//! The remote collaborators of taskgen against local stand-ins speaking the real wire formats
//! (OpenAI `/v1/embeddings` and chat completions, Anthropic Messages): no model is reachable here,
//! the code path is the one used against hosted and local endpoints.

use std::collections::BTreeMap;

use serde_json::Value;
use tuplewright::engine::config::StatsConfig;
use tuplewright::engine::providers::{provider_from_spec, ProviderConfig};
use tuplewright::engine::stats::{compute, Population};
use tuplewright::engine::store::Store;
use tuplewright::engine::taskgen::dedup::{cosine, embed, Dedup, Repeat};
use tuplewright::engine::taskgen::embed::{EmbeddingsConfig, HttpEmbedder, OnError};
use tuplewright::engine::taskgen::generate::{generate_with, Hooks, Request};
use tuplewright::engine::taskgen::llm::LlmAuthor;
use tuplewright::engine::taskgen::seeds::Seeds;
use tuplewright::engine::taskgen::taxonomy::default_skills_dir;
use tuplewright::engine::taskgen::{Pass, TaskgenConfig, TaskgenError};

use super::embed_standin;
use super::standin::{anthropic_text, openai_text, Reply, StandIn};
use super::{bin, taxonomies};

const SEEDED: &str = "Send Maya Costa the quarterly budget report before the Friday review.";
const PARAPHRASE: &str = "Email our Q3 spending summary to Maya Costa ahead of Friday's meeting.";
const DISTINCT: &str = "Close every open issue labelled wontfix in the Web project today.";

fn cfg_for(base: &str, on_error: OnError) -> TaskgenConfig {
    TaskgenConfig {
        embeddings: EmbeddingsConfig {
            base_url: base.to_string(),
            model: "standin-embed".into(),
            max_retries: 0,
            batch_size: 2,
            on_error,
            ..EmbeddingsConfig::default()
        },
        ..TaskgenConfig::default()
    }
}

#[test]
fn embeddings_standin_rejects_a_seeded_paraphrase_the_offline_check_misses() {
    // The offline fallback does not see the paraphrase (its weaker guarantee)...
    assert!(cosine(&embed(SEEDED), &embed(PARAPHRASE)) < 0.85);
    let mut offline = Dedup::new(&TaskgenConfig::default());
    assert!(offline.admit(&["mail"], "t1", SEEDED).is_ok());
    assert!(offline.admit(&["mail"], "t2", PARAPHRASE).is_ok());
    // ...the endpoint does.
    let (base, seen) = embed_standin::start(false);
    let cfg = cfg_for(&base, OnError::Fail);
    let e = HttpEmbedder::from_config(&cfg.embeddings).unwrap().unwrap();
    let mut d = Dedup::new(&cfg);
    // Stored corpus: three earlier tasks, embedded in batches of two.
    d.preload(&["mail"], None, SEEDED);
    d.preload(
        &["team-chat"],
        None,
        "Post the release notes in #general before noon today.",
    );
    d.preload(
        &["files"],
        None,
        "Rename every draft in Documents so it ends in -final.",
    );
    let r = d.admit_with(&["mail"], "t2", PARAPHRASE, Some(&e), OnError::Fail);
    assert_eq!(r.unwrap(), Err(Repeat::NearDuplicate));
    let r = d.admit_with(&["issue-tracker"], "t3", DISTINCT, Some(&e), OnError::Fail);
    assert_eq!(r.unwrap(), Ok(()));
    assert_eq!(d.rejections.get("near_duplicate"), Some(&1));
    assert_eq!(d.embedding_fallbacks, 0);
    let reqs = seen.lock().unwrap().requests.clone();
    let sizes: Vec<usize> = reqs
        .iter()
        .map(|r| r["input"].as_array().map_or(0, Vec::len))
        .collect();
    assert_eq!(
        sizes,
        [2, 1, 1, 1],
        "two corpus batches, then one per candidate"
    );
    assert!(reqs.iter().all(|r| r["model"] == "standin-embed"));
}

#[test]
fn embeddings_standin_failure_aborts_by_default_or_falls_back_counted() {
    let (base, seen) = embed_standin::start(true);
    let cfg = cfg_for(&base, OnError::Fail);
    let e = HttpEmbedder::from_config(&cfg.embeddings).unwrap().unwrap();
    let mut d = Dedup::new(&cfg);
    let err = d
        .admit_with(&["mail"], "t", SEEDED, Some(&e), OnError::Fail)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("HTTP 400") && err.contains("model not loaded"),
        "{err}"
    );
    assert!(
        d.is_empty(),
        "nothing admitted on an infrastructure failure"
    );
    let r = d.admit_with(&["mail"], "t", SEEDED, Some(&e), OnError::Fallback);
    assert_eq!(r.unwrap(), Ok(()));
    assert_eq!((d.len(), d.embedding_fallbacks), (1, 1));
    // The offline floor still applies to fallen-back candidates.
    let r = d.admit_with(&["mail"], "t9", SEEDED, Some(&e), OnError::Fallback);
    assert_eq!(r.unwrap(), Err(Repeat::NgramOverlap));
    // A whole batch: the generator surfaces the failure as an error, never a silent pass.
    let req = Request {
        apps: vec!["mail".into()],
        n: 3,
        pass: Some(Pass::Breadth),
        seed: 1,
    };
    let hooks = Hooks {
        embedder: Some(&e),
        on_embed_error: OnError::Fail,
        ..Hooks::default()
    };
    let out = generate_with(
        &req,
        &cfg,
        &taxonomies(),
        &Seeds::builtin().unwrap(),
        &[],
        hooks,
    );
    assert!(matches!(out, Err(TaskgenError::Embedding(_))), "{out:?}");
    // Fail, fallback, (the offline rejection asks nothing), the batch's first candidate.
    assert_eq!(
        seen.lock().unwrap().requests.len(),
        3,
        "one request per call, no retries"
    );
}

#[test]
fn embeddings_standin_cli_checks_every_candidate_against_the_endpoint_in_batches() {
    let (base, seen) = embed_standin::start(false);
    let out = bin()
        .args([
            "--store",
            "/nonexistent/never.db",
            "taskgen",
            "--no-store",
            "--json",
        ])
        .args([
            "--app",
            "mail",
            "--n",
            "12",
            "--seed",
            "3",
            "--embeddings-url",
            &base,
        ])
        .args(["--embeddings-model", "standin-embed"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["generated"], 12);
    assert_eq!(s["embeddings"], "standin-embed");
    assert_eq!(s["embedding_fallbacks"], 0);
    let reqs = seen.lock().unwrap().requests.clone();
    let inputs: usize = reqs
        .iter()
        .map(|r| r["input"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(
        inputs >= 12,
        "every admitted candidate was embedded ({inputs} texts)"
    );
    assert!(
        reqs.len() < inputs,
        "candidates are embedded in batches ({} requests for {inputs} texts)",
        reqs.len()
    );
}

fn answer(instruction: &str, template: &str) -> String {
    serde_json::json!({"task_instruction": instruction,
        "context": "Initial state: the contact exists. Check: the final state shows the change.",
        "instruction_template": template})
    .to_string()
}

#[test]
fn openai_standin_author_answers_are_checked_and_rejections_go_back_with_diversify() {
    let good_a = answer(
        "For the budget review, flag the latest message from Maya Costa so finance can find it.",
        "flag the latest message from PERSON",
    );
    let good_b = answer(
        "Archive every newsletter from Orbit Weekly in the inbox before the quarterly audit begins.",
        "archive every newsletter from SENDER",
    );
    let replies = [
        "Sure! Here is a task: archive the newsletters.".to_string(),
        answer(
            "Click the flag button on the latest message from Maya Costa in the inbox.",
            "click flag on PERSON",
        ),
        good_a.clone(),
        good_a,
        good_b,
    ];
    let server = StandIn::start(
        replies
            .iter()
            .map(|t| Reply::json(openai_text(t, 900, 60)))
            .collect(),
        None,
    );
    let provider = provider_from_spec(
        &format!("openai:standin-model@{}/v1", server.base),
        &ProviderConfig::default(),
    )
    .unwrap();
    let prompts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let author = LlmAuthor::new(provider, &prompts, &default_skills_dir()).unwrap();
    let req = Request {
        apps: vec!["mail".into()],
        n: 2,
        pass: Some(Pass::Breadth),
        seed: 5,
    };
    let hooks = Hooks {
        author: Some(&author),
        ..Hooks::default()
    };
    let cfg = TaskgenConfig::default();
    let b = generate_with(
        &req,
        &cfg,
        &taxonomies(),
        &Seeds::builtin().unwrap(),
        &[],
        hooks,
    )
    .unwrap();
    assert_eq!(b.tasks.len(), 2);
    let want: BTreeMap<String, usize> = [
        ("invalid_answer", 1),
        ("mechanical", 1),
        ("ngram_overlap", 1),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(b.rejections, want);
    let t = &b.tasks[1];
    assert_eq!(t["generated_by"], "openai:standin-model");
    assert_eq!(t["domains"], serde_json::json!(["mail"]));
    assert!(
        t.get("template").is_none() && t["taxonomy_leaf"].as_str().unwrap().starts_with("mail:")
    );
    let reqs = server.requests();
    assert_eq!(reqs.len(), 5);
    assert!(reqs.iter().all(|r| r.path == "/v1/chat/completions"));
    let user = |i: usize| {
        reqs[i].body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let system = reqs[0].body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("Task author"), "{system}");
    let first = user(0);
    assert!(first.contains("## Taxonomy leaf\nmail:") && first.contains("## SKILL.md of mail"));
    assert!(first.contains("difficulty: ") && !first.contains("Diversify"));
    assert!(user(1).contains("## Diversify") && user(1).contains("not a valid answer"));
    assert!(user(2).contains("mechanical"), "{}", user(2));
    assert!(
        !user(3).contains("Diversify"),
        "a new slot starts without a note"
    );
    assert!(user(4).contains("ngram_overlap"), "{}", user(4));
}

#[test]
fn anthropic_standin_author_via_cli_and_provider_failure_is_an_error() {
    let ok = answer(
        "Before Friday's onboarding session, add Lena Ortiz to the contacts with her work address.",
        "add PERSON to the contacts",
    );
    let server = StandIn::start(vec![Reply::json(anthropic_text(&ok, 500, 40))], None);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let out = bin()
        .env_remove("ANTHROPIC_API_KEY")
        .arg("--store")
        .arg(&db)
        .args(["taskgen", "--json"])
        .args(["--app", "mail", "--n", "1", "--pass", "breadth"])
        .args(["--agent", &format!("anthropic:standin@{}", server.base)])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (s["generated"].as_u64(), s["agent"].as_str()),
        (
            Some(1),
            Some(format!("anthropic:standin@{}", server.base).as_str())
        )
    );
    assert_eq!(server.requests()[0].path, "/v1/messages");
    // The author's tokens are stored under the taskgen stage and costed by `stats`.
    let store = Store::open(&db, std::time::Duration::from_secs(5)).unwrap();
    let st = compute(&store, &StatsConfig::default(), Population::All).unwrap();
    let m = &st.costs.models[0];
    assert_eq!(
        (m.model.as_str(), m.input_tokens, m.output_tokens),
        ("anthropic:standin", 500, 40)
    );
    assert_eq!(st.population_size, 1);
    // A refused call (HTTP 401) is an infrastructure failure: the command fails and says why.
    let refusing = StandIn::start(
        vec![],
        Some(Reply::raw(401, "{\"error\":{\"message\":\"bad key\"}}")),
    );
    let out = bin()
        .args(["--store", "/nonexistent/never.db", "taskgen", "--no-store"])
        .args(["--app", "mail", "--n", "1"])
        .args(["--agent", &format!("openai:m@{}/v1", refusing.base)])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("401") && err.contains("bad key"),
        "{err}"
    );
}

#[test]
fn embeddings_standin_config_file_sets_taskgen_and_flags_override_it() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tw.toml");
    std::fs::write(
        &cfg,
        "[taskgen.embeddings]\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"from-file\"\nmax_retries = 0\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        bin()
            .arg("--config")
            .arg(&cfg)
            .args([
                "--store",
                "/nonexistent/never.db",
                "taskgen",
                "--no-store",
                "--json",
            ])
            .args(["--app", "mail", "--n", "3"])
            .args(extra)
            .output()
            .unwrap()
    };
    // The file's endpoint is unreachable: with on_error = "fail" the batch aborts, naming it.
    let out = run(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("embeddings"), "{err}");
    // The flag overrides the file's base URL; the file's model is kept.
    let (base, seen) = embed_standin::start(false);
    let out = run(&["--embeddings-url", &base]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (s["generated"].as_u64(), s["embeddings"].as_str()),
        (Some(3), Some("from-file"))
    );
    assert!(seen
        .lock()
        .unwrap()
        .requests
        .iter()
        .all(|r| r["model"] == "from-file"));
    // A misspelt key is named by its path.
    std::fs::write(&cfg, "[taskgen]\ncosine = 0.9\n").unwrap();
    let out = run(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("taskgen.cosine"),
        "{err}"
    );
}

#[test]
fn config_file_filter_and_rollout_sections_are_read_when_no_flag_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tw.toml");
    std::fs::write(
        &cfg,
        "[filter]\nquorum = \"bogus\"\n[rollout]\ndelta = -1.0\n",
    )
    .unwrap();
    // filter and rollout decide stored tuples: they refuse a store that does not exist.
    tuplewright::engine::store::Store::open(
        &dir.path().join("s.db"),
        std::time::Duration::from_secs(5),
    )
    .unwrap();
    let run = |args: &[&str]| {
        bin()
            .arg("--config")
            .arg(&cfg)
            .arg("--store")
            .arg(dir.path().join("s.db"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["filter"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("bogus"), "{err}");
    let out = run(&["filter", "--quorum", "strict", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["rollout"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--delta above 0"),
        "{err}"
    );
}
