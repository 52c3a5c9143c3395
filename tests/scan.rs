//! Tests of the C5 forbidden-pattern scanner: per-rule precision/recall over the labelled corpus,
//! focused tests of every rule and every legitimate pattern issue 4 names, and the CLI contract.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tuplewright::engine::scan::{corpus, scan_source, RuleId};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scan_corpus")
}

fn rules(source: &str) -> Vec<RuleId> {
    scan_source("reward.py", source).rules()
}

fn assert_clean(source: &str) {
    let report = scan_source("reward.py", source);
    assert!(
        report.is_clean(),
        "expected clean, got {:#?}",
        report.findings
    );
}

// ---------------------------------------------------------------- corpus: precision / recall

#[test]
fn corpus_meets_recall_and_false_positive_targets_per_rule() {
    let results = corpus::evaluate(&corpus_dir()).expect("corpus evaluates");
    assert!(
        results.len() >= 40,
        "corpus has only {} files",
        results.len()
    );
    println!("{}", corpus::table(&results));
    let mismatches: Vec<String> = results
        .iter()
        .filter(|r| r.expected != r.found)
        .map(|r| {
            format!(
                "{}: expected {:?} found {:?}",
                r.path.display(),
                r.expected,
                r.found
            )
        })
        .collect();
    println!("mismatches: {mismatches:#?}");
    for (rule, score) in corpus::score(&results) {
        assert!(
            score.true_pos + score.false_neg >= 2,
            "{rule}: fewer than two labelled positives in the corpus"
        );
        assert!(
            score.recall() >= 0.95,
            "{rule}: recall {:.3} < 0.95",
            score.recall()
        );
        assert!(
            score.false_positive_rate() <= 0.05,
            "{rule}: false-positive rate {:.3} > 0.05",
            score.false_positive_rate()
        );
    }
    let clean = results.iter().filter(|r| r.expected.is_empty()).count();
    assert!(clean >= 30, "only {clean} legitimate rewards in the corpus");
}

#[test]
fn corpus_labels_are_validated() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.py"), "score = 0.0\n").expect("write");
    let err = corpus::evaluate(dir.path()).expect_err("missing label must fail");
    assert!(err.to_string().contains("a.py"), "{err}");
    std::fs::write(dir.path().join("a.py"), "# expect: no-such-rule\n").expect("write");
    let err = corpus::evaluate(dir.path()).expect_err("unknown rule must fail");
    assert!(err.to_string().contains("no-such-rule"), "{err}");
}

// ---------------------------------------------------------------- rule 1: bool-flag-constant

#[test]
fn paper_hack_a_reports_the_flag_assignment_with_exact_position() {
    let src = std::fs::read_to_string(corpus_dir().join("hacks/paper_hack_a_bool_flag.py"))
        .expect("read hack A");
    let report = scan_source("hack_a.py", &src);
    let f = &report.findings[0];
    assert_eq!(report.rules(), vec![RuleId::BoolFlagConstant]);
    assert_eq!(f.file, "hack_a.py");
    assert_eq!(f.source_line, "chart_verified = True");
    assert_eq!(f.line, 12);
    assert_eq!(f.column, 18, "column of the literal True");
    assert!(f.reason.contains("constant True"), "{}", f.reason);
}

#[test]
fn bool_flag_via_tuple_unpacking_augmented_assignment_and_copies() {
    let base = "import json\nd = json.load(open('/home/user/a.json'))\nscore = 0.0\n";
    for flag in [
        "a, ok = d.get('x') == 1, True\n",
        "ok = False\nok |= True\n",
        "DEFAULT = True\nmid = DEFAULT\nok = mid\n",
        "ok = 1\n",
    ] {
        let src = format!("{base}{flag}if ok:\n    score += 0.5\nprint(f'REWARD: {{score}}')\n");
        assert_eq!(rules(&src), vec![RuleId::BoolFlagConstant], "{src}");
    }
}

#[test]
fn bool_flag_inside_a_checks_dict_summed_with_weights() {
    let src = "import json\nd = json.load(open('/home/user/a.json'))\n\
               checks = {'title': d.get('t') == 'X', 'chart': True}\n\
               W = {'title': 0.5, 'chart': 0.5}\n\
               score = sum(W[k] for k, ok in checks.items() if ok)\nprint(f'REWARD: {score}')\n";
    assert_eq!(rules(src), vec![RuleId::BoolFlagConstant]);
}

// ---------------------------------------------------------------- rule 2: placeholder-flag

#[test]
fn placeholder_flags_false_constant_expressions_and_commented_true() {
    let base = "import json\nd = json.load(open('/home/user/a.json'))\nscore = 0.0\n";
    for flag in [
        "ok = False\n",
        "ok = None\n",
        "ok = 1 == 1\n",
        "ok = not False\n",
        "ok = True  # assume the chart exists\n",
        "# TODO: check the legend\nok = True\n",
    ] {
        let src = format!("{base}{flag}if ok:\n    score += 0.5\nprint(f'REWARD: {{score}}')\n");
        assert_eq!(rules(&src), vec![RuleId::PlaceholderFlag], "{src}");
    }
}

// ---------------------------------------------------------------- rule 3: hardcoded-success

#[test]
fn hardcoded_success_returns_prints_and_unconditional_increments() {
    assert_eq!(
        rules("def verify_task():\n    return 1.0\n"),
        vec![RuleId::HardcodedSuccess]
    );
    assert_eq!(
        rules("print('REWARD: 1.0')\n"),
        vec![RuleId::HardcodedSuccess]
    );
    let src = "import csv\nrows = list(csv.reader(open('/home/user/a.csv')))\nscore = 0.0\n\
               if rows:\n    score += 0.8\nscore = score + 0.2\nprint(f'REWARD: {score}')\n";
    let report = scan_source("r.py", src);
    assert_eq!(report.rules(), vec![RuleId::HardcodedSuccess]);
    assert_eq!(
        report.findings[0].line, 6,
        "reported at `score = score + 0.2`"
    );
    let src = "def verify():\n    try:\n        d = open('/home/user/a').read()\n        \
               return 1.0 if d == 'x' else 0.0\n    except Exception:\n        return 1.0\n";
    assert_eq!(
        rules(src),
        vec![RuleId::ErrorPathSuccess],
        "success on the failure path is the more specific error-path-success"
    );
}

// ---------------------------------------------------------------- rule 4: bare-existence-score

#[test]
fn bare_existence_far_apart_and_through_aliases() {
    let hack_b = std::fs::read_to_string(corpus_dir().join("hacks/paper_hack_b_bare_existence.py"))
        .expect("read hack B");
    let report = scan_source("b.py", &hack_b);
    assert_eq!(report.rules(), vec![RuleId::BareExistenceScore]);
    assert_eq!(report.findings[0].source_line.trim(), "score += 1.0");
    let far = "import os\nthere = os.path.exists('/home/user/r.pdf')\n\
               log = []\nlog.append('a')\nlog.append('b')\nfor l in log:\n    print(l)\n\
               score = 0.0\nif there:\n    score += 1.0\nprint(f'REWARD: {score}')\n";
    assert_eq!(rules(far), vec![RuleId::BareExistenceScore]);
    let guard = "import os, sys\nif not os.path.isfile('/home/user/a.pptx'):\n    \
                 print('REWARD: 0.0')\n    sys.exit(0)\nscore = 0.0\nscore += 1.0\n\
                 print(f'REWARD: {score}')\n";
    assert_eq!(
        rules(guard),
        vec![RuleId::BareExistenceScore],
        "early-exit guard"
    );
    let alias = "from os.path import exists as present\nscore = 0.0\n\
                 if present('/home/user/a.txt'):\n    score += 1.0\nprint(f'REWARD: {score}')\n";
    assert_eq!(rules(alias), vec![RuleId::BareExistenceScore]);
    let pathlib = "from pathlib import Path\np = Path('/home/user') / 'x.md'\n\
                   score = 1.0 if p.exists() else 0.0\nprint(f'REWARD: {score}')\n";
    assert_eq!(rules(pathlib), vec![RuleId::BareExistenceScore]);
}

// ---------------------------------------------------------------- rule 5: subprocess

#[test]
fn subprocess_in_every_disguise() {
    for src in [
        "import subprocess\nsubprocess.run(['ls'])\n",
        "import subprocess as sp\nsp.check_output(['ls'])\n",
        "from subprocess import run as r\nr(['ls'])\n",
        "m = __import__('subprocess')\nm.run(['ls'])\n",
        "import importlib\nm = importlib.import_module('sub' + 'process')\n",
        "import os\ngetattr(os, 'sys' + 'tem')('ls')\n",
        "import os\nos.popen('ls').read()\n",
        "from os import system as s\ns('ls')\n",
        "import pty\npty.spawn(['sh'])\n",
        "import os\nos.execvp('ls', ['ls'])\n",
        "import sys\nsys.modules['subprocess'].run(['ls'])\n",
        "import os\nrunner = os.system\n",
        "exec(\"import subprocess\")\n",
    ] {
        assert_eq!(rules(src), vec![RuleId::Subprocess], "{src}");
    }
}

// ---------------------------------------------------------------- rule 6: comment-only-check

#[test]
fn comment_only_checks_trailing_and_block_comments() {
    let base = "import json\nd = json.load(open('/home/user/a.json'))\nscore = 0.0\n\
                if d.get('x') == 1:\n    score += 0.5\n";
    for tail in [
        "# assume the footer is correct\nscore += 0.5\n",
        "score = score + 0.5  # already verified by the setup\n",
        "# TODO: Verify chart properties\n# Assuming chart is correct\nscore += 0.5\n",
    ] {
        let src = format!("{base}{tail}print(f'REWARD: {{score}}')\n");
        assert_eq!(rules(&src), vec![RuleId::CommentOnlyCheck], "{src}");
    }
}

// ---------------------------------------------------------------- rule 7: dynamic-code

#[test]
fn dynamic_code_only_for_strings_built_at_run_time() {
    assert_eq!(
        rules("code = open('/home/user/c').read()\nexec(code)\n"),
        vec![RuleId::DynamicCode]
    );
    assert_eq!(
        rules("x = 3\nv = eval(f'{x}+1')\n"),
        vec![RuleId::DynamicCode]
    );
    assert_eq!(
        rules("import builtins\nf = getattr(builtins, 'ev' + 'al')\nf(input())\n"),
        vec![RuleId::DynamicCode]
    );
    assert_clean("v = eval('1 + 1')\nimport re\np = re.compile(r'^a')\n");
}

// ---------------------------------------------------------------- syntax-error

#[test]
fn syntax_error_is_its_own_finding_with_position() {
    let report = scan_source("bad.py", "score = 0.0\nif score == 0\n    score += 1\n");
    assert!(!report.parsed);
    assert_eq!(report.rules(), vec![RuleId::SyntaxError]);
    assert_eq!(report.findings[0].line, 2);
    assert_eq!(report.findings[0].source_line, "if score == 0");
}

// ---------------------------------------------------------------- legitimate patterns stay clean

#[test]
fn legit_flag_computed_in_loop_after_comparison() {
    assert_clean(
        "import json\nrows = json.load(open('/home/user/a.json'))\nscore = 0.0\nfound = False\n\
         for r in rows:\n    if r['name'] == 'Ana':\n        found = True\n\
         if found:\n    score += 1.0\nprint(f'REWARD: {score}')\n",
    );
    assert_clean(
        "import json\nrows = json.load(open('/home/user/a.json'))\nscore = 0.0\nok = True\n\
         for r in rows:\n    ok = ok and r['done']\nif ok:\n    score += 1.0\nprint(f'REWARD: {score}')\n",
    );
}

#[test]
fn legit_existence_check_followed_by_content_checks() {
    assert_clean(
        "import os, json\nP = '/home/user/c.json'\nscore = 0.0\nif os.path.exists(P):\n    \
         cfg = json.load(open(P))\n    if cfg.get('retries') == 5:\n        score += 1.0\n\
         print(f'REWARD: {score}')\n",
    );
}

#[test]
fn legit_subprocess_word_in_strings_and_comments() {
    assert_clean(
        "# we never use subprocess here\ntext = open('/home/user/README.md').read()\nscore = 0.0\n\
         if 'subprocess.run' in text:\n    score += 1.0  # mentions subprocess\n\
         print(f'REWARD: {score}')\n",
    );
}

#[test]
fn legit_early_return_zero_on_missing_input() {
    assert_clean(
        "import os, sys, json\nP = '/home/user/a.json'\nif not os.path.isfile(P):\n    \
         print('FAIL: missing')\n    print('REWARD: 0.0')\n    sys.exit(0)\nd = json.load(open(P))\n\
         score = 0.0\nif d.get('x') == 1:\n    score += 1.0\nprint(f'REWARD: {score}')\n",
    );
    assert_clean(
        "import json\ndef main():\n    d = json.load(open('/home/user/a.json'))\n    if not d:\n        \
         return 0.0\n    s = 0.0\n    if d['x'] == 1:\n        s += 1.0\n    return s\n\
         print(f'REWARD: {main()}')\n",
    );
}

#[test]
fn legit_weights_summed_from_dict_of_computed_checks() {
    assert_clean(
        "import json\nd = json.load(open('/home/user/a.json'))\n\
         checks = {'title': d.get('t') == 'X', 'owner': d.get('o') == 'lee'}\n\
         WEIGHTS = {'title': 0.5, 'owner': 0.5}\n\
         score = sum(WEIGHTS[k] for k, ok in checks.items() if ok)\nprint(f'REWARD: {score}')\n",
    );
}

#[test]
fn legit_move_check_presence_and_absence() {
    assert_clean(
        "import os\nscore = 0.0\nif os.path.isfile('/home/user/D/a.pdf') and not \
         os.path.exists('/home/user/a.pdf'):\n    score += 1.0\nprint(f'REWARD: {score}')\n",
    );
}

// ---------------------------------------------------------------- CLI contract

fn cli() -> Command {
    Command::cargo_bin("tuplewright").expect("binary built")
}

#[test]
fn cli_exit_codes_clean_finding_unreadable_unparsable() {
    let c = corpus_dir();
    cli()
        .args(["scan"])
        .arg(c.join("legit/files_csv_totals.py"))
        .assert()
        .code(0);
    cli()
        .args(["scan"])
        .arg(c.join("hacks/paper_hack_a_bool_flag.py"))
        .assert()
        .code(1);
    cli()
        .args(["scan"])
        .arg(c.join("syntax/syntax_error_missing_colon.py"))
        .assert()
        .code(2);
    cli()
        .args(["scan", "/nonexistent/reward.py"])
        .assert()
        .code(2);
    cli()
        .args(["scan"])
        .arg(c.join("legit/files_csv_totals.py"))
        .arg(c.join("hacks/paper_hack_b_bare_existence.py"))
        .assert()
        .code(1)
        .stdout(predicates::str::contains("bare-existence-score"));
}

#[test]
fn cli_json_output_shape() {
    let c = corpus_dir();
    let out = cli()
        .args(["scan", "--json"])
        .arg(c.join("hacks/paper_hack_a_bool_flag.py"))
        .arg("/nonexistent/reward.py")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(doc["exit_code"], 2);
    assert_eq!(doc["clean"], false);
    let report = &doc["reports"][0];
    assert_eq!(report["parsed"], true);
    let finding = &report["findings"][0];
    assert_eq!(finding["rule"], "bool-flag-constant");
    assert_eq!(finding["line"], 12);
    assert_eq!(finding["column"], 18);
    assert_eq!(finding["source_line"], "chart_verified = True");
    assert!(finding["file"]
        .as_str()
        .is_some_and(|f| f.ends_with("paper_hack_a_bool_flag.py")));
    assert!(finding["reason"].as_str().is_some_and(|r| !r.is_empty()));
    assert_eq!(doc["errors"][0]["file"], "/nonexistent/reward.py");
    assert!(doc["errors"][0]["error"]
        .as_str()
        .is_some_and(|e| e.contains("cannot read")));
}

#[test]
fn cli_corpus_mode_prints_the_precision_recall_table() {
    cli()
        .args(["scan", "--corpus"])
        .arg(corpus_dir())
        .assert()
        .code(0)
        .stdout(predicates::str::contains("precision"))
        .stdout(predicates::str::contains("bare-existence-score"));
}

#[test]
fn pathologically_nested_script_is_refused_not_crashing() {
    let src = format!(
        "score = 0{}\nprint(f'REWARD: {{score}}')\n",
        " + 1".repeat(60_000)
    );
    let report = scan_source("deep.py", &src);
    assert!(!report.parsed);
    assert_eq!(report.rules(), vec![RuleId::SyntaxError]);
    assert!(
        report.findings[0].reason.contains("too complex"),
        "{}",
        report.findings[0].reason
    );
    let nested = (0..400).fold(String::from("score = 0\n"), |mut s, i| {
        s.push_str(&" ".repeat(i));
        s.push_str(&format!("if score == {i}:\n"));
        s
    }) + &" ".repeat(400)
        + "score += 1\n";
    let report = scan_source("nested.py", &nested);
    assert!(report.parsed, "400 nested blocks are analysed");
}
