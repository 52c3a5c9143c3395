//! The command palette: every registry action, filtered by what is typed (subsequence match on the
//! name and description), so screens can also be switched by name (`tab_stats`, "Stats").

use crate::action::{ActionSpec, REGISTRY};

/// Palette state.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PaletteState {
    /// What was typed.
    pub input: String,
    /// Selected position among the matches.
    pub selected: usize,
}

fn subsequence(needle: &str, hay: &str) -> bool {
    let mut hay = hay.chars().flat_map(char::to_lowercase);
    needle
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_whitespace())
        .all(|n| hay.any(|h| h == n))
}

impl PaletteState {
    /// The actions matching the input, in registry order (name matches first).
    pub fn matches(&self) -> Vec<&'static ActionSpec> {
        let q = self.input.trim();
        let mut by_name: Vec<&ActionSpec> =
            REGISTRY.iter().filter(|s| subsequence(q, s.name)).collect();
        by_name.extend(
            REGISTRY
                .iter()
                .filter(|s| !subsequence(q, s.name) && subsequence(q, s.description)),
        );
        by_name
    }

    /// The action under the cursor.
    pub fn chosen(&self) -> Option<&'static ActionSpec> {
        self.matches().get(self.selected).copied()
    }
}
