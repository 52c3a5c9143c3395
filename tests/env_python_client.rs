//! Runs the standard-library Python client (`tests/python/state_api_client.py`, with Debian's
//! /usr/bin/python3) against `tuplewright env serve --app team-chat` started as a subprocess,
//! then stops the server with SIGINT and checks it exits cleanly.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn python_stdlib_client_passes_against_env_serve_team_chat() {
    let python = std::path::Path::new("/usr/bin/python3");
    assert!(
        python.exists(),
        "this test needs Debian's /usr/bin/python3 (apt-get install python3)"
    );
    let state = tempfile::tempdir().unwrap();
    let mut server = Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .args([
            "env",
            "serve",
            "--app",
            "team-chat",
            "--port",
            "0",
            "--state-dir",
        ])
        .arg(state.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let announced: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(announced["app"], "team-chat");
    let url = announced["url"].as_str().unwrap().to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");

    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/state_api_client.py"
    );
    let out = Command::new(python).arg(script).arg(&url).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // SAFETY: kill(2) on the pid of the child we spawned (still unreaped); no memory is involved.
    let pid = i32::try_from(server.id()).unwrap();
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let status = server.wait().unwrap();
    assert!(
        out.status.success(),
        "python client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("ALL OK")),
        "{stdout}"
    );
    assert!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count() >= 30,
        "{stdout}"
    );
    assert!(status.success(), "server exit after Ctrl-C: {status:?}");
}
