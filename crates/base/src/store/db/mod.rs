//! The store's one database layer over both backends: [`Conn`] is an embedded SQLite connection
//! (rusqlite) or a PostgreSQL client (the sync `postgres` crate of rust-postgres), with the few
//! operations the store uses — `execute`, `query_row`, `query_map`, `execute_batch`, prepared and
//! cached statements — and one value type ([`Val`]) bridging both drivers' parameters and rows.
//!
//! SQL is written once, in the dialect both accept, with SQLite's `?N` placeholders; they are
//! rewritten to PostgreSQL's `$N` when a statement is prepared there. Anything backend-specific
//! branches on [`Conn::backend`].

mod pg;
mod value;

pub use pg::{is_url, redact, PgConn};
pub use value::{FromValue, ToValue, Val};

use super::StoreError;

/// Which engine a [`Conn`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The embedded SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// Statement parameters: `params![a, b]`, or `[]` for none.
pub trait Params {
    /// The parameters in order.
    fn values(&self) -> Vec<Val<'_>>;
}

impl Params for [&dyn ToValue; 0] {
    fn values(&self) -> Vec<Val<'_>> {
        Vec::new()
    }
}

macro_rules! array_params {
    ($($n:literal)*) => {$(
        impl<T: ToValue> Params for [T; $n] {
            fn values(&self) -> Vec<Val<'_>> {
                self.iter().map(ToValue::to_val).collect()
            }
        }
    )*};
}
array_params!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);

impl Params for &[&dyn ToValue] {
    fn values(&self) -> Vec<Val<'_>> {
        self.iter().map(|p| p.to_val()).collect()
    }
}

/// `params![a, b, …]`: statement parameters of any [`ToValue`] types.
#[macro_export]
macro_rules! tw_params {
    () => { &[] as &[&dyn $crate::store::db::ToValue] };
    ($($p:expr),+ $(,)?) => {
        &[$(&$p as &dyn $crate::store::db::ToValue),+] as &[&dyn $crate::store::db::ToValue]
    };
}
pub use crate::tw_params as params;

/// `.optional()` on a single-row query: no row is `None`, as rusqlite's `OptionalExtension`.
pub trait OptionalExt<T> {
    /// `Ok(None)` for [`StoreError::NoRow`].
    fn optional(self) -> Result<Option<T>, StoreError>;
}

impl<T> OptionalExt<T> for Result<T, StoreError> {
    fn optional(self) -> Result<Option<T>, StoreError> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(StoreError::NoRow) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// One connection to the store's database.
pub enum Conn {
    /// SQLite.
    Sqlite(rusqlite::Connection),
    /// PostgreSQL (boxed: a client is much larger than a SQLite handle).
    Pg(Box<pg::PgConn>),
}

/// A prepared (cached) statement.
pub enum Stmt<'c> {
    /// SQLite's.
    Sqlite(rusqlite::CachedStatement<'c>),
    /// PostgreSQL's, with its client.
    Pg(&'c pg::PgConn, postgres::Statement),
}

/// One result row.
pub enum Row<'r> {
    /// SQLite's.
    Sqlite(&'r rusqlite::Row<'r>),
    /// PostgreSQL's.
    Pg(&'r postgres::Row),
}

impl<'r> Row<'r> {
    /// Column `i` (0-based), borrowed from the row.
    pub fn val(&self, i: usize) -> Result<Val<'r>, StoreError> {
        Ok(match *self {
            Row::Sqlite(r) => r.get_ref(i)?.into(),
            Row::Pg(r) => r.try_get(i)?,
        })
    }

    /// Column `i` (0-based) as `T`; a wrong type is an error naming the column.
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T, StoreError> {
        T::from_val(self.val(i)?).map_err(|e| StoreError::Invalid(format!("column {i}: {e}")))
    }

    /// A nullable text column borrowed from the row (no copy); a number reads as `None`.
    pub fn text(&self, i: usize) -> Result<Option<&'r str>, StoreError> {
        Ok(match self.val(i)? {
            Val::Text(t) => Some(t),
            _ => None,
        })
    }
}

/// Rows mapped by a closure, in order.
pub type Mapped<T> = std::vec::IntoIter<Result<T, StoreError>>;

impl Stmt<'_> {
    /// Runs the statement; returns the number of rows changed.
    pub fn execute(&mut self, params: impl Params) -> Result<usize, StoreError> {
        let vals = params.values();
        match self {
            Stmt::Sqlite(s) => Ok(s.execute(rusqlite::params_from_iter(vals.iter()))?),
            Stmt::Pg(c, s) => Ok(c.execute(s, &vals)? as usize),
        }
    }

    /// Maps every row with `f`.
    pub fn query_map<T>(
        &mut self,
        params: impl Params,
        mut f: impl FnMut(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Mapped<T>, StoreError> {
        let vals = params.values();
        let mut out = Vec::new();
        match self {
            Stmt::Sqlite(s) => {
                let mut rows = s.query(rusqlite::params_from_iter(vals.iter()))?;
                while let Some(r) = rows.next()? {
                    out.push(f(&Row::Sqlite(r)));
                }
            }
            Stmt::Pg(c, s) => {
                for r in c.query(s, &vals)? {
                    out.push(f(&Row::Pg(&r)));
                }
            }
        }
        Ok(out.into_iter())
    }

    /// The first row mapped by `f`; [`StoreError::NoRow`] when there is none.
    pub fn query_row<T>(
        &mut self,
        params: impl Params,
        f: impl FnOnce(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let vals = params.values();
        match self {
            Stmt::Sqlite(s) => {
                let mut rows = s.query(rusqlite::params_from_iter(vals.iter()))?;
                match rows.next()? {
                    Some(r) => f(&Row::Sqlite(r)),
                    None => Err(StoreError::NoRow),
                }
            }
            Stmt::Pg(c, s) => match c.query(s, &vals)?.first() {
                Some(r) => f(&Row::Pg(r)),
                None => Err(StoreError::NoRow),
            },
        }
    }
}

impl Conn {
    /// The backend.
    pub fn backend(&self) -> Backend {
        match self {
            Conn::Sqlite(_) => Backend::Sqlite,
            Conn::Pg(_) => Backend::Postgres,
        }
    }

    /// The SQLite connection, for SQLite-only code (integrity checks, tests); `None` on PostgreSQL.
    pub fn sqlite(&self) -> Option<&rusqlite::Connection> {
        match self {
            Conn::Sqlite(c) => Some(c),
            Conn::Pg(_) => None,
        }
    }

    /// Prepares `sql` once per connection and returns the cached statement.
    pub fn prepare_cached(&self, sql: &str) -> Result<Stmt<'_>, StoreError> {
        match self {
            Conn::Sqlite(c) => Ok(Stmt::Sqlite(c.prepare_cached(sql)?)),
            Conn::Pg(c) => Ok(Stmt::Pg(c, c.prepare(sql)?)),
        }
    }

    /// Same as [`Self::prepare_cached`] (every statement is cached).
    pub fn prepare(&self, sql: &str) -> Result<Stmt<'_>, StoreError> {
        self.prepare_cached(sql)
    }

    /// Runs one statement; returns the number of rows changed.
    pub fn execute(&self, sql: &str, params: impl Params) -> Result<usize, StoreError> {
        self.prepare_cached(sql)?.execute(params)
    }

    /// The first row of `sql` mapped by `f`; [`StoreError::NoRow`] when there is none.
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: impl Params,
        f: impl FnOnce(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.prepare_cached(sql)?.query_row(params, f)
    }

    /// Every row of `sql` mapped by `f`.
    pub fn query_map<T>(
        &self,
        sql: &str,
        params: impl Params,
        f: impl FnMut(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Mapped<T>, StoreError> {
        self.prepare_cached(sql)?.query_map(params, f)
    }

    /// Calls `f` on every row of `sql` as it is read (SQLite streams; nothing is collected).
    pub fn for_each(
        &self,
        sql: &str,
        params: impl Params,
        mut f: impl FnMut(&Row<'_>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let vals = params.values();
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(vals.iter()))?;
                while let Some(r) = rows.next()? {
                    f(&Row::Sqlite(r))?;
                }
            }
            Conn::Pg(c) => {
                let stmt = c.prepare(sql)?;
                for r in c.query(&stmt, &vals)? {
                    f(&Row::Pg(&r))?;
                }
            }
        }
        Ok(())
    }

    /// Runs several `;`-separated statements without parameters.
    pub fn execute_batch(&self, sql: &str) -> Result<(), StoreError> {
        match self {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Pg(c) => c.batch(sql),
        }
    }

    /// Starts a transaction. On SQLite it is immediate (takes the write lock at once); on
    /// PostgreSQL `serialize` takes the store-wide write lock (an advisory transaction lock), which
    /// gives writers SQLite's order: events commit in `seq` order, so a follower never misses one.
    pub fn begin(&self, serialize: bool) -> Result<TxGuard<'_>, StoreError> {
        match self {
            Conn::Sqlite(c) => c.execute_batch("BEGIN IMMEDIATE")?,
            Conn::Pg(c) => {
                c.batch("BEGIN")?;
                if serialize {
                    c.batch(pg::WRITE_LOCK)?;
                }
            }
        }
        Ok(TxGuard {
            conn: self,
            done: false,
        })
    }

    /// Takes the store-wide write lock inside the current PostgreSQL transaction (a no-op on
    /// SQLite, whose transactions already hold it).
    pub fn write_lock(&self) -> Result<(), StoreError> {
        match self {
            Conn::Sqlite(_) => Ok(()),
            Conn::Pg(c) => c.batch(pg::WRITE_LOCK),
        }
    }

    /// `FOR UPDATE`-style row-lock suffix for this backend (`""` on SQLite, whose write
    /// transaction already excludes every other writer).
    pub fn lock_suffix<'s>(&self, pg: &'s str) -> &'s str {
        match self {
            Conn::Sqlite(_) => "",
            Conn::Pg(_) => pg,
        }
    }
}

/// An open transaction: rolled back when dropped without [`TxGuard::commit`].
pub struct TxGuard<'c> {
    conn: &'c Conn,
    done: bool,
}

impl TxGuard<'_> {
    /// Commits.
    pub fn commit(mut self) -> Result<(), StoreError> {
        self.done = true;
        self.conn.execute_batch("COMMIT")
    }
}

impl Drop for TxGuard<'_> {
    fn drop(&mut self) {
        if !self.done {
            // Best effort: a connection that cannot roll back is broken and its work is lost
            // anyway (SQLite and PostgreSQL both discard an uncommitted transaction).
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

/// Rewrites SQLite's `?N` placeholders to PostgreSQL's `$N` (outside quoted text); a bare `?`
/// takes the next number.
pub fn to_pg_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut quote: Option<char> = None;
    let mut next = 0u32;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == q {
                    quote = None;
                }
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                out.push(c);
            }
            None if c == '?' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                if digits.is_empty() {
                    next += 1;
                    digits = next.to_string();
                } else {
                    next = digits.parse().unwrap_or(next);
                }
                out.push('$');
                out.push_str(&digits);
            }
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::to_pg_placeholders;

    #[test]
    fn placeholders_are_rewritten_outside_quotes_only() {
        assert_eq!(
            to_pg_placeholders("SELECT a FROM t WHERE b = ?1 AND c = ?12 AND d = '?3'"),
            "SELECT a FROM t WHERE b = $1 AND c = $12 AND d = '?3'"
        );
        assert_eq!(to_pg_placeholders("VALUES (?, ?)"), "VALUES ($1, $2)");
        assert_eq!(
            to_pg_placeholders("x = \"?\" OR y = ?2"),
            "x = \"?\" OR y = $2"
        );
    }
}
