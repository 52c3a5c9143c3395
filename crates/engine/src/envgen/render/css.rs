//! The generic stylesheet, with the spec's theme tokens as CSS custom properties.

use super::super::spec::Theme;

const BASE: &str = include_str!("spec.css");

/// The stylesheet of an app with theme `t`.
pub fn stylesheet(t: &Theme) -> String {
    let var = |name: &str, v: &Option<String>, d: &str| {
        format!("  --{name}: {};\n", v.as_deref().unwrap_or(d))
    };
    let mut root = String::from(":root {\n");
    root += &var("accent", &t.accent, "#2f6fde");
    root += &var("bg", &t.background, "#ffffff");
    root += &var("surface", &t.surface, "#f6f7f9");
    root += &var("text", &t.text, "#1d2330");
    root += &var("muted", &t.muted, "#5b6475");
    root += &var("sidebar", &t.sidebar, "#f0f2f5");
    root += &var("sidebar-text", &t.sidebar_text, "var(--text)");
    root += &var(
        "font",
        &t.font,
        "\"DejaVu Sans\", \"Liberation Sans\", sans-serif",
    );
    root += &var("radius", &t.radius, "4px");
    let pad = if t.density.as_deref() == Some("compact") {
        "4px"
    } else {
        "8px"
    };
    root += &format!("  --pad: {pad};\n}}\n");
    root + BASE
}
