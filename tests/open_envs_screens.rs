//! Screens of imported bundles (issue #28, "screens on external apps"): `screen shot --task` on a
//! published `mock_websites` bundle resolves its app by what its scripts reach (here the Hub's
//! gmail host: the built-in mail UI), and on an `[[apps.external]]` app it opens the app's UI
//! address for the trial's session — after the setup set the state — and captures the page once
//! it has rendered: the stand-in site (tests/fixtures/hub_standin.py) first shows "Loading…",
//! like a Vite dev server, and draws one green block per page of the state 2.5 s later.

use crate::open_envs_support;
use crate::osworld_support;

use std::path::{Path, PathBuf};

use open_envs_support::{notion_bundle, output, status, tw, write_bundle, PublicBundle};

/// The stand-in's green (a live page's block), as Chromium draws it (sRGB forced).
const GREEN: [u8; 3] = [0x0a, 0x8a, 0x3a];

fn standin() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hub_standin.py")
}

fn shoot(db: &Path, id: &str) -> (bool, String, Vec<u8>) {
    let out = db.with_file_name(format!("{id}.png"));
    let a = tw(db)
        .args(["screen", "shot", "--task", id, "--out"])
        .arg(&out)
        .assert();
    let ok = a.get_output().status.success();
    (ok, output(&a), std::fs::read(&out).unwrap_or_default())
}

fn pixels(png: &[u8]) -> Vec<[u8; 3]> {
    let img = image::load_from_memory(png).unwrap().to_rgb8();
    img.pixels().map(|p| p.0).collect()
}

/// `tuplewright.toml` with the stand-in as `[[apps.external]] notion`, its page rendered after
/// 2.5 s.
fn external_notion(dir: &Path) {
    std::fs::write(
        dir.join("tuplewright.toml"),
        format!(
            "[[apps.external]]\nname = \"notion\"\n\
             command = \"exec python3 {} --port {{port}} --dialect legacy --state-dir {} --ui-delay-ms 2500\"\n\
             ready = \"/\"\n",
            standin().display(),
            dir.join("hub-state").display()
        ),
    )
    .unwrap();
}

#[test]
fn screen_shot_of_an_external_app_shows_its_rendered_page_with_the_setup_state() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    external_notion(dir.path());
    let id = "notion_archive_page_screen_001";
    let path = notion_bundle(dir.path(), id);
    let a = tw(&db).arg("verify").arg(&path).assert();
    assert!(a.get_output().status.success(), "{}", output(&a));
    assert_eq!(status(&db, id), "final");

    let (ok, out, png) = shoot(&db, id);
    assert!(
        ok,
        "screen shot --task on a verified external-app bundle: {out}"
    );
    let px = pixels(&png);
    let green = px.iter().filter(|p| **p == GREEN).count();
    // Two live pages (the setup's state), each a block of about 1240 x 120 pixels: the page as
    // rendered, not its "Loading…" shell (which has no green at all).
    assert!(
        green > 2 * 100_000,
        "{green} green pixels: the capture is not of the rendered page with the setup's two pages"
    );
}

/// A published shape (as in tests/open_envs.rs): the Hub's gmail host, a minted sid.
const GMAIL_SETUP: &str = r#"import uuid
import requests
BASE_URL = 'https://cua-gym-gmail.xlang.ai'
sid = str(uuid.uuid4())
open('/tmp/task_web_sid', 'w').write(sid)
mail = lambda i, s: {'id': i, 'threadId': i, 'folder': 'inbox', 'subject': s, 'isRead': False,
                     'from': {'name': 'N', 'email': 'n@news.example'}, 'to': [], 'labels': []}
state = {'user': {'email': 'demo@example.com'}, 'emails': [mail('e1', 'Standup'), mail('e2', 'Digest')]}
requests.post(BASE_URL + '/post?sid=' + sid, json={'action': 'set', 'state': state}, timeout=30).raise_for_status()
"#;

#[test]
fn screen_shot_of_a_mock_websites_bundle_resolves_its_app_from_the_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let id = "gmail_screen_001";
    let b = PublicBundle {
        id,
        app_type: "mock_websites",
        domain: Some("mock_websites"),
        setup: GMAIL_SETUP,
        golden: "print('x')\n",
        reward: "print('REWARD: 0.0')\n",
    };
    let path = write_bundle(&dir.path().join("in"), &b);
    let a = tw(&db).arg("import").arg(&path).assert();
    assert!(a.get_output().status.success(), "{}", output(&a));
    let (ok, out, png) = shoot(&db, id);
    assert!(ok, "screen shot --task on a mock_websites bundle: {out}");
    let px = pixels(&png);
    let distinct: std::collections::HashSet<&[u8; 3]> = px.iter().take(400_000).collect();
    assert!(
        distinct.len() > 8,
        "the mail UI is drawn, not a blank screen"
    );
    // --app checks the resolved app, not the category's name.
    let a = tw(&db)
        .args([
            "screen",
            "shot",
            "--task",
            id,
            "--app",
            "team-chat",
            "--out",
        ])
        .arg(dir.path().join("x.png"))
        .assert()
        .failure();
    assert!(
        output(&a).contains("is of mail, not team-chat"),
        "{}",
        output(&a)
    );
}

#[test]
fn env_serve_osworld_serves_an_external_apps_rendered_page_with_its_widgets() {
    let dir = tempfile::tempdir().unwrap();
    external_notion(dir.path());
    let id = "notion_archive_page_guest_001";
    let path = notion_bundle(dir.path(), id);
    let a = tw(&dir.path().join("tuplewright.db"))
        .arg("import")
        .arg(&path)
        .assert();
    assert!(a.get_output().status.success(), "{}", output(&a));
    let guest = osworld_support::serve(dir, &["--task", id]);
    let client = tuplewright::engine::osworld::GuestClient::new(&guest.url).unwrap();
    // Served once rendered: the setup's two pages are on the page and in its widget tree.
    let xml = client.accessibility().unwrap();
    assert!(
        xml.contains("<frame name=\"Notion stand-in\"")
            && xml.contains("<heading name=\"Pages (2)\"")
            && xml.contains("name=\"Old notes\""),
        "{xml}"
    );
    let green = pixels(&client.screenshot().unwrap())
        .iter()
        .filter(|p| **p == GREEN)
        .count();
    assert!(green > 2 * 100_000, "{green} green pixels");
}
