//! Screen trials end to end on a real Xvfb and the real files desktop: a shipped files task is
//! built by `tuplewright run`, then `rollout --policy ui-oracle` does it through the desktop only
//! (click the terminal, type, Return; every step stored with its screenshot) to reward 1.0, and
//! `rollout --policy noop --screen` starts the same screen, looks at it and scores 0.0.

use crate::shipped_support;

use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use shipped_support::{store_of, tw};
use tuplewright::engine::store::Store;

/// A store holding the shipped files task `id`, accepted by the loop.
fn store_with(dir: &Path, id: &str) -> std::path::PathBuf {
    store_of(dir, "files.json", id)
}

#[test]
fn ui_oracle_does_a_shipped_files_task_through_the_desktop_and_noop_on_the_screen_scores_0() {
    let dir = tempfile::tempdir().unwrap();
    let id = "files_tidy_001";
    let store = store_with(dir.path(), id);
    let (code, out, err) = tw(&store, &["rollout", "--policy", "ui-oracle", "--json"]);
    assert_eq!(code, 0, "ui-oracle scores 1.0: {out}\n{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    let trial = &rows[0]["trials"][0];
    assert_eq!(trial["reward"], 1.0, "{rows}");
    let steps = trial["steps"].as_array().unwrap();
    let kinds: Vec<&str> = steps
        .iter()
        .map(|s| s["action"]["action"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["screenshot", "left_click", "type", "key"], "{rows}");
    // Steps record when they began and how long they took, in order.
    let at: Vec<u64> = steps.iter().map(|s| s["at_ms"].as_u64().unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] <= w[1]), "{at:?}");
    assert!(steps.iter().all(|s| s["screenshot"]["sha256"].is_string()));
    // issue #28: each frame of the desktop was taken once the display had settled, and the
    // typed command shows on the frame after it.
    assert!(steps.iter().all(|s| s["settle_ms"].is_u64()), "{rows}");
    assert_ne!(
        steps[2]["screenshot"]["sha256"], steps[1]["screenshot"]["sha256"],
        "{rows}"
    );
    assert!(rows[0]["screenshots_dir"].is_string());

    let (code, out, err) = tw(
        &store,
        &["rollout", "--policy", "noop", "--screen", "--json"],
    );
    assert_eq!(code, 0, "noop through the screen scores 0.0: {out}\n{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["trials"][0]["reward"], 0.0, "{rows}");
    assert_eq!(rows[0]["trials"][0]["steps"].as_array().unwrap().len(), 1);

    // The store holds both trials' steps; every screenshot is a readable PNG of the screen.
    let s = Store::open_readonly(&store, Duration::from_secs(5)).unwrap();
    let ids = s.rollout_ids(id).unwrap();
    assert_eq!(ids.len(), 2);
    let steps = s.trial_steps(ids[0]).unwrap();
    assert_eq!(steps.len(), 4, "the first observation and three actions");
    // The Rollouts screen's screenshot is the trial's last one, a file of the store.
    let shown = s.rollouts(id).unwrap()[0].detail["screenshot"].clone();
    let last = s
        .screenshots()
        .path_of(&steps[3].screenshot.as_ref().unwrap().sha256)
        .unwrap();
    assert_eq!(shown, last.display().to_string());
    for step in &steps {
        let shot = step.screenshot.as_ref().unwrap();
        assert_eq!((shot.width, shot.height), (1280, 800));
        let png = s.screenshot_png(&shot.sha256).unwrap();
        assert!(image::load_from_memory(&png).is_ok());
    }
}

#[test]
fn ui_oracle_does_a_shipped_team_chat_task_through_its_web_ui_and_noop_on_that_screen_scores_0() {
    let dir = tempfile::tempdir().unwrap();
    let id = "teamchat_topic_001";
    let store = store_of(dir.path(), "team-chat.json", id);
    let (code, out, err) = tw(&store, &["rollout", "--policy", "ui-oracle", "--json"]);
    assert_eq!(code, 0, "ui-oracle scores 1.0: {out}\n{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    let trial = &rows[0]["trials"][0];
    assert_eq!(trial["reward"], 1.0, "{rows}");
    let steps = trial["steps"].as_array().unwrap();
    // Every effect was a click, a key or typing on the screen, each with its screenshot.
    assert!(steps.len() >= 3, "{rows}");
    assert_eq!(
        steps[0]["action"]["action"], "screenshot",
        "the first observation (#36)"
    );
    assert!(steps[1..].iter().all(|s| {
        let kind = s["action"]["action"].as_str().unwrap_or_default();
        ["left_click", "double_click", "type", "key", "scroll"].contains(&kind)
    }));
    assert!(steps.iter().all(|s| s["screenshot"]["sha256"].is_string()));

    let (code, out, err) = tw(
        &store,
        &["rollout", "--policy", "noop", "--screen", "--json"],
    );
    assert_eq!(
        code, 0,
        "noop through the UI's screen scores 0.0: {out}\n{err}"
    );
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["trials"][0]["reward"], 0.0, "{rows}");

    // `screen shot --task` writes the screen a trial of the task starts on (s_init on the UI),
    // records nothing, and refuses an app the task is not of.
    let png = dir.path().join("s_init.png");
    let (code, out, err) = tw(
        &store,
        &[
            "screen",
            "shot",
            "--task",
            id,
            "--app",
            "team-chat",
            "--out",
            png.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let img = image::open(&png).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (1280, 800));
    let first = img.get_pixel(0, 0);
    assert!(img.pixels().any(|p| p != first), "the shot shows the UI");
    let s = Store::open_readonly(&store, Duration::from_secs(5)).unwrap();
    assert_eq!(s.rollout_ids(id).unwrap().len(), 2, "the shot is no trial");
    let (code, _, err) = tw(
        &store,
        &[
            "screen",
            "shot",
            "--task",
            id,
            "--app",
            "mail",
            "--out",
            "/dev/null",
        ],
    );
    assert_ne!(code, 0);
    assert!(err.contains("is of team-chat, not mail"), "{err}");
}

/// `xdotool` on `display` (Debian's xdotool drives the display through XTEST, as a person's VNC
/// viewer would); `--sync` searches wait on the window, so no fixed sleeps.
fn xdotool(display: &str, args: &[&str]) -> String {
    let out = std::process::Command::new("xdotool")
        .env("DISPLAY", display)
        .args(args)
        .output()
        .expect("xdotool (.ci/setup)");
    assert!(
        out.status.success(),
        "xdotool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The `env try` process, ended on every path: the done file first (it tears its screen down
/// itself), a kill if it has not exited within 30 s.
struct TryProcess {
    child: std::process::Child,
    until: std::path::PathBuf,
}

impl TryProcess {
    /// Tells the person is done (the `--until` file), then checks the try ended well: exit 0,
    /// reward 1.0, one `human` trial in the store (opened read-only and returned).
    fn finish(
        &mut self,
        lines: &mut impl Iterator<Item = std::io::Result<String>>,
        store: &Path,
        id: &str,
    ) -> Store {
        std::fs::write(&self.until, "").unwrap();
        let result: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
        let status = self.child.wait().unwrap();
        let mut err = String::new();
        let mut stderr = self.child.stderr.take().unwrap();
        std::io::Read::read_to_string(&mut stderr, &mut err).unwrap();
        assert!(status.success(), "{result}\n{err}");
        assert_eq!(result["reward"], 1.0, "{result}");
        let s = Store::open_readonly(store, Duration::from_secs(5)).unwrap();
        let rollouts = s.rollouts(id).unwrap();
        assert_eq!(rollouts.len(), 1);
        assert_eq!(rollouts[0].model, "human");
        assert_eq!(rollouts[0].reward, Some(1.0));
        s
    }

    /// `tuplewright env try ID --json --until UNTIL` on `store`, stdout and stderr piped.
    fn spawn(store: &Path, id: &str, until: &Path) -> TryProcess {
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
            .args(["--no-tui", "--store"])
            .arg(store)
            .args(["env", "try", id, "--json", "--until"])
            .arg(until)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        TryProcess {
            child,
            until: until.to_path_buf(),
        }
    }
}

impl Drop for TryProcess {
    fn drop(&mut self) {
        let _ = std::fs::write(&self.until, "");
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn env_try_serves_the_desktop_over_loopback_vnc_and_records_the_persons_result() {
    use std::io::{BufRead, Read};
    let dir = tempfile::tempdir().unwrap();
    let id = "files_sort_001";
    let store = store_with(dir.path(), id);
    let until = dir.path().join("done");
    let mut child = TryProcess::spawn(&store, id, &until);
    let mut lines = std::io::BufReader::new(child.child.stdout.take().unwrap()).lines();
    let access: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let display = access["display"].as_str().unwrap().to_string();
    let vnc = access["vnc"].as_str().unwrap();
    assert!(vnc.starts_with("127.0.0.1:"), "{access}");
    // A VNC server answers there with the RFB banner.
    let mut banner = [0u8; 12];
    std::net::TcpStream::connect(vnc)
        .unwrap()
        .read_exact(&mut banner)
        .unwrap();
    assert!(banner.starts_with(b"RFB "), "{banner:?}");
    // The person: click the terminal, type the moves, Return; the command retitles the terminal.
    let term = xdotool(&display, &["search", "--sync", "--name", "^Terminal$"]);
    xdotool(&display, &["windowactivate", "--sync", &term]);
    xdotool(
        &display,
        &["mousemove", "--window", &term, "300", "100", "click", "1"],
    );
    let task = shipped_support::shipped_task("files.json", id);
    let command =
        tuplewright::apps::files::planner::files_command("move_files", &task["slots"]).unwrap();
    let text = format!("{command} && printf '\\033]2;%s\\007' person-done");
    xdotool(&display, &["type", "--delay", "2", &text]);
    xdotool(&display, &["key", "Return"]);
    xdotool(&display, &["search", "--sync", "--name", "^person-done$"]);
    let s = child.finish(&mut lines, &store, id);
    let steps = s.trial_steps(s.rollout_ids(id).unwrap()[0]).unwrap();
    assert!(
        steps[0].screenshot.is_some(),
        "the final screenshot is kept"
    );
}

/// One HTTP/1.1 request to `addr` (`host:port`), as a person's browser sends it; the status line.
fn http(addr: &str, request: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.lines().next().unwrap_or_default().to_string()
}

/// `application/x-www-form-urlencoded` of one value.
fn form_value(v: &str) -> String {
    v.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn env_try_serves_a_team_chat_task_on_its_agent_facing_url_and_scores_what_the_person_did() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let id = "teamchat_topic_001";
    let store = store_of(dir.path(), "team-chat.json", id);
    let until = dir.path().join("done");
    let mut child = TryProcess::spawn(&store, id, &until);
    let mut lines = std::io::BufReader::new(child.child.stdout.take().unwrap()).lines();
    let access: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let url = access["url"].as_str().unwrap();
    let addr = url
        .strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{access}");
    let get = |path: &str| {
        http(
            &addr,
            &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
        )
    };
    assert!(get("/c/C04/details").contains(" 200 "));
    // The agent-facing origin has no state API behind the UI's back.
    assert!(get("/go").contains(" 404 "));
    // The person saves the form of the details page, as their browser would post it.
    let body = format!(
        "back=%2Fc%2FC04%2Fdetails&channel=C04&topic={}&purpose={}",
        form_value("Onboarding redesign \u{2013} reviews on Tuesdays"),
        form_value("Design reviews and critiques for the onboarding project")
    );
    let status = http(
        &addr,
        &format!(
            "POST /op/set_topic HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(status.contains(" 303 "), "{status}");
    child.finish(&mut lines, &store, id);
}

/// A headless `rollout --policy ui-oracle` in another process, followed from this one the way
/// the workbench's store worker follows the log: every step reaches the store as it happens
/// (`rollout.step`, its screenshot file written first), before the trial's record, numbered as
/// the stored steps; the workbench's live trial gathers them and closes on the record.
#[test]
fn a_headless_ui_oracle_rollout_is_followed_live_step_by_step_from_another_process() {
    use tuplewright::engine::rollout::live_steps::{LiveStep, STEP_EVENT};
    use tuplewright::tui::data::DataUpdate;
    use tuplewright::tui::filmstrip_data::{load_frame, FrameRequest, LIVE};
    use tuplewright::tui::rollouts_data::Screenshot;

    let dir = tempfile::tempdir().unwrap();
    let id = "files_tidy_001";
    let store = store_with(dir.path(), id);
    let s = Store::open_readonly(&store, Duration::from_secs(5)).unwrap();
    let mut seq = s.last_event_seq().unwrap();
    let path = store.clone();
    let run = std::thread::spawn(move || tw(&path, &["rollout", "--policy", "ui-oracle"]));
    let mut m = tuplewright::tui::model::Model::new(Default::default(), false);
    let mut events = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    loop {
        let finished = run.is_finished();
        let (update, next) = tuplewright::tui::worker::poll_events(&s, seq);
        seq = next;
        if let Some(DataUpdate::Events(batch)) = update {
            events.extend(batch.iter().cloned());
            m.update(tuplewright::tui::model::Msg::Data(DataUpdate::Events(
                batch,
            )));
        }
        if events.iter().any(|e| e.kind == "rollout.recorded") || finished {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no record in 600 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (code, out, err) = run.join().unwrap();
    assert_eq!(code, 0, "{out}\n{err}");
    let at = |kind: &str| {
        events
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| e.seq)
            .collect::<Vec<_>>()
    };
    let recorded = at("rollout.recorded");
    assert_eq!(recorded.len(), 1, "{events:?}");
    let steps: Vec<(i64, LiveStep)> = events
        .iter()
        .filter(|e| e.kind == STEP_EVENT)
        .map(|e| (e.seq, serde_json::from_value(e.payload.clone()).unwrap()))
        .collect();
    let kinds: Vec<&str> = steps
        .iter()
        .map(|(_, s)| s.action["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["screenshot", "left_click", "type", "key"],
        "{events:?}"
    );
    assert!(
        steps.iter().all(|(e, _)| *e < recorded[0]),
        "every step is in the store before the trial's record"
    );
    // Numbered as the stored steps, with the same screenshots.
    let rid = s.rollout_ids(id).unwrap()[0];
    let stored = s.trial_steps(rid).unwrap();
    for ((_, live), st) in steps.iter().zip(&stored) {
        assert_eq!(live.seq, st.seq);
        assert_eq!(live.action, st.action);
        assert_eq!(
            live.screenshot.as_deref(),
            st.screenshot.as_ref().map(|r| r.sha256.as_str())
        );
    }
    // The live frame loads from the screenshot directory, the click drawn on it.
    let (eseq, first) = &steps[1];
    let frame = load_frame(
        &s,
        &FrameRequest {
            key: (LIVE, *eseq),
            sha: first.screenshot.clone().unwrap(),
            action: first.action.clone(),
        },
    );
    assert!(matches!(frame.shot, Screenshot::Image(..)) && frame.marked);
    let live = m
        .rollouts
        .live
        .as_ref()
        .expect("the workbench followed the trial");
    assert_eq!((live.policy.as_str(), live.steps.len()), ("ui-oracle", 4));
    assert_eq!(live.recorded, Some((rid, Some(1.0))));
}

/// A `rollout --policy ui-oracle --jobs N` run on `store` with `config`, watched from outside:
/// its JSON rows and the most screens (marker directories of its pid) seen alive at once.
fn rollout_watched(store: &Path, config: &Path, jobs: u32) -> (Value, usize) {
    use std::io::Read as _;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .args(["--no-tui", "--store"])
        .arg(store)
        .arg("--config")
        .arg(config)
        .args(["rollout", "--policy", "ui-oracle", "--json", "--jobs"])
        .arg(jobs.to_string())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let prefix = format!("tuplewright-screen-{}-", child.id());
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).unwrap();
        s
    });
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(900);
    let mut peak = 0;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "rollout still running"
        );
        let alive = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .count();
        peak = peak.max(alive);
        std::thread::sleep(Duration::from_millis(5));
    };
    let (out, err) = (reader.join().unwrap(), err_reader.join().unwrap());
    assert!(status.success(), "--jobs {jobs}: {out}\n{err}");
    (serde_json::from_str(&out).unwrap(), peak)
}

/// What a run stored per tuple: task, trial, reward, failure, the actions performed.
fn outcomes(rows: &Value) -> Vec<Value> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let trials: Vec<Value> = r["trials"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    let actions: Vec<&Value> = t["steps"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| &s["action"])
                        .collect();
                    serde_json::json!([t["trial"], t["reward"], t["failure"], actions])
                })
                .collect();
            serde_json::json!([r["task_id"], trials, r["conclusion"]])
        })
        .collect()
}

/// issue #28: `rollout --jobs 2` stores the same trials and rewards as `--jobs 1`, runs trials
/// at once when the host allows it, and never holds more screens than `[worker] screens`.
#[test]
fn rollout_jobs_2_stores_what_jobs_1_stores_and_never_holds_more_screens_than_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let ids = [
        "files_tidy_001",
        "files_sort_001",
        "files_todo_001",
        "files_config_001",
    ];
    let tasks: Vec<Value> = ids
        .iter()
        .map(|id| shipped_support::shipped_task("files.json", id))
        .collect();
    let file = dir.path().join("tasks.json");
    std::fs::write(&file, serde_json::json!({ "tasks": tasks }).to_string()).unwrap();
    let store = dir.path().join("s.db");
    let (code, _, err) = tw(
        &store,
        &["run", "--jobs", "2", "--no-export", file.to_str().unwrap()],
    );
    assert_eq!(code, 0, "the loop accepts the tasks: {err}");
    let config = |name: &str, cap: Option<u32>| {
        let path = dir.path().join(name);
        let slots = dir.path().join("slots");
        let text = match cap {
            Some(n) => format!(
                "[worker]\nscreens = {n}\nhost_slots_dir = \"{}\"\n",
                slots.display()
            ),
            None => String::new(),
        };
        std::fs::write(&path, text).unwrap();
        path
    };
    let (serial, one) = rollout_watched(&store, &config("none.toml", None), 1);
    assert_eq!(one, 1, "one screen at a time, and one was seen");
    let (capped, peak) = rollout_watched(&store, &config("cap1.toml", Some(1)), 2);
    assert_eq!(
        peak, 1,
        "--jobs 2 under [worker] screens = 1 holds one screen at a time"
    );
    let (parallel, peak) = rollout_watched(&store, &config("cap2.toml", Some(2)), 2);
    assert_eq!(
        peak, 2,
        "--jobs 2 under [worker] screens = 2 runs two screens at once"
    );
    let want = outcomes(&serial);
    assert_eq!(want.len(), ids.len());
    assert!(
        want.iter().all(|t| t[1][0][1] == 1.0),
        "every trial scores 1.0: {want:?}"
    );
    assert_eq!(outcomes(&capped), want);
    assert_eq!(outcomes(&parallel), want);
}
