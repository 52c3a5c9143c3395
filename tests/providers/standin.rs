//! Local stand-in servers speaking the real wire formats (OpenAI chat completions, Anthropic
//! Messages) on 127.0.0.1, with scripted replies (status, headers, body, delay) and a record of every
//! request received. No network beyond loopback, no model.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::TcpListener as StdListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// One scripted reply.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub delay: Duration,
}

impl Reply {
    pub fn json(body: Value) -> Self {
        Self::raw(200, &body.to_string())
    }

    pub fn raw(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, k: &str, v: &str) -> Self {
        self.headers.push((k.into(), v.into()));
        self
    }

    pub fn delayed(mut self, d: Duration) -> Self {
        self.delay = d;
        self
    }
}

/// A request as the stand-in saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Computes a reply from the request (a stand-in model that looks at what it is sent).
pub type Responder = Arc<dyn Fn(&Recorded) -> Reply + Send + Sync>;

#[derive(Default)]
struct Inner {
    script: VecDeque<Reply>,
    fallback: Option<Reply>,
    requests: Vec<Recorded>,
    responder: Option<Responder>,
}

/// A running stand-in server.
#[derive(Clone)]
pub struct StandIn {
    pub base: String,
    inner: Arc<Mutex<Inner>>,
}

impl StandIn {
    /// Starts a server answering `script` in order, then `fallback` forever (or 599 if none).
    pub fn start(script: Vec<Reply>, fallback: Option<Reply>) -> Self {
        Self::serve(Inner {
            script: script.into(),
            fallback,
            ..Inner::default()
        })
    }

    /// Starts a server answering every request with `responder` (run on a blocking thread, so
    /// it may wait on the screen as a model would look at it).
    #[allow(dead_code)] // used by the filter tests' stand-in teachers
    pub fn responding(responder: Responder) -> Self {
        Self::serve(Inner {
            responder: Some(responder),
            ..Inner::default()
        })
    }

    fn serve(inner: Inner) -> Self {
        let inner = Arc::new(Mutex::new(inner));
        let listener = StdListener::bind("127.0.0.1:0").expect("bind stand-in");
        listener.set_nonblocking(true).expect("nonblocking");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let state = inner.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                let app = axum::Router::new()
                    .fallback(axum::routing::any(handle))
                    .with_state(state);
                let _ = axum::serve(listener, app).await;
            });
        });
        Self { base, inner }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.inner.lock().expect("lock").requests.clone()
    }
}

async fn handle(
    State(state): State<Arc<Mutex<Inner>>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let recorded = Recorded {
        path: uri.path().to_string(),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
            .collect(),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };
    let (reply, responder) = {
        let mut inner = state.lock().expect("lock");
        inner.requests.push(recorded.clone());
        let next = inner.script.pop_front();
        let reply = next
            .or_else(|| inner.fallback.clone())
            .unwrap_or_else(|| Reply::raw(599, "stand-in script exhausted"));
        (reply, inner.responder.clone())
    };
    let reply = match responder {
        Some(f) => tokio::task::spawn_blocking(move || f(&recorded))
            .await
            .unwrap_or_else(|e| Reply::raw(599, &format!("stand-in responder panicked: {e}"))),
        None => reply,
    };
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut resp = (
        StatusCode::from_u16(reply.status).expect("status"),
        reply.body,
    )
        .into_response();
    for (k, v) in reply.headers {
        resp.headers_mut().insert(
            axum::http::HeaderName::try_from(k).expect("name"),
            axum::http::HeaderValue::try_from(v).expect("value"),
        );
    }
    resp
}

/// Reads one HTTP/1.1 request (head + `content-length` body) so that closing afterwards does not
/// reset the connection under the client.
fn read_request(stream: &mut std::net::TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let mut need: Option<usize> = None;
    loop {
        if let Some(total) = need {
            if buf.len() >= total {
                return;
            }
        }
        let n = match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        buf.extend_from_slice(&chunk[..n]);
        if need.is_none() {
            if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..pos]).to_ascii_lowercase();
                let len = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                need = Some(pos + 4 + len);
            }
        }
    }
}

/// A raw TCP stand-in: connection `i` gets `script[i]`, a list of (pause, bytes) writes, then the
/// connection is closed (later connections are closed at once). Returns the base URL and a counter
/// of connections accepted. Lets tests drop a stream mid-way or pace its chunks.
pub fn raw_server(script: Vec<Vec<(Duration, String)>>) -> (String, Arc<Mutex<usize>>) {
    let listener = StdListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let count = Arc::new(Mutex::new(0usize));
    let seen = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let n = {
                let mut c = seen.lock().expect("lock");
                *c += 1;
                *c
            };
            let writes = script.get(n - 1).cloned().unwrap_or_default();
            std::thread::spawn(move || {
                read_request(&mut stream);
                for (pause, bytes) in writes {
                    std::thread::sleep(pause);
                    if stream.write_all(bytes.as_bytes()).is_err() {
                        return;
                    }
                    let _ = stream.flush();
                }
            });
        }
    });
    (base, count)
}

/// The head of a close-delimited HTTP/1.1 response.
pub fn http_head(content_type: &str) -> String {
    format!("HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\nconnection: close\r\n\r\n")
}

/// A raw stand-in that drops the first `drops` connections after reading the request, then
/// answers `ok_body` as JSON.
pub fn dropping_server(drops: usize, ok_body: Value) -> (String, Arc<Mutex<usize>>) {
    let mut script: Vec<Vec<(Duration, String)>> = vec![Vec::new(); drops];
    let body = ok_body.to_string();
    for _ in 0..4 {
        script.push(vec![(
            Duration::ZERO,
            http_head("application/json") + &body,
        )]);
    }
    raw_server(script)
}

/// An SSE body from `(event name or "", data)` pairs.
pub fn sse(events: &[(&str, Value)]) -> String {
    let mut out = String::new();
    for (name, data) in events {
        if !name.is_empty() {
            out.push_str(&format!("event: {name}\n"));
        }
        out.push_str(&format!("data: {data}\n\n"));
    }
    out
}

/// An SSE reply served by the axum stand-in.
pub fn sse_reply(body: String) -> Reply {
    Reply {
        status: 200,
        headers: vec![("content-type".into(), "text/event-stream".into())],
        body,
        delay: Duration::ZERO,
    }
}

// ---- wire-format reply builders ----

pub fn openai_text(text: &str, input: u64, output: u64) -> Value {
    json!({
        "id": "chatcmpl-standin", "object": "chat.completion", "model": "standin",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": input, "completion_tokens": output,
                  "total_tokens": input + output}
    })
}

/// `calls`: (id, name, arguments object); a JSON string is sent as the raw `arguments` text.
pub fn openai_tools(calls: &[(&str, &str, Value)], input: u64, output: u64) -> Value {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| {
            let raw = match args {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            json!({"id": id, "type": "function",
                   "function": {"name": name, "arguments": raw}})
        })
        .collect();
    json!({
        "id": "chatcmpl-standin", "object": "chat.completion", "model": "standin",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                                              "tool_calls": calls},
                     "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": input, "completion_tokens": output,
                  "total_tokens": input + output}
    })
}

pub fn anthropic_text(text: &str, input: u64, output: u64) -> Value {
    json!({
        "id": "msg_standin", "type": "message", "role": "assistant", "model": "standin",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": input, "output_tokens": output}
    })
}

/// `calls`: (id, name, input object).
pub fn anthropic_tools(calls: &[(&str, &str, Value)], input: u64, output: u64) -> Value {
    let mut content = vec![json!({"type": "text", "text": "Let me check."})];
    for (id, name, args) in calls {
        content.push(json!({"type": "tool_use", "id": id, "name": name, "input": args}));
    }
    json!({
        "id": "msg_standin", "type": "message", "role": "assistant", "model": "standin",
        "content": content, "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": input, "output_tokens": output}
    })
}
