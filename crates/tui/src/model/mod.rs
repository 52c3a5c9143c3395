//! The pure model: all workbench state and `update(Msg) -> Vec<EngineCommand>`. It does no I/O;
//! the event loop feeds it keys and worker results and forwards the commands it returns.

pub mod bulk;
pub mod export;
pub mod filmstrip;
pub mod filter;
pub mod filter_prompt;
pub mod help;
pub mod inspector;
pub mod launch;
pub mod live;
pub mod live_job;
pub mod live_trial;
pub mod mouse;
pub mod notice;
pub mod open;
pub mod palette;
pub mod panels;
pub mod reward;
pub mod rollouts;
pub mod selection;
pub mod similar;
pub mod stages;
pub mod state_diff;
pub mod stats;
pub mod tuples;
pub mod tuples_extent;

use std::collections::VecDeque;

use tuplewright_engine::stats::Stats;

use super::action::{Action, Screen};
use super::data::{DataUpdate, EngineCommand, TaskRow};
use super::keymap::{Code, Key, Keymap, Resolved};
use filter::FilterState;
use inspector::InspectorState;
use live::LiveState;
use palette::PaletteState;
use reward::RewardState;
use rollouts::RolloutsState;
use state_diff::StateDiffState;
use tuples::TuplesState;

/// Tuples read for the first frame, before the whole list (with rewards) arrives.
pub const FIRST_PAGE: usize = 500;

/// An input to the model.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A key press.
    Key(Key),
    /// A worker result.
    Data(DataUpdate),
    /// The terminal size changed (columns, rows).
    Resize(u16, u16),
    /// A mouse event.
    Mouse(crate::mouse::Mouse),
}

/// An overlay above the screen.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Overlay {
    /// None.
    #[default]
    None,
    /// Key help (sections, search, scroll).
    Help(help::HelpState),
    /// The command palette.
    Palette(PaletteState),
}

/// The whole workbench state.
#[derive(Debug)]
pub struct Model {
    /// The screen shown.
    pub screen: Screen,
    /// The keymap in force.
    pub keymap: Keymap,
    /// Observer mode: nothing is written to the store.
    pub readonly: bool,
    /// Overlay.
    pub overlay: Overlay,
    /// Tuples screen.
    pub tuples: TuplesState,
    /// Inspector screen.
    pub inspector: InspectorState,
    /// Live screen.
    pub live: LiveState,
    /// State diff screen.
    pub state_diff: StateDiffState,
    /// Reward screen.
    pub reward: RewardState,
    /// Filter screen.
    pub filter: FilterState,
    /// Rollouts screen.
    pub rollouts: RolloutsState,
    /// The Tuples screen's similar-tuples panel.
    pub similar: similar::SimilarState,
    /// Latest statistics.
    pub stats: Option<Box<Stats>>,
    /// The statistics as the engine renders them (`tuplewright stats`).
    pub stats_text: String,
    /// Stats scroll, in lines.
    pub stats_scroll: usize,
    /// Message for the status line (errors, notices); its level and age are in `notice_meta`.
    pub notice: Option<String>,
    /// Level and start time of the notice.
    pub notice_meta: notice::NoticeMeta,
    /// The time as last passed by the event loop (notices expire by it).
    pub clock: Option<std::time::Instant>,
    /// Set when the user asked to quit.
    pub quit: bool,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// The mouse is captured by the workbench (false: released to the terminal).
    pub mouse_captured: bool,
    /// Open or copy for the event loop to do (issue #33), taken with `take()`.
    pub external: Option<crate::external::External>,
    /// What the last frame drew where (written by the views).
    pub hits: crate::mouse::HitMap,
    pending: Vec<Key>,
    rows_loading: bool,
    /// Keys typed ahead while settling (see [`selection`]).
    deferred: VecDeque<Key>,
    /// Where a key deferred during replay goes (the front, in order).
    defer_at: Option<usize>,
}

impl Model {
    /// A model with this keymap.
    pub fn new(keymap: Keymap, readonly: bool) -> Self {
        Model {
            screen: Screen::Tuples,
            keymap,
            readonly,
            overlay: Overlay::None,
            tuples: TuplesState::default(),
            inspector: InspectorState::default(),
            live: LiveState::new(),
            state_diff: StateDiffState::default(),
            reward: RewardState::default(),
            filter: FilterState::default(),
            rollouts: RolloutsState::default(),
            similar: similar::SimilarState::default(),
            stats: None,
            stats_text: String::new(),
            stats_scroll: 0,
            notice: None,
            notice_meta: Default::default(),
            clock: None,
            quit: false,
            size: (80, 24),
            mouse_captured: true,
            hits: Default::default(),
            external: None,
            pending: Vec::new(),
            rows_loading: true,
            deferred: VecDeque::new(),
            defer_at: None,
        }
    }

    /// The commands to send at start-up.
    pub fn init(&self) -> Vec<EngineCommand> {
        vec![
            EngineCommand::LoadRowsPage(FIRST_PAGE),
            EngineCommand::LoadRows,
            EngineCommand::LoadStats,
            EngineCommand::LoadLive(true),
        ]
    }

    /// Rows a page moves.
    pub fn page(&self) -> isize {
        (self.size.1 as isize - 6).max(1)
    }

    /// Applies one input; returns the commands for the workers.
    pub fn update(&mut self, msg: Msg) -> Vec<EngineCommand> {
        let cmds = match msg {
            Msg::Key(k) => self.key_in_order(k),
            Msg::Data(d) => {
                let mut cmds = self.data(d);
                cmds.extend(self.replay());
                cmds
            }
            Msg::Resize(w, h) => {
                self.size = (w, h);
                Vec::new()
            }
            Msg::Mouse(m) => self.mouse(m),
        };
        // Observer mode: no writing command ever leaves the model.
        let (cmds, refused) = super::readonly::guard(self.readonly, cmds);
        if let Some(r) = refused {
            self.say(notice::Level::Warning, r);
        }
        self.stamp_notice();
        cmds
    }

    fn data(&mut self, d: DataUpdate) -> Vec<EngineCommand> {
        match d {
            DataUpdate::Rows(rows, complete) => {
                if !complete && self.tuples.complete {
                    return Vec::new();
                }
                self.rows_loading = !complete;
                self.tuples.complete = complete;
                self.tuples.set_rows(rows);
                self.tuples.loaded = true;
                return vec![EngineCommand::View(self.tuples.request())];
            }
            DataUpdate::View(v) => {
                let before = self.selection().map(str::to_string);
                self.tuples.accept(v);
                let mut cmds = self.land_wanted();
                cmds.extend(self.follow_selection(before));
                return cmds;
            }
            DataUpdate::Detail(d) => self.inspector.accept(*d),
            DataUpdate::Stats(s) => {
                // Rendered once here, not on every frame.
                self.stats_text = tuplewright_engine::stats::render(&s);
                self.stats = Some(s);
            }
            DataUpdate::Checks(c) => self.live.apply_checks(c),
            DataUpdate::Live(l) => self.live.accept_summary(*l),
            DataUpdate::Error(e) => {
                self.say(notice::Level::Error, e.clone());
                self.drop_deferred(&e);
            }
            DataUpdate::States(st) => self.state_diff.accept(*st),
            DataUpdate::Filter(d) => self.filter.accept(*d),
            DataUpdate::Decided(d) => return filter::decided(self, *d),
            DataUpdate::Bulk(b) => return bulk::done(self, *b),
            DataUpdate::RowsPatched(p) => return bulk::patched(self, *p),
            d @ (DataUpdate::Notes(..) | DataUpdate::Noted(_)) => return panels::data(self, d),
            DataUpdate::Export(u) => return export::accept(self, *u),
            DataUpdate::Job(u) => self.job_update(u),
            // reward & rollouts screens
            DataUpdate::Rewards(r) => self.reward.accept(*r),
            DataUpdate::Trials(t) => return rollouts::accept_list(self, *t),
            DataUpdate::Trial(t) => return self.rollouts.accept_trial(*t),
            DataUpdate::Frame(f) => self.rollouts.accept_frame(*f),
            DataUpdate::ScreenshotReady => {}
            DataUpdate::Similar(u) => self.similar.accept(*u),
            DataUpdate::OpenText(t) => open::accept(self, *t),
            DataUpdate::Events(events) => {
                // A bulk decision's own events: its answer already reloaded (#33).
                let echo = self.tuples.bulk_echo;
                let changes = events.iter().any(|e| {
                    e.seq > echo
                        && matches!(
                            e.kind.as_str(),
                            "decision" | "task.imported" | "round.recorded"
                        )
                });
                let mut cmds: Vec<EngineCommand> = self
                    .live
                    .apply(&events)
                    .into_iter()
                    .map(|(task_id, round)| EngineCommand::LoadChecks(task_id, round))
                    .collect();
                if changes && !self.rows_loading && self.tuples.loaded {
                    self.rows_loading = true;
                    cmds.push(EngineCommand::LoadRows);
                }
                if changes || events.iter().any(|e| e.kind.starts_with("lease.")) {
                    cmds.push(EngineCommand::LoadLive(false));
                }
                // states: a new round or rollout of the tuple shown on State diff
                cmds.extend(
                    events
                        .iter()
                        .rev()
                        .find_map(|e| self.state_diff.on_event(&e.kind, e.task_id.as_deref())),
                );
                cmds.extend(filter::on_events(self, &events));
                if changes && self.screen == Screen::Inspector {
                    if let Some(id) = &self.inspector.task_id {
                        if events
                            .iter()
                            .any(|e| e.task_id.as_deref() == Some(id.as_str()))
                        {
                            cmds.push(EngineCommand::LoadDetail(id.clone()));
                        }
                    }
                }
                cmds.extend(rollouts::on_events(self, &events));
                // Thousands of JSON payloads: freed off the drawing thread (#33).
                crate::retire::later(events);
                return cmds;
            }
        }
        Vec::new()
    }

    fn key(&mut self, k: Key) -> Vec<EngineCommand> {
        if k.ctrl && k.code == Code::Char('c') {
            self.quit = true;
            return vec![EngineCommand::Quit];
        }
        // esc then a key, read together (tmux within its escape-time), arrives as alt-key: an
        // unbound alt-char is taken as the two presses, so esc alone always closes/cancels. Not in
        // the Filter screen's text editor, where alt-keys edit (word motions).
        if k.alt && !k.ctrl && matches!(k.code, Code::Char(_)) && !self.filter.capturing() {
            if let Resolved::Unbound = self.keymap.resolve(&[k]) {
                let mut cmds = self.key(Key::plain(Code::Esc));
                cmds.extend(self.key(Key { alt: false, ..k }));
                return cmds;
            }
        }
        if let Overlay::Palette(p) = &mut self.overlay {
            match k.code {
                Code::Esc => self.overlay = Overlay::None,
                Code::Enter => {
                    let chosen = p.chosen().map(|s| s.action);
                    self.overlay = Overlay::None;
                    if let Some(a) = chosen {
                        return self.act(a);
                    }
                }
                Code::Down | Code::Tab => {
                    p.selected = (p.selected + 1).min(p.matches().len().saturating_sub(1))
                }
                Code::Up | Code::BackTab => p.selected = p.selected.saturating_sub(1),
                Code::Backspace => {
                    p.input.pop();
                    p.selected = 0;
                }
                Code::Char(c) if !k.ctrl && !k.alt => {
                    p.input.push(c);
                    p.selected = 0;
                }
                _ => {}
            }
            return Vec::new();
        }
        if let Overlay::Help(h) = &mut self.overlay {
            if h.search_key(k) {
                return Vec::new();
            }
        }
        if self.state_diff.searching {
            return self.state_diff.search_key(k);
        }
        if self.filter.capturing() {
            return filter::input_key(self, k);
        }
        if self.screen == Screen::Rollouts && self.rollouts.form.is_some() {
            return rollouts::form_key(self, k);
        }
        if let Some(cmds) = panels::key(self, k) {
            return cmds;
        }
        if self.tuples.bulk.is_some() {
            return bulk::prompt_key(self, k);
        }
        if self.tuples.rerun.is_some() {
            return stages::prompt_key(self, k);
        }
        if self.tuples.searching {
            match k.code {
                Code::Enter => self.tuples.searching = false,
                Code::Esc => {
                    self.tuples.searching = false;
                    self.tuples.query.clear();
                }
                Code::Backspace => {
                    self.tuples.query.pop();
                }
                Code::Char(c) if !k.ctrl && !k.alt => self.tuples.query.push(c),
                _ => return Vec::new(),
            }
            return vec![EngineCommand::View(self.tuples.request())];
        }
        if self.settling() {
            self.defer(k);
            return Vec::new();
        }
        self.pending.push(k);
        match self.keymap.resolve(&self.pending) {
            Resolved::Action(a) => {
                self.pending.clear();
                self.act(a)
            }
            Resolved::Pending => Vec::new(),
            Resolved::Unbound => {
                let retry = self.pending.len() > 1;
                self.pending.clear();
                if retry {
                    return self.key(k);
                }
                Vec::new()
            }
        }
    }

    /// Performs an action (from a key or the palette).
    pub fn act(&mut self, a: Action) -> Vec<EngineCommand> {
        if self.live.confirm != Some(a) {
            self.live.confirm = None;
        }
        let page = self.page().max(1) as usize;
        if let Overlay::Help(h) = &mut self.overlay {
            if a == Action::Palette {
                self.overlay = Overlay::Palette(PaletteState::default());
            } else if !h.act(a, page) {
                self.overlay = Overlay::None;
            }
            return Vec::new();
        }
        match a {
            Action::Quit if !self.quit_confirmed() => {}
            Action::Quit => {
                self.quit = true;
                return vec![EngineCommand::Quit];
            }
            Action::Help => self.overlay = Overlay::Help(Default::default()),
            Action::ToggleMouse => self.toggle_mouse(),
            Action::Palette => self.overlay = Overlay::Palette(PaletteState::default()),
            Action::Tab(s) => return self.switch(s),
            Action::NextTab | Action::PrevTab => {
                let n = Screen::ALL.len();
                let step = if a == Action::NextTab { 1 } else { n - 1 };
                return self.switch(Screen::ALL[(self.screen.index() + step) % n]);
            }
            Action::Refresh => {
                self.rows_loading = true;
                let mut cmds = vec![EngineCommand::LoadRows, EngineCommand::LoadStats];
                cmds.extend(
                    self.inspector
                        .task_id
                        .clone()
                        .map(EngineCommand::LoadDetail),
                );
                return cmds;
            }
            Action::StageVote | Action::StageVerify | Action::StageRerun | Action::StageTaskgen => {
                return stages::act(self, a)
            }
            Action::ExportPreview => return export::open(self),
            Action::SaveView | Action::ListViews | Action::ChooseColumns | Action::EditNote => {
                return panels::act(self, a)
            }
            Action::OpenEditor
            | Action::OpenPager
            | Action::YankId
            | Action::YankPath
            | Action::YankScript => return open::act(self, a),
            Action::Search if self.screen == Screen::StateDiff => {
                return self.state_diff.act(a, self.page());
            }
            Action::Search => {
                self.screen = Screen::Tuples;
                self.tuples.searching = true;
            }
            _ => return self.screen_action(a),
        }
        Vec::new()
    }

    fn switch(&mut self, s: Screen) -> Vec<EngineCommand> {
        self.screen = s;
        match s {
            Screen::Stats => vec![EngineCommand::LoadStats],
            Screen::Inspector
                if self.selection().is_some()
                    && self.inspector.task_id.as_deref() != self.selection() =>
            {
                self.open_selected()
            }
            Screen::StateDiff => {
                let id = self
                    .tuples
                    .selected_id()
                    .or(self.inspector.task_id.as_deref());
                self.state_diff.open(id.map(str::to_string).as_deref())
            }
            Screen::Filter => filter::enter(self),
            Screen::Reward => reward::open(self),
            Screen::Rollouts => rollouts::open(self),
            _ => Vec::new(),
        }
    }

    pub(super) fn open_selected(&mut self) -> Vec<EngineCommand> {
        let Some(id) = self.tuples.selected_id().map(str::to_string) else {
            return Vec::new();
        };
        self.inspector.task_id = Some(id.clone());
        self.inspector.load_failed = false;
        vec![EngineCommand::LoadDetail(id)]
    }

    fn screen_action(&mut self, a: Action) -> Vec<EngineCommand> {
        let page = self.page();
        match self.screen {
            Screen::Tuples => {
                if let Some(cmds) = similar::act(self, a)
                    .or_else(|| export::act(self, a))
                    .or_else(|| bulk::act(self, a))
                {
                    return cmds;
                }
                let unvoted = self.tuples.rows.iter().all(|r| r.severity.is_empty());
                if a == Action::FilterSeverity && self.tuples.severity.is_none() && unvoted {
                    let say = "no critic votes in the store: no severity to filter by (`tuplewright filter` votes)";
                    self.say(notice::Level::Warning, say);
                    return Vec::new();
                }
                let t = &mut self.tuples;
                let refilter = |t: &mut TuplesState| vec![EngineCommand::View(t.request())];
                match a {
                    Action::Down | Action::NextItem => t.move_by(1),
                    Action::Up | Action::PrevItem => t.move_by(-1),
                    Action::PageDown => t.move_by(page),
                    Action::PageUp => t.move_by(-page),
                    Action::Top => t.jump(false),
                    Action::Bottom => t.jump(true),
                    Action::Open => {
                        self.screen = Screen::Inspector;
                        return self.open_selected();
                    }
                    Action::Back if !t.query.is_empty() => {
                        t.query.clear();
                        return refilter(t);
                    }
                    Action::SortNext => {
                        t.next_sort();
                        return refilter(t);
                    }
                    Action::SortReverse => {
                        t.reverse = !t.reverse;
                        return refilter(t);
                    }
                    Action::FilterStatus => {
                        t.status = t.cycle(&t.status, |r: &TaskRow| &r.status);
                        return refilter(t);
                    }
                    Action::FilterDifficulty => {
                        t.difficulty = t.cycle(&t.difficulty, |r: &TaskRow| &r.difficulty);
                        return refilter(t);
                    }
                    Action::FilterApp => {
                        t.app = t.cycle(&t.app, |r: &TaskRow| &r.app);
                        return refilter(t);
                    }
                    Action::FilterSeverity => {
                        t.severity = t.cycle(&t.severity, |r: &TaskRow| &r.severity);
                        return refilter(t);
                    }
                    Action::ClearFilters => {
                        (t.status, t.difficulty, t.app, t.severity) = (None, None, None, None);
                        t.query.clear();
                        return refilter(t);
                    }
                    _ => {}
                }
            }
            Screen::Inspector => return inspector::act(self, a, page),
            Screen::Live => match a {
                Action::NextItem => self.live.select_by(1),
                Action::PrevItem => self.live.select_by(-1),
                Action::Open => return self.open_live_selection(),
                Action::Down => self.live.scroll(1),
                Action::Up => self.live.scroll(-1),
                Action::PageDown => self.live.scroll(page),
                Action::PageUp => self.live.scroll(-page),
                Action::Top => self.live.scroll(-(self.live.log.len() as isize)),
                Action::Bottom => self.live.resume(),
                Action::JobStart | Action::JobPause | Action::JobResume | Action::JobCancel => {
                    return self.job_action(a)
                }
                _ => {}
            },
            Screen::StateDiff => {
                // n/N without a search move to the next tuple, as on the Inspector.
                if matches!(a, Action::NextItem | Action::PrevItem) && !self.state_diff.has_search()
                {
                    self.tuples
                        .move_by(if a == Action::NextItem { 1 } else { -1 });
                    return self.state_diff.open(self.tuples.selected_id());
                }
                return self.state_diff.act(a, page);
            }
            Screen::Reward => return reward::act(self, a, page),
            Screen::Filter => return filter::act(self, a, page),
            Screen::Rollouts => return rollouts::act(self, a, page),
            Screen::Stats => {
                let s = self.stats.as_deref();
                stats::act(&mut self.stats_scroll, s, self.size, a, page)
            }
        }
        Vec::new()
    }
}
