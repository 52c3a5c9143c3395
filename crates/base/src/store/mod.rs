//! The task store: one SQLite file (bundled SQLite, WAL mode, foreign keys on) or one PostgreSQL
//! database (a `postgres://` URL as the store path) holding every task, tuple, round, vote,
//! decision, rollout and event with full provenance. Both backends share the SQL ([`db`]) and the
//! schema semantics (`migrations/` and its PostgreSQL mirror `migrations/pg/`).
//!
//! Reading is done through [`Store`]; every change goes through [`Store::write`], which runs a
//! closure inside one immediate (write-locked) transaction: either everything the closure wrote is
//! committed, or nothing is — a process killed at any instant leaves no partial task or round.
//! Rounds, decisions, votes and rollouts append their own event (`round.recorded`, `decision`,
//! `vote.recorded`, `rollout.recorded`) through the same [`Tx`]; callers add events for anything
//! else with [`Tx::append_event`]. So a face following the event log never sees an event for a
//! change that was not committed, nor misses one that was.
//!
//! One writer and several reader processes can use a SQLite store at once (WAL + busy timeout); on
//! PostgreSQL any number of processes on any hosts can, writers taking a store-wide advisory lock
//! per write transaction (the same order as SQLite's write lock).

mod blobs;
mod bulk;
pub mod bus;
pub mod copy;
pub mod db;
mod decisions;
mod embeddings;
mod events;
pub mod medium;
mod notes;
mod records;
mod rounds;
mod runs;
mod schema;
mod screens;
mod states;
mod steps;
mod tasks;
pub mod testdb;
mod words;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use db::Conn;

pub use blobs::sha256_hex;
pub use bulk::{decision_json, StagedDecision, StagedEvent};
pub use bus::Bus;
pub use events::Event;
pub use notes::Note;
pub use records::*;
pub use rounds::final_round;
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
    /// PostgreSQL reported an error.
    #[error("store database error (PostgreSQL): {0}")]
    Postgres(#[from] postgres::Error),
    /// PostgreSQL refused to prepare a statement.
    #[error("store database error (PostgreSQL) in `{sql}`: {cause}")]
    Statement {
        /// The statement (SQLite dialect, cut to 200 characters).
        sql: String,
        /// The server's error.
        cause: postgres::Error,
    },
    /// A query expected to return a row returned none.
    #[error("store query returned no row")]
    NoRow,
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
        /// The database's error.
        cause: String,
    },
    /// The file could not be opened (or the PostgreSQL server reached).
    #[error("cannot open store {}: {cause}", db::redact(path))]
    Open {
        /// The store path (or URL).
        path: PathBuf,
        /// The database's error.
        cause: String,
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
    conn: Conn,
    path: PathBuf,
    upgraded_from: i64,
    screens: ScreenshotDir,
}

/// A write transaction handed to the closure of [`Store::write`].
pub struct Tx<'a> {
    tx: &'a Conn,
    screens: &'a ScreenshotDir,
}

impl Store {
    /// Opens (creating if needed) the store at `path`, applying pending migrations.
    /// `busy_timeout` is how long to wait for another process's write lock.
    /// A `postgres://` (or `postgresql://`) URL as `path` opens that PostgreSQL database instead.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<Self> {
        if db::is_url(path) {
            return Self::open_pg(path, false);
        }
        let open_err = |cause: rusqlite::Error| StoreError::Open {
            path: path.to_path_buf(),
            cause: cause.to_string(),
        };
        if let Some(why) = medium::unwritable(path) {
            return Err(StoreError::Open {
                path: path.to_path_buf(),
                cause: why,
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
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
        stable_plans(&conn).map_err(open_err)?;
        let mut conn = Conn::Sqlite(conn);
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
    /// refused with the reason (a newer one as [`StoreError::TooNew`]). A store on a read-only
    /// medium is read as immutable ([`medium::readonly_target`]).
    pub fn open_readonly(path: &Path, busy_timeout: Duration) -> Result<Self> {
        if db::is_url(path) {
            return Self::open_pg(path, true);
        }
        let open_err = |cause: rusqlite::Error| StoreError::Open {
            path: path.to_path_buf(),
            cause: cause.to_string(),
        };
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        if !path.exists() {
            return Err(StoreError::Open {
                path: path.to_path_buf(),
                cause: "no such file (a read-only open never creates a store)".into(),
            });
        }
        let target = medium::readonly_target(path).map_err(|cause| StoreError::Open {
            path: path.to_path_buf(),
            cause,
        })?;
        let conn = match &target {
            Some(uri) => Connection::open_with_flags(uri, flags),
            None => Connection::open_with_flags(path, flags),
        }
        .map_err(open_err)?;
        conn.busy_timeout(busy_timeout).map_err(open_err)?;
        conn.execute_batch("PRAGMA mmap_size = 268435456;")
            .map_err(open_err)?;
        stable_plans(&conn).map_err(open_err)?;
        let conn = Conn::Sqlite(conn);
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

    /// Opens the PostgreSQL store at `url` (migrating it unless `readonly`, which refuses a store
    /// at another schema version, as for SQLite). Screenshots go to `$TUPLEWRIGHT_SCREENS`, else
    /// `tuplewright.screens/` in the working directory (a shared file system for several hosts).
    fn open_pg(url: &Path, readonly: bool) -> Result<Self> {
        let open_err = |cause: String| StoreError::Open {
            path: url.to_path_buf(),
            cause,
        };
        let text = url.to_str().ok_or_else(|| open_err("not UTF-8".into()))?;
        let pg = db::PgConn::connect(text).map_err(|e| open_err(pg_cause(&e)))?;
        let mut conn = Conn::Pg(Box::new(pg));
        if readonly {
            conn.execute_batch("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")?;
        }
        let upgraded_from = if readonly {
            let found = schema::version(&conn)?;
            if found != SCHEMA_VERSION {
                return Err(StoreError::Invalid(format!(
                    "{} has schema version {found}, this tuplewright's is {SCHEMA_VERSION}; \
                     open it once without --readonly to create or upgrade it",
                    db::redact(url)
                )));
            }
            found
        } else {
            schema::migrate(&mut conn)?
        };
        let screens = std::env::var_os("TUPLEWRIGHT_SCREENS")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("tuplewright.screens"));
        Ok(Self {
            conn,
            path: url.to_path_buf(),
            upgraded_from,
            screens: ScreenshotDir::at(screens),
        })
    }

    /// Which backend this store is on.
    pub fn backend(&self) -> db::Backend {
        self.conn.backend()
    }

    /// The file this store lives in (or its PostgreSQL URL; show it with [`db::redact`]).
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
        self.write_with(true, f)
    }

    /// [`Self::write`] without PostgreSQL's store-wide write lock when `serialize` is false: for
    /// the lease backend, whose transactions lock only the rows they touch (and take the write
    /// lock themselves before appending an event).
    pub fn write_with<T, E>(
        &mut self,
        serialize: bool,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let guard = self.conn.begin(serialize)?;
        let tx = Tx {
            tx: &self.conn,
            screens: &self.screens,
        };
        let out = f(&tx)?;
        guard.commit()?;
        Ok(out)
    }

    /// `PRAGMA integrity_check` and `foreign_key_check`; returns the problems found (empty = ok).
    /// On PostgreSQL, whose constraints are always enforced, it checks that the schema is current.
    pub fn check_integrity(&self) -> Result<Vec<String>> {
        let mut problems = Vec::new();
        let Some(conn) = self.conn.sqlite() else {
            let v = schema::version(&self.conn)?;
            if v != SCHEMA_VERSION {
                problems.push(format!("schema version {v}, expected {SCHEMA_VERSION}"));
            }
            return Ok(problems);
        };
        let mut stmt = conn.prepare("PRAGMA integrity_check")?;
        for row in stmt.query_map([], |r| r.get::<_, String>(0))? {
            let row = row?;
            if row != "ok" {
                problems.push(row);
            }
        }
        let mut stmt = conn.prepare("PRAGMA foreign_key_check")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let table: String = r.get(0)?;
            problems.push(format!("foreign key violation in {table}"));
        }
        Ok(problems)
    }

    /// The underlying connection, for read-only queries by engine modules (stats, export).
    pub fn conn(&self) -> &Conn {
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
        self.tx.execute_batch("SAVEPOINT tw_item")?;
        match f(self) {
            Ok(v) => {
                self.tx.execute_batch("RELEASE tw_item")?;
                Ok(v)
            }
            Err(e) => {
                self.tx
                    .execute_batch("ROLLBACK TO tw_item; RELEASE tw_item")?;
                Err(e)
            }
        }
    }

    /// The underlying transaction, for engine modules that need a custom statement.
    pub fn conn(&self) -> &Conn {
        self.tx
    }
}

/// A PostgreSQL connection error with the server's own message (the driver's `Display` of a
/// server error is only "db error").
fn pg_cause(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{e}: {}", db.message()),
        None => match std::error::Error::source(e) {
            Some(s) => format!("{e}: {s}"),
            None => e.to_string(),
        },
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

/// Turns on SQLite's query planner stability guarantee (QPSG): a cached statement keeps its plan
/// whatever is bound to it. Without it, the bundled SQLite (built with STAT4) marks statements
/// whose `WHERE` compares an indexed column with `?N` to be re-parsed and re-planned on every new
/// binding, and a per-tuple lookup (a decision's status, its latest decision, its filter outcome)
/// was re-prepared once per tuple: a tenth of a 10,000-tuple bulk decision's time (issue #33,
/// measured with `perf record`). The store keeps no `sqlite_stat4` samples, so no plan is lost.
fn stable_plans(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )
    .map(|_| ())
}
