//! The engine: everything tuplewright does, with no user-interface dependency.
//!
//! Faces (the headless CLI, the TUI) send commands in and read numbered events out; events are
//! persisted in the store before any face sees them.

pub mod scan;
