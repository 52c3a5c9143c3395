//! `envgen`: mock web apps from a declarative spec (issue #32). A spec (`app.spec.toml` in a pack
//! folder, language in `docs/envgen.md`) declares entities with typed fields, views, actions with
//! their state effects, navigation and a theme; [`parse`] reads and checks it, [`seed`] checks
//! its seed data against it, [`render::SpecUi`] serves it, [`effects`] performs its actions.

pub mod agents;
pub mod check;
pub mod compile;
pub mod derive;
pub mod diff;
pub mod effects;
pub mod error;
pub mod layout;
pub mod model;
pub mod parse;
mod parse_views;
pub mod planner;
pub mod render;
pub mod seed;
pub mod shape;
pub mod spec;
pub mod tasks;

pub use error::{Problem, SpecError};
pub use model::Model;
pub use parse::{load, parse};
pub use spec::Spec;
