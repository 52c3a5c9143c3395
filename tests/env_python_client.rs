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

/// Extracts the ```python blocks of an app pack's SKILL.md: (helper = first block of section 1,
/// setup = section 3, golden = first block of section 4, reward = section 5).
fn skill_scripts(app: &str) -> [String; 4] {
    // Each app's SKILL.md lives in its pack (crates/engine/src/apps/<module>/).
    let module = app.replace('-', "_");
    let path = format!(
        "{}/crates/engine/src/apps/{module}/SKILL.md",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut section = 0;
    let mut blocks: Vec<(u32, String)> = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("## ") {
            section = rest[..1].parse().unwrap_or(0);
        }
        match (&mut current, line) {
            (None, "```python") => current = Some(String::new()),
            (Some(_), "```") => blocks.push((section, current.take().unwrap())),
            (Some(buf), l) => {
                buf.push_str(l);
                buf.push('\n');
            }
            _ => {}
        }
    }
    let first = |s: u32| {
        blocks
            .iter()
            .find(|(sec, _)| *sec == s)
            .map(|(_, b)| b.clone())
            .unwrap_or_default()
    };
    [first(1), first(3), first(4), first(5)]
}

fn run_python(code: &str) -> (bool, String) {
    let out = Command::new("/usr/bin/python3")
        .arg("-c")
        .arg(code)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn reward_of(output: &str) -> f64 {
    let last = output
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    last.strip_prefix("REWARD: ")
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no REWARD line:\n{output}"))
}

#[test]
fn skill_md_templates_run_and_separate_initial_from_golden() {
    use tuplewright::engine::env::{self, AppRegistry, ServerConfig};
    let state = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let reg = AppRegistry::builtin().unwrap();
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: state.path().to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    };
    let handle = rt.block_on(env::spawn(cfg, reg.served())).unwrap();
    for app in ["team-chat", "mail", "issue-tracker", "ecommerce-admin"] {
        let [helper, setup, golden, reward] = skill_scripts(app);
        assert!(
            !setup.is_empty() && !golden.is_empty() && !reward.is_empty(),
            "{app}"
        );
        let port = reg.get(app).unwrap().manifest.port.unwrap();
        let url = handle.url(app).unwrap();
        let script = |sid: &str, body: &str| {
            helper
                .replace(
                    r#"open("/tmp/task_web_sid").read().strip()"#,
                    &format!("{sid:?}"),
                )
                .replace(&format!("http://localhost:{port}"), &url)
                + body
        };
        for sid in ["init-env", "gold-env"] {
            let (ok, out) = run_python(&script(sid, &setup));
            assert!(ok, "{app} setup failed:\n{out}");
        }
        let (ok, out) = run_python(&script("gold-env", &golden));
        assert!(ok, "{app} golden failed:\n{out}");
        let (ok, gold) = run_python(&script("gold-env", &reward));
        assert!(ok, "{app} reward failed:\n{gold}");
        let (ok, init) = run_python(&script("init-env", &reward));
        assert!(ok, "{app} reward failed:\n{init}");
        assert_eq!(reward_of(&gold), 1.0, "{app} golden reward:\n{gold}");
        assert!(reward_of(&init) < 0.5, "{app} initial reward:\n{init}");
    }
    rt.block_on(handle.shutdown());

    // The files domain: the same flow on two provisioned homes.
    let [_, setup, golden, reward] = skill_scripts("files");
    let homes = tempfile::tempdir().unwrap();
    let mut rewards = Vec::new();
    for (name, apply_golden) in [("init", false), ("gold", true)] {
        let home = homes.path().join(name);
        env::files::provision_home(&home, None).unwrap();
        let at_home = |code: &str| code.replace("/home/user", &home.display().to_string());
        let (ok, out) = run_python(&at_home(&setup));
        assert!(ok, "files setup:\n{out}");
        if apply_golden {
            let (ok, out) = run_python(&at_home(&golden));
            assert!(ok, "files golden:\n{out}");
        }
        let (ok, out) = run_python(&at_home(&reward));
        assert!(ok, "files reward:\n{out}");
        rewards.push(reward_of(&out));
    }
    assert_eq!(rewards, [0.0, 1.0]);
}

#[test]
fn cli_lists_apps_and_rejects_bad_serve_requests() {
    let bin = assert_cmd::cargo::cargo_bin("tuplewright");
    let out = Command::new(&bin)
        .args(["env", "apps", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = lines.iter().filter_map(|l| l["name"].as_str()).collect();
    // Every built-in app, sorted by name: the hand-written ones, the desktop applications and the
    // spec-built web apps.
    let mut every = tuplewright::apps::names();
    every.sort_unstable();
    assert_eq!(names, every);
    for app in [
        "ecommerce-admin",
        "files",
        "issue-tracker",
        "mail",
        "team-chat",
        "todo",
    ] {
        assert!(names.contains(&app), "{app}");
    }
    let chat = lines.iter().find(|l| l["name"] == "team-chat").unwrap();
    assert_eq!(chat["port"], 3101);
    for (args, needle) in [
        (vec!["--app", "slack"], "unknown app \"slack\""),
        (vec!["--app", "files"], "has no state API"),
    ] {
        let out = Command::new(&bin)
            .args(["env", "serve", "--port", "0"])
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(needle),
            "{args:?}: {err}"
        );
    }
}
