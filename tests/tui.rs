//! The terminal workbench: model tests (key sequences → state and engine commands), keymap and theme
//! files, `TestBackend` + insta snapshots of every screen on a store built by the loop with the
//! scripted agents, and a tmux smoke test in a real terminal.

#[path = "tui/fixture.rs"]
mod fixture;
#[path = "tui/keys.rs"]
mod keys;
#[path = "tui/model.rs"]
mod model;
#[path = "tui/smoke.rs"]
mod smoke;
#[path = "tui/snapshots.rs"]
mod snapshots;
// reward & rollouts screens
#[path = "tui/reward.rs"]
mod reward;
#[path = "tui/rollout_fixture.rs"]
mod rollout_fixture;
#[path = "tui/rollouts.rs"]
mod rollouts;
