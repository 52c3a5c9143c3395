//! Syntax highlighting (syntect) of Python, JSON and Markdown into ratatui lines.
//!
//! - The syntax and colour-scheme sets are loaded once, lazily, on first use — never per frame.
//! - Colours follow the workbench theme: a dark scheme for the `dark` theme, a light one for
//!   themes whose name contains `light`. Under `NO_COLOR` ([`Theme::no_color`]) no colour at all
//!   is emitted; the text comes back plain.
//! - Results are cached per (language, content hash, scheme), so a frame that shows an already
//!   highlighted text only clones the cached lines.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, ThemeSet};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

use super::theme::Theme;

/// A language the workbench highlights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Python (the three scripts).
    Python,
    /// JSON (states, components).
    Json,
    /// Markdown (REVIEW.md, reasoning).
    Markdown,
}

impl Lang {
    fn extension(self) -> &'static str {
        match self {
            Lang::Python => "py",
            Lang::Json => "json",
            Lang::Markdown => "md",
        }
    }
}

/// Highlighted lines, shared between frames.
pub type Lines = Arc<Vec<Line<'static>>>;

/// Entries kept before the cache is emptied (each is one whole text).
const CACHE_CAP: usize = 512;

type Key = (Lang, u64, &'static str);

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn schemes() -> &'static ThemeSet {
    static SET: OnceLock<ThemeSet> = OnceLock::new();
    SET.get_or_init(ThemeSet::load_defaults)
}

fn cache() -> &'static Mutex<HashMap<Key, Lines>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Lines>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The syntect colour scheme used for a workbench theme (`None` under NO_COLOR).
pub fn scheme_for(theme: &Theme) -> Option<&'static str> {
    if theme.no_color {
        None
    } else if theme.name.to_ascii_lowercase().contains("light") {
        Some("InspiredGitHub")
    } else {
        Some("base16-ocean.dark")
    }
}

/// Loads the syntax and scheme sets now and compiles each language's patterns (syntect compiles
/// its regexes on first use) — call it off the UI thread before the first highlighted frame.
pub fn warm_up() {
    let _ = syntaxes();
    let _ = schemes();
    for (lang, sample) in [
        (
            Lang::Json,
            "{\"a\": [1, \"x\", true, null], \"b\": {\"c\": 2.5}}\n",
        ),
        (
            Lang::Python,
            "import json\ndef f(x):\n    return {'a': x, \"b\": 1}  # c\n",
        ),
        (Lang::Markdown, "# T\n\n- *a* `b` **c**\n"),
    ] {
        let _ = colour(lang, sample, "base16-ocean.dark");
    }
}

/// `text` as highlighted lines (one per line of `text`, newline removed), cached.
pub fn highlight(lang: Lang, text: &str, theme: &Theme) -> Lines {
    let Some(scheme) = scheme_for(theme) else {
        return Arc::new(plain(text));
    };
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    let key = (lang, h.finish(), scheme);
    if let Some(hit) = cache().lock().ok().and_then(|c| c.get(&key).cloned()) {
        return hit;
    }
    let lines = Arc::new(colour(lang, text, scheme).unwrap_or_else(|| plain(text)));
    if let Ok(mut c) = cache().lock() {
        if c.len() >= CACHE_CAP {
            c.clear();
        }
        c.insert(key, lines.clone());
    }
    lines
}

/// One line of `text` (no newline inside) highlighted on its own; for short values such as a
/// JSON leaf. Cached like [`highlight`].
pub fn highlight_line(lang: Lang, text: &str, theme: &Theme) -> Line<'static> {
    highlight(lang, text, theme)
        .first()
        .cloned()
        .unwrap_or_default()
}

fn plain(text: &str) -> Vec<Line<'static>> {
    text.lines().map(|l| Line::raw(l.to_string())).collect()
}

fn colour(lang: Lang, text: &str, scheme: &str) -> Option<Vec<Line<'static>>> {
    let ss = syntaxes();
    let syntax = ss.find_syntax_by_extension(lang.extension())?;
    let theme = schemes().themes.get(scheme)?;
    let mut h = HighlightLines::new(syntax, theme);
    let mut out = Vec::new();
    for line in LinesWithEndings::from(text) {
        let ranges = h.highlight_line(line, ss).ok()?;
        let spans: Vec<Span<'static>> = ranges
            .into_iter()
            .filter_map(|(st, piece)| {
                let piece = piece.trim_end_matches(['\n', '\r']);
                (!piece.is_empty()).then(|| Span::styled(piece.to_string(), style(st)))
            })
            .collect();
        out.push(Line::from(spans));
    }
    Some(out)
}

fn style(s: syntect::highlighting::Style) -> Style {
    let c = s.foreground;
    let mut out = Style::default().fg(Color::Rgb(c.r, c.g, c.b));
    if s.font_style.contains(FontStyle::BOLD) {
        out = out.add_modifier(Modifier::BOLD);
    }
    if s.font_style.contains(FontStyle::ITALIC) {
        out = out.add_modifier(Modifier::ITALIC);
    }
    if s.font_style.contains(FontStyle::UNDERLINE) {
        out = out.add_modifier(Modifier::UNDERLINED);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(l: &Line<'_>) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn python_is_coloured_and_keeps_its_text() {
        let theme = Theme::builtin("dark", false).unwrap();
        let src = "import json\ndef f(x):\n    return 'a' + str(x)  # note\n";
        let lines = highlight(Lang::Python, src, &theme);
        assert_eq!(lines.len(), 3);
        let back: Vec<String> = lines.iter().map(text_of).collect();
        assert_eq!(
            back,
            [
                "import json",
                "def f(x):",
                "    return 'a' + str(x)  # note"
            ]
        );
        let colours: std::collections::HashSet<_> = lines
            .iter()
            .flat_map(|l| l.spans.iter().filter_map(|s| s.style.fg))
            .collect();
        assert!(
            colours.len() >= 3,
            "keywords, strings, comments differ: {colours:?}"
        );
        // Cached: the same Arc comes back.
        assert!(Arc::ptr_eq(&lines, &highlight(Lang::Python, src, &theme)));
    }

    #[test]
    fn no_color_gives_plain_text_and_light_themes_a_light_scheme() {
        let plain_theme = Theme::builtin("dark", true).unwrap();
        let lines = highlight(Lang::Json, "{\"a\": [1, true]}", &plain_theme);
        assert!(lines
            .iter()
            .flat_map(|l| l.spans.iter())
            .all(|s| s.style == Style::default()));
        let light = Theme::builtin("light", false).unwrap();
        assert_eq!(scheme_for(&light), Some("InspiredGitHub"));
        let md = highlight(Lang::Markdown, "# Title\n\n*em*", &light);
        assert_eq!(text_of(&md[0]), "# Title");
        assert!(md[0].spans.iter().any(|s| s.style.fg.is_some()));
    }
}
