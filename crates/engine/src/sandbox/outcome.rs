//! Turning a finished run into a typed [`Outcome`].

use super::config::Limits;
use super::process::Exit;
use super::result::{LimitKind, Outcome};
use super::run::SandboxError;

/// The line the bootstrap prints on stderr when a limit stopped the script.
pub const LIMIT_MARKER: &str = "tuplewright-sandbox: limit exceeded: ";

/// The exit code bwrap reported for the script (`None` = the sandbox never ran it).
fn reported_exit_code(report: &str) -> Option<i32> {
    report
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| v.get("exit-code").and_then(|c| c.as_i64()))
        .and_then(|c| i32::try_from(c).ok())
}

/// Turn a finished run into an [`Outcome`]; an `Err` when bubblewrap never started the script.
pub fn classify(exit: &Exit, limits: &Limits, sandboxed: bool) -> Result<Outcome, SandboxError> {
    use std::os::unix::process::ExitStatusExt;
    if exit.timed_out {
        return Ok(Outcome::Timeout {
            after_seconds: limits.wall_seconds,
        });
    }
    let (code, signal) = if sandboxed {
        let report = exit.status_report.as_deref().unwrap_or("");
        let Some(code) = reported_exit_code(report) else {
            let msg = exit.stderr.text.trim();
            return Err(SandboxError::Setup(if msg.is_empty() {
                format!(
                    "bubblewrap exited with {:?} before starting the script",
                    exit.status
                )
            } else {
                msg.to_string()
            }));
        };
        if code > 128 && code <= 128 + 64 {
            (None, Some(code - 128))
        } else {
            (Some(code), None)
        }
    } else {
        match exit.status {
            Some(s) => (s.code(), s.signal()),
            None => (None, Some(libc::SIGKILL)),
        }
    };
    // The run's memory cgroup killed something and the script did not succeed: the memory limit.
    if exit.oom_killed && code != Some(0) {
        return Ok(Outcome::LimitExceeded {
            limit: LimitKind::Memory,
        });
    }
    if let Some(sig) = signal {
        return Ok(match sig {
            libc::SIGXCPU => Outcome::LimitExceeded {
                limit: LimitKind::Cpu,
            },
            libc::SIGXFSZ => Outcome::LimitExceeded {
                limit: LimitKind::FileSize,
            },
            _ => Outcome::Signal { signal: sig },
        });
    }
    let code = code.unwrap_or(-1);
    if code == 0 {
        return Ok(Outcome::Ok);
    }
    let marker = exit
        .stderr
        .text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(LIMIT_MARKER))
        .and_then(LimitKind::from_marker);
    Ok(match marker {
        Some(limit) => Outcome::LimitExceeded { limit },
        None => Outcome::ExitCode { code },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::result::Captured;

    fn exit(report: &str, stderr: &str, timed_out: bool) -> Exit {
        Exit {
            status: None,
            timed_out,
            status_report: Some(report.to_string()),
            sandbox_pid: None,
            stdout: Captured::default(),
            stderr: Captured {
                text: stderr.to_string(),
                ..Captured::default()
            },
            notes: Vec::new(),
            oom_killed: false,
        }
    }

    #[test]
    fn bwrap_reports_map_to_outcomes() {
        let l = Limits::default();
        let child = "{ \"child-pid\": 7 }\n";
        let c = |code: i32, err: &str| {
            let report = format!("{child}{{ \"exit-code\": {code} }}\n");
            classify(&exit(&report, err, false), &l, true).unwrap()
        };
        assert_eq!(c(0, ""), Outcome::Ok);
        assert_eq!(c(1, "Traceback"), Outcome::ExitCode { code: 1 });
        assert_eq!(
            c(152, ""),
            Outcome::LimitExceeded {
                limit: LimitKind::Cpu
            }
        );
        assert_eq!(
            c(153, ""),
            Outcome::LimitExceeded {
                limit: LimitKind::FileSize
            }
        );
        assert_eq!(c(137, ""), Outcome::Signal { signal: 9 });
        let marked = format!("boom\n{LIMIT_MARKER}memory\n");
        assert_eq!(
            c(1, &marked),
            Outcome::LimitExceeded {
                limit: LimitKind::Memory
            }
        );
        assert_eq!(
            c(0, &marked),
            Outcome::Ok,
            "a marker never turns success into failure"
        );
    }

    #[test]
    fn a_cgroup_oom_kill_is_the_memory_limit_unless_the_script_succeeded() {
        let l = Limits::default();
        let report = "{ \"child-pid\": 7 }\n{ \"exit-code\": 137 }\n";
        let mut e = exit(report, "", false);
        assert_eq!(
            classify(&e, &l, true).unwrap(),
            Outcome::Signal { signal: 9 }
        );
        e.oom_killed = true;
        assert_eq!(
            classify(&e, &l, true).unwrap(),
            Outcome::LimitExceeded {
                limit: LimitKind::Memory
            }
        );
        let ok = exit("{ \"child-pid\": 7 }\n{ \"exit-code\": 0 }\n", "", false);
        let ok = Exit {
            oom_killed: true,
            ..ok
        };
        assert_eq!(classify(&ok, &l, true).unwrap(), Outcome::Ok);
    }

    #[test]
    fn no_exit_code_means_the_sandbox_never_ran_and_timeout_wins() {
        let l = Limits::default();
        let err = classify(
            &exit(
                "{ \"child-pid\": 7 }\n",
                "bwrap: Can't find source path",
                false,
            ),
            &l,
            true,
        );
        assert!(matches!(err, Err(SandboxError::Setup(m)) if m.contains("source path")));
        let t = classify(&exit("", "", true), &l, true).unwrap();
        assert_eq!(
            t,
            Outcome::Timeout {
                after_seconds: l.wall_seconds
            }
        );
    }
}
