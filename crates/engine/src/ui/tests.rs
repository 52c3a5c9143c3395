//! Shared fixtures of the app UI tests (each pack's `ui/tests`): a loopback UI origin bound to
//! one session of a real session store, form posts, a crawl for dead links and forms.

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

use serde_json::Value;

use super::{app_ui, start, Today, UiHandle, UiOptions};
use crate::env::{AppRegistry, ServerConfig, SessionStore};

pub(crate) const TODAY: &str = "2026-03-05T10:00:00Z";

pub(crate) struct Fixture {
    _dir: tempfile::TempDir,
    pub(crate) store: Arc<SessionStore>,
    pub(crate) ui: UiHandle,
    pub(crate) http: reqwest::Client,
}

/// A UI origin over a fresh session of `app` (its seed) and an HTTP client that does not follow
/// redirects.
pub(crate) async fn fixture(app: &str) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.path().to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    };
    let reg = AppRegistry::builtin().unwrap();
    let store = Arc::new(SessionStore::open(reg.get(app).unwrap(), &cfg).unwrap());
    let opts = UiOptions {
        today: Today::parse(TODAY).unwrap(),
    };
    let ui = start(store.clone(), "trial-1", opts).await.unwrap();
    tuplewright_models::providers::http::ensure_crypto_provider();
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    Fixture {
        _dir: dir,
        store,
        ui,
        http,
    }
}

impl Fixture {
    pub(crate) async fn get(&self, path: &str) -> (u16, String) {
        let r = self
            .http
            .get(format!("http://{}{path}", self.ui.addr))
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }

    /// Posts a form and follows the redirect: (status of the post, Location, page after).
    pub(crate) async fn post(&self, op: &str, form: &[(&str, &str)]) -> (u16, String, String) {
        let r = self
            .http
            .post(format!("http://{}/op/{op}", self.ui.addr))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string(form).unwrap())
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let location = r
            .headers()
            .get("location")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        let page = if location.is_empty() {
            String::new()
        } else {
            self.get(&location).await.1
        };
        (status, location, page)
    }

    pub(crate) fn current(&self) -> Value {
        self.store
            .snapshot("trial-1")
            .unwrap()
            .current
            .value()
            .unwrap()
    }
}

pub(crate) fn attr_values(html: &str, attr: &str) -> Vec<String> {
    let re = regex::Regex::new(&format!(r#"\b{attr}="([^"]*)""#)).unwrap();
    re.captures_iter(html)
        .map(|c| c[1].replace("&amp;", "&"))
        .collect()
}

/// Crawls `app`'s UI from `/` over its seed: every link is on the origin and answers 200, every
/// form names an operation the app knows, no page has JavaScript. Returns (pages, forms).
pub(crate) async fn crawl(app: &str) -> (usize, usize) {
    let f = fixture(app).await;
    let ui = app_ui(app).unwrap();
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from(["/".to_string()]);
    let mut forms = 0;
    while let Some(path) = queue.pop_front() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let (status, html) = f.get(&path).await;
        assert_eq!(status, 200, "dead link {path}");
        for href in attr_values(&html, "href") {
            assert!(
                href.starts_with('/'),
                "link off the origin: {href} on {path}"
            );
            if !seen.contains(&href) {
                queue.push_back(href);
            }
        }
        for action in attr_values(&html, "action") {
            let op = action
                .strip_prefix("/op/")
                .unwrap_or_else(|| panic!("{action} on {path}"));
            assert!(ui.knows(op), "form names unknown operation {op} on {path}");
            forms += 1;
        }
        assert!(
            !html.contains("onclick") && !html.contains("<script"),
            "no JS on {path}"
        );
    }
    (seen.len(), forms)
}

/// The HTML of the `<form>` whose action is `/op/<op>` on a page.
pub(crate) fn form_of<'a>(html: &'a str, op: &str) -> Option<&'a str> {
    let at = html.find(&format!(r#"action="/op/{op}""#))?;
    let end = html[at..].find("</form>")? + at;
    Some(&html[at..end])
}
