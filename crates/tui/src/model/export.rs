//! The export panel on Tuples (issue #33): `E` asks the store worker for the preview of
//! `tuplewright export` with the config's `[export]` settings — how many bundles would be written
//! (new, replaced, unchanged) and every tuple left out with the reason — and shows it; `enter`
//! then exports (the panel stays, showing the result), `j`/`k` scroll, `esc` closes.

use crate::action::{Action, Screen};
use crate::data::EngineCommand;
use crate::export_data::ExportUpdate;
use tuplewright_records::bundle::export::ExportOptions;
use tuplewright_records::bundle::preview::{Change, ExportPreview};

use super::notice::Level;
use super::Model;

/// The panel's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExportPanel {
    /// The preview, once computed.
    pub preview: Option<ExportPreview>,
    /// First line shown.
    pub scroll: usize,
    /// A preview or an export is with the store worker.
    pub busy: bool,
    /// The last export's result line.
    pub result: Option<String>,
}

impl ExportPanel {
    /// The panel's lines: the summary, each bundle, each tuple left out.
    pub fn lines(&self) -> Vec<String> {
        let Some(p) = &self.preview else {
            return vec!["computing the preview…".into()];
        };
        let mut v = vec![p.summary()];
        v.extend(
            p.excluded
                .iter()
                .map(|e| format!("✘ left out {}: {}", e.task_id, e.why)),
        );
        v.extend(p.planned.iter().map(|b| {
            let what = match b.change {
                Change::New => "+ new    ",
                Change::Replace => "~ replace",
                Change::Unchanged => "= same   ",
            };
            format!("{what} {} ({})", b.task_id, b.status)
        }));
        v
    }
}

/// The options the panel previews and exports with (`[export]` of the config).
pub fn options(m: &Model) -> ExportOptions {
    m.tuples.export_opts.clone().unwrap_or_else(|| {
        let c = tuplewright_engine::config::Config::default();
        ExportOptions {
            out: c.export.out_dir,
            url_prefix: c.export.url_prefix,
            statuses: c.export.statuses,
            task: None,
        }
    })
}

/// `E` from any screen: open the panel on Tuples and ask for the preview.
pub fn open(m: &mut Model) -> Vec<EngineCommand> {
    m.screen = Screen::Tuples;
    m.tuples.export = Some(ExportPanel {
        busy: true,
        ..ExportPanel::default()
    });
    vec![EngineCommand::PreviewExport(options(m))]
}

/// A Tuples action while the panel is open; `None` when it is closed or the action is not its.
pub fn act(m: &mut Model, a: Action) -> Option<Vec<EngineCommand>> {
    let p = m.tuples.export.as_mut()?;
    match a {
        Action::Down => p.scroll += 1,
        Action::Up => p.scroll = p.scroll.saturating_sub(1),
        Action::Back => m.tuples.export = None,
        Action::Open if p.busy => m.say(Level::Warning, "the export panel is still being computed"),
        Action::Open => {
            let n = p.preview.as_ref().map_or(0, |x| x.planned.len());
            if n == 0 {
                m.say(
                    Level::Warning,
                    "nothing to export: every tuple is left out (see why)",
                );
                return Some(Vec::new());
            }
            p.busy = true;
            return Some(vec![EngineCommand::Export(options(m))]);
        }
        _ => return None,
    }
    Some(Vec::new())
}

/// The store worker's answer.
pub fn accept(m: &mut Model, u: ExportUpdate) -> Vec<EngineCommand> {
    let Some(p) = m.tuples.export.as_mut() else {
        return Vec::new();
    };
    p.busy = false;
    match u {
        ExportUpdate::Preview(Ok(x)) => {
            p.preview = Some(x);
            p.scroll = 0;
        }
        ExportUpdate::Preview(Err(e)) => m.say(Level::Error, format!("export preview: {e}")),
        ExportUpdate::Done(Err(e)) => m.say(Level::Error, format!("export failed: {e}")),
        ExportUpdate::Done(Ok(s)) => {
            let line = format!(
                "exported: {} written, {} unchanged, {} could not be rendered",
                s.written,
                s.unchanged,
                s.skipped.len()
            );
            p.result = Some(line.clone());
            // The folder changed: the preview shows it as it is now.
            p.busy = true;
            m.say(Level::Success, line);
            return vec![EngineCommand::PreviewExport(options(m))];
        }
    }
    Vec::new()
}
