//! Role rules, sid pinning, home-directory access, the reward protocol end to end, output bounds,
//! the venv fallback and the missing-bubblewrap path. State-API traffic goes to a recording
//! stand-in upstream (`_standin` tests), not the real server.

use crate::sandbox_support;

use sandbox_support::*;
use tuplewright::engine::sandbox::{
    parse_reward, reward_from_run, run_script, Isolation, Limits, Outcome, RewardError, Role,
    SandboxConfig, SandboxError, Script,
};

/// A script sending each (method, path, body) and printing `<status> <method> <path>` per request.
fn requests_script(reqs: &[(&str, &str, Option<&str>)]) -> String {
    let list = serde_json::to_string(reqs).unwrap();
    format!(
        r#"
import json, os, urllib.request, urllib.error
base = os.environ["TW_STATE_URL"]
for method, path, body in json.loads({list:?}):
    data = body.encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={{"Content-Type": "application/json", "X-Tuplewright-Role": "setup"}})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            print(r.status, method, path)
    except urllib.error.HTTPError as e:
        err = json.loads(e.read())
        assert set(err) == {{"error", "detail"}}, err
        print(e.code, method, path)
"#
    )
}

fn statuses(out: &str) -> Vec<u16> {
    out.lines()
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

const SET: &str = r#"{"action": "set", "state": {"a": 1}}"#;
const MERGE: &str = r#"{"action": "merge", "state": {"a": 2}}"#;
const SET_CURRENT: &str = r#"{"action": "set_current", "state": {"a": 3}}"#;
const RESET: &str = r#"{"action": "reset", "state": {}}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roles_are_enforced_and_role_header_is_overwritten_standin() {
    let env = Env::new();
    let up = StandIn::start().await;
    let spec = env.spec("s1", Some(up.addr));
    let reqs = [
        ("GET", "/health", None),
        ("GET", "/go?sid=s1", None),
        ("GET", "/state?sid=s1", None),
        ("GET", "/files/s1/report.csv", None),
        ("POST", "/post?sid=s1", Some(SET)),
        ("POST", "/post?sid=s1", Some(MERGE)),
        ("POST", "/post?sid=s1", Some(SET_CURRENT)),
        ("POST", "/post?sid=s1", Some(RESET)),
        ("POST", "/upload?sid=s1", Some("{}")),
        ("DELETE", "/session?sid=s1", None),
        ("GET", "/admin", None),
    ];
    let script = requests_script(&reqs);
    let expect = [
        (
            Role::Setup,
            [200, 200, 200, 200, 200, 200, 200, 200, 200, 403, 403],
        ),
        (
            Role::Golden,
            [200, 200, 200, 200, 403, 200, 200, 403, 200, 403, 403],
        ),
        (
            Role::Reader,
            [200, 200, 200, 200, 403, 403, 403, 403, 403, 403, 403],
        ),
    ];
    for (role, want) in expect {
        let before = up.seen().len();
        let r = run(&spec, role, &script, &limits(30.0)).await;
        assert_eq!(r.outcome, Outcome::Ok, "{role}: {r:?}");
        assert_eq!(statuses(&r.stdout.text), want, "{role}: {}", r.stdout.text);
        let refused = want.iter().filter(|s| **s == 403).count();
        assert_eq!(r.refused.len(), refused, "{role}: {:?}", r.refused);
        assert_eq!(r.forwarded as usize, want.len() - refused);
        let seen = up.seen();
        assert_eq!(seen.len() - before, want.len() - refused);
        for s in &seen[before..] {
            assert_eq!(s.role.as_deref(), Some(role.as_str()), "{s:?}");
        }
    }
    let bodies: Vec<String> = up.seen().iter().map(|s| s.body.clone()).collect();
    assert!(
        bodies.contains(&SET.to_string()),
        "body not forwarded intact"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_for_another_sid_are_refused_standin() {
    let env = Env::new();
    let up = StandIn::start().await;
    let reqs = [
        ("GET", "/go?sid=other", None),
        ("GET", "/go?sid=mine&sid=other", None),
        ("GET", "/go", None),
        ("GET", "/files/other/a.txt", None),
        ("GET", "/files/mine/../other/a.txt", None),
        ("GET", "/files/mine/%2e%2e/other", None),
        ("POST", "/post?sid=other", Some(SET)),
        ("GET", "/go?sid=mine", None),
    ];
    let r = run(
        &env.spec("mine", Some(up.addr)),
        Role::Setup,
        &requests_script(&reqs),
        &limits(30.0),
    )
    .await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(
        statuses(&r.stdout.text),
        [403, 403, 403, 403, 403, 403, 403, 200]
    );
    assert_eq!(r.refused.len(), 7);
    let seen = up.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].target, "/go?sid=mine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conventional_localhost_port_and_sid_file_work_standin() {
    let env = Env::new();
    let up = StandIn::start().await;
    let src = r#"
import json, os, urllib.request
sid = open("/tmp/task_web_sid").read().strip()
assert sid == os.environ["TW_SID"] == "abc", sid
assert os.environ["TW_APP"] == "team-chat"
assert os.environ["TW_STATE_URL"] == "http://localhost:3000"
with urllib.request.urlopen("http://localhost:3000/go?sid=" + sid, timeout=10) as r:
    print(json.loads(r.read())["target"])
import tw_reward
print(tw_reward.go()["standin"])
"#;
    let r = run(
        &env.spec("abc", Some(up.addr)),
        Role::Reader,
        src,
        &limits(30.0),
    )
    .await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(r.stdout.text, "/go?sid=abc\nTrue\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reader_home_is_read_only_setup_home_is_writable() {
    let env = Env::new();
    std::fs::write(env.home.join("doc.txt"), "hello").unwrap();
    let src = r#"
print(open("/home/user/doc.txt").read())
try:
    open("/home/user/new.txt", "w").write("x")
    print("WROTE")
except OSError as e:
    print("refused", e.errno)
"#;
    let r = run(&env.spec("h", None), Role::Reader, src, &limits(30.0)).await;
    assert_eq!(r.stdout.text, "hello\nrefused 30\n", "{r:?}");
    assert!(!env.home.join("new.txt").exists());
    let r = run(&env.spec("h", None), Role::Golden, src, &limits(30.0)).await;
    assert_eq!(r.stdout.text, "hello\nWROTE\n", "{r:?}");
    assert_eq!(read(&env.home.join("new.txt")), "x");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reward_helper_output_parses_and_missing_reward_is_an_error() {
    let env = Env::new();
    let src = r#"
import tw_reward as tw
r = tw.Rubric()
r.add("title renamed", 0.6, True, "title == 'Q3'")
r.add("owner kept", 0.4, 0.5)
r.finish()
"#;
    let r = run(&env.spec("rw", None), Role::Reader, src, &limits(30.0)).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let rep = parse_reward(&r.stdout.text).unwrap();
    assert!((rep.score - 0.8).abs() < 1e-9);
    assert_eq!(rep.components.len(), 2);
    assert_eq!(rep.components[1].weight, Some(0.4));
    let r = run(
        &env.spec("rw", None),
        Role::Reader,
        "print('all good')",
        &limits(30.0),
    )
    .await;
    assert_eq!(parse_reward(&r.stdout.text), Err(RewardError::Missing));
    let r = run(
        &env.spec("rw", None),
        Role::Reader,
        "import tw_reward\ntw_reward.reward(1.5)",
        &limits(30.0),
    )
    .await;
    assert_eq!(r.outcome, Outcome::ExitCode { code: 1 });
    assert!(r.stderr.text.contains("must be a number in [0, 1]"));
    let r = run(
        &env.spec("rw", None),
        Role::Reader,
        "print('REWARD: 1.0')\nraise SystemExit(2)",
        &limits(30.0),
    )
    .await;
    assert!(
        matches!(reward_from_run(&r), Err(RewardError::ScriptFailed { .. })),
        "{r:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_stdout_is_truncated_but_final_reward_line_survives() {
    let env = Env::new();
    let l = Limits {
        capture_bytes: 64 * 1024,
        ..limits(30.0)
    };
    let src = "import sys\nfor i in range(200000):\n    print('noise', i)\nprint('REWARD: 0.25')\n";
    let r = run(&env.spec("big", None), Role::Reader, src, &l).await;
    assert_eq!(r.outcome, Outcome::Ok);
    assert!(r.stdout.truncated);
    assert!(r.stdout.total_bytes > 1_000_000);
    assert!(r.stdout.text.len() < 80 * 1024);
    assert_eq!(parse_reward(&r.stdout.text).unwrap().score, 0.25);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_venv_falls_back_to_debian_python_with_a_note() {
    let env = Env::new();
    let cfg = SandboxConfig {
        venv_dir: "/nonexistent/tw-venv".into(),
        ..config()
    };
    let script = Script {
        name: "v.py".into(),
        source: "import sys; print(sys.executable)".into(),
    };
    let r = run_script(
        &cfg,
        &env.spec("v", None),
        Role::Reader,
        &script,
        &limits(30.0),
        Isolation::Required,
    )
    .await
    .unwrap();
    assert_eq!(r.stdout.text.trim(), "/usr/bin/python3");
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("virtualenv") && n.contains("missing")),
        "{:?}",
        r.notes
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_bubblewrap_is_a_typed_error_unless_unsafe_is_explicit() {
    let env = Env::new();
    let cfg = SandboxConfig {
        bwrap_path: "/nonexistent/bwrap".into(),
        ..SandboxConfig::default()
    };
    let script = Script {
        name: "u.py".into(),
        source: "import os; print(os.getcwd())".into(),
    };
    let spec = env.spec("u", None);
    let err = run_script(
        &cfg,
        &spec,
        Role::Reader,
        &script,
        &limits(30.0),
        Isolation::Required,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, SandboxError::Unavailable { .. }));
    let msg = err.to_string();
    assert!(
        msg.contains("apt-get install bubblewrap") && msg.contains("--unsafe-no-sandbox"),
        "{msg}"
    );
    let r = run_script(
        &cfg,
        &spec,
        Role::Reader,
        &script,
        &limits(30.0),
        Isolation::UnsafeNoSandbox,
    )
    .await
    .unwrap();
    assert!(r.unsandboxed);
    assert!(r.notes.iter().any(|n| n.starts_with("UNSANDBOXED")));
    assert_eq!(r.stdout.text.trim(), env.home.to_str().unwrap());
}

#[test]
fn cli_reports_sandbox_unavailable_as_json_with_exit_3() {
    let env = Env::new();
    let script = env.root.path().join("s.py");
    std::fs::write(&script, "print(1)").unwrap();
    let out = assert_cmd::Command::cargo_bin("tuplewright")
        .unwrap()
        .args([
            "sandbox",
            "run",
            "--role",
            "reader",
            "--bwrap",
            "/nonexistent/bwrap",
            "--home",
        ])
        .arg(&env.home)
        .arg(&script)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outcome"]["kind"], "sandbox_unavailable");
}

#[test]
fn cli_runs_a_reward_script_and_prints_the_typed_result() {
    let env = Env::new();
    let script = env.root.path().join("reward.py");
    std::fs::write(&script, "print('PASS: a')\nprint('REWARD: 1.0')\n").unwrap();
    let out = assert_cmd::Command::cargo_bin("tuplewright")
        .unwrap()
        .args(["sandbox", "run", "--role", "reader", "--reward", "--home"])
        .arg(&env.home)
        .arg(&script)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outcome"]["kind"], "ok");
    assert_eq!(v["unsandboxed"], false);
    assert_eq!(v["reward"]["score"], 1.0);
    assert_eq!(v["reward"]["components"][0]["source"], "pass");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_bodies_cross_the_relay_intact_both_ways_standin() {
    let env = Env::new();
    let up = StandIn::start().await;
    let src = r#"
import json, os, urllib.request
base = os.environ["TW_STATE_URL"]
with urllib.request.urlopen(base + "/go?sid=big&big=1", timeout=20) as r:
    print(len(json.loads(r.read())["big"]))
body = json.dumps({"action": "merge", "state": {"blob": "y" * (3 << 20)}}).encode()
req = urllib.request.Request(base + "/post?sid=big", data=body, headers={"Content-Type": "application/json"})
with urllib.request.urlopen(req, timeout=20) as r:
    print(json.loads(r.read())["body_len"] == len(body))
"#;
    let r = run(
        &env.spec("big", Some(up.addr)),
        Role::Golden,
        src,
        &limits(60.0),
    )
    .await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(r.stdout.text, format!("{}\nTrue\n", 2 << 20));
    let too_big = "import urllib.request, urllib.error, os\nreq = urllib.request.Request(os.environ['TW_STATE_URL'] + '/upload?sid=big', data=b'z' * (20 << 20))\ntry:\n    urllib.request.urlopen(req, timeout=20)\nexcept urllib.error.HTTPError as e:\n    print(e.code)\n";
    let r = run(
        &env.spec("big", Some(up.addr)),
        Role::Golden,
        too_big,
        &limits(60.0),
    )
    .await;
    assert_eq!(r.stdout.text.trim(), "413", "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_lines_stream_live_while_the_script_runs() {
    use tuplewright::engine::sandbox::{run_script_streaming, Stream};
    let env = Env::new();
    let spec = env.spec("live", None);
    let (tx, mut rx) = tokio::sync::mpsc::channel(64);
    let src = "import sys, time\nprint('first')\ntime.sleep(1.5)\nprint('oops', file=sys.stderr)\nprint('second')\n";
    let task = tokio::spawn(async move {
        let script = Script {
            name: "live.py".into(),
            source: src.into(),
        };
        run_script_streaming(
            &config(),
            &spec,
            Role::Reader,
            &script,
            &limits(30.0),
            Isolation::Required,
            Some(tx),
        )
        .await
        .unwrap()
    });
    let first = tokio::time::timeout(std::time::Duration::from_secs(10), rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (first.stream, first.line.as_str()),
        (Stream::Stdout, "first")
    );
    assert!(
        !task.is_finished(),
        "the first line only arrived after the run ended"
    );
    let r = task.await.unwrap();
    let mut rest = Vec::new();
    while let Some(l) = rx.recv().await {
        rest.push((l.stream, l.line));
    }
    assert!(
        rest.contains(&(Stream::Stderr, "oops".to_string())),
        "{rest:?}"
    );
    assert!(
        rest.contains(&(Stream::Stdout, "second".to_string())),
        "{rest:?}"
    );
    assert_eq!(r.stdout.text, "first\nsecond\n");
}
