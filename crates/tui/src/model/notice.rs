//! Status-line notices with a level (info, success, warning, error), a glyph for each (state is
//! never carried by colour alone, NO_COLOR included) and an expiry.
//!
//! Code sets `model.notice` as before; [`Model::say`] also names the level. A notice set without a
//! level gets one from its wording (store errors are errors, refusals warnings, the rest info).
//! The model has no clock of its own: the event loop passes the time with [`Model::set_time`].

use std::time::{Duration, Instant};

use super::Model;

/// How much a notice matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// Neutral information.
    #[default]
    Info,
    /// Something the user asked for was done.
    Success,
    /// Refused or cancelled: nothing broke, nothing was done.
    Warning,
    /// Something failed.
    Error,
}

impl Level {
    /// The glyph drawn before the text.
    pub fn glyph(self) -> &'static str {
        match self {
            Level::Info => "ℹ",
            Level::Success => "✔",
            Level::Warning => "⚠",
            Level::Error => "✘",
        }
    }

    /// How long a notice of this level stays.
    pub fn ttl(self) -> Duration {
        Duration::from_secs(match self {
            Level::Info | Level::Success => 6,
            Level::Warning => 12,
            Level::Error => 30,
        })
    }

    /// The level of a notice set without one, from its wording.
    pub fn guess(text: &str) -> Level {
        let t = text.to_lowercase();
        let any = |words: &[&str]| words.iter().any(|w| t.contains(w));
        if any(&[
            "error",
            "failed",
            "cannot",
            "could not",
            "not found",
            "invalid",
        ]) {
            Level::Error
        } else if any(&[
            "refused",
            "read-only",
            "cancelled",
            "dropped",
            "still being",
            "press ",
        ]) {
            Level::Warning
        } else if any(&["recorded", "started", "finished", "undid", "saved"]) {
            Level::Success
        } else {
            Level::Info
        }
    }
}

/// The level and timing of the notice shown.
#[derive(Debug, Clone, Default)]
pub struct NoticeMeta {
    /// Its level.
    pub level: Level,
    /// When it was set (by the model's clock), if known.
    pub since: Option<Instant>,
    /// The text the meta belongs to (a new text gets new meta).
    text: Option<String>,
    /// The level named by [`Model::say`] for the next new text.
    named: Option<Level>,
}

impl Model {
    /// Shows `text` at `level`.
    pub fn say(&mut self, level: Level, text: impl Into<String>) {
        self.notice = Some(text.into());
        self.notice_meta.named = Some(level);
    }

    /// The time now, from the event loop (tests pass their own).
    pub fn set_time(&mut self, now: Instant) {
        self.clock = Some(now);
    }

    /// Clears the notice if it has been shown for longer than its level's time; true if it did.
    pub fn expire_notice(&mut self) -> bool {
        let (Some(now), Some(since)) = (self.clock, self.notice_meta.since) else {
            return false;
        };
        if self.notice.is_some() && now.duration_since(since) >= self.notice_meta.level.ttl() {
            self.notice = None;
            self.notice_meta = NoticeMeta::default();
            return true;
        }
        false
    }

    /// After an update: a new notice text gets its level and start time.
    pub(super) fn stamp_notice(&mut self) {
        let meta = &mut self.notice_meta;
        if self.notice != meta.text {
            meta.level = match (&self.notice, meta.named) {
                (_, Some(l)) => l,
                (Some(t), None) => Level::guess(t),
                (None, None) => Level::Info,
            };
            meta.since = self.clock;
            meta.text = self.notice.clone();
        }
        meta.named = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wording_gives_a_level_and_each_level_has_a_glyph() {
        assert_eq!(Level::guess("store error: disk I/O"), Level::Error);
        assert_eq!(
            Level::guess("read-only mode: decisions refused"),
            Level::Warning
        );
        assert_eq!(
            Level::guess("t1: keep recorded (voted → final, #4)"),
            Level::Success
        );
        assert_eq!(Level::guess("wrap on"), Level::Info);
        let glyphs: Vec<&str> = [Level::Info, Level::Success, Level::Warning, Level::Error]
            .iter()
            .map(|l| l.glyph())
            .collect();
        assert_eq!(glyphs, vec!["ℹ", "✔", "⚠", "✘"]);
        assert!(Level::Error.ttl() > Level::Success.ttl());
    }
}
