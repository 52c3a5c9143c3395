//! Key names as models write them (xdotool style): X keysym names (`Return`, `BackSpace`,
//! `Page_Down`, `a`, `F5`), common aliases (`ctrl`, `alt`, `enter`, `esc`, `pagedown`, …, any
//! case) and chords joined with `+` (`ctrl+shift+t`); several chords separated by spaces are
//! pressed one after the other (`ctrl+a BackSpace`). Names resolve through the X11 keysym table
//! of the `x11-keysymdef` crate.

/// One chord: modifiers first, the key last; pressed in order and released in reverse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chord {
    /// Keysyms in press order.
    pub keysyms: Vec<u32>,
}

/// Lower-case aliases (xdotool's and the ones models use) → canonical keysym names.
const ALIASES: &[(&str, &str)] = &[
    ("ctrl", "Control_L"),
    ("control", "Control_L"),
    ("lctrl", "Control_L"),
    ("rctrl", "Control_R"),
    ("alt", "Alt_L"),
    ("option", "Alt_L"),
    ("shift", "Shift_L"),
    ("lshift", "Shift_L"),
    ("rshift", "Shift_R"),
    ("super", "Super_L"),
    ("win", "Super_L"),
    ("cmd", "Super_L"),
    ("command", "Super_L"),
    ("meta", "Meta_L"),
    ("enter", "Return"),
    ("return", "Return"),
    ("esc", "Escape"),
    ("escape", "Escape"),
    ("del", "Delete"),
    ("delete", "Delete"),
    ("backspace", "BackSpace"),
    ("tab", "Tab"),
    ("space", "space"),
    ("spacebar", "space"),
    ("up", "Up"),
    ("down", "Down"),
    ("left", "Left"),
    ("right", "Right"),
    ("arrowup", "Up"),
    ("arrowdown", "Down"),
    ("arrowleft", "Left"),
    ("arrowright", "Right"),
    ("home", "Home"),
    ("end", "End"),
    ("insert", "Insert"),
    ("ins", "Insert"),
    // keysymdef.h's Page_Up/Page_Down are aliases of Prior/Next (the table knows only those).
    ("pageup", "Prior"),
    ("page_up", "Prior"),
    ("pgup", "Prior"),
    ("prior", "Prior"),
    ("pagedown", "Next"),
    ("page_down", "Next"),
    ("pgdn", "Next"),
    ("next", "Next"),
    ("capslock", "Caps_Lock"),
    ("caps_lock", "Caps_Lock"),
    ("menu", "Menu"),
    ("print", "Print"),
    ("printscreen", "Print"),
    ("plus", "plus"),
    ("minus", "minus"),
];

/// Resolves one key name to its keysym.
pub fn keysym_for_name(name: &str) -> Option<u32> {
    if name.is_empty() {
        return None;
    }
    if let Some(rec) = x11_keysymdef::lookup_by_name(name) {
        return Some(rec.keysym);
    }
    let lower = name.to_ascii_lowercase();
    if let Some((_, canon)) = ALIASES.iter().find(|(a, _)| *a == lower) {
        return x11_keysymdef::lookup_by_name(canon).map(|r| r.keysym);
    }
    // F1…F35 in any case.
    if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u32>().ok()) {
        if (1..=35).contains(&n) {
            return Some(0xffbe + n - 1);
        }
    }
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(keysym_for_char(c)),
        _ => None,
    }
}

/// The keysym that types character `c` (Latin-1 keysyms equal the code point; other characters
/// use their named keysym if there is one, else `0x01000000 + code point`).
pub fn keysym_for_char(c: char) -> u32 {
    match c {
        '\n' | '\r' => 0xff0d,
        '\t' => 0xff09,
        '\u{8}' => 0xff08,
        _ => {
            let cp = c as u32;
            if (0x20..=0x7e).contains(&cp) || (0xa0..=0xff).contains(&cp) {
                cp
            } else if let Some(rec) = x11_keysymdef::lookup_by_codepoint(c) {
                rec.keysym
            } else {
                0x0100_0000 + cp
            }
        }
    }
}

/// Parses one chord such as `ctrl+shift+t` or `ctrl++` (the key `+`).
fn parse_one(spec: &str, whole: &str) -> Result<Chord, String> {
    let mut parts: Vec<&str> = spec.split('+').collect();
    // `ctrl++` splits into ["ctrl", "", ""]: the key is a literal plus.
    if spec.ends_with("++") {
        parts.truncate(parts.len() - 2);
        parts.push("+");
    } else if spec == "+" {
        parts = vec!["+"];
    }
    let mut keysyms = Vec::with_capacity(parts.len());
    for p in parts {
        if p.is_empty() {
            return Err(format!("empty key name in \"{whole}\""));
        }
        match keysym_for_name(p) {
            Some(k) => keysyms.push(k),
            None => return Err(format!("unknown key name \"{p}\" in \"{whole}\"")),
        }
    }
    Ok(Chord { keysyms })
}

/// Parses a key argument: one or more chords separated by spaces.
pub fn parse_chord(spec: &str) -> Result<Vec<Chord>, String> {
    let chords: Vec<&str> = spec.split_whitespace().collect();
    if chords.is_empty() {
        return Err("no key given".to_string());
    }
    chords.into_iter().map(|c| parse_one(c, spec)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xdotool_names_aliases_and_chords_resolve() {
        assert_eq!(keysym_for_name("Return"), Some(0xff0d));
        assert_eq!(keysym_for_name("enter"), Some(0xff0d));
        assert_eq!(keysym_for_name("BackSpace"), Some(0xff08));
        assert_eq!(keysym_for_name("backspace"), Some(0xff08));
        assert_eq!(keysym_for_name("Page_Down"), Some(0xff56));
        assert_eq!(keysym_for_name("Page_Up"), Some(0xff55));
        assert_eq!(keysym_for_name("RETURN"), Some(0xff0d));
        assert_eq!(keysym_for_name("F5"), Some(0xffc2));
        assert_eq!(keysym_for_name("a"), Some(0x61));
        assert_eq!(keysym_for_name("A"), Some(0x41));
        let c = parse_chord("ctrl+shift+t").unwrap();
        assert_eq!(
            c,
            vec![Chord {
                keysyms: vec![0xffe3, 0xffe1, 0x74]
            }]
        );
        let seq = parse_chord("ctrl+a BackSpace").unwrap();
        assert_eq!(seq.len(), 2);
        assert_eq!(
            parse_chord("ctrl++").unwrap()[0].keysyms,
            vec![0xffe3, 0x2b]
        );
    }

    #[test]
    fn unknown_and_empty_key_names_are_readable_errors() {
        let e = parse_chord("ctrl+Bogus").unwrap_err();
        assert_eq!(e, "unknown key name \"Bogus\" in \"ctrl+Bogus\"");
        assert!(parse_chord("  ").unwrap_err().contains("no key"));
        assert!(parse_chord("ctrl+").unwrap_err().contains("empty key name"));
    }

    #[test]
    fn characters_map_to_latin1_named_or_unicode_keysyms() {
        assert_eq!(keysym_for_char('a'), 0x61);
        assert_eq!(keysym_for_char('é'), 0xe9);
        assert_eq!(keysym_for_char('\n'), 0xff0d);
        // A character with no named keysym takes the Unicode range.
        assert_eq!(keysym_for_char('🙂'), 0x0100_0000 + 0x1f642);
    }
}
