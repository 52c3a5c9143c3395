//! The similar-tuples worker: its own thread and store connection, so embedding a large store for
//! the first time never stalls the store worker. The embedder (the local model, ~1 s to load) is
//! chosen on the first request and kept; only the newest queued request is served. In observer
//! mode nothing is cached back into the store.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use tuplewright_base::store::Store;
use tuplewright_engine::taskgen::embed::EmbeddingsConfig;
use tuplewright_models::embedder::similar::{nearest, Similar};
use tuplewright_models::embedder::{select, Selected};

use super::data::DataUpdate;

/// Neighbours listed in the panel.
pub const TOP: usize = 20;

/// The answer to one request.
#[derive(Debug, Clone)]
pub struct SimilarUpdate {
    /// The tuple asked about.
    pub task_id: String,
    /// Its neighbours, or why they could not be listed.
    pub result: Result<Similar, String>,
}

/// Where the worker finds the store and the model.
#[derive(Debug, Clone)]
pub struct SimilarSettings {
    /// The store file.
    pub store: PathBuf,
    /// Observer mode: open read-only, cache nothing.
    pub readonly: bool,
    /// `[taskgen.embeddings]`.
    pub embeddings: EmbeddingsConfig,
    /// The script virtualenv searched for the model.
    pub venv: PathBuf,
}

/// Starts the worker; requests (task ids) go in on the returned sender, answers come out on `out`
/// as [`DataUpdate::Similar`]. The thread ends when the sender is dropped.
pub fn spawn(
    settings: SimilarSettings,
    out: Sender<DataUpdate>,
) -> std::io::Result<(Sender<String>, JoinHandle<()>)> {
    let (tx, rx) = mpsc::channel();
    let h = std::thread::Builder::new()
        .name("tw-similar".into())
        .spawn(move || serve(&settings, &rx, &out))?;
    Ok((tx, h))
}

fn open(path: &Path, readonly: bool) -> Result<Store, String> {
    let t = Duration::from_secs(5);
    let s = if readonly {
        Store::open_readonly(path, t)
    } else {
        Store::open(path, t)
    };
    s.map_err(|e| e.to_string())
}

/// One request with an already chosen embedder (also used by tests).
pub fn answer(store: &mut Store, sel: &Selected, task_id: &str, persist: bool) -> SimilarUpdate {
    SimilarUpdate {
        task_id: task_id.to_string(),
        result: nearest(store, sel, task_id, TOP, persist).map_err(|e| e.to_string()),
    }
}

fn serve(s: &SimilarSettings, rx: &Receiver<String>, out: &Sender<DataUpdate>) {
    let mut chosen: Option<Result<Selected, String>> = None;
    let mut store: Option<Store> = None;
    while let Ok(first) = rx.recv() {
        let id = rx.try_iter().last().unwrap_or(first);
        let sel = chosen.get_or_insert_with(|| {
            select(&s.embeddings, s.embeddings.backend, &s.venv).map_err(|e| e.to_string())
        });
        if store.is_none() {
            match open(&s.store, s.readonly) {
                Ok(st) => store = Some(st),
                Err(e) => {
                    let u = SimilarUpdate {
                        task_id: id,
                        result: Err(e),
                    };
                    if out.send(DataUpdate::Similar(Box::new(u))).is_err() {
                        return;
                    }
                    continue;
                }
            }
        }
        let update = match (sel, store.as_mut()) {
            (Ok(sel), Some(st)) => answer(st, sel, &id, !s.readonly),
            (Err(e), _) => SimilarUpdate {
                task_id: id,
                result: Err(e.clone()),
            },
            (Ok(_), None) => continue,
        };
        if out.send(DataUpdate::Similar(Box::new(update))).is_err() {
            return;
        }
    }
}
