//! The typed result of one sandboxed run.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::policy::Role;

/// Which resource limit a script ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitKind {
    /// `RLIMIT_CPU` (SIGXCPU / SIGKILL).
    Cpu,
    /// `RLIMIT_AS` (MemoryError), or the run's memory cgroup killed a process at its limit.
    Memory,
    /// `RLIMIT_NPROC` (fork or thread creation failed with EAGAIN).
    Processes,
    /// `RLIMIT_FSIZE` (EFBIG / SIGXFSZ).
    FileSize,
    /// `RLIMIT_NOFILE` (EMFILE).
    OpenFiles,
    /// No space left (ENOSPC): the private `/tmp` is full (`tmp_bytes`), or the host disk.
    DiskSpace,
}

impl LimitKind {
    /// Parse the kind printed by the in-sandbox bootstrap.
    pub fn from_marker(s: &str) -> Option<Self> {
        match s.trim() {
            "cpu" => Some(Self::Cpu),
            "memory" => Some(Self::Memory),
            "processes" => Some(Self::Processes),
            "file_size" => Some(Self::FileSize),
            "open_files" => Some(Self::OpenFiles),
            "disk_space" => Some(Self::DiskSpace),
            _ => None,
        }
    }
}

/// How the script ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// Exit status 0.
    Ok,
    /// A non-zero exit status not attributed to a limit (e.g. an uncaught exception: 1).
    ExitCode {
        /// The exit status.
        code: i32,
    },
    /// Killed by a signal not attributed to a limit.
    Signal {
        /// The signal number.
        signal: i32,
    },
    /// The wall-clock timeout expired; every process of the run was killed.
    Timeout {
        /// The timeout that expired, in seconds.
        after_seconds: f64,
    },
    /// A resource limit stopped the script.
    LimitExceeded {
        /// Which limit.
        limit: LimitKind,
    },
}

/// Which output stream a live log line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// One line of live output (lines over 8 KiB arrive in pieces), for streaming to a face.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogLine {
    /// Where it came from.
    pub stream: Stream,
    /// The text, without its newline (lossy UTF-8).
    pub line: String,
}

/// Where live output goes. Bounded: when the receiver lags, lines are dropped (the captured
/// result still has the output).
pub type LogSink = tokio::sync::mpsc::Sender<LogLine>;

/// Bounded capture of one output stream.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Captured {
    /// The kept text (lossy UTF-8): everything, or the head, a marker line and the tail.
    pub text: String,
    /// Bytes the script wrote in total.
    pub total_bytes: u64,
    /// Whether bytes were dropped.
    pub truncated: bool,
}

/// A state-API request the forwarder refused (answered 403 to the script, never forwarded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefusedRequest {
    /// HTTP method.
    pub method: String,
    /// Path and query as sent.
    pub target: String,
    /// The `action` of a `POST /post` body, if any.
    pub action: Option<String>,
    /// Why it was refused.
    pub reason: String,
}

/// Everything known about one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// How the script ended.
    pub outcome: Outcome,
    /// The role it ran in.
    pub role: Role,
    /// Captured stdout.
    pub stdout: Captured,
    /// Captured stderr.
    pub stderr: Captured,
    /// Wall time of the whole run (sandbox set-up included), seconds.
    pub wall_seconds: f64,
    /// State-API requests refused by the forwarder.
    pub refused: Vec<RefusedRequest>,
    /// State-API requests forwarded to the server.
    pub forwarded: u64,
    /// Host pid of the sandbox's pid 1 (already dead and reaped when the result is returned).
    pub sandbox_pid: Option<u32>,
    /// True when the script ran WITHOUT the sandbox (`--unsafe-no-sandbox`).
    pub unsandboxed: bool,
    /// The interpreter used.
    pub python: PathBuf,
    /// Remarks worth a human's attention (venv fallback, unsafe mode, ...).
    pub notes: Vec<String>,
    /// A service of the harness failed the script during the run (the `reward_judge` channel):
    /// the run proves nothing about the script and is an infrastructure failure.
    #[serde(default)]
    pub infra_failure: Option<String>,
}

impl RunResult {
    /// Whether the script exited 0.
    pub fn succeeded(&self) -> bool {
        self.outcome == Outcome::Ok
    }
}

/// A one-line description of a non-OK outcome.
pub fn describe(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::Ok => None,
        Outcome::ExitCode { code } => Some(format!("exit code {code}")),
        Outcome::Signal { signal } => Some(format!("killed by signal {signal}")),
        Outcome::Timeout { after_seconds } => Some(format!("timeout after {after_seconds:.0}s")),
        Outcome::LimitExceeded { limit } => Some(format!("limit exceeded: {limit:?}")),
    }
}

/// The last lines of a text, for failure details.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    all[all.len().saturating_sub(lines)..].join(" / ")
}
