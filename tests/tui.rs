//! The terminal workbench: model tests (key sequences → state and engine commands), keymap and theme
//! files, `TestBackend` + insta snapshots of every screen on a store built by the loop with the
//! scripted agents, and a tmux smoke test in a real terminal.

mod bulk;
mod bulk_tmux;
mod curation;
mod curation_snapshots;
mod curation_tmux;
mod export_panel;
mod filter;
mod filter_fixture;
mod filter_parity;
mod filter_readonly;
mod filter_smoke;
mod filter_snapshots;
mod fixture;
mod inspector;
mod keys;
mod live_jobs;
mod live_store;
mod live_tmux;
mod model;
mod open_copy;
mod round_runs;
mod run_delivery;
mod screen;
mod selection;
mod similar;
mod smoke;
mod snapshots;
mod tmux;
mod views_notes;
// stats screen
mod stages;
mod state_diff;
mod stats;
// reward & rollouts screens
mod film_docs;
mod film_fixture;
mod filmstrip;
mod filmstrip_tmux;
mod reward;
mod rollout_fixture;
mod rollouts;
