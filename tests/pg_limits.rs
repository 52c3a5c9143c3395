//! A per-endpoint cap held in a real PostgreSQL store, with two real worker processes whose
//! Generator is an LLM provider (issue 20): with `job cap --calls 1` the endpoint never sees two
//! calls at once. The endpoint is a local stand-in speaking the OpenAI chat-completions protocol
//! on 127.0.0.1 that counts the requests in flight (no model, no network beyond loopback); it
//! answers with prose instead of scripts, so the tasks fail, which is beside the point here: the
//! calls are real calls of the real provider client, gated by the store's slots.
//!
//! Also with that stand-in: `job cap --per-minute N` spaces the calls of two workers so that no
//! minute sees more than N; `job budget --usd X` stops two workers (on PostgreSQL and on SQLite)
//! once the costs recorded with their usage rows — tokens at the configured `[stats.prices]` —
//! reach it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tuplewright::engine::store::testdb::TestDb;
use tuplewright::engine::store::Store;

use crate::pg_support;
use pg_support::{config, count, many_tasks, ok, spawn_worker_args, tw, wait_exit, wait_for, BUSY};

/// Requests in flight now, the most ever in flight, the total, and when each arrived.
#[derive(Default)]
struct Counts {
    now: AtomicUsize,
    max: AtomicUsize,
    total: AtomicUsize,
    arrivals: Mutex<Vec<Instant>>,
}

fn answer(mut conn: TcpStream, counts: &Counts, hold: Duration) -> std::io::Result<()> {
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let l = line.trim_end().to_ascii_lowercase();
        if l.is_empty() {
            break;
        }
        if let Some(v) = l.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    counts.arrivals.lock().unwrap().push(Instant::now());
    let now = counts.now.fetch_add(1, Ordering::SeqCst) + 1;
    counts.max.fetch_max(now, Ordering::SeqCst);
    counts.total.fetch_add(1, Ordering::SeqCst);
    std::thread::sleep(hold);
    // Out of flight before the client can see the answer (and give its slot back).
    counts.now.fetch_sub(1, Ordering::SeqCst);
    let reply = serde_json::json!({
        "id": "standin", "object": "chat.completion", "model": "standin",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": "I would rather not write scripts."}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    })
    .to_string();
    write!(
        conn,
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{reply}",
        reply.len()
    )?;
    conn.flush()
}

fn stand_in(hold: Duration) -> (SocketAddr, Arc<Counts>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let counts = Arc::new(Counts::default());
    let c = counts.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let c = c.clone();
            std::thread::spawn(move || {
                let _ = answer(conn, &c, hold);
            });
        }
    });
    (addr, counts)
}

#[test]
fn a_cap_of_one_call_holds_across_two_worker_processes() {
    let Some(db) = TestDb::create("a_cap_of_one_call_holds_across_two_workers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (cfg, url) = (config(dir.path()), db.path());
    let mut import = tw(&cfg, &url);
    import.arg("import").arg(many_tasks(dir.path(), 8));
    ok(import);
    let mut cap = tw(&cfg, &url);
    cap.args(["job", "cap", "--endpoint", "openai:standin", "--calls", "1"]);
    ok(cap);
    let (addr, counts) = stand_in(Duration::from_millis(400));
    let generator = format!("openai:standin@http://{addr}/v1");
    let args = [
        "--slots",
        "1",
        "--generator",
        &generator,
        "--max-rounds",
        "1",
        "--max-infra-attempts",
        "1",
    ];
    let logs = [dir.path().join("a.log"), dir.path().join("b.log")];
    let mut ws: Vec<_> = logs
        .iter()
        .map(|l| spawn_worker_args(&cfg, &url, l, &args))
        .collect();
    for (w, l) in ws.iter_mut().zip(&logs) {
        let st = wait_exit(w, "an LLM worker", 600);
        let log = std::fs::read_to_string(l).unwrap_or_default();
        assert!(st.code().is_some_and(|c| c <= 1), "{st}: {log}");
        assert!(
            log.lines().any(|l| l.contains(": ")),
            "a worker ran no task: {log}"
        );
    }
    let total = counts.total.load(Ordering::SeqCst);
    assert!(total >= 8, "only {total} calls reached the endpoint");
    assert_eq!(
        counts.max.load(Ordering::SeqCst),
        1,
        "two calls were in flight at once despite the cap of 1 ({total} calls)"
    );
    let store = Store::open(&url, BUSY).unwrap();
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM endpoint_slots"),
        0,
        "a call slot was not given back"
    );
    assert!(
        count(
            &store,
            "SELECT COUNT(*) FROM usage WHERE model = 'openai:standin'"
        ) >= 1,
        "the calls' usage was not recorded"
    );
}

/// The worker arguments of these tests: the stand-in as Generator, one round, no retry.
fn llm_worker_args(generator: &str) -> Vec<String> {
    [
        "--slots",
        "1",
        "--generator",
        generator,
        "--max-rounds",
        "1",
        "--max-infra-attempts",
        "1",
    ]
    .map(String::from)
    .to_vec()
}

fn spawn_llm_workers(
    cfg: &Path,
    url: &Path,
    dir: &Path,
    generator: &str,
) -> Vec<(std::process::Child, std::path::PathBuf)> {
    let args = llm_worker_args(generator);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ["a.log", "b.log"]
        .iter()
        .map(|l| {
            let log = dir.join(l);
            (spawn_worker_args(cfg, url, &log, &args), log)
        })
        .collect()
}

#[test]
fn a_rate_cap_spaces_the_calls_of_two_worker_processes_over_a_minute() {
    let Some(db) = TestDb::create("a_rate_cap_spaces_the_calls") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (cfg, url) = (config(dir.path()), db.path());
    let mut import = tw(&cfg, &url);
    import.arg("import").arg(many_tasks(dir.path(), 8));
    ok(import);
    let per_minute = 3;
    let mut cap = tw(&cfg, &url);
    cap.args(["job", "cap", "--endpoint", "openai:standin", "--per-minute"])
        .arg(per_minute.to_string());
    ok(cap);
    let (addr, counts) = stand_in(Duration::from_millis(50));
    let mut ws = spawn_llm_workers(
        &cfg,
        &url,
        dir.path(),
        &format!("openai:standin@http://{addr}/v1"),
    );
    // The cap's first minute is full after 3 calls; wait for the 4th, which must come a minute
    // after the 1st, then stop the workers (a worker waiting for its turn would wait the next
    // minute out before it saw a cancel).
    wait_for("a call past the first minute's cap", 300, || {
        counts.total.load(Ordering::SeqCst) > per_minute
            || ws.iter_mut().all(|(w, _)| w.try_wait().unwrap().is_some())
    });
    for (w, l) in &mut ws {
        if let Some(st) = w.try_wait().unwrap() {
            let log = std::fs::read_to_string(l).unwrap_or_default();
            panic!("a rate-capped worker exited early ({st}): {log}");
        }
        w.kill().unwrap();
        w.wait().unwrap();
    }
    let arrivals = counts.arrivals.lock().unwrap().clone();
    assert!(arrivals.len() > per_minute, "{} calls", arrivals.len());
    // No 60 s window held more than `per_minute` calls (1 s of slack for the time between
    // taking the turn and the request arriving).
    for w in arrivals.windows(per_minute + 1) {
        let span = w[per_minute].duration_since(w[0]);
        assert!(
            span >= Duration::from_secs(59),
            "{} calls within {span:?} despite a cap of {per_minute}/min",
            per_minute + 1
        );
    }
    let store = Store::open(&url, BUSY).unwrap();
    assert!(
        count(
            &store,
            "SELECT COUNT(*) FROM events WHERE kind = 'workers.rate'"
        ) == 1,
        "the cap's change was not recorded"
    );
}

/// Two workers under `job budget --usd`: each stand-in call costs $10 (10 prompt tokens at
/// $1,000,000 per million), the budget $25.
fn a_cost_budget_stops_two_workers(url: &Path, dir: &Path) {
    let cfg = pg_support::config_with(
        dir,
        "[stats.prices.models.\"openai:standin\"]\ninput_per_mtok = 1000000.0\noutput_per_mtok = 0.0\n",
    );
    let n = 12;
    let mut import = tw(&cfg, url);
    import.arg("import").arg(many_tasks(dir, n));
    ok(import);
    let mut budget = tw(&cfg, url);
    budget.args(["job", "budget", "--usd", "25"]);
    ok(budget);
    let (addr, counts) = stand_in(Duration::from_millis(20));
    let mut ws = spawn_llm_workers(&cfg, url, dir, &format!("openai:standin@http://{addr}/v1"));
    for (w, l) in &mut ws {
        let st = wait_exit(w, "a worker under a cost budget", 600);
        let log = std::fs::read_to_string(l).unwrap_or_default();
        assert_eq!(st.code(), Some(4), "{log}");
        assert!(log.contains("cost budget is spent"), "{log}");
    }
    let store = Store::open(url, BUSY).unwrap();
    let (rows, usd, tokens): (i64, f64, i64) = store
        .conn()
        .query_row(
            "SELECT COUNT(*), CAST(COALESCE(SUM(cost_usd), 0) AS DOUBLE PRECISION), \
             CAST(COALESCE(SUM(input_tokens), 0) AS BIGINT) FROM usage \
             WHERE model = 'openai:standin'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert!(rows >= 1, "no usage recorded");
    assert!(
        (usd - tokens as f64).abs() < 1e-6,
        "recorded ${usd} for {tokens} input tokens at $1 each"
    );
    assert!(usd >= 25.0, "stopped before the budget was spent: ${usd}");
    assert!(counts.total.load(Ordering::SeqCst) >= 3);
    let pending = count(
        &store,
        "SELECT COUNT(*) FROM tuples WHERE status = 'pending'",
    );
    assert!(
        pending >= 1,
        "the workers drained the queue past the budget"
    );
    let mut status = tw(&cfg, url);
    status.args(["job", "status"]);
    let out = status.output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["budget_usd"].as_f64(), Some(25.0), "{v}");
    assert!((v["usd_used"].as_f64().unwrap() - usd).abs() < 1e-6, "{v}");
    // `stats` shows the recorded cost.
    let mut stats = tw(&cfg, url);
    stats.args(["stats", "--json"]);
    let out = stats.output().unwrap();
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        (s["costs"]["recorded_cost_usd"].as_f64().unwrap() - usd).abs() < 0.01,
        "{}",
        s["costs"]
    );
}

#[test]
fn a_cost_budget_stops_two_workers_on_postgres() {
    if let Some(db) = TestDb::create("a_cost_budget_stops_two_workers") {
        let dir = tempfile::tempdir().unwrap();
        a_cost_budget_stops_two_workers(&db.path(), dir.path());
    }
}

#[test]
fn a_cost_budget_stops_two_workers_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    a_cost_budget_stops_two_workers(&dir.path().join("tw.db"), dir.path());
}
