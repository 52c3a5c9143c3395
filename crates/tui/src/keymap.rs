//! Keys and the keymap: key-string parsing (`j`, `G`, `ctrl-p`, `g g`), the default map built from
//! the action registry, and a TOML file that overrides only the actions it names:
//!
//! ```toml
//! [keys]
//! down = ["j", "down", "ctrl-n"]
//! quit = ["Q"]
//! ```

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::action::{by_name, Action, REGISTRY};

/// A key code, independent of the terminal backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// A printable character (case carries shift).
    Char(char),
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Backspace.
    Backspace,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Home.
    Home,
    /// End.
    End,
    /// Function key.
    F(u8),
}

/// One key press with the modifiers that matter for bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    /// The key.
    pub code: Code,
    /// Control held.
    pub ctrl: bool,
    /// Alt held.
    pub alt: bool,
}

impl Key {
    /// A plain key.
    pub fn plain(code: Code) -> Self {
        Key {
            code,
            ctrl: false,
            alt: false,
        }
    }
    /// A plain character.
    pub fn ch(c: char) -> Self {
        Key::plain(Code::Char(c))
    }
    /// Control + character.
    pub fn ctrl(c: char) -> Self {
        Key {
            code: Code::Char(c),
            ctrl: true,
            alt: false,
        }
    }
}

const NAMED: &[(&str, Code)] = &[
    ("enter", Code::Enter),
    ("esc", Code::Esc),
    ("tab", Code::Tab),
    ("backtab", Code::BackTab),
    ("shift-tab", Code::BackTab),
    ("backspace", Code::Backspace),
    ("up", Code::Up),
    ("down", Code::Down),
    ("left", Code::Left),
    ("right", Code::Right),
    ("pageup", Code::PageUp),
    ("pagedown", Code::PageDown),
    ("home", Code::Home),
    ("end", Code::End),
    ("space", Code::Char(' ')),
];

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("ctrl-")?;
        }
        if self.alt {
            f.write_str("alt-")?;
        }
        match self.code {
            Code::Char(' ') => f.write_str("space"),
            Code::Char(c) => write!(f, "{c}"),
            Code::F(n) => write!(f, "f{n}"),
            code => {
                let name = NAMED
                    .iter()
                    .find(|(_, c)| *c == code)
                    .map_or("?", |(n, _)| n);
                f.write_str(name)
            }
        }
    }
}

/// Parses one key (`j`, `G`, `ctrl-p`, `alt-x`, `enter`, `f5`).
pub fn parse_key(s: &str) -> Result<Key, String> {
    let mut key = Key::plain(Code::Esc);
    let mut rest = s;
    loop {
        if let Some(r) = rest.strip_prefix("ctrl-").filter(|r| !r.is_empty()) {
            key.ctrl = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix("alt-").filter(|r| !r.is_empty()) {
            key.alt = true;
            rest = r;
        } else {
            break;
        }
    }
    let mut chars = rest.chars();
    key.code = match (chars.next(), chars.next()) {
        (Some(c), None) => Code::Char(c),
        _ => {
            if let Some((_, code)) = NAMED.iter().find(|(n, _)| *n == rest) {
                *code
            } else if let Some(n) = rest.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
                Code::F(n)
            } else {
                return Err(format!(
                    "unknown key `{s}` (expected a character, ctrl-X, alt-X, f1..f12 or one of: {})",
                    NAMED.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    };
    Ok(key)
}

/// Parses a key sequence: keys separated by spaces (`g g`).
pub fn parse_keys(s: &str) -> Result<Vec<Key>, String> {
    let seq: Vec<Key> = s
        .split(' ')
        .filter(|p| !p.is_empty())
        .map(parse_key)
        .collect::<Result<_, _>>()?;
    if seq.is_empty() {
        return Err("empty key".into());
    }
    Ok(seq)
}

/// An invalid keymap file, with the exact key path that is wrong.
#[derive(Debug, thiserror::Error)]
#[error("keymap {}: {at}: {message}", path.display())]
pub struct KeymapError {
    /// The file.
    pub path: PathBuf,
    /// Where in the file (`keys.down[1]`, or `line 3` for syntax errors).
    pub at: String,
    /// What is wrong.
    pub message: String,
}

/// What a key press resolved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// A complete binding.
    Action(Action),
    /// The start of a longer binding (`g` of `g g`).
    Pending,
    /// Nothing.
    Unbound,
}

/// Key sequences to actions.
#[derive(Debug, Clone)]
pub struct Keymap {
    bindings: HashMap<Vec<Key>, Action>,
    keys_of: HashMap<Action, Vec<String>>,
}

impl Default for Keymap {
    fn default() -> Self {
        Self::with_overrides(&HashMap::new())
    }
}

impl Keymap {
    fn with_overrides(over: &HashMap<Action, Vec<(String, Vec<Key>)>>) -> Self {
        let mut bindings = HashMap::new();
        let mut keys_of: HashMap<Action, Vec<String>> = HashMap::new();
        for spec in REGISTRY.iter().filter(|s| !over.contains_key(&s.action)) {
            for k in spec.keys {
                if let Ok(seq) = parse_keys(k) {
                    bindings.insert(seq, spec.action);
                    keys_of
                        .entry(spec.action)
                        .or_default()
                        .push((*k).to_string());
                }
            }
        }
        // Overrides win over a default binding of the same key.
        for (action, keys) in over {
            for (text, seq) in keys {
                if let Some(old) = bindings.insert(seq.clone(), *action) {
                    if let Some(list) = keys_of.get_mut(&old) {
                        list.retain(|t| t != text);
                    }
                }
                keys_of.entry(*action).or_default().push(text.clone());
            }
        }
        Keymap { bindings, keys_of }
    }

    /// Defaults overridden by the `[keys]` table of a TOML text (`path` names it in errors).
    pub fn from_toml(text: &str, path: &Path) -> Result<Self, KeymapError> {
        let err = |at: String, message: String| KeymapError {
            path: path.to_path_buf(),
            at,
            message,
        };
        let doc: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let at = e.span().map_or("file".to_string(), |s| {
                format!(
                    "line {}",
                    text[..s.start.min(text.len())].lines().count().max(1)
                )
            });
            err(at, e.message().to_string())
        })?;
        let mut over = HashMap::new();
        let mut placed = Vec::new();
        for (k, v) in &doc {
            if k != "keys" {
                return Err(err(k.clone(), "unknown table (only [keys] is read)".into()));
            }
            let table = v
                .as_table()
                .ok_or_else(|| err("keys".into(), "must be a table".into()))?;
            for (name, keys) in table {
                let at = format!("keys.{name}");
                let spec = by_name(name).ok_or_else(|| {
                    err(
                        at.clone(),
                        format!("no action named `{name}` (press ? for the names)"),
                    )
                })?;
                let list = keys.as_array().ok_or_else(|| {
                    err(
                        at.clone(),
                        "must be a list of key strings, e.g. [\"j\", \"down\"]".into(),
                    )
                })?;
                let mut parsed = Vec::new();
                for (i, k) in list.iter().enumerate() {
                    let s = k
                        .as_str()
                        .ok_or_else(|| err(format!("{at}[{i}]"), "must be a string".into()))?;
                    let seq = parse_keys(s).map_err(|m| err(format!("{at}[{i}]"), m))?;
                    parsed.push((s.to_string(), seq));
                    placed.push((format!("{at}[{i}]"), spec.action, s.to_string()));
                }
                over.insert(spec.action, parsed);
            }
        }
        let map = Self::with_overrides(&over);
        for (at, action, text) in &placed {
            if let Some(message) = map.clash(*action, text, &over) {
                return Err(err(at.clone(), message));
            }
        }
        Ok(map)
    }

    /// Why binding `text` to `action` takes a key from another action (a key bound elsewhere,
    /// or a key that is the start of another binding, or starts with one), if it does.
    fn clash(
        &self,
        action: Action,
        text: &str,
        over: &HashMap<Action, Vec<(String, Vec<Key>)>>,
    ) -> Option<String> {
        let seq = parse_keys(text).ok()?;
        let name = |a: Action| crate::action::spec_of(a).map_or("?", |s| s.name);
        // Every binding of the other actions: defaults of the ones not overridden, and overrides.
        let others = REGISTRY
            .iter()
            .filter(|s| s.action != action && !over.contains_key(&s.action))
            .flat_map(|s| {
                s.keys
                    .iter()
                    .filter_map(move |k| Some((s.action, (*k).to_string(), parse_keys(k).ok()?)))
            })
            .chain(
                over.iter()
                    .filter(|(a, _)| **a != action)
                    .flat_map(|(a, keys)| {
                        keys.iter().map(move |(t, s)| (*a, t.clone(), s.clone()))
                    }),
            );
        for (other, other_text, other_seq) in others {
            let by = if over.contains_key(&other) {
                format!("`{}` in this file", name(other))
            } else {
                format!("`{}` by default", name(other))
            };
            if other_seq == seq {
                return Some(format!(
                    "`{text}` is already bound to {by}; rebind that action too or pick another key"
                ));
            }
            if other_seq.starts_with(&seq) || seq.starts_with(&other_seq) {
                return Some(format!(
                    "`{text}` overlaps `{other_text}` of {by} (one is the start of the other, so one could never be pressed)"
                ));
            }
        }
        None
    }

    /// Reads a keymap file; a missing file means the defaults.
    pub fn load(path: &Path) -> Result<Self, KeymapError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::from_toml(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(KeymapError {
                path: path.to_path_buf(),
                at: "file".into(),
                message: e.to_string(),
            }),
        }
    }

    /// Resolves a (possibly partial) key sequence.
    pub fn resolve(&self, seq: &[Key]) -> Resolved {
        if let Some(a) = self.bindings.get(seq) {
            return Resolved::Action(*a);
        }
        if self
            .bindings
            .keys()
            .any(|k| k.len() > seq.len() && k.starts_with(seq))
        {
            return Resolved::Pending;
        }
        Resolved::Unbound
    }

    /// The keys bound to `action`, as written (for help and the palette).
    pub fn keys_of(&self, action: Action) -> &[String] {
        self.keys_of.get(&action).map_or(&[], Vec::as_slice)
    }
}
