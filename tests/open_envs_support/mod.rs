//! Helpers of tests/open_envs.rs: public-shape bundles on disk, the binary, the store.

pub mod hub_shapes;

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::assert::Assert;
use assert_cmd::Command;
use serde_json::json;
use tuplewright::engine::store::Store;

/// `tuplewright --store DB --no-tui`, run in the store's directory (its `tuplewright.toml` applies).
pub fn tw(store: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tuplewright").unwrap();
    cmd.arg("--store").arg(store).arg("--no-tui");
    cmd.current_dir(store.parent().unwrap());
    cmd.env_remove("TUPLEWRIGHT_STORE")
        .env_remove("TUPLEWRIGHT_CONFIG");
    cmd
}

/// stdout and stderr of a finished command, together.
pub fn output(a: &Assert) -> String {
    let o = a.get_output();
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A bundle in the public final layout.
pub struct PublicBundle<'a> {
    /// `config.json` id (also the folder).
    pub id: &'a str,
    /// `config.json` app_type (`mock_websites`, `os`, …).
    pub app_type: &'a str,
    /// task_config.json's `domain`; `None` = no task_config.json (OSWorld-style bundles).
    pub domain: Option<&'a str>,
    /// initial_setup.py.
    pub setup: &'a str,
    /// golden_patch.py.
    pub golden: &'a str,
    /// reward.py.
    pub reward: &'a str,
}

/// Writes `dir/<id>/` with config.json (object-store URLs, as published), the scripts and,
/// when the bundle has a domain, task_config.json.
pub fn write_bundle(dir: &Path, b: &PublicBundle<'_>) -> PathBuf {
    let path = dir.join(b.id);
    std::fs::create_dir_all(&path).unwrap();
    let base = format!("https://cua-gym.s3.amazonaws.com/tasks/{}", b.id);
    let config = json!({
        "instruction": "Do the task.",
        "id": b.id,
        "app_type": b.app_type,
        "config": [
            {"type": "download", "parameters": {"files": [{"url": format!("{base}/initial_setup.py"), "path": "/home/user/initial_setup.py"}]}},
            {"type": "execute", "parameters": {"command": "python3 /home/user/initial_setup.py"}}
        ],
        "evaluator": {"type": "python", "url": format!("{base}/reward.py")},
        "generated_at": "2026-04-02T10:00:00Z",
        "adversarial_rounds": 2,
    });
    std::fs::write(path.join("config.json"), config.to_string()).unwrap();
    if let Some(domain) = b.domain {
        let tc = json!({"task_id": b.id, "domain": domain, "task_instruction": "Do the task.",
                        "context": "", "difficulty": "easy"});
        std::fs::write(path.join("task_config.json"), tc.to_string()).unwrap();
    }
    for (name, text) in [
        ("initial_setup.py", b.setup),
        ("golden_patch.py", b.golden),
        ("reward.py", b.reward),
    ] {
        std::fs::write(path.join(name), text).unwrap();
    }
    path
}

fn store(db: &Path) -> Store {
    Store::open(db, Duration::from_secs(10)).unwrap()
}

/// The task's tuple status.
pub fn status(db: &Path, id: &str) -> String {
    store(db).task(id).unwrap().status
}

/// The scripts of the task's latest round: setup, golden patch, reward.
pub fn stored_scripts(db: &Path, id: &str) -> [String; 3] {
    let rounds = store(db).rounds(id).unwrap();
    let s = &rounds.last().unwrap().round.scripts;
    [&s.setup, &s.golden, &s.reward].map(|x| x.clone().unwrap_or_default())
}

/// Setup through the placeholders (reading the harness's sid), golden patch through a
/// self-hosted port, reward through the Hub host: all three reach the app `notion` is mapped to.
pub const NOTION_SETUP: &str = r#"import json, urllib.request
req = urllib.request.Request('__CUA_GYM_NOTION_URL__/post?sid=__CUA_GYM_SID__',
    data=json.dumps({'action': 'set', 'state': {'pages': [{'id': 'p1', 'title': 'Roadmap', 'archived': False},
                                                          {'id': 'p2', 'title': 'Old notes', 'archived': False}]}}).encode(),
    headers={'Content-Type': 'application/json'})
urllib.request.urlopen(req, timeout=30).read()
"#;

pub const NOTION_GOLDEN: &str = r#"import json, requests
sid = open('/tmp/task_web_sid').read().strip()
base = 'http://notion-mock.internal:8003'
state = requests.get(base + '/go?sid=' + sid, timeout=30).json()['current_state']
for p in state['pages']:
    if p['id'] == 'p2':
        p['archived'] = True
requests.post(base + '/post?sid=' + sid, json={'action': 'set_current', 'state': state}, timeout=30).raise_for_status()
"#;

pub const NOTION_REWARD: &str = r#"import requests
sid = open('/tmp/task_web_sid').read().strip()
data = requests.get('https://cua-gym-notion.xlang.ai/go?sid=' + sid, timeout=30).json()
pages = {p['id']: p for p in data['current_state'].get('pages', [])}
kept = pages.get('p1', {}).get('archived') is False
a = kept and pages.get('p2', {}).get('archived') is True
print(('PASS' if a else 'FAIL') + ': old notes archived')
b = a and pages['p2'].get('title') == 'Old notes'
print(('PASS' if b else 'FAIL') + ': title unchanged')
print('REWARD: ' + str((0.5 if a else 0.0) + (0.5 if b else 0.0)))
"#;

/// The notion bundle (a `mock_websites` task on the Hub's notion host) written under `<dir>/in`.
pub fn notion_bundle(dir: &Path, id: &str) -> PathBuf {
    let b = PublicBundle {
        id,
        app_type: "mock_websites",
        domain: Some("mock_websites"),
        setup: NOTION_SETUP,
        golden: NOTION_GOLDEN,
        reward: NOTION_REWARD,
    };
    write_bundle(&dir.join("in"), &b)
}
