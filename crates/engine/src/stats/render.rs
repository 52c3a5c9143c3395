//! Human-readable tables for [`Stats`].

use std::fmt::Write as _;

use super::{Share, Stats};

/// `n` with comma thousands separators (`32,112`).
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A share table; `of` is the base of its percentages (shown summing to 100.0 when the rows cover
/// it all).
fn share_table(out: &mut String, title: &str, head: &str, rows: &[Share], of: usize) {
    let counts: Vec<usize> = rows.iter().map(|r| r.count).collect();
    let shown = super::shown_percents(&counts, of);
    let _ = writeln!(out, "\n{title}");
    let width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(head.len());
    let _ = writeln!(out, "  {head:<width$}  {:>8}  {:>6}", "Tasks", "%");
    for (r, p) in rows.iter().zip(shown) {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>8}  {:>6.1}",
            r.name,
            thousands(r.count),
            p
        );
    }
    if rows.is_empty() {
        let _ = writeln!(out, "  (none)");
    }
}

/// Renders every table as plain text.
pub fn render(s: &Stats) -> String {
    let mut out = String::new();
    let pop = match s.population {
        super::Population::Final => "final tuples",
        _ => "all tasks",
    };
    let _ = writeln!(
        out,
        "Dataset statistics over {} {pop}",
        thousands(s.population_size)
    );
    if s.synthetic_tasks > 0 {
        let _ = writeln!(
            out,
            "NOTE: {} task(s) in this store are SYNTHETIC (tuplewright synth)",
            thousands(s.synthetic_tasks)
        );
    }
    share_table(
        &mut out,
        "Tasks per scenario (Table 9)",
        "Scenario",
        &s.scenarios,
        s.population_size,
    );

    let _ = writeln!(out, "\nDomain x difficulty (Table 10)");
    let width = s
        .domain_difficulty
        .iter()
        .map(|r| r.domain.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "  {:<width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}",
        "Domain", "Easy", "Medium", "Hard", "None", "Total"
    );
    for r in s
        .domain_difficulty
        .iter()
        .chain(std::iter::once(&s.difficulty_totals))
    {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>7}",
            r.domain,
            thousands(r.easy),
            thousands(r.medium),
            thousands(r.hard),
            thousands(r.unlabelled),
            thousands(r.total)
        );
    }

    share_table(
        &mut out,
        "Top first imperative verbs (Table 11)",
        "Verb",
        &s.top_verbs,
        s.population_size,
    );
    let _ = writeln!(
        out,
        "\nCross-app tasks: {} ({:.1}%)",
        thousands(s.cross_app_tasks.count),
        s.cross_app_tasks.percent
    );
    share_table(
        &mut out,
        "Cross-app pair co-occurrence (Table 12; % of cross-app tasks)",
        "Pair",
        &s.app_pairs,
        s.cross_app_tasks.count,
    );
    let l = &s.instruction_lengths;
    share_table(
        &mut out,
        "Instruction length in words (Table 13)",
        "Length",
        &l.buckets,
        s.population_size,
    );
    let _ = writeln!(
        out,
        "  mean {:.1}; p10 {}; p25 {}; p50 {}; p75 {}; p90 {}; p99 {}; max {}",
        l.mean, l.p10, l.p25, l.p50, l.p75, l.p90, l.p99, l.max
    );

    let _ = writeln!(
        out,
        "\nRounds to convergence (tuples past the loop)\n  Rounds      Tuples       %"
    );
    if s.rounds_to_convergence.is_empty() {
        let _ = writeln!(out, "  (none yet)");
    }
    for r in &s.rounds_to_convergence {
        let _ = writeln!(out, "  {:<8} {:>9} {:>7.1}", r.name, r.count, r.percent);
    }
    if !s.imported_rounds.is_empty() {
        let _ = writeln!(
            out,
            "\nRounds claimed by imported bundles (not run here)\n  Rounds      Tuples       %"
        );
        for r in &s.imported_rounds {
            let _ = writeln!(out, "  {:<8} {:>9} {:>7.1}", r.name, r.count, r.percent);
        }
    }

    let y = &s.yield_per_stage;
    let _ = writeln!(out, "\nYield per stage (A.4.3, all tuples)");
    for (name, v) in [
        ("tasks", y.tasks),
        ("not yet through the loop", y.not_yet_looped),
        ("loop failed", y.loop_failed),
        ("loop-accepted", y.loop_accepted),
        ("vote-rejected", y.vote_rejected),
        ("waiting for a human", y.needs_human),
        ("voted (awaiting rollouts)", y.voted),
        ("rollout-rejected", y.rollout_rejected),
        ("final", y.final_tuples),
        ("dropped", y.dropped),
        ("imported, unverified", y.imported_unverified),
        ("verify failed", y.verify_failed),
        ("verified imports", y.verified_imports),
    ] {
        let _ = writeln!(out, "  {name:<26} {:>8}", thousands(v));
    }
    let _ = writeln!(
        out,
        "  final / loop-accepted      {:>7.1}%",
        y.final_percent_of_loop_accepted
    );
    let _ = writeln!(
        out,
        "  human overrides            {:>8} ({} undo(s); {} tuple(s) currently decided by a person)",
        thousands(y.human_decisions),
        y.human_undos,
        y.human_decided_tuples
    );

    let _ = writeln!(out, "\nCoverage targets (A.2.5)");
    for t in &s.coverage_targets {
        let mark = if t.met { "met" } else { "NOT met" };
        let u = if t.unit == "%" { "%" } else { " " };
        let _ = writeln!(
            out,
            "  {:<46} {:>6.1}{u} {} {:>4.0}{u}  {mark}",
            t.name, t.value_percent, t.op, t.threshold_percent
        );
    }

    let c = &s.costs;
    let _ = writeln!(out, "\nTokens and cost (F.2.1, configured prices)");
    let _ = writeln!(
        out,
        "  {:<28} {:>14} {:>14} {:>12}",
        "Model", "Input tok", "Output tok", "USD"
    );
    for m in &c.models {
        let _ = writeln!(
            out,
            "  {:<28} {:>14} {:>14} {:>12.2}",
            m.model,
            thousands(m.input_tokens.max(0) as usize),
            thousands(m.output_tokens.max(0) as usize),
            m.cost_usd
        );
    }
    let _ = writeln!(
        out,
        "  {:<28} {:>14} {:>14} {:>12.2}",
        "Total",
        thousands(c.input_tokens.max(0) as usize),
        thousands(c.output_tokens.max(0) as usize),
        c.cost_usd
    );
    if c.recorded_cost_usd > 0.0 {
        let _ = writeln!(
            out,
            "  recorded with the calls (provider prices; what `job budget --usd` counts): ${:.2}",
            c.recorded_cost_usd
        );
    }
    if let Some(per) = c.cost_per_final_tuple_usd {
        let _ = writeln!(out, "  per final tuple: ${per:.3}");
    }
    render_agreement(&mut out, &s.agreement);
    out
}

/// The curators' agreement table (only when two curators decided a tuple in common).
fn render_agreement(out: &mut String, a: &tuplewright_records::curate::agreement::Agreement) {
    if a.pairs.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nCurator agreement (latest decision in force of each)"
    );
    let _ = writeln!(
        out,
        "  {:<32} {:>7} {:>7} {:>9} {:>7}",
        "Curators", "Tuples", "Agreed", "Observed", "κ"
    );
    for p in &a.pairs {
        let kappa = p.kappa.map_or("—".to_string(), |k| format!("{k:.3}"));
        let _ = writeln!(
            out,
            "  {:<32} {:>7} {:>7} {:>8.1}% {:>7}",
            format!("{} / {}", p.a, p.b),
            p.tuples,
            p.agreed,
            p.observed * 100.0,
            kappa
        );
    }
    let _ = writeln!(
        out,
        "  tuples decided differently: {}",
        a.disagreeing_tuples
    );
    render_disagreements(out, &a.disagreements);
}

/// The tuples two curators decided differently, with both decisions (the first
/// [`DISAGREEMENTS_SHOWN`]; `contested:yes` on Tuples lists them all).
fn render_disagreements(
    out: &mut String,
    d: &[tuplewright_records::curate::agreement::Disagreement],
) {
    for x in d.iter().take(DISAGREEMENTS_SHOWN) {
        let _ = writeln!(
            out,
            "    {:<28} {} {} · {} {}",
            x.task_id, x.a.0, x.a.1, x.b.0, x.b.1
        );
    }
    if d.len() > DISAGREEMENTS_SHOWN {
        let more = d.len() - DISAGREEMENTS_SHOWN;
        let _ = writeln!(out, "    … {more} more (search contested:yes on Tuples)");
    }
}

/// How many disagreements the Stats text lists.
pub const DISAGREEMENTS_SHOWN: usize = 20;
