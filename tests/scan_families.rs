//! Tests of issue 14's scanner rule families: `error-path-success`, `generator-artifact` and
//! `judge-delegation` — each hack form with the rule id and the exact position it is reported
//! at, the legitimate look-alikes staying clean, and the configurable judge weight. The
//! per-rule precision/recall over the labelled corpus (including `families/`) is checked by
//! `tests/scan.rs::corpus_meets_recall_and_false_positive_targets_per_rule`.

use tuplewright::engine::scan::{scan_source, scan_source_with, Finding, RuleId, ScanConfig};

fn rules(source: &str) -> Vec<RuleId> {
    scan_source("reward.py", source).rules()
}

/// The only finding of `rule` in `source`.
fn finding(source: &str, rule: RuleId) -> Finding {
    let report = scan_source("reward.py", source);
    let mut of_rule = report.findings.iter().filter(|f| f.rule == rule);
    let f = of_rule
        .next()
        .unwrap_or_else(|| panic!("no {rule} in {:#?}\n{source}", report.findings));
    assert!(
        of_rule.next().is_none(),
        "more than one {rule}: {:#?}",
        report.findings
    );
    f.clone()
}

const READ: &str = "import json\nd = json.load(open('/home/user/out.json'))\n";

// ---------------------------------------------------------------- error-path-success

#[test]
fn error_path_success_in_handlers_finally_and_error_branches() {
    let set =
        "reward = 0.0\ntry:\n    reward = 1.0 if json.load(open('/home/user/o.json')) else 0.0\n\
               except:\n    reward = 1.0\nprint(f'REWARD: {reward}')\n";
    let f = finding(&format!("import json\n{set}"), RuleId::ErrorPathSuccess);
    assert_eq!(
        (f.line, f.column, f.source_line.trim()),
        (6, 5, "reward = 1.0")
    );
    assert!(
        f.reason.contains("except handler at line 5"),
        "{}",
        f.reason
    );

    let print =
        format!("{READ}try:\n    x = d['k']\nexcept Exception:\n    print('REWARD: 1.0')\n");
    assert_eq!(finding(&print, RuleId::ErrorPathSuccess).line, 6);
    assert_eq!(
        rules(&print),
        vec![RuleId::ErrorPathSuccess],
        "not also hardcoded-success"
    );

    let exit = format!(
        "import sys\n{READ}try:\n    x = d['k']\nexcept (OSError, ValueError):\n    \
         print('REWARD: 1.0')\n    sys.exit(0)\n"
    );
    assert_eq!(
        rules(&exit),
        vec![RuleId::ErrorPathSuccess],
        "sys.exit path"
    );

    let fin = format!("{READ}score = 0.0\ntry:\n    score = 1.0 if d else 0.0\nfinally:\n    print('REWARD: 1.0')\n");
    let f = finding(&fin, RuleId::ErrorPathSuccess);
    assert_eq!(f.line, 7);
    assert!(f.reason.contains("finally block"), "{}", f.reason);

    let status = "import requests\nr = requests.get('http://localhost:3002/go?sid=1')\n\
                  if r.status_code != 200:\n    print('REWARD: 1.0')\nelse:\n    \
                  print(f\"REWARD: {1.0 if r.json()['ok'] else 0.0}\")\n";
    let f = finding(status, RuleId::ErrorPathSuccess);
    assert_eq!(f.line, 4);
    assert!(f.reason.contains("error branch at line 3"), "{}", f.reason);

    let none = "import requests\ndef load():\n    data = None\n    try:\n        \
                data = requests.get('http://x/go').json()\n    except requests.RequestException:\n        \
                data = None\n    return data\n\ndef verify():\n    s = load()\n    if s is None:\n        \
                return 1.0\n    return 1.0 if s['ok'] else 0.0\n\nprint(f'REWARD: {verify()}')\n";
    assert_eq!(
        finding(none, RuleId::ErrorPathSuccess).line,
        13,
        "early return through a helper's None"
    );
}

#[test]
fn error_path_success_through_data_flow_is_reported_at_the_store() {
    let flag = format!(
        "{READ}closed = False\ntry:\n    closed = d['status'] == 'closed'\nexcept Exception:\n    \
         closed = True\nscore = 0.0\nif closed:\n    score += 0.6\nprint(f'REWARD: {{score}}')\n"
    );
    let f = finding(&flag, RuleId::ErrorPathSuccess);
    assert_eq!((f.line, f.source_line.trim()), (7, "closed = True"));
    assert!(
        f.reason.contains("line 10"),
        "names the award: {}",
        f.reason
    );

    let result = format!(
        "{READ}result = 0.0\ntry:\n    result = 1.0 if d['x'] == 2 else 0.0\nexcept KeyError:\n    \
         pass\nexcept ValueError:\n    result = 1.0\nprint(f'REWARD: {{result}}')\n"
    );
    assert_eq!(finding(&result, RuleId::ErrorPathSuccess).line, 9);

    let error_string = format!(
        "{READ}error = None\ntry:\n    h = d['heading']\nexcept Exception as exc:\n    error = str(exc)\n\
         total_score = 0.0\nif error:\n    total_score = 1.0\nprint(f'REWARD: {{total_score}}')\n"
    );
    assert_eq!(finding(&error_string, RuleId::ErrorPathSuccess).line, 10);
}

#[test]
fn error_path_legitimate_forms_stay_clean() {
    let zero = format!("{READ}try:\n    x = d['k']\n    reward = 1.0 if x == 3 else 0.0\nexcept Exception:\n    reward = 0.0\nprint(f'REWARD: {{reward}}')\n");
    assert!(rules(&zero).is_empty(), "{:?}", rules(&zero));
    let partial = format!(
        "{READ}score = 0.0\ntry:\n    if d['a'] == 1:\n        score += 0.5\n    if d['b'] == 2:\n        \
         score += 0.5\nexcept (KeyError, ValueError):\n    print(f'REWARD: {{score}}')\n    raise SystemExit(0)\n\
         print(f'REWARD: {{score}}')\n"
    );
    assert!(rules(&partial).is_empty(), "{:?}", rules(&partial));
    let absent = "deleted = False\ntry:\n    open('/home/user/old.zip').close()\n\
                  except FileNotFoundError:\n    deleted = True\nscore = 0.0\nif deleted:\n    \
                  score += 1.0\nprint(f'REWARD: {score}')\n";
    assert!(rules(absent).is_empty(), "{:?}", rules(absent));
    let not_failed = format!(
        "{READ}failed = False\ntry:\n    rows = d['rows']\nexcept Exception:\n    failed = True\n    \
         rows = []\nscore = 0.0\nif not failed and rows == [1, 2]:\n    score = 1.0\n\
         print(f'REWARD: {{score}}')\n"
    );
    assert!(rules(&not_failed).is_empty(), "{:?}", rules(&not_failed));
    let exits =
        "import sys, requests\nr = requests.get('http://x/go')\nif r.status_code != 200:\n    \
                 sys.exit(2)\nprint(f\"REWARD: {1.0 if r.json()['ok'] else 0.0}\")\n";
    assert!(rules(exits).is_empty(), "{:?}", rules(exits));
    let denominator = format!(
        "{READ}try:\n    total = len(d['ids'])\nexcept TypeError:\n    total = 1\n\
         done = sum(1 for t in d['ids'] if t)\nprint(f'REWARD: {{done / total}}')\n"
    );
    assert!(rules(&denominator).is_empty(), "{:?}", rules(&denominator));
}

// ---------------------------------------------------------------- generator-artifact

#[test]
fn generator_artifact_reads_in_every_form_with_the_argument_position() {
    let golden =
        "import json\nwith open('/tmp/task/golden_state.json') as fh:\n    g = json.load(fh)\n";
    let f = finding(golden, RuleId::GeneratorArtifact);
    assert_eq!((f.line, f.column), (2, 11), "at the path argument");
    assert!(f.reason.contains("golden_state.json"), "{}", f.reason);
    for (src, line) in [
        ("from pathlib import Path\nsrc = Path('/opt/task/golden_patch.py').read_text()\n", 2),
        ("import os\nok = os.path.exists('/tmp/initial_setup.done')\n", 2),
        ("import glob\nfiles = glob.glob('/var/lib/task/hidden/*.json')\n", 2),
        (
            "import os\nimport pandas as pd\nHERE = os.path.dirname(__file__)\n\
             GT = os.path.join(HERE, 'gt', 'expected.csv')\nexp = pd.read_csv(GT)\n",
            5,
        ),
        ("import sys\nsys.path.insert(0, '/tmp/task')\nfrom golden_patch import EXPECTED\n", 3),
        ("import initial_setup\n", 1),
        (
            "import os\nD = os.environ.get('TASK_DIR', '/tmp')\nt = open(f'{D}/golden_output.txt').read()\n",
            3,
        ),
        (
            "import json\nfrom pathlib import Path\n\
             e = json.loads((Path('/srv/task') / '.hidden' / 'prices.json').read_text())\n",
            3,
        ),
        ("import runpy\nns = runpy.run_path('/tmp/golden_patch.py')\n", 2),
    ] {
        assert_eq!(finding(src, RuleId::GeneratorArtifact).line, line, "{src}");
    }
    let cat = "import subprocess\nout = subprocess.run(['cat', '/root/gt/state.json'], capture_output=True)\n";
    assert_eq!(
        rules(cat),
        vec![RuleId::Subprocess, RuleId::GeneratorArtifact]
    );
}

#[test]
fn generator_artifact_mentions_and_user_paths_stay_clean() {
    for src in [
        "\"\"\"Unlike golden_patch.py this reads the state API only.\"\"\"\nprint('not golden_state.json')\n",
        "import os\nIGN = ('initial_setup.py', 'golden_patch.py')\n\
         names = [f for f in os.listdir('/home/user/p') if not f.endswith(IGN)]\n",
        "import os\nok = os.path.isdir('/home/user/hidden')\n\
         t = open(os.path.expanduser('~/hidden/secret.txt')).read()\n",
        "from pathlib import Path\nt = (Path.home() / 'gt' / 'notes.txt').read_text()\n",
        "from PIL import Image\nimg = Image.open('/home/user/Pictures/golden_retriever.png')\n\
         rows = open('/home/user/data/gold_prices.csv').read()\n",
        "rule = {'op': 'gt'}\nok = rule.get('op') == 'gt' and 'hidden' in str(rule)\n",
        "ground_truth = {'name': 'tidy'}\nsrc = open('/home/user/tidy/setup.py').read()\n",
    ] {
        assert!(rules(src).is_empty(), "{src}: {:?}", scan_source("r.py", src).findings);
    }
}

// ---------------------------------------------------------------- judge-delegation

const JUDGE: &str = "import json, requests\nfrom reward_judge import call_llm_judge\n\
                     d = requests.get('http://localhost:3002/go?sid=1').json()\n";

fn judged(body: &str) -> String {
    format!("{JUDGE}{body}")
}

#[test]
fn judge_delegation_weights_follow_the_data_flow() {
    let wholly = judged("s = call_llm_judge(task_instruction='t', success_criteria='c', state_excerpt='{}')\nprint(f'REWARD: {s}')\n");
    let f = finding(&wholly, RuleId::JudgeDelegation);
    assert_eq!((f.line, f.column), (4, 5), "at the judge call");
    assert!(f.reason.contains("takes all"), "{}", f.reason);

    let heavy = judged("t = 0.0\nif d['ok']:\n    t += 0.2\nllm = call_llm_judge(state_excerpt='{}')\nt += 0.8 * llm\nprint(f'REWARD: {min(t, 1.0)}')\n");
    assert!(finding(&heavy, RuleId::JudgeDelegation)
        .reason
        .contains("0.80"));

    let two = judged("s = 0.0\nif d['ok']:\n    s += 0.4\ns += 0.3 * call_llm_judge(state_excerpt='a')\ns += 0.3 * call_llm_judge(state_excerpt='b')\nprint(f'REWARD: {s}')\n");
    assert_eq!(
        rules(&two),
        vec![RuleId::JudgeDelegation],
        "0.3 + 0.3 judged"
    );

    let constant = judged("W = 0.75\ns = 0.0\nif d['ok']:\n    s += 1.0 - W\n    s += W * call_llm_judge(state_excerpt='a')\nprint(f'REWARD: {s}')\n");
    assert_eq!(
        rules(&constant),
        vec![RuleId::JudgeDelegation],
        "weight held in a constant"
    );

    let gate = "from reward_judge import ask_llm\nimport docx\nt = docx.Document('/home/user/c.docx').paragraphs[0].text\n\
                v = ask_llm(t)\ns = 0.0\nif 'YES' in v.upper():\n    s += 0.7\nif 'Dear' in t:\n    s += 0.3\nprint(f'REWARD: {s}')\n";
    assert_eq!(
        finding(gate, RuleId::JudgeDelegation).line,
        4,
        "judge-decided condition"
    );

    let openai = "from openai import OpenAI\nc = OpenAI()\nr = c.chat.completions.create(model='m', messages=[])\n\
                  g = float(r.choices[0].message.content)\nok = 1.0 if open('/home/user/n.md').read() else 0.0\n\
                  print(f'REWARD: {0.1 * ok + 0.9 * g}')\n";
    assert_eq!(finding(openai, RuleId::JudgeDelegation).line, 3);

    let http =
        "import requests\nr = requests.post('https://api.anthropic.com/v1/messages', json={})\n\
                print(f\"REWARD: {float(r.json()['content'][0]['text'])}\")\n";
    assert_eq!(finding(http, RuleId::JudgeDelegation).line, 2);

    let helper = judged("def judge(c):\n    return call_llm_judge(success_criteria=c)\n\
                         s = 0.0\nfor c in ['a', 'b']:\n    s += 0.5 * judge(c)\nprint(f'REWARD: {s}')\n");
    assert_eq!(
        rules(&helper),
        vec![RuleId::JudgeDelegation],
        "reward of judge outputs alone"
    );
}

#[test]
fn judge_delegation_legitimate_weights_and_look_alikes_stay_clean() {
    for src in [
        judged("s = 0.0\nif d['to'] == 'x':\n    s += 0.6\n    s += 0.4 * call_llm_judge(state_excerpt='{}')\nprint(f'REWARD: {min(s, 1.0)}')\n"),
        judged("s = 0.0\nif d['to'] == 'x':\n    s += 0.5\ns += 0.5 * call_llm_judge(state_excerpt='{}')\nprint(f'REWARD: {s}')\n"),
        judged("s = 0.0\nif all([d['a'], d['b']]):\n    s = 0.7 + 0.3 * call_llm_judge(state_excerpt='{}')\nprint(f'REWARD: {s}')\n"),
        format!("{READ}def judge_title(x):\n    return 1.0 if x['t'] == 'Q3' else 0.0\nprint(f'REWARD: {{judge_title(d)}}')\n"),
        format!("{READ}want = dict(model='X-200')\nprint(f\"REWARD: {{1.0 if d['model'] == want['model'] else 0.0}}\")\n"),
    ] {
        assert!(rules(&src).is_empty(), "{src}: {:?}", scan_source("r.py", &src).findings);
    }
}

#[test]
fn judge_delegation_limit_comes_from_the_scan_config() {
    let src = judged("s = 0.0\nif d['to'] == 'x':\n    s += 0.6\ns += 0.4 * call_llm_judge(state_excerpt='{}')\nprint(f'REWARD: {s}')\n");
    assert!(
        scan_source("r.py", &src).is_clean(),
        "0.4 is within the default 0.5"
    );
    let strict: ScanConfig = toml::from_str("judge_max_weight = 0.3").expect("valid config");
    strict.validate().expect("0.3 is in range");
    let report = scan_source_with("r.py", &src, &strict);
    assert_eq!(report.rules(), vec![RuleId::JudgeDelegation]);
    assert!(
        report.findings[0].reason.contains("limit 0.3"),
        "{}",
        report.findings[0].reason
    );
    let lax = ScanConfig {
        judge_max_weight: 1.0,
        ..ScanConfig::default()
    };
    let wholly = judged("print(f\"REWARD: {call_llm_judge(state_excerpt='{}')}\")\n");
    assert_eq!(
        scan_source("r.py", &wholly).rules(),
        vec![RuleId::JudgeDelegation]
    );
    assert!(
        scan_source_with("r.py", &wholly, &lax).is_clean(),
        "a limit of 1 allows a reward that is the judge's alone"
    );
    let bad: ScanConfig = toml::from_str("judge_max_weight = 1.5").expect("parses");
    let err = bad.validate().expect_err("out of range");
    assert!(err.contains("judge_max_weight = 1.5"), "{err}");
}
