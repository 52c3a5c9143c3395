//! Public bundles run unmodified (issue #18 point 1), through the real binary, sandbox and state
//! API, on bundles written here in the published shapes (see /work/shared/REFERENCE.md): a
//! `mock_websites` bundle that mints its own sid and calls the hard-coded Hub host over HTTPS and
//! launches Chrome, an OSWorld-style `os` bundle, one reaching an app by an alias of
//! `tuplewright.toml` through a placeholder and a self-hosted port, and rewards importing
//! `reward_judge` in both call shapes. Each failure has its message checked.

use crate::open_envs_support;

use open_envs_support::{
    status, stored_scripts, tw, write_bundle, PublicBundle, NOTION_GOLDEN, NOTION_REWARD,
    NOTION_SETUP,
};

/// A `mock_websites` setup in the published shape: mints its sid into /tmp/task_web_sid, injects
/// the state at the hard-coded Hub host with `requests`, then launches Chrome on the display. The
/// state is in the built-in mail app's shape (`messages`, `account`), which `gmail` reaches: a
/// bundle in the Hub gmail mock's own shape (`emails`, `user`) does not fit mail's schema and is
/// refused (serve the Hub site as `[[apps.external]]` for those).
const GMAIL_SETUP: &str = r#"import json, os, subprocess, uuid
import requests

BASE_URL = 'https://cua-gym-gmail.xlang.ai'
sid = str(uuid.uuid4())
with open('/tmp/task_web_sid', 'w') as f:
    f.write(sid)

def email(i, folder, subject):
    return {'id': i, 'threadId': i, 'folder': folder, 'subject': subject, 'isRead': False,
            'from': {'name': 'N', 'email': 'n@news.example'}, 'to': [], 'labels': []}

state = {'account': {'email': 'demo@example.com'},
         'messages': [email('email_1', 'inbox', 'Standup'), email('email_2', 'inbox', 'Weekly digest')]}
r = requests.post(BASE_URL + '/post?sid=' + sid, json={'action': 'set', 'state': state}, timeout=30)
r.raise_for_status()
env = dict(os.environ, DISPLAY=':0')
subprocess.Popen(['google-chrome', '--new-window', BASE_URL + '/?sid=' + sid], env=env)
os.system('DISPLAY=:0 xdotool search --name Gmail windowactivate >/dev/null 2>&1 &')
print('initial state injected for', sid)
"#;

const GMAIL_GOLDEN: &str = r#"import copy, json, urllib.request

BASE_URL = 'https://cua-gym-gmail.xlang.ai'
with open('/tmp/task_web_sid') as f:
    sid = f.read().strip()
with urllib.request.urlopen(BASE_URL + '/go?sid=' + sid, timeout=30) as resp:
    data = json.loads(resp.read().decode())
state = copy.deepcopy(data['current_state'])
for e in state['messages']:
    if e['id'] == 'email_2':
        e['folder'] = 'archive'
req = urllib.request.Request(BASE_URL + '/post?sid=' + sid,
                             data=json.dumps({'action': 'set_current', 'state': state}).encode(),
                             headers={'Content-Type': 'application/json'})
urllib.request.urlopen(req, timeout=30).read()
"#;

/// A reward in the published shape: reads /go once at the Hub host, partial credit per component.
const GMAIL_REWARD: &str = r#"import json, urllib.request

BASE_URL = 'https://cua-gym-gmail.xlang.ai'

def main():
    with open('/tmp/task_web_sid') as f:
        sid = f.read().strip()
    with urllib.request.urlopen(BASE_URL + '/go?sid=' + sid, timeout=30) as resp:
        data = json.loads(resp.read().decode())
    emails = {e.get('id'): e for e in (data.get('current_state') or {}).get('messages', []) or []}
    kept = emails.get('email_1', {}).get('folder') == 'inbox'
    score = 0.0
    archived = kept and emails.get('email_2', {}).get('folder') == 'archive'
    print(('PASS' if archived else 'FAIL') + ': digest archived, standup kept')
    score += 0.6 if archived else 0.0
    unread = archived and emails['email_2'].get('isRead') is False
    print(('PASS' if unread else 'FAIL') + ': digest left unread')
    score += 0.4 if unread else 0.0
    print(f'Score: {score}/1.0')
    print(f'REWARD: {score}')

main()
"#;

/// An OSWorld-style file task: `app_type: "os"`, a GUI launch line, files under /home/user.
const OS_SETUP: &str = r#"import os
os.makedirs('/home/user/Documents', exist_ok=True)
with open('/home/user/Documents/figures.txt', 'w') as f:
    f.write('20\n22\n')
os.system('DISPLAY=:0 libreoffice --writer /home/user/Documents/figures.txt &')
"#;

const OS_GOLDEN: &str = r#"with open('/home/user/Documents/total.txt', 'w') as f:
    f.write('total: 42\n')
"#;

const OS_REWARD: &str = r#"import os
score = 0.0
base = '/home/user/Documents'
kept = os.path.isfile(os.path.join(base, 'figures.txt'))
total = ''
if kept and os.path.isfile(os.path.join(base, 'total.txt')):
    total = open(os.path.join(base, 'total.txt')).read()
ok = 'total: 42' in total
print(('PASS' if ok else 'FAIL') + ': total written')
score += 0.7 if ok else 0.0
exact = ok and total.strip() == 'total: 42'
print(('PASS' if exact else 'FAIL') + ': nothing else in the file')
score += 0.3 if exact else 0.0
print('REWARD: ' + str(score))
"#;

#[test]
fn a_mock_websites_bundle_minting_its_sid_and_calling_the_hub_host_verifies_unmodified() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let b = PublicBundle {
        id: "gmail_archive_digest_001",
        app_type: "mock_websites",
        domain: Some("mock_websites"),
        setup: GMAIL_SETUP,
        golden: GMAIL_GOLDEN,
        reward: GMAIL_REWARD,
    };
    let path = write_bundle(&dir.path().join("in"), &b);
    let a = tw(&db).arg("verify").arg(&path).assert();
    let out = open_envs_support::output(&a);
    assert!(a.get_output().status.success(), "{out}");
    assert!(
        out.contains("VERIFIED") && out.contains("imported -> final"),
        "{out}"
    );
    assert_eq!(status(&db, b.id), "final");
    // The stored scripts are the bundle's, byte for byte.
    assert_eq!(
        stored_scripts(&db, b.id),
        [GMAIL_SETUP, GMAIL_GOLDEN, GMAIL_REWARD]
    );
}

#[test]
fn an_os_bundle_verifies_unmodified_on_the_files_domain() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let b = PublicBundle {
        id: "os_sum_figures_001",
        app_type: "os",
        domain: None,
        setup: OS_SETUP,
        golden: OS_GOLDEN,
        reward: OS_REWARD,
    };
    let path = write_bundle(&dir.path().join("in"), &b);
    let a = tw(&db).arg("verify").arg(&path).assert();
    let out = open_envs_support::output(&a);
    assert!(a.get_output().status.success(), "{out}");
    assert_eq!(status(&db, b.id), "final", "{out}");
}

#[test]
fn an_unknown_hub_app_names_the_host_and_the_external_entry_and_an_alias_that_does_not_fit_is_refused(
) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let b = PublicBundle {
        id: "notion_archive_page_001",
        app_type: "mock_websites",
        domain: Some("mock_websites"),
        setup: NOTION_SETUP,
        golden: NOTION_GOLDEN,
        reward: NOTION_REWARD,
    };
    let path = write_bundle(&dir.path().join("in"), &b);
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let err = open_envs_support::output(&a);
    for needle in [
        "cua-gym-notion.xlang.ai",
        "[[apps.external]]",
        "name = \"notion\"",
        "issue-tracker",
    ] {
        assert!(err.contains(needle), "{needle} in\n{err}");
    }
    // No alias is suggested: a notion page is no issue.
    assert!(!err.contains("[apps.aliases]"), "{err}");
    assert_eq!(
        status(&db, b.id),
        "imported",
        "an unmapped app changes nothing"
    );
    // Mapped anyway: the setup's `pages` do not fit the issue tracker, and the task is refused
    // instead of verifying on an app whose screens never show them.
    std::fs::write(
        dir.path().join("tuplewright.toml"),
        "[apps.aliases]\nnotion = \"issue-tracker\"\n",
    )
    .unwrap();
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let err = open_envs_support::output(&a);
    for needle in [
        "invalid task",
        b.id,
        "app issue-tracker",
        "`pages` is not a key of this app's state",
    ] {
        assert!(err.contains(needle), "{needle} in\n{err}");
    }
    assert_eq!(status(&db, b.id), "imported", "{err}");
    assert_eq!(
        stored_scripts(&db, b.id),
        [NOTION_SETUP, NOTION_GOLDEN, NOTION_REWARD]
    );
}

#[test]
fn a_reward_importing_reward_judge_is_an_infrastructure_failure_in_both_call_shapes() {
    let keyword = GMAIL_REWARD.replace(
        "    print(f'Score: {score}/1.0')",
        "    try:\n        from reward_judge import call_llm_judge\n        \
         score += 0.0 * call_llm_judge(task_instruction='Archive the digest', \
         success_criteria='digest archived', state_excerpt=json.dumps(emails))\n    \
         except Exception:\n        score += 0.0\n    print(f'Score: {score}/1.0')",
    );
    let positional = GMAIL_REWARD.replace(
        "    print(f'Score: {score}/1.0')",
        "    import sys\n    sys.path.insert(0, '/tmp')\n    from reward_judge import call_llm_judge\n    \
         score = min(1.0, score + 0.0 * call_llm_judge('Archive the digest', 'digest archived', json.dumps(emails)))\n    \
         print(f'Score: {score}/1.0')",
    );
    for (n, reward) in [keyword, positional].iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("s.db");
        let id = format!("gmail_judge_digest_00{n}");
        let b = PublicBundle {
            id: &id,
            app_type: "mock_websites",
            domain: Some("mock_websites"),
            setup: GMAIL_SETUP,
            golden: GMAIL_GOLDEN,
            reward,
        };
        let path = write_bundle(&dir.path().join("in"), &b);
        let a = tw(&db).arg("verify").arg(&path).assert().failure();
        let err = open_envs_support::output(&a);
        assert!(err.contains("could not verify (status unchanged)"), "{err}");
        assert!(err.contains("no reward judge is configured"), "{err}");
        assert!(err.contains("not a score"), "{err}");
        // Even though the first shape swallows the exception: never recorded as a low score.
        assert_eq!(status(&db, &id), "imported", "{err}");
    }
}

#[test]
fn a_mock_websites_bundle_with_no_evidence_of_its_app_says_what_was_looked_for() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let setup = "import requests\nrequests.get('http://mock:8123/go?sid=x')\n";
    let b = PublicBundle {
        id: "mystery_task_001",
        app_type: "mock_websites",
        domain: Some("mock_websites"),
        setup,
        golden: setup,
        reward: "print('REWARD: 0.0')\n",
    };
    let path = write_bundle(&dir.path().join("in"), &b);
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let err = open_envs_support::output(&a);
    for needle in [
        "is a category",
        "https://cua-gym-<app>.xlang.ai",
        "__CUA_GYM_<APP>_URL__",
        "[apps.ports]",
        "\"8123\" = \"<app>\"",
    ] {
        assert!(err.contains(needle), "{needle} in\n{err}");
    }
}

#[test]
fn import_records_what_the_scanner_finds_in_a_bundles_reward() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let hack = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/scan_corpus/hacks/existence_early_exit_then_score.py");
    let reward = std::fs::read_to_string(&hack).unwrap();
    let b = PublicBundle {
        id: "os_existence_hack_001",
        app_type: "os",
        domain: None,
        setup: OS_SETUP,
        golden: OS_GOLDEN,
        reward: &reward,
    };
    let path = write_bundle(&dir.path().join("in"), &b);
    let scan = tw(&db)
        .arg("scan")
        .arg("--json")
        .arg(&hack)
        .assert()
        .code(1);
    let report: serde_json::Value = serde_json::from_slice(&scan.get_output().stdout).unwrap();
    let expected = report["reports"][0]["findings"].clone();
    assert!(!expected.as_array().unwrap().is_empty(), "{report}");
    tw(&db).arg("import").arg(&path).assert().success();
    let store =
        tuplewright::engine::store::Store::open(&db, std::time::Duration::from_secs(10)).unwrap();
    let rounds = store.rounds(b.id).unwrap();
    let found = &rounds.last().unwrap().round.scan_findings;
    let rules = |v: &serde_json::Value| -> Vec<(String, u64)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["rule"].as_str().unwrap().to_string(),
                    f["line"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(rules(found), rules(&expected), "stored: {found}");
}

#[test]
fn a_setup_writing_keys_the_app_does_not_have_fails_c1_blamed_on_the_setup() {
    use open_envs_support::hub_shapes::{
        script, GMAIL_HUB_GOLDEN, GMAIL_HUB_REWARD, GMAIL_HUB_SETUP,
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let [setup, golden, reward] = [GMAIL_HUB_SETUP, GMAIL_HUB_GOLDEN, GMAIL_HUB_REWARD].map(script);
    // Named `mail` itself (no alias): the bundle's own setup is what does not fit.
    let b = PublicBundle {
        id: "mail_hub_shape_001",
        app_type: "mock_websites",
        domain: Some("mail"),
        setup: &setup,
        golden: &golden,
        reward: &reward,
    };
    let path = write_bundle(&dir.path().join("in"), &b);
    let a = tw(&db)
        .arg("verify")
        .arg("--json")
        .arg(&path)
        .assert()
        .code(1);
    let rows: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    let row = &rows[0];
    assert_eq!(row["failing"][0], "C1", "{row}");
    let review = row["review_md"].as_str().unwrap();
    for needle in [
        "the state initial_setup.py leaves on app mail does not fit its schema",
        "is not a key of this app's state",
        "## Feedback for Setup-Gen",
    ] {
        assert!(review.contains(needle), "{needle} in\n{review}");
    }
    assert_eq!(status(&db, b.id), "verify_failed");
}
