//! The Tuples screen's panels (issue #33): save the current view under a name (`B`), the saved
//! views (`b`: `enter` applies, `x` deletes), the column chooser (`#`: `space` shows/hides, `J`/`K`
//! move) and the note editor (`i`: free text, the `[curate] tags` as a checklist, `+tag`/`-tag`
//! words). While a panel is open it takes the keys; `esc` closes it.

use crate::action::{Action, Screen};
use crate::columns::Columns;
use crate::data::{DataUpdate, EngineCommand};
use crate::keymap::{Code, Key};
use crate::note_data::{NoteCmd, SaveViews};
use tuplewright_base::store::Note;
use tuplewright_records::curate::views::{sort_key, SavedView, ViewsFile};

use super::notice::Level;
use super::Model;

/// An open panel.
#[derive(Debug, Clone, PartialEq)]
pub enum Panel {
    /// The name line of `B`.
    SaveView(String),
    /// The saved views; the selected row.
    Views(usize),
    /// The column chooser; the selected column.
    Columns(usize),
    /// The note editor.
    Note(NoteEditor),
}

/// The note editor's state.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteEditor {
    /// The tuple.
    pub task_id: String,
    /// The note's text (the newest note's once loaded, to edit it).
    pub text: String,
    /// The tags offered and whether each is on.
    pub tags: Vec<(String, bool)>,
    /// The tags in force when the editor opened.
    pub had: Vec<String>,
    /// Keys go to the tag list (else to the text).
    pub on_tags: bool,
    /// The selected tag.
    pub selected: usize,
    /// The tuple's notes, oldest first (once loaded).
    pub history: Vec<Note>,
    /// The note is with the store worker.
    pub busy: bool,
}

/// Takes the settings: the tags offered, the views file (read now; a bad file is a warning and
/// nothing is saved over it).
pub fn configure(m: &mut Model, tags: &[String], path: Option<std::path::PathBuf>) {
    m.tuples.tag_list = tags.to_vec();
    let Some(path) = path else {
        return;
    };
    match tuplewright_records::curate::views::load(&path) {
        Ok(f) => {
            m.tuples.columns = Columns::from_layout(f.columns.as_ref());
            m.tuples.views = f;
            m.tuples.views_path = Some(path);
        }
        Err(e) => m.say(Level::Warning, format!("{e} — saved views off")),
    }
}

/// Opens a panel (the actions `B`, `b`, `#`, `i`).
pub fn act(m: &mut Model, a: Action) -> Vec<EngineCommand> {
    let panel = match a {
        Action::SaveView => Panel::SaveView(m.tuples.view_name.clone().unwrap_or_default()),
        Action::ListViews => Panel::Views(0),
        Action::ChooseColumns => Panel::Columns(0),
        _ => return open_note(m),
    };
    m.screen = Screen::Tuples;
    m.tuples.panel = Some(panel);
    Vec::new()
}

fn open_note(m: &mut Model) -> Vec<EngineCommand> {
    if m.readonly {
        m.say(
            Level::Warning,
            "read-only mode: notes refused (restart without --readonly to change the store)",
        );
        return Vec::new();
    }
    let Some(row) = m.tuples.selected_row() else {
        m.say(Level::Warning, "no tuple selected to annotate");
        return Vec::new();
    };
    let had: Vec<String> = row.tags.split_whitespace().map(str::to_string).collect();
    let mut tags: Vec<(String, bool)> = m
        .tuples
        .tag_list
        .iter()
        .map(|t| (t.clone(), had.contains(t)))
        .collect();
    for t in &had {
        if !tags.iter().any(|(x, _)| x == t) {
            tags.push((t.clone(), true));
        }
    }
    let id = row.id.clone();
    m.tuples.panel = Some(Panel::Note(NoteEditor {
        task_id: id.clone(),
        text: String::new(),
        tags,
        had,
        on_tags: false,
        selected: 0,
        history: Vec::new(),
        busy: false,
    }));
    vec![EngineCommand::LoadNotes(id)]
}

/// Keys while a panel is open; `None` when none is.
pub fn key(m: &mut Model, k: Key) -> Option<Vec<EngineCommand>> {
    let panel = m.tuples.panel.take()?;
    let (keep, cmds) = match panel {
        Panel::SaveView(s) => save_key(m, s, k),
        Panel::Views(i) => views_key(m, i, k),
        Panel::Columns(i) => columns_key(m, i, k),
        Panel::Note(n) => note_key(m, n, k),
    };
    if m.tuples.panel.is_none() {
        m.tuples.panel = keep;
    }
    Some(cmds)
}

type Step = (Option<Panel>, Vec<EngineCommand>);

fn save_key(m: &mut Model, mut s: String, k: Key) -> Step {
    match k.code {
        Code::Esc => return (None, Vec::new()),
        Code::Enter => {
            let t = &m.tuples;
            let view = SavedView {
                name: s.trim().to_string(),
                query: t.query.clone(),
                status: t.status.clone(),
                difficulty: t.difficulty.clone(),
                app: t.app.clone(),
                severity: t.severity.clone(),
                sort: t.sort.label().to_string(),
                reverse: t.reverse,
            };
            let summary = view.summary();
            if let Err(e) = m.tuples.views.upsert(view) {
                m.say(Level::Warning, e.to_string());
                return (Some(Panel::SaveView(s)), Vec::new());
            }
            let name = s.trim().to_string();
            let cmds = persist(m, &format!("view `{name}` saved: {summary}"));
            m.tuples.view_name = Some(name);
            return (None, cmds);
        }
        Code::Backspace => {
            s.pop();
        }
        Code::Char(c) if !k.ctrl && !k.alt => s.push(c),
        _ => {}
    }
    (Some(Panel::SaveView(s)), Vec::new())
}

/// Writes the views file (the column layout included) and says `done`, or says why not.
fn persist(m: &mut Model, done: &str) -> Vec<EngineCommand> {
    m.tuples.views.columns = m.tuples.columns.chosen.then(|| m.tuples.columns.layout());
    let Some(path) = m.tuples.views_path.clone() else {
        m.say(
            Level::Warning,
            format!(
                "{done} — for this session only (no views file: set TUPLEWRIGHT_VIEWS or HOME)"
            ),
        );
        return Vec::new();
    };
    m.say(Level::Success, format!("{done} ({})", path.display()));
    let file: ViewsFile = m.tuples.views.clone();
    vec![EngineCommand::SaveViews(Box::new(SaveViews { path, file }))]
}

fn updown(i: usize, n: usize, k: Key) -> Option<usize> {
    match k.code {
        Code::Down | Code::Char('j') => Some((i + 1).min(n.saturating_sub(1))),
        Code::Up | Code::Char('k') => Some(i.saturating_sub(1)),
        _ => None,
    }
}

fn views_key(m: &mut Model, i: usize, k: Key) -> Step {
    let n = m.tuples.views.views.len();
    if let Some(j) = updown(i, n, k) {
        return (Some(Panel::Views(j)), Vec::new());
    }
    match k.code {
        Code::Enter => match m.tuples.views.views.get(i).cloned() {
            Some(v) => (None, apply(m, &v)),
            None => (None, Vec::new()),
        },
        Code::Char('x') | Code::Char('d') => {
            let Some(name) = m.tuples.views.views.get(i).map(|v| v.name.clone()) else {
                return (Some(Panel::Views(i)), Vec::new());
            };
            m.tuples.views.remove(&name);
            if m.tuples.view_name.as_deref() == Some(name.as_str()) {
                m.tuples.view_name = None;
            }
            let cmds = persist(m, &format!("view `{name}` deleted"));
            (Some(Panel::Views(i.min(n.saturating_sub(2)))), cmds)
        }
        Code::Esc | Code::Char('q') => (None, Vec::new()),
        _ => (Some(Panel::Views(i)), Vec::new()),
    }
}

/// Applies a saved view: its search, filters and sort replace the current ones.
pub fn apply(m: &mut Model, v: &SavedView) -> Vec<EngineCommand> {
    let t = &mut m.tuples;
    t.query = v.query.clone();
    t.status = v.status.clone();
    t.difficulty = v.difficulty.clone();
    t.app = v.app.clone();
    t.severity = v.severity.clone();
    t.sort = sort_key(&v.sort).unwrap_or_default();
    t.reverse = v.reverse;
    t.view_name = Some(v.name.clone());
    let cmd = EngineCommand::View(t.request());
    m.say(Level::Info, format!("view `{}`: {}", v.name, v.summary()));
    vec![cmd]
}

fn columns_key(m: &mut Model, i: usize, k: Key) -> Step {
    let n = m.tuples.columns.order.len();
    if let Some(j) = updown(i, n, k) {
        return (Some(Panel::Columns(j)), Vec::new());
    }
    let cols = &mut m.tuples.columns;
    let j = match k.code {
        Code::Char(' ') => {
            if !cols.toggle(i) {
                m.say(Level::Warning, "the id column always shows");
            }
            i
        }
        Code::Char('J') | Code::Char('+') => cols.shift(i, 1),
        Code::Char('K') | Code::Char('-') => cols.shift(i, -1),
        Code::Esc | Code::Enter | Code::Char('q') => {
            let before = m.tuples.views.columns.clone();
            let now = m.tuples.columns.chosen.then(|| m.tuples.columns.layout());
            let cmds = if before != now {
                persist(m, "columns saved")
            } else {
                Vec::new()
            };
            return (None, cmds);
        }
        _ => i,
    };
    (Some(Panel::Columns(j)), Vec::new())
}

fn note_key(m: &mut Model, mut n: NoteEditor, k: Key) -> Step {
    match k.code {
        Code::Esc => return (None, Vec::new()),
        Code::Tab | Code::BackTab => n.on_tags = !n.on_tags && !n.tags.is_empty(),
        Code::Enter if !n.busy => return save_note(m, n),
        Code::Char(' ') if n.on_tags => {
            if let Some((_, on)) = n.tags.get_mut(n.selected) {
                *on = !*on;
            }
        }
        _ if n.on_tags => n.selected = updown(n.selected, n.tags.len(), k).unwrap_or(n.selected),
        Code::Backspace => {
            n.text.pop();
        }
        Code::Char(c) if !k.ctrl && !k.alt => n.text.push(c),
        _ => {}
    }
    (Some(Panel::Note(n)), Vec::new())
}

/// The text without its `+tag`/`-tag` words, and the tags they add and remove.
pub fn split_tag_words(text: &str) -> (String, Vec<String>, Vec<String>) {
    let (mut words, mut add, mut remove) = (Vec::new(), Vec::new(), Vec::new());
    for w in text.split_whitespace() {
        match (w.strip_prefix('+'), w.strip_prefix('-')) {
            (Some(t), _) if !t.is_empty() => add.push(t.to_string()),
            (_, Some(t)) if !t.is_empty() && !t.starts_with('-') => remove.push(t.to_string()),
            _ => words.push(w),
        }
    }
    (words.join(" "), add, remove)
}

fn save_note(m: &mut Model, mut n: NoteEditor) -> Step {
    let (text, mut add, mut remove) = split_tag_words(&n.text);
    for (t, on) in &n.tags {
        let had = n.had.contains(t);
        if *on && !had && !add.contains(t) {
            add.push(t.clone());
        } else if !*on && had && !remove.contains(t) {
            remove.push(t.clone());
        }
    }
    let newest = n.history.last().map(|x| x.text.as_str()).unwrap_or("");
    if add.is_empty() && remove.is_empty() && (text.is_empty() || text == newest) {
        m.say(
            Level::Warning,
            "nothing to record: type a note or change a tag (esc closes)",
        );
        return (Some(Panel::Note(n)), Vec::new());
    }
    n.busy = true;
    let cmd = NoteCmd {
        task_id: n.task_id.clone(),
        author: m.filter.actor.clone(),
        text,
        add,
        remove,
        allowed: m.tuples.tag_list.clone(),
    };
    (
        Some(Panel::Note(n)),
        vec![EngineCommand::AddNote(Box::new(cmd))],
    )
}

/// The worker's answers for the note editor.
pub fn data(m: &mut Model, d: DataUpdate) -> Vec<EngineCommand> {
    match d {
        DataUpdate::Notes(id, notes) => {
            if let Some(Panel::Note(n)) = &mut m.tuples.panel {
                if n.task_id == id {
                    if n.text.is_empty() {
                        n.text = notes.last().map(|x| x.text.clone()).unwrap_or_default();
                    }
                    n.history = notes;
                }
            }
        }
        DataUpdate::Noted(r) => match *r {
            Ok(note) => {
                if matches!(&m.tuples.panel, Some(Panel::Note(n)) if n.task_id == note.task_id) {
                    m.tuples.panel = None;
                }
                let tags = note.tags.join(", ");
                m.say(
                    Level::Success,
                    format!(
                        "{}: note #{} by {}; tags [{tags}]",
                        note.task_id, note.id, note.author
                    ),
                );
                return vec![EngineCommand::LoadRows];
            }
            Err(e) => {
                if let Some(Panel::Note(n)) = &mut m.tuples.panel {
                    n.busy = false;
                }
                m.say(Level::Error, format!("note refused: {e}"));
            }
        },
        _ => {}
    }
    Vec::new()
}

impl Model {
    /// True while keys are text (a search, a prompt, the editor, a form, the palette).
    pub fn typing(&self) -> bool {
        self.tuples.searching
            || self.tuples.bulk.is_some()
            || self.tuples.rerun.is_some()
            || self.tuples.panel.is_some()
            || self.state_diff.searching
            || self.filter.capturing()
            || (self.screen == Screen::Rollouts && self.rollouts.form.is_some())
            || matches!(self.overlay, super::Overlay::Palette(_))
            || matches!(&self.overlay, super::Overlay::Help(h) if h.searching)
    }
}
