//! Versioned schema migrations, applied at open.
//!
//! The schema version lives in SQLite's `PRAGMA user_version`. Migration `i` (1-based) moves a store
//! from version `i - 1` to `i`; each runs in its own immediate transaction together with the version
//! bump, so a killed upgrade leaves the store at the previous version. A store whose version is
//! newer than [`SCHEMA_VERSION`] is refused.

use rusqlite::{Connection, TransactionBehavior};

use super::StoreError;

/// The SQL of each migration, in order. Never edit a shipped entry; append a new one.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/v1.sql"),
    include_str!("migrations/v2.sql"),
    include_str!("migrations/v3.sql"),
    include_str!("migrations/v4.sql"),
    include_str!("migrations/v5.sql"),
    include_str!("migrations/v6.sql"),
    include_str!("migrations/v7.sql"),
    include_str!("migrations/v8.sql"),
    include_str!("migrations/v9.sql"),
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Reads the store's schema version.
pub fn version(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

/// Brings the store up to [`SCHEMA_VERSION`]; returns the version it had before.
pub fn migrate(conn: &mut Connection) -> Result<i64, StoreError> {
    let found = version(conn)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    if found == SCHEMA_VERSION {
        return Ok(found);
    }
    for (i, sql) in MIGRATIONS.iter().enumerate() {
        let target = i as i64 + 1;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Re-read inside the write lock: another process may have migrated meanwhile.
        let current: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if current >= target {
            continue;
        }
        tx.execute_batch(sql)
            .map_err(|cause| StoreError::Migration { target, cause })?;
        tx.execute_batch(&format!("PRAGMA user_version = {target}"))?;
        tx.commit()?;
    }
    Ok(found)
}
