//! Running a desktop application pack's state reader (`state.py`): the script's text is written
//! to a private temporary file and run as `<venv>/bin/python3 state.py HOME` with a timeout; its
//! stdout must be one JSON object. Anything else is an infrastructure failure quoting stderr.

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::DesktopError;

/// The script interpreter of state readers (the script venv's Python).
pub const READER_PYTHON: &str = "/opt/tuplewright/venv/bin/python3";
/// How long a state reader may run.
pub const READER_TIMEOUT: Duration = Duration::from_secs(60);
/// Most bytes of reader output kept.
const MAX_OUTPUT: u64 = 32 << 20;

/// Runs the reader `script` of `app` on `home` with `python`; returns its JSON object.
pub fn read_state(
    app: &str,
    script: &str,
    home: &Path,
    python: &Path,
    timeout: Duration,
) -> Result<Value, DesktopError> {
    let fail = |detail: String| DesktopError::StateReader {
        app: app.to_string(),
        detail,
    };
    let dir = tempfile::tempdir().map_err(|e| fail(format!("temporary directory: {e}")))?;
    let path = dir.path().join("state.py");
    std::fs::write(&path, script).map_err(|e| fail(format!("writing state.py: {e}")))?;
    let mut child = Command::new(python)
        .arg(&path)
        .arg(home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| fail(format!("starting {}: {e}", python.display())))?;
    let mut out = child.stdout.take().map(|s| s.take(MAX_OUTPUT));
    let mut err = child.stderr.take().map(|s| s.take(64 << 10));
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_string(&mut text);
        }
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(e) = err.as_mut() {
            let _ = e.read_to_string(&mut text);
        }
        text
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(fail(format!("timed out after {} s", timeout.as_secs())));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(fail(format!("waiting: {e}"))),
        }
    };
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    if !status.success() {
        return Err(fail(format!("exited with {status}: {}", tail(&stderr))));
    }
    match serde_json::from_str::<Value>(stdout.trim()) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(other) => Err(fail(format!(
            "printed {} instead of one JSON object",
            if other.is_array() {
                "an array"
            } else {
                "a scalar"
            }
        ))),
        Err(e) => Err(fail(format!(
            "output is not JSON ({e}); stderr: {}",
            tail(&stderr)
        ))),
    }
}

/// The last lines of `text` (at most 1,000 characters).
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().rev().take(6).collect();
    let joined = lines.into_iter().rev().collect::<Vec<_>>().join(" | ");
    let start = joined.char_indices().rev().nth(999).map_or(0, |(i, _)| i);
    joined[start..].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(script: &str) -> Result<Value, DesktopError> {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("a.txt"), "x").unwrap();
        read_state(
            "t",
            script,
            home.path(),
            Path::new("python3"),
            Duration::from_secs(20),
        )
    }

    #[test]
    fn a_reader_prints_one_object_and_failures_quote_stderr() {
        let ok =
            run("import json,os,sys;print(json.dumps({'files':sorted(os.listdir(sys.argv[1]))}))");
        assert_eq!(ok.unwrap()["files"][0], "a.txt");
        let crash =
            run("import sys;sys.stderr.write('reader broke here');sys.exit(3)").unwrap_err();
        assert!(crash.to_string().contains("reader broke here"), "{crash}");
        let list = run("print('[1, 2]')").unwrap_err();
        assert!(list.to_string().contains("array"), "{list}");
        let junk = run("print('not json')").unwrap_err();
        assert!(junk.to_string().contains("not JSON"), "{junk}");
    }

    #[test]
    fn a_hanging_reader_is_stopped_at_its_timeout() {
        let home = tempfile::tempdir().unwrap();
        let t = Instant::now();
        let err = read_state(
            "t",
            "import time;time.sleep(30)",
            home.path(),
            Path::new("python3"),
            Duration::from_millis(500),
        )
        .unwrap_err();
        assert!(err.to_string().contains("timed out"), "{err}");
        assert!(t.elapsed() < Duration::from_secs(10));
    }
}
