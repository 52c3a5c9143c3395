//! Token counts of slices against a context budget: the `tokenizer.json` the user names (read with
//! the `tokenizers` crate; text tokens are exact for that tokenizer), or a documented estimate
//! without one — 4 characters per token for text. Images are counted the Qwen-VL way in both
//! cases: the image smart-resized (factor 28, Qwen2.5-VL's bounds), one token per 28×28 patch,
//! plus the two vision delimiters.

use std::path::Path;

use tokenizers::Tokenizer;

use super::errors::TokenError;

use crate::rollout::vlm::coords::{
    smart_resize, QWEN25_FACTOR, QWEN25_MAX_PIXELS, QWEN25_MIN_PIXELS,
};

/// Characters per token of the estimate.
pub const CHARS_PER_TOKEN: usize = 4;

/// Counts tokens.
pub enum TokenCounter {
    /// A real tokenizer.
    Tokenizer(Box<Tokenizer>),
    /// ⌈characters / 4⌉ per text.
    Estimate,
}

impl TokenCounter {
    /// The tokenizer in `path` (a Hugging Face `tokenizer.json`), or an error naming the file.
    pub fn from_file(path: &Path) -> Result<TokenCounter, TokenError> {
        Tokenizer::from_file(path)
            .map(|t| TokenCounter::Tokenizer(Box::new(t)))
            .map_err(|source| TokenError::Read {
                path: path.to_path_buf(),
                source,
            })
    }

    /// What the counts rest on, for the export's summary.
    pub fn describe(&self) -> &'static str {
        match self {
            TokenCounter::Tokenizer(_) => "tokenizer",
            TokenCounter::Estimate => "estimate (4 characters per token)",
        }
    }

    /// Tokens of a text.
    pub fn text(&self, s: &str) -> Result<usize, TokenError> {
        match self {
            TokenCounter::Tokenizer(t) => t
                .encode(s, false)
                .map(|e| e.len())
                .map_err(TokenError::Encode),
            TokenCounter::Estimate => Ok(s.chars().count().div_ceil(CHARS_PER_TOKEN)),
        }
    }

    /// Tokens of an image of `width × height`.
    pub fn image(&self, width: u32, height: u32) -> usize {
        let (h, w) = smart_resize(
            height.max(1),
            width.max(1),
            QWEN25_FACTOR,
            QWEN25_MIN_PIXELS,
            QWEN25_MAX_PIXELS,
        )
        .unwrap_or((height, width));
        let f = QWEN25_FACTOR as usize;
        (w as usize / f) * (h as usize / f) + 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_counts_characters_and_images_count_patches() {
        let t = TokenCounter::Estimate;
        assert_eq!(t.text("").unwrap(), 0);
        assert_eq!(t.text("abcde").unwrap(), 2);
        // 1280x800 smart-resizes to 1288x812 → 46 × 29 patches.
        assert_eq!(t.image(1280, 800), 46 * 29 + 2);
        let e = TokenCounter::from_file(Path::new("/nonexistent/tokenizer.json"))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("/nonexistent/tokenizer.json"), "{e}");
    }
}
