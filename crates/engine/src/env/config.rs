//! [`ServerConfig`]: configuration of the state API server (the `[env]` table of
//! `tuplewright.toml`).

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Configuration of the state API server. Every field has a sane local default.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ServerConfig {
    /// Address to listen on. Default `127.0.0.1` (loopback only).
    pub host: IpAddr,
    /// Port of the first app; further apps take the following ports. `None` = each app's
    /// conventional port from its manifest; `Some(0)` = ephemeral ports.
    pub port: Option<u16>,
    /// Directory holding the sessions (one sub-directory per app). Default
    /// `tuplewright-env-state` in the working directory.
    pub state_dir: PathBuf,
    /// Directory whose `<app>/manifest.toml` + `<app>/seed.json` override or add to the
    /// built-in apps. Default: none (only the embedded apps).
    pub apps_dir: Option<PathBuf>,
    /// Largest accepted request body in bytes (JSON and multipart); larger gets 413.
    /// Default 16 MiB.
    pub body_limit_bytes: usize,
    /// A session untouched (neither read nor written) for this many seconds is deleted.
    /// Default 3600 (one hour, paper §B.3.2).
    pub session_ttl_secs: u64,
    /// How often the garbage collector runs, in seconds. Default 60.
    pub gc_interval_secs: u64,
    /// An optional cap on the number of sessions kept loaded in memory, on top of the byte
    /// budget `cache_bytes`, which alone bounds the cache by default. 0 (the default) = no
    /// count cap: every cached session costs at least its accounted slot overhead, so the byte
    /// budget bounds the count too.
    pub cache_capacity: usize,
    /// Most bytes the loaded sessions may hold in memory together (snapshot texts, `/go` parts,
    /// gzip bodies); idle sessions are evicted to disk beyond it, and a write whose state cannot
    /// fit is refused (507). Default 256 MiB.
    pub cache_bytes: u64,
    /// Sync the journal before acknowledging a write (durable across power loss; the writes
    /// that arrive together share one sync). Default true.
    pub fsync: bool,
    /// Journal size at which the session files are synced and the journal emptied.
    /// Default 64 MiB.
    pub checkpoint_bytes: u64,
    /// Longest time, in milliseconds, a session file lags behind its last acknowledged write
    /// (the synced journal is the durable copy meanwhile, and reads use its pending record); a
    /// busy session's file is written once per lag, not once per write. Default 500.
    pub file_lag_ms: u64,
    /// Longest time, in microseconds, the journal's committer waits before a sync for writers
    /// that are still reading or preparing their request (arrival-side batching, like
    /// PostgreSQL's `commit_delay` with `commit_siblings`): it waits only while such a writer
    /// exists, so a lone writer is never delayed. 0 turns it off. Default 0: with the journal
    /// overwritten in place a sync takes ~0.3 ms here, and waiting cost more than it gathered
    /// (16 connections: 7,152 req/s without the wait, 4,319 with 1000 µs; docs/state-server.md).
    /// Worth turning on where a sync takes several milliseconds.
    pub commit_delay_us: u64,
    /// Most open connections per app; beyond it a connection gets `503 too_many_connections`
    /// and is closed. Default 4096 (lowered to fit the process's open-file limit).
    pub max_connections: usize,
    /// A request's head (request line and headers) must arrive within this many milliseconds
    /// of its first byte, or the connection is closed. Default 10 000.
    pub header_timeout_ms: u64,
    /// A connection on which no byte moves for this many milliseconds is closed. Default
    /// 60 000.
    pub idle_timeout_ms: u64,
    /// Access token: a file holding it (one line of 16-1024 printable ASCII characters). Any
    /// face listening off loopback needs a token and/or `allow_from`
    /// (docs/state-server.md#serving-beyond-this-machine).
    pub token_file: Option<PathBuf>,
    /// Access token: the name of an environment variable holding it.
    pub token_env: Option<String>,
    /// Access token: generate a fresh one at start, printed once. Default false.
    pub generate_token: bool,
    /// CIDR blocks (or addresses) clients must come from; empty = any address.
    pub allow_from: Vec<String>,
    /// TLS: certificate chain (PEM) to serve HTTPS with, with `tls_key`.
    pub tls_cert: Option<PathBuf>,
    /// TLS: the certificate's private key (PEM).
    pub tls_key: Option<PathBuf>,
}

impl ServerConfig {
    /// The access-control keys as one value.
    pub fn access_settings(&self) -> tuplewright_base::access::AccessSettings {
        tuplewright_base::access::AccessSettings {
            token_file: self.token_file.clone(),
            token_env: self.token_env.clone(),
            generate_token: self.generate_token,
            allow_from: self.allow_from.clone(),
            tls_cert: self.tls_cert.clone(),
            tls_key: self.tls_key.clone(),
        }
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: None,
            state_dir: PathBuf::from("tuplewright-env-state"),
            apps_dir: None,
            body_limit_bytes: 16 * 1024 * 1024,
            session_ttl_secs: 3600,
            gc_interval_secs: 60,
            cache_capacity: 0,
            cache_bytes: 256 << 20,
            fsync: true,
            checkpoint_bytes: 64 << 20,
            file_lag_ms: 500,
            commit_delay_us: 0,
            max_connections: 4096,
            header_timeout_ms: 10_000,
            idle_timeout_ms: 60_000,
            token_file: None,
            token_env: None,
            generate_token: false,
            allow_from: Vec::new(),
            tls_cert: None,
            tls_key: None,
        }
    }
}
