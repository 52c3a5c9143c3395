//! Size limits on input files, checked from metadata before a byte is read, and UTF-8 decoding
//! that says where the first bad byte is.
//!
//! A 2 GB sparse `reward.py` costs nothing to make and, read whole, several GB of memory to
//! parse; a 2 GB bundle file ends as an SQLite "string or blob too big" naming nothing. Each kind
//! of input therefore has a limit, and an input over it is refused naming its size and the limit.

use std::io::Read;

/// One kind of input with its size limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// What the input is, as the error says it (`script`, `task file`, `bundle file`).
    pub what: &'static str,
    /// Largest accepted size in bytes.
    pub bytes: u64,
}

const MIB: u64 = 1024 * 1024;

/// A Python script (`reward.py`, `initial_setup.py`, `golden_patch.py`, a scanned file).
pub const SCRIPT: Limit = Limit {
    what: "script",
    bytes: MIB,
};

/// A task-generation JSON file (tens of thousands of tasks fit comfortably).
pub const TASK_FILE: Limit = Limit {
    what: "task file",
    bytes: 256 * MIB,
};

/// Any other file of a bundle (`config.json`, `task_config.json`, `REVIEW.md`).
pub const BUNDLE_FILE: Limit = Limit {
    what: "bundle file",
    bytes: 16 * MIB,
};

impl Limit {
    /// The limit for the bundle file called `name`: scripts have the script limit.
    pub fn for_bundle_file(name: &str) -> Limit {
        if name.ends_with(".py") {
            SCRIPT
        } else {
            BUNDLE_FILE
        }
    }
}

/// Why an input could not be taken as text.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    /// Larger than its limit (known from metadata, or found while reading a growing file).
    #[error("{} is over the {} {} limit", human(*size), human(limit.bytes), limit.what)]
    TooLarge {
        /// The file's size in bytes (at least, for a file that grew while being read).
        size: u64,
        /// The limit it is over.
        limit: Limit,
    },
    /// Not UTF-8: where the first invalid byte is.
    #[error("not UTF-8 text: invalid byte at line {line}, column {column} (byte offset {offset})")]
    NotUtf8 {
        /// 1-based line of the first invalid byte.
        line: usize,
        /// 1-based byte column within that line.
        column: usize,
        /// 0-based byte offset in the file.
        offset: usize,
    },
    /// Reading failed.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
}

/// `bytes` in a short human form: `1 MiB`, `2.0 GiB`, `512 bytes`.
pub fn human(bytes: u64) -> String {
    for (unit, name) in [(1024 * MIB, "GiB"), (MIB, "MiB"), (1024, "KiB")] {
        if bytes >= unit {
            return if bytes.is_multiple_of(unit) {
                format!("{} {name}", bytes / unit)
            } else {
                format!("{:.1} {name}", bytes as f64 / unit as f64)
            };
        }
    }
    format!("{bytes} bytes")
}

/// Refuses `size` (from metadata) if it is over `limit`.
pub fn check(size: u64, limit: Limit) -> Result<(), TextError> {
    if size > limit.bytes {
        return Err(TextError::TooLarge { size, limit });
    }
    Ok(())
}

/// Reads at most `limit` bytes of `reader` as UTF-8 text; more (a file that grew after its
/// size was checked) is [`TextError::TooLarge`].
pub fn read_text(reader: impl Read, limit: Limit) -> Result<String, TextError> {
    let mut bytes = Vec::new();
    reader.take(limit.bytes + 1).read_to_end(&mut bytes)?;
    check(bytes.len() as u64, limit)?;
    utf8(bytes)
}

/// `bytes` as a `String`, or where its first invalid byte is.
pub fn utf8(bytes: Vec<u8>) -> Result<String, TextError> {
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..offset];
        let line_start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        TextError::NotUtf8 {
            line: before.iter().filter(|b| **b == b'\n').count() + 1,
            column: offset - line_start + 1,
            offset,
        }
    })
}

/// `line` cut to at most `max` characters (with `…` and the full length when cut): what an error
/// message echoes of a line, however long the line is.
pub fn excerpt(line: &str, max: usize) -> String {
    match line.char_indices().nth(max) {
        None => line.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes in all)", &line[..cut], line.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(MIB), "1 MiB");
        assert_eq!(human(2 * 1024 * MIB + 1), "2.0 GiB");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(12), "12 bytes");
        let e = check(2 * 1024 * MIB, SCRIPT).unwrap_err().to_string();
        assert_eq!(e, "2 GiB is over the 1 MiB script limit");
    }

    #[test]
    fn invalid_utf8_is_located() {
        let e = utf8(b"ok\nab\xffc".to_vec()).unwrap_err().to_string();
        assert!(e.contains("line 2, column 3 (byte offset 5)"), "{e}");
        let e = read_text(
            &b"abc"[..],
            Limit {
                what: "x",
                bytes: 2,
            },
        )
        .unwrap_err();
        assert!(matches!(e, TextError::TooLarge { size: 3, .. }), "{e}");
    }

    #[test]
    fn excerpts_are_bounded() {
        let long = "x".repeat(50_000_000);
        let e = excerpt(&long, 200);
        assert!(
            e.len() < 250 && e.ends_with("(50000000 bytes in all)"),
            "{}",
            e.len()
        );
        assert_eq!(excerpt("short", 200), "short");
    }
}
