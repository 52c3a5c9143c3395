//! The desktop pool (`[desktop] pool = N`): environments started before their task is known,
//! so that acquiring one is a hand-over, not a start.
//!
//! While a trial runs, a warmer thread starts the next environment for the same applications:
//! an X server, openbox, the session bus, each application's fresh profile and — for an
//! application that accepts a second launch's words (`[desktop] prestart_ready`: LibreOffice's
//! single-instance pipe) — the application itself with no document. [`Pool::acquire`] takes a
//! waiting environment of the same applications and screen size, makes its (empty, never
//! written) home directory the task's home by renaming directories, hands the task's launch to
//! the running application (which opens the document) and runs the same ready gate as a cold
//! start. No waiting environment: a cold start, as without a pool.
//!
//! Guarantees: an environment serves **one** acquire and is never reused (its screen is dropped
//! after the trial: every program killed); a waiting environment is isolated as any screen is
//! (its own X server, uid, session directory, profile); one whose programs died while waiting
//! or whose home was written before the hand-over is discarded, never handed out; failures of
//! a hand-over are infrastructure failures of the trial ([`ScreenError`]), never scores. Memory:
//! a waiting LibreOffice environment is 55–120 MiB PSS (≈ 150 MiB once handed a document).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::launch::IN_PROFILE;
use crate::screen::{
    AppDesktopSpec, Prestart, ReadyPhases, Screen, ScreenConfig, ScreenError, ScreenSize, Shot,
};

/// `[desktop]`: desktop applications' environments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DesktopConfig {
    /// Environments kept started ahead of their trials (unset: one per `--jobs`; 0: no pool).
    pub pool: Option<usize>,
}

impl DesktopConfig {
    /// The pool size for a run of `jobs` trials at once.
    pub fn pool_size(&self, jobs: usize) -> usize {
        self.pool.unwrap_or(jobs.max(1))
    }
}

/// What a pooled environment is started for; it is handed only to a request of the same key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolKey {
    /// The applications (pack names), in the task's order.
    pub apps: Vec<String>,
    /// Whether the files desktop's programs are on the screen too.
    pub files: bool,
    /// The screen size.
    pub size: ScreenSize,
}

impl PoolKey {
    /// The key of a request.
    pub fn of(spec: &AppDesktopSpec, size: ScreenSize) -> Self {
        PoolKey {
            apps: spec.apps.iter().map(|a| a.name.clone()).collect(),
            files: spec.files,
            size,
        }
    }
}

/// A screen made ready for its task.
pub struct Acquired {
    /// The screen (dropping it kills everything on it: the environment is never reused).
    pub screen: Screen,
    /// The ready screenshot.
    pub shot: Shot,
    /// Where the time from the request went.
    pub phases: ReadyPhases,
    /// Whether it was a pre-started environment (a hand-over) rather than a cold start.
    pub warm: bool,
}

/// One environment waiting for its task.
struct Warm {
    key: PoolKey,
    screen: Screen,
    /// The empty directory every pre-started program sees at `/home/user`.
    home: PathBuf,
    /// The applications already running (handed the task's words by a second launch).
    handed: Vec<String>,
}

struct Order {
    key: PoolKey,
    template: AppDesktopSpec,
}

#[derive(Default)]
struct State {
    idle: Vec<Warm>,
    starting: usize,
    failures: usize,
    /// Drained: no new environment is ordered, one finishing is dropped (until an acquire).
    paused: bool,
}

/// A pool of pre-started desktop environments (see the module doc).
pub struct Pool {
    cfg: ScreenConfig,
    size: usize,
    state: Arc<Mutex<State>>,
    orders: Mutex<mpsc::Sender<Order>>,
}

impl Pool {
    /// A pool keeping up to `size` environments started ahead (0: every acquire is a cold
    /// start). Its warmer thread lives as long as the process: the programs it starts are
    /// sandboxed with `--die-with-parent`, which follows the thread that started them.
    pub fn new(cfg: &ScreenConfig, size: usize) -> Result<Pool, ScreenError> {
        let state = Arc::new(Mutex::new(State::default()));
        let (tx, rx) = mpsc::channel::<Order>();
        let (st, c) = (state.clone(), cfg.clone());
        std::thread::Builder::new()
            .name("desktop-pool".into())
            .spawn(move || warmer(&c, &st, &rx))
            .map_err(|e| ScreenError::Io(format!("starting the desktop pool's thread: {e}")))?;
        Ok(Pool {
            cfg: cfg.clone(),
            size,
            state,
            orders: Mutex::new(tx),
        })
    }

    /// The environments waiting now and being started.
    pub fn counts(&self) -> (usize, usize) {
        let s = lock(&self.state);
        (s.idle.len(), s.starting)
    }

    /// The work directories of the waiting environments' screens (their processes are
    /// [`crate::screen::screen_processes`] of each: the memory a waiting pool costs).
    pub fn idle_work_dirs(&self) -> Vec<PathBuf> {
        lock(&self.state)
            .idle
            .iter()
            .map(|w| w.screen.work_dir().to_path_buf())
            .collect()
    }

    /// Asks for an environment for requests like `spec` on a screen of `size` to be started
    /// ahead (no-op when the pool is full or of size 0).
    pub fn warm(&self, spec: &AppDesktopSpec, size: ScreenSize) {
        let key = PoolKey::of(spec, size);
        {
            let mut s = lock(&self.state);
            if self.size == 0 || s.paused {
                return;
            }
            if s.idle.len() + s.starting >= self.size {
                // Full: make room only by dropping a waiting environment of another key.
                let Some(i) = s.idle.iter().position(|w| w.key != key) else {
                    return;
                };
                drop(s.idle.remove(i));
            }
            s.starting += 1;
        }
        let order = Order {
            key,
            template: spec.clone(),
        };
        let sent = self.orders.lock().map(|tx| tx.send(order).is_ok());
        if !matches!(sent, Ok(true)) {
            lock(&self.state).starting -= 1;
        }
    }

    /// Waits until no environment is being started (bench and tests), at most `timeout`.
    pub fn wait_started(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while lock(&self.state).starting > 0 {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        true
    }

    /// A screen of `size` showing `spec`'s applications with the task's documents: a waiting
    /// environment of the same key handed over, else a cold start; then the next environment
    /// of this key is ordered. Errors are infrastructure failures.
    pub fn acquire(
        &self,
        spec: &AppDesktopSpec,
        size: ScreenSize,
    ) -> Result<Acquired, ScreenError> {
        // The files desktop's file manager does not survive a hand-over: pcmanfm pre-started on
        // the waiting home exited (status 0) when the task's home was swapped in, on every
        // second files + Impress task of a run (7 December; each passes cold). Such screens
        // start cold, and none is kept waiting for them.
        if spec.files {
            return cold(&self.cfg, spec, size);
        }
        let key = PoolKey::of(spec, size);
        let mut phases = ReadyPhases::started();
        lock(&self.state).paused = false;
        let warm = self.take(&key, &spec.home);
        let got = match warm {
            Some(w) => {
                phases.mark("handed a waiting one");
                let mut screen = w.screen;
                let (shot, phases) =
                    screen.handover_apps_timed(&self.cfg, spec, &w.handed, phases)?;
                Acquired {
                    screen,
                    shot,
                    phases,
                    warm: true,
                }
            }
            None => cold(&self.cfg, spec, size)?,
        };
        tracing::info!(
            apps = ?key.apps,
            warm = got.warm,
            ms = got.phases.phases.iter().map(|(_, d)| d.as_millis()).sum::<u128>(),
            "desktop environment ready"
        );
        // The next one is started once this one is ready, not while it draws (2 cores).
        self.warm(spec, size);
        Ok(got)
    }

    /// A waiting environment of `key` whose programs still run, its home now at `home`;
    /// environments that cannot be handed over are dropped (logged).
    fn take(&self, key: &PoolKey, home: &Path) -> Option<Warm> {
        loop {
            let mut w = {
                let mut s = lock(&self.state);
                let i = s.idle.iter().position(|w| &w.key == key)?;
                s.idle.remove(i)
            };
            let fit = w
                .screen
                .check()
                .map_err(|e| e.to_string())
                .and_then(|()| swap_home(&w.home, home).map_err(|e| e.to_string()));
            match fit {
                Ok(()) => return Some(w),
                Err(e) => {
                    tracing::warn!(error = %e, "a pre-started desktop environment was discarded");
                    lock(&self.state).failures += 1;
                }
            }
        }
    }

    /// Drops every waiting environment (their programs are killed) and orders no more until
    /// the next [`Pool::acquire`]; one being started is dropped when it is ready. How many
    /// environments could not be started or handed over so far is returned.
    pub fn drain(&self) -> usize {
        let (idle, failures) = {
            let mut s = lock(&self.state);
            s.paused = true;
            (std::mem::take(&mut s.idle), s.failures)
        };
        drop(idle);
        failures
    }
}

fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The warmer thread: starts each ordered environment, one at a time. It never ends: the
/// programs it started die with it (`--die-with-parent` follows the starting thread), and an
/// environment it started may be in a trial's hands after the pool is gone.
fn warmer(cfg: &ScreenConfig, state: &Mutex<State>, orders: &mpsc::Receiver<Order>) {
    while let Ok(order) = orders.recv() {
        let made = start_warm(cfg, order);
        let mut s = lock(state);
        let dropped = match made {
            Ok(w) if s.paused => Some(w),
            Ok(w) => {
                s.idle.push(w);
                None
            }
            Err(e) => {
                s.failures += 1;
                tracing::warn!(error = %e, "pre-starting a desktop environment failed");
                None
            }
        };
        s.starting = s.starting.saturating_sub(1);
        drop(s);
        drop(dropped);
    }
    loop {
        std::thread::park();
    }
}

/// Starts one environment for `order` (the screen, the session, the pre-startable
/// applications with their fresh profiles and no words).
fn start_warm(cfg: &ScreenConfig, order: Order) -> Result<Warm, ScreenError> {
    let mut screen = Screen::start(cfg, order.key.size)?;
    let home = screen.private_dir("pool-home")?;
    let mut early = Vec::new();
    for app in &order.template.apps {
        let Some(d) = crate::apps::get(&app.name).and_then(|p| p.desktop()) else {
            continue;
        };
        let Some(prefix) = &d.prestart_ready else {
            continue;
        };
        let mut app = app.clone();
        app.args = d.argv(&format!("{IN_PROFILE}/{}", app.name), Some(&[]));
        early.push(Prestart {
            app,
            ready_prefix: prefix.clone(),
        });
    }
    let spec = AppDesktopSpec {
        home: home.clone(),
        files: order.template.files,
        apps: order.template.apps.clone(),
    };
    screen.prestart_apps(cfg, &spec, &early)?;
    Ok(Warm {
        key: order.key,
        screen,
        home,
        handed: early.into_iter().map(|p| p.app.name).collect(),
    })
}

/// Makes `warm` (the directory every pre-started program has bound at `/home/user`) the task's
/// home at `home`, holding the task home's entries: the entries are moved into `warm`, `home`
/// is moved aside and `warm` renamed to `home`. Refused, with `home` as it was, when `warm` is
/// not empty (a program wrote into the home before its task: not fresh) or not on `home`'s
/// filesystem; a rename that fails midway is undone.
pub fn swap_home(warm: &Path, home: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    if std::fs::read_dir(warm)?.next().is_some() {
        return Err(std::io::Error::other(format!(
            "{} was written before its task: not handed over",
            warm.display()
        )));
    }
    let (w, h) = (std::fs::metadata(warm)?, std::fs::metadata(home)?);
    if w.dev() != h.dev() {
        return Err(std::io::Error::other(
            "the pool's home is on another filesystem than the task's",
        ));
    }
    std::fs::set_permissions(warm, h.permissions())?;
    let names: Vec<std::ffi::OsString> = std::fs::read_dir(home)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<std::io::Result<_>>()?;
    let back = |moved: &[std::ffi::OsString]| {
        for n in moved {
            let _ = std::fs::rename(warm.join(n), home.join(n));
        }
    };
    for (i, n) in names.iter().enumerate() {
        if let Err(e) = std::fs::rename(home.join(n), warm.join(n)) {
            back(&names[..i]);
            return Err(e);
        }
    }
    let aside = home.with_file_name(format!(
        "{}.handover",
        home.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    ));
    if let Err(e) = std::fs::rename(home, &aside) {
        back(&names);
        return Err(e);
    }
    if let Err(e) = std::fs::rename(warm, home) {
        let _ = std::fs::rename(&aside, home);
        back(&names);
        return Err(e);
    }
    std::fs::remove_dir(&aside)
}

static GLOBAL: OnceLock<Pool> = OnceLock::new();

/// Installs this process's pool (once; later calls keep the first): what
/// [`acquire_or_start`] uses. A pool of size 0 is not installed, nor one under a host cap on
/// screens (`[worker] screens`).
pub fn install(cfg: &ScreenConfig, size: usize) -> Result<(), ScreenError> {
    // Under a host cap on screens a waiting environment would hold a slot a trial waits for.
    let capped = tuplewright_base::hostcap::capped(tuplewright_base::hostcap::Kind::Screen);
    if size == 0 || capped || GLOBAL.get().is_some() {
        return Ok(());
    }
    let _ = GLOBAL.set(Pool::new(cfg, size)?);
    Ok(())
}

/// The installed pool, if any.
pub fn global() -> Option<&'static Pool> {
    GLOBAL.get()
}

/// A ready screen for `spec`: from the installed pool when there is one, else a cold start.
/// An application that never showed its document gets one more cold start, the home first
/// put back as the setup left it ([`super::again`]); a second such failure is the error.
pub fn acquire_or_start(
    cfg: &ScreenConfig,
    spec: &AppDesktopSpec,
    size: ScreenSize,
) -> Result<Acquired, ScreenError> {
    // Only an application whose titles name its documents can fail that way.
    let titled = spec.apps.iter().any(|a| a.document_title.is_some());
    let before = match titled {
        true => super::again::listing(&spec.home),
        false => Default::default(),
    };
    let first = match GLOBAL.get() {
        Some(pool) if pool.cfg == *cfg => pool.acquire(spec, size),
        _ => cold(cfg, spec, size),
    };
    match first {
        Err(e @ ScreenError::DocumentNotShown { .. }) => {
            tracing::warn!(error = %e, "a desktop application never showed its document: once more, cold");
            super::again::remove_added(&spec.home, &before)?;
            cold(cfg, spec, size)
        }
        other => other,
    }
}

/// A cold start: a new screen, then every application of `spec` started and gated.
fn cold(
    cfg: &ScreenConfig,
    spec: &AppDesktopSpec,
    size: ScreenSize,
) -> Result<Acquired, ScreenError> {
    let mut phases = ReadyPhases::started();
    let mut screen = Screen::start(cfg, size)?;
    phases.mark("X server");
    let (shot, rest) = screen.open_apps_timed(cfg, spec)?;
    phases.phases.extend(rest.phases);
    Ok(Acquired {
        screen,
        shot,
        phases,
        warm: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(dir: &Path) -> Vec<String> {
        let mut out: Vec<String> = walkdir::WalkDir::new(dir)
            .min_depth(1)
            .into_iter()
            .flatten()
            .map(|e| e.path().strip_prefix(dir).unwrap().display().to_string())
            .collect();
        out.sort();
        out
    }

    #[test]
    fn the_waiting_home_becomes_the_task_home_with_its_files_and_the_same_inode_bound() {
        use std::os::unix::fs::MetadataExt;
        let tmp = tempfile::tempdir().unwrap();
        let (warm, home) = (tmp.path().join("warm"), tmp.path().join("home"));
        std::fs::create_dir(&warm).unwrap();
        std::fs::create_dir_all(home.join("Documents")).unwrap();
        std::fs::write(home.join("Documents/a.xlsx"), "a").unwrap();
        std::fs::write(home.join(".hidden"), "h").unwrap();
        let inode = std::fs::metadata(&warm).unwrap().ino();
        swap_home(&warm, &home).unwrap();
        // The directory the pre-started programs see is now the task's home, holding its files.
        assert_eq!(std::fs::metadata(&home).unwrap().ino(), inode);
        assert_eq!(tree(&home), [".hidden", "Documents", "Documents/a.xlsx"]);
        assert!(!warm.exists());
        assert_eq!(
            tree(tmp.path()),
            [
                "home",
                "home/.hidden",
                "home/Documents",
                "home/Documents/a.xlsx"
            ]
        );
    }

    #[test]
    fn a_waiting_home_written_before_its_task_is_refused_and_the_task_home_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let (warm, home) = (tmp.path().join("warm"), tmp.path().join("home"));
        std::fs::create_dir_all(warm.join(".cache")).unwrap();
        std::fs::create_dir_all(home.join("Documents")).unwrap();
        std::fs::write(home.join("Documents/a.xlsx"), "a").unwrap();
        let err = swap_home(&warm, &home).unwrap_err().to_string();
        assert!(err.contains("written before its task"), "{err}");
        assert_eq!(tree(&home), ["Documents", "Documents/a.xlsx"]);
        assert_eq!(tree(&warm), [".cache"]);
    }

    #[test]
    fn the_pool_size_defaults_to_the_jobs_and_zero_turns_it_off() {
        let cfg: DesktopConfig = toml::from_str("").unwrap();
        assert_eq!(cfg.pool_size(3), 3);
        assert_eq!(cfg.pool_size(0), 1);
        let off: DesktopConfig = toml::from_str("pool = 0").unwrap();
        assert_eq!(off.pool_size(4), 0);
        assert!(toml::from_str::<DesktopConfig>("pol = 1").is_err());
    }
}
