//! What a run adds for published scripts (sandbox::localise), against the recording stand-in
//! upstream (`_standin`): a sid the script mints is mapped to the environment's, Hub hosts over
//! HTTPS and self-hosted ports reach the app with the role rules intact, placeholders are filled
//! in the run's copy, and GUI launch lines succeed and are recorded.

use crate::sandbox_support;

use sandbox_support::*;
use tuplewright::engine::sandbox::localise::gui_launches;
use tuplewright::engine::sandbox::{Localise, Outcome, Role};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_minted_sid_is_mapped_and_any_other_foreign_sid_still_refused_standin() {
    let env = Env::new();
    let up = StandIn::start().await;
    let src = r#"
import urllib.request, urllib.error
open('/tmp/task_web_sid', 'w').write('minted-1234')
for sid in ['minted-1234', 'other']:
    try:
        with urllib.request.urlopen('http://localhost:3000/go?sid=' + sid, timeout=10) as r:
            print(r.status)
    except urllib.error.HTTPError as e:
        print(e.code)
"#;
    let r = run(
        &env.spec("mine", Some(up.addr)),
        Role::Setup,
        src,
        &limits(30.0),
    )
    .await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(r.stdout.text, "200\n403\n");
    let seen = up.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].target, "/go?sid=mine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hub_hosts_over_https_self_hosted_ports_and_placeholders_reach_the_app_standin() {
    let env = Env::new();
    let up = StandIn::start().await;
    let mut spec = env.spec("mine", Some(up.addr));
    spec.localise = Localise {
        hub_names: vec![
            ("team-chat".into(), "team-chat".into()),
            ("slack".into(), "team-chat".into()),
        ],
        ports: vec![(8000, 8099, "team-chat".into())],
    };
    let src = r#"
import json, urllib.request, requests
print(requests.get('https://cua-gym-slack.xlang.ai/go?sid=mine', timeout=10).json()['target'])
with urllib.request.urlopen('https://cua-gym-slack.xlang.ai/state?sid=mine', timeout=10) as r:
    print(json.loads(r.read())['target'])
print(requests.get('http://slack-mock.internal:8042/go?sid=__CUA_GYM_SID__', timeout=10).json()['target'])
print(requests.get('__CUA_GYM_SLACK_URL__/go?sid=mine', timeout=10).json()['target'])
r = requests.post('https://cua-gym-slack.xlang.ai/post?sid=mine', json={'action': 'set', 'state': {}}, timeout=10)
print(r.status_code)
"#;
    let r = run(&spec, Role::Reader, src, &limits(30.0)).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(
        r.stdout.text, "/go?sid=mine\n/state?sid=mine\n/go?sid=mine\n/go?sid=mine\n403\n",
        "{}",
        r.stderr.text
    );
    let seen = up.seen();
    assert!(
        seen.iter().all(|s| s.role.as_deref() == Some("reader")),
        "{seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gui_launch_lines_succeed_without_a_screen_and_are_recorded() {
    let env = Env::new();
    let src = r#"
import os, subprocess
env = dict(os.environ, DISPLAY=':0')
subprocess.Popen(['google-chrome', '--new-window', 'https://cua-gym-gmail.xlang.ai/?sid=x'], env=env).wait()
assert os.system('DISPLAY=:0 libreoffice --calc /home/user/a.xlsx') == 0
print('ok')
"#;
    let r = run(&env.spec("mine", None), Role::Setup, src, &limits(30.0)).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(
        gui_launches(&r.notes),
        [
            "google-chrome --new-window https://cua-gym-gmail.xlang.ai/?sid=x",
            "libreoffice --calc /home/user/a.xlsx"
        ]
    );
}

/// The paper's setups end with their launches (`Popen` of Chromium, then of Calc, never
/// waited for). Both stubs append at the same moment, and the script ends while they run: each
/// run must still record both lines whole. Before the fix, lines written word by word came out
/// interleaved (`chromiumlibreoffice --user-data-dir=… --calc …`) and the last launch was lost
/// now and then (about 1 run in 10 under load), so Calc opened on no document.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launches_a_setup_ends_with_are_each_recorded_whole() {
    let env = Env::new();
    let src = r#"
import os, subprocess
env = dict(os.environ, DISPLAY=':0')
subprocess.Popen(['chromium', '--user-data-dir=/home/user/.config/chromium', 'chrome://bookmarks'], env=env, stdout=subprocess.DEVNULL)
subprocess.Popen(['libreoffice', '--calc', '/home/user/Documents/links.xlsx'], env=env, stdout=subprocess.DEVNULL)
"#;
    for attempt in 0..30 {
        let r = run(&env.spec("mine", None), Role::Setup, src, &limits(30.0)).await;
        assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
        let mut lines = gui_launches(&r.notes);
        lines.sort();
        assert_eq!(
            lines,
            [
                "chromium --user-data-dir=/home/user/.config/chromium chrome://bookmarks",
                "libreoffice --calc /home/user/Documents/links.xlsx"
            ],
            "run {attempt}"
        );
    }
}
