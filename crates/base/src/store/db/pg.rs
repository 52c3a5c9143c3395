//! The PostgreSQL side of [`super::Conn`]: one `postgres::Client` (sync, no TLS: the store is
//! reached on a trusted network or a Unix socket) with a per-connection statement cache.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

use postgres::{Client, NoTls, Statement};
use postgres_types::ToSql;

use super::{to_pg_placeholders, Val};
use crate::store::StoreError;

/// The store-wide write lock: a transaction-level advisory lock on one fixed key (released at
/// commit or rollback), taken by every store write transaction and by lease operations that
/// append events.
pub(super) const WRITE_LOCK: &str = "SELECT pg_advisory_xact_lock(7427517365)";

/// Whether a `--store` value names a PostgreSQL database (`postgres://` or `postgresql://`).
pub fn is_url(path: &Path) -> bool {
    path.to_str()
        .is_some_and(|s| s.starts_with("postgres://") || s.starts_with("postgresql://"))
}

/// A store location fit for messages: a PostgreSQL URL's password is replaced by `***`.
pub fn redact(path: &Path) -> String {
    let text = path.display().to_string();
    if !is_url(path) {
        return text;
    }
    let Some((scheme, rest)) = text.split_once("://") else {
        return text;
    };
    let (auth, host) = match rest.split_once('@') {
        Some((a, h)) if !a.contains('/') => (a, h),
        _ => return text,
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => text,
    }
}

/// A PostgreSQL client with its prepared statements.
pub struct PgConn {
    client: RefCell<Client>,
    cache: RefCell<HashMap<String, Statement>>,
}

impl PgConn {
    /// Connects to `url` (libpq-style URL: `postgres://user:pass@host:port/db`, or a Unix socket
    /// directory as `postgres://user@%2Fvar%2Frun%2Fpostgresql/db`).
    pub fn connect(url: &str) -> Result<Self, postgres::Error> {
        let client = Client::connect(url, NoTls)?;
        Ok(PgConn {
            client: RefCell::new(client),
            cache: RefCell::new(HashMap::new()),
        })
    }

    pub(super) fn prepare(&self, sql: &str) -> Result<Statement, StoreError> {
        if let Some(s) = self.cache.borrow().get(sql) {
            return Ok(s.clone());
        }
        let stmt = self
            .client
            .borrow_mut()
            .prepare(&to_pg_placeholders(sql))
            .map_err(|e| StoreError::Statement {
                sql: sql.chars().take(200).collect(),
                cause: e,
            })?;
        self.cache
            .borrow_mut()
            .insert(sql.to_string(), stmt.clone());
        Ok(stmt)
    }

    pub(super) fn execute(&self, stmt: &Statement, vals: &[Val<'_>]) -> Result<u64, StoreError> {
        let refs: Vec<&(dyn ToSql + Sync)> = vals.iter().map(|v| v as _).collect();
        Ok(self.client.borrow_mut().execute(stmt, &refs)?)
    }

    pub(super) fn query(
        &self,
        stmt: &Statement,
        vals: &[Val<'_>],
    ) -> Result<Vec<postgres::Row>, StoreError> {
        let refs: Vec<&(dyn ToSql + Sync)> = vals.iter().map(|v| v as _).collect();
        Ok(self.client.borrow_mut().query(stmt, &refs)?)
    }

    pub(super) fn batch(&self, sql: &str) -> Result<(), StoreError> {
        Ok(self.client.borrow_mut().batch_execute(sql)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_recognised_and_passwords_redacted() {
        assert!(is_url(Path::new("postgres://u@h/db")));
        assert!(is_url(Path::new("postgresql://u@h/db")));
        assert!(!is_url(Path::new("tuplewright.db")));
        assert_eq!(
            redact(Path::new("postgres://tw:secret@db:5432/x")),
            "postgres://tw:***@db:5432/x"
        );
        assert_eq!(
            redact(Path::new("postgres://tw@db/x")),
            "postgres://tw@db/x"
        );
        assert_eq!(redact(Path::new("a/b.db")), "a/b.db");
    }
}
