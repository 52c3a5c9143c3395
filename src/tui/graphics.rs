//! The terminal's graphics protocol for screenshots (ratatui-image's [`Picker`]), queried once at
//! start-up in the real terminal. The query writes escape sequences and reads the answers from
//! stdin on a thread that only stops when the terminal answers; where the answer may never come it
//! is skipped and half-blocks are used:
//! - inside tmux or screen (`TMUX` set, or `TERM` starting with `screen`/`tmux`): tmux drops the
//!   wrapped queries unless `allow-passthrough` is on, and the reader would then swallow keys;
//! - `TW_TUI_GRAPHICS=halfblocks` (or `off`) asks for half-blocks explicitly.

use ratatui_image::picker::Picker;

/// Whether the environment allows the terminal query.
pub fn query_allowed(env: impl Fn(&str) -> Option<String>) -> bool {
    let forced_off =
        env("TW_TUI_GRAPHICS").is_some_and(|v| matches!(v.as_str(), "halfblocks" | "off" | "0"));
    let multiplexed = env("TMUX").is_some_and(|v| !v.is_empty())
        || env("TERM").is_some_and(|t| t.starts_with("screen") || t.starts_with("tmux"));
    !forced_off && !multiplexed
}

/// The picker for this terminal, or `None` (half-blocks) when the query is skipped or fails.
/// Call after entering the alternate screen and before reading terminal events.
pub fn terminal_picker() -> Option<Picker> {
    if !query_allowed(|k| std::env::var(k).ok()) {
        return None;
    }
    Picker::from_query_stdio().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tmux_screen_and_the_override_skip_the_query() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(query_allowed(env(&[("TERM", "xterm-kitty")])));
        assert!(!query_allowed(env(&[
            ("TERM", "xterm"),
            ("TMUX", "/tmp/t,1,0")
        ])));
        assert!(!query_allowed(env(&[("TERM", "screen-256color")])));
        assert!(!query_allowed(env(&[("TERM", "tmux-256color")])));
        assert!(!query_allowed(env(&[("TW_TUI_GRAPHICS", "halfblocks")])));
    }
}
