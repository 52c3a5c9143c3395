//! State of the Tuples screen: the shared rows, the current view, selection, filters and search.

use std::cell::Cell;
use std::sync::Arc;

use super::tuples_extent::ColumnExtent;
use crate::columns::Column;
use crate::data::TaskRow;
use crate::matcher::{SortKey, ViewResult, ViewSpec};

/// Tuples screen state.
#[derive(Debug, Default)]
pub struct TuplesState {
    /// Every tuple (as last loaded).
    pub rows: Arc<Vec<TaskRow>>,
    /// Row indices in display order (the last computed view).
    pub view: Arc<Vec<u32>>,
    /// Selected position in `view`.
    pub selected: usize,
    /// First visible position (kept by the renderer so the selection stays visible).
    pub offset: Cell<usize>,
    /// Fuzzy query.
    pub query: String,
    /// True while the query is being typed.
    pub searching: bool,
    /// Status filter.
    pub status: Option<String>,
    /// Difficulty filter.
    pub difficulty: Option<String>,
    /// App filter.
    pub app: Option<String>,
    /// Worst-severity filter.
    pub severity: Option<String>,
    /// Sort column.
    pub sort: SortKey,
    /// Descending.
    pub reverse: bool,
    /// Generation of the latest requested view.
    pub generation: u64,
    /// True while a view is being computed.
    pub computing: bool,
    /// True once the first rows arrived.
    pub loaded: bool,
    /// True once the whole list (with rewards) arrived.
    pub complete: bool,
    /// A tuple to select once a view shows it (an undone tuple the current view had left out).
    pub want: Option<String>,
    /// Tuples marked for a bulk decision (issue #33), by id; kept across searches and filters.
    pub marked: std::collections::HashSet<String>,
    /// The reason (or instruction) line of a bulk decision, when open.
    pub bulk: Option<super::bulk::BulkPrompt>,
    /// A bulk decision or group undo is with the store worker.
    pub bulk_busy: bool,
    /// The complete rows shown when the bulk command went out (`None`: not all loaded): its
    /// answer has them patched instead of reloading them (#33).
    pub bulk_base: Option<Arc<Vec<TaskRow>>>,
    /// The last event a bulk decision (or group undo) wrote: its answer reloads the rows once, so
    /// these events, read later in batches, do not reload them again (issue #33).
    pub bulk_echo: i64,
    /// `[curate] conflict`, sent with each bulk decision.
    pub policy: tuplewright_records::curate::ConflictPolicy,
    /// The re-run settings line, when open (issue #33).
    pub rerun: Option<super::stages::RerunPrompt>,
    /// The re-run line's starting text (`rounds=K fault=F generator=SPEC` from the config).
    pub rerun_default: String,
    /// The taskgen line's starting text (`apps=… n=10 seed=0 author=…` from the config).
    pub taskgen_default: String,
    /// The export panel, when open.
    pub export: Option<super::export::ExportPanel>,
    /// `[export]` of the config (out dir, URL prefix, statuses), for the export panel.
    pub export_opts: Option<tuplewright_records::bundle::export::ExportOptions>,
    /// Column order and visibility (the `#` chooser; issue #33).
    pub columns: crate::columns::Columns,
    /// The saved views and column layout as last read or written (issue #33).
    pub views: tuplewright_records::curate::views::ViewsFile,
    /// Where the views file is (`None`: nowhere to save; the panels say so).
    pub views_path: Option<std::path::PathBuf>,
    /// The saved view last applied or saved (its name is in the title).
    pub view_name: Option<String>,
    /// The open panel: save a view, the views list, the column chooser or the note editor.
    pub panel: Option<super::panels::Panel>,
    /// `[curate] tags`: the tags offered by the note editor (empty: any tag, typed as `+tag`).
    pub tag_list: Vec<String>,
    /// The column measure of the last drawn view (issue #33: kept while the rows, the view and
    /// the optional columns shown are the same).
    extent_cache: std::cell::RefCell<Option<super::tuples_extent::ExtentCache>>,
}

impl TuplesState {
    /// The current view's [`ColumnExtent`] for the optional columns `columns` (those the column
    /// chooser shows): measured once per rows/view/columns, then reused by every frame.
    pub fn extent(&self, columns: &[Column]) -> ColumnExtent {
        let mut cache = self.extent_cache.borrow_mut();
        if let Some(c) = cache
            .as_ref()
            .filter(|c| c.fits(&self.rows, &self.view, columns))
        {
            return c.extent.clone();
        }
        let extent = ColumnExtent::measure(&self.rows, &self.view, columns);
        let old = cache.replace(super::tuples_extent::ExtentCache {
            rows: Arc::clone(&self.rows),
            view: Arc::clone(&self.view),
            extent: extent.clone(),
        });
        // It may hold the last reference to replaced rows: freed off the drawing thread.
        crate::retire::later(old);
        extent
    }

    /// Takes a new tuple list; the old one is freed off the drawing thread (#33: tens of
    /// thousands of rows are a frame's budget to free).
    pub fn set_rows(&mut self, rows: Arc<Vec<TaskRow>>) {
        crate::retire::later(std::mem::replace(&mut self.rows, rows));
    }

    /// Takes the same rows with new statuses and contested flags (a bulk decision's patch):
    /// the column measure, which reads neither, stays valid for them.
    pub fn set_patched_rows(&mut self, rows: Arc<Vec<TaskRow>>) {
        if let Some(c) = self.extent_cache.borrow_mut().as_mut() {
            if Arc::ptr_eq(&c.rows, &self.rows) {
                crate::retire::later(std::mem::replace(&mut c.rows, Arc::clone(&rows)));
            }
        }
        self.set_rows(rows);
    }

    /// A view request for the current settings (bumps the generation).
    pub fn request(&mut self) -> ViewSpec {
        self.generation += 1;
        self.computing = true;
        ViewSpec {
            generation: self.generation,
            rows: Arc::clone(&self.rows),
            query: self.query.clone(),
            status: self.status.clone(),
            difficulty: self.difficulty.clone(),
            app: self.app.clone(),
            severity: self.severity.clone(),
            sort: self.sort,
            reverse: self.reverse,
        }
    }

    /// Takes a computed view if it is the latest one; keeps the selected tuple when still shown.
    pub fn accept(&mut self, result: ViewResult) {
        if result.generation != self.generation {
            return;
        }
        let previous = self.selected_id().map(str::to_string);
        self.view = result.indices;
        self.computing = false;
        self.selected = previous
            .and_then(|id| {
                self.view
                    .iter()
                    .position(|&i| self.rows[i as usize].id == id)
            })
            .unwrap_or(0);
    }

    /// The selected row.
    pub fn selected_row(&self) -> Option<&TaskRow> {
        self.view
            .get(self.selected)
            .map(|&i| &self.rows[i as usize])
    }

    /// The selected task id.
    pub fn selected_id(&self) -> Option<&str> {
        self.selected_row().map(|r| r.id.as_str())
    }

    /// Moves the selection onto the row of `id` when it is in the view; false when it is not.
    pub fn select_id(&mut self, id: &str) -> bool {
        let rows = &self.rows;
        match self.view.iter().position(|&i| rows[i as usize].id == id) {
            Some(p) => {
                self.selected = p;
                true
            }
            None => false,
        }
    }

    /// Moves the selection by `delta`, clamped.
    pub fn move_by(&mut self, delta: isize) {
        let last = self.view.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }

    /// Jumps to the first or last row.
    pub fn jump(&mut self, to_end: bool) {
        self.selected = if to_end {
            self.view.len().saturating_sub(1)
        } else {
            0
        };
    }

    /// The next value of a filter: none → each distinct value (sorted) → none.
    pub fn cycle(&self, current: &Option<String>, field: fn(&TaskRow) -> &str) -> Option<String> {
        let mut values: Vec<&str> = self
            .rows
            .iter()
            .map(field)
            .filter(|v| !v.is_empty())
            .collect();
        values.sort_unstable();
        values.dedup();
        match current {
            None => values.first().map(|v| v.to_string()),
            Some(c) => values
                .iter()
                .position(|v| v == c)
                .and_then(|p| values.get(p + 1))
                .map(|v| v.to_string()),
        }
    }

    /// The next sort column.
    pub fn next_sort(&mut self) {
        let i = SortKey::ALL
            .iter()
            .position(|k| *k == self.sort)
            .unwrap_or(0);
        self.sort = SortKey::ALL[(i + 1) % SortKey::ALL.len()];
    }
}
