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

/// A reward that agrees with itself only by chance.
pub const REWARD_FLAKY: &str = r#"state = go()['current_state']
print('REWARD: ' + ('1.0' if os.urandom(1)[0] % 2 else '0.0'))
"#;

/// A reward that tries to read the Generator's scripts and other environments.
pub const REWARD_SNOOP: &str = r#"import glob
found = []
for pattern in ['/tmp/**/initial_setup.py', '/tmp/**/golden_patch.py', '/proc/*/cwd/*.py', '/root/**', '/work/**/tuplewright*.db', '/tmp/**/*.db', '/home/*/../*/initial_setup.py']:
    try:
        found += glob.glob(pattern, recursive=True)
    except OSError:
        pass
found = [f for f in found if os.path.isfile(f)]
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
