//! The fixed "today" of an environment: pages label dates relative to it and new records take
//! their timestamps from it, so the same state always renders the same HTML.

use chrono::{DateTime, Utc};

/// A `today` that is not an RFC 3339 instant.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("bad `today` {text:?}: {source} (expected RFC 3339)")]
pub struct BadToday {
    /// What was given.
    pub text: String,
    /// Why chrono refused it.
    #[source]
    pub source: chrono::ParseError,
}

/// A fixed instant standing for "now" in one environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Today(pub DateTime<Utc>);

impl Today {
    /// Parses an RFC 3339 instant (`2026-03-05T10:00:00Z`).
    pub fn parse(text: &str) -> Result<Today, BadToday> {
        DateTime::parse_from_rfc3339(text)
            .map(|t| Today(t.with_timezone(&Utc)))
            .map_err(|source| BadToday {
                text: text.to_string(),
                source,
            })
    }

    /// RFC 3339 with seconds and `Z`, as the seeds write `createdAt`.
    pub fn rfc3339(&self) -> String {
        self.0.format("%Y-%m-%dT%H:%M:%SZ").to_string()
    }

    /// Microseconds since the epoch.
    pub fn micros(&self) -> i64 {
        self.0.timestamp_micros()
    }

    /// A short label for an instant: `10:42` today, `Yesterday 10:42`, else `Feb 24, 10:42`.
    pub fn label(&self, at: DateTime<Utc>) -> String {
        let days = self.0.date_naive() - at.date_naive();
        match days.num_days() {
            0 => at.format("%H:%M").to_string(),
            1 => at.format("Yesterday %H:%M").to_string(),
            _ => at.format("%b %-d, %H:%M").to_string(),
        }
    }
}

/// Parses a chat timestamp `secs.micros` into microseconds.
pub fn ts_micros(ts: &str) -> Option<i64> {
    let (secs, frac) = ts.split_once('.').unwrap_or((ts, "0"));
    let secs: i64 = secs.parse().ok()?;
    let frac = format!("{frac:0<6}");
    let micros: i64 = frac.get(..6)?.parse().ok()?;
    Some(secs * 1_000_000 + micros)
}

/// Formats microseconds as a chat timestamp `secs.micros`.
pub fn ts_text(micros: i64) -> String {
    format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000)
}

/// The instant of a chat timestamp.
pub fn ts_time(ts: &str) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp_micros(ts_micros(ts)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_timestamps_round_trip_and_label_relative_to_today() {
        assert_eq!(ts_micros("1771930740.000002"), Some(1_771_930_740_000_002));
        assert_eq!(ts_text(1_771_930_740_000_002), "1771930740.000002");
        assert_eq!(ts_micros("12.5"), Some(12_500_000));
        assert_eq!(ts_micros("x"), None);
        let today = Today::parse("2026-03-05T10:00:00Z").expect("valid");
        let at = |s: &str| Today::parse(s).expect("valid").0;
        assert_eq!(today.label(at("2026-03-05T08:07:00Z")), "08:07");
        assert_eq!(today.label(at("2026-03-04T23:59:00Z")), "Yesterday 23:59");
        assert_eq!(today.label(at("2026-02-24T09:19:00Z")), "Feb 24, 09:19");
        assert!(Today::parse("yesterday")
            .unwrap_err()
            .to_string()
            .contains("RFC 3339"));
    }
}
