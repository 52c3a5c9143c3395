//! Coverage against the A.2.5 targets: largest domain category <= 21%, hard >= 40%, cross-app >= 35%,
//! each app at least its minimum and at most 15% (a cross-app task counts for each of its apps).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use super::matrix::{Cell, Matrix};

/// One target and whether it is met.
#[derive(Debug, Clone, Serialize)]
pub struct Target {
    /// What is measured.
    pub what: String,
    /// Measured percentage.
    pub value: f64,
    /// `<=` or `>=`.
    pub op: &'static str,
    /// Threshold in percent (or a count for minima).
    pub threshold: f64,
    /// Met?
    pub met: bool,
}

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

/// Builds the matrix from task-gen JSON objects (the `category` field, else `domain`).
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
            category: t
                .get("category")
                .and_then(Value::as_str)
                .unwrap_or_else(|| field(t, "domain"))
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

/// Evaluates the targets. `app_minimum` is the per-app minimum task count; `app_max_pct` the maximum share.
pub fn report(matrix: Matrix, app_minimum: u32, app_max_pct: f64) -> Report {
    let total = matrix.total;
    let mut targets = Vec::new();
    let (cat, largest) = matrix
        .categories
        .iter()
        .max_by_key(|(_, n)| **n)
        .map(|(c, n)| (c.clone(), *n))
        .unwrap_or_default();
    let v = pct(largest, total);
    targets.push(Target {
        what: format!("largest domain category ({cat})"),
        value: v,
        op: "<=",
        threshold: 21.0,
        met: v <= 21.0,
    });
    let v = pct(matrix.difficulties.get("hard").copied().unwrap_or(0), total);
    targets.push(Target {
        what: "hard tasks".into(),
        value: v,
        op: ">=",
        threshold: 40.0,
        met: v >= 40.0,
    });
    let v = pct(
        matrix.task_types.get("cross_app").copied().unwrap_or(0),
        total,
    );
    targets.push(Target {
        what: "cross-app tasks".into(),
        value: v,
        op: ">=",
        threshold: 35.0,
        met: v >= 35.0,
    });
    for (app, n) in &matrix.apps {
        targets.push(Target {
            what: format!("{app} tasks (count)"),
            value: f64::from(*n),
            op: ">=",
            threshold: f64::from(app_minimum),
            met: *n >= app_minimum,
        });
        let v = pct(*n, total);
        targets.push(Target {
            what: format!("{app} share"),
            value: v,
            op: "<=",
            threshold: app_max_pct,
            met: v <= app_max_pct,
        });
    }
    Report {
        total,
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
                "  [{}] {:<40} {:>7.1} {} {}",
                if t.met { "met" } else { "NOT met" },
                t.what,
                t.value,
                t.op,
                t.threshold
            );
        }
        out
    }
}
