//! Issue #35 on the faces with a screen: the OSWorld face (`env serve --osworld`) with a token on
//! this machine's own non-loopback address answers 401 on every endpoint without it, and `env try`
//! off loopback shares the desktop through x11vnc with VNC authentication only (the real RFB
//! handshake's security types). Real Xvfb, desktop, x11vnc; traffic never leaves the machine.

use crate::osworld_support;
use crate::serve_access_support;
use crate::shipped_support;

use std::io::BufRead;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use serve_access_support::{own_address, reach, request, vnc_security_types};

const TOKEN: &str = "osworld-token-0123456789abcdef";

/// Every endpoint of OSWorld's guest server, plus the face's /health and an unknown route.
const OSWORLD: &[(&str, &str)] = &[
    ("GET", "/screenshot"),
    ("POST", "/execute"),
    ("POST", "/setup/execute"),
    ("POST", "/run_python"),
    ("POST", "/run_bash_script"),
    ("POST", "/setup/upload"),
    ("POST", "/file"),
    ("POST", "/list_directory"),
    ("GET", "/accessibility"),
    ("POST", "/screen_size"),
    ("GET", "/terminal"),
    ("GET", "/platform"),
    ("POST", "/setup/launch"),
    ("POST", "/setup/open_file"),
    ("POST", "/setup/activate_window"),
    ("POST", "/setup/close_window"),
    ("GET", "/health"),
    ("GET", "/no-such-route"),
];

#[test]
fn the_osworld_face_with_a_token_answers_401_on_every_endpoint_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("osworld.token");
    std::fs::write(&f, TOKEN).unwrap();
    let host = own_address().to_string();
    let f = f.display().to_string();
    let args = ["--app", "files", "--host", &host, "--token-file", &f];
    let guest = osworld_support::serve(dir, &args);
    let bound: SocketAddr = guest.url.trim_start_matches("http://").parse().unwrap();
    assert_eq!(bound.ip().to_string(), host, "bound where asked");
    let a = reach(bound);
    let exec = json!({"command": ["echo", "from-the-harness"], "shell": false}).to_string();
    for (method, path) in OSWORLD {
        for auth in [None, Some("Bearer not-the-token-0123456789")] {
            let mut headers = vec![("Content-Type", "application/json")];
            headers.extend(auth.map(|v| ("Authorization", v)));
            let (code, body) = request(a, method, path, &headers, exec.as_bytes());
            assert_eq!(code, 401, "{method} {path} with {auth:?}: {body}");
        }
    }
    // With the token the protocol works as before; the refusals were counted.
    let bearer = format!("Bearer {TOKEN}");
    let headers = [
        ("Content-Type", "application/json"),
        ("Authorization", bearer.as_str()),
    ];
    let (code, body) = request(a, "POST", "/execute", &headers, exec.as_bytes());
    assert_eq!(code, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(
        v["output"].as_str().unwrap().contains("from-the-harness"),
        "{v}"
    );
    let (code, body) = request(a, "POST", "/screen_size", &headers, b"");
    assert_eq!(code, 200, "{body}");
    // What OSWorld's Python client sends for a URL http://tw:TOKEN@host:port/.
    let basic = format!("Basic {}", b64(&format!("tw:{TOKEN}")));
    let (code, body) = request(a, "GET", "/platform", &[("Authorization", &basic)], b"");
    assert_eq!((code, body.as_str()), (200, "Linux"));
    // tuplewright's own guest client (`[osworld]` pools, `osworld check`) takes the same URL form;
    // without the credentials it gets the 401 as a request error.
    let client = tuplewright::engine::osworld::GuestClient::new(&format!("http://tw:{TOKEN}@{a}"));
    assert!(client.unwrap().screen_size().unwrap().0 > 0);
    let bare = tuplewright::engine::osworld::GuestClient::new(&format!("http://{a}")).unwrap();
    let e = bare.screen_size().unwrap_err().to_string();
    assert!(e.contains("401") || e.contains("unauthorized"), "{e}");
    let (code, body) = request(a, "GET", "/health", &headers, b"");
    assert_eq!(code, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["access"]["unauthorized"], 2 * OSWORLD.len() + 1, "{v}");
}

fn b64(s: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(s)
}

#[test]
fn env_try_off_loopback_asks_for_a_vnc_password() {
    let dir = tempfile::tempdir().unwrap();
    let id = "files_sort_001";
    let store = shipped_support::store_of(dir.path(), "files.json", id);
    let until = dir.path().join("done");
    let host = own_address().to_string();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .args(["--no-tui", "--store"])
        .arg(&store)
        .args(["env", "try", id, "--json", "--vnc-host", &host, "--until"])
        .arg(&until)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let access: Value = serde_json::from_str(&first).unwrap();
    let vnc: SocketAddr = access["vnc"].as_str().unwrap().parse().unwrap();
    assert_eq!(vnc.ip().to_string(), host, "{access}");
    let password = access["password"].as_str().unwrap_or_default();
    assert_eq!(password.len(), 8, "a password is shown once: {access}");
    // The real x11vnc offers VNC authentication (type 2) and never "None" (type 1).
    let types = vnc_security_types(reach(vnc));
    std::fs::write(&until, "").unwrap();
    assert!(types.contains(&2) && !types.contains(&1), "{types:?}");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    if child.try_wait().unwrap().is_none() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("env try did not end after the --until file appeared");
    }
}
