//! Fixed test agents: real Python scripts against the team-chat state API, with knobs for mistakes.

use tuplewright::engine::agents::*;

pub const PRELUDE: &str = r#"import json, os, urllib.request
SID = open('/tmp/task_web_sid').read().strip()
BASE = os.environ['TW_STATE_URL']
def post(action, state):
    req = urllib.request.Request(BASE + '/post?sid=' + SID, data=json.dumps({'action': action, 'state': state}).encode(), headers={'Content-Type': 'application/json'})
    with urllib.request.urlopen(req) as r:
        assert json.load(r)['success']
def go():
    with urllib.request.urlopen(BASE + '/go?sid=' + SID) as r:
        return json.load(r)
"#;

pub const SETUP: &str = "post('set', {'channels': [{'id': 'C99', 'name': 'release', 'topic': 'Planning', 'members': ['U01']}]})\n";
pub const GOLDEN_OK: &str = "post('merge', {'channels': [{'id': 'C99', 'name': 'release', 'topic': 'Release 2.4 freeze', 'members': ['U01']}]})\n";
pub const GOLDEN_WRONG: &str = "post('merge', {'channels': [{'id': 'C99', 'name': 'release', 'topic': 'Release 2.3 freeze', 'members': ['U01']}]})\n";

pub const REWARD_OK: &str = r#"state = go()['current_state']
chans = {c['name']: c for c in state.get('channels', [])}
topic = chans.get('release', {}).get('topic', '')
names_release = 1.0 if 'Release 2.4' in topic else 0.0
says_freeze = 1.0 if 'freeze' in topic.lower() else 0.0
for name, weight, score in [('topic names release 2.4', 0.5, names_release), ('topic says freeze', 0.5, says_freeze)]:
    print('COMPONENT: ' + json.dumps({'name': name, 'weight': weight, 'score': score, 'detail': topic}))
print('REWARD: ' + str(0.5 * names_release + 0.5 * says_freeze))
"#;

/// A reward giving credit for the old topic's mere absence: a fresh or emptied state scores 1.0.
pub const REWARD_ABSENCE: &str = r#"state = go()['current_state']
chans = {c['name']: c for c in state.get('channels', [])}
changed = chans.get('release', {}).get('topic', '') != 'Planning'
print('COMPONENT: ' + json.dumps({'name': 'topic changed', 'weight': 1.0, 'score': 1.0 if changed else 0.0, 'detail': ''}))
print('REWARD: ' + ('1.0' if changed else '0.0'))
"#;

/// A reward that agrees with itself only by chance.
pub const REWARD_FLAKY: &str = r#"state = go()['current_state']
print('REWARD: ' + ('1.0' if os.urandom(1)[0] % 2 else '0.0'))
"#;

/// A reward that tries to read the Generator's scripts and other environments.
pub const REWARD_SNOOP: &str = r#"import glob, urllib.error
found = []
# By path and through /proc, then through a symlink made in the sandbox's private /tmp.
def look(patterns):
    for pattern in patterns:
        try:
            found.extend(glob.glob(pattern, recursive=True))
        except OSError:
            pass
look(['/tmp/**/initial_setup.py', '/tmp/**/golden_patch.py', '/proc/*/cwd/*.py', '/proc/*/root/tmp/*/*.py', '/root/**', '/work/**/tuplewright*.db', '/tmp/**/*.db', '/home/*/../*/initial_setup.py'])
try:
    os.symlink('/', '/tmp/rootlink')
except OSError:
    pass
look(['/tmp/rootlink/tmp/*/initial_setup.py', '/tmp/rootlink/tmp/*/*/initial_setup.py', '/tmp/rootlink/tmp/*/*.db'])
found = [f for f in found if os.path.isfile(f) and not f.startswith('/tmp/.tw/script/reward')]
# Through the state API: path tricks and another session's id.
for path in ['/files/' + SID + '/..%2F..%2Finitial_setup.py', '/state?sid=other-session', '/go?sid=' + SID + '&sid=other']:
    try:
        with urllib.request.urlopen(BASE + path) as r:
            body = r.read().decode()
            if 'initial_setup' in body or 'post(' in body:
                found.append(path)
    except urllib.error.HTTPError:
        pass
print('FOUND: ' + json.dumps(found))
print('REWARD: 0.0')
"#;

/// Generator that gets the golden patch wrong until it has seen a REVIEW.md.
pub struct TestGen {
    pub wrong_first: bool,
}

impl Generator for TestGen {
    fn name(&self) -> String {
        "test:gen".into()
    }
    fn generate(&self, input: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        let wrong = self.wrong_first && input.previous_review.is_none();
        Ok(GeneratorOutput {
            initial_setup: format!("{PRELUDE}{SETUP}"),
            golden_patch: format!("{PRELUDE}{}", if wrong { GOLDEN_WRONG } else { GOLDEN_OK }),
            usage: Usage {
                model: "test:gen".into(),
                calls: 1,
                input_tokens: 10,
                output_tokens: 20,
                cost_usd: 0.0,
            },
        })
    }
}

/// Discriminator returning a fixed reward body.
pub struct TestDisc {
    pub body: &'static str,
}

impl Discriminator for TestDisc {
    fn name(&self) -> String {
        "test:disc".into()
    }
    fn write_reward(
        &self,
        _: &DiscriminatorInput<'_>,
        probe: &dyn EnvProbe,
    ) -> Result<DiscriminatorOutput, AgentError> {
        // The probe is read-only and works on both endpoints.
        let state = probe.read_state(Endpoint::Gold)?;
        assert!(
            state["apps"]["team-chat"]["current_state"].is_object(),
            "{state}"
        );
        Ok(DiscriminatorOutput {
            reward: format!("{PRELUDE}{}", self.body),
            usage: Usage::default(),
        })
    }
}

/// Generator failing like a provider that is down.
pub struct DownGen;

impl Generator for DownGen {
    fn name(&self) -> String {
        "test:down".into()
    }
    fn generate(&self, _: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        Err(AgentError::Infra("HTTP 503 after 5 retries".into()))
    }
}

/// Cross-app scripts: a message in team-chat (via `TW_STATE_URL_TEAM_CHAT`) asks for an issue in the
/// issue-tracker (via its conventional port, `http://localhost:3103`), with the summary taken from a
/// file of the files domain.
pub const CROSS_PRELUDE: &str = r#"import json, os, urllib.request
SID = open('/tmp/task_web_sid').read().strip()
CHAT = os.environ['TW_STATE_URL_TEAM_CHAT']
TRACKER = 'http://localhost:3103'
def post(base, action, state):
    req = urllib.request.Request(base + '/post?sid=' + SID, data=json.dumps({'action': action, 'state': state}).encode(), headers={'Content-Type': 'application/json'})
    with urllib.request.urlopen(req) as r:
        assert json.load(r)['success']
def go(base):
    with urllib.request.urlopen(base + '/go?sid=' + SID) as r:
        return json.load(r)
"#;
pub const CROSS_SETUP: &str = "post(CHAT, 'set', {'messages': {'C01': [{'id': 'M9', 'userId': 'U02', 'text': 'Please file: ' + open('/home/user/Desktop/todo.md').readline().strip(), 'ts': '1.0', 'threadTs': None, 'replyCount': 0, 'edited': False, 'reactions': [], 'attachments': []}]}})\npost(TRACKER, 'set', {})\n";
pub const CROSS_GOLDEN: &str = "want = go(CHAT)['current_state']['messages']['C01'][0]['text'].split(': ', 1)[1]\nissues = go(TRACKER)['current_state']['issues']\npost(TRACKER, 'merge', {'issues': issues + [{'id': 'i999', 'key': 'WEB-999', 'projectId': 'p1', 'summary': want, 'status': 'To Do'}]})\n";
pub const CROSS_REWARD: &str = r#"want = open('/home/user/Desktop/todo.md').readline().strip()
asked = any(want in m['text'] for m in go(CHAT)['current_state']['messages'].get('C01', []))
new = [i for i in go(TRACKER)['state_diff'].get('issues', {}).get('new') or [] if i.get('summary') == want]
filed = 1.0 if new else 0.0
right_project = 1.0 if new and new[0].get('projectId') == 'p1' else 0.0
for name, weight, score in [('issue filed with the requested summary', 0.6, filed), ('issue in project WEB', 0.4, right_project)]:
    print('COMPONENT: ' + json.dumps({'name': name, 'weight': weight, 'score': score, 'detail': 'request seen' if asked else 'no request'}))
print('REWARD: ' + str(0.6 * filed + 0.4 * right_project))
"#;

/// Generator of the cross-app scripts.
pub struct CrossGen;

impl Generator for CrossGen {
    fn name(&self) -> String {
        "test:cross".into()
    }
    fn generate(&self, _: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        Ok(GeneratorOutput {
            initial_setup: format!("{CROSS_PRELUDE}{CROSS_SETUP}"),
            golden_patch: format!("{CROSS_PRELUDE}{CROSS_GOLDEN}"),
            usage: Usage::default(),
        })
    }
}

/// Discriminator of the cross-app reward.
pub struct CrossDisc;

impl Discriminator for CrossDisc {
    fn name(&self) -> String {
        "test:cross".into()
    }
    fn write_reward(
        &self,
        _: &DiscriminatorInput<'_>,
        probe: &dyn EnvProbe,
    ) -> Result<DiscriminatorOutput, AgentError> {
        let s = probe.read_state(Endpoint::Init)?;
        assert!(
            s["apps"]["issue-tracker"].is_object() && s["apps"]["team-chat"].is_object(),
            "{s}"
        );
        assert!(
            s["home"].as_array().is_some_and(|h| !h.is_empty()),
            "the files home is listed"
        );
        Ok(DiscriminatorOutput {
            reward: format!("{CROSS_PRELUDE}{CROSS_REWARD}"),
            usage: Usage::default(),
        })
    }
}
