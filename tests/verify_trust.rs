//! Verification you can trust (issue #14), through the real binary on bundles written here in the
//! public shapes (REFERENCE.md): imported tuples stay unverified until `verify` passes, the probes
//! gate the verdict, REVIEW.md blames the script that failed, and import → export keeps the
//! original metadata. `verify` runs the real sandbox and state API.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{json, Value};
use tuplewright::engine::store::Store;

fn tw(store: &Path) -> Command {
    let mut cmd = Command::cargo_bin("tuplewright").unwrap();
    cmd.arg("--store").arg(store).arg("--no-tui");
    cmd.current_dir(store.parent().unwrap());
    cmd.env_remove("TUPLEWRIGHT_STORE")
        .env_remove("TUPLEWRIGHT_CONFIG");
    cmd
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

const PRELUDE: &str = r#"import json, os, urllib.request
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

const SETUP: &str = r#"def msg(i, folder, subject):
    return {'id': i, 'threadId': i, 'folder': folder, 'from': {'name': 'X', 'email': 'x@spam.example'}, 'to': [], 'cc': [],
            'subject': subject, 'body': '', 'date': '2026-01-01T00:00:00Z', 'isRead': False, 'isStarred': False, 'labels': [], 'attachments': []}
post('set', {'messages': [msg('s1', 'spam', 'WIN'), msg('s2', 'spam', 'PRIZE'), msg('k1', 'inbox', 'Standup notes')]})
"#;

const GOLDEN: &str = r#"msgs = go()['current_state']['messages']
post('set_current', dict(go()['current_state'], messages=[m for m in msgs if m['folder'] != 'spam']))
"#;

/// A golden patch that deletes only one of the two spam messages (r(gold) = 0.5).
const GOLDEN_HALF: &str = r#"msgs = go()['current_state']['messages']
post('set_current', dict(go()['current_state'], messages=[m for m in msgs if m['id'] != 's1']))
"#;

/// Credit per target merely absent: an empty or unrelated state scores 1.0.
const REWARD_ABSENCE: &str = r#"ids = {m['id'] for m in go()['current_state'].get('messages', [])}
score = 0.0
for target in ['s1', 's2']:
    gone = target not in ids
    print(('PASS' if gone else 'FAIL') + ': ' + target + ' deleted')
    score += 0.5 if gone else 0.0
print('REWARD: ' + str(score))
"#;

/// Credit only for what the task changes: each spam message gone while the inbox message stays.
const REWARD_SOUND: &str = r#"ids = {m['id'] for m in go()['current_state'].get('messages', [])}
kept = 'k1' in ids
score = 0.0
for target in ['s1', 's2']:
    ok = kept and target not in ids
    print('COMPONENT: ' + json.dumps({'name': target + ' deleted, inbox kept', 'weight': 0.5, 'score': 1.0 if ok else 0.0, 'detail': ''}))
    score += 0.5 if ok else 0.0
print('REWARD: ' + str(score))
"#;

/// A reward whose helper module was not shipped with it.
const REWARD_NO_HELPER: &str =
    "import mail_reward_helpers\nprint('REWARD: ' + str(mail_reward_helpers.score(go())))\n";

struct Bundle<'a> {
    id: &'a str,
    golden: &'a str,
    reward: &'a str,
    config_extra: Value,
    review: Option<&'a str>,
}

impl<'a> Bundle<'a> {
    fn new(id: &'a str, reward: &'a str) -> Self {
        Bundle {
            id,
            golden: GOLDEN,
            reward,
            config_extra: json!({"generated_at": "2026-04-02T10:00:00Z", "adversarial_rounds": "2"}),
            review: None,
        }
    }

    /// The public final-bundle shape with object-store URLs.
    fn config(&self) -> Value {
        let base = format!("https://cua-gym.s3.amazonaws.com/tasks/{}", self.id);
        let mut c = json!({
            "instruction": "Permanently delete the spam emails.",
            "id": self.id,
            "app_type": "mail",
            "config": [
                {"type": "download", "parameters": {"files": [{"url": format!("{base}/initial_setup.py"), "path": "/home/user/initial_setup.py"}]}},
                {"type": "execute", "parameters": {"command": "python3 /home/user/initial_setup.py"}}
            ],
            "evaluator": {"type": "python", "url": format!("{base}/reward.py")},
        });
        for (k, v) in self.config_extra.as_object().unwrap() {
            c[k] = v.clone();
        }
        c
    }

    fn task_config(&self) -> Value {
        json!({"task_id": self.id, "domain": "mail", "task_instruction": "Permanently delete the spam emails.",
               "context": "Two spam messages (s1, s2) and one inbox message (k1).", "difficulty": "easy"})
    }

    /// Writes a one-folder bundle `dir/<id>/`.
    fn write(&self, dir: &Path) -> PathBuf {
        let b = dir.join(self.id);
        std::fs::create_dir_all(&b).unwrap();
        self.write_config(&b);
        self.write_scripts(&b);
        b
    }

    fn write_config(&self, b: &Path) {
        std::fs::create_dir_all(b).unwrap();
        std::fs::write(
            b.join("config.json"),
            serde_json::to_vec_pretty(&self.config()).unwrap(),
        )
        .unwrap();
    }

    fn write_scripts(&self, b: &Path) {
        std::fs::create_dir_all(b).unwrap();
        std::fs::write(
            b.join("task_config.json"),
            serde_json::to_vec_pretty(&self.task_config()).unwrap(),
        )
        .unwrap();
        std::fs::write(b.join("initial_setup.py"), format!("{PRELUDE}{SETUP}")).unwrap();
        std::fs::write(
            b.join("golden_patch.py"),
            format!("{PRELUDE}{}", self.golden),
        )
        .unwrap();
        std::fs::write(b.join("reward.py"), format!("{PRELUDE}{}", self.reward)).unwrap();
        if let Some(r) = self.review {
            std::fs::write(b.join("REVIEW.md"), r).unwrap();
        }
    }
}

fn store(db: &Path) -> Store {
    Store::open(db, Duration::from_secs(5)).unwrap()
}

fn status(db: &Path, id: &str) -> String {
    store(db).task(id).unwrap().status
}

/// The REVIEW.md of the task's latest round.
fn last_review(db: &Path, id: &str) -> String {
    store(db)
        .rounds(id)
        .unwrap()
        .last()
        .unwrap()
        .round
        .review_md
        .clone()
}

fn stats(db: &Path) -> Value {
    let out = tw(db).args(["stats", "--json"]).assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

fn export(db: &Path, out: &Path, extra: &[&str]) -> String {
    let a = tw(db)
        .arg("export")
        .arg("--out")
        .arg(out)
        .args(extra)
        .assert()
        .success();
    text(&a.get_output().stdout)
}

#[test]
fn an_imported_tuple_that_fails_verification_is_never_final_nor_exported() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let mut b = Bundle::new("mail_spam_delete_001", REWARD_SOUND);
    b.golden = GOLDEN_HALF;
    b.review = Some("# Round 2 Review\n\n## Verdict: PASS\n");
    let path = b.write(&dir.path().join("in"));
    tw(&db).arg("import").arg(&path).assert().success();
    assert_eq!(status(&db, b.id), "imported");
    // Unverified: not verified, not loop-accepted, no convergence figure, not exported.
    let s = stats(&db);
    let y = &s["yield_per_stage"];
    assert_eq!(
        (y["loop_accepted"].clone(), y["final_tuples"].clone()),
        (json!(0), json!(0))
    );
    assert_eq!(y["imported_unverified"], 1);
    assert_eq!(s["rounds_to_convergence"], json!([]));
    assert_eq!(s["imported_rounds"][1]["name"], "2", "{s}");
    let out = dir.path().join("out");
    assert!(export(&db, &out, &[]).contains("0 written"));
    assert!(!out.join(b.id).exists());

    let a = tw(&db)
        .args(["verify", "--json", "--tasks", b.id])
        .assert()
        .code(1);
    let v: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert_eq!(v[0]["ok"], false);
    assert_eq!(v[0]["failing"], json!(["C3"]), "{v}");
    assert_eq!(
        (v[0]["status_before"].clone(), v[0]["status"].clone()),
        (json!("imported"), json!("verify_failed"))
    );
    assert_eq!(status(&db, b.id), "verify_failed");
    let decisions = store(&db).decisions(b.id).unwrap();
    let last = decisions.last().unwrap();
    assert_eq!(
        (last.actor.as_str(), last.after.as_str()),
        ("verify", "verify_failed")
    );
    assert!(last.reason.contains("C3"), "{}", last.reason);
    let y = &stats(&db)["yield_per_stage"];
    assert_eq!(
        (y["verify_failed"].clone(), y["final_tuples"].clone()),
        (json!(1), json!(0))
    );
    assert!(export(&db, &out, &[]).contains("0 written"));
    assert!(!out.join(b.id).exists());
    // Asked for explicitly, it carries the failing review, never an empty one.
    export(&db, &out, &["--include-unverified"]);
    let review = std::fs::read_to_string(out.join(b.id).join("REVIEW.md")).unwrap();
    assert!(
        review.contains("## Verdict: FAIL") && review.contains("r(gold) = 0.5000"),
        "{review}"
    );
}

#[test]
fn an_absence_only_reward_fails_the_probes_with_a_named_condition() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let b = Bundle::new("mail_spam_delete_002", REWARD_ABSENCE);
    let path = b.write(&dir.path().join("in"));
    let a = tw(&db)
        .arg("verify")
        .arg("--json")
        .arg(&path)
        .assert()
        .code(1);
    let v: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    // C1–C5 hold: only the probes expose it.
    assert_eq!(
        v[0]["failing"],
        json!(["probe:noop", "probe:empty_state", "probe:destructive"]),
        "{v}"
    );
    assert_eq!(v[0]["noop_score"], 1.0);
    let probes = v[0]["probes"].as_array().unwrap();
    assert!(
        probes
            .iter()
            .all(|p| p["pass"] == false && p["score"] == 1.0),
        "{v}"
    );
    assert!(
        probes[2]["details"]
            .as_str()
            .unwrap()
            .contains("mail.messages wiped"),
        "{v}"
    );
    assert_eq!(status(&db, b.id), "verify_failed");
    let review = last_review(&db, b.id);
    for row in [
        "| probe:noop | FAIL | 1.00 |",
        "| probe:empty_state | FAIL |",
        "| probe:destructive | FAIL |",
    ] {
        assert!(review.contains(row), "{row} in\n{review}");
    }
    assert!(review.contains("## Verdict: FAIL"), "{review}");
    // The probe failure is the Discriminator's to fix, not the Generator's.
    let (setup, reward) = review.split_once("## Feedback for Reward-Gen").unwrap();
    assert!(!setup
        .split("## Feedback for Setup-Gen")
        .nth(1)
        .unwrap()
        .contains("probe:"));
    assert!(reward.contains("Probe `probe:noop` failed"), "{review}");
    // A configured threshold of 1.0 is refused (a probe could never fail).
    std::fs::write(
        dir.path().join("tuplewright.toml"),
        "[loop]\nprobe_threshold = 1.0\n",
    )
    .unwrap();
    let a = tw(&db).args(["verify", "--tasks", b.id]).assert().failure();
    assert!(text(&a.get_output().stderr).contains("loop.probe_threshold"));
}

#[test]
fn a_sound_reward_passes_the_probes_and_verify_promotes_the_import() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let b = Bundle::new("mail_spam_delete_003", REWARD_SOUND);
    let path = b.write(&dir.path().join("in"));
    let a = tw(&db).arg("verify").arg(&path).assert().success();
    let out = text(&a.get_output().stdout);
    assert!(
        out.contains("VERIFIED") && out.contains("imported -> final"),
        "{out}"
    );
    assert!(
        out.contains("probe:destructive") && !out.contains("FAIL"),
        "{out}"
    );
    let review = last_review(&db, b.id);
    assert!(review.contains("| probe:noop | PASS | 0.00 |"), "{review}");
    let y = &stats(&db)["yield_per_stage"];
    assert_eq!(
        (
            y["final_tuples"].clone(),
            y["verified_imports"].clone(),
            y["loop_accepted"].clone()
        ),
        (json!(1), json!(1), json!(0))
    );
    // Verifying the same bundle again is fine (same scripts); other scripts under the same id are not.
    tw(&db).arg("verify").arg(&path).assert().success();
    std::fs::write(path.join("reward.py"), format!("{PRELUDE}{REWARD_ABSENCE}")).unwrap();
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let err = text(&a.get_output().stderr);
    assert!(
        err.contains("already in the store with different scripts: mail_spam_delete_003"),
        "{err}"
    );
    assert_eq!(
        status(&db, b.id),
        "final",
        "a refused bundle changes nothing"
    );
    tw(&db)
        .arg("verify")
        .arg("--replace")
        .arg(&path)
        .assert()
        .code(1);
    assert_eq!(status(&db, b.id), "verify_failed");
}

#[test]
fn a_reward_missing_its_helper_module_is_blamed_on_reward_py_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let b = Bundle::new("mail_spam_delete_004", REWARD_NO_HELPER);
    let path = b.write(&dir.path().join("in"));
    tw(&db).arg("verify").arg(&path).assert().code(1);
    let review = last_review(&db, b.id);
    let (head, reward) = review.split_once("## Feedback for Reward-Gen").unwrap();
    let setup = head.split_once("## Feedback for Setup-Gen").unwrap().1;
    assert!(
        setup.contains("None: no fault of initial_setup.py or golden_patch.py"),
        "{review}"
    );
    assert!(!setup.contains("golden_patch.py so"), "{review}");
    for evidence in [
        "reward.py failed (exit code 1)",
        "`mail_reward_helpers`",
        "ModuleNotFoundError",
    ] {
        assert!(reward.contains(evidence), "{evidence} in\n{review}");
    }
}

#[test]
fn import_then_export_keeps_the_original_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let mut plain = Bundle::new("mail_spam_delete_005", REWARD_SOUND);
    plain.config_extra = json!({"reject": false});
    plain.review =
        Some("# Round 1 Review\n\n## Verdict: FAIL\n\n# Round 3 Review\n\n## Verdict: PASS\n");
    let timed = Bundle::new("mail_spam_delete_006", REWARD_SOUND);
    let input = dir.path().join("in");
    plain.write(&input);
    timed.write(&input);
    tw(&db).arg("import").arg(&input).assert().success();
    let out = dir.path().join("out");
    export(&db, &out, &["--include-unverified"]);
    let read = |id: &str, f: &str| std::fs::read(out.join(id).join(f)).unwrap();
    let cfg: Value = serde_json::from_slice(&read(timed.id, "config.json")).unwrap();
    assert_eq!(cfg["generated_at"], "2026-04-02T10:00:00Z");
    assert_eq!(cfg["adversarial_rounds"], "2", "kept as the string it was");
    assert_eq!(
        cfg["config"],
        timed.config()["config"],
        "object-store URLs kept"
    );
    assert_eq!(cfg["evaluator"], timed.config()["evaluator"]);
    let cfg: Value = serde_json::from_slice(&read(plain.id, "config.json")).unwrap();
    assert!(cfg.get("generated_at").is_none(), "never invented: {cfg}");
    assert_eq!(
        cfg["adversarial_rounds"], 3,
        "from REVIEW.md's last # Round heading"
    );
    assert_eq!(
        read(plain.id, "REVIEW.md"),
        plain.review.unwrap().as_bytes()
    );
    let review = String::from_utf8(read(timed.id, "REVIEW.md")).unwrap();
    assert!(
        review.contains("## Verdict: UNVERIFIED"),
        "never empty: {review}"
    );
    assert_eq!(
        read(timed.id, "reward.py"),
        format!("{PRELUDE}{REWARD_SOUND}").as_bytes()
    );
    // A prefix asked for replaces the URLs.
    let out2 = dir.path().join("out2");
    export(
        &db,
        &out2,
        &[
            "--include-unverified",
            "--url-prefix",
            "https://h.example/{task_id}/",
        ],
    );
    let cfg: Value =
        serde_json::from_slice(&std::fs::read(out2.join(timed.id).join("config.json")).unwrap())
            .unwrap();
    assert_eq!(
        cfg["evaluator"]["url"],
        "https://h.example/mail_spam_delete_006/reward.py"
    );
}

#[test]
fn the_three_stage_layout_imports_and_every_skipped_folder_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let output = dir.path().join("data").join("output");
    let a = Bundle::new("mail_spam_delete_007", REWARD_SOUND);
    a.write_config(&output.join("final").join(a.id));
    a.write_scripts(&output.join("adversarial").join(a.id));
    // Scripts that never reached the final stage, and a final config whose scripts are gone.
    let b = Bundle::new("mail_spam_delete_008", REWARD_SOUND);
    b.write_scripts(&output.join("adversarial").join(b.id));
    let c = Bundle::new("mail_spam_delete_009", REWARD_SOUND);
    c.write_config(&output.join("final").join(c.id));
    std::fs::create_dir_all(output.join("adversarial").join(c.id)).unwrap();
    std::fs::write(
        output
            .join("adversarial")
            .join(c.id)
            .join("golden_patch.py"),
        "pass\n",
    )
    .unwrap();
    let run = tw(&db)
        .arg("import")
        .arg("--origin")
        .arg("xlang-ai/CUA-Gym@1a2b3c4")
        .arg(&output)
        .assert()
        .code(1);
    let err = text(&run.get_output().stderr);
    let out = text(&run.get_output().stdout);
    assert!(
        out.contains("1 new") && out.contains("1 rejected") && out.contains("1 folder(s) skipped"),
        "{out}"
    );
    assert!(
        err.contains("skipped: ")
            && err.contains("adversarial/mail_spam_delete_008: scripts without a config.json"),
        "{err}"
    );
    assert!(
        err.contains("the task never reached the final stage"),
        "{err}"
    );
    assert!(
        err.contains("final/mail_spam_delete_009: missing initial_setup.py, reward.py (looked in"),
        "{err}"
    );
    let s = store(&db);
    let t = s.task(a.id).unwrap();
    assert_eq!(t.status, "imported");
    assert_eq!(
        t.task.origin,
        "xlang-ai/CUA-Gym@1a2b3c4:final/mail_spam_delete_007"
    );
    assert_eq!(t.task.labels.apps, ["mail"]);
    assert_eq!(
        s.rounds(a.id).unwrap()[0].round.scripts.reward.as_deref(),
        Some(format!("{PRELUDE}{REWARD_SOUND}").as_str())
    );
    // Without --origin the stored origin is absolute even when the path given is relative.
    let db2 = dir.path().join("s2.db");
    tw(&db2)
        .arg("import")
        .arg("data/output/final")
        .assert()
        .code(1);
    let origin = store(&db2).task(a.id).unwrap().task.origin;
    assert_eq!(
        PathBuf::from(&origin),
        output.join("final").join(a.id),
        "{origin}"
    );
    let bad = tw(&db2)
        .args(["import", "--origin", "no-commit", "data"])
        .assert()
        .failure();
    assert!(text(&bad.get_output().stderr).contains("expected REPO@COMMIT"));
}
