//! One entry of the action registry ([`super::action::REGISTRY`]).

use super::action::Action;

/// One registry entry.
#[derive(Debug, Clone, Copy)]
pub struct ActionSpec {
    /// The action.
    pub action: Action,
    /// Stable snake_case name (keymap files and the palette use it).
    pub name: &'static str,
    /// One line for help and the palette.
    pub description: &'static str,
    /// Default keys (see [`super::keymap::parse_keys`] for the syntax).
    pub keys: &'static [&'static str],
}

pub(super) const fn spec(
    action: Action,
    name: &'static str,
    description: &'static str,
    keys: &'static [&'static str],
) -> ActionSpec {
    ActionSpec {
        action,
        name,
        description,
        keys,
    }
}
