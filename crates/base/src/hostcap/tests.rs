//! The host slots across real processes: this test binary re-runs itself as the holder
//! ([`holder_process`], ignored unless asked for by name).

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::*;

const CHILD_DIR: &str = "TW_HOSTCAP_TEST_DIR";
const CHILD_LOG: &str = "TW_HOSTCAP_TEST_LOG";
const CHILD_HOLD_FOREVER: &str = "TW_HOSTCAP_TEST_HOLD";

fn caps(dir: &Path, sandboxes: u32) -> HostCaps {
    HostCaps {
        dir: dir.to_path_buf(),
        screens: None,
        sandboxes: Some(sandboxes),
    }
}

fn nanos() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// Run as a child process by the tests below: takes the sandbox slot of `$TW_HOSTCAP_TEST_DIR`
/// (cap 1) 8 times, holding it 30 ms each, and logs `start end` per hold; or, with
/// `$TW_HOSTCAP_TEST_HOLD`, takes it once, says so in the log and holds it until killed.
#[test]
#[ignore = "run as a child process by the host-slot tests"]
fn holder_process() {
    let dir = std::env::var(CHILD_DIR).unwrap();
    let log = std::env::var(CHILD_LOG).unwrap();
    let caps = caps(Path::new(&dir), 1);
    if std::env::var_os(CHILD_HOLD_FOREVER).is_some() {
        let _slot = caps.take(Kind::Sandbox, Duration::from_secs(120)).unwrap();
        std::fs::write(&log, "held\n").unwrap();
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    let mut lines = String::new();
    for _ in 0..8 {
        let slot = caps.take(Kind::Sandbox, Duration::from_secs(120)).unwrap();
        let start = nanos();
        std::thread::sleep(Duration::from_millis(30));
        let end = nanos();
        drop(slot);
        lines.push_str(&format!("{start} {end}\n"));
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::write(&log, lines).unwrap();
}

fn spawn_holder(dir: &Path, log: &Path, forever: bool) -> Child {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args([
        "--ignored",
        "--exact",
        "hostcap::tests::holder_process",
        "--test-threads",
        "1",
    ])
    .env(CHILD_DIR, dir)
    .env(CHILD_LOG, log)
    .stdout(std::process::Stdio::null());
    if forever {
        c.env(CHILD_HOLD_FOREVER, "1");
    }
    c.spawn().unwrap()
}

fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn each_slot_is_given_once_and_dropping_it_frees_it() {
    let dir = tempfile::tempdir().unwrap();
    let caps = caps(dir.path(), 2);
    let a = caps.try_take(Kind::Sandbox).unwrap().unwrap();
    let b = caps.try_take(Kind::Sandbox).unwrap().unwrap();
    assert_ne!(a.index, b.index);
    assert!(
        caps.try_take(Kind::Sandbox).unwrap().is_none(),
        "a third slot"
    );
    let err = caps
        .take(Kind::Sandbox, Duration::from_millis(60))
        .unwrap_err();
    assert!(err.to_string().contains("[worker] sandboxes = 2"), "{err}");
    drop(a);
    // Free once no process holds the lock file's description: a child another test thread is
    // forking may hold a copy until its exec closes it, so wait for it rather than try once.
    let c = caps
        .take(Kind::Sandbox, Duration::from_secs(60))
        .unwrap()
        .unwrap();
    assert_eq!(c.index, 0);
    // An uncapped kind never waits and takes nothing.
    assert!(caps.take(Kind::Screen, Duration::ZERO).unwrap().is_none());
}

#[test]
fn a_zero_cap_is_refused_naming_the_key() {
    let cfg = WorkerConfig {
        screens: Some(0),
        ..WorkerConfig::default()
    };
    assert!(cfg.caps().unwrap_err().contains("[worker] screens = 0"));
    let ok = WorkerConfig::default().caps().unwrap();
    assert_eq!((ok.screens, ok.sandboxes), (None, None));
}

#[test]
fn two_processes_with_a_cap_of_one_never_hold_a_slot_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let logs = [dir.path().join("a.log"), dir.path().join("b.log")];
    let mut kids: Vec<Child> = logs
        .iter()
        .map(|l| spawn_holder(dir.path(), l, false))
        .collect();
    for k in &mut kids {
        let deadline = Instant::now() + Duration::from_secs(180);
        loop {
            if let Some(status) = k.try_wait().unwrap() {
                assert!(status.success(), "a holder process failed: {status}");
                break;
            }
            assert!(Instant::now() < deadline, "a holder process hung");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let mut spans: Vec<(u128, u128, usize)> = Vec::new();
    for (i, l) in logs.iter().enumerate() {
        let text = std::fs::read_to_string(l).unwrap();
        for line in text.lines() {
            let (s, e) = line.split_once(' ').unwrap();
            spans.push((s.parse().unwrap(), e.parse().unwrap(), i));
        }
    }
    assert_eq!(spans.len(), 16, "each process held the slot 8 times");
    spans.sort();
    for w in spans.windows(2) {
        assert!(
            w[0].1 <= w[1].0,
            "process {} held the slot from {} while process {} held it until {}",
            w[1].2,
            w[1].0,
            w[0].2,
            w[0].1
        );
    }
}

#[test]
fn a_killed_holder_gives_its_slot_back() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("held.log");
    let mut kid = spawn_holder(dir.path(), &log, true);
    wait_until("the holder to take the slot", || log.exists());
    let caps = caps(dir.path(), 1);
    assert!(caps.try_take(Kind::Sandbox).unwrap().is_none(), "slot held");
    kid.kill().unwrap(); // SIGKILL: no destructor runs
    kid.wait().unwrap();
    let mut got = None;
    wait_until("the dead holder's slot", || {
        got = caps.try_take(Kind::Sandbox).unwrap();
        got.is_some()
    });
}
