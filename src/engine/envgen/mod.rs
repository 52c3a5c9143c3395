//! `envgen`: mock web apps from a declarative spec (issue #32). A spec (`app.spec.toml` in a pack
//! folder, language in `docs/envgen.md`) declares entities with typed fields, views, actions with
//! their state effects, navigation and a theme; [`parse`] reads and checks it, [`seed`] checks
//! its seed data against it.

pub mod error;
pub mod parse;
pub mod seed;
pub mod shape;
pub mod spec;

pub use error::{Problem, SpecError};
pub use parse::{load, parse};
pub use spec::Spec;
