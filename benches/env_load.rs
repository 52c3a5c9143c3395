//! The write benchmark's load generator and CPU accounting (`benches/env_limits.rs`).
//!
//! The generator runs on its own OS thread (`load-gen`, a current-thread tokio runtime driving
//! every connection), so the server's runtime is not shared with it and its CPU can be told
//! apart from the server's: it reads its own thread CPU clock, and every other thread of the
//! process is grouped by name from `/proc/self/task`. Each request is built once (request line,
//! headers and body in one buffer, one `write` per request) and the response is read into a
//! reused buffer, so the generator costs what a lean HTTP/1.1 client costs. The same generator
//! drives every row (fsync on and off, before and after a change), keeping comparisons fair.
#![allow(dead_code)]

#[path = "../tests/common/http.rs"]
pub mod http;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What one load run measured.
pub struct Load {
    /// Latency of every request, sorted.
    pub lat: Vec<Duration>,
    /// Wall time of the run.
    pub secs: f64,
    /// CPU the generator thread used (user + system: it includes the kernel's send side).
    pub generator_cpu: Duration,
    /// CPU the whole process used (getrusage), generator included.
    pub process_cpu: Duration,
    /// CPU of the process's other threads, by thread name, largest first.
    pub threads: Vec<(String, Duration)>,
}

impl Load {
    /// Requests per second.
    pub fn rate(&self) -> f64 {
        self.lat.len() as f64 / self.secs.max(1e-9)
    }

    /// Microseconds of CPU per request of `d`.
    pub fn per_req(&self, d: Duration) -> f64 {
        d.as_secs_f64() * 1e6 / self.lat.len().max(1) as f64
    }

    /// One line: CPU per request of the process, the generator and the busiest thread groups.
    pub fn cpu_line(&self) -> String {
        let server = self.process_cpu.saturating_sub(self.generator_cpu);
        let groups: Vec<String> = self
            .threads
            .iter()
            .take(4)
            .map(|(name, d)| format!("{name} {:.0}", self.per_req(*d)))
            .collect();
        format!(
            "CPU per request: {:.0} us in all = server {:.0} + load generator {:.0} (threads, us: {}); \
             process used {:.2} of {} cores",
            self.per_req(self.process_cpu),
            self.per_req(server),
            self.per_req(self.generator_cpu),
            groups.join(", "),
            self.process_cpu.as_secs_f64() / self.secs.max(1e-9),
            std::thread::available_parallelism().map_or(0, |n| n.get()),
        )
    }
}

fn timespec(clock: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// CPU time (user + system) of every thread of this process, by thread id: (name, time).
fn thread_cpu() -> HashMap<String, (String, Duration)> {
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let mut out = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in dir.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let name = stat[open + 1..close].to_string();
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
        if let (Some(u), Some(s)) = (ticks(11), ticks(12)) {
            let tid = task.file_name().to_string_lossy().into_owned();
            out.insert(tid, (name, Duration::from_secs_f64((u + s) / hz)));
        }
    }
    out
}

/// `connections` keep-alive connections, connection `i` sending the requests of
/// `requests[i % len]` in turn, back to back (one in flight each), for `run`; every answer
/// must be 200.
pub fn post_load(
    addr: SocketAddr,
    requests: Vec<Vec<Vec<u8>>>,
    connections: usize,
    run: Duration,
) -> Load {
    let before = thread_cpu();
    let process_before = timespec(libc::CLOCK_PROCESS_CPUTIME_ID);
    let requests: Vec<Arc<Vec<Vec<u8>>>> = requests.into_iter().map(Arc::new).collect();
    let generator = std::thread::Builder::new()
        .name("load-gen".into())
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("generator runtime");
            let cpu0 = timespec(libc::CLOCK_THREAD_CPUTIME_ID);
            let start = Instant::now();
            let lat = rt.block_on(async move {
                let stop = Arc::new(AtomicBool::new(false));
                let mut tasks = Vec::new();
                for i in 0..connections {
                    let (stop, req) = (stop.clone(), requests[i % requests.len()].clone());
                    tasks.push(tokio::spawn(async move {
                        let mut conn = http::Conn::connect(addr).await.expect("connect");
                        let mut lat = Vec::new();
                        while !stop.load(Ordering::Relaxed) {
                            let t = Instant::now();
                            let req = &req[lat.len() % req.len()];
                            let (status, _) = conn.send_prebuilt(req).await.expect("post");
                            assert_eq!(status, 200);
                            lat.push(t.elapsed());
                        }
                        lat
                    }));
                }
                tokio::time::sleep(run).await;
                stop.store(true, Ordering::Relaxed);
                let mut all = Vec::new();
                for t in tasks {
                    all.extend(t.await.expect("writer"));
                }
                all
            });
            let secs = start.elapsed().as_secs_f64();
            (lat, secs, timespec(libc::CLOCK_THREAD_CPUTIME_ID) - cpu0)
        })
        .expect("spawn load generator");
    let (mut lat, secs, generator_cpu) = generator.join().expect("load generator");
    let process_cpu = timespec(libc::CLOCK_PROCESS_CPUTIME_ID) - process_before;
    let mut groups: HashMap<String, Duration> = HashMap::new();
    for (tid, (name, cpu)) in thread_cpu() {
        let was = before.get(&tid).map_or(Duration::ZERO, |(_, d)| *d);
        *groups.entry(name).or_default() += cpu.saturating_sub(was);
    }
    let mut threads: Vec<(String, Duration)> =
        groups.into_iter().filter(|(_, d)| !d.is_zero()).collect();
    threads.sort_by_key(|t| std::cmp::Reverse(t.1));
    lat.sort();
    Load {
        lat,
        secs,
        generator_cpu,
        process_cpu,
        threads,
    }
}

/// A `POST` of `body` to `path`, built whole.
pub fn request(path: &str, body: &[u8]) -> Vec<u8> {
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    req
}

/// Writes (`POST /post` of `body`) and reads (`GET /go`) sessions `prefix0..sessions` through
/// `writers` keep-alive connections, each taking every `writers`-th session.
pub async fn fill(
    addr: SocketAddr,
    writers: usize,
    sessions: usize,
    prefix: &str,
    body: Arc<String>,
) {
    let mut tasks = Vec::new();
    for w in 0..writers {
        let (body, prefix) = (body.clone(), prefix.to_string());
        tasks.push(tokio::spawn(async move {
            let mut conn = http::Conn::connect(addr).await.expect("connect");
            for i in (w..sessions).step_by(writers) {
                let path = format!("/post?sid={prefix}{i}");
                let r = conn
                    .send("POST", &path, &[], body.as_bytes())
                    .await
                    .expect("post");
                assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
                let go = format!("/go?sid={prefix}{i}");
                let (status, _) = conn.send_len("GET", &go, &[]).await.expect("go");
                assert_eq!(status, 200);
            }
        }));
    }
    for t in tasks {
        t.await.expect("filler");
    }
}
