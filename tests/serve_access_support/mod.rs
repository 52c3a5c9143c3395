//! Helpers of tests/serve_access.rs: this machine's own non-loopback address, a raw HTTP/1.1
//! client, and `env serve` started as a subprocess.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An address of this machine that is not loopback (the first global IPv4 address `ip` lists),
/// for binding for real; `0.0.0.0` when the machine has none (then reached over 127.0.0.1, and
/// still a non-loopback bind for the server). Traffic to it never leaves the machine.
pub fn own_address() -> IpAddr {
    let out = Command::new("ip")
        .args(["-4", "-o", "addr", "show", "scope", "global"])
        .output();
    let text = out
        .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
        .unwrap_or_default();
    text.split_whitespace()
        .skip_while(|w| *w != "inet")
        .nth(1)
        .and_then(|a| a.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
}

/// Where a client reaches a server bound to `bind`.
pub fn reach(bind: SocketAddr) -> SocketAddr {
    if bind.ip().is_unspecified() {
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), bind.port())
    } else {
        bind
    }
}

/// One HTTP/1.1 request (connection closed after it): status and body.
pub fn request(
    addr: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let mut head = format!(
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP answer to {method} {target}: {text:?}"));
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or_default();
    (status, body.to_string())
}

/// `tuplewright --no-tui env serve ARGS` in `dir`, without any config from the environment.
pub fn env_serve(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("tuplewright"));
    c.args(["--no-tui", "env", "serve"])
        .args(args)
        .current_dir(dir)
        .env_remove("TUPLEWRIGHT_STORE")
        .env_remove("TUPLEWRIGHT_CONFIG");
    c
}

/// Runs `env serve ARGS` expecting it to refuse to start: its exit code and stderr. It must end
/// on its own (generous deadline); a server that starts instead is killed and reported.
pub fn refused(dir: &Path, args: &[&str]) -> (i32, String) {
    let mut child = env_serve(dir, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.code().unwrap_or(-1), err);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    panic!(
        "env serve {args:?} started instead of refusing: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A running `env serve` (SIGTERM when dropped) and the JSON lines it printed at start.
pub struct Serving {
    child: Child,
    /// The lines printed before the first `{"app": …}` line, and that line.
    pub lines: Vec<serde_json::Value>,
}

impl Serving {
    /// Starts `env serve ARGS` and reads stdout up to its first app line.
    pub fn start(dir: &Path, args: &[&str]) -> Serving {
        Serving::start_with(dir, args, &[])
    }

    /// [`Serving::start`] with environment variables `envs` set.
    pub fn start_with(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Serving {
        let mut child = env_serve(dir, args)
            .envs(envs.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
                let last = v.get("app").is_some();
                if tx.send(v).is_err() || last {
                    break;
                }
            }
        });
        let mut lines = Vec::new();
        while lines
            .last()
            .is_none_or(|v: &serde_json::Value| v.get("app").is_none())
        {
            match rx.recv_timeout(Duration::from_secs(120)) {
                Ok(v) => lines.push(v),
                Err(e) => {
                    let _ = child.kill();
                    panic!("env serve {args:?} did not announce its app: {e} ({lines:?})");
                }
            }
        }
        Serving { child, lines }
    }

    /// The app line's URL.
    pub fn url(&self) -> String {
        self.lines.last().unwrap()["url"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The bound address (from the URL).
    pub fn addr(&self) -> SocketAddr {
        let url = self.url();
        let hostport = url.split("://").nth(1).unwrap();
        hostport.parse().unwrap()
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        // SAFETY: kill with a pid of our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The security types a VNC server at `addr` offers (RFB 3.8 handshake, up to the list).
pub fn vnc_security_types(addr: SocketAddr) -> Vec<u8> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut version = [0u8; 12];
    s.read_exact(&mut version).unwrap();
    assert!(version.starts_with(b"RFB 003."), "{version:?}");
    s.write_all(b"RFB 003.008\n").unwrap();
    let mut n = [0u8; 1];
    s.read_exact(&mut n).unwrap();
    let mut types = vec![0u8; n[0] as usize];
    s.read_exact(&mut types).unwrap();
    types
}
