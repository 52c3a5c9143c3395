//! Cross-app material: not an app, but what tasks spanning several apps need — the
//! task-generation recipes of `cross_*` taxonomy leaves ([`recipe`]) and the ui-oracle plans of
//! the cross templates ([`planner`]). It names the apps it spans; adding an app that takes part
//! in cross-app tasks edits this folder (and `skills/cross/`, `assets/tasks/cross.json`).

pub mod desktop_planner;
pub mod planner;
pub mod preludes;
pub mod recipe;
