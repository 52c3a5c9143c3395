//! Bring your own app: `[[apps.external]]` entries declare a state-API app tuplewright does not
//! ship (a CUA-Gym-Hub site's dev server, or one already running). [`ExternalApp::start`] starts
//! its command on a free port (or takes its URL) and waits for its readiness probe; the harness
//! then gives each environment a fresh session on it and reads, writes and tears sessions down in
//! the app's own state-API dialect ([`Dialect`]), with states normalised to tuplewright's form.

use std::io::Read as _;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The state API an external app speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// The Hub's original plugin: `/post` `{action: set|set_current|reset, state, merge?}`,
    /// `/go` with a top-level `{key: {added|modified}}` diff, sessions made by naming a sid.
    #[default]
    HubLegacy,
    /// The Hub's hardened plugin: every write and `/go` need the admin token
    /// (`x-cua-admin-token`); flat `{old, new}` diffs; `set` answers a one-time `launch_url`.
    HubHardened,
    /// tuplewright's own state API (e.g. another tuplewright `env serve`).
    Tuplewright,
}

/// One `[[apps.external]]` entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalAppConfig {
    /// The app's name (also its Hub host `cua-gym-<name>.xlang.ai`), e.g. `notion`.
    pub name: String,
    /// Command that serves the app, run with `sh -c`; `{port}` becomes a free loopback port.
    #[serde(default)]
    pub command: Option<String>,
    /// Working directory of `command` (default: the current directory).
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// Where the app already runs (`http://host:port`), instead of `command`.
    #[serde(default)]
    pub url: Option<String>,
    /// Readiness probe: a path answered with a status below 500 once the app serves.
    #[serde(default = "default_ready")]
    pub ready: String,
    /// How long the probe may take, in milliseconds.
    #[serde(default = "default_ready_ms")]
    pub ready_timeout_ms: u64,
    /// Its state-API dialect.
    #[serde(default)]
    pub dialect: Dialect,
    /// The admin token of a `hub-hardened` app (or `admin_token_env`, the variable holding it).
    #[serde(default)]
    pub admin_token: Option<String>,
    /// Environment variable holding the admin token.
    #[serde(default)]
    pub admin_token_env: Option<String>,
    /// The port scripts use inside the sandbox (`http://localhost:<port>`); default 8000 + its
    /// position among the external apps.
    #[serde(default)]
    pub port: Option<u16>,
    /// The URL a screen opens, with `{base}` and `{sid}` (default `{base}/?sid={sid}`).
    #[serde(default)]
    pub ui_url: Option<String>,
    /// Its state schema (`state = { documents = "map", comments = "list", ui = "config" }`);
    /// default: inferred from `seed` and the states its sessions hold.
    #[serde(default)]
    pub state: Option<super::StateSchema>,
    /// A JSON file holding the app's default state: what an agent sees on a session nothing was
    /// set up in (a Hub site's built-in data, e.g. its 29-message mailbox). The noop probe sets it.
    #[serde(default)]
    pub seed: Option<PathBuf>,
}

fn default_ready() -> String {
    "/state?sid=tuplewright-ready".into()
}

fn default_ready_ms() -> u64 {
    30_000
}

/// The header carrying a hardened app's admin token.
pub const ADMIN_HEADER: &str = "x-cua-admin-token";

/// A running (or reachable) external app.
pub struct ExternalApp {
    /// Its entry.
    pub cfg: ExternalAppConfig,
    /// `http://127.0.0.1:<port>` (or the configured URL), no trailing slash.
    pub base: String,
    /// Where the forwarder connects.
    pub addr: SocketAddr,
    /// The in-sandbox port scripts use.
    pub port: u16,
    /// The default state of `seed`, read at start (None = not declared).
    pub seed: Option<Value>,
    token: Option<String>,
    child: Option<std::process::Child>,
    agent: ureq::Agent,
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind(("127.0.0.1", 0))
        .map_err(|e| format!("finding a free port: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("finding a free port: {e}"))
}

fn log_tail(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(1 << 20).read_to_string(&mut text);
    }
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(5)..].join(" / ")
}

/// The default state in `path`: a JSON object, or an error naming the entry and the file.
fn read_seed(at: &str, path: &Path) -> Result<Value, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("{at}: seed {}: {e}", path.display()))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{at}: seed {}: not JSON: {e}", path.display()))?;
    if !v.is_object() {
        return Err(format!(
            "{at}: seed {}: the default state must be a JSON object",
            path.display()
        ));
    }
    Ok(v)
}

impl ExternalApp {
    /// Starts (or reaches) the app of `cfg` (entry `index`), logging its output to
    /// `<log_dir>/external-<name>.log`, and waits for its readiness probe.
    pub fn start(cfg: &ExternalAppConfig, index: usize, log_dir: &Path) -> Result<Self, String> {
        let at = format!("[[apps.external]] {:?}", cfg.name);
        let token = match (&cfg.admin_token, &cfg.admin_token_env) {
            (Some(t), _) => Some(t.clone()),
            (None, Some(var)) => Some(std::env::var(var).map_err(|_| {
                format!("{at}: admin_token_env = {var:?} but the variable is not set")
            })?),
            (None, None) => None,
        };
        let seed = cfg.seed.as_deref().map(|p| read_seed(&at, p)).transpose()?;
        if cfg.dialect == Dialect::HubHardened && token.is_none() {
            return Err(format!(
                "{at}: dialect \"hub-hardened\" needs admin_token or admin_token_env"
            ));
        }
        let (base, child, log) = match (&cfg.command, &cfg.url) {
            (Some(cmd), None) => {
                let port = free_port()?;
                let log = log_dir.join(format!("external-{}.log", cfg.name));
                let out = std::fs::File::create(&log)
                    .map_err(|e| format!("{at}: creating {}: {e}", log.display()))?;
                let err = out
                    .try_clone()
                    .map_err(|e| format!("{at}: opening its log: {e}"))?;
                let mut c = std::process::Command::new("sh");
                c.arg("-c")
                    .arg(cmd.replace("{port}", &port.to_string()))
                    .env("PORT", port.to_string())
                    .stdin(std::process::Stdio::null())
                    .stdout(out)
                    .stderr(err);
                if let Some(t) = &token {
                    c.env("CUA_GYM_ADMIN_TOKEN", t);
                }
                if let Some(dir) = &cfg.cwd {
                    c.current_dir(dir);
                }
                std::os::unix::process::CommandExt::process_group(&mut c, 0);
                let child = c
                    .spawn()
                    .map_err(|e| format!("{at}: starting `{cmd}`: {e}"))?;
                (format!("http://127.0.0.1:{port}"), Some(child), Some(log))
            }
            (None, Some(url)) => (url.trim_end_matches('/').to_string(), None, None),
            _ => {
                return Err(format!(
                    "{at}: give exactly one of `command` (with {{port}}) or `url`"
                ))
            }
        };
        let hostport = base
            .strip_prefix("http://")
            .ok_or_else(|| format!("{at}: url {base:?} must start with http://"))?
            .split('/')
            .next()
            .unwrap_or_default()
            .to_string();
        let addr = hostport
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| format!("{at}: cannot resolve {hostport:?} (from {base:?})"))?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(30)))
            .http_status_as_error(false)
            .build()
            .into();
        let mut app = ExternalApp {
            cfg: cfg.clone(),
            base,
            addr,
            port: cfg.port.unwrap_or(8000 + index as u16),
            seed,
            token,
            child,
            agent,
        };
        app.wait_ready(log.as_deref())?;
        Ok(app)
    }

    fn wait_ready(&mut self, log: Option<&Path>) -> Result<(), String> {
        let at = format!("[[apps.external]] {:?}", self.cfg.name);
        let deadline = Instant::now() + Duration::from_millis(self.cfg.ready_timeout_ms);
        let url = format!("{}{}", self.base, self.cfg.ready);
        let tail = || {
            log.map(|l| format!("; its log ends: {}", log_tail(l)))
                .unwrap_or_default()
        };
        loop {
            if let Some(child) = &mut self.child {
                if let Ok(Some(status)) = child.try_wait() {
                    return Err(format!(
                        "{at}: the command exited ({status}) before it served{}",
                        tail()
                    ));
                }
            }
            let last = match self.request("GET", &url, None) {
                Ok((status, _)) if status < 500 => return Ok(()),
                Ok((status, _)) => format!("status {status}"),
                Err(e) => e,
            };
            if Instant::now() >= deadline {
                return Err(format!(
                    "{at}: not ready after {} ms: GET {url} gave {last}{}. Raise ready_timeout_ms \
                     or fix `ready`",
                    self.cfg.ready_timeout_ms,
                    tail()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Headers the forwarder adds to every request a script sends this app (the admin token of
    /// a hardened app, which the script never sees).
    pub fn forward_headers(&self) -> Vec<(String, String)> {
        match (&self.token, self.cfg.dialect) {
            (Some(t), Dialect::HubHardened) => vec![(ADMIN_HEADER.to_string(), t.clone())],
            _ => Vec::new(),
        }
    }

    fn request(
        &self,
        method: &str,
        url: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        let mut resp = match (method, body) {
            ("POST", Some(b)) => {
                let mut r = self.agent.post(url);
                for (k, v) in self.forward_headers() {
                    r = r.header(k, v);
                }
                r.send_json(b)
            }
            ("DELETE", _) => self.agent.delete(url).call(),
            _ => {
                let mut r = self.agent.get(url);
                for (k, v) in self.forward_headers() {
                    r = r.header(k, v);
                }
                r.call()
            }
        }
        .map_err(|e| format!("{method} {url}: {e}"))?;
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| format!("{method} {url}: reading the answer: {e}"))?;
        Ok((
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        ))
    }

    fn ok(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let (status, v) = self.request(method, &url, body)?;
        if (200..300).contains(&status) {
            Ok(v)
        } else {
            Err(format!(
                "external app {} ({:?} dialect): {method} {path} answered {status}: {}",
                self.cfg.name,
                self.cfg.dialect,
                v.to_string().chars().take(300).collect::<String>()
            ))
        }
    }

    /// The session's initial and current state (`/go`), whatever the dialect's diff looks like.
    pub fn states(&self, sid: &str) -> Result<(Value, Value), String> {
        let v = self.ok("GET", &format!("/go?sid={sid}"), None)?;
        let current = v.get("current_state").cloned().unwrap_or_else(|| json!({}));
        let initial = v
            .get("initial_state")
            .cloned()
            .filter(|i| !i.is_null())
            .unwrap_or_else(|| current.clone());
        Ok((initial, current))
    }

    /// Writes the session: `set` (initial and current) or `set_current`.
    pub fn write(&self, sid: &str, action: &str, state: &Value) -> Result<(), String> {
        self.ok(
            "POST",
            &format!("/post?sid={sid}"),
            Some(&json!({"action": action, "state": state})),
        )
        .map(|_| ())
    }

    /// Ends the session: `reset` in the Hub dialects, `DELETE /session` in tuplewright's.
    pub fn teardown(&self, sid: &str) -> Result<(), String> {
        match self.cfg.dialect {
            Dialect::Tuplewright => self
                .ok("DELETE", &format!("/session?sid={sid}"), None)
                .map(|_| ()),
            _ => self
                .ok(
                    "POST",
                    &format!("/post?sid={sid}"),
                    Some(&json!({"action": "reset"})),
                )
                .map(|_| ()),
        }
    }

    /// The URL a screen opens for `sid`.
    pub fn ui_url(&self, sid: &str) -> String {
        self.cfg
            .ui_url
            .clone()
            .unwrap_or_else(|| "{base}/?sid={sid}".into())
            .replace("{base}", &self.base)
            .replace("{sid}", sid)
    }
}

impl Drop for ExternalApp {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            // The whole process group: dev servers fork (npm → node → esbuild).
            let pgid = child.id() as i32;
            // SAFETY: kill(2) on a process group we created; no memory is touched.
            unsafe {
                libc::kill(-pgid, libc::SIGTERM);
            }
            let deadline = Instant::now() + Duration::from_secs(3);
            while Instant::now() < deadline {
                if matches!(child.try_wait(), Ok(Some(_))) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            // SAFETY: as above.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            let _ = child.wait();
        }
    }
}
