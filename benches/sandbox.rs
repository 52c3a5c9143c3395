//! Sandbox set-up overhead: median wall time of `run_script` on a `pass` script versus a bare
//! `python3 -c pass` with the same interpreter (target: at most 50 ms above). Needs bubblewrap
//! and root (scripts run as uid 65534). Run: `cargo bench --bench sandbox`.

use std::net::SocketAddr;
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

fn bare(python: &str) -> Duration {
    let mut times = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let st = Command::new(python)
            .args(["-c", "pass"])
            .status()
            .expect("python runs");
        assert!(st.success());
        times.push(t.elapsed());
    }
    median(times)
}

fn sandboxed(
    rt: &tokio::runtime::Runtime,
    cfg: &SandboxConfig,
    upstream: Option<SocketAddr>,
) -> Duration {
    let root = tempfile::Builder::new()
        .prefix("tw-bench-")
        .tempdir()
        .expect("tempdir");
    let home = root.path().join("home");
    std::fs::create_dir(&home).expect("home");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let spec = SandboxSpec {
        home,
        sid: "bench".into(),
        app: "bench".into(),
        upstream,
        api_port: 3000,
    };
    let script = Script {
        name: "pass.py".into(),
        source: "pass\n".into(),
    };
    let limits = Limits::default();
    let mut times = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let r = rt
            .block_on(run_script(
                cfg,
                &spec,
                Role::Reader,
                &script,
                &limits,
                Isolation::Required,
            ))
            .expect("sandbox runs");
        assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
        times.push(t.elapsed());
    }
    median(times)
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
    println!("sandbox set-up overhead, median of {RUNS} runs each");
    let b = bare("/usr/bin/python3");
    let s = sandboxed(&rt, &debian, None);
    let f = sandboxed(&rt, &debian, Some(upstream));
    println!(
        "  bare /usr/bin/python3 -c pass:           {:7.1} ms",
        ms(b)
    );
    println!(
        "  sandboxed (no state API):               {:7.1} ms  overhead {:+.1} ms",
        ms(s),
        ms(s) - ms(b)
    );
    println!(
        "  sandboxed (with state-API forwarder):   {:7.1} ms  overhead {:+.1} ms",
        ms(f),
        ms(f) - ms(b)
    );
    if venv_python.exists() {
        let bv = bare(venv_python.to_str().unwrap_or("/usr/bin/python3"));
        let sv = sandboxed(&rt, &venv, Some(upstream));
        println!(
            "  bare venv python3 -c pass:              {:7.1} ms",
            ms(bv)
        );
        println!(
            "  sandboxed venv (with forwarder):        {:7.1} ms  overhead {:+.1} ms",
            ms(sv),
            ms(sv) - ms(bv)
        );
    }
    let worst = ms(f) - ms(b);
    println!(
        "target: overhead <= 50 ms -> {}",
        if worst <= 50.0 { "MET" } else { "MISSED" }
    );
}
