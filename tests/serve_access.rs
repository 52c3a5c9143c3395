//! Issue #35: no unauthenticated served face off loopback. Every test binds a real non-loopback
//! address of this machine (its own global IPv4 address, found with `ip`; `0.0.0.0` reached over
//! 127.0.0.1 where it has none) — traffic never leaves the machine. The real `tuplewright env
//! serve` (state API and OSWorld face) and `env try` (x11vnc) run as subprocesses.

use crate::serve_access_support;

use std::net::{IpAddr, SocketAddr};
use std::path::Path;

use serde_json::{json, Value};
use serve_access_support::{own_address, reach, refused, request, Serving};

const TOKEN: &str = "test-token-0123456789abcdef";

fn token_file(dir: &Path) -> String {
    let f = dir.join("env.token");
    std::fs::write(&f, format!("{TOKEN}\n")).unwrap();
    f.display().to_string()
}

fn bearer() -> String {
    format!("Bearer {TOKEN}")
}

/// A state-API server of team-chat on this machine's own address with `extra` access flags.
fn serve_state_api(dir: &Path, extra: &[&str]) -> (Serving, SocketAddr) {
    let host = own_address().to_string();
    let state = dir.join("state").display().to_string();
    let mut args = vec!["--app", "team-chat", "--port", "0", "--host", &host];
    args.extend(["--state-dir", &state]);
    args.extend_from_slice(extra);
    let s = Serving::start(dir, &args);
    let addr = reach(s.addr());
    (s, addr)
}

fn health(addr: SocketAddr) -> Value {
    let (code, body) = request(addr, "GET", "/health", &[("Authorization", &bearer())], b"");
    assert_eq!(code, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

#[test]
fn a_non_loopback_bind_without_access_control_refuses_to_start_and_says_what_to_configure() {
    let dir = tempfile::tempdir().unwrap();
    let own = own_address().to_string();
    for host in [own.as_str(), "0.0.0.0", "::"] {
        let (code, err) = refused(
            dir.path(),
            &["--app", "team-chat", "--port", "0", "--host", host],
        );
        assert_ne!(code, 0, "{err}");
        for what in [
            "refusing to serve the state API",
            "not a loopback address",
            "--generate-token",
            "--token-file",
            "--token-env",
            "--allow-from",
            "[env] generate_token / token_file / token_env",
            "allow_from",
            "SSH tunnel",
            "docs/state-server.md#serving-beyond-this-machine",
        ] {
            assert!(err.contains(what), "{host}: {what:?} missing from: {err}");
        }
    }
    // The OSWorld face refuses before it provisions anything, and so does a config file's host.
    let (code, err) = refused(
        dir.path(),
        &["--osworld", "--app", "files", "--port", "0", "--host", &own],
    );
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("refusing to serve the OSWorld face"), "{err}");
    std::fs::write(
        dir.path().join("tuplewright.toml"),
        format!("[env]\nhost = \"{own}\"\n"),
    )
    .unwrap();
    let (code, err) = refused(dir.path(), &["--app", "team-chat", "--port", "0"]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("--allow-from"), "{err}");
}

#[test]
fn a_malformed_token_file_an_invalid_cidr_or_tls_file_is_a_clear_error_at_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let write = |name: &str, text: &str| {
        let p = d.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let spaced = write("spaced.token", "two words but long enough\n");
    let short = write("short.token", "abc\n");
    let empty = write("empty.token", "");
    let missing = d.join("missing.token").display().to_string();
    let not_pem = write("cert.pem", "hello");
    let base = ["--app", "team-chat", "--port", "0"];
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["--token-file", &spaced],
            vec![&spaced, "character ' ' at byte 3"],
        ),
        (
            vec!["--token-file", &short],
            vec![&short, "3 characters; a token has 16 to 1024"],
        ),
        (vec!["--token-file", &empty], vec![&empty, "empty"]),
        (
            vec!["--token-file", &missing],
            vec![&missing, "cannot be read"],
        ),
        (
            vec!["--token-env", "TW_TEST_UNSET_VAR"],
            vec!["environment variable TW_TEST_UNSET_VAR"],
        ),
        (
            vec!["--allow-from", "10.0.0.0/33"],
            vec!["--allow-from", "\"10.0.0.0/33\"", "prefix \"33\""],
        ),
        (
            vec!["--allow-from", "10.0.0.0/8", "intranet"],
            vec!["\"intranet\"", "expected an address"],
        ),
        (
            vec!["--allow-from", "10.1.2.3/8"],
            vec!["did you mean 10.0.0.0/8"],
        ),
        (
            vec!["--tls-cert", &not_pem, "--tls-key", &not_pem],
            vec!["TLS certificate", &not_pem],
        ),
        (
            vec!["--generate-token", "--token-file", &short],
            vec!["give one of token_file"],
        ),
    ];
    for (flags, wants) in cases {
        let mut args = base.to_vec();
        args.extend(flags.iter());
        let (code, err) = refused(d, &args);
        assert_ne!(code, 0, "{flags:?}: {err}");
        for w in wants {
            assert!(err.contains(w), "{flags:?}: {w:?} missing from: {err}");
        }
    }
    // The same checks guard the OSWorld face, before anything is provisioned.
    let (code, err) = refused(
        d,
        &[
            "--osworld",
            "--app",
            "files",
            "--port",
            "0",
            "--token-file",
            &spaced,
        ],
    );
    assert_ne!(code, 0);
    assert!(err.contains(&spaced), "{err}");
}

/// Every route of the state API (and an unknown one): method, target.
const STATE_API: &[(&str, &str)] = &[
    ("GET", "/health"),
    ("GET", "/go?sid=s1"),
    ("GET", "/state?sid=s1"),
    ("POST", "/post?sid=s1"),
    ("POST", "/upload?sid=s1"),
    ("GET", "/files/s1/a.txt"),
    ("DELETE", "/session?sid=s1"),
    ("GET", "/no-such-route"),
];

#[test]
fn with_a_token_every_state_api_endpoint_answers_401_without_it_and_works_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let f = token_file(dir.path());
    let (_server, a) = serve_state_api(dir.path(), &["--token-file", &f]);
    let set = json!({"action": "set", "state": {"probe": 1}}).to_string();
    let mut refused = 0;
    for (method, target) in STATE_API {
        for auth in [
            None,
            Some("Bearer wrong-token-0123456789"),
            Some("Basic Zm9vOmJhcg=="),
        ] {
            let mut headers = vec![("Content-Type", "application/json")];
            headers.extend(auth.map(|v| ("Authorization", v)));
            let (code, body) = request(a, method, target, &headers, set.as_bytes());
            assert_eq!(code, 401, "{method} {target} with {auth:?}: {body}");
            assert_eq!(
                serde_json::from_str::<Value>(&body).unwrap()["error"],
                "unauthorized"
            );
            refused += 1;
        }
    }
    // With the token (each way a client can send it) the API works.
    let b = bearer();
    let basic = format!("Basic {}", base64_of(&format!("tw:{TOKEN}")));
    let ways: [(&str, &str); 3] = [
        ("Authorization", &b),
        ("Authorization", &basic),
        ("X-Tuplewright-Token", TOKEN),
    ];
    for (i, (k, v)) in ways.iter().enumerate() {
        let headers = [("Content-Type", "application/json"), (*k, *v)];
        let body = json!({"action": "set", "state": {"probe": i}}).to_string();
        let (code, text) = request(a, "POST", "/post?sid=s1", &headers, body.as_bytes());
        assert_eq!(code, 200, "{k}: {text}");
        let (code, text) = request(a, "GET", "/state?sid=s1", &headers, b"");
        assert_eq!(code, 200, "{k}: {text}");
        let state: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(state["stored_state"]["probe"], i, "{text}");
    }
    let auth = [("Authorization", b.as_str())];
    assert_eq!(request(a, "GET", "/go?sid=s1", &auth, b"").0, 200);
    assert_eq!(request(a, "GET", "/files/s1/a.txt", &auth, b"").0, 404);
    assert_eq!(request(a, "DELETE", "/session?sid=s1", &auth, b"").0, 200);
    let h = health(a);
    assert_eq!(h["access"]["unauthorized"], refused, "{h}");
    assert_eq!(h["access"]["token"], true, "{h}");
}

fn base64_of(s: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(s)
}

#[test]
fn a_role_header_sent_by_a_network_client_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let f = token_file(dir.path());
    let (_server, a) = serve_state_api(dir.path(), &["--token-file", &f]);
    let b = bearer();
    let set = json!({"action": "set", "state": {"by": "client"}}).to_string();
    // A reader may not `set` and no role may DELETE a session — but these roles come from the
    // network, not from the sandbox's forwarder, so the server does not take them (a guessed
    // forwarder secret changes nothing): the request is the token holder's.
    for (role, forged) in [("reader", None), ("setup", Some("0123456789abcdef"))] {
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Authorization", b.as_str()),
            ("X-Tuplewright-Role", role),
        ];
        headers.extend(forged.map(|v| ("X-Tuplewright-Forwarder", v)));
        let (code, text) = request(a, "POST", "/post?sid=r", &headers, set.as_bytes());
        assert_eq!(code, 200, "{role}: {text}");
        let (code, text) = request(a, "DELETE", "/session?sid=r", &headers, b"");
        assert_eq!(code, 200, "{role}: {text}");
    }
    let h = health(a);
    assert_eq!(h["refused_writes"], 0, "{h}");
    assert_eq!(h["access"]["ignored_role_headers"], 4, "{h}");
}

#[test]
fn a_generated_token_is_printed_once_and_a_token_from_the_environment_works() {
    let dir = tempfile::tempdir().unwrap();
    let host = own_address().to_string();
    let s = Serving::start(
        dir.path(),
        &[
            "--app",
            "mail",
            "--port",
            "0",
            "--host",
            &host,
            "--generate-token",
        ],
    );
    assert_eq!(s.lines.len(), 2, "{:?}", s.lines);
    let token = s.lines[0]["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 64, "{token}");
    let a = reach(s.addr());
    assert_eq!(request(a, "GET", "/state?sid=g", &[], b"").0, 401);
    let auth = format!("Bearer {token}");
    assert_eq!(
        request(a, "GET", "/state?sid=g", &[("Authorization", &auth)], b"").0,
        200
    );
    let other = tempfile::tempdir().unwrap();
    let args = [
        "--app",
        "mail",
        "--port",
        "0",
        "--host",
        &host,
        "--token-env",
        "TW_ENV_TOKEN",
    ];
    let s = Serving::start_with(other.path(), &args, &[("TW_ENV_TOKEN", TOKEN)]);
    assert_eq!(s.lines.len(), 1, "nothing but the app line: {:?}", s.lines);
    let a = reach(s.addr());
    assert_eq!(request(a, "GET", "/state?sid=g", &[], b"").0, 401);
    let (code, body) = request(
        a,
        "GET",
        "/state?sid=g",
        &[("Authorization", &bearer())],
        b"",
    );
    assert_eq!(code, 200, "{body}");
}

#[test]
fn allow_from_admits_the_listed_addresses_only() {
    let dir = tempfile::tempdir().unwrap();
    let own = own_address();
    let client: IpAddr = if own.is_unspecified() {
        "127.0.0.1".parse().unwrap()
    } else {
        own
    };
    let inside = format!("{client}/32");
    let (_in, a) = serve_state_api(dir.path(), &["--allow-from", "198.51.100.0/24", &inside]);
    let (code, body) = request(a, "GET", "/state?sid=x", &[], b"");
    assert_eq!(code, 200, "{body}");
    let other = tempfile::tempdir().unwrap();
    let (_out, a) = serve_state_api(other.path(), &["--allow-from", "198.51.100.0/24"]);
    let (code, body) = request(a, "GET", "/state?sid=x", &[], b"");
    assert_eq!(code, 403, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"], "address_not_allowed");
    assert!(
        v["detail"].as_str().unwrap().contains(&client.to_string()),
        "{v}"
    );
}

#[test]
fn a_given_certificate_serves_https_and_plain_http_gets_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    let own = own_address();
    let client_ip = reach(SocketAddr::new(own, 1)).ip();
    let (ca_der, cert_pem, key_pem) = certificate_for(client_ip);
    let cert = dir.path().join("cert.pem");
    let key = dir.path().join("key.pem");
    std::fs::write(&cert, cert_pem).unwrap();
    std::fs::write(&key, key_pem).unwrap();
    let f = token_file(dir.path());
    let (c, k) = (cert.display().to_string(), key.display().to_string());
    let (server, a) = serve_state_api(
        dir.path(),
        &["--token-file", &f, "--tls-cert", &c, "--tls-key", &k],
    );
    assert!(server.url().starts_with("https://"), "{}", server.url());
    let (code, body) = https_get(a, ca_der.clone(), "/health", Some(&bearer()));
    assert_eq!(code, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["access"]["tls"], true, "{v}");
    assert_eq!(https_get(a, ca_der, "/health", None).0, 401);
    // Plain HTTP to the TLS port gets no HTTP answer.
    let mut s = std::net::TcpStream::connect(a).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    use std::io::{Read, Write};
    s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    assert!(
        !got.starts_with(b"HTTP/1.1 200"),
        "{:?}",
        String::from_utf8_lossy(&got)
    );
}

/// A CA (DER) and a leaf for `ip` signed by it (PEM), with the leaf's key (PEM).
fn certificate_for(ip: IpAddr) -> (Vec<u8>, String, String) {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_key = KeyPair::generate().unwrap();
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let leaf = CertificateParams::new(vec![ip.to_string()]).unwrap();
    let leaf_key = KeyPair::generate().unwrap();
    let leaf_cert = leaf.signed_by(&leaf_key, &ca_cert, &ca_key).unwrap();
    (
        ca_cert.der().to_vec(),
        leaf_cert.pem(),
        leaf_key.serialize_pem(),
    )
}

/// GET over TLS trusting only `ca`: status and body.
fn https_get(addr: SocketAddr, ca: Vec<u8>, target: &str, auth: Option<&str>) -> (u16, String) {
    use std::io::{Read, Write};
    use std::sync::Arc;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls::pki_types::CertificateDer::from(ca))
        .unwrap();
    let cfg = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::IpAddress(addr.ip().into());
    let conn = rustls::ClientConnection::new(Arc::new(cfg), name).unwrap();
    let tcp = std::net::TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let auth = auth
        .map(|a| format!("Authorization: {a}\r\n"))
        .unwrap_or_default();
    let req = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}\r\n");
    tls.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = tls.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let code = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or_default();
    (code, body.to_string())
}

use crate::scripted_support;

/// The other side of the role rule: a sandboxed script's role does reach the server, because the
/// forwarder adds the process's secret for a built-in app (as `TaskEnv::spec` sets it up); a
/// forwarder without it is treated like any network client (its role header dropped, counted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandboxs_forwarder_carries_the_role_to_the_server_and_nothing_else_does() {
    use tuplewright::engine::sandbox::Role;
    let h = scripted_support::Harness::start().await;
    let app = "team-chat";
    let mut spec = h.endpoint(Some(app));
    let port = spec.api_port;
    let source = format!(
        "import urllib.request\n\
         urllib.request.urlopen('http://127.0.0.1:{port}/state?sid={}').read()\n\
         print('read')\n",
        spec.sid
    );
    let ignored = || h.server.access.report().ignored_role_headers;
    let r = h.run(&spec, Role::Reader, "read.py", &source).await;
    assert!(r.stdout.text.contains("read"), "{r:?}");
    assert_eq!(ignored(), 0, "the forwarder's role was honoured");
    spec.forward_headers.clear();
    let r = h.run(&spec, Role::Reader, "read.py", &source).await;
    assert!(r.stdout.text.contains("read"), "{r:?}");
    assert_eq!(
        ignored(),
        1,
        "without the secret the role header is dropped"
    );
}
