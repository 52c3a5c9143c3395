//! The terminal workbench (ratatui + crossterm): a face over the engine, never part of it.
//!
//! - [`model`]: pure state and `update(Msg) -> Vec<EngineCommand>`;
//! - [`action`]: the one registry behind the keymap, the `?` help and the palette;
//! - [`keymap`], [`theme`]: user-overridable keys and semantic colour roles;
//! - [`data`], [`matcher`], [`worker`]: store reads and list views, on worker threads;
//! - [`jobs`]: runs, rollouts, pause/resume/cancel driven from the workbench;
//! - [`view`]: drawing, one file per screen or overlay;
//! - [`terminal`], [`app`]: terminal setup/restore and the throttled event loop.

pub mod action;
pub mod action_registry;
pub mod action_spec;
pub mod app;
pub mod bulk_data;
pub mod columns;
pub mod data;
pub mod diff;
pub mod export_data;
pub mod external;
pub use tuplewright_records::curate::query::fields;
pub mod filter_data;
pub use tuplewright_records::curate::query::fuzzy;
pub mod highlight;
pub mod jobs;
pub mod jobs_stages;
pub mod jobs_store;
pub mod keymap;
pub mod live_data;
pub use tuplewright_records::curate::query::matcher;
pub mod model;
pub mod mouse;
pub mod readonly;
pub mod retire;
pub mod screen_tab;
pub mod state_data;
pub mod state_rows;
pub mod state_text;
pub mod state_tree;
pub mod terminal;
pub mod theme;
pub mod view;
pub mod worker;
// reward & rollouts screens
pub mod filmstrip_data;
pub mod graphics;
pub mod marker;
pub mod note_data;
pub mod reward_data;
pub mod rollouts_data;
// similar tuples
pub mod similar_data;

pub use app::{run, TuiOptions};
