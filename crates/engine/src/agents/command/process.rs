//! Running the CLI: its own process group, stdin fed from a thread, bounded capture of stdout and
//! stderr, a wall-clock timeout and cancellation that kill the whole process tree (the bwrap
//! process group and the sandbox's pid-namespace init, whose death takes every descendant with it,
//! `setsid` or not).

use std::io::{Read, Write};
use std::os::unix::io::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How a run ended.
#[derive(Debug)]
pub enum Ending {
    /// The process exited (bwrap's status: the CLI's exit code, or 1 when bwrap failed).
    Exited(ExitStatus),
    /// The timeout expired; everything was killed.
    TimedOut,
    /// The cancel flag was set; everything was killed.
    Cancelled,
}

/// What came back from one run.
#[derive(Debug)]
pub struct Finished {
    /// How it ended.
    pub ending: Ending,
    /// The CLI's exit code as bwrap reported it (`None` = the sandbox never started the CLI).
    pub reported_exit: Option<i32>,
    /// Captured stdout (bounded).
    pub stdout: String,
    /// Captured stderr (bounded).
    pub stderr: String,
}

/// Reads `r` to the end keeping the first `limit - tail` and the last `tail` bytes.
fn capture(mut r: impl Read, limit: usize) -> String {
    let tail_cap = (limit / 4).min(256 * 1024);
    let head_cap = limit - tail_cap;
    let (mut head, mut tail) = (Vec::new(), std::collections::VecDeque::new());
    let mut total = 0usize;
    let mut buf = [0u8; 16 * 1024];
    while let Ok(n) = r.read(&mut buf) {
        if n == 0 {
            break;
        }
        total += n;
        let mut chunk = &buf[..n];
        let take = chunk.len().min(head_cap.saturating_sub(head.len()));
        head.extend_from_slice(&chunk[..take]);
        chunk = &chunk[take..];
        tail.extend(chunk.iter().copied());
        while tail.len() > tail_cap {
            tail.pop_front();
        }
    }
    let dropped = total - head.len() - tail.len();
    if dropped > 0 {
        head.extend_from_slice(format!("\n[... {dropped} bytes dropped ...]\n").as_bytes());
    }
    head.extend(tail);
    String::from_utf8_lossy(&head).into_owned()
}

fn kill(pid: i32) {
    // SAFETY: kill(2) with a pid (or negative process-group id) of a process we started.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
}

fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, r)| r.trim_start().starts_with(['Z', 'X']))
        })
        .is_some_and(|zombie| !zombie)
}

fn status_field(report: &str, key: &str) -> Option<i32> {
    report
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v.get(key).and_then(serde_json::Value::as_i64))
        .and_then(|c| i32::try_from(c).ok())
}

/// Starts `cmd` (bwrap, or the CLI itself when unsandboxed) and waits for it under `timeout`.
/// With `status_path`, bwrap's `--json-status-fd 3` report is written there.
pub fn run(
    mut cmd: Command,
    stdin: Option<String>,
    timeout: Duration,
    capture_bytes: usize,
    status_path: Option<&std::path::Path>,
    cancel: Option<&AtomicBool>,
) -> std::io::Result<Finished> {
    let status_file = status_path.map(std::fs::File::create).transpose()?;
    let status_fd = status_file.as_ref().map(AsRawFd::as_raw_fd);
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .process_group(0);
    // SAFETY: the closure only calls async-signal-safe functions (fcntl, dup2).
    unsafe {
        cmd.pre_exec(move || {
            if let Some(fd) = status_fd {
                if fd == 3 {
                    libc::fcntl(3, libc::F_SETFD, 0);
                } else if libc::dup2(fd, 3) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn()?;
    drop(status_file);
    let pid = i32::try_from(child.id()).unwrap_or(0);
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        std::thread::spawn(move || {
            let _ = pipe.write_all(text.as_bytes());
        });
    }
    let (tx_out, rx_out) = mpsc::channel();
    let (tx_err, rx_err) = mpsc::channel();
    if let Some(out) = child.stdout.take() {
        std::thread::spawn(move || tx_out.send(capture(out, capture_bytes)));
    }
    if let Some(err) = child.stderr.take() {
        std::thread::spawn(move || tx_err.send(capture(err, capture_bytes)));
    }
    let deadline = Instant::now() + timeout;
    let ending = loop {
        if let Some(status) = child.try_wait()? {
            break Ending::Exited(status);
        }
        let cancelled = cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled || Instant::now() >= deadline {
            break if cancelled {
                Ending::Cancelled
            } else {
                Ending::TimedOut
            };
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let report = status_path.and_then(|p| std::fs::read_to_string(p).ok());
    let inner = report.as_deref().and_then(|r| status_field(r, "child-pid"));
    if !matches!(ending, Ending::Exited(_)) && pid > 0 {
        kill(-pid);
        let _ = child.wait();
    }
    // The namespace init dies with bwrap (--die-with-parent) but asynchronously: make sure.
    if let Some(init) = inner {
        for _ in 0..1000 {
            if !alive(init) {
                break;
            }
            kill(init);
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let collect = |rx: mpsc::Receiver<String>| {
        rx.recv_timeout(Duration::from_secs(2)).unwrap_or_else(|_| {
            if pid > 0 {
                kill(-pid);
            }
            rx.recv_timeout(Duration::from_secs(2))
                .unwrap_or_else(|_| "[output cut: a leftover process held the pipe open]".into())
        })
    };
    let stdout = collect(rx_out);
    let stderr = collect(rx_err);
    let reported_exit = match &ending {
        Ending::Exited(s) if status_path.is_none() => s.code(),
        _ => std::fs::read_to_string(status_path.unwrap_or(std::path::Path::new("")))
            .ok()
            .and_then(|r| status_field(&r, "exit-code")),
    };
    Ok(Finished {
        ending,
        reported_exit,
        stdout,
        stderr,
    })
}

#[cfg(test)]
mod tests {
    use super::capture;

    #[test]
    fn capture_keeps_head_and_tail_and_counts_the_rest() {
        let mut data = vec![b'a'; 10_000];
        data.extend_from_slice(b"THE END");
        let text = capture(&data[..], 1000);
        assert!(text.starts_with("aaa"));
        assert!(text.ends_with("THE END"));
        assert!(text.contains("bytes dropped"));
        assert!(text.len() < 1100);
    }
}
