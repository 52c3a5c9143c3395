//! A small blocking client of Chromium's DevTools protocol: finds the page target through the
//! `DevToolsActivePort` file Chromium writes into its profile (`--remote-debugging-port=0`,
//! loopback only), connects a websocket to it and performs calls, skipping events.
//!
//! The page itself cannot reach the DevTools port: the browser's proxy rules send every origin
//! but the app's (loopback included) to a dead proxy (see `screen::browser`).

use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Why a DevTools connection or call failed (each with what was being done, and its cause).
#[derive(Debug, thiserror::Error)]
pub enum CdpError {
    /// The HTTP client for `/json/list` could not be built.
    #[error("http client: {0}")]
    Client(#[source] reqwest::Error),
    /// The browser published no page target in time.
    #[error("Chromium published no DevTools page within {ms} ms ({file})")]
    NoPage {
        /// The wait, milliseconds.
        ms: u128,
        /// The `DevToolsActivePort` file looked for.
        file: std::path::PathBuf,
    },
    /// The websocket to the page could not be opened.
    #[error("DevTools websocket {url}: {source}")]
    Connect {
        /// The page's websocket URL.
        url: String,
        /// The cause.
        #[source]
        source: Box<tungstenite::Error>,
    },
    /// The socket's read timeout could not be set.
    #[error("DevTools socket: {0}")]
    Socket(#[source] std::io::Error),
    /// Sending or reading a call failed.
    #[error("DevTools {method}: {source}")]
    Transport {
        /// The protocol method.
        method: String,
        /// The cause.
        #[source]
        source: Box<tungstenite::Error>,
    },
    /// No answer to a call in time.
    #[error("DevTools {method}: no answer within 10 s")]
    Timeout {
        /// The protocol method.
        method: String,
    },
    /// The browser answered the call with a protocol error.
    #[error("DevTools {method}: {message}")]
    Protocol {
        /// The protocol method.
        method: String,
        /// The error's `message` as sent.
        message: Value,
    },
}

/// One DevTools session on a page.
pub struct Cdp {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

/// How long one call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

fn page_ws_url(port: u16) -> Result<Option<String>, CdpError> {
    tuplewright_models::providers::http::ensure_crypto_provider();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(5))
        .no_proxy()
        .build()
        .map_err(CdpError::Client)?;
    let url = format!("http://127.0.0.1:{port}/json/list");
    let targets: Value = match client.get(&url).send().and_then(|r| r.json()) {
        Ok(v) => v,
        Err(_) => return Ok(None),
    };
    Ok(targets.as_array().and_then(|ts| {
        ts.iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .map(str::to_string)
    }))
}

fn transport(method: &str, e: tungstenite::Error) -> CdpError {
    CdpError::Transport {
        method: method.to_string(),
        source: Box::new(e),
    }
}

impl Cdp {
    /// Connects to the page of the Chromium whose profile is `profile`, waiting up to `timeout`
    /// for the browser to publish its port and page.
    pub fn connect(profile: &Path, timeout: Duration) -> Result<Cdp, CdpError> {
        let deadline = Instant::now() + timeout;
        let file = profile.join("DevToolsActivePort");
        let url = loop {
            let port = std::fs::read_to_string(&file)
                .ok()
                .and_then(|t| t.lines().next().and_then(|l| l.trim().parse::<u16>().ok()));
            if let Some(port) = port {
                if let Some(url) = page_ws_url(port)? {
                    break url;
                }
            }
            if Instant::now() >= deadline {
                return Err(CdpError::NoPage {
                    ms: timeout.as_millis(),
                    file,
                });
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let (ws, _) = tungstenite::connect(&url).map_err(|e| CdpError::Connect {
            url: url.clone(),
            source: Box::new(e),
        })?;
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(CALL_TIMEOUT))
                .map_err(CdpError::Socket)?;
        }
        let mut cdp = Cdp { ws, next_id: 0 };
        cdp.call("Accessibility.enable", json!({}))?;
        Ok(cdp)
    }

    /// Performs `method` and returns its `result`; a protocol error names the method.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, CdpError> {
        self.next_id += 1;
        let id = self.next_id;
        let text = json!({"id": id, "method": method, "params": params}).to_string();
        self.ws
            .send(Message::text(text))
            .map_err(|e| transport(method, e))?;
        let deadline = Instant::now() + CALL_TIMEOUT;
        loop {
            if Instant::now() >= deadline {
                return Err(CdpError::Timeout {
                    method: method.to_string(),
                });
            }
            let msg = self.ws.read().map_err(|e| transport(method, e))?;
            let Message::Text(body) = msg else { continue };
            let Ok(v) = serde_json::from_str::<Value>(body.as_str()) else {
                continue;
            };
            if v["id"].as_u64() != Some(id) {
                continue;
            }
            if let Some(err) = v.get("error") {
                return Err(CdpError::Protocol {
                    method: method.to_string(),
                    message: err["message"].clone(),
                });
            }
            return Ok(v["result"].clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_devtools_page_is_a_typed_error_naming_the_file_and_the_wait() {
        let dir = tempfile::tempdir().expect("tempdir");
        let e = Cdp::connect(dir.path(), Duration::from_millis(60))
            .err()
            .expect("no browser, no page");
        assert!(
            matches!(&e, CdpError::NoPage { ms: 60, file } if file.ends_with("DevToolsActivePort")),
            "{e:?}"
        );
        assert!(e.to_string().contains("within 60 ms"), "{e}");
    }
}
