//! The task store: one SQLite file (bundled SQLite, WAL mode, foreign keys on) holding every task,
//! tuple, round, vote, decision, rollout and event with full provenance.
//!
//! Reading is done through [`Store`]; every change goes through [`Store::write`], which runs a
//! closure inside one immediate (write-locked) transaction: either everything the closure wrote is
//! committed, or nothing is — a process killed at any instant leaves no partial task or round.
//! Rounds, decisions, votes and rollouts append their own event (`round.recorded`, `decision`,
//! `vote.recorded`, `rollout.recorded`) through the same [`Tx`]; callers add events for anything
//! else with [`Tx::append_event`]. So a face following the event log never sees an event for a
//! change that was not committed, nor misses one that was.
//!
//! One writer and several reader processes can use the store at once (WAL + busy timeout).

mod blobs;
mod decisions;
mod embeddings;
mod events;
mod records;
mod rounds;
mod runs;
mod schema;
mod screens;
mod states;
mod steps;
mod tasks;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

pub use blobs::sha256_hex;
pub use events::Event;
pub use records::*;
pub use schema::SCHEMA_VERSION;
pub use screens::ScreenshotDir;
pub use states::{RolloutStates, StateEndpoint, StateSnapshot, StoredState};
pub use steps::{screenshot_dir_of, sha256_of_bytes, NewStep, Removed, ScreenshotRef, StoredStep};
pub use tasks::TaskFilter;

/// Errors from the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite reported an error.
    #[error("store database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A JSON column could not be (de)serialised.
    #[error("store JSON error: {0}")]
    Json(#[from] serde_json::Error),
    /// The store was written by a newer tuplewright.
    #[error(
        "the store has schema version {found}, newer than this tuplewright supports ({supported}); \
         upgrade tuplewright or use another --store"
    )]
    TooNew {
        /// Version found in the file.
        found: i64,
        /// Newest version this binary knows.
        supported: i64,
    },
    /// A migration failed (the store stays at the previous version).
    #[error("migrating the store to schema version {target} failed: {cause}")]
    Migration {
        /// Version the failed migration was producing.
        target: i64,
        /// The SQLite error.
        cause: rusqlite::Error,
    },
    /// The file could not be opened.
    #[error("cannot open store {path}: {cause}")]
    Open {
        /// The store path.
        path: PathBuf,
        /// The SQLite error.
        cause: rusqlite::Error,
    },
    /// A referenced task does not exist.
    #[error("no task `{0}` in the store")]
    UnknownTask(String),
    /// A stored value is not one this binary understands.
    #[error("invalid stored value: {0}")]
    Invalid(String),
    /// A write on a leased task by a process that no longer holds its lease (it expired and was
    /// taken over): nothing of that write is kept.
    #[error("the lease on task `{task_id}` is no longer ours ({holder}); nothing was written")]
    LeaseLost {
        /// The task.
        task_id: String,
        /// Who holds it now (`nobody` when released).
        holder: String,
    },
}

/// Result alias for store operations.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// An open task store.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    upgraded_from: i64,
    screens: ScreenshotDir,
}

/// A write transaction handed to the closure of [`Store::write`].
pub struct Tx<'a> {
    tx: rusqlite::Transaction<'a>,
    screens: &'a ScreenshotDir,
}

impl Store {
    /// Opens (creating if needed) the store at `path`, applying pending migrations.
    /// `busy_timeout` is how long to wait for another process's write lock.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<Self> {
        let open_err = |cause| StoreError::Open {
            path: path.to_path_buf(),
            cause,
        };
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let mut conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
        conn.busy_timeout(busy_timeout).map_err(open_err)?;
        // journal_mode returns a row; synchronous=NORMAL is durable-enough and crash-safe in WAL.
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(open_err)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Invalid(format!(
                "{} could not be switched to WAL mode (got {mode})",
                path.display()
            )));
        }
        // Memory-mapped reads (256 MiB window) spare a copy per page on full scans such as stats.
        conn.execute_batch(
            "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA mmap_size = 268435456;",
        )
        .map_err(open_err)?;
        // Every write statement is cached: bulk imports re-use their prepared statements.
        conn.set_prepared_statement_cache_capacity(64);
        let upgraded_from = schema::migrate(&mut conn)?;
        Ok(Self {
            conn,
            path: path.to_path_buf(),
            upgraded_from,
            screens: ScreenshotDir::beside(path),
        })
    }

    /// Opens an existing store read-only at the SQLite level (observers: `tuplewright --readonly`).
    /// Nothing is created or migrated; a store at another schema version than this binary's is
    /// refused with the reason (a newer one as [`StoreError::TooNew`]).
    pub fn open_readonly(path: &Path, busy_timeout: Duration) -> Result<Self> {
        let open_err = |cause| StoreError::Open {
            path: path.to_path_buf(),
            cause,
        };
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
        conn.busy_timeout(busy_timeout).map_err(open_err)?;
        conn.execute_batch("PRAGMA mmap_size = 268435456;")
            .map_err(open_err)?;
        let found = schema::version(&conn)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::TooNew {
                found,
                supported: SCHEMA_VERSION,
            });
        }
        if found < SCHEMA_VERSION {
            return Err(StoreError::Invalid(format!(
                "{} has schema version {found}, older than this tuplewright's {SCHEMA_VERSION}; \
                 open it once without --readonly to upgrade it",
                path.display()
            )));
        }
        Ok(Self {
            conn,
            path: path.to_path_buf(),
            upgraded_from: found,
            screens: ScreenshotDir::beside(path),
        })
    }

    /// The file this store lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Schema version found when the store was opened (before any upgrade); 0 = newly created.
    pub fn upgraded_from(&self) -> i64 {
        self.upgraded_from
    }

    /// Current schema version of the file.
    pub fn schema_version(&self) -> Result<i64> {
        schema::version(&self.conn)
    }

    /// Runs `f` in one immediate transaction; commits if it returns `Ok`, rolls back otherwise.
    pub fn write<T, E>(&mut self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let tx = Tx {
            tx,
            screens: &self.screens,
        };
        let out = f(&tx)?;
        tx.tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }

    /// `PRAGMA integrity_check` and `foreign_key_check`; returns the problems found (empty = ok).
    pub fn check_integrity(&self) -> Result<Vec<String>> {
        let mut problems = Vec::new();
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        for row in stmt.query_map([], |r| r.get::<_, String>(0))? {
            let row = row?;
            if row != "ok" {
                problems.push(row);
            }
        }
        let mut stmt = self.conn.prepare("PRAGMA foreign_key_check")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let table: String = r.get(0)?;
            problems.push(format!("foreign key violation in {table}"));
        }
        Ok(problems)
    }

    /// The underlying connection, for read-only queries by engine modules (stats, export).
    pub fn conn(&self) -> &Connection {
        &self.conn
    }
}

impl Tx<'_> {
    /// Runs `f` inside a savepoint of this transaction: on `Err` only what `f` wrote is undone, and
    /// the transaction goes on (one bad item in a batch does not cost the others).
    pub fn savepoint<T, E>(&self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        self.tx
            .execute_batch("SAVEPOINT tw_item")
            .map_err(StoreError::from)?;
        match f(self) {
            Ok(v) => {
                self.tx
                    .execute_batch("RELEASE tw_item")
                    .map_err(StoreError::from)?;
                Ok(v)
            }
            Err(e) => {
                self.tx
                    .execute_batch("ROLLBACK TO tw_item; RELEASE tw_item")
                    .map_err(StoreError::from)?;
                Err(e)
            }
        }
    }

    /// The underlying transaction, for engine modules that need a custom statement.
    pub fn conn(&self) -> &Connection {
        &self.tx
    }
}

/// The current UTC time as stored (RFC 3339, milliseconds, `Z`).
pub fn now() -> String {
    stamp(chrono::Utc::now())
}

/// A UTC time in the stored form (RFC 3339, milliseconds, `Z`): such strings compare as times.
pub fn stamp(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
