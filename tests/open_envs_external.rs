//! Bring your own app (issue #18 point 2): `[[apps.external]]` apps started by the harness — a
//! stand-in CUA-Gym-Hub site (tests/fixtures/hub_standin.py, started by tuplewright from its
//! `command`) speaking the Hub's legacy dialect and, with an admin token, the hardened one. The
//! same public-shape bundle that verifies against a built-in app verifies against it, unmodified:
//! every session is fresh and torn down, the admin token is added by the forwarder (the scripts
//! never see it), and the app's process is stopped afterwards.

mod open_envs_support;

use std::path::Path;

use open_envs_support::{
    output, status, tw, write_bundle, PublicBundle, NOTION_GOLDEN, NOTION_REWARD, NOTION_SETUP,
};

fn standin() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hub_standin.py")
        .display()
        .to_string()
}

fn notion_bundle(dir: &Path, id: &str) -> std::path::PathBuf {
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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
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
