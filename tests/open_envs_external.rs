//! Bring your own app (issue #18 point 2): `[[apps.external]]` apps started by the harness — a
//! stand-in CUA-Gym-Hub site (tests/fixtures/hub_standin.py, started by tuplewright from its
//! `command`) speaking the Hub's legacy dialect and, with an admin token, the hardened one. The
//! same public-shape bundle that verifies against a built-in app verifies against it, unmodified:
//! every session is fresh and torn down, the admin token is added by the forwarder (the scripts
//! never see it), and the app's process is stopped afterwards.
//!
//! Issue #28, one verdict per bundle whatever the backend: the probes empty and wipe the Hub's
//! state shapes by the app's schema (google_docs' map of documents, google_calendar's scalar
//! `currentDate`), the noop probe sees the app's default state on built-in and external apps
//! alike, and an alias onto an app whose schema the bundle's state does not fit is refused.

use crate::open_envs_support;

use std::path::{Path, PathBuf};

use open_envs_support::hub_shapes::{
    self, CAL_GOLDEN, CAL_REWARD, CAL_SETUP, DOCS_GOLDEN, DOCS_REWARD, DOCS_SETUP, MAIL_GOLDEN,
    MAIL_REWARD, MAIL_SETUP,
};
use open_envs_support::{notion_bundle, output, status, tw, write_bundle, PublicBundle};

fn standin() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hub_standin.py")
        .display()
        .to_string()
}

fn config(dir: &Path, dialect: &str, extra: &str) -> std::path::PathBuf {
    let state = dir.join("hub-state");
    let flag = if dialect == "hub-hardened" {
        "hardened"
    } else {
        "legacy"
    };
    std::fs::write(
        dir.join("tuplewright.toml"),
        format!(
            "[[apps.external]]\nname = \"notion\"\ncommand = \"exec python3 {} --port {{port}} --dialect {flag} --state-dir {}\"\n\
             dialect = \"{dialect}\"\nready = \"/\"\n{extra}",
            standin(),
            state.display()
        ),
    )
    .unwrap();
    state
}

/// Sessions left in the stand-in's state directory, and whether its process still runs.
fn leftovers(state: &Path) -> (Vec<String>, bool) {
    let sessions = std::fs::read_dir(state)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    let pid = std::fs::read_to_string(state.join("pid")).unwrap();
    // Gone, or a zombie waiting for init to reap it.
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
    let alive = stat
        .rsplit_once(") ")
        .is_some_and(|(_, rest)| !rest.starts_with('Z'));
    (sessions, alive)
}

fn verifies_against(dialect: &str, extra: &str) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let state = config(dir.path(), dialect, extra);
    let id = format!("notion_archive_page_{}", dialect.replace('-', "_"));
    let path = notion_bundle(dir.path(), &id);
    let a = tw(&db).arg("verify").arg(&path).assert();
    let out = output(&a);
    assert!(a.get_output().status.success(), "{out}");
    assert!(
        out.contains("VERIFIED") && out.contains("probe:destructive"),
        "{out}"
    );
    assert_eq!(status(&db, &id), "final", "{out}");
    let (sessions, alive) = leftovers(&state);
    assert!(sessions.is_empty(), "sessions not torn down: {sessions:?}");
    assert!(!alive, "the external app's process outlived the run");
}

#[test]
fn a_public_bundle_verifies_unmodified_against_a_hub_legacy_external_app() {
    verifies_against("hub-legacy", "");
}

#[test]
fn a_public_bundle_verifies_against_a_hub_hardened_app_with_the_token_added_by_the_forwarder() {
    verifies_against("hub-hardened", "admin_token = \"s3cret-token\"\n");
}

#[test]
fn external_app_failures_name_the_entry_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let path = notion_bundle(dir.path(), "notion_archive_page_009");
    // Hardened without a token.
    config(dir.path(), "hub-hardened", "");
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let err = output(&a);
    assert!(
        err.contains("[[apps.external]] \"notion\": dialect \"hub-hardened\" needs admin_token"),
        "{err}"
    );
    // A command that dies before serving: its exit and its log are quoted.
    std::fs::write(
        dir.path().join("tuplewright.toml"),
        "[[apps.external]]\nname = \"notion\"\ncommand = \"echo cannot bind {port} >&2; exit 3\"\n",
    )
    .unwrap();
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let err = output(&a);
    assert!(
        err.contains("the command exited") && err.contains("cannot bind"),
        "{err}"
    );
    // Nothing listening at a configured URL: the probe and the knob are named.
    let port = crate::common::quiet_port();
    std::fs::write(
        dir.path().join("tuplewright.toml"),
        format!("[[apps.external]]\nname = \"notion\"\nurl = \"http://127.0.0.1:{port}\"\nready_timeout_ms = 300\n"),
    )
    .unwrap();
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let err = output(&a);
    assert!(
        err.contains("not ready after 300 ms") && err.contains("ready_timeout_ms"),
        "{err}"
    );
    assert_eq!(status(&db, "notion_archive_page_009"), "imported");
}

// --- One verdict per bundle, whatever the backend (issue #28) ---------------------------------

/// A `tuplewright.toml` serving the stand-in as the legacy-dialect app `name`, plus `extra`.
fn hub_app(dir: &Path, name: &str, extra: &str) {
    std::fs::write(
        dir.join("tuplewright.toml"),
        format!(
            "[[apps.external]]\nname = \"{name}\"\ncommand = \"exec python3 {} --port {{port}} --dialect legacy --state-dir {}\"\n\
             dialect = \"hub-legacy\"\nready = \"/\"\n{extra}",
            standin(),
            dir.join(format!("hub-{name}")).display()
        ),
    )
    .unwrap();
}

/// Writes a bundle of the app `domain` from the hub-shape script bodies.
fn shaped(dir: &Path, id: &str, domain: &str, [setup, golden, reward]: [&str; 3]) -> PathBuf {
    let [setup, golden, reward] = [setup, golden, reward].map(hub_shapes::script);
    let b = PublicBundle {
        id,
        app_type: "mock_websites",
        domain: Some(domain),
        setup: &setup,
        golden: &golden,
        reward: &reward,
    };
    write_bundle(&dir.join("in"), &b)
}

/// `verify --json` of one bundle: its exit success and its one result row.
fn verify_json(db: &Path, bundle: &Path) -> (bool, serde_json::Value, String) {
    let a = tw(db).arg("verify").arg("--json").arg(bundle).assert();
    let out = output(&a);
    let ok = a.get_output().status.success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    let rows: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    (ok, rows[0].clone(), out)
}

/// The `details` and `score` of probe `name` in a `verify --json` row.
fn probe(row: &serde_json::Value, name: &str) -> (String, Option<f64>, bool) {
    let p = row["probes"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["probe"] == name))
        .cloned()
        .unwrap_or_default();
    (
        p["details"].as_str().unwrap_or_default().to_string(),
        p["score"].as_f64(),
        p["pass"].as_bool().unwrap_or(false),
    )
}

#[test]
fn a_map_of_documents_is_emptied_and_the_destructive_probe_wipes_only_what_the_task_touches() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    // No schema declared: `documents` (records keyed by id) is inferred to be a map.
    hub_app(dir.path(), "google_docs", "");
    let id = "google_docs_rename_020";
    let path = shaped(
        dir.path(),
        id,
        "google_docs",
        [DOCS_SETUP, DOCS_GOLDEN, DOCS_REWARD],
    );
    let (ok, row, out) = verify_json(&db, &path);
    assert!(ok, "a correct reward must verify:\n{out}");
    assert_eq!(status(&db, id), "final", "{out}");
    let (details, score, pass) = probe(&row, "empty_state");
    assert!(
        pass && score == Some(0.0),
        "empty_state {score:?}: {details}\n{out}"
    );
    let (details, _, pass) = probe(&row, "destructive");
    assert!(pass, "{out}");
    assert!(
        details.contains("google_docs.documents wiped (2 items)"),
        "the documents the task renames are wiped: {details}"
    );
    for untouched in ["users", "comments"] {
        assert!(!details.contains(untouched), "{untouched} wiped: {details}");
    }
}

#[test]
fn scalars_such_as_current_date_are_reset_and_an_alias_whose_schema_does_not_fit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    hub_app(
        dir.path(),
        "google_calendar",
        "state = { events = \"list\", calendars = \"list\", user = \"config\", view = \"config\", \
         currentDate = \"config\", sidebarOpen = \"config\", settings = \"config\" }\n",
    );
    let id = "google_calendar_goto_007";
    let scripts = [CAL_SETUP, CAL_GOLDEN, CAL_REWARD];
    let path = shaped(dir.path(), id, "google_calendar", scripts);
    let (ok, row, out) = verify_json(&db, &path);
    assert!(ok, "a correct reward must verify:\n{out}");
    assert_eq!(status(&db, id), "final", "{out}");
    let (details, score, pass) = probe(&row, "empty_state");
    assert!(
        pass && score == Some(0.0),
        "empty_state {score:?}: {details}\n{out}"
    );
    let (details, _, _) = probe(&row, "destructive");
    assert!(
        details.contains("changes no data collection"),
        "only scalars change, so no collection is wiped: {details}"
    );

    // The same bundle mapped onto the issue tracker by an alias: refused, nothing promoted.
    let other = tempfile::tempdir().unwrap();
    let db = other.path().join("s.db");
    std::fs::write(
        other.path().join("tuplewright.toml"),
        "[apps.aliases]\ngoogle_calendar = \"issue-tracker\"\n",
    )
    .unwrap();
    let id = "google_calendar_goto_008";
    let path = shaped(other.path(), id, "google_calendar", scripts);
    let a = tw(&db).arg("verify").arg(&path).assert().failure();
    let err = output(&a);
    for needle in [
        "invalid task",
        id,
        "initial_setup.py",
        "app issue-tracker (reached as google-calendar)",
        "does not fit its schema",
        "[[apps.external]]",
    ] {
        assert!(err.contains(needle), "{needle} in\n{err}");
    }
    assert!(
        [
            "`user`",
            "`calendars`",
            "`currentDate`",
            "`events`",
            "`view`"
        ]
        .iter()
        .any(|k| err.contains(k)),
        "the key that does not fit is named:\n{err}"
    );
    assert_eq!(status(&db, id), "imported", "{err}");
}

#[test]
fn the_noop_probe_sees_the_default_state_on_the_built_in_app_and_on_an_external_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    // An external mailbox whose unset session shows nothing over its state API, but whose UI
    // shows the default mailbox (here the built-in mail app's seed), declared as its `seed`.
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/apps/mail/seed.json");
    hub_app(
        dir.path(),
        "webmail",
        &format!("seed = \"{}\"\n", seed.display()),
    );
    let scripts = [MAIL_SETUP, MAIL_GOLDEN, MAIL_REWARD];
    let mut verdicts = Vec::new();
    for (id, app) in [
        ("mail_archive_101", "mail"),
        ("webmail_archive_101", "webmail"),
    ] {
        let path = shaped(dir.path(), id, app, scripts);
        let (ok, row, out) = verify_json(&db, &path);
        let (details, score, pass) = probe(&row, "noop");
        assert!(
            !ok && !pass && score == Some(1.0),
            "{app}: the default mailbox has archived mail, so doing nothing scores: {details}\n{out}"
        );
        verdicts.push((row["failing"].clone(), status(&db, id)));
    }
    assert_eq!(verdicts[0], verdicts[1], "one verdict whatever the backend");
    assert_eq!(verdicts[0].1, "verify_failed");
}
