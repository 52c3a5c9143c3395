//! Screens: medians of a 1280×800 screenshot (read + PNG), of one action, of a web environment
//! becoming ready (display, Chromium, page drawn) — on a static page and on the team-chat UI
//! (session store, agent-facing origin, display, Chromium, first page drawn, DevTools attached:
//! what every web ui-oracle trial starts) —, action+screenshot p50 with 4 screens live at once,
//! and memory (PSS) per screen environment. Needs Xvfb and Chromium (.ci/setup).
//! Run: `cargo bench --bench screen`. Targets: ≤ 20 ms, ≤ 10 ms, ≤ 3 s, ≤ 250 ms.

use std::time::{Duration, Instant};

use tuplewright::engine::screen::{
    encode_png, ActionOutcome, BrowserSpec, ComputerAction as A, Screen, ScreenConfig,
};

fn page() -> String {
    let mut rows = String::new();
    for i in 0..40 {
        rows.push_str(&format!(
            "<li><b>user{i}</b> <span>message number {i}: the quarterly report is ready for review, see the attached spreadsheet</span></li>"
        ));
    }
    format!(
        "<!doctype html><html><head><style>body{{margin:0;font:15px sans-serif;display:flex}}\
         nav{{width:220px;background:#3f0e40;color:#fff;height:100vh;padding:12px}}\
         main{{flex:1;padding:12px}} li{{padding:4px 0;border-bottom:1px solid #eee}}\
         textarea{{width:90%;height:60px}}</style></head><body><nav><h3>acme</h3><p># general</p>\
         <p># random</p><p># design</p></nav><main><h2># general</h2><ul>{rows}</ul>\
         <textarea placeholder='Message #general'></textarea></main></body></html>"
    )
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Proportional set size of every process of a screen, in MiB.
fn pss_mib(marker: &std::path::Path) -> f64 {
    let needle = format!("TUPLEWRIGHT_SCREEN={}", marker.display()).into_bytes();
    let mut kib = 0u64;
    for e in std::fs::read_dir("/proc").expect("proc").flatten() {
        let env = std::fs::read(e.path().join("environ")).unwrap_or_default();
        if !env.split(|b| *b == 0).any(|kv| kv == needle.as_slice()) {
            continue;
        }
        let rollup = std::fs::read_to_string(e.path().join("smaps_rollup")).unwrap_or_default();
        for line in rollup.lines() {
            if let Some(v) = line.strip_prefix("Pss:") {
                kib += v
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .unwrap_or(0);
            }
        }
    }
    kib as f64 / 1024.0
}

fn web_screen(cfg: &ScreenConfig, url: &str) -> (Screen, Duration) {
    let t = Instant::now();
    let mut s = Screen::start(cfg, cfg.size_for("bench")).expect("Xvfb");
    let allow = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    s.open_browser(
        cfg,
        &BrowserSpec {
            url: url.to_string(),
            allow,
        },
    )
    .expect("Chromium draws the page");
    (s, t.elapsed())
}

/// The team-chat UI of a fresh session on a web screen, `n` times: the start-up durations.
fn team_chat_ready(cfg: &ScreenConfig, n: usize) -> Vec<Duration> {
    use std::sync::Arc;
    use tuplewright::engine::env::{AppRegistry, ServerConfig, SessionStore};
    use tuplewright::engine::ui::{Today, UiOptions, WebScreen};

    let dir = tempfile::tempdir().expect("tempdir");
    let server = ServerConfig {
        port: Some(0),
        state_dir: dir.path().to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    };
    let reg = AppRegistry::builtin().expect("apps");
    let store = Arc::new(
        SessionStore::open(reg.get("team-chat").expect("team-chat"), &server).expect("store"),
    );
    let today = Today::parse("2026-03-05T10:00:00Z").expect("today");
    (0..n)
        .map(|i| {
            let web = WebScreen::start(cfg, store.clone(), &format!("b{i}"), UiOptions { today })
                .expect("the team-chat UI on a screen");
            web.ready
        })
        .collect()
}

fn main() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let url = format!("http://{}/", listener.local_addr().expect("addr"));
    let html = page();
    rt.spawn(async move {
        let app = axum::Router::new().route(
            "/",
            axum::routing::get(move || async move { axum::response::Html(html) }),
        );
        axum::serve(listener, app).await.expect("serve");
    });
    let cfg = ScreenConfig::default();

    let mut ready = Vec::new();
    for _ in 0..4 {
        let (s, d) = web_screen(&cfg, &url);
        ready.push(d);
        drop(s);
    }
    let ui_ready = team_chat_ready(&cfg, 5);
    let (mut s, d) = web_screen(&cfg, &url);
    ready.push(d);

    let shots: Vec<Duration> = (0..30)
        .map(|_| {
            let t = Instant::now();
            let shot = s.screenshot().expect("screenshot");
            assert!(shot.png.len() > 1000);
            t.elapsed()
        })
        .collect();
    let last = image::load_from_memory(&s.screenshot().expect("screenshot").png)
        .expect("png")
        .to_rgb8();
    let encodes: Vec<Duration> = (0..30)
        .map(|_| {
            let t = Instant::now();
            encode_png(last.as_raw(), last.width(), last.height()).expect("encode");
            t.elapsed()
        })
        .collect();
    let actions: Vec<Duration> = (0..100)
        .map(|i| {
            let t = Instant::now();
            let a = match i % 3 {
                0 => A::MouseMove { x: 300 + i, y: 300 },
                1 => A::LeftClick { x: 600, y: 300 },
                _ => A::Key { key: "Down".into() },
            };
            assert_eq!(s.act(&a).expect("action"), ActionOutcome::Done);
            t.elapsed()
        })
        .collect();
    let pss_one = pss_mib(s.work_dir());
    drop(s);

    // Four web environments live at once, each driven by its own thread.
    let screens: Vec<Screen> = (0..4).map(|_| web_screen(&cfg, &url).0).collect();
    let pss_four: f64 = screens.iter().map(|s| pss_mib(s.work_dir())).sum();
    let pairs: Vec<Duration> = std::thread::scope(|scope| {
        let handles: Vec<_> = screens
            .into_iter()
            .map(|mut s| {
                scope.spawn(move || {
                    (0..25)
                        .map(|i| {
                            let t = Instant::now();
                            s.act(&A::LeftClick {
                                x: 400 + i * 10,
                                y: 200,
                            })
                            .expect("click");
                            s.act(&A::Screenshot).expect("screenshot");
                            t.elapsed()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });

    println!(
        "screen/screenshot_1280x800_png   median {:8.2} ms (target <= 20)",
        ms(median(shots))
    );
    println!(
        "screen/png_encode_only          median {:8.2} ms (part of the screenshot)",
        ms(median(encodes))
    );
    println!(
        "screen/one_action                median {:8.2} ms (target <= 10)",
        ms(median(actions))
    );
    println!(
        "screen/web_env_ready             median {:8.0} ms (target <= 3000)",
        ms(median(ready))
    );
    println!(
        "screen/team_chat_ui_env_ready    median {:8.0} ms (target <= 3000; origin + display + Chromium + page + DevTools)",
        ms(median(ui_ready))
    );
    println!(
        "screen/4_envs_action+screenshot  p50    {:8.2} ms (target <= 250)",
        ms(median(pairs))
    );
    println!(
        "screen/memory_per_web_env        pss    {:8.1} MiB (alone), {:.1} MiB (mean of 4)",
        pss_one,
        pss_four / 4.0
    );
}
