//! The per-run judge channel: a unix socket in the run's directory, served by a harness thread
//! that forwards each `reward_judge` call to the provider under the run's bounds.
//!
//! Wire (one call per connection): the script sends one JSON object, `{"fn": "call_llm_judge",
//! "task_instruction": …, "success_criteria": …, "state_excerpt": …}`, ended by a newline or by
//! closing its side; the harness answers one line, `{"ok": true, "score": 0..1, "reasoning": …}`
//! or `{"ok": false, "error": …}`.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use super::{verdict, RewardJudge};
use tuplewright_models::providers::Usage;

/// Where the socket is inside the sandbox (`TW_JUDGE_SOCKET`).
pub const IN_JUDGE_SOCKET: &str = "/tmp/.tw/judge.sock";

/// What happened on a channel: calls made and the failures answered to the script.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChannelLog {
    /// Calls received (refused ones included).
    pub calls: u32,
    /// Why calls failed, in order (empty = every call was answered with a score).
    pub failures: Vec<String>,
}

/// A judge served on one socket for one script run; stopped by [`Channel::stop`] or on drop.
pub struct Channel {
    path: PathBuf,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<ChannelLog>>,
    timeout: Duration,
}

struct Served {
    judge: Arc<RewardJudge>,
    usage: Arc<Mutex<Usage>>,
    log: Arc<Mutex<ChannelLog>>,
    timeout: Duration,
}

impl Channel {
    pub(super) fn start(
        path: &Path,
        judge: Arc<RewardJudge>,
        usage: Arc<Mutex<Usage>>,
    ) -> std::io::Result<Self> {
        let listener = UnixListener::bind(path)?;
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(ChannelLog::default()));
        let timeout =
            Duration::try_from_secs_f64(judge.cfg.call_timeout_secs).unwrap_or(Duration::MAX);
        let served = Served {
            judge,
            usage,
            log: log.clone(),
            timeout,
        };
        let flag = stop.clone();
        std::thread::Builder::new()
            .name("reward-judge".into())
            .spawn(move || {
                for conn in listener.incoming() {
                    if flag.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(stream) = conn {
                        served.answer(stream);
                    }
                }
            })?;
        Ok(Self {
            path: path.to_path_buf(),
            stop,
            log,
            timeout,
        })
    }

    /// The deadline of one call, as the script should wait for it.
    pub fn call_timeout(&self) -> Duration {
        self.timeout
    }

    /// Stops serving and returns what happened. A call still in flight is answered no more.
    pub fn stop(self) -> ChannelLog {
        self.halt();
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    fn halt(&self) {
        if !self.stop.swap(true, Ordering::SeqCst) {
            // Wakes the accept loop, which then sees the flag.
            let _ = UnixStream::connect(&self.path);
        }
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.halt();
    }
}

impl Served {
    fn answer(&self, mut stream: UnixStream) {
        let n = match self.log.lock() {
            Ok(mut l) => {
                l.calls += 1;
                l.calls
            }
            Err(_) => return,
        };
        let reply = match self.call(&stream, n) {
            Ok((score, reasoning)) => json!({"ok": true, "score": score, "reasoning": reasoning}),
            Err(e) => {
                if let Ok(mut l) = self.log.lock() {
                    l.failures.push(e.clone());
                }
                json!({"ok": false, "error": e})
            }
        };
        let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
        let _ = stream.write_all(format!("{reply}\n").as_bytes());
    }

    fn call(&self, stream: &UnixStream, n: u32) -> Result<(f64, String), String> {
        let cfg = &self.judge.cfg;
        if n > cfg.max_calls_per_run {
            return Err(format!(
                "more than {} reward_judge calls in one run ([judge] max_calls_per_run)",
                cfg.max_calls_per_run
            ));
        }
        let _ = stream.set_read_timeout(Some(self.timeout));
        let mut buf = Vec::new();
        let limit = cfg.max_request_bytes as u64 + 1;
        BufReader::new(stream.take(limit))
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("reading the reward_judge request: {e}"))?;
        if buf.len() as u64 >= limit {
            return Err(format!(
                "a reward_judge request of more than {} bytes ([judge] max_request_bytes)",
                cfg.max_request_bytes
            ));
        }
        let req: Value = serde_json::from_slice(&buf)
            .map_err(|e| format!("unreadable reward_judge request: {e}"))?;
        let field = |k: &str| match req.get(k) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        let what = field("fn");
        if what != "call_llm_judge" {
            return Err(format!(
                "reward_judge.{what} is not served by this harness (only call_llm_judge)"
            ));
        }
        let request = verdict::prompt(
            &field("task_instruction"),
            &field("success_criteria"),
            &field("state_excerpt"),
        );
        let (tx, rx) = mpsc::channel();
        let (provider, usage) = (self.judge.provider.clone(), self.usage.clone());
        std::thread::spawn(move || {
            let r = provider.chat(&request);
            if let (Ok(resp), Ok(mut u)) = (&r, usage.lock()) {
                u.add(&resp.usage);
            }
            let _ = tx.send(r);
        });
        let model = self.judge.model();
        let resp = match rx.recv_timeout(self.timeout) {
            Ok(Ok(resp)) => resp,
            Ok(Err(e)) => return Err(format!("the judge ({model}) failed: {e}")),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "the judge ({model}) did not answer within {:.0} s ([judge] call_timeout_secs)",
                    self.timeout.as_secs_f64()
                ))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(format!("the judge ({model}) call ended without an answer"))
            }
        };
        if resp.text.len() > cfg.max_response_bytes {
            return Err(format!(
                "the judge's reply of {} bytes is over [judge] max_response_bytes = {}",
                resp.text.len(),
                cfg.max_response_bytes
            ));
        }
        verdict::read_score(&resp.text).map_err(|e| format!("{model}: {e}"))
    }
}
