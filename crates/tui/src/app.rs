//! The event loop: input and worker results are drained, the model updated, and the screen redrawn
//! at most every [`FRAME`] — never while waiting on the store.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::{
    self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton,
    MouseEvent, MouseEventKind,
};

use super::keymap::{Code, Key, Keymap};
use super::model::{Model, Msg};
use super::mouse::{Mouse, MouseKind};
use super::terminal::Tui;
use super::theme::{no_color_from_env, Theme};
use super::view;
use super::worker::{open_store, open_store_readonly, Workers};

/// Minimum time between two frames.
pub const FRAME: Duration = Duration::from_millis(16);

/// How the workbench was asked to start.
#[derive(Debug, Clone)]
pub struct TuiOptions {
    /// The store.
    pub store: PathBuf,
    /// Observer mode.
    pub readonly: bool,
    /// Keymap file (missing = defaults).
    pub keymap: PathBuf,
    /// Theme: `dark`, `light` or a path.
    pub theme: String,
    // live jobs
    /// `tuplewright.toml` for the jobs the workbench drives (`None`: defaults).
    pub config: Option<PathBuf>,
}

/// Converts a crossterm key event (presses and repeats only).
pub fn convert_key(k: &KeyEvent) -> Option<Key> {
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let code = match k.code {
        KeyCode::Char(c) => Code::Char(c),
        KeyCode::Enter => Code::Enter,
        KeyCode::Esc => Code::Esc,
        KeyCode::Tab => Code::Tab,
        KeyCode::BackTab => Code::BackTab,
        KeyCode::Backspace => Code::Backspace,
        KeyCode::Up => Code::Up,
        KeyCode::Down => Code::Down,
        KeyCode::Left => Code::Left,
        KeyCode::Right => Code::Right,
        KeyCode::PageUp => Code::PageUp,
        KeyCode::PageDown => Code::PageDown,
        KeyCode::Home => Code::Home,
        KeyCode::End => Code::End,
        KeyCode::F(n) => Code::F(n),
        _ => return None,
    };
    Some(Key {
        code,
        ctrl: k.modifiers.contains(KeyModifiers::CONTROL),
        alt: k.modifiers.contains(KeyModifiers::ALT),
    })
}

/// Converts a crossterm mouse event (left clicks and the wheel; shift-wheel scrolls sideways).
pub fn convert_mouse(m: &MouseEvent) -> Option<Mouse> {
    let shift = m.modifiers.contains(KeyModifiers::SHIFT);
    let kind = match m.kind {
        MouseEventKind::Down(MouseButton::Left) => MouseKind::Click,
        MouseEventKind::ScrollDown if shift => MouseKind::WheelRight,
        MouseEventKind::ScrollUp if shift => MouseKind::WheelLeft,
        MouseEventKind::ScrollDown => MouseKind::WheelDown,
        MouseEventKind::ScrollUp => MouseKind::WheelUp,
        MouseEventKind::ScrollRight => MouseKind::WheelRight,
        MouseEventKind::ScrollLeft => MouseKind::WheelLeft,
        _ => return None,
    };
    Some(Mouse {
        kind,
        col: m.column,
        row: m.row,
    })
}

/// Opens the workbench on a store and runs until the user quits.
pub fn run(opts: &TuiOptions) -> anyhow::Result<()> {
    // Configuration errors are reported before the terminal is touched.
    let keymap = Keymap::load(&opts.keymap)?;
    let theme = Theme::load(&opts.theme, no_color_from_env())?;
    let store = if opts.readonly {
        open_store_readonly(&opts.store)?
    } else {
        open_store(&opts.store)?
    };
    let config = match &opts.config {
        Some(p) => tuplewright_engine::config::Config::load(p, true)?,
        None => tuplewright_engine::config::Config::default(),
    };
    let (tx, rx) = mpsc::channel();
    let image_tx = tx.clone();
    let seed = config.agents.scripted.seed;
    let curate = config.curate.clone();
    let rerun_default = tuplewright_engine::jobs::rerun::RerunSettings::suggested(&config);
    let taskgen_default = tuplewright_engine::jobs::taskgen_line::suggested(&config);
    let export_opts = tuplewright_records::bundle::export::ExportOptions {
        out: config.export.out_dir.clone(),
        url_prefix: config.export.url_prefix.clone(),
        statuses: config.export.statuses.clone(),
        task: None,
    };
    // rollouts screen: the launch form offers `[rollout] policies` and validates with them.
    let launch_cfg = super::model::launch::LaunchConfig {
        rollout: config.rollout.clone(),
        screen: config.screen.clone(),
    };
    let similar = super::similar_data::SimilarSettings {
        store: opts.store.clone(),
        readonly: opts.readonly,
        embeddings: config.taskgen.embeddings.clone(),
        venv: config.sandbox.venv_dir.clone(),
    };
    let jobs = super::jobs::JobRunner::start(
        super::jobs::JobSettings {
            store: opts.store.clone(),
            config,
            isolation: tuplewright_engine::sandbox::Isolation::Required,
            seed,
        },
        tx.clone(),
    )?;
    let mut workers = Workers::start_with(store, tx, opts.readonly)?
        .with_jobs(jobs)
        .with_similar(similar)?;
    let mut model = Model::new(keymap, opts.readonly);
    super::model::bulk::configure(&mut model, &curate);
    let views = tuplewright_records::curate::views::default_path(|k| std::env::var(k).ok());
    super::model::panels::configure(&mut model, &curate.tags, views);
    model.tuples.rerun_default = rerun_default;
    model.tuples.taskgen_default = taskgen_default;
    model.tuples.export_opts = Some(export_opts);
    model.rollouts.launch_cfg = launch_cfg;
    // states: load the syntax sets off the UI thread, before the first highlighted frame.
    let _ = std::thread::Builder::new()
        .name("tw-highlight".into())
        .spawn(super::highlight::warm_up);
    // rollouts screen: screenshots are encoded off the draw path.
    model.rollouts.image.start_background(image_tx)?;
    for c in model.init() {
        workers.send(c);
    }
    let result = event_loop(&mut model, &theme, &workers, &rx, &opts.store);
    // The terminal is restored by now: say what happened to a job still running.
    if let Some(msg) = workers.stop_jobs() {
        eprintln!("{msg}");
    }
    workers.stop();
    result
}

fn event_loop(
    model: &mut Model,
    theme: &Theme,
    workers: &Workers,
    rx: &mpsc::Receiver<super::data::DataUpdate>,
    store: &std::path::Path,
) -> anyhow::Result<()> {
    let mut tui = Tui::enter()?;
    // rollouts screen: the graphics protocol, queried once from the real terminal.
    model.rollouts.picker = super::graphics::terminal_picker();
    let size = tui.terminal.size()?;
    model.update(Msg::Resize(size.width, size.height));
    let mut dirty = true;
    let mut last_draw = Instant::now() - FRAME;
    let label = store.display().to_string();
    while !model.quit {
        model.set_time(Instant::now());
        if model.expire_notice() {
            dirty = true;
        }
        if dirty && last_draw.elapsed() >= FRAME {
            tui.terminal.draw(|f| view::draw(f, model, theme, &label))?;
            last_draw = Instant::now();
            dirty = false;
        }
        let wait = if dirty {
            FRAME.saturating_sub(last_draw.elapsed())
        } else {
            FRAME
        };
        if event::poll(wait)? {
            // Drain every pending terminal event before the next frame.
            loop {
                let msg = match event::read()? {
                    TermEvent::Key(k) => convert_key(&k).map(Msg::Key),
                    TermEvent::Resize(w, h) => Some(Msg::Resize(w, h)),
                    TermEvent::Mouse(m) => convert_mouse(&m).map(Msg::Mouse),
                    _ => None,
                };
                if let Some(m) = msg {
                    for c in model.update(m) {
                        workers.send(c);
                    }
                    dirty = true;
                }
                if model.mouse_captured != tui.mouse_captured {
                    tui.capture_mouse(model.mouse_captured)?;
                }
                if model.quit || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        for d in rx.try_iter() {
            for c in model.update(Msg::Data(d)) {
                workers.send(c);
            }
            dirty = true;
        }
        if let Some(e) = model.external.take() {
            external(&mut tui, model, e)?;
            dirty = true;
        }
    }
    Ok(())
}

/// Opens a copy in `$EDITOR` / `$PAGER` with the terminal suspended, or sets the clipboard.
fn external(tui: &mut Tui, model: &mut Model, e: super::external::External) -> anyhow::Result<()> {
    use super::external::{materialize, osc52, run, External};
    match e {
        External::Yank { text } => tui.send(&osc52(&text))?,
        External::Open(t) => {
            let tmp = std::env::temp_dir();
            match materialize(&tmp, &t.task_id, &t.name, &t.text, model.readonly) {
                Ok(path) => {
                    let program = t.opener.command(|k| std::env::var(k).ok());
                    let r = tui.suspended(|| run(&program, &path))?;
                    super::model::open::opened(model, &t, &path, r);
                }
                Err(e) => model.say(
                    super::model::notice::Level::Error,
                    format!("writing the copy under {}: {e}", tmp.display()),
                ),
            }
        }
    }
    Ok(())
}
