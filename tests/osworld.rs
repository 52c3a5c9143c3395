//! OSWorld's VM protocol both ways, against real guests (`tuplewright env serve --osworld --app
//! files`: Xvfb, the files desktop, the sandbox): OSWorld's own client classes (PyPI desktop-env,
//! installed by .ci/setup into /opt/tuplewright/osworld-client) drive a guest; a public bundle
//! verifies on two guests as an OSWorld-VM pool; a guest's screen is a rollout `Screen`; an
//! endpoint that is down is an infrastructure failure, never a score.

use crate::open_envs_support;
use crate::osworld_support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use osworld_support::{dead_port, eventually, serve, serve_files, terminal_focused};
use tuplewright::engine::osworld::{GuestClient, RemoteScreen};
use tuplewright::engine::rollout::screen::{ComputerAction, Observation, Screen as _};
use tuplewright::engine::rollout::RolloutError;

const CLIENT_PYTHON: &str = "/opt/tuplewright/osworld-client/bin/python3";

#[test]
fn desktop_env_python_controller_drives_env_serve_osworld() {
    assert!(
        Path::new(CLIENT_PYTHON).exists(),
        "this test needs OSWorld's client venv: run .ci/setup"
    );
    let guest = serve_files();
    let work = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/osworld_client.py");
    let out = Command::new(CLIENT_PYTHON)
        .arg(&script)
        .arg(&guest.url)
        .arg(work.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the OSWorld client failed: {stderr}");
    let seen: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        seen["screen_size"],
        serde_json::json!({"width": 1280, "height": 800})
    );
    assert_eq!(seen["execute"], "Size(width=1280, height=800)");
    assert_eq!(seen["run_python"], "42 /home/user");
    assert_eq!(seen["uploaded_bytes"], 256 * 40 + "Grüße\n".len());
    assert_eq!(seen["clicked"], true);
}

const SETUP: &str = r#"import os
os.makedirs('/home/user/Documents', exist_ok=True)
with open('/home/user/Documents/figures.txt', 'w') as f:
    f.write('20\n22\n')
os.system('DISPLAY=:0 libreoffice --writer /home/user/Documents/figures.txt &')
"#;
const GOLDEN: &str = "open('/home/user/Documents/total.txt', 'w').write('total: 42\\n')\n";
const WRONG_GOLDEN: &str = "open('/home/user/Documents/total.txt', 'w').write('total: 41\\n')\n";
const REWARD: &str = r#"import os, sys
p = '/home/user/Documents/total.txt'
ok = os.path.isfile('/home/user/Documents/figures.txt') and os.path.isfile(p) and open(p).read().strip() == 'total: 42'
print(('PASS' if ok else 'FAIL') + ': total written')
print('REWARD: ' + ('1.0' if ok else '0.0'))
sys.stderr.write('a warning printed after the reward line\n')
"#;

fn bundle(dir: &Path, golden: &str) -> std::path::PathBuf {
    open_envs_support::write_bundle(
        dir,
        &open_envs_support::PublicBundle {
            id: "os_sum_figures_osw_001",
            app_type: "os",
            domain: None,
            setup: SETUP,
            golden,
            reward: REWARD,
        },
    )
}

/// `tuplewright osworld verify BUNDLE --json` with `[osworld]` naming `urls`.
fn verify(
    dir: &Path,
    urls: &[&str],
    extra: &str,
    bundle: &Path,
) -> (Option<i32>, serde_json::Value, String) {
    let hook = "curl -sf -X POST {url}/run_bash_script -H 'Content-Type: application/json' \
                -d '{\"script\": \"rm -rf ~/Documents\"}' >/dev/null && echo {url} >> REVERTS"
        .replace("REVERTS", &dir.join("reverts.log").display().to_string());
    let mut toml = format!("[osworld]\nhealth_timeout_secs = 5\n{extra}\n");
    for u in urls {
        toml.push_str(&format!(
            "[[osworld.endpoints]]\nurl = \"{u}\"\nrevert = '''{hook}'''\n"
        ));
    }
    std::fs::write(dir.join("tuplewright.toml"), toml).unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .args(["--no-tui", "osworld", "verify", "--json"])
        .arg(bundle)
        .current_dir(dir)
        .env_remove("TUPLEWRIGHT_CONFIG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let v = serde_json::from_str(text.trim()).unwrap_or(serde_json::Value::Null);
    (out.status.code(), v, format!("{text}\n{err}"))
}

#[test]
fn a_public_os_bundle_verifies_on_two_osworld_guests_and_a_wrong_golden_patch_does_not() {
    let (a, b) = (serve_files(), serve_files());
    let dir = tempfile::tempdir().unwrap();
    let good = bundle(&dir.path().join("good"), GOLDEN);
    let (code, v, out) = verify(dir.path(), &[&a.url, &b.url], "", &good);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(v["ok"], true, "{out}");
    assert_eq!(v["init"]["reward"], 0.0, "{out}");
    assert_eq!(v["gold"]["reward"], 1.0, "{out}");
    assert_eq!(v["init"]["steps"], 2, "download + execute: {out}");
    assert!(
        v["gold"]["reward_stderr"]
            .as_str()
            .unwrap()
            .contains("a warning printed after"),
        "stderr is kept apart from the REWARD line: {out}"
    );
    let reverts = std::fs::read_to_string(dir.path().join("reverts.log")).unwrap();
    assert!(
        reverts.contains(&a.url) && reverts.contains(&b.url),
        "{reverts}"
    );

    // The revert hook cleared the home: the wrong patch's result is scored, not the last run's.
    let wrong = bundle(&dir.path().join("wrong"), WRONG_GOLDEN);
    let (code, v, out) = verify(dir.path(), &[&a.url, &b.url], "", &wrong);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(v["ok"], false, "{out}");
    assert_eq!(
        v["failing"],
        serde_json::json!(["reward(V_gold)=1"]),
        "{out}"
    );
    assert_eq!(v["gold"]["reward"], 0.0, "{out}");
}

#[test]
fn an_endpoint_that_is_down_is_an_infrastructure_failure_never_a_score() {
    let dir = tempfile::tempdir().unwrap();
    let good = bundle(&dir.path().join("b"), GOLDEN);
    let down = format!("http://127.0.0.1:{}", dead_port());
    let other = format!("http://127.0.0.1:{}", dead_port());
    let (code, v, out) = verify(dir.path(), &[&down, &other], "", &good);
    assert_eq!(code, Some(3), "{out}");
    assert!(v["ok"].is_null(), "{out}");
    assert!(v.get("init").is_none(), "no reward recorded: {out}");
    assert!(
        out.contains("infrastructure failure") && out.contains(&down),
        "{out}"
    );
    // One endpoint only: the pool needs two (V_init, V_gold) and says so.
    let (code, _, out) = verify(dir.path(), &[&down], "", &good);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("two per task"), "{out}");
}

#[test]
fn a_guests_screen_is_a_rollout_screen_driven_by_pyautogui() {
    let guest = serve_files();
    let client = GuestClient::new(&guest.url).unwrap();
    let screen = RemoteScreen::new(client.clone());
    match screen.observe().unwrap() {
        Observation::Screenshot { png, width, height } => {
            assert_eq!((width, height), (1280, 800));
            assert!(png.starts_with(b"\x89PNG"));
        }
        other => panic!("{other:?}"),
    }
    screen
        .perform(&ComputerAction::LeftClick { x: 640, y: 620 })
        .unwrap();
    // Keys go where the focus is, and the window manager moves it in its own time: type once
    // the guest's accessibility tree shows the terminal focused.
    assert!(
        eventually(30, || terminal_focused(&client)),
        "the click focused the terminal: {:?}",
        client.accessibility()
    );
    for a in [
        ComputerAction::Type {
            text: "echo \"rs $((6*7))\" > ~/Desktop/rs.txt".into(),
        },
        ComputerAction::Key {
            key: "Return".into(),
        },
    ] {
        screen.perform(&a).unwrap();
    }
    let t = Duration::from_secs(30);
    assert!(
        eventually(60, || client
            .file("/home/user/Desktop/rs.txt", t)
            .ok()
            .flatten()
            == Some(b"rs 42\n".to_vec())),
        "the click focused the terminal and the typed line ran"
    );
    assert!(matches!(
        screen.perform(&ComputerAction::CallUser {
            question: "?".into()
        }),
        Err(RolloutError::Policy(_))
    ));
    let dead =
        RemoteScreen::new(GuestClient::new(&format!("http://127.0.0.1:{}", dead_port())).unwrap());
    assert!(matches!(dead.observe(), Err(RolloutError::Infra(_))));
    assert!(matches!(
        dead.perform(&ComputerAction::LeftClick { x: 1, y: 1 }),
        Err(RolloutError::Infra(_))
    ));
}

#[test]
fn env_serve_osworld_task_serves_v_init_and_the_guest_sees_only_its_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let path = bundle(&dir.path().join("in"), GOLDEN);
    let db = dir.path().join("tuplewright.db");
    let a = open_envs_support::tw(&db).arg("import").arg(&path).assert();
    assert!(
        a.get_output().status.success(),
        "{}",
        open_envs_support::output(&a)
    );
    let guest = serve(dir, &["--task", "os_sum_figures_osw_001"]);
    let client = GuestClient::new(&guest.url).unwrap();
    let t = Duration::from_secs(60);
    // initial_setup.py ran in the environment before it was served.
    let figures = client.file("/home/user/Documents/figures.txt", t).unwrap();
    assert_eq!(figures.as_deref(), Some(&b"20\n22\n"[..]));
    // The host's files are not the guest's: /etc/shadow and /root are not in the sandbox.
    assert_eq!(client.file("/etc/shadow", t).unwrap(), None);
    let r = client
        .execute(
            &serde_json::json!("ln -s /root ~/root-link; ls ~/root-link/"),
            true,
            false,
            t,
        )
        .unwrap();
    assert_ne!(r.returncode, 0, "{r:?}");
    assert_eq!(
        client.file("/home/user/root-link/.bashrc", t).unwrap(),
        None
    );
}

#[test]
fn a_gui_launch_line_of_a_setup_opens_on_the_guests_screen() {
    let guest = serve_files();
    let client = GuestClient::new(&guest.url).unwrap();
    // The published shape: a bash line naming a display that is not this guest's. Not
    // backgrounded here: a backgrounded launch is recorded only if its stub runs before the script
    // (the sandbox's pid 1) exits, which lost the race in a loaded full-suite run (a known gap,
    // docs/open-environments.md).
    let r = client
        .run_bash(
            "DISPLAY=:0 google-chrome --new-window about:blank\nDISPLAY=:0 xdotool search --name x\necho launched",
            120.0,
            None,
        )
        .unwrap();
    assert_eq!(r.returncode, 0, "{r:?}");
    // Chromium's window appears in the guest's own accessibility tree (it starts slowly on a
    // loaded machine: polled with a generous deadline).
    let seen = eventually(120, || {
        client.accessibility().is_ok_and(|xml| {
            tuplewright::engine::osworld::a11y::windows_of(&xml)
                .iter()
                .any(|w| w.class.contains("chrom"))
        })
    });
    assert!(
        seen,
        "no Chromium window: {:?}",
        client.accessibility().ok()
    );
}
