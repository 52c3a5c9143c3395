//! Open and copy (issue #33): `O` / `g p` open the Inspector's pane (a script or REVIEW.md) in
//! `$EDITOR` / `$PAGER` — on other screens, or on the runs pane, the selected tuple's meta.json as
//! export writes it; `y y`, `y p`, `y s` copy the id, the bundle path, the pane's text. The model
//! only says what to do ([`Model::external`]); the event loop writes the copy, suspends the
//! terminal and runs the program, or sends the OSC 52 sequence.

use crate::action::{Action, Screen};
use crate::data::EngineCommand;
use crate::external::{External, OpenText, Opener};

use super::inspector::Pane;
use super::notice::Level;
use super::Model;

/// The tuple the action is about: the Inspector's on the Inspector, else the selected one.
fn subject(m: &Model) -> Option<String> {
    match (m.screen, &m.inspector.task_id) {
        (Screen::Inspector, Some(id)) => Some(id.clone()),
        _ => m.selection().map(str::to_string),
    }
}

/// The Inspector's pane as a file: its name and text (`None` on the runs pane or before load).
fn pane_text(m: &Model) -> Option<(String, String)> {
    if m.screen != Screen::Inspector || m.inspector.loading() {
        return None;
    }
    let d = m.inspector.detail.as_ref()?;
    let r = d.rounds.get(m.inspector.round)?;
    let s = &r.round.scripts;
    let text = match m.inspector.pane {
        Pane::Review => Some(&r.round.review_md),
        Pane::Setup => s.setup.as_ref(),
        Pane::Golden => s.golden.as_ref(),
        Pane::Reward => s.reward.as_ref(),
        Pane::Runs => None,
    }?;
    let no = r.round.round_no.unwrap_or(m.inspector.round as i64 + 1);
    let name = format!("round{no}-{}", m.inspector.pane.label());
    Some((name, text.clone()))
}

/// Performs an open or copy action.
pub fn act(m: &mut Model, a: Action) -> Vec<EngineCommand> {
    let Some(id) = subject(m) else {
        m.say(Level::Warning, "no tuple selected");
        return Vec::new();
    };
    match a {
        Action::OpenEditor | Action::OpenPager => {
            let opener = if a == Action::OpenEditor {
                Opener::Editor
            } else {
                Opener::Pager
            };
            match pane_text(m) {
                Some((name, text)) => {
                    let open = OpenText {
                        task_id: id,
                        name,
                        text,
                        opener,
                    };
                    m.external = Some(External::Open(open));
                }
                None => return vec![EngineCommand::LoadMeta(id, opener)],
            }
        }
        Action::YankId => yank(m, "id", id),
        Action::YankPath => {
            let out = m.tuples.export_opts.as_ref().map(|o| o.out.clone());
            let out = out.unwrap_or_else(|| "export".into());
            let out = std::path::absolute(&out).unwrap_or(out);
            yank(m, "bundle path", out.join(&id).display().to_string());
        }
        Action::YankScript => match pane_text(m) {
            Some((name, text)) => yank(m, &name, text),
            None => m.say(
                Level::Warning,
                "y s copies the Inspector's script or REVIEW.md: open a tuple (enter), t picks the pane",
            ),
        },
        _ => {}
    }
    Vec::new()
}

fn yank(m: &mut Model, what: &str, text: String) {
    let n = text.chars().count();
    m.external = Some(External::Yank { text });
    m.say(
        Level::Success,
        format!("copied the {what} ({n} chars) to the clipboard (OSC 52)"),
    );
}

/// The worker's meta.json: open it.
pub fn accept(m: &mut Model, t: OpenText) {
    m.external = Some(External::Open(t));
}

/// Says what came of opening a copy (called by the event loop once the program returned).
pub fn opened(m: &mut Model, t: &OpenText, path: &std::path::Path, result: Result<(), String>) {
    match result {
        Ok(()) if m.readonly => m.say(
            Level::Info,
            format!(
                "{} closed (a read-only copy: {})",
                t.opener.label(),
                path.display()
            ),
        ),
        Ok(()) => m.say(
            Level::Info,
            format!(
                "{} closed — the copy {} is yours; the store is unchanged",
                t.opener.label(),
                path.display()
            ),
        ),
        Err(e) => m.say(Level::Error, format!("{}: {e}", t.opener.label())),
    }
}
