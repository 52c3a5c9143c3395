//! Throw-away PostgreSQL databases for tests: [`TestDb::create`] makes `tw_test_<random>` (UTF-8,
//! "C" collation) on the server named by `TUPLEWRIGHT_TEST_PG` (default
//! [`DEFAULT_TEST_PG`]) and drops it when dropped. With no server reachable the caller is told to
//! skip — loudly, and only outside CI: with `CI` set, an unreachable server fails the test.

use std::path::PathBuf;

use postgres::{Client, NoTls};

/// The server tests use unless `TUPLEWRIGHT_TEST_PG` says otherwise (`.ci/setup` creates the role).
pub const DEFAULT_TEST_PG: &str = "postgres://tuplewright:tuplewright@127.0.0.1:5432/postgres";

/// A database created for one test.
pub struct TestDb {
    admin_url: String,
    name: String,
    url: String,
}

/// `url` with its database name replaced by `db`.
pub fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (url, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_part = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    format!("{host_part}/{db}{query}")
}

impl TestDb {
    /// Creates a fresh database; `None` (after a loud message on stderr) when no PostgreSQL is
    /// reachable and `CI` is unset. Panics in CI, or when the server refuses to create it.
    pub fn create(test: &str) -> Option<TestDb> {
        let admin_url =
            std::env::var("TUPLEWRIGHT_TEST_PG").unwrap_or_else(|_| DEFAULT_TEST_PG.to_string());
        let mut admin = match Client::connect(&admin_url, NoTls) {
            Ok(c) => c,
            Err(e) => {
                if std::env::var_os("CI").is_some() {
                    panic!("{test}: PostgreSQL at {admin_url} is unreachable in CI: {e}");
                }
                eprintln!(
                    "\n*** SKIPPED {test}: no PostgreSQL at {admin_url} ({e}); run `bash .ci/setup` \
                     as root or set TUPLEWRIGHT_TEST_PG ***\n"
                );
                return None;
            }
        };
        let name = format!("tw_test_{}", uuid::Uuid::new_v4().simple());
        let sql = format!(
            "CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
        );
        if let Err(e) = admin.batch_execute(&sql) {
            panic!("{test}: creating database {name} on {admin_url}: {e:?}");
        }
        let url = with_database(&admin_url, &name);
        Some(TestDb {
            admin_url,
            name,
            url,
        })
    }

    /// The database's URL, usable as a `--store` path.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL as a store path.
    pub fn path(&self) -> PathBuf {
        PathBuf::from(&self.url)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        // Best effort: a database left behind is named tw_test_* and harmless.
        if let Ok(mut admin) = Client::connect(&self.admin_url, NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_name_is_replaced_and_options_kept() {
        assert_eq!(
            with_database("postgres://u:p@h:5432/postgres", "x"),
            "postgres://u:p@h:5432/x"
        );
        assert_eq!(with_database("postgres://u@h", "x"), "postgres://u@h/x");
        assert_eq!(
            with_database("postgres://u@h/db?sslmode=disable", "x"),
            "postgres://u@h/x?sslmode=disable"
        );
    }
}
