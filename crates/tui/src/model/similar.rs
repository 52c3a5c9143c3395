//! The Tuples screen's similar-tuples panel: `=` lists the selected tuple's nearest neighbours in
//! the store with their cosine; up/down move in the list, enter selects that tuple in the list
//! (when the current view shows it), esc or `=` again closes the panel.

use crate::action::Action;
use crate::data::EngineCommand;
use crate::similar_data::SimilarUpdate;
use tuplewright_models::embedder::similar::Similar;

use super::Model;

/// Panel state.
#[derive(Debug, Default)]
pub struct SimilarState {
    /// True while the panel is shown.
    pub open: bool,
    /// The tuple whose neighbours are shown or loading.
    pub task_id: Option<String>,
    /// The neighbours, once computed.
    pub result: Option<Similar>,
    /// Why they could not be listed.
    pub error: Option<String>,
    /// Selected neighbour.
    pub selected: usize,
}

impl SimilarState {
    /// Takes an answer if it is for the tuple asked about.
    pub fn accept(&mut self, u: SimilarUpdate) {
        if self.task_id.as_deref() != Some(u.task_id.as_str()) {
            return;
        }
        self.selected = 0;
        match u.result {
            Ok(s) => {
                self.result = Some(s);
                self.error = None;
            }
            Err(e) => {
                self.result = None;
                self.error = Some(e);
            }
        }
    }

    /// True while the answer for the tuple asked about is awaited.
    pub fn loading(&self) -> bool {
        self.open && self.result.is_none() && self.error.is_none()
    }

    fn len(&self) -> usize {
        self.result.as_ref().map_or(0, |s| s.neighbours.len())
    }
}

/// Handles `a` on the Tuples screen when it concerns the panel; `None` lets the list have it.
pub fn act(m: &mut Model, a: Action) -> Option<Vec<EngineCommand>> {
    let p = &mut m.similar;
    match a {
        Action::Similar => {
            let id = m.tuples.selected_id()?.to_string();
            if p.open && p.task_id.as_deref() == Some(id.as_str()) {
                p.open = false;
                return Some(Vec::new());
            }
            *p = SimilarState {
                open: true,
                task_id: Some(id.clone()),
                ..SimilarState::default()
            };
            Some(vec![EngineCommand::LoadSimilar(id)])
        }
        _ if !p.open => None,
        Action::Back => {
            p.open = false;
            Some(Vec::new())
        }
        Action::Down => {
            p.selected = (p.selected + 1).min(p.len().saturating_sub(1));
            Some(Vec::new())
        }
        Action::Up => {
            p.selected = p.selected.saturating_sub(1);
            Some(Vec::new())
        }
        Action::Open => {
            let target = p
                .result
                .as_ref()
                .and_then(|s| s.neighbours.get(p.selected))
                .map(|n| n.task_id.clone())?;
            let t = &mut m.tuples;
            match t.view.iter().position(|&i| t.rows[i as usize].id == target) {
                Some(pos) => {
                    t.selected = pos;
                    p.open = false;
                }
                None => {
                    m.notice = Some(format!(
                        "{target} is not in the current view (c clears the filters)"
                    ))
                }
            }
            Some(Vec::new())
        }
        _ => None,
    }
}
