//! Serving one app's connections with limits: at most `max_connections` open (the next one is
//! answered `503 too_many_connections` and closed), a request head must arrive within
//! `header_timeout_ms` of its first byte, and a connection on which no byte moves for
//! `idle_timeout_ms` is closed. [`serve`] is the accept loop; [`ConnStats`] counts what it did.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;

use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tuplewright_base::access::listener::{Peer, Stream};

/// The connection limits of one app's listener.
#[derive(Debug, Clone, Copy)]
pub struct ConnLimits {
    /// Most open connections.
    pub max_connections: usize,
    /// Time from a request's first byte to its complete head.
    pub header_timeout: Duration,
    /// Time without a byte moving before a connection is closed.
    pub idle_timeout: Duration,
}

/// Counters of one app's listener.
#[derive(Debug, Default)]
pub struct ConnStats {
    open: AtomicUsize,
    accepted: AtomicU64,
    refused: AtomicU64,
    idle_closed: AtomicU64,
    header_timeouts: AtomicU64,
    limit: AtomicUsize,
}

/// A copy of [`ConnStats`] at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ConnCounts {
    /// Connections open now.
    pub open: usize,
    /// The connection cap in force.
    pub limit: usize,
    /// Connections accepted and served since start.
    pub accepted: u64,
    /// Connections answered `503 too_many_connections`.
    pub refused: u64,
    /// Connections closed for idleness.
    pub idle_closed: u64,
    /// Connections closed because a request head did not arrive in time.
    pub header_timeouts: u64,
}

impl ConnStats {
    /// The counters now.
    pub fn snapshot(&self) -> ConnCounts {
        ConnCounts {
            open: self.open.load(Ordering::Relaxed),
            limit: self.limit.load(Ordering::Relaxed),
            accepted: self.accepted.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
            idle_closed: self.idle_closed.load(Ordering::Relaxed),
            header_timeouts: self.header_timeouts.load(Ordering::Relaxed),
        }
    }
}

/// When bytes last moved on a connection and whether a request head is being read.
struct Activity {
    epoch: Instant,
    /// Milliseconds since `epoch` of the last byte read or written.
    last: AtomicU64,
    /// Milliseconds since `epoch` (+1) of the first byte of a request head not yet complete.
    head_started: AtomicU64,
    in_flight: AtomicUsize,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            epoch: Instant::now(),
            last: AtomicU64::new(0),
            head_started: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn moved(&self, read: bool) {
        self.moved_at(self.now_ms(), read);
    }

    fn moved_at(&self, now: u64, read: bool) {
        self.last.store(now, Ordering::Relaxed);
        if read && self.in_flight.load(Ordering::Relaxed) == 0 {
            let _ = self.head_started.compare_exchange(
                0,
                now + 1,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }

    /// When the connection next needs looking at, and why it must close if that is now.
    fn check(&self, limits: &ConnLimits) -> (Instant, Option<Closed>) {
        let now = self.now_ms();
        let (next, why) = self.check_at(now, limits);
        (self.epoch + Duration::from_millis(next), why)
    }

    /// [`Activity::check`] at `now` milliseconds since the epoch (the next time likewise).
    fn check_at(&self, now: u64, limits: &ConnLimits) -> (u64, Option<Closed>) {
        let ms = |d: Duration| d.as_millis() as u64;
        let idle_at = self.last.load(Ordering::Relaxed) + ms(limits.idle_timeout);
        let head = self.head_started.load(Ordering::Relaxed);
        let head_at = (head > 0 && self.in_flight.load(Ordering::Relaxed) == 0)
            .then(|| head - 1 + ms(limits.header_timeout));
        let why = if head_at.is_some_and(|at| now >= at) {
            Some(Closed::SlowHead)
        } else if now >= idle_at {
            Some(Closed::Idle)
        } else {
            None
        };
        // A head may start at any moment: look again within one header timeout.
        let next = head_at
            .unwrap_or(u64::MAX)
            .min(idle_at)
            .min(now + ms(limits.header_timeout));
        (next.max(now + 1), why)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Closed {
    Idle,
    SlowHead,
}

/// A connection's stream (TCP, or TLS over it) that records when bytes move.
struct Tracked {
    io: Box<dyn Stream>,
    act: Arc<Activity>,
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.io).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.act.moved(true);
        }
        r
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.act.moved(false);
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.act.moved(false);
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// The app's router, marking each request in flight (a head is complete once it is called).
#[derive(Clone)]
struct Counted {
    inner: TowerToHyperService<Router>,
    act: Arc<Activity>,
    peer: std::net::SocketAddr,
}

struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

type RouterResponse = axum::response::Response;
type BoxFuture =
    Pin<Box<dyn Future<Output = Result<RouterResponse, std::convert::Infallible>> + Send>>;

impl hyper::service::Service<Request<Incoming>> for Counted {
    type Response = RouterResponse;
    type Error = std::convert::Infallible;
    type Future = BoxFuture;

    fn call(&self, mut req: Request<Incoming>) -> BoxFuture {
        // The client's address, for the access guard (`engine::access`).
        req.extensions_mut().insert(Peer(self.peer));
        self.act.in_flight.fetch_add(1, Ordering::Relaxed);
        self.act.head_started.store(0, Ordering::Relaxed);
        let guard = InFlight(self.act.clone());
        let fut = hyper::service::Service::call(&self.inner, req);
        Box::pin(async move {
            let r = fut.await;
            drop(guard);
            r
        })
    }
}

/// The cap that fits the process's open-file limit (leaving room for session files).
fn effective_cap(wanted: usize) -> usize {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we pass.
    let soft = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0 {
        lim.rlim_cur as usize
    } else {
        usize::MAX
    };
    let fits = soft.saturating_sub(128).max(1);
    if wanted > fits {
        tracing::warn!(
            wanted,
            cap = fits,
            open_files = soft,
            "max_connections lowered to fit the open-file limit"
        );
    }
    wanted.clamp(1, fits)
}

/// Accepts and serves connections on `listener` until `stop` turns true, then lets open
/// connections finish (at most 10 s).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnLimits,
    stats: Arc<ConnStats>,
    stop: watch::Receiver<bool>,
) {
    serve_with(listener, router, limits, stats, stop, None).await
}

/// [`serve`], with TLS on every connection when `tls` is given (the handshake must complete
/// within the header timeout; a connection over the cap is then simply closed).
pub async fn serve_with(
    listener: TcpListener,
    router: Router,
    limits: ConnLimits,
    stats: Arc<ConnStats>,
    mut stop: watch::Receiver<bool>,
    tls: Option<Arc<rustls::ServerConfig>>,
) {
    let tls = tls.map(TlsAcceptor::from);
    let cap = effective_cap(limits.max_connections);
    stats.limit.store(cap, Ordering::Relaxed);
    let permits = Arc::new(Semaphore::new(cap));
    // Answering refused connections is bounded too; beyond it they are simply closed.
    let answerers = Arc::new(Semaphore::new(64));
    let mut conns = JoinSet::new();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => break,
        };
        while conns.try_join_next().is_some() {}
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors (EMFILE/ENFILE) or a connection reset before accept.
                tracing::warn!(error = %e, "state API accept failed; backing off");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            stats.refused.fetch_add(1, Ordering::Relaxed);
            if tls.is_some() {
                continue;
            }
            if let Ok(p) = answerers.clone().try_acquire_owned() {
                tokio::spawn(async move {
                    refuse(stream, cap).await;
                    drop(p);
                });
            }
            continue;
        };
        stats.accepted.fetch_add(1, Ordering::Relaxed);
        stats.open.fetch_add(1, Ordering::Relaxed);
        let (router, stats, stop, tls) = (router.clone(), stats.clone(), stop.clone(), tls.clone());
        conns.spawn(async move {
            if let Some(io) = secured(stream, tls, limits.header_timeout).await {
                one(io, peer, router, limits, &stats, stop).await;
            }
            stats.open.fetch_sub(1, Ordering::Relaxed);
            drop(permit);
        });
    }
    let drain = async { while conns.join_next().await.is_some() {} };
    if tokio::time::timeout(Duration::from_secs(10), drain)
        .await
        .is_err()
    {
        conns.abort_all();
    }
}

/// The connection's stream: as is, or after a TLS handshake (`None` if it failed or was late).
async fn secured(
    stream: TcpStream,
    tls: Option<TlsAcceptor>,
    within: Duration,
) -> Option<Box<dyn Stream>> {
    let Some(acceptor) = tls else {
        return Some(Box::new(stream));
    };
    match tokio::time::timeout(within, acceptor.accept(stream)).await {
        Ok(Ok(s)) => Some(Box::new(s)),
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "TLS handshake failed");
            None
        }
        Err(_) => None,
    }
}

async fn one(
    stream: Box<dyn Stream>,
    peer: std::net::SocketAddr,
    router: Router,
    limits: ConnLimits,
    stats: &ConnStats,
    mut stop: watch::Receiver<bool>,
) {
    let act = Arc::new(Activity::new());
    let io = TokioIo::new(Tracked {
        io: stream,
        act: act.clone(),
    });
    let svc = Counted {
        inner: TowerToHyperService::new(router),
        act: act.clone(),
        peer,
    };
    let conn = hyper::server::conn::http1::Builder::new().serve_connection(io, svc);
    tokio::pin!(conn);
    let mut stopping = *stop.borrow();
    if stopping {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        let (next, why) = act.check(&limits);
        match why {
            Some(Closed::Idle) => {
                stats.idle_closed.fetch_add(1, Ordering::Relaxed);
                return;
            }
            Some(Closed::SlowHead) => {
                stats.header_timeouts.fetch_add(1, Ordering::Relaxed);
                return;
            }
            None => {}
        }
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    tracing::debug!(error = %e, "state API connection ended with an error");
                }
                return;
            }
            _ = tokio::time::sleep_until(next) => {}
            _ = stop.changed(), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Answers a connection over the cap with a JSON 503 and closes it. The request head is read
/// first (briefly), so closing does not reset the connection before the client reads the answer.
async fn refuse(mut s: TcpStream, cap: usize) {
    let body = format!(
        "{{\"error\":\"too_many_connections\",\"detail\":\"the state API server has reached its \
         limit of {cap} open connections (env.max_connections); retry later\"}}"
    );
    let resp = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut head = Vec::new();
    let read_head = async {
        let mut buf = [0u8; 4096];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 64 * 1024 {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_millis(500), read_head).await;
    let answer = async {
        s.write_all(resp.as_bytes()).await?;
        s.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), answer).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activity_closes_idle_and_slow_heads_only() {
        let limits = ConnLimits {
            max_connections: 1,
            header_timeout: Duration::from_secs(2),
            idle_timeout: Duration::from_secs(10),
        };
        let act = Activity::new();
        assert_eq!(act.check_at(0, &limits), (2000, None));
        assert_eq!(act.check_at(9000, &limits), (10_000, None));
        act.moved_at(1000, true); // the first byte of a request head
        assert_eq!(act.check_at(2500, &limits), (3000, None));
        assert_eq!(act.check_at(3100, &limits).1, Some(Closed::SlowHead));
        // A request in flight is not a slow head; quiet for the idle time is idle.
        act.in_flight.store(1, Ordering::Relaxed);
        assert_eq!(act.check_at(3100, &limits), (5100, None));
        assert_eq!(act.check_at(11_000, &limits).1, Some(Closed::Idle));
        // Bytes written keep the connection alive without starting a head.
        act.in_flight.store(0, Ordering::Relaxed);
        act.head_started.store(0, Ordering::Relaxed);
        act.moved_at(11_000, false);
        assert_eq!(act.check_at(12_000, &limits), (14_000, None));
        assert_eq!(act.check_at(20_000, &limits), (21_000, None));
    }
}
