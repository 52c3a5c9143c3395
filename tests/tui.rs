//! The terminal workbench: model tests (key sequences → state and engine commands), keymap and theme
//! files, `TestBackend` + insta snapshots of every screen on a store built by the loop with the
//! scripted agents, and a tmux smoke test in a real terminal.

#[path = "tui/bulk.rs"]
mod bulk;
#[path = "tui/bulk_tmux.rs"]
mod bulk_tmux;
#[path = "tui/curation.rs"]
mod curation;
#[path = "tui/curation_snapshots.rs"]
mod curation_snapshots;
#[path = "tui/curation_tmux.rs"]
mod curation_tmux;
#[path = "tui/export_panel.rs"]
mod export_panel;
#[path = "tui/filter.rs"]
mod filter;
#[path = "tui/filter_fixture.rs"]
mod filter_fixture;
#[path = "tui/filter_parity.rs"]
mod filter_parity;
#[path = "tui/filter_readonly.rs"]
mod filter_readonly;
#[path = "tui/filter_smoke.rs"]
mod filter_smoke;
#[path = "tui/filter_snapshots.rs"]
mod filter_snapshots;
#[path = "tui/fixture.rs"]
mod fixture;
#[path = "tui/inspector.rs"]
mod inspector;
#[path = "tui/keys.rs"]
mod keys;
#[path = "tui/live_jobs.rs"]
mod live_jobs;
#[path = "tui/live_store.rs"]
mod live_store;
#[path = "tui/live_tmux.rs"]
mod live_tmux;
#[path = "tui/model.rs"]
mod model;
#[path = "tui/open_copy.rs"]
mod open_copy;
#[path = "tui/round_runs.rs"]
mod round_runs;
#[path = "tui/run_delivery.rs"]
mod run_delivery;
#[path = "tui/screen.rs"]
mod screen;
#[path = "tui/selection.rs"]
mod selection;
#[path = "tui/similar.rs"]
mod similar;
#[path = "tui/smoke.rs"]
mod smoke;
#[path = "tui/snapshots.rs"]
mod snapshots;
#[path = "tui/tmux.rs"]
mod tmux;
#[path = "tui/views_notes.rs"]
mod views_notes;
// stats screen
#[path = "tui/stages.rs"]
mod stages;
#[path = "tui/state_diff.rs"]
mod state_diff;
#[path = "tui/stats.rs"]
mod stats;
// reward & rollouts screens
#[path = "tui/film_docs.rs"]
mod film_docs;
#[path = "tui/film_fixture.rs"]
mod film_fixture;
#[path = "tui/filmstrip.rs"]
mod filmstrip;
#[path = "tui/filmstrip_tmux.rs"]
mod filmstrip_tmux;
#[path = "tui/reward.rs"]
mod reward;
#[path = "tui/rollout_fixture.rs"]
mod rollout_fixture;
#[path = "tui/rollouts.rs"]
mod rollouts;
