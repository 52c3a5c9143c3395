//! The batched sentence-embedding check (issue 19's speed work): candidates that pass the cheap
//! checks are admitted tentatively, embedded together and settled in order against the corpus and
//! each other. The embedder here is the endpoint stand-in's concept vectors called in process
//! (paraphrases with different words land close together; the character n-grams do not see them).

use std::collections::BTreeSet;

use rand::rngs::StdRng;
use rand::SeedableRng;
use tuplewright::engine::taskgen::dedup::{best_cosines, cosine, embed, Dedup, Repeat};
use tuplewright::engine::taskgen::embed::{normalised, EmbedError, Embedder, OnError};
use tuplewright::engine::taskgen::generate::{generate_with, Hooks, Request};
use tuplewright::engine::taskgen::matrix::{Cell, Matrix};
use tuplewright::engine::taskgen::seeds::Seeds;
use tuplewright::engine::taskgen::TaskgenConfig;

use super::embed_standin::vector;
use super::taxonomies;

/// The stand-in's concept vectors, normalised, without the HTTP hop.
struct Concepts;

impl Embedder for Concepts {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.iter().map(|t| normalised(vector(t))).collect())
    }
}

const SEEDED: &str = "Send Maya Costa the quarterly budget report before the Friday review.";
const PARAPHRASE: &str = "Email our Q3 spending summary to Maya Costa ahead of Friday's meeting.";
const DISTINCT: &str = "Close every open issue labelled wontfix in the Web project today.";
const OTHER: &str = "Rename every draft in Documents so it ends in -final.";
const OTHER_TOO: &str = "Rename each draft of Documents so it ends in -final, please.";

#[test]
fn batched_settle_gives_the_one_by_one_verdicts_and_compares_within_the_batch() {
    let cfg = TaskgenConfig::default();
    let texts = [SEEDED, DISTINCT, PARAPHRASE, OTHER, OTHER_TOO];
    // The cheap checks let every one of them through.
    let mut offline = Dedup::new(&cfg);
    for (i, t) in texts.iter().enumerate() {
        assert_eq!(offline.admit(&["mail"], &format!("t{i}"), t), Ok(()), "{t}");
    }
    let mut one = Dedup::new(&cfg);
    let single: Vec<bool> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            one.admit_with(
                &["mail"],
                &format!("t{i}"),
                t,
                Some(&Concepts),
                OnError::Fail,
            )
            .unwrap()
            .is_ok()
        })
        .collect();
    assert_eq!(single, [true, true, false, true, false]);
    let mut many = Dedup::new(&cfg);
    for (i, t) in texts.iter().enumerate() {
        many.propose(&["mail"], &format!("t{i}"), t).unwrap();
    }
    assert_eq!(many.unsettled(), 5);
    let batched = many.settle(Some(&Concepts), OnError::Fail).unwrap();
    assert_eq!(
        batched, single,
        "both near-duplicates are in the same batch"
    );
    assert_eq!(many.unsettled(), 0);
    assert_eq!((many.len(), one.len()), (3, 3));
    assert_eq!(many.rejections, one.rejections);
    assert_eq!(many.rejections.get("near_duplicate"), Some(&2));
    // The next batch is compared with the kept ones of the first.
    many.propose(
        &["chat"],
        "t9",
        "Forward the Q3 costs writeup to Maya Costa before Fri.",
    )
    .unwrap();
    assert_eq!(
        many.settle(Some(&Concepts), OnError::Fail).unwrap(),
        [false]
    );
}

#[test]
fn a_withdrawn_candidate_frees_its_template_and_no_longer_counts_for_the_cheap_checks() {
    let cfg = TaskgenConfig {
        per_template_cap: 1,
        ..TaskgenConfig::default()
    };
    let mut d = Dedup::new(&cfg);
    d.admit_with(&["mail"], "kept", SEEDED, Some(&Concepts), OnError::Fail)
        .unwrap()
        .unwrap();
    d.propose(&["mail"], "t", PARAPHRASE).unwrap();
    // While tentative it counts: the same text fails the 4-gram check, its template is taken.
    assert_eq!(
        d.propose(&["mail"], "u", PARAPHRASE),
        Err(Repeat::NgramOverlap)
    );
    assert_eq!(
        d.propose(&["mail"], "t", DISTINCT),
        Err(Repeat::TemplateCap)
    );
    assert_eq!(d.settle(Some(&Concepts), OnError::Fail).unwrap(), [false]);
    assert_eq!(d.len(), 1);
    // Withdrawn: its template slot is free and its text no longer blocks the cheap checks …
    assert_eq!(d.propose(&["mail"], "t", DISTINCT), Ok(()));
    assert_eq!(d.propose(&["mail"], "v", PARAPHRASE), Ok(()));
    // … while the sentence embedding still rejects it against the kept task.
    assert_eq!(
        d.settle(Some(&Concepts), OnError::Fail).unwrap(),
        [true, false]
    );
    assert_eq!(d.len(), 2);
    assert_eq!(d.rejections.get("near_duplicate"), Some(&2));
}

#[test]
fn best_cosines_by_matrix_product_equal_the_scan() {
    let rows: Vec<f32> = (0..300)
        .flat_map(|i| embed(&format!("task number {i} about {}", i * 7 % 13)).to_vec())
        .collect();
    let cands: Vec<Vec<f32>> = ["task number 5 about 9", "something else entirely", "x"]
        .iter()
        .map(|t| embed(t).to_vec())
        .chain([vec![1.0, 0.0]])
        .collect();
    let best = best_cosines(&rows, 256, &cands);
    for (c, b) in cands.iter().zip(&best).take(3) {
        let scan = rows
            .chunks_exact(256)
            .map(|o| cosine(c, o))
            .fold(f32::NEG_INFINITY, f32::max);
        assert!((scan - b).abs() < 1e-5, "{scan} vs {b}");
    }
    assert!(best[0] > 0.99, "the same text is in the rows: {}", best[0]);
    assert_eq!(best[3], f32::NEG_INFINITY, "a vector of another dimension");
    assert_eq!(best_cosines(&[], 256, &cands), vec![f32::NEG_INFINITY; 4]);
}

fn cell(difficulty: &str, scenario: &str) -> Cell {
    Cell {
        platform: "web".into(),
        category: "Communication".into(),
        difficulty: difficulty.into(),
        scenario: scenario.into(),
        task_type: "single_app".into(),
    }
}

/// Every public count of `m` (all ordered maps).
fn counts(m: &Matrix) -> String {
    format!(
        "{:?}",
        (
            &m.cells,
            &m.categories,
            &m.difficulties,
            &m.scenarios,
            &m.platforms,
            &m.task_types,
            &m.apps,
            &m.leaves,
            m.total
        )
    )
}

#[test]
fn matrix_forget_undoes_a_record() {
    let (a, b) = (cell("hard", "personal"), cell("easy", "commercial"));
    let mut once = Matrix::default();
    once.record(&a, &["mail"], Some("mail:compose"));
    let mut twice = once.clone();
    twice.record(&b, &["mail", "files"], Some("mail:reply"));
    assert_ne!(counts(&once), counts(&twice));
    twice.forget(&b, &["mail", "files"], Some("mail:reply"));
    assert_eq!(counts(&once), counts(&twice));
    // The per-cell counts the draws read are undone too: the same seed draws the same cell.
    let draw = |m: &Matrix| {
        m.draw(
            &mut StdRng::seed_from_u64(3),
            "web",
            "single_app",
            [0.2, 0.3, 0.5],
        )
    };
    assert_eq!(draw(&once), draw(&twice));
}

#[test]
fn batched_generation_keeps_no_near_duplicate_pair_and_numbers_tasks_contiguously() {
    let mut cfg = TaskgenConfig::default();
    cfg.embeddings.batch_size = 16;
    let n = 150;
    // The hand-written apps, whose tasks the concept stand-in knows (with every app a batch of
    // 150 draws too few near-repeats to exercise the filter).
    let hand = [
        "team-chat",
        "mail",
        "issue-tracker",
        "ecommerce-admin",
        "files",
    ];
    let req = Request {
        apps: hand.map(String::from).to_vec(),
        n,
        pass: None,
        seed: 4,
    };
    let hooks = Hooks {
        embedder: Some(&Concepts),
        on_embed_error: OnError::Fail,
        ..Hooks::default()
    };
    let seeds = Seeds::builtin().unwrap();
    let batch = generate_with(&req, &cfg, &taxonomies(), &seeds, &[], hooks).unwrap();
    assert_eq!(batch.tasks.len(), n);
    assert!(
        batch.rejections.get("near_duplicate").copied().unwrap_or(0) > 0,
        "the concept vectors reject some scripted candidates: {:?}",
        batch.rejections
    );
    let serials: Vec<usize> = batch
        .tasks
        .iter()
        .map(|t| {
            let id = t["task_id"].as_str().unwrap();
            id.rsplit('_').next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(serials, (1..=n).collect::<Vec<_>>());
    let ids: BTreeSet<&str> = batch
        .tasks
        .iter()
        .map(|t| t["task_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), n);
    let texts: Vec<&str> = batch
        .tasks
        .iter()
        .map(|t| t["task_instruction"].as_str().unwrap())
        .collect();
    let vs = Concepts.embed(&texts).unwrap();
    for i in 0..n {
        for j in 0..i {
            let c = cosine(&vs[i], &vs[j]);
            assert!(
                c < cfg.cosine_threshold,
                "{:?} and {:?} kept at cosine {c}",
                texts[j],
                texts[i]
            );
        }
    }
    // The withdrawn candidates left no trace in the counts.
    assert_eq!(batch.matrix.total as usize, n);
    let leaves: usize = batch.matrix.leaves.values().map(|&v| v as usize).sum();
    assert_eq!(leaves, n);
}
