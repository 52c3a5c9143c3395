//! The `?` help overlay: the current screen's keys first, then the keys that work everywhere,
//! then the other screens'; `/` searches it (keys, names, descriptions); it scrolls over its
//! content only (never past the last row).

use std::cell::Cell;

use crate::action::{Action, ActionSpec, Screen, REGISTRY};
use crate::keymap::{Code, Key, Keymap};

/// Help overlay state.
#[derive(Debug, Clone, PartialEq)]
pub struct HelpState {
    /// Scroll, in rows.
    pub scroll: usize,
    /// Search text (empty: everything).
    pub query: String,
    /// Typing the search.
    pub searching: bool,
    /// The largest useful scroll as last drawn (kept by the renderer; unbounded until drawn).
    pub max: Cell<usize>,
}

impl Default for HelpState {
    fn default() -> Self {
        HelpState {
            scroll: 0,
            query: String::new(),
            searching: false,
            max: Cell::new(usize::MAX),
        }
    }
}

/// One row of the help: a section heading or an action.
#[derive(Debug, Clone, Copy)]
pub enum HelpRow {
    /// A section: a screen, or `None` for "everywhere".
    Section(Option<Screen>),
    /// An action.
    Entry(&'static ActionSpec),
}

/// The rows for `screen`, filtered by `query` (case-insensitive, keys, name or description).
pub fn rows(screen: Screen, keymap: &Keymap, query: &str) -> Vec<HelpRow> {
    let q = query.to_lowercase();
    let matches = |s: &ActionSpec| {
        q.is_empty()
            || s.name.contains(&q)
            || s.description.to_lowercase().contains(&q)
            || keymap
                .keys_of(s.action)
                .iter()
                .any(|k| k.to_lowercase() == q)
    };
    let mut order = vec![Some(screen), None];
    order.extend(Screen::ALL.into_iter().filter(|s| *s != screen).map(Some));
    let mut out = Vec::new();
    for section in order {
        let entries: Vec<HelpRow> = REGISTRY
            .iter()
            .filter(|s| screen_of(s.action) == section && matches(s))
            .map(HelpRow::Entry)
            .collect();
        if !entries.is_empty() {
            out.push(HelpRow::Section(section));
            out.extend(entries);
        }
    }
    out
}

impl HelpState {
    /// A key while the search is typed; false when the key is not the search's.
    pub fn search_key(&mut self, k: Key) -> bool {
        if !self.searching {
            return false;
        }
        match k.code {
            Code::Enter => self.searching = false,
            Code::Esc => {
                self.searching = false;
                self.query.clear();
            }
            Code::Backspace => {
                self.query.pop();
            }
            Code::Char(c) if !k.ctrl && !k.alt => self.query.push(c),
            _ => return true,
        }
        self.scroll = 0;
        true
    }

    /// An action while the help is open; false when it closes the help.
    pub fn act(&mut self, a: Action, page: usize) -> bool {
        let max = self.max.get();
        match a {
            Action::Down => self.scroll = (self.scroll + 1).min(max),
            Action::Up => self.scroll = self.scroll.saturating_sub(1),
            Action::PageDown => self.scroll = (self.scroll + page).min(max),
            Action::PageUp => self.scroll = self.scroll.saturating_sub(page),
            Action::Top => self.scroll = 0,
            Action::Bottom => self.scroll = max,
            Action::Search => {
                self.searching = true;
                self.query.clear();
                self.scroll = 0;
            }
            Action::Back if !self.query.is_empty() => {
                self.query.clear();
                self.scroll = 0;
            }
            Action::Quit | Action::Help | Action::Back => return false,
            _ => {}
        }
        true
    }
}

/// The screen an action belongs to (its section of the help), or `None` for the actions that
/// work everywhere.
pub fn screen_of(action: Action) -> Option<Screen> {
    use Action as A;
    match action {
        A::Open
        | A::SortNext
        | A::SortReverse
        | A::FilterStatus
        | A::FilterDifficulty
        | A::FilterApp
        | A::FilterSeverity
        | A::ClearFilters => return Some(Screen::Tuples),
        _ => {}
    }
    let d = crate::action::spec_of(action)?.description;
    Screen::ALL
        .into_iter()
        .find(|s| d.starts_with(&format!("{}: ", s.title())))
}
