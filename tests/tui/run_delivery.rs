//! One way through (#29): a run started in the workbench is the engine's run job, the one
//! `--no-tui run` calls, so it delivers the same bundles to the output folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use tuplewright::tui::data::EngineCommand;
use tuplewright::tui::jobs::JobUpdate;

use super::live_jobs::{next_job, pending_store, runner};

/// Every file under `root`, by path relative to it, with its bytes.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root).expect("under root").to_path_buf();
                out.insert(rel, std::fs::read(&p).expect("read"));
            }
        }
    }
    out
}

/// Times differ between two runs (each bundle carries the time of its accepting round); every
/// other byte must be the same.
fn without_times(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut rest: &str = &text;
    // An RFC 3339 time `2026-12-06T09:12:37…` up to its closing quote, space or line end.
    while let Some(i) = rest.find(|c: char| c.is_ascii_digit()) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let b = tail.as_bytes();
        let looks_like_time = b.len() >= 19
            && b[4] == b'-'
            && b[7] == b'-'
            && b[10] == b'T'
            && b[13] == b':'
            && b[..4].iter().all(u8::is_ascii_digit);
        if looks_like_time {
            let end = tail.find(['"', '\n', ' ', ',']).unwrap_or(tail.len());
            out.push_str("<time>");
            rest = &tail[end..];
        } else {
            let n = tail.chars().next().map_or(1, char::len_utf8);
            out.push_str(&tail[..n]);
            rest = &tail[n..];
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn a_workbench_run_delivers_the_same_bundles_as_the_headless_run() {
    let (dir, path, ids, file) = pending_store(3);
    // The workbench: its job runner, as the Live screen's start key drives it.
    // One task at a time on both sides: decision ids are numbered per store in commit order.
    let (jobs, rx) = runner(&path, 1);
    jobs.send(EngineCommand::StartRun(ids.clone()));
    let JobUpdate::Started(_) = next_job(&rx) else {
        panic!("not started")
    };
    let JobUpdate::Finished(line) = next_job(&rx) else {
        panic!("not finished")
    };
    assert!(line.contains("3 accepted"), "{line}");
    assert!(line.contains("3 bundle(s) in"), "{line}");
    assert_eq!(jobs.stop(), None);
    let tui_out = dir.path().join("out");
    // `--no-tui run` on the same tasks, into a store and folder of its own.
    let cli_out = dir.path().join("out-cli");
    let o = Command::new(env!("CARGO_BIN_EXE_tuplewright"))
        .args(["--no-tui", "--store"])
        .arg(dir.path().join("cli.db"))
        .arg("run")
        .arg(&file)
        .args(["--jobs", "1", "--out"])
        .arg(&cli_out)
        .output()
        .expect("run");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (tui, cli) = (tree(&tui_out), tree(&cli_out));
    assert_eq!(
        tui.keys().collect::<Vec<_>>(),
        cli.keys().collect::<Vec<_>>(),
        "the same bundles, the same files"
    );
    assert_eq!(
        tui.keys().filter(|p| p.ends_with("reward.py")).count(),
        3,
        "a bundle per accepted task"
    );
    for (rel, bytes) in &tui {
        assert_eq!(
            without_times(bytes),
            without_times(&cli[rel]),
            "{} differs",
            rel.display()
        );
    }
}
