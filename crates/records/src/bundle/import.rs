//! `import`: task-generation files and public-layout bundle directories into the store.
//!
//! Items are written in batches (one transaction each) with a savepoint per item: a bad item is
//! rolled back alone and reported; a killed process loses at most the uncommitted batch, never
//! part of an item. Re-importing the same data changes nothing.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::json;
use walkdir::WalkDir;

use super::nofollow::{read_regular, refusal};
use super::public::{read_bundle, PublicBundle};
use super::{layout, taskgen, Problem};
use tuplewright_base::store::{
    now, DecisionSource, Store, StoreError, TaskRecord, TupleStatus, Tx, Upsert,
};

/// Items per transaction.
const BATCH: usize = 512;

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ImportSummary {
    /// Task-generation files read.
    pub task_files: usize,
    /// Bundle directories read.
    pub bundles: usize,
    /// New tasks.
    pub inserted: usize,
    /// Tasks whose content changed.
    pub updated: usize,
    /// Items identical to what was stored.
    pub unchanged: usize,
    /// New rounds recorded from bundles.
    pub rounds_recorded: usize,
    /// Rejected items, each naming file, index/path and field.
    pub problems: Vec<Problem>,
    /// Folders that were not imported and why (e.g. scripts without a config.json).
    pub skipped: Vec<Problem>,
}

/// How to import.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Where the data came from, `REPO@COMMIT` (e.g. `xlang-ai/CUA-Gym@1a2b3c4`): stored origins
    /// become `REPO@COMMIT:<path relative to the imported path>`. `None` = absolute local paths.
    pub origin: Option<String>,
}

impl ImportOptions {
    /// Checks `origin` is `REPO@COMMIT`, naming what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let Some(o) = &self.origin else {
            return Ok(());
        };
        let ok_part = |p: &str| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-' | '.'))
        };
        match o.split_once('@') {
            Some((repo, commit)) if ok_part(repo) && ok_part(commit) && !commit.contains('/') => {
                Ok(())
            }
            _ => Err(format!(
                "--origin {o:?}: expected REPO@COMMIT, e.g. xlang-ai/CUA-Gym@1a2b3c4"
            )),
        }
    }

    /// The stored origin of `item`, found under the import argument `root`.
    fn origin_of(&self, root: &Path, item: &Path) -> String {
        match &self.origin {
            None => std::path::absolute(item)
                .unwrap_or_else(|_| item.to_path_buf())
                .display()
                .to_string(),
            Some(o) => {
                let rel = item
                    .strip_prefix(root)
                    .ok()
                    .filter(|r| !r.as_os_str().is_empty());
                let rel = rel
                    .map(Path::to_path_buf)
                    .or_else(|| item.file_name().map(PathBuf::from))
                    .unwrap_or_default();
                format!("{o}:{}", rel.display())
            }
        }
    }
}

/// True when `dir` directly holds scripts or a review (a bundle's or a stage's folder).
fn holds_scripts(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.flatten().any(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.ends_with(".py") || n == layout::REVIEW_MD
        })
    })
}

/// The `output/final/<id>` folder matching an `output/adversarial/<id>` folder.
fn final_of(adversarial: &Path) -> Option<PathBuf> {
    let parent = adversarial.parent()?;
    (parent.file_name()? == "adversarial")
        .then(|| {
            parent.parent().map(|r| {
                r.join("final")
                    .join(adversarial.file_name().unwrap_or_default())
            })
        })
        .flatten()
}

/// One thing to import.
enum Item {
    Task(Box<TaskRecord>),
    Bundle(Box<PublicBundle>),
}

/// Failure of one item: bad input (reported, skipped) or the store (aborts the import).
enum ItemError {
    Bad(Problem),
    Store(StoreError),
}

impl From<StoreError> for ItemError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

/// Files and bundle directories found under the given paths, in a stable order. Folders holding
/// scripts but no config.json are reported in `summary.skipped` — except the
/// `output/adversarial/<id>/` half of a three-stage bundle whose `output/final/<id>/` is imported.
fn discover(paths: &[PathBuf], summary: &mut ImportSummary) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut files, mut bundles) = (Vec::new(), Vec::new());
    let mut script_dirs = Vec::new();
    for path in paths {
        let refuse = |why: String| Problem::item(path.display().to_string(), why);
        match path.symlink_metadata() {
            Ok(m) if m.is_file() => {
                files.push(path.clone());
                continue;
            }
            Ok(m) if m.is_dir() => {}
            Ok(m) => {
                let why = refusal(path, &m).unwrap_or_else(|| "not a regular file".into());
                summary.problems.push(refuse(why));
                continue;
            }
            Err(_) => {
                summary
                    .problems
                    .push(refuse("no such file or directory".into()));
                continue;
            }
        }
        // Hidden entries (e.g. an export's `.tw-tmp-*` directories) are never input.
        let hidden = |e: &walkdir::DirEntry| {
            e.depth() > 0 && e.file_name().to_string_lossy().starts_with('.')
        };
        let mut walk = WalkDir::new(path)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !hidden(e));
        while let Some(entry) = walk.next() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let loc = e
                        .path()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default();
                    summary.problems.push(Problem::item(loc, e.to_string()));
                    continue;
                }
            };
            let p = entry.path();
            // A link is never followed: say so rather than skip it silently.
            if entry.file_type().is_symlink() {
                let why = p
                    .symlink_metadata()
                    .ok()
                    .and_then(|m| refusal(p, &m))
                    .unwrap_or_else(|| "is a symbolic link; refused".into());
                summary
                    .problems
                    .push(Problem::item(p.display().to_string(), why));
                continue;
            }
            let has_config = p.join(layout::CONFIG_JSON).symlink_metadata().is_ok();
            if entry.file_type().is_dir() && has_config {
                bundles.push(p.to_path_buf());
                walk.skip_current_dir();
            } else if entry.file_type().is_dir() && holds_scripts(p) {
                // Its JSON (e.g. a task_config.json) is part of a bundle, never a task file.
                script_dirs.push(p.to_path_buf());
                walk.skip_current_dir();
            } else if entry.file_type().is_file()
                && p.extension().is_some_and(|e| e == "json")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                files.push(p.to_path_buf());
            }
        }
    }
    for dir in script_dirs {
        let fin = final_of(&dir);
        if fin.as_ref().is_some_and(|f| bundles.contains(f)) {
            continue;
        }
        let why = match fin {
            Some(f) if f.join(layout::CONFIG_JSON).is_file() => format!(
                "scripts without a config.json; its config.json is in {}: import that folder too",
                f.display()
            ),
            Some(f) => format!(
                "scripts without a config.json, and no {} (the task never reached the final stage)",
                f.join(layout::CONFIG_JSON).display()
            ),
            None => "holds scripts but no config.json: not a bundle".to_string(),
        };
        summary
            .skipped
            .push(Problem::item(dir.display().to_string(), why));
    }
    (files, bundles)
}

/// Imports every task file and bundle under `paths`. `progress` gets the number of items done.
pub fn import_paths(
    store: &mut Store,
    paths: &[PathBuf],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ImportSummary, StoreError> {
    import_paths_with(store, paths, &ImportOptions::default(), progress)
}

/// The import argument `item` was found under.
fn root_of<'a>(paths: &'a [PathBuf], item: &'a Path) -> &'a Path {
    paths
        .iter()
        .find(|r| item.starts_with(r))
        .map_or(item, PathBuf::as_path)
}

/// [`import_paths`] with options (the dataset's origin).
pub fn import_paths_with(
    store: &mut Store,
    paths: &[PathBuf],
    opts: &ImportOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ImportSummary, StoreError> {
    let mut summary = ImportSummary::default();
    let (files, bundles) = discover(paths, &mut summary);
    let mut items: Vec<Result<Item, Problem>> = Vec::new();
    for file in &files {
        summary.task_files += 1;
        let label = std::path::absolute(file)
            .unwrap_or_else(|_| file.clone())
            .display()
            .to_string();
        let origin = opts.origin_of(root_of(paths, file), file);
        match read_regular(file) {
            Err(e) => summary.problems.push(Problem::item(&label, e.to_string())),
            Ok(text) => match taskgen::parse_file(&text, &label) {
                Err(p) => summary.problems.push(p),
                Ok(tasks) => items.extend(tasks.into_iter().map(|t| {
                    t.map(|mut t| {
                        if let Some(rest) = t.origin.strip_prefix(&label) {
                            t.origin = format!("{origin}{rest}");
                        }
                        Item::Task(Box::new(t))
                    })
                })),
            },
        }
    }
    let total = items.len() + bundles.len();
    summary.bundles = bundles.len();
    // Bundles are read lazily, batch by batch, so 30k bundles are never all in memory.
    let bundle_items = bundles.iter().map(|dir| {
        read_bundle(dir).map(|mut b| {
            b.task.origin = opts.origin_of(root_of(paths, dir), dir);
            Item::Bundle(Box::new(b))
        })
    });
    let mut all = items.into_iter().chain(bundle_items);
    let mut done = 0;
    loop {
        let batch: Vec<Result<Item, Problem>> = all.by_ref().take(BATCH).collect();
        if batch.is_empty() {
            break;
        }
        let n = batch.len();
        store.write(|tx| {
            for item in batch {
                let outcome = match item {
                    Err(p) => Err(ItemError::Bad(p)),
                    Ok(item) => tx.savepoint(|tx| import_item(tx, item)),
                };
                match outcome {
                    Ok((upsert, rounds)) => {
                        match upsert {
                            Upsert::Inserted => summary.inserted += 1,
                            Upsert::Updated => summary.updated += 1,
                            Upsert::Unchanged => summary.unchanged += 1,
                        }
                        summary.rounds_recorded += rounds;
                    }
                    Err(ItemError::Bad(p)) => summary.problems.push(p),
                    Err(ItemError::Store(e)) => return Err(e),
                }
            }
            Ok(())
        })?;
        done += n;
        progress(done, total);
    }
    Ok(summary)
}

fn import_item(tx: &Tx<'_>, item: Item) -> Result<(Upsert, usize), ItemError> {
    match item {
        Item::Task(task) => {
            let up = tx.upsert_task(&task)?;
            if up != Upsert::Unchanged {
                let payload =
                    json!({"origin": task.origin, "outcome": format!("{up:?}").to_lowercase()});
                tx.append_event("task.imported", Some(&task.task_id), &payload)?;
            }
            Ok((up, 0))
        }
        Item::Bundle(b) => import_bundle(tx, *b),
    }
}

fn import_bundle(tx: &Tx<'_>, mut b: PublicBundle) -> Result<(Upsert, usize), ItemError> {
    let id = b.task.task_id.clone();
    let mut up = tx.upsert_task(&b.task)?;
    let rounds = tx.rounds(&id)?;
    let same = rounds.last().is_some_and(|last| {
        last.round.source == "import"
            && last.round.scripts == b.round.scripts
            && last.round.review_md == b.round.review_md
    });
    let mut recorded = 0;
    if !same {
        let next = rounds.last().and_then(|r| r.round.round_no).unwrap_or(0) + 1;
        b.round.round_no = Some(b.round.round_no.unwrap_or(1).max(next));
        if b.round.finished_at.is_empty() {
            b.round.started_at = now();
            b.round.finished_at = b.round.started_at.clone();
        }
        tx.record_round(&b.round)?;
        recorded = 1;
        if up == Upsert::Unchanged {
            up = Upsert::Updated;
        }
    }
    // The bundle's status applies to new content or a tuple nobody has decided on yet: re-importing
    // the same bundle never overrides a later decision (e.g. a human dropping the tuple).
    let current = tx.task(&id)?.map(|t| t.status).unwrap_or_default();
    let undecided = current == TupleStatus::Pending.as_str();
    if (recorded == 1 || undecided) && current != b.status.as_str() {
        let reason = format!("imported bundle {}", b.task.origin);
        let at = rounds
            .last()
            .filter(|_| same)
            .map(|r| r.round.finished_at.clone())
            .unwrap_or_else(|| b.round.finished_at.clone());
        tx.record_decision(
            &id,
            b.status,
            "import",
            DecisionSource::Policy,
            &reason,
            Some(&at),
        )?;
        if up == Upsert::Unchanged {
            up = Upsert::Updated;
        }
    }
    if up != Upsert::Unchanged {
        let payload = json!({"origin": b.task.origin, "status": b.status.as_str(), "round_recorded": recorded == 1});
        tx.append_event("bundle.imported", Some(&id), &payload)?;
    }
    Ok((up, recorded))
}

/// Convenience for tests and tools: the import of a single path.
pub fn import_path(store: &mut Store, path: &Path) -> Result<ImportSummary, StoreError> {
    import_paths(store, &[path.to_path_buf()], &mut |_, _| {})
}
