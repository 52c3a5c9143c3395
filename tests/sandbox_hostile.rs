//! Hostile scripts against the real bubblewrap sandbox: each is contained, typed, and the engine
//! still runs scripts afterwards. Needs bubblewrap and root (CI runs `.ci/setup` as root).
//! Tests are serialised: they share the sandbox uid, whose process count the fork bomb fills.

use crate::sandbox_support;

use std::time::{Duration, Instant};

use sandbox_support::*;
use tuplewright::engine::sandbox::RunResult;

/// Nothing of the run survives it: no live process carries its sid, and its pid 1 is reaped
/// (not left as a zombie of the host's init, which would count against RLIMIT_NPROC).
fn assert_nothing_survives(sid: &str, r: &RunResult) {
    assert!(
        processes_of_sid(sid).is_empty(),
        "processes of {sid} survived: {:?}",
        processes_of_sid(sid)
    );
    let pid = r.sandbox_pid.expect("bwrap reported the sandbox pid");
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "sandbox pid 1 ({pid}) not reaped"
    );
}
use tuplewright::engine::sandbox::{LimitKind, Limits, Outcome, Role};

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn infinite_loop_is_killed_at_the_wall_timeout() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let t = Instant::now();
    let sid = unique_sid("loop");
    let r = run(
        &env.spec(&sid, None),
        Role::Reader,
        "while True:\n    pass\n",
        &limits(1.5),
    )
    .await;
    assert_eq!(r.outcome, Outcome::Timeout { after_seconds: 1.5 });
    assert!(t.elapsed() < Duration::from_secs(10));
    assert_nothing_survives(&sid, &r);
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cpu_limit_is_typed() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let l = Limits {
        cpu_seconds: 1,
        ..limits(30.0)
    };
    let r = run(
        &env.spec("cpu", None),
        Role::Reader,
        "while True:\n    pass\n",
        &l,
    )
    .await;
    assert_eq!(
        r.outcome,
        Outcome::LimitExceeded {
            limit: LimitKind::Cpu
        },
        "{r:?}"
    );
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fork_bomb_hits_the_process_limit_and_nothing_survives() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let l = Limits {
        processes: 40,
        ..limits(30.0)
    };
    let src = "import os\nwhile True:\n    os.fork()\n";
    let sid = unique_sid("bomb");
    let r = run(&env.spec(&sid, None), Role::Setup, src, &l).await;
    assert_eq!(
        r.outcome,
        Outcome::LimitExceeded {
            limit: LimitKind::Processes
        },
        "{r:?}"
    );
    assert_nothing_survives(&sid, &r);
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_gigabyte_write_stops_at_the_file_size_limit() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let l = Limits {
        file_size_bytes: 8 << 20,
        ..limits(60.0)
    };
    let src = "chunk = b'x' * (1 << 20)\nwith open('/home/user/big.bin', 'wb') as f:\n    for _ in range(10 * 1024):\n        f.write(chunk)\n";
    let r = run(&env.spec("big", None), Role::Setup, src, &l).await;
    assert_eq!(
        r.outcome,
        Outcome::LimitExceeded {
            limit: LimitKind::FileSize
        },
        "{r:?}"
    );
    let size = std::fs::metadata(env.home.join("big.bin")).unwrap().len();
    assert!(size <= 8 << 20, "file grew to {size}");
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_secrets_and_other_environments_are_unreadable() {
    let _g = SERIAL.lock().await;
    assert!(
        std::path::Path::new("/etc/shadow").exists(),
        "host has no /etc/shadow to protect"
    );
    let env = Env::new();
    let other = Env::new();
    std::fs::write(other.home.join("secret.txt"), "other env secret").unwrap();
    let other_secret = other.home.join("secret.txt");
    let src = format!(
        r#"
import json, os
results = {{}}
for path in ["/etc/shadow", "{other}", "/root/.bashrc", "/work", "/proc/1/root/etc/shadow"]:
    try:
        with open(path) as f:
            results[path] = "READ:" + f.read(40)
    except Exception as e:
        results[path] = type(e).__name__
import subprocess
nested = subprocess.run(["unshare", "--user", "--map-root-user", "true"], capture_output=True)
results["nested user namespace"] = "WROTE" if nested.returncode == 0 else "refused"
for path in ["/usr/tw_pwned", "/etc/passwd", "/tmp/.tw/lib/tw_reward.py"]:
    try:
        with open(path, "a") as f:
            f.write("x")
        results["write " + path] = "WROTE"
    except Exception as e:
        results["write " + path] = type(e).__name__
print(json.dumps(results))
"#,
        other = other_secret.display()
    );
    let r = run(&env.spec("peek", None), Role::Setup, &src, &limits(30.0)).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(r.stdout.text.trim()).unwrap();
    for (k, res) in v.as_object().unwrap() {
        let res = res.as_str().unwrap();
        assert!(!res.starts_with("READ:") && res != "WROTE", "{k} -> {res}");
    }
    assert!(!std::path::Path::new("/usr/tw_pwned").exists());
    assert_eq!(read(&other_secret), "other env secret");
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outside_network_connections_fail_even_to_host_loopback() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    // A host service the script must NOT reach (the sandbox's 127.0.0.1 is its own namespace).
    let host = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    host.set_nonblocking(true).unwrap();
    let port = host.local_addr().unwrap().port();
    let upstream = StandIn::start().await;
    let src = format!(
        r#"
import socket
for port in ({port}, {up}):
    s = socket.socket()
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port))
        print("CONNECTED", port)
    except OSError as e:
        print("refused", port, type(e).__name__)
"#,
        up = upstream.addr.port()
    );
    let r = run(
        &env.spec("net", Some(upstream.addr)),
        Role::Setup,
        &src,
        &limits(30.0),
    )
    .await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert!(!r.stdout.text.contains("CONNECTED"), "{}", r.stdout.text);
    assert!(host.accept().is_err(), "the host listener got a connection");
    assert!(upstream.seen().is_empty());
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn detached_setsid_child_dies_with_the_run() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let src = r#"
import subprocess, sys, time
child = "import os, time\nwhile True:\n    open('/home/user/beat.tmp', 'w').write(str(time.time()))\n    os.replace('/home/user/beat.tmp', '/home/user/beat')\n    time.sleep(0.05)\n"
import os
subprocess.Popen([sys.executable, "-c", child], start_new_session=True,
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while not os.path.exists('/home/user/beat'):
    time.sleep(0.01)
while True:
    time.sleep(1)
"#;
    let sid = unique_sid("detach");
    // The parent waits for the child's first beat, so a slow start on a loaded machine cannot
    // leave the beat file missing; the run still ends by its timeout with the child running. The
    // child renames each beat into place, so a kill between truncate and write cannot leave an
    // empty file either (the failure seen under load).
    let r = run(&env.spec(&sid, None), Role::Setup, src, &limits(4.0)).await;
    assert_eq!(r.outcome, Outcome::Timeout { after_seconds: 4.0 });
    let beat = env.home.join("beat");
    let first = read(&beat);
    assert!(!first.is_empty(), "the detached child never ran");
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(read(&beat), first, "the detached child is still writing");
    assert_nothing_survives(&sid, &r);
    // Same child, but the parent exits 0 right away: the child must not outlive the run either.
    std::fs::remove_file(&beat).unwrap();
    let quick = src.replace("while True:\n    time.sleep(1)\n", "print('parent done')\n");
    let r = run(&env.spec(&sid, None), Role::Setup, &quick, &limits(20.0)).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let first = read(&beat);
    assert!(!first.is_empty(), "the detached child never ran");
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        read(&beat),
        first,
        "the detached child outlived its parent's run"
    );
    assert_nothing_survives(&sid, &r);
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reader_write_to_state_api_is_refused_recorded_and_never_forwarded_standin() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let upstream = StandIn::start().await;
    let src = r#"
import json, os, urllib.request, urllib.error
sid = open("/tmp/task_web_sid").read().strip()
body = json.dumps({"action": "set_current", "state": {"hacked": True}}).encode()
req = urllib.request.Request(os.environ["TW_STATE_URL"] + "/post?sid=" + sid, data=body,
                             headers={"Content-Type": "application/json", "X-Tuplewright-Role": "setup"})
try:
    urllib.request.urlopen(req, timeout=10)
    print("WRITE ACCEPTED")
except urllib.error.HTTPError as e:
    print(e.code, json.loads(e.read())["error"])
"#;
    let r = run(
        &env.spec("ro", Some(upstream.addr)),
        Role::Reader,
        src,
        &limits(30.0),
    )
    .await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(r.stdout.text.trim(), "403 forbidden");
    assert_eq!(r.refused.len(), 1);
    assert_eq!(r.refused[0].action.as_deref(), Some("set_current"));
    assert!(
        upstream.seen().is_empty(),
        "the stand-in upstream received {:?}",
        upstream.seen()
    );
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_and_open_file_limits_are_typed() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let l = Limits {
        address_space_bytes: 256 << 20,
        ..limits(30.0)
    };
    let r = run(
        &env.spec("mem", None),
        Role::Reader,
        "x = bytearray(2 << 30)\n",
        &l,
    )
    .await;
    assert_eq!(
        r.outcome,
        Outcome::LimitExceeded {
            limit: LimitKind::Memory
        },
        "{r:?}"
    );
    let l = Limits {
        open_files: 32,
        ..limits(30.0)
    };
    let src = "fs = [open('/dev/null') for _ in range(1000)]\n";
    let r = run(&env.spec("fds", None), Role::Reader, src, &l).await;
    assert_eq!(
        r.outcome,
        Outcome::LimitExceeded {
            limit: LimitKind::OpenFiles
        },
        "{r:?}"
    );
    // /tmp is a private tmpfs (memory): bounded by tmp_bytes, not by the host's RAM.
    let l = Limits {
        tmp_bytes: 4 << 20,
        ..limits(30.0)
    };
    let src = "with open('/tmp/fill', 'wb') as f:\n    for _ in range(64):\n        f.write(b'x' * (1 << 20))\n        f.flush()\n";
    let r = run(&env.spec("tmp", None), Role::Reader, src, &l).await;
    assert_eq!(
        r.outcome,
        Outcome::LimitExceeded {
            limit: LimitKind::DiskSpace
        },
        "{r:?}"
    );
    assert_still_healthy(&env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn descriptors_leaked_by_the_engine_do_not_reach_the_script() {
    use std::os::unix::io::AsRawFd;
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let secret = env.root.path().join("engine.db");
    std::fs::write(&secret, "engine store contents").unwrap();
    let file = std::fs::File::open(&secret).unwrap();
    let fd = file.as_raw_fd();
    // Make the descriptor inheritable, as a careless library might.
    assert_eq!(unsafe { libc::fcntl(fd, libc::F_SETFD, 0) }, 0);
    let src = format!(
        "import os\ntry:\n    print(os.read({fd}, 100))\nexcept OSError as e:\n    print('closed', e.errno)\n"
    );
    let r = run(&env.spec("fd", None), Role::Reader, &src, &limits(30.0)).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(r.stdout.text.trim(), "closed 9", "{r:?}");
    // The same protection holds on the unsandboxed path.
    let cfg = tuplewright::engine::sandbox::SandboxConfig {
        bwrap_path: "/nonexistent/bwrap".into(),
        ..config()
    };
    let script = tuplewright::engine::sandbox::Script {
        name: "fd.py".into(),
        source: src,
    };
    let r = tuplewright::engine::sandbox::run_script(
        &cfg,
        &env.spec("fd", None),
        Role::Reader,
        &script,
        &limits(30.0),
        tuplewright::engine::sandbox::Isolation::UnsafeNoSandbox,
    )
    .await
    .unwrap();
    assert!(r.unsandboxed);
    assert_eq!(r.stdout.text.trim(), "closed 9", "{r:?}");
    drop(file);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_bomb_does_not_starve_a_concurrent_run() {
    let _g = SERIAL.lock().await;
    let (bomb_env, calm_env) = (Env::new(), Env::new());
    let l = Limits {
        processes: 40,
        ..limits(4.0)
    };
    let bomb_sid = unique_sid("sustained-bomb");
    let bomb_spec = bomb_env.spec(&bomb_sid, None);
    let bomb_src = "import os, time\nprint(os.getuid(), flush=True)\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        time.sleep(0.01)\n";
    let bomb = tokio::spawn(async move { run(&bomb_spec, Role::Setup, bomb_src, &l).await });
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let calm_src = "import os, subprocess, sys\nprocs = [subprocess.Popen([sys.executable, '-c', 'pass']) for _ in range(10)]\nprint(os.getuid(), all(p.wait() == 0 for p in procs))\n";
    let l = Limits {
        processes: 40,
        ..limits(30.0)
    };
    let calm = run(&calm_env.spec("calm", None), Role::Setup, calm_src, &l).await;
    let bomb = bomb.await.unwrap();
    assert_eq!(
        bomb.outcome,
        Outcome::Timeout { after_seconds: 4.0 },
        "{bomb:?}"
    );
    assert_eq!(calm.outcome, Outcome::Ok, "{calm:?}");
    let calm_line: Vec<&str> = calm.stdout.text.split_whitespace().collect();
    assert_eq!(calm_line[1], "True");
    assert_ne!(
        bomb.stdout.text.lines().next(),
        Some(calm_line[0]),
        "both runs shared a uid"
    );
    assert_nothing_survives(&bomb_sid, &bomb);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reward_reads_a_private_file_the_setup_script_created() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let setup = "import os\nfd = os.open('/home/user/private.json', os.O_WRONLY | os.O_CREAT, 0o600)\nos.write(fd, b'{\"ok\": 1}')\nos.close(fd)\n";
    let r = run(&env.spec("priv", None), Role::Setup, setup, &limits(30.0)).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let reward = "print(open('/home/user/private.json').read())\n";
    let r = run(&env.spec("priv", None), Role::Reader, reward, &limits(30.0)).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(r.stdout.text.trim(), "{\"ok\": 1}");
}
