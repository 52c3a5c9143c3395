//! `env serve --osworld` on every kind of environment (issue #28): a built-in web app's task (a
//! published `mock_websites` bundle reaching the Hub's gmail host) is served with its UI in
//! Chromium — the screenshot shows the page, `/accessibility` lists the page's widgets with
//! their places, a pyautogui click sent through `/execute` changes the session's state (read
//! back through the state API from `/run_python`) — and a task spanning apps gets the combined
//! screen. `/setup/launch` of a program that does not exist fails as OSWorld's server does.

use crate::open_envs_support;
use crate::osworld_support;

use std::time::Duration;

use osworld_support::{eventually, serve};
use serde_json::{json, Value};
use tuplewright::engine::osworld::GuestClient;

/// The published shape (tests/open_envs.rs): mints its sid, injects two messages at the Hub host
/// (in the built-in mail app's schema).
const GMAIL_SETUP: &str = r#"import json, uuid
import requests

BASE_URL = 'https://cua-gym-gmail.xlang.ai'
sid = str(uuid.uuid4())
with open('/tmp/task_web_sid', 'w') as f:
    f.write(sid)

def message(i, subject):
    return {'id': i, 'threadId': i, 'folder': 'inbox', 'subject': subject, 'body': 'Hello.',
            'date': '2026-03-01T09:00:00Z', 'isRead': False, 'isStarred': False, 'labels': [],
            'from': {'name': 'N', 'email': 'n@news.example'}, 'to': ['me@example.com'], 'cc': []}

state = {'messages': [message('m1', 'Standup'), message('m2', 'Weekly digest')]}
requests.post(BASE_URL + '/post?sid=' + sid, json={'action': 'set', 'state': state}, timeout=30).raise_for_status()
"#;

const GMAIL_GOLDEN: &str = "print('unused here')\n";
const GMAIL_REWARD: &str = "print('REWARD: 0.0')\n";

/// What this prints: the session's messages as the state API has them.
const READ_STATE: &str = r#"import json, urllib.request
sid = open('/tmp/task_web_sid').read().strip()
with urllib.request.urlopen('https://cua-gym-gmail.xlang.ai/go?sid=' + sid, timeout=30) as r:
    print(json.dumps(json.loads(r.read())['current_state']['messages']))
"#;

fn import_gmail(dir: &std::path::Path) {
    let b = open_envs_support::PublicBundle {
        id: "gmail_star_digest_001",
        app_type: "mock_websites",
        domain: Some("mock_websites"),
        setup: GMAIL_SETUP,
        golden: GMAIL_GOLDEN,
        reward: GMAIL_REWARD,
    };
    let path = open_envs_support::write_bundle(&dir.join("in"), &b);
    let a = open_envs_support::tw(&dir.join("tuplewright.db"))
        .arg("import")
        .arg(&path)
        .assert();
    let out = open_envs_support::output(&a);
    assert!(a.get_output().status.success(), "{out}");
}

/// The centre of the first element `<tag name="NAME" …>` of an accessibility tree.
fn centre(xml: &str, tag: &str, name: &str) -> Option<(i64, i64)> {
    let start = xml.find(&format!("<{tag} name=\"{name}\""))?;
    let line = xml[start..].lines().next()?;
    let pair = |key: &str| -> Option<(i64, i64)> {
        let at = line.find(&format!("{key}=\"("))? + key.len() + 3;
        let (a, rest) = line[at..].split_once(", ")?;
        let b = rest.split(')').next()?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    let ((x, y), (w, h)) = (pair("cp:screencoord")?, pair("cp:size")?);
    Some((x + w / 2, y + h / 2))
}

/// How many distinct colours a PNG has (a blank screen has one).
fn colours(png: &[u8]) -> usize {
    let img = image::load_from_memory(png).unwrap().to_rgb8();
    let mut seen = std::collections::HashSet::new();
    for p in img.pixels() {
        seen.insert(p.0);
        if seen.len() > 64 {
            break;
        }
    }
    seen.len()
}

fn emails(client: &GuestClient) -> Value {
    let r = client
        .execute(
            &json!(["python3", "-c", READ_STATE]),
            false,
            false,
            Duration::from_secs(60),
        )
        .unwrap();
    assert_eq!(r.returncode, 0, "{r:?}");
    serde_json::from_str(r.output.trim()).unwrap()
}

#[test]
fn a_web_task_is_served_with_its_ui_and_a_click_through_execute_changes_its_state() {
    let dir = tempfile::tempdir().unwrap();
    import_gmail(dir.path());
    let guest = serve(dir, &["--task", "gmail_star_digest_001"]);
    let client = GuestClient::new(&guest.url).unwrap();
    assert_eq!(client.screen_size().unwrap(), (1280, 800));
    let png = client.screenshot().unwrap();
    assert!(
        colours(&png) > 8,
        "the screenshot shows the mail UI, not a blank screen"
    );
    // The page's widgets, with their places on the screen, in OSWorld's tree shape.
    let xml = client.accessibility().unwrap();
    assert!(xml.contains("<application name=\"chromium\">"), "{xml}");
    let (x, y) = centre(&xml, "push-button", "Star Weekly digest")
        .unwrap_or_else(|| panic!("no star button for the digest in {xml}"));
    assert!((0..1280).contains(&x) && (0..800).contains(&y), "{x},{y}");
    let before = emails(&client);
    assert_eq!(before[1]["subject"], "Weekly digest", "{before}");
    assert_ne!(before[1]["isStarred"], true, "{before}");
    // OSWorld's harnesses act through /execute with pyautogui.
    let click = format!("import pyautogui; pyautogui.click({x}, {y})");
    let r = client
        .execute(
            &json!(["python3", "-c", click]),
            false,
            false,
            Duration::from_secs(60),
        )
        .unwrap();
    assert_eq!(r.returncode, 0, "{r:?}");
    let mut last = Value::Null;
    assert!(
        eventually(60, || {
            last = emails(&client);
            last[1]["isStarred"] == true
        }),
        "the click starred the digest in the session's state: {last}"
    );
    assert_ne!(last[0]["isStarred"], true, "only the digest: {last}");
    let after = client.screenshot().unwrap();
    assert_ne!(after, png, "the screen shows the change");
}

#[test]
fn a_task_spanning_apps_is_served_on_the_combined_screen() {
    let dir = tempfile::tempdir().unwrap();
    let guest = serve(dir, &["--app", "files", "--app", "issue-tracker"]);
    let client = GuestClient::new(&guest.url).unwrap();
    let png = client.screenshot().unwrap();
    assert!(colours(&png) > 8, "the combined screen is drawn");
    let xml = client.accessibility().unwrap();
    // The desktop's windows and the tracker's browser window, with its page's widgets inside.
    assert!(xml.contains("<application name=\"xterm\">"), "{xml}");
    let tracker = xml
        .split("<application name=\"tw-issue-tracker\">")
        .nth(1)
        .unwrap_or_else(|| panic!("no issue-tracker window in {xml}"));
    let frame = tracker.split("</application>").next().unwrap();
    assert!(
        frame.contains("<link name=") || frame.contains("<push-button name="),
        "the tracker's page widgets are in its frame: {frame}"
    );
    let r = client
        .run_bash("echo combined > ~/Desktop/c.txt", 60.0, None)
        .unwrap();
    assert_eq!(r.returncode, 0, "{r:?}");
}

fn launch(url: &str, command: Value) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(60)))
        .http_status_as_error(false)
        .build()
        .into();
    let mut r = agent
        .post(format!("{url}/setup/launch"))
        .send_json(json!({"command": command}))
        .unwrap();
    (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
}

#[test]
fn setup_launch_of_a_missing_program_fails_as_osworlds_server_does() {
    let guest = osworld_support::serve_files();
    // OSWorld's launch_app: Popen raises, the handler answers 500 {"status": "error", message}.
    let (status, body) = launch(&guest.url, json!(["no-such-program-here", "--x"]));
    assert_eq!(status, 500, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["status"], "error", "{body}");
    assert_eq!(
        v["message"],
        "[Errno 2] No such file or directory: 'no-such-program-here'"
    );
    // A path outside what the desktop's programs see is missing too.
    let (status, body) = launch(&guest.url, json!("/opt/nowhere/app"));
    assert_eq!(status, 500, "{body}");
    // A real program still starts: OSWorld's text answer.
    let (status, body) = launch(&guest.url, json!(["sleep", "30"]));
    assert_eq!(
        (status, body.as_str()),
        (200, "sleep 30 launched successfully")
    );
}
