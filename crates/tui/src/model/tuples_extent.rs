//! What the Tuples table's column widths depend on, measured over the rows of one view (issue
//! #33): the longest id and, per optional column shown, its longest value and how many tuples
//! have one. Measuring all 32k rows on every frame was a fifth of a frame, so the measure is kept
//! per rows/view/columns triple and taken again only when one of them changes.

use std::sync::Arc;

use crate::columns::Column;
use crate::data::TaskRow;

/// The measure of one view, for the optional columns it was taken for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColumnExtent {
    /// The longest id, in bytes (at least 2; a multi-byte id only over-estimates).
    pub id: usize,
    /// The optional columns measured, in order.
    pub columns: Vec<Column>,
    /// Per column of `columns`: its longest value, in bytes.
    pub longest: Vec<usize>,
    /// Per column of `columns`: how many tuples of the view have a value.
    pub filled: Vec<usize>,
}

/// The text of an optional column (app, domain, sev, tags) of a row; empty for the others.
pub fn value(r: &TaskRow, c: Column) -> &str {
    match c {
        Column::App => &r.app,
        Column::Domain => &r.domain,
        Column::Sev => &r.severity,
        Column::Tags => &r.tags,
        _ => "",
    }
}

impl ColumnExtent {
    /// Measures every row of `view` for the optional columns `columns`.
    pub fn measure(rows: &[TaskRow], view: &[u32], columns: &[Column]) -> Self {
        let mut e = ColumnExtent {
            id: 2,
            columns: columns.to_vec(),
            longest: vec![0; columns.len()],
            filled: vec![0; columns.len()],
        };
        for r in view.iter().map(|&i| &rows[i as usize]) {
            e.id = e.id.max(r.id.len());
            for (k, &c) in columns.iter().enumerate() {
                let n = value(r, c).len();
                e.longest[k] = e.longest[k].max(n);
                e.filled[k] += usize::from(n > 0);
            }
        }
        e
    }
}

/// A measure and the very rows and view it was taken on (held, so pointer equality means the
/// same data: rows and views are replaced, never changed in place — and a change through
/// `Arc::make_mut` would copy, since this holds a second reference).
#[derive(Debug)]
pub(super) struct ExtentCache {
    pub(super) rows: Arc<Vec<TaskRow>>,
    pub(super) view: Arc<Vec<u32>>,
    pub(super) extent: ColumnExtent,
}

impl ExtentCache {
    /// True when it was taken on these rows and view for these columns.
    pub(super) fn fits(
        &self,
        rows: &Arc<Vec<TaskRow>>,
        view: &Arc<Vec<u32>>,
        c: &[Column],
    ) -> bool {
        Arc::ptr_eq(&self.rows, rows) && Arc::ptr_eq(&self.view, view) && self.extent.columns == c
    }
}
