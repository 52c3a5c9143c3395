//! Spec-built packs (issue #32): a folder `crates/engine/src/apps/<dir>/` holding `app.spec.toml`, `seed.json`
//! and the files `tuplewright envgen compile` derives from them, registered by one line in
//! [`spec_packs!`](crate::apps). No Rust per app: the UI is the generic renderer
//! ([`SpecUi`]) and the ui-oracle planner the generic [`SpecPlanner`], both built from the spec
//! the first time they are asked for.

use std::sync::OnceLock;

use super::App;
use crate::envgen::planner::SpecPlanner;
use crate::envgen::render::SpecUi;
use crate::envgen::Model;
use crate::rollout::ui_plan::UiPlanner;
use crate::ui::AppUi;

/// The embedded files of one spec pack.
pub struct SpecPack {
    /// `crates/engine/src/apps/<dir>`.
    pub dir: &'static str,
    /// `app.spec.toml`.
    pub spec: &'static str,
    /// `seed.json`.
    pub seed: &'static str,
    /// The derived `manifest.toml`.
    pub manifest: &'static str,
    /// The derived `tasks.json`.
    pub tasks: &'static str,
    /// The derived `SKILL.md`.
    pub skill: &'static str,
    /// The derived `taxonomy.toml`.
    pub taxonomy: &'static str,
    /// Loaded from a folder at start-up ([`super::local`]), not embedded.
    pub local: bool,
    /// The UI and planner, built from the spec once (`None`: the spec does not parse, which
    /// `apps check` names).
    pub built: OnceLock<Option<(&'static SpecUi, &'static SpecPlanner)>>,
}

impl SpecPack {
    /// The checked model of the embedded spec.
    pub fn model(&self) -> Result<Model, crate::envgen::SpecError> {
        let path = std::path::Path::new(self.dir).join("app.spec.toml");
        crate::envgen::parse(&path, self.spec).map(Model::new)
    }

    fn built(&self) -> Option<(&'static SpecUi, &'static SpecPlanner)> {
        *self.built.get_or_init(|| {
            let model = self.model().ok()?;
            let ui = SpecUi::leak(model);
            let planner: &'static SpecPlanner = Box::leak(Box::new(SpecPlanner::new(ui)));
            Some((ui, planner))
        })
    }
}

impl App for SpecPack {
    fn dir(&self) -> &'static str {
        self.dir
    }
    fn manifest_text(&self) -> &'static str {
        self.manifest
    }
    fn seed_text(&self) -> Option<&'static str> {
        Some(self.seed)
    }
    fn tasks_text(&self) -> &'static str {
        self.tasks
    }
    fn skill_text(&self) -> &'static str {
        self.skill
    }
    fn taxonomy_text(&self) -> &'static str {
        self.taxonomy
    }
    fn templates(&self) -> &'static [super::PackTemplate] {
        &[]
    }
    fn ui(&self) -> Option<&'static dyn AppUi> {
        self.built().map(|(ui, _)| ui as &'static dyn AppUi)
    }
    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        self.built().map(|(_, p)| p as &'static dyn UiPlanner)
    }
    fn spec_text(&self) -> Option<&'static str> {
        Some(self.spec)
    }
    fn is_local(&self) -> bool {
        self.local
    }
}

/// Declares the spec packs: one line per folder; each embeds the folder's spec, seed and
/// derived files (run `tuplewright envgen compile crates/engine/src/apps/<dir>` first).
macro_rules! spec_packs {
    ($($dir:ident),* $(,)?) => {
        $(
            #[allow(non_upper_case_globals)]
            static $dir: $crate::apps::spec_pack::SpecPack = $crate::apps::spec_pack::SpecPack {
                dir: concat!("crates/engine/src/apps/", stringify!($dir)),
                spec: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", stringify!($dir), "/app.spec.toml")),
                seed: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", stringify!($dir), "/seed.json")),
                manifest: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", stringify!($dir), "/manifest.toml")),
                tasks: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", stringify!($dir), "/tasks.json")),
                skill: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", stringify!($dir), "/SKILL.md")),
                taxonomy: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/", stringify!($dir), "/taxonomy.toml")),
                local: false,
                built: std::sync::OnceLock::new(),
            };
        )*
        /// Every spec-built pack, in registry order.
        static SPEC_PACKS: &[&dyn App] = &[$(&$dir),*];
    };
}
pub(crate) use spec_packs;
