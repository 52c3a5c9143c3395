//! The workbench's export (issue #33): the preview of what `export` would write and why each
//! left-out tuple is left out, then the export itself — both the engine's own functions
//! ([`preview`], [`export`]) run on the store worker; exporting reads the store and writes only
//! the output folder, so it works in read-only mode too.

use tuplewright_base::store::Store;
use tuplewright_records::bundle::export::{export, ExportOptions, ExportSummary};
use tuplewright_records::bundle::preview::{preview, ExportPreview};

use super::data::DataUpdate;

/// What the store worker answers.
#[derive(Debug, Clone)]
pub enum ExportUpdate {
    /// The preview, or why it could not be computed.
    Preview(Result<ExportPreview, String>),
    /// The export's summary, or why it failed (bundles already swapped in stay).
    Done(Result<ExportSummary, String>),
}

/// Computes the preview of `opts`.
pub fn load_preview(store: &Store, opts: &ExportOptions) -> DataUpdate {
    let r = preview(store, opts).map_err(|e| e.to_string());
    DataUpdate::Export(Box::new(ExportUpdate::Preview(r)))
}

/// Exports with `opts`.
pub fn run_export(store: &Store, opts: &ExportOptions) -> DataUpdate {
    let r = export(store, opts).map_err(|e| e.to_string());
    DataUpdate::Export(Box::new(ExportUpdate::Done(r)))
}
