//! `store copy FROM TO`: every row of every table from one store into an empty one, of either
//! backend, in one transaction on the target, ids kept; then both sides are compared table by
//! table by row count and a content hash (sha256 over the rows in key order, each value tagged
//! with its type), and the copy is reported only if every table matches. Screenshot files (kept
//! beside the store, not in it) are copied too. Task leases are not copied: they belong to the
//! processes working on the source.

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::db::{Backend, Conn, ToValue, Val};
use super::{Result, Store, StoreError};

/// Each table with its columns, parents before children, and its key order.
const TABLES: &[(&str, &str, &str)] = &[
    (
        "tasks",
        "task_id, instruction, context, platform, domain, apps, difficulty, scenario, \
      task_type, origin, created_at, updated_at, source_pass, app_type",
        "task_id",
    ),
    ("task_sources", "task_id, original_json", "task_id"),
    ("tuples", "task_id, status, updated_at", "task_id"),
    ("blobs", "sha256, size, content", "sha256"),
    (
        "rounds",
        "id, task_id, round_no, verdict, setup_sha, golden_sha, reward_sha, review_md, \
      scan_findings, generator_model, discriminator_model, started_at, finished_at, source",
        "id",
    ),
    (
        "script_runs",
        "id, round_id, script, exit_code, stdout, stderr, duration_ms, failure",
        "id",
    ),
    (
        "reward_runs",
        "id, round_id, endpoint, reward, components, exit_code, stdout, stderr, \
      duration_ms, failure",
        "id",
    ),
    (
        "votes",
        "id, task_id, critic, model, verdict, severity, confidence, pool_fit, vote_json, \
      created_at",
        "id",
    ),
    (
        "decisions",
        "id, task_id, actor, source, before, after, reason, created_at, compensates, group_id",
        "id",
    ),
    (
        "rollouts",
        "id, task_id, model, trial, reward, judge_verdict, failure, detail_json, \
      created_at",
        "id",
    ),
    (
        "usage",
        "id, task_id, round_id, stage, model, input_tokens, output_tokens, created_at, \
      cost_usd",
        "id",
    ),
    ("events", "seq, time, kind, task_id, payload", "seq"),
    (
        "state_snapshots",
        "id, round_id, rollout_id, endpoint, env, state_sha, volatile",
        "id",
    ),
    (
        "embeddings",
        "model, text_sha256, dim, vector, created_at",
        "model, text_sha256",
    ),
    ("screenshots", "sha256, bytes, width, height", "sha256"),
    (
        "trial_steps",
        "rollout_id, seq, action_json, at_ms, duration_ms, error, screenshot_sha, settle_ms",
        "rollout_id, seq",
    ),
    ("notes", "id, task_id, author, text, tags, created_at", "id"),
];

/// One table's figures on both sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableCheck {
    /// The table.
    pub table: String,
    /// Rows in the source.
    pub rows: i64,
    /// sha256 of the source's rows (hex).
    pub sha256: String,
    /// Whether the target has the same count and hash.
    pub matches: bool,
}

/// What a copy did.
#[derive(Debug, Clone, Serialize)]
pub struct CopyReport {
    /// Per table.
    pub tables: Vec<TableCheck>,
    /// Screenshot files copied.
    pub screenshot_files: usize,
}

/// Row count and content hash of `table`.
pub fn table_digest(conn: &Conn, table: &str, columns: &str, key: &str) -> Result<(i64, String)> {
    let mut h = Sha256::new();
    let mut rows = 0i64;
    let n = columns.split(',').count();
    conn.for_each(
        &format!("SELECT {columns} FROM {table} ORDER BY {key}"),
        [],
        |r| {
            rows += 1;
            for i in 0..n {
                match r.val(i)? {
                    Val::Null => h.update([0]),
                    Val::Int(v) => {
                        h.update([1]);
                        h.update(v.to_le_bytes());
                    }
                    Val::Real(v) => {
                        h.update([2]);
                        h.update(v.to_bits().to_le_bytes());
                    }
                    Val::Text(t) => {
                        h.update([3]);
                        h.update((t.len() as u64).to_le_bytes());
                        h.update(t.as_bytes());
                    }
                    Val::Blob(b) => {
                        h.update([4]);
                        h.update((b.len() as u64).to_le_bytes());
                        h.update(b);
                    }
                }
            }
            Ok(())
        },
    )?;
    Ok((rows, hex::encode(h.finalize())))
}

/// Every table's `(rows, sha256)`, in [`TABLES`] order.
pub fn digests(store: &Store) -> Result<Vec<(String, i64, String)>> {
    TABLES
        .iter()
        .map(|(t, cols, key)| {
            let (n, sha) = table_digest(store.conn(), t, cols, key)?;
            Ok((t.to_string(), n, sha))
        })
        .collect()
}

/// Copies `from` into the empty store `to` and verifies it (see the module doc). Fails, with
/// nothing written, when `to` already holds tasks; fails after writing when a table differs.
pub fn copy_store(from: &Store, to: &mut Store) -> Result<CopyReport> {
    let existing: i64 = to
        .conn()
        .query_row("SELECT COUNT(*) FROM tasks", [], |r| r.get(0))?;
    if existing > 0 {
        return Err(StoreError::Invalid(format!(
            "the target store already holds {existing} task(s); copy into an empty store"
        )));
    }
    let target_pg = to.backend() == Backend::Postgres;
    to.write(|tx| {
        for (table, cols, key) in TABLES {
            let n = cols.split(',').count();
            let marks: Vec<String> = (1..=n).map(|i| format!("?{i}")).collect();
            let insert = format!("INSERT INTO {table} ({cols}) VALUES ({})", marks.join(", "));
            from.conn().for_each(
                &format!("SELECT {cols} FROM {table} ORDER BY {key}"),
                [],
                |r| {
                    let vals = (0..n).map(|i| r.val(i)).collect::<Result<Vec<_>>>()?;
                    let refs: Vec<&dyn ToValue> = vals.iter().map(|v| v as &dyn ToValue).collect();
                    tx.conn().execute(&insert, refs.as_slice())?;
                    Ok(())
                },
            )?;
            let id_col = match *key {
                "id" | "seq" => Some(*key),
                _ => None,
            };
            if let (true, Some(col)) = (target_pg, id_col) {
                // Explicit ids do not advance an identity column: move it past the copied ones.
                tx.conn().query_row(
                    &format!(
                        "SELECT setval(pg_get_serial_sequence('{table}', '{col}'), \
                         COALESCE((SELECT MAX({col}) FROM {table}), 0) + 1, false)"
                    ),
                    [],
                    |_| Ok(()),
                )?;
            }
        }
        Ok::<_, StoreError>(())
    })?;
    let screenshot_files = copy_screens(from, to)?;
    let (a, b) = (digests(from)?, digests(to)?);
    let tables: Vec<TableCheck> = a
        .iter()
        .zip(&b)
        .map(|((t, n, sha), (_, n2, sha2))| TableCheck {
            table: t.clone(),
            rows: *n,
            sha256: sha.clone(),
            matches: n == n2 && sha == sha2,
        })
        .collect();
    if let Some(bad) = tables.iter().find(|t| !t.matches) {
        return Err(StoreError::Invalid(format!(
            "copy verification failed: table {} differs after the copy",
            bad.table
        )));
    }
    Ok(CopyReport {
        tables,
        screenshot_files,
    })
}

/// Copies the source's screenshot files that the target lacks.
fn copy_screens(from: &Store, to: &Store) -> Result<usize> {
    let (src, dst) = (from.screens.root(), to.screens.root());
    if !src.is_dir() {
        return Ok(0);
    }
    let io = |what: &str, e: &dyn std::fmt::Display| {
        StoreError::Invalid(format!("copying screenshots ({what}): {e}"))
    };
    let mut n = 0;
    for entry in walkdir::WalkDir::new(src) {
        let entry = entry.map_err(|e| io("listing", &e))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(src).map_err(|e| io("path", &e))?;
        let target = dst.join(rel);
        if target.exists() {
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io("mkdir", &e))?;
        }
        // Written beside, then renamed: a reader never sees a half-written PNG.
        let tmp = target.with_extension("part");
        std::fs::copy(entry.path(), &tmp).map_err(|e| io("copy", &e))?;
        std::fs::rename(&tmp, &target).map_err(|e| io("rename", &e))?;
        n += 1;
    }
    Ok(n)
}
