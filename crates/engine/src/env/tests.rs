//! Unit tests of the environment subsystem that need no HTTP: the session store (TTL GC,
//! bounded memory), the built-in apps and the files domain.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::{json, Value};

use super::session::Action;
use super::{files, AppRegistry, ServerConfig, SessionStore};

fn config(dir: &std::path::Path) -> ServerConfig {
    ServerConfig {
        port: Some(0),
        state_dir: dir.to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    }
}

#[test]
fn ttl_gc_collects_untouched_sessions_only() {
    let dir = tempfile::tempdir().unwrap();
    let reg = AppRegistry::builtin().unwrap();
    let cfg = ServerConfig {
        session_ttl_secs: 60,
        ..config(dir.path())
    };
    let store = SessionStore::open(reg.get("mail").unwrap(), &cfg).unwrap();
    store
        .apply(
            "old",
            Action::Set,
            Some(json!({"account": {"name": "Old"}})),
        )
        .unwrap();
    store
        .apply("young", Action::SetCurrent, Some(json!({"x": 1})))
        .unwrap();
    std::fs::create_dir_all(store.uploads_dir("old")).unwrap();
    std::fs::write(store.uploads_dir("old").join("f.txt"), "x").unwrap();
    // Age "old" on disk, and drop it from memory so only the disk time counts.
    store.flush_files().unwrap();
    let old_file = store.root().join("sessions/old.json");
    let past = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .append(true)
        .open(&old_file)
        .unwrap()
        .set_modified(past)
        .unwrap();
    let report = store
        .gc(SystemTime::now() + Duration::from_secs(30))
        .unwrap();
    // "old" was accessed in memory a moment ago: still alive.
    assert_eq!(report.expired, 0);
    let later = SystemTime::now() + Duration::from_secs(120);
    let report = store.gc(later).unwrap();
    assert_eq!((report.expired, report.alive), (2, 0));
    assert!(!old_file.exists());
    assert!(!store.uploads_dir("old").exists());
    assert!(!store.snapshot("old").unwrap().has_custom_state);
    // A session read recently survives a GC as of now.
    store
        .apply("fresh", Action::SetCurrent, Some(json!({"x": 2})))
        .unwrap();
    store.snapshot("fresh").unwrap();
    assert_eq!(store.gc(SystemTime::now()).unwrap().alive, 1);
}

/// A session evicted from memory before the journal wrote its file is read back from the
/// journal's pending record, never from the stale (or missing) file; a delete is at once.
#[test]
fn an_evicted_session_whose_file_lags_reads_back_its_last_acknowledged_write() {
    let dir = tempfile::tempdir().unwrap();
    let reg = AppRegistry::builtin().unwrap();
    let cfg = ServerConfig {
        cache_capacity: 1,
        fsync: true,
        file_lag_ms: 3_600_000,
        ..config(dir.path())
    };
    let store = SessionStore::open(reg.get("mail").unwrap(), &cfg).unwrap();
    let file = store.root().join("sessions/lag.json");
    store
        .apply("lag", Action::SetCurrent, Some(json!({"v": 1})))
        .unwrap();
    store.flush_files().unwrap();
    store
        .apply("lag", Action::SetCurrent, Some(json!({"v": 2})))
        .unwrap();
    // Evict it: the cache holds one session.
    store
        .apply("other", Action::SetCurrent, Some(json!({"o": 1})))
        .unwrap();
    let on_disk: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(on_disk["current"]["v"], json!(1), "the file lags");
    let snap = store.snapshot("lag").unwrap();
    assert_eq!(snap.current.value().unwrap()["v"], json!(2));
    assert_eq!(
        store
            .journal_stats()
            .files_written
            .load(std::sync::atomic::Ordering::Relaxed),
        1
    );
    assert!(store.delete("lag").unwrap());
    assert!(!file.exists());
    store
        .apply("other", Action::SetCurrent, Some(json!({"o": 2})))
        .unwrap();
    assert!(!store.snapshot("lag").unwrap().has_custom_state);
    // A restart replays the log: both sessions as acknowledged.
    drop(store);
    let store = SessionStore::open(reg.get("mail").unwrap(), &cfg).unwrap();
    assert_eq!(
        store.snapshot("other").unwrap().current.value().unwrap()["o"],
        json!(2)
    );
    assert!(!store.snapshot("lag").unwrap().has_custom_state);
}

#[test]
fn ten_thousand_sessions_keep_memory_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let reg = AppRegistry::builtin().unwrap();
    let cfg = ServerConfig {
        cache_capacity: 256,
        ..config(dir.path())
    };
    let store = Arc::new(SessionStore::open(reg.get("team-chat").unwrap(), &cfg).unwrap());
    for i in 0..10_000 {
        store
            .apply(&format!("s{i}"), Action::SetCurrent, Some(json!({"n": i})))
            .unwrap();
        assert!(store.cached_len() <= 256);
    }
    for i in [0, 17, 4999, 9999] {
        assert_eq!(
            store
                .snapshot(&format!("s{i}"))
                .unwrap()
                .current
                .value()
                .unwrap(),
            json!({"n": i})
        );
    }
    store.flush_files().unwrap();
    assert_eq!(
        std::fs::read_dir(store.root().join("sessions"))
            .unwrap()
            .count(),
        10_000
    );
}

#[test]
fn builtin_apps_are_complete_and_overridable() {
    let reg = AppRegistry::builtin().unwrap();
    let mut every: Vec<&str> = crate::apps::names();
    every.sort_unstable();
    assert_eq!(reg.names(), every);
    for app in [
        "ecommerce-admin",
        "files",
        "issue-tracker",
        "mail",
        "team-chat",
    ] {
        assert!(reg.names().iter().any(|n| n == app), "{app}");
    }
    let count = |app: &str, key: &str| {
        reg.get(app).unwrap().seed[key]
            .as_array()
            .map_or(0, |a| a.len())
    };
    assert!(count("team-chat", "users") >= 10 && count("team-chat", "channels") >= 8);
    assert!(count("mail", "messages") >= 50 && count("mail", "contacts") >= 20);
    assert!(count("issue-tracker", "issues") >= 50);
    assert!(count("ecommerce-admin", "products") >= 20 && count("ecommerce-admin", "orders") >= 50);
    // The E.2 vendor task is expressible: products of BasicWear and HomeGoods exist.
    let shop = reg.get("ecommerce-admin").unwrap();
    let vendors: Vec<&str> = shop.seed["products"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["vendor"].as_str())
        .collect();
    assert!(vendors.contains(&"BasicWear") && vendors.contains(&"HomeGoods"));
    // Issue-tracker invariant: a sprint only holds its project's issues.
    let it = reg.get("issue-tracker").unwrap();
    for issue in it.seed["issues"].as_array().unwrap() {
        if let Some(sid) = issue["sprintId"].as_str() {
            let sprint = it.seed["sprints"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == sid)
                .unwrap();
            assert_eq!(sprint["projectId"], issue["projectId"]);
        }
    }
    let ports: Vec<_> = reg
        .served()
        .iter()
        .map(|a| a.manifest.port.unwrap())
        .collect();
    // The four hand-written web apps and every spec-built one are served (no desktop app is).
    let spec_built = crate::apps::all()
        .iter()
        .filter(|p| p.app.spec_text().is_some())
        .count();
    assert_eq!(ports.len(), 4 + spec_built);
    // Override directory: replace mail's seed; a broken manifest is named in the error.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("mail")).unwrap();
    std::fs::write(
        dir.path().join("mail/manifest.toml"),
        "name = \"mail\"\ntitle = \"M\"\nkind = \"state-api\"\nport = 9\ndescription = \"d\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("mail/seed.json"), "{\"messages\": []}").unwrap();
    let reg2 = AppRegistry::with_overrides(Some(dir.path())).unwrap();
    assert_eq!(*reg2.get("mail").unwrap().seed, json!({"messages": []}));
    std::fs::write(dir.path().join("mail/seed.json"), "[1]").unwrap();
    let err = AppRegistry::with_overrides(Some(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("mail") && err.contains("seed.json must be a JSON object"),
        "{err}"
    );
    let err = reg.get("slack").unwrap_err().to_string();
    assert!(err.contains("slack") && err.contains("team-chat"), "{err}");
}

#[test]
fn files_domain_provisions_a_fresh_home() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("envs/e1/home");
    let n = files::provision_home(&home, None).unwrap();
    assert_eq!(n, files::seed_home().len());
    let csv = std::fs::read_to_string(home.join("Documents/budget-q1.csv")).unwrap();
    assert!(csv.starts_with("category,january,february,march,owner\n"));
    let v: Value =
        serde_json::from_slice(&std::fs::read(home.join("Documents/vendors.json")).unwrap())
            .unwrap();
    assert!(v["vendors"].as_array().unwrap().len() >= 5);
    assert!(home.join("Desktop/todo.md").is_file());
    // Existing destination: refused, untouched.
    std::fs::write(home.join("Desktop/todo.md"), "mine").unwrap();
    let err = files::provision_home(&home, None).unwrap_err().to_string();
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(home.join("Desktop/todo.md")).unwrap(),
        "mine"
    );
    // Override tree.
    let other = dir.path().join("e2");
    assert_eq!(files::provision_home(&other, Some(&home)).unwrap(), n);
    assert_eq!(
        std::fs::read_to_string(other.join("Desktop/todo.md")).unwrap(),
        "mine"
    );
    // No temp directories left behind.
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".home-provision-")
        })
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn a_corrupt_session_file_is_an_error_naming_the_file_not_a_reset() {
    let dir = tempfile::tempdir().unwrap();
    let reg = AppRegistry::builtin().unwrap();
    let store = SessionStore::open(reg.get("mail").unwrap(), &config(dir.path())).unwrap();
    let path = store.root().join("sessions/broken.json");
    std::fs::write(&path, "{\"version\":1,\"has_custom").unwrap();
    let err = store.snapshot("broken").unwrap_err().to_string();
    assert!(
        err.contains("broken.json") && err.contains("corrupt"),
        "{err}"
    );
    // The file is left for inspection, and writes are refused rather than silently replacing it.
    assert!(store
        .apply("broken", Action::Merge, Some(json!({"a": 1})))
        .is_err());
    assert!(path.exists());
}

#[test]
fn roles_allow_exactly_the_documented_actions() {
    use super::Role;
    assert_eq!(Role::from_header(None), Some(Role::Engine));
    assert_eq!(Role::from_header(Some(" Reader ")), Some(Role::Reader));
    assert_eq!(Role::from_header(Some("root")), None);
    let allowed = |r: Role| -> Vec<&str> {
        ["set", "reset", "set_current", "merge"]
            .into_iter()
            .filter(|a| r.may_post(a))
            .collect()
    };
    assert_eq!(
        allowed(Role::Setup),
        ["set", "reset", "set_current", "merge"]
    );
    assert_eq!(allowed(Role::Golden), ["set_current", "merge"]);
    assert!(allowed(Role::Reader).is_empty());
    assert!(Role::Setup.may_upload() && Role::Golden.may_upload() && !Role::Reader.may_upload());
    assert!(Role::Engine.may_delete() && !Role::Setup.may_delete());
}

#[test]
fn server_config_reads_partial_toml_and_rejects_unknown_keys() {
    let cfg: ServerConfig =
        toml::from_str("body_limit_bytes = 1024\nsession_ttl_secs = 5\n").unwrap();
    assert_eq!(cfg.body_limit_bytes, 1024);
    assert_eq!(cfg.session_ttl_secs, 5);
    assert_eq!(cfg.cache_capacity, ServerConfig::default().cache_capacity);
    let err = toml::from_str::<ServerConfig>("body_limit = 3")
        .unwrap_err()
        .to_string();
    assert!(err.contains("body_limit"), "{err}");
}

#[test]
fn every_built_in_web_app_declares_a_schema_its_seed_fits() {
    let reg = AppRegistry::builtin().unwrap();
    for app in reg.served() {
        let schema = app.manifest.state.as_ref();
        let schema = schema.unwrap_or_else(|| panic!("{} declares no [state]", app.name()));
        assert_eq!(schema.misfit(&app.seed), None, "{}", app.name());
        let declared: Vec<&String> = schema.fields.keys().collect();
        let seeded: Vec<&String> = app.seed.as_object().unwrap().keys().collect();
        let (mut d, mut s) = (declared, seeded);
        d.sort();
        s.sort();
        assert_eq!(
            d,
            s,
            "{}: every seed key declared, nothing else",
            app.name()
        );
    }
}
