//! Coverage against the A.2.5 targets: largest domain category <= 21%, hard >= 40%, cross-app >= 35%,
//! each app at least its minimum and at most 15% (a cross-app task counts for each of its apps).
//! The targets themselves come from [`super::targets`], the code `stats` uses too.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use super::matrix::{Cell, Matrix};
use super::targets::{category_of, evaluate, Tally, Target};
use super::CoverageTargets;

/// The coverage report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Tasks counted.
    pub total: u32,
    /// Distinct cells with at least one task.
    pub cells_covered: usize,
    /// The counts.
    pub matrix: Matrix,
    /// Targets.
    pub targets: Vec<Target>,
}

fn field<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("(none)")
}

/// Builds the matrix from task-gen JSON objects (category per [`category_of`]).
pub fn matrix_of(tasks: &[Value]) -> Matrix {
    let mut m = Matrix::default();
    for t in tasks {
        let apps: Vec<&str> = t
            .get("domains")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let cell = Cell {
            platform: field(t, "platform").into(),
            category: category_of(
                t.get("category").and_then(Value::as_str),
                t.get("scenario")
                    .and_then(Value::as_str)
                    .filter(|_| t.get("category").is_none() && t.get("taxonomy_leaf").is_none()),
                t.get("domain").and_then(Value::as_str),
            )
            .into(),
            difficulty: field(t, "difficulty").into(),
            scenario: field(t, "scenario").into(),
            task_type: t
                .get("task_type")
                .and_then(Value::as_str)
                .unwrap_or(if apps.len() > 1 {
                    "cross_app"
                } else {
                    "single_app"
                })
                .into(),
        };
        m.record(&cell, &apps, t.get("taxonomy_leaf").and_then(Value::as_str));
    }
    m
}

fn pct(n: u32, total: u32) -> f64 {
    100.0 * f64::from(n) / f64::from(total.max(1))
}

/// The counts of `matrix` the targets are computed from.
pub fn tally(matrix: &Matrix) -> Tally {
    Tally {
        total: matrix.total,
        categories: matrix.categories.clone(),
        hard: matrix.difficulties.get("hard").copied().unwrap_or(0),
        cross: matrix.task_types.get("cross_app").copied().unwrap_or(0),
        apps: matrix.apps.clone(),
    }
}

/// Evaluates the targets on `matrix`.
pub fn report(matrix: Matrix, cfg: &CoverageTargets) -> Report {
    let targets = evaluate(&tally(&matrix), cfg);
    Report {
        total: matrix.total,
        cells_covered: matrix.cells.len(),
        matrix,
        targets,
    }
}

fn dim(out: &mut String, name: &str, m: &BTreeMap<String, u32>, total: u32) {
    let parts: Vec<String> = m
        .iter()
        .map(|(k, n)| format!("{k} {n} ({:.1}%)", pct(*n, total)))
        .collect();
    let _ = writeln!(out, "  {name:<12} {}", parts.join(", "));
}

impl Report {
    /// Plain-text rendering.
    pub fn render(&self) -> String {
        let mut out = format!(
            "coverage of {} task(s), {} matrix cell(s) populated\n",
            self.total, self.cells_covered
        );
        let m = &self.matrix;
        dim(&mut out, "platform", &m.platforms, self.total);
        dim(&mut out, "category", &m.categories, self.total);
        dim(&mut out, "difficulty", &m.difficulties, self.total);
        dim(&mut out, "scenario", &m.scenarios, self.total);
        dim(&mut out, "task type", &m.task_types, self.total);
        dim(&mut out, "apps", &m.apps, self.total);
        let _ = writeln!(
            out,
            "  leaves       {} covered, min {} / max {} per leaf",
            m.leaves.len(),
            m.leaves.values().min().unwrap_or(&0),
            m.leaves.values().max().unwrap_or(&0)
        );
        let _ = writeln!(out, "targets (A.2.5):");
        for t in &self.targets {
            let _ = writeln!(
                out,
                "  {:<9} {:<46} {:>7.1}{} {} {}{}",
                if t.met { "[met]" } else { "[NOT met]" },
                t.name,
                t.value_percent,
                if t.unit == "%" { "%" } else { "" },
                t.op,
                t.threshold_percent,
                if t.unit == "%" { "%" } else { " tasks" },
            );
        }
        out
    }
}
