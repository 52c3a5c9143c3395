//! Themes: semantic roles (selection, keep, reject, ...) read from `themes/<name>.toml`, each with a
//! colour and a modifier. Under `NO_COLOR` the colours are dropped and the modifiers kept, and every
//! state is drawn with a glyph as well ([`status_glyph`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

/// The built-in themes (the files in `themes/`), used when no theme file is given.
const BUILTIN: &[(&str, &str)] = &[
    ("dark", include_str!("../../../themes/dark.toml")),
    ("light", include_str!("../../../themes/light.toml")),
];

/// A semantic role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Selected row.
    Selection,
    /// Titles and headers.
    Title,
    /// Secondary text.
    Muted,
    /// Kept / passing.
    Keep,
    /// Modified / in progress.
    Modified,
    /// Rejected / failing.
    Reject,
    /// Awaiting a decision.
    Undecided,
    /// Added lines.
    DiffAdd,
    /// Removed lines.
    DiffDel,
    /// Errors and warnings.
    Alert,
}

const ROLE_NAMES: &[(&str, Role)] = &[
    ("selection", Role::Selection),
    ("title", Role::Title),
    ("muted", Role::Muted),
    ("keep", Role::Keep),
    ("modified", Role::Modified),
    ("reject", Role::Reject),
    ("undecided", Role::Undecided),
    ("diff_add", Role::DiffAdd),
    ("diff_del", Role::DiffDel),
    ("alert", Role::Alert),
];

/// An invalid theme.
#[derive(Debug, thiserror::Error)]
#[error("theme {}: {at}: {message}", path.display())]
pub struct ThemeError {
    /// The file (or `builtin:<name>`).
    pub path: PathBuf,
    /// Key path of the problem.
    pub at: String,
    /// What is wrong.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoleFile {
    fg: Option<String>,
    bg: Option<String>,
    #[serde(default)]
    modifiers: Vec<String>,
}

#[derive(Deserialize)]
struct ThemeFile {
    name: String,
    roles: HashMap<String, RoleFile>,
}

/// A loaded theme.
#[derive(Debug, Clone)]
pub struct Theme {
    /// Theme name.
    pub name: String,
    styles: HashMap<Role, Style>,
    /// True when colours are suppressed (`NO_COLOR`).
    pub no_color: bool,
}

fn modifier(name: &str) -> Option<Modifier> {
    Some(match name {
        "bold" => Modifier::BOLD,
        "dim" => Modifier::DIM,
        "italic" => Modifier::ITALIC,
        "underlined" => Modifier::UNDERLINED,
        "reversed" => Modifier::REVERSED,
        "crossed_out" => Modifier::CROSSED_OUT,
        "slow_blink" => Modifier::SLOW_BLINK,
        _ => return None,
    })
}

impl Theme {
    /// Parses a theme file's text. Every role must be present.
    pub fn parse(text: &str, path: &Path, no_color: bool) -> Result<Self, ThemeError> {
        let err = |at: &str, message: String| ThemeError {
            path: path.to_path_buf(),
            at: at.to_string(),
            message,
        };
        let file: ThemeFile =
            toml::from_str(text).map_err(|e| err("file", e.message().to_string()))?;
        let mut styles = HashMap::new();
        for (name, role) in ROLE_NAMES {
            let at = format!("roles.{name}");
            let spec = file
                .roles
                .get(*name)
                .ok_or_else(|| err(&at, "missing role".into()))?;
            let mut style = Style::default();
            for (i, m) in spec.modifiers.iter().enumerate() {
                let m = modifier(m).ok_or_else(|| {
                    err(
                        &format!("{at}.modifiers[{i}]"),
                        format!("unknown modifier `{m}`"),
                    )
                })?;
                style = style.add_modifier(m);
            }
            let colour = |c: &Option<String>, which: &str| -> Result<Option<Color>, ThemeError> {
                c.as_deref()
                    .map(|c| {
                        Color::from_str(c).map_err(|_| {
                            err(&format!("{at}.{which}"), format!("unknown colour `{c}`"))
                        })
                    })
                    .transpose()
            };
            if !no_color {
                if let Some(c) = colour(&spec.fg, "fg")? {
                    style = style.fg(c);
                }
                if let Some(c) = colour(&spec.bg, "bg")? {
                    style = style.bg(c);
                }
            }
            styles.insert(*role, style);
        }
        if let Some(unknown) = file
            .roles
            .keys()
            .find(|k| !ROLE_NAMES.iter().any(|(n, _)| n == k))
        {
            return Err(err(&format!("roles.{unknown}"), "unknown role".into()));
        }
        Ok(Theme {
            name: file.name,
            styles,
            no_color,
        })
    }

    /// A built-in theme by name (`dark`, `light`).
    pub fn builtin(name: &str, no_color: bool) -> Result<Self, ThemeError> {
        let (_, text) = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| ThemeError {
                path: PathBuf::from(format!("builtin:{name}")),
                at: "name".into(),
                message: "no such built-in theme (dark, light)".into(),
            })?;
        Self::parse(text, Path::new(&format!("themes/{name}.toml")), no_color)
    }

    /// `name` is a built-in theme or a path to a theme file.
    pub fn load(name: &str, no_color: bool) -> Result<Self, ThemeError> {
        if BUILTIN.iter().any(|(n, _)| *n == name) {
            return Self::builtin(name, no_color);
        }
        let path = Path::new(name);
        let text = std::fs::read_to_string(path).map_err(|e| ThemeError {
            path: path.to_path_buf(),
            at: "--theme".into(),
            message: format!(
                "expected `dark`, `light` or a theme TOML FILE (see themes/); as a file: {e}"
            ),
        })?;
        Self::parse(&text, path, no_color)
    }

    /// The style of a role.
    pub fn style(&self, role: Role) -> Style {
        self.styles.get(&role).copied().unwrap_or_default()
    }
}

/// True when the `NO_COLOR` convention asks for no colour (set and non-empty).
pub fn no_color_from_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Glyph and role of a tuple status: state is never carried by colour alone.
pub fn status_glyph(status: &str) -> (&'static str, Role) {
    match status {
        "final" => ("✔", Role::Keep),
        "voted" | "loop_accepted" => ("◆", Role::Keep),
        "in_loop" => ("▶", Role::Modified),
        "needs_human" => ("?", Role::Undecided),
        // Not verified by this harness: never the glyph of a verified tuple.
        "imported" => ("◇", Role::Undecided),
        "verify_failed" => ("✘", Role::Reject),
        "loop_failed" | "vote_rejected" | "rollout_rejected" | "dropped" => ("✘", Role::Reject),
        _ => ("·", Role::Muted),
    }
}

/// Glyph and role of a pass/fail outcome (`None` = not known yet).
pub fn check_glyph(pass: Option<bool>) -> (&'static str, Role) {
    match pass {
        Some(true) => ("✔", Role::Keep),
        Some(false) => ("✘", Role::Reject),
        None => ("·", Role::Muted),
    }
}
