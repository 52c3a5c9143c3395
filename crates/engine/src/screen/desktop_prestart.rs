//! A desktop-application screen started before its task is known (the desktop pool,
//! `crate::desktop::pool`): the X server, the window manager, the session bus and —
//! for an application that accepts a second launch's words (`[desktop] prestart_ready`,
//! LibreOffice's single-instance pipe) — the application itself with its fresh profile and no
//! document. The task's launch is then a hand-over: a second launch of the program with the
//! task's words, which passes them to the running instance and exits, and the same ready gate
//! as a cold start ([`Screen::open_apps_timed`]).

use std::path::Path;
use std::time::{Duration, Instant};

use super::desktop_app::apps_deadline;
use super::{AppDesktopSpec, ReadyPhases, Screen, ScreenApp, ScreenConfig, ScreenError, Shot};

/// An application the pool starts ahead of its task.
#[derive(Debug, Clone)]
pub struct Prestart {
    /// The application, with the arguments of a start without words (`--nodefault`: no window).
    pub app: ScreenApp,
    /// The start of the file name in its `/tmp` that shows it accepts a second launch.
    pub ready_prefix: String,
}

impl Screen {
    /// Starts the window manager and the session bus of `spec` (its applications' classes get
    /// openbox's placement rules; its home is an empty directory the pool swaps for the task's
    /// home later), then each of `early`, and waits until every one of them accepts a second
    /// launch. Nothing of the task is known yet: no document, no window.
    pub fn prestart_apps(
        &mut self,
        cfg: &ScreenConfig,
        spec: &AppDesktopSpec,
        early: &[Prestart],
    ) -> Result<ReadyPhases, ScreenError> {
        let mut phases = ReadyPhases::started();
        let deadline = apps_deadline(cfg, spec);
        self.start_session(cfg, spec, deadline, &mut phases)?;
        for p in early {
            self.start_app(cfg, &spec.home, &p.app)?;
        }
        let session = self.private_dir("session")?;
        for p in early {
            let want = early
                .iter()
                .filter(|q| q.ready_prefix == p.ready_prefix)
                .count();
            let what = format!("{} accepting a second launch", p.app.name);
            self.wait_for(deadline, &what, || {
                Ok(count_prefixed(&session, &p.ready_prefix) >= want)
            })?;
        }
        phases.mark("applications listening");
        // The pipe appears early in the application's start: it is ready for a hand-over once
        // its processes have stopped using the CPU (its own start finished), not before.
        let pids = super::screen_processes(self.work_dir());
        let calm = Instant::now() + CALM_MAX;
        super::idle::wait_cpu_calm(&pids, calm.min(deadline));
        phases.mark("applications idle");
        Ok(phases)
    }

    /// The hand-over of a pre-started screen to its task: `spec.home` (now the directory every
    /// pre-started program sees at `/home/user`) is handed to the app uid, every application of
    /// `spec` is started — those in `handed` through a second launch with the task's words —
    /// and the ready gate runs as for a cold start. `phases` goes on with the gate's phases.
    pub fn handover_apps_timed(
        &mut self,
        cfg: &ScreenConfig,
        spec: &AppDesktopSpec,
        handed: &[String],
        phases: ReadyPhases,
    ) -> Result<(Shot, ReadyPhases), ScreenError> {
        let deadline = apps_deadline(cfg, spec);
        if let Some(uid) = self.app_uid {
            let mut notes = Vec::new();
            crate::sandbox::hand_home_to(&spec.home, uid, &mut notes)
                .map_err(|e| ScreenError::Io(format!("handing the home to the desktop: {e}")))?;
        }
        self.gate_apps(cfg, spec, handed, deadline, phases)
    }

    /// A second launch of `app` with the task's words: the running instance takes them (opens
    /// the document) and the launch exits 0, so it is closable from the start; a launch that
    /// fails is [`ScreenError::AppDied`] at the next check.
    pub(super) fn hand_over(
        &mut self,
        cfg: &ScreenConfig,
        home: &Path,
        app: &ScreenApp,
    ) -> Result<(), ScreenError> {
        let args: Vec<&str> = app.args.iter().map(String::as_str).collect();
        let cmd = self.session_command(cfg, home, &app.env, &app.program, &args)?;
        let name = format!("{}-handover", app.name);
        self.launch(&name, cmd)?;
        self.mark_closable(&name);
        Ok(())
    }
}

/// How many entries of `dir` have a name starting with `prefix`.
fn count_prefixed(dir: &Path, prefix: &str) -> usize {
    std::fs::read_dir(dir).map_or(0, |rd| {
        rd.flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
            .count()
    })
}

/// The longest a pre-started application's start is waited for to go idle (a busy one is
/// still handed over: the gate then waits for its window as for a cold start).
const CALM_MAX: Duration = Duration::from_secs(30);
