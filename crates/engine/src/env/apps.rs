//! The built-in apps: a manifest (`manifest.toml`) and a default seed (`seed.json`) each, from
//! their packs ([`crate::apps`]), embedded in the binary so it works from any directory; an override directory can replace
//! or add apps.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::mask::{Mask, DEFAULT_VOLATILE};
use super::EnvError;

/// What kind of environment an app is.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum AppKind {
    /// A headless web app behind the state API.
    StateApi,
    /// The files desktop domain: a home directory, no server.
    Files,
    /// A desktop application (`[desktop]`: LibreOffice Calc, …): a home directory and a real
    /// program on the environment's screen, no server.
    Desktop,
}

impl AppKind {
    /// Whether environments of this kind have a per-environment home directory as their state
    /// (the files domain and desktop applications).
    pub fn has_home(self) -> bool {
        matches!(self, AppKind::Files | AppKind::Desktop)
    }
}

/// Notes about one top-level entity collection of an app's state.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EntityNote {
    /// Top-level key (or dotted path) of the collection.
    pub key: String,
    /// What it holds, its invariants and how rewards usually read it.
    pub notes: String,
}

/// An app's `manifest.toml`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AppManifest {
    /// Generic public name (also the directory name), e.g. `team-chat`.
    pub name: String,
    /// Human title.
    pub title: String,
    /// State API app or files domain.
    pub kind: AppKind,
    /// Conventional port scripts use (`http://localhost:<port>`); none for the files domain.
    #[serde(default)]
    pub port: Option<u16>,
    /// One-paragraph description.
    pub description: String,
    /// Volatile key-path globs masked before diffing; default `["**.lastViewedAt"]`.
    #[serde(default = "default_volatile")]
    pub volatile: Vec<String>,
    /// Entity notes.
    #[serde(default)]
    pub entities: Vec<EntityNote>,
    /// Other names scripts and public bundles use for this app (`gmail` for `mail`).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The pack this one was copied from by `apps new` (its `origin` is then `generated`).
    #[serde(default)]
    pub generated_from: Option<String>,
    /// The short label of its taskbar button on a combined screen (default: `title`).
    #[serde(default)]
    pub label: Option<String>,
    /// The declared state schema (`[state]`: top-level key → `list`, `map`, `lists` or
    /// `config`): what the probes empty, and what a setup's state must fit.
    #[serde(default)]
    pub state: Option<crate::openenv::StateSchema>,
    /// The paper's Table 3 category (`communication`, `project management`, …).
    #[serde(default)]
    pub category: Option<String>,
    /// A spec-built app's spec, relative to its pack folder (`app.spec.toml`; issue #32).
    #[serde(default)]
    pub spec: Option<String>,
    /// `[desktop]`: the program a `kind = "desktop"` app runs on the screen (see
    /// [`super::desktop_app::DesktopManifest`]).
    #[serde(default)]
    pub desktop: Option<super::desktop_app::DesktopManifest>,
}

fn default_volatile() -> Vec<String> {
    DEFAULT_VOLATILE.iter().map(|s| s.to_string()).collect()
}

/// A loaded app: manifest, default seed and compiled mask.
#[derive(Debug)]
pub struct App {
    /// The manifest.
    pub manifest: AppManifest,
    /// The default seed state (an object; `{}` for the files domain).
    pub seed: Arc<Value>,
    /// The seed serialized as compact JSON (reused in every response about a fresh session).
    pub seed_json: axum::body::Bytes,
    /// The seed's `state_id`.
    pub seed_id: String,
    /// The compiled volatile mask.
    pub mask: Mask,
}

impl App {
    /// Parses an app from the texts of its manifest and seed; `origin` names it in errors.
    pub fn parse(origin: &str, manifest: &str, seed: Option<&str>) -> Result<App, EnvError> {
        let bad = |detail: String| EnvError::BadApp {
            app: origin.to_string(),
            detail,
        };
        let manifest: AppManifest =
            toml::from_str(manifest).map_err(|e| bad(format!("manifest.toml: {e}")))?;
        let seed: Value = match seed {
            Some(text) => serde_json::from_str(text).map_err(|e| bad(format!("seed.json: {e}")))?,
            None if manifest.kind.has_home() => Value::Object(Default::default()),
            None => return Err(bad("seed.json is missing".into())),
        };
        if !seed.is_object() {
            return Err(bad(format!(
                "seed.json must be a JSON object, got {}",
                super::json_type(&seed)
            )));
        }
        if manifest.kind == AppKind::StateApi && manifest.port.is_none() {
            return Err(bad("manifest.toml: a state-api app needs a `port`".into()));
        }
        match (&manifest.kind, &manifest.desktop) {
            (AppKind::Desktop, None) => {
                return Err(bad(
                    "manifest.toml: a kind = \"desktop\" app needs a [desktop] table".into(),
                ))
            }
            (AppKind::Desktop, Some(d)) => {
                if let Some(why) = d.problem() {
                    return Err(bad(format!("manifest.toml: {why}")));
                }
            }
            (_, Some(_)) => {
                return Err(bad(
                    "manifest.toml: [desktop] belongs to kind = \"desktop\" apps only".into(),
                ))
            }
            _ => {}
        }
        let mask = Mask::new(&manifest.volatile).map_err(bad)?;
        let seed_json =
            axum::body::Bytes::from(serde_json::to_vec(&seed).map_err(|e| bad(e.to_string()))?);
        Ok(App {
            manifest,
            seed_id: super::session::state_id(&seed_json),
            seed: Arc::new(seed),
            seed_json,
            mask,
        })
    }

    /// The app's name.
    pub fn name(&self) -> &str {
        &self.manifest.name
    }
}

/// All known apps by name.
#[derive(Debug, Clone, Default)]
pub struct AppRegistry {
    apps: BTreeMap<String, Arc<App>>,
}

impl AppRegistry {
    /// The embedded apps only.
    pub fn builtin() -> Result<AppRegistry, EnvError> {
        let mut reg = AppRegistry::default();
        for pack in crate::apps::all() {
            let app = App::parse(
                pack.app.dir(),
                pack.app.manifest_text(),
                pack.app.seed_text(),
            )?;
            reg.apps.insert(app.manifest.name.clone(), Arc::new(app));
        }
        Ok(reg)
    }

    /// The embedded apps, with `<dir>/<app>/{manifest.toml,seed.json}` replacing or adding apps.
    pub fn with_overrides(dir: Option<&Path>) -> Result<AppRegistry, EnvError> {
        let mut reg = AppRegistry::builtin()?;
        let Some(dir) = dir else { return Ok(reg) };
        let entries = std::fs::read_dir(dir).map_err(|e| EnvError::io("read apps dir", dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| EnvError::io("read apps dir", dir, e))?;
            let manifest_path = entry.path().join("manifest.toml");
            if !manifest_path.is_file() {
                continue;
            }
            let manifest = std::fs::read_to_string(&manifest_path)
                .map_err(|e| EnvError::io("read", &manifest_path, e))?;
            let seed_path = entry.path().join("seed.json");
            let seed = match std::fs::read_to_string(&seed_path) {
                Ok(text) => Some(text),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(EnvError::io("read", &seed_path, e)),
            };
            let origin = entry.path().display().to_string();
            let app = App::parse(&origin, &manifest, seed.as_deref())?;
            reg.apps.insert(app.manifest.name.clone(), Arc::new(app));
        }
        Ok(reg)
    }

    /// Looks an app up by name, with a clear error listing the known ones.
    pub fn get(&self, name: &str) -> Result<Arc<App>, EnvError> {
        self.apps
            .get(name)
            .cloned()
            .ok_or_else(|| EnvError::UnknownApp {
                name: name.to_string(),
                available: self.names().join(", "),
            })
    }

    /// Names of all apps, sorted.
    pub fn names(&self) -> Vec<String> {
        self.apps.keys().cloned().collect()
    }

    /// All apps, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<App>> {
        self.apps.values()
    }

    /// The apps served by the state API (not the files domain).
    pub fn served(&self) -> Vec<Arc<App>> {
        self.apps
            .values()
            .filter(|a| a.manifest.kind == AppKind::StateApi)
            .cloned()
            .collect()
    }
}
