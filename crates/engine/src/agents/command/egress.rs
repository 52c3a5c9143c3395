//! The host half of the egress proxy: an HTTP `CONNECT` proxy on a per-call Unix socket that opens
//! tunnels only to the configured hosts. With it the CLI runs in a private network namespace (no
//! host loopback, so no state-API server or other local service is reachable) and still reaches
//! its model API through `HTTPS_PROXY` (the in-sandbox shim forwards 127.0.0.1:PORT to the socket).
//!
//! Allow-list entries: `host` (port 443), `host:port`, `*.domain` (any subdomain, port 443) or
//! `*.domain:port`. Names are compared case-insensitively, as the client wrote them.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The in-sandbox forwarder (run with the sandbox's `/usr/bin/python3`).
pub const SHIM_PY: &str = include_str!("egress_shim.py");
/// The port the shim listens on inside the sandbox.
pub const IN_PORT: u16 = 3128;

/// Whether `target` (`host:port`) matches an allow-list entry.
pub fn allowed(allow: &[String], target: &str) -> bool {
    let Some((host, port)) = target.rsplit_once(':') else {
        return false;
    };
    let host = host.trim_matches(['[', ']']).to_ascii_lowercase();
    allow.iter().any(|entry| {
        let entry = entry.to_ascii_lowercase();
        let (pat, want_port) = match entry.rsplit_once(':') {
            Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) => (h.to_string(), p.to_string()),
            _ => (entry.clone(), "443".to_string()),
        };
        let host_ok = match pat.strip_prefix("*.") {
            Some(domain) => host.ends_with(&format!(".{domain}")),
            None => host == pat,
        };
        host_ok && port == want_port
    })
}

/// A running proxy; stopped (and its socket closed) on drop.
pub struct Proxy {
    stop: Arc<AtomicBool>,
    refused: Arc<Mutex<Vec<String>>>,
}

impl Proxy {
    /// Binds `socket` (mode 0666 so the sandbox uid can connect) and serves until dropped.
    pub fn start(socket: &Path, allow: Vec<String>) -> std::io::Result<Self> {
        let listener = UnixListener::bind(socket)?;
        std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o666))?;
        listener.set_nonblocking(true)?;
        let stop = Arc::new(AtomicBool::new(false));
        let refused = Arc::new(Mutex::new(Vec::new()));
        let (s, r) = (stop.clone(), refused.clone());
        let allow = Arc::new(allow);
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((conn, _)) => {
                        let (allow, refused) = (allow.clone(), r.clone());
                        std::thread::spawn(move || handle(conn, &allow, &refused));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        });
        Ok(Self { stop, refused })
    }

    /// The `host:port` targets refused so far (for error messages).
    pub fn refused(&self) -> Vec<String> {
        self.refused.lock().map(|v| v.clone()).unwrap_or_default()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Reads the request head (up to 8 KiB) and returns its first line and any bytes after it.
fn read_head(conn: &mut UnixStream) -> Option<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    while buf.len() < 8192 {
        let n = conn.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            let first = head.lines().next().unwrap_or("").to_string();
            return Some((first, buf[end + 4..].to_vec()));
        }
    }
    None
}

fn handle(mut conn: UnixStream, allow: &[String], refused: &Mutex<Vec<String>>) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let Some((line, rest)) = read_head(&mut conn) else {
        return;
    };
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if !method.eq_ignore_ascii_case("CONNECT") || !allowed(allow, target) {
        if let Ok(mut v) = refused.lock() {
            if v.len() < 50 && !v.iter().any(|t| t == target) {
                v.push(target.to_string());
            }
        }
        let _ = conn
            .write_all(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return;
    }
    let upstream = target.to_socket_addrs().ok().and_then(|mut addrs| {
        addrs.find_map(|a| TcpStream::connect_timeout(&a, Duration::from_secs(15)).ok())
    });
    let Some(mut up) = upstream else {
        let _ = conn.write_all(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
        return;
    };
    if conn
        .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
        .is_err()
        || up.write_all(&rest).is_err()
    {
        return;
    }
    let _ = conn.set_read_timeout(None);
    let (Ok(mut conn2), Ok(mut up2)) = (conn.try_clone(), up.try_clone()) else {
        return;
    };
    let back = std::thread::spawn(move || {
        let _ = std::io::copy(&mut up2, &mut conn2);
        let _ = conn2.shutdown(Shutdown::Both);
    });
    let _ = std::io::copy(&mut conn, &mut up);
    let _ = up.shutdown(Shutdown::Both);
    let _ = back.join();
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn allow_list_matches_host_port_and_wildcards() {
        let allow = vec![
            "api.anthropic.com".to_string(),
            "*.openai.com".to_string(),
            "localhost:8000".to_string(),
        ];
        assert!(allowed(&allow, "api.anthropic.com:443"));
        assert!(allowed(&allow, "API.Anthropic.com:443"));
        assert!(!allowed(&allow, "api.anthropic.com:80"));
        assert!(allowed(&allow, "api.openai.com:443"));
        assert!(!allowed(&allow, "openai.com:443"));
        assert!(!allowed(&allow, "evilopenai.com:443"));
        assert!(allowed(&allow, "localhost:8000"));
        assert!(!allowed(&allow, "localhost:8001"));
        assert!(!allowed(&allow, "127.0.0.1:8000"));
        assert!(!allowed(&allow, "nonsense"));
    }
}
