//! Reading an endpoint environment's state for the store (schema v5): each web app's current
//! state as its state API serves it (`GET /state`'s `stored_state`, read in-process from the same
//! session store the HTTP handler reads, so no request is made), and for the files domain a map of
//! the home directory's files (size, sha256, and the text of small UTF-8 files).

use serde_json::{json, Map, Value};
use sha2::Digest as _;

use crate::env::AppRegistry;
use tuplewright_base::store::{StateEndpoint, StateSnapshot};

use super::envs::TaskEnv;
use super::HarnessError;

/// Largest file whose text is kept in a files-domain state.
const MAX_TEXT: usize = 16 * 1024;
/// Most files kept in a files-domain state.
const MAX_FILES: usize = 400;

/// The state of every environment of `env` at `endpoint`: one snapshot per web app, plus one for
/// the files domain when `apps` names a files-kind app.
pub fn capture(
    registry: &AppRegistry,
    apps: &[String],
    env: &TaskEnv,
    endpoint: StateEndpoint,
) -> Result<Vec<StateSnapshot>, HarnessError> {
    let mut out = Vec::with_capacity(env.web.len() + 1);
    for w in &env.web {
        let json = w.current_json(&env.sid).map_err(|e| {
            HarnessError::Infra(format!("reading the {} state of {}: {e}", w.app, env.sid))
        })?;
        out.push(StateSnapshot {
            endpoint,
            env: w.app.clone(),
            json,
            volatile: w.volatile(),
        });
    }
    if has_files(registry, apps) {
        let home = match &env.remote {
            Some(remote) => remote.home_state()?,
            None => home_state(&env.home),
        };
        let dir = env.remote.is_none().then_some(env.home.as_path());
        let states = crate::desktop::snapshot::desktop_states(apps, home, dir)
            .map_err(|e| HarnessError::Infra(e.to_string()))?;
        for (name, json) in states {
            out.push(StateSnapshot {
                endpoint,
                env: name,
                json: json.to_string(),
                volatile: Vec::new(),
            });
        }
    }
    Ok(out)
}

/// True when one of `apps` is the files domain (a per-environment home directory).
pub fn has_files(registry: &AppRegistry, apps: &[String]) -> bool {
    apps.iter().any(|a| {
        registry
            .get(a)
            .is_ok_and(|app| app.manifest.kind.has_home())
            || crate::apps::find(a).is_some_and(crate::apps::Pack::is_desktop)
    })
}

/// The home directory as `{relative path: {size, sha256, text?}}`, sorted by path (so the flat
/// diff names each changed file by its path); a file that cannot be read is `{unreadable: why}`.
pub fn home_state(home: &std::path::Path) -> Value {
    let mut files = Map::new();
    for e in walkdir::WalkDir::new(home)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file() && !is_lock_file(e.file_name()))
        .take(MAX_FILES)
    {
        let rel = e.path().strip_prefix(home).unwrap_or(e.path());
        let bytes = match std::fs::read(e.path()) {
            Ok(b) => b,
            Err(err) => {
                // Recorded as such, never as an empty file.
                files.insert(
                    rel.display().to_string(),
                    json!({"unreadable": err.to_string()}),
                );
                continue;
            }
        };
        let mut f =
            json!({"size": bytes.len(), "sha256": hex::encode(sha2::Sha256::digest(&bytes))});
        if bytes.len() <= MAX_TEXT {
            if let Ok(text) = std::str::from_utf8(&bytes) {
                f["text"] = json!(text);
            }
        }
        files.insert(rel.display().to_string(), f);
    }
    Value::Object(files)
}

/// Whether `name` is an application's lock file beside an open document (LibreOffice's
/// `.~lock.<file>#`): the application's, never the task's state.
pub fn is_lock_file(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .is_some_and(|n| n.starts_with(".~lock.") && n.ends_with('#'))
}
