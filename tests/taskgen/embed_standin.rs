//! A stand-in OpenAI-compatible `/v1/embeddings` server with deterministic "semantic" vectors:
//! words are lower-cased, stop words dropped, synonyms mapped to one concept, and each concept
//! hashed into one of 64 dimensions. Paraphrases with different words therefore land close
//! together, which the offline character n-gram check cannot see.

use std::net::TcpListener as StdListener;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

const STOP: [&str; 12] = [
    "the", "a", "to", "of", "before", "ahead", "by", "for", "on", "please", "our", "s",
];
const SYNONYMS: [(&str, &str); 12] = [
    ("email", "send"),
    ("mail", "send"),
    ("forward", "send"),
    ("spending", "budget"),
    ("costs", "budget"),
    ("summary", "report"),
    ("writeup", "report"),
    ("q3", "quarterly"),
    ("third", "quarterly"),
    ("quarter", "quarterly"),
    ("meeting", "review"),
    ("fri", "friday"),
];

fn concept(w: &str) -> &str {
    SYNONYMS.iter().find(|(k, _)| *k == w).map_or(w, |(_, v)| v)
}

/// The stand-in's vector of a text.
pub fn vector(text: &str) -> Vec<f32> {
    let mut v = vec![0f32; 64];
    let lower = text.to_lowercase();
    for w in lower.split(|c: char| !c.is_alphanumeric()) {
        if w.is_empty() || STOP.contains(&w) {
            continue;
        }
        let c = concept(w);
        let h = c.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        v[(h % 64) as usize] += 1.0;
    }
    v
}

/// What the server saw and how it answers.
#[derive(Default)]
pub struct Seen {
    /// Request bodies, in order.
    pub requests: Vec<Value>,
    /// Answer HTTP `fail_status` to every request while true.
    pub failing: bool,
}

/// A running stand-in: base URL including `/v1`, and the shared record.
pub fn start(failing: bool) -> (String, Arc<Mutex<Seen>>) {
    let seen = Arc::new(Mutex::new(Seen {
        requests: Vec::new(),
        failing,
    }));
    let listener = StdListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let base = format!("http://{}/v1", listener.local_addr().expect("addr"));
    let state = seen.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            let app = axum::Router::new()
                .route("/v1/embeddings", axum::routing::post(embeddings))
                .with_state(state);
            let _ = axum::serve(listener, app).await;
        });
    });
    (base, seen)
}

async fn embeddings(State(seen): State<Arc<Mutex<Seen>>>, Json(body): Json<Value>) -> Response {
    let failing = {
        let mut s = seen.lock().expect("lock");
        s.requests.push(body.clone());
        s.failing
    };
    if failing {
        return (
            StatusCode::BAD_REQUEST,
            "{\"error\":{\"message\":\"model not loaded\"}}",
        )
            .into_response();
    }
    let inputs: Vec<String> = match &body["input"] {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect(),
        _ => return (StatusCode::BAD_REQUEST, "bad input").into_response(),
    };
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": vector(t)}))
        .collect();
    Json(
        json!({"object": "list", "data": data, "model": body["model"],
                "usage": {"prompt_tokens": 1, "total_tokens": 1}}),
    )
    .into_response()
}
