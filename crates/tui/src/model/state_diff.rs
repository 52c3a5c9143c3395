//! State of the State diff screen: the tuple's stored states (loaded by the store worker), which
//! round and which comparison (initial vs golden, or initial vs a rollout trial's final state),
//! table or tree, unified or side-by-side, masked keys shown or not, folds, the cursor and the
//! in-screen `/` search. The display lines are rebuilt here on every such change, never per frame.

use std::collections::HashSet;

use crate::action::Action;
use crate::data::EngineCommand;
use crate::keymap::{Code, Key};
use crate::state_data::TupleStates;
use crate::state_rows::{build, change_count, BuildOpts, DLine};
use tuplewright_base::store::{StateEndpoint, StoredState};

/// State diff screen state.
#[derive(Debug, Default)]
pub struct StateDiffState {
    /// The tuple requested (its states may still be loading).
    pub task_id: Option<String>,
    /// The loaded states.
    pub data: Option<TupleStates>,
    /// Index into the rounds.
    pub round: usize,
    /// 0 = golden; k = the final state of rollout trial k (1-based index into the trials).
    pub compare: usize,
    /// JSON tree (true) or flat key-path table.
    pub tree: bool,
    /// Side-by-side (true) or unified.
    pub split: bool,
    /// Volatile (masked) keys shown, dimmed.
    pub show_masked: bool,
    /// Tree nodes whose fold differs from the default.
    pub toggled: HashSet<String>,
    /// The cursor line.
    pub cursor: usize,
    /// Typing a search.
    pub searching: bool,
    /// The search text.
    pub query: String,
    /// Lines matching the search.
    pub matches: Vec<usize>,
    /// The cursor line when the search started (typing jumps to the first match from there).
    pub search_from: usize,
    /// The lines drawn.
    pub lines: Vec<DLine>,
    /// Why there is nothing to compare (shown instead of the lines).
    pub empty: Option<String>,
    /// Changed key paths of the comparison (the engine's diff under the mask): one count
    /// whatever the view, table or tree, unified or side-by-side.
    pub changes: usize,
}

impl StateDiffState {
    /// Asks for `task_id`'s states unless they are the ones shown.
    pub fn open(&mut self, task_id: Option<&str>) -> Vec<EngineCommand> {
        let Some(id) = task_id else {
            return Vec::new();
        };
        if self.task_id.as_deref() == Some(id) {
            return Vec::new();
        }
        self.task_id = Some(id.to_string());
        self.data = None;
        self.toggled.clear();
        self.cursor = 0;
        vec![EngineCommand::LoadStates(id.to_string())]
    }

    /// Re-reads the shown tuple's states when an event concerns it (a new round or rollout).
    pub fn on_event(&self, kind: &str, task_id: Option<&str>) -> Option<EngineCommand> {
        let id = self.task_id.as_deref()?;
        (matches!(kind, "round.recorded" | "rollout.recorded") && task_id == Some(id))
            .then(|| EngineCommand::LoadStates(id.to_string()))
    }

    /// Takes loaded states if they are the ones requested; shows the latest round.
    pub fn accept(&mut self, data: TupleStates) {
        if self.task_id.as_deref() != Some(data.task_id.as_str()) {
            return;
        }
        let fresh = self.data.as_ref().is_none_or(|d| d.task_id != data.task_id);
        if fresh {
            self.round = data.rounds.len().saturating_sub(1);
            self.compare = 0;
        }
        self.round = self.round.min(data.rounds.len().saturating_sub(1));
        self.compare = self.compare.min(data.trials.len());
        self.data = Some(data);
        self.rebuild();
    }

    /// What the right-hand side is, for the header (`golden`, `final · oracle trial 2`).
    pub fn target_label(&self) -> String {
        match self
            .data
            .as_ref()
            .and_then(|d| d.trials.get(self.compare.wrapping_sub(1)))
        {
            Some(t) if self.compare > 0 => format!("final · {} trial {}", t.model, t.trial),
            _ => "golden".into(),
        }
    }

    fn sides(&self) -> Result<(Vec<StoredState>, Vec<StoredState>), String> {
        let Some(d) = &self.data else {
            return Err("loading…".into());
        };
        let Some(r) = d.rounds.get(self.round) else {
            return Err("no rounds recorded for this tuple yet".into());
        };
        if r.states.is_empty() {
            return Err(match (r.setup_ok, r.source.as_str()) {
                (Some(false), _) => format!(
                    "initial_setup.py failed in round {}: no state was read",
                    r.round_no
                ),
                (_, "import" | "synthetic") => format!(
                    "no state stored for this round ({} round: states come from running the scripts)",
                    r.source
                ),
                _ => "no state stored for this round (recorded before v5)".into(),
            });
        }
        let pick = |ep| -> Vec<StoredState> {
            r.states
                .iter()
                .filter(|s| s.endpoint == ep)
                .cloned()
                .collect()
        };
        let left = pick(StateEndpoint::Initial);
        let right = match self.compare.checked_sub(1).and_then(|i| d.trials.get(i)) {
            Some(t) => t.states.clone(),
            None => pick(StateEndpoint::Golden),
        };
        if right.is_empty() {
            return Err(format!(
                "golden_patch.py did not succeed in round {}: only the initial state was stored",
                r.round_no
            ));
        }
        Ok((left, right))
    }

    /// Recomputes the lines (after a load or any change of view, fold, mask or search).
    pub fn rebuild(&mut self) {
        let query = self.query.to_lowercase();
        match self.sides() {
            Err(msg) => {
                self.empty = Some(msg);
                self.lines.clear();
                self.changes = 0;
            }
            Ok((left, right)) => {
                self.empty = None;
                let opts = BuildOpts {
                    tree: self.tree,
                    split: self.split,
                    show_masked: self.show_masked,
                    toggled: &self.toggled,
                    query: &query,
                };
                self.lines = build(&left, &right, &opts);
                self.changes = change_count(&left, &right);
            }
        }
        self.matches = if query.is_empty() {
            Vec::new()
        } else {
            (0..self.lines.len())
                .filter(|i| self.lines[*i].matches(&query))
                .collect()
        };
        self.cursor = self.cursor.min(self.lines.len().saturating_sub(1));
    }

    fn move_by(&mut self, delta: isize) {
        self.cursor = self
            .cursor
            .saturating_add_signed(delta)
            .min(self.lines.len().saturating_sub(1));
    }

    fn jump_match(&mut self, forward: bool) {
        let next = if forward {
            self.matches
                .iter()
                .find(|i| **i > self.cursor)
                .or(self.matches.first())
        } else {
            self.matches
                .iter()
                .rev()
                .find(|i| **i < self.cursor)
                .or(self.matches.last())
        };
        if let Some(i) = next {
            self.cursor = *i;
        }
    }

    /// Whether n/N move between search matches (a search is set) rather than between tuples.
    pub fn has_search(&self) -> bool {
        !self.query.is_empty()
    }

    /// A key while the search line is being typed.
    pub fn search_key(&mut self, k: Key) -> Vec<EngineCommand> {
        match k.code {
            Code::Enter => self.searching = false,
            Code::Esc => {
                self.searching = false;
                self.query.clear();
                self.rebuild();
            }
            Code::Backspace => {
                self.query.pop();
                self.rebuild();
            }
            Code::Char(c) if !k.ctrl && !k.alt => {
                self.query.push(c);
                self.rebuild();
                self.jump_to_first_match();
            }
            _ => {}
        }
        Vec::new()
    }

    /// Puts the cursor on the first match at or after where the search started (wrapping).
    fn jump_to_first_match(&mut self) {
        let at = self.matches.iter().find(|i| **i >= self.search_from);
        if let Some(i) = at.or(self.matches.first()) {
            self.cursor = *i;
        }
    }

    /// Applies a screen action; `page` is the rows a page moves.
    pub fn act(&mut self, a: Action, page: isize) -> Vec<EngineCommand> {
        match a {
            Action::Down => self.move_by(1),
            Action::Up => self.move_by(-1),
            Action::PageDown => self.move_by(page),
            Action::PageUp => self.move_by(-page),
            Action::Top => self.cursor = 0,
            Action::Bottom => self.cursor = self.lines.len().saturating_sub(1),
            Action::Search => {
                self.searching = true;
                self.search_from = self.cursor;
                self.query.clear();
                self.rebuild();
            }
            Action::NextItem => self.jump_match(true),
            Action::PrevItem => self.jump_match(false),
            Action::Back if self.has_search() => {
                self.query.clear();
                self.rebuild();
            }
            Action::NextRound | Action::PrevRound => {
                let n = self.data.as_ref().map_or(0, |d| d.rounds.len());
                let delta = if a == Action::NextRound { 1 } else { -1 };
                self.round = self
                    .round
                    .saturating_add_signed(delta)
                    .min(n.saturating_sub(1));
                self.cursor = 0;
                self.rebuild();
            }
            Action::StateCompare => {
                let n = self.data.as_ref().map_or(0, |d| d.trials.len());
                self.compare = (self.compare + 1) % (n + 1);
                self.cursor = 0;
                self.rebuild();
            }
            Action::StateView => {
                self.tree = !self.tree;
                self.cursor = 0;
                self.rebuild();
            }
            Action::StateSplit => {
                self.split = !self.split;
                self.rebuild();
            }
            Action::StateMasked => {
                self.show_masked = !self.show_masked;
                self.rebuild();
            }
            Action::StateFold | Action::Mark | Action::Open => self.toggle_fold(),
            _ => {}
        }
        Vec::new()
    }

    fn toggle_fold(&mut self) {
        let Some(id) = self
            .lines
            .get(self.cursor)
            .and_then(|l| l.fold.as_ref())
            .map(|f| f.id.clone())
        else {
            return;
        };
        if !self.toggled.remove(&id) {
            self.toggled.insert(id.clone());
        }
        self.rebuild();
        // Keep the cursor on the node just toggled.
        if let Some(i) = self
            .lines
            .iter()
            .position(|l| l.fold.as_ref().is_some_and(|f| f.id == id))
        {
            self.cursor = i;
        }
    }
}
