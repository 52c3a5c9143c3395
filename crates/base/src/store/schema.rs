//! Versioned schema migrations, applied at open, one list per backend.
//!
//! SQLite keeps the schema version in `PRAGMA user_version`; PostgreSQL in the one-row table
//! `tw_schema`. Migration `i` (1-based) moves a store from version `i - 1` to `i`; each runs in its
//! own write transaction together with the version bump, so a killed upgrade leaves the store at
//! the previous version (PostgreSQL's DDL is transactional too). A store whose version is newer
//! than [`SCHEMA_VERSION`] is refused. `migrations/pg/vN.sql` mirrors `migrations/vN.sql`.

use rusqlite::{Connection, TransactionBehavior};

use super::db::{params, Conn};
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
    include_str!("migrations/v10.sql"),
    include_str!("migrations/v11.sql"),
    include_str!("migrations/v12.sql"),
    include_str!("migrations/v13.sql"),
];

/// The PostgreSQL mirror of each entry of [`MIGRATIONS`] (same index, same schema semantics).
const PG_MIGRATIONS: &[&str] = &[
    include_str!("migrations/pg/v1.sql"),
    include_str!("migrations/pg/v2.sql"),
    include_str!("migrations/pg/v3.sql"),
    include_str!("migrations/pg/v4.sql"),
    include_str!("migrations/pg/v5.sql"),
    include_str!("migrations/pg/v6.sql"),
    include_str!("migrations/pg/v7.sql"),
    include_str!("migrations/pg/v8.sql"),
    include_str!("migrations/pg/v9.sql"),
    include_str!("migrations/pg/v10.sql"),
    include_str!("migrations/pg/v11.sql"),
    include_str!("migrations/pg/v12.sql"),
    include_str!("migrations/pg/v13.sql"),
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Reads the store's schema version.
pub fn version(conn: &Conn) -> Result<i64, StoreError> {
    match conn {
        Conn::Sqlite(c) => Ok(c.query_row("PRAGMA user_version", [], |r| r.get(0))?),
        Conn::Pg(_) => {
            let exists: bool =
                conn.query_row("SELECT to_regclass('tw_schema') IS NOT NULL", [], |r| {
                    r.get(0)
                })?;
            if !exists {
                return Ok(0);
            }
            conn.query_row("SELECT COALESCE(MAX(version), 0) FROM tw_schema", [], |r| {
                r.get(0)
            })
        }
    }
}

/// Brings the store up to [`SCHEMA_VERSION`]; returns the version it had before.
pub fn migrate(conn: &mut Conn) -> Result<i64, StoreError> {
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
    match conn {
        Conn::Sqlite(c) => migrate_sqlite(c)?,
        Conn::Pg(_) => migrate_pg(conn)?,
    }
    Ok(found)
}

fn migrate_sqlite(conn: &mut Connection) -> Result<(), StoreError> {
    for (i, sql) in MIGRATIONS.iter().enumerate() {
        let target = i as i64 + 1;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Re-read inside the write lock: another process may have migrated meanwhile.
        let current: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if current >= target {
            continue;
        }
        tx.execute_batch(sql)
            .map_err(|cause| StoreError::Migration {
                target,
                cause: cause.to_string(),
            })?;
        tx.execute_batch(&format!("PRAGMA user_version = {target}"))?;
        tx.commit()?;
    }
    Ok(())
}

fn migrate_pg(conn: &Conn) -> Result<(), StoreError> {
    if PG_MIGRATIONS.len() != MIGRATIONS.len() {
        return Err(StoreError::Invalid(format!(
            "this tuplewright has {} SQLite migrations but {} PostgreSQL ones; \
             add crates/base/src/store/migrations/pg/v{}.sql",
            MIGRATIONS.len(),
            PG_MIGRATIONS.len(),
            PG_MIGRATIONS.len() + 1
        )));
    }
    for (i, sql) in PG_MIGRATIONS.iter().enumerate() {
        let target = i as i64 + 1;
        // The write lock serialises workers that open a new store at the same moment.
        let tx = conn.begin(true)?;
        conn.execute_batch("CREATE TABLE IF NOT EXISTS tw_schema (version BIGINT NOT NULL)")?;
        if version(conn)? >= target {
            continue;
        }
        conn.execute_batch(sql)
            .map_err(|cause| StoreError::Migration {
                target,
                cause: cause.to_string(),
            })?;
        conn.execute("DELETE FROM tw_schema", [])?;
        conn.execute(
            "INSERT INTO tw_schema (version) VALUES (?1)",
            params![target],
        )?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sqlite_migration_has_its_postgresql_mirror() {
        assert_eq!(
            PG_MIGRATIONS.len(),
            MIGRATIONS.len(),
            "add migrations/pg/v{}.sql mirroring migrations/v{}.sql",
            PG_MIGRATIONS.len() + 1,
            PG_MIGRATIONS.len() + 1
        );
    }
}
