//! A blocking client of an OSWorld guest server (a VM's `desktop_env/server/main.py`, or
//! `tuplewright env serve --osworld`). Every call has a deadline; a connection that fails, a
//! deadline that passes or a server error is [`OsworldError::Infra`] — the caller records it as
//! an infrastructure failure, never as a score. A 4xx answer is the request's fault
//! ([`OsworldError::BadRequest`] or [`OsworldError::NotFound`]).

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{json, Value};

use super::OsworldError;

/// What `/execute` and `/run_bash_script` answer.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ExecReply {
    /// `success` or `error`.
    #[serde(default)]
    pub status: String,
    /// Standard output (for `/run_bash_script`, with standard error merged in).
    #[serde(default)]
    pub output: String,
    /// Standard error.
    #[serde(default)]
    pub error: String,
    /// The exit code (`-1` when the guest could not run it).
    #[serde(default = "minus_one")]
    pub returncode: i32,
}

fn minus_one() -> i32 {
    -1
}

/// A client of one guest.
#[derive(Debug, Clone)]
pub struct GuestClient {
    base: String,
    http: reqwest::blocking::Client,
    /// Deadline of the quick calls (screenshot, screen size, health, windows).
    pub quick: Duration,
}

impl GuestClient {
    /// A client of the guest at `base` (`http://host:port`).
    pub fn new(base: &str) -> Result<GuestClient, OsworldError> {
        tuplewright_models::providers::http::ensure_crypto_provider();
        let http = reqwest::blocking::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| OsworldError::Infra(format!("http client: {e}")))?;
        Ok(GuestClient {
            base: base.trim_end_matches('/').to_string(),
            http,
            quick: Duration::from_secs(30),
        })
    }

    /// The guest's URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Sends `req` with `timeout`; transport failures and 5xx are infrastructure, 4xx the
    /// request's fault (with the guest's message).
    fn send(
        &self,
        what: &str,
        req: reqwest::blocking::RequestBuilder,
        timeout: Duration,
    ) -> Result<reqwest::blocking::Response, OsworldError> {
        let r = req.timeout(timeout).send().map_err(|e| {
            let how = if e.is_timeout() {
                format!("no answer within {:.0} s", timeout.as_secs_f64())
            } else {
                format!("{e}")
            };
            OsworldError::Infra(format!("{what} on {}: {how}", self.base))
        })?;
        let status = r.status();
        if status.is_success() {
            return Ok(r);
        }
        let text = r.text().unwrap_or_default();
        let text: String = text.chars().take(500).collect();
        let msg = format!("{what} on {}: HTTP {status}: {text}", self.base);
        Err(match status.as_u16() {
            404 => OsworldError::NotFound(msg),
            400..=499 => OsworldError::BadRequest(msg),
            _ => OsworldError::Infra(msg),
        })
    }

    fn json(&self, what: &str, r: reqwest::blocking::Response) -> Result<Value, OsworldError> {
        r.json()
            .map_err(|e| OsworldError::Infra(format!("{what} on {}: not JSON: {e}", self.base)))
    }

    /// `GET /terminal`: the liveness probe.
    pub fn alive(&self, timeout: Duration) -> Result<(), OsworldError> {
        self.send(
            "GET /terminal",
            self.http.get(self.url("/terminal")),
            timeout,
        )
        .map(|_| ())
    }

    /// Probes `/terminal` until it answers or `deadline` passes (the last failure is returned).
    pub fn wait_alive(&self, within: Duration) -> Result<(), OsworldError> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.alive(left.clamp(Duration::from_millis(200), Duration::from_secs(10))) {
                Ok(()) => return Ok(()),
                Err(e) if Instant::now() >= deadline => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(250)),
            }
        }
    }

    /// `GET /screenshot`: PNG (or JPEG) bytes, checked by their magic.
    pub fn screenshot(&self) -> Result<Vec<u8>, OsworldError> {
        let r = self.send(
            "GET /screenshot",
            self.http.get(self.url("/screenshot")),
            self.quick,
        )?;
        let bytes = r
            .bytes()
            .map_err(|e| OsworldError::Infra(format!("reading the screenshot: {e}")))?
            .to_vec();
        let png = bytes.starts_with(b"\x89PNG\r\n\x1a\n");
        let jpeg = bytes.starts_with(&[0xff, 0xd8, 0xff]);
        if !(png || jpeg) {
            return Err(OsworldError::Infra(format!(
                "GET /screenshot on {} answered {} bytes that are neither PNG nor JPEG",
                self.base,
                bytes.len()
            )));
        }
        Ok(bytes)
    }

    /// `GET /accessibility`: the guest's accessibility tree (the `AT` XML).
    pub fn accessibility(&self) -> Result<String, OsworldError> {
        let what = "GET /accessibility";
        let r = self.send(what, self.http.get(self.url("/accessibility")), self.quick)?;
        let v = self.json(what, r)?;
        v.get("AT")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| OsworldError::Infra(format!("{what}: no `AT` string in the answer")))
    }

    /// `POST /screen_size`.
    pub fn screen_size(&self) -> Result<(u32, u32), OsworldError> {
        let what = "POST /screen_size";
        let r = self.send(what, self.http.post(self.url("/screen_size")), self.quick)?;
        let v = self.json(what, r)?;
        let dim = |k: &str| v.get(k).and_then(Value::as_u64).map(|n| n as u32);
        dim("width")
            .zip(dim("height"))
            .ok_or_else(|| OsworldError::Infra(format!("{what}: no width/height in {v}")))
    }

    fn exec_like(
        &self,
        path: &str,
        body: Value,
        timeout: Duration,
    ) -> Result<ExecReply, OsworldError> {
        let what = format!("POST {path}");
        let r = self.send(&what, self.http.post(self.url(path)).json(&body), timeout)?;
        serde_json::from_value(self.json(&what, r)?)
            .map_err(|e| OsworldError::Infra(format!("{what}: unexpected answer: {e}")))
    }

    /// `POST /execute` (`/setup/execute` with `setup`): a command list (or a shell string).
    pub fn execute(
        &self,
        command: &Value,
        shell: bool,
        setup: bool,
        timeout: Duration,
    ) -> Result<ExecReply, OsworldError> {
        let path = if setup { "/setup/execute" } else { "/execute" };
        self.exec_like(path, json!({"command": command, "shell": shell}), timeout)
    }

    /// `POST /run_bash_script` with the guest-side `timeout_secs` (the HTTP deadline is longer).
    pub fn run_bash(
        &self,
        script: &str,
        timeout_secs: f64,
        working_dir: Option<&str>,
    ) -> Result<ExecReply, OsworldError> {
        let body = json!({"script": script, "timeout": timeout_secs, "working_dir": working_dir});
        let http = Duration::from_secs_f64(timeout_secs.max(1.0) + 30.0);
        match self.exec_like("/run_bash_script", body, http) {
            // The guest's own timeout answers 500 with its message in `output`.
            Err(OsworldError::Infra(m)) if m.contains("timed out after") => Err(
                OsworldError::Infra(format!("{m} (the guest stopped the script)")),
            ),
            other => other,
        }
    }

    /// `POST /setup/upload` (multipart `file_path` + `file_data`), as OSWorld's SetupController.
    pub fn upload(&self, path: &str, data: Vec<u8>, timeout: Duration) -> Result<(), OsworldError> {
        let name = path.rsplit('/').next().unwrap_or("file").to_string();
        let form = reqwest::blocking::multipart::Form::new()
            .text("file_path", path.to_string())
            .part(
                "file_data",
                reqwest::blocking::multipart::Part::bytes(data).file_name(name),
            );
        let req = self.http.post(self.url("/setup/upload")).multipart(form);
        self.send(&format!("upload of {path}"), req, timeout)
            .map(|_| ())
    }

    /// `POST /file`: the file's bytes, `None` when the guest has no such file.
    pub fn file(&self, path: &str, timeout: Duration) -> Result<Option<Vec<u8>>, OsworldError> {
        let req = self
            .http
            .post(self.url("/file"))
            .form(&[("file_path", path)]);
        match self.send(&format!("POST /file {path}"), req, timeout) {
            Ok(r) => Ok(Some(
                r.bytes()
                    .map_err(|e| OsworldError::Infra(format!("reading {path}: {e}")))?
                    .to_vec(),
            )),
            Err(OsworldError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A `/setup/<op>` call with a JSON body whose answer is text (launch, open_file,
    /// activate_window, close_window).
    pub fn setup_call(
        &self,
        op: &str,
        body: Value,
        timeout: Duration,
    ) -> Result<String, OsworldError> {
        let path = format!("/setup/{op}");
        let r = self.send(
            &format!("POST {path}"),
            self.http.post(self.url(&path)).json(&body),
            timeout,
        )?;
        Ok(r.text().unwrap_or_default())
    }
}
