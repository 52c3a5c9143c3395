//! Shared pieces of the VLM tests: the form page and its server, a screen showing it, the
//! screenshots a stand-in received.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use serde_json::Value;
use tuplewright::engine::rollout::vlm::{
    open_chromium, run_episode, wire_from_spec, Episode, VlmConfig,
};
use tuplewright::engine::screen::{Screen, ScreenConfig};

/// The form: a text field (centre 300,120) and a Send button (centre 200,225) on a 1280x800
/// screen; submitting shows "thanks" on a green page.
pub const PAGE: &str = r#"<!doctype html><html><head><style>
body { margin: 0; background: #f0e0d0; font: 20px sans-serif; }
#name { position: absolute; left: 100px; top: 100px; width: 400px; height: 40px; font-size: 24px; }
#go { position: absolute; left: 100px; top: 200px; width: 200px; height: 50px; }
</style></head><body><form method="post" action="/submit">
<input id="name" name="name" autocomplete="off"><button id="go" type="submit">Send</button>
</form></body></html>"#;

/// Centre of the text field.
pub const FIELD: (i32, i32) = (300, 120);
/// Centre of the Send button.
pub const BUTTON: (i32, i32) = (200, 225);

/// The form's server: every submitted name.
pub struct FormServer {
    pub url: String,
    pub posts: Arc<Mutex<Vec<String>>>,
}

impl FormServer {
    pub fn start() -> FormServer {
        let posts = Arc::new(Mutex::new(Vec::new()));
        let p2 = posts.clone();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("http://{}/", listener.local_addr().expect("addr"));
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let app = axum::Router::new()
                    .route("/", axum::routing::get(|| async { axum::response::Html(PAGE) }))
                    .route(
                        "/submit",
                        axum::routing::post(move |axum::Form(f): axum::Form<HashMap<String, String>>| {
                            let p = p2.clone();
                            async move {
                                p.lock().expect("lock").push(f.get("name").cloned().unwrap_or_default());
                                axum::response::Html("<html><body style='background:#0a0'><h1>thanks</h1></body></html>")
                            }
                        }),
                    );
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                let _ = axum::serve(listener, app).await;
            });
        });
        FormServer { url, posts }
    }

    pub fn posts(&self) -> Vec<String> {
        self.posts.lock().expect("lock").clone()
    }
}

/// A 1280x800 screen showing the form in Chromium.
pub fn form_screen(form: &FormServer) -> Screen {
    open_chromium(&ScreenConfig::default(), &form.url, "test").expect("Chromium shows the form")
}

/// Fast settings for tests: quick backoff, short timeouts, no settle beyond what the page needs.
/// One episode of the policy `spec` on the form's screen, with `instruction`.
pub fn form_episode(spec: &str, cfg: &VlmConfig, form: &FormServer, instruction: &str) -> Episode {
    let wire = wire_from_spec(spec, cfg).expect("wire");
    let mut screen = form_screen(form);
    run_episode(
        &mut screen,
        wire.as_ref(),
        instruction,
        &cfg.limits(),
        &std::sync::atomic::AtomicBool::new(false),
    )
    .expect("episode")
}

pub fn fast_config() -> VlmConfig {
    VlmConfig {
        backoff_base_ms: 10,
        request_timeout_secs: 20.0,
        // No fixed pause: the display's settle wait alone ([screen] settle_quiet_ms).
        settle_ms: 0,
        max_turns: 12,
        ..VlmConfig::default()
    }
}

/// Decodes a `data:image/png;base64,` URL (or bare base64) to (width, height).
pub fn png_size(data: &str) -> (u32, u32) {
    let b64 = data.strip_prefix("data:image/png;base64,").unwrap_or(data);
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("base64");
    let img = image::load_from_memory(&bytes).expect("png");
    (img.width(), img.height())
}

/// Every string in `v` under a key named `key`, depth first.
pub fn strings_under(v: &Value, key: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == key {
                    if let Some(s) = x.as_str() {
                        out.push(s.to_string());
                    }
                }
                strings_under(x, key, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| strings_under(x, key, out)),
        _ => {}
    }
}

/// How often `needle` occurs in the JSON text of `v`.
pub fn count(v: &Value, needle: &str) -> usize {
    v.to_string().matches(needle).count()
}
