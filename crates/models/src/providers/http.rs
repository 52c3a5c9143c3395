//! The shared HTTP layer: one blocking client per provider, and the retry loop (exponential backoff
//! with jitter; `Retry-After` honoured on 429; retries on 5xx, 408, timeouts and dropped connections;
//! other 4xx fail at once with a typed error).

use std::io::BufReader;
use std::sync::Once;
use std::thread;
use std::time::Duration;

use rand::Rng;
use reqwest::blocking::Client;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::StatusCode;

use super::sse::StreamError;
use super::{excerpt, ProviderConfig, ProviderError};

/// Folds a streamed (SSE) response into the equivalent non-streaming JSON body.
pub type Fold = fn(&mut dyn std::io::BufRead) -> Result<serde_json::Value, StreamError>;

/// Installs the ring crypto provider for rustls once per process (an already installed provider wins).
pub fn ensure_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Builds a blocking client with the configured timeouts.
pub fn build_client(cfg: &ProviderConfig) -> Result<Client, ProviderError> {
    ensure_crypto_provider();
    Client::builder()
        .connect_timeout(cfg.connect_timeout())
        .timeout(cfg.request_timeout())
        .build()
        .map_err(|e| ProviderError::Config(format!("cannot build the HTTP client: {e}")))
}

/// A successful exchange: the parsed JSON body and how many requests it took.
pub struct Exchange {
    /// Parsed response body.
    pub body: serde_json::Value,
    /// Requests made, the successful one included.
    pub attempts: u32,
}

/// What one attempt produced when it did not succeed.
enum Failure {
    /// Worth another attempt, after at least the given delay if the server asked for one.
    Transient(String, Option<Duration>),
    /// Final.
    Fatal(ProviderError),
}

/// POSTs `body` to `url` with `headers`, retrying transient failures per `cfg`. With `fold`, a
/// `text/event-stream` answer is folded into JSON (a JSON answer is still accepted).
pub fn post_json(
    client: &Client,
    cfg: &ProviderConfig,
    url: &str,
    headers: HeaderMap,
    body: &serde_json::Value,
    fold: Option<Fold>,
) -> Result<Exchange, ProviderError> {
    let provider = cfg.display_name();
    let attempts_allowed = cfg.max_retries.min(super::config::MAX_RETRIES_CAP) + 1;
    let mut last = String::new();
    for attempt in 1..=attempts_allowed {
        let result = client
            .post(url)
            .headers(headers.clone())
            .json(body)
            .send()
            .map_err(|e| classify_transport(&provider, e))
            .and_then(|resp| read_response(&provider, cfg, resp, fold));
        match result {
            Ok(body) => {
                return Ok(Exchange {
                    body,
                    attempts: attempt,
                })
            }
            Err(Failure::Fatal(e)) => return Err(e),
            Err(Failure::Transient(why, retry_after)) => {
                tracing::warn!(%provider, attempt, attempts_allowed, error = %why, "provider call failed");
                last = why;
                if attempt < attempts_allowed {
                    thread::sleep(backoff_delay(cfg, attempt, retry_after));
                }
            }
        }
    }
    Err(ProviderError::Exhausted {
        provider,
        attempts: attempts_allowed,
        last,
    })
}

fn classify_transport(provider: &str, e: reqwest::Error) -> Failure {
    if e.is_builder() {
        return Failure::Fatal(ProviderError::Config(format!(
            "{provider}: bad request: {e}"
        )));
    }
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else {
        "connection dropped"
    };
    Failure::Transient(format!("{kind}: {}", error_chain(&e)), None)
}

fn read_response(
    provider: &str,
    cfg: &ProviderConfig,
    resp: reqwest::blocking::Response,
    fold: Option<Fold>,
) -> Result<serde_json::Value, Failure> {
    let status = resp.status();
    let retry_after = parse_retry_after(resp.headers());
    let is_stream = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/event-stream"));
    if status.is_success() && is_stream {
        if let Some(fold) = fold {
            let mut reader = BufReader::new(resp);
            return fold(&mut reader).map_err(|e| match e {
                StreamError::Io(why) => Failure::Transient(why, None),
                StreamError::Remote(why) => {
                    Failure::Transient(format!("error event in the stream: {why}"), None)
                }
                StreamError::Protocol(reason) => Failure::Fatal(ProviderError::BadResponse {
                    provider: provider.to_string(),
                    reason,
                    body: String::new(),
                }),
            });
        }
    }
    let text = match resp.text() {
        Ok(t) => t,
        Err(e) => {
            let kind = if e.is_timeout() {
                "timed out"
            } else {
                "connection dropped"
            };
            return Err(Failure::Transient(
                format!(
                    "{kind} while reading the body (HTTP {status}): {}",
                    error_chain(&e)
                ),
                None,
            ));
        }
    };
    if status == StatusCode::TOO_MANY_REQUESTS {
        return Err(Failure::Transient(
            format!("HTTP 429 (rate limited): {}", excerpt(&text, 200)),
            retry_after,
        ));
    }
    if status.is_server_error() || status == StatusCode::REQUEST_TIMEOUT {
        return Err(Failure::Transient(
            format!("HTTP {}: {}", status.as_u16(), excerpt(&text, 200)),
            retry_after,
        ));
    }
    if !status.is_success() {
        let hint = if matches!(status.as_u16(), 401 | 403) {
            let var = cfg.api_key_env_or_default();
            if cfg.api_key().is_none() {
                format!(" (hint: the API key variable {var} is not set)")
            } else {
                format!(" (hint: check the key in {var})")
            }
        } else {
            String::new()
        };
        return Err(Failure::Fatal(ProviderError::Status {
            provider: provider.to_string(),
            status: status.as_u16(),
            body: excerpt(&text, 300),
            hint,
        }));
    }
    serde_json::from_str(&text).map_err(|e| {
        Failure::Fatal(ProviderError::BadResponse {
            provider: provider.to_string(),
            reason: format!("not JSON: {e}"),
            body: excerpt(&text, 300),
        })
    })
}

/// Delay before the attempt after `attempt` (1-based): `base * 2^(attempt-1)` capped at
/// `backoff_max_ms`, plus up to 50% jitter, and never less than an honoured `Retry-After` (itself capped).
pub fn backoff_delay(
    cfg: &ProviderConfig,
    attempt: u32,
    retry_after: Option<Duration>,
) -> Duration {
    let cap = cfg.backoff_max_ms;
    let exp = cfg
        .backoff_base_ms
        .saturating_mul(1u64 << (attempt.saturating_sub(1)).min(20))
        .min(cap);
    let jitter = if exp > 0 {
        rand::rng().random_range(0..=exp / 2)
    } else {
        0
    };
    let backoff = Duration::from_millis(exp + jitter);
    match retry_after {
        Some(ra) => backoff.max(ra.min(Duration::from_millis(cap))),
        None => backoff,
    }
}

/// `Retry-After` as delta-seconds (integer or decimal) or an HTTP date.
pub fn parse_retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = when.signed_duration_since(chrono::Utc::now());
    Some(delta.to_std().unwrap_or(Duration::ZERO))
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut src = e.source();
    while let Some(s) = src {
        out.push_str(": ");
        out.push_str(&s.to_string());
        src = s.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(base: u64, max: u64) -> ProviderConfig {
        ProviderConfig {
            backoff_base_ms: base,
            backoff_max_ms: max,
            ..ProviderConfig::default()
        }
    }

    #[test]
    fn backoff_doubles_with_bounded_jitter_and_cap() {
        let c = cfg(100, 1000);
        for (attempt, lo) in [
            (1u32, 100u64),
            (2, 200),
            (3, 400),
            (4, 800),
            (5, 1000),
            (9, 1000),
        ] {
            let d = backoff_delay(&c, attempt, None).as_millis() as u64;
            assert!(d >= lo && d <= lo + lo / 2, "attempt {attempt}: {d} ms");
        }
    }

    #[test]
    fn retry_after_is_a_floor_capped_by_backoff_max() {
        let c = cfg(1, 5000);
        let d = backoff_delay(&c, 1, Some(Duration::from_secs(2)));
        assert!(
            d >= Duration::from_secs(2) && d < Duration::from_millis(2100),
            "{d:?}"
        );
        let d = backoff_delay(&c, 1, Some(Duration::from_secs(3600)));
        assert_eq!(
            d,
            Duration::from_millis(5000),
            "an hour-long Retry-After is capped"
        );
    }

    #[test]
    fn retry_after_parses_seconds_and_http_dates() {
        let mut h = HeaderMap::new();
        assert_eq!(parse_retry_after(&h), None);
        h.insert(RETRY_AFTER, "7".parse().expect("value"));
        assert_eq!(parse_retry_after(&h), Some(Duration::from_secs(7)));
        h.insert(RETRY_AFTER, "0.5".parse().expect("value"));
        assert_eq!(parse_retry_after(&h), Some(Duration::from_millis(500)));
        let soon = (chrono::Utc::now() + chrono::Duration::seconds(30))
            .format("%a, %d %b %Y %H:%M:%S GMT")
            .to_string();
        h.insert(RETRY_AFTER, soon.parse().expect("value"));
        let d = parse_retry_after(&h).expect("http date");
        assert!(
            d > Duration::from_secs(25) && d <= Duration::from_secs(30),
            "{d:?}"
        );
        h.insert(
            RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().expect("value"),
        );
        assert_eq!(
            parse_retry_after(&h),
            Some(Duration::ZERO),
            "a past date means now"
        );
        h.insert(RETRY_AFTER, "soon".parse().expect("value"));
        assert_eq!(parse_retry_after(&h), None);
    }
}
