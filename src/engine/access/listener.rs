//! Serving a face behind its [`Access`]: a TCP listener that optionally speaks TLS (handshakes in
//! their own tasks, with a deadline), the client's address as a request extension ([`Peer`]), and
//! the [`guard`] middleware every request passes before any route.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum::serve::IncomingStream;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;

use super::Access;

/// A connection's byte stream, plain TCP or TLS over it.
pub trait Stream: AsyncRead + AsyncWrite + Unpin + Send + 'static {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + 'static> Stream for T {}

/// The client's address, as the guard reads it from the request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

impl Connected<IncomingStream<'_, GuardedListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, GuardedListener>) -> Self {
        Peer(*stream.remote_addr())
    }
}

/// How long a client may take over its TLS handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A TCP listener for `axum::serve` whose connections are TLS when the face has a certificate.
pub struct GuardedListener {
    rx: mpsc::Receiver<(Box<dyn Stream>, SocketAddr)>,
    local: SocketAddr,
    task: JoinHandle<()>,
}

impl GuardedListener {
    /// Starts accepting on `listener`, with TLS when `access` has a certificate.
    pub fn new(listener: TcpListener, access: &Access) -> std::io::Result<Self> {
        let local = listener.local_addr()?;
        let acceptor = access.tls().map(TlsAcceptor::from);
        let (tx, rx) = mpsc::channel(64);
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, peer)) = listener.accept().await else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let tx = tx.clone();
                match acceptor.clone() {
                    None => {
                        let _ = tx.send((Box::new(stream) as Box<dyn Stream>, peer)).await;
                    }
                    Some(acceptor) => {
                        tokio::spawn(async move {
                            match tokio::time::timeout(HANDSHAKE, acceptor.accept(stream)).await {
                                Ok(Ok(tls)) => {
                                    let _ = tx.send((Box::new(tls) as Box<dyn Stream>, peer)).await;
                                }
                                Ok(Err(e)) => {
                                    tracing::warn!(%peer, error = %e, "TLS handshake failed")
                                }
                                Err(_) => tracing::warn!(%peer, "TLS handshake timed out"),
                            }
                        });
                    }
                }
            }
        });
        Ok(GuardedListener { rx, local, task })
    }
}

impl Drop for GuardedListener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl axum::serve::Listener for GuardedListener {
    type Io = Box<dyn Stream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.rx.recv().await {
            Some(conn) => conn,
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.local)
    }
}

/// The middleware in front of every route: refuses a request without the face's credentials
/// (401, or 403 from an address outside `--allow-from`; logged and counted) and drops a role
/// header that did not come from this process's forwarder.
pub async fn guard(State(access): State<Arc<Access>>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<Peer>>()
        .map(|c| c.0 .0)
        .or_else(|| req.extensions().get::<Peer>().map(|p| p.0));
    if let Err(denied) = access.check(peer, req.headers()) {
        return access.refuse(denied, peer, req.method().as_str(), req.uri().path());
    }
    if super::forwarder::strip_untrusted_role(req.headers_mut()) {
        access.role_header_ignored(peer, req.uri().path());
    }
    next.run(req).await
}
