//! App packs: every built-in environment is one folder `crates/engine/src/apps/<pack>/` holding everything that
//! is that app's — `manifest.toml` (name, title, kind, port, aliases, state schema), `seed.json`,
//! `tasks.json` (shipped tasks), `SKILL.md`, `taxonomy.toml`, `templates/` (scripted agent),
//! and where Rust is needed its web UI (`ui/`, `ui.css`) and ui-oracle planner (`ui/planner.rs`).
//!
//! [`packs!`] below is the **one registry**: one line per pack. Nothing else in the crate names an
//! app; the CLI, the workbench, rollout, taskgen, stats, openenv and the screens ask this module.
//! A pack is reached through the [`App`] trait, which its `mod.rs` implements (mostly by embedding
//! its files with [`pack_files!`]).

use std::sync::OnceLock;

use crate::env::apps::{AppKind, AppManifest};
use crate::rollout::ui_plan::UiPlanner;
use crate::taskgen::recipes::Recipe;

pub mod check;
pub mod cross;
pub mod list;
pub mod local;
pub mod new;
pub mod new_local;
pub mod office;
pub mod spec_pack;
use crate::ui::AppUi;

/// A scripted-agent template embedded from a pack: (name, initial_setup.py, golden_patch.py,
/// reward.py, template.toml).
pub type PackTemplate = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// One app pack. Data comes from the pack's files (embedded at compile time); code (a UI, a
/// planner) is returned as trait objects where the pack has some.
pub trait App: Sync {
    /// The pack folder relative to the crate root (`crates/engine/src/apps/mail`): named in `apps check` failures.
    fn dir(&self) -> &'static str;
    /// `manifest.toml`: name, title, kind, port, aliases, entity notes and state schema.
    fn manifest_text(&self) -> &'static str;
    /// `seed.json`: the default state (`None` for a desktop app, whose seed is [`App::home`]).
    fn seed_text(&self) -> Option<&'static str>;
    /// `tasks.json`: the shipped tasks (a task-generation JSON array).
    fn tasks_text(&self) -> &'static str;
    /// `SKILL.md`: what agents are told about the app.
    fn skill_text(&self) -> &'static str;
    /// `taxonomy.toml`: the feature taxonomy task generation samples.
    fn taxonomy_text(&self) -> &'static str;
    /// `templates/<name>/`: the scripted agent's templates.
    fn templates(&self) -> &'static [PackTemplate];
    /// The server-rendered web UI, if the app has one.
    fn ui(&self) -> Option<&'static dyn AppUi> {
        None
    }
    /// The ui-oracle planner of the web UI, if the app has one.
    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        None
    }
    /// The task-generation recipes named by `taxonomy.toml`'s leaves.
    fn recipes(&self) -> &'static [(&'static str, Recipe)] {
        &[]
    }
    /// A desktop app's seed home directory: (relative path, contents).
    fn home(&self) -> &'static [(&'static str, &'static [u8])] {
        &[]
    }
    /// Whether the pack was loaded from a folder at start-up (`[apps] packs`), not built in.
    fn is_local(&self) -> bool {
        false
    }
    /// A spec-built app's `app.spec.toml` (issue #32), `None` for a hand-written pack.
    fn spec_text(&self) -> Option<&'static str> {
        None
    }
    /// A desktop application's profile folder (`profile/`): (relative path, contents), copied
    /// fresh for each environment when `[desktop] profile = true`.
    fn profile(&self) -> &'static [(&'static str, &'static [u8])] {
        &[]
    }
    /// A desktop application's state reader (`state.py`) when `[desktop] state = true`.
    fn state_reader(&self) -> Option<&'static str> {
        None
    }
}

/// Embeds a desktop application's files: expands to the [`App`] methods `home` (the listed
/// files of `home/`), `profile` (the listed files of `profile/`) and `state_reader`
/// (`state.py`) of the folder `crates/engine/src/apps/<dir>/`. One line per desktop pack, next to
/// [`pack_files!`].
macro_rules! desktop_files {
    ($dir:literal, home: [$($h:literal),* $(,)?], profile: [$($p:literal),* $(,)?]) => {
        fn home(&self) -> &'static [(&'static str, &'static [u8])] {
            &[$(($h, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/home/", $h)) as &[u8])),*]
        }
        fn profile(&self) -> &'static [(&'static str, &'static [u8])] {
            &[$(($p, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/profile/", $p)) as &[u8])),*]
        }
        fn state_reader(&self) -> Option<&'static str> {
            Some(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/state.py")))
        }
    };
}
pub(crate) use desktop_files;

/// Embeds a pack's data files: expands to the [`App`] methods `dir`, `manifest_text`,
/// `seed_text`, `tasks_text`, `skill_text`, `taxonomy_text` and `templates` for the folder
/// `crates/engine/src/apps/<dir>/` (seed: `seed` or `no_seed`; the list of template folders). Optional
/// preludes (paths relative to `crates/engine/src/apps/`) are joined in front of every template's
/// `reward.py` (`reward_prelude: "office/docx_reward.py"`), `initial_setup.py`
/// (`setup_prelude: "pdf/setup_prelude.py"`) or `golden_patch.py` (`golden_prelude: …`) at
/// compile time, so a rendered script is still one self-contained file. A setup or golden
/// prelude may be a list, joined in order (`setup_prelude: ["../../../../skills/_common/desktop.py",
/// "gimp/prelude.py"]`: the shared desktop helpers, then the pack's own).
macro_rules! pack_files {
    ($dir:literal, $seed:ident, [$($t:literal),* $(,)?]
     $(, reward_prelude: $rp:expr)? $(, setup_prelude: $sp:tt)? $(, golden_prelude: $gp:tt)? $(,)?) => {
        $crate::apps::pack_files!(@seed $dir, $seed);
        $crate::apps::pack_files!(@common $dir, [$($t),*], [$($rp)?], [$($sp)?], [$($gp)?]);
    };
    (@seed $dir:literal, seed) => {
        fn seed_text(&self) -> Option<&'static str> {
            Some(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/seed.json")))
        }
    };
    (@seed $dir:literal, no_seed) => {
        fn seed_text(&self) -> Option<&'static str> {
            None
        }
    };
    (@prelude []) => { "" };
    (@prelude [[$($p:literal),* $(,)?]]) => {
        concat!($($crate::apps::pack_files!(@prelude [$p])),*)
    };
    (@prelude [$p:expr]) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $p))
    };
    (@common $dir:literal, [$($t:literal),*], $rp:tt, $sp:tt, $gp:tt) => {
        fn dir(&self) -> &'static str {
            concat!("crates/engine/src/apps/", $dir)
        }
        fn manifest_text(&self) -> &'static str {
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/manifest.toml"))
        }
        fn tasks_text(&self) -> &'static str {
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/tasks.json"))
        }
        fn skill_text(&self) -> &'static str {
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/SKILL.md"))
        }
        fn taxonomy_text(&self) -> &'static str {
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/taxonomy.toml"))
        }
        fn templates(&self) -> &'static [$crate::apps::PackTemplate] {
            &[$((
                $t,
                concat!(
                    $crate::apps::pack_files!(@prelude $sp),
                    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/templates/", $t, "/initial_setup.py"))
                ),
                concat!(
                    $crate::apps::pack_files!(@prelude $gp),
                    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/templates/", $t, "/golden_patch.py"))
                ),
                concat!(
                    $crate::apps::pack_files!(@prelude $rp),
                    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/templates/", $t, "/reward.py"))
                ),
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", $dir, "/templates/", $t, "/template.toml")),
            )),*]
        }
    };
}
pub(crate) use pack_files;

#[cfg(test)]
mod prelude_tests;

/// Declares the packs: a module and a registry entry per line.
macro_rules! packs {
    ($($pack:ident),* $(,)?) => {
        $(pub mod $pack;)*
        /// Every built-in pack, in registry order.
        static PACKS: &[&dyn App] = &[$(&$pack::Pack),*];
    };
}

// The registry: one line per pack.
packs! {
    team_chat,
    mail,
    issue_tracker,
    ecommerce_admin,
    files,
    libreoffice_calc,
    libreoffice_writer,
    libreoffice_impress,
    code_editor,
    chrome,
    thunderbird,
    vlc,
    gimp,
    pdf,
}

// The spec-built packs (docs/envgen.md): one line per folder holding `app.spec.toml`.
spec_pack::spec_packs! {
    todo,
    analytics,
    calendar,
    clinic,
    code_host,
    crm,
    design,
    docs,
    drive,
    expenses,
    helpdesk,
    hr,
    incidents,
    invoicing,
    kanban,
    listings,
    lms,
    email_campaigns,
    day_planner,
    recruiting,
    social,
    storefront,
    travel,
    issue_tracker_spec,
}

/// A pack with its parsed manifest.
pub struct Pack {
    /// The pack's code and embedded files.
    pub app: &'static dyn App,
    /// The parsed `manifest.toml`.
    pub manifest: AppManifest,
}

impl Pack {
    /// The app's generic public name (`manifest.toml`'s `name`).
    pub fn name(&self) -> &str {
        &self.manifest.name
    }

    /// `web` or `desktop`.
    pub fn kind(&self) -> &'static str {
        match self.manifest.kind {
            AppKind::StateApi => "web",
            AppKind::Files | AppKind::Desktop => "desktop",
        }
    }

    /// Whether the app is a desktop (a home directory and its file manager, no state server).
    pub fn is_desktop(&self) -> bool {
        self.manifest.kind.has_home()
    }

    /// The `[desktop]` table of a desktop application (none for web apps and the files desktop).
    pub fn desktop(&self) -> Option<&crate::env::desktop_app::DesktopManifest> {
        self.manifest.desktop.as_ref()
    }

    /// The short label of the app's taskbar button on a combined screen.
    pub fn label(&self) -> &str {
        self.manifest
            .label
            .as_deref()
            .unwrap_or(&self.manifest.title)
    }
}

/// The registry, built on first use: the built-in packs, then the local ones ([`local::load`]).
static ALL: OnceLock<Vec<Pack>> = OnceLock::new();

/// Whether the registry has been read already (local packs can no longer join it).
fn registry_in_use() -> bool {
    ALL.get().is_some()
}

/// The folder of the built-in pack whose name or an alias is `word`, read without building the
/// registry.
fn builtin_dir(word: &str) -> Option<&'static str> {
    PACKS.iter().chain(SPEC_PACKS.iter()).find_map(|app| {
        let manifest: AppManifest = toml::from_str(app.manifest_text()).ok()?;
        (manifest.name == word || manifest.aliases.iter().any(|a| a == word)).then(|| app.dir())
    })
}

/// Every pack with its manifest, in registry order: the built-in ones, then the local packs of
/// `[apps] packs`. A manifest that does not parse is a build defect the `apps_check` test names;
/// such a pack is left out here.
pub fn all() -> &'static [Pack] {
    ALL.get_or_init(|| {
        PACKS
            .iter()
            .chain(SPEC_PACKS.iter())
            .chain(local::loaded().iter())
            .filter_map(|app| {
                let manifest = toml::from_str(app.manifest_text()).ok()?;
                Some(Pack {
                    app: *app,
                    manifest,
                })
            })
            .collect()
    })
}

/// The pack named `name` (its manifest name, e.g. `team-chat`).
pub fn get(name: &str) -> Option<&'static Pack> {
    all().iter().find(|p| p.name() == name)
}

/// The pack named `name` or having it as an alias (`gmail` for `mail`).
pub fn find(name: &str) -> Option<&'static Pack> {
    get(name).or_else(|| {
        all()
            .iter()
            .find(|p| p.manifest.aliases.iter().any(|a| a == name))
    })
}

/// Names of every built-in app, in registry order.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|p| p.manifest.name.as_str()).collect()
}

/// The web UI of `app`, if it is a built-in app with one.
pub fn ui(app: &str) -> Option<&'static dyn AppUi> {
    get(app).and_then(|p| p.app.ui())
}

/// The ui-oracle planner of `app`, if it is a built-in app with a web UI.
pub fn planner(app: &str) -> Option<&'static dyn UiPlanner> {
    get(app).and_then(|p| p.app.planner())
}

/// Names of the apps with a web UI.
pub fn with_ui() -> Vec<&'static str> {
    all()
        .iter()
        .filter(|p| p.app.ui().is_some())
        .map(|p| p.manifest.name.as_str())
        .collect()
}

/// Whether `app` is a built-in desktop app.
pub fn is_desktop(app: &str) -> bool {
    get(app).is_some_and(Pack::is_desktop)
}

/// The files desktop (the built-in `kind = "files"` pack).
pub fn desktop() -> Option<&'static Pack> {
    all().iter().find(|p| p.manifest.kind == AppKind::Files)
}

/// The desktop applications (`kind = "desktop"`, with a `[desktop]` table), in registry order.
pub fn desktop_apps() -> impl Iterator<Item = &'static Pack> {
    all().iter().filter(|p| p.desktop().is_some())
}

/// The desktop application a setup script's launch of `program` (`soffice`,
/// `/usr/bin/libreoffice`) opens, preferring one of `apps` (the task's), else any.
pub fn launched_app(program: &str, apps: &[String]) -> Option<&'static Pack> {
    let mut hits = desktop_apps().filter(|p| p.desktop().is_some_and(|d| d.launched_by(program)));
    let first = hits.next()?;
    let rest: Vec<&Pack> = hits.collect();
    std::iter::once(first)
        .chain(rest)
        .find(|p| {
            apps.iter()
                .any(|a| a == p.name() || p.manifest.aliases.contains(a))
        })
        .or(Some(first))
}

/// Every launcher name of every desktop application (the shims setup scripts find on `PATH`).
pub fn launcher_names() -> Vec<String> {
    let mut out: Vec<String> = desktop_apps()
        .filter_map(Pack::desktop)
        .flat_map(|d| d.launcher_names())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The embedded template `<app>/<name>` of a pack.
pub fn template(app: &str, name: &str) -> Option<PackTemplate> {
    get(app)?
        .app
        .templates()
        .iter()
        .find(|t| t.0 == name)
        .copied()
}

/// Ids (`<app>/<name>`) of every pack template.
pub fn template_ids() -> Vec<String> {
    all()
        .iter()
        .flat_map(|p| {
            p.app
                .templates()
                .iter()
                .map(move |t| format!("{}/{}", p.name(), t.0))
        })
        .collect()
}

/// The shipped task files of the source checkout at `root`, sorted by label: each pack's
/// `tasks.json` labelled with its app's name, and the cross-app files `assets/tasks/*.json`
/// labelled with their stem (`cross`).
pub fn shipped_task_files(root: &std::path::Path) -> Vec<(String, std::path::PathBuf)> {
    let mut out: Vec<(String, std::path::PathBuf)> = all()
        .iter()
        .map(|p| {
            (
                p.name().to_string(),
                root.join(p.app.dir()).join("tasks.json"),
            )
        })
        .collect();
    if let Ok(entries) = std::fs::read_dir(root.join("assets/tasks")) {
        for path in entries.flatten().map(|e| e.path()) {
            if path.extension().is_some_and(|x| x == "json") {
                if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                    out.push((stem.to_string(), path.clone()));
                }
            }
        }
    }
    out.sort();
    out
}
