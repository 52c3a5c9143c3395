//! Sandbox set-up overhead: median wall time of `run_script` on a `pass` script versus a bare
//! `python3 -c pass` with the same interpreter (target: at most 50 ms above). Needs bubblewrap
//! and root (scripts run as non-root uids from the sandbox uid pool). Run: `cargo bench --bench sandbox`.

use std::process::Command;
use std::time::{Duration, Instant};

use tuplewright::engine::sandbox::{
    run_script, Isolation, Limits, Outcome, Role, SandboxConfig, SandboxSpec, Script,
};

const RUNS: usize = 40;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn bare_once(python: &str) -> Duration {
    let t = Instant::now();
    let st = Command::new(python)
        .args(["-c", "pass"])
        .status()
        .expect("python runs");
    assert!(st.success());
    t.elapsed()
}

/// A scratch home the sandbox uid can reach.
fn scratch_home() -> (tempfile::TempDir, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::Builder::new()
        .prefix("tw-bench-")
        .tempdir()
        .expect("tempdir");
    std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let home = root.path().join("home");
    std::fs::create_dir(&home).expect("home");
    (root, home)
}

fn sandboxed_once(
    rt: &tokio::runtime::Runtime,
    cfg: &SandboxConfig,
    spec: &SandboxSpec,
) -> Duration {
    let script = Script {
        name: "pass.py".into(),
        source: "pass\n".into(),
    };
    let t = Instant::now();
    let r = rt
        .block_on(run_script(
            cfg,
            spec,
            Role::Reader,
            &script,
            &Limits::default(),
            Isolation::Required,
        ))
        .expect("sandbox runs");
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    t.elapsed()
}

fn p90(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() * 9 / 10]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let upstream = rt.block_on(async {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = l.local_addr().expect("addr");
        tokio::spawn(async move {
            let _ = axum::serve(l, axum::Router::new()).await;
        });
        addr
    });
    let debian = SandboxConfig {
        venv_dir: "/nonexistent/no-venv".into(),
        ..SandboxConfig::default()
    };
    let venv = SandboxConfig::default();
    let venv_python = venv.venv_dir.join("bin/python3");
    let have_venv = venv_python.exists();
    let (_root, home) = scratch_home();
    let spec = |upstream| SandboxSpec {
        home: home.clone(),
        sid: "bench".into(),
        app: "bench".into(),
        upstream,
        api_port: 3000,
        extra_apis: vec![],
        hand_home_to_reader: true,
        localise: Default::default(),
        forward_headers: Default::default(),
        display: None,
        run_as: None,
    };
    let (plain, fwd) = (spec(None), spec(Some(upstream)));
    // Interleaved so machine-load drift hits every variant alike; 3 warm-up rounds are discarded.
    let mut t: [Vec<Duration>; 5] = Default::default();
    for i in 0..RUNS + 3 {
        let round = [
            bare_once("/usr/bin/python3"),
            sandboxed_once(&rt, &debian, &plain),
            sandboxed_once(&rt, &debian, &fwd),
            if have_venv {
                bare_once(venv_python.to_str().unwrap_or("/usr/bin/python3"))
            } else {
                Duration::ZERO
            },
            if have_venv {
                sandboxed_once(&rt, &venv, &fwd)
            } else {
                Duration::ZERO
            },
        ];
        if i >= 3 {
            for (v, d) in t.iter_mut().zip(round) {
                v.push(d);
            }
        }
    }
    let [b, s, f, bv, sv] = t;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("sandbox set-up overhead, {RUNS} interleaved runs each (median / p90)");
    println!(
        "  load average (1/5/15 min): {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let row = |name: &str, v: &Vec<Duration>, base: Option<Duration>| {
        let m = median(v.clone());
        let extra = base
            .map(|b| format!("  overhead {:+.1} ms", ms(m) - ms(b)))
            .unwrap_or_default();
        println!(
            "  {name:<40} {:6.1} / {:6.1} ms{extra}",
            ms(m),
            ms(p90(v.clone()))
        );
    };
    let (mb, mbv) = (median(b.clone()), median(bv.clone()));
    row("bare /usr/bin/python3 -c pass", &b, None);
    row("sandboxed (no state API)", &s, Some(mb));
    row("sandboxed (with state-API forwarder)", &f, Some(mb));
    if have_venv {
        row("bare venv python3 -c pass", &bv, None);
        row("sandboxed venv (with forwarder)", &sv, Some(mbv));
    }
    let worst = ms(median(f)) - ms(mb);
    println!(
        "target: overhead <= 50 ms -> {}",
        if worst <= 50.0 { "MET" } else { "MISSED" }
    );
}
