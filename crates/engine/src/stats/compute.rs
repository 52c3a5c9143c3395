//! Computing [`Stats`] from the store: one pass over the tasks, one aggregate over token usage.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::text::{apps_mentioned, first_verb, percentile, short_app, word_count};
use super::StatsConfig;
use super::{Costs, DomainRow, Lengths, ModelCost, Population, Share, Stats, Yield};
use crate::taskgen::targets::{category_of, evaluate, Tally};
use crate::taskgen::CoverageTargets;
use tuplewright_base::store::db::{Conn, Row};
use tuplewright_base::store::{Store, StoreError, TupleStatus};

/// Length buckets of Table 13: (label, lower bound inclusive).
const BUCKETS: [(&str, usize); 6] = [
    ("0-29", 0),
    ("30-59", 30),
    ("60-99", 60),
    ("100-149", 100),
    ("150-249", 150),
    ("250+", 250),
];

/// Adds one to `key`, allocating the key only the first time it is seen.
fn bump(map: &mut HashMap<String, usize>, key: &str) {
    match map.get_mut(key) {
        Some(c) => *c += 1,
        None => {
            map.insert(key.to_string(), 1);
        }
    }
}

/// The label, or `(none)` when missing or empty.
fn none(v: Option<&str>) -> &str {
    v.filter(|s| !s.is_empty()).unwrap_or("(none)")
}

/// A nullable text column borrowed from the row (no copy).
fn text<'a>(r: &Row<'a>, i: usize) -> Result<Option<&'a str>, StoreError> {
    r.text(i)
}

fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        // Rounded to 0.01 so the JSON is stable and readable.
        (n as f64 * 10_000.0 / of as f64).round() / 100.0
    }
}

fn shares(counts: HashMap<String, usize>, of: usize, top: usize) -> Vec<Share> {
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.into_iter()
        .take(top)
        .map(|(name, count)| Share {
            percent: pct(count, of),
            name,
            count,
        })
        .collect()
}

/// Computes every Appendix F table, with the default A.2.5 targets.
pub fn compute(
    store: &Store,
    cfg: &StatsConfig,
    population: Population,
) -> Result<Stats, StoreError> {
    compute_with(store, cfg, population, &CoverageTargets::default())
}

/// Computes every Appendix F table; the A.2.5 targets are evaluated against `targets` by the same
/// code as `taskgen --report` ([`crate::taskgen::targets`]).
pub fn compute_with(
    store: &Store,
    cfg: &StatsConfig,
    population: Population,
    targets: &CoverageTargets,
) -> Result<Stats, StoreError> {
    let conn = store.conn();
    let mut by_status = HashMap::new();
    for (status, count) in store.status_counts()? {
        by_status.insert(status, count as usize);
    }
    let yield_per_stage = stage_yield(&by_status, conn)?;
    let synthetic_tasks: usize = conn.query_row(
        "SELECT COUNT(*) FROM tasks WHERE origin LIKE 'synthetic:%'",
        [],
        |r| r.get::<i64>(0),
    )? as usize;
    let population = match population {
        Population::Auto if yield_per_stage.final_tuples > 0 => Population::Final,
        Population::Auto => Population::All,
        p => p,
    };

    let mut scenarios = HashMap::new();
    let mut domains: HashMap<String, DomainRow> = HashMap::new();
    let mut verbs = HashMap::new();
    let mut pairs = HashMap::new();
    let mut lengths = Vec::with_capacity(yield_per_stage.tasks);
    let mut cross = 0;
    let mut tally = Tally::default();
    let mut totals = DomainRow {
        domain: "Total".into(),
        easy: 0,
        medium: 0,
        hard: 0,
        unlabelled: 0,
        total: 0,
    };
    // The final ids first (status index), then one streaming pass over tasks in storage order:
    // cheaper than a per-row join lookup. Text is borrowed from SQLite's row buffer, never copied.
    let finals: Option<HashSet<String>> = if population == Population::All {
        None
    } else {
        let mut st = conn.prepare("SELECT task_id FROM tuples WHERE status = 'final'")?;
        let ids = st.query_map([], |r| r.get::<String>(0))?;
        Some(ids.collect::<Result<_, StoreError>>()?)
    };
    let sql = "SELECT t.instruction, t.domain, t.difficulty, t.scenario, t.task_type, t.apps, \
         t.task_id, json_extract(s.original_json, '$.category') \
         FROM tasks t LEFT JOIN task_sources s ON s.task_id = t.task_id";
    conn.for_each(sql, [], |r| {
        if let Some(finals) = &finals {
            if !finals.contains(text(r, 6)?.unwrap_or("")) {
                return Ok(());
            }
        }
        let instruction = text(r, 0)?.unwrap_or("");
        bump(&mut scenarios, none(text(r, 3)?));
        let domain = none(text(r, 1)?);
        if !domains.contains_key(domain) {
            let empty = DomainRow {
                domain: domain.to_string(),
                easy: 0,
                medium: 0,
                hard: 0,
                unlabelled: 0,
                total: 0,
            };
            domains.insert(domain.to_string(), empty);
        }
        let difficulty = text(r, 2)?;
        if let Some(row) = domains.get_mut(domain) {
            for target in [row, &mut totals] {
                match difficulty {
                    Some("easy") => target.easy += 1,
                    Some("medium") => target.medium += 1,
                    Some("hard") => target.hard += 1,
                    _ => target.unlabelled += 1,
                }
                target.total += 1;
            }
        }
        if let Some(v) = first_verb(instruction) {
            bump(&mut verbs, &v);
        }
        lengths.push(word_count(instruction));
        let apps_json = text(r, 5)?.unwrap_or("[]");
        // Only a JSON list with a comma can name two apps: parse just those (and cross tasks).
        let mut listed: Vec<String> = if apps_json.contains(',') {
            serde_json::from_str(apps_json)?
        } else {
            Vec::new()
        };
        let declared_cross = text(r, 4)? == Some("cross_app");
        let category = text(r, 7)?;
        let category = category_of(
            category.filter(|c| !c.is_empty()),
            text(r, 3)?.filter(|s| !s.is_empty() && category.is_none()),
            Some(domain),
        );
        let one_app = apps_json
            .strip_prefix("[\"")
            .and_then(|a| a.strip_suffix("\"]"))
            .filter(|a| !a.contains('"'));
        let app_list: Vec<&str> = match one_app {
            Some(a) => vec![a],
            None if listed.is_empty() => Vec::new(),
            None => listed.iter().map(String::as_str).collect(),
        };
        tally.add(
            category,
            difficulty == Some("hard"),
            declared_cross || listed.len() > 1,
            &app_list,
        );
        if declared_cross || listed.len() > 1 {
            cross += 1;
            if listed.is_empty() {
                listed = serde_json::from_str(apps_json)?;
            }
            let mut apps: BTreeSet<String> = listed.iter().map(|a| short_app(a)).collect();
            if apps.len() < 2 {
                apps.extend(apps_mentioned(instruction));
            }
            let apps: Vec<&String> = apps.iter().collect();
            for (i, a) in apps.iter().enumerate() {
                for b in &apps[i + 1..] {
                    *pairs.entry(format!("{a} + {b}")).or_insert(0) += 1;
                }
            }
        }
        Ok(())
    })?;
    let n = totals.total;
    let mut domain_difficulty: Vec<DomainRow> = domains.into_values().collect();
    domain_difficulty.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.domain.cmp(&b.domain)));

    let scenario_shares = shares(scenarios, n, usize::MAX);
    let coverage_targets = evaluate(&tally, targets);
    let costs = costs(store, cfg, yield_per_stage.final_tuples)?;
    Ok(Stats {
        population,
        population_size: n,
        synthetic_tasks,
        scenarios: scenario_shares,
        domain_difficulty,
        difficulty_totals: totals,
        top_verbs: shares(verbs, n, cfg.top_verbs),
        cross_app_tasks: Share {
            name: "cross_app".into(),
            count: cross,
            percent: pct(cross, n),
        },
        app_pairs: shares(pairs, cross, cfg.top_pairs),
        instruction_lengths: length_stats(lengths),
        rounds_to_convergence: rounds(conn, CONVERGED)?,
        imported_rounds: rounds(conn, IMPORTED)?,
        yield_per_stage,
        coverage_targets,
        costs,
        agreement: tuplewright_records::curate::agreement::agreement(store)?,
    })
}

/// Statuses of tuples past the agreement loop.
const PAST_LOOP: &str =
    "('loop_accepted', 'voted', 'vote_rejected', 'needs_human', 'rollout_rejected', 'final')";

/// Rounds the harness ran, per tuple past the loop (import and verify rounds are no convergence).
const CONVERGED: &str = "SELECT r.task_id, MAX(r.round_no) AS n FROM rounds r \
     JOIN tuples u ON u.task_id = r.task_id \
     WHERE r.source NOT IN ('import', 'verify') AND u.status IN ('loop_accepted', 'voted', \
     'vote_rejected', 'needs_human', 'rollout_rejected', 'final') GROUP BY r.task_id";

/// Rounds imported bundles claim, per imported task.
const IMPORTED: &str =
    "SELECT r.task_id, MAX(r.round_no) AS n FROM rounds r WHERE r.source = 'import' GROUP BY r.task_id";

/// A histogram `1`, `2`, ... `max` of the per-task round counts `per_task` selects.
fn rounds(conn: &Conn, per_task: &str) -> Result<Vec<Share>, StoreError> {
    let mut st = conn.prepare(&format!(
        // The alias is required by PostgreSQL before 16.
        "SELECT n, COUNT(*) FROM ({per_task}) per_task GROUP BY n ORDER BY n"
    ))?;
    let rows: Vec<(i64, i64)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, StoreError>>()?;
    let total: i64 = rows.iter().map(|r| r.1).sum();
    let max = rows.last().map_or(0, |r| r.0);
    Ok((1..=max)
        .map(|k| {
            let count = rows.iter().find(|r| r.0 == k).map_or(0, |r| r.1) as usize;
            Share {
                name: k.to_string(),
                count,
                percent: pct(count, total as usize),
            }
        })
        .collect())
}

fn length_stats(mut lengths: Vec<usize>) -> Lengths {
    lengths.sort_unstable();
    let n = lengths.len();
    let buckets = BUCKETS
        .iter()
        .enumerate()
        .map(|(i, (name, lo))| {
            let hi = BUCKETS.get(i + 1).map_or(usize::MAX, |b| b.1);
            let count = lengths.iter().filter(|l| **l >= *lo && **l < hi).count();
            Share {
                name: name.to_string(),
                count,
                percent: pct(count, n),
            }
        })
        .collect();
    let mean = if n == 0 {
        0.0
    } else {
        lengths.iter().sum::<usize>() as f64 / n as f64
    };
    Lengths {
        buckets,
        mean: (mean * 100.0).round() / 100.0,
        p10: percentile(&lengths, 10.0),
        p25: percentile(&lengths, 25.0),
        p50: percentile(&lengths, 50.0),
        p75: percentile(&lengths, 75.0),
        p90: percentile(&lengths, 90.0),
        p99: percentile(&lengths, 99.0),
        max: lengths.last().copied().unwrap_or(0),
    }
}

fn stage_yield(by_status: &HashMap<String, usize>, conn: &Conn) -> Result<Yield, StoreError> {
    let human = |sql: &str| -> Result<usize, StoreError> {
        Ok(conn.query_row(sql, [], |r| r.get::<i64>(0))? as usize)
    };
    let human_decisions = human("SELECT COUNT(*) FROM decisions WHERE source = 'human'")?;
    let human_undos =
        human("SELECT COUNT(*) FROM decisions WHERE source = 'human' AND compensates IS NOT NULL")?;
    // The decision in effect for a tuple is its latest one that is neither an undo nor undone: an
    // undo (even a person's) restores the status of the decision before, so it decides nothing.
    let human_decided_tuples = human(
        "WITH undone AS (SELECT compensates AS id FROM decisions WHERE compensates IS NOT NULL), \
         effective AS (SELECT MAX(id) AS id FROM decisions WHERE compensates IS NULL \
                       AND id NOT IN (SELECT id FROM undone) GROUP BY task_id) \
         SELECT COUNT(*) FROM effective e JOIN decisions d ON d.id = e.id WHERE d.source = 'human'",
    )?;
    let count = |s: TupleStatus| by_status.get(s.as_str()).copied().unwrap_or(0);
    // Past the loop by status, but only ever verified by `verify`: not loop-accepted.
    let verified_imports = human(&format!(
        "SELECT COUNT(*) FROM tuples u WHERE u.status IN {PAST_LOOP} \
         AND EXISTS (SELECT 1 FROM rounds r WHERE r.task_id = u.task_id AND r.source = 'import') \
         AND NOT EXISTS (SELECT 1 FROM rounds r WHERE r.task_id = u.task_id \
                         AND r.source NOT IN ('import', 'verify'))"
    ))?;
    let loop_accepted = TupleStatus::ALL
        .into_iter()
        .filter(|s| s.passed_loop())
        .map(count)
        .sum::<usize>()
        - verified_imports;
    let final_tuples = count(TupleStatus::Final);
    Ok(Yield {
        tasks: by_status.values().sum(),
        not_yet_looped: count(TupleStatus::Pending) + count(TupleStatus::InLoop),
        loop_failed: count(TupleStatus::LoopFailed),
        loop_accepted,
        vote_rejected: count(TupleStatus::VoteRejected),
        needs_human: count(TupleStatus::NeedsHuman),
        rollout_rejected: count(TupleStatus::RolloutRejected),
        final_tuples,
        dropped: count(TupleStatus::Dropped),
        final_percent_of_loop_accepted: pct(
            final_tuples.saturating_sub(verified_imports),
            loop_accepted,
        ),
        voted: count(TupleStatus::Voted),
        human_decisions,
        human_undos,
        human_decided_tuples,
        imported_unverified: count(TupleStatus::Imported),
        verify_failed: count(TupleStatus::VerifyFailed),
        verified_imports,
    })
}

fn costs(store: &Store, cfg: &StatsConfig, finals: usize) -> Result<Costs, StoreError> {
    let mut stmt = store.conn().prepare(
        "SELECT model, SUM(input_tokens), SUM(output_tokens), \
         CAST(COALESCE(SUM(cost_usd), 0) AS DOUBLE PRECISION) FROM usage GROUP BY model \
         ORDER BY model",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<String>(0)?,
            r.get::<i64>(1)?,
            r.get::<i64>(2)?,
            r.get::<f64>(3)?,
        ))
    })?;
    let mut models = Vec::new();
    for row in rows {
        let (model, input_tokens, output_tokens, recorded) = row?;
        let price = cfg.prices.models.get(&model).unwrap_or(&cfg.prices.default);
        let cost = input_tokens as f64 / 1e6 * price.input_per_mtok
            + output_tokens as f64 / 1e6 * price.output_per_mtok;
        models.push(ModelCost {
            model,
            input_tokens,
            output_tokens,
            cost_usd: (cost * 1e4).round() / 1e4,
            recorded_cost_usd: (recorded * 1e4).round() / 1e4 + 0.0,
        });
    }
    // `+ 0.0` turns the -0.0 of an empty float sum into 0.0 (printed "-0.00" otherwise).
    let cost_usd = (models.iter().map(|m| m.cost_usd).sum::<f64>() * 1e4).round() / 1e4 + 0.0;
    Ok(Costs {
        input_tokens: models.iter().map(|m| m.input_tokens).sum(),
        output_tokens: models.iter().map(|m| m.output_tokens).sum(),
        cost_usd,
        recorded_cost_usd: (models.iter().map(|m| m.recorded_cost_usd).sum::<f64>() * 1e4).round()
            / 1e4
            + 0.0,
        cost_per_final_tuple_usd: (finals > 0)
            .then(|| (cost_usd / finals as f64 * 1e4).round() / 1e4),
        models,
    })
}
