//! Chromium (Debian `chromium`, installed by .ci/setup) on a real Xvfb screen: kiosk mode fills
//! the display, the pre-rollout gate waits for the page, clicks and Unicode typing reach a form
//! that POSTs to a local server, a page cannot reach any other origin, and a `kill -9` of the
//! engine leaves nothing once the next screen starts.

use crate::screen_support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::routing::get;
use axum::{Form, Router};
use screen_support::{eventually, marker_processes};
use tuplewright::engine::screen::{BrowserSpec, ComputerAction as A, Screen, ScreenConfig};

const PAGE: &str = r#"<!doctype html><html><head><style>
body { margin: 0; background: #f0e0d0; font: 20px sans-serif; }
#name { position: absolute; left: 100px; top: 100px; width: 400px; height: 40px; font-size: 24px; }
#go { position: absolute; left: 100px; top: 200px; width: 200px; height: 50px; }
</style></head><body><form method="post" action="/submit">
<input id="name" name="name" autocomplete="off"><button id="go" type="submit">Send</button>
</form><img style="position: absolute; left: 600px; top: 500px" src="http://127.0.0.1:FORBIDDEN/pixel.png"></body></html>"#;

#[derive(Default)]
struct Seen {
    posts: Vec<String>,
    forbidden_hits: usize,
}

async fn serve(router: Router) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_kiosk_shows_the_page_and_clicks_and_unicode_typing_reach_its_form() {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let s2 = seen.clone();
    let forbidden = serve(Router::new().fallback(move || {
        s2.lock().unwrap().forbidden_hits += 1;
        async { "no" }
    }))
    .await;
    let page = PAGE.replace("FORBIDDEN", &forbidden.to_string());
    let app =
        Router::new()
            .route("/", get(move || async move { axum::response::Html(page) }))
            .route(
                "/submit",
                axum::routing::post(
                    |State(seen): State<Arc<Mutex<Seen>>>,
                     Form(f): Form<HashMap<String, String>>| async move {
                        seen.lock()
                            .unwrap()
                            .posts
                            .push(f.get("name").cloned().unwrap_or_default());
                        axum::response::Html(
                            "<html><body style='background:#0a0'><h1>thanks</h1></body></html>",
                        )
                    },
                ),
            )
            .with_state(seen.clone());
    let port = serve(app).await;

    let seen2 = seen.clone();
    tokio::task::spawn_blocking(move || {
        let cfg = ScreenConfig::default();
        let mut s = Screen::start(&cfg, cfg.size_for("test")).unwrap();
        let spec = BrowserSpec {
            url: format!("http://127.0.0.1:{port}/"),
            allow: format!("127.0.0.1:{port}"),
        };
        let shot = s.open_browser(&cfg, &spec).unwrap();
        let img = image::load_from_memory(&shot.png).unwrap().to_rgb8();
        if let Ok(dir) = std::env::var("SCREEN_TEST_SHOTS") {
            std::fs::write(format!("{dir}/kiosk.png"), &shot.png).unwrap();
        }
        // Kiosk mode: the page's background reaches the far corners of the display.
        for (x, y) in [(0, 0), (1279, 799), (1279, 0), (0, 799), (640, 700)] {
            assert_eq!(
                img.get_pixel(x, y).0,
                [0xf0, 0xe0, 0xd0],
                "pixel at ({x}, {y})"
            );
        }
        let text = "Grüße, 世界 ✓";
        s.act(&A::LeftClick { x: 300, y: 120 }).unwrap();
        s.act(&A::Type { text: text.into() }).unwrap();
        s.act(&A::LeftClick { x: 200, y: 225 }).unwrap();
        assert!(
            eventually(20, || !seen2.lock().unwrap().posts.is_empty()),
            "the form was never submitted"
        );
        assert_eq!(seen2.lock().unwrap().posts, vec![text.to_string()]);
        let marker = s.work_dir().to_path_buf();
        assert!(
            marker_processes(&marker) >= 2,
            "Xvfb and Chromium run with the marker"
        );
        drop(s);
        assert!(
            eventually(15, || marker_processes(&marker) == 0),
            "teardown leaves nothing"
        );
    })
    .await
    .unwrap();
    // The image on another loopback port was never fetched: only the app origin is reachable.
    assert_eq!(seen.lock().unwrap().forbidden_hits, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_engine_leaves_no_xvfb_or_chromium_after_the_next_screen_starts() {
    let port = serve(Router::new().route(
        "/",
        get(|| async {
            axum::response::Html("<body style='background:#123'><h1>held</h1></body>")
        }),
    ))
    .await;
    let bin = assert_cmd::cargo::cargo_bin("tuplewright");
    tokio::task::spawn_blocking(move || {
        use std::io::BufRead;
        let cwd = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new(bin)
            .current_dir(cwd.path())
            .args(["screen", "hold", "--url"])
            .arg(format!("http://127.0.0.1:{port}/"))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&line).expect("the hold line");
        let marker = std::path::PathBuf::from(v["work_dir"].as_str().unwrap());
        assert!(marker_processes(&marker) >= 2, "Xvfb and Chromium are up");
        child.kill().unwrap(); // SIGKILL: no destructor runs.
        child.wait().unwrap();
        assert!(
            marker_processes(&marker) >= 2,
            "the killed run's screen outlives it"
        );
        let next = Screen::start(
            &ScreenConfig::default(),
            ScreenConfig::default().size_for("x"),
        );
        assert!(next.is_ok());
        assert!(
            eventually(15, || marker_processes(&marker) == 0),
            "the sweep killed them"
        );
        assert!(!marker.exists());
    })
    .await
    .unwrap();
}
