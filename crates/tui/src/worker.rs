//! Background threads: the store worker (reads, event polling) and the view matcher. Each drains
//! its queue before working and keeps only the latest request of a kind, so a slow store never
//! makes the UI process stale work.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use tuplewright_base::store::Store;

use super::data::{self, DataUpdate, EngineCommand};
use super::matcher::{compute_view, new_matcher, ViewSpec};
use super::{filter_data, readonly};

/// How often the store worker polls the event log.
pub const POLL: Duration = Duration::from_millis(200);
/// Events read per poll.
const BATCH: usize = 2000;
/// Events of history read at start (the Live window).
const HISTORY: i64 = 2000;

/// Handles to the worker threads.
pub struct Workers {
    store_tx: Sender<EngineCommand>,
    view_tx: Sender<Option<ViewSpec>>,
    handles: Vec<JoinHandle<()>>,
    // filter screen: observer mode refuses writing commands here too
    readonly: bool,
    out: Sender<DataUpdate>,
    // live jobs
    jobs: Option<super::jobs::JobRunner>,
    // similar tuples
    similar: Option<(Sender<String>, JoinHandle<()>)>,
}

impl Workers {
    /// Starts both workers; results arrive on `out`.
    pub fn start(store: Store, out: Sender<DataUpdate>) -> std::io::Result<Self> {
        Self::start_with(store, out, false)
    }

    /// Starts both workers; in `readonly` mode every writing command is refused with a notice.
    pub fn start_with(
        store: Store,
        out: Sender<DataUpdate>,
        readonly: bool,
    ) -> std::io::Result<Self> {
        let (store_tx, store_rx) = mpsc::channel();
        let (view_tx, view_rx) = mpsc::channel();
        let out2 = out.clone();
        let out3 = out.clone();
        let h1 = std::thread::Builder::new()
            .name("tw-store".into())
            .spawn(move || store_loop(store, store_rx, out, readonly))?;
        let h2 = std::thread::Builder::new()
            .name("tw-view".into())
            .spawn(move || view_loop(view_rx, out2))?;
        Ok(Workers {
            store_tx,
            view_tx,
            handles: vec![h1, h2],
            readonly,
            out: out3,
            jobs: None,
            similar: None,
        })
    }

    /// Starts the similar-tuples worker (see [`super::similar_data`]); without it `LoadSimilar` is
    /// answered with an error.
    pub fn with_similar(
        mut self,
        settings: super::similar_data::SimilarSettings,
    ) -> std::io::Result<Self> {
        self.similar = Some(super::similar_data::spawn(settings, self.out.clone())?);
        Ok(self)
    }

    /// Routes the job commands to `jobs` from now on (without it they are answered with an error).
    pub fn with_jobs(mut self, jobs: super::jobs::JobRunner) -> Self {
        self.jobs = Some(jobs);
        self
    }

    /// Stops the job runner (a running job is cancelled cleanly); returns what happened to it.
    pub fn stop_jobs(&mut self) -> Option<String> {
        self.jobs.take().and_then(super::jobs::JobRunner::stop)
    }

    /// Routes a command to its worker.
    pub fn send(&self, cmd: EngineCommand) {
        if self.readonly && readonly::writes(&cmd) {
            let _ = self.out.send(readonly::worker_refusal(&cmd));
            return;
        }
        match cmd {
            EngineCommand::View(spec) => {
                let _ = self.view_tx.send(Some(spec));
            }
            EngineCommand::Quit => {
                let _ = self.view_tx.send(None);
                let _ = self.store_tx.send(EngineCommand::Quit);
            }
            EngineCommand::LoadSimilar(id) if self.similar.is_some() => {
                if let Some((tx, _)) = &self.similar {
                    let _ = tx.send(id);
                }
            }
            EngineCommand::StartRun(_)
            | EngineCommand::StartRollouts { .. }
            | EngineCommand::StartVote(_)
            | EngineCommand::StartVerify(_)
            | EngineCommand::StartRerun(_)
            | EngineCommand::StartTaskgen(_)
            | EngineCommand::PauseJob
            | EngineCommand::ResumeJob
            | EngineCommand::CancelJob
                if self.jobs.is_some() =>
            {
                if let Some(j) = &self.jobs {
                    j.send(cmd);
                }
            }
            other => {
                let _ = self.store_tx.send(other);
            }
        }
    }

    /// Asks both workers to stop and waits for them.
    pub fn stop(mut self) {
        let _ = self.stop_jobs();
        self.send(EngineCommand::Quit);
        if let Some((tx, h)) = self.similar.take() {
            drop(tx);
            self.handles.push(h);
        }
        for h in self.handles {
            let _ = h.join();
        }
    }
}

/// Runs one store command; returns its results (also used directly by tests and benches).
pub fn handle(store: &Store, cmd: &EngineCommand) -> Vec<DataUpdate> {
    let res = match cmd {
        EngineCommand::LoadRows => data::load_rows(store).map(|r| DataUpdate::Rows(r.into(), true)),
        EngineCommand::LoadRowsPage(n) => {
            data::load_rows_page(store, *n).map(|r| DataUpdate::Rows(r.into(), false))
        }
        EngineCommand::LoadDetail(id) => {
            data::load_detail(store, id).map(|d| DataUpdate::Detail(Box::new(d)))
        }
        EngineCommand::LoadStats => data::load_stats(store).map(|s| DataUpdate::Stats(Box::new(s))),
        EngineCommand::LoadLive(job) => {
            super::live_data::load_live(store, *job).map(|l| DataUpdate::Live(Box::new(l)))
        }
        EngineCommand::LoadChecks(id, round) => match data::load_checks(store, id, *round) {
            Ok(Some(c)) => Ok(DataUpdate::Checks(c)),
            Ok(None) => return Vec::new(),
            Err(e) => Err(e),
        },
        EngineCommand::StartRun(_)
        | EngineCommand::StartRollouts { .. }
        | EngineCommand::StartVote(_)
        | EngineCommand::StartVerify(_)
        | EngineCommand::StartRerun(_)
        | EngineCommand::StartTaskgen(_)
        | EngineCommand::PauseJob
        | EngineCommand::ResumeJob
        | EngineCommand::CancelJob => Ok(DataUpdate::Error(
            "this build cannot drive jobs from the workbench yet".into(),
        )),
        EngineCommand::View(_) | EngineCommand::Quit => return Vec::new(),
        EngineCommand::LoadSimilar(_) => Ok(DataUpdate::Error(
            "similar tuples need the similar-tuples worker (Workers::with_similar)".into(),
        )),
        // states
        EngineCommand::LoadStates(id) => {
            super::state_data::load_states(store, id).map(|s| DataUpdate::States(Box::new(s)))
        }
        // filter screen
        EngineCommand::LoadFilter(id) => {
            filter_data::load_filter(store, id).map(|d| DataUpdate::Filter(Box::new(d)))
        }
        EngineCommand::Decide(d) => Ok(DataUpdate::Decided(Box::new(filter_data::Decided {
            cmd: d.clone(),
            result: Err("decisions need the store worker's writing path (handle_write)".into()),
        }))),
        EngineCommand::PreviewExport(o) => Ok(super::export_data::load_preview(store, o)),
        EngineCommand::PatchRows(rows) => Ok(super::bulk_data::patch(store, rows)),
        EngineCommand::Export(o) => Ok(super::export_data::run_export(store, o)),
        EngineCommand::DecideBulk(_) | EngineCommand::UndoGroup(_) => Ok(DataUpdate::Error(
            "bulk decisions need the store worker's writing path (handle_write)".into(),
        )),
        // reward & rollouts screens
        EngineCommand::LoadRewards(id) => {
            super::reward_data::load_rewards(store, id).map(|r| DataUpdate::Rewards(Box::new(r)))
        }
        EngineCommand::LoadTrials(scope) => {
            super::rollouts_data::load_trials(store, scope.as_deref())
                .map(|t| DataUpdate::Trials(Box::new(t)))
        }
        EngineCommand::LoadTrial(id) => {
            super::rollouts_data::load_trial(store, *id).map(|t| DataUpdate::Trial(Box::new(t)))
        }
        EngineCommand::LoadFrame(req) => Ok(DataUpdate::Frame(Box::new(
            super::filmstrip_data::load_frame(store, req),
        ))),
        EngineCommand::LoadMeta(id, opener) => super::external::load_meta(store, id, *opener),
        EngineCommand::LoadNotes(id) => Ok(super::note_data::notes(store, id)),
        EngineCommand::AddNote(_) | EngineCommand::SaveViews(_) => Ok(DataUpdate::Error(
            "a note or the views file needs the writing worker".into(),
        )),
    };
    vec![res.unwrap_or_else(|e| DataUpdate::Error(format!("store: {e}")))]
}

/// Runs one store command on the worker's own connection: decisions and undo are applied through
/// the engine's decision interface, writing commands are refused in `readonly` mode, everything
/// else goes to [`handle`]. (Also used directly by tests.)
pub fn handle_write(store: &mut Store, cmd: &EngineCommand, readonly: bool) -> Vec<DataUpdate> {
    if readonly && readonly::writes(cmd) {
        return vec![readonly::worker_refusal(cmd)];
    }
    match cmd {
        EngineCommand::Decide(d) => {
            let result = filter_data::decide(store, d).map_err(|e| e.to_string());
            vec![DataUpdate::Decided(Box::new(filter_data::Decided {
                cmd: d.clone(),
                result,
            }))]
        }
        EngineCommand::DecideBulk(b) => vec![super::bulk_data::decide(store, b)],
        EngineCommand::UndoGroup(u) => vec![super::bulk_data::undo(store, u)],
        EngineCommand::AddNote(n) => vec![super::note_data::note(store, n)],
        EngineCommand::SaveViews(v) => super::note_data::save_views(v),
        other => handle(store, other),
    }
}

/// The event-log window start: the last [`HISTORY`] events.
pub fn history_start(store: &Store) -> i64 {
    store.last_event_seq().map_or(0, |s| (s - HISTORY).max(0))
}

/// Reads new events after `seq`; returns the update and the new cursor.
pub fn poll_events(store: &Store, seq: i64) -> (Option<DataUpdate>, i64) {
    match store.events_after(seq, BATCH) {
        Ok(ev) if ev.is_empty() => (None, seq),
        Ok(ev) => {
            let last = ev.last().map_or(seq, |e| e.seq);
            (Some(DataUpdate::Events(ev)), last)
        }
        Err(e) => (Some(DataUpdate::Error(format!("reading events: {e}"))), seq),
    }
}

fn store_loop(
    mut store: Store,
    rx: Receiver<EngineCommand>,
    out: Sender<DataUpdate>,
    readonly: bool,
) {
    let mut seq = history_start(&store);
    loop {
        let (update, next) = poll_events(&store, seq);
        seq = next;
        if let Some(u) = update {
            if out.send(u).is_err() {
                return;
            }
        }
        let first = match rx.recv_timeout(POLL) {
            Ok(c) => c,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        // Drain and de-duplicate what queued up meanwhile.
        let mut cmds = vec![first];
        cmds.extend(rx.try_iter());
        let mut seen = Vec::new();
        for cmd in cmds {
            if cmd == EngineCommand::Quit {
                return;
            }
            if seen.contains(&cmd) {
                continue;
            }
            for u in handle_write(&mut store, &cmd, readonly) {
                if out.send(u).is_err() {
                    return;
                }
            }
            seen.push(cmd);
        }
    }
}

fn view_loop(rx: Receiver<Option<ViewSpec>>, out: Sender<DataUpdate>) {
    let mut matcher = new_matcher();
    while let Ok(first) = rx.recv() {
        // Only the newest request matters.
        let Some(spec) = rx.try_iter().last().unwrap_or(first) else {
            return;
        };
        if out
            .send(DataUpdate::View(compute_view(&spec, &mut matcher)))
            .is_err()
        {
            return;
        }
    }
}

/// Opens the store for the workbench; a missing file is an error (the workbench never creates one).
pub fn open_store(path: &std::path::Path) -> anyhow::Result<Store> {
    if !path.exists() {
        anyhow::bail!(
            "no store at {} — create one with `tuplewright import` or `tuplewright run`, or pass --store PATH",
            path.display()
        );
    }
    Ok(Store::open(path, Duration::from_secs(5))?)
}

/// Opens the store read-only at the SQLite level (`--readonly`); a missing file is an error.
pub fn open_store_readonly(path: &std::path::Path) -> anyhow::Result<Store> {
    if !path.exists() {
        anyhow::bail!("no store at {} — pass --store PATH", path.display());
    }
    Ok(Store::open_readonly(path, Duration::from_secs(5))?)
}
