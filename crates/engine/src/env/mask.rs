//! Volatile-field masks: key-path globs whose fields are ignored by the diff (paper §B.3.3).
//!
//! A glob is a dotted path whose segments are literal keys, `*` (exactly one segment) or `**`
//! (any number of segments, including none). Array elements are segments too, named by their
//! index: `channels.*.lastViewedAt` matches `channels.3.lastViewedAt`. The default mask is
//! `**.lastViewedAt` (that key at any depth).

/// One compiled glob.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Glob {
    segments: Vec<Seg>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Lit(String),
    One,
    Any,
}

/// A set of key-path globs; a path is masked when any glob matches it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mask {
    globs: Vec<Glob>,
    /// Keys masked at any depth (`**.<key>` globs), checked without walking the path.
    anywhere: Vec<String>,
}

/// The glob every app masks unless its manifest says otherwise.
pub const DEFAULT_VOLATILE: &[&str] = &["**.lastViewedAt"];

impl Mask {
    /// Compiles the given globs. Empty segments (`a..b`) are rejected with the glob named.
    pub fn new<S: AsRef<str>>(globs: &[S]) -> Result<Mask, String> {
        let mut mask = Mask::default();
        for raw in globs {
            let raw = raw.as_ref();
            let mut segments = Vec::new();
            for part in raw.split('.') {
                segments.push(match part {
                    "" => return Err(format!("volatile glob {raw:?} has an empty segment")),
                    "*" => Seg::One,
                    "**" => Seg::Any,
                    lit => Seg::Lit(lit.to_string()),
                });
            }
            match segments.as_slice() {
                [Seg::Any, Seg::Lit(key)] => mask.anywhere.push(key.clone()),
                _ => mask.globs.push(Glob { segments }),
            }
        }
        Ok(mask)
    }

    /// The default mask ([`DEFAULT_VOLATILE`]).
    pub fn default_volatile() -> Mask {
        Mask {
            globs: Vec::new(),
            anywhere: DEFAULT_VOLATILE
                .iter()
                .map(|g| g.trim_start_matches("**.").to_string())
                .collect(),
        }
    }

    /// True when no glob is set.
    pub fn is_empty(&self) -> bool {
        self.globs.is_empty() && self.anywhere.is_empty()
    }

    /// Whether the path (its segments, last one being the key) is masked.
    pub fn matches<S: AsRef<str>>(&self, path: &[S]) -> bool {
        if let Some(last) = path.last() {
            if self.anywhere.iter().any(|k| k == last.as_ref()) {
                return true;
            }
        }
        self.globs.iter().any(|g| glob_match(&g.segments, path))
    }
}

fn glob_match<S: AsRef<str>>(pattern: &[Seg], path: &[S]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((Seg::Any, rest)) => (0..=path.len()).any(|skip| glob_match(rest, &path[skip..])),
        Some((seg, rest)) => path.split_first().is_some_and(|(head, tail)| {
            let head_ok = match seg {
                Seg::Lit(lit) => lit == head.as_ref(),
                _ => true,
            };
            head_ok && glob_match(rest, tail)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_segments() {
        let m = Mask::new(&["channels.*.lastRead", "ui.**", "**.cache.*"]).unwrap();
        assert!(m.matches(&["channels", "3", "lastRead"]));
        assert!(!m.matches(&["channels", "3", "name"]));
        assert!(m.matches(&["ui"]));
        assert!(m.matches(&["ui", "panel", "open"]));
        assert!(m.matches(&["a", "b", "cache", "x"]));
        assert!(!m.matches(&["a", "cache"]));
        assert!(Mask::new(&["a..b"]).is_err());
    }

    #[test]
    fn default_masks_last_viewed_at_anywhere() {
        let m = Mask::default_volatile();
        assert!(m.matches(&["lastViewedAt"]));
        assert!(m.matches(&["channels", "0", "lastViewedAt"]));
        assert!(!m.matches(&["channels", "0", "name"]));
    }
}
